package pipeline

import (
	"math"
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
	port        bool  // the next instruction needs a memory port
	pipe        uint8 // the next instruction's execution pipe (pipethrottle.NumPipes: none)
	mpath       uint8 // the next instruction's memory port path (mpNone: none)
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
	// With the memory port (mem.model hier): the requests the port has
	// not answered (memBusy is pendingLat beyond them while any is), and
	// memBusy's value from the other operations.
	memOut  int
	memFlat uint64
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
	stalls   [numStates]uint64 // stall cycles by state, but those since since (flushStalls)
	since    uint64            // the cycle from which the warp has been in state
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
	w.regs = resize(w.regs, nregs*32)
	w.preds = resize(w.preds, max(npreds, 1))
	w.cc, w.ccRdy = 0, 0
	w.rdy = resize(w.rdy, nregs)
	w.rcls = resize(w.rcls, nregs)
	w.prdy = resize(w.prdy, max(npreds, 1))
	w.pcls = resize(w.pcls, max(npreds, 1))
	w.blockUntil, w.blockState = 0, StateMisc
	w.branchUntil, w.fetchUntil, w.sbUntil, w.sbCls = 0, 0, 0, 0
	w.readyAt, w.lastIssue, w.memBusy = 0, 0, 0
	w.memOut, w.memFlat = 0, 0
	w.async.reset()
	w.insts = 0
	w.stalls = [numStates]uint64{}
	w.state, w.since = StateNoInstruction, 0
	w.tr = warpTrap{ctx: w.tr.ctx}
	for i := range w.lmem {
		if b := w.lmem[i]; cap(b) > 0 {
			clear(b[:cap(b)])
			w.lmem[i] = b[:0]
		}
	}
}

// resize returns s with length n, cleared (a new slice when s is too
// small).
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// longWait reports a long-latency stall (two_level swaps such warps out).
func longWait(s WarpState) bool {
	return s == StateLongScoreboard || s == StateBarrier || s == StateSleeping || s == StateMbarrier || s == StateCpAsync
}

// busyUntil records a memory operation of w that completes at cycle t.
func (w *warp) busyUntil(t uint64) {
	w.memFlat = max(w.memFlat, t)
	if w.memOut == 0 {
		w.memBusy = max(w.memBusy, t)
	}
}
