package pipeline

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

const fullMask = ^uint32(0)

// gather reads operand o of every lane into out (lanes outside the warp
// read whatever the register file holds; callers use only the lanes they
// execute).
func (w *warp) gather(o *opnd, out *[32]uint64) {
	switch o.kind {
	case opReg32:
		r := w.regs[int(o.reg)<<5:]
		r = r[:32]
		for l := range out {
			out[l] = uint64(r[l])
		}
	case opReg64:
		lo := w.regs[int(o.reg)<<5:]
		lo = lo[:32]
		hi := w.regs[(int(o.reg)+1)<<5:]
		hi = hi[:32]
		for l := range out {
			out[l] = uint64(lo[l]) | uint64(hi[l])<<32
		}
	case opPred:
		p := w.preds[o.reg]
		if o.neg {
			p = ^p
		}
		for l := range out {
			out[l] = uint64(p >> uint(l) & 1)
		}
	case opFP:
		for l := range out {
			out[l] = uint64(w.fp[l])
		}
	default:
		for l := range out {
			out[l] = o.val
		}
	}
}

// value reads operand o for one lane.
func (w *warp) value(o *opnd, l int) uint64 {
	switch o.kind {
	case opReg32:
		return uint64(w.regs[int(o.reg)<<5|l])
	case opReg64:
		return uint64(w.regs[int(o.reg)<<5|l]) | uint64(w.regs[(int(o.reg)+1)<<5|l])<<32
	case opPred:
		p := w.preds[o.reg]
		if o.neg {
			p = ^p
		}
		return uint64(p >> uint(l) & 1)
	case opFP:
		return uint64(w.fp[l])
	}
	return o.val
}

// predMask reads a predicate operand as a lane mask.
func (w *warp) predMask(o *opnd) uint32 {
	switch o.kind {
	case opPred:
		p := w.preds[o.reg]
		if o.neg {
			p = ^p
		}
		return p
	case opConst:
		if o.val&1 != 0 {
			return fullMask
		}
	}
	return 0
}

// writeReg writes a value of type t to register r (a pair for 64-bit
// types; narrower types are extended to 32 bits by t's signedness).
func (w *warp) writeReg(r uint8, l int, v uint64, t isa.Type) {
	if t.Bits() > 32 {
		w.regs[int(r)<<5|l] = uint32(v)
		w.regs[(int(r)+1)<<5|l] = uint32(v >> 32)
		return
	}
	w.regs[int(r)<<5|l] = ext32(v, t)
}

// writeDest writes one lane's result to a destination.
func (w *warp) writeDest(d dest, l int, v uint64) {
	switch d.kind {
	case dReg32:
		w.regs[int(d.reg)<<5|l] = ext32(v, d.typ)
	case dReg64:
		w.regs[int(d.reg)<<5|l] = uint32(v)
		w.regs[(int(d.reg)+1)<<5|l] = uint32(v >> 32)
	case dPred:
		if v != 0 {
			w.preds[d.reg] |= 1 << uint(l)
		} else {
			w.preds[d.reg] &^= 1 << uint(l)
		}
	}
}

// issue executes the group's instruction of w (issued by scheduler s) and
// updates the warp's PCs, scoreboard and timing.
func (sm *SM) issue(w *warp, s int) {
	c := sm.cycle
	pc := w.gpc
	if int(pc) >= len(sm.code) {
		sm.countIssue(w, pc, 0)
		sm.warpError(w, sm.errorAt("pc_out_of_range", w, pc, fmt.Sprintf("pc %d is outside the code (%d instructions)", pc, len(sm.code))), pc)
		return
	}
	d := &sm.code[pc]
	if d.bad != "" {
		sm.countIssue(w, pc, 0)
		sm.warpError(w, sm.errorAt(d.kind, w, pc, d.bad), pc)
		return
	}
	mask := w.gmask
	emask := mask & w.guardMask(d)
	// Register bounds (setmaxnreg): one compare unless the warp holds
	// registers not written since a setmaxnreg.inc (regpool.go).
	if (int(d.regTop) > w.nreg || w.undefAny) && emask != 0 && !sm.checkRegs(w, d, pc) {
		return
	}
	lat := uint64(0)
	if d.lat < latDynamic {
		lat = sm.lat[d.lat]
	}
	sbc := d.sb
	pending := false // the memory port answers for the destinations
	var f *fault
	exits := uint32(0)
	rtt := false
	switch d.cat {
	case catNOP:
		w.advance()
	case catALU:
		f = sm.execALU(w, d, emask)
		w.advance()
	case catLD, catST, catATOM:
		var l uint64
		l, sbc, f = sm.execMem(w, d, emask)
		if f == portRefused {
			sm.refused(w, c)
			return
		}
		if f == nil {
			if l == pendingLat {
				// The memory port took it: its destinations and memBusy
				// wait for the answer (memport.go).
				lat, pending = l, true
				w.memOut++
				w.memBusy = c + pendingLat
			} else {
				if d.lat == latDynamic {
					lat = l
				}
				w.busyUntil(c + max(lat, l))
			}
			w.advance()
		}
	case catCVTA:
		win := uint64(isa.SharedWindow)
		if d.space == isa.SpaceLocal {
			win = isa.LocalWindow
		}
		to := d.in.Mods&isa.ModCvtaTo != 0
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			a := w.value(&d.a, l)
			if to {
				a -= win
			} else {
				a += win
			}
			w.writeDest(d.d1, l, a)
		}
		w.advance()
	case catS2R:
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			w.writeDest(d.d1, l, sm.sregValue(w, l, d.sreg))
		}
		w.advance()
	case catBRA, catBRX, catCALL, catRET, catEXIT:
		if d.cat == catRET && w.tr.handler {
			f = sm.handlerRet(w, emask)
		}
		if f == nil {
			exits, f = sm.execFlow(w, d, mask, emask)
		}
	case catBAR:
		f = sm.execBar(w, d, emask)
	case catBARWARP:
		if emask != 0 {
			mm := uint32(w.value(&d.a, bits.TrailingZeros32(emask)))
			sm.checkConverged(w, pc, "bar.warp.sync", mm, emask)
		}
		w.advance()
	case catMEMBAR:
		w.advance()
		if w.memBusy > c+1 {
			w.blockUntil, w.blockState = w.memBusy, StateMembar
		}
	case catACTIVEMASK:
		for m := emask; m != 0; m &= m - 1 {
			w.writeDest(d.d1, bits.TrailingZeros32(m), uint64(mask))
		}
		w.advance()
	case catVOTE:
		sm.execVote(w, d, pc, emask)
		w.advance()
	case catSHFL:
		sm.execShfl(w, d, pc, emask)
		w.advance()
	case catCPASYNC:
		var until uint64
		if until, f = sm.execCpAsync(w, d, emask); f == nil {
			w.advance()
			if until > c+1 {
				w.blockUntil, w.blockState = until, StateCpAsync
			}
		}
	case catREDUX, catMATCH, catELECT:
		sm.execWarpOp(w, d, pc, emask)
		w.advance()
	case catNANOSLEEP:
		// clock_timer holds the warp in sleeping from the next cycle.
		w.advance()
		if emask != 0 {
			sm.requestSleep(w, d, emask, s)
		}
	case catPMEVENT:
		// One perf_mon trigger per warp-level execution with at least one
		// executing lane.
		if emask != 0 {
			sm.triggerEvents(uint16(d.in.Imm), s)
		}
		w.advance()
	case catTRAP, catBRKPT:
		sm.execTrapInst(w, d, pc, mask, emask)
		w.advance()
	case catSETMAXNREG:
		f = sm.execSetmaxnreg(w, d, pc, emask, s)
		if f == nil {
			w.advance()
		}
	case catTrapUnit:
		f = sm.execTrapUnit(w, d, pc, mask, emask)
		// RTT does not fall through: trap_unit's resume pulse at this
		// cycle's edge sends the warp to the saved PC (seed 002). Its
		// group stays at the RTT until then, so nothing after the
		// handler (another function, with more registers than the
		// handler's bank) is ever looked at.
		if rtt = d.in.Op == isa.OpRTT && emask != 0; f == nil && !rtt {
			w.advance()
		}
	default:
		f = &fault{kind: "illegal_instruction", msg: fmt.Sprintf("%s is not executable", d.label)}
	}
	if f != nil {
		// The faulting instruction issued but does not complete: the warp
		// stays at it and nothing after it runs; the fault is a warp error
		// for the trap unit (a precise trap, saved PC = the next
		// instruction).
		sm.countIssue(w, pc, 0)
		e := sm.errorAt(f.kind, w, pc, f.msg)
		if f.hasA {
			a := f.addr
			e.Address = &a
		}
		if f.hasLane {
			ln := f.lane
			e.Lane = &ln
		}
		sm.sanitize(f, w, pc)
		sm.warpError(w, e, pc)
		return
	}
	sm.countIssue(w, pc, emask)
	// Scoreboard.
	if d.lat != latNone {
		ready := c + lat
		for _, r := range d.dstR {
			w.rdy[r], w.rcls[r] = ready, sbc
		}
		for _, p := range d.dstP {
			w.prdy[p], w.pcls[p] = ready, sbc
		}
		if d.cc&ccOut != 0 {
			w.ccRdy = ready
		}
		// The writeback stage delivers the destinations at ready.
		if ready > c && !pending && len(d.dstR)+len(d.dstP) > 0 {
			sm.wb.push(c, ready, s, w.slot, pc)
		}
	}
	sm.fetchNext(w, d, pc, rtt)
	if exits != 0 {
		w.cta.liveThreads -= bits.OnesCount32(exits)
		if w.live() == 0 {
			sm.warpDone(w)
		}
		sm.threadsExited(w, exits)
	}
	if !w.done {
		w.refresh()
	}
	if len(sm.issueHook) > 0 {
		ii := &sm.info.issue // reused: hooks must not keep the pointer
		*ii = IssueInfo{Cycle: c, Sched: s, Warp: w.slot, PC: pc, Mask: mask, Exec: emask, Inst: d.in}
		for _, h := range sm.issueHook {
			h(ii)
		}
	}
}

func (sm *SM) countIssue(w *warp, pc uint32, emask uint32) {
	w.insts++
	w.lastIssue = sm.cycle
	w.lastPC = pc
	sm.warpInsts++
	sm.threadInsts += uint64(bits.OnesCount32(emask))
}

// execRows runs a fast-path instruction whose sources are 32-bit rows
// (rowsOf) on the lanes of emask, reading them in place.
func (sm *SM) execRows(w *warp, d *dinst, emask uint32) *fault {
	a := w.row(&d.a)
	b, c := a, a // unused slots: no opcode reads them
	if d.nsrc > 1 {
		b = w.row(&d.b)
	}
	if d.nsrc > 2 {
		c = w.row(&d.c)
	}
	vecExec(w, d, emask, a, b, c)
	return nil
}

// vecExec runs d's fast path (vop) on the operands a, b, c of every lane
// and writes the lanes of emask.
func vecExec[T uint32 | uint64](w *warp, d *dinst, emask uint32, a, b, c *[32]T) {
	if d.vop == vSetp {
		p := vecSetp(int(d.in.Mods&isa.ModCmpMask), d.in.Type.Signed(), a, b)
		w.preds[d.d1.reg] = w.preds[d.d1.reg]&^emask | p&emask
		return
	}
	r := (*[32]uint32)(w.regs[int(d.d1.reg)<<5:])
	if emask == fullMask {
		// Every lane's result depends on that lane's sources only, so the
		// destination row may be a source row.
		vec32(d.vop, a, b, c, r)
		return
	}
	var res [32]uint32
	vec32(d.vop, a, b, c, &res)
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		r[l] = res[l]
	}
}

// execALU runs an arithmetic/logic instruction on the lanes of emask.
func (sm *SM) execALU(w *warp, d *dinst, emask uint32) *fault {
	if emask == 0 {
		return nil
	}
	if d.rows {
		return sm.execRows(w, d, emask)
	}
	// Operand scratch (unused slots keep stale values; no opcode reads
	// them).
	a, b, c, x := &sm.opA, &sm.opB, &sm.opC, &sm.opD
	if d.nsrc > 0 {
		w.gather(&d.a, a)
	}
	if d.nsrc > 1 {
		w.gather(&d.b, b)
	}
	if d.nsrc > 2 {
		w.gather(&d.c, c)
	}
	if d.in.Op == isa.OpBFI {
		w.gather(&d.d, x)
	}
	if d.vop != vNone {
		vecExec(w, d, emask, a, b, c)
		return nil
	}
	fn := d.fn
	if d.cc != 0 {
		// Carry chains: CC.CF in as the fourth operand, out in Result.CF.
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			res := fn(a[l], b[l], c[l], uint64(w.cc>>uint(l)&1))
			w.writeDest(d.d1, l, res.D)
			if d.cc&ccOut != 0 {
				w.cc &^= 1 << uint(l)
				if res.CF {
					w.cc |= 1 << uint(l)
				}
			}
		}
		return nil
	}
	// Fast path: one 32-bit register result.
	if d.d1.kind == dReg32 && d.d2.kind == dNone {
		r := w.regs[int(d.d1.reg)<<5:]
		r = r[:32]
		narrow := d.d1.typ.Bits() < 32
		if emask == fullMask && !narrow {
			for l := 0; l < 32; l++ {
				r[l] = uint32(fn(a[l], b[l], c[l], x[l]).D)
			}
			return nil
		}
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			r[l] = ext32(fn(a[l], b[l], c[l], x[l]).D, d.d1.typ)
		}
		return nil
	}
	var p1, p2 uint32
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		res := fn(a[l], b[l], c[l], x[l])
		switch d.d1.kind {
		case dPred:
			if res.P {
				p1 |= 1 << uint(l)
			}
		default:
			w.writeDest(d.d1, l, res.D)
		}
		switch d.d2.kind {
		case dPred:
			if res.Q {
				p2 |= 1 << uint(l)
			}
		case dReg32, dReg64:
			w.writeDest(d.d2, l, res.D2)
		}
	}
	if d.d1.kind == dPred {
		w.preds[d.d1.reg] = w.preds[d.d1.reg]&^emask | p1
	}
	if d.d2.kind == dPred {
		w.preds[d.d2.reg] = w.preds[d.d2.reg]&^emask | p2
	}
	return nil
}

// tick is the SM's always_ff: the execute stage runs the issued
// instructions (in the order of the schedulers this cycle, from first)
// and the writeback stages take their results; then the registers of
// reg_pool, the warp schedulers, trap_unit, clock_timer and perf_mon take
// their next values (clock_timer and perf_mon with the cycle's nanosleep
// and pmevent requests, issue and stall counts). It reports whether an
// instruction issued.
func (sm *SM) tick(c uint64, first int) bool {
	ns := len(sm.scheds)
	nw := sm.schedWords

	issued := false
	insts := sm.warpInsts
	if len(sm.hooks) > 0 {
		sm.lsu.idle() // the requests of this cycle's instructions follow
	}
	for k := 0; k < ns; k++ {
		s := (first + k) % ns
		slot := sm.chosen[s]
		if slot < 0 {
			continue
		}
		w := sm.slots[slot]
		if sm.stopped {
			// The run stopped at an earlier instruction of this cycle:
			// this warp's selection is withdrawn.
			sm.stalls[StateSelected]--
			sm.stalls[StateNotSelected]++
			sm.reclass(w, c, StateNotSelected, 0)
			continue
		}
		issued = true
		sm.lsu.s = s
		sm.issue(w, s)
	}
	if sm.mp != nil {
		sm.tickMemPort()
	}
	if sm.pt != nil {
		sm.pt.tick()
	}
	if !sm.stopped {
		sm.rpStep()
	}
	for s, u := range sm.scheds {
		u.Tick()
		sm.schedIn[s].WarpLaunch.ClearWords(nw)
	}
	var rec *UnitInputs
	if len(sm.hooks) > 0 {
		sm.unitIn.Cycle, sm.unitIn.RegPoolStepped = c, !sm.stopped
		sm.unitInOK = true
		rec = &sm.unitIn
	}
	sm.trapTick()
	sm.u.tick(sm.warpInsts-insts, &sm.stalls, rec)
	return issued
}

// refused withdraws the issue of w's memory instruction, which the memory
// port did not take this cycle: the warp is throttled for the cycle
// (lg_throttle or mio_throttle) and tries again.
func (sm *SM) refused(w *warp, c uint64) {
	st := sm.mp.refusedState
	sm.stalls[StateSelected]--
	sm.stalls[st]++
	sm.reclass(w, c, st, 0)
}
