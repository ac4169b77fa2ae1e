package main

import (
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
