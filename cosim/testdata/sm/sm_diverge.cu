// sm_diverge: divergent if/else and a guarded early return for the SM
// lockstep (cosim, docs/sm-rtl.md step 2), one CTA.
#include "../../../examples/smsim_cuda.h"

__global__ void sm_diverge(u32 *out, u32 n) {
  u32 i = tid_x();
  if (i >= n)
    return;
  u32 v;
  if (i & 1)
    v = i * 7 + 1;
  else
    v = (i << 2) - 3;
  if (v > 40)
    v = v - 40;
  out[i] = v;
}
