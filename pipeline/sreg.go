package pipeline

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/trapunit"
)

// sregValue is the value of special register id for lane l of w at the
// current cycle. The clock, timer and performance-counter registers are
// this cycle's outputs of clock_timer and perf_mon (units.go): %clock,
// %clock_hi and %clock64 are clock_o, clock_hi_o and clock64_o (the cycle
// counter, clock.start at reset), %globaltimer* the global timer at
// timer.resolution_ns granularity, %pmN and %pmN_64 the counters chosen by
// pm.counter.N as of the end of the previous cycle.
func (sm *SM) sregValue(w *warp, l int, id isa.SReg) uint64 {
	b := sm.block
	tid := uint32(w.inCTA*32 + l)
	cid := w.cta.id
	switch {
	case id >= isa.SRTidX && id <= isa.SRTidZ:
		switch id {
		case isa.SRTidX:
			return uint64(tid % b[0])
		case isa.SRTidY:
			return uint64(tid / b[0] % b[1])
		}
		return uint64(tid / (b[0] * b[1]))
	case id >= isa.SRNTidX && id <= isa.SRNTidZ:
		return uint64(b[id-isa.SRNTidX])
	case id >= isa.SRCtaIDX && id <= isa.SRCtaIDZ:
		return uint64(cid[id-isa.SRCtaIDX])
	case id >= isa.SRNCtaIDX && id <= isa.SRNCtaIDZ:
		return uint64(sm.grid[id-isa.SRNCtaIDX])
	case id >= isa.SRClusterIDX && id <= isa.SRClusterIDZ:
		k := id - isa.SRClusterIDX
		return uint64(cid[k] / sm.cluster[k])
	case id >= isa.SRNClusterIDX && id <= isa.SRNClusterIDZ:
		k := id - isa.SRNClusterIDX
		return uint64(sm.grid[k] / sm.cluster[k])
	case id >= isa.SRClusterCtaIDX && id <= isa.SRClusterCtaIDZ:
		k := id - isa.SRClusterCtaIDX
		return uint64(cid[k] % sm.cluster[k])
	case id >= isa.SRClusterNCtaIDX && id <= isa.SRClusterNCtaIDZ:
		return uint64(sm.cluster[id-isa.SRClusterNCtaIDX])
	case id >= isa.SRPM0 && id < isa.SRPM0+8:
		return uint64(uint32(sm.pmValue(int(id - isa.SRPM0))))
	case id >= isa.SRPM0_64 && id < isa.SRPM0_64+8:
		return sm.pmValue(int(id - isa.SRPM0_64))
	case id >= isa.SREnvReg0 && id < isa.SREnvReg0+32:
		return uint64(sm.cfg.Env.Regs[id-isa.SREnvReg0])
	}
	cs := sm.cluster
	switch id {
	case isa.SRLaneID:
		return uint64(l)
	case isa.SRWarpID:
		return uint64(w.slot)
	case isa.SRNWarpID:
		return uint64(sm.cfg.SM.MaxWarps)
	case isa.SRSmID:
		return uint64(sm.cfg.SM.ID)
	case isa.SRNSmID:
		return uint64(sm.cfg.SM.Count)
	case isa.SRGridID:
		return sm.cfg.Grid.ID
	case isa.SRIsExplicitCluster:
		return b2u(sm.explicitCluster)
	case isa.SRClusterCtaRank:
		x, y, z := cid[0]%cs[0], cid[1]%cs[1], cid[2]%cs[2]
		return uint64(x + cs[0]*(y+cs[1]*z))
	case isa.SRClusterNCtaRank:
		return uint64(cs[0] * cs[1] * cs[2])
	case isa.SRLanemaskEQ:
		return uint64(uint32(1) << uint(l))
	case isa.SRLanemaskLE:
		return uint64(uint32(uint64(2)<<uint(l) - 1))
	case isa.SRLanemaskLT:
		return uint64(uint32(1)<<uint(l) - 1)
	case isa.SRLanemaskGE:
		return uint64(^uint32(1<<uint(l) - 1))
	case isa.SRLanemaskGT:
		return uint64(^uint32(uint64(2)<<uint(l) - 1))
	case isa.SRClock:
		return uint64(sm.u.clock().Clock)
	case isa.SRClockHi:
		return uint64(sm.u.clock().ClockHi)
	case isa.SRClock64:
		return sm.u.clock().Clock64
	case isa.SRGlobalTimer:
		return sm.globalTimer()
	case isa.SRGlobalTimerLo:
		return uint64(sm.u.clock().GlobalTimerLo)
	case isa.SRGlobalTimerHi:
		return uint64(sm.u.clock().GlobalTimerHi)
	case isa.SRTotalSmemSize:
		return uint64(sm.totalSmem)
	case isa.SRAggrSmemSize:
		return uint64(sm.totalSmem + sm.reservedSmem)
	case isa.SRDynamicSmemSize:
		return uint64(sm.launch.DynamicSmem)
	case isa.SRCurrentGraphExec:
		return sm.cfg.Graph.Exec
	case isa.SRReservedSmemBegin, isa.SRReservedSmemEnd, isa.SRReservedSmemCap, isa.SRReservedSmem0, isa.SRReservedSmem1:
		r := sm.ReservedSmem()
		switch id {
		case isa.SRReservedSmemBegin:
			return uint64(r.Begin)
		case isa.SRReservedSmemEnd:
			return uint64(r.End)
		case isa.SRReservedSmemCap:
			return uint64(r.Cap)
		case isa.SRReservedSmem0:
			return uint64(r.Offset[0])
		}
		return uint64(r.Offset[1])
	case isa.SRGlobalESR:
		// trap_unit's s2r_global_esr_o: BPT_INT always reads 0 (seed 002).
		return uint64(sm.trap.q.GlobalESR &^ trapunit.GlobalESRBPTInt)
	case isa.SRWarpESR:
		if w.slot < trapunit.MaxWarps {
			return uint64(sm.trap.q.WarpESR[w.slot])
		}
		return 0
	}
	return 0
}

// ReservedRegion is the layout of the CTA's reserved shared-memory region
// (%reserved_smem_offset_begin, _end, _cap, _0, _1).
type ReservedRegion struct {
	Begin, End, Cap uint32
	Offset          [2]uint32
}

// ReservedSmem returns the reserved region's layout. It sits at the end of
// the CTA's allocation, right after the user region (static + dynamic
// shared memory rounded up to sm.smem_alloc_unit, normally
// %total_smem_size bytes): Begin = the user region's size, End = Begin +
// sm.reserved_smem_bytes, Cap = sm.reserved_smem_bytes, Offset[0] =
// Begin, Offset[1] = Begin + Cap/2. User accesses to it fault.
func (sm *SM) ReservedSmem() ReservedRegion {
	b := uint32(sm.smemSize)
	c := uint32(sm.reservedSmem)
	return ReservedRegion{Begin: b, End: b + c, Cap: c, Offset: [2]uint32{b, b + c/2}}
}
