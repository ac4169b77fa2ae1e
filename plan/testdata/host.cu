// Kernels for the plan tests (plan_test.go):
//   clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
//            -S -O2 -x cuda host.cu -o host.ptx
#include "../../examples/smsim_cuda.h"

#define __constant__ __attribute__((constant))

__constant__ float coef[2];
__device__ int counter;

// dst[i] = a * src[i] + b + coef[0]: dst and src may be the same buffer,
// or point into the middle of one.
extern "C" __global__ void axpy(float *dst, const float *src, int n, float a,
                                double b) {
  int i = gtid();
  if (i < n)
    dst[i] = a * src[i] + (float)b + coef[0];
}

// Adds step to a device counter that lives across launches and reports it.
extern "C" __global__ void count(int *out, int step) {
  if (gtid() == 0) {
    counter += step;
    out[0] = counter;
  }
}
