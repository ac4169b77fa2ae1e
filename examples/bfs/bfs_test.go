package bfs_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/device"
	"github.com/smsim/smsim/internal/clangtest"
	"github.com/smsim/smsim/pipeline"
)

// graph is a directed graph in CSR form (an undirected edge is two arcs).
type graph struct {
	n           int
	rowptr, col []int32
}

// randomGraph has n vertices and about deg*n arcs, with a few isolated
// vertices and self loops (seeded: the same graph every time).
func randomGraph(seed uint64, n, deg int) graph {
	r := rand.New(rand.NewPCG(seed, 17))
	adj := make([][]int32, n)
	for range deg * n / 2 {
		a, b := r.IntN(n), r.IntN(n)
		if a%7 == 3 || b%7 == 3 {
			continue // vertices 3, 10, 17, ... stay isolated
		}
		adj[a] = append(adj[a], int32(b))
		adj[b] = append(adj[b], int32(a))
	}
	g := graph{n: n, rowptr: []int32{0}}
	for _, a := range adj {
		g.col = append(g.col, a...)
		g.rowptr = append(g.rowptr, int32(len(g.col)))
	}
	return g
}

// reference is a plain queue BFS: the level of every vertex, -1 where
// src does not reach.
func reference(g graph, src int) []int32 {
	level := make([]int32, g.n)
	for i := range level {
		level[i] = -1
	}
	level[src] = 0
	queue := []int{src}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range g.col[g.rowptr[v]:g.rowptr[v+1]] {
			if level[u] < 0 {
				level[u] = level[v] + 1
				queue = append(queue, int(u))
			}
		}
	}
	return level
}

// runAPI runs the BFS of bfs.ptx on the device API with blocks of block
// threads; it returns the levels, the number of host-loop passes and the
// launches' reports.
func runAPI(t *testing.T, g graph, src, block int) ([]int32, int, []*pipeline.Report) {
	t.Helper()
	dev, err := device.Open(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	mod, err := dev.Load("bfs.ptx", bfsPTX)
	if err != nil {
		t.Fatal(err)
	}
	frontier, visited, cost := make([]int32, g.n), make([]int32, g.n), make([]int32, g.n)
	for v := range cost {
		cost[v] = -1
	}
	frontier[src], visited[src], cost[src] = 1, 1, 0
	alloc := func(name string, v []int32) device.Ptr {
		if len(v) == 0 {
			v = []int32{0} // an allocation has at least one byte
		}
		p, err := device.AllocSlice(dev, name, v)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	dRow, dCol := alloc("rowptr", g.rowptr), alloc("col", g.col)
	dFrontier, dNext, dVisited := alloc("frontier", frontier), alloc("next", make([]int32, g.n)), alloc("visited", visited)
	dCost, dOver := alloc("cost", cost), alloc("over", []int32{0})
	lc := device.LaunchConfig{Grid: device.Dim3{uint32((g.n + block - 1) / block)}, Block: device.Dim3{uint32(block)}}
	passes := 0
	var reps []*pipeline.Report
	for ; passes <= g.n; passes++ {
		if err := dev.Fill(dOver, 0, 4); err != nil {
			t.Fatal(err)
		}
		rep, err := mod.Launch("bfs_expand", lc, g.n, dRow, dCol, dFrontier, dNext, dVisited, dCost)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Sanitizer) > 0 {
			t.Fatalf("bfs_expand: sanitizer: %+v", rep.Sanitizer)
		}
		reps = append(reps, rep)
		if rep, err = mod.Launch("bfs_advance", lc, g.n, dFrontier, dNext, dVisited, dOver); err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
		over, err := device.ReadSlice[int32](dev, dOver, 1)
		if err != nil {
			t.Fatal(err)
		}
		if over[0] == 0 {
			break
		}
	}
	got, err := device.ReadSlice[int32](dev, dCost, g.n)
	if err != nil {
		t.Fatal(err)
	}
	return got, passes + 1, reps
}

// The API run agrees with the reference on random graphs, over one CTA
// and over several, from several sources.
func TestBFSMatchesReference(t *testing.T) {
	for _, c := range []struct {
		seed               uint64
		n, deg, block, src int
	}{
		{1, 40, 2, 64, 0},
		{2, 300, 3, 64, 5},
		{3, 300, 1, 128, 0}, // sparse: long paths, unreached parts
		{4, 1000, 4, 256, 999},
	} {
		g := randomGraph(c.seed, c.n, c.deg)
		want := reference(g, c.src)
		got, passes, _ := runAPI(t, g, c.src, c.block)
		if !slices.Equal(got, want) {
			t.Fatalf("graph %d (n=%d): levels differ from the reference\n got %v\nwant %v", c.seed, c.n, got, want)
		}
		if depth := int(slices.Max(want)); passes != depth+1 {
			t.Errorf("graph %d: %d host passes for a BFS of depth %d (want depth+1: the last finds the frontier empty)", c.seed, passes, depth)
		}
	}
}

// bfs.ptx is exactly clang-16's output for bfs.cu.
func TestPTXIsClangOutput(t *testing.T) { clangtest.CheckPTX(t, "bfs.cu", bfsPTX) }
