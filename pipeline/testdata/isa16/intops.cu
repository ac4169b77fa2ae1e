// intops: the integer instructions of issue 16, item 2. Thread i reads
// x = in[i], y = in[(i+1)%n], z = in[(i+2)%n] and writes 24 words at
// out[24*i]:
//   0 __umul24(x,y) (mul24.lo.u32)   1 __mul24(x,y) (mul24.lo.s32)
//   2 mul24.hi.u32 (asm)             3 mul24.hi.s32 (asm)
//   4 mad24.lo.u32 x,y,z (asm)       5 mad24.hi.sat.s32 x,y,z (asm)
//   6..9 the 128-bit sum (x:y:z:x) + (y:z:x:y) (clang: add.cc/addc.cc)
//  10..13 the 128-bit difference of the same (sub.cc/subc.cc)
//  14..17 the low 128 bits of the product of the 64-bit values x:y and
//         z:x (mad.lo.cc/madc.hi.cc, asm, the PTX ISA's example sequence)
//  18 dp4a.u32.u32, 19 dp4a.s32.u32 (asm: clang-16 has no __dp4a builtin)
//  20 dp2a.lo.s32.s32 (asm), 21 dp2a.hi.u32.s32 (asm)
//  22 bmsk.clamp.b32 x&63, y&63; 23 bmsk.wrap.b32 (asm)
// and 8 more words at out2[8*i]:
//   0 szext.clamp.s32 x, y&63   1 szext.wrap.u32 x, y&63
//   2 fns.b32 x, y&31, (int)z%40 (asm: clang-16 needs a PTX 6.0 feature flag for __nvvm_fns)
//   3 lop3.b32 x,y,z,0xE8 (majority)  4 lop3 0x96 (xor3)
//   5 lop3.or.b32 d|p, x, y, z, 0x80, q (q = z odd): p as 0/1
//   6 lop3.and.b32 d|p with 0x01: p as 0/1   7 that d
//   and the carry flag round trip through a subc.cc/addc chain of z:
//   out3[i] = addc(0, 0) after sub.cc x - y (the borrow of x - y).
// Launch: grid 1, block n.
#include "../../../examples/smsim_cuda.h"

typedef unsigned __int128 u128;

static __device__ __forceinline__ u32 asm_mul24hi_u(u32 a, u32 b) {
  u32 r;
  asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static __device__ __forceinline__ int asm_mul24hi_s(int a, int b) {
  int r;
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
static __device__ __forceinline__ u32 asm_mad24lo_u(u32 a, u32 b, u32 c) {
  u32 r;
  asm("mad24.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}
static __device__ __forceinline__ int asm_mad24hisat_s(int a, int b, int c) {
  int r;
  asm("mad24.hi.sat.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

// [r3,r2,r1,r0] = [a1,a0] * [b1,b0] (mod 2^128), the PTX ISA's madc example.
static __device__ __forceinline__ void mul64x64(u32 *r, u32 a0, u32 a1, u32 b0, u32 b1) {
  asm("{\n\t"
      "mul.lo.u32 %0, %4, %6;\n\t"
      "mul.hi.u32 %1, %4, %6;\n\t"
      "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
      "madc.hi.u32 %2, %5, %6, 0;\n\t"
      "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
      "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
      "addc.u32 %3, 0, 0;\n\t"
      "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
      "madc.hi.u32 %3, %5, %7, %3;\n\t"
      "}"
      : "=&r"(r[0]), "=&r"(r[1]), "=&r"(r[2]), "=&r"(r[3])
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
}

static __device__ __forceinline__ u32 borrow(u32 a, u32 b) {
  u32 d, r;
  asm("{\n\t"
      "sub.cc.u32 %0, %2, %3;\n\t"
      "addc.u32 %1, 0, 0;\n\t"
      "}"
      : "=&r"(d), "=r"(r)
      : "r"(a), "r"(b));
  return r;
}

#define ASM2(op, a, b) ({ u32 _r; asm(op " %0, %1, %2;" : "=r"(_r) : "r"(a), "r"(b)); _r; })
#define ASM3(op, a, b, c) ({ u32 _r; asm(op " %0, %1, %2, %3;" : "=r"(_r) : "r"(a), "r"(b), "r"(c)); _r; })

#define LOP3(lut, a, b, c) ({ u32 _r; asm("lop3.b32 %0, %1, %2, %3, " #lut ";" : "=r"(_r) : "r"(a), "r"(b), "r"(c)); _r; })

static __device__ __forceinline__ u32 lop3_pred_or(u32 a, u32 b, u32 c, u32 q) {
  u32 r;
  asm("{\n\t.reg .pred p, q;\n\t.reg .b32 d;\n\t"
      "setp.ne.u32 q, %4, 0;\n\t"
      "lop3.or.b32 d|p, %1, %2, %3, 0x80, q;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(r) : "r"(a), "r"(b), "r"(c), "r"(q));
  return r;
}
static __device__ __forceinline__ u32 lop3_pred_and(u32 *d, u32 a, u32 b, u32 c, u32 q) {
  u32 r, dd;
  asm("{\n\t.reg .pred p, q;\n\t"
      "setp.ne.u32 q, %5, 0;\n\t"
      "lop3.and.b32 %1|p, %2, %3, %4, 0x01, q;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(r), "=r"(dd) : "r"(a), "r"(b), "r"(c), "r"(q));
  *d = dd;
  return r;
}

extern "C" __global__ void intops(u32 *out, u32 *out2, u32 *out3, const u32 *in) {
  u32 i = tid_x(), n = ntid_x();
  u32 x = in[i], y = in[(i + 1) % n], z = in[(i + 2) % n];
  u32 *o = out + 24 * i;
  o[0] = __nvvm_mul24_ui(x, y);
  o[1] = (u32)__nvvm_mul24_i((int)x, (int)y);
  o[2] = asm_mul24hi_u(x, y);
  o[3] = (u32)asm_mul24hi_s((int)x, (int)y);
  o[4] = asm_mad24lo_u(x, y, z);
  o[5] = (u32)asm_mad24hisat_s((int)x, (int)y, (int)z);
  u128 p = ((u128)x << 96) | ((u128)y << 64) | ((u128)z << 32) | x;
  u128 q = ((u128)y << 96) | ((u128)z << 64) | ((u128)x << 32) | y;
  u128 s = p + q, d = p - q;
  for (int k = 0; k < 4; k++) {
    o[6 + k] = (u32)(s >> (32 * k));
    o[10 + k] = (u32)(d >> (32 * k));
  }
  mul64x64(o + 14, y, x, x, z);
  o[18] = ASM3("dp4a.u32.u32", x, y, z);
  o[19] = ASM3("dp4a.s32.u32", x, y, z);
  o[20] = ASM3("dp2a.lo.s32.s32", x, y, z);
  o[21] = ASM3("dp2a.hi.u32.s32", x, y, z);
  o[22] = ASM2("bmsk.clamp.b32", x & 63, y & 63);
  o[23] = ASM2("bmsk.wrap.b32", x & 63, y & 63);
  u32 *o2 = out2 + 8 * i;
  o2[0] = ASM2("szext.clamp.s32", x, y & 63);
  o2[1] = ASM2("szext.wrap.u32", x, y & 63);
  o2[2] = ASM3("fns.b32", x, y & 31, (int)z % 40);
  o2[3] = LOP3(0xE8, x, y, z);
  o2[4] = LOP3(0x96, x, y, z);
  o2[5] = lop3_pred_or(x, y, z, z & 1);
  o2[6] = lop3_pred_and(&o2[7], x, y, z, z & 1);
  out3[i] = borrow(x, y);
}
