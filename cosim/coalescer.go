package cosim

import (
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/memsys"
)

// Coalescer returns coalescer, the coalescing stage of the load/store unit
// (memsys.Coalescer). It has no parameters.
func Coalescer() (Unit, error) {
	return bindUnit("coalescer", nil, func() (*memsys.Coalescer, error) { return memsys.NewCoalescer(memsys.CoalescerParams{}), nil },
		rescoped[*memsys.Coalescer]("coalescer"),
		func(seed uint64) func(uint64, *memsys.CoalescerInputs) { return newCoalescerStim(seed).next })
}

func coalescerInfo() *UnitInfo {
	one := func() ([]Unit, error) {
		u, err := Coalescer()
		if err != nil {
			return nil, err
		}
		return []Unit{u}, nil
	}
	return &UnitInfo{
		Module:  "coalescer",
		Summary: "coalescing stage of the load/store unit (32-byte sectors, 128-byte lines, one line a cycle)",
		Sets:    one,
		// Not synthesized by make area: Yosys 0.23 does not finish it in
		// 15 minutes, with or without -noshare (its 32 lanes' 64-bit
		// addresses compared pairwise to group them into lines).
		AreaSets:   func() ([]Unit, error) { return nil, nil },
		FromConfig: func(config.Config) (Unit, error) { return Coalescer() },
	}
}

// coalescerStim is coalescer's constrained-random stimulus. In phases of
// 1..512 cycles it offers warp requests at a phase density, of the sizes
// the LSU sends (now and then one it never sends), with lane masks from
// one lane to all, at lane strides of 0 to 256 bytes and odd ones, at
// random addresses in small and large windows (so lines repeat, interleave
// and spread), anywhere in the 64-bit space, with a misaligned lane in
// some phases; the L1 takes lines (out_ready_i) at a phase density, from
// never to always.
type coalescerStim struct {
	phases
	rate, ready, misalign, badSize int // in 64ths
}

func newCoalescerStim(seed uint64) *coalescerStim {
	return &coalescerStim{phases: newPhases(seed, 0xc0a1_e5ce_0000_0001)}
}

func (g *coalescerStim) next(_ uint64, in *memsys.CoalescerInputs) {
	r := g.r
	g.step(512, func() {
		g.rate = g.pick(0, 8, 32, 64, 64)
		g.ready = g.pick(0, 16, 48, 64, 64)
		g.misalign = g.pick(0, 0, 0, 1, 4)
		g.badSize = g.pick(0, 0, 1)
	})
	*in = memsys.CoalescerInputs{OutReady: r.IntN(64) < g.ready}
	if r.IntN(64) >= g.rate {
		return
	}
	in.ReqValid = true
	in.ReqOp, in.ReqSpace, in.ReqID = uint8(r.IntN(4)), uint8(r.IntN(8)), r.Uint32()
	sz, mask := g.warpAccess(g.badSize, 0, 3, 6, 24, 31)
	size := uint64(sz)
	in.ReqSize, in.ReqMask = uint8(sz), mask
	unit := max(size, 1)
	base := r.Uint64() >> uint(r.IntN(64)) / unit * unit
	switch r.IntN(3) {
	case 0: // a lane stride in bytes, a multiple of the size
		stride := uint64(g.pick(0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 3, 96)) * unit
		for l := range in.ReqAddr {
			in.ReqAddr[l] = base + uint64(l)*stride
		}
	case 1: // random elements in a window of 1 to 64 lines
		n := uint64(g.pick(1, 2, 8, 64)) * memsys.LineBytes / unit
		for l := range in.ReqAddr {
			in.ReqAddr[l] = base + uint64(r.IntN(int(n)))*unit
		}
	default: // anywhere
		for l := range in.ReqAddr {
			in.ReqAddr[l] = r.Uint64() / unit * unit
		}
	}
	if r.IntN(64) < g.misalign {
		in.ReqAddr[r.IntN(32)] += 1 + uint64(r.IntN(int(max(unit, 2))-1))
	}
}
