package pipeline

import "testing"

// BenchmarkStream runs bench/calib's streaming read (2 CTAs x 1024
// threads, 16-byte loads, 1 MiB read once) on the h100 preset (mem.model
// hier): the memory system's share of the SM model's speed, reported
// beside BenchmarkIntLoop's warp-instructions/s.
func BenchmarkStream(b *testing.B) {
	cfg := h100Hier(b)
	im := calibKernel(b, "stream.ptx")
	const bytes = 1 << 20
	l := Launch{Entry: "stream_read", Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{1024, 1, 1},
		Buffers: []Buffer{{Param: "stream_read_param_0", Size: bytes}, {Param: "stream_read_param_1", Size: 4 * 2048}},
		Args:    map[string]uint64{"stream_read_param_2": bytes / 16, "stream_read_param_3": 1}}
	var insts, cycles uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, rep := runCalib(b, cfg, im, l)
		insts += rep.WarpInstructions
		cycles += rep.Cycles
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(insts)/s, "warp-instr/s")
	b.ReportMetric(float64(cycles)/s, "cycles/s")
}
