// brkpt: a breakpoint (inline PTX "brkpt;", which clang-16 has no builtin
// for), reached by the lanes < 4 of warp 0 only, after a barrier. Expected
// outcome: execution suspends at the breakpoint ("breakpoint"); the words
// stored before the barrier are certain, each word of `after` is its initial
// value or the value its thread stores. If the host resumes the suspended
// warps, the launch completes with every `after` word written
// (Example.Resumed). Launch: grid 1, block 64.
#include "smsim_cuda.h"

__global__ void brkpt(u32 *before, u32 *after) {
  u32 i = gtid();
  before[i] = i ^ 0x77;
  __syncthreads();
  if (i < 4)
    asm volatile("brkpt;");
  after[i] = i * 9;
}
