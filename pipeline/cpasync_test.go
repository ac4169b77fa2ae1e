package pipeline

import (
	"fmt"
	"testing"
)

// chunkAddrs is the PTX that points each thread at its chunk of n bytes:
// %r6 in sm, %rd5 in the out buffer (%r3 is the offset, %r5 sm, %rd4 the
// offset widened).
func chunkAddrs(n int) string {
	return fmt.Sprintf(`
	mul.lo.u32 %%r3, %%r1, %d;
	mov.u32 %%r5, sm;
	add.u32 %%r6, %%r5, %%r3;
	cvt.u64.u32 %%rd4, %%r3;
	add.s64 %%rd5, %%rd1, %%rd4;`, n)
}

// cp.async (PTX ISA 9.7.9.25): each of 32 threads copies 16 bytes
// (.cg) and 8 bytes (.ca, src-size = tid % 9: the rest zero-filled) from
// global memory into shared memory in two groups; after wait_group 1 the
// first group has completed, after wait_all both have; bar.sync, then
// each thread reads its neighbour's copies back. The instruction after
// each wait issues no earlier than the global latency after the copies
// of the groups it waits for.
func TestCpAsync(t *testing.T) {
	src := kernelWith(".shared .align 16 .b8 sm[768];", `
	mul.lo.u32 %r3, %r1, 16;
	mul.lo.u32 %r4, %r1, 8;
	mov.u32 %r5, sm;
	add.u32 %r6, %r5, %r3;
	add.u32 %r7, %r5, %r4;
	add.u32 %r7, %r7, 512;
	cvt.u64.u32 %rd4, %r3;
	add.s64 %rd5, %rd1, %rd4;
	cvt.u64.u32 %rd6, %r4;
	add.s64 %rd7, %rd1, %rd6;
	rem.u32 %r8, %r1, 9;
	cp.async.cg.shared.global [%r6], [%rd5], 16;
	cp.async.commit_group;
	cp.async.ca.shared::cta.global.L2::128B [%r7], [%rd7+512], 8, %r8;
	cp.async.commit_group;
	cp.async.wait_group 1;
	add.u32 %r20, %r1, 0;
	cp.async.wait_all;
	bar.sync 0;
	add.u32 %r9, %r1, 1;
	and.b32 %r9, %r9, 31;
	mul.lo.u32 %r10, %r9, 16;
	add.u32 %r10, %r5, %r10;
	ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r10];
	mul.lo.u32 %r15, %r9, 8;
	add.u32 %r15, %r5, %r15;
	ld.shared.v2.u32 {%r16, %r17}, [%r15+512];
	mul.lo.u32 %r18, %r1, 24;
	cvt.u64.u32 %rd8, %r18;
	add.s64 %rd9, %rd1, %rd8;
	st.global.v2.u32 [%rd9+1024], {%r11, %r12};
	st.global.v2.u32 [%rd9+1032], {%r13, %r14};
	st.global.v2.u32 [%rd9+1040], {%r16, %r17};
	ret;`)
	const words = 1024/4 + 32*6
	init := patternBytes(4*words, 1024, 7, 3)
	cfg := smallConfig()
	sm, rep, log := runLogged(t, cfg, src, initLaunch(32, init))
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	for tid := 0; tid < 32; tid++ {
		nb := (tid + 1) % 32
		var want [6]uint32
		for k := 0; k < 4; k++ {
			want[k] = wordAt(init, 4*nb+k)
		}
		var b [8]byte
		copy(b[:nb%9], init[512+8*nb:])
		want[4], want[5] = wordAt(b[:], 0), wordAt(b[:], 1)
		for k, w := range want {
			if got := out[256+6*tid+k]; got != w {
				t.Errorf("thread %d word %d: %#x, want %#x", tid, k, got, w)
			}
		}
	}
	lat := uint64(cfg.Lat.Global)
	first := log.firstCycle(t, sm, "cp.async.cg")
	second := log.firstCycle(t, sm, "cp.async.ca")
	afterGroup := log.firstCycle(t, sm, "add.u32 %r20")
	afterAll := log.firstCycle(t, sm, "bar.sync")
	if afterGroup < first+lat || afterAll < second+lat {
		t.Errorf("copies at %d and %d (latency %d); after wait_group 1 at %d, after wait_all at %d", first, second, lat, afterGroup, afterAll)
	}
	if rep.Stalls["cp_async"] == 0 || rep.Stalls["membar"] != 0 {
		t.Errorf("want cp_async stalls (not membar) while waiting: %v", rep.Stalls)
	}
}

// cp.async.mbarrier.arrive.noinc counts as one arrival on the barrier
// (the model's copies are complete at issue); without .noinc the
// pending count is raised first, so the pair changes nothing.
func TestCpAsyncMbarrierArrive(t *testing.T) {
	src := kernelWith(".shared .align 8 .b64 bar;\n\t.shared .align 16 .b8 sm[16];", `
	mbarrier.init.shared.b64 [bar], 2;
	cp.async.ca.shared.global [sm], [%rd1], 16;
	cp.async.mbarrier.arrive.noinc.shared.b64 [bar];
	cp.async.mbarrier.arrive.shared.b64 [bar];
	mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;
	mbarrier.arrive.shared.b64 %rd4, [bar];
	mbarrier.test_wait.parity.shared.b64 %p2, [bar], 0;
	selp.u32 %r3, 1, 0, %p1;
	selp.u32 %r4, 2, 0, %p2;
	or.b32 %r3, %r3, %r4;
	st.global.u32 [%rd3], %r3;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{1, 1, 1}, Buffers: outBuf(4)})
	wantCompleted(t, rep)
	if got := rep.Buffers["out"][0]; got != 2 {
		t.Errorf("phase complete before/after the second arrival: %#b, want 0b10", got)
	}
}

// cp.async groups are per thread (PTX ISA 9.7.9.25.3.2: commit_group
// "commits all prior initiated but uncommitted cp.async instructions ...
// into a cp.async-group" of the executing thread): lanes 16..31 copy 16
// bytes each and do not commit; lanes 0..15 then commit an empty group.
// wait_group 0 does not wait for the other lanes' uncommitted copies;
// wait_all does, and the copied words are then in shared memory.
func TestCpAsyncGroupsPerThread(t *testing.T) {
	src := kernelWith(".shared .align 16 .b8 sm[512];", chunkAddrs(16)+`
	setp.ge.u32 %p1, %r1, 16;
	@%p1 cp.async.cg.shared.global [%r6], [%rd5], 16;
	@!%p1 cp.async.commit_group;
	cp.async.wait_group 0;
	add.u32 %r20, %r1, 0;
	cp.async.wait_all;
	add.u32 %r21, %r1, 0;
	ld.shared.u32 %r7, [%r6];
	st.global.u32 [%rd3+512], %r7;
	ret;`)
	init := patternBytes(4*(128+32), 512, 5, 1)
	cfg := smallConfig()
	sm, rep, log := runLogged(t, cfg, src, initLaunch(32, init))
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	for tid := 16; tid < 32; tid++ {
		if want := wordAt(init, 4*tid); out[128+tid] != want {
			t.Errorf("thread %d: %#x, want %#x", tid, out[128+tid], want)
		}
	}
	lat := uint64(cfg.Lat.Global)
	cp := log.firstCycle(t, sm, "cp.async.cg")
	afterGroup := log.firstCycle(t, sm, "add.u32 %r20")
	afterAll := log.firstCycle(t, sm, "add.u32 %r21")
	if afterGroup >= cp+lat || afterAll < cp+lat {
		t.Errorf("copy at %d (latency %d); after wait_group 0 at %d (want before %d), after wait_all at %d (want from %d)", cp, lat, afterGroup, cp+lat, afterAll, cp+lat)
	}
}

// cp.async with an ignore-src predicate (PTX ISA 9.7.9.25.3.1: when
// ignore-src is true the source is not read and the cp-size bytes of the
// destination are zero) and a cache policy (.L2::cache_hint: read, not
// used): odd threads ignore their source, even threads copy 8 bytes.
func TestCpAsyncIgnoreSrc(t *testing.T) {
	src := kernelWith(".shared .align 16 .b8 sm[256];", chunkAddrs(8)+`
	st.shared.v2.u32 [%r6], {%r1, %r1};
	and.b32 %r7, %r1, 1;
	setp.ne.u32 %p1, %r7, 0;
	createpolicy.fractional.L2::evict_last.b64 %rd6, 1.0;
	cp.async.ca.shared.global.L2::cache_hint [%r6], [%rd5], 8, %p1, %rd6;
	cp.async.wait_all;
	ld.shared.v2.u32 {%r8, %r9}, [%r6];
	st.global.v2.u32 [%rd5+256], {%r8, %r9};
	ret;`)
	init := patternBytes(512, 256, 13, 5)
	_, rep := runPTX(t, smallConfig(), src, initLaunch(32, init))
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	for tid := 0; tid < 32; tid++ {
		for k := 0; k < 2; k++ {
			want := wordAt(init, 2*tid+k)
			if tid%2 == 1 {
				want = 0
			}
			if got := out[64+2*tid+k]; got != want {
				t.Errorf("thread %d word %d: %#x, want %#x", tid, k, got, want)
			}
		}
	}
}
