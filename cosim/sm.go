package cosim

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/unitcfg"
)

// The SM lockstep (docs/sm-rtl.md section 4): the Go SM and the Verilated
// SM (verilog/rtl/sm_top.sv in the bench verilog/dv/sm_tb.sv) run the
// same launch; the bench streams one record per cycle on a pipe and the
// Go side steps its SM one cycle per record and compares.

// SMOptions say what to run and where.
type SMOptions struct {
	Config config.Config
	Image  *isa.Image
	Launch pipeline.Launch
	// Harness: VerilogDir, BuildDir, RTLDir (a mutated copy, or a user's
	// design), Binary (a bench to run instead of building one), BuildLog.
	Harness HarnessOptions
	// WorkDir receives the image files and the memory dump (default: a
	// temporary directory, removed afterwards).
	WorkDir string
	// MaxCycles bounds the run (default: run.max_cycles, else 1,000,000).
	MaxCycles uint64
	// VCDDir receives the waveforms of a mismatch (docs/sm-rtl.md section
	// 4): the run is replayed with a traced bench (BuildSMTrace) over the
	// Window cycles before the mismatch and a few after, and the Go SM's
	// VCD, the bench's Verilator VCD, both side by side and a GTKWave save
	// file are written there. Default: a fresh temporary directory, kept
	// and named in the report. NoWaves skips them.
	VCDDir  string
	Window  int // cycles traced before a mismatch (default 64)
	NoWaves bool
	// RTLOnly runs the Verilated SM alone, for speed measurements
	// (bench/cosim): nothing is compared, the result holds the bench's
	// cycles and Elapsed. Its record stream is off, or, with RTLRecords,
	// written and discarded.
	RTLOnly, RTLRecords bool
	// Coverage, when set, runs the coverage bench (BuildSMCoverage, unless
	// Harness.Binary is one) and has it write its counts to this file at
	// the end of the run (SMCoverage collects and merges them).
	Coverage string
}

// smWaveTail is the number of cycles traced after a mismatch.
const smWaveTail = 8

// SMMismatch is the first difference between the two SMs.
type SMMismatch struct {
	Cycle   uint64
	Signal  string // the Verilog name, e.g. sm_top.u_issue_0.issue_pc_o
	Go, RTL string
	// History holds the last cycles' issue records (up to 16), oldest
	// first: "cycle N: go ... | rtl ...".
	History []string
	// GoFault names the Go model's fault when it faulted (bad_call_target,
	// stack_overflow, brx_index_out_of_range, ...): the RTL does not model
	// faults, so the run diverges there.
	GoFault string
	// Waves are the waveforms showing the mismatch (nil if they were not
	// written: WavesErr says why, when they failed).
	Waves    *Waves
	WavesErr error
}

func (m *SMMismatch) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "SM mismatch at cycle %d: %s: Go %s, RTL %s", m.Cycle, m.Signal, m.Go, m.RTL)
	if m.GoFault != "" {
		fmt.Fprintf(&b, "\nthe Go model faulted (the SM RTL does not model faults): %s", m.GoFault)
	}
	if len(m.History) > 0 {
		b.WriteString("\nissue history (last cycles):")
		for _, h := range m.History {
			b.WriteString("\n  " + h)
		}
	}
	if m.Waves != nil {
		fmt.Fprintf(&b, "\nwaveforms: %s (Go), %s (Verilator)\nside by side: gtkwave %s", m.Waves.GoVCD, m.Waves.RTLVCD, m.Waves.GTKW)
	}
	if m.WavesErr != nil {
		fmt.Fprintf(&b, "\nwaveforms: %v", m.WavesErr)
	}
	return b.String()
}

// SMResult is the outcome of a lockstep run.
type SMResult struct {
	Cycles   uint64      // cycles compared
	Status   string      // the Go run's status
	Mismatch *SMMismatch // nil: none
	// BufferDiffs lists the bound buffers whose final contents differ
	// ("param: byte N: Go x, RTL y").
	BufferDiffs []string
	// Elapsed is the lockstep's time, from the start of the bench to its
	// end (no build, no waveforms); BenchCPU the bench process's CPU time
	// (user and system), a figure a loaded machine disturbs less.
	Elapsed, BenchCPU time.Duration
}

// Rate is the lockstep speed in cycles per second.
func (r *SMResult) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Cycles) / r.Elapsed.Seconds()
}

// OK reports zero mismatches and equal buffers.
func (r *SMResult) OK() bool { return r.Mismatch == nil && len(r.BufferDiffs) == 0 }

// SMParams are the Verilog parameters of sm_tb (and sm_top) for cfg.
func SMParams(cfg config.Config) []Param {
	lat := func(v int) int { return max(v, 1) }
	pol, _ := unitcfg.Policy(cfg.Sched.Policy) // CheckSM took the policy
	return []Param{
		{"NumWarps", cfg.SM.MaxWarps},
		{"NumSched", cfg.Sched.Count},
		{"MaxRegs", smMaxRegs},
		{"MaxPreds", smMaxPreds},
		{"LatAlu", lat(cfg.Lat.ALU)},
		{"LatMul", lat(cfg.Lat.Mul)},
		{"LatDiv", lat(cfg.Lat.Div)},
		{"LatSReg", lat(cfg.Lat.SReg)},
		{"LatParam", lat(cfg.Lat.Param)},
		{"LatGlobal", lat(cfg.Lat.Global)},
		{"LatBranch", lat(cfg.Lat.Branch)},
		{"LatFetch", lat(cfg.Lat.Fetch)},
		{"LatShared", lat(cfg.Lat.Shared)},
		{"LatBarrier", lat(cfg.Lat.Barrier)},
		{"SmemBytes", max(cfg.SM.SmemBytes, 1)},
		{"LatLocal", lat(cfg.Lat.Local)},
		{"LocalBytes", max(cfg.SM.LocalBytes, 1)},
		{"GlobalPorts", cfg.Mem.GlobalPorts},
		{"Policy", int(pol)},
		{"MaxCtas", cfg.SM.MaxCTAs},
		{"TwoLevelActive", max(cfg.Sched.TwoLevelActive, 1)},
		{"SmId", cfg.SM.ID},
		{"NSmId", cfg.SM.Count},
		{"GlobalBytes", int(cfg.SM.GlobalBytes)},
		{"RetDepth", smRetDepth},
		{"MHz", cfg.Clock.MHz},
		{"ResolutionNsLo", int(cfg.Timer.ResolutionNs & 0xffffffff)},
		{"ResolutionNsHi", int(cfg.Timer.ResolutionNs >> 32)},
		{"TimerStartNsLo", int(cfg.Timer.StartNs & 0xffffffff)},
		{"TimerStartNsHi", int(cfg.Timer.StartNs >> 32)},
	}
}

// BuildSM builds (or finds up to date) the Verilated SM bench for cfg with
// make and returns its path. Builds share the unit harnesses' lock.
func BuildSM(ctx context.Context, cfg config.Config, opt HarnessOptions) (string, error) {
	return buildSM(ctx, cfg, opt, "sm", "")
}

// BuildSMTrace is BuildSM for the bench Verilated with --trace (make
// sm-trace), which writes a VCD of a window of cycles (+trace=): the
// waveforms of a mismatch.
func BuildSMTrace(ctx context.Context, cfg config.Config, opt HarnessOptions) (string, error) {
	return buildSM(ctx, cfg, opt, "sm-trace", "-trace")
}

// BuildSMCoverage is BuildSM for the bench Verilated with line and
// toggle coverage (make sm-cov), which writes its counts to +cov= at the
// end of a run (SMOptions.Coverage).
func BuildSMCoverage(ctx context.Context, cfg config.Config, opt HarnessOptions) (string, error) {
	return buildSM(ctx, cfg, opt, "sm-cov", "-cov")
}

func buildSM(ctx context.Context, cfg config.Config, opt HarnessOptions, target, suffix string) (string, error) {
	ps := SMParams(cfg)
	vdir, build, rtlDir, err := opt.dirs()
	herr := func(msg, out string, err error) error {
		return &HarnessError{Cause: CauseBuild, Module: "sm_tb", Params: ParamString(ps), Msg: msg, Stderr: tailLines(out, 40), Err: err}
	}
	if err != nil {
		return "", herr(err.Error(), "", err)
	}
	if suffix == "-cov" {
		// The coverage runtime, once for every set (under its own lock).
		if out, err := runMake(ctx, vdir, opt, "common-cov", "BUILD="+build); err != nil {
			return "", herr(err.Error(), out, err)
		}
	}
	set := ParamHash("sm_tb", ps)
	if out, err := runMake(ctx, vdir, opt, target, "SET="+set, "PARAMS="+ParamString(ps), "BUILD="+build, "RTL_DIR="+rtlDir); err != nil {
		return "", herr(err.Error(), out, err)
	}
	return filepath.Join(build, "sm-"+set+suffix, "sm"), nil
}

// smCycle is what both sides show in one cycle.
type smCycle struct {
	cycle uint64
	issue []pipeline.IssueOutputs
	wb    []pipeline.WritebackOutputs
	pcs   []uint32
	masks []uint32
	lsu   []pipeline.LSUOutputs
	trap  smTrapCycle
}

// smTrapCycle is the trap unit's registered outputs in a cycle (the Go
// unit's State, sm_top's trap_* ports): sm_trapped_o, warp_in_handler_o,
// warp_paused_o (bit w: warp slot w), global_esr_o, irq_count_o, and per
// warp slot warp_esr_o and resume_pc_o.
type smTrapCycle struct {
	trapped           bool
	inHandler, paused uint64
	globalESR         uint16
	irqCount          uint32
	esr               []uint16
	resumePC          []uint32
}

// smHandlerPC is the entry of the trap handler .func name (trap.handler)
// in im; false without one.
func smHandlerPC(im *isa.Image, name string) (uint32, bool) {
	if name == "" {
		return 0, false
	}
	for _, f := range im.Funcs {
		if !f.Kernel && f.Name == name {
			return f.PC, true
		}
	}
	return 0, false
}

// RunSM runs the lockstep. A launch outside the RTL's subset is an
// *UnsupportedError; a failure of the bench is a *HarnessError; a
// mismatch is in the result.
func RunSM(ctx context.Context, o SMOptions) (*SMResult, error) {
	if err := CheckSM(o.Config, o.Image, o.Launch); err != nil {
		return nil, err
	}
	sm, err := pipeline.New(o.Config, o.Image, o.Launch)
	if err != nil {
		return nil, err
	}
	bin := o.Harness.Binary
	switch {
	case bin != "":
	case o.Coverage != "":
		if bin, err = BuildSMCoverage(ctx, o.Config, o.Harness); err != nil {
			return nil, err
		}
	default:
		if bin, err = BuildSM(ctx, o.Config, o.Harness); err != nil {
			return nil, err
		}
	}
	dir := o.WorkDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "smsim-sm-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	k, _ := o.Image.Kernel(o.Launch.Entry)
	lo, hi, err := writeSMFiles(dir, o.Image, sm, o.Launch)
	if err != nil {
		return nil, err
	}
	maxCycles := o.MaxCycles
	if maxCycles == 0 {
		maxCycles = o.Config.Run.MaxCycles
	}
	if maxCycles == 0 {
		maxCycles = 1000000
	}
	bl, gr := o.Launch.Block, o.Launch.Grid
	rs := sm.ReservedSmem() // the CTA's user region [0, Begin), its allocation [0, End)
	cl, explicit := sm.ClusterShape()
	threads := bl[0] * bl[1] * bl[2]
	args := []string{
		"+code=" + filepath.Join(dir, "code.hex"), "+consts=" + filepath.Join(dir, "consts.hex"),
		"+param=" + filepath.Join(dir, "param.hex"), "+global=" + filepath.Join(dir, "global.hex"),
		"+brtables=" + filepath.Join(dir, "brtables.hex"),
		fmt.Sprintf("+entry=%d", k.PC), fmt.Sprintf("+nthreads=%d", threads),
		fmt.Sprintf("+nwarps=%d", (threads+31)/32), fmt.Sprintf("+max_cycles=%d", maxCycles),
		fmt.Sprintf("+ntid_x=%d", bl[0]), fmt.Sprintf("+ntid_y=%d", bl[1]), fmt.Sprintf("+ntid_z=%d", bl[2]),
		fmt.Sprintf("+nctaid_x=%d", gr[0]), fmt.Sprintf("+nctaid_y=%d", gr[1]), fmt.Sprintf("+nctaid_z=%d", gr[2]),
		fmt.Sprintf("+nctas=%d", uint64(gr[0])*uint64(gr[1])*uint64(gr[2])), fmt.Sprintf("+max_ctas=%d", sm.MaxResidentCTAs()),
		fmt.Sprintf("+smem_size=%d", rs.Begin), fmt.Sprintf("+smem_stride=%d", rs.End),
		fmt.Sprintf("+dyn_smem=%d", o.Launch.DynamicSmem), fmt.Sprintf("+explicit_cluster=%d", b2i(explicit)),
		fmt.Sprintf("+ncluster_x=%d", cl[0]), fmt.Sprintf("+ncluster_y=%d", cl[1]), fmt.Sprintf("+ncluster_z=%d", cl[2]),
		fmt.Sprintf("+dump_lo=%d", lo), fmt.Sprintf("+dump_hi=%d", hi),
		"+dump=" + filepath.Join(dir, "dump.hex"),
	}
	if o.Coverage != "" {
		args = append(args, "+cov="+o.Coverage)
	}
	if pc, ok := smHandlerPC(o.Image, o.Config.Trap.Handler); ok {
		args = append(args, "+has_handler=1", fmt.Sprintf("+handler_pc=%d", pc))
	}
	if o.RTLOnly {
		return runSMAlone(ctx, bin, args, o.RTLRecords)
	}
	res, err := runSMBench(ctx, bin, args, sm, 0)
	if err != nil {
		return nil, err
	}
	if m := res.Mismatch; m != nil {
		if !o.NoWaves {
			m.Waves, m.WavesErr = smWaves(ctx, o, m, args)
		}
		return res, nil
	}
	res.BufferDiffs, err = compareSMBuffers(sm, o.Launch, filepath.Join(dir, "dump.hex"), lo)
	return res, err
}

// runSMBench runs the bench bin with args and its record stream on a pipe
// (file descriptor 3), in lockstep with sm (lockstepSM; tail cycles after
// a mismatch).
func runSMBench(ctx context.Context, bin string, args []string, sm *pipeline.SM, tail uint64) (*SMResult, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, append(args[:len(args):len(args)], "+records_fd=3")...)
	cmd.ExtraFiles = []*os.File{pw}
	out := &tailBuffer{max: 8192}
	cmd.Stdout, cmd.Stderr = out, out
	t0 := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return nil, &HarnessError{Cause: CauseStart, Module: "sm_tb", Msg: err.Error(), Err: err}
	}
	res, runErr := lockstepSM(sm, pr, tail)
	if runErr != nil || res.Mismatch != nil {
		_ = cmd.Process.Kill() // the bench's run is of no more use
	}
	_, _ = io.Copy(io.Discard, pr)
	pr.Close()
	waitErr := cmd.Wait()
	if runErr != nil {
		return nil, &HarnessError{Cause: CauseProtocol, Module: "sm_tb", Msg: runErr.Error(), Stderr: out.Tail(), Err: runErr}
	}
	res.Elapsed = time.Since(t0)
	if st := cmd.ProcessState; st != nil {
		res.BenchCPU = st.UserTime() + st.SystemTime()
	}
	if res.Mismatch != nil {
		return res, nil
	}
	if waitErr != nil {
		return nil, &HarnessError{Cause: CauseExit, Module: "sm_tb", Msg: waitErr.Error(), Stderr: out.Tail(), Err: waitErr}
	}
	return res, nil
}

// runSMAlone runs the bench alone (SMOptions.RTLOnly): records off, or
// written to /dev/null.
func runSMAlone(ctx context.Context, bin string, args []string, records bool) (*SMResult, error) {
	args = args[:len(args):len(args)]
	cmd := exec.CommandContext(ctx, bin, args...)
	if records {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		defer null.Close()
		cmd.ExtraFiles = []*os.File{null}
		cmd.Args = append(cmd.Args, "+records_fd=3")
	}
	out := &tailBuffer{max: 8192}
	cmd.Stdout, cmd.Stderr = out, out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return nil, &HarnessError{Cause: CauseExit, Module: "sm_tb", Msg: err.Error(), Stderr: out.Tail(), Err: err}
	}
	res := &SMResult{Elapsed: time.Since(t0), BenchCPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	const done = "sm_tb: done at cycle "
	text := out.Tail()
	i := strings.LastIndex(text, done)
	if i < 0 {
		return nil, &HarnessError{Cause: CauseProtocol, Module: "sm_tb", Msg: "the bench did not say at which cycle it ended", Stderr: text}
	}
	f := strings.Fields(text[i+len(done):])
	if len(f) == 0 {
		return nil, &HarnessError{Cause: CauseProtocol, Module: "sm_tb", Msg: "the bench did not say at which cycle it ended", Stderr: text}
	}
	c, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return nil, &HarnessError{Cause: CauseProtocol, Module: "sm_tb", Msg: "bad end line: " + err.Error(), Stderr: text}
	}
	res.Cycles = c
	return res, nil
}

// lockstepSM steps sm one cycle per record of the bench's record stream r
// and compares. After a mismatch it steps on for tail more cycles without
// comparing (the waveforms' cycles after the mismatch), then returns.
func lockstepSM(sm *pipeline.SM, r io.Reader, tail uint64) (*SMResult, error) {
	res := &SMResult{}
	var g smCycle
	seen := false
	sm.OnCycle(func(ci *pipeline.CycleInfo) {
		seen = true
		g.cycle = ci.Cycle
		g.issue = append(g.issue[:0], sm.IssueOut()...)
		g.wb = append(g.wb[:0], sm.WritebackOut()...)
		g.pcs = append(g.pcs[:0], ci.PCs...)
		g.masks = append(g.masks[:0], ci.Masks...)
		g.lsu = append(g.lsu[:0], sm.LSUOut()...)
		q := sm.TrapStateRef()
		t := &g.trap
		t.trapped, t.inHandler, t.paused = q.SMTrapped, q.InHandler[0], q.Paused[0]
		t.globalESR, t.irqCount = q.GlobalESR, q.IRQCount
		nw := len(ci.PCs)
		t.esr, t.resumePC = resize(t.esr, nw), resize(t.resumePC, nw)
		for w := 0; w < nw; w++ {
			t.esr[w], t.resumePC[w] = uint16(q.WarpESR[w]), q.SavedPC[w]
		}
	})
	// The issue history: the last 16 cycles of both sides, formatted only
	// for a mismatch.
	type histCycle struct {
		c               uint64
		goSide, rtlSide []pipeline.IssueOutputs
	}
	var hist [16]histCycle
	nh := 0
	mismatch := func(c uint64, sig, gov, rtlv string) {
		var h []string
		for k := max(nh-len(hist), 0); k < nh; k++ {
			e := &hist[k%len(hist)]
			h = append(h, fmt.Sprintf("cycle %d: go %s | rtl %s", e.c, issueSummary(e.goSide), issueSummary(e.rtlSide)))
		}
		res.Mismatch = &SMMismatch{Cycle: c, Signal: sig, Go: gov, RTL: rtlv, History: h}
		res.Status = sm.Status()
		if res.Status == pipeline.StatusFault {
			for _, e := range sm.Report().Errors {
				if !e.Warning {
					res.Mismatch.GoFault = fmt.Sprintf("%s at pc %d (%s): %s", e.Kind, e.PC, e.Line, e.Message)
					break
				}
			}
		}
	}
	cfg := sm.Config()
	d := newSMRecReader(r)
	if err := d.header(cfg.Sched.Count, cfg.SM.MaxWarps); err != nil {
		if err == io.EOF {
			return nil, errors.New("the bench ended before its record stream began")
		}
		return nil, err
	}
	rt := &smCycle{}
	for {
		kind, c, err := d.next()
		if err == io.EOF {
			return nil, fmt.Errorf("the bench ended without a D record after cycle %d", res.Cycles)
		}
		if err != nil {
			return nil, err
		}
		seen = false
		sm.Step()
		if m := res.Mismatch; m != nil {
			if kind == 'D' || c >= m.Cycle+tail {
				return res, nil
			}
			continue
		}
		if kind == 'D' {
			res.Cycles, res.Status = c, sm.Status()
			if seen || sm.Cycle() != c {
				mismatch(c, "sm_top.done_o", "0", "1")
			} else if gs, rs := smStatusCode(res.Status), d.status; gs != rs && (rs != 0 || gs != 0) {
				// The outcome: done_o (completed) or the host agent's
				// stop (trapped); 0 is neither (the bench's +max_cycles).
				mismatch(c, "sm_tb.status", fmt.Sprintf("%d (%s)", gs, res.Status), fmt.Sprint(rs))
			}
			return res, nil
		}
		if !seen {
			mismatch(c, "sm_top.done_o", "1", "0")
		} else {
			d.fill(rt)
			rt.cycle = c
			if len(g.issue) != len(rt.issue) || len(g.pcs) != len(rt.pcs) {
				return nil, fmt.Errorf("cycle %d: the Go SM shows %d schedulers and %d warp slots, the bench's records %d and %d", c, len(g.issue), len(g.pcs), len(rt.issue), len(rt.pcs))
			}
			e := &hist[nh%len(hist)]
			e.c, e.goSide, e.rtlSide = c, append(e.goSide[:0], g.issue...), append(e.rtlSide[:0], rt.issue...)
			nh++
			if g.cycle != c {
				mismatch(c, "sm_top.cycle", fmt.Sprint(g.cycle), fmt.Sprint(c))
			} else if sig, gv, rv := compareSMCycle(&g, rt); sig != "" {
				mismatch(c, sig, gv, rv)
			} else {
				res.Cycles = c + 1
			}
		}
		if res.Mismatch != nil && tail == 0 {
			return res, nil
		}
	}
}

// smStatusCode is the end record's status of a Go run's status.
func smStatusCode(status string) uint64 {
	switch status {
	case pipeline.StatusCompleted:
		return smStatusCompleted
	case pipeline.StatusTrapped:
		return smStatusTrapped
	}
	return 0
}

func issueSummary(is []pipeline.IssueOutputs) string {
	var parts []string
	for s, o := range is {
		if !o.Valid {
			parts = append(parts, fmt.Sprintf("s%d -", s))
			continue
		}
		parts = append(parts, fmt.Sprintf("s%d w%d pc %d %s", s, o.Warp, o.PC, isa.Opcode(o.Op)))
	}
	return strings.Join(parts, ", ")
}

// compareSMCycle returns the first differing signal with both values
// ("" when the cycles agree).
func compareSMCycle(g, r *smCycle) (sig, gv, rv string) {
	b := func(x bool) string {
		if x {
			return "1"
		}
		return "0"
	}
	h := func(x uint64) string { return fmt.Sprintf("%#x", x) }
	// The scope names are formatted only for a mismatch.
	scope := func(format string, i int) func() string {
		return func() string { return fmt.Sprintf(format, i) }
	}
	for s := range g.issue {
		gi, ri := g.issue[s], r.issue[s]
		sc := scope(pipeline.ScopeIssue, s)
		switch {
		case gi.Valid != ri.Valid:
			return sc() + ".issue_valid_o", b(gi.Valid), b(ri.Valid)
		case gi.Warp != ri.Warp:
			return sc() + ".issue_warp_o", fmt.Sprint(gi.Warp), fmt.Sprint(ri.Warp)
		case gi.PC != ri.PC:
			return sc() + ".issue_pc_o", fmt.Sprint(gi.PC), fmt.Sprint(ri.PC)
		case gi.Op != ri.Op:
			return sc() + ".issue_op_o", fmt.Sprintf("%d (%s)", gi.Op, isa.Opcode(gi.Op)), fmt.Sprintf("%d (%s)", ri.Op, isa.Opcode(ri.Op))
		case gi.Mask != ri.Mask:
			return sc() + ".issue_mask_o", h(uint64(gi.Mask)), h(uint64(ri.Mask))
		case gi.Exec != ri.Exec:
			return sc() + ".issue_exec_o", h(uint64(gi.Exec)), h(uint64(ri.Exec))
		}
	}
	for s := range g.wb {
		gw, rw := g.wb[s], r.wb[s]
		sc := scope(pipeline.ScopeWriteback, s)
		switch {
		case gw.Valid != rw.Valid:
			return sc() + ".wb_valid_o", b(gw.Valid), b(rw.Valid)
		case gw.Warp != rw.Warp:
			return sc() + ".wb_warp_o", fmt.Sprint(gw.Warp), fmt.Sprint(rw.Warp)
		case gw.PC != rw.PC:
			return sc() + ".wb_pc_o", fmt.Sprint(gw.PC), fmt.Sprint(rw.PC)
		case gw.Count != rw.Count:
			return sc() + ".wb_count_o", fmt.Sprint(gw.Count), fmt.Sprint(rw.Count)
		}
	}
	for w := range g.pcs {
		sc := scope(pipeline.ScopeWarp, w)
		if g.pcs[w] != r.pcs[w] {
			return sc() + ".pc_q", fmt.Sprint(g.pcs[w]), fmt.Sprint(r.pcs[w])
		}
		if g.masks[w] != r.masks[w] {
			return sc() + ".active_mask_q", h(uint64(g.masks[w])), h(uint64(r.masks[w]))
		}
	}
	for s := range g.lsu {
		gl, rl := &g.lsu[s], &r.lsu[s]
		sc := scope(pipeline.ScopeLSU, s)
		switch {
		case gl.ReqValid != rl.ReqValid:
			return sc() + ".mem_req_valid_o", b(gl.ReqValid), b(rl.ReqValid)
		case gl.ReqOp != rl.ReqOp:
			return sc() + ".mem_req_op_o", fmt.Sprint(gl.ReqOp), fmt.Sprint(rl.ReqOp)
		case gl.ReqSpace != rl.ReqSpace:
			return sc() + ".mem_req_space_o", fmt.Sprint(gl.ReqSpace), fmt.Sprint(rl.ReqSpace)
		case gl.ReqWarp != rl.ReqWarp:
			return sc() + ".mem_req_warp_o", fmt.Sprint(gl.ReqWarp), fmt.Sprint(rl.ReqWarp)
		case gl.ReqMask != rl.ReqMask:
			return sc() + ".mem_req_mask_o", h(uint64(gl.ReqMask)), h(uint64(rl.ReqMask))
		case gl.ReqSize != rl.ReqSize:
			return sc() + ".mem_req_size_o", fmt.Sprint(gl.ReqSize), fmt.Sprint(rl.ReqSize)
		case gl.ReqTag != rl.ReqTag:
			return sc() + ".mem_req_tag_o", fmt.Sprint(gl.ReqTag), fmt.Sprint(rl.ReqTag)
		}
		for l := range gl.ReqAddr {
			if gl.ReqAddr[l] != rl.ReqAddr[l] {
				return fmt.Sprintf("%s.mem_req_addr_o[%d]", sc(), l), h(gl.ReqAddr[l]), h(rl.ReqAddr[l])
			}
		}
	}
	gt, rt := &g.trap, &r.trap
	tu := trapunit.Scope
	switch {
	case gt.trapped != rt.trapped:
		return tu + ".sm_trapped_o", b(gt.trapped), b(rt.trapped)
	case gt.inHandler != rt.inHandler:
		return tu + ".warp_in_handler_o", h(gt.inHandler), h(rt.inHandler)
	case gt.paused != rt.paused:
		return tu + ".warp_paused_o", h(gt.paused), h(rt.paused)
	case gt.globalESR != rt.globalESR:
		return tu + ".global_esr_o", h(uint64(gt.globalESR)), h(uint64(rt.globalESR))
	case gt.irqCount != rt.irqCount:
		return tu + ".irq_count_o", fmt.Sprint(gt.irqCount), fmt.Sprint(rt.irqCount)
	}
	for w := range gt.esr {
		if gt.esr[w] != rt.esr[w] {
			return fmt.Sprintf("%s.warp_esr_o[%d]", tu, w), h(uint64(gt.esr[w])), h(uint64(rt.esr[w]))
		}
		if gt.resumePC[w] != rt.resumePC[w] {
			return fmt.Sprintf("%s.resume_pc_o[%d]", tu, w), fmt.Sprint(gt.resumePC[w]), fmt.Sprint(rt.resumePC[w])
		}
	}
	return "", "", ""
}

// writeSMFiles writes the bench's $readmemh files into dir and returns
// the global range [lo, hi) the bound buffers occupy. global.hex holds
// the image's .global data (at isa.GlobalDataBase) and the bound buffers.
func writeSMFiles(dir string, im *isa.Image, sm *pipeline.SM, l pipeline.Launch) (lo, hi uint64, err error) {
	var code bytes.Buffer
	for _, in := range im.Code {
		b := in.Encode()
		fmt.Fprintf(&code, "%016x%016x\n", binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[:8]))
	}
	var consts bytes.Buffer
	for _, c := range im.Consts {
		fmt.Fprintf(&consts, "%016x\n", c)
	}
	var brt bytes.Buffer
	for _, t := range im.BrTables {
		fmt.Fprintf(&brt, "%08x\n", t)
	}
	hexBytes := func(w *bytes.Buffer, b []byte) {
		for _, x := range b {
			fmt.Fprintf(w, "%02x\n", x)
		}
	}
	var param bytes.Buffer
	hexBytes(&param, sm.ParamBytes())
	lo, hi = ^uint64(0), 0
	for _, b := range l.Buffers {
		if a, ok := sm.BufferAddr(b.Param); ok && b.Alias == "" {
			lo, hi = min(lo, a), max(hi, a+uint64(b.Size))
		}
	}
	var global bytes.Buffer
	if n := len(im.Data); n > 0 && l.Memory == nil {
		g := make([]byte, n)
		sm.ReadGlobal(isa.GlobalDataBase, g)
		fmt.Fprintf(&global, "@%x\n", uint64(isa.GlobalDataBase))
		hexBytes(&global, g)
	}
	if hi > lo {
		g := make([]byte, hi-lo)
		sm.ReadGlobal(lo, g)
		fmt.Fprintf(&global, "@%x\n", lo)
		hexBytes(&global, g)
	} else {
		lo, hi = 0, 0
	}
	for name, b := range map[string]*bytes.Buffer{"code.hex": &code, "consts.hex": &consts, "param.hex": &param, "global.hex": &global, "brtables.hex": &brt} {
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			return 0, 0, err
		}
	}
	return lo, hi, nil
}

// compareSMBuffers compares each bound buffer of the Go SM with the
// bench's dump of global memory from lo.
func compareSMBuffers(sm *pipeline.SM, l pipeline.Launch, dump string, lo uint64) ([]string, error) {
	if len(l.Buffers) == 0 {
		return nil, nil
	}
	text, err := os.ReadFile(dump)
	if err != nil {
		return nil, fmt.Errorf("the bench's memory dump: %w", err)
	}
	var mem []byte
	for _, line := range strings.Fields(string(text)) {
		if strings.HasPrefix(line, "@") || strings.HasPrefix(line, "//") {
			continue
		}
		x, err := strconv.ParseUint(line, 16, 8)
		if err != nil {
			return nil, fmt.Errorf("the bench's memory dump: %v", err)
		}
		mem = append(mem, byte(x))
	}
	var diffs []string
	for _, b := range l.Buffers {
		a, ok := sm.BufferAddr(b.Param)
		gb, ok2 := sm.BufferBytes(b.Param)
		if !ok || !ok2 {
			continue
		}
		for i, x := range gb {
			j := a - lo + uint64(i)
			var y byte
			if j < uint64(len(mem)) {
				y = mem[j]
			}
			if x != y {
				diffs = append(diffs, fmt.Sprintf("%s: byte %d: Go %#02x, RTL %#02x", b.Param, i, x, y))
				break
			}
		}
	}
	return diffs, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
