package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// Barrier unit tests: bar.sync / barrier.sync with ids 0..15 and optional
// thread counts, bar.arrive, exited threads (seed 004), barrier stalls.
// bar.red and bar.warp.sync are covered by TestWarpLevelOps.

// barKernel is kernel k with a 256-byte shared array s.
func barKernel(body string) string {
	return kernelWith(".shared .align 4 .b8 s[512];", `
	shr.u32 %r4, %r1, 5;
`+body)
}

// Seed 004 (exit): "Barriers exclusively waiting on arrivals from exited
// threads are always released." Warps 0-1 wait at bar.sync 0 while warps
// 2-3 first wait for a global load and then exit: the barrier releases
// lat.barrier cycles after the last of them exits, and the waiting warps
// report barrier stalls meanwhile.
func TestBarrierReleasedByExitedThreads(t *testing.T) {
	cfg := smallConfig()
	src := barKernel(`
	setp.lt.u32 %p1, %r4, 2;
	@%p1 bra WAIT;
	ld.global.u32 %r5, [%rd3];
	add.u32 %r5, %r5, 1;
	st.global.u32 [%rd3], %r5;
	exit; // leavers
WAIT:
	bar.sync 0;
	add.u32 %r6, %r1, 7; // after
	st.global.u32 [%rd3], %r6;
	ret;`)
	sm, rep, log := runLogged(t, cfg, src, threadsLaunch(128))
	wantNoErrors(t, rep)
	var lastExit uint64
	for _, i := range log.at(pcOfText(t, sm, "// leavers")) {
		lastExit = max(lastExit, i.Cycle)
	}
	after := log.at(pcOfText(t, sm, "// after"))
	if len(after) != 2 {
		t.Fatalf("after %+v", after)
	}
	for _, i := range after {
		if i.Cycle < lastExit+uint64(cfg.Lat.Barrier) {
			t.Errorf("warp %d left the barrier at %d, the last thread exited at %d", i.Warp, i.Cycle, lastExit)
		}
	}
	for _, w := range rep.Warps[:2] {
		if w.Stalls["barrier"] < uint64(cfg.Lat.Global) {
			t.Errorf("warp %d barrier stalls %v", w.WarpInCTA, w.Stalls)
		}
	}
	checkInvariants(t, sm, rep)
}

// Threads that arrived at a barrier (bar.arrive) and then exited count
// once, as arrived: warps 0-1 arrive at barrier 1 (128 threads) and exit;
// warp 2 waits there; it is released only when warp 3, delayed by a
// global load, arrives too. (Counting the exited arrivals twice would
// release warp 2 alone.)
func TestBarrierArrivedThenExitedCountsOnce(t *testing.T) {
	src := barKernel(`
	setp.ge.u32 %p1, %r4, 2;
	@%p1 bra CONSUME;
	mul.lo.u32 %r7, %r1, 4;
	st.shared.u32 [%r7], %r1;
	bar.arrive 1, 128;
	exit;
CONSUME:
	setp.eq.u32 %p2, %r4, 3;
	@!%p2 bra SYNC;
	ld.global.u32 %r5, [%rd3];
	add.u32 %r5, %r5, 1; // warp 3 is late
SYNC:
	bar.sync 1, 128; // consumers
	sub.u32 %r8, %r1, 64;
	mul.lo.u32 %r8, %r8, 4;
	ld.shared.u32 %r9, [%r8];
	st.global.u32 [%rd3], %r9;
	ret;`)
	sm, rep, log := runLogged(t, smallConfig(), src, threadsLaunch(128))
	wantNoErrors(t, rep)
	var w3 uint64
	for _, i := range log.at(pcOfText(t, sm, "// consumers")) {
		if i.Warp == 3 {
			w3 = i.Cycle
		}
	}
	for _, i := range log.at(pcOfText(t, sm, "sub.u32")) {
		if i.Cycle <= w3 {
			t.Errorf("warp %d left barrier 1 at %d, before warp 3 arrived at %d", i.Warp, i.Cycle, w3)
		}
	}
	for i := 64; i < 128; i++ {
		if v := rep.Buffers["out"][i]; v != uint32(i-64) {
			t.Errorf("out[%d] = %d", i, v)
		}
	}
}

// A barrier with a thread count waiting only on threads that exited is
// released too: bar.sync 2, 128 with warps 2-3 exited.
func TestBarrierCountWaitingOnExited(t *testing.T) {
	_, rep := runPTX(t, smallConfig(), barKernel(`
	setp.ge.u32 %p1, %r4, 2;
	@%p1 exit;
	bar.sync 2, 128;
	st.global.u32 [%rd3], %r1;
	ret;`), Launch{Block: [3]uint32{128, 1, 1}, Buffers: outBuf(128)})
	if rep.Status != StatusCompleted || len(rep.Errors) != 0 {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
}

// bar.sync and barrier.sync take ids 0..15 and an optional thread count
// (a multiple of 32); a count smaller than the CTA lets that many threads
// through by themselves (barrier.sync 15, 64 for warps 0-1 while warps 2-3
// use barrier.sync 14, 64). Id 16 and a count of 48 are barrier errors.
func TestBarrierIDsAndCounts(t *testing.T) {
	for _, id := range []int{0, 1, 7, 15} {
		for _, op := range []string{"bar.sync", "barrier.sync", "barrier.sync.aligned"} {
			_, rep := runPTX(t, smallConfig(), barKernel(fmt.Sprintf(`
	mul.lo.u32 %%r7, %%r1, 4;
	st.shared.u32 [%%r7], %%r1;
	%s %d;
	xor.b32 %%r8, %%r1, 127;
	mul.lo.u32 %%r8, %%r8, 4;
	ld.shared.u32 %%r9, [%%r8];
	st.global.u32 [%%rd3], %%r9;
	ret;`, op, id)), Launch{Block: [3]uint32{128, 1, 1}, Buffers: outBuf(128)})
			if rep.Status != StatusCompleted || len(rep.Errors) != 0 {
				t.Fatalf("%s %d: status %s %+v", op, id, rep.Status, rep.Errors)
			}
			for i, v := range rep.Buffers["out"] {
				if v != uint32(127-i) {
					t.Fatalf("%s %d: out[%d] = %d", op, id, i, v)
				}
			}
		}
	}
	_, rep := runPTX(t, smallConfig(), barKernel(`
	setp.lt.u32 %p1, %r4, 2;
	@%p1 bra LOW;
	barrier.sync 14, 64;
	bra.uni END;
LOW:
	barrier.sync 15, 64;
END:
	st.global.u32 [%rd3], %r1;
	ret;`), Launch{Block: [3]uint32{128, 1, 1}, Buffers: outBuf(128)})
	if rep.Status != StatusCompleted || len(rep.Errors) != 0 {
		t.Fatalf("split barriers: status %s %+v", rep.Status, rep.Errors)
	}
	for _, c := range []struct{ body, msg string }{
		{"mov.u32 %r9, 16; bar.sync %r9;", "barrier id 16 is outside 0..15"},
		{"mov.u32 %r9, 48; bar.sync 1, %r9;", "barrier thread count 48"},
	} {
		_, rep := runPTX(t, smallConfig(), barKernel(c.body+"\n\tret;"), Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
		if rep.Status != StatusFault || rep.Errors[0].Kind != "barrier_error" || !strings.Contains(rep.Errors[0].Message, c.msg) {
			t.Errorf("%s: status %s %+v", c.body, rep.Status, rep.Errors)
		}
	}
}
