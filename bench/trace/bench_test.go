// Package benchtrace measures what tracing costs: the examples package's
// 48-warp benchmark kernel run untraced and traced (trace.Attach writing
// a VCD file), in one process. bench/trace/run.sh runs it and prints the
// ratio.
package benchtrace

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trace"
)

func setup(b *testing.B) (*isa.Image, pipeline.Launch) {
	e := examples.Benchmark()
	im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
	if err != nil {
		b.Fatal(err)
	}
	return im, exlaunch.Launch(e)
}

// run runs the kernel once; with vcdPath it traces every signal of every
// cycle into that file.
func run(b *testing.B, im *isa.Image, l pipeline.Launch, vcdPath string) (cycles uint64, bytes int64) {
	sm, err := pipeline.New(config.Default(), im, l)
	if err != nil {
		b.Fatal(err)
	}
	var tr *trace.Tracer
	var f *os.File
	var bw *bufio.Writer
	if vcdPath != "" {
		if f, err = os.Create(vcdPath); err != nil {
			b.Fatal(err)
		}
		bw = bufio.NewWriterSize(f, 1<<20)
		if tr, err = trace.Attach(sm, bw, trace.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	rep, err := sm.Run()
	if err != nil || rep.Status != pipeline.StatusCompleted {
		b.Fatalf("%v %s", err, rep.Status)
	}
	if tr != nil {
		if err := tr.Close(); err != nil {
			b.Fatal(err)
		}
		if err := bw.Flush(); err != nil {
			b.Fatal(err)
		}
		st, _ := f.Stat()
		bytes = st.Size()
		f.Close()
	}
	return rep.Cycles, bytes
}

// BenchmarkUntraced is the run without a tracer (no hooks: the SM skips
// idle cycles and does no observation work).
func BenchmarkUntraced(b *testing.B) {
	im, l := setup(b)
	var cycles uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, _ := run(b, im, l, "")
		cycles += c
	}
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkTraced is the same run with every signal of every cycle dumped
// to a VCD file.
func BenchmarkTraced(b *testing.B) {
	im, l := setup(b)
	path := filepath.Join(b.TempDir(), "bench.vcd")
	var cycles uint64
	var bytes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, n := run(b, im, l, path)
		cycles += c
		bytes += n
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(cycles)/s, "cycles/s")
	b.ReportMetric(float64(bytes)/float64(b.N), "vcd-bytes/op")
	b.ReportMetric(float64(bytes)/1e6/s, "vcd-MB/s")
}

// BenchmarkRatio runs the kernel untraced, with a no-op OnCycle hook and
// traced, in turn, b.N times each, and reports the median time of each
// (wall-clock, and CPU time of the process, which a loaded machine
// disturbs less) and the ratios to the untraced run: what tracing costs,
// and how much of it is the SM's own cost of being observed (with a hook
// registered it steps every cycle and every unit, skipping nothing).
func BenchmarkRatio(b *testing.B) {
	im, l := setup(b)
	path := filepath.Join(b.TempDir(), "bench.vcd")
	var unCPU, trCPU, unWall, trWall, nopWall []float64
	var bytes int64
	for i := 0; i < b.N; i++ {
		c0, w0 := cpuTime(), time.Now()
		run(b, im, l, "")
		c1, w1 := cpuTime(), time.Now()
		_, n := run(b, im, l, path)
		c2, w2 := cpuTime(), time.Now()
		sm, err := pipeline.New(config.Default(), im, l)
		if err != nil {
			b.Fatal(err)
		}
		sm.OnCycle(func(*pipeline.CycleInfo) {})
		if _, err := sm.Run(); err != nil {
			b.Fatal(err)
		}
		w3 := time.Now()
		unCPU, trCPU = append(unCPU, (c1-c0).Seconds()), append(trCPU, (c2-c1).Seconds())
		unWall, trWall = append(unWall, w1.Sub(w0).Seconds()), append(trWall, w2.Sub(w1).Seconds())
		nopWall = append(nopWall, w3.Sub(w2).Seconds())
		bytes = n
	}
	mu, mt := median(unCPU), median(trCPU)
	b.ReportMetric(mu*1e3, "untraced-cpu-ms")
	b.ReportMetric(mt*1e3, "traced-cpu-ms")
	b.ReportMetric(mt/mu, "ratio")
	wu, wt, wn := median(unWall), median(trWall), median(nopWall)
	b.ReportMetric(wu*1e3, "untraced-wall-ms")
	b.ReportMetric(wt*1e3, "traced-wall-ms")
	b.ReportMetric(wt/wu, "wall-ratio")
	b.ReportMetric(wn*1e3, "nophook-wall-ms")
	b.ReportMetric(wn/wu, "nophook-ratio")
	b.ReportMetric(float64(bytes)/1e6, "vcd-MB")
	// The fastest run of each: what a quiet machine gives.
	b.ReportMetric(minOf(trWall)/minOf(unWall), "best-wall-ratio")
	b.ReportMetric(minOf(trCPU)/minOf(unCPU), "best-cpu-ratio")
	b.ReportMetric(minOf(nopWall)/minOf(unWall), "best-nophook-ratio")
}

func minOf(v []float64) float64 {
	m := v[0]
	for _, x := range v[1:] {
		m = min(m, x)
	}
	return m
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
