package cosim

import (
	"context"
	"errors"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/smsim/smsim/clocktimer"
)

// shortCycles is n, or with -short a fiftieth of it (at least 5,000):
// make test's second pass (-race -short) checks the Go side's
// concurrency, which a few thousand cycles exercise as well as a million;
// the first pass runs them all.
func shortCycles(n uint64) uint64 {
	if testing.Short() {
		return max(n/50, 5000)
	}
	return n
}

// unitMillion runs one million random cycles (20,000 with -short) on
// every standard parameter set of module, with zero mismatches.
func unitMillion(t *testing.T, module string, seed uint64) {
	cycles := shortCycles(1_000_000)
	info, ok := LookupUnit(module)
	if !ok {
		t.Fatalf("%s is not in Units", module)
	}
	sets, err := info.Sets()
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range sets {
		t.Run(ParamString(u.Params()), func(t *testing.T) {
			res, err := Run(context.Background(), u, random(u, seed+uint64(i)), Options{Cycles: cycles})
			if err != nil {
				t.Fatal(err)
			}
			if res.Cycles != cycles {
				t.Fatalf("compared %d cycles, want %d", res.Cycles, cycles)
			}
			t.Logf("%d cycles in %v: %.0f cycles/s", res.Cycles, res.Elapsed.Round(time.Millisecond), res.Rate())
		})
	}
}

// caught runs u on the stimulus against a mutant harness (opt.Harness) and
// returns the first mismatch; it fails the test when there is none.
func caught(t *testing.T, u Unit, stim func() Stimulus, opt Options) *Mismatch {
	t.Helper()
	_, err := Run(context.Background(), u, stim, opt)
	var m *Mismatch
	if !errors.As(err, &m) {
		t.Fatalf("mutant not caught: %v", err)
	}
	return m
}

// records returns a Stimulus factory replaying the input values ins
// (each as EncodeInput takes it).
func records[I any](t *testing.T, u Unit, ins []I) func() Stimulus {
	t.Helper()
	l := u.Layout()
	data := make([]byte, len(ins)*l.InBytes)
	for i := range ins {
		if err := u.EncodeInput(&ins[i], data[i*l.InBytes:]); err != nil {
			t.Fatal(err)
		}
	}
	return func() Stimulus {
		r, _ := NewRecords(data, l.InBytes)
		return r
	}
}

// TestClockTimerMillion: one million random cycles per standard set.
func TestClockTimerMillion(t *testing.T) { unitMillion(t, "clock_timer", 200) }

func clockTimerSet(t *testing.T, i int) (clocktimer.Params, Unit) {
	t.Helper()
	p := ClockTimerSets()[i]
	u, err := ClockTimer(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, u
}

// TestClockTimerMutations breaks clock_timer in a copy of the RTL and
// checks that the run stops at the first cycle where the mutant differs,
// on the right signal.
func TestClockTimerMutations(t *testing.T) {
	t.Run("sleep-clamp", func(t *testing.T) {
		// The 1 ms clamp one ns short: a 2 ms sleep at 7 MHz (set 1)
		// requested at cycle 5 loads 7000 cycles in Go, 6999 in the
		// mutant, seen in sleep_cnt_q at cycle 6.
		_, u := clockTimerSet(t, 1)
		ins := make([]clocktimer.Inputs, 20)
		ins[5].SleepValid[0] = true
		ins[5].SleepWarp[0] = 2
		ins[5].SleepNs[0] = 2_000_000
		ho := mutantRTL(t, "ct-sleep-clamp", "smsim_pkg.sv", "MaxSleepNs = 32'd1000000;", "MaxSleepNs = 32'd999999;")
		m := caught(t, u, records(t, u, ins), Options{Harness: ho, Window: 8})
		if m.Cycle != 6 || m.Signal != "sleep_cnt_q" {
			t.Fatalf("got cycle %d %s (go %s rtl %s), want cycle 6 sleep_cnt_q\n%v", m.Cycle, m.Signal, m.Go, m.RTL, m)
		}
		cleanWaves(t, m)
	})
	t.Run("carry-compare", func(t *testing.T) {
		// The timer's carry taken only when the accumulator exceeds MHz:
		// the mutant differs from the cycle after the first one whose
		// accumulator reaches exactly MHz (set 0, 1755 MHz: 1000/1755 ns
		// steps), which the Go model finds.
		p, u := clockTimerSet(t, 0)
		g, err := clocktimer.New(p)
		if err != nil {
			t.Fatal(err)
		}
		want := uint64(0)
		for ; g.Q().GFrac+uint32(1000%p.MHz) != uint32(p.MHz); want++ {
			g.Eval(clocktimer.Inputs{})
			g.Tick()
			if want > 1_000_000 {
				t.Fatal("the accumulator never reaches MHz")
			}
		}
		want++
		ins := make([]clocktimer.Inputs, want+10)
		ho := mutantRTL(t, "ct-carry-compare", "clock_timer.sv", "if (acc >= MHzW) begin", "if (acc > MHzW) begin")
		m := caught(t, u, records(t, u, ins), Options{Harness: ho, Window: 8})
		if m.Cycle != want || (m.Signal != "gtimer_q" && m.Signal != "globaltimer_o" && m.Signal != "globaltimer_lo_o") {
			t.Fatalf("got cycle %d %s (go %s rtl %s), want cycle %d gtimer_q or globaltimer_o\n%v", m.Cycle, m.Signal, m.Go, m.RTL, want, m)
		}
		t.Logf("caught at cycle %d on %s: go %s rtl %s", m.Cycle, m.Signal, m.Go, m.RTL)
		cleanWaves(t, m)
	})
}

// mutantCaughtAt breaks file in a copy of the RTL (old becomes new; the
// copy is named name), runs ins on u against it, and checks that the run
// stops at cycle on signal (the first mismatching signal in record order).
func mutantCaughtAt[I any](t *testing.T, u Unit, name, file, old, new string, ins []I, cycle uint64, signal string) {
	t.Helper()
	ho := mutantRTL(t, name, file, old, new)
	m := caught(t, u, records(t, u, ins), Options{Harness: ho, Window: 8})
	if m.Cycle != cycle || m.Signal != signal {
		t.Fatalf("got cycle %d %s (go %s rtl %s), want cycle %d %s\n%v", m.Cycle, m.Signal, m.Go, m.RTL, cycle, signal, m)
	}
	cleanWaves(t, m)
}

// cleanWaves removes a mismatch's waveform directory after the test.
func cleanWaves(t *testing.T, m *Mismatch) {
	if m.Waves == nil {
		t.Errorf("no waveforms: %v", m.WavesErr)
		return
	}
	dir := m.Waves.Dir
	t.Cleanup(func() { os.RemoveAll(dir) })
}

// TestClockTimerSleepMagic checks clock_timer.sv's divider-free
// floor(x/1000) (x * ceil(2^47/1000) >> 47) against division for the
// products x = n*MHz it sees (n <= 1e6, MHz <= 1e5): the edges, every
// MHz at the clamp, and random ones.
func TestClockTimerSleepMagic(t *testing.T) {
	const magic = 140737488356
	f := func(n, mhz uint64) {
		hi, lo := bits.Mul64(n*mhz, magic)
		got := hi<<17 | lo>>47
		if want := n * mhz / 1000; got != want {
			t.Fatalf("n=%d MHz=%d: %d, want %d", n, mhz, got, want)
		}
	}
	for mhz := uint64(1); mhz <= clocktimer.MaxMHz; mhz++ {
		for _, n := range []uint64{0, 1, 999, 1000, 1001, clocktimer.MaxSleepNs - 1, clocktimer.MaxSleepNs} {
			f(n, mhz)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2_000_000; i++ {
		f(r.Uint64N(clocktimer.MaxSleepNs+1), 1+r.Uint64N(clocktimer.MaxMHz))
	}
}

// TestClockTimerOddSizes: 100,000 random cycles at sizes off the standard
// sets: every 64-bit parameter above 2^32 (the cycle counter wrapping at
// 2^64 on the first cycle), the widest unit, and one warp on one port.
func TestClockTimerOddSizes(t *testing.T) {
	for i, p := range []clocktimer.Params{
		{NumWarps: 64, NumPorts: 8, MHz: 100000, ClockStart: ^uint64(0), ResolutionNs: 1<<33 + 1000, TimerStartNs: 1<<63 + 12345},
		{NumWarps: 1, NumPorts: 1, MHz: 1, ResolutionNs: 1000},
	} {
		u, err := ClockTimer(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(ParamString(u.Params()), func(t *testing.T) {
			if _, err := Run(context.Background(), u, random(u, uint64(400+i)), Options{Cycles: shortCycles(100_000)}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
