package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trace"
)

// launchFlags describe one launch: the kernel, its shape, its buffers
// and arguments (run, debug and cosim --from-kernel; buildLaunch reads
// them).
func launchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "entry", Usage: "kernel to run (default: the only .entry)"},
		&cli.StringFlag{Name: "grid", Value: "1", Usage: "grid shape X[,Y[,Z]] in CTAs"},
		&cli.StringFlag{Name: "block", Value: "32", Usage: "CTA shape X[,Y[,Z]] in threads"},
		&cli.StringFlag{Name: "cluster", Usage: "cluster shape X[,Y[,Z]] in CTAs (explicit cluster launch)"},
		&cli.StringFlag{Name: "dynamic-smem", Value: "0", Usage: "dynamic shared memory per CTA, bytes"},
		&cli.StringSliceFlag{Name: "buf", Usage: "PARAM=BYTES binds a pointer parameter to a zeroed buffer; PARAM=@file.bin loads it from a file; PARAM=@OTHER[+OFFSET] points it into OTHER's buffer (the same buffer twice, or its middle) (PARAM, OTHER: PTX name or position)"},
		&cli.StringSliceFlag{Name: "arg", Usage: "PARAM=VALUE sets a scalar parameter: an integer (-3, 0x10), a float32 (1.5f) or a float64 (2.0d) (PARAM: PTX name or position)"},
		&cli.StringSliceFlag{Name: "const", Usage: "NAME=@file.bin fills the module's __constant__ (.const) or .global variable NAME with the file's bytes (repeatable)"},
		&cli.StringFlag{Name: "maxnreg", Usage: "per-thread register budget of the launch (default: the kernel's .maxnreg, else its register count)"},
		&cli.StringFlag{Name: "max-cycles", Usage: "stop after this many cycles (run.max_cycles; 0 = unlimited)"},
	}
}

// runFlags are the flags of every command that runs a kernel to its end
// (run, debug): the configuration, the launch and the host's policies.
func runFlags() []cli.Flag {
	fs := append(configFlags(), launchFlags()...)
	return append(fs,
		&cli.StringFlag{Name: "seed", Usage: "seed of every pseudo-random choice (run.seed)"},
		&cli.StringSliceFlag{Name: "out", Usage: "PARAM=file.bin writes the final bytes of the buffer bound to PARAM to the file (repeatable)"},
		&cli.StringFlag{Name: "check", Usage: "optional sanitizer checks, comma-separated: init (uninitialized reads), race (races between the warps of a CTA, and ld.global.nc data the kernel writes), sync (divergent barriers); a finding exits 1; memcheck is always on"},
		&cli.BoolFlag{Name: "json", Usage: "print exactly one JSON object on stdout"},
		&cli.StringFlag{Name: "trap-handler", Usage: "the .func entered on a trap or warp error (trap.handler); without one a trap ends the run"},
		&cli.StringFlag{Name: "on-trap", Value: "abort", Usage: "host policy on a trap: abort | resume (wake paused warps once every warp has paused or exited)"},
		&cli.StringFlag{Name: "on-break", Value: "abort", Usage: "host policy on brkpt: resume | abort"},
	)
}

// vcdFlags are the waveform flags of run and demo.
func vcdFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "vcd", Usage: "write a VCD of the run to FILE and a GTKWave save file FILE.gtkw beside it"},
		&cli.StringSliceFlag{Name: "vcd-scope", Usage: "dump only signals under these scope prefixes, e.g. sm_top.g_warp (comma-separated, repeatable)"},
		&cli.StringFlag{Name: "vcd-window", Usage: "dump only cycles START:END (START <= cycle < END; either side may be empty)"},
		&cli.BoolFlag{Name: "fst", Usage: "also convert the VCD to FST with vcd2fst; the save file opens the FST"},
	}
}

// attachTrace starts waveform tracing when --vcd is given; the returned
// function finishes the files (VCD, optional FST, .gtkw).
func attachTrace(c *cli.Context, log *logrus.Logger, sm *pipeline.SM) (func() error, error) {
	path := c.String("vcd")
	if path == "" {
		return func() error { return nil }, nil
	}
	opt := trace.Options{Scopes: trace.ParseScopes(c.StringSlice("vcd-scope")...), FST: c.Bool("fst")}
	if w := c.String("vcd-window"); w != "" {
		s, e, err := trace.ParseWindow(w)
		if err != nil {
			return nil, badInput(fmt.Errorf("--vcd-window %q: %v", w, err))
		}
		opt.Start, opt.End = s, e
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, badInput(err)
	}
	tr, err := trace.Attach(sm, f, opt)
	if err != nil {
		f.Close()
		return nil, badInput(err)
	}
	return func() error {
		err := tr.Close()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return abnormal(fmt.Errorf("--vcd %s: %v", path, err))
		}
		if opt.FST {
			if fst, err := trace.ConvertFST(path); err != nil {
				log.WithError(err).Warn("FST conversion failed; the VCD is complete")
				opt.FST = false
			} else {
				log.WithField("fst", fst).Info("converted")
			}
		}
		if err := trace.WriteGTKW(trace.SavePath(path), path, opt); err != nil {
			return abnormal(fmt.Errorf("GTKWave save file: %v", err))
		}
		return nil
	}, nil
}

func extraCommands(log *logrus.Logger) []*cli.Command {
	return []*cli.Command{
		{
			Name:      "run",
			Usage:     "run a kernel, or a launch plan (docs/host.md), on the SM model (exit 0 completed, 1 abnormal end, 2 bad input)",
			ArgsUsage: "KERNEL.ptx | PLAN.yaml",
			Flags:     append(runFlags(), vcdFlags()...),
			Action: func(c *cli.Context) error {
				if c.NArg() == 1 && isPlan(c.Args().First()) {
					return runPlan(c, log, c.Args().First())
				}
				im, spec, err := kernelArg(c)
				if err != nil {
					return err
				}
				return runKernel(c, log, im, spec)
			},
		},
		demoCommand(log),
		debugCommand(),
	}
}

// launchSpec is a parsed launch: everything runKernel needs from flags.
type launchSpec struct {
	cfg    config.Config
	launch pipeline.Launch
	outs   []outFile // --out
}

// outFile is one --out: the buffer bound to param, written to path after
// the run.
type outFile struct{ param, path string }

func parseDim(flag, s string) ([3]uint32, error) {
	d := [3]uint32{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 || s == "" {
		return d, badInput(fmt.Errorf("--%s %q: want X[,Y[,Z]]", flag, s))
	}
	for i, p := range parts {
		v, err := strconv.ParseUint(strings.TrimSpace(p), 0, 32)
		if err != nil || v == 0 {
			return d, badInput(fmt.Errorf("--%s %q: component %d must be a positive integer", flag, s, i))
		}
		d[i] = uint32(v)
	}
	return d, nil
}

func parseUintFlag(flag, s string, bits int) (uint64, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 0, bits)
	if err != nil {
		return 0, badInput(fmt.Errorf("--%s %q: not an unsigned %d-bit integer", flag, s, bits))
	}
	return v, nil
}

// paramSetting splits --flag's PARAM=VALUE setting kv (want describes
// the forms) and resolves PARAM to a parameter name of k.
func paramSetting(k *isa.Kernel, flag, kv, want string) (name, v string, err error) {
	p, v, ok := strings.Cut(kv, "=")
	if !ok {
		return "", "", badInput(fmt.Errorf("--%s %q: want %s", flag, kv, want))
	}
	name, err = paramName(k, flag, p)
	return name, v, err
}

// paramName resolves a PTX parameter name or position.
func paramName(k *isa.Kernel, flag, p string) (string, error) {
	for _, kp := range k.Params {
		if kp.Name == p {
			return p, nil
		}
	}
	if i, err := strconv.Atoi(p); err == nil {
		if i >= 0 && i < len(k.Params) {
			return k.Params[i].Name, nil
		}
		return "", badInput(fmt.Errorf("--%s %s: kernel %s has %d parameters (positions 0..%d)", flag, p, k.Name, len(k.Params), len(k.Params)-1))
	}
	var names []string
	for _, kp := range k.Params {
		names = append(names, kp.Name)
	}
	return "", badInput(fmt.Errorf("--%s %s: kernel %s has no parameter %q (parameters: %s)", flag, p, k.Name, p, strings.Join(names, ", ")))
}

// checkVCDFlags refuses waveform options without --vcd.
func checkVCDFlags(c *cli.Context) error {
	if c.String("vcd") != "" {
		return nil
	}
	for _, f := range []string{"vcd-scope", "vcd-window", "fst"} {
		if c.IsSet(f) {
			return badInput(fmt.Errorf("--%s needs --vcd FILE", f))
		}
	}
	return nil
}

// checkFlag reads --check.
func checkFlag(c *cli.Context) (pipeline.Checks, error) {
	ch, err := pipeline.ParseChecks(c.String("check"))
	if err != nil {
		return ch, badInput(fmt.Errorf("--check: %v", err))
	}
	return ch, nil
}

// applyRunFlags applies --seed, --trap-handler and --max-cycles.
func applyRunFlags(c *cli.Context, cfg *config.Config) error {
	if s := c.String("seed"); s != "" {
		v, err := parseUintFlag("seed", s, 64)
		if err != nil {
			return err
		}
		cfg.Run.Seed = v
	}
	if h := c.String("trap-handler"); h != "" {
		cfg.Trap.Handler = h
	}
	if s := c.String("max-cycles"); s != "" {
		v, err := parseUintFlag("max-cycles", s, 64)
		if err != nil {
			return err
		}
		cfg.Run.MaxCycles = v
	}
	return nil
}

func buildLaunch(c *cli.Context, im *isa.Image) (*launchSpec, error) {
	if err := checkVCDFlags(c); err != nil {
		return nil, err
	}
	cfg, err := loadConfig(c)
	if err != nil {
		return nil, err
	}
	if err := applyRunFlags(c, &cfg); err != nil {
		return nil, err
	}
	checks, err := checkFlag(c)
	if err != nil {
		return nil, err
	}
	entry := c.String("entry")
	if entry == "" {
		switch len(im.Kernels) {
		case 0:
			return nil, badInput(fmt.Errorf("the module has no .entry"))
		case 1:
			entry = im.Kernels[0].Name
		default:
			var names []string
			for _, k := range im.Kernels {
				names = append(names, k.Name)
			}
			return nil, badInput(fmt.Errorf("the module has %d kernels; choose one with --entry (%s)", len(names), strings.Join(names, ", ")))
		}
	}
	k, ok := im.Kernel(entry)
	if !ok {
		var names []string
		for _, k := range im.Kernels {
			names = append(names, k.Name)
		}
		return nil, badInput(fmt.Errorf("--entry %s: no such kernel (kernels: %s)", entry, strings.Join(names, ", ")))
	}
	l := pipeline.Launch{Entry: entry, Args: map[string]uint64{}, Checks: checks}
	if l.Grid, err = parseDim("grid", c.String("grid")); err != nil {
		return nil, err
	}
	if l.Block, err = parseDim("block", c.String("block")); err != nil {
		return nil, err
	}
	if s := c.String("cluster"); s != "" {
		if l.Cluster, err = parseDim("cluster", s); err != nil {
			return nil, err
		}
	}
	ds, err := parseUintFlag("dynamic-smem", c.String("dynamic-smem"), 32)
	if err != nil {
		return nil, err
	}
	l.DynamicSmem = uint32(ds)
	if s := c.String("maxnreg"); s != "" {
		v, err := parseUintFlag("maxnreg", s, 16)
		if err != nil {
			return nil, err
		}
		l.MaxNReg = uint32(v)
	}
	for _, kv := range c.StringSlice("buf") {
		name, v, err := paramSetting(k, "buf", kv, "PARAM=BYTES, PARAM=@file or PARAM=@OTHER[+OFFSET]")
		if err != nil {
			return nil, err
		}
		b := pipeline.Buffer{Param: name}
		if other, off, isAlias, err := aliasOf(k, v); err != nil {
			return nil, badInput(fmt.Errorf("--buf %s: %v", kv, err))
		} else if isAlias {
			b.Alias, b.Offset = other, off
		} else if strings.HasPrefix(v, "@") {
			data, err := os.ReadFile(v[1:])
			if err != nil {
				return nil, badInput(fmt.Errorf("--buf %s: %v", kv, err))
			}
			b.Size, b.Init = len(data), data
		} else {
			n, err := parseUintFlag("buf", v, 31)
			if err != nil {
				return nil, err
			}
			b.Size = int(n)
		}
		l.Buffers = append(l.Buffers, b)
	}
	for _, kv := range c.StringSlice("arg") {
		name, v, err := paramSetting(k, "arg", kv, "PARAM=VALUE")
		if err != nil {
			return nil, err
		}
		val, err := parseArgValue(v)
		if err != nil {
			return nil, badInput(fmt.Errorf("--arg %s: %v", kv, err))
		}
		l.Args[name] = val
	}
	for _, kv := range c.StringSlice("const") {
		name, file, ok := strings.Cut(kv, "=@")
		if !ok || name == "" || file == "" {
			return nil, badInput(fmt.Errorf("--const %q: want NAME=@file.bin", kv))
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, badInput(fmt.Errorf("--const %s: %v", kv, err))
		}
		if l.Vars == nil {
			l.Vars = map[string][]byte{}
		}
		l.Vars[name] = data
	}
	var outs []outFile
	for _, kv := range c.StringSlice("out") {
		p, path, ok := strings.Cut(kv, "=")
		if !ok || path == "" {
			return nil, badInput(fmt.Errorf("--out %q: want PARAM=file.bin", kv))
		}
		name, err := paramName(k, "out", p)
		if err != nil {
			return nil, err
		}
		found := false
		for _, b := range l.Buffers {
			found = found || b.Param == name
		}
		if !found {
			return nil, badInput(fmt.Errorf("--out %s: parameter %s is bound to no buffer (give it one with --buf)", kv, name))
		}
		outs = append(outs, outFile{name, path})
	}
	return &launchSpec{cfg: cfg, launch: l, outs: outs}, nil
}

// parseArgValue accepts unsigned, negative (two's complement) and hex
// integers, and typed floating-point scalars: 1.5f is a float32 (its 32
// IEEE-754 bits), 2.0d a float64. A hex literal (0x1f) is an integer.
func parseArgValue(s string) (uint64, error) {
	if v, err := strconv.ParseUint(s, 0, 64); err == nil {
		return v, nil
	}
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return uint64(v), nil
	}
	hex := strings.HasPrefix(strings.TrimLeft(s, "+-"), "0x") || strings.HasPrefix(strings.TrimLeft(s, "+-"), "0X")
	if n := len(s); n > 1 && !hex {
		switch s[n-1] {
		case 'f', 'F':
			if f, err := strconv.ParseFloat(s[:n-1], 32); err == nil {
				return uint64(math.Float32bits(float32(f))), nil
			}
		case 'd', 'D':
			if f, err := strconv.ParseFloat(s[:n-1], 64); err == nil {
				return math.Float64bits(f), nil
			}
		}
	}
	return 0, fmt.Errorf("%q is neither an integer (-3, 0x10) nor a typed float (1.5f, 2.0d)", s)
}

// aliasOf reads "@OTHER[+OFFSET]" of --buf: a pointer into the buffer of
// kernel parameter OTHER (PTX name or position). It reports false (and no
// error) for anything else, such as "@file.bin".
func aliasOf(k *isa.Kernel, v string) (other string, off int, ok bool, err error) {
	ref, ok := strings.CutPrefix(v, "@")
	if !ok {
		return "", 0, false, nil
	}
	ref, offs, hasOff := strings.Cut(ref, "+")
	var name string
	for i, p := range k.Params {
		if p.Name == ref || strconv.Itoa(i) == ref {
			name = p.Name
		}
	}
	if name == "" {
		return "", 0, false, nil
	}
	if hasOff {
		o, perr := strconv.ParseUint(offs, 0, 31)
		if perr != nil {
			return "", 0, true, fmt.Errorf("offset %q: want a byte count", offs)
		}
		off = int(o)
	}
	return name, off, true, nil
}

// kernelArg loads the kernel named by the command's one argument (.ptx,
// disassembly or image) and its launch from the launch flags (run, debug).
func kernelArg(c *cli.Context) (*isa.Image, *launchSpec, error) {
	path, err := oneArg(c, "KERNEL.ptx")
	if err != nil {
		return nil, nil, err
	}
	return kernelFile(c, path)
}

// kernelFile loads the kernel in path and its launch from the launch flags
// (kernelArg; cosim --from-kernel).
func kernelFile(c *cli.Context, path string) (*isa.Image, *launchSpec, error) {
	im, err := loadImage(path)
	if err != nil {
		return nil, nil, err
	}
	spec, err := buildLaunch(c, im)
	if err != nil {
		return nil, nil, err
	}
	return im, spec, nil
}

func runKernel(c *cli.Context, log *logrus.Logger, im *isa.Image, spec *launchSpec) error {
	sm, err := pipeline.New(spec.cfg, im, spec.launch)
	if err != nil {
		return badInput(err)
	}
	if err := sm.SetHostPolicy(c.String("on-trap"), c.String("on-break")); err != nil {
		return badInput(err)
	}
	finishTrace, err := attachTrace(c, log, sm)
	if err != nil {
		return err
	}
	log.WithFields(logrus.Fields{"entry": spec.launch.Entry, "grid": spec.launch.Grid, "block": spec.launch.Block}).Info("launch")
	start := time.Now()
	rep, err := runSM(sm, c.App.ErrWriter)
	if err != nil {
		return abnormal(err)
	}
	if err := finishTrace(); err != nil {
		return err
	}
	for _, o := range spec.outs {
		data, _ := sm.BufferBytes(o.param)
		if err := os.WriteFile(o.path, data, 0o644); err != nil {
			return abnormal(fmt.Errorf("--out %s: %v", o.param, err))
		}
	}
	log.WithFields(logrus.Fields{"cycles": rep.Cycles, "wall": time.Since(start).Round(time.Millisecond)}).Info("done")
	if c.Bool("json") {
		if err := jsonOut(c, rep); err != nil {
			return err
		}
	} else {
		writeSummary(c.App.Writer, rep)
	}
	if rep.Status != pipeline.StatusCompleted || len(rep.Sanitizer) > 0 {
		return abnormal(nil) // the summary or the JSON says why
	}
	return nil
}

// runSM runs to the end; when stderr is a terminal it shows a progress line.
func runSM(sm *pipeline.SM, stderr io.Writer) (*pipeline.Report, error) {
	f, ok := stderr.(*os.File)
	if !ok {
		return sm.Run()
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return sm.Run()
	}
	last := time.Now()
	shown := false
	for sm.RunFor(1 << 18) {
		if time.Since(last) > 500*time.Millisecond {
			last = time.Now()
			fmt.Fprintf(f, "\rsmsim: cycle %d ...", sm.Cycle())
			shown = true
		}
	}
	if shown {
		fmt.Fprint(f, "\r\033[K")
	}
	return sm.Report(), nil
}

func writeSummary(w io.Writer, rep *pipeline.Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "status\t%s\n", rep.Status)
	fmt.Fprintf(tw, "cycles\t%d\n", rep.Cycles)
	fmt.Fprintf(tw, "warp instructions\t%d\n", rep.WarpInstructions)
	fmt.Fprintf(tw, "thread instructions\t%d\n", rep.ThreadInstructions)
	fmt.Fprintf(tw, "IPC (warp instr./cycle)\t%.3f\n", rep.IPC)
	tw.Flush()
	if len(rep.Stalls) > 0 {
		fmt.Fprintln(w, "\nwarp states (warp-cycles of resident warps):")
		type kv struct {
			k string
			v uint64
		}
		var all []kv
		var total uint64
		for k, v := range rep.Stalls {
			if k == "idle" || v == 0 {
				continue // empty warp slots, states never seen
			}
			all = append(all, kv{k, v})
			total += v
		}
		sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v || all[i].v == all[j].v && all[i].k < all[j].k })
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, e := range all {
			fmt.Fprintf(tw, "  %s\t%d\t%5.1f%%\t\n", e.k, e.v, 100*float64(e.v)/float64(max(total, 1)))
		}
		tw.Flush()
	}
	if len(rep.Metrics) > 0 {
		fmt.Fprintln(w, "\nmemory metrics (Nsight Compute names):")
		names := make([]string, 0, len(rep.Metrics))
		for k := range rep.Metrics {
			names = append(names, k)
		}
		sort.Strings(names)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, k := range names {
			fmt.Fprintf(tw, "  %s\t%s\n", k, strconv.FormatFloat(rep.Metrics[k], 'f', -1, 64))
		}
		tw.Flush()
	}
	writeBuffers(w, rep.Buffers)
	for _, e := range rep.Errors {
		fmt.Fprintf(w, "\n%s: warp %d pc %d %s: %s\n    %s\n", e.Kind, e.Warp, e.PC, e.Line, e.Message, e.Source)
	}
	if len(rep.Sanitizer) > 0 {
		fmt.Fprintln(w, "\nsanitizer:")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  kind\tspace\tcta\twarp\tlane\tpc\tline\taddress\tsize\tallocation\tdistance\tdetail")
		for _, s := range rep.Sanitizer {
			alloc := "-"
			if a := s.Allocation; a != nil {
				alloc = fmt.Sprintf("%s [%#x, %#x)", a.Name, a.Begin, a.End)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d,%d,%d\t%d\t%d\t%d\t%s\t%#x\t%d\t%s\t%d\t%s\n", s.Kind, s.Space, s.CTA[0], s.CTA[1], s.CTA[2], s.Warp, s.Lane, s.PC, s.Line, s.Address, s.Size, alloc, s.Distance, s.Detail)
		}
		tw.Flush()
		if rep.SanitizerDropped > 0 {
			fmt.Fprintf(w, "  (%d more not listed)\n", rep.SanitizerDropped)
		}
	}
}

func jsonOut(c *cli.Context, rep *pipeline.Report) error {
	if err := json.NewEncoder(c.App.Writer).Encode(rep); err != nil {
		return abnormal(err)
	}
	return nil
}

// writeBuffers lists each buffer's first 16 words, in name order (the run
// and the plan summaries end the same way).
func writeBuffers(w io.Writer, bufs map[string][]uint32) {
	if len(bufs) == 0 {
		return
	}
	fmt.Fprintln(w, "\nbuffers:")
	for _, n := range slices.Sorted(maps.Keys(bufs)) {
		words := bufs[n]
		fmt.Fprintf(w, "  %s (%d words):", n, len(words))
		for i, v := range words {
			if i == 16 {
				fmt.Fprintf(w, " ...")
				break
			}
			fmt.Fprintf(w, " %d", v)
		}
		fmt.Fprintln(w)
	}
}
