// The `smsim cosim` command: the Go model and the Verilated RTL of a unit
// run in lockstep and compared every cycle (package cosim).
//
//	smsim cosim --unit warp_sched --cycles 1000000 --seed 7
//	smsim cosim --all
//	smsim cosim --from-kernel examples/demo_collatz.ptx --grid 4 --block 128
//	smsim cosim --unit warp_sched --set sched.policy=two_level --vcd out/
//	smsim cosim --sm cosim/testdata/sm/sm_diverge.ptx --preset small --block 80 --buf ... [--vcd out/]
//	smsim cosim --sm --random 500 --seed 7 --preset small --set sched.policy=gto
//	smsim cosim --sm --examples --preset small --coverage cov/
//
// Exit status: 0 when every cycle matched, 1 on a mismatch or when the RTL
// side failed (build, crash, hang, protocol), 2 on bad input.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/cosim/kernelrec"
	"github.com/smsim/smsim/pipeline"
)

// cosimCommand returns the `cosim` command.
func cosimCommand() *cli.Command {
	return &cli.Command{
		Name:  "cosim",
		Usage: "run a unit's Go model and its Verilated RTL in lockstep, comparing every output and register every cycle",
		Description: "Without --from-kernel the inputs are seeded constrained-random stimulus; with it, the inputs\n" +
			"the unit saw in a full-SM run of the kernel (run flags as for `smsim run`). The unit's parameters\n" +
			"come from the configuration (--preset, --config, --set); --all runs every unit at each of its\n" +
			"standard parameter sets. Units: " + strings.Join(cosim.UnitNames(), ", ") + ".\n" +
			"With --sm KERNEL.ptx: the whole SM, the Go SM against the Verilated sm_top (docs/sm-rtl.md); at the\n" +
			"first mismatch its waveforms (Go and Verilator VCDs, both side by side, a GTKWave save file) go into\n" +
			"--vcd DIR, else a temporary directory the report names.\n" +
			"With --sm --random N (no KERNEL): N constrained-random programs (package randprog; features: the\n" +
			"RTL's preset, derived from CheckSM, or --features), program i with seed randprog.Seed(--seed, i);\n" +
			"it stops at the first failure, writes that program (.ptx, buffers, .sh) to a new temporary directory\n" +
			"and prints the seed and the `smsim cosim --sm FILE ...` command that re-runs it (docs/sm-rtl.md section 7).\n" +
			"Exit status: 0 no mismatch, 1 mismatch or RTL failure, 2 bad input.",
		Flags: append(append([]cli.Flag{
			&cli.StringFlag{Name: "unit", Usage: "the unit to cosimulate: " + strings.Join(cosim.UnitNames(), ", ")},
			&cli.BoolFlag{Name: "all", Usage: "every unit at each of its standard parameter sets"},
			&cli.StringFlag{Name: "cycles", Value: "100000", Usage: "cycles of random stimulus per unit"},
			&cli.StringFlag{Name: "seed", Value: "1", Usage: "seed of the random stimulus (with --from-kernel: run.seed; with --sm --random: of the program series)"},
			&cli.StringFlag{Name: "vcd", Usage: "write the waveforms of the whole run into this directory (default: only on a mismatch, into a temporary directory); with --sm: the waveforms of a mismatch (the 64 cycles before it and 8 after) go there"},
			&cli.StringFlag{Name: "from-kernel", Usage: "record the unit's inputs from a full-SM run of this kernel (.ptx, disassembly or image) and replay them"},
			&cli.StringFlag{Name: "batch", Value: "4096", Usage: "cycles per harness message"},
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "how long to wait for each harness reply"},
			&cli.BoolFlag{Name: "tcp", Usage: "talk to the harness over TCP on 127.0.0.1 instead of a Unix socket"},
			&cli.StringFlag{Name: "rtl-dir", Usage: "build the RTL from this directory instead of verilog/rtl (e.g. a modified copy)"},
			&cli.BoolFlag{Name: "quiet", Usage: "print only mismatches and errors"},
			&cli.BoolFlag{Name: "sm", Usage: "cosimulate the whole SM on KERNEL.ptx: the Go SM and the Verilated sm_top in lockstep (docs/sm-rtl.md; run flags as for `smsim run`)"},
			&cli.BoolFlag{Name: "examples", Usage: "with --sm: every example kernel with its own launch that the SM RTL runs at the configuration (the others are listed with what they need)"},
			&cli.StringFlag{Name: "coverage", Usage: "with --sm: run the RTL built with Verilator's line and toggle coverage and merge the counts into this directory (adding to what it holds); writes DIR/summary.md (per RTL file, and the lines never run) and DIR/annotated/"},
		}, append(configFlags(), randomFlags()...)...), launchFlags()...),
		Action: cosimAction,
	}
}

// cosimBad is bad input to the cosim command (exit 2).
func cosimBad(format string, args ...any) error {
	return badInput(fmt.Errorf("cosim: "+format, args...))
}

// cosimFailed is a failure of a cosimulation run or of the RTL side (exit
// 1). Package cosim's errors already begin with "cosim: ".
func cosimFailed(err error) error {
	if strings.HasPrefix(err.Error(), "cosim: ") {
		return abnormal(err)
	}
	return abnormal(fmt.Errorf("cosim: %w", err))
}

type job struct {
	name string
	unit cosim.Unit
	src  func() cosim.Stimulus
	n    uint64 // cycles (0: the whole stream)
}

func cosimAction(c *cli.Context) error {
	if c.IsSet("random") || c.IsSet("features") {
		return smRandomAction(c)
	}
	if c.Bool("sm") {
		return smCosimAction(c)
	}
	for _, f := range []string{"examples", "coverage"} {
		if c.IsSet(f) {
			return cosimBad("--%s needs --sm", f)
		}
	}
	if c.NArg() > 0 {
		return cosimBad("unexpected arguments: %s", strings.Join(c.Args().Slice(), " "))
	}
	cycles, err := parseUintFlag("cycles", c.String("cycles"), 64)
	if err != nil {
		return err
	}
	seed, err := parseUintFlag("seed", c.String("seed"), 64)
	if err != nil {
		return err
	}
	batch, err := parseUintFlag("batch", c.String("batch"), 24)
	if err != nil || batch == 0 {
		return cosimBad("--batch: want 1..16777215")
	}
	unit, all, kernel := c.String("unit"), c.Bool("all"), c.String("from-kernel")
	switch {
	case all && unit != "":
		return cosimBad("--all and --unit exclude each other")
	case !all && unit == "" && kernel == "":
		return cosimBad("say which unit: --unit %s, or --all", strings.Join(cosim.UnitNames(), "|"))
	case all && kernel != "":
		return cosimBad("--all and --from-kernel exclude each other")
	}
	if unit != "" {
		if _, ok := cosim.LookupUnit(unit); !ok {
			return cosimBad("--unit %s: no such unit (units: %s)", unit, strings.Join(cosim.UnitNames(), ", "))
		}
	}
	cfg, err := loadConfig(c)
	if err != nil {
		return err
	}
	var jobs []job
	switch {
	case kernel != "":
		jobs, err = kernelJobs(c, kernel, unit)
		if err != nil {
			return err
		}
	case all:
		for _, info := range cosim.Units() {
			sets, err := info.Sets()
			if err != nil {
				return cosimFailed(err)
			}
			for _, u := range sets {
				jobs = append(jobs, randomJob(u, seed, cycles))
			}
		}
	default:
		info, _ := cosim.LookupUnit(unit)
		u, err := info.FromConfig(cfg)
		if err != nil {
			return cosimBad("%s at this configuration: %v", unit, err)
		}
		jobs = append(jobs, randomJob(u, seed, cycles))
	}

	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	out, errw := c.App.Writer, c.App.ErrWriter
	if errw == nil {
		errw = os.Stderr
	}
	opt := cosim.Options{Batch: int(batch), Harness: cosim.HarnessOptions{TCP: c.Bool("tcp"), Timeout: c.Duration("timeout"), RTLDir: c.String("rtl-dir")}}
	if d := opt.Harness.RTLDir; d != "" {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return cosimBad("--rtl-dir %s: not a directory", d)
		}
	}
	mismatches := 0
	var sess *cosim.Session
	defer func() {
		if sess != nil {
			sess.Close()
		}
	}()
	for i, j := range jobs {
		o := opt
		o.Cycles = j.n
		if d := c.String("vcd"); d != "" {
			o.VCDDir = d
			if len(jobs) > 1 {
				o.VCDDir = filepath.Join(d, sanitize(j.name))
			}
		}
		// Jobs on the same unit share one harness.
		if i == 0 || j.unit != jobs[i-1].unit {
			if sess != nil {
				sess.Close()
			}
			if sess, err = cosim.Start(ctx, j.unit, opt.Harness); err != nil {
				sess = nil
				return cosimFailed(err)
			}
		}
		res, err := cosim.RunSession(ctx, sess, j.src, o)
		var m *cosim.Mismatch
		switch {
		case errors.As(err, &m):
			mismatches++
			fmt.Fprintln(errw, m.Error())
		case err != nil:
			return cosimFailed(err)
		case !c.Bool("quiet"):
			fmt.Fprintf(out, "%s: %d cycles, 0 mismatches (%.0f cycles/s)\n", j.name, res.Cycles, res.Rate())
			if res.Waves != nil {
				fmt.Fprintf(out, "  waveforms: %s (Go), %s (Verilator); side by side: gtkwave %s\n", res.Waves.GoVCD, res.Waves.RTLVCD, res.Waves.GTKW)
			}
		}
	}
	if mismatches > 0 {
		return abnormal(fmt.Errorf("cosim: %d of %d runs mismatched", mismatches, len(jobs)))
	}
	return nil
}

func randomJob(u cosim.Unit, seed, cycles uint64) job {
	return job{
		name: u.Module() + " " + cosim.ParamString(u.Params()),
		unit: u,
		src:  func() cosim.Stimulus { return u.NewRandom(seed) },
		n:    cycles,
	}
}

// kernelJobs records the units' inputs in a full-SM run of the kernel in
// file (launch flags as for `smsim run`; --seed is run.seed) and returns a
// replay job per recorded stream.
func kernelJobs(c *cli.Context, file, unit string) ([]job, error) {
	im, spec, err := kernelFile(c, file)
	if err != nil {
		var ex *exitError
		if errors.As(err, &ex) && ex.code == 2 {
			return nil, cosimBad("--from-kernel %s: %v", file, ex.err)
		}
		return nil, err
	}
	cfg, l := spec.cfg, spec.launch
	rec, err := kernelrec.Record(cfg, im, l)
	if err != nil {
		var le *pipeline.LaunchError
		if errors.As(err, &le) {
			return nil, cosimBad("%v", err)
		}
		return nil, cosimFailed(err)
	}
	if rec.Divergence != "" {
		// The SM and a Go warp_sched on the recorded inputs disagree: the
		// recording is not what the SM's schedulers saw.
		return nil, cosimFailed(fmt.Errorf("--from-kernel: inconsistent recording: %s", rec.Divergence))
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.Writer, "%s: %s after %d cycles; %d warp_sched input streams recorded\n", file, rec.Report.Status, rec.Cycles, len(rec.Streams))
	}
	var jobs []job
	if unit == "" || unit == "warp_sched" {
		for s := range rec.Streams {
			s := s
			jobs = append(jobs, job{
				name: fmt.Sprintf("warp_sched[%d] %s", s, cosim.ParamString(rec.Unit.Params())),
				unit: rec.Unit,
				src:  func() cosim.Stimulus { return rec.Stimulus(s) },
			})
		}
	}
	// The SM's other units, recorded in the same run.
	names := make([]string, 0, len(rec.Units))
	for n := range rec.Units {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if unit != "" && unit != n {
			continue
		}
		ur := rec.Units[n]
		jobs = append(jobs, job{
			name: fmt.Sprintf("%s %s", n, cosim.ParamString(ur.Unit.Params())),
			unit: ur.Unit,
			src:  ur.Stimulus,
		})
	}
	if len(jobs) == 0 {
		return nil, cosimBad("--from-kernel: nothing recorded for unit %q", unit)
	}
	return jobs, nil
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '=':
			return r
		}
		return '_'
	}, s)
}

// smCosimAction runs `smsim cosim --sm KERNEL.ptx`: the SM lockstep
// (cosim.RunSM). A kernel or launch outside the RTL's subset is bad input
// (exit 2); a mismatch or unequal buffers exit 1. A mismatch writes its
// waveforms into --vcd DIR (default: a temporary directory), which the
// report names.
func smCosimAction(c *cli.Context) error {
	for _, f := range []string{"unit", "all", "from-kernel"} {
		if c.IsSet(f) {
			return cosimBad("--sm and --%s exclude each other", f)
		}
	}
	if c.Bool("examples") {
		return smExamplesAction(c)
	}
	im, spec, err := kernelArg(c)
	if err != nil {
		return err
	}
	h, cov, err := smHarness(c)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	o := cosim.SMOptions{Config: spec.cfg, Image: im, Launch: spec.launch, Harness: h, VCDDir: c.String("vcd")}
	if cov != nil {
		o.Coverage = cov.Part()
	}
	res, err := cosim.RunSM(ctx, o)
	if err := smRunError(res, err); err != nil {
		return err
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.Writer, "sm_top: %d cycles, 0 mismatches, %d buffers equal (run %s)\n", res.Cycles, len(spec.launch.Buffers), res.Status)
	}
	return coverageReport(c, ctx, cov, h)
}

// smRunError is the command's error for a lockstep's outcome: bad input
// (exit 2) for a kernel or launch outside the RTL's subset, a failure
// (exit 1) for a mismatch, unequal buffers or the RTL side failing.
func smRunError(res *cosim.SMResult, err error) error {
	var ue *cosim.UnsupportedError
	switch {
	case errors.As(err, &ue), pipeline.IsLaunchError(err):
		return cosimBad("%v", err)
	case err != nil:
		return cosimFailed(err)
	case res.Mismatch != nil:
		return abnormal(fmt.Errorf("cosim: %w", res.Mismatch))
	case len(res.BufferDiffs) > 0:
		return abnormal(fmt.Errorf("cosim: %d cycles matched, but the buffers differ: %s", res.Cycles, strings.Join(res.BufferDiffs, "; ")))
	}
	return nil
}

// smHarness is the SM bench of --rtl-dir (default: verilog/rtl) and the
// coverage directory of --coverage (nil without it).
func smHarness(c *cli.Context) (cosim.HarnessOptions, *cosim.SMCoverage, error) {
	h := cosim.HarnessOptions{RTLDir: c.String("rtl-dir")}
	if d := h.RTLDir; d != "" {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return h, nil, cosimBad("--rtl-dir %s: not a directory", d)
		}
	}
	cov, err := coverageDir(c)
	return h, cov, err
}

// smSetup is the configuration of the configuration flags, then
// smHarness's bench and coverage directory.
func smSetup(c *cli.Context) (config.Config, cosim.HarnessOptions, *cosim.SMCoverage, error) {
	cfg, err := loadConfig(c)
	if err != nil {
		return cfg, cosim.HarnessOptions{}, nil, err
	}
	h, cov, err := smHarness(c)
	return cfg, h, cov, err
}

// smLaunchFlags are the launch flags a generated or example launch
// replaces.
var smLaunchFlags = []string{"grid", "block", "buf", "arg", "entry", "cluster", "dynamic-smem", "const", "maxnreg"}

// refuseFlags is bad input naming the first of flags that is set: "--what
// and --flag exclude each other (why)".
func refuseFlags(c *cli.Context, what, why string, flags ...string) error {
	for _, f := range flags {
		if c.IsSet(f) {
			return cosimBad("--%s and --%s exclude each other (%s)", what, f, why)
		}
	}
	return nil
}

// coverageDir opens --coverage DIR (nil without the flag).
func coverageDir(c *cli.Context) (*cosim.SMCoverage, error) {
	if !c.IsSet("coverage") {
		return nil, nil
	}
	d := c.String("coverage")
	if d == "" {
		return nil, cosimBad("--coverage: give a directory")
	}
	if st, err := os.Stat(d); err == nil && !st.IsDir() {
		return nil, cosimBad("--coverage %s: not a directory", d)
	}
	cov, err := cosim.NewSMCoverage(d)
	if err != nil {
		return nil, cosimBad("--coverage %s: %v", d, err)
	}
	return cov, nil
}

// coverageReport merges the runs' counts and prints the coverage table
// (nothing without --coverage).
func coverageReport(c *cli.Context, ctx context.Context, cov *cosim.SMCoverage, h cosim.HarnessOptions) error {
	if cov == nil {
		return nil
	}
	rep, err := cov.Report(ctx, h)
	if err != nil {
		return cosimFailed(err)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.Writer, "coverage of the SM RTL (all runs merged in %s):\n%ssummary and the lines never run: %s; annotated sources: %s\n",
			cov.Dir, rep.Table(), rep.Summary, rep.Annotated)
	}
	return nil
}

// smExamplesAction runs `smsim cosim --sm --examples`: every example the
// SM RTL runs at the configuration, each with its own launch, in lockstep;
// it stops at the first that fails (exit 1). The refused ones are listed
// with what they need first.
func smExamplesAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return cosimBad("--examples runs the example kernels: no KERNEL argument (%s)", strings.Join(c.Args().Slice(), " "))
	}
	if err := refuseFlags(c, "examples", "each example has its own launch", smLaunchFlags...); err != nil {
		return err
	}
	cfg, h, cov, err := smSetup(c)
	if err != nil {
		return err
	}
	exs, err := cosim.SMExamples(cfg)
	if err != nil {
		return cosimFailed(err)
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt)
	defer stop()
	ran, refused := 0, 0
	var cycles uint64
	for _, x := range exs {
		if x.Refused != nil {
			refused++
			if !c.Bool("quiet") {
				fmt.Fprintf(c.App.Writer, "%-18s not run: %v\n", x.Name, x.Refused)
			}
			continue
		}
		o := x.Options
		o.Harness, o.VCDDir = h, c.String("vcd")
		if cov != nil {
			o.Coverage = cov.Part()
		}
		res, err := cosim.RunSM(ctx, o)
		if err := smRunError(res, err); err != nil {
			return fmt.Errorf("example %s: %w", x.Name, err)
		}
		ran++
		cycles += res.Cycles
		if !c.Bool("quiet") {
			fmt.Fprintf(c.App.Writer, "%-18s %d cycles, 0 mismatches, %d buffers equal (run %s)\n", x.Name, res.Cycles, len(o.Launch.Buffers), res.Status)
		}
	}
	if ran == 0 {
		return cosimBad("no example runs on the SM RTL at this configuration")
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.Writer, "sm_top: %d examples, %d cycles, 0 mismatches, equal buffers (%d not run)\n", ran, cycles, refused)
	}
	return coverageReport(c, ctx, cov, h)
}
