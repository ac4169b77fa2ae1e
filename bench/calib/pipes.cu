// pipes: per-pipe throughput. Every thread runs `iters` iterations of 32
// independent chains of one instruction (inline PTX, so the compiler keeps
// exactly that instruction), each chain stepped twice an iteration:
// enough warps and chains to keep every scheduler issuing, so the figure
// is the pipe's throughput, in results per clock per SM = threads * iters
// * 64 / cycles. Launch: 1 CTA of 512 threads (16 warps, 4 per scheduler
// on h100; at most 32 warps). The loop's control is 4 instructions (add,
// setp, two branches) in 68, so an issue-bound figure is 64/68 of the
// rate. The arrays' loops are unrolled so x[] stays in registers (a loop
// the compiler keeps puts x[] in local memory, and the timed region then
// starts with 32 local loads per thread); the operands b and c vary by
// lane so they stay in registers too (literals put a mov of each in the
// loop). out[2w], out[2w+1] = warp w's start and end %clock64 (low
// words: the host takes the last end minus the first start); out[64 + tid]
// = a result.
//
// pipe_fp32 fma.rn.f32, pipe_int32 add.s32, pipe_imad mad.lo.s32,
// pipe_fp64 fma.rn.f64, pipe_sfu ex2.approx.f32, pipe_cvt cvt.rn.f32.s32.
#include "../../examples/smsim_cuda.h"

#define N 32

#define TIMED(body)                                                            \
  u64 t0 = __nvvm_read_ptx_sreg_clock64();                                     \
  for (u32 i = 0; i < iters; i++) {                                            \
    body(0) body(1) body(2) body(3) body(4) body(5) body(6) body(7)            \
    body(8) body(9) body(10) body(11) body(12) body(13) body(14) body(15)      \
    body(16) body(17) body(18) body(19) body(20) body(21) body(22) body(23)    \
    body(24) body(25) body(26) body(27) body(28) body(29) body(30) body(31)    \
    body(0) body(1) body(2) body(3) body(4) body(5) body(6) body(7)            \
    body(8) body(9) body(10) body(11) body(12) body(13) body(14) body(15)      \
    body(16) body(17) body(18) body(19) body(20) body(21) body(22) body(23)    \
    body(24) body(25) body(26) body(27) body(28) body(29) body(30) body(31)    \
  }                                                                            \
  u64 t1 = __nvvm_read_ptx_sreg_clock64();                                     \
  if (laneid() == 0) {                                                         \
    out[2 * (tid_x() / 32)] = (u32)t0;                                         \
    out[2 * (tid_x() / 32) + 1] = (u32)t1;                                     \
  }

extern "C" __global__ void pipe_fp32(u32 *out, u32 iters) {
  // b and c vary by lane so they sit in registers; as literals the
  // compiler puts a mov of each inside the loop, on the INT32 pipe.
  float x[N], b = 1.0001f + (float)(tid_x() & 1), c = 0.5f * (float)(tid_x() & 3);
#pragma unroll
  for (int k = 0; k < N; k++) x[k] = (float)(tid_x() + k);
#define F(k) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x[k]) : "f"(b), "f"(c));
  TIMED(F)
  float s = 0;
#pragma unroll
  for (int k = 0; k < N; k++) s += x[k];
  out[64 + tid_x()] = (u32)s;
}

extern "C" __global__ void pipe_int32(u32 *out, u32 iters) {
  u32 x[N], b = tid_x() | 1;
#pragma unroll
  for (int k = 0; k < N; k++) x[k] = tid_x() + k;
#define I(k) asm volatile("add.s32 %0, %0, %1;" : "+r"(x[k]) : "r"(b));
  TIMED(I)
  u32 s = 0;
#pragma unroll
  for (int k = 0; k < N; k++) s ^= x[k];
  out[64 + tid_x()] = s;
}

extern "C" __global__ void pipe_imad(u32 *out, u32 iters) {
  u32 x[N], b = tid_x() | 1, c = tid_x() + 7;
#pragma unroll
  for (int k = 0; k < N; k++) x[k] = tid_x() + k;
#define M(k) asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(x[k]) : "r"(b), "r"(c));
  TIMED(M)
  u32 s = 0;
#pragma unroll
  for (int k = 0; k < N; k++) s ^= x[k];
  out[64 + tid_x()] = s;
}

extern "C" __global__ void pipe_fp64(u32 *out, u32 iters) {
  double x[N], b = 1.0001 + (double)(tid_x() & 1), c = 0.5 * (double)(tid_x() & 3);
#pragma unroll
  for (int k = 0; k < N; k++) x[k] = (double)(tid_x() + k);
#define D(k) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x[k]) : "d"(b), "d"(c));
  TIMED(D)
  double s = 0;
#pragma unroll
  for (int k = 0; k < N; k++) s += x[k];
  out[64 + tid_x()] = (u32)s;
}

extern "C" __global__ void pipe_sfu(u32 *out, u32 iters) {
  float x[N];
#pragma unroll
  for (int k = 0; k < N; k++) x[k] = 0.001f * (float)(tid_x() + k);
#define S(k) asm volatile("ex2.approx.f32 %0, %0;" : "+f"(x[k]));
  TIMED(S)
  float s = 0;
#pragma unroll
  for (int k = 0; k < N; k++) s += x[k];
  out[64 + tid_x()] = (u32)s;
}

extern "C" __global__ void pipe_cvt(u32 *out, u32 iters) {
  float x[N];
  u32 v = tid_x();
#define C(k) asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(x[k]) : "r"(v + k));
  TIMED(C)
  float s = 0;
#pragma unroll
  for (int k = 0; k < N; k++) s += x[k];
  out[64 + tid_x()] = (u32)s;
}
