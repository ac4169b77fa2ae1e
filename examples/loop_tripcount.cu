// loop_tripcount: loops whose trip count differs per lane: a counted for
// loop (tid % 7 iterations), a while loop with a data-dependent break, and a
// do/while that runs at least once. Launch: grid 2, block 64; `bias` is a
// scalar kernel parameter.
#include "smsim_cuda.h"

__global__ void loop_tripcount(u32 *sum, u32 *iters, u32 bias) {
  u32 i = gtid();
  u32 s = bias;
  for (u32 k = 0; k < i % 7; k++)
    s = s * 31 + k;
  u32 n = 0;
  u32 x = i + 1;
  while (x != 1) { // Collatz-like, capped, with a break
    x = (x & 1) ? (3 * x + 1) / 2 : x / 2;
    n++;
    if (n == 12)
      break;
  }
  u32 d = i;
  do {
    d >>= 2;
    s += d;
  } while (d != 0);
  sum[i] = s;
  iters[i] = n;
}
