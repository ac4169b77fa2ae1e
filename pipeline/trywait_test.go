package pipeline

import (
	"testing"
)

// issuesAt returns the cycles at which warp slot w issued the instruction
// at pc.
func (l issueLog) issuesAt(pc uint32, w int) []uint64 {
	var cs []uint64
	for _, i := range l {
		if i.PC == pc && i.Warp == w {
			cs = append(cs, i.Cycle)
		}
	}
	return cs
}

// mbarrier.try_wait suspends the thread until the phase completes (PTX
// ISA 9.7.13.15.16: "Suspended thread resumes execution when the
// specified phase completes OR before the phase completes following a
// system-dependent time limit"). Warp 0 waits on a barrier for 32
// arrivals that warp 1 makes after a delay loop: its try_wait issues once
// (each thread's loop runs one iteration, with waitComplete true), the
// warp waits in state mbarrier, and its next instruction issues in the
// cycle after warp 1's arrive completes the phase.
func TestMbarrierTryWaitSuspends(t *testing.T) {
	src := kernelWith(".shared .align 8 .b64 bar;", `
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra SYNC;
	mbarrier.init.shared.b64 [bar], 32;
SYNC:
	bar.sync 0;
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra PRODUCER;
	mov.u32 %r5, 0;
SPIN:
	add.u32 %r5, %r5, 1;
	mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;
	@!%p3 bra SPIN;
	st.global.u32 [%rd3], %r5;
	ret;
PRODUCER:
	mov.u32 %r6, 0;
DELAY:
	add.u32 %r6, %r6, 1;
	setp.lt.u32 %p2, %r6, 100;
	@%p2 bra DELAY;
	mbarrier.arrive.shared.b64 %rd4, [bar];
	st.global.u32 [%rd3], %r6;
	ret;`)
	sm, rep, log := runLogged(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	for tid := 0; tid < 64; tid++ {
		want := uint32(1)
		if tid >= 32 {
			want = 100
		}
		if out[tid] != want {
			t.Errorf("thread %d: %d, want %d (iterations)", tid, out[tid], want)
		}
	}
	tries := log.issuesAt(pcOfText(t, sm, "mbarrier.try_wait"), 0)
	arrive := log.issuesAt(pcOfText(t, sm, "mbarrier.arrive"), 1)
	next := log.issuesAt(pcOfText(t, sm, "@!%p3 bra"), 0)
	if len(tries) != 1 || len(arrive) != 1 || len(next) != 1 {
		t.Fatalf("try_wait at %v, arrive at %v, next at %v: want one of each", tries, arrive, next)
	}
	if next[0] != arrive[0]+1 || tries[0] >= arrive[0] {
		t.Errorf("try_wait at %d, arrive at %d, next instruction at %d: want the try_wait first and the next instruction at %d", tries[0], arrive[0], next[0], arrive[0]+1)
	}
	if got, want := rep.Stalls["mbarrier"], arrive[0]-tries[0]; got < want-8 || got > want {
		t.Errorf("mbarrier stall %d warp-cycles, want about %d; %v", got, want, rep.Stalls)
	}
}

// A try_wait whose phase does not complete returns false after the time
// limit: the suspendTimeHint (ns; at 1000 MHz one cycle each) from an
// immediate or a register, and without a hint the model's limit
// (tryWaitLimitNs). A hint of 0 does not suspend (as test_wait).
func TestMbarrierTryWaitTimeout(t *testing.T) {
	for _, c := range []struct {
		name, hint string
		cycles     uint64 // the suspension
	}{
		{"imm", ", 300", 300},
		{"reg", ", %r7", 250},
		{"zero", ", 0", 0},
		{"none", "", tryWaitLimitNs},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := kernelWith(".shared .align 8 .b64 bar;", `
	mbarrier.init.shared.b64 [bar], 64;
	mov.u32 %r7, 250;
	mov.u32 %r5, 0;
	mov.u32 %r8, 0;
SPIN:
	add.u32 %r5, %r5, 1;
	mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0`+c.hint+`;
	selp.u32 %r6, 1, 0, %p3;
	or.b32 %r8, %r8, %r6;
	setp.lt.u32 %p2, %r5, 3;
	@%p2 bra SPIN;
	st.global.u32 [%rd3], %r8;
	ret;`)
			cfg := smallConfig()
			cfg.Run.MaxCycles = 4 * tryWaitLimitNs
			sm, rep, log := runLogged(t, cfg, src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
			wantCompleted(t, rep)
			for tid, v := range rep.Buffers["out"] {
				if v != 0 {
					t.Fatalf("thread %d: waitComplete was true", tid)
				}
			}
			tries := log.issuesAt(pcOfText(t, sm, "mbarrier.try_wait"), 0)
			after := log.issuesAt(pcOfText(t, sm, "selp.u32 %r6"), 0)
			if len(tries) != 3 || len(after) != 3 {
				t.Fatalf("try_wait at %v, selp at %v: want 3 of each", tries, after)
			}
			for i := range tries {
				if d := after[i] - tries[i]; d < c.cycles || d > c.cycles+8 {
					t.Errorf("try_wait %d: next instruction %d cycles later, want %d (+ the predicate latency)", i, d, c.cycles)
				}
			}
			if got := rep.Stalls["mbarrier"]; (got == 0) != (c.cycles == 0) || got > 3*c.cycles {
				t.Errorf("mbarrier stall %d warp-cycles, want about %d", got, 3*c.cycles)
			}
		})
	}
}

// The asynchronous waits are long waits: two_level swaps a warp suspended
// in try_wait or waiting for its copy groups out of its active set, as it
// does a warp at a barrier or asleep.
func TestAsyncWaitsAreLong(t *testing.T) {
	for _, s := range []WarpState{StateMbarrier, StateCpAsync, StateBarrier, StateSleeping} {
		if !longWait(s) {
			t.Errorf("%s is not a long wait", s)
		}
	}
}

// A try_wait whose waiting lanes test different barrier objects does not
// suspend the warp (the model suspends a warp on one object): it returns
// at once with those lanes' waitComplete false, as test_wait does.
func TestMbarrierTryWaitTwoObjects(t *testing.T) {
	src := kernelWith(".shared .align 8 .b64 bar[2];", `
	mbarrier.init.shared.b64 [bar], 64;
	mbarrier.init.shared.b64 [bar+8], 64;
	shr.u32 %r3, %r1, 4;
	mul.lo.u32 %r3, %r3, 8;
	mov.u32 %r4, bar;
	add.u32 %r4, %r4, %r3;
	mbarrier.try_wait.parity.shared.b64 %p1, [%r4], 0, 500;
	selp.u32 %r5, 1, 2, %p1;
	st.global.u32 [%rd3], %r5;
	ret;`)
	sm, rep, log := runLogged(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	wantCompleted(t, rep)
	for tid, v := range rep.Buffers["out"] {
		if v != 2 {
			t.Errorf("thread %d: waitComplete %d, want false (2)", tid, v)
		}
	}
	try := log.issuesAt(pcOfText(t, sm, "mbarrier.try_wait"), 0)
	next := log.issuesAt(pcOfText(t, sm, "selp.u32 %r5"), 0)
	if len(try) != 1 || len(next) != 1 || next[0]-try[0] > 20 || rep.Stalls["mbarrier"] != 0 {
		t.Errorf("try_wait at %v, next at %v, mbarrier stall %d: want no suspension", try, next, rep.Stalls["mbarrier"])
	}
}
