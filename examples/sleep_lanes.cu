// sleep_lanes: nanosleep.u32 with a different delay t in every lane, timed
// by %clock64 and %globaltimer reads around it. Seed 000: the sleep lies in
// [0, 2t], is at most 1 ms, and may be shortened for some threads so that
// all threads of a warp wake together. Warp 0 asks for 5 ms in every lane
// (the 1 ms cap), warp 1 for 2000 + 997 * lane ns except lane 13 (300 ns),
// warp 2 for 0 ns (the distance of the reads themselves). The samples are
// judged loosely: every lane of a warp reads the same distances.
// Launch: grid 1, block 96.
#include "smsim_cuda.h"

__global__ void sleep_lanes(const u32 *ts, u64 *dclk, u64 *dgt, u32 *out) {
  u32 i = gtid();
  u32 t = ts[i];
  u64 c0 = SREG(clock64);
  u64 g0 = SREG_ASM64("globaltimer");
  asm volatile("nanosleep.u32 %0;" ::"r"(t));
  u64 c1 = SREG(clock64);
  u64 g1 = SREG_ASM64("globaltimer");
  dclk[i] = c1 - c0;
  dgt[i] = g1 - g0;
  out[i] = t ^ i;
}
