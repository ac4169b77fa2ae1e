package memsys_test

import (
	"math"
	"math/bits"
	"math/rand"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/unitcfg"
)

// mustBuild validates cfg, maps it to a unit's parameters with param (a
// unitcfg function) and builds the unit with build; any error fails t.
func mustBuild[P, U any](t testing.TB, cfg config.Config, param func(config.Config) (P, error), build func(P) (U, error)) U {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	p, err := param(cfg)
	if err != nil {
		t.Fatal(err)
	}
	u, err := build(p)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// rig is the memory path of an SM at component level: the coalescer in
// front of the memory system, driven one cycle at a time as the SM will
// drive them (Eval every unit, then Tick every unit).
type rig struct {
	t   testing.TB
	co  *memsys.Coalescer
	h   *memsys.Hier
	cyc uint64
}

func newRig(t testing.TB, cfg config.Config) *rig {
	t.Helper()
	h := mustBuild(t, cfg, unitcfg.MemSys, memsys.NewHier)
	return &rig{t: t, co: memsys.NewCoalescer(memsys.CoalescerParams{}), h: h}
}

// cycle runs one cycle offering req (nil: none) and returns whether it was
// taken and the response of the cycle.
func (r *rig) cycle(req *memsys.WarpReq, id uint32) (taken bool, resp memsys.Resp, ok bool) {
	ho := r.h.Out()
	in := memsys.CoalescerInputs{OutReady: ho.ReqReady}
	if req != nil {
		in.ReqValid, in.ReqOp, in.ReqSpace, in.ReqSize = true, uint8(req.Op), uint8(req.Space), uint8(req.Size)
		in.ReqMask, in.ReqAddr, in.ReqID = req.Mask, req.Addr, id
	}
	co := r.co.Eval(in)
	if co.ReqErr {
		r.t.Fatalf("malformed request %+v", req)
	}
	ho = r.h.Eval(memsys.PortIn{
		ReqValid:  co.OutValid,
		Req:       memsys.Req{ID: co.OutID, Op: memsys.Op(co.OutOp), Addr: co.OutAddr, Sectors: co.OutSectors, Lanes: uint8(bits.OnesCount32(co.OutLanes))},
		RespReady: true,
	})
	r.co.Tick()
	r.h.Tick()
	r.cyc++
	return req != nil && co.ReqReady, ho.Resp, ho.RespValid
}

// access performs one warp request alone and returns its latency: the
// cycles from the coalescer taking it to the last line's response.
func (r *rig) access(req memsys.WarpReq) uint64 {
	c, err := memsys.Coalesce(&req)
	if err != nil {
		r.t.Fatal(err)
	}
	var t0 uint64
	for {
		t0 = r.cyc
		if taken, _, _ := r.cycle(&req, 1); taken {
			break
		}
	}
	for n := 0; n < c.N; {
		if _, _, ok := r.cycle(nil, 0); ok {
			n++
		}
		if r.cyc-t0 > 1_000_000 {
			r.t.Fatal("no response")
		}
	}
	return r.cyc - 1 - t0
}

func oneLane(a uint64) memsys.WarpReq {
	r := memsys.WarpReq{Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 8, Mask: 1}
	r.Addr[0] = a
	return r
}

// chase is a pointer chase: one dependent 8-byte load at a time, over the
// given lines in a fixed pseudo-random order, passes times; it returns the
// mean latency of the last pass.
func (r *rig) chase(lines []uint64, passes int) float64 {
	order := rand.New(rand.NewSource(1)).Perm(len(lines))
	var sum uint64
	for p := 0; p < passes; p++ {
		sum = 0
		for _, i := range order {
			sum += r.access(oneLane(lines[i]))
		}
	}
	return float64(sum) / float64(len(lines))
}

func within(got, want, band float64) bool { return math.Abs(got-want) <= band*want }

// linesWhere returns n line addresses from base on for which keep holds.
func linesWhere(base uint64, n int, keep func(uint64) bool) []uint64 {
	var out []uint64
	for a := base; len(out) < n; a += memsys.LineBytes {
		if keep(a) {
			out = append(out, a)
		}
	}
	return out
}

// Pointer-chase latencies at the h100 preset against the published H100
// figures (arXiv 2501.12084): L1 hit 32.1, L2 hit 264 near / 502 far, cold
// DRAM 655 cycles, each within ±20%.
func TestCalibrationLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cfg := config.Default()
	r := newRig(t, cfg)
	p, _ := unitcfg.MemSys(cfg)
	l2 := p.L2
	all := func(uint64) bool { return true }

	// L1: 64 lines, far below the L1's capacity; the first pass fills.
	l1 := r.chase(linesWhere(1<<30, 64, all), 2)
	// DRAM: 2048 lines never touched.
	dram := r.chase(linesWhere(2<<30, 2048, all), 1)
	// L2: twice the L1's lines (the chase evicts every line before it
	// comes back), filled by the first pass; near and far separately.
	n := 2 * p.L1.SizeBytes / memsys.LineBytes
	near := r.chase(linesWhere(3<<30, n, l2.Near), 2)
	far := r.chase(linesWhere(4<<30, n, func(a uint64) bool { return !l2.Near(a) }), 2)
	// Both partitions, as a chase over consecutive lines sees them: the
	// hash spreads the lines evenly, so the mean is near the middle.
	mixed := r.chase(linesWhere(5<<30, n, all), 2)
	if mid := float64(cfg.L2.LatencyNear+cfg.L2.LatencyFar) / 2; !within(mixed, mid, 0.10) {
		t.Errorf("L2 chase over both partitions: %.1f cycles, want %.1f ±10%%", mixed, mid)
	}
	t.Logf("%-24s model %6.1f  (near/far mean %.1f)", "L2 hit, both partitions", mixed, float64(cfg.L2.LatencyNear+cfg.L2.LatencyFar)/2)

	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"L1 hit", l1, 32.1},
		{"L2 hit, near partition", near, 264},
		{"L2 hit, far partition", far, 502},
		{"DRAM, cold", dram, 655},
	} {
		t.Logf("%-24s model %6.1f  published %6.1f  band ±20%%", c.name, c.got, c.want)
		if !within(c.got, c.want, 0.20) {
			t.Errorf("%s: %.1f cycles, want %.1f ±20%%", c.name, c.got, c.want)
		}
	}
	st := r.h.L1().Stats()
	if st.SectorHits == 0 || st.SectorMisses == 0 {
		t.Fatalf("L1 %+v", st)
	}
}

// stream issues coalesced warp loads (4-byte lanes, one full line per
// request) over lines from base on, as fast as the coalescer takes them,
// for cycles cycles, wrapping after span lines.
func (r *rig) stream(base uint64, span, cycles int) {
	req := memsys.WarpReq{Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 4, Mask: ^uint32(0)}
	i := 0
	for c := 0; c < cycles; c++ {
		a := base + uint64(i%span)*memsys.LineBytes
		for l := range req.Addr {
			req.Addr[l] = a + uint64(4*l)
		}
		if taken, _, _ := r.cycle(&req, uint32(i)); taken {
			i++
		}
	}
}

// A streaming read kernel over cold memory moves this SM's DRAM share,
// 3.35 TB/s / 132 SMs / 1.755 GHz = 14.46 B/clk (±25%); an L2-resident
// stream moves the L2 share, 27.5 B/clk.
func TestCalibrationBandwidth(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	cfg := config.Default()

	r := newRig(t, cfg)
	const warm, window = 20000, 200000
	r.stream(1<<32, 1<<24, warm)
	d0 := r.h.L2().DRAM().Stats()
	r.stream(1<<32+warm*memsys.LineBytes, 1<<24, window)
	d1 := r.h.L2().DRAM().Stats()
	dram := float64(d1.BytesRead-d0.BytesRead) / window
	want := 3350e9 / 132 / 1755e6
	t.Logf("DRAM stream: model %.2f B/clk  published %.2f  band ±25%% (queue cycles %d)", dram, want, d1.QueueCycles-d0.QueueCycles)
	if !within(dram, want, 0.25) {
		t.Errorf("DRAM stream %.2f B/clk, want %.2f ±25%%", dram, want)
	}

	// L2: a working set of twice the L1 (evicted from the L1 before each
	// reuse), read once to fill the L2, then streamed.
	r = newRig(t, cfg)
	p, _ := unitcfg.MemSys(cfg)
	span := 2 * p.L1.SizeBytes / memsys.LineBytes
	r.stream(1<<33, span, 300000)
	s0 := r.h.L2().Stats()
	if s0.SectorMisses > uint64(span*memsys.SectorsPerLine) {
		t.Fatalf("L2 missed %d sectors of a %d-line working set", s0.SectorMisses, span)
	}
	r.stream(1<<33, span, window)
	s1 := r.h.L2().Stats()
	l2 := float64((s1.SectorsRead-s0.SectorsRead)*memsys.SectorBytes) / window
	t.Logf("L2 stream:   model %.2f B/clk  published %.2f  band ±25%%", l2, 27.5)
	if !within(l2, 27.5, 0.25) {
		t.Errorf("L2 stream %.2f B/clk, want 27.5 ±25%%", l2)
	}
	if s1.SectorMisses != s0.SectorMisses {
		t.Errorf("the L2-resident stream missed %d sectors", s1.SectorMisses-s0.SectorMisses)
	}
}
