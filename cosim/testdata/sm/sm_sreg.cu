// sm_sreg: the special registers the SM RTL computes from the launch and
// the lane (cosim, docs/sm-rtl.md step 3): the lane masks, %smid, %nsmid,
// %warpid, %nwarpid and the shared-memory sizes of a launch with static
// and dynamic shared memory, over three CTAs of 40 threads.
#include "../../../examples/smsim_cuda.h"

extern __shared__ u32 dyn[];

__global__ void sm_sreg(u32 *out) {
  __shared__ u32 st[8];
  u32 t = tid_x();
  u32 *o = out + (ctaid_x() * ntid_x() + t) * 12;
  st[t & 7] = t;
  dyn[t] = t + 1;
  o[0] = SREG_ASM32("lanemask_eq");
  o[1] = SREG_ASM32("lanemask_le");
  o[2] = SREG_ASM32("lanemask_lt");
  o[3] = SREG_ASM32("lanemask_ge");
  o[4] = SREG_ASM32("lanemask_gt");
  o[5] = SREG_ASM32("smid");
  o[6] = SREG_ASM32("nsmid");
  o[7] = SREG_ASM32("warpid") ^ (SREG_ASM32("nwarpid") << 8);
  o[8] = SREG_ASM32("total_smem_size");
  o[9] = SREG_ASM32("aggr_smem_size");
  o[10] = SREG_ASM32("dynamic_smem_size");
  o[11] = st[(t + 3) & 7] + dyn[t];
}
