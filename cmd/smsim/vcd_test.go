package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/trace"
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
	// --vcd-scope: only signals under sm_top.g_warp (and the clock and reset that
	// every dump carries at its top).
	inScope := 0
	for _, sig := range d.Signals {
		if sig.Scope == "sm_top.g_warp" || strings.HasPrefix(sig.Scope, "sm_top.g_warp[") {
			inScope++
			continue
		}
		if sig.Scope != "sm_top" || sig.Ref != "clk_i" && sig.Ref != "rst_ni" {
			t.Errorf("signal %s is outside --vcd-scope sm_top.g_warp", sig.Name)
		}
	}
	if inScope == 0 {
		t.Fatal("no signal under sm_top.g_warp")
	}
	// --vcd-window 10:200: every change lies in cycles [10, 200).
	lo, hi := uint64(10*trace.TicksPerCycle), uint64(200*trace.TicksPerCycle)
	changes := 0
	for _, sig := range d.Signals {
		for _, c := range sig.Changes {
			changes++
			if c.Time < lo || c.Time >= hi {
				t.Fatalf("%s changes at time %d, outside the window [%d, %d)", sig.Name, c.Time, lo, hi)
			}
		}
	}
	if changes == 0 || d.Signal("sm_top.g_warp[0].pc_q") == nil {
		t.Fatalf("%d changes; pc_q of warp 0 present: %v", changes, d.Signal("sm_top.g_warp[0].pc_q") != nil)
	}
	if _, err := os.Stat(strings.TrimSuffix(out, ".vcd") + ".gtkw"); err != nil {
		t.Fatalf("no save file: %v", err)
	}
	code, _, stderr := smsim(t, "run", p, "--vcd-window", "1:2")
	if code != 2 || !strings.Contains(stderr, "--vcd") {
		t.Fatalf("--vcd-window without --vcd: exit %d %q", code, stderr)
	}
}
