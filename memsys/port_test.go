package memsys_test

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/unitcfg"
)

// drv drives a Port one cycle at a time, as the load/store stage will,
// and collects the responses.
type drv struct {
	t    testing.TB
	p    *memsys.Port
	resp []memsys.Response
}

func newDrv(t testing.TB, cfg config.Config) *drv {
	t.Helper()
	return &drv{t: t, p: mustBuild(t, cfg, unitcfg.Port, memsys.NewPort)}
}

// cycle runs one cycle offering req (nil: none).
func (d *drv) cycle(req *memsys.Request) *memsys.PortOutputs {
	o := d.p.Step(req)
	if o.Err != nil {
		d.t.Fatalf("request %+v: %v", req, o.Err)
	}
	d.resp = append(d.resp, o.Responses()...)
	return o
}

// issue offers req until the port takes it and returns the cycle it did
// and the facts.
func (d *drv) issue(req memsys.Request) (uint64, memsys.Facts) {
	d.t.Helper()
	for i := 0; i < 100000; i++ {
		at := d.p.Now()
		if o := d.cycle(&req); o.Ready {
			return at, o.Facts
		}
	}
	d.t.Fatal("request never taken")
	return 0, memsys.Facts{}
}

// wait steps until the response tagged tag and returns it.
func (d *drv) wait(tag uint32) memsys.Response {
	d.t.Helper()
	for i := 0; i < 1000000; i++ {
		for j, r := range d.resp {
			if r.Tag == tag {
				d.resp = append(d.resp[:j], d.resp[j+1:]...)
				return r
			}
		}
		d.cycle(nil)
	}
	d.t.Fatalf("no response for tag %d", tag)
	return memsys.Response{}
}

// do performs req alone and returns its latency.
func (d *drv) do(req memsys.Request) uint64 {
	d.t.Helper()
	at, _ := d.issue(req)
	r := d.wait(req.Tag)
	if r.Issued != at {
		d.t.Fatalf("issued %d, taken at %d", r.Issued, at)
	}
	return r.Cycle - r.Issued
}

func strided(op memsys.Op, sp memsys.Space, base uint64, size, strideWords int) memsys.Request {
	r := memsys.Request{Op: op, Space: sp, Size: size, Mask: ^uint32(0)}
	for l := range r.Addr {
		r.Addr[l] = base + uint64(l*strideWords*4)
	}
	return r
}

// Shared-memory bank conflicts: 4-byte loads at a lane stride of n words
// are an n-way conflict, n wavefronts, n-1 replays, and cost n-1 cycles
// more than a conflict-free load; all lanes reading one word is a
// broadcast, no conflict.
func TestPortBankConflicts(t *testing.T) {
	cfg := config.Default()
	d := newDrv(t, cfg)
	for _, n := range []int{1, 2, 4, 8, 16, 32} {
		req := strided(memsys.OpLoad, memsys.SpaceShared, 0, 4, n)
		req.Tag = uint32(n)
		_, f := d.issue(req)
		if f.Path != memsys.PathMIO || f.Wavefronts != n || f.Conflicts != n-1 {
			t.Errorf("%d-way: %+v", n, f)
		}
		r := d.wait(req.Tag)
		if lat := r.Cycle - r.Issued; lat != uint64(cfg.Lat.Shared+n-1) {
			t.Errorf("%d-way: %d cycles, want lat.shared+%d = %d", n, lat, n-1, cfg.Lat.Shared+n-1)
		}
	}
	bc := strided(memsys.OpLoad, memsys.SpaceShared, 0x40, 4, 0)
	bc.Tag = 99
	if _, f := d.issue(bc); f.Wavefronts != 1 || f.Conflicts != 0 {
		t.Errorf("broadcast: %+v", f)
	}
	d.wait(99)
	m := d.p.Metrics()
	if m.SharedLd.Conflicts != 0+1+3+7+15+31 || m.SharedLd.Requests != 7 {
		t.Errorf("metrics %+v", m.SharedLd)
	}

	// A 32-way conflict holds the banks 32 cycles: a second shared request
	// waits 31 cycles in mio_throttle, while a global one goes at once.
	d = newDrv(t, cfg)
	a := strided(memsys.OpLoad, memsys.SpaceShared, 0, 4, 32)
	b := strided(memsys.OpStore, memsys.SpaceShared, 0, 4, 1)
	t0, _ := d.issue(a)
	t1, f := d.issue(b)
	if t1-t0 != 32 || f.Path.Throttle() != "mio_throttle" {
		t.Errorf("second shared request taken %d cycles after a 32-way conflict, want 32 (%s)", t1-t0, f.Path.Throttle())
	}
	d = newDrv(t, cfg)
	d.issue(a)
	if o := d.cycle(&memsys.Request{Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 4, Mask: 1}); !o.Ready {
		t.Error("a global request waited for the banks")
	}
}

// Coalescing: 4-byte loads at lane strides of 1, 2, 4, 8 words touch 4, 8,
// 16, 32 sectors (CUDA C++ Best Practices Guide), in 1, 2, 4, 8 lines; the
// coalescer sends one line a cycle, so the next global request waits
// lines-1 cycles (lg_throttle).
func TestPortSectors(t *testing.T) {
	cfg := config.Default()
	for _, c := range []struct{ stride, sectors, lines int }{{1, 4, 1}, {2, 8, 2}, {4, 16, 4}, {8, 32, 8}} {
		d := newDrv(t, cfg)
		req := strided(memsys.OpLoad, memsys.SpaceGlobal, 1<<20, 4, c.stride)
		t0, f := d.issue(req)
		if f.Sectors != c.sectors || f.Lines != c.lines || f.Path.Throttle() != "lg_throttle" {
			t.Errorf("stride %d: %+v, want %d sectors in %d lines", c.stride, f, c.sectors, c.lines)
		}
		t1, _ := d.issue(strided(memsys.OpLoad, memsys.SpaceGlobal, 2<<20, 4, 1))
		if t1-t0 != uint64(c.lines) {
			t.Errorf("stride %d: next request taken after %d cycles, want %d", c.stride, t1-t0, c.lines)
		}
		m := d.p.Metrics()
		if m.GlobalLd.Requests != 2 || m.GlobalLd.Sectors != uint64(c.sectors+4) {
			t.Errorf("stride %d: metrics %+v", c.stride, m.GlobalLd)
		}
	}
}

// An L1 miss fills the line; the same load again hits at l1.hit_latency.
// A cold miss costs dram.latency; a miss that hits the L2 its partition's
// figure.
func TestPortHitAfterFill(t *testing.T) {
	cfg := config.Default()
	d := newDrv(t, cfg)
	req := strided(memsys.OpLoad, memsys.SpaceGlobal, 1<<24, 4, 1)
	if lat := d.do(req); lat != uint64(cfg.DRAM.Latency) {
		t.Errorf("cold load %d cycles, want dram.latency %d", lat, cfg.DRAM.Latency)
	}
	if lat := d.do(req); lat != uint64(cfg.L1.HitLatency) {
		t.Errorf("second load %d cycles, want l1.hit_latency %d", lat, cfg.L1.HitLatency)
	}
	if d.p.Hier().L1().Present(1<<24) != memsys.FullLine {
		t.Error("the line is not in the L1")
	}
	m := d.p.Metrics()
	if m.L1.SectorHits != 4 || m.L1.SectorMisses != 4 {
		t.Errorf("L1 %+v", m.L1)
	}
	if !d.p.Idle() {
		t.Error("not idle")
	}
}

// Two warps loading the same line while it is missing share one MSHR: the
// second sends nothing to the L2 and completes with the fill.
func TestPortMSHRMerge(t *testing.T) {
	cfg := config.Default()
	d := newDrv(t, cfg)
	a := strided(memsys.OpLoad, memsys.SpaceGlobal, 1<<24, 4, 1)
	a.Tag = 1
	b := a
	b.Tag = 2
	t0, _ := d.issue(a)
	t1, _ := d.issue(b)
	ra, rb := d.wait(1), d.wait(2)
	st := d.p.Hier().L1().Stats()
	if st.Merged != 1 || st.MissRequests != 1 {
		t.Errorf("L1 %+v: want 1 merged, 1 request to the L2", st)
	}
	if l2 := d.p.Hier().L2().Stats(); l2.SectorsRead != 4 {
		t.Errorf("L2 read %d sectors, want 4", l2.SectorsRead)
	}
	if ra.Cycle-t0 != uint64(cfg.DRAM.Latency) || rb.Cycle > ra.Cycle+1 || t1 != t0+1 {
		t.Errorf("a: %d..%d, b: %d..%d", t0, ra.Cycle, t1, rb.Cycle)
	}
}

// Global stores write through to the L2 and allocate nothing in the L1: a
// load after the store misses the L1 (and hits the L2, which allocated the
// written sectors).
func TestPortWriteThroughNoAllocate(t *testing.T) {
	cfg := config.Default()
	d := newDrv(t, cfg)
	st := strided(memsys.OpStore, memsys.SpaceGlobal, 1<<24, 4, 1)
	st.Tag = 7
	lat := d.do(st)
	if d.p.Hier().L1().Present(1<<24) != 0 {
		t.Fatal("a store allocated its line in the L1")
	}
	p, _ := unitcfg.MemSys(cfg)
	want := uint64(cfg.L2.LatencyFar)
	if p.L2.Near(1 << 24) {
		want = uint64(cfg.L2.LatencyNear)
	}
	if lat != want {
		t.Errorf("store acknowledged after %d cycles, want the L2's %d", lat, want)
	}
	ld := strided(memsys.OpLoad, memsys.SpaceGlobal, 1<<24, 4, 1)
	if got := d.do(ld); got != want {
		t.Errorf("load after store: %d cycles, want an L2 hit (%d)", got, want)
	}
	m := d.p.Metrics()
	if m.GlobalSt.Requests != 1 || m.GlobalSt.Sectors != 4 || m.L2.SectorsWritten != 4 || m.L1.StoreSectors != 4 {
		t.Errorf("metrics %+v %+v", m.GlobalSt, m.L2)
	}
}

// A streaming kernel (coalesced warp loads as fast as the port takes them)
// over cold memory queues at the DRAM: the requests wait in its queue,
// the port moves this SM's share of the bandwidth, and the loads take far
// longer than the unloaded dram.latency.
func TestPortDRAMQueueing(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cfg := config.Default()
	d := newDrv(t, cfg)
	const cycles = 60000
	var sum, n uint64
	i := 0
	for d.p.Now() < cycles {
		req := strided(memsys.OpLoad, memsys.SpaceGlobal, 1<<30+uint64(i)*memsys.LineBytes, 4, 1)
		req.Tag = uint32(i)
		if o := d.cycle(&req); o.Ready {
			i++
		}
		for _, r := range d.resp {
			sum += r.Cycle - r.Issued
			n++
		}
		d.resp = d.resp[:0]
	}
	m := d.p.Metrics()
	bw := float64(m.DRAM.BytesRead) / cycles
	want := 3350e9 / 132 / 1755e6
	if bw < 0.75*want || bw > 1.25*want {
		t.Errorf("stream moved %.2f B/clk, want %.2f ±25%%", bw, want)
	}
	if m.DRAM.QueueCycles == 0 {
		t.Error("no request waited in the DRAM queue")
	}
	mean := float64(sum) / float64(n)
	if mean < 1.2*float64(cfg.DRAM.Latency) {
		t.Errorf("mean load latency %.0f under streaming, want well above %d", mean, cfg.DRAM.Latency)
	}
	t.Logf("DRAM stream: %.2f B/clk, %d queue cycles, mean latency %.0f (unloaded %d), %d in flight", bw, m.DRAM.QueueCycles, mean, cfg.DRAM.Latency, d.p.Inflight())
}

// Constant and parameter loads go through the constant cache: a hit costs
// lat.param, plus one cycle per further distinct address.
func TestPortConst(t *testing.T) {
	cfg := config.Default()
	d := newDrv(t, cfg)
	req := strided(memsys.OpLoad, memsys.SpaceParam, 0x100, 4, 0)
	d.do(req) // miss
	if lat := d.do(req); lat != uint64(cfg.Lat.Param) {
		t.Errorf("param hit %d cycles, want lat.param %d", lat, cfg.Lat.Param)
	}
	div := strided(memsys.OpLoad, memsys.SpaceConst, 0x100, 4, 1) // 32 words in 2 lines of 64 B
	_, f := d.issue(div)
	if f.Accesses != 32 || f.Path != memsys.PathMIO {
		t.Errorf("facts %+v", f)
	}
	d.wait(0)
	if _, err := d.p.Analyze(&memsys.Request{Op: memsys.OpStore, Space: memsys.SpaceConst, Size: 4, Mask: 1}); err == nil {
		t.Error("a store to the constant space was accepted")
	}
}

// A request with no active lane is taken and answered the next cycle.
func TestPortEmpty(t *testing.T) {
	d := newDrv(t, config.Default())
	if lat := d.do(memsys.Request{Tag: 3, Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 4}); lat != 1 {
		t.Fatalf("empty request answered after %d cycles", lat)
	}
}

// With every slot in use the port takes nothing more, and the stall is
// the path's throttle.
func TestPortInflight(t *testing.T) {
	cfg, _ := config.Preset("small")
	cfg.Mem.Inflight = 2
	d := newDrv(t, cfg)
	for i := 0; i < 2; i++ {
		d.issue(strided(memsys.OpLoad, memsys.SpaceGlobal, uint64(i+1)<<16, 4, 1))
	}
	o := d.cycle(&memsys.Request{Op: memsys.OpLoad, Space: memsys.SpaceShared, Size: 4, Mask: 1})
	if o.Ready || o.Facts.Path.Throttle() != "mio_throttle" || d.p.Inflight() != 2 {
		t.Fatalf("%+v, %d in flight", o, d.p.Inflight())
	}
}

// The port keeps the two-phase protocol: Eval changes nothing and gives
// the same outputs however often it is called.
func TestPortEvalPure(t *testing.T) {
	d := newDrv(t, config.Default())
	reqs := randomRequests(rand.New(rand.NewSource(5)), 200)
	for c, req := range reqs {
		now, inf := d.p.Now(), d.p.Inflight()
		o1 := *d.p.Eval(&req)
		o2 := *d.p.Eval(&req)
		if !reflect.DeepEqual(o1, o2) || d.p.Now() != now || d.p.Inflight() != inf {
			t.Fatalf("cycle %d: %+v / %+v", c, o1, o2)
		}
		if f, err := d.p.Analyze(&req); f != o1.Facts || (err == nil) != (o1.Err == nil) {
			t.Fatalf("cycle %d: Eval's facts %+v %v, Analyze's %+v %v", c, o1.Facts, o1.Err, f, err)
		}
		d.p.Tick()
	}
}

// randomRequests makes requests of every op and space over a few lines, so
// that hits, misses, merges and conflicts all happen.
func randomRequests(r *rand.Rand, n int) []memsys.Request {
	out := make([]memsys.Request, n)
	for i := range out {
		q := &out[i]
		q.Tag = uint32(i)
		q.Space = memsys.Space(r.Intn(5))
		q.Op = memsys.Op(r.Intn(4))
		if q.Space == memsys.SpaceConst || q.Space == memsys.SpaceParam {
			q.Op = memsys.OpLoad
		}
		q.Size = 1 << r.Intn(5)
		q.Mask = r.Uint32()
		if r.Intn(8) == 0 {
			q.Mask = 0
		}
		base := uint64(r.Intn(64)) * memsys.LineBytes
		if q.Space != memsys.SpaceShared {
			base += uint64(r.Intn(4)) << 24
		}
		stride := uint64(r.Intn(5))
		for l := range q.Addr {
			q.Addr[l] = base + uint64(l)*stride*uint64(q.Size)
		}
	}
	return out
}

// Skipping the cycles NextEvent allows gives the same responses at the
// same cycles, and the same metrics, as stepping every cycle.
func TestPortAdvance(t *testing.T) {
	cfg := config.Default()
	reqs := randomRequests(rand.New(rand.NewSource(9)), 300)
	gap := rand.New(rand.NewSource(10))
	gaps := make([]int, len(reqs))
	for i := range gaps {
		gaps[i] = gap.Intn(3) * gap.Intn(400)
	}
	run := func(skip bool) ([]memsys.Response, memsys.Metrics, uint64) {
		d := newDrv(t, cfg)
		skipped := uint64(0)
		for i, req := range reqs {
			d.issue(req)
			until := d.p.Now() + uint64(gaps[i])
			for d.p.Now() < until {
				if skip {
					if n, ok := d.p.NextEvent(); !ok || n > 0 {
						if !ok || d.p.Now()+n > until {
							n = until - d.p.Now()
						}
						d.p.Advance(n)
						skipped += n
						continue
					}
				}
				d.cycle(nil)
			}
		}
		for !d.p.Idle() {
			if skip {
				if n, ok := d.p.NextEvent(); ok && n > 0 {
					d.p.Advance(n)
					skipped += n
					continue
				}
			}
			d.cycle(nil)
		}
		return d.resp, d.p.Metrics(), skipped
	}
	a, ma, _ := run(false)
	b, mb, skipped := run(true)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(ma, mb) {
		t.Fatalf("stepped and skipped runs differ:\n%+v\n%+v", ma, mb)
	}
	if len(a) != len(reqs) || skipped < 10000 {
		t.Fatalf("%d responses for %d requests, %d cycles skipped", len(a), len(reqs), skipped)
	}
	seen := map[uint32]bool{}
	for _, r := range a {
		if seen[r.Tag] {
			t.Fatalf("tag %d answered twice", r.Tag)
		}
		seen[r.Tag] = true
	}
}

func TestPortMetricNames(t *testing.T) {
	d := newDrv(t, config.Default())
	d.do(strided(memsys.OpLoad, memsys.SpaceGlobal, 0, 4, 2))
	m := d.p.Metrics()
	got := map[string]float64{}
	for _, v := range m.Values() {
		got[v.Name] = v.Value
	}
	for name, want := range map[string]float64{
		"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 1,
		"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum":  8,
		"l1tex__t_sector_hit_rate.pct":                    0,
		"lts__t_sectors_op_read.sum":                      8,
		"lts__t_sector_hit_rate.pct":                      0,
		"dram__bytes_read.sum":                            256,
		"dram__bytes_write.sum":                           0,
	} {
		if v, ok := got[name]; !ok || v != want {
			t.Errorf("%s = %v (present %v), want %v", name, v, ok, want)
		}
	}
}

// Atomics and reductions resolve at the L2: an atomic on a line the L2
// holds costs its partition's latency plus l2.atomic_latency plus one
// cycle per further lane; a reduction the same, answered as a red; local
// accesses go through the L1 like global ones.
func TestPortAtomicsAndLocal(t *testing.T) {
	cfg := config.Default()
	d := newDrv(t, cfg)
	p, _ := unitcfg.MemSys(cfg)
	a := uint64(1 << 24)
	for !p.L2.Near(a) {
		a += memsys.LineBytes
	}
	d.do(strided(memsys.OpLoad, memsys.SpaceGlobal, a, 4, 1)) // bring the line into L1 and L2
	atom := strided(memsys.OpAtomic, memsys.SpaceGlobal, a, 4, 1)
	atom.Mask = 0xf
	if lat, want := d.do(atom), uint64(cfg.L2.LatencyNear+cfg.L2.AtomicLatency+3); lat != want {
		t.Errorf("atomic %d cycles, want %d", lat, want)
	}
	red := atom
	red.Op, red.Tag = memsys.OpRed, 5
	d.issue(red)
	if r := d.wait(5); r.Op != memsys.OpRed || r.Cycle-r.Issued != uint64(cfg.L2.LatencyNear+cfg.L2.AtomicLatency+3) {
		t.Errorf("red %+v", r)
	}
	loc := strided(memsys.OpLoad, memsys.SpaceLocal, 1<<26, 4, 1)
	d.do(loc)
	if lat := d.do(loc); lat != uint64(cfg.L1.HitLatency) {
		t.Errorf("local load after fill %d cycles, want an L1 hit", lat)
	}
	m := d.p.Metrics()
	if m.GlobalAtom.Requests != 1 || m.GlobalRed.Requests != 1 || m.LocalLd.Requests != 2 || m.LocalLd.Sectors != 8 {
		t.Errorf("metrics %+v %+v %+v", m.GlobalAtom, m.GlobalRed, m.LocalLd)
	}
}

// Malformed requests are refused with the reason, whichever unit finds it.
func TestPortErrors(t *testing.T) {
	d := newDrv(t, config.Default())
	for _, r := range []memsys.Request{
		{Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 4, Mask: 1, Addr: [32]uint64{2}},
		{Op: memsys.OpLoad, Space: memsys.SpaceShared, Size: 8, Mask: 2, Addr: [32]uint64{0, 4}},
		{Op: memsys.OpLoad, Space: memsys.SpaceShared, Size: 4, Mask: 1, Addr: [32]uint64{1 << 40}},
		{Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 3, Mask: 1},
		{Op: memsys.OpStore, Space: memsys.SpaceParam, Size: 4, Mask: 1},
		{Op: memsys.OpLoad, Space: 7, Size: 4, Mask: 1},
	} {
		o := d.p.Step(&r)
		if o.Err == nil || o.Ready {
			t.Errorf("%+v: taken (%v)", r, o.Err)
		}
	}
	if d.p.Inflight() != 0 {
		t.Fatal("a malformed request took a slot")
	}
}

// Local stores (the stack, spills) allocate their line in the L1 with the
// written sectors valid, so the load after the store hits the L1; the
// store still goes on to the L2 (write-through). A global store to the
// same place would leave the L1 without the line
// (TestPortWriteThroughNoAllocate).
func TestPortLocalStoreAllocates(t *testing.T) {
	cfg := config.Default()
	d := newDrv(t, cfg)
	a := uint64(1 << 26)
	st := strided(memsys.OpStore, memsys.SpaceLocal, a, 4, 1)
	st.Tag = 3
	d.do(st)
	if got := d.p.Hier().L1().Present(a); got != 0xf {
		t.Fatalf("after a local store of the line's 4 sectors, the L1 holds sectors %#x, want 0xf", got)
	}
	if lat := d.do(strided(memsys.OpLoad, memsys.SpaceLocal, a, 4, 1)); lat != uint64(cfg.L1.HitLatency) {
		t.Errorf("local load after the local store: %d cycles, want an L1 hit (%d)", lat, cfg.L1.HitLatency)
	}
	m := d.p.Metrics()
	if m.LocalSt.Requests != 1 || m.LocalSt.Sectors != 4 || m.L2.SectorsWritten != 4 {
		t.Errorf("metrics %+v %+v", m.LocalSt, m.L2)
	}
}

// Refuses never contradicts Eval: whenever it says the port takes no
// request to a space this cycle, Eval refuses one. Checked every cycle of
// a stream of strided global loads (stride 8: 8 lines a request, so the
// coalescer is busy) and parameter loads, offered as fast as taken.
func TestPortRefuses(t *testing.T) {
	cfg := config.Default()
	cfg.Mem.Inflight = 8
	p := mustBuild(t, cfg, unitcfg.Port, memsys.NewPort)
	refused, shared := 0, 0
	for c := 0; c < 4000; c++ {
		r := strided(memsys.OpLoad, memsys.SpaceGlobal, uint64(1<<24+c*4096), 4, 8)
		switch c % 5 {
		case 0:
			r = strided(memsys.OpLoad, memsys.SpaceParam, 0, 4, 0)
		case 1, 3:
			r = strided(memsys.OpLoad, memsys.SpaceShared, 0, 4, 4*(c%8)) // up to 28-way conflicts
		}
		r.Tag = uint32(c)
		before := p.Refuses(r.Space)
		o := p.Step(&r)
		if before && o.Ready {
			t.Fatalf("cycle %d: Refuses(%v) said no, Eval took the request", c, r.Space)
		}
		if before {
			refused++
			if r.Space == memsys.SpaceShared {
				shared++
			}
		}
	}
	if refused == 0 || shared == 0 {
		t.Fatalf("Refuses refused %d requests, %d shared: the test does not exercise it", refused, shared)
	}
}
