package plan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/device"
	"github.com/smsim/smsim/diag"
	"github.com/smsim/smsim/internal/clangtest"
	"github.com/smsim/smsim/pipeline"
)

// hostPTX is testdata/host.ptx's absolute path.
func hostPTX(t testing.TB) string {
	p, err := filepath.Abs("testdata/host.ptx")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// writePlan writes a plan (with $PTX replaced by host.ptx's path) into a
// fresh directory and returns its path.
func writePlan(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(text, "$PTX", hostPTX(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runPlan(t *testing.T, path string) (*Result, error) {
	t.Helper()
	pl, err := Load(path)
	if err != nil {
		return nil, err
	}
	cfg := config.Default()
	if err := pl.Configure(&cfg); err != nil {
		return nil, err
	}
	return pl.Run(cfg, Options{})
}

const featuresPlan = `module: $PTX
set: {run.max_cycles: 1000000}
vars:
  coef: {f32: [0.25]}
buffers:
  x: {f32: [1, 2, 3, 4, 5, 6, 7, 8]}
  y: {size: 32, fill: 0x7f}
  c: 4
steps:
  - launch: axpy            # y = 2x + 0.5 + 0.25
    block: 32
    args: [y, x, 8, 2.0f, 0.5d]
  - launch: axpy            # x[4+i] = x[i] + 0.25: a pointer into the middle, x twice
    block: [32, 1]
    args: {0: x+16, axpy_param_1: x, 2: 0x4, 3: 1.0f, 4: 0d}
  - launch: axpy            # in place
    grid: 1
    block: 32
    args: [x, x, 8, 1.5f, 0.0d]
  - repeat:                 # counter: 3, 6, 9, 12
      until: i32 c[0] >= 10
      max: 100
      steps:
        - launch: count
          args: [c, 3]
  - repeat:
      times: 2              # 9, 6
      steps:
        - launch: count
          args: [c, -3]
outputs:
  y: y.bin
`

// Every feature of a plan, checked word by word: literal and filled
// buffers, a __constant__ variable, typed scalars, a pointer into the
// middle of a buffer, the same buffer twice, positional and named
// arguments, repeat until and times, a .global variable that keeps its
// value from launch to launch, an output file.
func TestRunFeatures(t *testing.T) {
	path := writePlan(t, featuresPlan)
	res, err := runPlan(t, path)
	if err != nil {
		t.Fatal(err)
	}
	x := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	y := make([]float32, 8)
	for i := range y {
		y[i] = 2*x[i] + 0.75
	}
	for i := range 4 {
		x[4+i] = x[i] + 0.25
	}
	for i := range x {
		x[i] = 1.5*x[i] + 0.25
	}
	floats := func(w []uint32) []float32 {
		f := make([]float32, len(w))
		for i, v := range w {
			f[i] = math.Float32frombits(v)
		}
		return f
	}
	if got := floats(res.Buffers["x"]); !equal(got, x) {
		t.Errorf("x = %v, want %v", got, x)
	}
	if got := floats(res.Buffers["y"]); !equal(got, y) {
		t.Errorf("y = %v, want %v", got, y)
	}
	if c := int32(res.Buffers["c"][0]); c != 6 {
		t.Errorf("c = %d, want 6", c)
	}
	if res.Status != "completed" || len(res.Launches) != 3+4+2 {
		t.Errorf("status %s after %d launches, want completed after 9", res.Status, len(res.Launches))
	}
	var sum uint64
	for _, l := range res.Launches {
		sum += l.Report.Cycles
	}
	if res.Cycles != sum {
		t.Errorf("cycles %d, the launches sum to %d", res.Cycles, sum)
	}
	if at := res.Launches[1].At; !strings.HasSuffix(at, "plan.yaml:13:5") {
		t.Errorf("second launch at %s", at)
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(path), "y.bin"))
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 32)
	for i, v := range y {
		binary.LittleEndian.PutUint32(want[4*i:], math.Float32bits(v))
	}
	if string(data) != string(want) {
		t.Errorf("y.bin = % x\nwant    % x", data, want)
	}
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A repeat whose condition never holds stops at max with a Failure (exit
// 1), and so does a launch that faults; the result so far comes back.
func TestRunFailures(t *testing.T) {
	res, err := runPlan(t, writePlan(t, `module: $PTX
buffers: {c: 4}
steps:
  - repeat:
      until: c[0] == 1000
      max: 3
      steps: [{launch: count, args: [c, 1]}]
`))
	var f *Failure
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "plan.yaml:4:5: repeat: c[0] == 1000 still false after max 3 passes") {
		t.Fatalf("error %v", err)
	}
	if res == nil || res.Status != "repeat_limit" || len(res.Launches) != 3 || res.Buffers["c"][0] != 3 {
		t.Fatalf("result %+v", res)
	}
	res, err = runPlan(t, writePlan(t, `module: $PTX
buffers: {x: 8, y: 8}
steps:
  - launch: axpy
    block: 4
    args: [y, x, 4, 1.0f, 0d]
`))
	var re *device.RunError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "plan.yaml:4:5: kernel axpy ended fault") {
		t.Fatalf("error %v", err)
	}
	if res == nil || res.Status != "fault" || len(res.Launches) != 1 || len(res.Launches[0].Report.Sanitizer) == 0 {
		t.Fatalf("result %+v", res)
	}
}

// Every mistake is reported at its place, file:line:col: message.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ plan, want string }{
		{"buffers: [", "plan.yaml:1:10: "},
		{"module: $PTX\nsteps: [{fill: a}]\nbogus: 1\n", "plan.yaml:3:1: unknown key \"bogus\""},
		{"steps: [{launch: k}]\n", "plan.yaml:1:1: no module"},
		{"module: $PTX\n", "plan.yaml:1:1: no steps"},
		{"module: $PTX\nbuffers:\n  a: {u32: [1], file: x.bin}\nsteps: [{fill: a}]\n", "plan.yaml:3:17: buffers.a: \"u32\" and \"file\" both give the contents"},
		{"module: $PTX\nbuffers:\n  a: {u32: [1, -1]}\nsteps: [{fill: a}]\n", "plan.yaml:3:16: buffers.a.u32: \"-1\" is not a 32-bit unsigned integer"},
		{"module: $PTX\nbuffers:\n  a: {f32: [x]}\nsteps: [{fill: a}]\n", "plan.yaml:3:13: buffers.a.f32: \"x\" is not a number"},
		{"module: $PTX\nbuffers:\n  a: {u32: [1, 2], size: 4}\nsteps: [{fill: a}]\n", "plan.yaml:3:26: buffers.a.size: 4 bytes hold less than its 8 bytes"},
		{"module: $PTX\nbuffers:\n  a: {fill: 1}\nsteps: [{fill: a}]\n", "plan.yaml:3:3: buffers.a: give a size"},
		{"module: $PTX\nbuffers:\n  9a: 4\nsteps: [{fill: 9a}]\n", "plan.yaml:3:3: buffers: \"9a\" is not a name"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps: [{fill: b}]\n", "plan.yaml:3:16: fill: no buffer \"b\""},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    args: [nope, 1]\n", "plan.yaml:5:12: args: \"nope\" is no buffer"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    args: [a, 1.5]\n", "plan.yaml:5:15: args: \"1.5\": say its width: 1.5f (float32) or 1.5d (float64)"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    grid: 0\n    args: [a, 1]\n", "plan.yaml:5:11: launch.grid: \"0\" is not a positive 32-bit integer"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    bogus: 1\n", "plan.yaml:5:5: launch: unknown key \"bogus\""},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    fill: a\n", "plan.yaml:5:5: step: launch and fill in one step"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - run: count\n", "plan.yaml:4:5: step: a step is a launch, a fill or a repeat"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - repeat:\n      until: a[0] == 0\n      steps: [{fill: a}]\n", "plan.yaml:5:7: repeat: until needs max: N"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - repeat:\n      until: a == 0\n      max: 3\n      steps: [{fill: a}]\n", "plan.yaml:5:14: repeat.until: \"a == 0\": want [TYPE ]BUFFER[INDEX] OP VALUE"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - repeat:\n      times: 2\n      max: 3\n      steps: [{fill: a}]\n", "plan.yaml:5:7: repeat: times counts the passes"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps: [{fill: a}]\noutputs: {b: b.bin}\n", "plan.yaml:4:11: outputs: no buffer \"b\""},
		// Found once the modules are loaded and the buffers allocated.
		{"module: nope.ptx\nbuffers: {a: 4}\nsteps: [{fill: a}]\n", "plan.yaml:1:9: module: open "},
		{"module: $PTX\nbuffers: {a: {file: nope.bin}}\nsteps: [{fill: a}]\n", "plan.yaml:2:11: buffer a: open "},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: nope\n", "plan.yaml:4:5: launch: no kernel \"nope\" (kernels: axpy, count)"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    args: [a]\n", "plan.yaml:4:5: launch count: 1 arguments for its 2 parameters (count_param_0, count_param_1)"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    args: [a, 1.5f]\n", "plan.yaml:4:5: launch count: argument 1 (count_param_1): a float32 for a .u32 parameter"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    args: [a+8, 1]\n", "plan.yaml:5:12: args: a+8 points 4 bytes past the end of buffer a (4 bytes)"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    args: {0: a, x: 1}\n", "plan.yaml:5:18: args: kernel count has no parameter \"x\""},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    args: {0: a}\n", "plan.yaml:4:5: launch count: parameter count_param_1 is given no argument"},
		{"module: $PTX\nbuffers: {a: 4}\nvars: {nope: {u32: [1]}}\nsteps: [{fill: a}]\n", "plan.yaml:3:8: var nope: module"},
		{"module: $PTX\nbuffers: {a: 4}\nvars: {coef: {u32: [1, 2, 3]}}\nsteps: [{fill: a}]\n", "plan.yaml:3:8: var coef: set coef: 12 bytes for a variable of 8 bytes"},
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - repeat:\n      until: a[1] == 0\n      max: 3\n      steps: [{fill: a}]\n", "plan.yaml:5:14: repeat.until: u32[1] lies beyond the 4 bytes of buffer a"},
		{"module: $PTX\nset: {sm.nope: 1}\nbuffers: {a: 4}\nsteps: [{fill: a}]\n", "plan.yaml:2:7: set sm.nope"},
		// Refused by the model when the launch is built.
		{"module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    block: 2048\n    args: [a, 1]\n", "plan.yaml:4:5: launch count: block.x = 2048 exceeds"},
	} {
		_, err := runPlan(t, writePlan(t, c.plan))
		var list diag.ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%q: error %v (%T), want a positioned one", c.plan, err, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.plan, err, c.want)
		}
	}
}

// The parser never panics and every error it gives is positioned.
func FuzzParsePlan(f *testing.F) {
	f.Add([]byte(featuresPlan))
	if b, err := os.ReadFile("../examples/bfs/bfs.yaml"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("module: a\nbuffers: {a: {u32: [1], size: 8}}\nsteps:\n  - repeat: {until: f32 a[0] < 1.5, max: 2, steps: [{fill: {buffer: a, byte: 1}}]}\n"))
	f.Add([]byte("steps: [{launch: k, args: {0: a+0x10, 1: -3}}]"))
	f.Add([]byte("- &x [*x]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("f.yaml", data)
		var list diag.ErrorList
		if err != nil && !errors.As(err, &list) {
			t.Fatalf("unpositioned error %T: %v", err, err)
		}
		for _, e := range list {
			if e.File != "f.yaml" {
				t.Fatalf("error names %q", e.File)
			}
		}
	})
}

// testdata/host.ptx is exactly clang-16's output for host.cu.
func TestHostPTXIsClangOutput(t *testing.T) {
	want, err := os.ReadFile("testdata/host.ptx")
	if err != nil {
		t.Fatal(err)
	}
	clangtest.CheckPTX(t, "testdata/host.cu", want)
}

// Running any plan that parses never panics, every sanitizer check on:
// bad input is an error (the module is testdata/host.ptx, runs are capped
// at 20000 cycles).
func FuzzRunPlan(f *testing.F) {
	f.Add([]byte(featuresPlan))
	f.Add([]byte("module: $PTX\nbuffers: {a: 4}\nsteps:\n  - launch: count\n    grid: [2, 2]\n    block: [4, 4, 4]\n    cluster: 2\n    dynamic_smem: 99999\n    args: [a+4, -1]\n"))
	f.Add([]byte("module: $PTX\nbuffers: {a: {i64: [-1]}}\nvars: {counter: {u8: [1]}}\nsteps:\n  - repeat: {until: i64 a[0] < 0, max: 1, steps: [{launch: axpy, maxnreg: 1, args: [a, a+8, 0x7fffffff, 1e30f, -0.0d]}]}\n"))
	ptx := hostPTX(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		pl, err := Parse(filepath.Join(dir, "f.yaml"), bytes.ReplaceAll(data, []byte("$PTX"), []byte(ptx)))
		if err != nil {
			return
		}
		for _, o := range pl.Outputs {
			if filepath.IsAbs(o.Path) || strings.Contains(o.Path, "..") {
				return // stay inside the temporary directory
			}
		}
		if launches(pl.Steps) > 64 {
			return // long, not interesting
		}
		cfg := config.Default()
		cfg.Run.MaxCycles = 20000
		if pl.Configure(&cfg) != nil || cfg.Validate() != nil {
			return
		}
		_, _ = pl.Run(cfg, Options{Checks: pipeline.Checks{Init: true, Race: true, Sync: true}})
	})
}

// launches bounds the launches steps can make.
func launches(steps []*Step) int {
	n := 0
	for _, s := range steps {
		switch {
		case s.Launch != nil:
			n++
		case s.Repeat != nil:
			passes := max(s.Repeat.Times, s.Repeat.Max)
			inner := launches(s.Repeat.Steps)
			if inner > 0 && passes > 64/inner {
				return 65
			}
			n += passes * inner
		}
		if n > 64 {
			return 65
		}
	}
	return n
}
