// Decoding ALU instructions: operand widths, latency classes and the compiled lane functions.

package pipeline

import (
	"github.com/smsim/smsim/alu"
	"github.com/smsim/smsim/isa"
)

// typeMask is the mask of a type's bits (pred: 1).
func typeMask(t isa.Type) uint64 {
	b := t.Bits()
	if b >= 64 {
		return ^uint64(0)
	}
	if b <= 0 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(b) - 1
}

// ext32 extends the low bits of v (type t, at most 32 bits) to a 32-bit
// register value by t's signedness.
func ext32(v uint64, t isa.Type) uint32 {
	b := t.Bits()
	if b >= 32 || b <= 0 {
		return uint32(v)
	}
	if t.Signed() {
		s := uint(32 - b)
		return uint32(int32(uint32(v)<<s) >> s)
	}
	return uint32(v) & (uint32(1)<<uint(b) - 1)
}

// ext64 extends the low bits of v (type t) to 64 bits by t's signedness.
func ext64(v uint64, t isa.Type) uint64 {
	b := t.Bits()
	if b >= 64 || b <= 0 {
		return v
	}
	if t.Signed() {
		s := uint(64 - b)
		return uint64(int64(v<<s) >> s)
	}
	return v & (uint64(1)<<uint(b) - 1)
}

func aluLat(in *isa.Inst) latClass {
	t := in.Type
	fl := t.Float()
	f64 := t == isa.F64
	if in.Op == isa.OpCVT {
		fl = fl || in.Type2.Float()
		f64 = f64 || in.Type2 == isa.F64
	}
	if fl {
		switch in.Op {
		case isa.OpSQRT, isa.OpRCP, isa.OpDIV, isa.OpEX2, isa.OpLG2, isa.OpSIN, isa.OpCOS, isa.OpRSQRT, isa.OpTANH:
			return latSFU
		case isa.OpMOV, isa.OpSELP, isa.OpCOPYSIGN, isa.OpTESTP:
			return latALU
		}
		if f64 {
			return latFP64
		}
		return latFP
	}
	switch in.Op {
	case isa.OpMUL, isa.OpMAD, isa.OpSAD, isa.OpMUL24, isa.OpMAD24, isa.OpDP4A, isa.OpDP2A:
		return latMul
	case isa.OpDIV, isa.OpREM:
		return latDiv
	}
	return latALU
}

func (dc *decoder) decodeALU(d *dinst) *decodeErr {
	in := &d.in
	d.cat = catALU
	d.lat = aluLat(in)
	t := in.Type
	if !t.Encodable() {
		return illegal("%s.%s", d.label, t)
	}
	fn, aerr := alu.Compile(in)
	if aerr != nil {
		return illegal("%v", aerr)
	}
	d.fn = fn
	if !t.Float() && (in.Op == isa.OpADD || in.Op == isa.OpSUB || in.Op == isa.OpMAD) {
		if in.Mods&isa.ModCCIn != 0 {
			d.cc |= ccIn
		}
		if in.Mods&isa.ModCCOut != 0 {
			d.cc |= ccOut
		}
	}
	n := in.Op.Arity(in.Mods)
	d.nsrc = n
	types := [3]isa.Type{t, t, t}
	mm := in.Mods & isa.ModMulMask
	switch in.Op {
	case isa.OpSHL, isa.OpSHR:
		types[1] = isa.U32
	case isa.OpMAD:
		if mm == isa.MulWide {
			types[2] = t.Wide()
		}
	case isa.OpCVT:
		// Packing forms read two sources of Type2 (cvt.pack.sat: and C).
		types[0], types[1], types[2] = in.Type2, in.Type2, isa.B32
	case isa.OpSETP, isa.OpSELP:
		types[2] = isa.Pred
	case isa.OpBFE:
		types[1], types[2] = isa.U32, isa.U32
	case isa.OpBFI, isa.OpSHF:
		types[2] = isa.U32
	case isa.OpDP4A, isa.OpDP2A:
		types[1], types[2] = in.Type2, isa.S32
	case isa.OpBMSK, isa.OpSZEXT:
		types[1] = isa.U32
	case isa.OpFNS:
		types[1], types[2] = isa.U32, isa.S32
	case isa.OpMOV:
		if in.Mods&isa.ModMovPack != 0 {
			types[0], types[1] = t.Half(), t.Half()
		}
	}
	slots := [3]isa.Operand12{in.A, in.B, in.C}
	dst := [3]*opnd{&d.a, &d.b, &d.c}
	var err *decodeErr
	for i := 0; i < n; i++ {
		if *dst[i], err = dc.src(d, slots[i], types[i]); err != nil {
			return err
		}
	}
	if in.Op == isa.OpBFI {
		if in.Mods&isa.ModBfiLenReg != 0 {
			if err := dc.useReg(d, in.Dst2, false); err != nil {
				return err
			}
			d.srcR = append(d.srcR, in.Dst2)
			d.d = opnd{kind: opReg32, reg: in.Dst2}
		} else {
			d.d = opnd{kind: opConst, val: uint64(in.Imm)}
		}
	}
	// Destinations.
	switch {
	case in.Op == isa.OpSETP:
		if d.d1, err = dc.dstReg(d, in.Dst, isa.Pred); err != nil {
			return err
		}
		if in.Mods&isa.ModSetpDst2 != 0 {
			d.d2, err = dc.dstReg(d, in.Dst2, isa.Pred)
		}
	case t == isa.Pred || in.Op == isa.OpTESTP:
		d.d1, err = dc.dstReg(d, in.Dst, isa.Pred)
	case in.Op == isa.OpMOV && in.Mods&isa.ModMovUnpack != 0:
		if d.d1, err = dc.dstReg(d, in.Dst, t.Half()); err != nil {
			return err
		}
		d.d2, err = dc.dstReg(d, in.Dst2, t.Half())
	case (in.Op == isa.OpMUL || in.Op == isa.OpMAD) && mm == isa.MulWide:
		d.d1, err = dc.dstReg(d, in.Dst, t.Wide())
	case in.Op == isa.OpPOPC || in.Op == isa.OpCLZ || in.Op == isa.OpBFIND,
		in.Op == isa.OpCVT && in.Mods&isa.ModCvtPackSat != 0:
		d.d1, err = dc.dstReg(d, in.Dst, isa.U32)
	default:
		d.d1, err = dc.dstReg(d, in.Dst, t)
	}
	if err == nil {
		d.vop = vecOf(d)
		d.rows = d.nsrc <= 3 && d.in.Op != isa.OpBFI && rowsOf(d)
	}
	return err
}
