package pipeline

import (
	"fmt"
	"slices"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/warpsched"
)

// CycleInfo is what an OnCycle hook sees: the cycle and every warp slot's
// state, after the schedulers chose and before the issued instructions
// execute. The hook must not keep the pointer or the slices.
type CycleInfo struct {
	Cycle uint64
	// States is indexed by warp slot; free slots read StateIdle.
	States []WarpState
	// Issued holds, per scheduler, the slot it issued (-1: none).
	Issued []int
	// PCs is indexed by warp slot: the PC of the warp's active group.
	PCs []uint32
	// Masks is indexed by warp slot: the active group's lanes (0 for a
	// free slot or a warp with no runnable lane).
	Masks []uint32
	// NRegs is indexed by warp slot: the warp's registers per thread
	// (setmaxnreg's current count; 0 for a free slot).
	NRegs []uint16
	// SchedIn and SchedOut hold, per scheduler, the inputs it was
	// evaluated with this cycle and its outputs.
	SchedIn  []warpsched.Inputs
	SchedOut []warpsched.Outputs
	// CTAs lists the resident CTAs in launch order.
	CTAs []CTAInfo
	// Units holds the inputs the SM drove into trap_unit, clock_timer,
	// perf_mon and reg_pool in the previous cycle (Cycle-1; their inputs
	// of the current cycle are driven only after the hooks ran). Nil in
	// the first cycle and without a hook. After the run, Observe's Units
	// are the last cycle's.
	Units *UnitInputs

	// issue is the IssueInfo handed to OnIssue hooks, reused for every
	// issued instruction (kept here, in the SM's CycleInfo, so issuing
	// allocates nothing).
	issue IssueInfo
}

// UnitInputs are the inputs of the SM's clocked units other than the
// warp schedulers in one cycle, as the SM drove them (for cosimulation
// from a kernel run: package cosim/kernelrec).
type UnitInputs struct {
	Cycle uint64
	// Trap is what trap_unit was evaluated with. When TrapStepped is
	// false the SM skipped the unit this cycle (trapQuiescent: its Eval
	// would have changed no register); Trap then holds the inputs it
	// would have driven (no event, no host command), under which Eval
	// leaves the registers as they are.
	Trap        trapunit.Inputs
	TrapStepped bool
	Clock       clocktimer.Inputs
	Perf        perfmon.Inputs
	// RegPool is what the SM drove into reg_pool. RegPoolStepped is
	// false only in a cycle in which the run stopped at an instruction
	// (the unit's part of the cycle did not happen). The SM evaluates the
	// unit only in cycles with something to do; in the others these
	// inputs would leave every register as it is.
	RegPool        regpool.Inputs
	RegPoolStepped bool
}

// NumBarriers is the number of named barriers per CTA (bar ids 0..15).
const NumBarriers = numBarriers

// CTAInfo is one resident CTA as an observer sees it.
type CTAInfo struct {
	// Slot is the CTA slot the CTA holds while resident (the barrier
	// unit's g_cta[Slot] and reg_pool's): the lowest free one at its
	// launch.
	Slot   int
	Linear uint64    // linear index in the grid
	ID     [3]uint32 // %ctaid
	// Bars is the current phase of each named barrier.
	Bars [NumBarriers]BarrierInfo
}

// BarrierInfo is one named barrier of a CTA in its current phase.
type BarrierInfo struct {
	Arrived  uint32 // threads that arrived
	Expected uint32 // thread count; 0: every thread of the CTA
	Waiting  uint64 // warps (bit i: warp i of the CTA) with lanes blocked on it
}

// IssueInfo describes one issued warp instruction (OnIssue).
type IssueInfo struct {
	Cycle uint64
	Sched int    // scheduler
	Warp  int    // warp slot
	PC    uint32 // the instruction
	Mask  uint32 // the active group
	Exec  uint32 // the group lanes whose guard is true
	Inst  isa.Inst
	// Done is the cycle at which the instruction's destination registers
	// and predicates become available (its writeback), or 0 when it has
	// none.
	Done uint64
}

// OnCycle registers f to be called every cycle (tracing, waveforms,
// debuggers, cosimulation recorders). Observing never changes what the SM
// computes: Run and RunFor still skip idle stretches in one step, and
// show each skipped cycle to the hooks as a cycle in which nothing issued
// (see skipIdle). With no hook registered the SM does no observation
// work.
func (sm *SM) OnCycle(f func(*CycleInfo)) {
	sm.hooks = append(sm.hooks, f)
	sm.allocInfo()
}

func (sm *SM) allocInfo() {
	if sm.info.Issued == nil {
		sm.info.Issued = make([]int, len(sm.scheds))
		sm.info.PCs = make([]uint32, len(sm.slots))
		sm.info.Masks = make([]uint32, len(sm.slots))
		sm.info.NRegs = make([]uint16, len(sm.slots))
		sm.info.SchedOut = make([]warpsched.Outputs, len(sm.scheds))
	}
}

// OnIssue registers f to be called for every issued warp instruction,
// after it executed. The hook must not keep the pointer: the IssueInfo is
// reused for the next instruction.
func (sm *SM) OnIssue(f func(*IssueInfo)) {
	sm.issueHook = append(sm.issueHook, func(ii *IssueInfo) {
		sm.fillIssue(ii)
		f(ii)
	})
}

// fillIssue sets ii.Done from the warp's scoreboard, which the
// instruction has just updated.
func (sm *SM) fillIssue(ii *IssueInfo) {
	ii.Done = 0
	w := sm.slots[ii.Warp]
	if w == nil || int(ii.PC) >= len(sm.code) {
		return
	}
	d := &sm.code[ii.PC]
	if d.lat == latNone {
		return
	}
	for _, r := range d.dstR {
		ii.Done = max(ii.Done, w.rdy[r])
	}
	for _, p := range d.dstP {
		ii.Done = max(ii.Done, w.prdy[p])
	}
}

// Observe returns the observation of the SM's current state as an OnCycle
// hook sees it, for a last sample after the run ended or a look between
// Steps. Issued, SchedIn and SchedOut describe the last cycle stepped.
// The result is overwritten by the next call or cycle.
func (sm *SM) Observe() *CycleInfo {
	sm.allocInfo()
	sm.wb.eval(sm.cycle)
	sm.fillInfo()
	return &sm.info
}

// StallReason is the stall class of a warp state: the name of the
// config "stall:NAME" performance counters (config.StallStates, perf_mon's
// stall_count_i) it counts toward besides "any", or "" when it counts
// toward none (selected, idle, exited).
func (s WarpState) StallReason() string { return pmStall(s) }

// MaxResidentCTAs is the number of CTAs of this launch the SM holds at
// once.
func (sm *SM) MaxResidentCTAs() int { return sm.maxResident }

// WarpsPerCTA is the number of warps of each CTA of this launch.
func (sm *SM) WarpsPerCTA() int { return sm.warpsPerCTA }

func (sm *SM) fillInfo() {
	in := &sm.info
	in.Cycle = sm.cycle
	for i := range in.States {
		in.States[i] = StateIdle
	}
	clear(in.PCs)
	clear(in.Masks)
	clear(in.NRegs)
	for _, w := range sm.resident {
		in.States[w.slot] = sm.observedState(w)
		in.PCs[w.slot] = w.gpc
		in.Masks[w.slot] = w.gmask
		in.NRegs[w.slot] = uint16(w.nreg)
	}
	in.SchedIn = sm.schedIn
	in.Units = nil
	if sm.unitInOK {
		in.Units = &sm.unitIn
	}
	for s, slot := range sm.chosen {
		in.Issued[s] = -1
		in.SchedOut[s] = warpsched.Outputs{}
		if slot >= 0 {
			w := sm.slots[slot]
			in.Issued[s] = w.slot
			in.SchedOut[s] = warpsched.Outputs{IssueValid: true, IssueWarp: uint16(w.local)}
		}
	}
	in.CTAs = slices.Grow(in.CTAs[:0], len(sm.ctas))[:len(sm.ctas)]
	for i, c := range sm.ctas {
		ci := &in.CTAs[i]
		ci.Slot, ci.Linear, ci.ID = c.rps, c.linear, c.id
		for b := range c.bars {
			x := &c.bars[b]
			ci.Bars[b] = BarrierInfo{Arrived: uint32(x.threads), Expected: uint32(x.expected), Waiting: x.warps}
		}
	}
}

func (sm *SM) observe() {
	sm.fillInfo()
	for _, h := range sm.hooks {
		h(&sm.info)
	}
}

// Signals returns the signal table of the SM's clocked units, under the
// Verilog instance paths sm_top.u_warp_sched_N (the single source for
// tracers and cosimulation).
func (sm *SM) Signals() rtl.Table {
	var t rtl.Table
	for i, u := range sm.scheds {
		t = append(t, u.Signals(fmt.Sprintf("sm_top.u_warp_sched_%d", i))...)
	}
	return t
}

// Schedulers returns the warp scheduler units (for observers: read their
// Q and D; do not drive them).
func (sm *SM) Schedulers() []*warpsched.Sched { return sm.scheds }

// trapQuiescent reports that stepping trap_unit this cycle would change
// no register and no output, so trapTick may skip it. trapTick asks only
// when no event is driven, no launch lands on a slot with trap registers to
// reset (dirty), and the unit is at rest with no host command (busy):
// then, from trapunit.Unit.Eval, D = Q needs in addition that the SM is
// not trapped and that no quiet_q bit belongs to a warp that is gone or
// launched this cycle (whose bits Eval clears); and the outputs are those
// TrapOutputs derives from Q (no pulse, no host_ack_o/host_err_o, no
// return_to_user_o: nothing is paused; all_paused_o: not trapped).
func (sm *SM) trapQuiescent() bool {
	t := &sm.trap
	q := &t.q
	if q.SMTrapped {
		return false
	}
	// At rest (not busy), in_handler_q and paused_q are empty.
	if !t.quietAny {
		return true
	}
	stale := q.Quiet.AndNot(t.live.AndNot(t.launched))
	return !stale.Any()
}
