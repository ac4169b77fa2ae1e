// indirect_call: calls through a __device__ table of function pointers,
// indexed by lane (so one warp calls 5 different targets at once). clang
// emits the table as a .global .u64 array initialised with function names
// and the call as "call (ret), %rd, (args), prototype_N" with a
// .callprototype. Launch: grid 1, block 64.
#include "smsim_cuda.h"

typedef u32 (*op_t)(u32, u32);

__device__ __noinline__ u32 op_add(u32 a, u32 b) { return a + b; }
__device__ __noinline__ u32 op_mul(u32 a, u32 b) { return a * b; }
__device__ __noinline__ u32 op_xor(u32 a, u32 b) { return a ^ (b << 8); }
__device__ __noinline__ u32 op_sub(u32 a, u32 b) { return b - a; }
__device__ __noinline__ u32 op_max(u32 a, u32 b) { return a > b ? a : b; }

__device__ op_t ops[5] = {op_add, op_mul, op_xor, op_sub, op_max};

__global__ void indirect_call(u32 *out, u32 *sel) {
  u32 i = gtid();
  u32 lane = laneid();
  u32 k = (lane * 7 + i / 32) % 5;
  sel[i] = k;
  out[i] = ops[k](i, lane + 3);
}
