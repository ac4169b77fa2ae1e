// sm_warpops: the warp-synchronous operations for the SM lockstep (cosim,
// docs/sm-rtl.md step 4), one CTA of three warps (the last partial):
// activemask, vote.sync (all, any, uni, ballot), shfl.sync (up, down, bfly,
// idx; per-lane offsets, clamps and segment masks; the in-range predicate)
// and redux.sync (add, min, max, and, or, xor; signed and unsigned), in
// converged code and in a divergent branch whose lanes pass their own
// member mask. clang-16 needs PTX features for the shfl/vote builtins that
// the plain command line does not give, so they are written in inline PTX.
#include "../../../examples/smsim_cuda.h"

__device__ __forceinline__ u32 activemask() {
  u32 m;
  asm volatile("activemask.b32 %0;" : "=r"(m));
  return m;
}

#define SHFL(mode, d, p, v, b, c, m)                                           \
  asm volatile("{\n\t.reg .pred %%q;\n\t"                                      \
               "shfl.sync." mode ".b32 %0|%%q, %2, %3, %4, %5;\n\t"            \
               "selp.u32 %1, 1, 0, %%q;\n\t}"                                  \
               : "=r"(d), "=r"(p)                                              \
               : "r"(v), "r"(b), "r"(c), "r"(m))

#define VOTE(mode, d, x, m)                                                    \
  asm volatile("{\n\t.reg .pred %%p, %%q;\n\t"                                 \
               "setp.ne.u32 %%p, %1, 0;\n\t"                                   \
               "vote.sync." mode ".pred %%q, %%p, %2;\n\t"                     \
               "selp.u32 %0, 1, 0, %%q;\n\t}"                                  \
               : "=r"(d)                                                       \
               : "r"(x), "r"(m))

__device__ __forceinline__ u32 ballot(u32 x, u32 m) {
  u32 d;
  asm volatile("{\n\t.reg .pred %%p;\n\t"
               "setp.ne.u32 %%p, %1, 0;\n\t"
               "vote.sync.ballot.b32 %0, %%p, %2;\n\t}"
               : "=r"(d)
               : "r"(x), "r"(m));
  return d;
}

#define REDUX(op, ty, d, v, m)                                                 \
  asm volatile("redux.sync." op "." ty " %0, %1, %2;" : "=r"(d) : "r"(v), "r"(m))

__global__ void sm_warpops(u32 *out, u32 n) {
  u32 i = tid_x();
  u32 lane = laneid();
  u32 v = i * 2654435761u ^ n;
  u32 *o = out + 24 * i;
  u32 full = activemask();
  o[0] = full;
  u32 d, p;
  // shfl: offsets and clamp/segment words varying by lane.
  SHFL("up", d, p, v, lane & 7, (lane & 1) ? 0x0 : 0x810, full);
  o[1] = d ^ (p << 31);
  SHFL("down", d, p, v, 1 + (lane & 3), 0x1f, full);
  o[2] = d ^ (p << 31);
  SHFL("bfly", d, p, v, lane >> 2, (lane & 2) ? 0x1f : 0xc0f, full);
  o[3] = d ^ (p << 31);
  SHFL("idx", d, p, v, lane * 7 + n, 0x81f, full);
  o[4] = d ^ (p << 31);
  SHFL("idx", d, p, v, 40 - lane, 0x1f, full);
  o[5] = d ^ (p << 31);
  // vote.
  VOTE("all", d, v > 5, full);
  o[6] = d;
  VOTE("any", d, v > 0xf0000000u, full);
  o[7] = d;
  VOTE("uni", d, lane < 40, full);
  VOTE("uni", p, lane >= 40, full);
  o[8] = d | (p << 1);
  VOTE("uni", d, v & 4, full);
  o[9] = d;
  o[10] = ballot(v & 1, full);
  // redux.
  REDUX("add", "u32", d, v, full);
  o[11] = d;
  REDUX("min", "u32", d, v, full);
  o[12] = d;
  REDUX("min", "s32", d, v, full);
  o[13] = d;
  REDUX("max", "u32", d, v, full);
  o[14] = d;
  REDUX("max", "s32", d, v, full);
  o[15] = d;
  REDUX("and", "b32", d, v | 0x10, full);
  o[16] = d;
  REDUX("or", "b32", d, v & 0xff0, full);
  o[17] = d;
  REDUX("xor", "b32", d, v, full);
  o[18] = d;
  // A divergent branch: the lanes taking it pass their own mask.
  if ((v >> 3) & 1) {
    u32 m = activemask();
    o[19] = m;
    SHFL("down", d, p, v, 1, 0x1f, m);
    o[20] = d ^ (p << 31);
    o[21] = ballot(lane & 1, m);
    REDUX("add", "u32", d, lane, m);
    o[22] = d;
    VOTE("all", d, lane & 1, m);
    o[23] = d;
  }
}
