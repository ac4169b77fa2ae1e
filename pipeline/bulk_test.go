package pipeline

import (
	"math/rand"
	"testing"
)

// cp.async.bulk and the mbarrier tx-count (PTX ISA 9.7.9.25.4,
// 9.7.13.15): thread 0 expects 512 transaction bytes on bar with its
// arrival and starts two bulk copies of 256 bytes from global memory into
// shared memory (the size of the second in a register), each completing
// 256 bytes on bar; every thread waits for the phase with try_wait, then
// reads the 512 bytes back. A shared-to-shared bulk copy completes on
// bar2, and a shared-to-global one with a bulk async-group, waited for
// with cp.async.bulk.wait_group. On bar3, expect_tx and complete_tx
// without copies: the phase completes only once the arrival and both
// completions (60 + 40 of the 100 expected bytes) are in.
func TestCpAsyncBulk(t *testing.T) {
	src := kernelWith(".shared .align 16 .b8 sm[512];\n\t.shared .align 16 .b8 sm2[64];\n\t.shared .align 8 .b64 bar[3];", `
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra WAIT;
	mbarrier.init.shared::cta.b64 [bar], 1;
	mbarrier.init.shared::cta.b64 [bar+8], 1;
	mbarrier.init.shared::cta.b64 [bar+16], 1;
	fence.mbarrier_init.release.cluster;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd4, [bar], 512;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%rd1], 256, [bar];
	mov.u32 %r3, 256;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [sm+256], [%rd1+256], %r3, [bar], %rd4;
	// bar3: tx-count only.
	mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar+16], 100;
	mbarrier.arrive.shared::cta.b64 %rd5, [bar+16];
	mbarrier.test_wait.parity.shared::cta.b64 %p2, [bar+16], 0;
	mbarrier.complete_tx.shared::cta.b64 [bar+16], 60;
	mbarrier.test_wait.parity.shared::cta.b64 %p3, [bar+16], 0;
	mbarrier.complete_tx.shared::cluster.b64 [bar+16], 40;
	mbarrier.test_wait.parity.shared::cta.b64 %p4, [bar+16], 0;
	selp.u32 %r4, 1, 0, %p2;
	selp.u32 %r5, 2, 0, %p3;
	selp.u32 %r6, 4, 0, %p4;
	or.b32 %r4, %r4, %r5;
	or.b32 %r4, %r4, %r6;
	st.global.u32 [%rd1+3072], %r4;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p5, [bar], 0;
	@!%p5 bra WAIT;
	mul.lo.u32 %r7, %r1, 8;
	mov.u32 %r8, sm;
	add.u32 %r8, %r8, %r7;
	ld.shared.v2.u32 {%r9, %r10}, [%r8];
	mul.wide.u32 %rd6, %r1, 8;
	add.s64 %rd7, %rd1, %rd6;
	st.global.v2.u32 [%rd7+1024], {%r9, %r10};
	bar.sync 0;
	@%p1 bra DONE;
	mov.u32 %r11, sm;
	mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar+8], 64;
	cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [sm2], [%r11+64], 64, [bar+8];
WAIT2:
	mbarrier.try_wait.parity.shared::cta.b64 %p6, [bar+8], 0;
	@!%p6 bra WAIT2;
	cp.async.bulk.global.shared::cta.bulk_group [%rd1+1536], [sm2], 64;
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group.read 0;
	add.u32 %r20, %r1, 0;
	cp.async.bulk.prefetch.L2.global [%rd1], 256;
DONE:
	ret;`)
	init := patternBytes(4096, 1024, 11, 7)
	cfg := smallConfig()
	sm, rep, log := runLogged(t, cfg, src, initLaunch(64, init))
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	wantCopied(t, "global->shared", out, 256, init, 0, 128)
	wantCopied(t, "shared->shared->global", out, 384, init, 16, 16)
	if got := out[768]; got != 4 {
		t.Errorf("bar3 test_wait after arrive / complete_tx 60 / complete_tx 40: %03b, want 100", got)
	}
	lat := uint64(cfg.Lat.Global)
	cp := log.firstCycle(t, sm, "cp.async.bulk.global.shared::cta")
	after := log.firstCycle(t, sm, "add.u32 %r20")
	if after < cp+lat {
		t.Errorf("shared->global copy at %d (latency %d), next instruction after wait_group at %d", cp, lat, after)
	}
	if rep.Stalls["cp_async"] == 0 {
		t.Errorf("no cp_async stall at the bulk wait_group: %v", rep.Stalls)
	}
}

// TestAsyncKernel runs async.cu (clang-16, inline asm; two warps) and
// checks every output word against values computed here from the input:
// the cp.async stage (each thread's own group), the bulk copy into shared
// memory completing a tx-count phase, the bulk copy back to global memory,
// and one try_wait per thread (suspended until the phase completed).
func TestAsyncKernel(t *testing.T) {
	in := make([]uint32, 512)
	r := rand.New(rand.NewSource(16))
	for i := range in {
		in[i] = r.Uint32()
	}
	rep := runKernelFile(t, "async", Launch{Block: [3]uint32{64, 1, 1}, Buffers: []Buffer{
		{Param: "async_param_0", Size: 4 * 448},
		{Param: "async_param_1", Size: 4 * 512, Init: words32(in)},
	}})
	out := rep.Buffers["async_param_0"]
	tile := in[256:]
	for i := 0; i < 448; i++ {
		var want uint32
		switch {
		case i < 64:
			n := (i + 1) % 64
			want = in[4*n] + in[4*n+3]
		case i < 128:
			want = tile[i-64] ^ tile[255-(i-64)]
		case i < 384:
			want = tile[i-128]
		default:
			want = 1
		}
		if out[i] != want {
			t.Errorf("out[%d] = %#x, want %#x", i, out[i], want)
		}
	}
	if rep.Stalls["mbarrier"] == 0 || rep.Stalls["cp_async"] == 0 {
		t.Errorf("want mbarrier and cp_async stalls: %v", rep.Stalls)
	}
}

// .shared::cluster accesses (ld, st, atom, cvta) reach the CTA's own
// shared memory: a .shared::cta address is a valid .shared::cluster
// address of the executing CTA's memory (PTX ISA 5.1.5), and without mapa
// (refused) a kernel can form no other.
func TestSharedCluster(t *testing.T) {
	src := kernelWith(".shared .align 8 .b32 sm[32];", `
	mov.u32 %r3, sm;
	mul.lo.u32 %r4, %r1, 4;
	add.u32 %r5, %r3, %r4;
	add.u32 %r6, %r1, 1000;
	st.shared::cluster.u32 [%r5], %r6;
	bar.sync 0;
	atom.shared::cluster.add.u32 %r7, [sm], 1;
	bar.sync 0;
	cvta.shared::cluster.u64 %rd4, sm;
	ld.u32 %r8, [%rd4+4];
	ld.shared::cluster.u32 %r9, [sm];
	add.u32 %r10, %r8, %r9;
	st.global.u32 [%rd3], %r10;
	ret;`)
	out := runOut(t, src, 32, 32)
	for tid, v := range out {
		if want := uint32(1001 + 1000 + 32); v != want {
			t.Errorf("thread %d: %d, want %d", tid, v, want)
		}
	}
}

// tryWaitReadWord is the waiting side of the bulk-copy latency tests:
// each thread counts its try_waits on phase 0 of bar in %r10, the lanes
// of %p3 mark their wake-up with the add to %r22, and each thread then
// reads word tid of sm into %r9.
const tryWaitReadWord = `
WAIT:
	add.u32 %r10, %r10, 1;
	mbarrier.try_wait.parity.shared::cta.b64 %p5, [bar], 0;
	@!%p5 bra WAIT;
	@%p3 add.u32 %r22, %r1, 0;
	mul.lo.u32 %r7, %r1, 4;
	mov.u32 %r8, sm;
	add.u32 %r8, %r8, %r7;
	ld.shared.u32 %r9, [%r8];`

// startBulkCopy is the copying side of the bulk-copy latency tests, after
// bar's initialisation: every thread clears its try_wait count %r10, the
// lanes of %p3 go to WAIT (tryWaitReadWord), and the others sleep 500 ns
// (so the waiters are suspended first) before thread 0 (%p2) expects 256
// bytes on bar with its arrival and copies 256 bytes from global memory
// (%rd1) to sm.
const startBulkCopy = `bar.sync 0;
	mov.u32 %r10, 0;
	@%p3 bra WAIT;
	nanosleep.u32 500;
	@%p2 mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 256;
	@%p2 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%rd1], 256, [bar];`

// wantOneTryWait checks that threads from..to-1 woke from tryWaitReadWord
// after one try_wait each: counts holds their %r10, indexed by thread.
func wantOneTryWait(t *testing.T, counts []uint32, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if counts[i] != 1 {
			t.Errorf("thread %d made %d try_waits, want 1", i, counts[i])
		}
	}
}

// The transaction bytes of a cp.async.bulk copy into shared memory reach
// its mbarrier when the copy completes, the memory latency after issue
// (lat.global from global memory, lat.shared within shared memory), not at
// issue. Warp 1 is suspended in try_wait on bar before thread 0 starts
// two copies from global memory, the second expected (expect_tx) after
// the first was in flight: warp 1 wakes once, when the second completes
// (its predicted wake-up put off by the expect_tx), with one try_wait per
// thread. Warp 0 polls bar+8 with test_wait after a shared-to-shared copy
// and sees the phase complete only after lat.shared. Every copied word is
// checked.
func TestBulkTxLatency(t *testing.T) {
	src := kernelWith(".shared .align 16 .b8 sm[320];\n\t.shared .align 16 .b8 sm2[64];\n\t.shared .align 8 .b64 bar[2];", `
	setp.eq.u32 %p2, %r1, 0;
	setp.ge.u32 %p3, %r1, 32;
	@%p2 mbarrier.init.shared::cta.b64 [bar], 1;
	@%p2 mbarrier.init.shared::cta.b64 [bar+8], 1;
	`+startBulkCopy+`
	@%p2 mbarrier.expect_tx.shared::cta.b64 [bar], 64;
	@%p2 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm+256], [%rd1+256], 64, [bar];
	@%p2 mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar+8], 64;
	@%p2 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [sm2], [sm], 64, [bar+8];
POLL:
	mbarrier.test_wait.parity.shared::cta.b64 %p4, [bar+8], 0;
	@!%p4 bra POLL;
	add.u32 %r21, %r1, 0;`+tryWaitReadWord+`
	st.global.u32 [%rd3+1024], %r9;
	@%p2 ld.shared.u32 %r9, [sm+256];
	@%p2 st.global.u32 [%rd1+1536], %r9;
	@%p2 ld.shared.u32 %r9, [sm+316];
	@%p2 st.global.u32 [%rd1+1540], %r9;
	st.global.u32 [%rd3+2048], %r10;
	ret;`)
	init := patternBytes(4*640, 320, 13, 5)
	cfg := smallConfig()
	cfg.Lat.Global, cfg.Lat.Shared = 200, 30
	sm, rep, log := runLogged(t, cfg, src, initLaunch(64, init))
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	wantCopied(t, "first copy,", out, 256, init, 0, 64)
	wantOneTryWait(t, out[512:], 0, 64)
	if out[384] != wordAt(init, 64) || out[385] != wordAt(init, 79) {
		t.Errorf("second copy, words 64 and 79: %#x %#x, want %#x %#x", out[384], out[385], wordAt(init, 64), wordAt(init, 79))
	}
	cycle := func(text string, exec bool) uint64 {
		for _, i := range log.at(pcOfText(t, sm, text)) {
			if !exec || i.Exec != 0 {
				return i.Cycle
			}
		}
		t.Fatalf("%q never issued", text)
		return 0
	}
	g, s := uint64(cfg.Lat.Global), uint64(cfg.Lat.Shared)
	cp2 := cycle("[sm+256], [%rd1+256]", false)
	if woke := cycle("add.u32 %r22", true); woke < cp2+g || woke > cp2+g+20 {
		t.Errorf("warp 1 resumed at %d; the second global copy was issued at %d, lat.global %d: want it just after %d", woke, cp2, g, cp2+g)
	}
	cp3 := cycle("[sm2], [sm]", false)
	polls := log.at(pcOfText(t, sm, "test_wait.parity.shared::cta.b64 %p4"))
	if seen := cycle("add.u32 %r21", false); seen < cp3+s || len(polls) < 2 || polls[0].Cycle >= cp3+s {
		t.Errorf("warp 0 saw bar+8 complete at %d after %d test_waits (the first at %d); the shared copy was issued at %d, lat.shared %d: want the first to see it incomplete", seen, len(polls), polls[0].Cycle, cp3, s)
	}
	if rep.Stalls["mbarrier"] == 0 {
		t.Errorf("no mbarrier stall: %v", rep.Stalls)
	}
}

// The last arrival on a barrier can come after the bulk copy whose bytes
// it waits for: warp 1 is suspended in try_wait when thread 0 expects the
// bytes and starts the copy (one of two arrivals) and thread 1 arrives
// after it; warp 0 then exits, so no other mbarrier operation comes.
// Warp 1 wakes when the copy completes, once, and reads the copy.
func TestBulkTxLastArrivalAfterCopy(t *testing.T) {
	src := kernelWith(".shared .align 16 .b8 sm[256];\n\t.shared .align 8 .b64 bar;", `
	setp.eq.u32 %p2, %r1, 0;
	setp.eq.u32 %p4, %r1, 1;
	setp.ge.u32 %p3, %r1, 32;
	@%p2 mbarrier.init.shared::cta.b64 [bar], 2;
	`+startBulkCopy+`
	@%p4 mbarrier.arrive.shared::cta.b64 _, [bar];
	ret;`+tryWaitReadWord+`
	st.global.u32 [%rd3+512], %r9;
	st.global.u32 [%rd3+1024], %r10;
	ret;`)
	init := patternBytes(4*320, 256, 7, 3)
	cfg := smallConfig()
	cfg.Lat.Global = 200
	sm, rep, log := runLogged(t, cfg, src, initLaunch(64, init))
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	wantCopied(t, "copy,", out, 160, init, 32, 32)
	wantOneTryWait(t, out[256:], 32, 64)
	cp := log.firstCycle(t, sm, "[sm], [%rd1], 256")
	for _, i := range log.at(pcOfText(t, sm, "add.u32 %r22")) {
		if i.Exec != 0 && (i.Cycle < cp+200 || i.Cycle > cp+220) {
			t.Errorf("warp 1 resumed at %d; the copy was issued at %d, lat.global 200", i.Cycle, cp)
		}
	}
}

// wantCopied checks that out[at+i] is word from+i of src for i < n: n
// words copied from src (the out buffer's initial contents) to out at.
func wantCopied(t *testing.T, what string, out []uint32, at int, src []byte, from, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if want := wordAt(src, from+i); out[at+i] != want {
			t.Errorf("%s word %d: %#x, want %#x", what, from+i, out[at+i], want)
		}
	}
}
