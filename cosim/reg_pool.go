package cosim

import (
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/unitcfg"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/regpool"
)

// RegPool returns reg_pool at the parameters p.
func RegPool(p regpool.Params) (Unit, error) {
	params := []Param{{"NumCTAs", p.NumCTAs}, {"NumPorts", p.NumPorts}, {"AllocGranularity", p.AllocGranularity},
		{"MaxThreadsPerCTA", p.MaxThreadsPerCTA}, {"MaxRegsPerThread", p.MaxRegsPerThread},
		{"Regfile", p.Regfile}, {"RegAllocUnit", p.RegAllocUnit}}
	return bindUnit("reg_pool", params, func() (*regpool.Pool, error) { return regpool.New(p) },
		func(u *regpool.Pool) rtl.Table { return u.Signals("reg_pool") },
		func(seed uint64) func(uint64, *regpool.Inputs) { return newRegPoolStim(p, seed).next })
}

// RegPoolStdParams is reg_pool's small cosim parameter set: 2 CTA slots
// of at most 8 warps (2 warpgroups), 2 ports, and a register file that
// holds two 8-warp CTAs of 128 registers per thread (larger launches fail
// with ErrLaunchRegfile).
func RegPoolStdParams() regpool.Params {
	return regpool.Params{NumCTAs: 2, NumPorts: 2, AllocGranularity: 8, MaxThreadsPerCTA: 256,
		MaxRegsPerThread: 256, Regfile: 65536, RegAllocUnit: 256}
}

// RegPoolSets are reg_pool's standard parameter sets: the h100 preset's
// (config.Default: 32 CTA slots of up to 32 warps, 4 ports, a 64K
// register file) and the small one of RegPoolStdParams.
func RegPoolSets() []regpool.Params {
	return []regpool.Params{unitcfg.RegPool(config.Default()), RegPoolStdParams()}
}

func regPoolInfo() *UnitInfo {
	return &UnitInfo{
		Module:  "reg_pool",
		Summary: "per-CTA register pool behind setmaxnreg",
		Sets:    func() ([]Unit, error) { return units(RegPool, RegPoolSets()...) },
		// The small set only: Yosys 0.23 takes about 2.5 minutes and
		// 1.7 GB on it (141,992 cells); the h100 set, 16 times the CTA
		// slots and twice the ports, would take hours.
		AreaSets: func() ([]Unit, error) { return units(RegPool, RegPoolStdParams()) },
		// Yosys 0.23's SAT-based resource sharing (SHARE) ran out of
		// 7 GB within 2.5 minutes on the small set and never finished
		// (the per-port arithmetic of used/need/footprint gives it
		// hundreds of $alu and $macc candidates), so reg_pool is
		// synthesized without it: its cell count is an upper bound.
		SynthFlags: "-noshare",
		FromConfig: fromConfig(fixedParams(unitcfg.RegPool), RegPool),
	}
}

// regPoolStim is reg_pool's constrained-random stimulus. It runs its own
// Go reg_pool on the inputs it draws and reads the release records and the
// statistics, the way the pipeline does, to know which CTAs are resident,
// which warps have exited and which are held at a setmaxnreg; it then
// draws launches, warp and CTA exits, barrier releases and arrivals
// (mostly whole warpgroups reaching the same setmaxnreg, .inc and .dec
// around the current count, so that grants, blocking and unsatisfiable
// requests occur), plus, in some phases, the undefined behaviours and
// protocol errors (partial warps, mismatched setmaxnreg, exits of held
// warps, bad counts, launches into busy slots, ...).
type regPoolStim struct {
	p regpool.Params
	phases
	pool *regpool.Pool
	cw   int // CTA index bits

	held   [1024]uint32 // per CTA: warps held at a setmaxnreg (as the pipeline sees it)
	exited [1024]uint32
	// per CTA and warpgroup: the setmaxnreg the warpgroup is heading for
	pc    [1024][regpool.MaxGroups]uint32
	cnt   [1024][regpool.MaxGroups]uint16
	inc   [1024][regpool.MaxGroups]bool
	armed [1024][regpool.MaxGroups]bool

	unsat                                 int // CTA of the last cycle's inc_unsat_cta_o, or -1
	launch, ctaExit, warpExit, arrive, sy int // densities in 64ths
	wild                                  int
}

func newRegPoolStim(p regpool.Params, seed uint64) *regPoolStim {
	pool, err := regpool.New(p)
	if err != nil {
		panic(err)
	}
	return &regPoolStim{p: p, phases: newPhases(seed, 0x5eed_9e90_0000_0002), pool: pool, cw: rtl.IdxWidth(p.NumCTAs), unsat: -1}
}

func (g *regPoolStim) phase() {
	g.launch = g.pick(1, 4, 16, 64)
	g.ctaExit = g.pick(1, 4, 16, 64)
	g.warpExit = g.pick(0, 0, 1, 4)
	g.arrive = g.pick(0, 4, 16, 32, 64)
	g.sy = g.pick(0, 2, 8, 32)
	g.wild = g.pick(0, 0, 0, 1, 4, 16)
}

func (g *regPoolStim) chance(k int) bool { return g.r.IntN(64) < k }

func (g *regPoolStim) nwarps(c int) int {
	s := g.pool.CTAStats(c)
	if !s.Valid || s.LaunchReg == 0 {
		return 0
	}
	return int(s.Alloc) / (regpool.WarpSize * s.LaunchReg)
}

func (g *regPoolStim) next(_ uint64, in *regpool.Inputs) {
	g.step(2048, g.phase)
	r := g.r
	*in = regpool.Inputs{}
	n, np := g.p.NumCTAs, g.p.NumPorts
	// Launch shape.
	in.KernThreads = uint16(1 + r.IntN(g.p.MaxThreadsPerCTA))
	if g.chance(g.wild) {
		in.KernThreads = uint16(r.IntN(1 << 11))
	}
	in.KernNReg = uint16(24 + r.IntN(150))
	if g.chance(g.wild) {
		in.KernNReg = uint16(r.IntN(1 << 9))
	}
	in.KernNRegValid = r.IntN(8) != 0
	for c := 0; c < n; c++ {
		st := g.pool.CTAStats(c)
		if !st.Valid {
			if g.chance(g.launch) {
				in.CTALaunch.Set(c)
			}
			if g.chance(g.wild) {
				in.CTAExit.Set(c)
			}
			continue
		}
		nw := g.nwarps(c)
		all := uint32(uint64(1)<<uint(nw) - 1)
		// A CTA whose .inc can never be satisfied is killed (a CTA exit
		// with live warps, a protocol error) now and then.
		dead := c == g.unsat && g.chance(4)
		if g.exited[c] == all && g.held[c] == 0 && g.chance(g.ctaExit) || dead || g.chance(g.wild) && g.chance(8) {
			in.CTAExit.Set(c)
			if g.chance(32) {
				in.CTALaunch.Set(c) // exit and relaunch in one cycle
			}
		}
		if g.chance(g.wild) {
			in.CTALaunch.Set(c)
		}
	}
	for p := 0; p < np; p++ {
		c := r.IntN(n)
		nw := g.nwarps(c)
		if nw == 0 {
			if g.chance(g.wild) {
				in.ExitValid[p], in.ExitCTA[p], in.ExitWarp[p] = true, uint16(c), uint8(r.IntN(32))
			}
			continue
		}
		// Warp exits: a warp that is not held (held ones in wild phases).
		if g.chance(g.warpExit) {
			w := r.IntN(nw)
			if g.chance(g.wild) {
				w = r.IntN(32)
			}
			if (g.exited[c]|g.held[c])>>uint(w)&1 == 0 || g.chance(g.wild) {
				in.ExitValid[p], in.ExitCTA[p], in.ExitWarp[p] = true, uint16(c), uint8(w)
			}
		}
		// Barrier releases: all live warps, a warpgroup, or random.
		if g.chance(g.sy) {
			all := uint32(uint64(1)<<uint(nw) - 1)
			m := all &^ g.exited[c]
			switch r.IntN(4) {
			case 0:
				m &= 0xf << uint(4*r.IntN((nw+3)/4))
			case 1:
				m &= r.Uint32()
			}
			if g.chance(g.wild) {
				m = r.Uint32()
			}
			in.SyncValid[p], in.SyncCTA[p], in.SyncWarps[p] = true, uint16(c), m
		}
		// Arrivals.
		if g.chance(g.arrive) {
			w := r.IntN(nw)
			if g.chance(g.wild) {
				w = r.IntN(32)
			}
			if (g.exited[c]|g.held[c])>>uint(w)&1 != 0 && !g.chance(g.wild) {
				continue
			}
			wg := w / regpool.WarpsPerGroup
			if wg >= regpool.MaxGroups {
				wg = regpool.MaxGroups - 1
			}
			if !g.armed[c][wg] || g.held[c]>>uint(4*wg)&0xf == 0 && r.IntN(4) == 0 {
				cur, _, _ := g.pool.WarpStats(c, w)
				if cur == 0 {
					cur = 64
				}
				g.armed[c][wg] = true
				g.pc[c][wg] = uint32(r.IntN(4)) * 16
				// .inc needs registers in the pool: mostly .dec while the
				// pool is empty.
				g.inc[c][wg] = r.IntN(2) == 0 && (g.pool.CTAStats(c).Free > 0 || r.IntN(4) == 0)
				d := 8 * r.IntN(12)
				if r.IntN(8) == 0 {
					d = -d // inc below / dec above
				}
				v := cur - d
				if g.inc[c][wg] {
					v = cur + d
				}
				v = min(max(v, regpool.MinCount), regpool.MaxCount)
				g.cnt[c][wg] = uint16(v)
			}
			in.ArriveValid[p], in.ArriveCTA[p], in.ArriveWarp[p] = true, uint16(c), uint8(w)
			in.ArrivePC[p], in.ArriveInc[p], in.ArriveCount[p] = g.pc[c][wg], g.inc[c][wg], g.cnt[c][wg]
			in.ArriveFullWarp[p] = !g.chance(g.wild)
			if g.chance(g.wild) {
				in.ArrivePC[p] ^= 16
			}
			if g.chance(g.wild) {
				in.ArriveCount[p] = uint16(r.IntN(1 << 9))
			}
		}
	}
	in.StatCTA = uint16(r.IntN(1 << uint(g.cw)))
	in.StatWarp = uint8(r.IntN(32))
	if r.IntN(2) == 0 {
		in.StatWarp &= 7
	}

	// Run the stimulus's own model to track what the pipeline would see.
	o := g.pool.Eval(*in)
	g.pool.Tick()
	for c := 0; c < n; c++ {
		if in.CTAExit.Has(c) || in.CTALaunch.Has(c) {
			g.held[c], g.exited[c] = 0, 0
			g.armed[c] = [regpool.MaxGroups]bool{}
		}
	}
	for p := 0; p < np; p++ {
		if in.ExitValid[p] {
			c := int(in.ExitCTA[p])
			g.exited[c] |= 1 << uint(in.ExitWarp[p])
		}
		if in.ArriveValid[p] {
			c := int(in.ArriveCTA[p])
			g.held[c] |= 1 << uint(in.ArriveWarp[p])
		}
	}
	g.unsat = -1
	if o.IncUnsat {
		g.unsat = int(o.IncUnsatCTA)
	}
	for i := 0; i < g.p.NumRel(); i++ {
		if o.RelValid[i] {
			g.held[o.RelCTA[i]] &^= o.RelWarps[i]
		}
	}
	for c := 0; c < n; c++ {
		if !g.pool.CTAStats(c).Valid {
			g.held[c], g.exited[c] = 0, 0
		}
	}
	// A warp the stimulus thinks held may have been dropped by a protocol
	// error (an ignored arrival): now and then forget a CTA's held warps.
	if g.chance(1) {
		g.held[r.IntN(n)] = 0
	}
}
