// Package exlaunch builds SMs for the examples package's kernels, for tests
// across the module (trace, pipeline's golden reports), the trace demo
// program and the screenshot script.
package exlaunch

import (
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// Launch is e's launch: shapes, arguments and buffers with their initial
// contents.
func Launch(e *examples.Example) pipeline.Launch {
	l := pipeline.Launch{Entry: e.Entry, DynamicSmem: uint32(e.DynamicSmem), Args: e.Args, MaxNReg: uint32(e.MaxNReg)}
	l.Grid, l.Block, l.Cluster = e.LaunchShape()
	for _, b := range e.Buffers {
		l.Buffers = append(l.Buffers, pipeline.Buffer{Param: b.Param, Size: 4 * b.Words, Init: b.InitBytes()})
	}
	return l
}

// New assembles e and returns an SM ready to run it under cfg.
func New(e *examples.Example, cfg config.Config) (*pipeline.SM, error) {
	im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.Name, err)
	}
	return pipeline.New(cfg, im, Launch(e))
}

// NewByName is New for the example called name.
func NewByName(name string, cfg config.Config) (*pipeline.SM, error) {
	e, ok := examples.ByName(name)
	if !ok {
		return nil, fmt.Errorf("no example %q", name)
	}
	return New(e, cfg)
}
