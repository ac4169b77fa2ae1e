// Level-synchronous breadth-first search (Rodinia's two-kernel BFS) over a
// graph in CSR form: rowptr[v] .. rowptr[v+1] index v's neighbours in col.
// The host loop clears *over, runs bfs_expand then bfs_advance, and stops
// when *over stays 0: the frontier is empty. cost[v] is v's level (-1:
// unreached; the host sets the source's to 0, its frontier and visited
// flags to 1).
//
//   clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
//            -S -O2 -x cuda bfs.cu -o bfs.ptx
#include "../smsim_cuda.h"

// Every vertex of the frontier gives its unvisited neighbours the next
// level and marks them for the next frontier. Two frontier vertices may
// write the same neighbour: they write the same level.
extern "C" __global__ void bfs_expand(int n, const int *rowptr, const int *col,
                                      int *frontier, int *next,
                                      const int *visited, int *cost) {
  int v = gtid();
  if (v >= n || !frontier[v])
    return;
  frontier[v] = 0;
  for (int e = rowptr[v]; e < rowptr[v + 1]; e++) {
    int u = col[e];
    if (!visited[u]) {
      cost[u] = cost[v] + 1;
      next[u] = 1;
    }
  }
}

// The marked vertices become the frontier; *over says there is one.
extern "C" __global__ void bfs_advance(int n, int *frontier, int *next,
                                       int *visited, int *over) {
  int v = gtid();
  if (v >= n || !next[v])
    return;
  frontier[v] = 1;
  visited[v] = 1;
  next[v] = 0;
  *over = 1;
}
