// smsim_cuda.h: the little of the CUDA runtime headers that the example
// kernels need, for clang-16 with -nocudainc -nocudalib. Each .cu includes it
// with #include "smsim_cuda.h"; a quoted include is searched first in the
// directory of the including file, so the Makefile's plain command
//   clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
//            -S -O2 -x cuda examples/k.cu -o examples/k.ptx
// needs no -I flag.
//
// Special registers clang-16 has builtins for (tid, ntid, ctaid, nctaid,
// laneid, warpid, nwarpid, smid, nsmid, gridid (32-bit read), lanemask_*,
// clock, clock64, pm0..pm3) are read through them; every other register of
// the PTX ISA (cluster ids, %clock_hi, %globaltimer, %envregN, %pm4..7,
// shared-memory sizes, ...) through inline asm, as clang-16 has no builtin.
#ifndef SMSIM_CUDA_H
#define SMSIM_CUDA_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __noinline__ __attribute__((noinline))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

typedef unsigned int u32;
typedef unsigned long long u64;

#define SREG(name) __nvvm_read_ptx_sreg_##name()

// tid_x() .. nctaid_z(): the x, y and z components of the 3-D registers.
#define SREG_XYZ(name)                                                         \
  static __device__ __forceinline__ u32 name##_x() { return SREG(name##_x); }  \
  static __device__ __forceinline__ u32 name##_y() { return SREG(name##_y); }  \
  static __device__ __forceinline__ u32 name##_z() { return SREG(name##_z); }
SREG_XYZ(tid)
SREG_XYZ(ntid)
SREG_XYZ(ctaid)
SREG_XYZ(nctaid)
#undef SREG_XYZ

static __device__ __forceinline__ u32 laneid() { return SREG(laneid); }

// Global thread index in a 1-D launch.
static __device__ __forceinline__ u32 gtid() {
  return ctaid_x() * ntid_x() + tid_x();
}

// Inline-asm special-register reads: "mov.u32 %0, %<name>;".
#define SREG_ASM32(name)                                                       \
  ({                                                                           \
    u32 __v;                                                                   \
    asm volatile("mov.u32 %0, %%" name ";" : "=r"(__v));                       \
    __v;                                                                       \
  })
#define SREG_ASM64(name)                                                       \
  ({                                                                           \
    u64 __v;                                                                   \
    asm volatile("mov.u64 %0, %%" name ";" : "=l"(__v));                       \
    __v;                                                                       \
  })

#endif
