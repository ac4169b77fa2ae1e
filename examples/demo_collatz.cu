// demo_collatz: the demo kernel. Each lane counts the Collatz steps of its
// own starting value, so lanes leave the loop at very different times
// (divergence and reconvergence); each step calls a __noinline__ function;
// a warp-wide histogram bucket is bumped with an atomic, and each CTA's
// longest chain is found through shared memory. Launch: grid 2, block 64.
#include "smsim_cuda.h"

__device__ __noinline__ u32 collatz_step(u32 n) {
  return (n & 1) ? 3 * n + 1 : n / 2;
}

__global__ void demo_collatz(u32 *steps, u32 *hist, u32 *longest, u32 start) {
  __shared__ u32 best;
  u32 t = tid_x();
  u32 i = gtid();
  if (t == 0)
    best = 0;
  __syncthreads();
  u32 n = start + i;
  u32 s = 0;
  while (n != 1) {
    n = collatz_step(n);
    s++;
  }
  steps[i] = s;
  __nvvm_atom_add_gen_i((int *)&hist[s % 16], 1);
  __nvvm_atom_max_gen_ui(&best, s);
  __syncthreads();
  if (t == 0)
    longest[ctaid_x()] = best;
}
