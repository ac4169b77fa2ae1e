package bfs_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/plan"
)

func runPlanFile(t *testing.T, path string) *plan.Result {
	t.Helper()
	pl, err := plan.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	if err := pl.Configure(&cfg); err != nil {
		t.Fatal(err)
	}
	res, err := pl.Run(cfg, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func int32s(w []uint32, n int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(w[i])
	}
	return out
}

// bfs.yaml gives the Go example's results: the same levels as the API
// run on its graph and as the reference, the same launches with the same
// reports, byte for byte.
func TestPlanMatchesAPI(t *testing.T) {
	res := runPlanFile(t, "bfs.yaml")
	row := res.Buffers["rowptr"]
	n := len(row) - 1
	g := graph{n: n, rowptr: int32s(row, n+1), col: int32s(res.Buffers["col"], int(row[n]))}
	want := reference(g, 0)
	got, _, reps := runAPI(t, g, 0, 64)
	if !slices.Equal(got, want) {
		t.Fatalf("API levels %v, reference %v", got, want)
	}
	if planCost := int32s(res.Buffers["cost"], n); !slices.Equal(planCost, want) {
		t.Fatalf("plan levels %v, reference %v", planCost, want)
	}
	if len(res.Launches) != len(reps) {
		t.Fatalf("plan: %d launches, API: %d", len(res.Launches), len(reps))
	}
	for i, l := range res.Launches {
		pj, _ := json.Marshal(l.Report)
		aj, _ := json.Marshal(reps[i])
		if !bytes.Equal(pj, aj) {
			t.Fatalf("launch %d (%s) reports differ\nplan %s\n API %s", i+1, l.Kernel, pj, aj)
		}
	}
}

// A bigger random graph read from binary files, from another source, over
// several CTAs: the plan, the API and the reference agree.
func TestPlanRandomGraph(t *testing.T) {
	g := randomGraph(9, 500, 3)
	const src, block = 7, 128
	dir := t.TempDir()
	write := func(name string, v []int32) {
		b, _ := binary.Append(nil, binary.LittleEndian, v)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("rowptr.bin", g.rowptr)
	write("col.bin", g.col)
	ptx, _ := filepath.Abs("bfs.ptx")
	one := strings.TrimSuffix(strings.Repeat("0, ", src)+"1", ", ")
	grid := (g.n + block - 1) / block
	text := fmt.Sprintf(`module: %s
buffers:
  rowptr: {file: rowptr.bin}
  col: {file: col.bin}
  frontier: {i32: [%[2]s], size: %[3]d}
  next: %[3]d
  visited: {i32: [%[2]s], size: %[3]d}
  cost: {i32: [%[4]s], size: %[3]d, fill: 0xff}
  over: 4
steps:
  - repeat:
      until: over[0] == 0
      max: %[5]d
      steps:
        - fill: over
        - launch: bfs_expand
          grid: %[6]d
          block: %[7]d
          args: {0: %[5]d, 1: rowptr, 2: col, 3: frontier, 4: next, 5: visited, 6: cost}
        - launch: bfs_advance
          grid: %[6]d
          block: %[7]d
          args: [%[5]d, frontier, next, visited, over]
outputs:
  cost: cost.bin
`, ptx, one, 4*g.n, strings.Repeat("-1, ", src)+"0", g.n, grid, block)
	path := filepath.Join(dir, "bfs.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runPlanFile(t, path)
	want := reference(g, src)
	api, _, _ := runAPI(t, g, src, block)
	if !slices.Equal(api, want) {
		t.Fatalf("API levels differ from the reference")
	}
	data, err := os.ReadFile(filepath.Join(dir, "cost.bin"))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]int32, g.n)
	if _, err := binary.Decode(data, binary.LittleEndian, got); err != nil || len(data) != 4*g.n {
		t.Fatalf("cost.bin: %d bytes, %v", len(data), err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("plan levels (cost.bin) differ from the reference\n got %v\nwant %v", got, want)
	}
	if depth := int(slices.Max(want)); len(res.Launches) != 2*(depth+1) {
		t.Fatalf("%d launches for depth %d", len(res.Launches), depth)
	}
}
