// sm_affine: straight-line integer code for the SM lockstep (cosim,
// docs/sm-rtl.md step 2): out[i] = in[i] * k + i ^ (i << 3), one CTA.
#include "../../../examples/smsim_cuda.h"

__global__ void sm_affine(u32 *out, const u32 *in, u32 k) {
  u32 i = tid_x();
  u32 v = in[i] * k + i;
  out[i] = v ^ (i << 3) ^ laneid();
}
