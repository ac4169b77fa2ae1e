package cosimbench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// The SM lockstep's speed (docs/sm-rtl.md section 6), in cycles/s, on one
// kernel: examples/bench_intloop.ptx at one CTA of 256 threads (8 warps)
// at the small preset, the launch of cosim's TestSMLockstep with more
// iterations (SMSIM_SM_ITERS, default 5000: 220,092 cycles), three ways:
//
//   - go: the Go SM alone (pipeline.SM.Run, as `smsim run`);
//   - rtl: the Verilated SM alone (the bench with its records off);
//     rtl-records: the same, writing its record stream into /dev/null;
//   - lockstep: both, compared every cycle (cosim.RunSM).
//
// bench/cosim/sm.sh prints the table and checks the targets.

// smIters is the loop count of the kernel.
func smIters(tb testing.TB) uint64 {
	s := os.Getenv("SMSIM_SM_ITERS")
	if s == "" {
		return 5000
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 0 {
		tb.Fatalf("SMSIM_SM_ITERS=%q: want a positive count", s)
	}
	return n
}

// smLaunch is the benchmark's run.
func smLaunch(tb testing.TB, iters uint64) cosim.SMOptions {
	cfg, err := config.Preset("small")
	if err != nil {
		tb.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "bench_intloop.ptx"))
	if err != nil {
		tb.Fatal(err)
	}
	im, err := isa.AssembleSource("bench_intloop.ptx", src)
	if err != nil {
		tb.Fatal(err)
	}
	k := im.Kernels[0]
	return cosim.SMOptions{Config: cfg, Image: im, Launch: pipeline.Launch{
		Entry: k.Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{256, 1, 1},
		Args:    map[string]uint64{k.Params[1].Name: iters},
		Buffers: []pipeline.Buffer{{Param: k.Params[0].Name, Size: 1024}},
	}}
}

// smGoRate runs the Go SM alone.
func smGoRate(o cosim.SMOptions) (rate float64, cycles uint64, err error) {
	sm, err := pipeline.New(o.Config, o.Image, o.Launch)
	if err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	rep, err := sm.Run()
	if err != nil {
		return 0, 0, err
	}
	el := time.Since(t0)
	if rep.Status != pipeline.StatusCompleted {
		return 0, 0, fmt.Errorf("the Go run ended %s", rep.Status)
	}
	return float64(sm.Cycle()) / el.Seconds(), sm.Cycle(), nil
}

// smRTLRate runs the Verilated SM alone (records off, or discarded); cpu
// is its rate over the bench's CPU time.
func smRTLRate(ctx context.Context, o cosim.SMOptions, records bool) (rate, cpu float64, cycles uint64, err error) {
	o.RTLOnly, o.RTLRecords = true, records
	res, err := cosim.RunSM(ctx, o)
	if err != nil {
		return 0, 0, 0, err
	}
	if res.BenchCPU > 0 {
		cpu = float64(res.Cycles) / res.BenchCPU.Seconds()
	}
	return res.Rate(), cpu, res.Cycles, nil
}

// smLockstepRate runs the lockstep.
func smLockstepRate(ctx context.Context, o cosim.SMOptions) (float64, uint64, error) {
	res, err := cosim.RunSM(ctx, o)
	if err != nil {
		return 0, 0, err
	}
	if !res.OK() {
		return 0, 0, fmt.Errorf("the lockstep failed: %v %v", res.Mismatch, res.BufferDiffs)
	}
	return res.Rate(), res.Cycles, nil
}

// BenchmarkCosimSM: each way runs the whole kernel b.N times (run it
// with -benchtime Nx); the metric cycles/s is the best of the N runs (the
// least disturbed by other load), cpu-cycles/s the Verilated SM's over
// its own CPU time.
func BenchmarkCosimSM(b *testing.B) {
	ctx := context.Background()
	o := smLaunch(b, smIters(b))
	if _, err := cosim.BuildSM(ctx, o.Config, o.Harness); err != nil {
		b.Fatal(err)
	}
	noCPU := func(r float64, c uint64, err error) (float64, float64, uint64, error) { return r, 0, c, err }
	ways := []struct {
		name string
		run  func() (float64, float64, uint64, error)
	}{
		{"go", func() (float64, float64, uint64, error) { return noCPU(smGoRate(o)) }},
		{"rtl", func() (float64, float64, uint64, error) { return smRTLRate(ctx, o, false) }},
		{"rtl-records", func() (float64, float64, uint64, error) { return smRTLRate(ctx, o, true) }},
		{"lockstep", func() (float64, float64, uint64, error) { return noCPU(smLockstepRate(ctx, o)) }},
	}
	for _, w := range ways {
		b.Run(w.name, func(b *testing.B) {
			var best, bestCPU float64
			var cycles uint64
			for i := 0; i < b.N; i++ {
				r, cpu, c, err := w.run()
				if err != nil {
					b.Fatal(err)
				}
				best, bestCPU, cycles = max(best, r), max(bestCPU, cpu), c
			}
			b.ReportMetric(best, "cycles/s")
			if bestCPU > 0 {
				b.ReportMetric(bestCPU, "cpu-cycles/s")
			}
			b.ReportMetric(float64(cycles), "cycles")
		})
	}
}

// TestSMMeasurementsRun runs BenchmarkCosimSM's measurements briefly (20
// iterations of the loop) so that the benchmark keeps working: each must
// complete with the same cycle count (the speeds are bench/cosim/sm.sh's
// to judge, not a unit test's).
func TestSMMeasurementsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Verilated SM")
	}
	ctx := context.Background()
	o := smLaunch(t, 20)
	_, g, err := smGoRate(o)
	if err != nil {
		t.Fatal(err)
	}
	_, _, r, err := smRTLRate(ctx, o, false)
	if err != nil {
		t.Fatal(err)
	}
	_, _, rr, err := smRTLRate(ctx, o, true)
	if err != nil {
		t.Fatal(err)
	}
	_, l, err := smLockstepRate(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if g < 20 || r != g || rr != g || l != g {
		t.Fatalf("cycles: go %d, rtl %d, rtl with records %d, lockstep %d: want one count", g, r, rr, l)
	}
}
