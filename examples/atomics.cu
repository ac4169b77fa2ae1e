// atomics: global and shared atomics whose final results do not depend on
// the order the threads run in: a histogram (atom.add), global max/min/or,
// a ticket counter whose returned old values must be a permutation (each
// ticket marks its slot), a CAS loop increment, atomicInc with wrap, and a
// 64-bit add. Launch: grid 4, block 64 (256 threads).
#include "smsim_cuda.h"

__global__ void atomics(u32 *hist, u32 *stats, u32 *seen, u64 *wide) {
  __shared__ u32 local_hist[8];
  u32 t = tid_x();
  u32 i = gtid();
  if (t < 8)
    local_hist[t] = 0;
  __syncthreads();
  u32 key = (i * 7 + (i >> 3)) % 8;
  __nvvm_atom_add_gen_i((int *)&hist[key], 1);
  __atomic_fetch_add(&local_hist[key], 1u, __ATOMIC_RELAXED);
  __nvvm_atom_max_gen_ui(&stats[0], i * 13 % 251);
  __nvvm_atom_min_gen_ui(&stats[1], i * 13 % 251 + 3);
  __nvvm_atom_or_gen_i((int *)&stats[2], 1 << (i % 31));
  u32 ticket = __nvvm_atom_add_gen_i((int *)&stats[3], 1);
  seen[ticket] = seen[ticket] + 1 + i - i; // one writer per slot
  // CAS loop: stats[4] += i + 1
  u32 old = stats[4], assumed;
  do {
    assumed = old;
    old = __nvvm_atom_cas_gen_i((int *)&stats[4], assumed, assumed + i + 1);
  } while (old != assumed);
  __nvvm_atom_inc_gen_ui(&stats[5], 99u); // wraps to 0 after 99
  __nvvm_atom_add_gen_ll((long long *)&wide[0], (long long)i << 30);
  __syncthreads();
  if (t < 8)
    __nvvm_atom_add_gen_i((int *)&hist[8 + t], local_hist[t] * (ctaid_x() + 1));
}
