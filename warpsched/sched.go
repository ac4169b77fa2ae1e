package warpsched

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// Policy is a scheduling policy: the value of the Verilog Policy
// parameter (smsim_pkg::sched_policy_e).
type Policy uint8

// The policies.
const (
	PolicyLRR      Policy = iota // loose round-robin
	PolicyGTO                    // greedy-then-oldest
	PolicyTwoLevel               // two-level: a small active set, round-robin within it
)

var policyNames = [...]string{"lrr", "gto", "two_level"}

// String is the policy's configuration name (sched.policy).
func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("policy(%d)", uint8(p))
}

// Params are the parameters of one warp_sched instance.
type Params struct {
	// NumWarps is the number of warp slots this scheduler serves (the SM's
	// slots s with s % sched.count == this scheduler's index), at most
	// rtl.MaxBits.
	NumWarps int
	// Policy is PolicyLRR, PolicyGTO or PolicyTwoLevel.
	Policy Policy
	// TwoLevelActive is the size of the active set under two_level.
	TwoLevelActive int
}

// Inputs are the ports driven by the SM each cycle. Warp indices are local
// to the scheduler (0..NumWarps-1).
type Inputs struct {
	// WarpValid: the slot holds a warp with live threads.
	WarpValid rtl.Bits `sv:"warp_valid_i" width:"NumWarps"`
	// WarpReady: the warp can issue this cycle (instruction fetched,
	// operands ready, not blocked).
	WarpReady rtl.Bits `sv:"warp_ready_i" width:"NumWarps"`
	// WarpLongWait: the warp is stalled on a long-latency event
	// (long_scoreboard, barrier, sleeping); two_level swaps such warps
	// out of its active set.
	WarpLongWait rtl.Bits `sv:"warp_long_wait_i" width:"NumWarps"`
	// WarpLaunch: a new warp was launched into the slot this cycle; it
	// gets the next launch stamp (several in one cycle: in index order).
	WarpLaunch rtl.Bits `sv:"warp_launch_i" width:"NumWarps"`
	// Stall: do not issue this cycle (the policy registers hold; launch
	// stamps are still recorded).
	Stall bool `sv:"stall_i"`
}

// Outputs are the scheduler's ports.
type Outputs struct {
	IssueValid bool   `sv:"issue_valid_o"`
	IssueWarp  uint16 `sv:"issue_warp_o" width:"idx(NumWarps)"`
}

// State holds the scheduler's registers.
type State struct {
	// Last is the warp issued last (LRR and two_level start their
	// round-robin search after it).
	Last uint16 `sv:"last_q" width:"idx(NumWarps)"`
	// Greedy is GTO's current warp, valid when GreedyValid.
	Greedy      uint16 `sv:"greedy_q" width:"idx(NumWarps)"`
	GreedyValid bool   `sv:"greedy_valid_q"`
	// Active is two_level's active set.
	Active rtl.Bits `sv:"active_q" width:"NumWarps"`
	// NextAge is the launch stamp the next launched warp gets.
	NextAge uint32 `sv:"next_age_q"`
	// Age holds each warp's launch stamp (the age order: smaller is
	// older); GTO and two_level pick the oldest.
	Age [rtl.MaxBits]uint32 `sv:"warp_age_q" width:"32*NumWarps"`
}

// Sched is one warp_sched instance: a two-phase unit (rtl.Unit).
//
// State.Age is large, so Eval and Tick do not copy it whole: Eval restores
// the entries the previous Eval changed and writes the launched ones, Tick
// copies those. The observable behaviour is exactly D = f(Q, inputs) and
// Q = D (CheckTwoPhase verifies it).
type Sched struct {
	p     Params
	q, d  State
	dirty []uint16 // Age entries of d that differ from q
	ready rtl.Bits // EvalRef's scratch (only its first words words are ever set)
	// words is how many words of an rtl.Bits hold warps 0..NumWarps-1:
	// Eval reads and Tick copies only those (every search is bounded by
	// NumWarps, and the registers' bits above it stay clear).
	words int
}

var _ rtl.Unit[Inputs, Outputs, State] = (*Sched)(nil)

// New checks p and returns a scheduler in its reset state.
func New(p Params) (*Sched, error) {
	if p.NumWarps < 1 || p.NumWarps > rtl.MaxBits {
		return nil, fmt.Errorf("warpsched: NumWarps %d outside 1..%d", p.NumWarps, rtl.MaxBits)
	}
	switch p.Policy {
	case PolicyLRR, PolicyGTO:
	case PolicyTwoLevel:
		if p.TwoLevelActive < 1 {
			return nil, fmt.Errorf("warpsched: TwoLevelActive %d must be at least 1", p.TwoLevelActive)
		}
	default:
		return nil, fmt.Errorf("warpsched: unknown policy %d (lrr, gto, two_level)", uint8(p.Policy))
	}
	s := &Sched{p: p, words: rtl.Words(p.NumWarps)}
	s.Reset()
	return s, nil
}

// Params returns the scheduler's parameters.
func (s *Sched) Params() Params { return s.p }

// Reset puts the registers in their reset state: the round-robin search
// starts at warp 0, no greedy warp, an empty active set.
func (s *Sched) Reset() {
	s.q = State{Last: uint16(s.p.NumWarps - 1)}
	s.d = s.q
	s.dirty = s.dirty[:0]
}

// Q returns the registers.
func (s *Sched) Q() State { return s.q }

// QRef returns a pointer to the registers, for observers that read them
// every cycle without copying State (Age alone is 4 KB). The pointee is
// valid until the next Tick; do not write through it.
func (s *Sched) QRef() *State { return &s.q }

// D returns the next-state values of the last Eval.
func (s *Sched) D() State { return s.d }

// Tick is always_ff: Q = D.
func (s *Sched) Tick() {
	for _, i := range s.dirty {
		s.q.Age[i] = s.d.Age[i]
	}
	s.dirty = s.dirty[:0]
	copySmall(&s.q, &s.d, s.words)
}

// copySmall copies every register but Age (keep it in step with State),
// Active in its first k words.
func copySmall(dst, src *State, k int) {
	dst.Last, dst.Greedy, dst.GreedyValid = src.Last, src.Greedy, src.GreedyValid
	for i := range dst.Active[:k] { // a loop: k is a word or two, not worth a memmove call
		dst.Active[i] = src.Active[i]
	}
	dst.NextAge = src.NextAge
}

// and is a & b in the first k words (the rest clear).
func and(a, b *rtl.Bits, k int) (r rtl.Bits) {
	for i := range r[:k] {
		r[i] = a[i] & b[i]
	}
	return r
}

// Eval is always_comb: it picks the warp to issue from the inputs and Q
// and computes D.
func (s *Sched) Eval(in Inputs) Outputs { return s.EvalRef(&in) }

// EvalRef is Eval with the inputs passed by reference (they are large:
// four NumWarps-bit vectors); it does not keep or change *in.
func (s *Sched) EvalRef(in *Inputs) Outputs {
	s.copyQ()
	n := s.p.NumWarps
	if in.WarpLaunch.AnyWords(s.words) {
		for w := in.WarpLaunch.NextFrom(0, n); w >= 0; w = in.WarpLaunch.NextFrom(w+1, n) {
			s.d.Age[w] = s.d.NextAge
			s.d.NextAge++
			s.dirty = append(s.dirty, uint16(w))
		}
	}
	if in.Stall {
		return Outputs{}
	}
	// ready is scratch whose words from s.words on stay zero: filling it
	// in place spares clearing and copying a whole rtl.Bits per call.
	ready := &s.ready
	for i := range ready[:s.words] {
		ready[i] = in.WarpReady[i] & in.WarpValid[i]
	}
	w := -1
	switch s.p.Policy {
	case PolicyLRR:
		w = ready.NextCyclic(int(s.q.Last)+1, n)
		if w >= 0 {
			s.d.Last = uint16(w)
		}
	case PolicyGTO:
		if s.q.GreedyValid && ready.Has(int(s.q.Greedy)) {
			w = int(s.q.Greedy)
		} else {
			w = oldest(ready, &s.d.Age, n)
		}
		if w >= 0 {
			s.d.Greedy, s.d.GreedyValid, s.d.Last = uint16(w), true, uint16(w)
		}
	case PolicyTwoLevel:
		active := and(&s.q.Active, &in.WarpValid, s.words)
		cand := ready.AndNot(active).AndNot(in.WarpLongWait)
		// Swap long-waiting active warps for the oldest ready pending ones.
		long := active.And(in.WarpLongWait)
		for x := long.NextFrom(0, n); x >= 0; x = long.NextFrom(x+1, n) {
			c := oldest(&cand, &s.d.Age, n)
			if c < 0 {
				break
			}
			active.Clear(x)
			active.Set(c)
			cand.Clear(c)
		}
		// Fill vacancies with the oldest ready pending warps.
		for k := active.Count(); k < s.p.TwoLevelActive; k++ {
			c := oldest(&cand, &s.d.Age, n)
			if c < 0 {
				break
			}
			active.Set(c)
			cand.Clear(c)
		}
		s.d.Active = active
		r := ready.And(active)
		w = r.NextCyclic(int(s.q.Last)+1, n)
		if w >= 0 {
			s.d.Last = uint16(w)
		}
	}
	if w < 0 {
		return Outputs{}
	}
	return Outputs{IssueValid: true, IssueWarp: uint16(w)}
}

// copyQ sets D = Q: the small registers by value, the Age entries the
// last Eval changed from Q.
func (s *Sched) copyQ() {
	age := &s.d.Age
	for _, i := range s.dirty {
		age[i] = s.q.Age[i]
	}
	s.dirty = s.dirty[:0]
	copySmall(&s.d, &s.q, s.words)
}

// oldest returns the set warp of b (below n) with the smallest age, the
// lowest index on a tie, or -1.
func oldest(b *rtl.Bits, age *[rtl.MaxBits]uint32, n int) int {
	best, bestAge := -1, uint64(0)
	for wi := 0; wi*64 < n; wi++ {
		word := b[wi]
		for word != 0 {
			i := wi*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if i >= n {
				break
			}
			a := uint64(age[i])
			if best < 0 || a < bestAge {
				best, bestAge = i, a
			}
		}
	}
	return best
}

// StampWidth is the width of a warp launch stamp: next_age_q and each
// warp_age_q entry (smsim_pkg::StampWidth).
const StampWidth = 32

// Signals returns the scheduler's signal table under the instance path
// scope (e.g. "sm_top.u_warp_sched_0").
func (s *Sched) Signals(scope string) rtl.Table {
	return rtl.MustSignals(scope, s.p, Inputs{}, Outputs{}, State{})
}
