// reg_pool's statistics outputs and the observers' views of its registers.

package regpool

import (
	"github.com/smsim/smsim/rtl"
)

// stats drives the statistics outputs from the registers.
func (u *Pool) stats(in *Inputs) {
	q, o := &u.q, &u.out
	o.RFUsed = q.RFUsed
	c, w := int(in.StatCTA), int(in.StatWarp)
	if c >= u.p.NumCTAs || !q.Valid.Has(c) {
		return
	}
	o.StatValid = true
	o.StatAlloc, o.StatFree = alloc(q, c), q.Free[c]
	o.StatUsed, o.StatHighWater = used(q, c), q.HighWater[c]
	if w < int(q.NWarps[c]) {
		g := w / WarpsPerGroup
		o.StatNReg, o.StatBlockedCycles = q.NReg[c][g], q.BlkCycles[c][g]
	}
}

// CTAStats is the pool of one CTA.
type CTAStats struct {
	Valid     bool   // the slot holds a CTA
	Alloc     uint32 // pool size: every register the CTA owns (launch count x 32 x warps)
	Free      uint32 // registers in the pool
	Used      uint32 // registers the warps own above the launch count (taken from the pool)
	HighWater uint32 // most registers used from the pool at once
	LaunchReg int    // the launch count per thread
	Effect    bool   // launched with a valid maxnreg (setmaxnreg takes effect)
}

// CTAStats reads CTA slot c's pool from the registers (Q); the pipeline
// calls it when the CTA exits, before the cycle's Tick.
func (u *Pool) CTAStats(c int) CTAStats {
	q := &u.q
	if c < 0 || c >= u.p.NumCTAs || !q.Valid.Has(c) {
		return CTAStats{}
	}
	return CTAStats{
		Valid: true, Alloc: alloc(q, c), Free: q.Free[c], Used: used(q, c),
		HighWater: q.HighWater[c], LaunchReg: int(q.LaunchNReg[c]), Effect: q.Effect.Has(c),
	}
}

// WarpStats reads warp w of CTA slot c from the registers (Q): its current
// per-thread count and the cycles it spent blocked in .inc. ok is false
// when there is no such warp.
func (u *Pool) WarpStats(c, w int) (nreg int, blocked uint64, ok bool) {
	q := &u.q
	if c < 0 || c >= u.p.NumCTAs || !q.Valid.Has(c) || w < 0 || w >= int(q.NWarps[c]) {
		return 0, 0, false
	}
	g := w / WarpsPerGroup
	return int(q.NReg[c][g]), q.BlkCycles[c][g], true
}

// GroupBlocked reports whether the warpgroup of warp w of CTA slot c is
// blocked in .inc (in Q: after Tick, the cycle's outcome).
func (u *Pool) GroupBlocked(c, w int) bool {
	if c < 0 || c >= u.p.NumCTAs || w < 0 || w >= MaxCTAWarps {
		return false
	}
	return u.q.Blk[c]>>uint(w/WarpsPerGroup)&1 != 0
}

// Blocked reports whether some warpgroup is blocked in .inc (in Q). While
// it is false and a cycle's inputs carry no event, Eval leaves D = Q and
// drives only the statistics outputs.
func (u *Pool) Blocked() bool { return u.q.BlkAny.Any() }

// Signals returns the unit's signal table under the instance path scope
// ("sm_top.u_reg_pool").
func (u *Pool) Signals(scope string) rtl.Table {
	return rtl.MustSignals(scope, u.p, Inputs{}, Outputs{}, State{})
}
