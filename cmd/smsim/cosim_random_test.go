package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/randprog"
)

// TestCosimSMRandomUsage: --random needs --sm and no kernel, and takes
// no launch flags; bad counts and features are bad input (exit 2).
func TestCosimSMRandomUsage(t *testing.T) {
	k := filepath.Join("..", "..", "cosim", "testdata", "sm", "sm_diverge.ptx")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--random", "3"}, "give --sm as well"},
		{[]string{"--sm", "--random", "3", k}, "no KERNEL argument"},
		{[]string{"--sm", "--random", "many"}, "--random \"many\""},
		{[]string{"--sm", "--random", "3", "--block", "64"}, "--random and --block exclude each other"},
		{[]string{"--sm", "--random", "3", "--features", "bogus"}, "--features: unknown feature \"bogus\""},
		{[]string{"--sm", "--random", "3"}, "cosim: the SM RTL does not run the base random program: unsupported in SM RTL: mem.model hier"},
		{[]string{"--sm", "--random", "3", "--preset", "small", "--set", "pipe.throttle=true"}, "does not run the base random program: unsupported in SM RTL: pipe.throttle"},
	}
	for _, c := range cases {
		code, _, stderr := cosimCmd(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, stderr)
		}
	}
}

// TestCosimSMRandom runs a few programs of the RTL's preset (exit 0 with
// a summary), then the same series on a copy of the RTL whose writeback
// stage is a cycle late: exit 1, the seed, the program written out, and
// its command re-runs it to the same mismatch.
func TestCosimSMRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Verilated SM")
	}
	code, out, stderr := cosimCmd(t, "--sm", "--random", "4", "--seed", "5", "--preset", "small")
	if code != 0 || !strings.Contains(out, "sm_top: 4 random programs (seed 5, features: compare branch") || !strings.Contains(out, "0 mismatches") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, stderr)
	}
	code, _, stderr = cosimCmd(t, "--sm", "--random", "2", "--preset", "small", "--features", "pmevent")
	if code != 2 || !strings.Contains(stderr, "unsupported in SM RTL: PMEVENT") || !strings.Contains(stderr, "re-run it with") {
		t.Fatalf("features outside the subset: exit %d: %s", code, stderr)
	}
	// The mutant of cosim's TestSMLockstepCatchesMutant, at the same place
	// (one cached build for both).
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
	code, _, stderr = cosimCmd(t, "--sm", "--random", "4", "--seed", "5", "--preset", "small", "--rtl-dir", dir)
	if code != 1 || !strings.Contains(stderr, "random program 1 of 4 (index 0, seed 0x") || !strings.Contains(stderr, "SM mismatch at cycle") {
		t.Fatalf("mutant: exit %d: %s", code, stderr)
	}
	m := regexp.MustCompile(`(?m)^  smsim (cosim --sm .*)$`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no re-run command in %s", stderr)
	}
	re := strings.Fields(m[1])
	if _, err := os.Stat(re[2]); err != nil {
		t.Fatalf("the program %s: %v", re[2], err)
	}
	if sh, err := os.ReadFile(strings.TrimSuffix(re[2], ".ptx") + ".sh"); err != nil || !strings.Contains(string(sh), "cosim --sm") {
		t.Fatalf("the script: %v %s", err, sh)
	}
	code2, _, stderr2 := smsim(t, re...)
	mism := regexp.MustCompile(`SM mismatch at cycle \d+: \S+`)
	if code2 != 1 || mism.FindString(stderr2) == "" || mism.FindString(stderr2) != mism.FindString(stderr) {
		t.Fatalf("re-run: exit %d: %s\nfirst: %s", code2, stderr2, stderr)
	}
	os.RemoveAll(filepath.Dir(re[2]))
}

// TestRandomProgramsAssemble: `smsim asm` accepts generated kernels of
// every family (the requirement on each generated kernel).
func TestRandomProgramsAssemble(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 30; i++ {
		p, err := randprog.Generate(randprog.Seed(21, i), randprog.All(), randprog.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "k.ptx")
		if err := os.WriteFile(f, p.PTX, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := smsim(t, "asm", "-o", filepath.Join(dir, "k.bin"), f); code != 0 {
			t.Fatalf("seed %#x: exit %d: %s", p.Seed, code, stderr)
		}
	}
}

// TestRandomProgramRerun: the files and flags a failing program is
// written out with describe the same launch: `smsim run` with them (in
// place of `cosim --sm`) ends with the buffers the generator's own Go run
// ends with, for programs of every family (2-D blocks, traps, ...).
func TestRandomProgramRerun(t *testing.T) {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		p, err := randprog.Generate(randprog.Seed(31, i), randprog.All(), randprog.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := p.RunGo(cfg)
		if err != nil {
			t.Fatal(err)
		}
		dir, args, err := writeRandomProgram(p, []string{"--preset", "small"})
		if err != nil {
			t.Fatal(err)
		}
		if args[0] != "cosim" || args[1] != "--sm" {
			t.Fatalf("args %v", args)
		}
		out := filepath.Join(dir, "out.bin")
		run := append([]string{"run", args[2], "--out", p.Launch.Buffers[0].Param + "=" + out}, args[3:]...)
		if code, _, stderr := smsim(t, run...); code != 0 {
			t.Fatalf("seed %#x: smsim %v: exit %d: %s", p.Seed, run, code, stderr)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want := rep.Buffers[p.Launch.Buffers[0].Param]
		if len(got) != 4*len(want) {
			t.Fatalf("seed %#x: %d bytes, want %d", p.Seed, len(got), 4*len(want))
		}
		for j, w := range want {
			if binary.LittleEndian.Uint32(got[4*j:]) != w {
				t.Fatalf("seed %#x: word %d differs", p.Seed, j)
			}
		}
		os.RemoveAll(dir)
	}
}
