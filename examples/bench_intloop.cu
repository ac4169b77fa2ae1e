// bench_intloop: the benchmark kernel. Every thread runs `iters` iterations
// of a dependent integer chain (mul/add/xor/shift, an LCG and an xorshift)
// and stores its final state. 48 warps in all: grid 2 x block 768 (a CTA
// holds at most 1024 threads, so 1536 threads need two CTAs). `iters` is a
// kernel parameter (Example.Args).
#include "smsim_cuda.h"

__global__ void bench_intloop(u32 *out, u32 iters) {
  u32 i = gtid();
  u32 a = i * 2654435761u + 1;
  u32 b = i ^ 0x12345678u;
  for (u32 k = 0; k < iters; k++) {
    a = a * 1664525u + 1013904223u; // LCG
    b ^= b << 13;                   // xorshift32
    b ^= b >> 17;
    b ^= b << 5;
    a += b >> 7;
  }
  out[i] = a ^ b;
}
