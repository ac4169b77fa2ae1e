// sm_smem: shared memory and __syncthreads for the SM lockstep (cosim,
// docs/sm-rtl.md step 3): five CTAs of 80 threads (the third warp
// partial), two resident at once. Each CTA first reads its shared memory
// before writing it (zero: a CTA's shared memory starts cleared, also in
// a slot an earlier CTA used), exchanges 32- and 64-bit words across
// warps between barriers, and lets some threads exit before the last
// barrier (which then waits for the live threads only).
#include "../../../examples/smsim_cuda.h"

__global__ void sm_smem(u32 *out, u64 *out64, u32 n) {
  __shared__ u32 s[80];
  __shared__ u64 d[80];
  u32 t = tid_x(), c = ctaid_x();
  u32 acc = s[t] + (u32)d[79 - t];
  s[t] = t * 7 + c;
  d[t] = ((u64)t << 33) | c;
  __syncthreads();
  for (u32 k = 1; k < 4; k++) {
    acc = acc * 3 + s[(t + k * 17) & 63];
    __syncthreads();
    s[t] = acc ^ k;
    __syncthreads();
  }
  if (t >= n)
    return;
  d[t] += acc;
  __syncthreads();
  out[c * 80 + t] = acc + s[79 - t];
  out64[c * 80 + t] = d[(t + 1) % 64];
}
