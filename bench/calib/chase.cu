// chase: global-memory pointer chase, as the latency microbenchmarks of
// arXiv 2501.12084 and 2402.13499 run it. One thread follows a chain of
// 64-bit addresses through buf (p = *p, one inline-PTX ld.global.u64 a
// step, so a step is the load alone and the figure is load-to-use), first
// `warm` whole passes of `steps` steps (to fill the caches), then `steps`
// timed steps. The chain starts at buf's first word. The host writes the
// chain (bench/calib/measure builds it: one step per 128-byte line, in a
// shuffled order, as absolute addresses, from buf's address that a first
// run reports), so a run with warm = 0 reads lines no cache has seen:
// cold DRAM. Working set = steps lines.
//   out[0] = cycles of the timed steps, out[1] = steps, out[2] = the low
//   word of the final address, out[3..4] = buf's address.
// chase_cg, chase_cs and chase_cv are the same chase with the cache
// operator of their name on every load (ld.global.cg ...: docs/memory.md,
// "Cache operators"): .cg and .cv are served by the L2 even when the
// chain fits the L1.
#include "../../examples/smsim_cuda.h"
#include "chase.h"

enum { CA, CG, CS, CV };

template <int op> __device__ __forceinline__ void step(u64 &p) {
  if (op == CG)
    asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  else if (op == CS)
    asm volatile("ld.global.cs.u64 %0, [%0];" : "+l"(p));
  else if (op == CV)
    asm volatile("ld.global.cv.u64 %0, [%0];" : "+l"(p));
  else
    asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
}

#define STEP step<op>(p);

template <int op> __device__ __forceinline__ void chase_body(const u64 *buf, u32 *out, u32 steps, u32 warm) {
  u64 p = (u64)buf;
  for (u32 k = 0; k < warm; k++)
    for (u32 i = 0; i < steps; i++) {
      STEP
    }
  // The clock is read once the warm pass's last load has answered (else
  // the timed steps would include that load, a DRAM miss for a cache that
  // warms).
  CHASE_TIMED(STEP)
  out[3] = (u32)(u64)buf;
  out[4] = (u32)((u64)buf >> 32);
}

extern "C" __global__ void chase(const u64 *buf, u32 *out, u32 steps, u32 warm) { chase_body<CA>(buf, out, steps, warm); }
extern "C" __global__ void chase_cg(const u64 *buf, u32 *out, u32 steps, u32 warm) { chase_body<CG>(buf, out, steps, warm); }
extern "C" __global__ void chase_cs(const u64 *buf, u32 *out, u32 steps, u32 warm) { chase_body<CS>(buf, out, steps, warm); }
extern "C" __global__ void chase_cv(const u64 *buf, u32 *out, u32 steps, u32 warm) { chase_body<CV>(buf, out, steps, warm); }
