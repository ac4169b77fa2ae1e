// recursion: __noinline__ recursive functions whose depth depends on the
// lane: naive Fibonacci (two recursive calls per level) and a recursive sum
// that keeps a local array live across the recursive call (so the function
// needs a .local stack frame). Launch: grid 1, block 64.
#include "smsim_cuda.h"

__device__ __noinline__ u32 fib(u32 n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ u32 sumdown(const volatile u32 *acc, u32 n) {
  volatile u32 frame[4];
  frame[n & 3] = n * n;
  if (n == 0)
    return acc[0] + frame[0];
  u32 r = sumdown(acc, n - 1);
  return r + frame[n & 3];
}

__global__ void recursion(u32 *fibs, u32 *sums, const u32 *base) {
  u32 i = gtid();
  u32 lane = laneid();
  fibs[i] = fib(lane % 12);
  sums[i] = sumdown(base + (i & 1), lane % 9);
}
