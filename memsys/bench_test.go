package memsys_test

import (
	"testing"

	"github.com/smsim/smsim/config"
)

// BenchmarkStreamCycle is the cost of one cycle of coalescer + hierarchy
// under a streaming load at the h100 preset (L1 misses, DRAM-bound).
func BenchmarkStreamCycle(b *testing.B) {
	r := newRig(b, config.Default())
	b.ResetTimer()
	r.stream(1<<32, 1<<24, b.N)
}

// BenchmarkL1HitCycle is the cost of one cycle when every access hits the
// L1 (a 64-line working set).
func BenchmarkL1HitCycle(b *testing.B) {
	r := newRig(b, config.Default())
	r.stream(1<<32, 64, 10000)
	b.ResetTimer()
	r.stream(1<<32, 64, b.N)
}

// BenchmarkPortStreamCycle is the cost of one cycle of the port under a
// streaming load (a coalesced warp load offered every cycle, DRAM-bound):
// what the load/store stage pays per cycle of a memory-bound kernel.
func BenchmarkPortStreamCycle(b *testing.B) {
	d := newDrv(b, config.Default())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := strided(0, 0, 1<<30+uint64(i)*128, 4, 1)
		d.cycle(&req)
		d.resp = d.resp[:0]
	}
}

// BenchmarkPortIdleCycle is the cost of one cycle of an idle port (no
// request offered, none in flight), which the SM pays every cycle it does
// not skip.
func BenchmarkPortIdleCycle(b *testing.B) {
	d := newDrv(b, config.Default())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.cycle(nil)
	}
}
