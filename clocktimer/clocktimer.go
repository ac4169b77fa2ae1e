package clocktimer

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/rtl"
)

// Scope is the Verilog instance path of the SM's one clock_timer.
const Scope = "sm_top.u_clock_timer"

// MaxWarps is the size of the per-warp register arrays: Params.NumWarps
// may not exceed it.
const MaxWarps = 64

// MaxPorts is the number of nanosleep request ports the arrays hold: one
// per warp scheduler (sched.count is at most 8), since every scheduler can
// issue a nanosleep in the same cycle.
const MaxPorts = 8

// MaxMHz is the highest clock frequency accepted (config clock.mhz range).
const MaxMHz = 100000

// MaxSleepNs is the longest sleep: 1 ms (seed 000, nanosleep: "The maximum
// sleep duration is 1 millisecond").
const MaxSleepNs = 1_000_000

// Params are the module parameters of clock_timer.
type Params struct {
	// NumWarps is the number of warp slots (sm.max_warps), 1..MaxWarps.
	NumWarps int
	// NumPorts is the number of nanosleep request ports (sched.count),
	// 1..MaxPorts.
	NumPorts int
	// MHz is the SM clock (clock.mhz), 1..MaxMHz.
	MHz int
	// ClockStart is cycle_q at reset (clock.start).
	ClockStart uint64
	// ResolutionNs is the step of %globaltimer (timer.resolution_ns), >= 1.
	ResolutionNs uint64
	// TimerStartNs is gtimer_q at reset (timer.start_ns).
	TimerStartNs uint64
}

// ParamsFrom takes the parameters from a configuration.
func ParamsFrom(c config.Config) Params {
	return Params{
		NumWarps:     c.SM.MaxWarps,
		NumPorts:     c.Sched.Count,
		MHz:          c.Clock.MHz,
		ClockStart:   c.Clock.Start,
		ResolutionNs: c.Timer.ResolutionNs,
		TimerStartNs: c.Timer.StartNs,
	}
}

// Inputs are the ports the SM drives each cycle. Port p carries the
// nanosleep issued by scheduler p this cycle, if any.
type Inputs struct {
	// SleepValid[p]: a nanosleep executed (at least one lane) on port p.
	SleepValid [MaxPorts]bool `sv:"sleep_valid_i" width:"NumPorts"`
	// SleepWarp[p]: the warp slot that executed it (0..NumWarps-1; others
	// are ignored).
	SleepWarp [MaxPorts]uint16 `sv:"sleep_warp_i" width:"NumPorts*idx(NumWarps)" elem:"idx(NumWarps)"`
	// SleepNs[p]: the warp's sleep duration in ns, as chosen by
	// SleepDuration; values above MaxSleepNs are clamped to it.
	SleepNs [MaxPorts]uint32 `sv:"sleep_ns_i" width:"32*NumPorts"`
}

// Outputs are the unit's ports. All are functions of the registers only
// (no input reaches an output in the same cycle).
type Outputs struct {
	// Clock is %clock: the low 32 bits of cycle_q.
	Clock uint32 `sv:"clock_o"`
	// ClockHi is %clock_hi: the high 32 bits of cycle_q.
	ClockHi uint32 `sv:"clock_hi_o"`
	// Clock64 is %clock64: cycle_q.
	Clock64 uint64 `sv:"clock64_o"`
	// GlobalTimer is %globaltimer: gtimer_q rounded down to a multiple of
	// ResolutionNs.
	GlobalTimer uint64 `sv:"globaltimer_o"`
	// GlobalTimerLo and GlobalTimerHi are %globaltimer_lo and
	// %globaltimer_hi, the halves of GlobalTimer.
	GlobalTimerLo uint32 `sv:"globaltimer_lo_o"`
	GlobalTimerHi uint32 `sv:"globaltimer_hi_o"`
	// Sleeping has bit w set while warp w is in nanosleep.
	Sleeping rtl.Bits `sv:"sleeping_o" width:"NumWarps"`
}

// State holds the unit's registers.
type State struct {
	// Cycle is the SM cycle counter, clock.start at reset.
	Cycle uint64 `sv:"cycle_q"`
	// GTimer is the exact global time in ns: floor(start_ns +
	// cycles*1000/MHz), cycles counted from reset.
	GTimer uint64 `sv:"gtimer_q"`
	// GFrac is the remainder accumulator of GTimer, in units of 1/MHz ns
	// (always < MHz): cycles*1000 = (GTimer-start_ns)*MHz + GFrac.
	GFrac uint32 `sv:"gtimer_frac_q"`
	// SleepCnt[w] is the number of cycles warp w still sleeps (0: awake).
	SleepCnt [MaxWarps]uint32 `sv:"sleep_cnt_q" width:"32*NumWarps"`
}

// ClockTimer is the clock_timer unit: a two-phase unit (rtl.Unit).
type ClockTimer struct {
	p      Params
	nsQuot uint64 // 1000 / MHz: whole ns per cycle
	nsRem  uint32 // 1000 % MHz: fractional ns per cycle, in 1/MHz ns
	q, d   State
	// Derived from the registers, not registers themselves (an SM under
	// observation steps the unit every cycle, so these spare it two
	// passes over the warps and a division a cycle): the warps whose
	// count is non-zero in Q and in D (sleeping_o of each), and Q's
	// outputs once Out has computed them.
	qSleep, dSleep rtl.Bits
	out            Outputs
	outValid       bool
}

var (
	_ rtl.Unit[Inputs, Outputs, State] = (*ClockTimer)(nil)
	_ rtl.Resetter                     = (*ClockTimer)(nil)
)

// New checks p and returns a unit in its reset state.
func New(p Params) (*ClockTimer, error) {
	switch {
	case p.NumWarps < 1 || p.NumWarps > MaxWarps:
		return nil, fmt.Errorf("clocktimer: NumWarps %d outside 1..%d", p.NumWarps, MaxWarps)
	case p.NumPorts < 1 || p.NumPorts > MaxPorts:
		return nil, fmt.Errorf("clocktimer: NumPorts %d outside 1..%d", p.NumPorts, MaxPorts)
	case p.MHz < 1 || p.MHz > MaxMHz:
		return nil, fmt.Errorf("clocktimer: MHz %d outside 1..%d", p.MHz, MaxMHz)
	case p.ResolutionNs < 1:
		return nil, fmt.Errorf("clocktimer: ResolutionNs must be at least 1")
	}
	u := &ClockTimer{
		p:      p,
		nsQuot: 1000 / uint64(p.MHz),
		nsRem:  uint32(1000 % p.MHz),
	}
	u.Reset()
	return u, nil
}

// Params returns the unit's parameters.
func (u *ClockTimer) Params() Params { return u.p }

// Reset puts the registers in their reset state (rst_ni low): the cycle
// counter at clock.start, the timer at timer.start_ns, every warp awake.
func (u *ClockTimer) Reset() {
	u.q = State{Cycle: u.p.ClockStart, GTimer: u.p.TimerStartNs}
	u.d = u.q
	u.qSleep, u.dSleep, u.outValid = rtl.Bits{}, rtl.Bits{}, false
}

// Q returns the registers.
func (u *ClockTimer) Q() State { return u.q }

// QRef returns a pointer to the registers (Q) for observers that must not
// copy them every cycle; it is valid until the next Tick and must not be
// written.
func (u *ClockTimer) QRef() *State { return &u.q }

// D returns the next-state values computed by the last Eval.
func (u *ClockTimer) D() State { return u.d }

// Tick is always_ff: Q = D.
func (u *ClockTimer) Tick() {
	u.q, u.qSleep, u.outValid = u.d, u.dSleep, false
}

// Eval is always_comb: the outputs from Q, and D = Q advanced by one cycle
// with this cycle's nanosleep requests applied.
func (u *ClockTimer) Eval(in Inputs) Outputs {
	u.d = u.q
	u.d.Cycle = u.q.Cycle + 1
	u.d.GTimer, u.d.GFrac = u.timerStep(u.q.GTimer, u.q.GFrac)
	u.dSleep = rtl.Bits{}
	if u.qSleep.Any() {
		for w := 0; w < u.p.NumWarps; w++ {
			if c := u.q.SleepCnt[w]; c != 0 {
				u.d.SleepCnt[w] = c - 1
				if c > 1 {
					u.dSleep.Set(w)
				}
			}
		}
	}
	u.request(&u.d, &in, &u.dSleep)
	return u.Out()
}

// timerStep is one cycle of the global timer: 1000/MHz ns, the fraction
// carried in the accumulator (acc < MHz and nsRem < MHz, so at most one
// carry per cycle).
func (u *ClockTimer) timerStep(ns uint64, acc uint32) (uint64, uint32) {
	ns += u.nsQuot
	acc += u.nsRem
	if acc >= uint32(u.p.MHz) {
		acc -= uint32(u.p.MHz)
		ns++
	}
	return ns, acc
}

// request applies the nanosleep ports to d (and to sleep, d's sleeping
// warps): the requesting warp sleeps for SleepCycles(ns) cycles from the
// next one on. A later port naming the same warp wins (the SM never
// drives that: a warp belongs to one scheduler).
func (u *ClockTimer) request(d *State, in *Inputs, sleep *rtl.Bits) {
	for p := 0; p < u.p.NumPorts; p++ {
		if !in.SleepValid[p] {
			continue
		}
		w := int(in.SleepWarp[p])
		if w >= u.p.NumWarps {
			continue
		}
		d.SleepCnt[w] = u.SleepCycles(in.SleepNs[p])
		sleep.Put(w, d.SleepCnt[w] != 0)
	}
}

// Out returns the outputs: the combinational output logic, a function of
// Q alone (no input reaches an output in the same cycle). It equals what
// Eval returns this cycle, so the SM may read %clock, %globaltimer and
// sleeping_o before it knows this cycle's inputs. It changes no register
// (the result is kept until the next Tick or Advance).
func (u *ClockTimer) Out() Outputs {
	if u.outValid {
		return u.out
	}
	gt := u.q.GTimer - u.q.GTimer%u.p.ResolutionNs
	u.out = Outputs{
		Clock:         uint32(u.q.Cycle),
		ClockHi:       uint32(u.q.Cycle >> 32),
		Clock64:       u.q.Cycle,
		GlobalTimer:   gt,
		GlobalTimerLo: uint32(gt),
		GlobalTimerHi: uint32(gt >> 32),
		Sleeping:      u.qSleep,
	}
	u.outValid = true
	return u.out
}

// SleepCycles converts a sleep duration to whole cycles, rounding down:
// floor(min(ns, MaxSleepNs) * MHz / 1000). Rounding down keeps the time a
// warp is suspended within the duration chosen, hence within nanosleep's
// [0, 2t] and 1 ms bounds.
func (u *ClockTimer) SleepCycles(ns uint32) uint32 {
	n := uint64(min(ns, MaxSleepNs))
	return uint32(n * uint64(u.p.MHz) / 1000) // <= 1e6 * 1e5 / 1e3 = 1e8
}

// Advance moves the unit n cycles forward as n rounds of Eval(in) and Tick
// would, without stepping them one by one: the SM uses it to skip idle
// stretches (in is normally the zero Inputs). D is left equal to the new Q;
// Advance(in, 0) does nothing.
func (u *ClockTimer) Advance(in Inputs, n uint64) {
	if n == 0 {
		return
	}
	s := u.q
	s.Cycle += n
	// (acc + n*nsRem) / MHz extra ns; hi < MHz always, so Div64 is safe:
	// n*nsRem + acc <= (2^64-1)(MHz-1) + MHz-1 < 2^64 * MHz.
	hi, lo := bits.Mul64(n, uint64(u.nsRem))
	lo, c := bits.Add64(lo, uint64(s.GFrac), 0)
	hi += c
	quo, rem := bits.Div64(hi, lo, uint64(u.p.MHz))
	s.GTimer += n*u.nsQuot + quo
	s.GFrac = uint32(rem)
	var sleep rtl.Bits
	for w := 0; w < u.p.NumWarps; w++ {
		c := uint64(s.SleepCnt[w])
		s.SleepCnt[w] = uint32(c - min(c, n))
		sleep.Put(w, s.SleepCnt[w] != 0)
	}
	// The last of the n cycles takes the requests (they override the
	// count, as in Eval).
	u.request(&s, &in, &sleep)
	u.q, u.d = s, s
	u.qSleep, u.dSleep, u.outValid = sleep, sleep, false
}

// NextWake returns the number of cycles until the next sleeping warp wakes
// (its sleeping_o bit falls after that many Ticks), or false when no warp
// sleeps.
func (u *ClockTimer) NextWake() (uint64, bool) {
	if !u.qSleep.Any() {
		return 0, false
	}
	best, ok := uint32(0), false
	for w := 0; w < u.p.NumWarps; w++ {
		if c := u.q.SleepCnt[w]; c != 0 && (!ok || c < best) {
			best, ok = c, true
		}
	}
	return uint64(best), ok
}

// Signals returns the unit's signal table under Scope.
func (u *ClockTimer) Signals() rtl.Table {
	return rtl.MustSignals(Scope, u.p, Inputs{}, Outputs{}, State{})
}
