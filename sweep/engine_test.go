package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeRun is a deterministic Runner: the report's numbers derive from the
// arguments; a point with sched.count=3 ends trapped (exit 1) and one with
// lat.global=13 is refused (exit 2).
func fakeRun(calls *atomic.Int64) Runner {
	return func(args []string) ([]byte, []byte, int) {
		if calls != nil {
			calls.Add(1)
		}
		joined := strings.Join(args, " ")
		if strings.Contains(joined, "lat.global=13") {
			return nil, []byte("smsim: --set lat.global=13: unlucky\n"), 2
		}
		sum := sha256.Sum256([]byte(joined))
		cycles := 1000 + binary.LittleEndian.Uint32(sum[:])%1000
		instr := 500 + binary.LittleEndian.Uint32(sum[4:])%500
		status, code := "completed", 0
		if strings.Contains(joined, "sched.count=3") {
			status, code = "trapped", 1
		}
		rep := map[string]any{
			"status": status, "cycles": cycles, "warp_instructions": instr,
			"ipc":    float64(instr) / float64(cycles),
			"stalls": map[string]any{"idle": 5, "selected": instr, "wait": cycles / 3, "not_selected": cycles / 5},
			"errors": []any{},
			"regpool": map[string]any{"launch_nreg": 32, "ctas": []any{
				map[string]any{"high_water": 7, "warps": []any{map[string]any{"inc_blocked_cycles": 3}}},
				map[string]any{"high_water": 9, "warps": []any{map[string]any{"inc_blocked_cycles": 4}}},
			}},
		}
		if code == 1 {
			rep["errors"] = []any{map[string]any{"kind": "trap", "message": "trap instruction"}}
		}
		out, _ := json.Marshal(rep)
		return append(out, '\n'), nil, code
	}
}

const engineSpec = `workloads:
  - kernel: kernels/diverge.ptx
  - kernel: kernels/loop.ptx
axes:
  sched.count: [1, 2, 4]
  sched.policy: [lrr, gto]
metrics: [cycles, ipc, stalls.wait, regpool.high_water, regpool.inc_blocked_cycles]
plots:
  - {kind: bars, metric: cycles, x: sched.count, group: sched.policy}
  - {kind: lines, metric: ipc, x: sched.count, group: sched.policy, per: workload}
  - {kind: stalls, x: sched.count, group: sched.policy}
  - {kind: heatmap, metric: ipc, x: sched.count, y: sched.policy}
  - {kind: speedup, baseline: {sched.count: 1, sched.policy: lrr}, x: workload, group: [sched.count, sched.policy]}
`

func loadEngineSpec(t *testing.T) (*Spec, string) {
	t.Helper()
	dir := studyDir(t)
	s, err := Load(writeSpec(t, dir, engineSpec))
	if err != nil {
		t.Fatal(err)
	}
	return s, filepath.Join(dir, "out")
}

func TestResume(t *testing.T) {
	s, out := loadEngineSpec(t)
	var calls atomic.Int64
	run := fakeRun(&calls)
	ctx := context.Background()
	sum, err := RunLocal(ctx, s, out, run, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 12 || len(sum.Ran) != 12 || sum.Skipped != 0 || calls.Load() != 12 {
		t.Fatalf("first run: %+v, %d calls", sum, calls.Load())
	}
	// Again: nothing runs.
	sum, err = RunLocal(ctx, s, out, run, Options{Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Ran) != 0 || sum.Skipped != 12 || calls.Load() != 12 {
		t.Fatalf("second run: %+v, %d calls", sum, calls.Load())
	}
	// Delete three rows: exactly those run again.
	pts, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	deleted := []string{pts[1].Hash, pts[6].Hash, pts[11].Hash}
	db, err := OpenDB(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Delete(deleted...); err != nil {
		t.Fatal(err)
	}
	db.Close()
	sum, err = RunLocal(ctx, s, out, run, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	ran := append([]string(nil), sum.Ran...)
	sort.Strings(ran)
	sort.Strings(deleted)
	if strings.Join(ran, ",") != strings.Join(deleted, ",") || calls.Load() != 15 {
		t.Fatalf("after deleting 3 rows ran %v, want %v (%d calls)", ran, deleted, calls.Load())
	}
	// --force runs everything.
	sum, err = RunLocal(ctx, s, out, run, Options{Workers: 2, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Ran) != 12 || calls.Load() != 27 {
		t.Fatalf("force: %+v, %d calls", sum, calls.Load())
	}
}

func TestFailuresRecorded(t *testing.T) {
	dir := studyDir(t)
	s, err := Load(writeSpec(t, dir, "workloads: [{kernel: kernels/loop.ptx}]\naxes:\n  sched.count: [1, 3]\n  lat.global: [12, 13]\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	panicky := func(args []string) ([]byte, []byte, int) {
		if strings.Contains(strings.Join(args, " "), "sched.count=1 --set lat.global=12") {
			panic("runner bug")
		}
		return fakeRun(nil)(args)
	}
	sum, err := RunLocal(context.Background(), s, out, panicky, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Ran) != 4 || sum.Failed != 4 {
		t.Fatalf("%+v", sum)
	}
	tab, err := LoadTable(s, out)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ status, err string }{
		{StatusError, "panic: runner bug"},
		{StatusBadInput, "unlucky"},
		{"trapped", "trap: trap instruction"},
		{StatusBadInput, "unlucky"},
	}
	for i, w := range want {
		r := tab.Results[i]
		if r.Status != w.status || !strings.Contains(r.Error, w.err) {
			t.Errorf("point %d (%v): status %q error %q, want %q containing %q", i, r.Values, r.Status, r.Error, w.status, w.err)
		}
	}
}

func TestOutputs(t *testing.T) {
	s, out := loadEngineSpec(t)
	if _, err := RunLocal(context.Background(), s, out, fakeRun(nil), Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	files, err := WriteOutputs(s, out)
	if err != nil {
		t.Fatal(err)
	}
	// One file per plot, two for the per-workload one; PNG and SVG each.
	if len(files) != 2*6 {
		t.Errorf("%d plot files: %v", len(files), files)
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil || st.Size() < 1000 {
			t.Errorf("plot %s: %v (size %d)", f, err, st.Size())
		}
	}
	f, err := os.Open(filepath.Join(out, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	wantCols := "workload,sched.count,sched.policy,cycles,ipc,stalls.wait,regpool.high_water,regpool.inc_blocked_cycles,status,error"
	if len(rows) != 13 || strings.Join(rows[0], ",") != wantCols {
		t.Fatalf("csv: %d rows, header %v", len(rows), rows[0])
	}
	if got := strings.Join(rows[1][:3], ","); got != "diverge,1,lrr" || rows[1][6] != "9" || rows[1][7] != "7" || rows[1][8] != "completed" {
		t.Errorf("row 1: %v", rows[1])
	}
	var doc struct {
		Columns []string         `json:"columns"`
		Rows    []map[string]any `json:"rows"`
	}
	data, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if strings.Join(doc.Columns, ",") != wantCols || len(doc.Rows) != 12 {
		t.Fatalf("json: columns %v, %d rows", doc.Columns, len(doc.Rows))
	}
	// The JSON and CSV agree on every cell.
	for i, row := range doc.Rows {
		for j, c := range doc.Columns {
			got := ""
			if row[c] != nil {
				got = fmt.Sprint(row[c])
			}
			if c == "ipc" {
				continue // float formatting differs; checked below
			}
			if got != rows[i+1][j] {
				t.Errorf("row %d column %s: json %q csv %q", i, c, got, rows[i+1][j])
			}
		}
		if _, ok := row["ipc"].(float64); !ok {
			t.Errorf("row %d: ipc %v is not a number", i, row["ipc"])
		}
		if _, ok := row["sched.count"].(float64); !ok {
			t.Errorf("row %d: sched.count %v is not a number", i, row["sched.count"])
		}
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), `src="data:image/png;base64,`); n != 6 {
		t.Errorf("report.html embeds %d images, want 6", n)
	}
}

// TestShards checks that running the points as Slurm shards and collecting
// them gives the local engine's results (the Slurm test runs real daemons).
func TestShards(t *testing.T) {
	s, out := loadEngineSpec(t)
	local := filepath.Join(filepath.Dir(out), "local")
	if _, err := RunLocal(context.Background(), s, local, fakeRun(nil), Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(t.TempDir(), "sbatch")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 42\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	job, err := SubmitSlurm(s, out, SlurmOptions{Exe: "/bin/smsim", Tasks: 5, Sbatch: fake})
	if err != nil {
		t.Fatal(err)
	}
	if job.JobID != "42" || job.Tasks != 5 || job.Points != 12 {
		t.Fatalf("job %+v", job)
	}
	script, err := os.ReadFile(filepath.Join(out, "slurm", "job.sh"))
	if err != nil || !strings.Contains(string(script), "#SBATCH --array=0-4") || !strings.Contains(string(script), "'/bin/smsim' sweep run-shard") {
		t.Fatalf("job.sh: %v\n%s", err, script)
	}
	total := 0
	for task := range 5 {
		n, err := RunShard(context.Background(), out, task, 2, fakeRun(nil))
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if total != 12 {
		t.Errorf("shards ran %d points, want 12", total)
	}
	if n, err := RunShard(context.Background(), out, 0, 1, fakeRun(nil)); err != nil || n != 0 {
		t.Errorf("a task run again ran %d points (%v), want 0", n, err)
	}
	st, err := Status(out)
	if err != nil || st.Done != 12 {
		t.Fatalf("status %v: %v", st, err)
	}
	if n, err := Collect(out); err != nil || n != 12 {
		t.Fatalf("collect %d: %v", n, err)
	}
	a, err := LoadTable(s, local)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadTable(s, out)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Results {
		if a.Results[i].Report != b.Results[i].Report || a.Results[i].Status != b.Results[i].Status {
			t.Errorf("point %d: local %s %q, shards %s %q", i, a.Results[i].Status, a.Results[i].Report, b.Results[i].Status, b.Results[i].Report)
		}
	}
}

// TestProgressLines checks the off-terminal progress: a line per interval
// with done/total, failures and ETA, and a closing line.
func TestProgressLines(t *testing.T) {
	s, out := loadEngineSpec(t)
	var buf strings.Builder
	if _, err := RunLocal(context.Background(), s, out, fakeRun(nil), Options{Workers: 1, Progress: &buf, Interval: time.Nanosecond}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 13 {
		t.Fatalf("%d lines, want 12 progress lines and a summary:\n%s", len(lines), buf.String())
	}
	re := regexp.MustCompile(`^sweep: (\d+)/12 points, 0 failed, elapsed \S+, ETA \S+$`)
	for i, l := range lines[:12] {
		m := re.FindStringSubmatch(l)
		if m == nil || m[1] != fmt.Sprint(i+1) {
			t.Errorf("line %d: %q", i, l)
		}
	}
	if !strings.HasPrefix(lines[12], "sweep: ran 12 points, 0 failed, in ") {
		t.Errorf("summary %q", lines[12])
	}
}
