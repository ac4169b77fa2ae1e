package regpool

import (
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// Pool is one reg_pool instance: a two-phase unit (rtl.Unit).
//
// State is large (arrays sized by MaxCTAs), so Eval and Tick do not copy it
// whole: Eval restores from Q the CTAs the previous Eval changed in D, and
// Tick copies those to Q (the global registers are always copied). The
// observable behaviour is exactly D = f(Q, inputs) and Q = D;
// rtltest.CheckTwoPhase verifies it.
type Pool struct {
	p    Params
	q, d State

	dirty    []uint16 // CTAs whose D may differ from Q
	dirtySet rtl.Bits
	dirtyG   bool // the global registers of D may differ from Q

	// Scratch of one Eval (reset at its start).
	out      Outputs
	relN     int
	relCTA   [MaxPorts]int    // registers released by .dec this cycle, by CTA
	relRegs  [MaxPorts]uint32 // (not yet visible to grants)
	errTaken bool
}

var _ rtl.Unit[Inputs, Outputs, State] = (*Pool)(nil)
var _ rtl.Resetter = (*Pool)(nil)

// New checks p and returns a pool in its reset state.
func New(p Params) (*Pool, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	u := &Pool{p: p, dirty: make([]uint16, 0, p.NumCTAs)}
	u.Reset()
	return u, nil
}

// Params returns the unit's parameters.
func (u *Pool) Params() Params { return u.p }

// Reset puts every register in its reset state: no CTA resident, and the
// grant arbiter's round-robin search starting at CTA slot 0.
func (u *Pool) Reset() {
	u.q = State{GrantRR: uint16(u.p.NumCTAs - 1)}
	u.d = u.q
	u.dirty, u.dirtySet, u.dirtyG = u.dirty[:0], rtl.Bits{}, false
}

// Q returns the registers.
func (u *Pool) Q() State { return u.q }

// QRef returns a pointer to the registers, for observers that read them
// every cycle without copying State (about 150 KB: its arrays are sized
// for MaxCTAs). The pointee is valid until the next Tick; do not write
// through it.
func (u *Pool) QRef() *State { return &u.q }

// D returns the next-state values computed by the last Eval.
func (u *Pool) D() State { return u.d }

// Tick is always_ff: Q = D.
func (u *Pool) Tick() {
	u.copyDirty(&u.q, &u.d)
	u.dirtyG = false
}

// restore sets D = Q.
func (u *Pool) restore() { u.copyDirty(&u.d, &u.q) }

// copyDirty copies the CTAs touched since the last copy, and the global
// state if it was touched, from src to dst.
func (u *Pool) copyDirty(dst, src *State) {
	if len(u.dirty) > 0 {
		for _, c := range u.dirty {
			copyCTA(dst, src, int(c))
		}
		u.dirty, u.dirtySet = u.dirty[:0], rtl.Bits{}
	}
	if u.dirtyG {
		copyGlobal(dst, src)
	}
}

// quiet reports whether in carries no event and no warpgroup is blocked:
// then D = Q and only the statistics outputs are driven.
func (u *Pool) quiet(in *Inputs) bool {
	nw := (u.p.NumCTAs + 63) / 64
	for i := 0; i < nw; i++ {
		if u.q.BlkAny[i]|in.CTALaunch[i]|in.CTAExit[i] != 0 {
			return false
		}
	}
	for i := 0; i < u.p.NumPorts; i++ {
		if in.ArriveValid[i] || in.ExitValid[i] || in.SyncValid[i] {
			return false
		}
	}
	return true
}

// touch records that CTA c's D is about to change.
func (u *Pool) touch(c int) {
	if !u.dirtySet.Has(c) {
		u.dirtySet.Set(c)
		u.dirty = append(u.dirty, uint16(c))
	}
}

// members is the mask of warps (bit i: warp i of the CTA) of warpgroup g
// of a CTA with nw warps.
func members(nw, g int) uint32 {
	lo, hi := g*WarpsPerGroup, min(g*WarpsPerGroup+WarpsPerGroup, nw)
	if hi <= lo {
		return 0
	}
	return uint32((uint64(1)<<uint(hi) - 1) &^ (uint64(1)<<uint(lo) - 1))
}

func groups(nw int) int { return (nw + WarpsPerGroup - 1) / WarpsPerGroup }

func allWarps(nw int) uint32 { return uint32(uint64(1)<<uint(nw) - 1) }

func roundUp(v, a int) int { return (v + a - 1) / a * a }

// footprint is a CTA's register-file footprint.
func (u *Pool) footprint(nw, nreg int) uint32 {
	return uint32(nw * roundUp(nreg*WarpSize, u.p.RegAllocUnit))
}

// alloc is a CTA's pool size: every register it owns (warps and pool).
func alloc(s *State, c int) uint32 {
	return uint32(s.NWarps[c]) * WarpSize * uint32(s.LaunchNReg[c])
}

// used is the number of registers the CTA's warps own above the launch
// count: registers that came from the pool.
func used(s *State, c int) uint32 {
	nw, l := int(s.NWarps[c]), s.LaunchNReg[c]
	var n uint32
	for g := 0; g < groups(nw); g++ {
		if r := s.NReg[c][g]; r > l {
			n += uint32(r-l) * WarpSize * uint32(bits.OnesCount32(members(nw, g)))
		}
	}
	return n
}

func incOf(s *State, c, g int) bool { return s.Inc[c]&(1<<uint(g)) != 0 }

// fail records the first protocol error of the cycle.
func (u *Pool) fail(code ErrCode, c, w int) {
	if u.errTaken {
		return
	}
	u.errTaken = true
	u.out.ErrValid, u.out.ErrCode = true, code
	u.out.ErrCTA, u.out.ErrWarp = uint16(c), uint8(w)
}

func (u *Pool) release(i, c int, warps uint32, old, nw uint16, noEffect bool) {
	o := &u.out
	o.RelValid[i], o.RelCTA[i], o.RelWarps[i] = true, uint16(c), warps
	o.RelOld[i], o.RelNew[i], o.RelNoEffect[i] = old, nw, noEffect
}

func (u *Pool) ub(i, c, w int, k UBKind) {
	o := &u.out
	o.UBValid[i], o.UBCTA[i], o.UBWarp[i], o.UBKind[i] = true, uint16(c), uint8(w), k
}

// Eval is always_comb: from the inputs and Q it computes the outputs and D.
// Within the cycle the events are applied in this order: CTA exits, CTA
// launches, warp exits (by port), barrier releases (by port), arrivals (by
// port), one grant, then the blocked-cycle counters, the high-water marks
// and the deadlock outputs.
func (u *Pool) Eval(in Inputs) Outputs {
	u.restore()
	u.out, u.relN, u.errTaken = Outputs{}, 0, false
	if u.quiet(&in) {
		u.stats(&in)
		return u.out
	}
	u.dirtyG = true
	d, n := &u.d, u.p.NumCTAs

	if in.CTAExit.Any() {
		for c := in.CTAExit.NextFrom(0, n); c >= 0; c = in.CTAExit.NextFrom(c+1, n) {
			u.ctaExit(c)
		}
	}
	if in.CTALaunch.Any() {
		for c := in.CTALaunch.NextFrom(0, n); c >= 0; c = in.CTALaunch.NextFrom(c+1, n) {
			u.ctaLaunch(c, &in)
		}
	}
	for i := 0; i < u.p.NumPorts; i++ {
		if in.ExitValid[i] {
			u.warpExit(i, int(in.ExitCTA[i]), int(in.ExitWarp[i]))
		}
	}
	for i := 0; i < u.p.NumPorts; i++ {
		if in.SyncValid[i] {
			u.sync(int(in.SyncCTA[i]), in.SyncWarps[i])
		}
	}
	for i := 0; i < u.p.NumPorts; i++ {
		if in.ArriveValid[i] {
			u.arrive(i, &in)
		}
	}
	if d.BlkAny.Any() {
		u.grant()
		u.account()
	}
	u.stats(&in)
	return u.out
}

func (u *Pool) validCTA(c int) bool { return c >= 0 && c < u.p.NumCTAs && u.d.Valid.Has(c) }

// liveWarp checks that warp w of CTA c exists and has not exited, reporting
// NO_CTA, BAD_WARP or EXITED otherwise; it returns the CTA's warp count and
// the warp's bit.
func (u *Pool) liveWarp(c, w int) (nw int, bit uint32, ok bool) {
	if !u.validCTA(c) {
		u.fail(ErrNoCTA, c, w)
		return 0, 0, false
	}
	nw = int(u.d.NWarps[c])
	if w >= nw {
		u.fail(ErrBadWarp, c, w)
		return 0, 0, false
	}
	bit = uint32(1) << uint(w)
	if u.d.Exited[c]&bit != 0 {
		u.fail(ErrExited, c, w)
		return 0, 0, false
	}
	return nw, bit, true
}

// ctaExit releases everything the CTA holds.
func (u *Pool) ctaExit(c int) {
	d := &u.d
	if !d.Valid.Has(c) {
		u.fail(ErrCTAExitIdle, c, 0)
		return
	}
	nw := int(d.NWarps[c])
	if d.Exited[c] != allWarps(nw) || d.Wait[c] != 0 || d.Blk[c] != 0 {
		u.fail(ErrCTAExitLive, c, bits.TrailingZeros32(^d.Exited[c]))
	}
	u.touch(c)
	d.RFUsed -= min(d.RFUsed, u.footprint(nw, int(d.LaunchNReg[c])))
	zeroCTA(d, c)
	d.Valid.Clear(c)
	d.Effect.Clear(c)
	d.BlkAny.Clear(c)
}

// ctaLaunch gives the new CTA launchCount x 32 registers per warp, every
// warp launchCount per thread, and an empty pool.
func (u *Pool) ctaLaunch(c int, in *Inputs) {
	d := &u.d
	if d.Valid.Has(c) {
		u.fail(ErrLaunchBusy, c, 0)
		return
	}
	threads := int(in.KernThreads)
	l := roundUp(int(in.KernNReg), u.p.AllocGranularity)
	if threads < 1 || threads > u.p.MaxThreadsPerCTA || l > u.p.MaxRegsPerThread {
		u.fail(ErrLaunchShape, c, 0)
		return
	}
	nw := (threads + WarpSize - 1) / WarpSize
	fp := u.footprint(nw, l)
	if uint64(d.RFUsed)+uint64(fp) > uint64(u.p.Regfile) {
		u.fail(ErrLaunchRegfile, c, 0)
		return
	}
	u.touch(c)
	zeroCTA(d, c)
	d.Valid.Set(c)
	d.Effect.Put(c, in.KernNRegValid)
	d.BlkAny.Clear(c)
	d.NWarps[c], d.LaunchNReg[c] = uint8(nw), uint16(l)
	for g := 0; g < groups(nw); g++ {
		d.NReg[c][g] = uint16(l)
	}
	d.RFUsed += fp
}

// warpExit marks warp w of CTA c exited. A warpgroup waiting at a
// setmaxnreg without it can never complete: the waiting warps are released
// without effect and the exit is reported as NOT_ALL_WARPS.
func (u *Pool) warpExit(i, c, w int) {
	d := &u.d
	nw, bit, ok := u.liveWarp(c, w)
	if !ok {
		return
	}
	u.touch(c)
	g := w / WarpsPerGroup
	m := members(nw, g)
	gb := uint8(1) << uint(g)
	held := d.Wait[c]&bit != 0 || d.Blk[c]&gb != 0
	if held {
		u.fail(ErrBusy, c, w)
	}
	d.Exited[c] |= bit
	others := m &^ d.Exited[c]
	r := u.p.RelExit(i)
	switch {
	case d.Blk[c]&gb != 0:
		// Protocol error: a blocked warp cannot exit. Abandon the .inc.
		d.Blk[c] &^= gb
		if d.Blk[c] == 0 {
			d.BlkAny.Clear(c)
		}
		if others != 0 {
			u.release(r, c, others, d.NReg[c][g], d.NReg[c][g], false)
		}
	case d.Wait[c]&m != 0:
		waiting := d.Wait[c] & m &^ bit
		d.Wait[c] &^= m
		if !held {
			u.ub(r, c, w, UBNotAllWarps)
		}
		if waiting != 0 {
			u.release(r, c, waiting, d.NReg[c][g], d.NReg[c][g], false)
		}
	}
}

// sync clears the "setmaxnreg executed, not synchronized since" flag of
// every warpgroup of CTA c whose non-exited warps are all in warps.
func (u *Pool) sync(c int, warps uint32) {
	d := &u.d
	if !u.validCTA(c) {
		u.fail(ErrNoCTA, c, 0)
		return
	}
	nw := int(d.NWarps[c])
	if warps&^allWarps(nw) != 0 {
		u.fail(ErrBadWarp, c, bits.Len32(warps)-1)
	}
	var clr uint8
	for g := 0; g < groups(nw); g++ {
		live := members(nw, g) &^ d.Exited[c]
		if live != 0 && warps&live == live {
			clr |= 1 << uint(g)
		}
	}
	if d.Unsync[c]&clr != 0 {
		u.touch(c)
		d.Unsync[c] &^= clr
	}
}

// arrive handles arrival port i: a warp executes setmaxnreg.
func (u *Pool) arrive(i int, in *Inputs) {
	d := &u.d
	c, w := int(in.ArriveCTA[i]), int(in.ArriveWarp[i])
	nw, bit, ok := u.liveWarp(c, w)
	if !ok {
		return
	}
	g := w / WarpsPerGroup
	gb := uint8(1) << uint(g)
	if d.Wait[c]&bit != 0 || d.Blk[c]&gb != 0 {
		u.fail(ErrBusy, c, w)
		return
	}
	cnt, pc, inc := in.ArriveCount[i], in.ArrivePC[i], in.ArriveInc[i]
	if cnt < MinCount || cnt > MaxCount || cnt%CountStep != 0 {
		u.fail(ErrBadCount, c, w)
		return
	}
	u.touch(c)
	m := members(nw, g)
	cur := d.NReg[c][g]
	var k UBKind
	if !in.ArriveFullWarp[i] {
		k |= UBPartialWarp
	}
	if d.Unsync[c]&gb != 0 {
		k |= UBNoSyncBetween
	}
	if inc && cnt < cur {
		k |= UBIncBelow
	}
	if !inc && cnt > cur {
		k |= UBDecAbove
	}
	waiting := d.Wait[c] & m
	mismatch := waiting != 0 && (d.PC[c][g] != pc || d.Count[c][g] != cnt || incOf(d, c, g) != inc)
	if d.Exited[c]&m != 0 || mismatch {
		// Not executed by all warps of the warpgroup: abandon it; the
		// waiting warps and this one go on without effect.
		u.ub(i, c, w, k|UBNotAllWarps)
		d.Wait[c] &^= m
		u.release(i, c, waiting|bit, cur, cur, false)
		return
	}
	if k != 0 {
		u.ub(i, c, w, k)
	}
	if waiting == 0 {
		d.PC[c][g], d.Count[c][g] = pc, cnt
		if inc {
			d.Inc[c] |= gb
		} else {
			d.Inc[c] &^= gb
		}
	}
	d.Wait[c] |= bit
	if d.Wait[c]&m == m {
		u.complete(i, c, g)
	}
}

// complete runs a warpgroup's setmaxnreg once all its warps have arrived.
func (u *Pool) complete(i, c, g int) {
	d := &u.d
	nw := int(d.NWarps[c])
	m := members(nw, g)
	d.Wait[c] &^= m
	cur, cnt, inc := d.NReg[c][g], d.Count[c][g], incOf(d, c, g)
	gb := uint8(1) << uint(g)
	switch {
	case !d.Effect.Has(c):
		d.Unsync[c] |= gb
		u.release(i, c, m, cur, cur, true)
		return
	case inc && cnt > cur:
		// Blocks until the pool holds the registers; the grant arbiter
		// decides, possibly this very cycle.
		d.Blk[c] |= gb
		d.BlkAny.Set(c)
		return
	case !inc && cnt < cur:
		r := uint32(cur-cnt) * WarpSize * uint32(bits.OnesCount32(m))
		d.Free[c] += r
		d.NReg[c][g] = cnt
		u.relCTA[u.relN], u.relRegs[u.relN] = c, r
		u.relN++
	}
	// Equal counts, or an .inc below / .dec above the current count
	// (undefined behaviour, reported at arrival): nothing changes.
	d.Unsync[c] |= gb
	u.release(i, c, m, cur, d.NReg[c][g], false)
}

// need is the number of registers blocked warpgroup g of CTA c waits for.
func need(s *State, c, g int) uint32 {
	nw := int(s.NWarps[c])
	return uint32(s.Count[c][g]-s.NReg[c][g]) * WarpSize * uint32(bits.OnesCount32(members(nw, g)))
}

// grant is the SM's single allocator: at most one blocked warpgroup per
// cycle gets its registers. CTAs are served round-robin starting after the
// last one granted; within a CTA the lowest warpgroup whose request fits
// the pool. Registers released this cycle are not yet in the pool.
func (u *Pool) grant() {
	d, n := &u.d, u.p.NumCTAs
	start := int(u.q.GrantRR) + 1
	if start >= n {
		start = 0
	}
	try := func(c int) bool {
		avail := d.Free[c]
		for k := 0; k < u.relN; k++ {
			if u.relCTA[k] == c {
				avail -= u.relRegs[k]
			}
		}
		for b := d.Blk[c]; b != 0; b &= b - 1 {
			g := bits.TrailingZeros8(b)
			r := need(d, c, g)
			if r > avail {
				continue
			}
			u.touch(c)
			gb := uint8(1) << uint(g)
			old := d.NReg[c][g]
			d.Free[c] -= r
			d.NReg[c][g] = d.Count[c][g]
			d.Blk[c] &^= gb
			if d.Blk[c] == 0 {
				d.BlkAny.Clear(c)
			}
			d.Unsync[c] |= gb
			d.GrantRR = uint16(c)
			d.HighWater[c] = max(d.HighWater[c], used(d, c))
			u.release(u.p.RelGrant(), c, members(int(d.NWarps[c]), g), old, d.NReg[c][g], false)
			return true
		}
		return false
	}
	for c := d.BlkAny.NextFrom(start, n); c >= 0; c = d.BlkAny.NextFrom(c+1, n) {
		if try(c) {
			return
		}
	}
	for c := d.BlkAny.NextFrom(0, start); c >= 0; c = d.BlkAny.NextFrom(c+1, start) {
		if try(c) {
			return
		}
	}
}

// account counts a blocked cycle for every warpgroup still blocked, and
// drives the deadlock outputs.
func (u *Pool) account() {
	d, n, o := &u.d, u.p.NumCTAs, &u.out
	for c := d.BlkAny.NextFrom(0, n); c >= 0; c = d.BlkAny.NextFrom(c+1, n) {
		u.touch(c)
		o.IncBlocked = true
		nw := int(d.NWarps[c])
		// The most the pool could ever hold: what it holds now, plus what
		// every warpgroup that can still execute a setmaxnreg (not blocked,
		// no exited warp) could release by going down to MinCount.
		most := uint64(d.Free[c])
		for g := 0; g < groups(nw); g++ {
			m := members(nw, g)
			if d.Blk[c]&(1<<uint(g)) != 0 || d.Exited[c]&m != 0 {
				continue
			}
			if r := d.NReg[c][g]; r > MinCount {
				most += uint64(r-MinCount) * WarpSize * uint64(bits.OnesCount32(m))
			}
		}
		var warps, first uint32
		for b := d.Blk[c]; b != 0; b &= b - 1 {
			g := bits.TrailingZeros8(b)
			d.BlkCycles[c][g]++
			if r := need(d, c, g); uint64(r) > most {
				if warps == 0 {
					first = r
				}
				warps |= members(nw, g)
			}
		}
		if warps != 0 && !o.IncUnsat {
			o.IncUnsat, o.IncUnsatCTA, o.IncUnsatWarps = true, uint16(c), warps
			o.IncUnsatNeed, o.IncUnsatFree, o.IncUnsatMax = first, d.Free[c], uint32(min(most, 1<<32-1))
		}
	}
}
