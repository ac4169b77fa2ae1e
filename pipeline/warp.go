package pipeline

import (
	"math"
	"math/bits"
)

const never = math.MaxUint64

// retEntry is one return-stack entry of a thread.
type retEntry struct {
	pc, fp uint32
}

// warp is one resident warp's context: per-thread PCs and call stacks, the
// register file, the scoreboard and the timing state.
type warp struct {
	// Hot: read every cycle (kept together, first).
	readyAt     uint64 // the warp can issue at this cycle
	blockUntil  uint64
	branchUntil uint64
	fetchUntil  uint64
	sbUntil     uint64
	blockState  WarpState
	sbCls       uint8
	port        bool // the next instruction needs a memory port
	state       WarpState
	sched       int32 // scheduler index (slot % sched.count)
	local       int32 // index within the scheduler (slot / sched.count)
	gpc         uint32
	gmask       uint32

	sm    *SM
	slot  int
	cta   *cta
	inCTA int
	done  bool // every thread exited (draining, then freed)

	valid   uint32     // lanes holding a thread
	exited  uint32     // lanes whose thread exited
	blocked uint32     // lanes waiting at a barrier
	gdepth  uint16     // the active group's call depth (gpc, gmask: above)
	pc      [32]uint32 // per lane; see stalePC
	// stalePC: the active group's lanes are at gpc, which pc does not
	// show yet (a converged warp advances one PC, not 32); syncPC writes
	// it before anything reads or changes pc or the group.
	stalePC bool
	depth   [32]uint16
	fp      [32]uint32
	stack   [32][]retEntry

	regs  []uint32 // regs[r*32+lane]
	preds []uint32 // per predicate: lane mask
	cc    uint32   // the carry flag CC.CF of each lane (add.cc, addc, ...)
	ccRdy uint64   // cycle the pending carry-flag write is available
	rdy   []uint64 // per register: cycle the pending write is available
	rcls  []uint8
	prdy  []uint64
	pcls  []uint8

	lastIssue uint64
	memBusy   uint64 // outstanding memory operations complete
	// cp.async groups and mbarrier.try_wait (cpasync.go, mbarrier.go):
	// nil until the warp's first cp.async or suspending try_wait.
	async *asyncState

	// Barriers: the lanes blocked at each barrier, and the bar.red
	// destination of those lanes (written at the release).
	barLanes [numBarriers]uint32
	barArr   [numBarriers]uint32 // lanes that arrived at each barrier in its current phase
	redDst   [numBarriers]dest
	redOn    uint32 // barriers whose waiting lanes executed bar.red

	nreg int // setmaxnreg's current per-thread count
	// setmaxnreg (regpool.go): rpHeld while the warp waits for its
	// warpgroup or for pool registers; undef marks the registers it
	// obtained by .inc and has not written since (undefAny: some bit is
	// set, so a warp without any pays one test per instruction).
	rpHeld   bool
	undefAny bool
	undef    [4]uint64
	insts    uint64
	stalls   [numStates]uint64
	lastPC   uint32

	lmem [32][]byte

	tr warpTrap // trap unit state (trap.go)
}

// reset prepares a pooled warp for a new CTA.
func (w *warp) reset(nregs, npreds int) {
	w.done = false
	w.valid, w.exited, w.blocked = 0, 0, 0
	w.barLanes = [numBarriers]uint32{}
	w.barArr = [numBarriers]uint32{}
	w.redOn = 0
	w.rpHeld, w.undefAny, w.undef = false, false, [4]uint64{}
	w.pc, w.stalePC = [32]uint32{}, false
	w.depth = [32]uint16{}
	w.fp = [32]uint32{}
	for i := range w.stack {
		w.stack[i] = w.stack[i][:0]
	}
	w.regs = resize32(w.regs, nregs*32)
	w.preds = resize32(w.preds, max(npreds, 1))
	w.cc, w.ccRdy = 0, 0
	w.rdy = resize64(w.rdy, nregs)
	w.rcls = resize8(w.rcls, nregs)
	w.prdy = resize64(w.prdy, max(npreds, 1))
	w.pcls = resize8(w.pcls, max(npreds, 1))
	w.blockUntil, w.blockState = 0, StateMisc
	w.branchUntil, w.fetchUntil, w.sbUntil, w.sbCls = 0, 0, 0, 0
	w.readyAt, w.lastIssue, w.memBusy = 0, 0, 0
	w.async.reset()
	w.insts = 0
	w.stalls = [numStates]uint64{}
	w.state = StateNoInstruction
	w.tr = warpTrap{ctx: w.tr.ctx}
	for i := range w.lmem {
		if b := w.lmem[i]; cap(b) > 0 {
			clear(b[:cap(b)])
			w.lmem[i] = b[:0]
		}
	}
}

func resize32(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func resize64(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func resize8(s []uint8, n int) []uint8 {
	if cap(s) < n {
		return make([]uint8, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func (w *warp) live() uint32 { return w.valid &^ w.exited }

// runnable is the live lanes not blocked at a barrier.
func (w *warp) runnable() uint32 { return w.valid &^ w.exited &^ w.blocked }

// regroup recomputes the active group: the runnable lanes of the maximum
// call depth at the minimum PC among them.
func (w *warp) regroup() {
	w.syncPC()
	live := w.runnable()
	if live == 0 {
		w.gmask = 0
		return
	}
	l0 := bits.TrailingZeros32(live)
	d, p, m := w.depth[l0], w.pc[l0], uint32(1)<<l0
	for rest := live & (live - 1); rest != 0; rest &= rest - 1 {
		l := bits.TrailingZeros32(rest)
		ld, lp := w.depth[l], w.pc[l]
		switch {
		case ld > d || (ld == d && lp < p):
			d, p, m = ld, lp, 1<<l
		case ld == d && lp == p:
			m |= 1 << l
		}
	}
	w.gpc, w.gmask, w.gdepth = p, m, d
}

// syncPC writes gpc into the pc of the active group's lanes when they
// are behind it (stalePC).
func (w *warp) syncPC() {
	if w.stalePC {
		for m := w.gmask; m != 0; m &= m - 1 {
			w.pc[bits.TrailingZeros32(m)] = w.gpc
		}
		w.stalePC = false
	}
}

// advance moves the group's lanes to the next instruction (non-control
// instructions).
func (w *warp) advance() {
	next := w.gpc + 1
	if w.gmask == w.runnable() {
		// Converged: the group stays the same, one instruction on (its
		// lanes' PCs follow when needed: syncPC).
		w.gpc, w.stalePC = next, true
		return
	}
	w.syncPC()
	for m := w.gmask; m != 0; m &= m - 1 {
		w.pc[bits.TrailingZeros32(m)] = next
	}
	w.regroup()
}

// stateAt classifies a warp that is not eligible at cycle c.
func (w *warp) stateAt(c uint64) WarpState {
	switch {
	case w.tr.paused:
		return w.tr.pauseState
	case c >= w.readyAt:
		return StateEligible
	case c < w.blockUntil:
		return w.blockState
	case c < w.branchUntil:
		return StateBranchResolving
	case c < w.fetchUntil:
		return StateNoInstruction
	case c < w.sbUntil:
		return sbState(w.sbCls)
	}
	return StateMisc
}

// nextChange is the first cycle after c at which stateAt may change.
func (w *warp) nextChange(c uint64) uint64 {
	t := w.readyAt
	for _, x := range [...]uint64{w.blockUntil, w.branchUntil, w.fetchUntil, w.sbUntil} {
		if x > c && x < t {
			t = x
		}
	}
	return t
}

// refresh recomputes the scoreboard wait of the group's instruction and
// readyAt.
func (w *warp) refresh() {
	sm := w.sm
	w.sbUntil, w.sbCls, w.port = 0, sbFixed, false
	if int(w.gpc) < len(sm.code) && w.gmask != 0 {
		d := &sm.code[w.gpc]
		w.port = d.usesPort
		for _, r := range d.srcR {
			if t := w.rdy[r]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.rcls[r]
			}
		}
		for _, r := range d.dstR {
			if t := w.rdy[r]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.rcls[r]
			}
		}
		for _, p := range d.srcP {
			if t := w.prdy[p]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.pcls[p]
			}
		}
		for _, p := range d.dstP {
			if t := w.prdy[p]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.pcls[p]
			}
		}
		if d.cc != 0 && w.ccRdy > w.sbUntil {
			w.sbUntil, w.sbCls = w.ccRdy, sbFixed
		}
	}
	r := w.lastIssue + 1
	if w.insts == 0 {
		r = 0
	}
	for _, x := range [...]uint64{w.blockUntil, w.branchUntil, w.fetchUntil, w.sbUntil} {
		if x > r {
			r = x
		}
	}
	if w.done || w.tr.paused {
		r = never
	}
	w.readyAt = r
}

// longWait reports a long-latency stall (two_level swaps such warps out).
func longWait(s WarpState) bool {
	return s == StateLongScoreboard || s == StateBarrier || s == StateSleeping || s == StateMbarrier || s == StateCpAsync
}
