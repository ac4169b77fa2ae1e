package pipeline

import "testing"

// fence and membar at every scope and in the proxy and mbarrier_init forms
// (issue 16, item 6; PTX ISA 9.7.13.4): "The membar instruction
// guarantees that prior memory accesses requested by this thread (ld, st,
// atom and red instructions) are performed at the specified level, before
// later memory operations requested by this thread following the membar
// instruction." One SM's memory is coherent, so every scope
// orders the same way: the warp waits in state membar until its
// outstanding store has completed (lat.global after issue), and the store
// is in memory.
func TestFenceScopes(t *testing.T) {
	cfg := smallConfig()
	cfg.Lat.Global = 100
	for _, op := range []string{
		"membar.cta", "membar.gl", "membar.sys", "membar.proxy.alias",
		"fence.sc.cta", "fence.acq_rel.cluster", "fence.sc.gpu", "fence.acq_rel.sys",
		"fence.acquire.gpu", "fence.release.cta", "fence.proxy.alias",
		"fence.proxy.async", "fence.proxy.async.global", "fence.proxy.async.shared::cta",
		"fence.proxy.async.shared::cluster", "fence.mbarrier_init.release.cluster",
	} {
		t.Run(op, func(t *testing.T) {
			src := kernel("\tadd.u32 %r5, %r1, 7;\n\tst.global.u32 [%rd3], %r5;\n\t" + op + ";\n\tadd.u32 %r6, %r1, 1;\n\tret;")
			sm, rep, log := runLogged(t, cfg, src, threadsLaunch(32))
			wantCompleted(t, rep)
			st := log.firstCycle(t, sm, "st.global.u32")
			next := log.firstCycle(t, sm, "add.u32 %r6")
			if next < st+100 || rep.Stalls["membar"] == 0 {
				t.Errorf("store at %d, next instruction at %d (lat.global 100), membar stalls %d", st, next, rep.Stalls["membar"])
			}
			for i, v := range rep.Buffers["out"] {
				if v != uint32(i+7) {
					t.Fatalf("out[%d] = %d, want %d", i, v, i+7)
				}
			}
		})
	}
}
