package cosim

import (
	"context"
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/randprog"
)

// Random programs on the SM RTL (issue 15 item 3, docs/sm-rtl.md section
// 7): package randprog writes them, SMRandomFeatures says which of its
// features the RTL runs, RunSMRandom runs a seeded series in lockstep.

// probeSeeds is how many programs probe one feature.
const probeSeeds = 8

// SMRandomFeatures is the random-program preset of the SM RTL under cfg:
// every integer operation, special register and feature family of
// package randprog whose programs CheckSM accepts (each probed with a few
// programs that use it and nothing else beyond the base program), with
// the limits of the RTL (registers, predicates) and of cfg (threads per
// CTA, resident CTAs). It is derived from CheckSM, so it widens by itself
// as the RTL's subset grows; an error means the base program itself is
// outside the subset (cfg is: a policy or latency the RTL lacks).
func SMRandomFeatures(cfg config.Config) (randprog.Features, randprog.Limits, error) {
	lim := randprog.Limits{
		MaxRegs: smMaxRegs, MaxPreds: smMaxPreds,
		MaxThreads: min(cfg.SM.MaxWarps*cfg.SM.WarpSize, cfg.SM.MaxThreadsPerCTA),
		MaxCTAs:    max(cfg.SM.MaxCTAs, 2),
	}
	// A CTA's warps must find their registers (at the RTL's MaxRegs per
	// thread, as the Go launch allocates them) in sm.regfile.
	g := max(cfg.RegPool.AllocGranularity, 1)
	unit := max(cfg.SM.RegAllocUnit, 1)
	if perWarp := ((smMaxRegs+g-1)/g*g*32 + unit - 1) / unit * unit; perWarp > 0 {
		lim.MaxThreads = min(lim.MaxThreads, cfg.SM.Regfile/perWarp*cfg.SM.WarpSize)
	}
	if lim.MaxThreads < 1 {
		return randprog.Features{}, lim, fmt.Errorf("cosim: no threads per CTA at this configuration")
	}
	accepts := func(f randprog.Features) (bool, error) {
		for i := 0; i < probeSeeds; i++ {
			p, err := randprog.Generate(randprog.Seed(0x5eed, i), f, lim)
			if err != nil {
				return false, err
			}
			if CheckSM(p.Config(cfg), p.Image, p.Launch) != nil {
				return false, nil
			}
		}
		return true, nil
	}
	var f randprog.Features
	if ok, err := accepts(f); err != nil || !ok {
		p, _ := randprog.Generate(randprog.Seed(0x5eed, 0), f, lim)
		if err == nil && p != nil {
			err = CheckSM(p.Config(cfg), p.Image, p.Launch)
		}
		return f, lim, fmt.Errorf("cosim: the SM RTL does not run the base random program: %v", err)
	}
	for _, op := range randprog.OpNames() {
		ok, err := accepts(randprog.Features{Ops: []string{op}})
		if err != nil {
			return f, lim, err
		}
		if ok {
			f.Ops = append(f.Ops, op)
		}
	}
	for _, s := range randprog.SRegNames() {
		ok, err := accepts(randprog.Features{SRegs: []string{s}})
		if err != nil {
			return f, lim, err
		}
		if ok {
			f.SRegs = append(f.SRegs, s)
		}
	}
	for _, name := range randprog.Families() {
		g := randprog.Features{Ops: f.Ops}
		if err := g.Set(name, true); err != nil {
			return f, lim, err
		}
		ok, err := accepts(g)
		if err != nil {
			return f, lim, err
		}
		if ok {
			_ = f.Set(name, true)
		}
	}
	return f, lim, nil
}

// SMRandomOptions configure a series of random programs in lockstep.
type SMRandomOptions struct {
	Config config.Config
	Seed   uint64 // program i has seed randprog.Seed(Seed, i)
	N      int
	// Features and Limits of the programs; the zero Limits means
	// SMRandomFeatures(Config) for both.
	Features randprog.Features
	Limits   randprog.Limits
	Harness  HarnessOptions
	// Coverage, when set, runs the coverage bench and collects every
	// program's counts there.
	Coverage *SMCoverage
	// Progress, when set, is called after each program that matched.
	Progress func(i int, p *randprog.Program, res *SMResult)
}

// SMRandomResult is the outcome of a series: the programs that ran and
// their cycles, and the first failing program (nil: none failed).
type SMRandomResult struct {
	Programs int
	Cycles   uint64
	Features randprog.Features
	Failed   *randprog.Program
	// Result is the failing program's lockstep result (a mismatch,
	// different buffers or a status other than completed), Err its error
	// (the RTL refused it, the bench failed); one of them is set.
	Result *SMResult
	Err    error
}

// RunSMRandom generates and cosimulates o.N programs and stops at the
// first that fails. The error is reserved for what stops the series
// before a program runs (no preset, a generator error, the build).
func RunSMRandom(ctx context.Context, o SMRandomOptions) (*SMRandomResult, error) {
	if o.Limits == (randprog.Limits{}) {
		f, lim, err := SMRandomFeatures(o.Config)
		if err != nil {
			return nil, err
		}
		o.Features, o.Limits = f, lim
	}
	h := o.Harness
	if h.Binary == "" {
		build := BuildSM
		if o.Coverage != nil {
			build = BuildSMCoverage
		}
		bin, err := build(ctx, o.Config, h)
		if err != nil {
			return nil, err
		}
		h.Binary = bin
	}
	res := &SMRandomResult{Features: o.Features}
	for i := 0; i < o.N; i++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		p, err := randprog.Generate(randprog.Seed(o.Seed, i), o.Features, o.Limits)
		if err != nil {
			return res, err
		}
		so := SMOptions{Config: p.Config(o.Config), Image: p.Image, Launch: p.Launch, Harness: h}
		if o.Coverage != nil {
			so.Coverage = o.Coverage.Part()
		}
		r, err := RunSM(ctx, so)
		if err == nil && r.OK() && r.Status != pipeline.StatusCompleted {
			err = fmt.Errorf("cosim: the Go run ended %s (every random program completes)", r.Status)
		}
		if err != nil || !r.OK() {
			res.Failed, res.Result, res.Err = p, r, err
			return res, nil
		}
		if o.Coverage != nil {
			if err := o.Coverage.Collect(ctx); err != nil {
				return res, err
			}
		}
		res.Programs++
		res.Cycles += r.Cycles
		if o.Progress != nil {
			o.Progress(i, p, r)
		}
	}
	return res, nil
}
