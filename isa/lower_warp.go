// Lowering the warp-level instructions: vote, shfl, redux, match and elect.

package isa

func (st *fnState) lowerVote(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	mode, sync, ok := st.syncMode(in, ms, "vote", modeOf("all", "any", "uni", "ballot"))
	if !ok {
		return
	}
	if mode < 0 || (mode == 3) != (t == B32) || (mode != 3 && t != Pred) {
		st.a.errorf(in.Pos, "vote needs .all/.any/.uni with .pred or .ballot with .b32")
		return
	}
	n := 2
	if sync {
		n = 3
	}
	if !st.wantOperands(in, n, n) {
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = OpVOTE, t, uint16(mode)
	if !st.dstSrcs(&mi, in, t, Pred) {
		return
	}
	if sync {
		if !st.src(&mi, 1, in.Operands[2], B32) {
			return
		}
	} else {
		st.setImm(&mi, 1, 0xffffffff)
	}
	mi.in.C = ZeroOp()
	st.emit(mi)
}

func (st *fnState) lowerShfl(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || t.Bits() != 32 {
		st.a.errorf(in.Pos, "shfl needs a 32-bit type")
		return
	}
	mode, sync, ok := st.syncMode(in, ms, "shfl", modeOf("up", "down", "bfly", "idx")) // ShflUp..ShflIdx
	if !ok {
		return
	}
	if mode < 0 || !sync {
		st.a.errorf(in.Pos, "unsupported: shfl without .sync and a mode (.up/.down/.bfly/.idx)")
		return
	}
	if !st.wantOperands(in, 5, 5) {
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = OpSHFL, t, uint16(mode)
	mi.immUsed = true
	mi.immSlot = -1
	if mask, ok := in.Operands[4].(*ImmOperand); ok && !mask.Float {
		mi.in.Imm = uint32(mask.Int)
	} else {
		v, ok := st.regOf(in.Operands[4], B32, false)
		if !ok {
			return
		}
		mi.in.Mods |= ModShflMaskReg
		mi.uses = append(mi.uses, rref{v, fImmReg})
	}
	d := in.Operands[0]
	if po, ok := d.(*PipeOperand); ok {
		mi.in.Mods |= ModShflPred
		if !st.dst(&mi, fDst, po.A, t, false) || !st.dst(&mi, fDst2, po.B, Pred, false) {
			return
		}
	} else if !st.dst(&mi, fDst, d, t, false) {
		return
	}
	if !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], U32) || !st.src(&mi, 2, in.Operands[3], U32) {
		return
	}
	st.emit(mi)
}

// lowerRedux lowers redux.sync.{add,min,max}.{u32,s32} and
// redux.sync.{and,or,xor}.b32 d, a, membermask.
func (st *fnState) lowerRedux(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 3, 3) {
		return
	}
	op, sync, ok := st.syncMode(in, ms, "redux", ParseRedux)
	if !ok {
		return
	}
	switch {
	case !sync || op < 0:
		st.a.errorf(in.Pos, "redux needs .sync and an operation (.add .min .max .and .or .xor)")
		return
	case t == F32 && (op == ReduxMin || op == ReduxMax): // sm_100a
		st.a.errorf(in.Pos, "unsupported: redux.sync.%s.%s", ReduxName(op), t)
		return
	case t.Float():
		st.a.errorf(in.Pos, "redux.sync.%s.%s is not PTX (.f32 only with .min and .max)", ReduxName(op), t)
		return
	case op <= ReduxMax && t != U32 && t != S32:
		st.a.errorf(in.Pos, "redux.sync.%s needs .u32 or .s32", ReduxName(op))
		return
	case op >= ReduxAnd && t != B32:
		st.a.errorf(in.Pos, "redux.sync.%s needs .b32", ReduxName(op))
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = OpREDUX, t, uint16(op)
	st.emitOps(mi, in, t, t, B32)
}

// lowerMatch lowers match.any.sync.{b32,b64} d, a, membermask and
// match.all.sync.{b32,b64} d[|p], a, membermask.
func (st *fnState) lowerMatch(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 3, 3) {
		return
	}
	mode, sync, ok := st.syncMode(in, ms, "match", modeOf("any", "all")) // 0, ModMatchAll
	if !ok {
		return
	}
	if !sync || mode < 0 {
		st.a.errorf(in.Pos, "match needs .sync and .any or .all")
		return
	}
	if t != B32 && t != B64 {
		st.a.errorf(in.Pos, "match needs .b32 or .b64")
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = OpMATCH, t, uint16(mode)
	d := in.Operands[0]
	if po, ok := d.(*PipeOperand); ok {
		if mode != ModMatchAll {
			st.a.errorf(in.Pos, "match.any has no predicate destination")
			return
		}
		mi.in.Mods |= ModMatchPred
		if !st.dst(&mi, fDst, po.A, B32, false) || !st.dst(&mi, fDst2, po.B, Pred, false) {
			return
		}
	} else if !st.dst(&mi, fDst, d, B32, false) {
		return
	}
	if !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], B32) {
		return
	}
	mi.in.C = ZeroOp()
	st.emit(mi)
}

// lowerElect lowers elect.sync d|p, membermask (d may be _).
func (st *fnState) lowerElect(in *Instr, ms modSet, mi minst) {
	if len(ms.types) != 0 || !st.checkNoMods(in, ms, "sync") || !st.wantOperands(in, 2, 2) {
		return
	}
	if !ms.has("sync") {
		st.a.errorf(in.Pos, "elect needs .sync")
		return
	}
	po, ok := in.Operands[0].(*PipeOperand)
	if !ok {
		st.a.errorf(in.Pos, "elect.sync writes d|p")
		return
	}
	mi.in.Op, mi.in.Type = OpELECT, B32
	if !st.dst(&mi, fDst, po.A, B32, false) || !st.dst(&mi, fDst2, po.B, Pred, false) || !st.src(&mi, 0, in.Operands[1], B32) {
		return
	}
	mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
	st.emit(mi)
}

// syncMode reads the modifiers of a warp-synchronous instruction (what
// names it): .sync, and a mode that mode maps to its value (the last one
// written counts; -1 for none). Another modifier is reported as
// unsupported and gives ok false.
func (st *fnState) syncMode(in *Instr, ms modSet, what string, mode func(string) (int, bool)) (m int, sync, ok bool) {
	m = -1
	for _, x := range ms.rest {
		if x == "sync" {
			sync = true
			continue
		}
		v, isMode := mode(x)
		if !isMode {
			st.a.errorf(in.Pos, "unsupported: %s.%s", what, x)
			return 0, false, false
		}
		m = v
	}
	return m, sync, true
}

// modeOf maps the mode names to their positions (0, 1, ...).
func modeOf(names ...string) func(string) (int, bool) {
	return func(m string) (int, bool) { return indexIn(names, m, 0) }
}
