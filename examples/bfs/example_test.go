package bfs_test

import (
	_ "embed"
	"fmt"
	"log"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/device"
)

//go:embed bfs.ptx
var bfsPTX []byte

// A breadth-first search from vertex 0 of a small undirected graph, one
// level per pass of the host loop: clear the flag, expand the frontier,
// advance it, read the flag back; an empty frontier leaves it clear.
func Example() {
	const n, src = 12, 0
	// Vertices 10 and 11 are unreachable from 0.
	edges := [][2]int32{{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {2, 7}, {7, 8}, {8, 9}, {9, 6}, {10, 11}}

	// The graph in CSR form: rowptr[v] .. rowptr[v+1] index v's
	// neighbours in col.
	adj := make([][]int32, n)
	for _, e := range edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	rowptr, col := []int32{0}, []int32{}
	for _, a := range adj {
		col = append(col, a...)
		rowptr = append(rowptr, int32(len(col)))
	}

	dev, err := device.Open(config.Default())
	if err != nil {
		log.Fatal(err)
	}
	mod, err := dev.Load("bfs.ptx", bfsPTX)
	if err != nil {
		log.Fatal(err)
	}
	// Device arrays: the graph, the frontier and visited flags (the
	// source only), the next frontier, the levels (-1: unreached).
	frontier, visited, cost := make([]int32, n), make([]int32, n), make([]int32, n)
	for v := range cost {
		cost[v] = -1
	}
	frontier[src], visited[src], cost[src] = 1, 1, 0
	must := func(p device.Ptr, err error) device.Ptr {
		if err != nil {
			log.Fatal(err)
		}
		return p
	}
	dRow := must(device.AllocSlice(dev, "rowptr", rowptr))
	dCol := must(device.AllocSlice(dev, "col", col))
	dFrontier := must(device.AllocSlice(dev, "frontier", frontier))
	dNext := must(dev.Alloc("next", 4*n))
	dVisited := must(device.AllocSlice(dev, "visited", visited))
	dCost := must(device.AllocSlice(dev, "cost", cost))
	dOver := must(dev.Alloc("over", 4))

	lc := device.LaunchConfig{Grid: device.Dim3{(n + 63) / 64}, Block: device.Dim3{64}}
	levels := 0
	for {
		if err := dev.Fill(dOver, 0, 4); err != nil {
			log.Fatal(err)
		}
		if _, err := mod.Launch("bfs_expand", lc, n, dRow, dCol, dFrontier, dNext, dVisited, dCost); err != nil {
			log.Fatal(err)
		}
		if _, err := mod.Launch("bfs_advance", lc, n, dFrontier, dNext, dVisited, dOver); err != nil {
			log.Fatal(err)
		}
		over, err := device.ReadSlice[int32](dev, dOver, 1)
		if err != nil {
			log.Fatal(err)
		}
		if over[0] == 0 {
			break // the frontier is empty
		}
		levels++
	}
	got, err := device.ReadSlice[int32](dev, dCost, n)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("levels below the source:", levels)
	fmt.Println("launches:", dev.Launches())
	for v, c := range got {
		fmt.Printf("vertex %2d: level %d\n", v, c)
	}
	// Output:
	// levels below the source: 5
	// launches: 12
	// vertex  0: level 0
	// vertex  1: level 1
	// vertex  2: level 1
	// vertex  3: level 2
	// vertex  4: level 3
	// vertex  5: level 4
	// vertex  6: level 5
	// vertex  7: level 2
	// vertex  8: level 3
	// vertex  9: level 4
	// vertex 10: level -1
	// vertex 11: level -1
}
