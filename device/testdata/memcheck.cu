// Kernels for the sanitizer tests (memcheck_test.go) on real compiler output:
//   clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
//            -S -O2 -x cuda memcheck.cu -o memcheck.ptx
#include "../../examples/smsim_cuda.h"

// out[i] = the word byteoff bytes into p, plus i words: an ld.global.u32
// that is misaligned unless byteoff is a multiple of 4.
extern "C" __global__ void load_at(const char *p, int byteoff,
                                   unsigned *out) {
  u32 i = tid_x();
  out[i] = *(const unsigned *)(p + byteoff + 4 * i);
}

// Threads below written store their index; then every thread reads its
// own entry: never written for threads at or above written (--check init).
extern "C" __global__ void shared_partial(unsigned *out, int written) {
  __shared__ unsigned s[64];
  u32 i = tid_x();
  if (i < (u32)written)
    s[i] = i;
  __syncthreads();
  out[i] = s[i];
}

// Threads below split meet at a barrier inside the branch, every thread
// at the one after it: unless every thread takes the branch, a warp's
// threads reach barrier 0 at two instructions in one phase (--check
// sync).
extern "C" __global__ void split_barrier(unsigned *out, int split) {
  __shared__ unsigned s[64];
  u32 i = tid_x();
  s[i] = i;
  if (i < (u32)split) {
    __syncthreads();
    out[i] = s[63 - i];
  } else {
    out[i] = 0;
  }
  __syncthreads();
  out[i] += s[i];
}

// Every thread stores its index in s, then reads shift entries further on:
// past s's 20 words (declared last in the module,
// so nothing follows them) when shift > 0 and the block has 20 threads.
extern "C" __global__ void shared_shift(unsigned *out, int shift) {
  __shared__ unsigned s[20];
  u32 i = tid_x();
  s[i] = i;
  __syncthreads();
  out[i] = s[i + shift];
}


// A shared-memory tree reduction of 128 words; reduce_racy is the same
// without its __syncthreads(): a warp reads words another warp writes in
// the same step (--check race).
#define REDUCE(name, SYNC)                                                     \
  extern "C" __global__ void name(const unsigned *in, unsigned *out) {         \
    __shared__ unsigned s[128];                                                \
    u32 i = tid_x();                                                           \
    s[i] = in[i];                                                              \
    SYNC;                                                                      \
    for (u32 stride = 64; stride > 0; stride >>= 1) {                          \
      if (i < stride)                                                          \
        s[i] += s[i + stride];                                                 \
      SYNC;                                                                    \
    }                                                                          \
    if (i == 0)                                                                \
      *out = s[0];                                                             \
  }
REDUCE(reduce, __syncthreads())
REDUCE(reduce_racy, (void)0)

// Lane 0 of every warp (of warp 0 only, unless all) writes out[0]: warps
// writing the same global word with no barrier between (--check race).
extern "C" __global__ void last_writer(unsigned *out, int all) {
  u32 i = tid_x();
  if (i % 32 == 0 && (all || i == 0))
    out[0] = i;
}

// Every thread reads data[0] through the read-only path (__ldg:
// ld.global.nc) between two barriers; with mode 1 thread 0 writes it
// before, with mode 2 after: a kernel modifying data it reads with
// ld.global.nc (--check race: nc_modified). Mode 0 only reads.
extern "C" __global__ void nc_reader(u32 *data, u32 *out, int mode) {
  u32 i = tid_x();
  if (mode == 1 && i == 0)
    data[0] = 7;
  __syncthreads();
  out[i] = __nvvm_ldg_ui(data);
  __syncthreads();
  if (mode == 2 && i == 0)
    data[0] = out[1] + 1;
}
