// switch_dense: a dense 12-way switch on a per-lane value. clang-16's NVPTX
// back end has no jump tables, so it lowers this to a tree of setp/bra (see
// brx_idx for a real brx.idx). Launch: grid 1, block 128.
#include "smsim_cuda.h"

__global__ void switch_dense(u32 *out, const u32 *in) {
  u32 i = gtid();
  u32 x = in[i];
  u32 v;
  switch (x % 12) {
  case 0: v = x * 7; break;
  case 1: v = x + 100; break;
  case 2: v = x ^ 0xabc; break;
  case 3: v = x << 3; break;
  case 4: v = x * x; break;
  case 5: v = ~x; break;
  case 6: v = x - 9; break;
  case 7: v = x | 0x1000; break;
  case 8: v = x / 3; break;
  case 9: v = (x >> 2) + 11; break;
  case 10: v = x * 1000003u; break;
  default: v = 42; break;
  }
  out[i] = v;
}
