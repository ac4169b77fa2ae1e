// `smsim cosim --sm --random N --seed S`: constrained-random programs
// (package randprog) in lockstep on the Go SM and the Verilated SM.

package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/randprog"
)

// randomFlags are the flags of the random series (part of cosim's).
func randomFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "random", Usage: "with --sm: cosimulate N constrained-random programs (program i has seed randprog.Seed(--seed, i)); the first failing one is written out with the command that re-runs it"},
		&cli.StringFlag{Name: "features", Usage: "with --random: the programs' features (default: the SM RTL's preset, derived from CheckSM), e.g. \"branch,loop,global ops=add,xor\" (families: " + strings.Join(randprog.Families(), ", ") + ")"},
	}
}

// smRandomAction runs `smsim cosim --sm --random N`: N random programs in
// lockstep, stopping at the first that fails. Exit 0: every program
// matched; 1: a mismatch, different buffers or a failure of the RTL side
// (the program is written to a directory the message names, with the
// command that re-runs it); 2: bad input (no --sm, a kernel argument,
// features the RTL refuses).
func smRandomAction(c *cli.Context) error {
	switch {
	case !c.Bool("sm"):
		return cosimBad("--random runs random programs on the SM: give --sm as well")
	case c.NArg() > 0:
		return cosimBad("--random generates its kernels: no KERNEL argument (%s)", strings.Join(c.Args().Slice(), " "))
	}
	if err := refuseFlags(c, "random", "the generator chooses the launch", append([]string{"unit", "all", "from-kernel"}, smLaunchFlags...)...); err != nil {
		return err
	}
	n, err := parseUintFlag("random", c.String("random"), 31)
	if err != nil {
		return err
	}
	seed, err := parseUintFlag("seed", c.String("seed"), 64)
	if err != nil {
		return err
	}
	cfg, h, cov, err := smSetup(c)
	if err != nil {
		return err
	}
	o := cosim.SMRandomOptions{Config: cfg, Seed: seed, N: int(n), Harness: h, Coverage: cov}
	var user randprog.Features
	if c.IsSet("features") {
		if user, err = randprog.ParseFeatures(c.String("features")); err != nil {
			return cosimBad("--features: %v", err)
		}
	}
	feats, lim, err := cosim.SMRandomFeatures(cfg)
	if err != nil {
		return cosimBad("%s", strings.TrimPrefix(err.Error(), "cosim: "))
	}
	o.Features, o.Limits = feats, lim
	if c.IsSet("features") {
		o.Features = user
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	start := time.Now()
	res, err := cosim.RunSMRandom(ctx, o)
	if err != nil {
		return cosimFailed(err)
	}
	if p := res.Failed; p != nil {
		return randomFailure(c, res, int(n))
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.Writer, "sm_top: %d random programs (seed %d, features: %s), %d cycles, 0 mismatches, equal buffers (%s)\n",
			res.Programs, seed, res.Features, res.Cycles, time.Since(start).Round(time.Millisecond))
	}
	return coverageReport(c, ctx, cov, h)
}

// randomFailure writes the failing program and its launch into a new
// directory and returns the error naming them, the seed and the command
// that re-runs the program.
func randomFailure(c *cli.Context, res *cosim.SMRandomResult, n int) error {
	p := res.Failed
	var what string
	var ue *cosim.UnsupportedError
	switch {
	case res.Err != nil:
		what = res.Err.Error()
	case res.Result.Mismatch != nil:
		what = res.Result.Mismatch.Error()
	case len(res.Result.BufferDiffs) > 0:
		what = fmt.Sprintf("%d cycles matched, but the buffers differ: %s", res.Result.Cycles, strings.Join(res.Result.BufferDiffs, "; "))
	default:
		what = "the Go run ended " + res.Result.Status
	}
	head := fmt.Sprintf("cosim: random program %d of %d (index %d, seed %#x) failed: %s", res.Programs+1, n, res.Programs, p.Seed, what)
	var cfgArgs []string
	if f := c.String("config"); f != "" {
		cfgArgs = append(cfgArgs, "--config", f)
	}
	cfgArgs = append(cfgArgs, "--preset", c.String("preset"))
	for _, s := range c.StringSlice("set") {
		cfgArgs = append(cfgArgs, "--set", s)
	}
	if d := c.String("rtl-dir"); d != "" {
		cfgArgs = append(cfgArgs, "--rtl-dir", d)
	}
	dir, args, err := writeRandomProgram(p, cfgArgs)
	cmd := shellJoin(append([]string{"smsim"}, args...))
	if err != nil {
		return abnormal(fmt.Errorf("%s\n(writing the program failed: %v)", head, err))
	}
	msg := fmt.Errorf("%s\nthe program and its launch are in %s; re-run it with:\n  %s", head, dir, cmd)
	if errors.As(res.Err, &ue) || pipeline.IsLaunchError(res.Err) {
		return badInput(msg)
	}
	return abnormal(msg)
}

// writeRandomProgram writes p as rand-SEED.ptx, its initialized buffers
// as rand-SEED-PARAM.bin and the command that re-runs it as rand-SEED.sh
// into a new temporary directory, and returns the directory and that
// command's arguments after "smsim": cosim --sm FILE, cfgArgs (the
// configuration's flags), the trap handler and the launch flags.
func writeRandomProgram(p *randprog.Program, cfgArgs []string) (dir string, args []string, err error) {
	dir, err = os.MkdirTemp("", "smsim-random-")
	if err != nil {
		return "", nil, err
	}
	base := filepath.Join(dir, fmt.Sprintf("rand-%016x", p.Seed))
	if err := os.WriteFile(base+".ptx", p.PTX, 0o644); err != nil {
		return "", nil, err
	}
	args = append([]string{"cosim", "--sm", base + ".ptx"}, cfgArgs...)
	if p.TrapHandler != "" {
		args = append(args, "--set", "trap.handler="+p.TrapHandler)
	}
	l := p.Launch
	block := fmt.Sprint(l.Block[0])
	if l.Block[1] > 1 {
		block += fmt.Sprintf(",%d", l.Block[1])
	}
	args = append(args, "--grid", fmt.Sprint(l.Grid[0]), "--block", block)
	for _, b := range l.Buffers {
		if len(b.Init) == 0 {
			args = append(args, "--buf", fmt.Sprintf("%s=%d", b.Param, b.Size))
			continue
		}
		file := base + "-" + b.Param + ".bin"
		data := make([]byte, b.Size)
		copy(data, b.Init)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return "", nil, err
		}
		args = append(args, "--buf", b.Param+"=@"+file)
	}
	var names []string
	for k := range l.Args {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		args = append(args, "--arg", fmt.Sprintf("%s=%d", k, l.Args[k]))
	}
	script := "#!/bin/sh\n# seed " + fmt.Sprintf("%#x", p.Seed) + ", features: " + p.Features.String() + "\nexec \"${SMSIM:-smsim}\" " + shellJoin(args) + "\n"
	return dir, args, os.WriteFile(base+".sh", []byte(script), 0o755)
}

// shellJoin quotes the arguments that need it for sh.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \"'$\\`*?[]{}()<>|;&#~") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
