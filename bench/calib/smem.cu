// smem: shared-memory latency and bank conflicts.
//
// smem_chase: one thread follows a chain of shared-window addresses
// through a 4 KiB shared array (built in the kernel, 17 double words
// apart so each step is a new bank), one inline-PTX ld.shared.u64 a step
// (the figure is load-to-use, as in the global chase), `steps` timed
// steps (rounded up to 4). out[0] = cycles, out[1] = steps.
//
// smem_conflict: one warp; lane l reads word l*stride of the shared array
// over and over (each word holds its own offset, so every load depends on
// the previous one and the address stays fixed). With 32 banks of 4 bytes,
// stride n (1, 2, 4, 8, 16, 32) is an n-way bank conflict; stride 0 is a
// broadcast. out[0] = cycles of `steps` dependent loads, out[1] = steps.
//
// smem_bw: shared-memory bandwidth. Every thread reads 8 independent
// conflict-free 16-byte vectors a step (inline PTX ld.shared.v4.u32, lane
// l from banks 4l..4l+3: 512 bytes a warp request, 4 wavefronts, the
// conflict-free minimum), `iters` steps, and adds up one word of each
// (so the loop's ALU work is small beside the banks' time); with enough
// warps the banks play a 128-byte wavefront every cycle. out[2w], out[2w+1] = warp w's start and end
// %clock64 (low words: the host takes the last end minus the first
// start); out[64 + tid] = a result. Launch: 1 CTA of up to 1024 threads.
#include "../../examples/smsim_cuda.h"
#include "chase.h"

#define WORDS 1024
#define SSTEP asm volatile("ld.shared.u64 %0, [%0];" : "+l"(p));

extern "C" __global__ void smem_chase(u32 *out, u32 steps) {
  __shared__ u64 s[WORDS / 2];
  u64 base;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(base) : "l"(s));
  for (u32 i = 0; i < WORDS / 2; i++)
    s[i] = base + ((i + 17) % (WORDS / 2)) * 8;
  __syncthreads();
  u64 p = base;
  CHASE_TIMED(SSTEP)
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

#define LDS(r, off)                                                            \
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4+" #off "];"             \
               : "=r"(r), "=r"(d1), "=r"(d2), "=r"(d3) : "l"(p));

extern "C" __global__ void smem_bw(u32 *out, u32 iters) {
  __shared__ u32 s[WORDS];
  u32 t = tid_x();
  for (u32 i = t; i < WORDS; i += ntid_x())
    s[i] = i;
  __syncthreads();
  u64 p;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(p) : "l"(s));
  p += (t % 32) * 16;
  u32 acc = 0, r0, r1, r2, r3, r4, r5, r6, r7, d1, d2, d3;
  u64 t0 = __nvvm_read_ptx_sreg_clock64();
  for (u32 i = 0; i < iters; i++) {
    LDS(r0, 0) LDS(r1, 512) LDS(r2, 1024) LDS(r3, 1536)
    LDS(r4, 2048) LDS(r5, 2560) LDS(r6, 3072) LDS(r7, 3584)
    acc += (r0 ^ r1) + (r2 ^ r3) + (r4 ^ r5) + (r6 ^ r7);
  }
  u64 t1 = __nvvm_read_ptx_sreg_clock64();
  if (laneid() == 0) {
    out[2 * (t / 32)] = (u32)t0;
    out[2 * (t / 32) + 1] = (u32)t1;
  }
  out[64 + t] = acc + d1 + d2 + d3;
}
