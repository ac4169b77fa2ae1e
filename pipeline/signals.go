// The signal tables of sm_top's own scopes: the SM top's ports, the warp
// slots, the issue and writeback stages and the barrier unit.

package pipeline

import (
	"math/bits"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/rtl"
)

// The Verilog instance paths of the SM top's scopes. N, K and B are a warp
// slot, a scheduler (sub-partition), a CTA slot and a barrier id. The
// units with packages of their own (warp_sched, trap_unit, reg_pool,
// clock_timer, perf_mon) are instances of those packages' modules under
// sm_top.
const (
	ScopeTop       = "sm_top"
	ScopeWarp      = "sm_top.g_warp[%d]"          // WarpRegs
	ScopeIssue     = "sm_top.u_issue_%d"          // IssueOutputs, one per scheduler
	ScopeWriteback = "sm_top.u_writeback_%d"      // WritebackOutputs, one per scheduler
	ScopeLSU       = "sm_top.u_lsu_%d"            // LSUOutputs, one per scheduler
	ScopeSched     = "sm_top.u_warp_sched_%d"     // package warpsched
	ScopeTrap      = "sm_top.u_trap_unit"         // package trapunit
	ScopeRegPool   = "sm_top.u_reg_pool"          // package regpool
	ScopeBarrier   = "sm_top.u_barrier.g_cta[%d]" // BarrierCTA
	ScopeBar       = ScopeBarrier + ".g_bar[%d]"  // BarrierRegs
)

// TopParams are the parameters of sm_top's own signal tables: their width
// tags name these fields.
type TopParams struct {
	WarpStateWidth   int // bits of a WarpState
	StallWidth       int // bits of a stall class
	WarpSlotWidth    int // bits of a warp slot index
	NumWarps         int // sm.max_warps
	CTAs             int // CTA slots (sm.max_ctas, at most MaxCTASlots)
	ThreadCountWidth int // bits of a thread count of one CTA
	WarpsPerCTA      int // warps of one CTA of the launch
}

// TopParams returns the parameters of this SM's top-level signal tables.
func (sm *SM) TopParams() TopParams {
	return TopParams{
		WarpStateWidth:   rtl.IdxWidth(len(StateNames())),
		StallWidth:       rtl.IdxWidth(len(config.StallStates())),
		WarpSlotWidth:    rtl.IdxWidth(sm.cfg.SM.MaxWarps),
		NumWarps:         sm.cfg.SM.MaxWarps,
		CTAs:             min(sm.cfg.SM.MaxCTAs, MaxCTASlots),
		ThreadCountWidth: bits.Len(uint(sm.cfg.SM.MaxThreadsPerCTA)),
		WarpsPerCTA:      max(sm.warpsPerCTA, 1),
	}
}

// TopPorts are sm_top's own ports.
type TopPorts struct {
	Clk    bool  `sv:"clk_i"`
	RstN   bool  `sv:"rst_ni"`
	Done   bool  `sv:"done_o"`                           // the run has ended
	Status uint8 `sv:"status_o" width:"3" enum:"status"` // the run status (StatusCode)
}

// WarpRegs are one warp slot's registers, sm_top.g_warp[N]: the warp
// context the fetch and issue stages read.
type WarpRegs struct {
	Valid       bool   `sv:"valid_q"`                                          // the slot holds a warp
	PC          uint32 `sv:"pc_q"`                                             // PC of the active group
	ActiveMask  uint32 `sv:"active_mask_q"`                                    // lanes of the active group
	State       uint8  `sv:"state_q" width:"WarpStateWidth" enum:"warp_state"` // WarpState (Nsight warp state)
	StallReason uint8  `sv:"stall_reason_q" width:"StallWidth" enum:"stall"`   // stall class (perf_mon stall_count_i index)
	ESR         uint16 `sv:"esr_q"`                                            // warp ESR (trap_unit's warp_esr_q)
	NReg        uint16 `sv:"nreg_q" width:"9"`                                 // registers per thread
}

// IssueOutputs are the outputs of one sub-partition's issue stage,
// sm_top.u_issue_N: the instruction its scheduler issued in the cycle.
// When nothing issues, issue_valid_o drops and issue_op_o reads OpIdle;
// the other outputs hold, as a pipeline register's data would.
type IssueOutputs struct {
	Valid bool   `sv:"issue_valid_o"`
	Warp  uint16 `sv:"issue_warp_o" width:"WarpSlotWidth"` // warp slot
	PC    uint32 `sv:"issue_pc_o"`
	Op    uint8  `sv:"issue_op_o" enum:"opcode"` // isa.Opcode; OpIdle when nothing issues
	Mask  uint32 `sv:"issue_mask_o"`             // the active group
	Exec  uint32 `sv:"issue_exec_o"`             // its lanes whose guard is true
}

// MaxCTASlots bounds the CTA-slot arrays of the signal tables (config
// sm.max_ctas; regpool's MaxCTAs).
const MaxCTASlots = 1024

// OpIdle is issue_op_o when nothing issues (its name is "-").
const OpIdle = 0xff

// WritebackOutputs are the outputs of one sub-partition's writeback
// stage, sm_top.u_writeback_N: an instruction of its warps whose
// destination registers become available in the cycle (the one issued
// last when several do; Count says how many). wb_warp_o and wb_pc_o hold
// when nothing writes back.
type WritebackOutputs struct {
	Valid bool   `sv:"wb_valid_o"`
	Warp  uint16 `sv:"wb_warp_o" width:"WarpSlotWidth"`
	PC    uint32 `sv:"wb_pc_o"`
	Count uint8  `sv:"wb_count_o" width:"4"` // saturates at 15
}

// BarrierCTA is one CTA slot of the barrier unit, sm_top.u_barrier.g_cta[K].
// A CTA keeps its slot while resident; a new one takes the lowest free
// slot, in launch order.
type BarrierCTA struct {
	Valid  bool   `sv:"valid_q"`
	Linear uint32 `sv:"cta_id_q"` // linear CTA index in the grid
}

// BarrierRegs are one named barrier of a CTA slot, ...g_cta[K].g_bar[B].
type BarrierRegs struct {
	Arrived  uint16 `sv:"arrived_q" width:"ThreadCountWidth"`  // threads arrived in the current phase
	Expected uint16 `sv:"expected_q" width:"ThreadCountWidth"` // thread count; 0: all of the CTA
	Waiting  uint32 `sv:"waiting_q" width:"WarpsPerCTA"`       // warps of the CTA blocked on it
}

// TopTable returns the signal table of struct T (one of this file's) under
// scope, with the widths of p.
func TopTable[T any](scope string, p TopParams) rtl.Table {
	var zero T
	return rtl.MustSignals(scope, p, zero)
}

// StatusNames are the run statuses in the order of status_o's encoding.
func StatusNames() []string {
	return []string{StatusRunning, StatusCompleted, StatusTrapped, StatusFault, StatusDeadlock, StatusCycleLimit}
}

// StatusCode is status_o's value for run status s.
func StatusCode(s string) uint8 {
	for i, n := range StatusNames() {
		if n == s {
			return uint8(i)
		}
	}
	return 0
}

// IssueOut returns the issue stages' outputs in the current cycle (after
// the schedulers chose; by scheduler), as the OnCycle and OnIssue hooks
// see them: the SM computes them only when a hook is registered. The
// slice is the SM's: read it in a hook, do not keep it.
func (sm *SM) IssueOut() []IssueOutputs { return sm.issOut }

// WritebackOut returns the writeback stages' outputs in the current cycle
// (by scheduler). The slice is the SM's: read it, do not keep it past the
// cycle.
func (sm *SM) WritebackOut() []WritebackOutputs { return sm.wb.out }
