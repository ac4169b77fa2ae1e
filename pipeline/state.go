package pipeline

// WarpState is what a warp did, or why it could not issue, in one cycle.
// The names follow Nsight Compute's warp-state sampling.
type WarpState uint8

// The warp states. StateEligible is internal (the warp could issue; it ends
// the cycle as selected or not_selected).
const (
	StateSelected         WarpState = iota // issued an instruction
	StateNotSelected                       // could issue; another warp of its scheduler did
	StateWait                              // fixed-latency dependency (ALU, FMA, branch unit results)
	StateShortScoreboard                   // waiting for a shared-memory, special-register or parameter result
	StateLongScoreboard                    // waiting for a global- or local-memory result
	StateBarrier                           // waiting at bar.sync / bar.red for the CTA
	StateSleeping                          // in nanosleep
	StateBranchResolving                   // waiting for a branch, call or return to resolve
	StateNoInstruction                     // waiting for the instruction fetch after a jump or at launch
	StateMembar                            // waiting for its memory operations to complete (membar/fence)
	StateDrain                             // exited, waiting for its stores to drain; or held at BPT.DRAIN until its earlier instructions complete
	StateLGThrottle                        // its global/local memory instruction found no free memory port, or (mem.model hier) the coalescer's queue full
	StateMisc                              // any other reason
	StateExited                            // all threads exited (not counted)
	StateIdle                              // the warp slot holds no warp (counted per SM only)
	StatePaused                            // stopped in the trap handler by BPT.PAUSE / BPT.PAUSE_QUIET, until the host wakes it
	StateTrapped                           // stopped by a trap for the host: no trap handler, or a trap inside the handler
	StateRegpool                           // blocked in setmaxnreg.inc until the CTA's register pool holds the registers
	StateCpAsync                           // at cp.async.wait_group / wait_all, until its threads' copy groups complete
	StateMbarrier                          // suspended in mbarrier.try_wait until the phase completes or the time limit passes
	StateMathPipeThrottle                  // could issue, but its instruction's execution pipe has no room this cycle (pipe.throttle)
	StateMIOThrottle                       // its shared, constant or parameter access found the banks or the constant cache full, or was not taken by the memory port this cycle (mem.model hier)
	numStates
	StateEligible = numStates // internal: ready to issue
)

var stateNames = [...]string{
	StateSelected:         "selected",
	StateNotSelected:      "not_selected",
	StateWait:             "wait",
	StateShortScoreboard:  "short_scoreboard",
	StateLongScoreboard:   "long_scoreboard",
	StateBarrier:          "barrier",
	StateSleeping:         "sleeping",
	StateBranchResolving:  "branch_resolving",
	StateNoInstruction:    "no_instruction",
	StateMembar:           "membar",
	StateDrain:            "drain",
	StateLGThrottle:       "lg_throttle",
	StateMisc:             "misc",
	StateExited:           "exited",
	StateIdle:             "idle",
	StatePaused:           "paused",
	StateTrapped:          "trapped",
	StateRegpool:          "regpool",
	StateCpAsync:          "cp_async",
	StateMbarrier:         "mbarrier",
	StateMathPipeThrottle: "math_pipe_throttle",
	StateMIOThrottle:      "mio_throttle",
}

func (s WarpState) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	if s == StateEligible {
		return "eligible"
	}
	return "state?"
}

// StateNames lists every state name in order (exited and idle, then the
// trap states paused and trapped, the register pool's regpool, and the
// asynchronous waits cp_async and mbarrier, math_pipe_throttle and
// mio_throttle, last).
func StateNames() []string { return append([]string(nil), stateNames[:]...) }

// pmStall maps a warp state to the config "stall:STATE" counter names
// (config.StallStates) it counts toward, besides "any".
func pmStall(s WarpState) string {
	switch s {
	case StateBranchResolving, StateNoInstruction:
		return "fetch"
	case StateWait, StateShortScoreboard, StateLongScoreboard:
		return "scoreboard"
	case StateLGThrottle, StateMIOThrottle, StateMembar, StateCpAsync:
		return "memory"
	case StateBarrier, StateMbarrier:
		return "barrier"
	case StateSleeping:
		return "sleep"
	case StateDrain:
		return "drain"
	case StatePaused:
		return "paused"
	case StateTrapped:
		return "trapped"
	case StateRegpool:
		return "regpool"
	case StateNotSelected:
		return "not_selected"
	}
	return ""
}

// stalled reports a state counted by the "stall:any" counter: a warp that
// is resident and did not issue.
func stalled(s WarpState) bool {
	return s != StateSelected && s != StateExited && s != StateIdle && s < numStates
}
