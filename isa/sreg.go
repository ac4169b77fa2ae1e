package isa

import "fmt"

// SReg identifies a special register (S2R's Imm field). Vector registers of
// seed 003 (%tid, %ntid, %ctaid, ...) have one id per component; the fourth
// component is unused and always reads zero, so the assembler lowers it to a
// move of 0.
type SReg uint16

const (
	SRTidX SReg = iota
	SRTidY
	SRTidZ
	SRNTidX
	SRNTidY
	SRNTidZ
	SRLaneID
	SRWarpID
	SRNWarpID
	SRCtaIDX
	SRCtaIDY
	SRCtaIDZ
	SRNCtaIDX
	SRNCtaIDY
	SRNCtaIDZ
	SRSmID
	SRNSmID
	SRGridID
	SRIsExplicitCluster
	SRClusterIDX
	SRClusterIDY
	SRClusterIDZ
	SRNClusterIDX
	SRNClusterIDY
	SRNClusterIDZ
	SRClusterCtaIDX
	SRClusterCtaIDY
	SRClusterCtaIDZ
	SRClusterNCtaIDX
	SRClusterNCtaIDY
	SRClusterNCtaIDZ
	SRClusterCtaRank
	SRClusterNCtaRank
	SRLanemaskEQ
	SRLanemaskLE
	SRLanemaskLT
	SRLanemaskGE
	SRLanemaskGT
	SRClock
	SRClockHi
	SRClock64
	SRGlobalTimer
	SRGlobalTimerLo
	SRGlobalTimerHi
	SRTotalSmemSize
	SRAggrSmemSize
	SRDynamicSmemSize
	SRCurrentGraphExec
	SRReservedSmemBegin
	SRReservedSmemEnd
	SRReservedSmemCap
	SRReservedSmem0
	SRReservedSmem1
	SRGlobalESR              // SASS SR_GLOBAL_ESR
	SRWarpESR                // SASS SR_WARP_ESR
	SRPM0                    // %pm0..%pm7
	SRPM0_64    = SRPM0 + 8  // %pm0_64..%pm7_64
	SREnvReg0   = SRPM0 + 16 // %envreg0..%envreg31
	SRCount     = SREnvReg0 + 32
)

type sregInfo struct {
	name string // PTX spelling with component, e.g. "%tid.x"
	typ  Type   // natural type
}

var sregTable = func() []sregInfo {
	t := make([]sregInfo, SRCount)
	set := func(id SReg, name string, typ Type) { t[id] = sregInfo{name, typ} }
	vec := func(id SReg, base string) {
		for i, c := range []string{"x", "y", "z"} {
			set(id+SReg(i), base+"."+c, U32)
		}
	}
	vec(SRTidX, "%tid")
	vec(SRNTidX, "%ntid")
	vec(SRCtaIDX, "%ctaid")
	vec(SRNCtaIDX, "%nctaid")
	vec(SRClusterIDX, "%clusterid")
	vec(SRNClusterIDX, "%nclusterid")
	vec(SRClusterCtaIDX, "%cluster_ctaid")
	vec(SRClusterNCtaIDX, "%cluster_nctaid")
	set(SRLaneID, "%laneid", U32)
	set(SRWarpID, "%warpid", U32)
	set(SRNWarpID, "%nwarpid", U32)
	set(SRSmID, "%smid", U32)
	set(SRNSmID, "%nsmid", U32)
	set(SRGridID, "%gridid", U64)
	set(SRIsExplicitCluster, "%is_explicit_cluster", Pred)
	set(SRClusterCtaRank, "%cluster_ctarank", U32)
	set(SRClusterNCtaRank, "%cluster_nctarank", U32)
	set(SRLanemaskEQ, "%lanemask_eq", U32)
	set(SRLanemaskLE, "%lanemask_le", U32)
	set(SRLanemaskLT, "%lanemask_lt", U32)
	set(SRLanemaskGE, "%lanemask_ge", U32)
	set(SRLanemaskGT, "%lanemask_gt", U32)
	set(SRClock, "%clock", U32)
	set(SRClockHi, "%clock_hi", U32)
	set(SRClock64, "%clock64", U64)
	set(SRGlobalTimer, "%globaltimer", U64)
	set(SRGlobalTimerLo, "%globaltimer_lo", U32)
	set(SRGlobalTimerHi, "%globaltimer_hi", U32)
	set(SRTotalSmemSize, "%total_smem_size", U32)
	set(SRAggrSmemSize, "%aggr_smem_size", U32)
	set(SRDynamicSmemSize, "%dynamic_smem_size", U32)
	set(SRCurrentGraphExec, "%current_graph_exec", U64)
	set(SRReservedSmemBegin, "%reserved_smem_offset_begin", B32)
	set(SRReservedSmemEnd, "%reserved_smem_offset_end", B32)
	set(SRReservedSmemCap, "%reserved_smem_offset_cap", B32)
	set(SRReservedSmem0, "%reserved_smem_offset_0", B32)
	set(SRReservedSmem1, "%reserved_smem_offset_1", B32)
	set(SRGlobalESR, "SR_GLOBAL_ESR", U32)
	set(SRWarpESR, "SR_WARP_ESR", U32)
	for i := 0; i < 8; i++ {
		set(SRPM0+SReg(i), fmt.Sprintf("%%pm%d", i), U32)
		set(SRPM0_64+SReg(i), fmt.Sprintf("%%pm%d_64", i), U64)
	}
	for i := 0; i < 32; i++ {
		set(SREnvReg0+SReg(i), fmt.Sprintf("%%envreg%d", i), B32)
	}
	return t
}()

func (s SReg) String() string {
	if int(s) < len(sregTable) {
		return sregTable[s].name
	}
	return fmt.Sprintf("SR%d", uint16(s))
}

// Type is the special register's natural type.
func (s SReg) Type() Type {
	if int(s) < len(sregTable) {
		return sregTable[s].typ
	}
	return NoType
}

// Valid reports a defined special register.
func (s SReg) Valid() bool { return s < SRCount }

// LookupSReg finds a special register by its full spelling ("%tid.x",
// "%clock64", "SR_WARP_ESR").
func LookupSReg(name string) (SReg, bool) {
	for i, e := range sregTable {
		if e.name == name {
			return SReg(i), true
		}
	}
	return 0, false
}

// SRegVectorBases lists the vector special registers (read whole with mov.v4).
var SRegVectorBases = []string{"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid", "%nclusterid", "%cluster_ctaid", "%cluster_nctaid"}

// IsSRegVector reports whether base names a vector special register.
func IsSRegVector(base string) bool {
	for _, b := range SRegVectorBases {
		if b == base {
			return true
		}
	}
	return false
}
