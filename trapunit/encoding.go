package trapunit

import (
	"fmt"
	"strings"

	"github.com/smsim/smsim/isa"
)

// Size limits of the fixed-size ports and registers. The Verilog module
// sizes its arrays with the parameters NumWarps and NumPorts; the Go
// arrays are sized by these maxima and only the first NumWarps / NumPorts
// entries are used.
const (
	// MaxWarps is the largest Params.NumWarps (the H100 SM holds 64
	// resident warps). Raising it only costs memory and copy time.
	MaxWarps = 64
	// MaxPorts is the largest Params.NumPorts (sched.count is at most 8).
	MaxPorts = 8
	// Scope is the Verilog instance path of the unit in the SM top level.
	Scope = "sm_top.u_trap_unit"
)

// EvKind is an event kind (ev_kind_i, 4 bits). The BPT kinds have the
// values of the isa BPT modes, so a BPT instruction's mode is its kind.
type EvKind uint8

// Event kinds.
const (
	EvNone          EvKind = 0
	EvBPTDrain      EvKind = isa.BPTDrain      // 1: accepted and ignored (a pipeline matter)
	EvBPTPause      EvKind = isa.BPTPause      // 2
	EvBPTPauseQuiet EvKind = isa.BPTPauseQuiet // 3
	EvBPTTrap       EvKind = isa.BPTTrap       // 4: ev_arg_i[2:0] = reason
	EvBPTInt        EvKind = isa.BPTInt        // 5
	EvIDEEnable     EvKind = 6                 // IDE.EN
	EvIDEDisable    EvKind = 7                 // IDE.DIS
	EvRTT           EvKind = 8                 // return from the trap handler
	EvWarpError     EvKind = 9                 // ev_arg_i[3:0] = error code (ErrCode)
	EvPTXTrap       EvKind = 10                // PTX trap: error ASSERT_TRAP
	EvPTXBrkpt      EvKind = 11                // PTX brkpt: BPT.TRAP 1
	// 12..15 are reserved and ignored.
)

var evNames = [...]string{"NONE", "BPT_DRAIN", "BPT_PAUSE", "BPT_PAUSE_QUIET", "BPT_TRAP", "BPT_INT",
	"IDE_EN", "IDE_DIS", "RTT", "WARP_ERROR", "PTX_TRAP", "PTX_BRKPT"}

func (k EvKind) String() string {
	if int(k) < len(evNames) {
		return evNames[k]
	}
	return fmt.Sprintf("EV_%d", uint8(k))
}

// BPT.TRAP reasons with a meaning fixed by this model (seed 002: "One trap
// immediate can be used as a debugger breakpoint"; "the trap reason 7 ...
// is considered as non maskable").
const (
	ReasonBreakpoint  = 1 // debugger breakpoint; PTX brkpt
	ReasonNonMaskable = 7 // taken even under IDE.DIS
	reasonMask        = 7
	errCodeMask       = 0xf
)

// ErrCode is a warp error code (4 bits, warp ESR bits 7:4). The names
// follow cuda-gdb's exception names where one fits.
type ErrCode uint8

// Warp error codes.
const (
	ErrNone                 ErrCode = 0  // no error
	ErrIllegalInstrEncoding ErrCode = 1  // "Warp Illegal Instruction": undecodable / misplaced instruction (BPT.TRAP 0, BPT.PAUSE or RTT outside the handler)
	ErrIllegalInstrParam    ErrCode = 2  // an operand value the instruction does not accept (barrier id/count)
	ErrMisalignedAddr       ErrCode = 3  // "Warp Misaligned Address"
	ErrOutOfRangeAddr       ErrCode = 4  // "Warp Out-of-range Address"
	ErrIllegalRegister      ErrCode = 5  // a register outside the warp's allocation
	ErrInvalidPC            ErrCode = 6  // "Warp Invalid PC": pc outside the code, call to a non-function
	ErrStackOverflow        ErrCode = 7  // "Warp Hardware Stack Overflow" / "Lane User Stack Overflow"
	ErrBrxIndexOutOfRange   ErrCode = 8  // BRX index outside the branch table
	ErrSetmaxnregUB         ErrCode = 9  // setmaxnreg undefined behaviour (seed 001)
	ErrUniformViolation     ErrCode = 10 // a .uni instruction executed divergently
	ErrWarpSync             ErrCode = 11 // bar.warp.sync / *.sync member-mask violation
	ErrAssertTrap           ErrCode = 12 // "Warp Assert": PTX trap (assert → __assertfail → trap)
	// 13, 14 reserved.
	ErrUnknown ErrCode = 15 // an error whose code is not known (WARP_ERROR with code 0 is recorded as this)
)

var errNames = [...]string{"NONE", "ILLEGAL_INSTR_ENCODING", "ILLEGAL_INSTR_PARAM", "MISALIGNED_ADDR",
	"OUT_OF_RANGE_ADDR", "ILLEGAL_REGISTER", "INVALID_PC", "STACK_OVERFLOW", "BRX_INDEX_OUT_OF_RANGE",
	"SETMAXNREG_UB", "UNIFORM_VIOLATION", "WARP_SYNC", "ASSERT_TRAP", "ERR_13", "ERR_14", "UNKNOWN"}

func (e ErrCode) String() string {
	if int(e) < len(errNames) {
		return errNames[e]
	}
	return fmt.Sprintf("ERR_%d", uint8(e))
}

// ErrorFromFault maps a pipeline fault kind (the "kind" of a run report
// error, e.g. "memory_fault") to a warp error code; unknown kinds give
// ErrUnknown. A memory fault is OUT_OF_RANGE_ADDR unless the pipeline
// reports the kind "misaligned_address".
func ErrorFromFault(kind string) ErrCode {
	switch kind {
	case "illegal_instruction", "trap_unit":
		return ErrIllegalInstrEncoding
	case "barrier_error":
		return ErrIllegalInstrParam
	case "misaligned_address":
		return ErrMisalignedAddr
	case "memory_fault", "out_of_range_address", "out_of_bounds":
		return ErrOutOfRangeAddr
	case "illegal_register":
		return ErrIllegalRegister
	case "pc_out_of_range", "bad_call_target":
		return ErrInvalidPC
	case "stack_overflow":
		return ErrStackOverflow
	case "brx_index_out_of_range":
		return ErrBrxIndexOutOfRange
	case "setmaxnreg":
		return ErrSetmaxnregUB
	case "uniform_violation":
		return ErrUniformViolation
	case "warp_sync":
		return ErrWarpSync
	case "trap":
		return ErrAssertTrap
	}
	return ErrUnknown
}

// EventFromInst maps an issued instruction to the trap-unit event it
// raises: BPT.* (the mode is the kind; BPT.TRAP's reason is the argument,
// a reason above 7 becomes 0 and so an illegal encoding), IDE.EN/DIS, RTT,
// PTX trap and brkpt. A BPT with an unknown mode is a WARP_ERROR
// ILLEGAL_INSTR_ENCODING. ok is false for every other instruction.
func EventFromInst(in isa.Inst) (kind EvKind, arg uint8, ok bool) {
	switch in.Op {
	case isa.OpBPT:
		m := EvKind(in.Mods)
		if in.Mods < isa.BPTDrain || in.Mods > isa.BPTInt {
			return EvWarpError, uint8(ErrIllegalInstrEncoding), true
		}
		if m == EvBPTTrap && in.Imm <= reasonMask {
			arg = uint8(in.Imm)
		}
		return m, arg, true
	case isa.OpIDE:
		if in.Mods&isa.ModIDEEnable != 0 {
			return EvIDEEnable, 0, true
		}
		return EvIDEDisable, 0, true
	case isa.OpRTT:
		return EvRTT, 0, true
	case isa.OpTRAP:
		return EvPTXTrap, 0, true
	case isa.OpBRKPT:
		return EvPTXBrkpt, 0, true
	}
	return EvNone, 0, false
}

// WarpESR is a warp's error status register (warp_esr_q[w], 16 bits; S2R
// SR_WARP_ESR reads it zero-extended):
//
//	bits  2:0  TRAP_REASON  reason of the last BPT.TRAP taken (0: none)
//	bit   3    0
//	bits  7:4  ERROR        first warp error since the ESR was cleared (ErrCode)
//	bits 10:8  PENDING      reason of a BPT.TRAP held by IDE.DIS (0: none)
//	bits 15:11 0
type WarpESR uint16

// Warp ESR fields.
const (
	WarpESRReasonShift  = 0
	WarpESRReasonMask   = WarpESR(reasonMask) << WarpESRReasonShift
	WarpESRErrorShift   = 4
	WarpESRErrorMask    = WarpESR(errCodeMask) << WarpESRErrorShift
	WarpESRPendingShift = 8
	WarpESRPendingMask  = WarpESR(reasonMask) << WarpESRPendingShift
)

// Reason is the TRAP_REASON field.
func (e WarpESR) Reason() int { return int(e&WarpESRReasonMask) >> WarpESRReasonShift }

// Error is the ERROR field.
func (e WarpESR) Error() ErrCode { return ErrCode(e&WarpESRErrorMask) >> WarpESRErrorShift }

// Pending is the PENDING field.
func (e WarpESR) Pending() int { return int(e&WarpESRPendingMask) >> WarpESRPendingShift }

func (e WarpESR) withReason(r int) WarpESR {
	return e&^WarpESRReasonMask | WarpESR(r&reasonMask)<<WarpESRReasonShift
}

func (e WarpESR) withError(c ErrCode) WarpESR {
	return e&^WarpESRErrorMask | WarpESR(c&errCodeMask)<<WarpESRErrorShift
}

func (e WarpESR) withPending(r int) WarpESR {
	return e&^WarpESRPendingMask | WarpESR(r&reasonMask)<<WarpESRPendingShift
}

func (e WarpESR) String() string {
	if e == 0 {
		return "none"
	}
	var parts []string
	if r := e.Reason(); r != 0 {
		parts = append(parts, fmt.Sprintf("reason=%d", r))
	}
	if c := e.Error(); c != ErrNone {
		parts = append(parts, "error="+c.String())
	}
	if r := e.Pending(); r != 0 {
		parts = append(parts, fmt.Sprintf("pending=%d", r))
	}
	return strings.Join(parts, ",")
}

// Global ESR bits (global_esr_q, 16 bits; S2R SR_GLOBAL_ESR reads
// s2r_global_esr_o, which has BPT_INT forced to 0):
//
//	bit  0    ERROR      some warp error was recorded
//	bits 7:1  BPT_TRAP   bit r: a BPT.TRAP with reason r was encountered (masked or not)
//	bit  8    BPT_PAUSE  a BPT.PAUSE was executed (not set by BPT.PAUSE_QUIET)
//	bit  9    BPT_INT    a BPT.INT was executed; only the host clears it
//	bits 15:10 0
const (
	GlobalESRError    uint16 = 1 << 0
	GlobalESRTrapMask uint16 = 0xfe
	GlobalESRBPTPause uint16 = 1 << 8
	GlobalESRBPTInt   uint16 = 1 << 9
	GlobalESRMask     uint16 = 0x3ff
)

// GlobalESRTrap is the global ESR bit of BPT.TRAP reason r (1..7).
func GlobalESRTrap(r int) uint16 { return 1 << uint(r&reasonMask) &^ 1 }

// Interrupt causes (irq_cause_o, 4 bits; irq_pending_q).
const (
	IRQPause uint8 = 1 << 0 // a BPT.PAUSE stopped a warp
	IRQInt   uint8 = 1 << 1 // BPT.INT
	IRQTrap  uint8 = 1 << 2 // a trap the handler cannot take: no handler configured, or a trap inside the handler
	IRQError uint8 = 1 << 3 // a warp error (including PTX trap)
	IRQMask  uint8 = 0xf
)

// CauseString spells an interrupt cause set, e.g. "PAUSE|ERROR".
func CauseString(c uint8) string {
	if c&IRQMask == 0 {
		return "none"
	}
	var parts []string
	for i, n := range []string{"PAUSE", "INT", "TRAP", "ERROR"} {
		if c&(1<<uint(i)) != 0 {
			parts = append(parts, n)
		}
	}
	return strings.Join(parts, "|")
}

// HostCmd is a host command (host_cmd_i, 3 bits); host_arg_i is its
// argument.
type HostCmd uint8

// Host commands.
const (
	HostNone           HostCmd = 0 // no command
	HostAckIRQ         HostCmd = 1 // clear the interrupt causes in host_arg_i[3:0]
	HostClearGlobalESR HostCmd = 2 // clear the global ESR bits set in host_arg_i
	HostClearWarpESR   HostCmd = 3 // clear warp host_arg_i's ESR (reason, error, pending trap)
	HostWakeAll        HostCmd = 4 // wake every paused warp: it continues in the handler after its BPT.PAUSE
	HostWakeWarp       HostCmd = 5 // wake warp host_arg_i
	HostResume         HostCmd = 6 // run trigger: every paused warp leaves the handler at its saved PC; the SM returns to user mode
	// 7 is reserved (refused with HostErrBadCmd).
)

var hostCmdNames = [...]string{"NONE", "ACK_IRQ", "CLEAR_GLOBAL_ESR", "CLEAR_WARP_ESR", "WAKE_ALL", "WAKE_WARP", "RESUME"}

func (c HostCmd) String() string {
	if int(c) < len(hostCmdNames) {
		return hostCmdNames[c]
	}
	return fmt.Sprintf("HOST_CMD_%d", uint8(c))
}

// HostErr is why a host command was refused (host_err_o, 3 bits; 0: accepted).
type HostErr uint8

// Host command errors.
const (
	HostOK            HostErr = 0
	HostErrNotTrapped HostErr = 1 // WAKE/RESUME while the SM is not trapped
	HostErrNotStopped HostErr = 2 // WAKE/RESUME while a live warp is neither paused nor exited
	HostErrBadWarp    HostErr = 3 // warp argument outside 0..NumWarps-1, or (WAKE_WARP) not live
	HostErrNoHandler  HostErr = 4 // WAKE without a trap handler (there is nothing to continue in; use RESUME)
	HostErrBadCmd     HostErr = 5 // unknown command
)

var hostErrNames = [...]string{"OK", "NOT_TRAPPED", "NOT_STOPPED", "BAD_WARP", "NO_HANDLER", "BAD_CMD"}

func (e HostErr) String() string {
	if int(e) < len(hostErrNames) {
		return hostErrNames[e]
	}
	return fmt.Sprintf("HOST_ERR_%d", uint8(e))
}
