package trace

import (
	"fmt"
	"io"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/pipeline"
)

// BenchmarkCost splits what tracing the 48-warp benchmark kernel costs:
// the run untraced, with a no-op hook (the SM's cost of being observed),
// and traced into io.Discard (everything but the file system) with one
// and with two workers. Under GOMAXPROCS=1 time per op is the CPU time of
// all of it (a CPU profile then splits the SM's goroutine, SM.Run, from
// the worker's, frames.worker); with two CPUs, the wall-clock time.
// bench/trace/run.sh measures the ratio (to a file, in one
// process, side by side).
func BenchmarkCost(b *testing.B) {
	newSM := func(b *testing.B) *pipeline.SM {
		sm, err := exlaunch.NewByName("bench_intloop", config.Default())
		if err != nil {
			b.Fatal(err)
		}
		return sm
	}
	run := func(b *testing.B, sm *pipeline.SM) {
		rep, err := sm.Run()
		if err != nil || rep.Status != pipeline.StatusCompleted {
			b.Fatalf("%v %v", err, rep.Status)
		}
	}
	b.Run("untraced", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			run(b, newSM(b))
		}
	})
	b.Run("nophook", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sm := newSM(b)
			sm.OnCycle(func(*pipeline.CycleInfo) {})
			run(b, sm)
		}
	})
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("traced-w%d", w), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sm := newSM(b)
				tr, err := attach(sm, io.Discard, Options{}, w)
				if err != nil {
					b.Fatal(err)
				}
				run(b, sm)
				if err := tr.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
