package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCosimSMRefuses: `cosim --sm` refuses a launch outside the SM RTL's
// subset before building or running anything (exit 2, naming it), and
// rejects flags of the unit mode.
func TestCosimSMRefuses(t *testing.T) {
	k := filepath.Join("..", "..", "cosim", "testdata", "sm", "sm_diverge.ptx")
	code, _, stderr := smsim(t, "cosim", "--sm", "--preset", "small", "--set", "mem.model=hier", "--grid", "2", "--block", "64", "--buf", "0=256", "--arg", "1=5", k)
	if code != 2 || !strings.Contains(stderr, "unsupported in SM RTL: mem.model hier") {
		t.Fatalf("mem.model: exit %d: %s", code, stderr)
	}
	code, _, stderr = smsim(t, "cosim", "--sm", "--preset", "small", "--set", "pipe.throttle=true", "--block", "64", "--buf", "0=256", k)
	if code != 2 || !strings.Contains(stderr, "unsupported in SM RTL: pipe.throttle") {
		t.Fatalf("pipe.throttle: exit %d: %s", code, stderr)
	}
	code, _, stderr = smsim(t, "cosim", "--sm", "--unit", "warp_sched", k)
	if code != 2 || !strings.Contains(stderr, "--sm and --unit exclude each other") {
		t.Fatalf("--unit: exit %d: %s", code, stderr)
	}
}

// TestCosimSMExamplesCoverageUsage: --examples and --coverage belong to
// --sm; --examples takes no kernel and no launch flags (each example has
// its own launch); --coverage wants a directory. Each is bad input (exit
// 2) before anything builds.
func TestCosimSMExamplesCoverageUsage(t *testing.T) {
	k := filepath.Join("..", "..", "cosim", "testdata", "sm", "sm_diverge.ptx")
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--examples"}, "--examples needs --sm"},
		{[]string{"--unit", "warp_sched", "--coverage", t.TempDir()}, "--coverage needs --sm"},
		{[]string{"--sm", "--examples", k}, "--examples runs the example kernels: no KERNEL argument"},
		{[]string{"--sm", "--examples", "--preset", "small", "--block", "64"}, "--examples and --block exclude each other"},
		{[]string{"--sm", "--examples", "--preset", "small", "--coverage", file}, "--coverage " + file + ": not a directory"},
		{[]string{"--sm", "--examples", "--preset", "small", "--coverage", ""}, "--coverage: give a directory"},
		{[]string{"--sm", "--preset", "small", "--coverage", file, "--block", "64", "--buf", "0=256", k}, "not a directory"},
		{[]string{"--sm", "--random", "2", "--preset", "small", "--coverage", file}, "not a directory"},
	}
	for _, c := range cases {
		code, _, stderr := smsim(t, append([]string{"cosim"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, stderr)
		}
	}
}

// TestCosimSMMismatchVCD: `cosim --sm --vcd DIR` over a mutated copy of
// the SM RTL (the writeback latency one cycle short, as cosim's
// TestSMLockstepCatchesMutant, sharing its directory and so its builds)
// exits 1 with the report, and writes the waveforms of the mismatch into
// DIR: the Go SM's VCD, the bench's VCD, both side by side and the
// GTKWave save file, which the report names.
func TestCosimSMMismatchVCD(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Verilated SM")
	}
	root := repoRoot(t)
	dir := filepath.Join(root, "verilog", "build", "mutants", "sm_writeback_lat", "rtl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(root, "verilog", "rtl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(root, "verilog", "rtl", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "sm_writeback.sv" {
			old := "32'(push_lat_i) == k + 1"
			if bytes.Count(data, []byte(old)) != 1 {
				t.Fatalf("mutation site %q not found", old)
			}
			data = bytes.Replace(data, []byte(old), []byte("32'(push_lat_i) == k"), 1)
		}
		p := filepath.Join(dir, e.Name())
		if cur, err := os.ReadFile(p); err != nil || !bytes.Equal(cur, data) {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	k := filepath.Join("..", "..", "cosim", "testdata", "sm", "sm_affine.ptx")
	vcdDir := t.TempDir()
	code, _, stderr := smsim(t, "cosim", "--sm", "--preset", "small", "--block", "64", "--buf", "0=256", "--buf", "1=256", "--arg", "2=5", "--rtl-dir", dir, "--vcd", vcdDir, k)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	for _, s := range []string{"SM mismatch at cycle", "sm_top.u_writeback_", "issue history", "gtkwave " + filepath.Join(vcdDir, "sm_top.gtkw")} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	for _, f := range []string{"sm_top.go.vcd", "sm_top.rtl.vcd", "sm_top.compare.vcd", "sm_top.gtkw"} {
		if st, err := os.Stat(filepath.Join(vcdDir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
