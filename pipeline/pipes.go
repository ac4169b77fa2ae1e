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
	// filed[slot] is the pipe warp slot is filed under in byPipe
	// (NumPipes: none), so refiling clears one bit, not one per pipe.
	filed []uint8
}

func (sm *SM) initPipeThrottle() error {
	u, err := pipethrottle.New(unitcfg.PipeThrottle(sm.cfg))
	if err != nil {
		return err
	}
	ns := sm.cfg.Sched.Count
	filed := make([]uint8, sm.cfg.SM.MaxWarps)
	for i := range filed {
		filed[i] = uint8(pipethrottle.NumPipes)
	}
	sm.pt = &pipeThrottle{u: u, byPipe: make([][pipethrottle.NumPipes]rtl.Bits, ns), held: make([]uint8, ns), filed: filed}
	return nil
}

// file records eligible warp w under the pipe of its instruction (or
// under none).
func (pt *pipeThrottle) file(w *warp, eligible bool) {
	bp := &pt.byPipe[w.sched]
	p := uint8(pipethrottle.NumPipes)
	if eligible && w.pipe < p {
		p = w.pipe
	}
	f := &pt.filed[w.slot]
	if *f == p {
		return
	}
	if *f < uint8(pipethrottle.NumPipes) {
		bp[*f].Clear(int(w.local))
	}
	if p < uint8(pipethrottle.NumPipes) {
		bp[p].Set(int(w.local))
	}
	*f = p
}

// hold takes out of scheduler s's ready vector the warps whose pipe has
// no room this cycle.
func (pt *pipeThrottle) hold(s int, ready *rtl.Bits, nw int) {
	pt.held[s] = 0
	for p := pipethrottle.Pipe(0); p < pipethrottle.NumPipes; p++ {
		if pt.u.Ready(s, p) || !pt.byPipe[s][p].AnyWords(nw) {
			continue
		}
		pt.held[s] |= 1 << p
		for k := 0; k < nw; k++ {
			ready[k] &^= pt.byPipe[s][p][k]
		}
	}
}

// pipeHeld accounts the warps held this cycle: math_pipe_throttle for
// the cycle, eligible again the next.
func (sm *SM) pipeHeld(c uint64) {
	pt := sm.pt
	ns := len(sm.scheds)
	for s, h := range pt.held {
		for p := 0; h != 0; p, h = p+1, h>>1 {
			if h&1 == 0 {
				continue
			}
			for k := 0; k < sm.schedWords; k++ {
				for m := pt.byPipe[s][p][k]; m != 0; m &= m - 1 {
					slot := (k*64+bits.TrailingZeros64(m))*ns + s
					sm.reclass(sm.slots[slot], c, StateMathPipeThrottle, c+1)
				}
			}
		}
	}
}

// request drives scheduler s's request for warp w's instruction.
func (pt *pipeThrottle) request(s int, w *warp) {
	if w.pipe < uint8(pipethrottle.NumPipes) {
		pt.in.ReqValid[s], pt.in.ReqPipe[s] = true, w.pipe
	}
}

// tick ends the unit's cycle with the cycle's requests.
func (pt *pipeThrottle) tick() {
	pt.u.Eval(pt.in)
	pt.u.Tick()
	pt.in = pipethrottle.Inputs{}
}
