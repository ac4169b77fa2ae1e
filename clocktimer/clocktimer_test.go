package clocktimer

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/smsim/smsim/internal/unittest"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

func mustNew(t *testing.T, p Params) *ClockTimer {
	t.Helper()
	u, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func base() Params {
	return Params{NumWarps: 8, NumPorts: 2, MHz: 1000, ResolutionNs: 1}
}

// idle returns n zero inputs.
func idle(n int) []Inputs { return make([]Inputs, n) }

func TestClockWrap(t *testing.T) {
	p := base()
	p.ClockStart = 1<<32 - 3
	u := mustNew(t, p)
	outs := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, idle(6)...)
	wantLo := []uint32{1<<32 - 3, 1<<32 - 2, 1<<32 - 1, 0, 1, 2}
	wantHi := []uint32{0, 0, 0, 1, 1, 1}
	for i, o := range outs {
		if o.Clock != wantLo[i] || o.ClockHi != wantHi[i] {
			t.Errorf("cycle %d: %%clock %#x %%clock_hi %d, want %#x %d", i, o.Clock, o.ClockHi, wantLo[i], wantHi[i])
		}
		if o.Clock64 != p.ClockStart+uint64(i) {
			t.Errorf("cycle %d: %%clock64 %#x", i, o.Clock64)
		}
	}
}

// TestClock64Halves checks seed 003's "The lower 32-bits of %clock64 are
// identical to %clock. The upper 32-bits of %clock64 are identical to
// %clock_hi." every cycle, across both wraps (32 and 64 bits).
func TestClock64Halves(t *testing.T) {
	for _, start := range []uint64{0, 1<<32 - 5, 7<<32 - 1, ^uint64(0) - 3} {
		p := base()
		p.ClockStart = start
		u := mustNew(t, p)
		prev := uint64(0)
		for i, o := range rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, idle(12)...) {
			if uint32(o.Clock64) != o.Clock || uint32(o.Clock64>>32) != o.ClockHi {
				t.Fatalf("start %#x cycle %d: clock64 %#x clock %#x clock_hi %#x", start, i, o.Clock64, o.Clock, o.ClockHi)
			}
			if i > 0 && o.Clock64 != prev+1 { // wraps silently at 2^64
				t.Fatalf("start %#x cycle %d: clock64 %#x after %#x", start, i, o.Clock64, prev)
			}
			prev = o.Clock64
		}
	}
}

// gtWant is the reference: floor(start + n*1000/mhz) rounded down to res.
func gtWant(start, n uint64, mhz int, res uint64) uint64 {
	ns := start + n*1000/uint64(mhz)
	return ns - ns%res
}

func TestGlobalTimerRate(t *testing.T) {
	p := base()
	p.MHz, p.ResolutionNs = 1755, 32
	u := mustNew(t, p)
	// Stepping: hand-computed points (57 cycles = 32.48 ns is the first
	// step; 1755 cycles = exactly 1000 ns, shown as 992).
	want := map[int]uint64{0: 0, 1: 0, 56: 0, 57: 32, 112: 32, 113: 64, 1755: 992, 3510: 1984}
	prev := uint64(0)
	for n := 0; n <= 3510; n++ {
		o := u.Eval(Inputs{})
		if w, ok := want[n]; ok && o.GlobalTimer != w {
			t.Errorf("cycle %d: globaltimer %d, want %d", n, o.GlobalTimer, w)
		}
		if g := gtWant(0, uint64(n), 1755, 32); o.GlobalTimer != g {
			t.Fatalf("cycle %d: globaltimer %d, want %d", n, o.GlobalTimer, g)
		}
		if o.GlobalTimer%32 != 0 || o.GlobalTimer < prev || (o.GlobalTimer != prev && o.GlobalTimer-prev != 32) {
			t.Fatalf("cycle %d: globaltimer %d after %d: not a 32 ns step", n, o.GlobalTimer, prev)
		}
		if o.GlobalTimerLo != uint32(o.GlobalTimer) || o.GlobalTimerHi != uint32(o.GlobalTimer>>32) {
			t.Fatalf("cycle %d: halves", n)
		}
		prev = o.GlobalTimer
		u.Tick()
	}
	if q := u.Q(); q.GTimer != 2000 || q.GFrac != 1000*3511%1755 {
		t.Errorf("after 3511 cycles gtimer_q %d frac %d", q.GTimer, q.GFrac)
	}
}

func TestGlobalTimerExactAdvance(t *testing.T) {
	cases := []struct {
		mhz        int
		res, start uint64
	}{
		{1755, 32, 0}, {1000, 1, 0}, {1, 1, 5}, {3, 7, 1 << 40}, {100000, 32, 123456789}, {1410, 1000, 999}, {999, 1, 0},
	}
	for _, c := range cases {
		for _, n := range []uint64{1, 2, 17, 1755, 1_000_003, 1 << 33, 1234567890123} {
			p := base()
			p.MHz, p.ResolutionNs, p.TimerStartNs = c.mhz, c.res, c.start
			u := mustNew(t, p)
			u.Advance(Inputs{}, n)
			o := u.Eval(Inputs{})
			if w := gtWant(c.start, n, c.mhz, c.res); o.GlobalTimer != w {
				t.Errorf("mhz %d res %d start %d after %d cycles: globaltimer %d, want %d", c.mhz, c.res, c.start, n, o.GlobalTimer, w)
			}
			if q := u.Q(); q.GFrac >= uint32(c.mhz) || uint64(q.GFrac) != n*1000%uint64(c.mhz) {
				t.Errorf("mhz %d n %d: frac %d", c.mhz, n, q.GFrac)
			}
		}
	}
}

func TestSleepUnit(t *testing.T) {
	p := base()
	p.MHz = 1755
	u := mustNew(t, p)
	if got := u.SleepCycles(42); got != 73 { // 42 * 1.755 = 73.71, rounded down
		t.Errorf("SleepCycles(42) = %d", got)
	}
	if got := u.SleepCycles(5_000_000); got != 1_755_000 { // capped at 1 ms
		t.Errorf("SleepCycles(5 ms) = %d", got)
	}
	in := Inputs{}
	in.SleepValid = [MaxPorts]bool{true, true, true}
	in.SleepWarp = [MaxPorts]uint16{3, 5, 6} // port 2 is beyond NumPorts: ignored
	in.SleepNs = [MaxPorts]uint32{10, 1000, 1000}
	ins := append([]Inputs{in}, idle(1760)...)
	outs := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, ins...)
	// Warp 3 sleeps 17 cycles (17.55), warp 5 1755, both from cycle 1.
	for c, o := range outs {
		w3, w5 := c >= 1 && c <= 17, c >= 1 && c <= 1755
		if o.Sleeping.Has(3) != w3 || o.Sleeping.Has(5) != w5 || o.Sleeping.Has(6) || o.Sleeping.Count() != btoi(w3)+btoi(w5) {
			t.Fatalf("cycle %d: sleeping %v", c, o.Sleeping)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestSleepEdgeCases(t *testing.T) {
	u := mustNew(t, base())
	in := Inputs{}
	in.SleepValid[0], in.SleepWarp[0], in.SleepNs[0] = true, 200, 500 // warp out of range
	in.SleepValid[1], in.SleepWarp[1], in.SleepNs[1] = true, 2, 0     // zero: no sleep
	outs := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, in, Inputs{}, Inputs{})
	for c, o := range outs {
		if o.Sleeping.Any() {
			t.Errorf("cycle %d: sleeping %v", c, o.Sleeping)
		}
	}
	if _, ok := u.NextWake(); ok {
		t.Error("NextWake with nobody asleep")
	}
	// A duration of 1 ns at 1000 MHz is one cycle.
	in = Inputs{}
	in.SleepValid[0], in.SleepWarp[0], in.SleepNs[0] = true, 7, 1
	in.SleepValid[1], in.SleepWarp[1], in.SleepNs[1] = true, 1, 4
	rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, in)
	if n, ok := u.NextWake(); !ok || n != 1 {
		t.Errorf("NextWake = %d %v", n, ok)
	}
	outs = rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, idle(5)...)
	got := []string{}
	for _, o := range outs {
		got = append(got, o.Sleeping.String())
	}
	if want := []string{"{1,7}", "{1}", "{1}", "{1}", "{}"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sleeping %v, want %v", got, want)
	}
}

func randInputs(r *rand.Rand, p Params) Inputs {
	var in Inputs
	for k := 0; k < MaxPorts; k++ {
		if r.IntN(8) == 0 {
			in.SleepValid[k] = true
			in.SleepWarp[k] = uint16(r.IntN(p.NumWarps + 2))
			in.SleepNs[k] = uint32(r.IntN(3000))
		}
	}
	return in
}

func randParams(r *rand.Rand) Params {
	return Params{
		NumWarps:     1 + r.IntN(MaxWarps),
		NumPorts:     1 + r.IntN(MaxPorts),
		MHz:          1 + r.IntN(MaxMHz),
		ClockStart:   r.Uint64(),
		ResolutionNs: 1 + r.Uint64N(100),
		TimerStartNs: r.Uint64N(1 << 62),
	}
}

func TestTwoPhaseRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		p := randParams(r)
		p.MHz = 1 + r.IntN(3000)
		u := mustNew(t, p)
		ins := make([]Inputs, 200)
		for i := range ins {
			ins[i] = randInputs(r, p)
		}
		rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, ins...)
	}
}

// TestAdvanceMatchesStepping: Advance(in, n) is n rounds of Eval(in), Tick.
func TestAdvanceMatchesStepping(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		p := randParams(r)
		p.MHz = 1 + r.IntN(3000)
		a, b := mustNew(t, p), mustNew(t, p)
		for step := 0; step < 6; step++ {
			in := Inputs{}
			if r.IntN(2) == 0 {
				in = randInputs(r, p)
			}
			n := r.Uint64N(400)
			for i := uint64(0); i < n; i++ {
				a.Eval(in)
				a.Tick()
			}
			b.Advance(in, n)
			if a.Q() != b.Q() {
				t.Fatalf("trial %d step %d n %d: stepped %+v, advanced %+v", trial, step, n, a.Q(), b.Q())
			}
			if b.D() != b.Q() {
				t.Fatalf("Advance left D != Q")
			}
		}
	}
}

func TestSleepDurationBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 20000; trial++ {
		seed := r.Uint64()
		rng := NewRNG(seed)
		n := 1 + r.IntN(32)
		ts := make([]uint32, n)
		for i := range ts {
			switch r.IntN(4) {
			case 0:
				ts[i] = uint32(r.IntN(100))
			case 1:
				ts[i] = uint32(r.IntN(2_000_000))
			default:
				ts[i] = r.Uint32()
			}
		}
		tmin := uint64(ts[0])
		for _, v := range ts {
			tmin = min(tmin, uint64(v))
		}
		res := uint64(1 + r.IntN(64))
		for _, mode := range []SleepMode{SleepExact, SleepUniform} {
			d := SleepDuration(mode, ts, res, rng)
			if d > 2*tmin || d > MaxSleepNs {
				t.Fatalf("%s ts %v: duration %d outside [0, 2*%d] or above 1 ms", mode, ts, d, tmin)
			}
			if mode == SleepExact && d != min(tmin-tmin%res, MaxSleepNs) {
				t.Fatalf("exact ts %v res %d: %d", ts, res, d)
			}
		}
	}
}

func TestSleepDurationCases(t *testing.T) {
	rng := NewRNG(1)
	if d := SleepDuration(SleepExact, []uint32{5_000_000}, 32, rng); d != 1_000_000 {
		t.Errorf("exact 5 ms: %d, want the 1 ms cap", d)
	}
	for i := 0; i < 1000; i++ {
		if d := SleepDuration(SleepUniform, []uint32{5_000_000}, 32, rng); d > 1_000_000 {
			t.Fatalf("uniform 5 ms: %d above 1 ms", d)
		}
	}
	if d := SleepDuration(SleepExact, []uint32{42}, 32, rng); d != 32 {
		t.Errorf("exact 42 ns at 32 ns resolution: %d", d)
	}
	if d := SleepDuration(SleepExact, []uint32{42}, 0, rng); d != 42 {
		t.Errorf("exact 42 ns, resolution 0: %d", d)
	}
	if d := SleepDuration(SleepUniform, nil, 32, rng); d != 0 {
		t.Errorf("no lanes: %d", d)
	}
	if d := SleepDuration(SleepUniform, []uint32{100}, 1, nil); d != 100 {
		t.Errorf("uniform, nil rng: %d (want exact)", d)
	}
	if d := SleepDuration(SleepUniform, []uint32{0, 7}, 1, rng); d != 0 {
		t.Errorf("t = 0 lane: %d", d)
	}
	// Lanes with different t: one duration for the warp, within every
	// lane's [0, 2t], i.e. at most 2 * the smallest t.
	ts := []uint32{1000, 40, 900000, 64}
	if d := SleepDuration(SleepExact, ts, 1, rng); d != 40 {
		t.Errorf("exact, lanes %v: %d, want the smallest t", ts, d)
	}
	seen := map[uint64]bool{}
	for i := 0; i < 5000; i++ {
		d := SleepDuration(SleepUniform, ts, 1, rng)
		for _, v := range ts {
			if d > 2*uint64(v) {
				t.Fatalf("uniform, lanes %v: %d exceeds lane t=%d's bound", ts, d, v)
			}
		}
		seen[d] = true
	}
	if len(seen) != 81 { // every value of [0, 80] drawn
		t.Errorf("uniform over [0, 80] gave %d distinct values", len(seen))
	}
}

func TestSleepDurationDeterministic(t *testing.T) {
	draw := func(seed uint64) []uint64 {
		rng := NewRNG(seed)
		var out []uint64
		for i := uint32(0); i < 50; i++ {
			out = append(out, SleepDuration(SleepUniform, []uint32{1000 + i}, 32, rng))
		}
		return out
	}
	unittest.Repeatable(t, 7, draw)
	var sum uint64
	rng := NewRNG(9)
	const n = 20000
	for i := 0; i < n; i++ {
		sum += SleepDuration(SleepUniform, []uint32{1000}, 1, rng)
	}
	if mean := float64(sum) / n; mean < 980 || mean > 1020 {
		t.Errorf("uniform [0, 2000] mean %.1f, want about 1000", mean)
	}
}

func TestNewErrors(t *testing.T) {
	bad := []Params{
		{NumWarps: 0, NumPorts: 1, MHz: 1, ResolutionNs: 1},
		{NumWarps: MaxWarps + 1, NumPorts: 1, MHz: 1, ResolutionNs: 1},
		{NumWarps: 1, NumPorts: 0, MHz: 1, ResolutionNs: 1},
		{NumWarps: 1, NumPorts: MaxPorts + 1, MHz: 1, ResolutionNs: 1},
		{NumWarps: 1, NumPorts: 1, MHz: 0, ResolutionNs: 1},
		{NumWarps: 1, NumPorts: 1, MHz: MaxMHz + 1, ResolutionNs: 1},
		{NumWarps: 1, NumPorts: 1, MHz: 1, ResolutionNs: 0},
	}
	rtltest.RejectsAll(t, New, bad)
}

func TestSignalTable(t *testing.T) {
	rtltest.CheckTypes(t, Inputs{}, Outputs{}, State{})
	// The h100 preset's clock_timer (unitcfg.ClockTimer of config.Default).
	u := mustNew(t, Params{NumWarps: 64, NumPorts: 4, MHz: 1755, ResolutionNs: 32})
	tab := u.Signals()
	want := map[string]unittest.Sig{
		"sleep_valid_i": {W: 4, Dir: rtl.DirIn}, "sleep_warp_i": {W: 24, Dir: rtl.DirIn}, "sleep_ns_i": {W: 128, Dir: rtl.DirIn},
		"clock_o": {W: 32, Dir: rtl.DirOut}, "clock_hi_o": {W: 32, Dir: rtl.DirOut}, "clock64_o": {W: 64, Dir: rtl.DirOut},
		"globaltimer_o": {W: 64, Dir: rtl.DirOut}, "globaltimer_lo_o": {W: 32, Dir: rtl.DirOut}, "globaltimer_hi_o": {W: 32, Dir: rtl.DirOut},
		"sleeping_o": {W: 64, Dir: rtl.DirOut},
		"cycle_q":    {W: 64, Dir: rtl.DirReg}, "gtimer_q": {W: 64, Dir: rtl.DirReg}, "gtimer_frac_q": {W: 32, Dir: rtl.DirReg}, "sleep_cnt_q": {W: 2048, Dir: rtl.DirReg},
	}
	unittest.CheckTable(t, tab, "sm_top.u_clock_timer", want, Inputs{}, Outputs{}, State{})
}

// TestOutNoCombPath: Out equals Eval's outputs whatever the inputs, and
// changes neither Q nor D.
func TestOutNoCombPath(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	p := randParams(r)
	u := mustNew(t, p)
	rtltest.CheckOut[Inputs, Outputs, State](t, u, 300, func() Inputs { return randInputs(r, p) })
}
