package sweep

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// studyDir makes a directory with two kernel files and returns it.
func studyDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "kernels"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"diverge.ptx", "loop.ptx"} {
		if err := os.WriteFile(filepath.Join(dir, "kernels", k), []byte("// "+k+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeSpec(t testing.TB, dir, text string) string {
	t.Helper()
	p := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// issueSpec is the form the issue requires to work as written.
const issueSpec = `workloads:
  - kernel: kernels/diverge.ptx
    args: [--block, "64", --buf, out=256]
  - kernel: kernels/loop.ptx
    args: [--grid, "2", --block, "768", --buf, "0=6144", --arg, "1=50"]
axes:
  sched.count: [1, 2, 4]
  sched.policy: [lrr, gto]
metrics: [cycles, ipc]
`

func TestParseIssueForm(t *testing.T) {
	dir := studyDir(t)
	s, err := Load(writeSpec(t, dir, issueSpec))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Workloads) != 2 || s.Workloads[0].Name != "diverge" || s.Workloads[1].Kernel != filepath.Join(dir, "kernels", "loop.ptx") {
		t.Errorf("workloads: %+v", s.Workloads)
	}
	if len(s.Axes) != 2 || s.Axes[0].Key != "sched.count" || strings.Join(s.Axes[1].Values, ",") != "lrr,gto" {
		t.Errorf("axes: %+v", s.Axes)
	}
	if strings.Join(s.Metrics, ",") != "cycles,ipc" {
		t.Errorf("metrics: %v", s.Metrics)
	}
	pts, err := s.Points()
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 12 {
		t.Fatalf("%d points, want 12", len(pts))
	}
	hashes := map[string]bool{}
	for _, p := range pts {
		hashes[p.Hash] = true
	}
	if len(hashes) != 12 {
		t.Errorf("%d distinct hashes for 12 points", len(hashes))
	}
	want := []string{"run", filepath.Join(dir, "kernels", "diverge.ptx"), "--block", "64", "--buf", "out=256", "--json", "--preset", "h100", "--set", "sched.count=1", "--set", "sched.policy=lrr"}
	if got := strings.Join(pts[0].Args, " "); got != strings.Join(want, " ") {
		t.Errorf("args\n got %s\nwant %s", got, strings.Join(want, " "))
	}
}

func TestParseForms(t *testing.T) {
	dir := studyDir(t)
	tests := []struct {
		name   string
		spec   string
		points int
		check  func(*Spec, []Point) string
	}{
		{"range", `workloads: [{kernel: kernels/loop.ptx}]
axes:
  lat.global: {from: 100, to: 800, step: 100}
`, 8, func(s *Spec, _ []Point) string {
			if got := strings.Join(s.Axes[0].Values, ","); got != "100,200,300,400,500,600,700,800" {
				return "values " + got
			}
			return ""
		}},
		{"preset and seeds", `workloads: [{kernel: kernels/loop.ptx}]
axes:
  preset: [h100, small]
  seed: {from: 1, to: 3}
`, 6, func(_ *Spec, p []Point) string {
			a := strings.Join(p[5].Args, " ")
			if !strings.Contains(a, "--preset small") || !strings.Contains(a, "--seed 3") {
				return "args " + a
			}
			return ""
		}},
		{"exclude", `workloads: [{kernel: kernels/loop.ptx}, {kernel: kernels/diverge.ptx}]
axes:
  sched.count: [1, 2, 4]
  sched.policy: [lrr, gto]
exclude:
  - {sched.count: 4, sched.policy: gto}
  - {workload: diverge, sched.count: [1, 2]}
`, 12 - 2 - 4, nil},
		{"fixed set", `workloads: [{kernel: kernels/loop.ptx}]
set: {sched.policy: gto}
`, 1, func(_ *Spec, p []Point) string {
			if a := strings.Join(p[0].Args, " "); !strings.Contains(a, "--set sched.policy=gto") {
				return "args " + a
			}
			return ""
		}},
		{"plots", `workloads: [{kernel: kernels/loop.ptx}]
axes: {sched.count: [1, 2], sched.policy: [lrr, gto]}
metrics: [cycles, stalls.wait, regpool.high_water, warps.0.instructions]
plots:
  - {kind: bars, metric: cycles, x: sched.count, group: sched.policy}
  - {kind: lines, metric: ipc, x: sched.count, group: [sched.policy], per: workload}
  - {kind: stalls, x: sched.policy}
  - {kind: heatmap, metric: ipc, x: sched.count, y: sched.policy}
  - {kind: speedup, baseline: {sched.count: 1}, x: workload, group: [sched.count, sched.policy]}
`, 4, func(s *Spec, _ []Point) string {
			if len(s.Plots) != 5 || s.Plots[4].Metric != "cycles" || s.Plots[0].Name != "bars-cycles-sched.count-sched.policy" {
				return "plots " + strings.Join([]string{s.Plots[0].Name, s.Plots[4].Metric}, " ")
			}
			return ""
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Load(writeSpec(t, dir, tc.spec))
			if err != nil {
				t.Fatal(err)
			}
			pts, err := s.Points()
			if err != nil {
				t.Fatal(err)
			}
			if len(pts) != tc.points {
				t.Errorf("%d points, want %d", len(pts), tc.points)
			}
			if tc.check != nil {
				if msg := tc.check(s, pts); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	dir := studyDir(t)
	const wl = "workloads: [{kernel: kernels/loop.ptx}]\n"
	tests := []struct {
		name, spec string
		pos        string // line:col
		msg        string
	}{
		{"unknown config key", wl + "axes:\n  sched.cuont: [1, 2]\n", "3:3", `sched.cuont`},
		{"bad value", wl + "axes:\n  sched.policy: [lrr, fifo]\n", "3:23", `sched.policy`},
		{"unknown metric", wl + "metrics: [cycles, cylces]\n", "2:19", `unknown metric "cylces"`},
		{"unknown stall state", wl + "metrics: [stalls.waiting]\n", "2:11", `no stall state "waiting"`},
		{"metric names a group", wl + "metrics: [stalls]\n", "2:11", `names a group`},
		{"bad range step", wl + "axes:\n  lat.global: {from: 100, to: 800, step: 0}\n", "3:42", `bad range: step 0`},
		{"bad range order", wl + "axes:\n  lat.global: {from: 800, to: 100}\n", "3:31", `bad range: to 100 is below from 800`},
		{"bad range key", wl + "axes:\n  lat.global: {from: 1, to: 8, by: 2}\n", "3:32", `bad range: unknown key "by"`},
		{"bad range number", wl + "axes:\n  lat.global: {from: one, to: 8}\n", "3:22", `bad range: from "one"`},
		{"missing workload file", "workloads:\n  - kernel: kernels/nope.ptx\n", "2:13", `no such file`},
		{"missing workloads", "axes: {sched.count: [1]}\n", "1:1", `workloads: missing`},
		{"unknown top key", wl + "axis: {}\n", "2:1", `unknown key "axis"`},
		{"controlled flag", "workloads: [{kernel: kernels/loop.ptx, args: [--json]}]\n", "1:47", `--json is set by the sweep`},
		{"exclude not an axis", wl + "axes: {sched.count: [1, 2]}\nexclude: [{sched.policy: gto}]\n", "3:12", `"sched.policy" is not an axis`},
		{"exclude bad value", wl + "axes: {sched.count: [1, 2]}\nexclude: [{sched.count: 3}]\n", "3:25", `has no value "3"`},
		{"plot kind", wl + "plots: [{kind: pie, x: workload}]\n", "2:16", `unknown plot kind "pie"`},
		{"plot axis", wl + "plots: [{kind: bars, metric: cycles, x: sched.count}]\n", "2:41", `"sched.count" is not an axis`},
		{"speedup without baseline", wl + "plots: [{kind: speedup, x: workload}]\n", "2:10", `baseline: missing`},
		{"syntax", "workloads: [\n", "1:", ``},
		{"duplicate value", wl + "axes: {sched.count: [1, 1]}\n", "2:25", `value "1" given twice`},
		{"section key", wl + "axes: {sched: [1]}\n", "2:8", `is a section`},
		{"set preset", wl + "set: {preset: small}\n", "2:7", `not a configuration key`},
		{"plan workload", "workloads: [{plan: p.yaml}]\n", "1:14", `plan-file workloads are not supported`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := writeSpec(t, dir, tc.spec)
			_, err := Load(path)
			if err == nil {
				t.Fatalf("no error for\n%s", tc.spec)
			}
			first := strings.SplitN(err.Error(), "\n", 2)[0]
			if !strings.HasPrefix(first, path+":"+tc.pos) {
				t.Errorf("error %q does not start with %s:%s", first, path, tc.pos)
			}
			if !regexp.MustCompile(`^.+:\d+:\d+: `).MatchString(first) {
				t.Errorf("error %q is not file:line:col: message", first)
			}
			if !strings.Contains(first, tc.msg) {
				t.Errorf("error %q does not say %q", first, tc.msg)
			}
		})
	}
}

func TestCheckMetric(t *testing.T) {
	tests := []struct {
		metric string
		ok     bool
	}{
		{"cycles", true},
		{"ipc", true},
		{"warp_instructions", true},
		{"stalls.long_scoreboard", true},
		{"stalls.idle", true},
		{"regpool.launch_nreg", true},
		{"regpool.ctas.0.high_water", true},
		{"regpool.high_water", true},
		{"regpool.inc_blocked_cycles", true},
		{"warps.3.instructions", true},
		{"buffers.out.0", true},
		{"status", true},
		{"", false},
		{"cycle", false},
		{"stalls", false},
		{"stalls.nope", false},
		{"warps.x.instructions", false},
		{"cycles.low", false},
		{"regpool.ctas", false},
		{"metrics.l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", true},
		{"metrics.launch__shared_mem_config_size", true},
		{"metrics.smsp__inst_executed_pipe_fma.sum", true},
		{"metrics.l1tex__data_bank_conflicts.sum", false},
		{"metrics", false},
	}
	for _, tc := range tests {
		err := CheckMetric(tc.metric)
		if (err == nil) != tc.ok {
			t.Errorf("CheckMetric(%q) = %v, want ok %v", tc.metric, err, tc.ok)
		}
	}
}

func TestHashDependsOnKernelAndConfig(t *testing.T) {
	dir := studyDir(t)
	path := writeSpec(t, dir, "workloads: [{kernel: kernels/loop.ptx}]\naxes: {lat.global: [100, 200]}\n")
	hashes := func() []string {
		s, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		pts, err := s.Points()
		if err != nil {
			t.Fatal(err)
		}
		return []string{pts[0].Hash, pts[1].Hash}
	}
	a := hashes()
	if b := hashes(); a[0] != b[0] || a[1] != b[1] {
		t.Errorf("hashes differ between two loads: %v %v", a, b)
	}
	if a[0] == a[1] {
		t.Error("two configurations share a hash")
	}
	if err := os.WriteFile(filepath.Join(dir, "kernels", "loop.ptx"), []byte("// changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := hashes(); c[0] == a[0] {
		t.Error("editing the kernel left its hash unchanged")
	}
}

func FuzzParse(f *testing.F) {
	dir := studyDir(f)
	f.Add([]byte(issueSpec))
	f.Add([]byte("workloads: [{kernel: kernels/loop.ptx}]\naxes: {lat.global: {from: 1, to: 9, step: 2}, seed: [1, 2]}\nexclude: [{seed: 1}]\nplots: [{kind: heatmap, metric: ipc, x: seed, y: lat.global}]\n"))
	f.Add([]byte("a: &x [1]\nb: *x\n"))
	f.Add([]byte("- 1\n- 2\n"))
	f.Add([]byte("workloads: !!map {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(filepath.Join(dir, "fuzz.yaml"), data)
		if err != nil {
			if s != nil {
				t.Fatal("a spec and an error")
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, filepath.Join(dir, "fuzz.yaml")+":") {
					t.Fatalf("error line %q does not name the file", line)
				}
			}
			return
		}
		if len(s.Workloads) == 0 {
			t.Fatal("a spec without workloads")
		}
	})
}

// A metric path reaches a report key with dots (Nsight Compute's names
// under metrics) as the rest of the path.
func TestMetricValueDottedKey(t *testing.T) {
	rep := decodeReport(`{"cycles": 7, "metrics": {"lts__t_sector_hit_rate.pct": 12.5, "dram__bytes_read.sum": 64}, "warps": [{"instructions": 3}]}`)
	for m, want := range map[string]float64{
		"cycles":                             7,
		"metrics.lts__t_sector_hit_rate.pct": 12.5,
		"metrics.dram__bytes_read.sum":       64,
		"warps.0.instructions":               3,
	} {
		got, ok := metricFloat(rep, m)
		if !ok || got != want {
			t.Errorf("%s = %v, %v; want %v", m, got, ok, want)
		}
	}
	for _, m := range []string{"metrics.dram__bytes_read", "metrics.nope.sum", "cycles.x"} {
		if v, ok := metricValue(rep, m); ok {
			t.Errorf("%s = %v, want missing", m, v)
		}
	}
}

// Every study in studies/ is a valid spec: its kernels exist, its axes
// are config keys, its metrics and plots check.
func TestStudiesLoad(t *testing.T) {
	specs, err := filepath.Glob(filepath.Join("..", "studies", "*.yaml"))
	if err != nil || len(specs) == 0 {
		t.Fatalf("no studies: %v", err)
	}
	for _, p := range specs {
		s, err := Load(p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if pts, err := s.Points(); err != nil || len(pts) == 0 {
			t.Errorf("%s: %d points, %v", p, len(pts), err)
		}
	}
}
