// Decoding memory instructions: state spaces, widths and latency classes.

package pipeline

import (
	"github.com/smsim/smsim/isa"
)

func memLat(space int, atom bool) (latClass, uint8, bool) {
	switch space {
	case isa.SpaceShared:
		return latShared, sbShort, false
	case isa.SpaceGlobal:
		if atom {
			return latAtomic, sbLong, true
		}
		return latGlobal, sbLong, true
	case isa.SpaceLocal:
		return latLocal, sbLong, true
	case isa.SpaceParam, isa.SpaceConst:
		return latParam, sbShort, false
	}
	return latDynamic, sbLong, true
}

func (dc *decoder) decodeMem(d *dinst) *decodeErr {
	in := &d.in
	t := in.Type
	if !t.Encodable() || (t.Bits() == 0 && t != isa.Pred) {
		return illegal("%s.%s", d.label, t)
	}
	d.elem = t
	d.space = int(in.Mods & isa.ModSpaceMask)
	if d.space > isa.SpaceConst {
		return illegal("%s in undefined space %d", d.label, d.space)
	}
	var err *decodeErr
	// Address base.
	switch {
	case in.A.IsZero(), in.A.IsFP():
		d.a, _ = dc.src(d, in.A, isa.U64)
	case in.A.Kind == isa.KindReg:
		bt := isa.U64
		if in.Type2 == isa.U32 {
			bt = isa.U32
		}
		if d.a, err = dc.src(d, in.A, bt); err != nil {
			return err
		}
	case in.A.Kind == isa.KindConst:
		if d.a, err = dc.src(d, in.A, isa.U64); err != nil {
			return err
		}
	default:
		return illegal("%s: bad address operand", d.label)
	}
	switch in.Op {
	case isa.OpLD, isa.OpST:
		d.vec = 1 << ((in.Mods & isa.ModVecMask) >> isa.ModVecShift)
		if d.vec > 4 || (t == isa.Pred && d.vec != 1) {
			return illegal("%s.v%d.%s", d.label, d.vec, t)
		}
		d.lat, d.sb, d.usesPort = memLat(d.space, false)
	case isa.OpATOM:
		d.vec = 1
		d.lat, d.sb, d.usesPort = memLat(d.space, true)
		if d.space != isa.SpaceGlobal && d.space != isa.SpaceShared && d.space != isa.SpaceGeneric {
			return illegal("ATOM on .%s", isa.SpaceName(d.space))
		}
		if t.Bits() != 32 && t.Bits() != 64 {
			return illegal("ATOM.%s", t)
		}
	}
	switch in.Op {
	case isa.OpLD:
		d.cat = catLD
		if t == isa.Pred {
			d.d1, err = dc.dstReg(d, in.Dst, isa.Pred)
			return err
		}
		if in.Mods&isa.ModLdExt != 0 {
			if d.vec != 1 || t.Bits() > 32 {
				return illegal("LD with ModLdExt of .v%d.%s", d.vec, t)
			}
			d.d1, err = dc.dstReg(d, in.Dst, isa.B64)
			return err
		}
		regs := []uint8{in.Dst, in.Dst2, uint8(in.B.Val), uint8(in.C.Val)}
		for i := 0; i < d.vec; i++ {
			if i >= 2 {
				o := in.B
				if i == 3 {
					o = in.C
				}
				if o.Kind != isa.KindReg || o.Val > 255 {
					return illegal("LD.v4: element %d is not a register", i)
				}
			}
			dd, err := dc.dstReg(d, regs[i], t)
			if err != nil {
				return err
			}
			switch i {
			case 0:
				d.d1 = dd
			case 1:
				d.d2 = dd
			}
		}
		return nil
	case isa.OpST:
		d.cat = catST
		// A store to .param or .const decodes; it faults when it executes.
		st := t
		if d.b, err = dc.src(d, in.B, st); err != nil {
			return err
		}
		if d.vec >= 2 {
			if d.c, err = dc.src(d, in.C, st); err != nil {
				return err
			}
		}
		if d.vec == 4 {
			for _, r := range []uint8{in.Dst, in.Dst2} {
				wide := st.Bits() > 32
				if err := dc.useReg(d, r, wide); err != nil {
					return err
				}
				d.srcR = append(d.srcR, r)
				if wide {
					d.srcR = append(d.srcR, r+1)
				}
			}
		}
		d.lat = latNone
		return nil
	case isa.OpATOM:
		d.cat = catATOM
		op := int(in.Mods&isa.ModAtomMask) >> isa.ModAtomShift
		if op > isa.AtomXor {
			return dc.decodeMbar(d, op)
		}
		if in.Mods&(isa.ModMbarTry|isa.ModMbarHint|isa.ModMbarTx|isa.ModMbarTxDone) != 0 {
			return illegal("ATOM.%s with mbarrier modifiers %#x", isa.AtomName(op), in.Mods)
		}
		if t.Float() && op != isa.AtomAdd && op != isa.AtomMin && op != isa.AtomMax && op != isa.AtomExch || t.LowPrecision() && op != isa.AtomAdd {
			return illegal("ATOM.%s.%s", isa.AtomName(op), t)
		}
		if d.b, err = dc.src(d, in.B, t); err != nil {
			return err
		}
		if op == isa.AtomCAS {
			if d.c, err = dc.src(d, in.C, t); err != nil {
				return err
			}
		}
		d.d1, err = dc.dstReg(d, in.Dst, t)
		return err
	}
	return nil
}
