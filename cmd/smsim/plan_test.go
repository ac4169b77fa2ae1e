package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smsim run PLAN.yaml runs the BFS plan: exit 0, one line per launch,
// the buffers; --json prints the result with every launch's report.
func TestRunPlan(t *testing.T) {
	plan := filepath.Join("..", "..", "examples", "bfs", "bfs.yaml")
	code, out, stderr := smsim(t, "run", plan)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"status completed: 12 launches", "bfs_expand", "bfs.yaml:25:11", "cost (12 words): 0 1 1 2 3 4 5 2 3 4 4294967295 4294967295"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	dir := t.TempDir()
	costFile := filepath.Join(dir, "cost.bin")
	code, out, stderr = smsim(t, "run", plan, "--json", "--out", "cost="+costFile)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res struct {
		Status   string
		Launches []struct {
			Kernel string
			Report struct{ Status string }
		}
		Buffers map[string][]uint32
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if res.Status != "completed" || len(res.Launches) != 12 || res.Launches[11].Kernel != "bfs_advance" || res.Launches[11].Report.Status != "completed" {
		t.Fatalf("--json result %+v", res)
	}
	if b, err := os.ReadFile(costFile); err != nil || len(b) != 48 || b[0] != 0 || b[4] != 1 || b[44] != 0xff {
		t.Fatalf("--out wrote % x (%v)", b, err)
	}
}

// A bad plan gives file:line:col: message lines (no prefix) and exit 2;
// a plan that stops early exits 1; run's single-launch flags are refused
// with a plan; --set overrides the plan's set.
func TestRunPlanErrors(t *testing.T) {
	ptx, _ := filepath.Abs(filepath.Join("..", "..", "examples", "bfs", "bfs.ptx"))
	bad := writeFile(t, "bad.yaml", "module: "+ptx+"\nbuffers: {a: 4}\nsteps:\n  - launch: bfs_advance\n    args: [1, a, a, a]\n  - fill: b\n")
	code, _, stderr := smsim(t, "run", bad)
	if code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if want := bad + ":6:11: fill: no buffer \"b\"\n"; stderr != want {
		t.Fatalf("stderr %q\nwant   %q", stderr, want)
	}
	code, _, stderr = smsim(t, "run", bad, "--grid", "2")
	if code != 2 || !strings.Contains(stderr, "--grid describes a single PTX launch") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	limit := writeFile(t, "limit.yaml", "module: "+ptx+"\nset: {run.max_cycles: 10}\nbuffers: {a: 4}\nsteps:\n  - launch: bfs_advance\n    args: [1, a, a, a, a]\n")
	code, out, stderr := smsim(t, "run", limit)
	if code != 1 || !strings.Contains(out, "status cycle_limit") || !strings.Contains(stderr, "limit.yaml:5:5: kernel bfs_advance ended cycle_limit") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	code, _, stderr = smsim(t, "run", limit, "--set", "run.max_cycles=0")
	if code != 0 {
		t.Fatalf("--set run.max_cycles=0 over the plan's 10: exit %d: %s", code, stderr)
	}
	code, _, stderr = smsim(t, "run", limit, "--out", "nope=x.bin")
	if code != 2 || !strings.Contains(stderr, "--out nope=x.bin: no buffer \"nope\"") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// --check sync and --check init: a finding makes the run exit 1 and shows
// in the sanitizer table, for a kernel and for a plan; an unknown check
// is refused.
func TestCheckFlag(t *testing.T) {
	ptx, _ := filepath.Abs(filepath.Join("..", "..", "device", "testdata", "memcheck.ptx"))
	args := []string{"run", ptx, "--entry", "split_barrier", "--block", "64", "--buf", "0=256", "--arg", "1=16"}
	if code, _, stderr := smsim(t, args...); code != 0 {
		t.Fatalf("without --check: exit %d: %s", code, stderr)
	}
	code, out, _ := smsim(t, append(args, "--check", "sync")...)
	if code != 1 || !strings.Contains(out, "barrier_divergence") || !strings.Contains(out, "at two instructions") {
		t.Fatalf("--check sync: exit %d\n%s", code, out)
	}
	code, _, stderr := smsim(t, append(args, "--check", "nope")...)
	if code != 2 || !strings.Contains(stderr, `--check: unknown check "nope" (checks: init, race, sync)`) {
		t.Fatalf("--check nope: exit %d: %s", code, stderr)
	}
	plan := writeFile(t, "p.yaml", "module: "+ptx+"\nbuffers: {out: 256}\nsteps:\n  - launch: shared_partial\n    block: 64\n    args: [out, 32]\n")
	if code, _, stderr := smsim(t, "run", plan); code != 0 {
		t.Fatalf("plan without --check: exit %d: %s", code, stderr)
	}
	code, out, stderr = smsim(t, "run", plan, "--check", "init")
	if code != 1 || !strings.Contains(out, "uninitialized_read") || !strings.Contains(stderr, "the sanitizer reported 1 findings") {
		t.Fatalf("plan --check init: exit %d\n%s\n%s", code, out, stderr)
	}
}
