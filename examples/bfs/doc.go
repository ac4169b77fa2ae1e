// Package bfs is a complete small application on the host API (package
// device) and as a launch plan: a level-synchronous breadth-first search
// whose host loop runs until the frontier is empty.
//
//   - bfs.cu: the two kernels in CUDA C (Rodinia's BFS over a CSR graph);
//     bfs.ptx is exactly what clang-16 makes of it:
//     clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc
//     -nocudalib -S -O2 -x cuda bfs.cu -o bfs.ptx (the test checks).
//   - example_test.go: the Go host program (Example), run by go test.
//   - bfs.yaml: the same application as a launch plan, run by
//     smsim run examples/bfs/bfs.yaml (docs/host.md).
//
// The tests check both against a plain-Go BFS, on the example's graph and
// on random ones.
package bfs
