package cosim

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/warpsched"
)

// The SystemVerilog package verilog/rtl/smsim_pkg.sv (Ibex's ibex_pkg.sv
// style: every shared encoding and width in one package, in sections by
// unit) is generated from the Go model's constants: each value below is
// the Go constant named beside it, so the RTL modules, which import the
// package instead of keeping localparam copies, cannot drift from the Go
// units. `go generate ./cosim` writes it; TestSVPackageUpToDate fails when
// the file is stale.

// SVPackagePath is where the package lives, relative to verilog/.
const SVPackagePath = "rtl/smsim_pkg.sv"

// svConst is one localparam of the package.
type svConst struct {
	name  string // the SystemVerilog name (UpperCamelCase)
	width int    // bits of its logic vector; 0: int unsigned
	value uint64
	goSrc string // the Go constant it comes from
}

// svSection is one commented group of the package.
type svSection struct {
	title string // what the group is, and which ports carry it
	enum  string // non-empty: an enum typedef of that name (int unsigned)
	items []svConst
}

func svSections() []svSection {
	tu := func(name string, width int, v uint64, src string) svConst {
		return svConst{name, width, v, "trapunit." + src}
	}
	rp := func(name string, width int, v uint64, src string) svConst {
		return svConst{name, width, v, "regpool." + src}
	}
	pol := func(name string, p warpsched.Policy) svConst {
		return svConst{name, 0, uint64(p), fmt.Sprintf("warpsched.Policy %s", p)}
	}
	return []svSection{
		{title: "warp_sched: scheduling policy (config sched.policy), the Policy parameter. An int\n// parameter rather than the enum type, so that `verilator -GPolicy=N` and Yosys\n// `chparam -set Policy N` can set it.", enum: "sched_policy_e", items: []svConst{
			pol("SchedPolicyLrr", warpsched.PolicyLRR),
			pol("SchedPolicyGto", warpsched.PolicyGTO),
			pol("SchedPolicyTwoLevel", warpsched.PolicyTwoLevel),
		}},
		{title: "warp_sched: width of a warp launch stamp (next_age_q, one warp_age_q entry).", items: []svConst{
			{"StampWidth", 0, warpsched.StampWidth, "warpsched.StampWidth"},
		}},
		{title: "trap_unit: event kinds on ev_kind_i (4 bits per port).", items: []svConst{
			tu("EvNone", 4, uint64(trapunit.EvNone), "EvNone"),
			tu("EvBptDrain", 4, uint64(trapunit.EvBPTDrain), "EvBPTDrain"),
			tu("EvBptPause", 4, uint64(trapunit.EvBPTPause), "EvBPTPause"),
			tu("EvBptPauseQuiet", 4, uint64(trapunit.EvBPTPauseQuiet), "EvBPTPauseQuiet"),
			tu("EvBptTrap", 4, uint64(trapunit.EvBPTTrap), "EvBPTTrap"),
			tu("EvBptInt", 4, uint64(trapunit.EvBPTInt), "EvBPTInt"),
			tu("EvIdeEnable", 4, uint64(trapunit.EvIDEEnable), "EvIDEEnable"),
			tu("EvIdeDisable", 4, uint64(trapunit.EvIDEDisable), "EvIDEDisable"),
			tu("EvRtt", 4, uint64(trapunit.EvRTT), "EvRTT"),
			tu("EvWarpError", 4, uint64(trapunit.EvWarpError), "EvWarpError"),
			tu("EvPtxTrap", 4, uint64(trapunit.EvPTXTrap), "EvPTXTrap"),
			tu("EvPtxBrkpt", 4, uint64(trapunit.EvPTXBrkpt), "EvPTXBrkpt"),
		}},
		{title: "trap_unit: warp error codes (warp ESR bits 7:4; ev_arg_i of EvWarpError).", items: []svConst{
			tu("ErrIllegalInstrEncoding", 4, uint64(trapunit.ErrIllegalInstrEncoding), "ErrIllegalInstrEncoding"),
			tu("ErrIllegalInstrParam", 4, uint64(trapunit.ErrIllegalInstrParam), "ErrIllegalInstrParam"),
			tu("ErrMisalignedAddr", 4, uint64(trapunit.ErrMisalignedAddr), "ErrMisalignedAddr"),
			tu("ErrOutOfRangeAddr", 4, uint64(trapunit.ErrOutOfRangeAddr), "ErrOutOfRangeAddr"),
			tu("ErrIllegalRegister", 4, uint64(trapunit.ErrIllegalRegister), "ErrIllegalRegister"),
			tu("ErrInvalidPc", 4, uint64(trapunit.ErrInvalidPC), "ErrInvalidPC"),
			tu("ErrStackOverflow", 4, uint64(trapunit.ErrStackOverflow), "ErrStackOverflow"),
			tu("ErrBrxIndexOutOfRange", 4, uint64(trapunit.ErrBrxIndexOutOfRange), "ErrBrxIndexOutOfRange"),
			tu("ErrSetmaxnregUb", 4, uint64(trapunit.ErrSetmaxnregUB), "ErrSetmaxnregUB"),
			tu("ErrUniformViolation", 4, uint64(trapunit.ErrUniformViolation), "ErrUniformViolation"),
			tu("ErrWarpSync", 4, uint64(trapunit.ErrWarpSync), "ErrWarpSync"),
			tu("ErrAssertTrap", 4, uint64(trapunit.ErrAssertTrap), "ErrAssertTrap"),
			tu("ErrUnknown", 4, uint64(trapunit.ErrUnknown), "ErrUnknown"),
		}},
		{title: "trap_unit: BPT.TRAP reasons with a fixed meaning.", items: []svConst{
			tu("ReasonBreakpoint", 3, trapunit.ReasonBreakpoint, "ReasonBreakpoint"),
			tu("ReasonNonMaskable", 3, trapunit.ReasonNonMaskable, "ReasonNonMaskable"),
		}},
		{title: "trap_unit: global ESR bits (global_esr_o).", items: []svConst{
			tu("GlobalEsrError", 16, uint64(trapunit.GlobalESRError), "GlobalESRError"),
			tu("GlobalEsrBptPause", 16, uint64(trapunit.GlobalESRBPTPause), "GlobalESRBPTPause"),
			tu("GlobalEsrBptInt", 16, uint64(trapunit.GlobalESRBPTInt), "GlobalESRBPTInt"),
		}},
		{title: "trap_unit: interrupt causes (irq_cause_o).", items: []svConst{
			tu("IrqPause", 4, uint64(trapunit.IRQPause), "IRQPause"),
			tu("IrqInt", 4, uint64(trapunit.IRQInt), "IRQInt"),
			tu("IrqTrap", 4, uint64(trapunit.IRQTrap), "IRQTrap"),
			tu("IrqError", 4, uint64(trapunit.IRQError), "IRQError"),
		}},
		{title: "trap_unit: host commands (host_cmd_i).", items: []svConst{
			tu("HostNone", 3, uint64(trapunit.HostNone), "HostNone"),
			tu("HostAckIrq", 3, uint64(trapunit.HostAckIRQ), "HostAckIRQ"),
			tu("HostClearGlobalEsr", 3, uint64(trapunit.HostClearGlobalESR), "HostClearGlobalESR"),
			tu("HostClearWarpEsr", 3, uint64(trapunit.HostClearWarpESR), "HostClearWarpESR"),
			tu("HostWakeAll", 3, uint64(trapunit.HostWakeAll), "HostWakeAll"),
			tu("HostWakeWarp", 3, uint64(trapunit.HostWakeWarp), "HostWakeWarp"),
			tu("HostResume", 3, uint64(trapunit.HostResume), "HostResume"),
		}},
		{title: "trap_unit: host command results (host_err_o).", items: []svConst{
			tu("HostOk", 3, uint64(trapunit.HostOK), "HostOK"),
			tu("HostErrNotTrapped", 3, uint64(trapunit.HostErrNotTrapped), "HostErrNotTrapped"),
			tu("HostErrNotStopped", 3, uint64(trapunit.HostErrNotStopped), "HostErrNotStopped"),
			tu("HostErrBadWarp", 3, uint64(trapunit.HostErrBadWarp), "HostErrBadWarp"),
			tu("HostErrNoHandler", 3, uint64(trapunit.HostErrNoHandler), "HostErrNoHandler"),
			tu("HostErrBadCmd", 3, uint64(trapunit.HostErrBadCmd), "HostErrBadCmd"),
		}},
		{title: "reg_pool: warpgroups per CTA slot and setmaxnreg's count range.", items: []svConst{
			rp("NG", 0, regpool.MaxGroups, "MaxGroups"),
			rp("MinCount", 0, regpool.MinCount, "MinCount"),
			rp("MaxCount", 0, regpool.MaxCount, "MaxCount"),
		}},
		{title: "reg_pool: protocol errors (err_code_o).", items: []svConst{
			rp("ErrLaunchBusy", 4, uint64(regpool.ErrLaunchBusy), "ErrLaunchBusy"),
			rp("ErrLaunchShape", 4, uint64(regpool.ErrLaunchShape), "ErrLaunchShape"),
			rp("ErrLaunchRegfile", 4, uint64(regpool.ErrLaunchRegfile), "ErrLaunchRegfile"),
			rp("ErrCTAExitIdle", 4, uint64(regpool.ErrCTAExitIdle), "ErrCTAExitIdle"),
			rp("ErrCTAExitLive", 4, uint64(regpool.ErrCTAExitLive), "ErrCTAExitLive"),
			rp("ErrNoCTA", 4, uint64(regpool.ErrNoCTA), "ErrNoCTA"),
			rp("ErrBadWarp", 4, uint64(regpool.ErrBadWarp), "ErrBadWarp"),
			rp("ErrExited", 4, uint64(regpool.ErrExited), "ErrExited"),
			rp("ErrBusy", 4, uint64(regpool.ErrBusy), "ErrBusy"),
			rp("ErrBadCount", 4, uint64(regpool.ErrBadCount), "ErrBadCount"),
		}},
		{title: "reg_pool: undefined behaviours of setmaxnreg (ub_kind_o, 5 bits per record).", items: []svConst{
			rp("UBNotAllWarps", 5, uint64(regpool.UBNotAllWarps), "UBNotAllWarps"),
			rp("UBNoSyncBetween", 5, uint64(regpool.UBNoSyncBetween), "UBNoSyncBetween"),
			rp("UBDecAbove", 5, uint64(regpool.UBDecAbove), "UBDecAbove"),
			rp("UBIncBelow", 5, uint64(regpool.UBIncBelow), "UBIncBelow"),
			rp("UBPartialWarp", 5, uint64(regpool.UBPartialWarp), "UBPartialWarp"),
		}},
		{title: "perf_mon: pmevent events, %pm counters and the counter kinds (perfmon.Kind; 0,\n// off, is every other value).", items: []svConst{
			{"NumEvents", 0, perfmon.NumEvents, "perfmon.NumEvents"},
			{"NumCounters", 0, perfmon.NumCounters, "perfmon.NumCounters"},
			{"PmCycles", 0, uint64(perfmon.Cycles), "perfmon.Cycles"},
			{"PmInstructions", 0, uint64(perfmon.Instructions), "perfmon.Instructions"},
			{"PmEvents", 0, uint64(perfmon.Events), "perfmon.Events"},
			{"PmStall", 0, uint64(perfmon.Stall), "perfmon.Stall"},
		}},
		{title: "clock_timer: the longest nanosleep, in ns.", items: []svConst{
			{"MaxSleepNs", 32, clocktimer.MaxSleepNs, "clocktimer.MaxSleepNs"},
		}},
		{title: "SM: warp states (pipeline.WarpState, Nsight Compute's names; the trace's\n// state_q).", enum: "warp_state_e", items: namedEnum("WarpState", pipeline.StateNames(), "pipeline.StateNames")},
		{title: "perf_mon: stall classes, the stall_count_i index of each (config.StallStates;\n// the trace's stall_reason_q, where 0 is none).", enum: "stall_class_e", items: namedEnum("Stall", config.StallStates(), "config.StallStates")},
		{title: "pipe_throttle: the execution pipes (pipethrottle.Pipe; req_pipe_i, the bit of\n// pipe_ready_o, the index of inst_executed_q), and their number.", enum: "pipe_e", items: pipeEnum()},
		{title: "pipe_throttle: the results of one warp instruction (a pipe's cost is this\n// times NumPorts).", items: []svConst{
			{"WarpLanes", 0, pipethrottle.WarpLanes, "pipethrottle.WarpLanes"},
			{"NumPipes", 0, uint64(pipethrottle.NumPipes), "pipethrottle.NumPipes"},
		}},
	}
}

// pipeEnum is pipe_e: Pipe<Name> per pipethrottle.Pipe.
func pipeEnum() []svConst {
	names := make([]string, pipethrottle.NumPipes)
	for q := range names {
		names[q] = pipethrottle.Pipe(q).String()
	}
	return namedEnum("Pipe", names, "pipethrottle.Pipe.String")
}

// namedEnum is one enum item per name, valued by its index: prefix and
// the name in UpperCamelCase ("not_selected" -> WarpStateNotSelected),
// from src()[i].
func namedEnum(prefix string, names []string, src string) []svConst {
	items := make([]svConst, len(names))
	for i, n := range names {
		var b strings.Builder
		b.WriteString(prefix)
		for _, w := range strings.Split(n, "_") {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		items[i] = svConst{b.String(), 0, uint64(i), fmt.Sprintf("%s()[%d] %q", src, i, n)}
	}
	return items
}

// SVPackage returns the text of smsim_pkg.sv.
func SVPackage() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by cosim/cmd/gentable from the Go model's constants; DO NOT EDIT.\n")
	fmt.Fprintf(&b, "//\n// Shared encodings and widths of the smsim RTL units, in sections by unit.\n")
	fmt.Fprintf(&b, "// Every value is the Go constant named beside it (cosim/svpkg.go lists\n")
	fmt.Fprintf(&b, "// them); the modules import this package instead of keeping copies.\n")
	fmt.Fprintf(&b, "// Regenerate with `go generate ./cosim`.\npackage smsim_pkg;\n")
	seen := map[string]bool{}
	for _, s := range svSections() {
		fmt.Fprintf(&b, "\n  // %s\n", strings.ReplaceAll(s.title, "\n", "\n  "))
		nw := 0
		for _, c := range s.items {
			if seen[c.name] {
				return nil, fmt.Errorf("cosim: smsim_pkg: %s defined twice", c.name)
			}
			seen[c.name] = true
			if c.width > 0 && c.width < 64 && c.value >= 1<<uint(c.width) {
				return nil, fmt.Errorf("cosim: smsim_pkg: %s = %d does not fit %d bits", c.name, c.value, c.width)
			}
			nw = max(nw, len(c.name))
		}
		if s.enum != "" {
			fmt.Fprintf(&b, "  typedef enum int unsigned {\n")
			for i, c := range s.items {
				sep := ","
				if i == len(s.items)-1 {
					sep = ""
				}
				fmt.Fprintf(&b, "    %-*s = %-*s  // %s\n", nw, c.name, 4, fmt.Sprintf("%d%s", c.value, sep), c.goSrc)
			}
			fmt.Fprintf(&b, "  } %s;\n", s.enum)
			continue
		}
		lits := make([]string, len(s.items))
		lw := 0
		for i, c := range s.items {
			lits[i] = fmt.Sprintf("%d;", c.value)
			if c.width > 0 {
				lits[i] = fmt.Sprintf("%d'd%d;", c.width, c.value)
			}
			lw = max(lw, len(lits[i]))
		}
		for i, c := range s.items {
			typ := "int unsigned"
			if c.width > 0 {
				typ = fmt.Sprintf("logic [%d:0]", c.width-1)
			}
			fmt.Fprintf(&b, "  localparam %-12s %-*s = %-*s  // %s\n", typ, nw, c.name, lw, lits[i], c.goSrc)
		}
	}
	fmt.Fprintf(&b, "\nendpackage\n")
	return b.Bytes(), nil
}
