// sm_grid: a 3-D grid of 3-D CTAs for the SM lockstep (cosim,
// docs/sm-rtl.md step 3). The launch has more CTAs than the SM holds at
// once, and each CTA's warps loop a number of times that depends on the
// CTA and the warp, so warps and CTAs retire out of order and the next
// CTAs launch into scattered warp slots.
#include "../../../examples/smsim_cuda.h"

__global__ void sm_grid(u32 *out, u32 base) {
  u32 t = (tid_z() * ntid_y() + tid_y()) * ntid_x() + tid_x();
  u32 c = (ctaid_z() * nctaid_y() + ctaid_y()) * nctaid_x() + ctaid_x();
  u32 n = ntid_x() * ntid_y() * ntid_z();
  u32 v = base + c;
  u32 trips = (c * 5 + t / 32) & 7;
  for (u32 k = 0; k < trips; k++)
    v = v * 3 + k;
  out[c * n + t] = v ^ (laneid() << 16);
}
