package perfmon

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// Scope is the Verilog instance path of the SM's one perf_mon.
const Scope = "sm_top.u_perf_mon"

// NumEvents is the number of pmevent events (seed 000: "Currently, there
// are sixteen performance monitor events, numbered 0 through 15").
const NumEvents = 16

// NumCounters is the number of performance counters, %pm0..%pm7.
const NumCounters = 8

// MaxPorts is the number of pmevent ports the arrays hold: one per warp
// scheduler (sched.count is at most 8).
const MaxPorts = 8

// NumStallStates is the length of the stall_count_i vector: one entry per
// name of config.StallStates, in that order ("any" first; unitcfg.StallIndex
// maps the names).
const NumStallStates = 11

// Kind is what a counter counts: the value in bits 3:0 of the Verilog
// CounterN parameter (smsim_pkg::Pm*).
type Kind uint8

// The counter kinds.
const (
	Off          Kind = iota // always 0
	Cycles                   // SM cycles
	Instructions             // warp-instructions issued
	Events                   // pmevent triggers of the events in Mask
	Stall                    // warp-cycles in the stall state Stall
)

// Counter is one %pmN counter.
type Counter struct {
	Kind  Kind
	Mask  uint16 // Events: the pmevent events counted (bit K = event K)
	Stall int    // Stall: the stall_count_i index (0..NumStallStates-1)
}

// Params are the module parameters of perf_mon.
type Params struct {
	// Counters says what each %pmN counts.
	Counters [NumCounters]Counter
	// NumPorts is the number of pmevent ports (sched.count), 1..MaxPorts.
	NumPorts int
}

// Inputs are the ports the SM drives each cycle.
type Inputs struct {
	// EventValid[p]: a pmevent executed on port p (scheduler p issued it
	// with at least one lane active and guard-true).
	EventValid [MaxPorts]bool `sv:"event_valid_i" width:"NumPorts"`
	// EventMask[p]: the events it triggers: 1<<a for pmevent a, a for
	// pmevent.mask a.
	EventMask [MaxPorts]uint16 `sv:"event_mask_i" width:"16*NumPorts"`
	// IssueCount: warp instructions issued by the SM this cycle
	// (0..NumPorts).
	IssueCount uint8 `sv:"issue_count_i" width:"clog2(NumPorts+1)"`
	// StallCount[i]: resident warps that spent this cycle in stall state
	// config.StallStates()[i] ("any" at index 0: any warp that is resident
	// and did not issue).
	StallCount [NumStallStates]uint16 `sv:"stall_count_i"`
}

// Outputs are the unit's ports, functions of the registers only.
type Outputs struct {
	// Pm[N] is %pmN_64; %pmN is its low 32 bits.
	Pm [NumCounters]uint64 `sv:"pm_o"`
	// EventCount[k] counts the warp-level triggers of event k.
	EventCount [NumEvents]uint64 `sv:"event_count_o"`
}

// State holds the unit's registers.
type State struct {
	Pm         [NumCounters]uint64 `sv:"pm_q"`
	EventCount [NumEvents]uint64   `sv:"event_count_q"`
}

// Counts is the end-of-run summary in the --json report's spelling.
// Embedding it in a report struct adds the keys pm_events and pm_counters.
type Counts struct {
	// Events[k] is event_count_o[k]: pmevent triggers of event k.
	Events [NumEvents]uint64 `json:"pm_events"`
	// Counters[N] is %pmN_64.
	Counters [NumCounters]uint64 `json:"pm_counters"`
}

// PerfMon is the perf_mon unit: a two-phase unit (rtl.Unit).
type PerfMon struct {
	p               Params
	rtl.Regs[State] // Q, D, Tick and Reset
}

var _ rtl.Unit[Inputs, Outputs, State] = (*PerfMon)(nil)

// New checks p and returns a unit in its reset state (every count 0).
func New(p Params) (*PerfMon, error) {
	if p.NumPorts < 1 || p.NumPorts > MaxPorts {
		return nil, fmt.Errorf("perfmon: NumPorts %d outside 1..%d", p.NumPorts, MaxPorts)
	}
	u := &PerfMon{p: p}
	for i, c := range p.Counters {
		switch c.Kind {
		case Off, Cycles, Instructions:
		case Events:
			if c.Mask == 0 {
				return nil, fmt.Errorf("perfmon: counter %d: empty event mask", i)
			}
		case Stall:
			if c.Stall < 0 || c.Stall >= NumStallStates {
				return nil, fmt.Errorf("perfmon: counter %d: stall index %d outside 0..%d", i, c.Stall, NumStallStates-1)
			}
		default:
			return nil, fmt.Errorf("perfmon: counter %d: unknown kind %d", i, c.Kind)
		}
	}
	u.Reset()
	return u, nil
}

// Params returns the unit's parameters.
func (u *PerfMon) Params() Params { return u.p }

// Eval is always_comb: the outputs from Q, and D = Q plus this cycle's
// increments.
func (u *PerfMon) Eval(in Inputs) Outputs {
	u.EvalRef(&in)
	return u.Out()
}

// EvalRef is Eval with the inputs passed by reference, for a caller that
// reads the outputs (functions of Q alone) through Out when it needs them:
// D = Q plus this cycle's increments. It does not keep or change *in.
func (u *PerfMon) EvalRef(in *Inputs) {
	u.Next = u.Cur
	u.add(&u.Next, in, 1)
}

// Out returns the outputs, a function of Q alone (no input reaches an
// output in the same cycle): what Eval returns this cycle, available before
// the SM knows this cycle's inputs. It changes nothing.
func (u *PerfMon) Out() Outputs {
	return Outputs{Pm: u.Cur.Pm, EventCount: u.Cur.EventCount}
}

// add adds n cycles' worth of the increments in gives to s.
func (u *PerfMon) add(s *State, in *Inputs, n uint64) {
	var ev [NumEvents]uint64
	anyEv := false
	for p := 0; p < u.p.NumPorts; p++ {
		if !in.EventValid[p] {
			continue
		}
		for m := in.EventMask[p]; m != 0; m &= m - 1 {
			ev[bits.TrailingZeros16(m)]++
			anyEv = true
		}
	}
	if anyEv {
		for k := range ev {
			s.EventCount[k] += n * ev[k]
		}
	}
	for i, c := range u.p.Counters {
		var inc uint64
		switch c.Kind {
		case Cycles:
			inc = 1
		case Instructions:
			inc = uint64(in.IssueCount)
		case Events:
			for m := c.Mask; m != 0; m &= m - 1 {
				inc += ev[bits.TrailingZeros16(m)]
			}
		case Stall:
			inc = uint64(in.StallCount[c.Stall])
		}
		s.Pm[i] += n * inc
	}
}

// Advance moves the unit n cycles forward as n rounds of Eval(in) and Tick
// would (the SM skips idle stretches with it, in holding that stretch's
// constant stall counts). D is left equal to the new Q; Advance(in, 0) does
// nothing.
func (u *PerfMon) Advance(in Inputs, n uint64) {
	if n == 0 {
		return
	}
	s := u.Cur
	u.add(&s, &in, n)
	u.Cur, u.Next = s, s
}

// Totals are the sums of the inputs over a stretch of cycles: what
// perf_mon's registers, which only add their inputs up, take from the
// stretch.
type Totals struct {
	// Issued is the sum of issue_count_i.
	Issued uint64
	// Stall[i] is the sum of stall_count_i[i].
	Stall [NumStallStates]uint64
	// Events[k] is the number of pmevent triggers of event k (over every
	// port and cycle).
	Events [NumEvents]uint64
}

// AddEvents adds one cycle's pmevent triggers (in's event ports) to t.
func (u *PerfMon) AddEvents(t *Totals, in *Inputs) {
	for p := 0; p < u.p.NumPorts; p++ {
		if in.EventValid[p] {
			for m := in.EventMask[p]; m != 0; m &= m - 1 {
				t.Events[bits.TrailingZeros16(m)]++
			}
		}
	}
}

// AdvanceTotals moves the unit n cycles forward as n rounds of Eval and
// Tick would with inputs whose sums over those cycles are t (the SM lets
// the unit lag through busy stretches nobody observes and catches up with
// it). D is left equal to the new Q; AdvanceTotals(0, t) does nothing.
func (u *PerfMon) AdvanceTotals(n uint64, t *Totals) {
	if n == 0 {
		return
	}
	s := u.Cur
	for k, e := range t.Events {
		s.EventCount[k] += e
	}
	for i, c := range u.p.Counters {
		var inc uint64
		switch c.Kind {
		case Cycles:
			inc = n
		case Instructions:
			inc = t.Issued
		case Events:
			for m := c.Mask; m != 0; m &= m - 1 {
				inc += t.Events[bits.TrailingZeros16(m)]
			}
		case Stall:
			inc = t.Stall[c.Stall]
		}
		s.Pm[i] += inc
	}
	u.Cur, u.Next = s, s
}

// Counts returns the registers in the report's form (pm_events,
// pm_counters).
func (u *PerfMon) Counts() Counts {
	return Counts{Events: u.Cur.EventCount, Counters: u.Cur.Pm}
}

// Signals returns the unit's signal table under Scope.
func (u *PerfMon) Signals() rtl.Table {
	return rtl.MustSignals(Scope, u.p, Inputs{}, Outputs{}, State{})
}
