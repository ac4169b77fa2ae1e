package pipeline

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/rtl"
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
}

// OnCycle registers f to be called every cycle (tracing, waveforms,
// debuggers). With no hook registered the SM does no observation work and
// may skip idle cycles in Run.
func (sm *SM) OnCycle(f func(*CycleInfo)) {
	sm.hooks = append(sm.hooks, f)
	if sm.info.Issued == nil {
		sm.info.Issued = make([]int, len(sm.scheds))
		sm.info.PCs = make([]uint32, len(sm.slots))
	}
}

// OnIssue registers f to be called for every issued warp instruction,
// after it executed.
func (sm *SM) OnIssue(f func(*IssueInfo)) { sm.issueHook = append(sm.issueHook, f) }

func (sm *SM) observe() {
	in := &sm.info
	in.Cycle = sm.cycle
	for i := range in.States {
		in.States[i] = StateIdle
		in.PCs[i] = 0
	}
	for _, w := range sm.resident {
		in.States[w.slot] = w.state
		in.PCs[w.slot] = w.gpc
	}
	for s, w := range sm.chosen {
		in.Issued[s] = -1
		if w != nil {
			in.Issued[s] = w.slot
		}
	}
	for _, h := range sm.hooks {
		h(in)
	}
}

// TrapEvent is a BPT, RTT or IDE instruction issued by a warp.
type TrapEvent struct {
	Cycle uint64
	Warp  int    // slot
	PC    uint32 // the instruction
	Inst  isa.Inst
	Mask  uint32 // the active group
	Exec  uint32 // lanes whose guard is true
}

// TrapUnit is the hook of the trap unit (seed 002: BPT.DRAIN/PAUSE/TRAP/
// INT, RTT, IDE.EN/DIS, the error status registers and the trap handler),
// which another unit implements. Without one (the default), BPT, RTT and
// IDE stop the run with a "trap_unit" fault: "trap unit not modelled yet".
// With one, Trap is called when the instruction issues; a nil error lets
// the warp continue at the next instruction, an error faults the run.
type TrapUnit interface {
	Trap(ev TrapEvent) error
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
