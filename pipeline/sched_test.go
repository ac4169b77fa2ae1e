package pipeline

import (
	"fmt"
	"testing"

	"github.com/smsim/smsim/config"
)

// traceConfig is a tiny SM for hand-checked schedules: one scheduler,
// four warp slots, ALU latency 2, fetch and branch latency 1.
func traceConfig(p config.SchedPolicy) config.Config {
	c := smallConfig()
	c.Sched = config.Sched{Policy: p, Count: 1, TwoLevelActive: 2}
	c.SM.MaxWarps, c.SM.MaxCTAs, c.SM.MaxThreadsPerCTA = 4, 4, 128
	c.Lat.ALU, c.Lat.Fetch, c.Lat.Branch = 2, 1, 1
	return c
}

// traceKernel: per warp, I0 and I1 are independent, I2 needs both (I1's
// result two cycles after it issues), I3 needs I2, I4 returns.
const traceKernel = `.visible .entry k()
{
	.reg .b32 %r<8>;
	mov.u32 %r1, 1;        // I0
	mov.u32 %r2, 2;        // I1
	add.u32 %r3, %r1, %r2; // I2
	add.u32 %r4, %r3, 1;   // I3
	ret;                   // I4
}
`

// schedTrace runs traceKernel with 4 warps and returns the issuing warp
// slot of each cycle (-1: none) and the report.
func schedTrace(t *testing.T, p config.SchedPolicy) ([]int, *Report) {
	t.Helper()
	sm := newPTX(t, traceConfig(p), traceKernel, Launch{Block: [3]uint32{128, 1, 1}})
	var trace []int
	sm.OnCycle(func(ci *CycleInfo) {
		trace = append(trace, ci.Issued[0])
	})
	rep, _ := sm.Run()
	wantStatus(t, rep, StatusCompleted)
	return trace, rep
}

func TestScheduleTraceLRR(t *testing.T) {
	// Cycle 0: the warps fetch (lat.fetch 1). From cycle 1 every warp is
	// ready each cycle (the round-robin spacing hides the ALU latency):
	// LRR rotates 0 1 2 3, one instruction each, five rounds; the last
	// RET is at cycle 20 and the drained warps leave at cycle 21.
	want := []int{-1,
		0, 1, 2, 3, // I0
		0, 1, 2, 3, // I1
		0, 1, 2, 3, // I2
		0, 1, 2, 3, // I3
		0, 1, 2, 3, // I4 (ret)
	}
	trace, rep := schedTrace(t, config.PolicyLRR)
	if fmt.Sprint(trace) != fmt.Sprint(want) {
		t.Fatalf("LRR issue trace\n got %v\nwant %v", trace, want)
	}
	if rep.Cycles != 21 || rep.WarpInstructions != 20 {
		t.Errorf("cycles %d, instructions %d", rep.Cycles, rep.WarpInstructions)
	}
	// 21 cycles x 4 slots = 84 slot-cycles: 20 selected; 4 no_instruction
	// (cycle 0); 8 wait (the cycle after each warp's I1 and I2, whose
	// results take 2 cycles); 6 idle (slots freed at cycles 18, 19, 20
	// after the RETs at 17..20); the remaining 46 not_selected.
	want4 := map[string]uint64{"selected": 20, "no_instruction": 4, "wait": 8, "idle": 6, "not_selected": 46}
	for k, v := range rep.Stalls {
		if v != want4[k] {
			t.Errorf("stalls[%s] = %d, want %d", k, v, want4[k])
		}
	}
}

func TestScheduleTraceGTO(t *testing.T) {
	// GTO keeps the greedy warp while it is ready, else the oldest ready
	// warp (launch order = slot order here):
	//  1 w0 I0            2 w0 I1
	//  3 w0 I2 waits for I1 (ready at 4): oldest ready w1 I0
	//  4 w1 I1            5 w1 I2 waits (6): w0 I2
	//  6 w0 I3 waits (7): w1 I2       7 w1 I3 waits (8): w0 I3
	//  8 w0 ret           9 w0 gone: w1 I3     10 w1 ret
	// 11 w2 I0  12 w2 I1  13 w2 I2 waits: w3 I0  14 w3 I1
	// 15 w3 I2 waits: w2 I2  16 w2 I3 waits: w3 I2  17 w3 I3 waits: w2 I3
	// 18 w2 ret  19 w3 I3  20 w3 ret
	want := []int{-1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 3, 2, 2, 3, 3}
	trace, rep := schedTrace(t, config.PolicyGTO)
	if fmt.Sprint(trace) != fmt.Sprint(want) {
		t.Fatalf("GTO issue trace\n got %v\nwant %v", trace, want)
	}
	if rep.Cycles != 21 || rep.WarpInstructions != 20 {
		t.Errorf("cycles %d, instructions %d", rep.Cycles, rep.WarpInstructions)
	}
	if rep.Stalls["wait"] == 0 {
		t.Errorf("no fixed-latency waits: %v", rep.Stalls)
	}
}

func TestScheduleTraceTwoLevel(t *testing.T) {
	// Active set of 2: warps 0 and 1 round-robin to completion, then 2
	// and 3 are promoted.
	trace, rep := schedTrace(t, config.PolicyTwoLevel)
	seen := map[int]bool{}
	for c, w := range trace {
		if w >= 2 && !(seen[0] && seen[1]) {
			t.Fatalf("cycle %d: warp %d issued before warps 0 and 1 started: %v", c, w, trace)
		}
		seen[w] = true
	}
	if rep.WarpInstructions != 20 {
		t.Errorf("instructions %d", rep.WarpInstructions)
	}
}
