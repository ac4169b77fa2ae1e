package cosim

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"unsafe"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/rtl"
)

// reg_pool's Go types hold port and per-CTA arrays at their own element
// sizes ([MaxPorts]uint16, [MaxCTAs][MaxGroups]uint16, ...), while the
// Verilog flattens them into vectors of the signal table's widths (exit_cta_i
// is NumPorts x CW bits). The wire codec packs arrays at their element size
// only, so reg_pool binds through an adapter: rpIn, rpOut and rpState carry
// the same `sv` names as regpool's Inputs, Outputs and State, every signal
// as a flat vector (rtl.Bits), and rpUnit converts between the two each
// cycle. The signal table is regpool's own (Pool.Signals).

type rpIn struct {
	KernThreads    rtl.Bits `sv:"kern_threads_i"`
	KernNReg       rtl.Bits `sv:"kern_nreg_i"`
	KernNRegValid  rtl.Bits `sv:"kern_nreg_valid_i"`
	CTALaunch      rtl.Bits `sv:"cta_launch_i"`
	CTAExit        rtl.Bits `sv:"cta_exit_i"`
	ExitValid      rtl.Bits `sv:"exit_valid_i"`
	ExitCTA        rtl.Bits `sv:"exit_cta_i"`
	ExitWarp       rtl.Bits `sv:"exit_warp_i"`
	SyncValid      rtl.Bits `sv:"sync_valid_i"`
	SyncCTA        rtl.Bits `sv:"sync_cta_i"`
	SyncWarps      rtl.Bits `sv:"sync_warps_i"`
	ArriveValid    rtl.Bits `sv:"arrive_valid_i"`
	ArriveCTA      rtl.Bits `sv:"arrive_cta_i"`
	ArriveWarp     rtl.Bits `sv:"arrive_warp_i"`
	ArrivePC       rtl.Bits `sv:"arrive_pc_i"`
	ArriveInc      rtl.Bits `sv:"arrive_inc_i"`
	ArriveCount    rtl.Bits `sv:"arrive_count_i"`
	ArriveFullWarp rtl.Bits `sv:"arrive_full_warp_i"`
	StatCTA        rtl.Bits `sv:"stat_cta_i"`
	StatWarp       rtl.Bits `sv:"stat_warp_i"`
}

type rpOut struct {
	RelValid          rtl.Bits `sv:"rel_valid_o"`
	RelCTA            rtl.Bits `sv:"rel_cta_o"`
	RelWarps          rtl.Bits `sv:"rel_warps_o"`
	RelOld            rtl.Bits `sv:"rel_old_o"`
	RelNew            rtl.Bits `sv:"rel_new_o"`
	RelNoEffect       rtl.Bits `sv:"rel_noeffect_o"`
	UBValid           rtl.Bits `sv:"ub_valid_o"`
	UBCTA             rtl.Bits `sv:"ub_cta_o"`
	UBWarp            rtl.Bits `sv:"ub_warp_o"`
	UBKind            rtl.Bits `sv:"ub_kind_o"`
	ErrValid          rtl.Bits `sv:"err_valid_o"`
	ErrCode           rtl.Bits `sv:"err_code_o"`
	ErrCTA            rtl.Bits `sv:"err_cta_o"`
	ErrWarp           rtl.Bits `sv:"err_warp_o"`
	IncBlocked        rtl.Bits `sv:"inc_blocked_o"`
	IncUnsat          rtl.Bits `sv:"inc_unsatisfiable_o"`
	IncUnsatCTA       rtl.Bits `sv:"inc_unsat_cta_o"`
	IncUnsatWarps     rtl.Bits `sv:"inc_unsat_warps_o"`
	IncUnsatNeed      rtl.Bits `sv:"inc_unsat_need_o"`
	IncUnsatFree      rtl.Bits `sv:"inc_unsat_free_o"`
	IncUnsatMax       rtl.Bits `sv:"inc_unsat_max_o"`
	RFUsed            rtl.Bits `sv:"rf_used_o"`
	StatValid         rtl.Bits `sv:"stat_valid_o"`
	StatAlloc         rtl.Bits `sv:"stat_alloc_o"`
	StatFree          rtl.Bits `sv:"stat_free_o"`
	StatUsed          rtl.Bits `sv:"stat_used_o"`
	StatHighWater     rtl.Bits `sv:"stat_high_water_o"`
	StatNReg          rtl.Bits `sv:"stat_nreg_o"`
	StatBlockedCycles rtl.Bits `sv:"stat_blocked_cycles_o"`
}

type rpState struct {
	Valid      rtl.Bits `sv:"cta_valid_q"`
	Effect     rtl.Bits `sv:"cta_effect_q"`
	BlkAny     rtl.Bits `sv:"cta_blk_any_q"`
	RFUsed     rtl.Bits `sv:"rf_used_q"`
	GrantRR    rtl.Bits `sv:"grant_rr_q"`
	NWarps     rtl.Bits `sv:"cta_nwarps_q"`
	LaunchNReg rtl.Bits `sv:"cta_launch_nreg_q"`
	Free       rtl.Bits `sv:"cta_free_q"`
	HighWater  rtl.Bits `sv:"cta_high_water_q"`
	Exited     rtl.Bits `sv:"cta_exited_q"`
	Wait       rtl.Bits `sv:"cta_wait_q"`
	Blk        rtl.Bits `sv:"cta_blk_q"`
	Unsync     rtl.Bits `sv:"cta_unsync_q"`
	Inc        rtl.Bits `sv:"wg_inc_q"`
	NReg       rtl.Bits `sv:"wg_nreg_q"`
	PC         rtl.Bits `sv:"wg_pc_q"`
	Count      rtl.Bits `sv:"wg_count_q"`
	BlkCycles  rtl.Bits `sv:"wg_blk_cycles_q"`
}

// getBits returns bits off..off+w-1 of b (w <= 64).
func getBits(b *rtl.Bits, off, w int) uint64 {
	i, sh := off/64, uint(off%64)
	v := b[i] >> sh
	if sh != 0 && int(sh)+w > 64 {
		v |= b[i+1] << (64 - sh)
	}
	return v & mask(w)
}

// putBits sets bits off..off+w-1 of b to v.
func putBits(b *rtl.Bits, off, w int, v uint64) {
	mk := mask(w)
	v &= mk
	i, sh := off/64, uint(off%64)
	b[i] = b[i]&^(mk<<sh) | v<<sh
	if sh != 0 && int(sh)+w > 64 {
		b[i+1] = b[i+1]&^(mk>>(64-sh)) | v>>(64-sh)
	}
}

func putBool(b *rtl.Bits, i int, v bool) { b.Put(i, v) }

// rpUnit is regpool.Pool seen through the flat-vector adapter types.
type rpUnit struct {
	u  *regpool.Pool
	p  regpool.Params
	cw int
	// q points at the Pool's registers: Pool.Q returns the whole State
	// (about 150 KB) by value, which would dominate a cosim cycle. Read
	// only; nil if regpool's field layout changes (then Q copies).
	q *regpool.State
}

func newRPUnit(p regpool.Params) (*rpUnit, error) {
	u, err := regpool.New(p)
	if err != nil {
		return nil, err
	}
	r := &rpUnit{u: u, p: p, cw: max(bits.Len(uint(p.NumCTAs-1)), 1)}
	if f := reflect.ValueOf(u).Elem().FieldByName("q"); f.IsValid() && f.Type() == reflect.TypeFor[regpool.State]() {
		r.q = (*regpool.State)(unsafe.Pointer(f.UnsafeAddr()))
	}
	return r, nil
}

func (r *rpUnit) Reset() { r.u.Reset() }
func (r *rpUnit) Tick()  { r.u.Tick() }

func (r *rpUnit) Eval(in rpIn) rpOut {
	return r.packOut(r.u.Eval(r.unpackIn(&in)))
}

func (r *rpUnit) Q() rpState {
	if r.q != nil {
		return r.packState(r.q)
	}
	s := r.u.Q()
	return r.packState(&s)
}
func (r *rpUnit) D() rpState { s := r.u.D(); return r.packState(&s) }

func (r *rpUnit) unpackIn(in *rpIn) regpool.Inputs {
	var g regpool.Inputs
	cw := r.cw
	g.KernThreads = uint16(getBits(&in.KernThreads, 0, 11))
	g.KernNReg = uint16(getBits(&in.KernNReg, 0, 9))
	g.KernNRegValid = in.KernNRegValid.Has(0)
	g.CTALaunch, g.CTAExit = in.CTALaunch, in.CTAExit
	for p := 0; p < r.p.NumPorts; p++ {
		g.ExitValid[p] = in.ExitValid.Has(p)
		g.ExitCTA[p] = uint16(getBits(&in.ExitCTA, p*cw, cw))
		g.ExitWarp[p] = uint8(getBits(&in.ExitWarp, p*5, 5))
		g.SyncValid[p] = in.SyncValid.Has(p)
		g.SyncCTA[p] = uint16(getBits(&in.SyncCTA, p*cw, cw))
		g.SyncWarps[p] = uint32(getBits(&in.SyncWarps, p*32, 32))
		g.ArriveValid[p] = in.ArriveValid.Has(p)
		g.ArriveCTA[p] = uint16(getBits(&in.ArriveCTA, p*cw, cw))
		g.ArriveWarp[p] = uint8(getBits(&in.ArriveWarp, p*5, 5))
		g.ArrivePC[p] = uint32(getBits(&in.ArrivePC, p*32, 32))
		g.ArriveInc[p] = in.ArriveInc.Has(p)
		g.ArriveCount[p] = uint16(getBits(&in.ArriveCount, p*9, 9))
		g.ArriveFullWarp[p] = in.ArriveFullWarp.Has(p)
	}
	g.StatCTA = uint16(getBits(&in.StatCTA, 0, cw))
	g.StatWarp = uint8(getBits(&in.StatWarp, 0, 5))
	return g
}

// packIn is unpackIn's inverse (the stimulus works on regpool.Inputs).
func (r *rpUnit) packIn(g *regpool.Inputs, in *rpIn) {
	*in = rpIn{}
	cw := r.cw
	putBits(&in.KernThreads, 0, 11, uint64(g.KernThreads))
	putBits(&in.KernNReg, 0, 9, uint64(g.KernNReg))
	putBool(&in.KernNRegValid, 0, g.KernNRegValid)
	in.CTALaunch, in.CTAExit = g.CTALaunch, g.CTAExit
	for p := 0; p < r.p.NumPorts; p++ {
		putBool(&in.ExitValid, p, g.ExitValid[p])
		putBits(&in.ExitCTA, p*cw, cw, uint64(g.ExitCTA[p]))
		putBits(&in.ExitWarp, p*5, 5, uint64(g.ExitWarp[p]))
		putBool(&in.SyncValid, p, g.SyncValid[p])
		putBits(&in.SyncCTA, p*cw, cw, uint64(g.SyncCTA[p]))
		putBits(&in.SyncWarps, p*32, 32, uint64(g.SyncWarps[p]))
		putBool(&in.ArriveValid, p, g.ArriveValid[p])
		putBits(&in.ArriveCTA, p*cw, cw, uint64(g.ArriveCTA[p]))
		putBits(&in.ArriveWarp, p*5, 5, uint64(g.ArriveWarp[p]))
		putBits(&in.ArrivePC, p*32, 32, uint64(g.ArrivePC[p]))
		putBool(&in.ArriveInc, p, g.ArriveInc[p])
		putBits(&in.ArriveCount, p*9, 9, uint64(g.ArriveCount[p]))
		putBool(&in.ArriveFullWarp, p, g.ArriveFullWarp[p])
	}
	putBits(&in.StatCTA, 0, cw, uint64(g.StatCTA))
	putBits(&in.StatWarp, 0, 5, uint64(g.StatWarp))
}

func (r *rpUnit) packOut(g regpool.Outputs) rpOut {
	var o rpOut
	cw := r.cw
	for i := 0; i < r.p.NumRel(); i++ {
		putBool(&o.RelValid, i, g.RelValid[i])
		putBits(&o.RelCTA, i*cw, cw, uint64(g.RelCTA[i]))
		putBits(&o.RelWarps, i*32, 32, uint64(g.RelWarps[i]))
		putBits(&o.RelOld, i*9, 9, uint64(g.RelOld[i]))
		putBits(&o.RelNew, i*9, 9, uint64(g.RelNew[i]))
		putBool(&o.RelNoEffect, i, g.RelNoEffect[i])
	}
	for i := 0; i < 2*r.p.NumPorts; i++ {
		putBool(&o.UBValid, i, g.UBValid[i])
		putBits(&o.UBCTA, i*cw, cw, uint64(g.UBCTA[i]))
		putBits(&o.UBWarp, i*5, 5, uint64(g.UBWarp[i]))
		putBits(&o.UBKind, i*5, 5, uint64(g.UBKind[i]))
	}
	putBool(&o.ErrValid, 0, g.ErrValid)
	putBits(&o.ErrCode, 0, 4, uint64(g.ErrCode))
	putBits(&o.ErrCTA, 0, cw, uint64(g.ErrCTA))
	putBits(&o.ErrWarp, 0, 5, uint64(g.ErrWarp))
	putBool(&o.IncBlocked, 0, g.IncBlocked)
	putBool(&o.IncUnsat, 0, g.IncUnsat)
	putBits(&o.IncUnsatCTA, 0, cw, uint64(g.IncUnsatCTA))
	putBits(&o.IncUnsatWarps, 0, 32, uint64(g.IncUnsatWarps))
	putBits(&o.IncUnsatNeed, 0, 32, uint64(g.IncUnsatNeed))
	putBits(&o.IncUnsatFree, 0, 32, uint64(g.IncUnsatFree))
	putBits(&o.IncUnsatMax, 0, 32, uint64(g.IncUnsatMax))
	putBits(&o.RFUsed, 0, 32, uint64(g.RFUsed))
	putBool(&o.StatValid, 0, g.StatValid)
	putBits(&o.StatAlloc, 0, 32, uint64(g.StatAlloc))
	putBits(&o.StatFree, 0, 32, uint64(g.StatFree))
	putBits(&o.StatUsed, 0, 32, uint64(g.StatUsed))
	putBits(&o.StatHighWater, 0, 32, uint64(g.StatHighWater))
	putBits(&o.StatNReg, 0, 9, uint64(g.StatNReg))
	putBits(&o.StatBlockedCycles, 0, 64, g.StatBlockedCycles)
	return o
}

func (r *rpUnit) packState(s *regpool.State) rpState {
	var o rpState
	n, cw := r.p.NumCTAs, r.cw
	o.Valid, o.Effect, o.BlkAny = s.Valid, s.Effect, s.BlkAny
	putBits(&o.RFUsed, 0, 32, uint64(s.RFUsed))
	putBits(&o.GrantRR, 0, cw, uint64(s.GrantRR))
	for c := 0; c < n; c++ {
		putBits(&o.NWarps, c*6, 6, uint64(s.NWarps[c]))
		putBits(&o.LaunchNReg, c*9, 9, uint64(s.LaunchNReg[c]))
		putBits(&o.Free, c*32, 32, uint64(s.Free[c]))
		putBits(&o.HighWater, c*32, 32, uint64(s.HighWater[c]))
		putBits(&o.Exited, c*32, 32, uint64(s.Exited[c]))
		putBits(&o.Wait, c*32, 32, uint64(s.Wait[c]))
		putBits(&o.Blk, c*8, 8, uint64(s.Blk[c]))
		putBits(&o.Unsync, c*8, 8, uint64(s.Unsync[c]))
		putBits(&o.Inc, c*8, 8, uint64(s.Inc[c]))
		for g := 0; g < regpool.MaxGroups; g++ {
			k := c*regpool.MaxGroups + g
			putBits(&o.NReg, k*9, 9, uint64(s.NReg[c][g]))
			putBits(&o.PC, k*32, 32, uint64(s.PC[c][g]))
			putBits(&o.Count, k*9, 9, uint64(s.Count[c][g]))
			putBits(&o.BlkCycles, k*64, 64, s.BlkCycles[c][g])
		}
	}
	return o
}

// RegPool returns reg_pool at the parameters p. Only NumCTAs x 8
// warpgroups of the per-warpgroup registers exist in the Verilog (the
// signal table's widths); NumCTAs must stay small enough for the
// registers to fit rtl.Bits (NumCTAs x 8 x 64 <= 1024: NumCTAs <= 2).
func RegPool(p regpool.Params) (Unit, error) {
	if w := p.NumCTAs * regpool.MaxGroups * 64; w > rtl.MaxBits {
		return nil, fmt.Errorf("cosim: reg_pool with %d CTA slots: wg_blk_cycles_q is %d bits, the adapter holds at most %d (NumCTAs <= %d)",
			p.NumCTAs, w, rtl.MaxBits, rtl.MaxBits/(regpool.MaxGroups*64))
	}
	u, err := newRPUnit(p)
	if err != nil {
		return nil, err
	}
	return Bind(Spec[rpIn, rpOut, rpState]{
		Module: "reg_pool",
		RTL:    []string{"smsim_pkg.sv", "reg_pool.sv"},
		Params: []Param{{"NumCTAs", p.NumCTAs}, {"NumPorts", p.NumPorts}, {"AllocGranularity", p.AllocGranularity},
			{"MaxThreadsPerCTA", p.MaxThreadsPerCTA}, {"MaxRegsPerThread", p.MaxRegsPerThread},
			{"Regfile", p.Regfile}, {"RegAllocUnit", p.RegAllocUnit}},
		Table: u.u.Signals("reg_pool"),
		New: func() (GoUnit[rpIn, rpOut, rpState], error) {
			return newRPUnit(p)
		},
		Random: func(seed uint64) func(uint64, *rpIn) {
			return newRegPoolStim(p, seed).next
		},
	})
}

// RegPoolStdParams is reg_pool's standard cosim parameter set: 2 CTA
// slots of at most 8 warps (2 warpgroups), 2 ports, and a register file
// that holds two 8-warp CTAs of 128 registers per thread (larger launches
// fail with ErrLaunchRegfile).
func RegPoolStdParams() regpool.Params {
	return regpool.Params{NumCTAs: 2, NumPorts: 2, AllocGranularity: 8, MaxThreadsPerCTA: 256,
		MaxRegsPerThread: 256, Regfile: 65536, RegAllocUnit: 256}
}

func regPoolInfo() *UnitInfo {
	sets := func() ([]Unit, error) {
		u, err := RegPool(RegPoolStdParams())
		if err != nil {
			return nil, err
		}
		return []Unit{u}, nil
	}
	return &UnitInfo{
		Module:  "reg_pool",
		Summary: "per-CTA register pool behind setmaxnreg (small cosim parameter set)",
		Sets:    sets,
		// None yet: Yosys 0.23 spends more than 5 minutes in its SHARE
		// pass on the standard set (the unit's single priority-chain
		// always_comb), which would stall `make -C verilog area`.
		AreaSets: func() ([]Unit, error) { return nil, nil },
		FromConfig: func(cfg config.Config) (Unit, error) {
			return RegPool(regpool.FromConfig(cfg))
		},
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
	p    regpool.Params
	r    *rand.Rand
	pool *regpool.Pool
	ad   *rpUnit

	held   [1024]uint32 // per CTA: warps held at a setmaxnreg (as the pipeline sees it)
	exited [1024]uint32
	// per CTA and warpgroup: the setmaxnreg the warpgroup is heading for
	pc    [1024][regpool.MaxGroups]uint32
	cnt   [1024][regpool.MaxGroups]uint16
	inc   [1024][regpool.MaxGroups]bool
	armed [1024][regpool.MaxGroups]bool

	unsat                                 int // CTA of the last cycle's inc_unsat_cta_o, or -1
	left                                  int
	launch, ctaExit, warpExit, arrive, sy int // densities in 64ths
	wild                                  int
}

func newRegPoolStim(p regpool.Params, seed uint64) *regPoolStim {
	pool, err := regpool.New(p)
	if err != nil {
		panic(err)
	}
	ad, _ := newRPUnit(p)
	return &regPoolStim{p: p, r: rand.New(rand.NewPCG(seed, 0x5eed_9e90_0000_0002)), pool: pool, ad: ad, unsat: -1}
}

func (g *regPoolStim) phase() {
	r := g.r
	pick := func(levels ...int) int { return levels[r.IntN(len(levels))] }
	g.left = 1 + r.IntN(2048)
	g.launch = pick(1, 4, 16, 64)
	g.ctaExit = pick(1, 4, 16, 64)
	g.warpExit = pick(0, 0, 1, 4)
	g.arrive = pick(0, 4, 16, 32, 64)
	g.sy = pick(0, 2, 8, 32)
	g.wild = pick(0, 0, 0, 1, 4, 16)
}

func (g *regPoolStim) chance(k int) bool { return g.r.IntN(64) < k }

func (g *regPoolStim) nwarps(c int) int {
	s := g.pool.CTAStats(c)
	if !s.Valid || s.LaunchReg == 0 {
		return 0
	}
	return int(s.Alloc) / (regpool.WarpSize * s.LaunchReg)
}

func (g *regPoolStim) next(_ uint64, out *rpIn) {
	if g.left == 0 {
		g.phase()
	}
	g.left--
	r := g.r
	var in regpool.Inputs
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
	in.StatCTA = uint16(r.IntN(1 << uint(g.ad.cw)))
	in.StatWarp = uint8(r.IntN(32))
	if r.IntN(2) == 0 {
		in.StatWarp &= 7
	}

	// Run the stimulus's own model to track what the pipeline would see.
	o := g.pool.Eval(in)
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
	g.ad.packIn(&in, out)
}

// PackRegPoolInputs packs in for reg_pool at the parameters p: the value
// (of the unit's unexported wire type) to pass to the Unit's EncodeInput
// or UnitRecording.Record.
func PackRegPoolInputs(p regpool.Params, in *regpool.Inputs) any {
	r := &rpUnit{p: p, cw: max(bits.Len(uint(p.NumCTAs-1)), 1)}
	var w rpIn
	r.packIn(in, &w)
	return w
}
