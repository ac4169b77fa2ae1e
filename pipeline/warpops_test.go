package pipeline

import "testing"

func TestWarpLevelOps(t *testing.T) {
	// Record per thread (10 words): ballot(lane odd), all(lane<40),
	// any(lane==3), uni(true), shfl.down 1, shfl.up 2 (+pred), shfl.bfly 5,
	// shfl.idx 7 in 8-lane segments, activemask in the odd branch,
	// bar.red popc/and/or over the CTA.
	src := kernel(`
	mul.lo.u32 %r20, %r1, 10;
	mul.wide.u32 %rd4, %r20, 4;
	add.s64 %rd5, %rd1, %rd4;
	and.b32 %r3, %r2, 1;
	setp.eq.u32 %p1, %r3, 1;
	vote.sync.ballot.b32 %r4, %p1, 0xffffffff;
	st.global.u32 [%rd5], %r4;
	setp.lt.u32 %p2, %r1, 40;
	vote.sync.all.pred %p3, %p2, 0xffffffff;
	selp.u32 %r5, 1, 0, %p3;
	setp.eq.u32 %p4, %r2, 3;
	vote.sync.any.pred %p5, %p4, 0xffffffff;
	selp.u32 %r6, 2, 0, %p5;
	or.b32 %r5, %r5, %r6;
	vote.sync.uni.pred %p6, %p2, 0xffffffff;
	selp.u32 %r6, 4, 0, %p6;
	or.b32 %r5, %r5, %r6;
	st.global.u32 [%rd5+4], %r5;
	mul.lo.u32 %r7, %r1, 3;
	shfl.sync.down.b32 %r8, %r7, 1, 0x1f, 0xffffffff;
	st.global.u32 [%rd5+8], %r8;
	shfl.sync.up.b32 %r8|%p3, %r7, 2, 0, 0xffffffff;
	selp.u32 %r9, 1000, 0, %p3;
	add.u32 %r8, %r8, %r9;
	st.global.u32 [%rd5+12], %r8;
	shfl.sync.bfly.b32 %r8, %r7, 5, 0x1f, 0xffffffff;
	st.global.u32 [%rd5+16], %r8;
	shfl.sync.idx.b32 %r8, %r7, 7, 0x1807, 0xffffffff;
	st.global.u32 [%rd5+20], %r8;
	@!%p1 bra SKIP;
	activemask.b32 %r10;
	st.global.u32 [%rd5+24], %r10;
SKIP:
	bar.red.popc.u32 %r11, 0, %p1;
	st.global.u32 [%rd5+28], %r11;
	bar.red.and.pred %p7, 1, %p2;
	selp.u32 %r12, 1, 0, %p7;
	bar.red.or.pred %p7, 2, %p4;
	selp.u32 %r13, 2, 0, %p7;
	or.b32 %r12, %r12, %r13;
	st.global.u32 [%rd5+32], %r12;
	membar.gl;
	ret;`)
	const n = 64
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{n, 1, 1}, Buffers: outBuf(10 * n)})
	if rep.Status != StatusCompleted || len(rep.Errors) != 0 {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
	out := rep.Buffers["out"]
	for tid := 0; tid < n; tid++ {
		lane := tid % 32
		warp := tid / 32
		w := out[10*tid:]
		val := func(l int) uint32 { return uint32(3 * (warp*32 + l)) }
		check := func(k int, want uint32, what string) {
			if w[k] != want {
				t.Errorf("thread %d %s = %#x, want %#x", tid, what, w[k], want)
			}
		}
		check(0, 0xaaaaaaaa, "ballot")
		all := uint32(0)
		if warp == 0 {
			all = 1
		}
		check(1, all|2|4*all, "all/any/uni") // warp 1: tid<40 neither all nor uniform
		down := val(lane)
		if lane+1 <= 31 {
			down = val(lane + 1)
		}
		check(2, down, "shfl.down")
		up, p := val(lane), uint32(0)
		if lane >= 2 {
			up, p = val(lane-2), 1000
		}
		check(3, up+p, "shfl.up")
		check(4, val(lane^5), "shfl.bfly")
		// c = 0x1807: segmask 0x18 (segments of 8 lanes), clamp 7.
		check(5, val(lane&0x18|7), "shfl.idx")
		if lane&1 == 1 {
			check(6, 0xaaaaaaaa, "activemask")
		}
		check(7, n/2, "bar.red.popc")
		check(8, 0|2, "bar.red.and/or") // and over tid<40: false; or over lane==3: true
	}
	if rep.Stalls["barrier"] == 0 {
		t.Errorf("stalls %v", rep.Stalls)
	}
}

// shfl.sync's lane operand is b[4:0] (PTX ISA, shfl.sync): idx 40 reads
// lane 8, bfly 37 is bfly 5, down 33 is down 1.
func TestShflLaneOperandFiveBits(t *testing.T) {
	src := kernel(`
	mul.lo.u32 %r20, %r1, 3;
	mul.wide.u32 %rd4, %r20, 4;
	add.s64 %rd5, %rd1, %rd4;
	mul.lo.u32 %r7, %r1, 3;
	shfl.sync.idx.b32 %r8|%p1, %r7, 40, 0x1f, 0xffffffff;
	selp.u32 %r9, 1000, 0, %p1;
	add.u32 %r8, %r8, %r9;
	st.global.u32 [%rd5], %r8;
	shfl.sync.bfly.b32 %r8, %r7, 37, 0x1f, 0xffffffff;
	st.global.u32 [%rd5+4], %r8;
	shfl.sync.down.b32 %r8, %r7, 33, 0x1f, 0xffffffff;
	st.global.u32 [%rd5+8], %r8;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(3 * 32)})
	if rep.Status != StatusCompleted || len(rep.Errors) != 0 {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
	out := rep.Buffers["out"]
	for l := 0; l < 32; l++ {
		down := 3 * l
		if l < 31 {
			down = 3 * (l + 1)
		}
		for k, want := range []uint32{3*8 + 1000, uint32(3 * (l ^ 5)), uint32(down)} {
			if out[3*l+k] != want {
				t.Errorf("lane %d, shuffle %d: %d, want %d", l, k, out[3*l+k], want)
			}
		}
	}
}

func TestNamedBarrierProducerConsumer(t *testing.T) {
	// Warp 0 produces and arrives at barrier 1 (64 threads) without
	// waiting; warp 1 waits there, then consumes. Warps 2-3 never touch
	// barrier 1.
	src := kernelWith(".shared .align 4 .b8 s[128];", `
	setp.ge.u32 %p1, %r1, 64;
	@%p1 bra REST;
	setp.ge.u32 %p2, %r1, 32;
	@%p2 bra CONSUME;
	mul.lo.u32 %r3, %r2, 4;
	mul.lo.u32 %r4, %r1, 7;
	st.shared.u32 [%r3], %r4;
	bar.arrive 1, 64;
	bra.uni REST;
CONSUME:
	bar.sync 1, 64;
	mul.lo.u32 %r3, %r2, 4;
	ld.shared.u32 %r5, [%r3];
	st.global.u32 [%rd3], %r5;
REST:
	ret;`)
	sm, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{128, 1, 1}, Buffers: outBuf(128)})
	wantStatus(t, rep, StatusCompleted)
	for i := 32; i < 64; i++ {
		if v := rep.Buffers["out"][i]; v != uint32(7*(i-32)) {
			t.Errorf("out[%d] = %d", i, v)
		}
	}
	checkInvariants(t, sm, rep)
}

func TestSleepAndMembarStates(t *testing.T) {
	cfg := smallConfig()
	src := kernel(`
	nanosleep.u32 2000;
	ld.global.u32 %r3, [%rd3];
	add.u32 %r4, %r3, %r1;
	st.global.u32 [%rd3], %r4;
	membar.gl;
	ret;`)
	sm, rep, log := runLogged(t, cfg, src, threadsLaunch(32))
	wantCompleted(t, rep)
	// sleep.mode exact: 2000 ns rounded down to the 32 ns timer step is
	// 1984 ns = 1984 cycles at 1000 MHz, asleep in the cycles after the
	// nanosleep issued; the load issues in the next one.
	sl := log.at(pcOfText(t, sm, "nanosleep"))[0]
	ld := log.at(pcOfText(t, sm, "ld.global"))[0]
	if ld.Cycle-sl.Cycle != 1984+1 {
		t.Errorf("slept %d cycles", ld.Cycle-sl.Cycle)
	}
	if rep.Stalls["sleeping"] != 1984 || rep.Stalls["membar"] == 0 || rep.Stalls["long_scoreboard"] == 0 {
		t.Errorf("stalls %v", rep.Stalls)
	}
}

func TestSetmaxnregChecks(t *testing.T) {
	body := kernel(`
	setmaxnreg.dec.sync.aligned.u32 40;
	bar.sync 0;
	setmaxnreg.inc.sync.aligned.u32 32; // below 40
	ret;`)
	// No register budget: setmaxnreg has no effect (one warning); counts
	// are not checked against a count the launch never set.
	_, rep := runPTX(t, smallConfig(), body, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusCompleted || len(rep.Errors) != 1 || rep.Errors[0].Kind != "setmaxnreg_noeffect" || !rep.Errors[0].Warning {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
	// With a budget of 64: the .inc below the current 40 is undefined
	// behaviour: a fault under regpool.strict, a reported error otherwise.
	sm, rep := runPTX(t, smallConfig(), body, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32), MaxNReg: 64})
	if rep.Status != StatusFault || rep.Errors[0].Kind != "setmaxnreg" || rep.Errors[0].PC != pcOfText(t, sm, "below 40") {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
	cfg := smallConfig()
	cfg.RegPool.Strict = false
	_, rep = runPTX(t, cfg, body, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32), MaxNReg: 64})
	if rep.Status != StatusCompleted || len(rep.Errors) != 1 || rep.Errors[0].Kind != "setmaxnreg" {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
}
