// sm_calls: calls for the SM lockstep (cosim, docs/sm-rtl.md step 4), one
// CTA of three warps (the last partial): direct __noinline__ calls with
// 32- and 64-bit arguments and results (the .param sequence in local
// memory relative to each lane's frame pointer), a function calling
// another, a call made only by the lanes of one side of a branch, a
// recursion whose depth depends on the lane (lanes at different call
// depths: the deepest run first) that some lanes leave early.
#include "../../../examples/smsim_cuda.h"

__device__ __noinline__ u32 mix3(u32 a, u32 b, u32 c) {
  return (a * 31 + b) ^ (c << 3);
}

__device__ __noinline__ u64 widen(u32 a, u64 b) {
  return (u64)a * 0x100000001ull + (b >> 3);
}

__device__ __noinline__ u32 twice(u32 a) { return mix3(a, a + 1, a + 2) + mix3(a, 7, 9); }

// fib: two recursive calls per level, depth n.
__device__ __noinline__ u32 fib(u32 n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

// down: one recursive call per level (not a tail call); lanes with an
// odd n and a large acc stop recursing early.
__device__ __noinline__ u32 down(u32 n, u32 acc) {
  if (n == 0)
    return acc;
  if ((n & 1) && acc > 40)
    return acc ^ n;
  u32 r = down(n - 1, acc * 3 + n);
  return r ^ (r >> 3) ^ n;
}

__global__ void sm_calls(u32 *out, u64 *wide, u32 n) {
  u32 i = tid_x();
  u32 lane = laneid();
  u32 a = mix3(i, lane, n);
  u64 w = widen(a, (u64)i << 40);
  u32 b = (u32)w ^ (u32)(w >> 32);
  if (lane < 12)
    b += twice(lane); // called by lanes 0..11 only
  out[4 * i] = b;
  out[4 * i + 1] = fib(lane % 7);
  out[4 * i + 2] = down(lane % 11, i);
  out[4 * i + 3] = a;
  wide[i] = w;
}
