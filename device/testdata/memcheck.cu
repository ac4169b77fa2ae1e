// Kernels for device_test.go's memcheck tests on real compiler output:
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

// Every thread stores its index in s, then reads shift entries further on:
// past s's 20 words when shift > 0 and the block has 20 threads.
extern "C" __global__ void shared_shift(unsigned *out, int shift) {
  __shared__ unsigned s[20];
  u32 i = tid_x();
  s[i] = i;
  __syncthreads();
  out[i] = s[i + shift];
}
