package cosim

import (
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/unitcfg"
)

// SmemBanks returns smem_banks, the shared-memory banks of the load/store
// unit (memsys.Banks), at the parameters p.
func SmemBanks(p memsys.BankParams) (Unit, error) {
	params := []Param{{"Banks", p.Banks}, {"BankBytes", p.BankBytes}}
	return bindUnit("smem_banks", params, func() (*memsys.Banks, error) { return memsys.NewBanks(p) },
		rescoped[*memsys.Banks]("smem_banks"),
		func(seed uint64) func(uint64, *memsys.BankInputs) { return newSmemBanksStim(seed).next })
}

func smemBanksInfo() *UnitInfo {
	// The standard sets: the h100 geometry (32 banks of 4 bytes) and 16
	// banks of 8 bytes (phases of 16, 8 and 4 lanes for 4-, 8- and 16-byte
	// accesses at other splits than h100's).
	sets := []memsys.BankParams{{Banks: 32, BankBytes: 4}, {Banks: 16, BankBytes: 8}}
	return &UnitInfo{
		Module:   "smem_banks",
		Summary:  "shared-memory banks of the load/store unit (wavefronts, bank-conflict replays)",
		Sets:     func() ([]Unit, error) { return units(SmemBanks, sets...) },
		AreaSets: func() ([]Unit, error) { return units(SmemBanks, sets[0]) },
		// Yosys's resource sharing does not finish on the 32 lanes' rank
		// comparisons in 15 minutes; without it synthesis takes 7.
		SynthFlags: "-noshare",
		FromConfig: fromConfig(fixedParams(unitcfg.Banks), SmemBanks),
	}
}

// smemBanksStim is smem_banks' constrained-random stimulus. In phases of
// 1..512 cycles it offers requests at a phase density, of the sizes the
// LSU sends (and now and then a size it never sends), with lane masks
// from one lane to all, and addresses in patterns that make every degree
// of conflict: lane strides of 0 (broadcast) to 32 words and odd ones,
// random words in a small window (mixed broadcast and conflicts), and
// random offsets; a few misaligned lanes in some phases.
type smemBanksStim struct {
	phases
	rate, badSize, misalign int // in 64ths
}

func newSmemBanksStim(seed uint64) *smemBanksStim {
	return &smemBanksStim{phases: newPhases(seed, 0x5a4e_ba4c_0000_0001)}
}

func (g *smemBanksStim) next(_ uint64, in *memsys.BankInputs) {
	r := g.r
	g.step(512, func() {
		g.rate = g.pick(0, 8, 32, 64, 64)
		g.badSize = g.pick(0, 0, 1)
		g.misalign = g.pick(0, 0, 0, 1, 4)
	})
	*in = memsys.BankInputs{}
	if r.IntN(64) >= g.rate {
		return
	}
	in.ReqValid = true
	in.ReqOp = uint8(r.IntN(4))
	in.ReqID = r.Uint32()
	sz, mask := g.warpAccess(g.badSize, 0, 3, 5, 12, 24, 31)
	size := uint32(sz)
	in.ReqSize, in.ReqMask = uint8(sz), mask
	unit := max(size, 1)
	base := uint32(r.IntN(1<<12)) * unit
	switch r.IntN(3) {
	case 0: // a lane stride in elements
		stride := uint32(g.pick(0, 1, 2, 3, 4, 5, 8, 16, 17, 32, 33))
		for l := range in.ReqAddr {
			in.ReqAddr[l] = base + uint32(l)*stride*unit
		}
	case 1: // random elements in a window of 4..64
		n := uint32(g.pick(4, 8, 32, 64))
		for l := range in.ReqAddr {
			in.ReqAddr[l] = base + uint32(r.IntN(int(n)))*unit
		}
	default: // anywhere in a 48 KiB window
		for l := range in.ReqAddr {
			in.ReqAddr[l] = uint32(r.IntN(48<<10)) / unit * unit
		}
	}
	if r.IntN(64) < g.misalign {
		in.ReqAddr[r.IntN(32)] += 1 + uint32(r.IntN(int(max(unit, 2))-1))
	}
}
