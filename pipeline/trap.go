package pipeline

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
)

// The SM's side of the trap unit (package trapunit, docs/trap-unit.md
// "Integration contract"): the SM drives trap_unit's ports from what its
// warps issue and obeys its outputs. Per cycle:
//
//   - at issue, every BPT (but DRAIN), IDE, RTT, PTX trap and brkpt whose
//     guard is true for some lane of the active group, and every warp
//     error (a fault of the model), becomes an event on the next free port
//     (one issue per scheduler, so sched.count ports suffice), with
//     ev_pc_next_i = its PC + 1. A faulting instruction does not complete:
//     the warp stays at it, and the unit's saved PC is the next one;
//   - at the end of the cycle trap_unit is evaluated with warp_live_i,
//     warp_launch_i, warp_pc_i (each warp's PC after this cycle's issue),
//     the events and the host command chosen last cycle, and ticked; its
//     pulses are applied at once (enter_handler_o: the warp's threads jump
//     to the handler; resume_o: they go back to the saved PC); paused_q
//     stops a warp from issuing from the next cycle on; the host agent
//     sees the cycle's outputs and chooses the next command;
//   - sm_trapped_q holds CTA launches; S2R SR_WARP_ESR / SR_GLOBAL_ESR
//     read warp_esr_o / s2r_global_esr_o (registers).
//
// The unit is evaluated only in cycles where something can change (an
// event, a host command, a launch into a slot with stale trap state, or
// trap state not at rest: a warp in the handler or paused, an interrupt
// or BPT_INT bit waiting for the host agent); in the other cycles Eval
// would leave every register as it is (trapQuiescent), with or without an
// observer: observing a run never changes which cycles step the unit.
//
// The handler (config trap.handler) is a .func of the image. All the
// live threads of a warp entering it run it converged from its first
// instruction, on a context of their own: the SM keeps the warp's user
// context (per-thread PCs, call depths, frame pointers and return stacks,
// registers, predicates and their scoreboard) aside and restores it when
// the warp leaves the handler, the active group of the trap going to the
// saved PC. The handler's registers are a separate bank (sized for the
// handler and its callees, not counted in the launch's allocation) that
// stands in for the register saving a real handler does; handler and
// kernel talk through memory (seed 002: "SW could reserve per-warp words
// in global memory"). The handler's frame starts above the trapped
// function's frame.

// warpTrap is a warp's trap state as the SM keeps it.
type warpTrap struct {
	paused     bool      // paused_q: the warp issues nothing
	pauseState WarpState // what a paused warp reports: paused or trapped
	handler    bool      // the warp runs the handler; its user context is in ctx
	ctx        *trapCtx
	group      uint32 // the lanes sent to the saved PC when the warp resumes
	evCycle    uint64 // cycle+1 of the warp's last event
	evMask     uint32 // that event's active group
	evExec     uint32 // the lanes of evMask that executed it (guard true)
	pauseCycle uint64 // cycle+1 of the warp's last BPT.PAUSE(_QUIET)
}

// trapCtx is a warp's user context while it runs the handler (and, after
// it leaves, the storage of the handler's bank for the next entry).
type trapCtx struct {
	pc         [32]uint32
	depth      [32]uint16
	fp         [32]uint32
	stack      [32][]retEntry
	blockUntil uint64
	blockState WarpState
	nreg       int // setmaxnreg's count and undefined registers (regpool.go)
	undefAny   bool
	undef      [4]uint64
	regs       []uint32
	preds      []uint32
	cc         uint32 // carry flags and their scoreboard (warp.cc, warp.ccRdy)
	ccRdy      uint64
	rdy        []uint64
	rcls       []uint8
	prdy       []uint64
	pcls       []uint8
}

// trapState is the SM's trap_unit instance and the wires around it.
type trapState struct {
	unit       *trapunit.Unit
	nwarps     int
	hasHandler bool
	handler    string // trap.handler
	handlerPC  uint32
	hregs      int // handler bank size (registers per thread)
	hpreds     int

	in       trapunit.Inputs
	nev      int
	evw      [trapunit.MaxPorts]*warp
	evpc     [trapunit.MaxPorts]uint32
	over     []trapOverflow // events beyond the ports, driven next cycle
	live     rtl.Bits       // warp_live_i
	launched rtl.Bits       // warp_launch_i
	dirty    bool           // a launch into a slot whose trap registers are not reset
	rest     bool           // Q is at rest (see busy)
	quietAny bool           // quiet_q has a bit set
	q        trapunit.State
	o        trapunit.Outputs // the last Eval's outputs
	oCycle   uint64           // cycle+1 of o

	host      HostAgent
	cmd       trapunit.HostCmd // driven at the next Eval
	arg       uint16
	hasDirect bool // cmd was posted by HostCommand

	uniformTraps bool
	seenESR      uint16 // global ESR bits ever set
	rep          TrapReport
	lastTrap     int // index in rep.Traps of the latest trap (-1: none)
	lastBreak    int // index in rep.Breakpoints of the latest breakpoint
}

// trapOverflow is an event that found no free port.
type trapOverflow struct {
	w        *warp
	kind     trapunit.EvKind
	arg      uint8
	pc, mask uint32
	exec     uint32
	cycle    uint64
}

// maxTrapRecords bounds each list of TrapReport.
const maxTrapRecords = 1024

// HostAgent is the CPU side of the trap unit: every cycle in which the
// unit is evaluated the SM gives it the cycle's outputs; it returns the
// host command to drive in the next cycle, or a non-nil Stop to end the
// run (status "trapped", or "fault" when the stop is a warp error other
// than PTX trap). trapunit.Host, the batch agent of smsim run's
// --on-trap/--on-break, implements it.
type HostAgent interface {
	Step(o *trapunit.Outputs, numWarps int) (cmd trapunit.HostCmd, arg uint16, stop *trapunit.Stop)
}

// initTrap builds the trap unit and resolves the handler. The kernel's
// register and predicate counts are returned raised to cover the handler
// (for decoding: the handler's code runs on its own bank).
func (sm *SM) initTrap(nregs, npreds int) (int, int, error) {
	t := &sm.trap
	t.nwarps = sm.cfg.SM.MaxWarps
	t.handler = sm.cfg.Trap.Handler
	t.lastTrap, t.lastBreak = -1, -1
	if t.handler != "" {
		fi := -1
		var names []string
		for i, f := range sm.im.Funcs {
			if f.Kernel {
				continue
			}
			names = append(names, f.Name)
			if f.Name == t.handler {
				fi = i
			}
		}
		if fi < 0 {
			list := "the image has no .func"
			if len(names) > 0 {
				list = ".funcs: " + joinNames(names)
			}
			return 0, 0, fmt.Errorf("trap.handler %q: no .func of that name (%s)", t.handler, list)
		}
		t.hasHandler = true
		t.handlerPC = sm.im.Funcs[fi].PC
		t.hregs, t.hpreds = sm.funcNeeds(fi)
		nregs, npreds = max(nregs, t.hregs), max(npreds, t.hpreds)
	}
	// A port per scheduler takes the issued instructions' events; the
	// rest take warp errors raised at the end of a cycle (reg_pool).
	u, err := trapunit.New(trapunit.Params{NumWarps: t.nwarps, NumPorts: trapunit.MaxPorts, HasHandler: t.hasHandler})
	if err != nil {
		return 0, 0, err
	}
	t.unit = u
	t.q = u.Q()
	t.quietAny = t.q.Quiet.Any()
	t.rest = true
	t.host = trapunit.NewHost(trapunit.Abort, trapunit.Abort, t.hasHandler)
	return nregs, npreds, nil
}

func joinNames(n []string) string {
	s := ""
	for i, x := range n {
		if i > 0 {
			s += ", "
		}
		if i == 16 {
			return s + fmt.Sprintf("... (%d more)", len(n)-i)
		}
		s += x
	}
	return s
}

// funcNeeds is the register and predicate count of function fi and every
// function it calls directly (an indirect call counts every .func).
func (sm *SM) funcNeeds(fi int) (int, int) {
	seen := map[int]bool{}
	regs, preds := 0, 0
	var walk func(i int)
	walk = func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		f := sm.im.Funcs[i]
		regs, preds = max(regs, int(f.Regs)), max(preds, int(f.Preds))
		for pc := f.PC; pc < f.End && int(pc) < len(sm.im.Code); pc++ {
			in := sm.im.Code[pc]
			if in.Op != isa.OpCALL {
				continue
			}
			if in.Mods&isa.ModCallInd != 0 {
				for j, g := range sm.im.Funcs {
					if !g.Kernel {
						walk(j)
					}
				}
				continue
			}
			if int(in.Imm) < len(sm.funcAt) {
				if j := sm.funcAt[in.Imm]; j >= 0 {
					walk(int(j))
				}
			}
		}
	}
	walk(fi)
	return regs, preds
}

// trapLaunch records a warp launched into slot this cycle.
func (sm *SM) trapLaunch(slot int) {
	t := &sm.trap
	t.live.Set(slot)
	t.launched.Set(slot)
	if slot < trapunit.MaxWarps && (t.q.WarpESR[slot] != 0 || t.q.SavedPC[slot] != 0 || t.q.IntMask.Has(slot)) {
		t.dirty = true
	}
}

// trapExit records that the last thread of w exited.
func (sm *SM) trapExit(w *warp) { sm.trap.live.Clear(w.slot) }

// busy reports whether the unit must be evaluated this cycle even without
// an event (and Run must not skip idle cycles).
func (t *trapState) busy() bool {
	return !t.rest || t.cmd != trapunit.HostNone || t.hasDirect || len(t.over) > 0
}

// atRest recomputes rest from Q: no warp in the handler or paused, and
// nothing the host agent would act on.
func (t *trapState) atRest() bool {
	q := &t.q
	if q.InHandler.Any() || q.Paused.Any() {
		return false
	}
	return t.host == nil || (q.IRQPending == 0 && q.GlobalESR&trapunit.GlobalESRBPTInt == 0)
}

// inHandler reports whether warp w is in the handler (in_handler_q).
func (sm *SM) inHandler(w *warp) bool { return sm.trap.q.InHandler.Has(w.slot) }

// trapped reports sm_trapped_q.
func (sm *SM) trapped() bool { return sm.trap.q.SMTrapped }

// trapEvent drives the next event port with an event of warp w raised by
// the instruction at pc executed by the group mask.
// mask is the instruction's active group (the lanes that go to the saved
// PC on resume), exec the lanes that executed it: its guard was true
// (TrapRecord.Lanes).
func (sm *SM) trapEvent(w *warp, kind trapunit.EvKind, arg uint8, pc, mask, exec uint32) {
	t := &sm.trap
	p := t.nev
	if p >= trapunit.MaxPorts {
		// More events than ports (several warp errors besides the
		// issues): the rest go first next cycle.
		t.over = append(t.over, trapOverflow{w, kind, arg, pc, mask, exec, sm.cycle})
		return
	}
	t.in.SetEvent(p, trapunit.Event{Warp: w.slot, Kind: kind, Arg: arg, PCNext: pc + 1})
	t.evw[p], t.evpc[p] = w, pc
	t.nev++
	w.tr.evCycle, w.tr.evMask, w.tr.evExec = sm.cycle+1, mask, exec
}

// warpError reports the fault e of w's instruction at pc and raises it
// as a warp error for the trap unit (errCode).
func (sm *SM) warpError(w *warp, e ErrorEntry, pc uint32) {
	sm.addError(e)
	sm.trapEvent(w, trapunit.EvWarpError, uint8(errCode(&e)), pc, w.gmask, w.gmask)
}

// errCode is the warp error code of a fault: trapunit.ErrorFromFault of
// its kind, except that a misaligned access (kind "memory_fault", as the
// report has always called it) is MISALIGNED_ADDR.
func errCode(e *ErrorEntry) trapunit.ErrCode {
	if e.Kind == "memory_fault" && strings.Contains(e.Message, "misaligned") {
		return trapunit.ErrMisalignedAddr
	}
	return trapunit.ErrorFromFault(e.Kind)
}

// trapInputs sets trap_unit's warp and host inputs of the cycle in in.
func (sm *SM) trapInputs(in *trapunit.Inputs) {
	t := &sm.trap
	in.WarpLive, in.WarpLaunch = t.live, t.launched
	for _, w := range sm.resident {
		if w.slot < trapunit.MaxWarps {
			in.WarpPC[w.slot] = w.gpc
		}
	}
	in.HostCmd, in.HostArg = t.cmd, t.arg
}

// trapTick is the trap unit's end of cycle (after the issued instructions
// executed).
func (sm *SM) trapTick() {
	t := &sm.trap
	if t.nev == 0 && !t.dirty && !t.busy() && sm.trapQuiescent() {
		if len(sm.hooks) > 0 {
			// The inputs the SM would have driven (CycleInfo.Units).
			sm.unitIn.Trap, sm.unitIn.TrapStepped = t.in, false
			sm.trapInputs(&sm.unitIn.Trap)
		}
		t.launched = rtl.Bits{}
		return
	}
	in := &t.in
	sm.trapInputs(in)
	if len(sm.hooks) > 0 {
		sm.unitIn.Trap, sm.unitIn.TrapStepped = *in, true
	}
	before := t.q
	t.o = t.unit.Eval(*in)
	t.unit.Tick()
	t.q = t.unit.Q()
	t.quietAny = t.q.Quiet.Any()
	t.oCycle = sm.cycle + 1
	nev := t.nev
	for p := 0; p < nev; p++ {
		in.EvValid[p] = false
	}
	t.nev, t.launched, t.dirty = 0, rtl.Bits{}, false
	t.cmd, t.arg, t.hasDirect = trapunit.HostNone, 0, false
	if len(t.over) > 0 {
		over := t.over
		t.over = nil
		for _, e := range over {
			if !e.w.done && e.w.slot < trapunit.MaxWarps && sm.slots[e.w.slot] == e.w {
				sm.trapEvent(e.w, e.kind, e.arg, e.pc, e.mask, e.exec)
			}
		}
	}
	t.seenESR |= t.q.GlobalESR

	o := &t.o
	sm.trapRecords(&before, nev)
	// The pulses, at the clock edge.
	n := t.nwarps
	for s := o.Resume.NextFrom(0, n); s >= 0; s = o.Resume.NextFrom(s+1, n) {
		if w := sm.slots[s]; w != nil && !w.done {
			sm.leaveHandler(w, o.ResumePC[s])
		}
	}
	for s := o.EnterHandler.NextFrom(0, n); s >= 0; s = o.EnterHandler.NextFrom(s+1, n) {
		if w := sm.slots[s]; w != nil && !w.done {
			sm.enterHandler(w, &before)
		}
	}
	// Trap state changes: entries without a handler, pauses and wakes.
	for _, w := range sm.resident {
		if w.done {
			continue
		}
		s := w.slot
		if !before.InHandler.Has(s) && t.q.InHandler.Has(s) && !o.EnterHandler.Has(s) {
			w.tr.group = sm.trapGroup(w)
		}
		if p := t.q.Paused.Has(s); p != w.tr.paused {
			w.tr.paused = p
			if p {
				w.tr.pauseState = StateTrapped
				if w.tr.pauseCycle == sm.cycle+1 {
					w.tr.pauseState = StatePaused
				}
			}
			w.refresh()
		}
	}
	t.rest = t.atRest()
	if t.host == nil {
		return
	}
	cmd, arg, stop := t.host.Step(o, n)
	if stop != nil {
		sm.trapAbort(stop)
		return
	}
	t.cmd, t.arg = cmd, arg
}

// trapGroup is the lanes of w that go to the saved PC when it resumes:
// the group of the instruction that trapped, or the active group after
// this cycle's issue for a warp taken into the handler by another's trap.
func (sm *SM) trapGroup(w *warp) uint32 {
	if w.tr.evCycle == sm.cycle+1 {
		return w.tr.evMask
	}
	return w.gmask
}

// enterHandler redirects w's live threads to the handler entry (the
// enter_handler_o pulse). The first entry of a trap event keeps the user
// context aside; a re-entry (a pending trap taken as the warp leaves)
// starts the handler afresh.
func (sm *SM) enterHandler(w *warp, before *trapunit.State) {
	w.syncPC()
	t := &sm.trap
	c := sm.cycle
	if !w.tr.handler {
		x := w.tr.ctx
		if x == nil {
			x = &trapCtx{}
			w.tr.ctx = x
		}
		w.tr.group = sm.trapGroup(w)
		x.pc, x.depth, x.fp = w.pc, w.depth, w.fp
		for l := range w.stack {
			x.stack[l], w.stack[l] = w.stack[l], x.stack[l][:0]
		}
		if w.blockState == StateBarrier && w.blockUntil == never {
			sm.nBarWait-- // its threads run the handler instead of waiting
		}
		x.blockUntil, x.blockState = w.blockUntil, w.blockState
		w.blockUntil, w.blockState = 0, StateMisc
		w.invalidate()
		w.blocked = 0
		// The handler's bank: its registers are all defined and all
		// within the warp's count.
		x.nreg, x.undefAny, x.undef = w.nreg, w.undefAny, w.undef
		w.nreg, w.undefAny, w.undef = t.hregs, false, [4]uint64{}
		w.swapBank()
		w.regs = resize(w.regs, t.hregs*32)
		w.preds = resize(w.preds, max(t.hpreds, 1))
		w.cc, w.ccRdy = 0, 0
		w.rdy = resize(w.rdy, t.hregs)
		w.rcls = resize(w.rcls, t.hregs)
		w.prdy = resize(w.prdy, max(t.hpreds, 1))
		w.pcls = resize(w.pcls, max(t.hpreds, 1))
		w.tr.handler = true
	}
	x := w.tr.ctx
	for m := w.live(); m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		w.pc[l], w.depth[l] = t.handlerPC, 0
		w.fp[l] = sm.frameTop(x.pc[l], x.fp[l])
		w.stack[l] = w.stack[l][:0]
	}
	w.regroup()
	w.fetchUntil = max(w.fetchUntil, c+1+uint64(max(sm.cfg.Lat.Fetch, 1)))
	w.refresh()
	sm.recordReentry(w, before)
}

// swapBank exchanges the warp's register bank with the one kept in ctx.
func (w *warp) swapBank() {
	x := w.tr.ctx
	w.regs, x.regs = x.regs, w.regs
	w.preds, x.preds = x.preds, w.preds
	w.cc, x.cc = x.cc, w.cc
	w.ccRdy, x.ccRdy = x.ccRdy, w.ccRdy
	w.rdy, x.rdy = x.rdy, w.rdy
	w.rcls, x.rcls = x.rcls, w.rcls
	w.prdy, x.prdy = x.prdy, w.prdy
	w.pcls, x.pcls = x.pcls, w.pcls
}

// userBank runs f with the warp's user registers in place (a bar.red
// result released while the warp runs the handler goes to them).
func (w *warp) userBank(f func()) {
	if !w.tr.handler {
		f()
		return
	}
	w.swapBank()
	f()
	w.swapBank()
}

// frameTop is where a frame may start above the frame of the function
// containing pc whose frame pointer is fp.
func (sm *SM) frameTop(pc, fp uint32) uint32 {
	for _, f := range sm.im.Funcs {
		if pc >= f.PC && pc < f.End {
			return (fp + f.Frame + 7) &^ 7
		}
	}
	return fp
}

// leaveHandler sends w back to resume pc (the resume_o pulse): the user
// context comes back and the trap's active group continues at pc.
func (sm *SM) leaveHandler(w *warp, pc uint32) {
	w.syncPC()
	c := sm.cycle
	if w.tr.handler {
		x := w.tr.ctx
		w.swapBank()
		w.pc, w.depth, w.fp = x.pc, x.depth, x.fp
		for l := range w.stack {
			w.stack[l], x.stack[l] = x.stack[l], w.stack[l][:0]
		}
		var blocked uint32
		for _, b := range w.barLanes {
			blocked |= b
		}
		w.blocked = blocked & w.live()
		w.blockUntil, w.blockState = x.blockUntil, x.blockState
		if w.blockUntil == never && !w.rpHeld {
			// A barrier wait is recomputed below; a setmaxnreg hold
			// released while the warp ran the handler is over.
			w.blockUntil, w.blockState = 0, StateMisc
		}
		if w.nreg == sm.trap.hregs {
			w.nreg, w.undefAny, w.undef = x.nreg, x.undefAny, x.undef
		} else {
			// reg_pool released a setmaxnreg meanwhile: its new count
			// and newly undefined registers stand.
			for i := range w.undef {
				w.undef[i] |= x.undef[i]
			}
			for r := w.nreg; r < 256; r++ {
				w.undef[r>>6] &^= 1 << uint(r&63)
			}
			w.undefAny = w.undef != [4]uint64{}
		}
		w.tr.handler = false
	}
	for m := w.tr.group & w.live(); m != 0; m &= m - 1 {
		w.pc[bits.TrailingZeros32(m)] = pc
	}
	w.tr.group = 0
	w.regroup()
	if w.gmask == 0 && w.blocked != 0 && w.blockUntil != never {
		// Every live thread still waits at a barrier.
		w.blockUntil, w.blockState = never, StateBarrier
		sm.nBarWait++
	}
	w.fetchUntil = max(w.fetchUntil, c+1+uint64(max(sm.cfg.Lat.Fetch, 1)))
	w.refresh()
}

// handlerRet checks a ret in the handler: a thread with no call to
// return from must leave the handler with RTT.
func (sm *SM) handlerRet(w *warp, emask uint32) *fault {
	for m := emask; m != 0; m &= m - 1 {
		if l := bits.TrailingZeros32(m); len(w.stack[l]) == 0 {
			return &fault{kind: "illegal_instruction", msg: fmt.Sprintf("ret with no call to return from in the trap handler %s (lane %d): the handler returns with RTT", sm.trap.handler, l), lane: l, hasLane: true}
		}
	}
	return nil
}

// drainUntil is the cycle at which every instruction w has issued has
// completed in the SM: every pending register and predicate write, loads
// and atomics included (BPT.DRAIN waits for it). Stores and reductions
// without a result are in the memory pipeline beyond the SM, which
// BPT.DRAIN does not drain (seed 002).
func (w *warp) drainUntil() uint64 {
	var t uint64
	for _, r := range w.rdy {
		t = max(t, r)
	}
	for _, p := range w.prdy {
		t = max(t, p)
	}
	return t
}

// execTrapUnit runs BPT, IDE and RTT: an event for the trap unit, except
// BPT.DRAIN, which holds the warp until its earlier instructions have
// completed (their errors are taken at issue, so they have been driven
// already). BPT.PAUSE(_QUIET) and RTT outside the handler, BPT.TRAP 0 and
// an undefined BPT mode are ILLEGAL_INSTR_ENCODING warp errors (the SM
// sees in_handler_q at issue; the unit would decide the same).
func (sm *SM) execTrapUnit(w *warp, d *dinst, pc uint32, mask, emask uint32) *fault {
	if emask == 0 {
		return nil
	}
	kind, arg, _ := trapunit.EventFromInst(d.in)
	switch kind {
	case trapunit.EvWarpError:
		return &fault{kind: "illegal_instruction", msg: fmt.Sprintf("%s: undefined BPT mode %d (ILLEGAL_INSTR_ENCODING)", d.label, d.in.Mods)}
	case trapunit.EvBPTTrap:
		if arg == 0 {
			return &fault{kind: "illegal_instruction", msg: fmt.Sprintf("BPT.TRAP %d: the trap reason must be 1..7 (ILLEGAL_INSTR_ENCODING)", d.in.Imm)}
		}
	case trapunit.EvBPTPause, trapunit.EvBPTPauseQuiet, trapunit.EvRTT:
		if !sm.inHandler(w) {
			name := "RTT"
			if kind != trapunit.EvRTT {
				name = "BPT." + isa.BPTName(int(d.in.Mods))
			}
			return &fault{kind: "illegal_instruction", msg: name + " outside the trap handler (ILLEGAL_INSTR_ENCODING)"}
		}
		if kind != trapunit.EvRTT {
			w.tr.pauseCycle = sm.cycle + 1
		}
	case trapunit.EvBPTDrain:
		if t := w.drainUntil(); t > sm.cycle+1 {
			w.blockUntil, w.blockState = max(w.blockUntil, t), StateDrain
			w.invalidate()
		}
		return nil
	}
	sm.trapEvent(w, kind, arg, pc, mask, emask)
	return nil
}

// execTrapInst runs PTX trap and brkpt (seed 000): trap is the warp error
// ASSERT_TRAP ("Abort execution and generate an interrupt to the host
// CPU"), brkpt is BPT.TRAP 1 ("Suspends execution"). Both complete: the
// saved PC is the next instruction.
func (sm *SM) execTrapInst(w *warp, d *dinst, pc uint32, mask, emask uint32) {
	if emask == 0 {
		return
	}
	if d.cat == catTRAP {
		what := "no trap handler: the host aborts the launch unless --on-trap=resume"
		if sm.trap.hasHandler {
			what = "the trap handler " + sm.trap.handler + " is entered"
		}
		sm.addError(sm.errorAt("trap", w, pc, fmt.Sprintf("trap (lanes %#08x): warp error ASSERT_TRAP, interrupt to the host; %s", emask, what)))
		sm.trapEvent(w, trapunit.EvPTXTrap, 0, pc, mask, emask)
		return
	}
	sm.trapEvent(w, trapunit.EvPTXBrkpt, 0, pc, mask, emask)
}

// trapAbort ends the run on the host agent's decision.
func (sm *SM) trapAbort(s *trapunit.Stop) {
	t := &sm.trap
	status := StatusTrapped
	switch s.Kind {
	case trapunit.StopBreakpoint:
		sm.addError(sm.abortEntry("breakpoint", t.rep.Breakpoints, t.lastBreak, "breakpoint: execution suspended and the host aborts the run (--on-break=abort)",
			func(r TrapRecord) string {
				return fmt.Sprintf("%s (lanes %#08x): execution suspended; the host aborts the run (--on-break=abort)", r.Kind, r.Lanes)
			}))
	case trapunit.StopTrap:
		sm.addError(sm.abortEntry("trap", t.rep.Traps, t.lastTrap, "BPT.TRAP: the host aborts the run (--on-trap=abort)",
			func(r TrapRecord) string {
				return fmt.Sprintf("BPT.TRAP %d (lanes %#08x): the host aborts the run (--on-trap=abort)", r.Reason, r.Lanes)
			}))
	default:
		// A warp error: its error entry was recorded when it happened.
		// Errors other than PTX trap end the run as a fault, as before
		// the trap unit existed.
		for _, ws := range s.Warps {
			if c := ws.ESR.Error(); c != trapunit.ErrNone && c != trapunit.ErrAssertTrap {
				status = StatusFault
			}
		}
	}
	sm.finish(status)
}

// abortEntry is the error entry of a stop the host aborts: about recs[last],
// the latest record of the kind (message msg(r)), or without a warp
// (message none) when there is none.
func (sm *SM) abortEntry(kind string, recs []TrapRecord, last int, none string, msg func(r TrapRecord) string) ErrorEntry {
	if last < 0 {
		return ErrorEntry{Kind: kind, Warp: -1, Message: none}
	}
	r := recs[last]
	return sm.trapEntry(kind, r, msg(r))
}

func (sm *SM) trapEntry(kind string, r TrapRecord, msg string) ErrorEntry {
	_, text := sm.im.Where(r.PC)
	return ErrorEntry{Kind: kind, Warp: r.Warp, CTA: r.CTA, WarpInCTA: r.WarpInCTA, PC: r.PC, Line: r.Line, Source: text, Message: msg}
}
