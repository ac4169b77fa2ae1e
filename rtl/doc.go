// Package rtl is the cycle kernel every clocked unit of the SM model is
// built on: the two-phase Unit discipline, fixed-width bit vectors, and the
// machine-readable signal tables derived from a unit's struct tags.
//
// # The two-phase discipline
//
// A unit mirrors one Verilog module. Its Go type has four parts:
//
//   - Params: the module parameters (fixed after construction);
//   - Inputs: the *_i ports;
//   - Outputs: the *_o ports;
//   - State: every *_q register, a plain comparable value (no pointers,
//     slices or maps), held twice: Q (the register outputs) and D (the
//     register inputs).
//
// Eval is always_comb: it reads only the inputs and Q and writes only D and
// the outputs, starting from D = Q. Tick is always_ff: Q = D. Every cycle the
// owner drives the inputs, Evals every unit in dependency order, lets the
// observers sample, then Ticks every unit. CheckTwoPhase is the generic test
// helper that enforces the rules on any unit: Eval is idempotent, leaves Q
// untouched, and Tick makes Q equal to the D that Eval computed.
//
// # Signal tables
//
// Go fields carry their Verilog names in `sv:"..."` tags (`issue_valid_o`,
// `rr_ptr_q`) and optionally a width in `width:"..."` (a number or the name
// of a parameter). Signals derives a unit's table (name, width, direction,
// scope) from its Inputs, Outputs and State values; the table is the single
// source for VCD tracing, cosimulation wire formats and generated headers.
// The direction follows the name's suffix: _i in, _o out, _q register.
//
// # Not modelled here
//
// rtl has no notion of clocks other than the single SM clock, no reset
// sequencing beyond a unit's own Reset method, no event queue and no
// delta cycles: units are evaluated in the order their owner calls them.
package rtl
