// Package perfmon is the SM's performance monitor, a two-phase unit
// (package rtl) mirroring the Verilog module perf_mon (instance
// sm_top.u_perf_mon).
//
// It holds the sixteen pmevent event counters (event_count_q, 64-bit;
// seed 000: "there are sixteen performance monitor events, numbered 0
// through 15") and the eight performance counters %pm0_64..%pm7_64 (pm_q;
// %pmN is the low 32 bits, seed 003). Each cycle the SM drives, per
// scheduler port, event_valid_i and event_mask_i (1<<a for pmevent a, a
// for pmevent.mask a) for a pmevent executed by at least one lane, plus
// issue_count_i (warp instructions issued this cycle) and stall_count_i
// (warps in each config.StallStates state this cycle). A set mask bit
// counts once per warp-level execution, however many lanes execute it.
//
// What %pmN counts is the parameter pm.counter.N (config.ParsePMCounter):
//
//   - cycles: +1 every cycle (so it reads the cycles since reset);
//   - instructions: +issue_count_i;
//   - event:K and events:MASK: +1 per triggered event of the mask (a
//     pmevent.mask hitting two counted events adds 2), so the counter equals
//     the sum of event_count_o over its mask;
//   - stall:STATE: +stall_count_i[STATE] (warp-cycles);
//   - off: stays 0.
//
// Outputs are registered: a read in cycle c sees the counts of cycles
// before c. Counts gives the end-of-run summary (JSON keys pm_events and
// pm_counters); Advance skips idle stretches.
//
// Not modelled: the host API that programs counters at run time (the seed's
// "Boolean functions" of events and hardware events: here pm.counter is
// fixed per run), counter overflow interrupts, sampling, and counters of
// other SMs. PTX calls %pm behaviour undefined; this is the model's choice.
package perfmon
