// Package cosimcli is the `smsim cosim` command: the Go model and the
// Verilated RTL of a unit run in lockstep and compared every cycle
// (package cosim).
//
//	smsim cosim --unit warp_sched --cycles 1000000 --seed 7
//	smsim cosim --all
//	smsim cosim --from-kernel examples/demo_collatz.ptx --grid 4 --block 128
//	smsim cosim --unit warp_sched --set sched.policy=two_level --vcd out/
//
// Exit status: 0 when every cycle matched, 1 on a mismatch or when the RTL
// side failed (build, crash, hang, protocol), 2 on bad input. The errors
// carry the status as a cli.ExitCoder.
package cosimcli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/cosim/kernelrec"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// Command returns the `cosim` command.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "cosim",
		Usage: "run a unit's Go model and its Verilated RTL in lockstep, comparing every output and register every cycle",
		Description: "Without --from-kernel the inputs are seeded constrained-random stimulus; with it, the inputs\n" +
			"the unit saw in a full-SM run of the kernel (run flags as for `smsim run`). The unit's parameters\n" +
			"come from the configuration (--preset, --config, --set); --all runs every unit at each of its\n" +
			"standard parameter sets. Units: " + strings.Join(cosim.UnitNames(), ", ") + ".\n" +
			"Exit status: 0 no mismatch, 1 mismatch or RTL failure, 2 bad input.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "unit", Usage: "the unit to cosimulate: " + strings.Join(cosim.UnitNames(), ", ")},
			&cli.BoolFlag{Name: "all", Usage: "every unit at each of its standard parameter sets"},
			&cli.StringFlag{Name: "cycles", Value: "100000", Usage: "cycles of random stimulus per unit"},
			&cli.StringFlag{Name: "seed", Value: "1", Usage: "seed of the random stimulus (with --from-kernel: run.seed)"},
			&cli.StringFlag{Name: "vcd", Usage: "write the waveforms of the whole run into this directory (default: only on a mismatch, into a temporary directory)"},
			&cli.StringFlag{Name: "from-kernel", Usage: "record the unit's inputs from a full-SM run of this kernel (.ptx, disassembly or image) and replay them"},
			&cli.StringFlag{Name: "batch", Value: "4096", Usage: "cycles per harness message"},
			&cli.DurationFlag{Name: "timeout", Value: 60 * time.Second, Usage: "how long to wait for each harness reply"},
			&cli.BoolFlag{Name: "tcp", Usage: "talk to the harness over TCP on 127.0.0.1 instead of a Unix socket"},
			&cli.StringFlag{Name: "rtl-dir", Usage: "build the RTL from this directory instead of verilog/rtl (e.g. a modified copy)"},
			&cli.BoolFlag{Name: "quiet", Usage: "print only mismatches and errors"},
			// The configuration, as for every command that runs the model.
			&cli.StringFlag{Name: "config", Usage: "YAML configuration file"},
			&cli.StringFlag{Name: "preset", Value: "h100", Usage: "base preset: " + strings.Join(config.Presets(), ", ")},
			&cli.StringSliceFlag{Name: "set", Usage: "override one key: --set sched.policy=gto (repeatable)"},
			// Launch flags for --from-kernel, as for `smsim run`.
			&cli.StringFlag{Name: "entry", Usage: "kernel to run (default: the only .entry)"},
			&cli.StringFlag{Name: "grid", Value: "1", Usage: "grid shape X[,Y[,Z]] in CTAs"},
			&cli.StringFlag{Name: "block", Value: "32", Usage: "CTA shape X[,Y[,Z]] in threads"},
			&cli.StringFlag{Name: "cluster", Usage: "cluster shape X[,Y[,Z]] in CTAs"},
			&cli.StringFlag{Name: "dynamic-smem", Value: "0", Usage: "dynamic shared memory per CTA, bytes"},
			&cli.StringSliceFlag{Name: "buf", Usage: "PARAM=BYTES or PARAM=@file.bin binds a pointer parameter to a buffer"},
			&cli.StringSliceFlag{Name: "arg", Usage: "PARAM=VALUE sets a scalar parameter"},
			&cli.StringFlag{Name: "maxnreg", Usage: "per-thread register budget of the launch"},
			&cli.StringFlag{Name: "max-cycles", Usage: "stop the kernel run after this many cycles (run.max_cycles)"},
		},
		Action: action,
	}
}

func badInput(format string, args ...any) error {
	return cli.Exit("smsim cosim: "+fmt.Sprintf(format, args...), 2)
}

func failed(err error) error { return cli.Exit("smsim cosim: "+err.Error(), 1) }

type job struct {
	name string
	unit cosim.Unit
	src  func() cosim.Stimulus
	n    uint64 // cycles (0: the whole stream)
}

func action(c *cli.Context) error {
	if c.NArg() > 0 {
		return badInput("unexpected arguments: %s", strings.Join(c.Args().Slice(), " "))
	}
	cycles, err := parseUint("cycles", c.String("cycles"), 64)
	if err != nil {
		return err
	}
	seed, err := parseUint("seed", c.String("seed"), 64)
	if err != nil {
		return err
	}
	batch, err := parseUint("batch", c.String("batch"), 24)
	if err != nil || batch == 0 {
		return badInput("--batch: want 1..16777215")
	}
	unit, all, kernel := c.String("unit"), c.Bool("all"), c.String("from-kernel")
	switch {
	case all && unit != "":
		return badInput("--all and --unit exclude each other")
	case !all && unit == "" && kernel == "":
		return badInput("say which unit: --unit %s, or --all", strings.Join(cosim.UnitNames(), "|"))
	case all && kernel != "":
		return badInput("--all and --from-kernel exclude each other")
	}
	if unit != "" {
		if _, ok := cosim.LookupUnit(unit); !ok {
			return badInput("--unit %s: no such unit (units: %s)", unit, strings.Join(cosim.UnitNames(), ", "))
		}
	}
	cfg, err := loadConfig(c)
	if err != nil {
		return err
	}
	var jobs []job
	switch {
	case kernel != "":
		jobs, err = kernelJobs(c, cfg, kernel, seed, unit)
		if err != nil {
			return err
		}
	case all:
		for _, info := range cosim.Units() {
			sets, err := info.Sets()
			if err != nil {
				return failed(err)
			}
			for _, u := range sets {
				jobs = append(jobs, randomJob(u, seed, cycles))
			}
		}
	default:
		info, _ := cosim.LookupUnit(unit)
		u, err := info.FromConfig(cfg)
		if err != nil {
			return badInput("%s at this configuration: %v", unit, err)
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
			return badInput("--rtl-dir %s: not a directory", d)
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
				return failed(err)
			}
		}
		res, err := cosim.RunSession(ctx, sess, j.src, o)
		var m *cosim.Mismatch
		switch {
		case errors.As(err, &m):
			mismatches++
			fmt.Fprintln(errw, m.Error())
		case err != nil:
			return failed(err)
		case !c.Bool("quiet"):
			fmt.Fprintf(out, "%s: %d cycles, 0 mismatches (%.0f cycles/s)\n", j.name, res.Cycles, res.Rate())
			if res.Waves != nil {
				fmt.Fprintf(out, "  waveforms: %s (Go), %s (Verilator); side by side: gtkwave %s\n", res.Waves.GoVCD, res.Waves.RTLVCD, res.Waves.GTKW)
			}
		}
	}
	if mismatches > 0 {
		return cli.Exit(fmt.Sprintf("smsim cosim: %d of %d runs mismatched", mismatches, len(jobs)), 1)
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

func kernelJobs(c *cli.Context, cfg config.Config, file string, seed uint64, unit string) ([]job, error) {
	im, err := loadImage(file)
	if err != nil {
		return nil, err
	}
	cfg.Run.Seed = seed
	if s := c.String("max-cycles"); s != "" {
		v, err := parseUint("max-cycles", s, 64)
		if err != nil {
			return nil, err
		}
		cfg.Run.MaxCycles = v
	}
	l, err := buildLaunch(c, im)
	if err != nil {
		return nil, err
	}
	rec, err := kernelrec.Record(cfg, im, l)
	if err != nil {
		var le *pipeline.LaunchError
		if errors.As(err, &le) {
			return nil, badInput("%v", err)
		}
		return nil, failed(err)
	}
	if rec.Divergence != "" {
		// The SM and a Go warp_sched on the recorded inputs disagree: the
		// recording is not what the SM's schedulers saw.
		return nil, failed(fmt.Errorf("--from-kernel: inconsistent recording: %s", rec.Divergence))
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
		return nil, badInput("--from-kernel: nothing recorded for unit %q", unit)
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

func parseUint(flag, s string, bits int) (uint64, error) {
	v, err := strconv.ParseUint(s, 0, bits)
	if err != nil {
		return 0, badInput("--%s %q: want an unsigned integer of at most %d bits", flag, s, bits)
	}
	return v, nil
}

func loadConfig(c *cli.Context) (config.Config, error) {
	cfg, err := config.Preset(c.String("preset"))
	if err != nil {
		return cfg, badInput("--preset: %v", err)
	}
	if f := c.String("config"); f != "" {
		if cfg, err = config.Load(f, cfg); err != nil {
			return cfg, badInput("%v", err)
		}
	}
	for _, kv := range c.StringSlice("set") {
		if err := cfg.Set(kv); err != nil {
			return cfg, badInput("--set %s: %v", kv, err)
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, badInput("%v", err)
	}
	return cfg, nil
}

// loadImage reads a .ptx, an smsim disassembly or a binary image.
func loadImage(path string) (*isa.Image, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, badInput("--from-kernel: %v", err)
	}
	var im *isa.Image
	switch {
	case bytes.HasPrefix(data, []byte("SMSIMIMG")):
		im, err = isa.Unmarshal(data)
	case bytes.HasPrefix(bytes.TrimSpace(data), []byte(".smsim_image")):
		im, err = isa.ParseDisasm(path, data)
	default:
		im, err = isa.AssembleSource(path, data)
	}
	if err != nil {
		return nil, badInput("--from-kernel %s: %v", path, err)
	}
	return im, nil
}

func parseDim(flag, s string) ([3]uint32, error) {
	d := [3]uint32{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return d, badInput("--%s %q: at most three dimensions", flag, s)
	}
	for i, p := range parts {
		v, err := strconv.ParseUint(strings.TrimSpace(p), 0, 32)
		if err != nil || v == 0 {
			return d, badInput("--%s %q: want positive integers X[,Y[,Z]]", flag, s)
		}
		d[i] = uint32(v)
	}
	return d, nil
}

// paramName resolves a kernel parameter given by PTX name or position.
func paramName(k *isa.Kernel, flag, p string) (string, error) {
	for _, kp := range k.Params {
		if kp.Name == p {
			return p, nil
		}
	}
	if i, err := strconv.Atoi(p); err == nil && i >= 0 && i < len(k.Params) {
		return k.Params[i].Name, nil
	}
	return "", badInput("--%s %s: kernel %s has no parameter %q", flag, p, k.Name, p)
}

func buildLaunch(c *cli.Context, im *isa.Image) (pipeline.Launch, error) {
	l := pipeline.Launch{Args: map[string]uint64{}}
	entry := c.String("entry")
	if entry == "" {
		if len(im.Kernels) != 1 {
			var names []string
			for _, k := range im.Kernels {
				names = append(names, k.Name)
			}
			return l, badInput("the module has %d kernels; choose one with --entry (%s)", len(im.Kernels), strings.Join(names, ", "))
		}
		entry = im.Kernels[0].Name
	}
	k, ok := im.Kernel(entry)
	if !ok {
		return l, badInput("--entry %s: no such kernel", entry)
	}
	l.Entry = entry
	var err error
	if l.Grid, err = parseDim("grid", c.String("grid")); err != nil {
		return l, err
	}
	if l.Block, err = parseDim("block", c.String("block")); err != nil {
		return l, err
	}
	if s := c.String("cluster"); s != "" {
		if l.Cluster, err = parseDim("cluster", s); err != nil {
			return l, err
		}
	}
	ds, err := parseUint("dynamic-smem", c.String("dynamic-smem"), 32)
	if err != nil {
		return l, err
	}
	l.DynamicSmem = uint32(ds)
	if s := c.String("maxnreg"); s != "" {
		v, err := parseUint("maxnreg", s, 16)
		if err != nil {
			return l, err
		}
		l.MaxNReg = uint32(v)
	}
	for _, kv := range c.StringSlice("buf") {
		p, v, ok := strings.Cut(kv, "=")
		if !ok {
			return l, badInput("--buf %q: want PARAM=BYTES or PARAM=@file", kv)
		}
		name, err := paramName(k, "buf", p)
		if err != nil {
			return l, err
		}
		b := pipeline.Buffer{Param: name}
		if strings.HasPrefix(v, "@") {
			data, err := os.ReadFile(v[1:])
			if err != nil {
				return l, badInput("--buf %s: %v", kv, err)
			}
			b.Size, b.Init = len(data), data
		} else {
			n, err := parseUint("buf", v, 31)
			if err != nil {
				return l, err
			}
			b.Size = int(n)
		}
		l.Buffers = append(l.Buffers, b)
	}
	for _, kv := range c.StringSlice("arg") {
		p, v, ok := strings.Cut(kv, "=")
		if !ok {
			return l, badInput("--arg %q: want PARAM=VALUE", kv)
		}
		name, err := paramName(k, "arg", p)
		if err != nil {
			return l, err
		}
		x, err := strconv.ParseUint(v, 0, 64)
		if err != nil {
			y, err2 := strconv.ParseInt(v, 0, 64)
			if err2 != nil {
				return l, badInput("--arg %s: %q is not an integer", kv, v)
			}
			x = uint64(y)
		}
		l.Args[name] = x
	}
	return l, nil
}

// Main runs the command as a program of its own (tests, or a build
// without cmd/smsim): it returns the exit status.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	app := &cli.App{
		Name:           "smsim",
		Writer:         stdout,
		ErrWriter:      stderr,
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       []*cli.Command{Command()},
	}
	err := app.RunContext(ctx, append([]string{"smsim", "cosim"}, args...))
	if err == nil {
		return 0
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(stderr, msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "smsim cosim:", err)
	return 2
}
