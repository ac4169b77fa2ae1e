// sm_bardiv: __syncthreads in divergent code for the SM lockstep (cosim,
// docs/sm-rtl.md step 3): the odd and even lanes of each warp reach two
// different bar.sync instructions, so a warp's lanes arrive in two
// groups and the barrier counts threads, not warps (the Go model's
// per-thread arrival), over two CTAs of 96 threads.
#include "../../../examples/smsim_cuda.h"

__global__ void sm_bardiv(u32 *out, u32 k) {
  __shared__ u32 s[96];
  u32 t = tid_x();
  u32 *o = out + ctaid_x() * 96;
  if (t & 1) {
    s[t] = t * k;
    __syncthreads();
    o[t] = s[95 - t] + 1;
  } else {
    s[t] = t + k;
    __syncthreads();
    o[t] = s[95 - t] * 3;
  }
}
