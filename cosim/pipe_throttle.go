package cosim

import (
	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/unitcfg"
)

// PipeThrottle returns pipe_throttle, the execution pipes' throughput in
// the issue stage (pipethrottle.Unit), at the parameters p.
func PipeThrottle(p pipethrottle.Params) (Unit, error) {
	params := []Param{{"NumPorts", p.NumPorts}}
	for q := pipethrottle.Pipe(0); q < pipethrottle.NumPipes; q++ {
		params = append(params, Param{"Rate" + svCamel(q.String()), p.Rate[q]})
	}
	return bindUnit("pipe_throttle", params, func() (*pipethrottle.Unit, error) { return pipethrottle.New(p) },
		rescoped[*pipethrottle.Unit]("pipe_throttle"),
		func(seed uint64) func(uint64, *pipethrottle.Inputs) {
			return newPipeThrottleStim(p.NumPorts, seed).next
		})
}

// svCamel is a config name in UpperCamelCase ("fp32" -> "Fp32").
func svCamel(s string) string { return string(s[0]-'a'+'A') + s[1:] }

func pipeThrottleInfo() *UnitInfo {
	// The standard sets: the h100 preset's rates on 4 schedulers, and odd
	// rates (one that divides nothing, the least and the most) on 3.
	h100 := pipethrottle.Params{NumPorts: 4, Rate: [pipethrottle.NumPipes]int{128, 64, 64, 64, 16, 16}}
	odd := pipethrottle.Params{NumPorts: 3, Rate: [pipethrottle.NumPipes]int{100, 7, 96, 1, 1024, 33}}
	return &UnitInfo{
		Module:     "pipe_throttle",
		Summary:    "execution pipes' throughput in the issue stage (pipe.*, math_pipe_throttle)",
		Sets:       func() ([]Unit, error) { return units(PipeThrottle, h100, odd) },
		AreaSets:   func() ([]Unit, error) { return units(PipeThrottle, h100) },
		FromConfig: fromConfig(fixedParams(unitcfg.PipeThrottle), PipeThrottle),
	}
}

// pipeThrottleStim is pipe_throttle's constrained-random stimulus: in
// phases of 1..1024 cycles, each scheduler requests at a phase density,
// mostly one pipe of the phase (so that pipes run dry and refill), else
// any pipe, now and then a pipe number outside pipe_e.
type pipeThrottleStim struct {
	n int
	phases
	rate, focus, bad int // in 64ths
	pipe             uint8
}

func newPipeThrottleStim(n int, seed uint64) *pipeThrottleStim {
	return &pipeThrottleStim{n: n, phases: newPhases(seed, 0x919e_7410_0000_0001)}
}

func (g *pipeThrottleStim) next(_ uint64, in *pipethrottle.Inputs) {
	r := g.r
	g.step(1024, func() {
		g.rate = g.pick(0, 8, 32, 60, 64)
		g.focus = g.pick(0, 32, 56, 64)
		g.bad = g.pick(0, 0, 2)
		g.pipe = uint8(r.IntN(int(pipethrottle.NumPipes)))
	})
	*in = pipethrottle.Inputs{}
	for k := 0; k < g.n; k++ {
		if r.IntN(64) >= g.rate {
			continue
		}
		in.ReqValid[k] = true
		switch {
		case r.IntN(64) < g.bad:
			in.ReqPipe[k] = uint8(int(pipethrottle.NumPipes) + r.IntN(8-int(pipethrottle.NumPipes)))
		case r.IntN(64) < g.focus:
			in.ReqPipe[k] = g.pipe
		default:
			in.ReqPipe[k] = uint8(r.IntN(int(pipethrottle.NumPipes)))
		}
	}
}
