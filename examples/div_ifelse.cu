// div_ifelse: if/else divergence by lane parity, plus an if without else
// taken by a few lanes only. Launch: grid 2, block 64 (2 warps per CTA).
#include "smsim_cuda.h"

__global__ void div_ifelse(u32 *out, u32 *odd, u32 *even) {
  u32 i = gtid();
  u32 lane = laneid();
  u32 v;
  if (lane & 1) {
    // odd lanes: a short multiply/xor chain, recorded in odd[]
    v = i * 2654435761u;
    v ^= v >> 13;
    v *= 0x5bd1e995u;
    odd[i / 2] = v;
  } else {
    // even lanes: a different chain, recorded in even[]
    v = (i + 7) * (i + 3);
    v = (v << 5) | (v >> 27);
    v -= lane;
    even[i / 2] = v;
  }
  if (lane < 5) // taken by lanes 0..4 only
    v += 1000 + lane;
  out[i] = v;
}
