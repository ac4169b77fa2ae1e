package cosim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trace"
	"github.com/smsim/smsim/vcd"
)

// The waveforms of an SM mismatch (docs/sm-rtl.md section 4): the run is
// replayed from the start with the traced bench (BuildSMTrace) and a Go
// tracer (package trace) over the same window of cycles, then the two
// VCDs are merged side by side (mergeVCDs, scopes go and rtl) and a
// GTKWave save file shows each compared Go signal above its RTL twin.

// smWaveModule names the files: sm_top.go.vcd, sm_top.rtl.vcd,
// sm_top.compare.vcd, sm_top.gtkw.
const smWaveModule = "sm_top"

// smRTLTop is the Verilator scope of the SM in the bench's VCD.
const smRTLTop = "TOP.sm_tb.u_sm_top"

// smTwin is a compared signal: its name in a mismatch report (signal),
// in the Go SM's VCD (package trace: scope.ref) and in the bench's VCD
// (rtlName: the port or register the bench records). The Go VCD shows a
// load/store request with the end of the cycle that makes it, the
// lockstep (and sm_top's lsu_*_o registers) a cycle later: rtlName trails
// the Go VCD by lag cycles, and rtlLive is the RTL's request port that
// shows it in its own cycle ("" when sm_top has none).
type smTwin struct {
	signal, goName, rtlName string
	lag                     uint64
	rtlLive                 string
}

// smTwins lists the compared signals in the lockstep's order (see
// compareSMCycle) with their VCD names: the Go scopes of package trace and
// the ports and registers of sm_top that the bench records.
func smTwins(ns, nw int) []smTwin {
	var out []smTwin
	add := func(goScope, goRef, rtlRef string, i int) {
		sig := goScope + "." + goRef
		out = append(out, smTwin{signal: sig, goName: sig, rtlName: fmt.Sprintf("%s.%s[%d]", smRTLTop, rtlRef, i)})
	}
	for s := 0; s < ns; s++ {
		sc := fmt.Sprintf(pipeline.ScopeIssue, s)
		for _, n := range []string{"issue_valid_o", "issue_warp_o", "issue_pc_o", "issue_op_o", "issue_mask_o", "issue_exec_o"} {
			add(sc, n, n, s)
		}
	}
	for s := 0; s < ns; s++ {
		sc := fmt.Sprintf(pipeline.ScopeWriteback, s)
		for _, n := range []string{"wb_valid_o", "wb_warp_o", "wb_pc_o", "wb_count_o"} {
			add(sc, n, n, s)
		}
	}
	for w := 0; w < nw; w++ {
		sc := fmt.Sprintf(pipeline.ScopeWarp, w)
		add(sc, "pc_q", "pc_q", w)
		add(sc, "active_mask_q", "active_mask_q", w)
	}
	for s := 0; s < ns; s++ {
		sc := fmt.Sprintf(pipeline.ScopeLSU, s)
		for _, n := range []string{"valid", "op", "space", "warp", "mask", "size", "tag"} {
			add(sc, "mem_req_"+n+"_o", "lsu_"+n+"_o", s)
			t := &out[len(out)-1]
			t.lag = 1
			if n == "valid" || n == "space" || n == "mask" || n == "size" {
				t.rtlLive = fmt.Sprintf("%s.mem_req_%s_o[%d]", smRTLTop, n, s)
			}
		}
		for l := 0; l < 32; l++ {
			out = append(out, smTwin{
				signal:  fmt.Sprintf("%s.mem_req_addr_o[%d]", sc, l),
				goName:  sc + ".mem_req_addr_o",
				rtlName: fmt.Sprintf("%s.lsu_addr_o[%d][%d]", smRTLTop, s, l),
				lag:     1,
				rtlLive: fmt.Sprintf("%s.mem_req_addr_o[%d][%d]", smRTLTop, s, l),
			})
		}
	}
	// The trap unit: its registered outputs, sm_top's trap_* ports.
	tu := pipeline.ScopeTrap
	for _, n := range []string{"sm_trapped_o", "warp_in_handler_o", "warp_paused_o", "global_esr_o", "irq_count_o"} {
		out = append(out, smTwin{signal: tu + "." + n, goName: tu + "." + n, rtlName: smRTLTop + ".trap_" + n})
	}
	for w := 0; w < nw; w++ {
		for _, n := range []string{"warp_esr_o", "resume_pc_o"} {
			out = append(out, smTwin{signal: fmt.Sprintf("%s.%s[%d]", tu, n, w), goName: tu + "." + n,
				rtlName: fmt.Sprintf("%s.trap_%s[%d]", smRTLTop, n, w)})
		}
	}
	out = append(out, smTwin{signal: pipeline.ScopeTop + ".done_o", goName: pipeline.ScopeTop + ".done_o", rtlName: smRTLTop + ".done_o"})
	return out
}

// smWaves replays the run of o (the bench's arguments args) with tracing
// over the cycles around the mismatch m and writes the waveforms.
func smWaves(ctx context.Context, o SMOptions, m *SMMismatch, args []string) (*Waves, error) {
	bin, err := BuildSMTrace(ctx, o.Config, o.Harness)
	if err != nil {
		return nil, err
	}
	dir := o.VCDDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "smsim-cosim-sm-"); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	wv := newWaves(dir, smWaveModule)
	window := uint64(64)
	if o.Window > 0 {
		window = uint64(o.Window)
	}
	start := uint64(0)
	if m.Cycle > window {
		start = m.Cycle - window
	}
	end := m.Cycle + smWaveTail
	sm, err := pipeline.New(o.Config, o.Image, o.Launch)
	if err != nil {
		return nil, err
	}
	f, err := os.Create(wv.GoVCD)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	tr, err := trace.Attach(sm, bw, trace.Options{Start: start, End: end + 1})
	if err != nil {
		f.Close()
		return nil, err
	}
	targs := append(args[:len(args):len(args)], "+trace="+wv.RTLVCD, fmt.Sprintf("+trace_from=%d", start), fmt.Sprintf("+trace_to=%d", end))
	res, runErr := runSMBench(ctx, bin, targs, sm, smWaveTail)
	err = errors.Join(tr.Close(), bw.Flush(), f.Close())
	switch {
	case runErr != nil:
		return nil, fmt.Errorf("the traced replay: %w", runErr)
	case err != nil:
		return nil, err
	case res.Mismatch == nil || res.Mismatch.Cycle != m.Cycle || res.Mismatch.Signal != m.Signal:
		return nil, fmt.Errorf("the traced replay did not reproduce the mismatch (%v)", res.Mismatch)
	}
	if err := mergeVCDs(wv.Compare, wv.GoVCD, wv.RTLVCD); err != nil {
		return nil, fmt.Errorf("compare VCD: %w", err)
	}
	if err := writeSMGTKW(wv, m, start, end); err != nil {
		return nil, err
	}
	return wv, nil
}

// vcdVars reads the header of the VCD at path and maps each variable's
// scope.ref to it (its name in a save file: Var.GTKWaveName).
func vcdVars(path string) (map[string]vcd.Var, vcd.Timescale, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, vcd.Timescale{}, err
	}
	defer f.Close()
	h, err := vcd.NewReader(bufio.NewReader(f)).Header()
	if err != nil {
		return nil, vcd.Timescale{}, fmt.Errorf("%s: %w", path, err)
	}
	vars := make(map[string]vcd.Var, len(h.Vars))
	for _, v := range h.Vars {
		k := v.Ref
		if v.Scope != "" {
			k = v.Scope + "." + v.Ref
		}
		vars[k] = v
	}
	return vars, h.Timescale, nil
}

// writeSMGTKW writes the GTKWave save file of an SM mismatch: the window
// [start, end] of the compare VCD, the marker at the mismatch, the
// mismatching signal first (highlighted), then every compared signal, each
// Go trace (go.*) above its RTL twin (rtl.*).
func writeSMGTKW(wv *Waves, m *SMMismatch, start, end uint64) error {
	goVars, ts, err := vcdVars(wv.GoVCD)
	if err != nil {
		return err
	}
	rtlVars, _, err := vcdVars(wv.RTLVCD)
	if err != nil {
		return err
	}
	has := func(vars map[string]vcd.Var, k string) bool { _, ok := vars[k]; return ok }
	ns, nw := 0, 0
	for ns < 1<<10 && has(goVars, fmt.Sprintf(pipeline.ScopeIssue, ns)+".issue_valid_o") {
		ns++
	}
	for nw < 1<<12 && has(goVars, fmt.Sprintf(pipeline.ScopeWarp, nw)+".pc_q") {
		nw++
	}
	twins := smTwins(ns, nw)

	f, err := os.Create(wv.GTKW)
	if err != nil {
		return err
	}
	s := vcd.NewSaveWriter(f)
	s.Comment("smsim cosim --sm: the Go SM (go.*) above the Verilated SM (rtl.*); first mismatch: " + m.Signal + " at cycle " + fmt.Sprint(m.Cycle))
	s.DumpFile(wv.Compare)
	s.SaveFile(wv.GTKW)
	// GTKWave counts time in the timescale's unit (ps for 100ps) and
	// zooms by the time shown per 200 pixels: 2^-zoom (as trace.WriteGTKW).
	unit := max(ts.Magnitude, 1)
	tick := uint64(trace.TicksPerCycle)
	s.TimeStart(tick * start * unit)
	const width, height, sigWidth = 1600, 1000, 420
	s.Size(width, height)
	s.Pos(-1, -1)
	span := float64((end - start + 1) * tick * unit)
	s.Zoom(-math.Log2(200*span/float64(width-sigWidth-80)), int64(tick*m.Cycle*unit))
	for _, sc := range []string{"go", "go.sm_top", "rtl", "rtl.TOP", "rtl.TOP.sm_tb", "rtl.TOP.sm_tb.u_sm_top"} {
		s.TreeOpen(sc)
	}
	s.SignalsWidth(sigWidth)
	s.SSTExpanded(true)
	lastGo := ""
	pair := func(t smTwin, flags vcd.TraceFlags) {
		if v, ok := goVars[t.goName]; ok && t.goName != lastGo {
			s.Trace("go."+v.GTKWaveName(), flags)
			lastGo = t.goName
			// An enum's name (package trace's string companion).
			if v, ok := goVars[t.goName+"_str"]; ok {
				s.Trace("go."+v.GTKWaveName(), vcd.FormatBin|flags&vcd.FlagHighlight)
			}
		}
		if v, ok := rtlVars[t.rtlLive]; ok {
			s.Trace("rtl."+v.GTKWaveName(), flags&^vcd.FlagHighlight)
		}
		if v, ok := rtlVars[t.rtlName]; ok {
			s.Trace("rtl."+v.GTKWaveName(), flags)
		}
	}
	format := func(t smTwin) vcd.TraceFlags {
		if strings.HasSuffix(t.goName, "_valid_o") || strings.HasSuffix(t.goName, "done_o") {
			return vcd.FormatBin
		}
		if strings.HasSuffix(t.goName, "_pc_o") || strings.HasSuffix(t.goName, "pc_q") || strings.HasSuffix(t.goName, "_warp_o") {
			return vcd.FormatDec
		}
		return vcd.FormatHex
	}
	if v, ok := goVars[pipeline.ScopeTop+".clk_i"]; ok {
		s.Trace("go."+v.GTKWaveName(), vcd.FormatBin)
	}
	if v, ok := rtlVars[smRTLTop+".cycle_o"]; ok {
		s.Trace("rtl."+v.GTKWaveName(), vcd.FormatDec)
	}
	for _, t := range twins {
		if t.signal == m.Signal {
			s.BeginGroup(fmt.Sprintf("first mismatch: %s at cycle %d", m.Signal, m.Cycle), false)
			pair(t, format(t)|vcd.FlagHighlight)
			s.EndGroup()
			lastGo = ""
		}
	}
	const lsuNote = " (go and rtl mem_req_*: the request in its cycle; rtl lsu_*, which the lockstep compares: a cycle later)"
	groups := []struct {
		title  string
		closed bool
		in     func(sig string) bool
	}{
		{"issue", false, func(sig string) bool { return strings.Contains(sig, ".u_issue_") }},
		{"writeback", false, func(sig string) bool { return strings.Contains(sig, ".u_writeback_") }},
		{"warps", false, func(sig string) bool { return strings.Contains(sig, ".g_warp[") }},
		{"load/store" + lsuNote, false, func(sig string) bool {
			return strings.Contains(sig, ".u_lsu_") && !strings.Contains(sig, ".mem_req_addr_o")
		}},
		{"load/store addresses" + lsuNote, true, func(sig string) bool { return strings.Contains(sig, ".mem_req_addr_o") }},
		{"end", false, func(sig string) bool { return strings.HasSuffix(sig, ".done_o") }},
	}
	for _, g := range groups {
		s.BeginGroup(g.title, g.closed)
		for _, t := range twins {
			if g.in(t.signal) {
				pair(t, format(t))
			}
		}
		s.EndGroup()
		lastGo = ""
	}
	err = s.Flush()
	if e := f.Close(); err == nil {
		err = e
	}
	return err
}
