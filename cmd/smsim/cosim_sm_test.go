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
	code, _, stderr := smsim(t, "cosim", "--sm", "--preset", "small", "--grid", "2", "--block", "64", "--buf", "0=256", "--arg", "1=5", k)
	if code != 2 || !strings.Contains(stderr, "unsupported in SM RTL: a grid of 2 CTAs") {
		t.Fatalf("grid: exit %d: %s", code, stderr)
	}
	code, _, stderr = smsim(t, "cosim", "--sm", "--preset", "small", "--set", "sched.policy=two_level", "--block", "64", "--buf", "0=256", k)
	if code != 2 || !strings.Contains(stderr, "unsupported in SM RTL: sched.policy two_level") {
		t.Fatalf("policy: exit %d: %s", code, stderr)
	}
	code, _, stderr = smsim(t, "cosim", "--sm", "--unit", "warp_sched", k)
	if code != 2 || !strings.Contains(stderr, "--sm and --unit exclude each other") {
		t.Fatalf("--unit: exit %d: %s", code, stderr)
	}
}
