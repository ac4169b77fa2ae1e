// smem_reduce: a CTA-wide tree reduction in shared memory with
// __syncthreads() between levels (8 warps), a second reduction (max) in the
// same loop, and a final write by thread 0. Launch: grid 2, block 256.
#include "smsim_cuda.h"

__global__ void smem_reduce(u32 *sums, u32 *maxs, u32 *copy, const u32 *in) {
  __shared__ u32 s_sum[256];
  __shared__ u32 s_max[256];
  u32 t = tid_x();
  u32 i = gtid();
  u32 x = in[i];
  s_sum[t] = x;
  s_max[t] = x;
  __syncthreads();
  for (u32 stride = ntid_x() / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s_sum[t] += s_sum[t + stride];
      u32 o = s_max[t + stride];
      if (o > s_max[t])
        s_max[t] = o;
    }
    __syncthreads();
  }
  if (t == 0) {
    sums[ctaid_x()] = s_sum[0];
    maxs[ctaid_x()] = s_max[0];
  }
  // every thread also reads back the CTA total after the last barrier
  copy[i] = s_sum[0] - x;
}
