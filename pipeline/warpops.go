// Decoding and executing redux.sync, match.sync and elect.sync.

package pipeline

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// srcsAB decodes d's operands A and B as types ta and tb.
func (dc *decoder) srcsAB(d *dinst, ta, tb isa.Type) (err *decodeErr) {
	if d.a, err = dc.src(d, d.in.A, ta); err != nil {
		return err
	}
	d.b, err = dc.src(d, d.in.B, tb)
	return err
}

// decodeWarpOp decodes REDUX, MATCH and ELECT.
func (dc *decoder) decodeWarpOp(d *dinst) *decodeErr {
	in := &d.in
	var err *decodeErr
	switch in.Op {
	case isa.OpREDUX:
		d.cat, d.lat, d.sb = catREDUX, latShared, sbShort
		op := int(in.Mods & isa.ModReduxMask)
		switch {
		case in.Mods&^isa.ModReduxMask != 0 || op > isa.ReduxXor:
			return illegal("REDUX operation %#x", in.Mods)
		case op <= isa.ReduxMax && in.Type != isa.U32 && in.Type != isa.S32,
			op > isa.ReduxMax && in.Type != isa.B32:
			return illegal("REDUX.%s.%s", isa.ReduxName(op), in.Type)
		}
		if err = dc.srcsAB(d, in.Type, isa.B32); err != nil {
			return err
		}
		d.d1, err = dc.dstReg(d, in.Dst, in.Type)
		return err
	case isa.OpMATCH:
		d.cat, d.lat, d.sb = catMATCH, latShared, sbShort
		if in.Type != isa.B32 && in.Type != isa.B64 {
			return illegal("MATCH.%s", in.Type)
		}
		if in.Mods&^(isa.ModMatchAll|isa.ModMatchPred) != 0 || in.Mods == isa.ModMatchPred {
			return illegal("MATCH modifiers %#x", in.Mods)
		}
		if err = dc.srcsAB(d, in.Type, isa.B32); err != nil {
			return err
		}
		if d.d1, err = dc.dstReg(d, in.Dst, isa.B32); err != nil {
			return err
		}
		if in.Mods&isa.ModMatchPred != 0 {
			d.d2, err = dc.dstReg(d, in.Dst2, isa.Pred)
		}
		return err
	}
	d.cat = catELECT
	if d.a, err = dc.src(d, in.A, isa.B32); err != nil {
		return err
	}
	if d.d1, err = dc.dstReg(d, in.Dst, isa.B32); err != nil {
		return err
	}
	d.d2, err = dc.dstReg(d, in.Dst2, isa.Pred)
	return err
}

// execWarpOp runs redux.sync, match.sync and elect.sync on the lanes of
// emask. Their member mask is read from the first executing lane; lanes
// of it that are live but not executing, and executing lanes outside it,
// are warp_sync errors (checkConverged), and the operation covers the
// executing lanes of the mask (all executing lanes if none is in it).
func (sm *SM) execWarpOp(w *warp, d *dinst, pc uint32, emask uint32) {
	if emask == 0 {
		return
	}
	l0 := bits.TrailingZeros32(emask)
	mo, what := &d.b, "redux.sync"
	switch d.in.Op {
	case isa.OpMATCH:
		what = "match.sync"
	case isa.OpELECT:
		mo, what = &d.a, "elect.sync"
	}
	member := uint32(w.value(mo, l0))
	sm.checkConverged(w, pc, what, member, emask)
	part := emask & member
	if part == 0 {
		part = emask
	}
	switch d.in.Op {
	case isa.OpREDUX:
		v := reduxOf(w, d, part)
		for m := emask; m != 0; m &= m - 1 {
			w.writeDest(d.d1, bits.TrailingZeros32(m), v)
		}
	case isa.OpMATCH:
		var vals [32]uint64
		w.gather(&d.a, &vals)
		same := func(l int) uint32 {
			var s uint32
			for m := part; m != 0; m &= m - 1 {
				if k := bits.TrailingZeros32(m); vals[k] == vals[l] {
					s |= 1 << uint(k)
				}
			}
			return s
		}
		all := same(bits.TrailingZeros32(part)) == part
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			r := same(l)
			if d.in.Mods&isa.ModMatchAll != 0 {
				r = 0
				if all {
					r = part
				}
			}
			w.writeDest(d.d1, l, uint64(r))
			if d.d2.kind == dPred {
				w.writeDest(d.d2, l, b2u(all))
			}
		}
	case isa.OpELECT:
		leader := bits.TrailingZeros32(part)
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			w.writeDest(d.d1, l, uint64(leader))
			w.writeDest(d.d2, l, b2u(l == leader))
		}
	}
}

// reduxOf is redux.sync's reduction of operand a over the lanes of part.
func reduxOf(w *warp, d *dinst, part uint32) uint64 {
	op := int(d.in.Mods & isa.ModReduxMask)
	signed := d.in.Type == isa.S32
	l0 := bits.TrailingZeros32(part)
	acc := uint32(w.value(&d.a, l0))
	for m := part & (part - 1); m != 0; m &= m - 1 {
		v := uint32(w.value(&d.a, bits.TrailingZeros32(m)))
		switch op {
		case isa.ReduxAdd:
			acc += v
		case isa.ReduxMin:
			if signed && int32(v) < int32(acc) || !signed && v < acc {
				acc = v
			}
		case isa.ReduxMax:
			if signed && int32(v) > int32(acc) || !signed && v > acc {
				acc = v
			}
		case isa.ReduxAnd:
			acc &= v
		case isa.ReduxOr:
			acc |= v
		case isa.ReduxXor:
			acc ^= v
		}
	}
	return uint64(acc)
}
