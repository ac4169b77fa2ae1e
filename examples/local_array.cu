// local_array: a per-thread array indexed by runtime values, which clang
// must keep in .local memory (the kernel's __local_depot): a small sieve of
// the lane's residues and an in-place insertion sort.
// Launch: grid 1, block 64.
#include "smsim_cuda.h"

__global__ void local_array(u32 *sorted, u32 *picks, const u32 *in) {
  u32 i = gtid();
  u32 a[16];
  for (int k = 0; k < 16; k++)
    a[k] = in[(i * 5 + k * 3) % 64] % 1000;
  // insertion sort, data-dependent indices
  for (int k = 1; k < 16; k++) {
    u32 v = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
  for (int k = 0; k < 16; k++)
    sorted[i * 16 + k] = a[k];
  picks[i] = a[i % 16] + a[(i * 7) % 16];
}
