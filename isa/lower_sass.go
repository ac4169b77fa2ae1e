// Lowering the SASS trap-handler instructions (BPT, IDE, RTT, S2R).

package isa

func (st *fnState) lowerSASS(in *Instr, ms modSet, mi minst) {
	mi.in.A, mi.in.B, mi.in.C = ZeroOp(), ZeroOp(), ZeroOp()
	mi.immUsed = true
	switch in.Op {
	case "BPT":
		if len(in.Mods) != 1 {
			st.a.errorf(in.Pos, "BPT needs one mode: .DRAIN, .PAUSE, .PAUSE_QUIET, .TRAP or .INT")
			return
		}
		mode, ok := ParseBPT(in.Mods[0])
		if !ok {
			st.a.errorf(in.Pos, "unknown BPT mode .%s (DRAIN, PAUSE, PAUSE_QUIET, TRAP, INT)", in.Mods[0])
			return
		}
		mi.in.Op, mi.in.Mods = OpBPT, uint16(mode)
		if mode == BPTTrap {
			im, ok := st.soleIntImm(in, "BPT.TRAP needs an immediate trap reason")
			if !ok {
				return
			}
			if im.Int == 0 {
				st.a.errorf(im.Pos, "BPT.TRAP 0 is illegal (the trap reason must be 1..7)")
				return
			}
			if im.Int < 0 || im.Int > 7 {
				st.a.errorf(im.Pos, "BPT.TRAP reason %s does not fit 3 bits (1..7)", im.Text)
				return
			}
			mi.in.Imm = uint32(im.Int)
		} else {
			if !st.wantOperands(in, 0, 1) {
				return
			}
			if len(in.Operands) == 1 {
				im, ok := in.Operands[0].(*ImmOperand)
				if !ok || im.Float || im.Int < 0 || im.Int >= 1<<20 {
					st.a.errorf(OperandPos(in.Operands[0]), "BPT immediate must be an unsigned 20-bit integer")
					return
				}
				mi.in.Imm = uint32(im.Int)
			}
		}
	case "IDE":
		if len(in.Mods) != 1 || (in.Mods[0] != "EN" && in.Mods[0] != "DIS") {
			st.a.errorf(in.Pos, "IDE needs .EN or .DIS")
			return
		}
		if !st.wantOperands(in, 0, 0) {
			return
		}
		mi.in.Op = OpIDE
		if in.Mods[0] == "EN" {
			mi.in.Mods = ModIDEEnable
		}
	case "RTT":
		if len(in.Mods) != 0 || !st.wantOperands(in, 0, 0) {
			if len(in.Mods) != 0 {
				st.a.errorf(in.Pos, "RTT takes no modifiers")
			}
			return
		}
		mi.in.Op = OpRTT
	case "S2R":
		if len(in.Mods) != 0 {
			st.a.errorf(in.Pos, "S2R takes no modifiers")
			return
		}
		if !st.wantOperands(in, 2, 2) {
			return
		}
		name, pos, _ := identOf(in.Operands[1])
		sr, ok := sassSReg(name)
		if !ok {
			st.a.errorf(pos, "unknown special register %s for S2R (SR_GLOBAL_ESR, SR_WARP_ESR, SR_TID.X, SR_LANEID, SR_CLOCKLO, ...)", name)
			return
		}
		mi.in.Op, mi.in.Type, mi.in.Imm = OpS2R, U32, uint32(sr)
		if !st.dst(&mi, fDst, in.Operands[0], U32, false) {
			return
		}
	}
	st.emit(mi)
}

// sassSReg maps SASS special-register names to SReg ids.
func sassSReg(name string) (SReg, bool) {
	switch name {
	case "SR_GLOBAL_ESR":
		return SRGlobalESR, true
	case "SR_WARP_ESR":
		return SRWarpESR, true
	case "SR_TID.X":
		return SRTidX, true
	case "SR_TID.Y":
		return SRTidY, true
	case "SR_TID.Z":
		return SRTidZ, true
	case "SR_CTAID.X":
		return SRCtaIDX, true
	case "SR_CTAID.Y":
		return SRCtaIDY, true
	case "SR_CTAID.Z":
		return SRCtaIDZ, true
	case "SR_LANEID":
		return SRLaneID, true
	case "SR_VIRTUALSMID", "SR_SMID":
		return SRSmID, true
	case "SR_WARPID", "SR_VIRTID":
		return SRWarpID, true
	case "SR_CLOCKLO":
		return SRClock, true
	case "SR_CLOCKHI":
		return SRClockHi, true
	case "SR_GLOBALTIMERLO":
		return SRGlobalTimerLo, true
	case "SR_GLOBALTIMERHI":
		return SRGlobalTimerHi, true
	}
	return 0, false
}
