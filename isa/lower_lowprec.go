// Lowering checks and forms of the low-precision types: f16/bf16
// arithmetic (scalar and packed x2) and the conversions among f32, f16,
// bf16, e4m3 and e5m2, cvt.pack.sat.

package isa

// lowPrecOK checks an arithmetic instruction (ADD SUB MUL MAD FMA NEG ABS
// MIN MAX and the rest of lowerArith/lowerUnary) against the forms the
// PTX ISA defines for bf16, f16x2 and bf16x2 (add sub mul fma neg abs min
// max; .rn only; .ftz and .sat for f16x2; .relu for fma of the half
// types), and .relu/.satfinite, which belong to those forms and cvt only.
func (st *fnState) lowPrecOK(in *Instr, ms modSet, mi *minst) bool {
	t, m, op := mi.in.Type, mi.in.Mods, mi.in.Op
	half := t == F16 || t == F16x2 || t == BF16 || t == BF16x2
	if (op == OpMIN || op == OpMAX) && m&(ModMinMaxNaN|ModMinMaxXorsign) != 0 {
		if t != F32 && !half {
			if t == S32 && ms.has("relu") { // max/min.relu.s32 (sm_90)
				st.a.errorf(in.Pos, "unsupported: %s.relu.%s", in.Op, t)
			} else {
				st.a.errorf(in.Pos, "%s.NaN/.xorsign on .%s is not PTX (only on .f32 and the half types)", in.Op, t)
			}
			return false
		}
		if m&ModMinMaxXorsign != 0 && !ms.has("abs") {
			st.a.errorf(in.Pos, "%s.xorsign needs .abs", in.Op)
			return false
		}
		m &^= ModMinMaxNaN | ModMinMaxXorsign // the bits of .relu and .satfinite elsewhere
	}
	switch {
	case m&ModSatFinite != 0:
		st.a.errorf(in.Pos, "%s.satfinite is not PTX (.satfinite belongs to cvt)", in.Op)
		return false
	case m&ModRelu != 0 && (op != OpFMA || !half):
		st.a.errorf(in.Pos, "%s.relu.%s is not PTX (.relu belongs to fma of the half types, cvt and max/min of .s32)", in.Op, t)
		return false
	case !t.LowPrecision():
		return true
	}
	switch op {
	case OpADD, OpSUB, OpMUL, OpFMA, OpNEG, OpABS, OpMIN, OpMAX:
	default: // PTX ISA 9.7.4: the half types' arithmetic is these (and ex2, tanh)
		st.a.errorf(in.Pos, "%s.%s is not PTX", in.Op, t)
		return false
	}
	if t.FP8() {
		st.a.errorf(in.Pos, "%s.%s is not PTX: the fp8 types appear only in cvt", in.Op, t)
		return false
	}
	if !half { // .tf32: only in cvt (and the tensor instructions)
		st.a.errorf(in.Pos, "%s.%s is not PTX", in.Op, t)
		return false
	}
	if r := int(m&ModRndMask) >> ModRndShift; r != RndNone && r != RndRN {
		st.a.errorf(in.Pos, "%s.%s.%s is not PTX (the half types round with .rn only)", in.Op, RoundingName(r), t)
		return false
	}
	if m&(ModFtz|ModSat) != 0 && t != F16x2 {
		if t == F16 {
			st.a.errorf(in.Pos, "unsupported: %s.ftz/.sat on .%s", in.Op, t)
		} else {
			st.a.errorf(in.Pos, "%s.ftz/.sat on .%s is not PTX", in.Op, t)
		}
		return false
	}
	return true
}

// lowerCvtLow lowers the conversions that involve a low-precision type or
// .relu/.satfinite (mi has the types and modifiers):
//   - cvt.rn{.relu}{.satfinite}.{f16,bf16}.f32 and the other scalar
//     conversions of bf16 (to and from f32, f16, f64 and the integers);
//   - cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b and
//     cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a in the upper
//     half of d, b in the lower);
//   - cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a and
//     cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a.
func (st *fnState) lowerCvtLow(in *Instr, mi minst, dt, at Type) {
	m := mi.in.Mods
	rnd := int(m&ModRndMask) >> ModRndShift
	fp8 := func(t Type) bool { return t == E4M3x2 || t == E5M2x2 }
	bad := func(why string) {
		st.a.errorf(in.Pos, "unsupported: cvt.%s.%s%s", dt, at, why)
	}
	n := 2
	switch {
	case dt == TF32 && at == F32:
		if rnd != RndRN && rnd != RndRZ && rnd != RndRNA {
			st.a.errorf(in.Pos, "cvt.tf32.f32 needs .rn, .rz or .rna")
			return
		}
	case dt == E4M3 || dt == E5M2 || at == E4M3 || at == E5M2:
		// PTX ISA 9.7.9.21: the fp8 conversions are .e4m3x2/.e5m2x2 pairs
		// (cvt.rn.satfinite{.relu}.f8x2type.{f32,f16x2},
		// cvt.rn{.relu}.f16x2.f8x2type); there is no scalar form.
		st.a.errorf(in.Pos, "cvt.%s.%s is not PTX: fp8 conversions take the pairs .e4m3x2/.e5m2x2", dt, at)
		return
	case dt == TF32 || at == TF32:
		st.a.errorf(in.Pos, "cvt.%s.%s is not PTX (tf32 conversions are cvt.{rna,rn,rz}.tf32.f32)", dt, at)
		return
	case fp8(dt) && (at == F32 || at == F16x2):
		if rnd != RndRN || m&ModSatFinite == 0 {
			st.a.errorf(in.Pos, "cvt.%s.%s needs .rn.satfinite", dt, at)
			return
		}
		if at == F32 {
			n = 3
		}
	case dt == F16x2 && fp8(at):
		if rnd != RndRN || m&ModSatFinite != 0 {
			st.a.errorf(in.Pos, "cvt.%s.%s needs .rn (and no .satfinite)", dt, at)
			return
		}
	case (dt == F16x2 || dt == BF16x2) && at == F32:
		if rnd != RndRN && rnd != RndRZ {
			st.a.errorf(in.Pos, "cvt.%s.%s needs .rn or .rz", dt, at)
			return
		}
		n = 3
	case dt.Packed() || at.Packed():
		st.a.errorf(in.Pos, "cvt.%s.%s is not PTX (the x2 conversions: .f16x2/.bf16x2 from two .f32, fp8 pairs from two .f32 or an .f16x2, .f16x2 from an fp8 pair)", dt, at)
		return
	case m&(ModRelu|ModSatFinite) != 0 && !((dt == F16 || dt == BF16 || dt == TF32) && at == F32):
		st.a.errorf(in.Pos, "cvt.%s.%s with .relu or .satfinite is not PTX (only to f16, bf16 and tf32 from f32 and in the x2 forms)", dt, at)
		return
	}
	if m&(ModSat|ModFtz) != 0 && (dt.LowPrecision() || at.LowPrecision()) {
		bad(" with .sat or .ftz")
		return
	}
	if !st.wantOperands(in, n, n) {
		return
	}
	if n == 3 {
		mi.in.Mods |= ModCvtPack
	}
	if !st.dstSrcs(&mi, in, dt, at) {
		return
	}
	if n == 3 {
		if !st.src(&mi, 1, in.Operands[2], at) {
			return
		}
	} else {
		mi.in.B = ZeroOp()
	}
	mi.in.C = ZeroOp()
	st.emit(mi)
}

// lowerCvtPackSat lowers cvt.pack.sat.{u8,s8,u16,s16}.s32.b32 d, a, b, c
// (d = {c[15:0], sat(a), sat(b)} for the 8-bit types, {sat(a), sat(b)} for
// the 16-bit ones; c is required by the syntax of both).
func (st *fnState) lowerCvtPackSat(in *Instr, ms modSet, mi minst) {
	for _, m := range ms.rest {
		if m == "u4" || m == "s4" || m == "u2" || m == "s2" {
			st.a.errorf(in.Pos, "unsupported: cvt.pack.sat.%s", m)
			return
		}
	}
	if len(ms.types) != 3 || ms.types[1] != S32 || ms.types[2] != B32 {
		st.a.errorf(in.Pos, "cvt.pack needs .sat.{u8,s8,u16,s16}.s32.b32")
		return
	}
	dt := ms.types[0]
	if dt != U8 && dt != S8 && dt != U16 && dt != S16 {
		st.a.errorf(in.Pos, "cvt.pack.sat.%s.s32.b32 is not PTX (the types are .u2 .s2 .u4 .s4 .u8 .s8 .u16 .s16)", dt)
		return
	}
	sat := false
	for _, m := range ms.rest {
		switch m {
		case "pack":
		case "sat":
			sat = true
		default:
			st.a.errorf(in.Pos, "unsupported: cvt.pack.%s", m)
			return
		}
	}
	if !sat {
		st.a.errorf(in.Pos, "cvt.pack needs .sat")
		return
	}
	if !st.wantOperands(in, 4, 4) {
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Type2 = OpCVT, dt, S32
	mi.in.Mods = ModCvtPackSat | ModSat
	st.emitOps(mi, in, B32, S32, S32, B32)
}
