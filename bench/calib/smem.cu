// smem: shared-memory latency and bank conflicts.
//
// smem_chase: one thread follows a chain of byte offsets through a 4 KiB
// shared array (built in the kernel, 33 words apart so each step is a new
// bank), `steps` timed steps. out[0] = cycles, out[1] = steps.
//
// smem_conflict: one warp; lane l reads word l*stride of the shared array
// over and over (each word holds its own offset, so every load depends on
// the previous one and the address stays fixed). With 32 banks of 4 bytes,
// stride n (1, 2, 4, 8, 16, 32) is an n-way bank conflict; stride 0 is a
// broadcast. out[0] = cycles of `steps` dependent loads, out[1] = steps.
#include "../../examples/smsim_cuda.h"

#define WORDS 1024

extern "C" __global__ void smem_chase(u32 *out, u32 steps) {
  __shared__ u32 s[WORDS];
  for (u32 i = 0; i < WORDS; i++)
    s[i] = ((i + 33) % WORDS) * 4;
  __syncthreads();
  u32 j = 0;
  const char *base = (const char *)s;
  u64 t0 = __nvvm_read_ptx_sreg_clock64();
#pragma unroll 4
  for (u32 i = 0; i < steps; i++)
    j = *(const u32 *)(base + j);
  u64 t1 = __nvvm_read_ptx_sreg_clock64();
  out[0] = (u32)(t1 - t0);
  out[1] = steps;
  out[2] = j;
}

extern "C" __global__ void smem_conflict(u32 *out, u32 steps, u32 stride) {
  __shared__ u32 s[WORDS];
  u32 l = tid_x();
  u32 w = (l * stride) % WORDS;
  s[w] = w * 4;
  __syncthreads();
  u32 j = w * 4;
  const char *base = (const char *)s;
  u64 t0 = __nvvm_read_ptx_sreg_clock64();
#pragma unroll 4
  for (u32 i = 0; i < steps; i++)
    j = *(const u32 *)(base + j);
  u64 t1 = __nvvm_read_ptx_sreg_clock64();
  if (l == 0) {
    out[0] = (u32)(t1 - t0);
    out[1] = steps;
  }
  out[2 + l] = j;
}
