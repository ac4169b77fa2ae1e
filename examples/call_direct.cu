// call_direct: __noinline__ device functions called directly, with 32-bit,
// 64-bit and float parameters and return values (the .param calling
// sequence), a void function writing through a pointer, a function calling
// another, and a call made only by the lanes of one side of a branch.
// Launch: grid 2, block 64.
#include "smsim_cuda.h"

__device__ __noinline__ u32 mix3(u32 a, u32 b, u32 c) {
  return (a * 31 + b) ^ (c << 3);
}

__device__ __noinline__ u64 widen(u32 a, u64 b) {
  return (u64)a * 0x100000001ull + (b >> 3);
}

__device__ __noinline__ float scale(float x, u32 k) { return x * (float)k + 0.5f; }

__device__ __noinline__ void store2(u32 *p, u32 a, u32 b) {
  p[0] = a;
  p[1] = b;
}

__device__ __noinline__ u32 twice(u32 a) { return mix3(a, a + 1, a + 2) + mix3(a, 7, 9); }

__global__ void call_direct(u32 *out, u32 *pairs, u32 *f) {
  u32 i = gtid();
  u32 lane = laneid();
  u32 a = mix3(i, lane, 5);
  u64 w = widen(a, (u64)i << 40);
  u32 b = (u32)w ^ (u32)(w >> 32);
  if (lane < 12)
    b += twice(lane); // called by lanes 0..11 only
  out[i] = b;
  store2(&pairs[2 * i], a, lane * lane);
  f[i] = (u32)scale((float)lane, i % 5);
}
