package pipeline

import (
	"math/bits"
	"math/rand/v2"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/unitcfg"
)

// units holds the SM's clock_timer and perf_mon instances (packages
// clocktimer and perfmon; docs/clock-timer.md has their integration
// contract) and the wires the SM drives into them. They are the only
// implementation of %clock*, %globaltimer*, nanosleep's timing, pmevent and
// %pm*: the SM reads their registered outputs and keeps no second copy of
// those counters.
//
// Per cycle: the outputs are functions of the registers alone, so they are
// valid before the inputs exist; the issued instructions drive ctIn and
// pmIn (nanosleep and pmevent on the issuing scheduler's port); at the end
// of the cycle tick adds the issue and stall counts, evaluates both units
// and commits them (Eval, Tick). Skipped idle stretches go through advance
// (clocktimer.Advance, perfmon.Advance with the stretch's constant stall
// counts).
//
// clock_timer is evaluated lazily: while no warp sleeps and no nanosleep
// is requested its inputs are zero and nothing the SM uses depends on its
// outputs except the clock and timer registers, so the SM lets it lag by
// lag cycles and catches up with Advance (the same state as that many
// Eval/Tick rounds, the unit's contract) before a special-register read, a
// nanosleep request or an observer (ClockTimer) needs it. perf_mon lags
// the same way through a skipped idle stretch (pmLag), and, while no
// observer is registered, through busy cycles as well (busy): its
// registers only add up their inputs, so it catches up from the inputs'
// sums (perfmon.AdvanceTotals) when %pm is read or the run reports.
// Observers change none of this: they only make a unit catch up earlier,
// to the same state.
type units struct {
	ct   *clocktimer.ClockTimer
	pm   *perfmon.PerfMon
	rng  *rand.PCG // nanosleep's generator (sleep.mode uniform), run.seed
	ctIn clocktimer.Inputs
	pmIn perfmon.Inputs
	req  bool // ctIn carries a request this cycle
	// pmEvents: pmIn carries a pmevent this cycle.
	pmEvents bool
	lag      uint64 // cycles clock_timer is behind the SM (no warp asleep meanwhile)
	// pmLag is how many cycles of a skipped idle stretch perf_mon has not
	// taken yet, each with the inputs pmIdle.
	pmLag  uint64
	pmIdle perfmon.Inputs
	// busy is how many other cycles perf_mon has not taken yet (no
	// observer: it lags through busy cycles too, and catches up from the
	// sums of their inputs). busyTot holds their issue counts and pmevent
	// triggers; their stall counts are the growth of the SM's warp-state
	// counts since seen, up to the end of the last cycle: stalls outside a
	// cycle, prevStalls (the counts when this cycle began) inside one
	// (mid).
	busy       uint64
	busyTot    perfmon.Totals
	stalls     *[numStates]uint64
	prevStalls [numStates]uint64
	mid        bool
	co         clocktimer.Outputs
	// asleep is sleeping_o as a word: bit w set while warp slot w sleeps
	// (clock_timer has at most 64 warp slots). Always current: the unit
	// never lags while a warp sleeps.
	asleep uint64
	// stall[s] is the stall_count_i index of warp state s besides "any"
	// (0: none); any[s] says whether s counts toward "any". seen is the
	// SM's warp-state counts at the last tick: their difference is this
	// cycle's stall counts.
	stall [numStates]uint8
	any   [numStates]bool
	seen  [numStates]uint64
	ts    [32]uint32 // scratch: a nanosleep's t operands
}

// initUnits builds the units from the configuration.
func (sm *SM) initUnits() error {
	u := &sm.u
	ct, err := clocktimer.New(unitcfg.ClockTimer(sm.cfg))
	if err != nil {
		return err
	}
	pp, err := unitcfg.PerfMon(sm.cfg)
	if err != nil {
		return err
	}
	pm, err := perfmon.New(pp)
	if err != nil {
		return err
	}
	u.ct, u.pm, u.stalls = ct, pm, &sm.stalls
	u.rng = clocktimer.NewRNG(sm.cfg.Run.Seed)
	for s := WarpState(0); s < numStates; s++ {
		u.any[s] = stalled(s)
		if name := pmStall(s); name != "" {
			if k, ok := unitcfg.StallIndex(name); ok {
				u.stall[s] = uint8(k)
			}
		}
	}
	u.co = ct.Out()
	return nil
}

// sync brings clock_timer up to the SM's cycle and reads its outputs.
func (u *units) sync() {
	if u.lag != 0 {
		u.ct.Advance(clocktimer.Inputs{}, u.lag)
		u.lag = 0
		u.co = u.ct.Out()
		u.asleep = u.co.Sleeping[0]
	}
}

// syncPM brings perf_mon up to the SM's cycle: the cycles of a skipped
// idle stretch it has not taken yet, each with the stretch's inputs, and
// the busy cycles it has not taken, from their inputs' sums (its registers
// only add up, so the order does not matter).
func (u *units) syncPM() {
	if u.pmLag != 0 {
		u.pm.Advance(u.pmIdle, u.pmLag)
		u.pmLag = 0
	}
	if u.busy != 0 {
		end := u.stalls
		if u.mid {
			end = &u.prevStalls
		}
		for s := WarpState(0); s < numStates; s++ {
			d := end[s] - u.seen[s]
			if u.any[s] {
				u.busyTot.Stall[0] += d
			}
			if k := u.stall[s]; k != 0 {
				u.busyTot.Stall[k] += d
			}
		}
		u.seen = *end
		u.pm.AdvanceTotals(u.busy, &u.busyTot)
		u.busy, u.busyTot = 0, perfmon.Totals{}
	}
}

// begin marks the start of a cycle's warp-state counting: the counts so
// far are those of the cycles before it.
func (u *units) begin() {
	u.prevStalls, u.mid = *u.stalls, true
}

// clock returns clock_timer's outputs for the current cycle.
func (u *units) clock() *clocktimer.Outputs {
	u.sync()
	return &u.co
}

// stallCounts sets in.StallCount from the warp-state counts accumulated
// since the last call (one cycle's worth, or per cycle of a stretch of n).
func (u *units) stallCounts(in *perfmon.Inputs, stalls *[numStates]uint64, n uint64) {
	for s := WarpState(0); s < numStates; s++ {
		d := stalls[s] - u.seen[s]
		if d == 0 {
			continue
		}
		if n != 1 {
			d /= n
		}
		if u.any[s] {
			in.StallCount[0] += uint16(d)
		}
		if k := u.stall[s]; k != 0 {
			in.StallCount[k] += uint16(d)
		}
	}
	u.seen = *stalls
}

// tick is the units' end of cycle: perf_mon takes the warp instructions
// issued and the stall counts (stalls: the SM's running per-state
// warp-cycle counts), both units Eval with this cycle's inputs and Tick
// (clock_timer lags instead while nothing sleeps and nothing is
// requested: its inputs are zero, and whoever reads it brings it up to
// date first). The inputs are cleared; with rec (an observer is
// registered) they are copied into it first.
func (u *units) tick(issued uint64, stalls *[numStates]uint64, rec *UnitInputs) {
	if rec == nil {
		// Nobody sees perf_mon's inputs: it lags (syncPM).
		u.busy++
		u.busyTot.Issued += issued
		if u.pmEvents {
			u.pm.AddEvents(&u.busyTot, &u.pmIn)
			u.pmIn, u.pmEvents = perfmon.Inputs{}, false
		}
	} else {
		u.syncPM()
		u.pmIn.IssueCount = uint8(issued)
		u.stallCounts(&u.pmIn, stalls, 1)
		rec.Perf, rec.Clock = u.pmIn, u.ctIn
		u.pm.EvalRef(&u.pmIn)
		u.pm.Tick()
		u.pmIn, u.pmEvents = perfmon.Inputs{}, false
	}
	u.mid = false
	if !u.req && u.asleep == 0 {
		u.lag++
		return
	}
	u.sync()
	u.ct.Eval(u.ctIn)
	u.ct.Tick()
	u.ctIn, u.req = clocktimer.Inputs{}, false
	u.co = u.ct.Out()
	u.asleep = u.co.Sleeping[0]
}

// idle starts a stretch of n idle cycles (nothing issues, nothing is
// requested; the warp states, whose counts grew by n each, hold for every
// one of them): perf_mon's inputs of each of those cycles go into pmIdle.
// The units then take the cycles lazily (lag, pmLag; see skipIdle), as n
// ticks would.
func (u *units) idle(n uint64, stalls *[numStates]uint64) {
	u.syncPM()
	u.pmIdle = perfmon.Inputs{}
	u.stallCounts(&u.pmIdle, stalls, n)
}

// asleep reports whether w is in nanosleep (its sleeping_o bit): it is in
// state sleeping and may not issue.
func (sm *SM) asleep(w *warp) bool {
	return sm.u.asleep != 0 && sm.u.asleep>>uint(w.slot)&1 != 0
}

// warpState classifies a warp that is not eligible at the current cycle
// c: sleeping while clock_timer says so, else from its timing registers
// (Step's stall accounting spells it out, to keep stateAt inlined).
func (sm *SM) warpState(w *warp, c uint64) WarpState {
	if sm.asleep(w) {
		return StateSleeping
	}
	return w.stateAt(c)
}

// requestSleep drives scheduler s's nanosleep port for warp w: one
// duration for the warp from the t operands of the executing lanes
// (emask, not empty), chosen by clocktimer.SleepDuration (the smallest t,
// so every lane stays within its [0, 2t] and all wake together). The warp
// sleeps from the next cycle for clock_timer's SleepCycles of it.
func (sm *SM) requestSleep(w *warp, d *dinst, emask uint32, s int) {
	u := &sm.u
	n := 0
	for m := emask; m != 0; m &= m - 1 {
		u.ts[n] = uint32(w.value(&d.a, bits.TrailingZeros32(m)))
		n++
	}
	ns := clocktimer.SleepDuration(unitcfg.SleepMode(sm.cfg.Sleep.Mode), u.ts[:n], sm.cfg.Timer.ResolutionNs, u.rng)
	u.ctIn.SleepValid[s], u.ctIn.SleepWarp[s], u.ctIn.SleepNs[s] = true, uint16(w.slot), uint32(min(ns, clocktimer.MaxSleepNs))
	u.req = true
}

// triggerEvents drives scheduler s's pmevent port: mask is 1<<a for
// pmevent a, a for pmevent.mask a (the instruction's immediate).
func (sm *SM) triggerEvents(mask uint16, s int) {
	sm.u.pmIn.EventValid[s], sm.u.pmIn.EventMask[s] = true, mask
	sm.u.pmEvents = true
}

// globalTimer is %globaltimer in the current cycle: clock_timer's
// globaltimer_o.
func (sm *SM) globalTimer() uint64 { return sm.u.clock().GlobalTimer }

// pmValue is %pm<i>_64 in the current cycle: perf_mon's pm_o[i], the
// counts of the cycles before this one.
func (sm *SM) pmValue(i int) uint64 {
	sm.u.syncPM()
	return sm.u.pm.Out().Pm[i]
}

// ClockTimer returns the SM's clock_timer unit, brought up to the current
// cycle (for observers and tracers: read its Q, D, Out and Signals; do not
// drive it).
func (sm *SM) ClockTimer() *clocktimer.ClockTimer {
	sm.u.sync()
	return sm.u.ct
}

// PerfMon returns the SM's perf_mon unit (for observers and tracers: read
// its Q, D, Out, Counts and Signals; do not drive it).
func (sm *SM) PerfMon() *perfmon.PerfMon {
	sm.u.syncPM()
	return sm.u.pm
}

// PMCounts returns the performance monitor's counts so far: pmevent
// triggers per event and %pm0_64..%pm7_64.
func (sm *SM) PMCounts() perfmon.Counts { return sm.PerfMon().Counts() }
