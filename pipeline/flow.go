package pipeline

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/smsim/smsim/isa"
)

// execFlow runs BRA, BRX, CALL, RET and EXIT for the group (mask) with the
// guard-true lanes emask. Every lane of the group gets its next PC (the
// target, or the next instruction when its guard is false); the group is
// then recomputed (minimum PC among the deepest live threads), which
// reconverges divergent paths. It returns the lanes that exited.
func (sm *SM) execFlow(w *warp, d *dinst, mask, emask uint32) (uint32, *fault) {
	pc := w.gpc
	next := pc + 1
	if d.cat == catBRA && (emask == 0 || emask == mask) && mask == w.gmask && mask == w.runnable() {
		// A converged warp's branch that every lane takes, or none: the
		// group stays whole at the new PC (its lanes' PCs follow when
		// needed: syncPC), and a .uni branch's lanes agree.
		if emask == 0 {
			w.gpc = next
		} else {
			w.gpc = d.in.Imm
		}
		w.stalePC = true
		return 0, nil
	}
	uni := d.in.Mods&isa.ModUni != 0 && d.cat != catEXIT
	var target [32]uint32
	var exits uint32
	switch d.cat {
	case catBRA:
		for m := emask; m != 0; m &= m - 1 {
			target[bits.TrailingZeros32(m)] = d.in.Imm
		}
	case catBRX:
		n := uint32(d.in.Mods >> isa.ModBrxLenShift)
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			idx := uint32(w.value(&d.a, l))
			if idx >= n {
				return 0, &fault{kind: "brx_index_out_of_range", msg: fmt.Sprintf("BRX_INDEX_OUT_OF_RANGE: lane %d index %d, the table has %d targets", l, idx, n), lane: l, hasLane: true}
			}
			t := uint64(d.in.Imm) + uint64(idx)
			if t >= uint64(len(sm.im.BrTables)) {
				return 0, &fault{kind: "brx_index_out_of_range", msg: fmt.Sprintf("BRX table entry %d is outside the %d-entry branch tables", t, len(sm.im.BrTables)), lane: l, hasLane: true}
			}
			target[l] = sm.im.BrTables[t]
		}
	case catCALL:
		adv := uint64(d.in.Mods>>isa.ModFrameShift) * 8
		lim := uint64(sm.cfg.SM.LocalBytes)
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			var t uint64
			if d.in.Mods&isa.ModCallInd != 0 {
				t = w.value(&d.a, l) - isa.FuncAddrBase
			} else {
				t = uint64(d.in.Imm)
			}
			fi := int32(-1)
			if t < uint64(len(sm.funcAt)) {
				fi = sm.funcAt[t]
			}
			if fi < 0 || sm.im.Funcs[fi].Kernel {
				addr := t + isa.FuncAddrBase
				return 0, &fault{kind: "bad_call_target", msg: fmt.Sprintf("call target %#x (pc %d) is not the entry of a function", addr, t), addr: addr, hasA: d.in.Mods&isa.ModCallInd != 0, lane: l, hasLane: true}
			}
			if d.targets != nil && !slices.Contains(d.targets, uint32(t)) {
				return 0, &fault{kind: "bad_call_target", msg: fmt.Sprintf("indirect call reaches %s, which is not among the call's targets (its .calltargets, call table or functions of its .callprototype's type): undefined behaviour", sm.im.Funcs[fi].Name), lane: l, hasLane: true}
			}
			nfp := uint64(w.fp[l]) + adv
			if nfp+uint64(sm.im.Funcs[fi].Frame) > lim {
				return 0, &fault{kind: "stack_overflow", msg: fmt.Sprintf("call to %s: the frame at local offset %d (%d bytes) exceeds the thread's %d bytes of local memory (sm.local_bytes)", sm.im.Funcs[fi].Name, nfp, sm.im.Funcs[fi].Frame, lim), lane: l, hasLane: true}
			}
			if len(w.stack[l]) >= maxCallDepth {
				return 0, &fault{kind: "stack_overflow", msg: fmt.Sprintf("call to %s: more than %d nested calls", sm.im.Funcs[fi].Name, maxCallDepth), lane: l, hasLane: true}
			}
			target[l] = uint32(t)
		}
	}
	if uni {
		if f := sm.checkUniform(w, d, pc, mask, emask, &target); f != nil {
			return 0, f
		}
	}
	// Commit.
	w.syncPC()
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if emask&(1<<uint(l)) == 0 {
			w.pc[l] = next
			continue
		}
		switch d.cat {
		case catBRA, catBRX:
			w.pc[l] = target[l]
		case catCALL:
			adv := uint32(d.in.Mods>>isa.ModFrameShift) * 8
			w.stack[l] = append(w.stack[l], retEntry{pc: next, fp: w.fp[l]})
			w.fp[l] += adv
			w.depth[l]++
			w.pc[l] = target[l]
		case catRET:
			s := w.stack[l]
			if len(s) == 0 {
				exits |= 1 << uint(l)
				continue
			}
			e := s[len(s)-1]
			w.stack[l] = s[:len(s)-1]
			w.pc[l], w.fp[l] = e.pc, e.fp
			w.depth[l]--
		case catEXIT:
			exits |= 1 << uint(l)
		}
	}
	w.exited |= exits
	w.regroup()
	return exits, nil
}

// checkUniform reports a .uni branch, call or return whose active threads
// disagree on the guard or the target (non-fatal; execution diverges),
// or returns it as a fault under SetUniformTraps (warp error
// UNIFORM_VIOLATION).
func (sm *SM) checkUniform(w *warp, d *dinst, pc uint32, mask, emask uint32, target *[32]uint32) *fault {
	var why string
	if emask != 0 && emask != mask {
		why = fmt.Sprintf("the guard is true for lanes %#08x of the active %#08x", emask, mask)
	} else if emask != 0 && (d.cat == catBRX || d.cat == catCALL) {
		l0 := bits.TrailingZeros32(emask)
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if target[l] != target[l0] {
				why = fmt.Sprintf("lane %d goes to pc %d, lane %d to pc %d", l0, target[l0], l, target[l])
				break
			}
		}
	}
	if why != "" {
		name := map[category]string{catBRA: "bra.uni", catBRX: "brx.idx.uni", catCALL: "call.uni", catRET: "ret.uni"}[d.cat]
		msg := fmt.Sprintf("%s is not uniform: %s", name, why)
		if sm.trap.uniformTraps {
			return &fault{kind: "uniform_violation", msg: msg + " (UNIFORM_VIOLATION)"}
		}
		sm.addError(sm.errorAt("uniform_violation", w, pc, msg))
	}
	return nil
}
