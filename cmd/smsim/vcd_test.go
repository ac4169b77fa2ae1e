package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/vcd"
)

// smsim run --vcd writes a VCD that the strict reader accepts and a .gtkw
// beside it; the waveform flags without --vcd are bad input.
func TestRunVCD(t *testing.T) {
	p, _ := examplePTX(t, "div_ifelse")
	out := filepath.Join(t.TempDir(), "run.vcd")
	args := []string{"run", p, "--grid", "2", "--block", "64", "--buf", "0=512", "--buf", "1=512", "--buf", "2=512", "--vcd", out, "--vcd-scope", "sm_top.g_warp", "--vcd-window", "10:200"}
	if code, _, stderr := smsim(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := vcd.NewReader(f)
	r.Strict = true
	d, err := r.ReadAll()
	if err != nil {
		t.Fatalf("strict reader: %v", err)
	}
	_ = d
	if _, err := os.Stat(strings.TrimSuffix(out, ".vcd") + ".gtkw"); err != nil {
		t.Fatalf("no save file: %v", err)
	}
	code, _, stderr := smsim(t, "run", p, "--vcd-window", "1:2")
	if code != 2 || !strings.Contains(stderr, "--vcd") {
		t.Fatalf("--vcd-window without --vcd: exit %d %q", code, stderr)
	}
}
