// chase: global-memory pointer chase, as the latency microbenchmarks of
// arXiv 2501.12084 and 2402.13499 run it. One thread follows a chain of
// 64-bit byte offsets through buf (next = *(buf + cur)), first `warm` whole
// passes of `steps` steps (to fill the caches), then `steps` timed steps.
// The host writes the chain (bench/calib/calib builds it: one step per
// 128-byte line, in a shuffled order), so a run with warm = 0 reads lines
// no cache has seen: cold DRAM. Working set = steps lines.
//   out[0] = cycles of the timed steps, out[1] = steps, out[2] = final
//   offset, out[3..4] = buf's address (the host picks lines of one L2
//   partition by address).
// Each step is one 64-bit add (the base) and the load: the add is part of
// the figure, as in the papers' chases.
#include "../../examples/smsim_cuda.h"

extern "C" __global__ void chase(const char *buf, u32 *out, u32 steps, u32 warm) {
  u64 j = 0;
  for (u32 p = 0; p < warm; p++)
    for (u32 i = 0; i < steps; i++)
      j = *(const u64 *)(buf + j);
  u64 t0 = __nvvm_read_ptx_sreg_clock64();
#pragma unroll 4
  for (u32 i = 0; i < steps; i++)
    j = *(const u64 *)(buf + j);
  u64 t1 = __nvvm_read_ptx_sreg_clock64();
  out[0] = (u32)(t1 - t0);
  out[1] = steps;
  out[2] = (u32)j;
  out[3] = (u32)(u64)buf;
  out[4] = (u32)((u64)buf >> 32);
}
