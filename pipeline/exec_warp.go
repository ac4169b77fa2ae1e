// Executing barriers and the warp-synchronous instructions (vote, shfl) and their convergence checks.

package pipeline

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// execBar runs BAR (sync, arrive, red).
func (sm *SM) execBar(w *warp, d *dinst, emask uint32) *fault {
	if emask == 0 {
		w.advance()
		return nil
	}
	l0 := bits.TrailingZeros32(emask)
	id := w.value(&d.a, l0)
	if id >= numBarriers {
		return &fault{kind: "barrier_error", msg: fmt.Sprintf("barrier id %d is outside 0..%d", id, numBarriers-1)}
	}
	count := 0
	if !d.in.B.IsZero() {
		v := uint32(w.value(&d.b, l0))
		if v == 0 || v%32 != 0 {
			return &fault{kind: "barrier_error", msg: fmt.Sprintf("barrier thread count %d is not a non-zero multiple of 32", v)}
		}
		count = int(v)
	}
	kind := int(d.in.Mods & isa.ModBarKindMask)
	var pred uint32
	if kind == isa.BarRed {
		pred = w.predMask(&d.c)
	}
	next := w.gpc + 1
	w.syncPC()
	for m := w.gmask; m != 0; m &= m - 1 {
		w.pc[bits.TrailingZeros32(m)] = next
	}
	sm.arrive(w, d, int(id), count, emask, kind != isa.BarArrive, pred)
	return nil
}

// checkConverged reports lanes of a warp-synchronous instruction's member
// mask that are live but not executing it.
func (sm *SM) checkConverged(w *warp, pc uint32, what string, member, emask uint32) {
	if missing := member & w.live() &^ emask; missing != 0 {
		sm.addError(sm.errorAt("warp_sync", w, pc, fmt.Sprintf("%s: member mask %#08x includes lanes %#08x that are not executing it (not converged)", what, member, missing)))
	}
	if emask&^member != 0 {
		sm.addError(sm.errorAt("warp_sync", w, pc, fmt.Sprintf("%s: lanes %#08x execute it but are not in the member mask %#08x", what, emask&^member, member)))
	}
}

// execVote runs vote.sync.
func (sm *SM) execVote(w *warp, d *dinst, pc uint32, emask uint32) {
	if emask == 0 {
		return
	}
	l0 := bits.TrailingZeros32(emask)
	member := uint32(w.value(&d.b, l0))
	sm.checkConverged(w, pc, "vote.sync", member, emask)
	part := emask & member
	if part == 0 {
		part = emask
	}
	p := w.predMask(&d.a) & part
	var v uint64
	switch int(d.in.Mods & 3) {
	case 0:
		v = b2u(p == part)
	case 1:
		v = b2u(p != 0)
	case 2:
		v = b2u(p == 0 || p == part)
	case 3:
		v = uint64(p)
	}
	for m := emask; m != 0; m &= m - 1 {
		w.writeDest(d.d1, bits.TrailingZeros32(m), v)
	}
}

// execShfl runs shfl.sync.
func (sm *SM) execShfl(w *warp, d *dinst, pc uint32, emask uint32) {
	if emask == 0 {
		return
	}
	l0 := bits.TrailingZeros32(emask)
	member := d.in.Imm
	if d.in.Mods&isa.ModShflMaskReg != 0 {
		member = w.regs[int(uint8(d.in.Imm))<<5|l0]
	}
	sm.checkConverged(w, pc, "shfl.sync", member, emask)
	var src [32]uint64
	w.gather(&d.a, &src)
	mode := int(d.in.Mods & 3)
	type res struct {
		v uint64
		p bool
	}
	var out [32]res
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		b := uint32(w.value(&d.b, l)) & 0x1f // PTX: the lane operand is b[4:0]
		cc := uint32(w.value(&d.c, l))
		clamp := cc & 0x1f
		seg := (cc >> 8) & 0x1f
		maxL := (uint32(l) & seg) | (clamp &^ seg)
		minL := uint32(l) & seg
		var j uint32
		var ok bool
		switch mode {
		case isa.ShflUp:
			j = uint32(l) - b
			ok = int32(j) >= int32(maxL)
		case isa.ShflDown:
			j = uint32(l) + b
			ok = j <= maxL
		case isa.ShflBfly:
			j = uint32(l) ^ b
			ok = j <= maxL
		default:
			j = minL | (b &^ seg)
			ok = j <= maxL
		}
		if !ok || j > 31 {
			j = uint32(l)
		}
		out[l] = res{src[j], ok}
	}
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		w.writeDest(d.d1, l, out[l].v)
		if d.d2.kind == dPred {
			w.writeDest(d.d2, l, b2u(out[l].p))
		}
	}
}
