// reg_pool's parameters (the Verilog module's) and their derived counts.

package regpool

import (
	"fmt"
)

// Params are the parameters of the reg_pool module.
type Params struct {
	// NumCTAs is the number of CTA slots (sm.max_ctas), 1..MaxCTAs.
	NumCTAs int
	// NumPorts is the number of arrival, exit and barrier-release ports
	// (sched.count: one instruction issue per scheduler per cycle),
	// 1..MaxPorts.
	NumPorts int
	// AllocGranularity: the launch count is rounded up to a multiple of it
	// (regpool.alloc_granularity); 1..8, a divisor of 8.
	AllocGranularity int
	// MaxThreadsPerCTA bounds kern_threads_i (sm.max_threads_per_cta).
	MaxThreadsPerCTA int
	// MaxRegsPerThread bounds the rounded launch count
	// (sm.max_regs_per_thread).
	MaxRegsPerThread int
	// Regfile is the SM's register file in 32-bit registers (sm.regfile);
	// RegAllocUnit the per-warp allocation granularity of it
	// (sm.reg_alloc_unit). A CTA's footprint is its warps times its
	// per-warp registers rounded up to RegAllocUnit; setmaxnreg moves
	// registers inside the CTA and never changes the footprint.
	Regfile      int
	RegAllocUnit int
}

// NumRel is the number of release records in use (2*NumPorts+1).
func (p Params) NumRel() int { return 2*p.NumPorts + 1 }

// NumUB is the number of undefined-behaviour report records
// (2*NumPorts: one per exit port and one per arrive port).
func (p Params) NumUB() int { return 2 * p.NumPorts }

// Groups is the number of warpgroups per CTA slot (MaxGroups), for the
// width expressions of the per-warpgroup registers.
func (Params) Groups() int { return MaxGroups }

// RelGrant is the index of the grant arbiter's release record.
func (p Params) RelGrant() int { return 2 * p.NumPorts }

// RelExit is the index of exit port i's release record (and UB report).
func (p Params) RelExit(i int) int { return p.NumPorts + i }

func (p Params) check() error {
	switch {
	case p.NumCTAs < 1 || p.NumCTAs > MaxCTAs:
		return fmt.Errorf("regpool: NumCTAs %d outside 1..%d", p.NumCTAs, MaxCTAs)
	case p.NumPorts < 1 || p.NumPorts > MaxPorts:
		return fmt.Errorf("regpool: NumPorts %d outside 1..%d", p.NumPorts, MaxPorts)
	case p.AllocGranularity < 1 || p.AllocGranularity > 8 || 8%p.AllocGranularity != 0:
		return fmt.Errorf("regpool: AllocGranularity %d must divide 8", p.AllocGranularity)
	case p.MaxThreadsPerCTA < 1 || p.MaxThreadsPerCTA > MaxCTAWarps*WarpSize:
		return fmt.Errorf("regpool: MaxThreadsPerCTA %d outside 1..%d", p.MaxThreadsPerCTA, MaxCTAWarps*WarpSize)
	case p.MaxRegsPerThread < 1 || p.MaxRegsPerThread > MaxCount:
		return fmt.Errorf("regpool: MaxRegsPerThread %d outside 1..%d", p.MaxRegsPerThread, MaxCount)
	case p.Regfile < 1 || p.Regfile > 1<<30:
		return fmt.Errorf("regpool: Regfile %d outside 1..%d", p.Regfile, 1<<30)
	case p.RegAllocUnit < 1 || p.RegAllocUnit > 1<<20:
		return fmt.Errorf("regpool: RegAllocUnit %d outside 1..%d", p.RegAllocUnit, 1<<20)
	}
	return nil
}
