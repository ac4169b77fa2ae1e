// warpops: the warp-level instructions of issue 16, item 3. Thread i
// reads x = in[i] and writes 16 words at out[16*i]:
//   0 redux.sync.add.u32 (__reduce_add_sync)  1 redux.sync.min.s32
//   2 redux.sync.max.u32  3 redux.sync.min.u32  4 redux.sync.max.s32
//   5 redux.sync.and.b32  6 redux.sync.or.b32  7 redux.sync.xor.b32
//     (inline asm: with -nocudainc clang-16 turns on no PTX feature, and
//     its __nvvm_redux_sync_* builtins, __reduce_add_sync's, need ptx70),
//     all over the full warp
//   8 redux.sync.add.u32 over the odd lanes only (membermask 0xaaaaaaaa,
//     executed by the odd lanes; even lanes write 0)
//   9 match.any.sync.b32 of x & 7     10 match.any.sync.b64 of (u64)(x&3)<<40
//     (inline asm: the match and vote builtins need ptx60 as well)
//  11 match.all.sync.b32 of x & 7 and 12 its predicate (0/1)
//  13 match.all.sync.b32 of the warp id (uniform) and 14 its predicate
//  15 elect.sync over the lanes with x even: (leader lane) | p << 8
//     (inline asm: clang-16 has no builtin; odd lanes write 0xffffffff)
// Launch: grid 1, block n (a multiple of 32).
#include "../../../examples/smsim_cuda.h"

#define REDUX(op, v, mask) ({ u32 _r; asm("redux.sync." op " %0, %1, %2;" : "=r"(_r) : "r"(v), "r"(mask)); _r; })

static __device__ __forceinline__ u32 match_any(u32 v) {
  u32 r;
  asm("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}

static __device__ __forceinline__ u32 match_any64(u64 v) {
  u32 r;
  asm("match.any.sync.b64 %0, %1, 0xffffffff;" : "=r"(r) : "l"(v));
  return r;
}

static __device__ __forceinline__ u32 ballot(bool b) {
  u32 r;
  asm("{\n\t.reg .pred q;\n\t"
      "setp.ne.u32 q, %1, 0;\n\t"
      "vote.sync.ballot.b32 %0, q, 0xffffffff;\n\t}"
      : "=r"(r) : "r"((u32)b));
  return r;
}

static __device__ __forceinline__ u32 match_all(u32 v, u32 *pred) {
  u32 r, p;
  asm("{\n\t.reg .pred q;\n\t"
      "match.all.sync.b32 %0|q, %2, 0xffffffff;\n\t"
      "selp.u32 %1, 1, 0, q;\n\t}"
      : "=r"(r), "=r"(p) : "r"(v));
  *pred = p;
  return r;
}

static __device__ __forceinline__ u32 elect(u32 mask) {
  u32 r, p;
  asm("{\n\t.reg .pred q;\n\t"
      "elect.sync %0|q, %2;\n\t"
      "selp.u32 %1, 1, 0, q;\n\t}"
      : "=r"(r), "=r"(p) : "r"(mask));
  return r | p << 8;
}

extern "C" __global__ void warpops(u32 *out, const u32 *in) {
  u32 i = tid_x();
  u32 x = in[i];
  u32 *o = out + 16 * i;
  o[0] = REDUX("add.u32", x, 0xffffffff);
  o[1] = REDUX("min.s32", x, 0xffffffff);
  o[2] = REDUX("max.u32", x, 0xffffffff);
  o[3] = REDUX("min.u32", x, 0xffffffff);
  o[4] = REDUX("max.s32", x, 0xffffffff);
  o[5] = REDUX("and.b32", x, 0xffffffff);
  o[6] = REDUX("or.b32", x, 0xffffffff);
  o[7] = REDUX("xor.b32", x, 0xffffffff);
  u32 odd = 0;
  if (i & 1)
    odd = REDUX("add.u32", x, 0xaaaaaaaa);
  o[8] = odd;
  o[9] = match_any(x & 7);
  o[10] = match_any64((u64)(x & 3) << 40);
  u32 p;
  o[11] = match_all(x & 7, &p);
  o[12] = p;
  o[13] = match_all(i / 32, &p);
  o[14] = p;
  u32 e = 0xffffffff;
  u32 evens = ballot((x & 1) == 0);
  if ((x & 1) == 0)
    e = elect(evens);
  o[15] = e;
}
