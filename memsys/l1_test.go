package memsys

import "testing"

// l1Rig drives an L1 with a fake L2 that answers every request Lat cycles
// after taking it (one request a cycle), recording what it was sent.
type l1Rig struct {
	t     *testing.T
	c     *L1
	lat   uint64
	fly   []timed
	sent  []Req
	resps map[uint32]uint64 // response cycle by ID
	order []Resp
}

func newL1Rig(t *testing.T, p L1Params, lat uint64) *l1Rig {
	c, err := NewL1(p)
	if err != nil {
		t.Fatal(err)
	}
	return &l1Rig{t: t, c: c, lat: lat, resps: map[uint32]uint64{}}
}

func testL1Params() L1Params {
	return L1Params{SizeBytes: 4096, Assoc: 4, MSHRs: 4, MSHRTargets: 4, HitLatency: 10, InQueue: 4, MissQueue: 4}
}

// step runs one cycle, pushing reqs (all must be accepted).
func (r *l1Rig) step(reqs ...Req) {
	now := r.c.Now()
	for _, q := range reqs {
		if !r.c.Ready() {
			r.t.Fatalf("cycle %d: L1 not ready", now)
		}
		r.c.Push(q)
	}
	if x, ok := r.c.Resp(); ok {
		r.c.PopResp()
		r.resps[x.ID] = now
		r.order = append(r.order, x)
	}
	if q, ok := r.c.L2Req(); ok {
		r.c.PopL2Req()
		r.sent = append(r.sent, q)
		r.fly = append(r.fly, timed{at: now + r.lat, r: Resp{ID: q.ID, Op: q.Op, Addr: q.Addr, Sectors: q.Sectors}})
	}
	if len(r.fly) > 0 && r.fly[0].at <= now {
		r.c.Fill(r.fly[0].r)
		r.fly = r.fly[1:]
	}
	r.c.Step()
}

func (r *l1Rig) run(n int) {
	for i := 0; i < n; i++ {
		r.step()
	}
}

func (r *l1Rig) latency(id uint32, from uint64) uint64 {
	at, ok := r.resps[id]
	if !ok {
		r.t.Fatalf("no response for %d", id)
	}
	return at - from
}

// A load misses, fills, and hits the second time after HitLatency cycles.
func TestL1HitAfterFill(t *testing.T) {
	r := newL1Rig(t, testL1Params(), 50)
	ld := Req{ID: 1, Op: OpLoad, Addr: 0x1000, Sectors: 0b0001}
	r.step(ld)
	r.run(100)
	miss := r.latency(1, 0)
	if len(r.sent) != 1 || r.sent[0].Sectors != 0b0001 || r.sent[0].Addr != 0x1000 {
		t.Fatalf("sent %+v", r.sent)
	}
	if miss < 50 {
		t.Fatalf("miss took %d cycles", miss)
	}
	if r.c.Present(0x1000) != 0b0001 {
		t.Fatalf("present %#b", r.c.Present(0x1000))
	}
	t0 := r.c.Now()
	r.step(Req{ID: 2, Op: OpLoad, Addr: 0x1000, Sectors: 0b0001})
	r.run(20)
	if got := r.latency(2, t0); got != 10 {
		t.Fatalf("hit latency %d, want 10", got)
	}
	// Another sector of the same line misses (sector fill): only it is
	// fetched.
	t1 := r.c.Now()
	r.step(Req{ID: 3, Op: OpLoad, Addr: 0x1000, Sectors: 0b0011})
	r.run(100)
	if len(r.sent) != 2 || r.sent[1].Sectors != 0b0010 {
		t.Fatalf("sent %+v", r.sent)
	}
	if r.latency(3, t1) < 50 {
		t.Fatal("partial hit answered before the fill")
	}
	st := r.c.Stats()
	if st.SectorHits != 2 || st.SectorMisses != 2 || st.LoadRequests != 3 || st.LoadSectors != 4 {
		t.Fatalf("%+v", st)
	}
	if h := st.HitRate(); h != 50 {
		t.Fatalf("hit rate %v", h)
	}
}

// Misses to a line with an MSHR merge into it: one L2 request for the
// same sectors, one more for new sectors only; all are answered at the
// fill. A full target list and a full MSHR file stall the tag stage.
func TestL1MSHRMerging(t *testing.T) {
	r := newL1Rig(t, testL1Params(), 40)
	r.step(Req{ID: 1, Op: OpLoad, Addr: 0x2000, Sectors: 0b0001})
	r.step(Req{ID: 2, Op: OpLoad, Addr: 0x2000, Sectors: 0b0001})
	r.step(Req{ID: 3, Op: OpLoad, Addr: 0x2000, Sectors: 0b0011})
	r.run(100)
	if len(r.sent) != 2 || r.sent[0].Sectors != 0b0001 || r.sent[1].Sectors != 0b0010 {
		t.Fatalf("sent %+v", r.sent)
	}
	st := r.c.Stats()
	if st.Merged != 2 || st.MissRequests != 2 {
		t.Fatalf("merged %d, miss requests %d", st.Merged, st.MissRequests)
	}
	// 1 and 2 come back with the first fill (one response a cycle on the
	// port), 3 with the second.
	if r.resps[1] < 40 || r.resps[2] != r.resps[1]+1 || r.resps[3] <= r.resps[2] {
		t.Fatalf("responses at %v", r.resps)
	}
	if r.c.OutstandingMSHRs() != 0 || !r.c.Idle() {
		t.Fatal("MSHR not freed")
	}

	// Targets: 2 per MSHR; the third request to the line waits for the fill.
	p := testL1Params()
	p.MSHRTargets = 2
	r = newL1Rig(t, p, 40)
	r.step(Req{ID: 1, Op: OpLoad, Addr: 0x3000, Sectors: 1})
	r.step(Req{ID: 2, Op: OpLoad, Addr: 0x3000, Sectors: 1})
	r.step(Req{ID: 3, Op: OpLoad, Addr: 0x3000, Sectors: 1})
	r.run(100)
	if st := r.c.Stats(); st.StallTargets == 0 || len(r.sent) != 1 {
		t.Fatalf("stalls %+v sent %d", st, len(r.sent))
	}
	// After the fill the third one hits.
	if r.resps[3] != r.resps[1]+10 && r.resps[3] < r.resps[1] {
		t.Fatalf("responses %v", r.resps)
	}

	// MSHRs: 1; a miss to another line waits for the first fill.
	p = testL1Params()
	p.MSHRs = 1
	r = newL1Rig(t, p, 40)
	r.step(Req{ID: 1, Op: OpLoad, Addr: 0x4000, Sectors: 1})
	r.step(Req{ID: 2, Op: OpLoad, Addr: 0x5000, Sectors: 1})
	r.run(200)
	if st := r.c.Stats(); st.StallMSHR == 0 || len(r.sent) != 2 {
		t.Fatalf("stalls %+v sent %d", st, len(r.sent))
	}
	if r.resps[2] < r.resps[1]+40 {
		t.Fatalf("second miss overlapped the first: %v", r.resps)
	}
}

// Global stores write through to the L2 and do not allocate: a store to an
// absent line leaves it absent; a store to a present line keeps it; each
// store's response comes from the L2. An atomic invalidates its sectors.
func TestL1WriteThroughNoAllocate(t *testing.T) {
	r := newL1Rig(t, testL1Params(), 30)
	r.step(Req{ID: 1, Op: OpStore, Addr: 0x6000, Sectors: 0b1111})
	r.run(60)
	if r.c.Present(0x6000) != 0 {
		t.Fatal("store allocated")
	}
	if len(r.sent) != 1 || r.sent[0].Op != OpStore || r.sent[0].ID != 1 || r.latency(1, 0) < 30 {
		t.Fatalf("sent %+v resps %v", r.sent, r.resps)
	}
	// A load after the store still misses.
	r.step(Req{ID: 2, Op: OpLoad, Addr: 0x6000, Sectors: 0b0001})
	r.run(60)
	if st := r.c.Stats(); st.SectorMisses != 1 || st.StoreRequests != 1 || st.StoreSectors != 4 {
		t.Fatalf("%+v", st)
	}
	// A store to the present sector keeps it valid and still goes to L2.
	r.step(Req{ID: 3, Op: OpStore, Addr: 0x6000, Sectors: 0b0011})
	r.run(60)
	if r.c.Present(0x6000) != 0b0001 || len(r.sent) != 3 {
		t.Fatalf("present %#b sent %d", r.c.Present(0x6000), len(r.sent))
	}
	// An atomic goes to the L2 and invalidates.
	r.step(Req{ID: 4, Op: OpAtomic, Addr: 0x6000, Sectors: 0b0001, Lanes: 4})
	r.run(60)
	if r.c.Present(0x6000) != 0 || r.sent[3].Op != OpAtomic || r.resps[4] == 0 {
		t.Fatalf("present %#b sent %+v", r.c.Present(0x6000), r.sent)
	}
}

// LRU replacement within a set: with 4 ways, a fifth line evicts the least
// recently used.
func TestL1LRU(t *testing.T) {
	p := testL1Params() // 4096 B / (128*4) = 8 sets
	r := newL1Rig(t, p, 5)
	stride := uint64(8 * LineBytes) // same set
	for i := uint64(0); i < 4; i++ {
		r.step(Req{ID: uint32(i), Op: OpLoad, Addr: i * stride, Sectors: 1})
		r.run(20)
	}
	r.step(Req{ID: 10, Op: OpLoad, Addr: 0, Sectors: 1}) // touch line 0
	r.run(20)
	r.step(Req{ID: 11, Op: OpLoad, Addr: 4 * stride, Sectors: 1})
	r.run(20)
	if r.c.Present(0) == 0 || r.c.Present(stride) != 0 {
		t.Fatalf("line 0 %#b line 1 %#b", r.c.Present(0), r.c.Present(stride))
	}
}

func TestParamChecks(t *testing.T) {
	bad := []error{
		L1Params{SizeBytes: 1000, Assoc: 4, MSHRs: 1, MSHRTargets: 1, HitLatency: 1, InQueue: 1, MissQueue: 1}.Check(),
		L1Params{SizeBytes: 4096, Assoc: 4, MSHRs: 0, MSHRTargets: 1, HitLatency: 1, InQueue: 1, MissQueue: 1}.Check(),
		ConstParams{SizeBytes: 2048, LineBytes: 48, Assoc: 4, HitLatency: 1, MSHRs: 1, Queue: 1}.Check(),
		DRAMParams{Latency: 1, Queue: 1}.Check(),
		L2Params{SliceBytes: 4096, Assoc: 4, Partitions: 2, Home: 2, LatNear: 1, LatFar: 1, BW: Rate{1, 1}, Queue: 1, DRAM: DRAMParams{Latency: 1, BW: Rate{1, 1}, Queue: 1}}.Check(),
	}
	for i, err := range bad {
		if err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
	if _, err := RateShare(0, 132, 1755); err == nil {
		t.Error("zero bandwidth accepted")
	}
	if _, _, _, _, err := (Figures{L1Hit: 1, L2Near: 10, L2Far: 10, DRAM: 20}).Derive(); err == nil {
		t.Error("L1 hit of 1 accepted")
	}
}

// The cache operators: .cg and .cv are served by the L2 whatever the L1
// holds (.cv also drops the L1's copy), .L1::no_allocate hits but does
// not allocate, .cs allocates its line as the set's next victim and a hit
// does not promote it, .L1::evict_unchanged hits without promoting.
func TestL1CacheOperators(t *testing.T) {
	p := testL1Params() // 8 sets of 4 ways
	stride := uint64(8 * LineBytes)
	load := func(r *l1Rig, id uint32, addr uint64, op CacheOp) uint64 {
		t0 := r.c.Now()
		r.step(Req{ID: id, Op: OpLoad, Addr: addr, Sectors: 1, Cache: op})
		r.run(40)
		return r.latency(id, t0)
	}
	t.Run("cg", func(t *testing.T) {
		r := newL1Rig(t, p, 25)
		if got := load(r, 1, 0, CacheGlobal); got < 25 || r.c.Present(0) != 0 {
			t.Fatalf("cold .cg: %d cycles, present %#b (want the L2's latency, no allocation)", got, r.c.Present(0))
		}
		load(r, 2, 0, CacheAll) // allocates
		if got := load(r, 3, 0, CacheGlobal); got < 25 || len(r.sent) != 3 {
			t.Fatalf(".cg of a present line: %d cycles, %d L2 requests (want the L2, 3)", got, len(r.sent))
		}
		if r.c.Present(0) != 1 {
			t.Fatal(".cg dropped a line")
		}
		if st := r.c.Stats(); st.SectorHits != 0 || st.SectorMisses != 3 {
			t.Fatalf("%+v: .cg loads count as misses", st)
		}
	})
	t.Run("cv", func(t *testing.T) {
		r := newL1Rig(t, p, 25)
		load(r, 1, 0, CacheAll)
		r.step(Req{ID: 2, Op: OpLoad, Addr: 0, Sectors: 1, Cache: CacheVolatile})
		if r.c.Present(0) != 0 {
			t.Fatalf(".cv kept the L1's copy: %#b", r.c.Present(0))
		}
		r.run(40)
		if len(r.sent) != 2 {
			t.Fatalf(".cv sent %d requests to the L2, want 2", len(r.sent))
		}
		// The fill of the line the .cv found allocated makes it valid again.
		if got := load(r, 3, 0, CacheAll); got != uint64(p.HitLatency) {
			t.Fatalf("load after .cv: %d cycles, want a hit", got)
		}
	})
	t.Run("no_allocate", func(t *testing.T) {
		r := newL1Rig(t, p, 25)
		if load(r, 1, 0, CacheNoAllocate); r.c.Present(0) != 0 {
			t.Fatal(".L1::no_allocate allocated")
		}
		load(r, 2, 0, CacheAll)
		if got := load(r, 3, 0, CacheNoAllocate); got != uint64(p.HitLatency) {
			t.Fatalf(".L1::no_allocate of a present line: %d cycles, want a hit", got)
		}
	})
	// Four lines fill a set, then a fifth comes in: which one goes.
	victimAfter := func(op CacheOp, touch CacheOp) uint64 {
		r := newL1Rig(t, p, 5)
		load(r, 1, 0, op) // line 0 with op, oldest of the normal order if op is normal
		for i := uint64(1); i < 4; i++ {
			load(r, uint32(10+i), i*stride, CacheAll)
		}
		load(r, 20, 0, touch) // a hit on line 0
		load(r, 21, 4*stride, CacheAll)
		for i := uint64(0); i < 4; i++ {
			if r.c.Present(i*stride) == 0 {
				return i
			}
		}
		t.Fatal("nothing evicted")
		return 0
	}
	if v := victimAfter(CacheAll, CacheAll); v != 1 {
		t.Fatalf(".ca line hit last: line %d evicted, want 1", v)
	}
	if v := victimAfter(CacheStream, CacheAll); v != 1 {
		t.Fatalf(".cs line hit by .ca: line %d evicted, want 1 (a .ca hit promotes it)", v)
	}
	if v := victimAfter(CacheStream, CacheStream); v != 0 {
		t.Fatalf(".cs line hit by .cs: line %d evicted, want 0 (evict first)", v)
	}
	if v := victimAfter(CacheAll, CacheUnchanged); v != 0 {
		t.Fatalf(".ca line hit by .L1::evict_unchanged: line %d evicted, want 0 (the hit does not promote)", v)
	}
}
