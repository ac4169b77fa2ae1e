package regpool

import (
	"hash/fnv"
	"math/rand"
	"testing"
)

// randomRun drives a pool with random inputs for n cycles: mostly
// well-formed traffic (launches, warpgroups arriving at the same
// setmaxnreg, barrier releases, exits, CTA exits), mixed with garbage
// (out-of-range indices, bad counts, repeated events). It checks, every
// cycle, that the registers the warps own plus the pool equal each CTA's
// allocation and a few structural invariants, and every 50th cycle the
// two-phase discipline. It returns a hash of all outputs.
func randomRun(t *testing.T, seed int64, n int) uint64 {
	t.Helper()
	r := rand.New(rand.NewSource(seed))
	p := Params{NumCTAs: 3, NumPorts: 4, AllocGranularity: []int{1, 2, 4, 8}[r.Intn(4)], MaxThreadsPerCTA: 1024,
		MaxRegsPerThread: 256, Regfile: 40000 + r.Intn(30000), RegAllocUnit: []int{32, 256, 512}[r.Intn(3)]}
	u, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	type intent struct {
		pc  uint32
		inc bool
		cnt uint16
	}
	var plan [MaxCTAs][MaxGroups]intent
	hash := fnv.New64a()
	q0 := new(State)
	counts := []uint16{24, 32, 40, 64, 96, 128, 136, 160, 192, 200, 232, 256}
	kern := Inputs{KernThreads: uint16(1 + r.Intn(700)), KernNReg: uint16(r.Intn(200)), KernNRegValid: r.Intn(5) != 0}
	for cyc := 0; cyc < n; cyc++ {
		in := kern
		if r.Intn(500) == 0 { // occasionally a different launch shape, possibly bad
			kern.KernThreads, kern.KernNReg, kern.KernNRegValid = uint16(r.Intn(1100)), uint16(r.Intn(300)), r.Intn(2) == 0
		}
		q := &u.q // read only; Eval leaves Q alone
		if r.Intn(20) == 0 {
			in.CTALaunch.Set(r.Intn(p.NumCTAs + 1))
		}
		if r.Intn(40) == 0 {
			c := r.Intn(p.NumCTAs)
			if q.Valid.Has(c) && (q.Exited[c] == allWarps(int(q.NWarps[c])) || r.Intn(10) == 0) {
				in.CTAExit.Set(c)
			}
		}
		// Choose warps per port; a valid CTA most of the time.
		pick := func() (int, int) {
			c := r.Intn(p.NumCTAs)
			if r.Intn(30) == 0 {
				return r.Intn(1100), r.Intn(40)
			}
			nw := max(int(q.NWarps[c]), 1)
			return c, r.Intn(nw)
		}
		for i := 0; i < p.NumPorts; i++ {
			if r.Intn(60) == 0 {
				c, w := pick()
				live := q.Wait[c%MaxCTAs]&(1<<uint(w%32)) == 0
				if live || r.Intn(5) == 0 {
					in.ExitValid[i], in.ExitCTA[i], in.ExitWarp[i] = true, uint16(c), uint8(w)
				}
			}
			if r.Intn(15) == 0 {
				c, _ := pick()
				m := ^uint32(0)
				if c < MaxCTAs {
					m = allWarps(int(q.NWarps[c]))
				}
				if r.Intn(4) == 0 {
					m &= r.Uint32()
				}
				in.SyncValid[i], in.SyncCTA[i], in.SyncWarps[i] = true, uint16(c), m
			}
			if r.Intn(3) == 0 {
				c, w := pick()
				g := (w / 4) % MaxGroups
				cc := c % MaxCTAs
				if q.Wait[cc]&members(int(q.NWarps[cc]), g) == 0 {
					plan[cc][g] = intent{pc: uint32(r.Intn(3)) * 16, inc: r.Intn(2) == 0, cnt: counts[r.Intn(len(counts))]}
				}
				it := plan[cc][g]
				if r.Intn(12) == 0 {
					it = intent{pc: uint32(r.Intn(3)) * 16, inc: r.Intn(2) == 0, cnt: uint16(r.Intn(270))}
				}
				in.ArriveValid[i], in.ArriveCTA[i], in.ArriveWarp[i] = true, uint16(c), uint8(w)
				in.ArrivePC[i], in.ArriveInc[i], in.ArriveCount[i] = it.pc, it.inc, it.cnt
				in.ArriveFullWarp[i] = r.Intn(20) != 0
			}
		}
		in.StatCTA, in.StatWarp = uint16(r.Intn(p.NumCTAs+1)), uint8(r.Intn(33))

		check := cyc%50 == 0
		if check {
			*q0 = u.Q()
		}
		o := u.Eval(in)
		if check {
			d := u.D()
			if u.Q() != *q0 {
				t.Fatalf("seed %d cycle %d: Eval changed Q", seed, cyc)
			}
			if o2 := u.Eval(in); o2 != o || u.D() != d {
				t.Fatalf("seed %d cycle %d: Eval not idempotent", seed, cyc)
			}
			u.Tick()
			if u.Q() != d {
				t.Fatalf("seed %d cycle %d: Q != D after Tick", seed, cyc)
			}
		} else {
			u.Tick()
		}
		if msg := invariant(u); msg != "" {
			t.Fatalf("seed %d cycle %d: %s", seed, cyc, msg)
		}
		if msg := structure(u, o); msg != "" {
			t.Fatalf("seed %d cycle %d: %s", seed, cyc, msg)
		}
		var b [8]byte
		for _, v := range []uint64{uint64(o.ErrCode), uint64(o.IncUnsatWarps), uint64(o.StatFree), o.StatBlockedCycles} {
			for k := range b {
				b[k] = byte(v >> (8 * k))
			}
			hash.Write(b[:])
		}
		for i := range o.RelValid {
			if o.RelValid[i] {
				hash.Write([]byte{byte(i), byte(o.RelCTA[i]), byte(o.RelWarps[i]), byte(o.RelOld[i]), byte(o.RelNew[i])})
			}
		}
		for i := range o.UBValid {
			if o.UBValid[i] {
				hash.Write([]byte{byte(i), byte(o.UBCTA[i]), o.UBWarp[i], byte(o.UBKind[i])})
			}
		}
	}
	return hash.Sum64()
}

// structure checks relations between the registers and the outputs.
func structure(u *Pool, o Outputs) string {
	q := &u.q
	for c := 0; c < u.p.NumCTAs; c++ {
		if !q.Valid.Has(c) {
			if q.Wait[c] != 0 || q.Blk[c] != 0 || q.Free[c] != 0 || q.BlkAny.Has(c) || q.Effect.Has(c) {
				return "idle CTA slot holds state"
			}
			continue
		}
		nw := int(q.NWarps[c])
		if nw < 1 || nw > MaxCTAWarps {
			return "bad warp count"
		}
		if q.Wait[c]&q.Exited[c] != 0 || q.Wait[c]&^allWarps(nw) != 0 || q.Exited[c]&^allWarps(nw) != 0 {
			return "waiting or exited warp out of place"
		}
		if (q.Blk[c] != 0) != q.BlkAny.Has(c) {
			return "cta_blk_any_q out of step"
		}
		for g := 0; g < MaxGroups; g++ {
			m := members(nw, g)
			gb := uint8(1) << uint(g)
			if m == 0 && (q.Blk[c]&gb != 0 || q.NReg[c][g] != 0) {
				return "state for a warpgroup that does not exist"
			}
			if q.Blk[c]&gb != 0 && (q.Wait[c]&m != 0 || q.Exited[c]&m != 0 || q.Count[c][g] <= q.NReg[c][g] || !q.Effect.Has(c)) {
				return "blocked warpgroup inconsistent"
			}
			if w := q.Wait[c] & m; w != 0 && w == m {
				return "complete warpgroup left waiting"
			}
			if q.NReg[c][g] > MaxCount {
				return "count above 256"
			}
		}
	}
	for i := range o.RelValid {
		if o.RelValid[i] && (o.RelWarps[i] == 0 || i >= u.p.NumRel() && i < MaxRel) {
			return "bad release record"
		}
	}
	if o.IncUnsat && (!o.IncBlocked || o.IncUnsatWarps == 0 || uint64(o.IncUnsatNeed) <= uint64(o.IncUnsatMax)) {
		return "bad unsatisfiable report"
	}
	for i := range o.UBValid {
		if o.UBValid[i] && (o.UBKind[i] == 0 || i >= 2*u.p.NumPorts) {
			return "bad UB report"
		}
	}
	if o.ErrValid == (o.ErrCode == ErrNone) {
		return "err_valid_o and err_code_o disagree"
	}
	return ""
}

func TestRandom(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		h1 := randomRun(t, seed, 3000)
		if h2 := randomRun(t, seed, 3000); h1 != h2 {
			t.Fatalf("seed %d: two runs differ", seed)
		}
	}
}

// TestRandomCoverage makes sure the random traffic reaches the interesting
// states (grants, blocked and unsatisfiable requests, every UB kind).
func TestRandomCoverage(t *testing.T) {
	var grants, unsat int
	var kinds UBKind
	r := rand.New(rand.NewSource(5))
	u, _ := New(Params{NumCTAs: 2, NumPorts: 4, AllocGranularity: 8, MaxThreadsPerCTA: 1024, MaxRegsPerThread: 256, Regfile: 65536, RegAllocUnit: 256})
	kern := Inputs{KernThreads: 256, KernNReg: 120, KernNRegValid: true}
	for cyc := 0; cyc < 20000; cyc++ {
		q := &u.q
		in := kern
		for c := 0; c < 2; c++ {
			if !q.Valid.Has(c) {
				in.CTALaunch.Set(c)
			} else if q.Exited[c] == 0xff {
				in.CTAExit.Set(c)
			}
		}
		port := 0
		if r.Intn(3) == 0 {
			c, g := r.Intn(2), r.Intn(2)
			inc := r.Intn(2) == 0
			cnt := uint16(24 + 8*r.Intn(30))
			for w := g * 4; w < g*4+4 && port < 4; w++ {
				if r.Intn(10) != 0 {
					in.ArriveValid[port], in.ArriveCTA[port], in.ArriveWarp[port] = true, uint16(c), uint8(w)
					in.ArriveInc[port], in.ArriveCount[port], in.ArriveFullWarp[port] = inc, cnt, r.Intn(30) != 0
					port++
				}
			}
		}
		if r.Intn(4) == 0 {
			in.SyncValid[0], in.SyncCTA[0], in.SyncWarps[0] = true, uint16(r.Intn(2)), 0xff
		}
		if r.Intn(80) == 0 {
			in.ExitValid[0], in.ExitCTA[0], in.ExitWarp[0] = true, uint16(r.Intn(2)), uint8(r.Intn(8))
		}
		o := u.Eval(in)
		u.Tick()
		if msg := invariant(u); msg != "" {
			t.Fatalf("cycle %d: %s", cyc, msg)
		}
		if o.RelValid[u.p.RelGrant()] {
			grants++
		}
		if o.IncUnsat {
			unsat++
		}
		for i := range o.UBValid {
			if o.UBValid[i] {
				kinds |= o.UBKind[i]
			}
		}
	}
	if grants == 0 || unsat == 0 || kinds != UBNotAllWarps|UBNoSyncBetween|UBDecAbove|UBIncBelow|UBPartialWarp {
		t.Fatalf("coverage: %d grants, %d unsatisfiable cycles, UB kinds %s", grants, unsat, kinds)
	}
}
