package cosim

import (
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/unitcfg"
	"github.com/smsim/smsim/warpsched"
)

func policies() []warpsched.Policy {
	return []warpsched.Policy{warpsched.PolicyLRR, warpsched.PolicyGTO, warpsched.PolicyTwoLevel}
}

// WarpSched returns warp_sched at the parameters p.
func WarpSched(p warpsched.Params) (Unit, error) {
	params := []Param{{"NumWarps", p.NumWarps}, {"Policy", int(p.Policy)}, {"TwoLevelActive", p.TwoLevelActive}}
	return bindUnit("warp_sched", params, func() (*warpsched.Sched, error) { return warpsched.New(p) },
		func(s *warpsched.Sched) rtl.Table { return s.Signals("warp_sched") },
		func(seed uint64) func(uint64, *warpsched.Inputs) { return newWarpSchedStim(p.NumWarps, seed).next })
}

func warpSchedInfo() *UnitInfo {
	// The standard sets: the h100 preset's schedulers (16 warps, an active
	// set of 8) under each policy; the area sets: 8 and 16 warps under
	// each policy.
	var sets, area []warpsched.Params
	for _, pol := range policies() {
		sets = append(sets, warpsched.Params{NumWarps: 16, Policy: pol, TwoLevelActive: 8})
	}
	for _, n := range []int{8, 16} {
		for _, pol := range policies() {
			area = append(area, warpsched.Params{NumWarps: n, Policy: pol, TwoLevelActive: n / 2})
		}
	}
	return &UnitInfo{
		Module:     "warp_sched",
		Summary:    "warp scheduler of one SM sub-partition (lrr, gto, two_level)",
		Sets:       func() ([]Unit, error) { return units(WarpSched, sets...) },
		AreaSets:   func() ([]Unit, error) { return units(WarpSched, area...) },
		FromConfig: fromConfig(unitcfg.WarpSched, WarpSched),
	}
}

// warpSchedStim is warp_sched's constrained-random stimulus. It keeps a
// set of resident warps the way the SM does (a launch makes a slot
// valid, an exit clears it) and draws ready, long-wait and stall inputs
// around them. Every 1..2048 cycles it enters a new phase with new
// densities (from "nothing happens" to "everything at once"), so that
// both sparse and saturated cases occur; in some phases it also breaks
// the SM's conventions (ready or long-waiting warps that are not valid,
// launches into occupied slots, valid warps never launched), which the
// unit must handle the same way in Go and in RTL.
type warpSchedStim struct {
	n int
	phases
	valid rtl.Bits

	launch, exit                  int // densities in 64ths: see mask
	ready, long, stall, wild, odd int
}

func newWarpSchedStim(n int, seed uint64) *warpSchedStim {
	return &warpSchedStim{n: n, phases: newPhases(seed, 0x5eed_ca5e_0000_0001)}
}

// mask returns a random word whose bits are set with probability k/64
// (0 <= k <= 64), from at most six random words.
func (g *warpSchedStim) mask(k int) uint64 {
	if k <= 0 {
		return 0
	}
	if k >= 64 {
		return ^uint64(0)
	}
	// Bit by bit from the least significant: x = x|r for a one, x&r for
	// a zero, so that P(bit set) = k/64 at the end.
	var x uint64
	for b := 0; b < 6; b++ {
		if k>>uint(b)&1 != 0 {
			x |= g.r.Uint64()
		} else if x != 0 {
			x &= g.r.Uint64()
		}
	}
	return x
}

func (g *warpSchedStim) phase() {
	g.launch = g.pick(0, 1, 2, 8, 32)
	g.exit = g.pick(0, 1, 2, 4, 16)
	g.ready = g.pick(0, 4, 16, 32, 48, 60, 64)
	g.long = g.pick(0, 8, 16, 32, 56)
	g.stall = g.pick(0, 0, 2, 16)
	g.wild = g.pick(0, 0, 0, 1, 4) // inputs outside the SM's conventions
	g.odd = g.pick(0, 0, 1)        // valid without a launch
}

func (g *warpSchedStim) next(_ uint64, in *warpsched.Inputs) {
	g.step(2048, g.phase)
	*in = warpsched.Inputs{}
	for w := 0; w*64 < g.n; w++ {
		top := ^uint64(0)
		if r := g.n - w*64; r < 64 {
			top = 1<<uint(r) - 1
		}
		v := g.valid[w]
		exit := v & g.mask(g.exit)
		launch := ^v & g.mask(g.launch)
		launch |= v & g.mask(g.wild) // relaunch an occupied slot
		odd := ^v & g.mask(g.odd)    // valid without a launch stamp
		v = (v&^exit | launch | odd) & top
		ready := v & g.mask(g.ready)
		ready |= ^v & g.mask(g.wild)
		long := v &^ ready & g.mask(g.long)
		long |= g.mask(g.wild) & g.mask(g.long)
		g.valid[w] = v
		in.WarpValid[w] = v
		in.WarpLaunch[w] = launch & top
		in.WarpReady[w] = ready & top
		in.WarpLongWait[w] = long & top
	}
	in.Stall = g.mask(g.stall)&1 != 0
}
