package cosim

import (
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// The SM RTL runs a subset of the machine (docs/sm-rtl.md, steps 2 to 4). A
// launch outside it would silently diverge, so CheckSM refuses it before
// anything runs, naming the first thing the RTL does not have.

// SM RTL limits: the bench's memories and the RTL's register budget
// (the defaults of sm_top's and sm_tb's parameters).
const (
	smMaxRegs    = 32
	smMaxPreds   = 8
	smCodeWords  = 4096
	smParamBytes = 4096
	smConstWords = 1024
	smBrtWords   = 1024 // branch-table entries (sm_tb's BrtWords)
	// smRetDepth is the return stack per thread (sm_top's RetDepth; the
	// Go model's maxCallDepth is 65,536). How deep a kernel recurses is
	// not known before it runs: a deeper call stops the bench with an
	// error naming it.
	smRetDepth = 16
	smWbDepth  = 16
	// smLocalTotal bounds sm_top's local memory (a byte array of
	// sm.max_warps x 32 threads x sm.local_bytes; h100: 32 MiB).
	smLocalTotal = 64 << 20
)

// UnsupportedError is a launch the SM RTL cannot run yet.
type UnsupportedError struct {
	What  string // "MUL.hi", "policy gto", ...
	Where string // "k.ptx:12:2 (pc 7)" for an instruction
}

func (e *UnsupportedError) Error() string {
	s := "unsupported in SM RTL: " + e.What
	if e.Where != "" {
		s += " at " + e.Where
	}
	return s + " (docs/sm-rtl.md lists what the RTL runs)"
}

func unsupported(what string, args ...any) error {
	return &UnsupportedError{What: fmt.Sprintf(what, args...)}
}

// CheckSM reports whether the SM RTL can run launch l of image im under
// cfg: nil, or an *UnsupportedError naming what it lacks.
func CheckSM(cfg config.Config, im *isa.Image, l pipeline.Launch) error {
	switch {
	case cfg.Sched.Policy != config.PolicyLRR && cfg.Sched.Policy != config.PolicyGTO && cfg.Sched.Policy != config.PolicyTwoLevel:
		return unsupported("sched.policy %s (the RTL has lrr, gto and two_level)", cfg.Sched.Policy)
	case cfg.Mem.Model != config.MemFlat:
		return unsupported("mem.model %s (the RTL's bench serves the flat memory)", cfg.Mem.Model)
	case cfg.Pipe.Throttle:
		return unsupported("pipe.throttle")
	case cfg.Sched.Count < 1 || cfg.SM.MaxWarps%cfg.Sched.Count != 0 || cfg.SM.MaxWarps > 64:
		return unsupported("sm.max_warps %d with sched.count %d", cfg.SM.MaxWarps, cfg.Sched.Count)
	case cfg.Clock.Start != 0:
		return unsupported("clock.start %d", cfg.Clock.Start)
	case uint64(cfg.SM.MaxWarps)*32*uint64(cfg.SM.LocalBytes) > smLocalTotal:
		return unsupported("sm.local_bytes %d with sm.max_warps %d (the RTL's local memory holds %d MiB)", cfg.SM.LocalBytes, cfg.SM.MaxWarps, smLocalTotal>>20)
	}
	for _, v := range []int{cfg.Lat.ALU, cfg.Lat.Mul, cfg.Lat.Div, cfg.Lat.SReg, cfg.Lat.Param, cfg.Lat.Global, cfg.Lat.Shared, cfg.Lat.Local} {
		if v >= smWbDepth {
			return unsupported("a latency of %d cycles (the writeback pipe holds %d)", v, smWbDepth-1)
		}
	}
	k, ok := im.Kernel(l.Entry)
	if !ok {
		return nil // pipeline.New reports it
	}
	if n := uint64(l.Grid[0]) * uint64(l.Grid[1]) * uint64(l.Grid[2]); n >= 1<<32 {
		return unsupported("a grid of %d CTAs (the RTL counts CTAs in 32 bits)", n)
	}
	switch {
	case len(l.Vars) > 0 || l.Memory != nil:
		return unsupported("module variables or a host's device memory")
	case len(im.ConstBank) > 0:
		return unsupported(".const data")
	case int(k.Regs) > smMaxRegs || l.MaxNReg > smMaxRegs || k.MaxNReg > smMaxRegs:
		return unsupported("%d registers per thread (the RTL holds %d)", max(int(k.Regs), int(l.MaxNReg), int(k.MaxNReg)), smMaxRegs)
	case int(k.Preds) > smMaxPreds:
		return unsupported("%d predicates (the RTL holds %d)", k.Preds, smMaxPreds)
	case len(im.Code) > smCodeWords || len(im.Consts) > smConstWords || int(k.ParamBytes) > smParamBytes || len(im.BrTables) > smBrtWords:
		return unsupported("an image larger than the bench's memories (%d instructions, %d constants, %d parameter bytes, %d branch-table entries)", smCodeWords, smConstWords, smParamBytes, smBrtWords)
	}
	at := func(pc uint32, what string) error {
		pos, _ := im.Where(pc)
		return &UnsupportedError{What: what, Where: fmt.Sprintf("%s (pc %d)", pos, pc)}
	}
	// The kernel's function and every function it can call.
	for _, f := range smReachable(im, k.PC) {
		for pc := f.PC; pc < f.End && int(pc) < len(im.Code); pc++ {
			in := im.Code[pc]
			if what := smInstUnsupported(in); what != "" {
				return at(pc, what)
			}
			if in.Op == isa.OpRTT {
				return at(pc, "RTT outside the trap handler (an ILLEGAL_INSTR_ENCODING warp error)")
			}
			if in.Op == isa.OpBPT && (in.Mods == isa.BPTPause || in.Mods == isa.BPTPauseQuiet) {
				return at(pc, "BPT."+isa.BPTName(int(in.Mods))+" outside the trap handler (an ILLEGAL_INSTR_ENCODING warp error)")
			}
			if in.Op == isa.OpIDE && cfg.Trap.Handler == "" {
				return at(pc, "IDE without a trap handler")
			}
			if in.Op == isa.OpNANOSLEEP && cfg.Sleep.Mode != config.SleepExact {
				return at(pc, "NANOSLEEP with sleep.mode "+string(cfg.Sleep.Mode)+" (the RTL sleeps exactly t)")
			}
		}
	}
	// The trap handler (trap.handler): a .func that runs converged on a
	// bank of its own at call depth 0; the RTL keeps the user's call
	// state, barrier wait and lane PCs aside, so the handler makes no
	// calls, touches no frame or local memory, and neither exits nor
	// waits at a barrier.
	if h := cfg.Trap.Handler; h != "" {
		fi := -1
		for i, f := range im.Funcs {
			if !f.Kernel && f.Name == h {
				fi = i
			}
		}
		if fi < 0 {
			return nil // pipeline.New reports it
		}
		f := im.Funcs[fi]
		switch {
		case int(f.Regs) > smMaxRegs:
			return unsupported("a trap handler with %d registers per thread (the RTL's handler bank holds %d)", f.Regs, smMaxRegs)
		case int(f.Preds) > smMaxPreds:
			return unsupported("a trap handler with %d predicates (the RTL's handler bank holds %d)", f.Preds, smMaxPreds)
		}
		for pc := f.PC; pc < f.End && int(pc) < len(im.Code); pc++ {
			in := im.Code[pc]
			if what := smInstUnsupported(in); what != "" {
				return at(pc, what)
			}
			if what := smHandlerUnsupported(in); what != "" {
				return at(pc, what+" in the trap handler")
			}
		}
	}
	return nil
}

// smHandlerUnsupported names what the RTL's trap handler cannot run ("":
// it can run in).
func smHandlerUnsupported(in isa.Inst) string {
	sp := int(in.Mods & isa.ModSpaceMask)
	switch {
	case in.Op == isa.OpCALL:
		return "CALL"
	case in.Op == isa.OpEXIT:
		return "EXIT"
	case in.Op == isa.OpBAR:
		return "BAR"
	case (in.Op == isa.OpLD || in.Op == isa.OpST) && (sp == isa.SpaceLocal || in.A.IsFP()):
		return in.Op.String() + ".local"
	}
	return ""
}

// smReachable returns the function at entry and the functions its calls
// can reach, in the order found: a direct call's callee, an indirect
// call's listed targets (its .calltargets or prototype's functions), or
// every function that is not a kernel when the call lists none.
func smReachable(im *isa.Image, entry uint32) []isa.FuncInfo {
	at := make(map[uint32]int, len(im.Funcs))
	for i, f := range im.Funcs {
		at[f.PC] = i
	}
	var out []isa.FuncInfo
	seen := make(map[int]bool)
	visit := func(pc uint32) {
		if i, ok := at[pc]; ok && !seen[i] {
			seen[i] = true
			out = append(out, im.Funcs[i])
		}
	}
	visit(entry)
	for n := 0; n < len(out); n++ {
		f := out[n]
		for pc := f.PC; pc < f.End && int(pc) < len(im.Code); pc++ {
			in := im.Code[pc]
			if in.Op != isa.OpCALL {
				continue
			}
			switch {
			case in.Mods&isa.ModCallInd == 0:
				visit(in.Imm)
			case in.Imm != 0:
				first, cnt := int(in.Imm&0xffff)-1, int(in.Imm>>16)
				for i := first; i >= 0 && i < first+cnt && i < len(im.BrTables); i++ {
					visit(im.BrTables[i])
				}
			default:
				for _, g := range im.Funcs {
					if !g.Kernel {
						visit(g.PC)
					}
				}
			}
		}
	}
	return out
}

// smInstUnsupported names what the RTL lacks to run in ("" when it has
// everything), as OP or OP.detail.
func smInstUnsupported(in isa.Inst) string {
	op := in.Op.String()
	t := in.Type
	int3264 := t == isa.B32 || t == isa.U32 || t == isa.S32 || t == isa.B64 || t == isa.U64 || t == isa.S64
	bad := func(detail string) string { return op + "." + detail }
	switch in.Op {
	case isa.OpNOP, isa.OpBRA, isa.OpEXIT, isa.OpRET, isa.OpBRX, isa.OpCALL:
		// Calls (direct and indirect, per-lane frame pointer and return
		// stack) and brx.idx: sm_callstack and the branch-table port.
		return ""
	case isa.OpACTIVEMASK:
		return ""
	case isa.OpNANOSLEEP:
		// clock_timer's nanosleep port (sleep.mode exact: CheckSM).
		return ""
	case isa.OpTRAP, isa.OpBRKPT, isa.OpRTT, isa.OpIDE:
		// trap_unit's events (PTX trap and brkpt, the handler's RTT).
		return ""
	case isa.OpBPT:
		// BPT.TRAP 1..7, BPT.DRAIN, BPT.INT, BPT.PAUSE and
		// BPT.PAUSE_QUIET (in the handler: CheckSM).
		switch in.Mods {
		case isa.BPTTrap, isa.BPTDrain, isa.BPTInt, isa.BPTPause, isa.BPTPauseQuiet:
			return ""
		}
		return bad(isa.BPTName(int(in.Mods)))
	case isa.OpVOTE:
		// all, any, uni, ballot (Mods bits 0..1).
		if in.Mods&^3 != 0 {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		return ""
	case isa.OpSHFL:
		if in.Mods&^uint16(3|isa.ModShflPred|isa.ModShflMaskReg) != 0 {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if t.Bits() != 32 {
			return bad(t.String())
		}
		return ""
	case isa.OpREDUX:
		// The integer forms (add, min, max of u32/s32; and, or, xor of b32).
		if in.Mods&^uint16(isa.ModReduxMask) != 0 || int(in.Mods&isa.ModReduxMask) > isa.ReduxXor {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		return ""
	case isa.OpBAR:
		// bar.sync 0 / barrier.sync 0 of every thread of the CTA.
		switch {
		case in.Mods&isa.ModBarKindMask != isa.BarSync || in.Mods != 0:
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		case in.A.Kind != isa.KindImm || in.Imm != 0:
			return bad("id") // the RTL has barrier 0
		case !in.B.IsZero():
			return bad("count")
		}
		return ""
	case isa.OpS2R:
		switch isa.SReg(in.Imm) {
		case isa.SRTidX, isa.SRTidY, isa.SRTidZ, isa.SRNTidX, isa.SRNTidY, isa.SRNTidZ,
			isa.SRLaneID, isa.SRWarpID, isa.SRNWarpID,
			isa.SRCtaIDX, isa.SRCtaIDY, isa.SRCtaIDZ, isa.SRNCtaIDX, isa.SRNCtaIDY, isa.SRNCtaIDZ,
			isa.SRSmID, isa.SRNSmID, isa.SRIsExplicitCluster, isa.SRClusterCtaRank, isa.SRClusterNCtaRank,
			isa.SRLanemaskEQ, isa.SRLanemaskLE, isa.SRLanemaskLT, isa.SRLanemaskGE, isa.SRLanemaskGT,
			isa.SRTotalSmemSize, isa.SRAggrSmemSize, isa.SRDynamicSmemSize,
			isa.SRGlobalESR, isa.SRWarpESR,
			isa.SRClock, isa.SRClockHi, isa.SRGlobalTimerLo, isa.SRGlobalTimerHi:
		case isa.SRClock64, isa.SRGlobalTimer:
			// clock_timer's 64-bit registers, into a register pair.
			if t.Bits() != 64 {
				return bad(isa.SReg(in.Imm).String() + "." + t.String())
			}
			return ""
		default:
			// The cluster registers %clusterid .. %cluster_nctaid.
			if sr := isa.SReg(in.Imm); sr < isa.SRClusterIDX || sr > isa.SRClusterNCtaIDZ {
				return bad(sr.String())
			}
		}
		if t.Bits() != 32 && t != isa.Pred {
			return bad(t.String())
		}
		return ""
	case isa.OpLD, isa.OpST:
		sp := int(in.Mods & isa.ModSpaceMask)
		if sp != isa.SpaceGlobal && sp != isa.SpaceShared && sp != isa.SpaceLocal && !(sp == isa.SpaceParam && in.Op == isa.OpLD) {
			return bad(isa.SpaceName(sp))
		}
		if in.Mods&^uint16(isa.ModSpaceMask|isa.ModNC|isa.ModVolatile|isa.ModLdExt|isa.ModCacheMask) != 0 || (in.Op == isa.OpST && in.Mods&isa.ModLdExt != 0) {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if !int3264 {
			return bad(t.String())
		}
		if in.A.Kind != isa.KindReg && !in.A.IsZero() && !in.A.IsFP() {
			return bad("address-operand")
		}
		return ""
	case isa.OpMOV, isa.OpAND, isa.OpOR, isa.OpXOR, isa.OpNOT:
		if in.Mods != 0 {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if !int3264 && t != isa.Pred {
			return bad(t.String())
		}
		return ""
	case isa.OpADD, isa.OpSUB, isa.OpMIN, isa.OpMAX, isa.OpSHL, isa.OpSHR, isa.OpSELP,
		isa.OpNEG, isa.OpABS, isa.OpDIV, isa.OpREM, isa.OpSAD, isa.OpPOPC, isa.OpCLZ, isa.OpBREV, isa.OpBFE:
		if in.Mods != 0 {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if !int3264 {
			return bad(t.String())
		}
		return ""
	case isa.OpCVT:
		t2 := in.Type2
		if in.Mods != 0 {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if !int3264 || !(t2 == isa.B32 || t2 == isa.U32 || t2 == isa.S32 || t2 == isa.B64 || t2 == isa.U64 || t2 == isa.S64) {
			return bad(t.String() + "." + t2.String())
		}
		return ""
	case isa.OpPRMT:
		if in.Mods&^7 != 0 || in.Mods > isa.PrmtRC16 {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if t != isa.B32 {
			return bad(t.String())
		}
		return ""
	case isa.OpSHF:
		if in.Mods&^uint16(isa.ModShfLeft|isa.ModShfWrap) != 0 {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if t != isa.B32 {
			return bad(t.String())
		}
		return ""
	case isa.OpMUL24, isa.OpMAD24:
		if in.Mods != isa.MulLo && in.Mods != isa.MulHi {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if t != isa.U32 && t != isa.S32 {
			return bad(t.String())
		}
		return ""
	case isa.OpMUL, isa.OpMAD:
		switch in.Mods {
		case isa.MulLo:
		case isa.MulWide:
			if t.Bits() != 32 {
				return bad("wide." + t.String())
			}
		case isa.MulHi:
		default:
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if !int3264 {
			return bad(t.String())
		}
		return ""
	case isa.OpSETP:
		if in.Mods&^uint16(isa.ModCmpMask|isa.ModBoolMask|isa.ModSetpDst2) != 0 || int(in.Mods&isa.ModCmpMask) > isa.CmpHS {
			return bad(fmt.Sprintf("mods-%#x", in.Mods))
		}
		if !int3264 {
			return bad(t.String())
		}
		return ""
	}
	return op
}
