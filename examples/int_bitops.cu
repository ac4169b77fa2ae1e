// int_bitops: the bit-manipulation instructions: popc, clz, brev
// (clang matches shift-and-mask), prmt (byte permute), bfind (via clz of a
// 64-bit value), mul.hi, sad, min/max, funnel-shift rotate.
// Launch: grid 1, block 128.
#include "smsim_cuda.h"

__global__ void int_bitops(u32 *out, const u32 *in) {
  u32 i = gtid();
  u32 x = in[i];
  u32 y = in[(i + 1) % 128];
  u32 *o = out + i * 12;
  o[0] = __builtin_popcount(x);
  o[1] = x ? __builtin_clz(x) : 32;
  o[2] = __builtin_bitreverse32(x);
  o[3] = (x >> 5) & 0x3ff;                   // bfe.u32
  o[4] = (u32)(((int)x << 3) >> 20);         // signed field
  o[5] = __nvvm_prmt(x, y, 0x3210 + i % 8);  // byte permute
  o[6] = __nvvm_prmt(x, y, 0x7531 ^ ((i & 3) << 14)); // sign-replicate
  o[7] = __nvvm_mulhi_ui(x, y);
  o[8] = (u32)__nvvm_mulhi_i((int)x, (int)y);
  o[9] = __nvvm_sad_ui(x, y, i);
  o[10] = (x << (i % 32)) | (x >> ((32 - i % 32) % 32)); // rotate
  o[11] = __builtin_popcountll(((u64)x << 32) | y) + __builtin_clzll((u64)y | 1);
}
