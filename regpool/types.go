package regpool

import (
	"strings"

	"github.com/smsim/smsim/rtl"
)

// Fixed sizes of the unit's arrays (the Verilog array bounds). Params select
// how much of each is used; the rest stays zero.
const (
	// MaxCTAs bounds Params.NumCTAs (config sm.max_ctas allows 1024).
	MaxCTAs = 1024
	// MaxCTAWarps is the most warps a CTA can have (1024 threads / 32).
	MaxCTAWarps = 32
	// WarpsPerGroup is the size of a warpgroup: four contiguous warps of
	// the CTA, warp-in-CTA / 4 (PTX "warpgroup").
	WarpsPerGroup = 4
	// MaxGroups is the most warpgroups a CTA can have.
	MaxGroups = MaxCTAWarps / WarpsPerGroup
	// MaxPorts bounds Params.NumPorts (config sched.count allows 8).
	MaxPorts = 8
	// MaxRel is the number of release records: one per arrival port, one
	// per exit port, one for the grant arbiter.
	MaxRel = 2*MaxPorts + 1
	// MaxUB is the number of UB reports: one per arrival port, one per
	// exit port.
	MaxUB = 2 * MaxPorts
	// WarpSize is the number of threads (lanes) of a warp; registers are
	// allocated for all 32 lanes of a warp.
	WarpSize = 32
	// MinCount and MaxCount bound setmaxnreg's imm-reg-count, which must
	// also be a multiple of CountStep (seed 000/001).
	MinCount  = 24
	MaxCount  = 256
	CountStep = 8
)

// UBKind is a set of undefined behaviours (ub_kind_o, a bit mask) of
// setmaxnreg; the trap unit reports them under ESR code SETMAXNREG_UB.
type UBKind uint8

// The undefined behaviours the unit detects.
const (
	// UBNotAllWarps: the setmaxnreg is not executed by all warps of the
	// warpgroup: a warp of the warpgroup exited (before or while the
	// others wait), or a warp reached a different setmaxnreg (another PC,
	// count or action) while others of its warpgroup wait.
	UBNotAllWarps UBKind = 1 << iota
	// UBNoSyncBetween: a warp executes a setmaxnreg after a previous one
	// without an explicit synchronization of its warpgroup in between.
	UBNoSyncBetween
	// UBDecAbove: .dec to a count above the warp's current count.
	UBDecAbove
	// UBIncBelow: .inc to a count below the warp's current count.
	UBIncBelow
	// UBPartialWarp: executed by a subset of the warp's threads.
	UBPartialWarp
)

// String lists the kinds, e.g. "NOT_ALL_WARPS|DEC_ABOVE" ("" for none).
func (k UBKind) String() string {
	var parts []string
	for b := UBNotAllWarps; b <= UBPartialWarp; b <<= 1 {
		if k&b != 0 {
			parts = append(parts, ubName(b))
		}
	}
	if rest := k &^ (UBNotAllWarps | UBNoSyncBetween | UBDecAbove | UBIncBelow | UBPartialWarp); rest != 0 {
		parts = append(parts, "UB?")
	}
	return strings.Join(parts, "|")
}

func ubName(b UBKind) string {
	switch b {
	case UBNotAllWarps:
		return "NOT_ALL_WARPS"
	case UBNoSyncBetween:
		return "NO_SYNC_BETWEEN"
	case UBDecAbove:
		return "DEC_ABOVE"
	case UBIncBelow:
		return "INC_BELOW"
	case UBPartialWarp:
		return "PARTIAL_WARP"
	}
	return "UB?"
}

// Describe is a one-line explanation of the kinds for an error message.
func (k UBKind) Describe() string {
	var parts []string
	for b := UBNotAllWarps; b <= UBPartialWarp; b <<= 1 {
		if k&b == 0 {
			continue
		}
		switch b {
		case UBNotAllWarps:
			parts = append(parts, "setmaxnreg not executed by all warps of the warpgroup")
		case UBNoSyncBetween:
			parts = append(parts, "second setmaxnreg without an explicit warpgroup synchronization in between")
		case UBDecAbove:
			parts = append(parts, "setmaxnreg.dec to a count above the warp's current count")
		case UBIncBelow:
			parts = append(parts, "setmaxnreg.inc to a count below the warp's current count")
		case UBPartialWarp:
			parts = append(parts, "setmaxnreg executed by a subset of the warp's threads")
		}
	}
	return strings.Join(parts, "; ")
}

// ErrCode is a protocol error (err_code_o): the pipeline drove the unit in
// a way the integration contract forbids. It is a bug of the model, not of
// the simulated program; the unit ignores the offending event (except where
// noted) and carries on.
type ErrCode uint8

// The protocol errors.
const (
	ErrNone ErrCode = iota
	// ErrLaunchBusy: cta_launch_i for a CTA slot in use (ignored).
	ErrLaunchBusy
	// ErrLaunchShape: kern_threads_i not in 1..MaxThreadsPerCTA, or the
	// rounded kern_nreg_i above MaxRegsPerThread (launch ignored).
	ErrLaunchShape
	// ErrLaunchRegfile: the CTA's registers do not fit the register file
	// next to the resident CTAs (launch ignored).
	ErrLaunchRegfile
	// ErrCTAExitIdle: cta_exit_i for a CTA slot not in use.
	ErrCTAExitIdle
	// ErrCTAExitLive: cta_exit_i while a warp of the CTA has not exited
	// (the CTA is released anyway).
	ErrCTAExitLive
	// ErrNoCTA: an exit, sync or arrival for a CTA slot not in use.
	ErrNoCTA
	// ErrBadWarp: a warp index at or above the CTA's warp count.
	ErrBadWarp
	// ErrExited: an exit or arrival of a warp that already exited.
	ErrExited
	// ErrBusy: an arrival of a warp held at a setmaxnreg (ignored), or the
	// exit of such a warp (its warpgroup's setmaxnreg is abandoned).
	ErrBusy
	// ErrBadCount: arrive_count_i not in 24..256 or not a multiple of 8
	// (the pipeline faults illegal_instruction before; ignored).
	ErrBadCount
)

// String names the error.
func (e ErrCode) String() string {
	switch e {
	case ErrNone:
		return "none"
	case ErrLaunchBusy:
		return "launch into a CTA slot in use"
	case ErrLaunchShape:
		return "launch shape out of range"
	case ErrLaunchRegfile:
		return "CTA registers exceed the register file"
	case ErrCTAExitIdle:
		return "exit of a CTA slot not in use"
	case ErrCTAExitLive:
		return "CTA exit with warps not exited"
	case ErrNoCTA:
		return "event for a CTA slot not in use"
	case ErrBadWarp:
		return "warp index beyond the CTA's warps"
	case ErrExited:
		return "event for an exited warp"
	case ErrBusy:
		return "event for a warp held at setmaxnreg"
	case ErrBadCount:
		return "setmaxnreg count not in 24..256 or not a multiple of 8"
	}
	return "err?"
}

// Inputs are the ports the pipeline drives each cycle. CTAs are named by
// their CTA slot (0..NumCTAs-1), warps by their index in the CTA
// (0..31). Port arrays hold NumPorts entries (one per warp scheduler: an
// arrival, an exit and a barrier release are consequences of an issued
// instruction).
type Inputs struct {
	// The launch shape, the same for every CTA of the kernel: threads per
	// CTA, the per-thread register count the launch gives (the kernel's
	// .maxnreg or --maxnreg; else the kernel's own count) and whether that
	// is a valid maximum register count (.maxnreg or --maxnreg given). The
	// unit rounds kern_nreg_i up to AllocGranularity.
	KernThreads   uint16 `sv:"kern_threads_i" width:"11"`
	KernNReg      uint16 `sv:"kern_nreg_i" width:"9"`
	KernNRegValid bool   `sv:"kern_nreg_valid_i"`
	// CTALaunch: a CTA is launched into each set slot this cycle.
	CTALaunch rtl.Bits `sv:"cta_launch_i" width:"NumCTAs"`
	// CTAExit: each set slot's CTA has finished (all warps exited and
	// drained); its registers return to the register file.
	CTAExit rtl.Bits `sv:"cta_exit_i" width:"NumCTAs"`

	// Warp exits: the last thread of the warp exited this cycle.
	ExitValid [MaxPorts]bool   `sv:"exit_valid_i" width:"NumPorts"`
	ExitCTA   [MaxPorts]uint16 `sv:"exit_cta_i" width:"NumPorts*idx(NumCTAs)" elem:"idx(NumCTAs)"`
	ExitWarp  [MaxPorts]uint8  `sv:"exit_warp_i" width:"NumPorts*5" elem:"5"`

	// Barrier releases: one entry per barrier (bar.sync, barrier.sync,
	// bar.red) released this cycle: the CTA and the warps (bit i: warp i
	// of the CTA) the release lets go. A warpgroup all of whose
	// non-exited warps are in the mask has synchronized explicitly.
	SyncValid [MaxPorts]bool   `sv:"sync_valid_i" width:"NumPorts"`
	SyncCTA   [MaxPorts]uint16 `sv:"sync_cta_i" width:"NumPorts*idx(NumCTAs)" elem:"idx(NumCTAs)"`
	SyncWarps [MaxPorts]uint32 `sv:"sync_warps_i" width:"NumPorts*32"`

	// Arrivals: a warp executes setmaxnreg this cycle (it is then held
	// until a release record names it). PC, count and action identify
	// "the same setmaxnreg"; FullWarp is false when only a subset of the
	// warp's threads executes it.
	ArriveValid    [MaxPorts]bool   `sv:"arrive_valid_i" width:"NumPorts"`
	ArriveCTA      [MaxPorts]uint16 `sv:"arrive_cta_i" width:"NumPorts*idx(NumCTAs)" elem:"idx(NumCTAs)"`
	ArriveWarp     [MaxPorts]uint8  `sv:"arrive_warp_i" width:"NumPorts*5" elem:"5"`
	ArrivePC       [MaxPorts]uint32 `sv:"arrive_pc_i" width:"NumPorts*32"`
	ArriveInc      [MaxPorts]bool   `sv:"arrive_inc_i" width:"NumPorts"`
	ArriveCount    [MaxPorts]uint16 `sv:"arrive_count_i" width:"NumPorts*9" elem:"9"`
	ArriveFullWarp [MaxPorts]bool   `sv:"arrive_full_warp_i" width:"NumPorts"`

	// Statistics read port: selects the CTA and warp the stat_*_o
	// outputs describe.
	StatCTA  uint16 `sv:"stat_cta_i" width:"idx(NumCTAs)"`
	StatWarp uint8  `sv:"stat_warp_i" width:"5"`
}

// Outputs are the unit's ports.
//
// Release records (rel_*): entry p < NumPorts belongs to arrival port p,
// entry NumPorts+p to exit port p, entry 2*NumPorts to the grant arbiter.
// A valid record releases the warps rel_warps_o of CTA rel_cta_o: their
// setmaxnreg is complete and they may issue from the next cycle. Each warp
// now owns rel_new_o registers per thread, formerly rel_old_o; when new >
// old, registers [old, new) are new and undefined until written; when new <
// old, registers [new, old) are gone (the tail of the register file).
//
// UB reports (ub_*): entry p belongs to arrival port p (the arriving warp),
// entry NumPorts+p to exit port p (the exiting warp).
type Outputs struct {
	RelValid    [MaxRel]bool   `sv:"rel_valid_o" width:"NumRel"`
	RelCTA      [MaxRel]uint16 `sv:"rel_cta_o" width:"NumRel*idx(NumCTAs)" elem:"idx(NumCTAs)"`
	RelWarps    [MaxRel]uint32 `sv:"rel_warps_o" width:"NumRel*32"`
	RelOld      [MaxRel]uint16 `sv:"rel_old_o" width:"NumRel*9" elem:"9"`
	RelNew      [MaxRel]uint16 `sv:"rel_new_o" width:"NumRel*9" elem:"9"`
	RelNoEffect [MaxRel]bool   `sv:"rel_noeffect_o" width:"NumRel"` // no valid maxnreg at launch: nothing changed (warning)

	UBValid [MaxUB]bool   `sv:"ub_valid_o" width:"NumUB"`
	UBCTA   [MaxUB]uint16 `sv:"ub_cta_o" width:"NumUB*idx(NumCTAs)" elem:"idx(NumCTAs)"`
	UBWarp  [MaxUB]uint8  `sv:"ub_warp_o" width:"NumUB*5" elem:"5"`
	UBKind  [MaxUB]UBKind `sv:"ub_kind_o" width:"NumUB*5" elem:"5"`

	// The first protocol error of the cycle.
	ErrValid bool    `sv:"err_valid_o"`
	ErrCode  ErrCode `sv:"err_code_o" width:"4"`
	ErrCTA   uint16  `sv:"err_cta_o" width:"idx(NumCTAs)"`
	ErrWarp  uint8   `sv:"err_warp_o" width:"5"`

	// Deadlock support, after this cycle's grants: some warpgroup is
	// blocked in .inc; some blocked warpgroup's request can never be
	// satisfied. For the lowest such CTA: the warps of its unsatisfiable
	// warpgroups, the first one's request (registers), the pool's free
	// registers and the most the pool could ever hold for it (free plus
	// everything the CTA's other warpgroups could still release).
	IncBlocked    bool   `sv:"inc_blocked_o"`
	IncUnsat      bool   `sv:"inc_unsatisfiable_o"`
	IncUnsatCTA   uint16 `sv:"inc_unsat_cta_o" width:"idx(NumCTAs)"`
	IncUnsatWarps uint32 `sv:"inc_unsat_warps_o"`
	IncUnsatNeed  uint32 `sv:"inc_unsat_need_o"`
	IncUnsatFree  uint32 `sv:"inc_unsat_free_o"`
	IncUnsatMax   uint32 `sv:"inc_unsat_max_o"`

	// Statistics (from the registers, i.e. as of the start of the cycle):
	// registers held by resident CTAs (register-file footprint), and for
	// stat_cta_i / stat_warp_i: the CTA's pool size (its whole
	// allocation), free registers, registers used from the pool (above the
	// launch count), their high-water mark, the warp's current per-thread
	// count and its cycles blocked in .inc.
	RFUsed            uint32 `sv:"rf_used_o"`
	StatValid         bool   `sv:"stat_valid_o"`
	StatAlloc         uint32 `sv:"stat_alloc_o"`
	StatFree          uint32 `sv:"stat_free_o"`
	StatUsed          uint32 `sv:"stat_used_o"`
	StatHighWater     uint32 `sv:"stat_high_water_o"`
	StatNReg          uint16 `sv:"stat_nreg_o" width:"9"`
	StatBlockedCycles uint64 `sv:"stat_blocked_cycles_o"`
}

// State holds the unit's registers. Per-CTA arrays are indexed by CTA slot;
// per-warpgroup arrays by CTA slot and warpgroup. The warps of a warpgroup
// always own the same count (they change together), so counts and blocked
// cycles are kept per warpgroup.
type State struct {
	// Global registers.
	Valid   rtl.Bits `sv:"cta_valid_q" width:"NumCTAs"`     // slot holds a CTA
	Effect  rtl.Bits `sv:"cta_effect_q" width:"NumCTAs"`    // launched with a valid maxnreg: setmaxnreg takes effect
	BlkAny  rtl.Bits `sv:"cta_blk_any_q" width:"NumCTAs"`   // some warpgroup of the CTA is blocked in .inc
	RFUsed  uint32   `sv:"rf_used_q"`                       // register-file footprint of the resident CTAs
	GrantRR uint16   `sv:"grant_rr_q" width:"idx(NumCTAs)"` // CTA of the last grant (round-robin)

	// Per CTA.
	NWarps     [MaxCTAs]uint8  `sv:"cta_nwarps_q" width:"NumCTAs*6" elem:"6"`
	LaunchNReg [MaxCTAs]uint16 `sv:"cta_launch_nreg_q" width:"NumCTAs*9" elem:"9"` // launch count, rounded to AllocGranularity
	Free       [MaxCTAs]uint32 `sv:"cta_free_q" width:"NumCTAs*32"`                // registers in the pool
	HighWater  [MaxCTAs]uint32 `sv:"cta_high_water_q" width:"NumCTAs*32"`          // most registers used from the pool
	Exited     [MaxCTAs]uint32 `sv:"cta_exited_q" width:"NumCTAs*32"`              // warps that exited
	Wait       [MaxCTAs]uint32 `sv:"cta_wait_q" width:"NumCTAs*32"`                // warps waiting for their warpgroup at a setmaxnreg
	Blk        [MaxCTAs]uint8  `sv:"cta_blk_q" width:"NumCTAs*8"`                  // warpgroups blocked in .inc
	Unsync     [MaxCTAs]uint8  `sv:"cta_unsync_q" width:"NumCTAs*8"`               // warpgroups that executed setmaxnreg and have not synchronized since
	Inc        [MaxCTAs]uint8  `sv:"wg_inc_q" width:"NumCTAs*8"`                   // action of the setmaxnreg each warpgroup is at

	// Per warpgroup.
	NReg      [MaxCTAs][MaxGroups]uint16 `sv:"wg_nreg_q" width:"NumCTAs*Groups*9" elem:"9"`  // current per-thread count of the warps
	PC        [MaxCTAs][MaxGroups]uint32 `sv:"wg_pc_q" width:"NumCTAs*Groups*32"`            // PC of the setmaxnreg the warps are at
	Count     [MaxCTAs][MaxGroups]uint16 `sv:"wg_count_q" width:"NumCTAs*Groups*9" elem:"9"` // its imm-reg-count
	BlkCycles [MaxCTAs][MaxGroups]uint64 `sv:"wg_blk_cycles_q" width:"NumCTAs*Groups*64"`    // cycles blocked in .inc (each warp's count)
}

// copyGlobal copies the global registers (keep in step with State).
func copyGlobal(dst, src *State) {
	dst.Valid, dst.Effect, dst.BlkAny = src.Valid, src.Effect, src.BlkAny
	dst.RFUsed, dst.GrantRR = src.RFUsed, src.GrantRR
}

// copyCTA copies CTA c's per-CTA and per-warpgroup registers.
func copyCTA(dst, src *State, c int) {
	dst.NWarps[c], dst.LaunchNReg[c] = src.NWarps[c], src.LaunchNReg[c]
	dst.Free[c], dst.HighWater[c] = src.Free[c], src.HighWater[c]
	dst.Exited[c], dst.Wait[c] = src.Exited[c], src.Wait[c]
	dst.Blk[c], dst.Unsync[c], dst.Inc[c] = src.Blk[c], src.Unsync[c], src.Inc[c]
	dst.NReg[c], dst.PC[c], dst.Count[c], dst.BlkCycles[c] = src.NReg[c], src.PC[c], src.Count[c], src.BlkCycles[c]
}

// zeroCTA clears CTA c's per-CTA and per-warpgroup registers.
func zeroCTA(s *State, c int) {
	s.NWarps[c], s.LaunchNReg[c] = 0, 0
	s.Free[c], s.HighWater[c] = 0, 0
	s.Exited[c], s.Wait[c] = 0, 0
	s.Blk[c], s.Unsync[c], s.Inc[c] = 0, 0, 0
	s.NReg[c], s.PC[c], s.Count[c], s.BlkCycles[c] = [MaxGroups]uint16{}, [MaxGroups]uint32{}, [MaxGroups]uint16{}, [MaxGroups]uint64{}
}
