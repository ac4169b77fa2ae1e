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
