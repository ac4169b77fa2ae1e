package trace_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/internal/gtkwtest"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trace"
	"github.com/smsim/smsim/vcd"
)

// traced runs the example kernel name under preset with a tracer and
// returns the VCD, after checking that it passes the strict Reader: every
// VCD these tests produce goes through here.
func traced(t *testing.T, name, preset string, opt trace.Options) ([]byte, *vcd.Dump, *pipeline.SM) {
	t.Helper()
	cfg, err := config.Preset(preset)
	require.NoError(t, err)
	sm, err := exlaunch.NewByName(name, cfg)
	require.NoError(t, err)
	var buf bytes.Buffer
	tr, err := trace.Attach(sm, &buf, opt)
	require.NoError(t, err)
	_, err = sm.Run()
	require.NoError(t, err)
	require.NoError(t, tr.Close())
	require.NoError(t, tr.Close(), "Close twice")
	r := vcd.NewReader(bytes.NewReader(buf.Bytes()))
	r.Strict = true
	d, err := r.ReadAll()
	require.NoError(t, err, "the tracer's VCD does not pass the strict reader")
	return buf.Bytes(), d, sm
}

// valueAt returns the value of name at cycle c.
func valueAt(t *testing.T, d *vcd.Dump, name string, c uint64) vcd.Value {
	t.Helper()
	s := d.Signal(name)
	require.NotNil(t, s, "no signal %s", name)
	v, ok := s.ValueAt(c * trace.TicksPerCycle)
	require.True(t, ok, "%s has no value at cycle %d", name, c)
	return v
}

// strings returns every value a string signal took.
func stringsOf(d *vcd.Dump, name string) map[string]bool {
	out := map[string]bool{}
	if s := d.Signal(name); s != nil {
		for _, c := range s.Changes {
			out[c.Value.Str] = true
		}
	}
	return out
}

func TestTraceContent(t *testing.T) {
	for _, preset := range []string{"small", "h100"} {
		t.Run(preset, func(t *testing.T) {
			_, d, sm := traced(t, "div_ifelse", preset, trace.Options{})
			end := sm.Cycle()
			assert.Equal(t, vcd.Timescale{Magnitude: 100, Unit: "ps"}, d.Header.Timescale, "one cycle (10 units) is 1 ns of VCD time")
			// Clock and reset.
			assert.Equal(t, "1", valueAt(t, d, "sm_top.clk_i", 3).Bits)
			assert.Equal(t, "0", d.Signal("sm_top.rst_ni").Changes[0].Value.Bits, "reset low at time 0")
			assert.Equal(t, "1", valueAt(t, d, "sm_top.rst_ni", 1).Bits)
			// The run ended: done and status.
			assert.Equal(t, "1", valueAt(t, d, "sm_top.done_o", end).Bits)
			assert.Equal(t, "completed", valueAt(t, d, "sm_top.status_o_str", end).Str)
			assert.Equal(t, "running", valueAt(t, d, "sm_top.status_o_str", 0).Str)
			// Warp 0: Nsight states by name, PCs, divergent masks.
			st := stringsOf(d, "sm_top.g_warp[0].state_q_str")
			for _, s := range []string{"selected", "no_instruction", "idle"} {
				assert.True(t, st[s], "warp 0 never %s: %v", s, st)
			}
			masks := map[string]bool{}
			for _, c := range d.Signal("sm_top.g_warp[0].active_mask_q").Changes {
				masks[c.Value.Bits] = true
			}
			assert.True(t, masks[strings.Repeat("10", 16)] || masks[strings.Repeat("01", 16)], "no odd/even divergence in warp 0: %v", masks)
			// State numeric code and name agree everywhere.
			names := pipeline.StateNames()
			num, str := d.Signal("sm_top.g_warp[1].state_q"), d.Signal("sm_top.g_warp[1].state_q_str")
			require.Equal(t, len(num.Changes), len(str.Changes))
			for i, c := range num.Changes {
				code := bitsValue(c.Value.Bits)
				assert.Equal(t, names[code], str.Changes[i].Value.Str)
			}
			// Issue stage: opcodes by name.
			ops := stringsOf(d, "sm_top.u_issue_0.issue_op_o_str")
			for _, o := range []string{"-", "S2R", "ST", "RET"} {
				assert.True(t, ops[o], "scheduler 0 never issued %s: %v", o, ops)
			}
			// Writeback events happen.
			assert.NotEmpty(t, d.Signal("sm_top.u_writeback_0.wb_valid_o").Changes[1:])
			// The cycle counter counts cycles (clock.start 0).
			assert.Equal(t, uint64(17), bitsValue(valueAt(t, d, "sm_top.u_clock_timer.clock64_o", 17).Bits))
			assert.Equal(t, uint64(17), bitsValue(valueAt(t, d, "sm_top.u_clock_timer.cycle_q", 17).Bits))
			// Barriers: the CTA slots are used.
			assert.Equal(t, "1", valueAt(t, d, "sm_top.u_barrier.g_cta[0].valid_q", 5).Bits)
			// Trap unit and register pool: present, quiet in this kernel.
			for _, n := range []string{"sm_top.u_trap_unit.sm_trapped_o", "sm_top.u_trap_unit.global_esr_o", "sm_top.u_trap_unit.irq_o", "sm_top.u_trap_unit.warp_esr_q", "sm_top.u_reg_pool.cta_free_q", "sm_top.u_reg_pool.cta_high_water_q", "sm_top.g_warp[0].esr_q"} {
				s := d.Signal(n)
				require.NotNil(t, s, n)
				assert.Len(t, s.Changes, 1, n)
				assert.Equal(t, uint64(0), bitsValue(s.Changes[0].Value.Bits), n)
			}
			assert.NotNil(t, d.Signal("sm_top.u_perf_mon.pm_o"))
		})
	}
}

func bitsValue(b string) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<1 | uint64(c-'0')
	}
	return v
}

func TestTrapRun(t *testing.T) {
	_, d, sm := traced(t, "trap_divergent", "small", trace.Options{})
	require.Equal(t, pipeline.StatusTrapped, sm.Status())
	end := sm.Cycle()
	assert.Equal(t, "trapped", valueAt(t, d, "sm_top.status_o_str", end).Str)
	assert.Equal(t, "trapped", valueAt(t, d, "sm_top.status_o_str", end+trace.TailCycles).Str, "the tail holds the final state")
	assert.Equal(t, "1", valueAt(t, d, "sm_top.clk_i", end+trace.TailCycles).Bits)
	assert.Equal(t, "1", valueAt(t, d, "sm_top.u_trap_unit.sm_trapped_o", end).Bits, "the trap unit reports the trap")
	assert.NotEqual(t, uint64(0), bitsValue(valueAt(t, d, "sm_top.u_trap_unit.global_esr_o", end).Bits))
	assert.True(t, stringsOf(d, "sm_top.u_issue_1.issue_op_o_str")["TRAP"] || stringsOf(d, "sm_top.u_issue_0.issue_op_o_str")["TRAP"], "no TRAP issued")
}

func TestDeterministic(t *testing.T) {
	a, _, _ := traced(t, "div_ifelse", "h100", trace.Options{})
	b, _, _ := traced(t, "div_ifelse", "h100", trace.Options{})
	assert.True(t, bytes.Equal(a, b), "two runs gave different VCD bytes")
}

func TestWindow(t *testing.T) {
	_, d, _ := traced(t, "div_ifelse", "small", trace.Options{Start: 20, End: 30})
	var times []uint64
	for _, s := range d.Signals {
		for _, c := range s.Changes {
			times = append(times, c.Time)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	require.NotEmpty(t, times)
	assert.Equal(t, uint64(20*trace.TicksPerCycle), times[0], "first time stamp")
	assert.Equal(t, uint64(29*trace.TicksPerCycle+trace.TicksPerCycle/2), times[len(times)-1], "last time stamp: cycle 29's falling edge")
	assert.Equal(t, "1", valueAt(t, d, "sm_top.rst_ni", 20).Bits, "reset is only low in cycle 0")
	assert.Equal(t, uint64(25), bitsValue(valueAt(t, d, "sm_top.u_clock_timer.clock64_o", 25).Bits))

	// A window starting after the run ends: a valid, empty dump.
	_, d, _ = traced(t, "div_ifelse", "small", trace.Options{Start: 1 << 40})
	assert.NotEmpty(t, d.Header.Vars)

	// A window reaching past the end: the final state is dumped, then the
	// tail.
	_, d, sm := traced(t, "div_ifelse", "small", trace.Options{Start: 50})
	assert.Equal(t, "completed", valueAt(t, d, "sm_top.status_o_str", sm.Cycle()).Str)
}

func TestScopeFilter(t *testing.T) {
	opt := trace.Options{Scopes: []string{"sm_top.g_warp[1]", "sm_top.u_warp_sched_0", "sm_top.u_clock_timer.clock64_o"}}
	_, d, _ := traced(t, "div_ifelse", "small", opt)
	var names []string
	for _, v := range d.Header.Vars {
		names = append(names, v.Name)
		ok := v.Name == "sm_top.clk_i" || v.Name == "sm_top.rst_ni" || v.Name == "sm_top.u_clock_timer.clock64_o" ||
			strings.HasPrefix(v.Name, "sm_top.g_warp[1].") || strings.HasPrefix(v.Name, "sm_top.u_warp_sched_0.")
		assert.True(t, ok, "%s passed the scope filter", v.Name)
	}
	assert.Contains(t, names, "sm_top.g_warp[1].state_q_str")
	assert.Contains(t, names, "sm_top.u_warp_sched_0.last_q")
	assert.NotContains(t, names, "sm_top.g_warp[10].pc_q")

	// "sm_top.g_warp" selects every slot, not sm_top.g_warpx.
	_, d, _ = traced(t, "div_ifelse", "small", trace.Options{Scopes: []string{"sm_top.g_warp"}})
	n := 0
	for _, v := range d.Header.Vars {
		if strings.HasSuffix(v.Name, ".pc_q") {
			n++
		}
	}
	assert.Equal(t, 8, n, "the small preset has 8 warp slots")
}

// TestSchedulerNames: the scheduler scopes hold exactly the signals of
// warpsched's signal table, with its widths.
func TestSchedulerNames(t *testing.T) {
	_, d, sm := traced(t, "div_ifelse", "h100", trace.Options{})
	got := map[string]int{}
	for _, v := range d.Header.Vars {
		if strings.HasPrefix(v.Scope, "sm_top.u_warp_sched_") {
			got[v.Name] = v.Width
		}
	}
	want := map[string]int{}
	for _, s := range sm.Signals() {
		want[s.Path()] = s.Width
	}
	assert.Equal(t, want, got)
	assert.Len(t, want, 4*len(sm.Schedulers()[0].Signals("x")))
}

// TestUnitNames: the clock_timer and perf_mon scopes use their units'
// signal tables (names and widths).
func TestUnitNames(t *testing.T) {
	_, d, sm := traced(t, "div_ifelse", "small", trace.Options{})
	tables := append(sm.ClockTimer().Signals(), sm.PerfMon().Signals()...)
	want := map[string]int{}
	for _, s := range tables {
		want[s.Path()] = s.Width
	}
	n := 0
	for _, v := range d.Header.Vars {
		if strings.HasPrefix(v.Scope, "sm_top.u_clock_timer") || strings.HasPrefix(v.Scope, "sm_top.u_perf_mon") {
			w, ok := want[v.Name]
			assert.True(t, ok, "%s is not in the unit's table", v.Name)
			assert.Equal(t, w, v.Width, v.Name)
			n++
		}
	}
	assert.GreaterOrEqual(t, n, 8)
	for _, name := range []string{"sm_top.u_clock_timer.clock64_o", "sm_top.u_clock_timer.globaltimer_o", "sm_top.u_perf_mon.pm_o"} {
		assert.NotNil(t, d.Signal(name), name)
	}
}

// TestSignalsTable: Tracer.Signals lists exactly the dumped bit
// variables.
func TestSignalsTable(t *testing.T) {
	cfg, _ := config.Preset("small")
	sm, err := exlaunch.NewByName("div_ifelse", cfg)
	require.NoError(t, err)
	var buf bytes.Buffer
	tr, err := trace.Attach(sm, &buf, trace.Options{})
	require.NoError(t, err)
	require.NoError(t, tr.Close())
	r := vcd.NewReader(&buf)
	r.Strict = true
	d, err := r.ReadAll()
	require.NoError(t, err, "a dump with no cycle does not pass the strict reader")
	h := d.Header
	var got, want []string
	for _, v := range h.Vars {
		if v.Kind != vcd.String {
			got = append(got, v.Name)
		} else {
			assert.True(t, strings.HasSuffix(v.Name, trace.StrSuffix), v.Name)
		}
	}
	for _, s := range tr.Signals() {
		want = append(want, s.Path())
	}
	assert.Equal(t, want, got)
}

// TestGTKW: the save file names only variables of the dump, with and
// without a scope filter, and GTKWave finds every one of them.
func TestGTKW(t *testing.T) {
	for _, opt := range []trace.Options{{}, {Scopes: []string{"sm_top.g_warp[2]", "sm_top.u_issue_1", "sm_top.u_reg_pool"}}, {Start: 10, End: 40}} {
		dir := t.TempDir()
		raw, d, _ := traced(t, "trap_divergent", "small", opt)
		vcdPath := filepath.Join(dir, "run.vcd")
		require.NoError(t, os.WriteFile(vcdPath, raw, 0o644))
		save := trace.SavePath(vcdPath)
		require.NoError(t, trace.WriteGTKW(save, vcdPath, opt))
		names := map[string]bool{}
		for _, v := range d.Header.Vars {
			names[v.GTKWaveName()] = true
		}
		refs := gtkwTraces(t, save)
		require.NotEmpty(t, refs)
		for _, r := range refs {
			assert.True(t, names[r], "%s names %s, which the VCD does not have", save, r)
		}
		if len(opt.Scopes) == 0 {
			for _, want := range []string{"sm_top.g_warp[1].state_q_str", "sm_top.g_warp[1].pc_q[31:0]", "sm_top.u_issue_0.issue_op_o_str", "sm_top.u_trap_unit.sm_trapped_o", "sm_top.u_reg_pool.cta_free_q[127:0]", "sm_top.u_clock_timer.globaltimer_o[63:0]"} {
				assert.True(t, slices.Contains(refs, want), "the save file does not show %s", want)
			}
			assert.False(t, slices.Contains(refs, "sm_top.g_warp[5].pc_q[31:0]"), "an unused warp slot is shown")
		}
		text, _ := os.ReadFile(save)
		assert.Contains(t, string(text), `[dumpfile] "`+vcdPath+`"`)
	}
}

// gtkwTraces lists the variable names a save file's trace lines name.
func gtkwTraces(t *testing.T, path string) []string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.ContainsAny(l[:1], "[*@-#") {
			continue
		}
		if strings.HasPrefix(l, "+{") {
			l = l[strings.Index(l, "} ")+2:]
		}
		out = append(out, l)
	}
	return out
}

func TestParseOptions(t *testing.T) {
	for _, c := range []struct {
		in         string
		start, end uint64
		bad        bool
	}{
		{"10:20", 10, 20, false}, {"100:", 100, 0, false}, {":50", 0, 50, false}, {"0x10:0x20", 16, 32, false},
		{"20:10", 0, 0, true}, {"5:5", 0, 0, true}, {"abc", 0, 0, true}, {"1:x", 0, 0, true},
	} {
		s, e, err := trace.ParseWindow(c.in)
		if c.bad {
			assert.Error(t, err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, [2]uint64{c.start, c.end}, [2]uint64{s, e}, c.in)
	}
	assert.Equal(t, []string{"a", "b.c", "d"}, trace.ParseScopes("a, b.c", "", "d,"))
	assert.Equal(t, "out/run.gtkw", trace.SavePath("out/run.vcd"))
	assert.Equal(t, "run.fst", trace.FSTPath("run.vcd"))
	assert.Equal(t, "run.gtkw.gtkw", trace.SavePath("run.gtkw"))

	cfg, _ := config.Preset("small")
	sm, err := exlaunch.NewByName("div_ifelse", cfg)
	require.NoError(t, err)
	_, err = trace.Attach(sm, &bytes.Buffer{}, trace.Options{Start: 9, End: 3})
	assert.Error(t, err)
	_, err = trace.Attach(sm, &bytes.Buffer{}, trace.Options{Scopes: []string{""}})
	assert.Error(t, err)
}

// TestFST converts a dump with vcd2fst (skipped when GTKWave's tools are
// not installed) and checks the save file then names the FST.
func TestFST(t *testing.T) {
	dir := t.TempDir()
	raw, _, _ := traced(t, "div_ifelse", "small", trace.Options{})
	vcdPath := filepath.Join(dir, "run.vcd")
	require.NoError(t, os.WriteFile(vcdPath, raw, 0o644))
	fst, err := trace.ConvertFST(vcdPath)
	if err == trace.ErrNoVcd2fst {
		t.Fatalf("%v: run scripts/deps.sh (make test installs GTKWave's tools)", err)
	}
	require.NoError(t, err)
	st, err := os.Stat(fst)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(0))
	opt := trace.Options{FST: true}
	require.NoError(t, trace.WriteGTKW(trace.SavePath(vcdPath), vcdPath, opt))
	text, _ := os.ReadFile(trace.SavePath(vcdPath))
	assert.Contains(t, string(text), `[dumpfile] "`+fst+`"`)
}

// TestGTKWaveLoadsView opens a dump with the save file WriteGTKW wrote in
// GTKWave (under a virtual X server) and checks through GTKWave's Tcl
// interface that it shows exactly the traces the save file names;
// without xvfb-run and gtkwave the test fails (make test installs them).
func TestGTKWaveLoadsView(t *testing.T) {
	dir := t.TempDir()
	raw, _, _ := traced(t, "trap_divergent", "small", trace.Options{Start: 30, End: 62})
	vcdPath := filepath.Join(dir, "run.vcd")
	require.NoError(t, os.WriteFile(vcdPath, raw, 0o644))
	save := trace.SavePath(vcdPath)
	require.NoError(t, trace.WriteGTKW(save, vcdPath, trace.Options{}))
	list := gtkwtest.Traces(t, save, gtkwtest.Name)
	shown := strings.Split(strings.TrimSpace(list), "\n")
	// One line per trace, group marker and blank of the save file.
	var want int
	text, _ := os.ReadFile(save)
	for _, l := range strings.Split(string(text), "\n") {
		if l != "" && !strings.ContainsAny(l[:1], "[*@") {
			want++
		}
	}
	assert.Equal(t, want, len(shown), "GTKWave shows %d lines, the save file has %d", len(shown), want)
	assert.Contains(t, shown, "g_warp[1]/state_q_str")
	assert.Contains(t, shown, "u_trap_unit/sm_trapped_o")
}
