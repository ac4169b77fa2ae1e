package cosim

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/vcd"
	"github.com/smsim/smsim/warpsched"
)

func warpSched(t testing.TB, pol warpsched.Policy, n, tla int) Unit {
	t.Helper()
	u, err := WarpSched(warpsched.Params{NumWarps: n, Policy: pol, TwoLevelActive: tla})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func random(u Unit, seed uint64) func() Stimulus {
	return func() Stimulus { return u.NewRandom(seed) }
}

// TestWarpSchedMillion: one million random cycles per policy, at the
// standard parameter sets, with zero mismatches.
func TestWarpSchedMillion(t *testing.T) { unitMillion(t, "warp_sched", 100) }

// TestWarpSchedOddSizes: scheduler sizes off the beaten path: a
// non-power-of-two with a small active set, and more warps than a 64-bit
// word (over TCP).
func TestWarpSchedOddSizes(t *testing.T) {
	cases := []struct {
		pol    warpsched.Policy
		n, tla int
		cycles uint64
		tcp    bool
	}{
		{warpsched.PolicyTwoLevel, 12, 3, 300_000, false},
		{warpsched.PolicyGTO, 70, 8, 30_000, true},
	}
	for _, c := range cases {
		u := warpSched(t, c.pol, c.n, c.tla)
		t.Run(ParamString(u.Params()), func(t *testing.T) {
			cycles := shortCycles(c.cycles)
			res, err := Run(context.Background(), u, random(u, 7), Options{Cycles: cycles, Batch: 1000, Harness: HarnessOptions{TCP: c.tcp}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Cycles != cycles {
				t.Fatalf("compared %d cycles", res.Cycles)
			}
		})
	}
}

// TestRecordsEnd: a recorded stimulus runs to its end when no cycle
// count is given, across batch boundaries.
func TestRecordsEnd(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 16, 8)
	l := u.Layout()
	st := u.NewRandom(3)
	data := make([]byte, 2500*l.InBytes)
	for i := 0; i < 2500; i++ {
		st.Next(data[i*l.InBytes:])
	}
	res, err := Run(context.Background(), u, func() Stimulus {
		r, err := NewRecords(data, l.InBytes)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, Options{Batch: 1000})
	if err != nil || res.Cycles != 2500 {
		t.Fatalf("%d cycles, %v", res.Cycles, err)
	}
}

// TestWholeRunVCD: with VCDDir the Go and Verilator waveforms of the whole
// run are written, and vcd.Diff finds them equal.
func TestWholeRunVCD(t *testing.T) {
	u := warpSched(t, warpsched.PolicyTwoLevel, 16, 8)
	dir := t.TempDir()
	res, err := Run(context.Background(), u, random(u, 5), Options{Cycles: 3000, Batch: 512, VCDDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	wv := res.Waves
	for _, p := range []string{wv.GoVCD, wv.RTLVCD, wv.Compare} {
		checkVCD(t, p, 3000)
	}
	if _, err := os.Stat(wv.GTKW); err != nil {
		t.Error(err)
	}
	d, err := diffVCDs(wv.GoVCD, wv.RTLVCD, "warp_sched")
	if err != nil || d != nil {
		t.Fatalf("Go and Verilator VCDs differ: %v %v", d, err)
	}
}

// checkVCD reads a VCD in strict mode and checks it reaches the end of
// the given number of cycles.
func checkVCD(t *testing.T, path string, cycles uint64) *vcd.Dump {
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
	if cycles > 0 && d.EndTime != cyclePeriod*(cycles-1)+cyclePeriod/2 {
		t.Errorf("%s ends at %d, want %d", path, d.EndTime, cyclePeriod*(cycles-1)+cyclePeriod/2)
	}
	return d
}

// mutantRTL writes a copy of verilog/rtl with one replacement in file
// under verilog/build/mutants/<name>/rtl (rewriting a file only when its
// contents change, so make's cache holds across runs) and returns the
// harness options building from it (in the build directory cosim derives
// from the RTL directory, which cmd/smsim's TestCosimMismatchExit1 shares for "age-order").
// The replacement must apply exactly once.
func mutantRTL(t *testing.T, name, file, old, new string) HarnessOptions {
	t.Helper()
	vdir := verilogDir(t)
	base := filepath.Join(vdir, "build", "mutants", name)
	rtlDir := filepath.Join(base, "rtl")
	if err := os.MkdirAll(rtlDir, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(vdir, "rtl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(vdir, "rtl", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == file {
			if n := bytes.Count(data, []byte(old)); n != 1 {
				t.Fatalf("mutation %s: %q occurs %d times in %s", name, old, n, file)
			}
			data = bytes.Replace(data, []byte(old), []byte(new), 1)
		}
		dst := filepath.Join(rtlDir, e.Name())
		if cur, err := os.ReadFile(dst); err == nil && bytes.Equal(cur, data) {
			continue
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return HarnessOptions{RTLDir: rtlDir}
}

// TestMutationsAreCaught breaks the RTL in a copy (a constant, a
// comparison) and checks that the run stops at the right cycle on the
// right signal, with both values, the recent inputs and the waveforms.
func TestMutationsAreCaught(t *testing.T) {
	cases := []struct {
		name, old, new string
		pol            warpsched.Policy
		inputs         func() []warpsched.Inputs
		cycle          uint64
		signal         string
		goVal, rtlVal  string
	}{
		{
			// Launch stamps count by two: the first launch (cycle 10)
			// shows in next_age_q at cycle 11.
			name: "stamp-step", pol: warpsched.PolicyLRR,
			old: "next_age_d = next_age_d + StampWidth'(1);", new: "next_age_d = next_age_d + StampWidth'(2);",
			inputs: func() []warpsched.Inputs {
				ins := make([]warpsched.Inputs, 40)
				ins[10] = warpsched.Inputs{WarpValid: rtl.BitsOf(3), WarpLaunch: rtl.BitsOf(3)}
				for i := 11; i < len(ins); i++ {
					ins[i] = warpsched.Inputs{WarpValid: rtl.BitsOf(3)}
				}
				return ins
			},
			cycle: 11, signal: "next_age_q", goVal: "0x1 (1)", rtlVal: "0x2 (2)",
		},
		{
			// The age comparison flipped: GTO picks the youngest ready
			// warp. Warp 5 is launched at cycle 20, warp 2 at cycle 21;
			// both are ready at cycle 30: Go issues 5, the mutant 2.
			name: "age-order", pol: warpsched.PolicyGTO,
			old: "older[NumWarps*j + i] = warp_age_d[StampWidth*i +: StampWidth] <=", new: "older[NumWarps*j + i] = warp_age_d[StampWidth*i +: StampWidth] >=",
			inputs: func() []warpsched.Inputs {
				ins := make([]warpsched.Inputs, 60)
				ins[20] = warpsched.Inputs{WarpValid: rtl.BitsOf(5), WarpLaunch: rtl.BitsOf(5)}
				ins[21] = warpsched.Inputs{WarpValid: rtl.BitsOf(2, 5), WarpLaunch: rtl.BitsOf(2)}
				for i := 22; i < len(ins); i++ {
					ins[i] = warpsched.Inputs{WarpValid: rtl.BitsOf(2, 5)}
				}
				for i := 30; i < len(ins); i++ {
					ins[i].WarpReady = rtl.BitsOf(2, 5)
				}
				return ins
			},
			cycle: 30, signal: "issue_warp_o", goVal: "0x5 (5)", rtlVal: "0x2 (2)",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := warpSched(t, c.pol, 16, 8)
			ho := mutantRTL(t, c.name, "warp_sched.sv", c.old, c.new)
			m := caught(t, u, records(t, u, c.inputs()), Options{Harness: ho, Window: 8})
			if m.Cycle != c.cycle || m.Signal != c.signal || m.Go != c.goVal || m.RTL != c.rtlVal {
				t.Fatalf("got cycle %d %s go %s rtl %s, want cycle %d %s go %s rtl %s\n%v",
					m.Cycle, m.Signal, m.Go, m.RTL, c.cycle, c.signal, c.goVal, c.rtlVal, m)
			}
			checkReport(t, m, u)
		})
	}
}

// checkReport checks the parts of a mismatch report beyond the values.
func checkReport(t *testing.T, m *Mismatch, u Unit) {
	t.Helper()
	msg := m.Error()
	for _, s := range []string{"mismatch at cycle", m.Signal, "go " + m.Go, "rtl " + m.RTL, "inputs of the last", "gtkwave"} {
		if !strings.Contains(msg, s) {
			t.Errorf("report lacks %q:\n%s", s, msg)
		}
	}
	if want := min(16, int(m.Cycle)+1); len(m.Inputs) != want || m.Inputs[len(m.Inputs)-1].Cycle != m.Cycle {
		t.Errorf("%d input cycles ending at %d, want %d ending at %d", len(m.Inputs), m.Inputs[len(m.Inputs)-1].Cycle, want, m.Cycle)
	}
	if m.Waves == nil {
		t.Fatalf("no waveforms: %v", m.WavesErr)
	}
	if m.WavesErr != nil {
		t.Errorf("waveforms: %v", m.WavesErr)
	}
	defer os.RemoveAll(m.Waves.Dir)
	checkVCD(t, m.Waves.GoVCD, m.Cycle+1)
	rd := checkVCD(t, m.Waves.RTLVCD, m.Cycle+1)
	if rd.Signal("TOP.warp_sched."+m.Signal) == nil {
		t.Errorf("the Verilator VCD has no TOP.warp_sched.%s", m.Signal)
	}
	cd := checkVCD(t, m.Waves.Compare, m.Cycle+1)
	for _, side := range []string{"go", "rtl"} {
		if cd.Signal(side+".TOP.warp_sched."+m.Signal) == nil {
			t.Errorf("the compare VCD has no %s.TOP.warp_sched.%s", side, m.Signal)
		}
	}
	gtkw, err := os.ReadFile(m.Waves.GTKW)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"[dumpfile] \"" + m.Waves.Compare + "\"", "go.TOP.warp_sched." + m.Signal, "rtl.TOP.warp_sched." + m.Signal} {
		if !bytes.Contains(gtkw, []byte(s)) {
			t.Errorf("the save file lacks %q", s)
		}
	}
	if m.VCDDiff == nil || m.VCDDiff.Time != cyclePeriod*m.Cycle || m.VCDDiff.Signal != "TOP.warp_sched."+m.Signal {
		t.Errorf("vcd.Diff of the two waveforms: %+v, want time %d signal %s", m.VCDDiff, cyclePeriod*m.Cycle, m.Signal)
	}
}

// TestMutationRandom: a subtle mutant (two_level swaps out long-waiting
// warps only while fewer than n_cand-1 precede them) is found by the
// random stimulus; the report's cycle is the first at which the Go model
// and the mutant differ, which a run with the mutant as its own
// reference confirms.
func TestMutationRandom(t *testing.T) {
	u := warpSched(t, warpsched.PolicyTwoLevel, 16, 8)
	ho := mutantRTL(t, "swap-bound", "warp_sched.sv", "swap_out[i] = n_lower < n_cand;", "swap_out[i] = n_lower + CntWidth'(1) < n_cand;")
	m := caught(t, u, random(u, 11), Options{Cycles: 1_000_000, Harness: ho})
	if m.Signal != "active_q" && m.Signal != "issue_valid_o" && m.Signal != "issue_warp_o" {
		t.Errorf("first difference on %s; the mutation changes the active set", m.Signal)
	}
	checkReport(t, m, u)
	// Every earlier cycle matched: the same stimulus up to the cycle
	// before passes.
	if m.Cycle > 0 {
		if _, err := Run(context.Background(), u, random(u, 11), Options{Cycles: m.Cycle, Harness: ho}); err != nil {
			t.Fatalf("cycles before %d: %v", m.Cycle, err)
		}
	}
}

// TestGTKWaveLoadsSaveFile opens the save file of a mismatch in GTKWave
// (headless, under xvfb-run) and checks that every trace resolves and the
// marker sits on the mismatch.
func TestGTKWaveLoadsSaveFile(t *testing.T) {
	u := warpSched(t, warpsched.PolicyLRR, 16, 8)
	ho := mutantRTL(t, "stamp-step", "warp_sched.sv", "next_age_d = next_age_d + StampWidth'(1);", "next_age_d = next_age_d + StampWidth'(2);")
	ins := make([]warpsched.Inputs, 20)
	ins[5] = warpsched.Inputs{WarpValid: rtl.BitsOf(0), WarpLaunch: rtl.BitsOf(0)}
	dir := t.TempDir()
	_, err := Run(context.Background(), u, records(t, u, ins), Options{Harness: ho, VCDDir: dir})
	var m *Mismatch
	if !errors.As(err, &m) || m.Cycle != 6 {
		t.Fatalf("want a mismatch at cycle 6: %v", err)
	}
	script := filepath.Join(dir, "probe.tcl")
	os.WriteFile(script, []byte(`set sigs [gtkwave::getDisplayedSignals]
puts "DISPLAYED [llength $sigs]"
foreach s $sigs { puts "SIG $s" }
puts "MARKER [gtkwave::getMarker]"
gtkwave::/File/Quit
`), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "xvfb-run", "-a", "gtkwave", "-S", script, m.Waves.GTKW).CombinedOutput()
	if err != nil {
		t.Fatalf("gtkwave: %v\n%s", err, out)
	}
	l := u.Layout()
	want := 1 + 2 + 2*(len(l.In)+len(l.Out)) // the clock, the mismatch pair, every pair
	for _, s := range []string{fmt.Sprintf("DISPLAYED %d", want), "MARKER 60", "SIG rtl.TOP.warp_sched.next_age_q[31:0]", "SIG go.TOP.warp_sched.warp_age_q[511:0]"} {
		if !strings.Contains(string(out), s) {
			t.Errorf("GTKWave output lacks %q:\n%s", s, out)
		}
	}
}
