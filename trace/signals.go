package trace

import (
	"fmt"
	"math/bits"
	"reflect"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/rtl"
)

// The observation scopes of the SM top that have no Go unit of their own
// (or whose unit is not integrated yet). Each struct is the signal table
// of one Verilog scope: the sv tags are the names, the width tags the
// widths (numbers or the parameters of params), exactly as for a unit's
// Inputs, Outputs and State (rtl.Signals). A field with an enum tag also
// gets a GTKWave string companion named <name>_str holding the value's
// name.

// Scopes of the observation structs. N, K and B are a warp slot, a
// scheduler (sub-partition), a CTA slot and a barrier id.
const (
	ScopeTop       = "sm_top"
	ScopeWarp      = "sm_top.g_warp[%d]"          // warpObs
	ScopeIssue     = "sm_top.u_issue_%d"          // issueObs, one per scheduler
	ScopeWriteback = "sm_top.u_writeback_%d"      // wbObs, one per scheduler
	ScopeSched     = "sm_top.u_warp_sched_%d"     // warpsched's own table (SM.Signals)
	ScopeTrap      = "sm_top.u_trap_unit"         // trapunit's own table
	ScopeRegPool   = "sm_top.u_reg_pool"          // regPoolObs
	ScopeBarrier   = "sm_top.u_barrier.g_cta[%d]" // ctaObs
	ScopeBar       = ScopeBarrier + ".g_bar[%d]"  // barObs
	StrSuffix      = "_str"                       // suffix of an enum's string companion
	clockTimerPath = "sm_top.u_clock_timer"       // clocktimer.Scope
	perfMonPath    = "sm_top.u_perf_mon"          // perfmon.Scope
)

// topObs is sm_top's own ports.
type topObs struct {
	Clk    bool  `sv:"clk_i"`
	RstN   bool  `sv:"rst_ni"`
	Done   bool  `sv:"done_o"`                           // the run has ended
	Status uint8 `sv:"status_o" width:"3" enum:"status"` // pipeline.Status*
}

// warpObs is one warp slot, sm_top.g_warp[N].
type warpObs struct {
	Valid       bool   `sv:"valid_q"`                                          // the slot holds a warp
	PC          uint32 `sv:"pc_q"`                                             // PC of the active group
	ActiveMask  uint32 `sv:"active_mask_q"`                                    // lanes of the active group
	State       uint8  `sv:"state_q" width:"WarpStateWidth" enum:"warp_state"` // pipeline.WarpState (Nsight warp state)
	StallReason uint8  `sv:"stall_reason_q" width:"StallWidth" enum:"stall"`   // stall class (perf_mon stall_count_i index)
	ESR         uint16 `sv:"esr_q"`                                            // warp ESR (trap_unit's warp_esr_q)
	NReg        uint16 `sv:"nreg_q" width:"9"`                                 // registers per thread
}

// issueObs is the issue stage of one sub-partition, sm_top.u_issue_N:
// the instruction its scheduler issued this cycle (the model executes at
// issue).
type issueObs struct {
	Valid bool   `sv:"issue_valid_o"`
	Warp  uint16 `sv:"issue_warp_o" width:"WarpSlotWidth"` // warp slot
	PC    uint32 `sv:"issue_pc_o"`
	Op    uint8  `sv:"issue_op_o" enum:"opcode"` // isa.Opcode; opIdle when nothing issues
	Mask  uint32 `sv:"issue_mask_o"`             // the active group
	Exec  uint32 `sv:"issue_exec_o"`             // its lanes whose guard is true
}

// wbObs is the writeback of one sub-partition, sm_top.u_writeback_N: an
// instruction of its warps whose destination registers become available
// this cycle (the last of them when several do; Count says how many).
type wbObs struct {
	Valid bool   `sv:"wb_valid_o"`
	Warp  uint16 `sv:"wb_warp_o" width:"WarpSlotWidth"`
	PC    uint32 `sv:"wb_pc_o"`
	Count uint8  `sv:"wb_count_o" width:"4"` // saturates at 15
}

// regPoolObs is the register pool's per-CTA free count and high-water
// mark, under the names of sm_top.u_reg_pool's registers (package
// regpool). The unit's full state is too large to copy every cycle, so the
// tracer reads these two through Pool.CTAStats (0 for a free CTA slot).
type regPoolObs struct {
	Free      [maxCTASlots]uint32 `sv:"cta_free_q" width:"32*CTAs"`
	HighWater [maxCTASlots]uint32 `sv:"cta_high_water_q" width:"32*CTAs"`
}

// ctaObs is one CTA slot of the barrier state, sm_top.u_barrier.g_cta[K].
// CTA slots are assigned lowest free first, in launch order.
type ctaObs struct {
	Valid  bool   `sv:"valid_q"`
	Linear uint32 `sv:"cta_id_q"` // linear CTA index in the grid
}

// barObs is one named barrier of a CTA slot, ...g_cta[K].g_bar[B].
type barObs struct {
	Arrived  uint16 `sv:"arrived_q" width:"ThreadCountWidth"`  // threads arrived in the current phase
	Expected uint16 `sv:"expected_q" width:"ThreadCountWidth"` // thread count; 0: all of the CTA
	Waiting  uint32 `sv:"waiting_q" width:"WarpsPerCTA"`       // warps of the CTA blocked on it
}

// opIdle is issue_op_o when nothing issues (its name is "-").
const opIdle = 0xff

// maxCTASlots bounds the CTA-slot arrays (config sm.max_ctas; regpool's
// MaxCTAs).
const maxCTASlots = 1024

// enumValues are the value names of the enum tags.
func enumValues() map[string][]string {
	ops := make([]string, 256)
	for o := range ops {
		if isa.Opcode(o).Valid() {
			ops[o] = isa.Opcode(o).String()
		}
	}
	ops[opIdle] = "-"
	stall := append([]string{"none"}, config.StallStates()[1:]...)
	return map[string][]string{
		"status":     {pipeline.StatusRunning, pipeline.StatusCompleted, pipeline.StatusTrapped, pipeline.StatusFault, pipeline.StatusDeadlock, pipeline.StatusCycleLimit},
		"warp_state": pipeline.StateNames(),
		"stall":      stall,
		"opcode":     ops,
	}
}

// statusCode is the status_o value of a run status.
func statusCode(s string, names []string) uint8 {
	for i, n := range names {
		if n == s {
			return uint8(i)
		}
	}
	return 0
}

// obsParams are the parameters of the observation structs (their width
// expressions name these fields).
type obsParams struct {
	WarpStateWidth   int // bits of a pipeline.WarpState
	StallWidth       int // bits of a stall class
	WarpSlotWidth    int // bits of a warp slot index
	NumWarps         int // sm.max_warps
	CTAs             int // CTA slots traced (sm.max_ctas, at most maxCTASlots)
	ThreadCountWidth int // bits of a thread count of one CTA
	WarpsPerCTA      int // warps of one CTA of the launch
}

// params are the observation structs' parameters for sm.
func params(sm *pipeline.SM) obsParams {
	cfg := sm.Config()
	return obsParams{
		WarpStateWidth:   rtl.IdxWidth(len(pipeline.StateNames())),
		StallWidth:       rtl.IdxWidth(len(config.StallStates())),
		WarpSlotWidth:    rtl.IdxWidth(cfg.SM.MaxWarps),
		NumWarps:         cfg.SM.MaxWarps,
		CTAs:             min(cfg.SM.MaxCTAs, maxCTASlots),
		ThreadCountWidth: bits.Len(uint(cfg.SM.MaxThreadsPerCTA)),
		WarpsPerCTA:      max(sm.WarpsPerCTA(), 1),
	}
}

// obsTable is the signal table of observation struct T under scope.
func obsTable[T any](scope string, p obsParams) rtl.Table {
	var zero T
	return rtl.MustSignals(scope, p, zero)
}

// enumsOf returns the enum value names of T's enum-tagged signals.
func enumsOf[T any](values map[string][]string) map[string][]string {
	return enumTags(reflect.TypeFor[T](), values)
}

func scopef(format string, args ...any) string { return fmt.Sprintf(format, args...) }
