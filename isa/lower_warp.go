// Lowering the warp-level instructions: vote and shfl.

package isa

func (st *fnState) lowerVote(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	mode := -1
	sync := false
	for _, m := range ms.rest {
		switch m {
		case "all":
			mode = 0
		case "any":
			mode = 1
		case "uni":
			mode = 2
		case "ballot":
			mode = 3
		case "sync":
			sync = true
		default:
			st.a.errorf(in.Pos, "unsupported: vote.%s", m)
			return
		}
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
	if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[1], Pred) {
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
	mode, sync := -1, false
	for _, m := range ms.rest {
		switch m {
		case "up":
			mode = ShflUp
		case "down":
			mode = ShflDown
		case "bfly":
			mode = ShflBfly
		case "idx":
			mode = ShflIdx
		case "sync":
			sync = true
		default:
			st.a.errorf(in.Pos, "unsupported: shfl.%s", m)
			return
		}
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
