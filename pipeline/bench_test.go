package pipeline

import (
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
)

// BenchmarkIntLoop runs the examples package's 48-warp integer loop kernel
// (bench_intloop, 2 CTAs x 768 threads, 100 iterations) on the H100 preset,
// tracing off, and reports simulated warp instructions and cycles per
// second of host time.
func BenchmarkIntLoop(b *testing.B) {
	e := examples.Benchmark()
	im := assemble(b, e.Name+".ptx", e.PTX)
	cfg := config.Default()
	l := launchOf(e)
	var insts, cycles uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sm, err := New(cfg, im, l)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := sm.Run()
		if err != nil || rep.Status != StatusCompleted {
			b.Fatalf("%v %s", err, rep.Status)
		}
		insts += rep.WarpInstructions
		cycles += rep.Cycles
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(insts)/s, "warp-instr/s")
	b.ReportMetric(float64(cycles)/s, "cycles/s")
	b.ReportMetric(float64(insts)/float64(b.N), "warp-instr/op")
}
