// exit_partial: odd lanes leave with an explicit PTX exit (inline asm; CUDA
// C has no exit statement) before a __syncthreads(); the barrier must then
// release once every still-running thread arrives (seed 004: "barriers
// exclusively waiting on arrivals from exited threads are always released").
// The remaining even lanes exchange values through shared memory after the
// barrier and do a second barrier round. Launch: grid 2, block 128.
#include "smsim_cuda.h"

__global__ void exit_partial(u32 *out, u32 *before) {
  __shared__ u32 buf[128];
  u32 t = tid_x();
  u32 i = gtid();
  u32 lane = laneid();
  before[i] = i * 5 + 1; // everyone writes this
  if (lane & 1)
    asm volatile("exit;");
  buf[t] = i * i + 7;
  __syncthreads();
  // Only even lanes are alive: read an even neighbour's value.
  u32 v = buf[(t + 2) % 128];
  __syncthreads();
  buf[t] = v + 1;
  __syncthreads();
  out[i] = buf[(128 + t - 4) % 128] ^ t;
}
