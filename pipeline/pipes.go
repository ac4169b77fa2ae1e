// The execution pipes' throughput in the issue stage (pipe.throttle): the
// pipe_throttle unit (package pipethrottle) says which pipe of each
// scheduler can take a warp instruction this cycle.

package pipeline

import (
	"math/bits"

	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/unitcfg"
)

// pipeThrottle is the issue stages' side of pipe_throttle: the unit, the
// eligible warps of each scheduler by the pipe of their next instruction
// (byPipe[s][p]), and the cycle's requests.
type pipeThrottle struct {
	u      *pipethrottle.Unit
	byPipe [][pipethrottle.NumPipes]rtl.Bits
	in     pipethrottle.Inputs
	// held[s] marks the pipes of scheduler s that had no room this cycle
	// while an eligible warp wanted them.
	held []uint8
	// filed[slot] is the pipe the warp slot is filed under in byPipe
	// (NumPipes: none).
	filed []uint8
	// heldN is the number of eligible warps held this cycle (pipeHeld).
	heldN uint64
	// n[s][p] counts the warps in byPipe[s][p]; has[s] marks the pipes
	// of scheduler s with any.
	n   [][pipethrottle.NumPipes]uint16
	has []uint8
	// hc[s][p] counts the cycles pipe p of scheduler s held its warps;
	// h0[slot] is its value when the slot's warp was filed (or last
	// settled): the difference is the warp's held cycles not yet in its
	// counts (settle).
	hc [][pipethrottle.NumPipes]uint64
	h0 []uint64
}

func (sm *SM) initPipeThrottle() error {
	u, err := pipethrottle.New(unitcfg.PipeThrottle(sm.cfg))
	if err != nil {
		return err
	}
	ns := sm.cfg.Sched.Count
	sm.pt = &pipeThrottle{u: u, byPipe: make([][pipethrottle.NumPipes]rtl.Bits, ns), held: make([]uint8, ns), filed: make([]uint8, len(sm.slots)),
		n: make([][pipethrottle.NumPipes]uint16, ns), has: make([]uint8, ns),
		hc: make([][pipethrottle.NumPipes]uint64, ns), h0: make([]uint64, len(sm.slots))}
	for i := range sm.pt.filed {
		sm.pt.filed[i] = uint8(pipethrottle.NumPipes)
	}
	return nil
}

// file records eligible warp w under the pipe of its instruction (or
// under none).
func (pt *pipeThrottle) file(w *warp, eligible bool) {
	s := w.sched
	f := &pt.filed[w.slot]
	if *f < uint8(pipethrottle.NumPipes) {
		pt.settle(w)
		pt.byPipe[s][*f].Clear(int(w.local))
		if pt.n[s][*f]--; pt.n[s][*f] == 0 {
			pt.has[s] &^= 1 << *f
		}
	}
	*f = uint8(pipethrottle.NumPipes)
	if eligible && w.pipe < uint8(pipethrottle.NumPipes) {
		pt.byPipe[s][w.pipe].Set(int(w.local))
		pt.n[s][w.pipe]++
		pt.has[s] |= 1 << w.pipe
		pt.h0[w.slot] = pt.hc[s][w.pipe]
		*f = w.pipe
	}
}

// settle moves the cycles w's pipe held it since it was filed (or last
// settled) from not_selected to math_pipe_throttle in its counts: a warp
// filed under a pipe is eligible (not_selected), since only ALU
// instructions have a pipe and they need no memory port.
func (pt *pipeThrottle) settle(w *warp) {
	if f := pt.filed[w.slot]; f < uint8(pipethrottle.NumPipes) {
		h := pt.hc[w.sched][f]
		if d := h - pt.h0[w.slot]; d != 0 {
			w.stalls[StateNotSelected] -= d // its not_selected cycles since w.since include these
			w.stalls[StateMathPipeThrottle] += d
			pt.h0[w.slot] = h
		}
	}
}

// hold takes out of scheduler s's ready vector the warps whose pipe has
// no room this cycle.
func (pt *pipeThrottle) hold(s int, ready *rtl.Bits, nw int) {
	pt.held[s] = 0
	for h := pt.has[s]; h != 0; h &= h - 1 {
		p := pipethrottle.Pipe(bits.TrailingZeros8(h))
		if pt.u.Ready(s, p) {
			continue
		}
		pt.held[s] |= 1 << p
		for k := 0; k < nw; k++ {
			ready[k] &^= pt.byPipe[s][p][k]
		}
	}
}

// pipeHeld accounts the warps held this cycle: math_pipe_throttle for
// the cycle, eligible again the next. They stay eligible for the issue
// stage, which spares classifying each twice a cycle while its pipe is
// busy: only their counts move, the SM's by heldN (pipeHeldCounts, once
// the cycle is counted) and each warp's through its pipe's held-cycle
// count (settle). Observers see the state (observedState).
func (sm *SM) pipeHeld() {
	pt := sm.pt
	pt.heldN = 0
	for s, h := range pt.held {
		for ; h != 0; h &= h - 1 {
			p := bits.TrailingZeros8(h)
			pt.hc[s][p]++
			pt.heldN += uint64(pt.n[s][p])
		}
	}
}

// pipeHeldCounts moves the held eligible warps' cycle from not_selected
// to math_pipe_throttle in the SM's counts (after the cycle's counting).
func (sm *SM) pipeHeldCounts() {
	if n := sm.pt.heldN; n != 0 {
		sm.stalls[StateNotSelected] -= n
		sm.stalls[StateMathPipeThrottle] += n
	}
}

// observedState is w's state as observers see it: math_pipe_throttle for
// an eligible warp held by its busy pipe this cycle (pipeHeld).
func (sm *SM) observedState(w *warp) WarpState {
	if pt := sm.pt; pt != nil && w.state == StateNotSelected {
		if f := pt.filed[w.slot]; f < uint8(pipethrottle.NumPipes) && pt.held[w.sched]&(1<<f) != 0 {
			return StateMathPipeThrottle
		}
	}
	return w.state
}

// request drives scheduler s's request for warp w's instruction.
func (pt *pipeThrottle) request(s int, w *warp) {
	if w.pipe < uint8(pipethrottle.NumPipes) {
		pt.in.ReqValid[s], pt.in.ReqPipe[s] = true, w.pipe
	}
}

// tick ends the unit's cycle with the cycle's requests.
func (pt *pipeThrottle) tick() {
	pt.u.Step(&pt.in)
	pt.in = pipethrottle.Inputs{}
}
