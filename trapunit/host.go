package trapunit

import (
	"fmt"
	"strings"
)

// Policy is what the host does when the SM stops on a trap or a
// breakpoint (smsim run --on-trap, --on-break).
type Policy uint8

// Policies.
const (
	Abort  Policy = iota // stop the run (status "trapped")
	Resume               // let the warps continue
)

func (p Policy) String() string {
	if p == Resume {
		return "resume"
	}
	return "abort"
}

// ParsePolicy parses "abort" or "resume".
func ParsePolicy(s string) (Policy, error) {
	for _, p := range []Policy{Abort, Resume} {
		if s == p.String() {
			return p, nil
		}
	}
	return Abort, fmt.Errorf("trapunit: unknown policy %q (abort, resume)", s)
}

// Stop kinds.
const (
	StopError      = "error"      // a warp error (including PTX trap)
	StopTrap       = "trap"       // BPT.TRAP with a reason other than 1
	StopBreakpoint = "breakpoint" // BPT.TRAP 1 / PTX brkpt only
)

// Stop is the host's decision to abort the run.
type Stop struct {
	Kind      string // StopError, StopTrap or StopBreakpoint
	GlobalESR uint16
	Warps     []WarpStop // the warps whose ESR is not zero, in slot order
}

// WarpStop is one warp's state when the host stopped the run.
type WarpStop struct {
	Warp int
	ESR  WarpESR
	PC   uint32 // saved PC: the instruction after the one that trapped
}

func (s *Stop) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s (global ESR %#x)", s.Kind, s.GlobalESR)
	for i, w := range s.Warps {
		if i == 8 {
			fmt.Fprintf(&sb, "; %d more warps", len(s.Warps)-i)
			break
		}
		fmt.Fprintf(&sb, "; warp %d %s, resume pc %d", w.Warp, w.ESR, w.PC)
	}
	return sb.String()
}

type hostState uint8

const (
	hostIdle   hostState = iota
	hostResume           // the global ESR was cleared; send the resume command next
	hostSettle           // the resume command was sent; its effect shows one cycle later
)

// Host is a plain-Go host agent (the CPU side of seed 002) that drives
// the unit's host_cmd_i/host_arg_i from its outputs. Every cycle the SM
// calls Step with the outputs of the cycle's Eval and drives the returned
// command in the next cycle.
//
//   - An interrupt is acknowledged (ACK_IRQ), once per cycle it is seen.
//   - A BPT.INT outside a trap is acknowledged and its global ESR bit
//     cleared; the run goes on.
//   - When the SM is trapped and every live warp is paused
//     (all_paused_o), the host classifies the stop from the global ESR:
//     an error → OnTrap, a BPT.TRAP reason other than 1 → OnTrap, only
//     reason 1 → OnBreak, nothing recorded (a handler paused on its own)
//     → resume. Abort returns a Stop; resume clears the global ESR and
//     then sends RESUME (no handler: the warps continue at their saved
//     PCs) or WAKE_ALL (with a handler: they continue in the handler,
//     after their BPT.PAUSE).
//
// A refused command is retried at the next decision point. The zero
// Host aborts on traps and on breakpoints; NewHost sets the policies.
type Host struct {
	OnTrap     Policy // traps and warp errors
	OnBreak    Policy // breakpoints
	HasHandler bool   // the unit's Params.HasHandler

	// Statistics.
	Interrupts uint64 // interrupts raised (irq_count_o)
	Resumes    uint64 // resume/wake commands accepted
	Refused    uint64 // host commands refused

	state     hostState
	acked     bool
	lastCount uint32
}

// NewHost returns a host agent with the given policies for a unit with or
// without a trap handler.
func NewHost(onTrap, onBreak Policy, hasHandler bool) *Host {
	return &Host{OnTrap: onTrap, OnBreak: onBreak, HasHandler: hasHandler}
}

// Classify names the kind of stop the global ESR describes (StopError,
// StopTrap, StopBreakpoint) or "" when it records no trap or error.
func Classify(globalESR uint16) string {
	switch {
	case globalESR&GlobalESRError != 0:
		return StopError
	case globalESR&GlobalESRTrapMask&^GlobalESRTrap(ReasonBreakpoint) != 0:
		return StopTrap
	case globalESR&GlobalESRTrap(ReasonBreakpoint) != 0:
		return StopBreakpoint
	}
	return ""
}

// Step observes the outputs o of one cycle and returns the host command
// for the next cycle, or a non-nil Stop when the policy aborts the run.
func (h *Host) Step(o *Outputs, numWarps int) (cmd HostCmd, arg uint16, stop *Stop) {
	h.Interrupts += uint64(o.IRQCount - h.lastCount)
	h.lastCount = o.IRQCount
	if o.HostErr != HostOK {
		h.Refused++
	}
	switch h.state {
	case hostResume:
		h.state = hostSettle
		if h.HasHandler {
			return HostWakeAll, 0, nil
		}
		return HostResume, 0, nil
	case hostSettle:
		h.state = hostIdle
		if o.HostAck {
			h.Resumes++
		}
		return HostNone, 0, nil
	}
	if o.AllPaused {
		kind := Classify(o.GlobalESR)
		pol := Resume
		switch kind {
		case StopError, StopTrap:
			pol = h.OnTrap
		case StopBreakpoint:
			pol = h.OnBreak
		}
		if pol == Abort {
			s := &Stop{Kind: kind, GlobalESR: o.GlobalESR}
			for w := 0; w < numWarps && w < MaxWarps; w++ {
				if o.WarpESR[w] != 0 {
					s.Warps = append(s.Warps, WarpStop{Warp: w, ESR: o.WarpESR[w], PC: o.ResumePC[w]})
				}
			}
			return HostNone, 0, s
		}
		h.state = hostResume
		return HostClearGlobalESR, GlobalESRMask, nil
	}
	if o.IRQ && !h.acked {
		h.acked = true
		return HostAckIRQ, uint16(o.IRQCause), nil
	}
	h.acked = false
	if o.GlobalESR&GlobalESRBPTInt != 0 && !o.SMTrapped {
		return HostClearGlobalESR, GlobalESRBPTInt, nil
	}
	return HostNone, 0, nil
}
