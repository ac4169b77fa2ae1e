// mufu: the transcendental approximations (issue 16, item 1), one input
// per thread, eighteen result words per thread (out[k*n + i]):
//   0 ex2.approx.f32      1 ex2.approx.ftz.f32   2 lg2.approx.f32
//   3 lg2.approx.ftz.f32  4 sin.approx.f32       5 sin.approx.ftz.f32
//   6 cos.approx.f32      7 cos.approx.ftz.f32   8 rsqrt.approx.f32
//   9 rsqrt.approx.ftz.f32 10 tanh.approx.f32 (inline asm: no clang-16 builtin)
//  11 __expf as CUDA writes it: ex2.approx.ftz(x * log2(e))
//  12 copysign.f32 of in[i] (sign) and in[n-1-i] (magnitude; inline asm)
//  13 testp bits: finite, infinite, number, notanumber, normal, subnormal
//     (bit k = property k; inline asm)
//  14,15 rsqrt.approx.f64 (low, high word) of (double)in[i]
//  16,17 rsqrt.approx.ftz.f64 (inline asm) of (double)in[i]
// and, for the first 32 threads, rcp.approx.ftz.f64 of (double)in[i] in
// out2 (two words per thread).
// Launch: grid 1, block n; in: n f32 words.
#include "../../../examples/smsim_cuda.h"

static __device__ __forceinline__ float tanh_approx(float x) {
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

static __device__ __forceinline__ u32 testp_bits(float x) {
  u32 r;
  asm("{\n\t.reg .pred p<6>;\n\t"
      "testp.finite.f32 p0, %1;\n\t"
      "testp.infinite.f32 p1, %1;\n\t"
      "testp.number.f32 p2, %1;\n\t"
      "testp.notanumber.f32 p3, %1;\n\t"
      "testp.normal.f32 p4, %1;\n\t"
      "testp.subnormal.f32 p5, %1;\n\t"
      "selp.u32 %0, 1, 0, p0;\n\t"
      "@p1 or.b32 %0, %0, 2;\n\t"
      "@p2 or.b32 %0, %0, 4;\n\t"
      "@p3 or.b32 %0, %0, 8;\n\t"
      "@p4 or.b32 %0, %0, 16;\n\t"
      "@p5 or.b32 %0, %0, 32;\n\t}"
      : "=r"(r) : "f"(x));
  return r;
}

// copysign(a, b): b's magnitude with a's sign (clang-16 expands
// __builtin_copysignf into abs/neg/selp, so inline asm).
static __device__ __forceinline__ float copysign_asm(float a, float b) {
  float r;
  asm("copysign.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}

static __device__ __forceinline__ double rsqrt_ftz_f64(double x) {
  double r;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(x));
  return r;
}

extern "C" __global__ void mufu(float *out, u64 *out2, const float *in) {
  u32 i = tid_x(), n = ntid_x();
  float x = in[i];
  float *o = out + i;
  o[0 * n] = __nvvm_ex2_approx_f(x);
  o[1 * n] = __nvvm_ex2_approx_ftz_f(x);
  o[2 * n] = __nvvm_lg2_approx_f(x);
  o[3 * n] = __nvvm_lg2_approx_ftz_f(x);
  o[4 * n] = __nvvm_sin_approx_f(x);
  o[5 * n] = __nvvm_sin_approx_ftz_f(x);
  o[6 * n] = __nvvm_cos_approx_f(x);
  o[7 * n] = __nvvm_cos_approx_ftz_f(x);
  o[8 * n] = __nvvm_rsqrt_approx_f(x);
  o[9 * n] = __nvvm_rsqrt_approx_ftz_f(x);
  o[10 * n] = tanh_approx(x);
  o[11 * n] = __nvvm_ex2_approx_ftz_f(x * 1.4426950408889634f);
  o[12 * n] = copysign_asm(x, in[n - 1 - i]);
  ((u32 *)o)[13 * n] = testp_bits(x);
  u64 *w = (u64 *)(out + 14 * n) + i;
  w[0] = __builtin_bit_cast(u64, __nvvm_rsqrt_approx_d((double)x));
  w[n] = __builtin_bit_cast(u64, rsqrt_ftz_f64((double)x));
  if (i < 32)
    out2[i] = __builtin_bit_cast(u64, __nvvm_rcp_approx_ftz_d((double)x));
}
