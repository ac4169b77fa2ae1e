// Executing loads, stores and atomics.

package pipeline

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/smsim/smsim/alu"
	"github.com/smsim/smsim/isa"
)

// execMem runs LD, ST and ATOM. It validates every lane's access before
// changing anything (a fault is precise). It returns the latency of the
// spaces actually accessed and the scoreboard class.
func (sm *SM) execMem(w *warp, d *dinst, emask uint32) (uint64, uint8, *fault) {
	if emask == 0 {
		lat, sb, _ := memLat(d.space, d.cat == catATOM)
		if lat == latDynamic {
			lat = latGlobal
		}
		return sm.lat[lat], sb, nil
	}
	if sm.mp != nil && sm.refuses(d) {
		return 0, 0, portRefused // not taken: the instruction does not execute
	}
	n := d.elem.Bytes()
	var base [32]uint64
	w.gather(&d.a, &base)
	off := uint64(int64(int32(d.in.Imm)))
	write := d.cat != catLD
	refs := &sm.refs
	vec := d.vec
	worst := latNone
	sb := sbShort
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		addr := base[l] + off
		for e := 0; e < vec; e++ {
			r, f := sm.locate(w, l, d.space, addr+uint64(e*n), n, write)
			if f != nil {
				f.msg = fmt.Sprintf("%s: %s", d.label, f.msg)
				return 0, 0, f
			}
			refs[l*4+e] = r
			lc, c, _ := memLat(r.space, d.cat == catATOM)
			if worst == latNone || sm.lat[lc] > sm.lat[worst] {
				worst = lc
			}
			if c == sbLong {
				sb = sbLong
			}
		}
	}
	if sm.mp != nil {
		if !sm.offer(w, d, emask, &base, off) {
			return 0, 0, portRefused // not taken: the instruction does not execute
		}
	}
	if len(sm.hooks) > 0 {
		sm.lsu.request(w, d, emask, &base, off)
	}
	switch d.cat {
	case catLD:
		in := &d.in
		regs := [4]uint8{in.Dst, in.Dst2, uint8(in.B.Val), uint8(in.C.Val)}
		ext := in.Mods&isa.ModLdExt != 0
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			for e := 0; e < vec; e++ {
				v := sm.load(refs[l*4+e], n)
				switch {
				case d.elem == isa.Pred:
					w.writeDest(d.d1, l, b2u(v&0xff != 0))
				case ext:
					w.writeReg(regs[e], l, ext64(v, d.elem), isa.B64)
				default:
					w.writeReg(regs[e], l, v, d.elem)
				}
			}
		}
	case catST:
		var b, c [32]uint64
		w.gather(&d.b, &b)
		if vec > 1 {
			w.gather(&d.c, &c)
		}
		in := &d.in
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			for e := 0; e < vec; e++ {
				var v uint64
				switch e {
				case 0:
					v = b[l]
				case 1:
					v = c[l]
				default:
					r := in.Dst
					if e == 3 {
						r = in.Dst2
					}
					v = uint64(w.regs[int(r)<<5|l])
					if n == 8 {
						v |= uint64(w.regs[(int(r)+1)<<5|l]) << 32
					}
				}
				sm.store(refs[l*4+e], n, v)
			}
		}
	case catATOM:
		if f := sm.atomics(w, d, emask, n); f != nil {
			return 0, 0, f
		}
	}
	if sm.mp != nil {
		return pendingLat, sb, nil // until the port answers (memport.go)
	}
	return sm.lat[worst], sb, nil
}

// atomics performs ATOM lane by lane in lane order.
func (sm *SM) atomics(w *warp, d *dinst, emask uint32, n int) *fault {
	op := int(d.in.Mods&isa.ModAtomMask) >> isa.ModAtomShift
	t := d.elem
	m64 := typeMask(t)
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		r := sm.refs[l*4]
		if op > isa.AtomXor {
			if f := sm.mbarrier(w, d, op, l, r); f != nil {
				return f
			}
			continue
		}
		old := sm.load(r, n)
		b := w.value(&d.b, l) & m64
		nv := old
		switch op {
		case isa.AtomAdd:
			switch t {
			case isa.F16x2, isa.BF16x2: // atom.add.noftz: round to nearest, subnormals kept
				r, _ := alu.Eval(&isa.Inst{Op: isa.OpADD, Type: t, Mods: isa.RndRN << isa.ModRndShift}, old, b, 0, 0)
				nv = r.D
			case isa.F32:
				nv = uint64(math.Float32bits(math.Float32frombits(uint32(old)) + math.Float32frombits(uint32(b))))
			case isa.F64:
				nv = math.Float64bits(math.Float64frombits(old) + math.Float64frombits(b))
			default:
				nv = old + b
			}
		case isa.AtomCAS:
			if old == b {
				nv = w.value(&d.c, l)
			}
		case isa.AtomExch:
			nv = b
		case isa.AtomMin, isa.AtomMax:
			less := atomLess(t, b, old)
			if op == isa.AtomMax {
				less = atomLess(t, old, b)
			}
			if less {
				nv = b
			}
		case isa.AtomInc:
			if old >= b {
				nv = 0
			} else {
				nv = old + 1
			}
		case isa.AtomDec:
			if old == 0 || old > b {
				nv = b
			} else {
				nv = old - 1
			}
		case isa.AtomAnd:
			nv = old & b
		case isa.AtomOr:
			nv = old | b
		case isa.AtomXor:
			nv = old ^ b
		}
		sm.store(r, n, nv&m64)
		w.writeDest(d.d1, l, old)
	}
	if d.in.Mods&isa.ModMbarTry != 0 {
		sm.tryWait(w, d, emask)
	}
	return nil
}

// atomLess reports x < y for the atomic's type.
func atomLess(t isa.Type, x, y uint64) bool {
	switch {
	case t == isa.F32:
		a, b := math.Float32frombits(uint32(x)), math.Float32frombits(uint32(y))
		return a < b || (b != b && a == a)
	case t == isa.F64:
		a, b := math.Float64frombits(x), math.Float64frombits(y)
		return a < b || (b != b && a == a)
	case t.Signed():
		return int64(ext64(x, t)) < int64(ext64(y, t))
	}
	return x < y
}
