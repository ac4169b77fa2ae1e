// Lowering the remaining instructions (trap, brkpt, nanosleep, pmevent, setmaxnreg, ...).

package isa

func (st *fnState) lowerMisc(in *Instr, ms modSet, mi minst) {
	mi.in.A, mi.in.B, mi.in.C = ZeroOp(), ZeroOp(), ZeroOp()
	switch in.Op {
	case "brkpt", "trap":
		if !st.wantOperands(in, 0, 0) || !st.checkNoMods(in, ms) || len(ms.types) > 0 {
			if len(ms.types) > 0 {
				st.a.errorf(in.Pos, "%s takes no type", in.Op)
			}
			return
		}
		mi.in.Op = OpBRKPT
		if in.Op == "trap" {
			mi.in.Op = OpTRAP
		}
	case "nanosleep":
		if len(ms.types) != 1 || ms.types[0] != U32 || len(ms.rest) > 0 {
			st.a.errorf(in.Pos, "nanosleep must be written nanosleep.u32")
			return
		}
		if !st.wantOperands(in, 1, 1) {
			return
		}
		mi.in.Op, mi.in.Type = OpNANOSLEEP, U32
		if !st.src(&mi, 0, in.Operands[0], U32) {
			return
		}
	case "pmevent":
		mask := ms.has("mask")
		if len(ms.types) > 0 || len(ms.rest) > btoi(mask) {
			st.a.errorf(in.Pos, "pmevent takes only the .mask modifier")
			return
		}
		im, ok := st.soleIntImm(in, "pmevent needs an integer immediate operand")
		if !ok {
			return
		}
		mi.in.Op = OpPMEVENT
		if mask {
			if im.Int < 0 || im.Int > 0xffff {
				st.a.errorf(im.Pos, "pmevent.mask operand %s does not fit 16 bits", im.Text)
				return
			}
			mi.in.Mods = ModPmeventMask
			mi.in.Imm = uint32(im.Int)
		} else {
			if im.Int < 0 || im.Int > 15 {
				st.a.errorf(im.Pos, "pmevent index %s is outside 0..15", im.Text)
				return
			}
			mi.in.Imm = 1 << uint(im.Int)
		}
	case "setmaxnreg":
		if !st.checkNoMods(in, ms, "inc", "dec", "sync", "aligned") {
			return
		}
		inc, dec, sync, aligned := ms.has("inc"), ms.has("dec"), ms.has("sync"), ms.has("aligned")
		if inc == dec {
			st.a.errorf(in.Pos, "setmaxnreg needs exactly one of .inc and .dec")
			return
		}
		if !sync || !aligned || len(ms.types) != 1 || ms.types[0] != U32 {
			st.a.errorf(in.Pos, "setmaxnreg must be written setmaxnreg.%s.sync.aligned.u32", map[bool]string{true: "inc", false: "dec"}[inc])
			return
		}
		im, ok := st.soleIntImm(in, "setmaxnreg needs an integer constant register count")
		if !ok {
			return
		}
		if im.Int < 24 || im.Int > 256 || im.Int%8 != 0 {
			st.a.errorf(im.Pos, "setmaxnreg count %s must be in 24..256 and a multiple of 8", im.Text)
			return
		}
		mi.in.Op, mi.in.Type, mi.in.Imm = OpSETMAXNREG, U32, uint32(im.Int)
		if inc {
			mi.in.Mods = ModSetmaxInc
		}
	}
	mi.immUsed = true
	st.emit(mi)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
