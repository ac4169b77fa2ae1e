// Lowering the integer instructions of issue 16: mul24/mad24, dp4a/dp2a,
// bmsk, szext, fns and lop3.

package isa

// lowerMul24 lowers mul24.{lo,hi}.{u32,s32} and mad24.{lo,hi}{.sat}.{u32,s32}.
func (st *fnState) lowerMul24(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	mad := in.Op == "mad24"
	n := 3
	if mad {
		n = 4
	}
	if !st.wantOperands(in, n, n) {
		return
	}
	if t != U32 && t != S32 {
		st.a.errorf(in.Pos, "%s needs .u32 or .s32", in.Op)
		return
	}
	mode := -1
	for _, m := range ms.rest {
		switch {
		case m == "lo" && mode < 0:
			mode = MulLo
		case m == "hi" && mode < 0:
			mode = MulHi
		case m == "sat" && mad:
			mi.in.Mods |= ModSat
		default:
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		}
	}
	if mode < 0 {
		st.a.errorf(in.Pos, "%s needs .lo or .hi", in.Op)
		return
	}
	if mi.in.Mods&ModSat != 0 && (mode != MulHi || t != S32) {
		st.a.errorf(in.Pos, "mad24.sat needs .hi.s32")
		return
	}
	mi.in.Op, mi.in.Type = OpMUL24, t
	if mad {
		mi.in.Op = OpMAD24
	}
	mi.in.Mods |= uint16(mode)
	srcs := []Type{t, t}
	if mad {
		srcs = append(srcs, t)
	}
	st.emitOps(mi, in, t, srcs...)
}

// lowerDp lowers dp4a.atype.btype and dp2a.{lo,hi}.atype.btype (types
// .u32/.s32; c is .u32 when both are unsigned, else .s32).
func (st *fnState) lowerDp(in *Instr, ms modSet, mi minst) {
	if len(ms.types) != 2 {
		st.a.errorf(in.Pos, "%s needs two types (.atype.btype)", in.Op)
		return
	}
	at, bt := ms.types[0], ms.types[1]
	if (at != U32 && at != S32) || (bt != U32 && bt != S32) {
		st.a.errorf(in.Pos, "%s types must be .u32 or .s32", in.Op)
		return
	}
	if !st.wantOperands(in, 4, 4) {
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Type2 = OpDP4A, at, bt
	mode := -1
	for _, m := range ms.rest {
		switch {
		case in.Op == "dp2a" && m == "lo" && mode < 0:
			mode = 0
		case in.Op == "dp2a" && m == "hi" && mode < 0:
			mode = 1
		default:
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		}
	}
	if in.Op == "dp2a" {
		if mode < 0 {
			st.a.errorf(in.Pos, "dp2a needs .lo or .hi")
			return
		}
		mi.in.Op = OpDP2A
		mi.in.Mods = uint16(mode)
	}
	ct := S32
	if at == U32 && bt == U32 {
		ct = U32
	}
	st.emitOps(mi, in, ct, at, bt, ct)
}

// lowerMaskExt lowers bmsk.{clamp,wrap}.b32 d, a, b and
// szext.{clamp,wrap}.{u32,s32} d, a, b.
func (st *fnState) lowerMaskExt(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 3, 3) {
		return
	}
	op := OpBMSK
	if in.Op == "szext" {
		op = OpSZEXT
		if t != U32 && t != S32 {
			st.a.errorf(in.Pos, "szext needs .u32 or .s32")
			return
		}
	} else if t != B32 {
		st.a.errorf(in.Pos, "bmsk needs .b32")
		return
	}
	mode := -1
	for _, m := range ms.rest {
		switch {
		case m == "clamp" && mode < 0:
			mode = 0
		case m == "wrap" && mode < 0:
			mode = ModWrap
		default:
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		}
	}
	if mode < 0 {
		st.a.errorf(in.Pos, "%s needs .clamp or .wrap", in.Op)
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = op, t, uint16(mode)
	st.emitOps(mi, in, t, t, U32)
}

// lowerFns lowers fns.b32 d, mask, base, offset.
func (st *fnState) lowerFns(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 4, 4) || !st.checkNoMods(in, ms) {
		return
	}
	if t != B32 {
		st.a.errorf(in.Pos, "fns needs .b32")
		return
	}
	mi.in.Op, mi.in.Type = OpFNS, B32
	st.emitOps(mi, in, B32, B32, U32, S32)
}

// lowerLop3 lowers lop3.b32 d, a, b, c, immLut and the .BoolOp form
// lop3.{and,or}.b32 d|p, a, b, c, immLut, q: LOP3, then p = (d != 0)
// BoolOp q as a SETP.ne.b32 of d against 0 (the PTX ISA's semantics of p).
func (st *fnState) lowerLop3(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	if t != B32 {
		st.a.errorf(in.Pos, "lop3 needs .b32")
		return
	}
	boolop := BoolNone
	for _, m := range ms.rest {
		switch {
		case m == "and" && boolop == BoolNone:
			boolop = BoolAnd
		case m == "or" && boolop == BoolNone:
			boolop = BoolOr
		default: // PTX ISA 9.7.8.6: lop3.BoolOp is .and or .or
			st.a.errorf(in.Pos, "lop3.%s is not PTX (lop3 takes .and or .or)", m)
			return
		}
	}
	n := 5 + btoi(boolop != BoolNone) // the predicate operand of a boolean op
	if !st.wantOperands(in, n, n) {
		return
	}
	lut, ok := in.Operands[4].(*ImmOperand)
	if !ok || lut.Float || lut.Int < 0 || lut.Int > 0xff {
		st.a.errorf(OperandPos(in.Operands[4]), "lop3 truth table must be an integer constant 0..255")
		return
	}
	d := in.Operands[0]
	po, pipe := d.(*PipeOperand)
	if pipe != (boolop != BoolNone) {
		st.a.errorf(in.Pos, "lop3 writes d|p with .and/.or and d alone without")
		return
	}
	if pipe {
		d = po.A
	}
	setp := minst{pos: in.Pos, uses: append([]rref(nil), mi.uses...)}
	setp.in.GuardOn, setp.in.GuardNeg = mi.in.GuardOn, mi.in.GuardNeg
	mi.in.Op, mi.in.Type, mi.in.Imm = OpLOP3, B32, uint32(lut.Int)
	mi.immUsed, mi.immSlot = true, -1
	if !st.dst(&mi, fDst, d, B32, false) || !st.src(&mi, 0, in.Operands[1], B32) || !st.src(&mi, 1, in.Operands[2], B32) || !st.src(&mi, 2, in.Operands[3], B32) {
		return
	}
	v := mi.defs[len(mi.defs)-1].v // d's register (a fresh one for _)
	st.emit(mi)
	if !pipe {
		return
	}
	// p = (d != 0) BoolOp q, reading the LOP3's destination register.
	setp.in.Op, setp.in.Type = OpSETP, B32
	setp.in.Mods = CmpNE | uint16(boolop)<<ModBoolShift
	if !st.dst(&setp, fDst, po.B, Pred, false) {
		return
	}
	setp.in.A = RegOp(0)
	setp.uses = append(setp.uses, rref{v, fA})
	st.setImm(&setp, 1, 0)
	if !st.src(&setp, 2, in.Operands[5], Pred) {
		return
	}
	st.emit(setp)
}
