package cosim

import (
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// SMExample is one example kernel (package examples) with its own launch
// at a configuration: the lockstep's options, or why the SM RTL cannot
// run it there (Refused: what CheckSM refuses first, or a launch that
// does not fit the configuration).
type SMExample struct {
	Name    string
	Options SMOptions
	Refused error
}

// SMExamples are the example kernels at cfg (with each example's trap
// handler), in the examples' order: `smsim cosim --sm --examples` runs
// those not refused.
func SMExamples(cfg config.Config) ([]SMExample, error) {
	var out []SMExample
	for _, e := range examples.All() {
		im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
		if err != nil {
			return nil, fmt.Errorf("cosim: example %s: %w", e.Name, err)
		}
		c := cfg
		c.Trap.Handler = e.TrapHandler
		x := SMExample{Name: e.Name, Options: SMOptions{Config: c, Image: im, Launch: exlaunch.Launch(e)}}
		if err := CheckSM(x.Options.Config, x.Options.Image, x.Options.Launch); err != nil {
			x.Refused = err
		} else if _, err := pipeline.New(x.Options.Config, x.Options.Image, x.Options.Launch); err != nil {
			x.Refused = fmt.Errorf("its launch does not fit the configuration: %w", err)
		}
		out = append(out, x)
	}
	return out, nil
}
