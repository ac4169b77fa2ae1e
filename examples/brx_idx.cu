// brx_idx: an indexed branch. clang-16 never emits brx.idx (its NVPTX back
// end has no jump-table lowering: a C switch becomes a setp/bra tree, see
// switch_dense), so the dispatch is written in inline PTX: a .branchtargets
// list of 6 labels and a brx.idx on a per-thread index, each target
// computing a different function. It sits in a __noinline__ function (NVPTX
// does not expand ${:uid} in inline asm, so the labels must appear once) that
// the kernel calls twice: with a divergent index (lane % 6) and with an
// index uniform per warp. Launch: grid 2, block 64.
#include "smsim_cuda.h"

__device__ __noinline__ u32 dispatch(u32 idx, u32 x) {
  u32 r;
  asm volatile("{\n\t"
               ".reg .u32 %%t;\n"
               "$L__brx_tbl: .branchtargets $L__brx_0, $L__brx_1, $L__brx_2, "
               "$L__brx_3, $L__brx_4, $L__brx_5;\n\t"
               "brx.idx %1, $L__brx_tbl;\n"
               "$L__brx_0:\n\t"
               "add.u32 %0, %2, 1000;\n\t"
               "bra.uni $L__brx_end;\n"
               "$L__brx_1:\n\t"
               "mul.lo.u32 %0, %2, 3;\n\t"
               "bra.uni $L__brx_end;\n"
               "$L__brx_2:\n\t"
               "xor.b32 %0, %2, 0x5555;\n\t"
               "bra.uni $L__brx_end;\n"
               "$L__brx_3:\n\t"
               "shl.b32 %%t, %2, 4;\n\t"
               "or.b32 %0, %%t, 3;\n\t"
               "bra.uni $L__brx_end;\n"
               "$L__brx_4:\n\t"
               "not.b32 %0, %2;\n\t"
               "bra.uni $L__brx_end;\n"
               "$L__brx_5:\n\t"
               "mov.u32 %0, 77;\n"
               "$L__brx_end:\n\t"
               "}"
               : "=r"(r)
               : "r"(idx), "r"(x));
  return r;
}

__global__ void brx_idx(u32 *out, u32 *out2) {
  u32 i = gtid();
  u32 lane = laneid();
  out[i] = dispatch(lane % 6, i);         // divergent: 6 targets per warp
  out2[i] = dispatch((i / 32) % 6, lane); // uniform per warp
}
