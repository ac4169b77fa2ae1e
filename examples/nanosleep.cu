// nanosleep: nanosleep.u32 with a register operand (a different delay per
// lane, so a warp's lanes may be woken together, seed 000), with an
// immediate operand, and under a divergent branch; values computed around
// the sleeps are checked exactly, the %clock64 samples only for order.
// Launch: grid 1, block 64.
#include "smsim_cuda.h"

__global__ void nanosleep(u32 *out, u64 *clk) {
  u32 i = gtid();
  u32 lane = laneid();
  u64 t0 = SREG(clock64);
  u32 d = lane * 20;
  asm volatile("nanosleep.u32 %0;" ::"r"(d));
  u64 t1 = SREG(clock64);
  asm volatile("nanosleep.u32 100;");
  u64 t2 = SREG(clock64);
  u32 v = i * 3;
  if (lane >= 24) {
    asm volatile("nanosleep.u32 %0;" ::"r"(v));
    v += 11;
  }
  asm volatile("nanosleep.u32 0;");
  u64 t3 = SREG(clock64);
  out[i] = v;
  clk[4 * i + 0] = t0;
  clk[4 * i + 1] = t1;
  clk[4 * i + 2] = t2;
  clk[4 * i + 3] = t3;
}
