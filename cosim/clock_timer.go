package cosim

import (
	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/unitcfg"
)

// split64 returns a 64-bit parameter as the Verilog parameters name+"Lo"
// and name+"Hi" (32-bit halves: `int unsigned` parameters that -G and
// chparam set from decimal numbers).
func split64(name string, v uint64) []Param {
	return []Param{{name + "Lo", int(uint32(v))}, {name + "Hi", int(v >> 32)}}
}

// rescope returns t with every signal's scope set to scope (the Go units
// scope their tables by the SM instance path; cosim by the module).
func rescope(t rtl.Table, scope string) rtl.Table {
	t = append(rtl.Table(nil), t...)
	for i := range t {
		t[i].Scope = scope
	}
	return t
}

// ClockTimer returns clock_timer at the parameters p.
func ClockTimer(p clocktimer.Params) (Unit, error) {
	params := []Param{{"NumWarps", p.NumWarps}, {"NumPorts", p.NumPorts}, {"MHz", p.MHz}}
	params = append(params, split64("ClockStart", p.ClockStart)...)
	params = append(params, split64("ResolutionNs", p.ResolutionNs)...)
	params = append(params, split64("TimerStartNs", p.TimerStartNs)...)
	return bindUnit("clock_timer", params, func() (*clocktimer.ClockTimer, error) { return clocktimer.New(p) },
		rescoped[*clocktimer.ClockTimer]("clock_timer"),
		func(seed uint64) func(uint64, *clocktimer.Inputs) { return newClockTimerStim(p, seed).next })
}

// ClockTimerSets are clock_timer's standard parameter sets: a small SM at
// the h100 clock and timer resolution with the counters started just
// below 2^32 (the %clock and %globaltimer_lo wrap early in a run), and an
// odd one (5 warps, 3 ports, 7 MHz: 142 6/7 ns a cycle, a resolution of
// 3 ns that is not a power of two).
func ClockTimerSets() []clocktimer.Params {
	return []clocktimer.Params{
		{NumWarps: 8, NumPorts: 2, MHz: 1755, ClockStart: 1<<32 - 4096, ResolutionNs: 32, TimerStartNs: 1<<32 - 100_000},
		{NumWarps: 5, NumPorts: 3, MHz: 7, ClockStart: 3<<32 | 12345, ResolutionNs: 3, TimerStartNs: 1<<40 + 7},
	}
}

func clockTimerInfo() *UnitInfo {
	return &UnitInfo{
		Module:  "clock_timer",
		Summary: "cycle counter, %globaltimer and nanosleep timers of one SM",
		Sets:    func() ([]Unit, error) { return units(ClockTimer, ClockTimerSets()...) },
		// The h100 preset (64 warps, 4 schedulers) and a small SM.
		AreaSets: func() ([]Unit, error) {
			return units(ClockTimer, unitcfg.ClockTimer(config.Default()),
				clocktimer.Params{NumWarps: 8, NumPorts: 2, MHz: 1000, ResolutionNs: 1})
		},
		FromConfig: fromConfig(fixedParams(unitcfg.ClockTimer), ClockTimer),
	}
}

// clockTimerStim is clock_timer's constrained-random stimulus. In phases
// of 1..4096 cycles it issues nanosleeps at a phase density on each port,
// for warps mostly in range (sometimes beyond NumWarps, where the index
// width allows, and sometimes the same warp on two ports), with durations
// drawn from short (a few cycles: warps wake and are put back to sleep
// often), medium, up to and beyond the 1 ms clamp, and any 32-bit value.
type clockTimerStim struct {
	p clocktimer.Params
	phases
	rate int // per port, in 64ths
	long int // chance of a long duration, in 64ths
	wild int // chance of an out-of-range warp, in 64ths
}

func newClockTimerStim(p clocktimer.Params, seed uint64) *clockTimerStim {
	return &clockTimerStim{p: p, phases: newPhases(seed, 0xc10c_7173_0000_0001)}
}

func (g *clockTimerStim) next(_ uint64, in *clocktimer.Inputs) {
	g.step(4096, func() {
		g.rate = g.pick(0, 0, 1, 4, 16, 64)
		g.long = g.pick(0, 1, 8)
		g.wild = g.pick(0, 0, 2, 16)
	})
	r := g.r
	*in = clocktimer.Inputs{}
	idxBits := 1
	for (1 << idxBits) < g.p.NumWarps {
		idxBits++
	}
	for p := 0; p < g.p.NumPorts; p++ {
		if r.IntN(64) >= g.rate {
			continue
		}
		in.SleepValid[p] = true
		w := r.IntN(g.p.NumWarps)
		if r.IntN(64) < g.wild {
			w = r.IntN(1 << idxBits)
		}
		in.SleepWarp[p] = uint16(w)
		var ns uint32
		switch k := r.IntN(64); {
		case k < g.long:
			ns = uint32(r.IntN(2 * clocktimer.MaxSleepNs))
		case k < g.long+2:
			ns = r.Uint32()
		case k < 48:
			ns = uint32(r.IntN(4000)) // 0 to a few dozen cycles
		default:
			ns = uint32(r.IntN(100_000))
		}
		in.SleepNs[p] = ns
	}
}
