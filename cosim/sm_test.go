package cosim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/vcd"
)

// TestSMISAPackageUpToDate: verilog/rtl/sm_isa_pkg.sv is what package isa
// generates (run `go generate ./cosim` after changing an encoding).
func TestSMISAPackageUpToDate(t *testing.T) {
	got, err := os.ReadFile(filepath.Join(verilogDir(t), SMISAPackagePath))
	if err != nil || !bytes.Equal(got, SMISAPackage()) {
		t.Errorf("%s is stale (run go generate ./cosim): %v", SMISAPackagePath, err)
	}
}

// smKernel assembles one of testdata/sm's clang-16 kernels.
func smKernel(t *testing.T, name string) *isa.Image {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "sm", name+".ptx"))
	if err != nil {
		t.Fatal(err)
	}
	im, err := isa.AssembleSource(name+".ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func u32s(vs ...uint32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}

// smCases are the lockstep's kernels at the small preset: straight-line
// code over two warps, a divergent early return over three warps (the
// last one partial), examples/bench_intloop's loop over all eight warp
// slots, a 3-D grid of twelve 3-D CTAs of two warps (the second
// partial), four resident at once, retiring out of order, and five CTAs
// of three warps exchanging shared memory between barriers (two
// resident at once, some threads exiting before the last barrier), and
// the ALU's integer operations on edge cases (sm_intops), and the special
// registers of the lane and the launch with dynamic shared memory
// (sm_sreg), and __syncthreads in divergent code (sm_bardiv: each warp's
// lanes arrive at two bar.sync instructions), and calls (sm_calls: .param
// sequences through each lane's frame, nested and divergent calls, a
// recursion to a depth per lane that some lanes leave early), and the
// warp operations (sm_warpops: activemask, vote, shfl, redux, converged
// and in a divergent branch), and traps served by a trap handler
// (sm_trap: divergent BPT.TRAP with loads in flight, a trap inside a
// called function, every warp entering the handler, RTT; sm_trap_pause:
// BPT.INT, BPT.PAUSE_QUIET back to user mode, BPT.PAUSE and the host's
// abort, status trapped).
func smCases(t *testing.T) []SMOptions {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	in := make([]uint32, 64)
	for i := range in {
		in[i] = uint32(i*i + 7)
	}
	affine := smKernel(t, "sm_affine")
	diverge := smKernel(t, "sm_diverge")
	grid := smKernel(t, "sm_grid")
	smem := smKernel(t, "sm_smem")
	intops := smKernel(t, "sm_intops")
	sreg := smKernel(t, "sm_sreg")
	bardiv := smKernel(t, "sm_bardiv")
	calls := smKernel(t, "sm_calls")
	warpops := smKernel(t, "sm_warpops")
	trap := smKernel(t, "sm_trap")
	pause := smKernel(t, "sm_trap_pause")
	pauseCfg := cfg
	pauseCfg.Trap.Handler = "sm_trap_pause_handler"
	trapCfg := cfg
	trapCfg.Trap.Handler = "sm_trap_handler"
	edge := []uint32{0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 2, 3, 5, 31, 32, 33, 63, 64, 0xfffffffe, 0x12345678, 0x9abcdef0}
	ops := make([]uint32, 64)
	for i := range ops {
		ops[i] = uint32(i)*0x9e3779b9 ^ uint32(i)<<7
		if i < len(edge) {
			ops[i] = edge[i]
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "examples", "bench_intloop.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	loop, err := isa.AssembleSource("bench_intloop.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	return []SMOptions{
		{Config: cfg, Image: affine, Launch: pipeline.Launch{
			Entry: affine.Kernels[0].Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{64, 1, 1},
			Args:    map[string]uint64{affine.Kernels[0].Params[2].Name: 5},
			Buffers: []pipeline.Buffer{{Param: affine.Kernels[0].Params[0].Name, Size: 256}, {Param: affine.Kernels[0].Params[1].Name, Size: 256, Init: u32s(in...)}},
		}},
		{Config: cfg, Image: diverge, Launch: pipeline.Launch{
			Entry: diverge.Kernels[0].Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{80, 1, 1},
			Args:    map[string]uint64{diverge.Kernels[0].Params[1].Name: 70},
			Buffers: []pipeline.Buffer{{Param: diverge.Kernels[0].Params[0].Name, Size: 320}},
		}},
		{Config: cfg, Image: loop, Launch: pipeline.Launch{
			Entry: loop.Kernels[0].Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{256, 1, 1},
			Args:    map[string]uint64{loop.Kernels[0].Params[1].Name: 20},
			Buffers: []pipeline.Buffer{{Param: loop.Kernels[0].Params[0].Name, Size: 1024}},
		}},
		{Config: cfg, Image: grid, Launch: pipeline.Launch{
			Entry: grid.Kernels[0].Name, Grid: [3]uint32{3, 2, 2}, Block: [3]uint32{12, 2, 2},
			Args:    map[string]uint64{grid.Kernels[0].Params[1].Name: 1000},
			Buffers: []pipeline.Buffer{{Param: grid.Kernels[0].Params[0].Name, Size: 12 * 48 * 4}},
		}},
		{Config: cfg, Image: smem, Launch: pipeline.Launch{
			Entry: smem.Kernels[0].Name, Grid: [3]uint32{5, 1, 1}, Block: [3]uint32{80, 1, 1},
			Args:    map[string]uint64{smem.Kernels[0].Params[2].Name: 70},
			Buffers: []pipeline.Buffer{{Param: smem.Kernels[0].Params[0].Name, Size: 5 * 80 * 4}, {Param: smem.Kernels[0].Params[1].Name, Size: 5 * 80 * 8}},
		}},
		{Config: cfg, Image: intops, Launch: pipeline.Launch{
			Entry: intops.Kernels[0].Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{64, 1, 1},
			Buffers: []pipeline.Buffer{{Param: intops.Kernels[0].Params[0].Name, Size: 64 * 40 * 4}, {Param: intops.Kernels[0].Params[1].Name, Size: 64 * 12 * 8},
				{Param: intops.Kernels[0].Params[2].Name, Size: 256, Init: u32s(ops...)}},
		}},
		{Config: cfg, Image: sreg, Launch: pipeline.Launch{
			Entry: sreg.Kernels[0].Name, Grid: [3]uint32{3, 1, 1}, Block: [3]uint32{40, 1, 1}, DynamicSmem: 160,
			Buffers: []pipeline.Buffer{{Param: sreg.Kernels[0].Params[0].Name, Size: 3 * 40 * 12 * 4}},
		}},
		{Config: cfg, Image: bardiv, Launch: pipeline.Launch{
			Entry: bardiv.Kernels[0].Name, Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{96, 1, 1},
			Args:    map[string]uint64{bardiv.Kernels[0].Params[1].Name: 7},
			Buffers: []pipeline.Buffer{{Param: bardiv.Kernels[0].Params[0].Name, Size: 2 * 96 * 4}},
		}},
		{Config: cfg, Image: calls, Launch: pipeline.Launch{
			Entry: calls.Kernels[0].Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{80, 1, 1},
			Args:    map[string]uint64{calls.Kernels[0].Params[2].Name: 9},
			Buffers: []pipeline.Buffer{{Param: calls.Kernels[0].Params[0].Name, Size: 80 * 4 * 4}, {Param: calls.Kernels[0].Params[1].Name, Size: 80 * 8}},
		}},
		{Config: cfg, Image: warpops, Launch: pipeline.Launch{
			Entry: warpops.Kernels[0].Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{96, 1, 1},
			Args:    map[string]uint64{warpops.Kernels[0].Params[1].Name: 0x5a5},
			Buffers: []pipeline.Buffer{{Param: warpops.Kernels[0].Params[0].Name, Size: 96 * 24 * 4}},
		}},
		{Config: trapCfg, Image: trap, Launch: pipeline.Launch{
			Entry: trap.Kernels[0].Name, Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{80, 1, 1},
			Args:    map[string]uint64{trap.Kernels[0].Params[2].Name: 9},
			Buffers: []pipeline.Buffer{{Param: trap.Kernels[0].Params[0].Name, Size: 160 * 4, Init: u32s(ops[:64]...)}, {Param: trap.Kernels[0].Params[1].Name, Size: 160 * 4}},
		}},
		{Config: pauseCfg, Image: pause, Launch: pipeline.Launch{
			// One CTA: under two_level the Go model keeps a paused warp in
			// its scheduler's active set (a pause is not a long wait), so
			// with more warps than the active set a quiet pause that waits
			// for every warp deadlocks (docs/sm-rtl.md section 6).
			Entry: pause.Kernels[0].Name, Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{80, 1, 1},
			Args:    map[string]uint64{pause.Kernels[0].Params[2].Name: 9},
			Buffers: []pipeline.Buffer{{Param: pause.Kernels[0].Params[0].Name, Size: 160 * 4, Init: u32s(ops...)}, {Param: pause.Kernels[0].Params[1].Name, Size: 160 * 4}},
		}},
	}
}

// smExampleMaxCycles bounds the examples TestSMLockstep runs (three
// times each).
const smExampleMaxCycles = 50000

// smExamples are the example kernels (examples/) whose own launch the SM
// RTL runs at the small preset; the others are logged with what they need.
func smExamples(t *testing.T) []SMOptions {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	var out []SMOptions
	for _, e := range examples.All() {
		im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
		if err != nil {
			t.Fatal(err)
		}
		c := cfg
		c.Trap.Handler = e.TrapHandler
		o := SMOptions{Config: c, Image: im, Launch: exlaunch.Launch(e)}
		if err := CheckSM(o.Config, o.Image, o.Launch); err != nil {
			t.Logf("example %s: %v", e.Name, err)
			continue
		}
		sm, err := pipeline.New(o.Config, o.Image, o.Launch)
		if err != nil {
			t.Logf("example %s: its launch does not fit the small preset: %v", e.Name, err)
			continue
		}
		// The lockstep runs at tens of thousands of cycles a second: a
		// long example (sleep_lanes sleeps 1 ms) stays out of the test.
		if _, err := sm.Run(); err == nil && sm.Cycle() > smExampleMaxCycles {
			t.Logf("example %s: %d cycles, more than the test's %d", e.Name, sm.Cycle(), smExampleMaxCycles)
			continue
		}
		out = append(out, o)
	}
	return out
}

// smWantStatus is the status a lockstep case ends with: an example's
// outcome under the default host policy (a trap or a breakpoint aborts:
// trapped), completed for the others.
func smWantStatus(entry string) string {
	if entry == "_Z13sm_trap_pausePjS_j" {
		return pipeline.StatusTrapped
	}
	for _, e := range examples.All() {
		if e.Entry == entry && (e.Outcome == examples.Trapped || e.Outcome == examples.Breakpoint) {
			return pipeline.StatusTrapped
		}
	}
	return pipeline.StatusCompleted
}

// TestSMLockstep cosimulates the Go SM and the Verilated SM on real
// kernels under lrr, gto and two_level: zero mismatches, equal buffers.
// It runs smCases and every example the RTL's subset takes.
func TestSMLockstep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Verilated SM")
	}
	exs := smExamples(t)
	if len(exs) == 0 {
		t.Error("no example runs on the SM RTL")
	}
	var cases []SMOptions
	for _, pol := range []config.SchedPolicy{config.PolicyLRR, config.PolicyGTO, config.PolicyTwoLevel} {
		for _, o := range append(smCases(t), exs...) {
			o.Config.Sched.Policy = pol
			cases = append(cases, o)
		}
	}
	for _, o := range cases {
		t.Run(string(o.Config.Sched.Policy)+"/"+o.Launch.Entry, func(t *testing.T) {
			res, err := RunSM(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Mismatch != nil {
				t.Fatal(res.Mismatch)
			}
			if want := smWantStatus(o.Launch.Entry); len(res.BufferDiffs) > 0 || res.Status != want || res.Cycles < 20 {
				t.Fatalf("buffers %v, status %s (want %s) after %d cycles", res.BufferDiffs, res.Status, want, res.Cycles)
			}
			t.Logf("%d cycles, zero mismatches, equal buffers", res.Cycles)
		})
	}
}

// TestSMCallDepth: a recursion as deep as the RTL's return stack
// (smRetDepth calls) runs in lockstep; one call deeper, which the Go
// model allows, stops the bench with an error that says so.
func TestSMCallDepth(t *testing.T) {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(`.version 7.8
.target sm_90
.address_size 64
.func (.param .b32 r) f(.param .b32 a)
{
.reg .pred %p<2>;
.reg .b32 %r<5>;
ld.param.u32 %r1, [a];
mov.u32 %r4, 7;
setp.eq.u32 %p1, %r1, 0;
@%p1 bra $L__done;
add.s32 %r2, %r1, -1;
{
.param .b32 a0;
st.param.b32 [a0], %r2;
.param .b32 r0;
call.uni (r0), f, (a0);
ld.param.b32 %r3, [r0];
}
mad.lo.s32 %r4, %r3, 3, %r1;
$L__done:
st.param.b32 [r], %r4;
ret;
}
.visible .entry k(.param .u64 p, .param .u32 n)
{
.reg .b32 %r<5>;
.reg .b64 %rd<4>;
ld.param.u64 %rd1, [p];
ld.param.u32 %r1, [n];
mov.u32 %r2, %laneid;
and.b32 %r3, %r2, 3;
sub.s32 %r1, %r1, %r3;
{
.param .b32 a0;
st.param.b32 [a0], %r1;
.param .b32 r0;
call.uni (r0), f, (a0);
ld.param.b32 %r4, [r0];
}
mul.wide.u32 %rd2, %r2, 4;
add.s64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r4;
ret;
}
`)
	im, err := isa.AssembleSource("depth.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	run := func(n uint64) (*SMResult, error) {
		return RunSM(context.Background(), SMOptions{Config: cfg, Image: im, Launch: pipeline.Launch{
			Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1},
			Args: map[string]uint64{"n": n}, Buffers: []pipeline.Buffer{{Param: "p", Size: 128}},
		}})
	}
	// f(n) nests n+1 calls deep: lane 0 reaches smRetDepth, lanes 1..3
	// less (their ret comes while lane 0 is deeper).
	res, err := run(smRetDepth - 1)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || res.Status != pipeline.StatusCompleted {
		t.Fatalf("depth %d: %v %v, status %s", smRetDepth, res.Mismatch, res.BufferDiffs, res.Status)
	}
	t.Logf("depth %d: %d cycles, zero mismatches, equal buffers", smRetDepth, res.Cycles)
	_, err = run(smRetDepth)
	var he *HarnessError
	if !errors.As(err, &he) || !strings.Contains(err.Error(), "nests deeper than the SM RTL's return stack (RetDepth 16") {
		t.Fatalf("depth %d: %v", smRetDepth+1, err)
	}
}

// TestSMLockstepCatchesMutant runs the lockstep over a copy of the RTL
// whose writeback stage counts one too many cycles of latency: the report
// names the cycle, the signal and both values, and the waveforms of the
// mismatch are written (the Go SM's VCD, the bench's Verilator VCD, both
// side by side, a GTKWave save file showing the mismatching signal), and
// GTKWave's own tools take them: vcd2fst converts each VCD, and GTKWave
// (headless) opens the save file with every trace resolved and the marker
// on the mismatch.
func TestSMLockstepCatchesMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Verilated SM")
	}
	o := smCases(t)[0]
	o.Harness = mutantRTL(t, "sm_writeback_lat", "sm_writeback.sv", "32'(push_lat_i) == k + 1", "32'(push_lat_i) == k")
	o.VCDDir = t.TempDir()
	res, err := RunSM(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	m := res.Mismatch
	if m == nil {
		t.Fatal("the mutant was not caught")
	}
	if !strings.HasPrefix(m.Signal, "sm_top.u_writeback_") || m.Go == m.RTL || m.Cycle == 0 || len(m.History) == 0 {
		t.Fatalf("report: %v", m)
	}
	t.Log(m)
	if m.Waves == nil || m.WavesErr != nil {
		t.Fatalf("waveforms: %v", m.WavesErr)
	}
	wv := m.Waves
	if !strings.Contains(m.Error(), "gtkwave "+wv.GTKW) {
		t.Errorf("the report does not name the save file:\n%v", m)
	}
	for _, p := range []string{wv.GoVCD, wv.RTLVCD, wv.Compare} {
		if out, err := exec.Command("vcd2fst", p, p+".fst").CombinedOutput(); err != nil {
			t.Errorf("vcd2fst %s: %v\n%s", p, err, out)
		}
		d := readVCD(t, p)
		if d.EndTime < 10*m.Cycle+5 {
			t.Errorf("%s ends at %d, before the mismatch at cycle %d", p, d.EndTime, m.Cycle)
		}
	}
	// The compare VCD lines the two sides up: every compared signal has
	// the same value on both sides in each cycle before the mismatch (the
	// RTL's load/store registers a cycle after the Go VCD's requests), and
	// the mismatching one differs at it.
	cd := readVCD(t, wv.Compare)
	val := func(name string, c uint64) (string, bool) {
		sg := cd.Signal(name)
		if sg == nil {
			return "", false
		}
		v, ok := sg.ValueAt(10 * c)
		return strings.TrimLeft(v.Bits, "0"), ok
	}
	checked := 0
	for _, tw := range smTwins(2, 8) {
		if strings.Contains(tw.signal, "mem_req_addr_o") {
			continue // one 2048-bit vector on the Go side, 32 elements on the RTL side
		}
		for c := uint64(0); c+tw.lag <= m.Cycle; c++ {
			g, okg := val("go."+tw.goName, c)
			r, okr := val("rtl."+tw.rtlName, c+tw.lag)
			if !okg || !okr {
				t.Errorf("cycle %d: %s: no value (go %v, rtl %v)", c, tw.signal, okg, okr)
				break
			}
			switch {
			case c+tw.lag < m.Cycle && g != r:
				t.Errorf("cycle %d, before the mismatch: %s: go %q, rtl %q in the compare VCD", c, tw.signal, g, r)
			case c+tw.lag == m.Cycle && tw.signal == m.Signal && g == r:
				t.Errorf("cycle %d: %s: go and rtl both %q in the compare VCD", c, tw.signal, g)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("no signal checked in the compare VCD")
	}
	sig, _ := strings.CutPrefix(m.Signal, "sm_top.u_writeback_")
	s, field, _ := strings.Cut(sig, ".")
	rtlName := "rtl." + smRTLTop + "." + field + "[" + s + "]"
	gtkw, err := os.ReadFile(wv.GTKW)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[dumpfile] \"" + wv.Compare + "\"", "go." + m.Signal, rtlName} {
		if !bytes.Contains(gtkw, []byte(want)) {
			t.Errorf("the save file lacks %q", want)
		}
	}
	// GTKWave opens the save file: every trace it names is in the compare
	// VCD, the marker sits on the mismatch.
	script := filepath.Join(wv.Dir, "probe.tcl")
	if err := os.WriteFile(script, []byte("set sigs [gtkwave::getDisplayedSignals]\nputs \"DISPLAYED [llength $sigs]\"\nforeach s $sigs { puts \"SIG $s\" }\nputs \"MARKER [gtkwave::getMarker]\"\ngtkwave::/File/Quit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "xvfb-run", "-a", "gtkwave", "-S", script, wv.GTKW).CombinedOutput()
	if err != nil {
		t.Fatalf("gtkwave: %v\n%s", err, out)
	}
	traces := bytes.Count(gtkw, []byte("\ngo.")) + bytes.Count(gtkw, []byte("\nrtl."))
	for _, want := range []string{fmt.Sprintf("DISPLAYED %d", traces), fmt.Sprintf("MARKER %d", 1000*m.Cycle), "SIG go." + m.Signal, "SIG " + rtlName} {
		if !strings.Contains(string(out), want) {
			t.Errorf("GTKWave output lacks %q:\n%s", want, out)
		}
	}
}

// readVCD reads a VCD strictly.
func readVCD(t *testing.T, path string) *vcd.Dump {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := vcd.NewReader(bufio.NewReader(f))
	r.Strict = true
	d, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return d
}

// TestCheckSMRefuses: a kernel outside the RTL's subset is refused before
// anything runs, naming the operation.
func TestCheckSMRefuses(t *testing.T) {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nbfind.u32 %r2, %r1;\nst.global.u32 [%rd1], %r2;\nret;\n}\n")
	im, err := isa.AssembleSource("k.ptx", src)
	if err != nil {
		t.Fatal(err)
	}
	l := pipeline.Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Buffers: []pipeline.Buffer{{Param: "p", Size: 4}}}
	_, err = RunSM(context.Background(), SMOptions{Config: cfg, Image: im, Launch: l})
	var ue *UnsupportedError
	if !errors.As(err, &ue) || ue.What != "BFIND" || !strings.Contains(err.Error(), "unsupported in SM RTL: BFIND at k.ptx:10") {
		t.Fatalf("got %v", err)
	}
	l.Grid = [3]uint32{65536, 65535, 2}
	if err := CheckSM(cfg, im, l); err == nil || !strings.Contains(err.Error(), "a grid of 8589803520 CTAs") {
		t.Fatalf("grid: %v", err)
	}
	// Named barriers other than 0 are not in the subset.
	bar := []byte(".version 7.8\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\nbar.sync 1;\nret;\n}\n")
	bim, err := isa.AssembleSource("bar.ptx", bar)
	if err != nil {
		t.Fatal(err)
	}
	l.Grid = [3]uint32{1, 1, 1}
	var bue *UnsupportedError
	if err := CheckSM(cfg, bim, l); !errors.As(err, &bue) || bue.What != "BAR.id" {
		t.Fatalf("bar.sync 1: %v", err)
	}
	// What a callee holds counts: bfind in a function the kernel calls.
	callee := []byte(".version 7.8\n.target sm_90\n.address_size 64\n.func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b32 %r<3>;\nld.param.u32 %r1, [a];\nbfind.u32 %r2, %r1;\nst.param.b32 [r], %r2;\nret;\n}\n" +
		".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n{\n.param .b32 a0;\nst.param.b32 [a0], %r1;\n.param .b32 r0;\ncall.uni (r0), f, (a0);\nld.param.b32 %r2, [r0];\n}\nst.global.u32 [%rd1], %r2;\nret;\n}\n")
	cim, err := isa.AssembleSource("callee.ptx", callee)
	if err != nil {
		t.Fatal(err)
	}
	var cue *UnsupportedError
	if err := CheckSM(cfg, cim, l); !errors.As(err, &cue) || cue.What != "BFIND" || !strings.Contains(cue.Where, "callee.ptx:8") {
		t.Fatalf("a callee's bfind: %v", err)
	}
	// .const data is not in the subset (.global data is).
	cst := []byte(".version 7.8\n.target sm_90\n.address_size 64\n.const .align 4 .u32 c[2] = {1, 2};\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nld.const.u32 %r1, [c];\nst.global.u32 [%rd1], %r1;\nret;\n}\n")
	kim, err := isa.AssembleSource("const.ptx", cst)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSM(cfg, kim, l); err == nil || !strings.Contains(err.Error(), ".const data") {
		t.Fatalf(".const data: %v", err)
	}
	big := cfg
	big.SM.LocalBytes = 524288
	if err := CheckSM(big, im, l); err == nil || !strings.Contains(err.Error(), "sm.local_bytes 524288") {
		t.Fatalf("local memory: %v", err)
	}
	cfg.Sched.Policy = "fifo"
	if err := CheckSM(cfg, im, l); err == nil || !strings.Contains(err.Error(), "sched.policy fifo") {
		t.Fatalf("policy: %v", err)
	}
}
