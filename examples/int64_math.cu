// int64_math: 64-bit integer arithmetic: mul.wide from 32-bit operands,
// 64-bit add/sub/mul/shift/rotate, 64-bit unsigned and signed division and
// remainder, and comparisons. Launch: grid 2, block 64; `seed` is a 64-bit
// scalar parameter.
#include "smsim_cuda.h"

__global__ void int64_math(u64 *out, u64 seed) {
  u32 i = gtid();
  u64 a = (u64)i * 0x9e3779b9u;            // mul.wide.u32
  u64 b = (long long)(int)(i - 64) * -77;  // mul.wide.s32
  u64 c = a * seed + b;                    // mul.lo.s64, add.s64
  u64 d = (c << 17) | (c >> 47);           // rotate
  u64 e = d ^ (a >> 3) ^ ((long long)b >> 5);
  u64 f = e / ((u64)i + 3);                // div.u64
  long long g = (long long)e % -((long long)i + 5); // rem.s64
  u64 h = a > b ? a - b : b - a;
  u64 *o = out + i * 6;
  o[0] = c;
  o[1] = d;
  o[2] = e;
  o[3] = f;
  o[4] = (u64)g;
  o[5] = h + (e < seed);
}
