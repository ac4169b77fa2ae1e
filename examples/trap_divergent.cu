// trap_divergent: __builtin_trap() (clang emits "trap;") taken by a single
// lane of warp 1 only, after every thread has stored its first result and
// passed a barrier. Expected outcome: the launch traps. Only the words
// written before the barrier are certain; each word of `after` is either
// its initial value or the value its thread would store (another warp may
// or may not have got there before the trap). Launch: grid 1, block 96.
#include "smsim_cuda.h"

__global__ void trap_divergent(u32 *before, u32 *after, const u32 *key) {
  u32 i = gtid();
  before[i] = i + 0x1000;
  __syncthreads();
  if (key[i] == 0xdead) // only one thread has this key
    __builtin_trap();
  after[i] = i * 2 + 1;
}
