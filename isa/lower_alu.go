// Lowering integer and floating-point arithmetic, compare/select, conversions and bit operations.

package isa

func (st *fnState) arithMods(in *Instr, ms modSet, mi *minst, allowMul bool) bool {
	for _, m := range ms.rest {
		switch m {
		case "lo":
			mi.in.Mods = mi.in.Mods&^ModMulMask | MulLo
		case "hi":
			mi.in.Mods = mi.in.Mods&^ModMulMask | MulHi
		case "wide":
			mi.in.Mods = mi.in.Mods&^ModMulMask | MulWide
		case "sat":
			mi.in.Mods |= ModSat
		case "ftz":
			mi.in.Mods |= ModFtz
		case "cc":
			mi.in.Mods |= ModCCOut
		case "relu":
			mi.in.Mods |= ModRelu
		case "NaN", "xorsign", "abs":
			if in.Op != "min" && in.Op != "max" {
				st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
				return false
			}
			if m == "NaN" {
				mi.in.Mods |= ModMinMaxNaN
			} else if m == "xorsign" {
				mi.in.Mods |= ModMinMaxXorsign
			} else if !ms.has("xorsign") {
				st.a.errorf(in.Pos, "%s.abs needs .xorsign", in.Op)
				return false
			}
		case "satfinite":
			mi.in.Mods |= ModSatFinite
		case "uni", "sync", "aligned":
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return false
		default:
			if r, ok := ParseRounding(m); ok && (r != RndRNA || in.Op == "cvt") {
				mi.in.Mods = mi.in.Mods&^ModRndMask | uint16(r)<<ModRndShift
				continue
			}
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return false
		}
	}
	if !allowMul && mi.in.Mods&ModMulMask != 0 {
		st.a.errorf(in.Pos, "unsupported: %s with .hi/.wide", in.Op)
		return false
	}
	return true
}

var arithOps = map[string]Opcode{"addc": OpADD, "subc": OpSUB, "madc": OpMAD, "add": OpADD, "sub": OpSUB, "mul": OpMUL, "mad": OpMAD, "div": OpDIV, "rem": OpREM, "min": OpMIN, "max": OpMAX, "and": OpAND, "or": OpOR, "xor": OpXOR, "shl": OpSHL, "shr": OpSHR, "fma": OpFMA}

func (st *fnState) lowerArith(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	op := arithOps[in.Op]
	mi.in.Op, mi.in.Type = op, t
	if in.Op == "addc" || in.Op == "subc" || in.Op == "madc" {
		mi.in.Mods |= ModCCIn
	}
	if !st.arithMods(in, ms, &mi, op == OpMUL || op == OpMAD) || !st.carryOK(in, &mi) || !st.lowPrecOK(in, ms, &mi) {
		return
	}
	three := op == OpMAD || op == OpFMA
	if three {
		if !st.wantOperands(in, 4, 4) {
			return
		}
	} else if !st.wantOperands(in, 3, 3) {
		return
	}
	dt, at, ct := t, t, t
	if mi.in.Mods&ModMulMask == MulWide {
		if t.Bits() > 32 || t.Float() {
			st.a.errorf(in.Pos, "%s.wide needs a 16- or 32-bit integer type", in.Op)
			return
		}
		dt = t.Wide()
		ct = dt
	}
	bt := at
	if op == OpSHL || op == OpSHR {
		bt = U32
	}
	srcs := []Type{at, bt}
	if three {
		srcs = append(srcs, ct)
	}
	st.emitOps(mi, in, dt, srcs...)
}

// carryOK checks the carry-chain forms (.cc, addc, subc, madc): .u32
// .s32 .u64 .s64, no .sat, mad with .lo or .hi.
func (st *fnState) carryOK(in *Instr, mi *minst) bool {
	m := mi.in.Mods
	if m&(ModCCIn|ModCCOut) == 0 {
		return true
	}
	switch t := mi.in.Type; {
	case t != U32 && t != S32 && t != U64 && t != S64:
		st.a.errorf(in.Pos, "%s with a carry needs .u32, .s32, .u64 or .s64", in.Op)
	case m&(ModSat|ModRndMask|ModFtz) != 0:
		st.a.errorf(in.Pos, "%s with a carry takes no .sat, rounding or .ftz", in.Op)
	case mi.in.Op == OpMAD && m&ModMulMask == MulWide:
		st.a.errorf(in.Pos, "%s with a carry needs .lo or .hi", in.Op)
	default:
		return true
	}
	return false
}

var unaryOps = map[string]Opcode{"neg": OpNEG, "abs": OpABS, "not": OpNOT, "popc": OpPOPC, "clz": OpCLZ, "brev": OpBREV, "sqrt": OpSQRT, "rcp": OpRCP}

func (st *fnState) lowerUnary(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	op := unaryOps[in.Op]
	mi.in.Op, mi.in.Type = op, t
	if !st.arithMods(in, ms, &mi, false) || !st.lowPrecOK(in, ms, &mi) {
		return
	}
	dt := t
	if op == OpPOPC || op == OpCLZ {
		dt = U32
	}
	st.emitOps(mi, in, dt, t)
}

func (st *fnState) lowerSetp(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	cmp, boolop := -1, BoolNone
	for _, m := range ms.rest {
		if c, ok := ParseCmp(m); ok && cmp < 0 {
			cmp = c
			continue
		}
		switch m {
		case "and":
			boolop = BoolAnd
		case "or":
			boolop = BoolOr
		case "xor":
			boolop = BoolXor
		case "ftz":
			mi.in.Mods |= ModSetpFtz
		default:
			st.a.errorf(in.Pos, "unsupported: setp.%s", m)
			return
		}
	}
	if cmp < 0 {
		st.a.errorf(in.Pos, "setp needs a comparison operator")
		return
	}
	if !t.Float() && cmp >= CmpEQU {
		st.a.errorf(in.Pos, "setp.%s is only for floating-point types", CmpName(cmp))
		return
	}
	if t.Float() && cmp >= CmpLO && cmp <= CmpHS {
		st.a.errorf(in.Pos, "setp.%s is only for integer types", CmpName(cmp))
		return
	}
	n := 3 + btoi(boolop != BoolNone) // the predicate operand of a boolean op
	if !st.wantOperands(in, n, n) {
		return
	}
	mi.in.Op, mi.in.Type = OpSETP, t
	mi.in.Mods |= uint16(cmp) | uint16(boolop)<<ModBoolShift
	d := in.Operands[0]
	_, pipe := d.(*PipeOperand)
	switch {
	case !t.LowPrecision():
	case t.FP8():
		st.a.errorf(in.Pos, "setp.%s is not PTX: the fp8 types appear only in cvt", t)
		return
	case t != BF16 && t != F16x2 && t != BF16x2: // .tf32
		st.a.errorf(in.Pos, "setp.%s is not PTX", t)
		return
	case mi.in.Mods&ModSetpFtz != 0 && t != F16x2: // PTX ISA 9.7.4.x: no .ftz for bf16
		st.a.errorf(in.Pos, "setp.ftz.%s is not PTX (.ftz goes with .f16 and .f16x2)", t)
		return
	case t.Packed() && !pipe:
		// x2: p is the lower halves' comparison, q the upper halves'.
		st.a.errorf(in.Pos, "setp.%s writes p|q", t)
		return
	case !t.Packed() && pipe:
		st.a.errorf(in.Pos, "unsupported: setp.%s p|q", t)
		return
	}
	if po, ok := d.(*PipeOperand); ok {
		mi.in.Mods |= ModSetpDst2
		if !st.dst(&mi, fDst, po.A, Pred, false) || !st.dst(&mi, fDst2, po.B, Pred, false) {
			return
		}
	} else if !st.dst(&mi, fDst, d, Pred, false) {
		return
	}
	if !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) {
		return
	}
	var c Operand
	if boolop != BoolNone {
		c = in.Operands[3]
	}
	st.emitOptC(mi, c, Pred)
}

// lowerThree lowers the three-source forms without modifiers, selp.t d, a,
// b, p (c a predicate) and sad.t d, a, b, c (c of type t: ct NoType).
func (st *fnState) lowerThree(in *Instr, ms modSet, mi minst, op Opcode, ct Type) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 4, 4) || !st.checkNoMods(in, ms) {
		return
	}
	if ct == NoType {
		ct = t
	}
	mi.in.Op, mi.in.Type = op, t
	st.emitOps(mi, in, t, t, t, ct)
}

func (st *fnState) lowerCvt(in *Instr, ms modSet, mi minst) {
	if ms.has("pack") {
		st.lowerCvtPackSat(in, ms, mi)
		return
	}
	if len(ms.types) != 2 {
		st.a.errorf(in.Pos, "cvt needs a destination and a source type")
		return
	}
	dt, at := ms.types[0], ms.types[1]
	if !dt.Encodable() || !at.Encodable() || dt == Pred || at == Pred {
		st.a.errorf(in.Pos, "unsupported: cvt.%s.%s", dt, at)
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Type2 = OpCVT, dt, at
	if !st.arithMods(in, ms, &mi, false) {
		return
	}
	if dt.LowPrecision() || at.LowPrecision() || mi.in.Mods&(ModRelu|ModSatFinite) != 0 {
		st.lowerCvtLow(in, mi, dt, at)
		return
	}
	if !st.wantOperands(in, 2, 2) {
		return
	}
	if ro, ok := in.Operands[1].(*RegOperand); ok && st.sc.lookup(ro.Name) == nil {
		st.lowerCvtSReg(in, mi, ro, dt, at)
		return
	}
	if !st.dst(&mi, fDst, in.Operands[0], dt, false) {
		return
	}
	// The source register may be wider than the source type (cvt.u32.u64 reads a 64-bit register).
	if !st.srcWide(&mi, 0, in.Operands[1], at) {
		return
	}
	mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
	st.emit(mi)
}

// lowerCvtSReg lowers cvt from a special register (seed 003: special
// registers "are accessed through mov or cvt instructions"): S2R into a
// fresh register of the special register's own type (or the source type,
// where that is wider), then the conversion from it into the destination,
// so that cvt.u64.u32 %rd, %tid.x and cvt.u32.u64 %r, %clock64 need no
// register of the other width.
func (st *fnState) lowerCvtSReg(in *Instr, mi minst, ro *RegOperand, dt, at Type) {
	full := ro.Name
	if ro.Comp != "" {
		full += "." + ro.Comp
	}
	sr, ok := st.lookupSReg(ro, full, "cvt")
	switch {
	case !ok:
		return
	case sr.Type() == Pred:
		st.a.errorf(ro.Pos, "%s is a predicate; cvt cannot read it", full)
		return
	}
	t := sr.Type()
	if at.Bits() > t.Bits() {
		t = at
	}
	v := st.newVreg(full, t, ro.Pos)
	s2r := minst{pos: in.Pos, uses: append([]rref(nil), mi.uses...)}
	s2r.in.GuardOn, s2r.in.GuardNeg = mi.in.GuardOn, mi.in.GuardNeg
	s2r.in.Op, s2r.in.Type, s2r.in.Imm, s2r.immUsed = OpS2R, t, uint32(sr), true
	s2r.defs = append(s2r.defs, rref{v, fDst})
	st.emit(s2r)
	if !st.dst(&mi, fDst, in.Operands[0], dt, false) {
		return
	}
	mi.in.A, mi.in.B, mi.in.C = RegOp(0), ZeroOp(), ZeroOp()
	mi.uses = append(mi.uses, rref{v, fA})
	st.emit(mi)
}

func (st *fnState) lowerBits(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	switch in.Op {
	case "bfe":
		if !st.wantOperands(in, 4, 4) || !st.checkNoMods(in, ms) {
			return
		}
		mi.in.Op, mi.in.Type = OpBFE, t
		if !st.dstSrcs(&mi, in, t, t, U32, U32) {
			return
		}
	case "bfi":
		if !st.wantOperands(in, 5, 5) || !st.checkNoMods(in, ms) {
			return
		}
		mi.in.Op, mi.in.Type = OpBFI, t
		if !st.dst(&mi, fDst, in.Operands[0], t, false) {
			return
		}
		// len: a register in Dst2, or the Imm field (reserved first).
		switch l := in.Operands[4].(type) {
		case *ImmOperand:
			if l.Float {
				st.a.errorf(l.Pos, "bfi length must be an integer")
				return
			}
			mi.in.Imm = uint32(l.Int)
			mi.immUsed = true
			mi.immSlot = -1
		default:
			mi.in.Mods |= ModBfiLenReg
			if !st.srcAsField(&mi, fDst2, l, U32, false) {
				return
			}
		}
		if !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) || !st.src(&mi, 2, in.Operands[3], U32) {
			return
		}
	case "prmt":
		mode := PrmtDefault
		for _, m := range ms.rest {
			p, ok := ParsePrmt(m)
			if !ok {
				st.a.errorf(in.Pos, "unsupported: prmt.%s", m)
				return
			}
			mode = p
		}
		n := 4
		if !st.wantOperands(in, n, n) {
			return
		}
		mi.in.Op, mi.in.Type, mi.in.Mods = OpPRMT, t, uint16(mode)
		if !st.dstSrcs(&mi, in, t, t, t, t) {
			return
		}
	}
	st.emit(mi)
}

func (st *fnState) lowerShf(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 4, 4) {
		return
	}
	if t != B32 {
		st.a.errorf(in.Pos, "shf needs .b32")
		return
	}
	dir, mode := -1, -1
	for _, m := range ms.rest {
		switch m {
		case "l":
			dir = 1
		case "r":
			dir = 0
		case "wrap":
			mode = 1
		case "clamp":
			mode = 0
		default:
			st.a.errorf(in.Pos, "unsupported: shf.%s", m)
			return
		}
	}
	if dir < 0 || mode < 0 {
		st.a.errorf(in.Pos, "shf needs .l or .r and .wrap or .clamp")
		return
	}
	mi.in.Op, mi.in.Type = OpSHF, B32
	if dir == 1 {
		mi.in.Mods |= ModShfLeft
	}
	if mode == 1 {
		mi.in.Mods |= ModShfWrap
	}
	st.emitOps(mi, in, t, t, t, U32)
}

func (st *fnState) lowerBfind(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	for _, m := range ms.rest {
		if m != "shiftamt" {
			st.a.errorf(in.Pos, "unsupported: bfind.%s", m)
			return
		}
		mi.in.Mods |= ModBfindShiftAmt
	}
	mi.in.Op, mi.in.Type = OpBFIND, t
	st.emitOps(mi, in, U32, t)
}
