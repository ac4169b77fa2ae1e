// sm_intops: the integer operations of the SM RTL's ALU (sm_alu.sv) on
// edge cases, for the SM lockstep (cosim, docs/sm-rtl.md step 3): division
// and remainder by zero and of MIN by -1, bfe with positions and lengths
// past the msb, every prmt mode, clamped and wrapped funnel shifts, 24-bit
// multiplies, mad.hi and mad.wide, one result word per operation and
// thread. The inputs (a table of 64 words with 0, -1, MIN, MAX and small
// values) come from the host.
#include "../../../examples/smsim_cuda.h"

#define OP2(k, ins, x, y)                                                     \
  do {                                                                        \
    u32 r_;                                                                   \
    asm volatile(ins " %0, %1, %2;" : "=r"(r_) : "r"(x), "r"(y));             \
    o[k] = r_;                                                                \
  } while (0)
#define OP3(k, ins, x, y, z)                                                  \
  do {                                                                        \
    u32 r_;                                                                   \
    asm volatile(ins " %0, %1, %2, %3;" : "=r"(r_) : "r"(x), "r"(y), "r"(z)); \
    o[k] = r_;                                                                \
  } while (0)
#define OP2L(k, ins, x, y)                                                    \
  do {                                                                        \
    u64 r_;                                                                   \
    asm volatile(ins " %0, %1, %2;" : "=l"(r_) : "l"(x), "l"(y));             \
    o64[k] = r_;                                                              \
  } while (0)

__global__ void sm_intops(u32 *out, u64 *out64, const u32 *in) {
  u32 i = tid_x();
  u32 a = in[i], b = in[(i + 5) & 63], c = in[(i * 7 + 3) & 63];
  u64 la = ((u64)a << 32) | b, lb = ((u64)c << 32) | (b >> 3);
  u32 *o = out + i * 40;
  u64 *o64 = out64 + i * 12;
  OP2(0, "div.u32", a, b);
  OP2(1, "div.s32", a, b);
  OP2(2, "rem.u32", a, b);
  OP2(3, "rem.s32", a, b);
  OP3(4, "bfe.u32", a, b & 63, c & 63);
  OP3(5, "bfe.s32", a, b & 63, c & 63);
  OP3(6, "prmt.b32", a, b, c);
  OP3(7, "prmt.b32.f4e", a, b, c);
  OP3(8, "prmt.b32.b4e", a, b, c);
  OP3(9, "prmt.b32.rc8", a, b, c);
  OP3(10, "prmt.b32.ecl", a, b, c);
  OP3(11, "prmt.b32.ecr", a, b, c);
  OP3(12, "prmt.b32.rc16", a, b, c);
  OP3(13, "shf.l.clamp.b32", a, b, c & 63);
  OP3(14, "shf.r.clamp.b32", a, b, c & 63);
  OP3(15, "shf.l.wrap.b32", a, b, c);
  OP3(16, "shf.r.wrap.b32", a, b, c);
  OP3(17, "sad.u32", a, b, c);
  OP3(18, "sad.s32", a, b, c);
  OP2(19, "mul24.lo.u32", a, b);
  OP2(20, "mul24.hi.u32", a, b);
  OP2(21, "mul24.lo.s32", a, b);
  OP2(22, "mul24.hi.s32", a, b);
  OP3(23, "mad24.lo.s32", a, b, c);
  OP3(24, "mad24.hi.u32", a, b, c);
  OP3(25, "mad.hi.u32", a, b, c);
  OP3(26, "mad.hi.s32", a, b, c);
  OP2(27, "min.s32", a, b);
  OP2(28, "max.u32", a, b);
  asm volatile("neg.s32 %0, %1;" : "=r"(o[29]) : "r"(a));
  asm volatile("abs.s32 %0, %1;" : "=r"(o[30]) : "r"(a));
  asm volatile("popc.b32 %0, %1;" : "=r"(o[31]) : "r"(a));
  asm volatile("clz.b32 %0, %1;" : "=r"(o[32]) : "r"(a));
  asm volatile("brev.b32 %0, %1;" : "=r"(o[33]) : "r"(a));
  asm volatile("popc.b64 %0, %1;" : "=r"(o[34]) : "l"(la));
  asm volatile("clz.b64 %0, %1;" : "=r"(o[35]) : "l"(la));
  OP2L(0, "div.s64", la, lb);
  OP2L(1, "rem.s64", la, lb);
  OP2L(2, "div.u64", la, lb);
  OP2L(3, "rem.u64", la, lb);
  asm volatile("brev.b64 %0, %1;" : "=l"(o64[4]) : "l"(la));
  asm volatile("abs.s64 %0, %1;" : "=l"(o64[5]) : "l"(lb));
  asm volatile("bfe.s64 %0, %1, %2, %3;" : "=l"(o64[6]) : "l"(la), "r"(b & 127), "r"(c & 127));
  asm volatile("mad.wide.s32 %0, %1, %2, %3;" : "=l"(o64[7]) : "r"(a), "r"(b), "l"(lb));
  asm volatile("mad.wide.u32 %0, %1, %2, %3;" : "=l"(o64[8]) : "r"(a), "r"(b), "l"(lb));
  asm volatile("mad.hi.s64 %0, %1, %2, %3;" : "=l"(o64[9]) : "l"(la), "l"(lb), "l"(la));
  asm volatile("sad.u64 %0, %1, %2, %3;" : "=l"(o64[10]) : "l"(la), "l"(lb), "l"(la));
  asm volatile("neg.s64 %0, %1;" : "=l"(o64[11]) : "l"(lb));
}
