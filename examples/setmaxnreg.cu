// setmaxnreg: warp-specialised producer/consumer register reallocation.
// Warpgroup 0 (warps 0-3) releases registers (setmaxnreg.dec to 40),
// warpgroup 1 (warps 4-7) claims them (setmaxnreg.inc to 232); the .inc
// blocks until the CTA pool holds enough registers (seed 001). The kernel
// must start with a per-thread register budget (Example.MaxNReg = 136:
// 256 * 136 = 34816 = 128 * 40 + 128 * 232, so the .inc can only be
// satisfied after the .dec). Both warpgroups then exchange data through
// shared memory. clang-16 knows neither setmaxnreg (inline PTX here) nor
// .maxnreg, and it emits ".target sm_90" and ".version 7.8" while the ISA
// requires sm_90a and PTX 8.0 (see README.md). Launch: grid 2, block 256.
#include "smsim_cuda.h"

__global__ void __launch_bounds__(256, 1) setmaxnreg(u32 *out, u32 *role) {
  __shared__ u32 stage[128];
  u32 t = tid_x();
  u32 i = gtid();
  u32 wg = t / 128; // warpgroup, uniform across each warpgroup
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    stage[t] = i * 3 + 7; // producer
    role[i] = 1;
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    role[i] = 2;
  }
  __syncthreads();
  if (wg == 1)
    out[i] = stage[t - 128] + t; // consumer
  else
    out[i] = 0xc0de0000u + t;
}
