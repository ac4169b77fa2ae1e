// float_saxpy: single-precision float as a CUDA saxpy/vecAdd would use it:
// int->float conversion, fused multiply-add (clang contracts a*x+y to
// fma.rn.f32), add, mul, IEEE division and square root, min/max, float->int
// conversion; threads past n return early. The result is stored as IEEE-754
// bits. Launch: grid 2, block 64 (128 threads) with n = 100; `a` is a float
// parameter passed as its bit pattern.
#include "smsim_cuda.h"

__global__ void float_saxpy(float *y, const float *x, u32 *ints, float a, u32 n) {
  u32 i = gtid();
  if (i >= n)
    return;
  float xi = x[i];
  float yi = y[i];
  float fi = (float)i;           // cvt.rn.f32.u32
  float s = a * xi + yi;         // fma.rn.f32
  float q = (s + 1.0f) / (fi + 3.0f);
  float r = __builtin_sqrtf(fi * 2.0f + 1.0f);
  float m = __builtin_fmaxf(q, r) - __builtin_fminf(xi, 0.25f);
  y[i] = s + q * r;
  ints[2 * i] = (u32)(int)(m * 16.0f);     // cvt.rzi.s32.f32
  ints[2 * i + 1] = (u32)(int)(-fi * 0.75f);
}
