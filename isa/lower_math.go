// Lowering the transcendental approximations (ex2 lg2 sin cos rsqrt tanh), copysign and testp.

package isa

var mufuOps = map[string]Opcode{"ex2": OpEX2, "lg2": OpLG2, "sin": OpSIN, "cos": OpCOS, "rsqrt": OpRSQRT, "tanh": OpTANH}

// lowerMufu lowers ex2, lg2, sin, cos, tanh (.approx{.ftz}.f32; tanh has
// no .ftz) and rsqrt (.approx{.ftz}.f32, .approx{.ftz}.f64).
func (st *fnState) lowerMufu(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	op := mufuOps[in.Op]
	half := t == F16 || t == F16x2 || t == BF16 || t == BF16x2
	if t.LowPrecision() && !half || half && op != OpEX2 && op != OpTANH {
		// Not PTX: only ex2 and tanh have half forms, none has an fp8 one.
		st.a.errorf(in.Pos, "%s has no .%s form in PTX", in.Op, t)
		return
	}
	if half {
		st.lowerMufuHalf(in, ms, mi, op, t)
		return
	}
	switch {
	case op == OpRSQRT && t != F32 && t != F64:
		st.a.errorf(in.Pos, "rsqrt needs .f32 or .f64")
		return
	case op != OpRSQRT && t != F32:
		st.a.errorf(in.Pos, "%s needs .f32", in.Op)
		return
	}
	approx := false
	for _, m := range ms.rest {
		switch {
		case m == "approx":
			approx = true
		case m == "ftz" && op != OpTANH:
			mi.in.Mods |= ModFtz
		default: // not PTX: the forms are .approx{.ftz} (tanh: .approx)
			st.a.errorf(in.Pos, "%s.%s is not PTX", in.Op, m)
			return
		}
	}
	if !approx {
		st.a.errorf(in.Pos, "%s needs .approx", in.Op)
		return
	}
	mi.in.Op, mi.in.Type = op, t
	mi.in.Mods |= RndApprox << ModRndShift
	st.emitOps(mi, in, t, t)
}

// lowerMufuHalf lowers the half-precision forms: ex2.approx.{f16,f16x2},
// ex2.approx.ftz.{bf16,bf16x2} and tanh.approx.{f16,f16x2,bf16,bf16x2}
// (PTX ISA 9.7.4.9-10).
func (st *fnState) lowerMufuHalf(in *Instr, ms modSet, mi minst, op Opcode, t Type) {
	if !st.checkNoMods(in, ms, "approx", "ftz") {
		return
	}
	approx, ftz := ms.has("approx"), ms.has("ftz")
	bf := t == BF16 || t == BF16x2
	switch {
	case !approx:
		st.a.errorf(in.Pos, "%s needs .approx", in.Op)
		return
	case op == OpEX2 && ftz != bf:
		st.a.errorf(in.Pos, "ex2.approx takes .ftz with .bf16/.bf16x2 and only with them")
		return
	case op == OpTANH && ftz:
		st.a.errorf(in.Pos, "tanh.ftz is not PTX")
		return
	}
	mi.in.Op, mi.in.Type = op, t
	mi.in.Mods |= RndApprox << ModRndShift
	if ftz {
		mi.in.Mods |= ModFtz
	}
	st.emitOps(mi, in, t, t)
}

// lowerCopysign lowers copysign.{f32,f64} d, a, b: b's magnitude with a's sign.
func (st *fnState) lowerCopysign(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 3, 3) || !st.checkNoMods(in, ms) {
		return
	}
	if t != F32 && t != F64 {
		st.a.errorf(in.Pos, "copysign needs .f32 or .f64")
		return
	}
	mi.in.Op, mi.in.Type = OpCOPYSIGN, t
	st.emitOps(mi, in, t, t, t)
}

// lowerTestp lowers testp.op.{f32,f64} p, a.
func (st *fnState) lowerTestp(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	if t != F32 && t != F64 {
		st.a.errorf(in.Pos, "testp needs .f32 or .f64")
		return
	}
	prop := -1
	for _, m := range ms.rest {
		p, ok := ParseTestp(m)
		if !ok || prop >= 0 {
			st.a.errorf(in.Pos, "testp.%s is not PTX (testp takes one of .finite .infinite .number .notanumber .normal .subnormal)", m)
			return
		}
		prop = p
	}
	if prop < 0 {
		st.a.errorf(in.Pos, "testp needs a property (.finite .infinite .number .notanumber .normal .subnormal)")
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = OpTESTP, t, uint16(prop)
	st.emitOps(mi, in, Pred, t)
}
