package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/cosim"
)

// cosimCmd runs `smsim cosim ARGS...` in-process.
func cosimCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return smsim(t, append([]string{"cosim"}, args...)...)
}

func TestCosimExitCodes(t *testing.T) {
	root := repoRoot(t)
	cases := []struct {
		name string
		args []string
		code int
		out  []string // in stdout (code 0) or stderr
	}{
		{"random", []string{"--unit", "warp_sched", "--cycles", "20000", "--seed", "3"}, 0,
			[]string{"warp_sched NumWarps=16 Policy=1 TwoLevelActive=8: 20000 cycles, 0 mismatches"}},
		{"policy from the configuration", []string{"--unit", "warp_sched", "--cycles", "5000", "--set", "sched.policy=two_level"}, 0,
			[]string{"Policy=2", "0 mismatches"}},
		{"all", []string{"--all", "--cycles", "5000"}, 0,
			[]string{"Policy=0", "Policy=1", "Policy=2", "reg_pool NumCTAs=32", "reg_pool NumCTAs=2"}},
		{"reg_pool at the default (h100) configuration", []string{"--unit", "reg_pool", "--cycles", "100000"}, 0,
			[]string{"reg_pool NumCTAs=32 NumPorts=4 AllocGranularity=8 MaxThreadsPerCTA=1024 MaxRegsPerThread=256 Regfile=65536 RegAllocUnit=256: 100000 cycles, 0 mismatches"}},
		{"from kernel", []string{"--unit", "warp_sched", "--from-kernel", filepath.Join(root, "examples", "demo_collatz.ptx"), "--grid", "2", "--block", "64",
			"--buf", "0=512", "--buf", "1=64", "--buf", "2=8", "--arg", "3=27"}, 0,
			[]string{"completed after", "warp_sched[0]", "warp_sched[3]", "0 mismatches"}},
		{"from kernel, trap unit", []string{"--unit", "trap_unit", "--preset", "small", "--from-kernel", filepath.Join(root, "examples", "demo_collatz.ptx"), "--grid", "2", "--block", "64",
			"--buf", "0=512", "--buf", "1=64", "--buf", "2=8", "--arg", "3=27"}, 0,
			[]string{"completed after", "trap_unit NumWarps=8", "0 mismatches"}},
		{"no unit", nil, 2, []string{"say which unit"}},
		{"unknown unit", []string{"--unit", "nope"}, 2, []string{"smsim: cosim: --unit nope: no such unit"}},
		{"bad cycles", []string{"--unit", "warp_sched", "--cycles", "many"}, 2, []string{"--cycles"}},
		{"all and unit", []string{"--all", "--unit", "warp_sched"}, 2, []string{"exclude"}},
		{"bad set", []string{"--unit", "warp_sched", "--set", "sched.policy=fifo"}, 2, []string{"sched.policy"}},
		{"bad batch", []string{"--unit", "warp_sched", "--batch", "0"}, 2, []string{"--batch"}},
		{"stray argument", []string{"--unit", "warp_sched", "extra"}, 2, []string{"unexpected arguments"}},
		{"missing kernel", []string{"--from-kernel", filepath.Join(t.TempDir(), "none.ptx")}, 2, []string{"--from-kernel"}},
		{"bad launch", []string{"--from-kernel", filepath.Join(root, "examples", "demo_collatz.ptx")}, 2, []string{"neither bound nor given"}},
		{"bad rtl dir", []string{"--unit", "warp_sched", "--rtl-dir", filepath.Join(t.TempDir(), "nope")}, 2, []string{"--rtl-dir"}},
		{"unknown flag", []string{"--frobnicate"}, 2, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := cosimCmd(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, c.code, out, errs)
			}
			text := out
			if c.code != 0 {
				text = errs
			}
			for _, s := range c.out {
				if !strings.Contains(text, s) {
					t.Errorf("output lacks %q:\n%s", s, text)
				}
				if strings.Contains(text, "smsim: smsim") {
					t.Errorf("the prefix is doubled:\n%s", text)
				}
			}
		})
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	vdir, err := cosim.FindVerilogDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(vdir)
}

// TestMismatchExit1 runs the command on a modified copy of the RTL (GTO
// picks the youngest ready warp): it reports the mismatch and exits 1.
// The copy is the one cosim's TestMutationsAreCaught makes ("age-order"),
// at the same place, so the two share one cached build.
func TestCosimMismatchExit1(t *testing.T) {
	root := repoRoot(t)
	dir := filepath.Join(root, "verilog", "build", "mutants", "age-order", "rtl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"smsim_pkg.sv", "warp_sched.sv"} {
		data, err := os.ReadFile(filepath.Join(root, "verilog", "rtl", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "warp_sched.sv" {
			old := "older[NumWarps*j + i] = warp_age_d[StampWidth*i +: StampWidth] <="
			if bytes.Count(data, []byte(old)) != 1 {
				t.Fatalf("mutation site %q not found", old)
			}
			data = bytes.Replace(data, []byte(old), []byte("older[NumWarps*j + i] = warp_age_d[StampWidth*i +: StampWidth] >="), 1)
		}
		p := filepath.Join(dir, f)
		if cur, err := os.ReadFile(p); err != nil || !bytes.Equal(cur, data) {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	vcdDir := t.TempDir()
	code, out, errs := cosimCmd(t, "--unit", "warp_sched", "--cycles", "50000", "--rtl-dir", dir, "--vcd", vcdDir)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	for _, s := range []string{"mismatch at cycle", "go ", "rtl ", "inputs of the last", "gtkwave " + vcdDir, "smsim: cosim: 1 of 1 runs mismatched"} {
		if !strings.Contains(errs, s) {
			t.Errorf("stderr lacks %q:\n%s", s, errs)
		}
	}
	for _, f := range []string{"warp_sched.go.vcd", "warp_sched.rtl.vcd", "warp_sched.compare.vcd", "warp_sched.gtkw"} {
		if _, err := os.Stat(filepath.Join(vcdDir, f)); err != nil {
			t.Error(err)
		}
	}
}
