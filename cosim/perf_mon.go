package cosim

import (
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/unitcfg"
)

// PerfMonCounterCode is the value of perf_mon's CounterN parameter for a
// counter: the kind (perfmon.Kind, smsim_pkg::Pm*) in bits 3:0, the event
// mask (Events) or the stall_count_i index (Stall) in bits 19:4.
func PerfMonCounterCode(c perfmon.Counter) int {
	switch c.Kind {
	case perfmon.Events:
		return int(c.Kind) | int(c.Mask)<<4
	case perfmon.Stall:
		return int(c.Kind) | c.Stall<<4
	}
	return int(c.Kind)
}

// PerfMon returns perf_mon at the parameters p.
func PerfMon(p perfmon.Params) (Unit, error) {
	params := []Param{{"NumPorts", p.NumPorts}}
	for i, c := range p.Counters {
		params = append(params, Param{fmt.Sprintf("Counter%d", i), PerfMonCounterCode(c)})
	}
	return bindUnit("perf_mon", params, func() (*perfmon.PerfMon, error) { return perfmon.New(p) },
		rescoped[*perfmon.PerfMon]("perf_mon"),
		func(seed uint64) func(uint64, *perfmon.Inputs) { return newPerfMonStim(p.NumPorts, seed).next })
}

func pmCounters(specs ...string) [perfmon.NumCounters]perfmon.Counter {
	var cs [perfmon.NumCounters]perfmon.Counter
	for i, s := range specs {
		c, err := config.ParsePMCounter(s)
		if err != nil {
			panic(err)
		}
		if cs[i], err = unitcfg.Counter(c); err != nil {
			panic(err)
		}
	}
	return cs
}

// PerfMonSets are perf_mon's standard parameter sets: every counter kind
// in use, on 4 ports (the h100 preset's schedulers) and on 1.
func PerfMonSets() []perfmon.Params {
	return []perfmon.Params{
		{NumPorts: 4, Counters: pmCounters("cycles", "instructions", "event:3", "events:0x8001",
			"stall:any", "stall:not_selected", "events:0xffff", "off")},
		{NumPorts: 1, Counters: pmCounters("events:0x00f0", "stall:sleep", "cycles", "off",
			"instructions", "stall:memory", "event:15", "stall:trapped")},
	}
}

func perfMonInfo() *UnitInfo {
	return &UnitInfo{
		Module:  "perf_mon",
		Summary: "performance monitor of one SM (%pm0..%pm7, pmevent counts)",
		Sets:    func() ([]Unit, error) { return units(PerfMon, PerfMonSets()...) },
		AreaSets: func() ([]Unit, error) {
			p, err := unitcfg.PerfMon(config.Default())
			if err != nil {
				return nil, err
			}
			return units(PerfMon, append([]perfmon.Params{p}, PerfMonSets()...)...)
		},
		FromConfig: fromConfig(unitcfg.PerfMon, PerfMon),
	}
}

// perfMonStim is perf_mon's constrained-random stimulus: in phases of
// 1..2048 cycles, pmevents on each port at a phase density with masks of
// one event (pmevent) or any (pmevent.mask), an issue count of up to
// NumPorts, and stall counts from none through small to any 16-bit value.
type perfMonStim struct {
	n int
	phases
	rate, multi, stall int // in 64ths
	big                bool
}

func newPerfMonStim(n int, seed uint64) *perfMonStim {
	return &perfMonStim{n: n, phases: newPhases(seed, 0x9e7f_0000_0000_0001)}
}

func (g *perfMonStim) next(_ uint64, in *perfmon.Inputs) {
	r := g.r
	g.step(2048, func() {
		g.rate = g.pick(0, 1, 8, 32, 64)
		g.multi = g.pick(0, 8, 32, 64)
		g.stall = g.pick(0, 16, 48, 64)
		g.big = r.IntN(4) == 0
	})
	*in = perfmon.Inputs{}
	for p := 0; p < g.n; p++ {
		if r.IntN(64) >= g.rate {
			continue
		}
		in.EventValid[p] = true
		if r.IntN(64) < g.multi {
			in.EventMask[p] = uint16(r.Uint32())
		} else {
			in.EventMask[p] = 1 << uint(r.IntN(perfmon.NumEvents))
		}
	}
	in.IssueCount = uint8(r.IntN(g.n + 1))
	for i := range in.StallCount {
		if r.IntN(64) >= g.stall {
			continue
		}
		if g.big {
			in.StallCount[i] = uint16(r.Uint32())
		} else {
			in.StallCount[i] = uint16(r.IntN(65))
		}
	}
}
