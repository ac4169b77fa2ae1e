// strided: one warp loads 4-byte words at a lane stride of `stride` words
// (1, 2, 4, 8: 4, 8, 16 and 32 sectors per request, CUDA C++ Best
// Practices Guide, coalescing), `reps` times over fresh lines, and sums
// them. out[0] = cycles, out[1] = reps; out[2 + lane] = the lane's sum.
#include "../../examples/smsim_cuda.h"

extern "C" __global__ void strided(const u32 *a, u32 *out, u32 stride, u32 reps) {
  u32 l = tid_x();
  u32 sum = 0;
  u64 t0 = __nvvm_read_ptx_sreg_clock64();
  for (u32 r = 0; r < reps; r++)
    sum += a[(r * 32 + l) * stride];
  u64 t1 = __nvvm_read_ptx_sreg_clock64();
  if (l == 0) {
    out[0] = (u32)(t1 - t0);
    out[1] = reps;
  }
  out[2 + l] = sum;
}
