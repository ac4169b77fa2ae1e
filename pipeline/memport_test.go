package pipeline

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memsys"
)

// SM-level acceptance tests of the memory system and the pipe throttle
// (issue 19) at the h100 preset (mem.model hier, pipe.throttle on), on the
// calibration kernels of bench/calib (clang-16 output, .cu beside them):
// what the report's metrics and the kernels' own clocks show. memsys and
// pipethrottle test the same behaviours unit by unit.

// calibKernel assembles bench/calib/name.
func calibKernel(t testing.TB, name string) *isa.Image {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "bench", "calib", name))
	if err != nil {
		t.Fatal(err)
	}
	return assemble(t, name, src)
}

// h100Hier is the h100 preset, checked to have the memory system and the
// pipe throttle on (its defaults), with no watchdog.
func h100Hier(t testing.TB) config.Config {
	t.Helper()
	cfg := config.Default()
	if cfg.Mem.Model != config.MemHier || !cfg.Pipe.Throttle {
		t.Fatalf("the h100 preset has mem.model %s, pipe.throttle %v", cfg.Mem.Model, cfg.Pipe.Throttle)
	}
	cfg.Run.WatchdogCycles = 0
	return cfg
}

func runCalib(t testing.TB, cfg config.Config, im *isa.Image, l Launch) (*SM, *Report) {
	t.Helper()
	sm := newSM(t, cfg, im, l)
	rep := runSM(t, sm)
	wantNoErrors(t, rep)
	return sm, rep
}

// An n-way bank conflict replays n times: a warp's shared load at a lane
// stride of n words is n wavefronts, n-1 of them conflicts; a broadcast
// (stride 0) is one wavefront.
func TestSMBankConflictReplays(t *testing.T) {
	cfg := h100Hier(t)
	im := calibKernel(t, "smem.ptx")
	const steps = 16
	for _, n := range []int{1, 2, 4, 8, 16, 32, 0} {
		_, rep := runCalib(t, cfg, im, Launch{Entry: "smem_conflict", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1},
			Buffers: []Buffer{{Param: "smem_conflict_param_0", Size: 256}},
			Args:    map[string]uint64{"smem_conflict_param_1": steps, "smem_conflict_param_2": uint64(n)}})
		way := max(n, 1)
		wf := rep.Metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]
		conf := rep.Metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
		if wf != float64(way*steps) || conf != float64((way-1)*steps) {
			t.Errorf("stride %d: %v wavefronts, %v conflicts for %d loads; want %d and %d", n, wf, conf, steps, way*steps, (way-1)*steps)
		}
	}
}

// 4-byte loads at lane strides of 1, 2, 4 and 8 words touch 4, 8, 16 and
// 32 sectors a warp request (CUDA C++ Best Practices Guide, coalescing).
func TestSMSectorsByStride(t *testing.T) {
	cfg := h100Hier(t)
	im := calibKernel(t, "strided.ptx")
	const reps = 8
	for _, s := range []int{1, 2, 4, 8} {
		_, rep := runCalib(t, cfg, im, Launch{Entry: "strided", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1},
			Buffers: []Buffer{{Param: "strided_param_0", Size: reps * 32 * s * 4}, {Param: "strided_param_1", Size: 256}},
			Args:    map[string]uint64{"strided_param_2": uint64(s), "strided_param_3": reps}})
		req := rep.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]
		sec := rep.Metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
		if req != reps || sec != float64(reps*4*s) {
			t.Errorf("stride %d: %v requests, %v sectors; want %d and %d", s, req, sec, reps, reps*4*s)
		}
	}
}

// chaseRun runs the chase kernel over lines 128-byte lines in a fixed
// shuffled order (absolute addresses: the buffer's address comes from a
// first build, the allocation being deterministic), warm passes first,
// with warps warps all chasing the same chain. It returns the timed
// cycles per step and the report.
func chaseRun(t *testing.T, cfg config.Config, lines, warm, warps int) (float64, *Report) {
	t.Helper()
	return chaseRunSmem(t, cfg, lines, warm, warps, 0)
}

// chaseRunSmem is chaseRun with smem bytes of dynamic shared memory per
// CTA (which the chase does not touch: it only sizes the carveout).
func chaseRunSmem(t *testing.T, cfg config.Config, lines, warm, warps int, smem uint32) (float64, *Report) {
	t.Helper()
	return chaseRunEntry(t, cfg, "chase", lines, warm, warps, smem)
}

// chaseRunEntry is chaseRunSmem with the chase kernel entry (chase,
// chase_cg, chase_cs, chase_cv: the cache operator of its loads).
func chaseRunEntry(t *testing.T, cfg config.Config, entry string, lines, warm, warps int, smem uint32) (float64, *Report) {
	t.Helper()
	im := calibKernel(t, "chase.ptx")
	size := lines * memsys.LineBytes
	p := func(i int) string { return fmt.Sprintf("%s_param_%d", entry, i) }
	l := Launch{Entry: entry, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{uint32(32 * warps), 1, 1}, DynamicSmem: smem,
		Buffers: []Buffer{{Param: p(0), Size: size}, {Param: p(1), Size: 64}},
		Args:    map[string]uint64{p(2): uint64(lines), p(3): uint64(warm)}}
	probe, err := New(cfg, im, l)
	if err != nil {
		t.Fatal(err)
	}
	base, ok := probe.BufferAddr(p(0))
	if !ok {
		t.Fatal("no chase buffer")
	}
	// Line i's successor: a stride coprime with lines visits every line.
	init := make([]byte, size)
	for i := 0; i < lines; i++ {
		next := (i + 7) % lines
		binary.LittleEndian.PutUint64(init[i*memsys.LineBytes:], base+uint64(next*memsys.LineBytes))
	}
	l.Buffers[0].Init = init
	sm, rep := runCalib(t, cfg, im, l)
	if a, _ := sm.BufferAddr(p(0)); a != base {
		t.Fatalf("the chain buffer moved from %#x to %#x", base, a)
	}
	out := rep.Buffers[p(1)]
	return float64(out[0]) / float64(out[1]), rep
}

// A line the chase has brought into the L1 hits there: the second pass
// over 16 lines costs the L1's hit latency a step (plus the cycle the
// scoreboard takes to release the register), the first pass DRAM's; the
// timed region's few fixed cycles (the add and the clock read after the
// last step) are spread over the 16 steps, under half a cycle each.
func TestSML1HitAfterFill(t *testing.T) {
	cfg := h100Hier(t)
	cold, _ := chaseRun(t, cfg, 16, 0, 1)
	warm, rep := chaseRun(t, cfg, 16, 1, 1)
	if want := float64(cfg.DRAM.Latency + 1); math.Abs(cold-want) >= 0.5 {
		t.Errorf("cold chase: %.2f cycles a step, want dram.latency + 1 = %v", cold, want)
	}
	if want := float64(cfg.L1.HitLatency + 1); math.Abs(warm-want) >= 0.5 {
		t.Errorf("warm chase: %.2f cycles a step, want l1.hit_latency + 1 = %v", warm, want)
	}
	if hr := rep.Metrics["l1tex__t_sector_hit_rate.pct"]; hr != 50 {
		t.Errorf("warm chase: L1 sector hit rate %v%%, want 50 (one pass of misses, one of hits)", hr)
	}
}

// The cache operators of a load (docs/memory.md, "Cache operators"): a
// chain of 16 lines the first pass brought in hits in the L1 on the second
// pass with ld.global and ld.global.cs, and is served by the L2 with
// ld.global.cg and ld.global.cv, each step costing an L2 hit (near or far
// partition), none hitting in the L1.
func TestSMCacheOperators(t *testing.T) {
	cfg := h100Hier(t)
	l1 := float64(cfg.L1.HitLatency + 1)
	reads := map[string]float64{}
	for _, c := range []struct {
		entry string
		l1    bool
	}{{"chase", true}, {"chase_cs", true}, {"chase_cg", false}, {"chase_cv", false}} {
		warm, rep := chaseRunEntry(t, cfg, c.entry, 16, 1, 1, 0)
		hr := rep.Metrics["l1tex__t_sector_hit_rate.pct"]
		switch {
		case c.l1 && (math.Abs(warm-l1) >= 0.5 || hr != 50):
			t.Errorf("%s: %.2f cycles a step, L1 hit rate %v%%; want l1.hit_latency + 1 = %v and 50%%", c.entry, warm, hr, l1)
		case !c.l1 && (warm < float64(cfg.L2.LatencyNear) || warm > float64(cfg.L2.LatencyFar+1) || hr != 0):
			t.Errorf("%s: %.2f cycles a step, L1 hit rate %v%%; want an L2 hit (%d to %d cycles) and 0%%", c.entry, warm, hr, cfg.L2.LatencyNear, cfg.L2.LatencyFar)
		}
		reads[c.entry] = rep.Metrics["lts__t_sectors_op_read.sum"]
	}
	// The second pass reads its 16 sectors from the L2 again.
	for _, e := range []string{"chase_cg", "chase_cv"} {
		if reads[e] != reads["chase"]+16 || reads["chase_cs"] != reads["chase"] {
			t.Errorf("L2 read sectors %v: want %s 16 more than chase, chase_cs as many", reads, e)
		}
	}
}

// Misses to a line already in flight merge into its MSHR: two warps
// chasing the same cold chain in step read each line from the L2 once,
// and take no longer a step than one warp does.
func TestSMMSHRMerging(t *testing.T) {
	cfg := h100Hier(t)
	one, r1 := chaseRun(t, cfg, 16, 0, 1)
	two, r2 := chaseRun(t, cfg, 16, 0, 2)
	const key = "lts__t_sectors_op_read.sum"
	if r1.Metrics[key] != r2.Metrics[key] {
		t.Errorf("L2 read sectors: %v with one warp, %v with two", r1.Metrics[key], r2.Metrics[key])
	}
	if two > one+2 {
		t.Errorf("two warps: %.2f cycles a step, one warp %.2f", two, one)
	}
	if r2.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] != 2*r1.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] {
		t.Errorf("load requests %v, want twice %v", r2.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], r1.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"])
	}
}

// A streaming read of 1 MiB queues at the DRAM: the run takes at least
// the bytes over this SM's DRAM share, gets within 25% of it, and its
// warps wait on the loads (long_scoreboard) and on the full port
// (lg_throttle).
func TestSMDRAMQueueing(t *testing.T) {
	cfg := h100Hier(t)
	im := calibKernel(t, "stream.ptx")
	const bytes = 1 << 20
	_, rep := runCalib(t, cfg, im, Launch{Entry: "stream_read", Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{1024, 1, 1},
		Buffers: []Buffer{{Param: "stream_read_param_0", Size: bytes}, {Param: "stream_read_param_1", Size: 4 * 2048}},
		Args:    map[string]uint64{"stream_read_param_2": bytes / 16, "stream_read_param_3": 1}})
	share := float64(cfg.DRAM.BandwidthGBs) * 1000 / float64(cfg.SM.Count) / float64(cfg.Clock.MHz) // B/clk
	if got := rep.Metrics["dram__bytes_read.sum"]; got < bytes {
		t.Errorf("DRAM read %v bytes, want at least %d", got, bytes)
	}
	bw := float64(bytes) / float64(rep.Cycles)
	if bw > share || bw < 0.75*share {
		t.Errorf("%.2f B/clk, this SM's DRAM share is %.2f", bw, share)
	}
	if rep.Stalls["long_scoreboard"] == 0 || rep.Stalls["lg_throttle"] == 0 {
		t.Errorf("stalls %v: want long_scoreboard and lg_throttle", rep.Stalls)
	}
}

// Each pipe issues at its rate: 512 threads of 32 independent chains of
// one instruction reach within 25% of pipe.* results per clock (the
// loop's control is 4 instructions in 68).
func TestSMPipeRates(t *testing.T) {
	cfg := h100Hier(t)
	im := calibKernel(t, "pipes.ptx")
	const threads, iters = 512, 16
	for _, p := range []struct {
		name string
		rate int
	}{{"fp32", cfg.Pipe.FP32}, {"int32", cfg.Pipe.INT32}, {"imad", cfg.Pipe.IMAD}, {"fp64", cfg.Pipe.FP64}, {"sfu", cfg.Pipe.SFU}, {"cvt", cfg.Pipe.CVT}} {
		entry := "pipe_" + p.name
		_, rep := runCalib(t, cfg, im, Launch{Entry: entry, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{threads, 1, 1},
			Buffers: []Buffer{{Param: entry + "_param_0", Size: 4 * (64 + threads)}},
			Args:    map[string]uint64{entry + "_param_1": iters}})
		w := rep.Buffers[entry+"_param_0"]
		first, last := w[0], w[1]
		for k := 1; k < threads/32; k++ {
			if int32(w[2*k]-first) < 0 {
				first = w[2*k]
			}
			if int32(w[2*k+1]-last) > 0 {
				last = w[2*k+1]
			}
		}
		got := float64(threads*iters*64) / float64(last-first)
		if r := float64(p.rate); got < 0.75*r || got > 1.25*r {
			t.Errorf("%s: %.1f results/clk, pipe.%s = %d", p.name, got, p.name, p.rate)
		}
	}
}

// The launch picks the shared-memory carveout as the driver does
// (l1.smem_carveouts): the smallest supported one that holds the resident
// CTAs' shared memory, and the L1 data cache gets the rest. A one-warp
// CTA with 1 KiB of dynamic shared memory (plus 1 KiB reserved) is
// resident 32 times (sm.max_ctas): 64 KiB, a carveout of 64 KiB. A chase
// over 200 KiB then thrashes the 192 KiB L1 that is left, where the whole
// 256 KiB L1 of a kernel without shared memory holds it.
func TestSMCarveoutAtLaunch(t *testing.T) {
	cfg := h100Hier(t)
	const lines = 1600 // 200 KiB
	_, plain := chaseRunSmem(t, cfg, lines, 1, 1, 0)
	_, smem := chaseRunSmem(t, cfg, lines, 1, 1, 1024)
	const key = "launch__shared_mem_config_size"
	if got := plain.Metrics[key]; got != 0 {
		t.Errorf("no shared memory: carveout %v, want 0", got)
	}
	if got := smem.Metrics[key]; got != 64<<10 {
		t.Errorf("32 CTAs of 2 KiB: carveout %v, want 65536", got)
	}
	const hr = "l1tex__t_sector_hit_rate.pct"
	if got := plain.Metrics[hr]; got != 50 {
		t.Errorf("200 KiB chase in a 256 KiB L1: hit rate %v%%, want 50 (the warm pass hits)", got)
	}
	if got := smem.Metrics[hr]; got != 0 {
		t.Errorf("200 KiB chase in a 192 KiB L1: hit rate %v%%, want 0 (LRU thrashes)", got)
	}

	// A preference is a lower bound, rounded up to a supported size.
	pref := cfg
	pref.L1.SmemCarveoutBytes = 128 << 10
	if _, rep := chaseRunSmem(t, pref, 16, 0, 1, 0); rep.Metrics[key] != 132<<10 {
		t.Errorf("preference 128 KiB: carveout %v, want 132 KiB", rep.Metrics[key])
	}

	// Without the list the carveout is fixed and bounds the resident CTAs.
	fixed := cfg
	fixed.L1.SmemCarveouts = ""
	fixed.L1.SmemCarveoutBytes = 4096
	im := calibKernel(t, "chase.ptx")
	l := Launch{Entry: "chase", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, DynamicSmem: 1024,
		Buffers: []Buffer{{Param: "chase_param_0", Size: 128}, {Param: "chase_param_1", Size: 64}},
		Args:    map[string]uint64{"chase_param_2": 1, "chase_param_3": 0}}
	sm, err := New(fixed, im, l)
	if err != nil {
		t.Fatal(err)
	}
	if n := sm.MaxResidentCTAs(); n != 2 {
		t.Errorf("a fixed 4 KiB carveout, CTAs of 2 KiB: %d resident, want 2", n)
	}
	fixed.L1.SmemCarveoutBytes = 0
	_, err = New(fixed, im, l)
	if le, ok := err.(*LaunchError); !ok || le.Field != "dynamic_smem" || !strings.Contains(le.Msg, "l1.smem_carveout_bytes") {
		t.Errorf("a CTA with shared memory and no carveout: %v, want a dynamic_smem launch error naming l1.smem_carveout_bytes", err)
	}
}

// A warp whose shared load the banks cannot take waits in mio_throttle,
// as Nsight Compute counts a warp facing a full MIO queue, and the
// scheduler picks among the others; it is not "not selected". 32 warps
// each replay a 32-way conflicting load over and over: the banks are busy
// all the time, and nearly every waiting warp-cycle is mio_throttle.
// Without conflicts the banks take a load every cycle and mio_throttle is
// rare.
func TestSMMIOThrottleHoldsWarps(t *testing.T) {
	cfg := h100Hier(t)
	im := calibKernel(t, "smem.ptx")
	run := func(stride int) *Report {
		_, rep := runCalib(t, cfg, im, Launch{Entry: "smem_conflict", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{1024, 1, 1},
			Buffers: []Buffer{{Param: "smem_conflict_param_0", Size: 8192}},
			Args:    map[string]uint64{"smem_conflict_param_1": 64, "smem_conflict_param_2": uint64(stride)}})
		return rep
	}
	conflict, free := run(32), run(1)
	mio, ns := conflict.Stalls["mio_throttle"], conflict.Stalls["not_selected"]
	if mio < 20*ns || mio < 500000 {
		t.Errorf("32-way conflicts: mio_throttle %d, not_selected %d warp-cycles; want mio_throttle to dominate", mio, ns)
	}
	if m := free.Stalls["mio_throttle"]; m*20 > conflict.Stalls["mio_throttle"] {
		t.Errorf("no conflicts: mio_throttle %d warp-cycles, against %d with 32-way conflicts", m, mio)
	}
}

// Shared-memory bandwidth: 32 warps of conflict-free 16-byte loads keep
// the banks playing a 128-byte wavefront nearly every cycle (the CUDA C++
// Programming Guide's 128 B/clk/SM for compute capability 9.0), and a
// 512-byte warp request is 4 wavefronts, the conflict-free minimum.
func TestSMSharedBandwidth(t *testing.T) {
	cfg := h100Hier(t)
	im := calibKernel(t, "smem.ptx")
	const threads, iters = 1024, 32
	_, rep := runCalib(t, cfg, im, Launch{Entry: "smem_bw", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{threads, 1, 1},
		Buffers: []Buffer{{Param: "smem_bw_param_0", Size: 4 * (64 + threads)}},
		Args:    map[string]uint64{"smem_bw_param_1": iters}})
	out := rep.Buffers["smem_bw_param_0"]
	first, last := out[0], out[1]
	for k := 1; k < threads/32; k++ {
		first, last = min(first, out[2*k]), max(last, out[2*k+1])
	}
	bw := float64(threads*iters*8*16) / float64(last-first)
	if bw < 110 || bw > 128 {
		t.Errorf("shared-memory bandwidth %.1f B/clk, want 110..128", bw)
	}
	if wf := rep.Metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]; wf != threads/32*iters*8*4 {
		t.Errorf("%v wavefronts, want 4 per warp request (%d)", wf, threads/32*iters*8*4)
	}
}

// The image's cache operators (isa.Cache*) are memsys's CacheOp values:
// offer passes the field through.
func TestCacheOperatorEncodings(t *testing.T) {
	for enc, op := range map[int]memsys.CacheOp{
		isa.CacheCA: memsys.CacheAll, isa.CacheCG: memsys.CacheGlobal, isa.CacheCS: memsys.CacheStream,
		isa.CacheCV: memsys.CacheVolatile, isa.CacheNoAlloc: memsys.CacheNoAllocate, isa.CacheUnchanged: memsys.CacheUnchanged,
	} {
		if memsys.CacheOp(enc) != op {
			t.Errorf("isa cache operator %s is %d, memsys's is %d", isa.CacheName(enc), enc, op)
		}
	}
}
