// async: the asynchronous copies and barriers of issue 16 (cp.async with
// per-thread groups, mbarrier with try_wait and the tx-count,
// cp.async.bulk), through inline asm: with -nocudainc clang-16 turns on no
// PTX feature, so its cp.async/mbarrier builtins (ptx70) are unavailable,
// and it has none for try_wait, the tx-count or cp.async.bulk. Launch:
// grid 1, block 64; in: 512 words; out: 448 words.
//   out[t]        stage A, cp.async: buf[4n] + buf[4n+3] with n = t+1 mod 64,
//                 buf[4t..4t+3] = in[4t..4t+3] copied by thread t (.cg 16)
//   out[64+t]     stage B, bulk copy of in[256..511] into tile (1024 bytes,
//                 complete_tx on full, expected by thread 0's
//                 arrive.expect_tx): tile[t] ^ tile[255-t]
//   out[128+t]    for t < 256: stage C, bulk copy of tile back to global
//                 (bulk_group, waited for by thread 0)
//   out[384+t]    the number of try_wait calls thread t made (1: it was
//                 suspended until the phase completed, not polling)
#include "../../../examples/smsim_cuda.h"

static __device__ __forceinline__ u64 smem(const void *p) {
  u64 r;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(p));
  return r;
}

extern "C" __global__ void async(u32 *out, const u32 *in) {
  __shared__ __attribute__((aligned(16))) u32 buf[256];
  __shared__ __attribute__((aligned(16))) u32 tile[256];
  __shared__ __attribute__((aligned(8))) u64 full;
  u32 t = tid_x();
  u64 bar = smem(&full);

  // Stage A: each thread copies its own 16 bytes and waits for its group.
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n\t"
               "cp.async.commit_group;\n\t"
               "cp.async.wait_group 0;"
               :: "l"(smem(&buf[4 * t])), "l"(&in[4 * t]) : "memory");
  if (t == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "l"(bar) : "memory");
  __syncthreads();
  u32 n = (t + 1) % 64;
  out[t] = buf[4 * n] + buf[4 * n + 3];

  // Stage B: thread 0 expects 1024 transaction bytes and starts the bulk
  // copy; every thread waits for the phase.
  if (t == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;\n\t"
                 "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%1], [%2], 1024, [%0];"
                 :: "l"(bar), "l"(smem(tile)), "l"(&in[256]) : "memory");
  u32 tries = 0, done;
  do {
    tries++;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0, 1000000;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done) : "l"(bar) : "memory");
  } while (!done);
  out[64 + t] = tile[t] ^ tile[255 - t];
  out[384 + t] = tries;
  __syncthreads();

  // Stage C: thread 0 writes the tile back with a bulk copy.
  if (t == 0)
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;\n\t"
                 "cp.async.bulk.commit_group;\n\t"
                 "cp.async.bulk.wait_group 0;"
                 :: "l"(&out[128]), "l"(smem(tile)) : "memory");
}
