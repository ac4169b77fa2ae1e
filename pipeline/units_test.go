package pipeline

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/perfmon"
)

// Acceptance tests of issue 6: the clock_timer and perf_mon units wired
// into the SM, driven by real assembled PTX.

// u64s reads a buffer as little-endian 64-bit words.
func u64s(words []uint32) []uint64 {
	out := make([]uint64, len(words)/2)
	for i := range out {
		out[i] = uint64(words[2*i]) | uint64(words[2*i+1])<<32
	}
	return out
}

// runBoth runs src twice, once skipping idle cycles (no hook, clock_timer
// lagging while nothing sleeps) and once stepping every cycle under an
// OnCycle hook that checks the units against the SM each cycle; both
// reports must be identical. It returns the stepped SM, its report and
// issue log.
func runBoth(t *testing.T, cfg config.Config, src string, l Launch) (*SM, *Report, issueLog) {
	t.Helper()
	fast, rf := runPTX(t, cfg, src, l)
	sm := newPTX(t, cfg, src, l)
	var log issueLog
	log.hook(sm)
	bad := 0
	sm.OnCycle(func(ci *CycleInfo) {
		checkUnitsCycle(t, sm, ci, &bad)
	})
	rs, err := sm.Run()
	if err != nil {
		t.Fatal(err)
	}
	jf, _ := json.Marshal(rf)
	js, _ := json.Marshal(rs)
	if string(jf) != string(js) {
		t.Errorf("skipping and stepping differ:\n%s\n%s", jf, js)
	}
	if fast.Cycle() != sm.Cycle() {
		t.Errorf("cycles %d vs %d", fast.Cycle(), sm.Cycle())
	}
	checkInvariants(t, sm, rs)
	return sm, rs, log
}

// checkUnitsCycle: clock_timer's registers follow the SM cycle, the halves
// of %clock64 are %clock and %clock_hi, and a warp is in state sleeping
// exactly when its sleeping_o bit is set.
func checkUnitsCycle(t *testing.T, sm *SM, ci *CycleInfo, bad *int) {
	ct := sm.ClockTimer()
	o := ct.Out()
	if *bad > 5 {
		return
	}
	if o.Clock64 != sm.cfg.Clock.Start+ci.Cycle || o.Clock != uint32(o.Clock64) || o.ClockHi != uint32(o.Clock64>>32) {
		*bad++
		t.Errorf("cycle %d: clock_timer out %+v, want clock64 %#x", ci.Cycle, o, sm.cfg.Clock.Start+ci.Cycle)
	}
	if ct.Q() != ct.D() {
		*bad++
		t.Errorf("cycle %d: clock_timer D != Q before the cycle's Eval", ci.Cycle)
	}
	if pm := sm.PerfMon(); pm.Q() != pm.D() {
		*bad++
		t.Errorf("cycle %d: perf_mon D != Q", ci.Cycle)
	}
	for slot, st := range ci.States {
		if (st == StateSleeping) != o.Sleeping.Has(slot) {
			*bad++
			t.Errorf("cycle %d: warp %d state %s, sleeping_o %v", ci.Cycle, slot, st, o.Sleeping)
		}
	}
}

// clockKernel reads %clock, %clock_hi and %clock64 in a loop of 12
// iterations with nanosleeps of growing length between them (idle
// stretches the SM skips), storing 16 bytes per iteration.
var clockKernel = readLoop(12, 16, `
	mov.u32 %r1, %clock; // A: clock
	mov.u32 %r2, %clock_hi; // B: clock_hi
	mov.u64 %rd2, %clock64; // C: clock64`, `
	st.global.u32 [%rd4], %r1;
	st.global.u32 [%rd4+4], %r2;
	st.global.u64 [%rd4+8], %rd2;
	mul.lo.u32 %r10, %r9, 9;`)

// unitKernel is kernel k(out) with %r<16>, %rd<16>, %p<4> and %rd1 = out,
// then body.
func unitKernel(body string) string {
	return `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];` + body + `
}
`
}

// readLoop is a unitKernel that runs iters iterations (%r9 = 0, 1, ...)
// of reads, then %rd4 = out + stride x %r9, then stores (which also sets
// %r10), then nanosleep %r10.
func readLoop(iters, stride int, reads, stores string) string {
	return unitKernel(`
	mov.u32 %r9, 0;
LOOP:` + reads + `
	mul.wide.u32 %rd3, %r9, ` + fmt.Sprint(stride) + `;
	add.s64 %rd4, %rd1, %rd3;` + stores + `
	nanosleep.u32 %r10;
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p1, %r9, ` + fmt.Sprint(iters) + `;
	@%p1 bra LOOP;
	ret;`)
}

// TestClockWrapInSM: %clock is the low half of the cycle counter and wraps
// silently with clock.start just below 2^32 while %clock_hi steps by one;
// %clock64 wraps at 2^64; the halves of %clock64 are %clock and %clock_hi
// (seed 003). Every value is checked against clock.start + the cycle its
// mov issued in.
func TestClockWrapInSM(t *testing.T) {
	for _, start := range []uint64{1<<32 - 60, 7<<32 - 100, ^uint64(0) - 80, 0} {
		t.Run(fmt.Sprintf("start=%#x", start), func(t *testing.T) {
			cfg := smallConfig()
			cfg.Clock.Start = start
			sm, rep, log := runBoth(t, cfg, clockKernel, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(12 * 4)})
			wantCompleted(t, rep)
			ca := log.at(pcOfText(t, sm, "A: clock"))
			ch := log.at(pcOfText(t, sm, "B: clock_hi"))
			c6 := log.at(pcOfText(t, sm, "C: clock64"))
			if len(ca) != 12 || len(ch) != 12 || len(c6) != 12 {
				t.Fatalf("issues %d %d %d", len(ca), len(ch), len(c6))
			}
			out := rep.Buffers["out"]
			wraps, steps := 0, 0
			for i := 0; i < 12; i++ {
				lo, hi := out[4*i], out[4*i+1]
				c64 := uint64(out[4*i+2]) | uint64(out[4*i+3])<<32
				if want := uint32(start + ca[i].Cycle); lo != want {
					t.Errorf("iteration %d: %%clock %#x, want %#x", i, lo, want)
				}
				if want := uint32((start + ch[i].Cycle) >> 32); hi != want {
					t.Errorf("iteration %d: %%clock_hi %#x, want %#x", i, hi, want)
				}
				if want := start + c6[i].Cycle; c64 != want {
					t.Errorf("iteration %d: %%clock64 %#x, want %#x", i, c64, want)
				}
				// The halves of %clock64 are what %clock and %clock_hi
				// read in the same cycle: the reads here are one and two
				// cycles apart.
				if d := c6[i].Cycle - ca[i].Cycle; uint32(c64) != lo+uint32(d) {
					t.Errorf("iteration %d: low half %#x vs %%clock %#x %d cycles earlier", i, uint32(c64), lo, d)
				}
				if hiNow := uint32((c64 - (c6[i].Cycle - ch[i].Cycle)) >> 32); hiNow != hi {
					t.Errorf("iteration %d: high half of %%clock64 %#x vs %%clock_hi %#x", i, hiNow, hi)
				}
				if i > 0 {
					if lo < out[4*(i-1)] {
						wraps++
					}
					if hi != out[4*(i-1)+1] {
						steps++
						if hi != out[4*(i-1)+1]+1 {
							t.Errorf("iteration %d: %%clock_hi %#x after %#x", i, hi, out[4*(i-1)+1])
						}
					}
				}
			}
			// Every start but 0 crosses a 2^32 boundary during the run.
			want := 1
			if start == 0 {
				want = 0
			}
			if wraps != want || steps != want {
				t.Errorf("%%clock wrapped %d times, %%clock_hi stepped %d times; want %d", wraps, steps, want)
			}
			if end := sm.ClockTimer().Out().Clock64; end != start+rep.Cycles {
				t.Errorf("clock_timer at the end %#x, want clock.start + %d cycles", end, rep.Cycles)
			}
		})
	}
}

// timerKernel reads %globaltimer, its halves and %clock64 in a loop with
// nanosleeps of growing length between the reads (32 bytes per
// iteration).
var timerKernel = readLoop(40, 24, `
	mov.u64 %rd5, %globaltimer; // G: gt
	mov.u32 %r1, %globaltimer_lo; // L: gt_lo
	mov.u32 %r2, %globaltimer_hi; // H: gt_hi
	mov.u64 %rd2, %clock64;`, `
	st.global.u64 [%rd4], %rd5;
	st.global.u32 [%rd4+8], %r1;
	st.global.u32 [%rd4+12], %r2;
	st.global.u64 [%rd4+16], %rd2;
	mul.lo.u32 %r10, %r9, %r9;
	mul.lo.u32 %r10, %r10, 3;`)

// TestGlobalTimerInSM: %globaltimer is timer.start_ns plus the elapsed
// cycles converted with clock.mhz, in steps of timer.resolution_ns; its
// _lo and _hi halves agree; it advances at the configured rate.
func TestGlobalTimerInSM(t *testing.T) {
	cases := []struct {
		mhz        int
		res, start uint64
	}{
		{1755, 32, 0},
		{1000, 1, 5<<32 - 20000}, // %globaltimer_lo wraps during the run
		{700, 1000, 123},
		{1410, 7, 1 << 40},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("mhz=%d,res=%d,start=%d", c.mhz, c.res, c.start), func(t *testing.T) {
			cfg := smallConfig()
			cfg.Clock.MHz, cfg.Timer.ResolutionNs, cfg.Timer.StartNs = c.mhz, c.res, c.start
			cfg.Clock.Start = 1<<32 - 5 // the timer counts cycles since reset, not %clock64
			cfg.Run.MaxCycles = 0
			sm, rep, log := runBoth(t, cfg, timerKernel, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(40 * 6)})
			wantCompleted(t, rep)
			ref := func(cycle uint64) uint64 {
				ns := c.start + cycle*1000/uint64(c.mhz)
				return ns - ns%c.res
			}
			g := log.at(pcOfText(t, sm, "G: gt"))
			glo := log.at(pcOfText(t, sm, "L: gt_lo"))
			ghi := log.at(pcOfText(t, sm, "H: gt_hi"))
			out := rep.Buffers["out"]
			var prev uint64
			lowWrapped := false
			for i := 0; i < 40; i++ {
				w := out[6*i:]
				gt := uint64(w[0]) | uint64(w[1])<<32
				if want := ref(g[i].Cycle); gt != want {
					t.Errorf("iteration %d (cycle %d): %%globaltimer %d, want %d", i, g[i].Cycle, gt, want)
				}
				if want := uint32(ref(glo[i].Cycle)); w[2] != want {
					t.Errorf("iteration %d: %%globaltimer_lo %d, want %d", i, w[2], want)
				}
				if want := uint32(ref(ghi[i].Cycle) >> 32); w[3] != want {
					t.Errorf("iteration %d: %%globaltimer_hi %d, want %d", i, w[3], want)
				}
				if gt%c.res != 0 || gt < prev {
					t.Errorf("iteration %d: %%globaltimer %d after %d: not a multiple of %d or backwards", i, gt, prev, c.res)
				}
				if i > 0 && w[2] < out[6*(i-1)+2] {
					lowWrapped = true
				}
				prev = gt
			}
			if c.start == 5<<32-20000 && !lowWrapped {
				t.Error("globaltimer_lo did not wrap")
			}
			// The rate: between the first and the last read the timer
			// advanced the elapsed cycles x 1000 / clock.mhz, to within one
			// step of the resolution.
			first, last := out[0:], out[6*39:]
			dgt := (uint64(last[0]) | uint64(last[1])<<32) - (uint64(first[0]) | uint64(first[1])<<32)
			dclk := (uint64(last[4]) | uint64(last[5])<<32) - (uint64(first[4]) | uint64(first[5])<<32)
			exact := float64(dclk) * 1000 / float64(c.mhz)
			if d := float64(dgt) - exact; d > float64(c.res) || -d > float64(c.res) {
				t.Errorf("timer advanced %d ns over %d cycles; %d MHz gives %.1f ns (resolution %d)", dgt, dclk, c.mhz, exact, c.res)
			}
			if exact < 10000 {
				t.Errorf("the run spans only %.0f ns", exact)
			}
		})
	}
}

// sleepKernel measures one nanosleep: the %clock64 distance around it.
// operand is the nanosleep's t: "%r1" (from parameter t) or an immediate.
func sleepKernel(operand string) string {
	return `.visible .entry k(.param .u64 out, .param .u32 t)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [t];
	mov.u64 %rd2, %clock64;
	nanosleep.u32 ` + operand + `;
	mov.u64 %rd3, %clock64;
	sub.s64 %rd4, %rd3, %rd2;
	st.global.u64 [%rd1], %rd4;
	ret;
}
`
}

// measureSleep runs one warp's nanosleep of t ns (from a register, or an
// immediate when imm) and returns the %clock64 distance around it.
func measureSleep(t *testing.T, cfg config.Config, ns uint32, imm bool) uint64 {
	t.Helper()
	op := "%r1"
	if imm {
		op = fmt.Sprint(ns)
	}
	_, rep := runPTX(t, cfg, sleepKernel(op), Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(2), Args: map[string]uint64{"t": uint64(ns)}})
	if rep.Status != StatusCompleted {
		t.Fatalf("t=%d: status %s %+v", ns, rep.Status, rep.Errors)
	}
	if rep.Stalls["sleeping"] == 0 && ns >= 1000 {
		t.Errorf("t=%d: no sleeping warp-cycles", ns)
	}
	return u64s(rep.Buffers["out"])[0]
}

// TestNanosleepBounds: the sleep measured between %clock64 reads (less the
// reads' own distance, measured with t = 0) and converted with clock.mhz
// lies in [0, 2t] and is at most 1 ms, for t from a register and from an
// immediate. Exact mode sleeps t rounded down to timer.resolution_ns
// (5 ms: exactly the 1 ms cap); uniform mode draws from [0, 2t] with
// run.seed, the same draw for the same seed.
func TestNanosleepBounds(t *testing.T) {
	cfg := config.Default() // 1755 MHz, 32 ns resolution
	// Flat memory timing: the reads' distance below is fetch and issue
	// alone (mem.model hier puts a cold constant-cache miss on ld.param).
	cfg.Mem.Model, cfg.Pipe.Throttle = config.MemFlat, false
	mhz := uint64(cfg.Clock.MHz)
	// The reads' own distance, with t from the parameter (the nanosleep
	// waits for ld.param) and as an immediate.
	bases := map[bool]uint64{false: measureSleep(t, cfg, 0, false), true: measureSleep(t, cfg, 0, true)}
	if bases[true] != 2 || bases[false] > 16 {
		t.Fatalf("%%clock64 reads around a 0 ns nanosleep are %v cycles apart", bases)
	}
	ucfg := cfg
	ucfg.Sleep.Mode = config.SleepUniform
	ts := []uint32{1, 31, 32, 42, 100, 1000, 12345, 400_000, 999_999, 1_000_000, 1_500_000, 5_000_000, 0xffffffff}
	check := func(mode string, tns uint32, imm bool) uint64 {
		t.Helper()
		c := cfg
		if mode == "uniform" {
			c = ucfg
		}
		dist, base := measureSleep(t, c, tns, imm), bases[imm]
		if dist < base {
			t.Fatalf("%s t=%d: distance %d below the 0 ns one %d", mode, tns, dist, base)
		}
		cyc := dist - base
		ns := cyc * 1000 / mhz // the cycles slept, in whole ns (rounded down)
		if ns > 2*uint64(tns) || ns > 1_000_000 {
			t.Errorf("%s t=%d: slept %d cycles = %d ns, outside [0, 2t] or above 1 ms", mode, tns, cyc, ns)
		}
		return cyc
	}
	for _, tns := range ts {
		for _, imm := range []bool{false, true} {
			cyc := check("exact", tns, imm)
			d := min(uint64(tns)-uint64(tns)%32, 1_000_000)
			if want := d * mhz / 1000; cyc != want {
				t.Errorf("exact t=%d (imm %v): slept %d cycles, want %d (%d ns)", tns, imm, cyc, want, d)
			}
			if tns >= 1_000_000 && cyc != 1_755_000 {
				t.Errorf("exact t=%d: %d cycles, want the 1 ms cap", tns, cyc)
			}
		}
	}
	for _, tns := range ts {
		seen := map[uint64]bool{}
		var capped int
		for seed := uint64(1); seed <= 24; seed++ {
			ucfg.Run.Seed = seed
			cyc := check("uniform", tns, seed%2 == 0)
			seen[cyc] = true
			if cyc == 1_755_000 {
				capped++
			}
			if seed == 3 {
				if again := measureSleep(t, ucfg, tns, false) - bases[false]; again != cyc {
					t.Errorf("uniform t=%d seed 3: %d then %d cycles", tns, cyc, again)
				}
			}
		}
		if tns >= 1000 && 2*uint64(tns) < 1_000_000 && len(seen) < 12 { // below the cap: spread over [0, 2t]
			t.Errorf("uniform t=%d: only %d distinct sleeps over 24 seeds", tns, len(seen))
		}
		if tns == 5_000_000 && capped < 16 {
			t.Errorf("uniform t=5 ms: %d of 24 draws at the 1 ms cap; [0, 10 ms] capped at 1 ms should mostly be", capped)
		}
	}
}

// TestNanosleepLanesWakeTogether: lanes of a warp with different t sleep
// one duration, from the smallest t among the lanes that execute the
// nanosleep (inactive and predicated-off lanes do not count), so all wake
// together; a later group of a divergent warp waits for the warp's sleep.
func TestNanosleepLanesWakeTogether(t *testing.T) {
	src := unitKernel(`
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	mad.lo.u32 %r3, %r2, 37, 1000; // t = 1000 + 37 lane
	setp.eq.u32 %p1, %r2, 5;
	selp.u32 %r3, 100, %r3, %p1; // lane 5: 100
	setp.ne.u32 %p2, %r2, 5;
	setp.lt.u32 %p3, %r1, 32;
	or.pred %p2, %p2, %p3; // warp 0: every lane; warps 1, 2: not lane 5
	mov.u64 %rd2, %clock64;
	@%p2 nanosleep.u32 %r3; // lanes sleep
	mov.u64 %rd3, %clock64;
	sub.s64 %rd4, %rd3, %rd2;
	mul.wide.u32 %rd5, %r1, 16;
	add.s64 %rd6, %rd1, %rd5;
	st.global.u64 [%rd6], %rd4;
	st.global.u64 [%rd6+8], %rd3;
	setp.lt.u32 %p1, %r2, 16;
	@%p1 bra LOW;
	nanosleep.u32 64; // high group
	bra.uni JOIN;
LOW:
	nanosleep.u32 3000; // low group
JOIN:
	ret;`)
	for _, mode := range []config.SleepMode{config.SleepExact, config.SleepUniform} {
		t.Run(string(mode), func(t *testing.T) {
			cfg := smallConfig() // 1000 MHz: 1 cycle = 1 ns; 32 ns resolution
			cfg.Sleep.Mode = mode
			// 3 warps, the last one with 8 threads (lanes 8.. inactive).
			l := Launch{Block: [3]uint32{72, 1, 1}, Buffers: outBuf(72 * 4)}
			sm, rep, log := runBoth(t, cfg, src, l)
			wantCompleted(t, rep)
			v := u64s(rep.Buffers["out"])
			if n := len(log.at(pcOfText(t, sm, "lanes sleep"))); n != 3 {
				t.Fatalf("the nanosleep issued %d times", n)
			}
			// Smallest executing t: warp 0: lane 5's 100; warps 1 and 2:
			// lane 0's 1000 (lane 5 is predicated off; warp 2 has lanes
			// 0..7 only, lane 7's 1259 is not the smallest anyway).
			minT := []uint64{100, 1000, 1000}
			for w := 0; w < 3; w++ {
				n := min(32, 72-32*w)
				dist, after := v[2*(32*w)], v[2*(32*w)+1]
				for l := 1; l < n; l++ {
					if v[2*(32*w+l)] != dist || v[2*(32*w+l)+1] != after {
						t.Errorf("warp %d lane %d: distance %d wake %d, lane 0: %d %d", w, l, v[2*(32*w+l)], v[2*(32*w+l)+1], dist, after)
					}
				}
				// The reads around the nanosleep issue back to back unless
				// another warp of the scheduler issues in between (3 warps,
				// 2 schedulers): the sleep is the distance less 2, give or
				// take that.
				slept := dist - 2
				t.Logf("warp %d: %%clock64 distance %d, smallest executing t %d", w, dist, minT[w])
				if mode == config.SleepExact {
					want := minT[w] - minT[w]%32
					if slept < want || slept > want+2 {
						t.Errorf("exact, warp %d: slept about %d cycles, want %d (smallest t %d)", w, slept, want, minT[w])
					}
				} else if dist < 2 || slept > 2*minT[w]+2 {
					t.Errorf("uniform, warp %d: slept about %d cycles, above 2 x smallest t %d", w, slept, minT[w])
				}
			}
			// Divergence: the low group's 3000 ns (2976 in exact mode)
			// sleep holds the whole warp; the high group's nanosleep
			// issues only after it ends (or the other way round).
			lo, hi := log.at(pcOfText(t, sm, "low group")), log.at(pcOfText(t, sm, "high group"))
			if len(lo) != 3 || len(hi) != 2 { // warp 2 has no lane >= 16
				t.Fatalf("low group issued %d times, high group %d", len(lo), len(hi))
			}
			for _, h := range hi {
				for _, l := range lo {
					if l.Warp != h.Warp {
						continue
					}
					first, second, k := l, h, uint64(2976)
					if h.Cycle < l.Cycle {
						first, second, k = h, l, 64
					}
					if mode == config.SleepExact && second.Cycle < first.Cycle+k+1 {
						t.Errorf("warp %d: second group's nanosleep at cycle %d, inside the first's %d-cycle sleep from %d", h.Warp, second.Cycle, k, first.Cycle)
					}
				}
			}
		})
	}
}

// pmKernel triggers events under guards, divergence and inactive lanes,
// reads %pm0..2 after a barrier, then triggers event 7 from 4 lanes.
var pmKernel = unitKernel(`
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	pmevent 1; // every lane
	setp.lt.u32 %p1, %r1, 32;
	@%p1 pmevent 2; // warp 0 only: no lane of warp 1 executes it
	@!%p1 pmevent.mask 0xc; // warp 1 only
	and.b32 %r4, %r2, 1;
	setp.eq.u32 %p2, %r4, 1;
	@%p2 pmevent 4; // odd lanes
	pmevent.mask 0x8030;
	@%p2 bra ODD;
	pmevent 6; // even group
	bra.uni JOIN;
ODD:
	pmevent 6; // odd group
JOIN:
	bar.sync 0;
	mov.u32 %r5, %pm0;
	mov.u32 %r6, %pm1;
	mov.u64 %rd5, %pm2_64;
	mul.wide.u32 %rd2, %r1, 16;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	st.global.u32 [%rd3+4], %r6;
	st.global.u64 [%rd3+8], %rd5;
	setp.ge.u32 %p3, %r2, 4;
	@%p3 exit;
	pmevent 7; // lanes 0..3
	ret;`)

// TestPMEventCounts: pmevent and pmevent.mask count once per warp-level
// execution by at least one lane: lanes that are inactive (a partial warp,
// exited lanes) or predicated off do not count, each group of a divergent
// branch is one execution. %pmN read what pm.counter.N selects; the report
// carries pm_events and pm_counters exactly once.
func TestPMEventCounts(t *testing.T) {
	cfg := smallConfig()
	cfg.PM.Counter = [8]string{"events:0x30", "event:6", "events:0xffff", "instructions", "cycles", "off", "stall:any", "stall:barrier"}
	// Warp 0: 32 lanes; warp 1: lanes 0..7 (lanes 8..31 inactive).
	_, rep, _ := runBoth(t, cfg, pmKernel, Launch{Block: [3]uint32{40, 1, 1}, Buffers: outBuf(40 * 4)})
	wantStatus(t, rep, StatusCompleted)
	var want [16]uint64
	want[1] = 2     // pmevent 1, both warps
	want[2] = 1 + 1 // @p pmevent 2 in warp 0; pmevent.mask 0xc in warp 1
	want[3] = 1     // pmevent.mask 0xc in warp 1
	want[4] = 2 + 2 // @odd pmevent 4 (both warps have odd lanes); mask 0x8030
	want[5] = 2     // mask 0x8030
	want[6] = 2 + 2 // both groups of the branch, both warps
	want[7] = 2     // 4 lanes left per warp
	want[15] = 2    // mask 0x8030
	if rep.Events != want {
		t.Errorf("pm_events %v, want %v", rep.Events, want)
	}
	// Read after the barrier: every event but 7 counted.
	before := want
	before[7] = 0
	var sum uint64
	for _, n := range before {
		sum += n
	}
	v := rep.Buffers["out"]
	for tid := 0; tid < 40; tid++ {
		w := v[4*tid:]
		if w[0] != uint32(before[4]+before[5]) || w[1] != uint32(before[6]) || uint64(w[2])|uint64(w[3])<<32 != sum {
			t.Errorf("thread %d: %%pm0 %d %%pm1 %d %%pm2_64 %d, want %d %d %d", tid, w[0], w[1], uint64(w[2])|uint64(w[3])<<32, before[4]+before[5], before[6], sum)
			break
		}
	}
	var stalled uint64
	for k, n := range rep.Stalls {
		if k != "selected" && k != "idle" {
			stalled += n
		}
	}
	wantC := [8]uint64{want[4] + want[5], want[6], sum + want[7], rep.WarpInstructions, rep.Cycles, 0, stalled, rep.Stalls["barrier"]}
	if rep.Counters != wantC {
		t.Errorf("pm_counters %v, want %v", rep.Counters, wantC)
	}
	checkReportPMKeys(t, rep)
}

// checkReportPMKeys: the JSON report has pm_events (16 counts) and
// pm_counters (8 values), each key exactly once, equal to perf_mon's.
func checkReportPMKeys(t *testing.T, rep *Report) {
	t.Helper()
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"pm_events"`, `"pm_counters"`} {
		if n := strings.Count(string(raw), k); n != 1 {
			t.Errorf("key %s appears %d times in the report", k, n)
		}
	}
	var m struct {
		Events   []uint64 `json:"pm_events"`
		Counters []uint64 `json:"pm_counters"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Events) != perfmon.NumEvents || len(m.Counters) != perfmon.NumCounters {
		t.Fatalf("pm_events %v pm_counters %v", m.Events, m.Counters)
	}
	for i, n := range m.Events {
		if n != rep.Events[i] {
			t.Errorf("pm_events[%d] = %d in JSON, %d in the report", i, n, rep.Events[i])
		}
	}
	for i, n := range m.Counters {
		if n != rep.Counters[i] {
			t.Errorf("pm_counters[%d] = %d in JSON, %d in the report", i, n, rep.Counters[i])
		}
	}
}

// TestPMCountersMatchReport: over whole example runs (sleeps, barriers,
// divergence) and both nanosleep modes, every kind of counter agrees with
// the report's own accounting, skipping idle cycles or not.
func TestPMCountersMatchReport(t *testing.T) {
	for _, name := range []string{"nanosleep", "sleep_lanes", "pmevent", "smem_reduce", "exit_partial"} {
		for _, mode := range []config.SleepMode{config.SleepExact, config.SleepUniform} {
			e, ok := examples.ByName(name)
			if !ok {
				t.Fatalf("no example %s", name)
			}
			cfg := config.Default()
			cfg.Sleep.Mode = mode
			cfg.PM.Counter = [8]string{"cycles", "instructions", "stall:any", "stall:sleep", "stall:fetch", "stall:scoreboard", "stall:not_selected", "events:0xffff"}
			im := assemble(t, name+".ptx", e.PTX)
			l := launchOf(e)
			if name == "sleep_lanes" {
				// t / 40: 125 us instead of 5 ms, so the stepped run
				// stays short.
				init := l.Buffers[0].Init
				for i := 0; i+4 <= len(init); i += 4 {
					binary.LittleEndian.PutUint32(init[i:], binary.LittleEndian.Uint32(init[i:])/40)
				}
			}
			a, _ := New(cfg, im, l)
			b, _ := New(cfg, im, l)
			b.OnCycle(func(*CycleInfo) {})
			ra, _ := a.Run()
			rb, _ := b.Run()
			ja, _ := json.Marshal(ra)
			jb, _ := json.Marshal(rb)
			if string(ja) != string(jb) {
				t.Errorf("%s/%s: skipping and stepping differ", name, mode)
			}
			if ra.Status != StatusCompleted {
				t.Fatalf("%s: %s", name, ra.Status)
			}
			s := ra.Stalls
			var stalled, events uint64
			for k, n := range s {
				if k != "selected" && k != "idle" {
					stalled += n
				}
			}
			for _, n := range ra.Events {
				events += n
			}
			want := [8]uint64{ra.Cycles, ra.WarpInstructions, stalled, s["sleeping"],
				s["branch_resolving"] + s["no_instruction"],
				s["wait"] + s["short_scoreboard"] + s["long_scoreboard"],
				s["not_selected"], events}
			if ra.Counters != want {
				t.Errorf("%s/%s: pm_counters %v, want %v", name, mode, ra.Counters, want)
			}
			if (name == "nanosleep" || name == "sleep_lanes") && s["sleeping"] == 0 {
				t.Errorf("%s/%s: no sleeping warp-cycles", name, mode)
			}
		}
	}
}

// TestExamplePMEvent: the clang-16 pmevent example's event counts, per
// warp-level execution (2 full warps).
func TestExamplePMEvent(t *testing.T) {
	e, _ := examples.ByName("pmevent")
	for _, preset := range []string{"h100", "small"} {
		cfg, _ := config.Preset(preset)
		_, rep := runExample(t, e, cfg)
		if rep.Status != StatusCompleted {
			t.Fatalf("%s: %s", preset, rep.Status)
		}
		// Per warp: pmevent 3; pmevent.mask 0x11 (0, 4); @q pmevent 7 and
		// @!q pmevent.mask 0xff00 (each has lanes); the branch: pmevent
		// 15 (lanes < 10) and pmevent.mask 0x8001 (0, 15); pmevent 0.
		var want [16]uint64
		want[0] = 2 * 3
		want[3], want[4], want[7] = 2, 2, 2
		for k := 8; k < 15; k++ {
			want[k] = 2
		}
		want[15] = 2 * 3
		if rep.Events != want {
			t.Errorf("%s: pm_events %v, want %v", preset, rep.Events, want)
		}
		// Default counters: cycles, instructions, event:0..5.
		if rep.Counters[0] != rep.Cycles || rep.Counters[1] != rep.WarpInstructions || rep.Counters[2] != want[0] || rep.Counters[5] != want[3] || rep.Counters[6] != want[4] {
			t.Errorf("%s: pm_counters %v", preset, rep.Counters)
		}
		checkReportPMKeys(t, rep)
	}
}

// TestExampleSleepLanes: the clang-16 sleep_lanes example on the H100
// preset (1755 MHz, 32 ns): warp 0 (5 ms) sleeps exactly the 1 ms cap,
// warp 1 its smallest lane's 300 ns rounded down to 288 ns, warp 2 (0)
// not at all; %globaltimer advances by as much, to a step; uniform mode
// stays within [0, 2 x smallest t] and 1 ms.
func TestExampleSleepLanes(t *testing.T) {
	e, _ := examples.ByName("sleep_lanes")
	for _, mode := range []config.SleepMode{config.SleepExact, config.SleepUniform} {
		for seed := uint64(1); seed <= 3; seed++ {
			cfg := config.Default()
			cfg.Sleep.Mode, cfg.Run.Seed = mode, seed
			// Flat memory timing, so the three warps' %clock64 reads
			// around the sleep are the same distance apart but for it.
			cfg.Mem.Model, cfg.Pipe.Throttle = config.MemFlat, false
			sm, rep := runExample(t, e, cfg)
			if rep.Status != StatusCompleted {
				t.Fatalf("%s", rep.Status)
			}
			if err := e.Verify(envOf(sm), rep.Buffers); err != nil {
				t.Fatal(err)
			}
			dclk := u64s(rep.Buffers[e.Buffers[1].Param])
			dgt := u64s(rep.Buffers[e.Buffers[2].Param])
			base := dclk[64] // warp 2: t = 0
			for w := 0; w < 3; w++ {
				slept := dclk[32*w] - base
				ns := slept * 1000 / 1755
				var tmin uint64 = uint64(examples.SleepLanesT(32 * w))
				for l := 0; l < 32; l++ {
					tmin = min(tmin, uint64(examples.SleepLanesT(32*w+l)))
				}
				if ns > 2*tmin || ns > 1_000_000 {
					t.Errorf("%s seed %d warp %d: slept %d cycles (%d ns), smallest t %d", mode, seed, w, slept, ns, tmin)
				}
				if mode == config.SleepExact {
					want := min(tmin-tmin%32, 1_000_000) * 1755 / 1000
					if slept != want {
						t.Errorf("exact warp %d: slept %d cycles, want %d", w, slept, want)
					}
				}
				// %globaltimer: the same stretch in ns, to within a step
				// (the reads are one cycle after the %clock64 ones).
				exact := float64(dclk[32*w]) * 1000 / 1755
				if d := float64(dgt[32*w]) - exact; d > 32 || d < -32 {
					t.Errorf("%s warp %d: %%globaltimer advanced %d ns over %d cycles (%.1f ns)", mode, w, dgt[32*w], dclk[32*w], exact)
				}
			}
			if mode == config.SleepExact {
				break
			}
		}
	}
}

// TestUnitsConfigLimits: clock_timer has at most 64 warp slots; a larger
// sm.max_warps is a configuration error of the launch.
func TestUnitsConfigLimits(t *testing.T) {
	cfg := smallConfig()
	cfg.SM.MaxWarps = 128
	cfg.SM.MaxThreadsPerCTA = 1024
	im := assemble(t, "test.ptx", []byte(ptxHeader+kernel("\tret;")))
	_, err := New(cfg, im, Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	var le *LaunchError
	if !IsLaunchError(err) || !errors.As(err, &le) || le.Field != "config" || !strings.Contains(err.Error(), "clocktimer") {
		t.Errorf("sm.max_warps 128: %v", err)
	}
	if clocktimer.MaxWarps != 64 {
		t.Errorf("clocktimer.MaxWarps %d", clocktimer.MaxWarps)
	}
}

// TestNoPerCycleAllocationsUnits: a steady loop of nanosleeps (uniform
// mode), pmevents and clock, timer and counter reads allocates nothing per
// cycle, stepping or skipping.
func TestNoPerCycleAllocationsUnits(t *testing.T) {
	src := unitKernel(`
	mov.u32 %r2, %laneid;
	mov.u32 %r9, 0;
LOOP:
	mov.u64 %rd2, %clock64;
	mov.u64 %rd3, %globaltimer;
	mov.u32 %r3, %pm0;
	mov.u64 %rd4, %pm1_64;
	add.u32 %r4, %r2, %r9;
	and.b32 %r4, %r4, 63;
	nanosleep.u32 %r4;
	pmevent 3;
	pmevent.mask 0x101;
	add.u32 %r9, %r9, 1;
	setp.lt.u32 %p1, %r9, 100000;
	@%p1 bra LOOP;
	st.global.u64 [%rd1], %rd2;
	ret;`)
	cfg := config.Default()
	cfg.Sleep.Mode = config.SleepUniform
	l := Launch{Block: [3]uint32{256, 1, 1}, Buffers: outBuf(2)}
	for _, hooked := range []bool{false, true} {
		sm := newPTX(t, cfg, src, l)
		if hooked {
			sm.OnCycle(func(*CycleInfo) {})
		}
		for i := 0; i < 3000; i++ {
			sm.RunFor(1)
		}
		if a := testing.AllocsPerRun(3000, func() { sm.RunFor(1) }); a != 0 {
			t.Errorf("hook %v: %.2f allocations per cycle", hooked, a)
		}
		if sm.Done() {
			t.Fatal("the run ended during the measurement")
		}
		if sm.Report().Stalls["sleeping"] == 0 {
			t.Error("nothing slept")
		}
	}
}
