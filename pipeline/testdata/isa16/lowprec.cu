// lowprec: f16/bf16 arithmetic and the conversions among f32, f16, bf16,
// e4m3 and e5m2 (issue 16, item 4), in inline asm: clang-16 with
// -nocudainc has no _Float16/__bf16 arithmetic for nvptx. Thread i reads
// x = in[i], y = in[(i+1)%n], z = in[(i+2)%n] (f32) and writes 44 words
// at out[44*i]; lowprec_ref.py lists what each word is and computes it.
// Launch: grid 1, block n.
#include "../../../examples/smsim_cuda.h"

#define CVT2(op, a, b) ({ u32 _r; asm(op " %0, %1, %2;" : "=r"(_r) : "f"(a), "f"(b)); _r; })
#define CVT1F(op, a) ({ u32 _r; asm("{\n\t.reg .b16 h;\n\t" op " h, %1;\n\tcvt.u32.u16 %0, h;\n\t}" : "=r"(_r) : "f"(a)); _r; })
#define CVT2H(op, a, b) ({ u32 _r; asm("{\n\t.reg .b16 h;\n\t" op " h, %1, %2;\n\tcvt.u32.u16 %0, h;\n\t}" : "=r"(_r) : "f"(a), "f"(b)); _r; })
#define OP1(op, a) ({ u32 _r; asm(op " %0, %1;" : "=r"(_r) : "r"(a)); _r; })
#define OP2(op, a, b) ({ u32 _r; asm(op " %0, %1, %2;" : "=r"(_r) : "r"(a), "r"(b)); _r; })
#define OP3(op, a, b, c) ({ u32 _r; asm(op " %0, %1, %2, %3;" : "=r"(_r) : "r"(a), "r"(b), "r"(c)); _r; })
#define SETP2(op, a, b) ({ u32 _r; asm("{\n\t.reg .pred p, q;\n\t" op " p|q, %1, %2;\n\tselp.u32 %0, 1, 0, p;\n\t@q or.b32 %0, %0, 2;\n\t}" : "=r"(_r) : "r"(a), "r"(b)); _r; })
// Scalar 16-bit operations on the lower halves of a and b (c).
#define H2(op, a, b) ({ u32 _r; asm("{\n\t.reg .b16 x, y, d, u;\n\tmov.b32 {x, u}, %1;\n\tmov.b32 {y, u}, %2;\n\t" op " d, x, y;\n\tcvt.u32.u16 %0, d;\n\t}" : "=r"(_r) : "r"(a), "r"(b)); _r; })
#define H3(op, a, b, c) ({ u32 _r; asm("{\n\t.reg .b16 x, y, w, d, u;\n\tmov.b32 {x, u}, %1;\n\tmov.b32 {y, u}, %2;\n\tmov.b32 {w, u}, %3;\n\t" op " d, x, y, w;\n\tcvt.u32.u16 %0, d;\n\t}" : "=r"(_r) : "r"(a), "r"(b), "r"(c)); _r; })
#define HSETP(op, a, b) ({ u32 _r; asm("{\n\t.reg .b16 x, y, u;\n\t.reg .pred p;\n\tmov.b32 {x, u}, %1;\n\tmov.b32 {y, u}, %2;\n\t" op " p, x, y;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(_r) : "r"(a), "r"(b)); _r; })
// Conversions from a 16-bit value (the lower half of a).
#define FROM16(op, a) ({ u32 _r; asm("{\n\t.reg .b16 x, u;\n\tmov.b32 {x, u}, %1;\n\t" op " %0, x;\n\t}" : "=r"(_r) : "r"(a)); _r; })
#define FROM16F(op, a) ({ float _r; asm("{\n\t.reg .b16 x, u;\n\tmov.b32 {x, u}, %1;\n\t" op " %0, x;\n\t}" : "=f"(_r) : "r"(a)); __builtin_bit_cast(u32, _r); })
#define TO16(op, a) ({ u32 _r; asm("{\n\t.reg .b16 d;\n\t" op " d, %1;\n\tcvt.u32.u16 %0, d;\n\t}" : "=r"(_r) : "r"(a)); _r; })
#define PACKSAT(op, a, b, c) ({ u32 _r; asm(op " %0, %1, %2, %3;" : "=r"(_r) : "r"(a), "r"(b), "r"(c)); _r; })

extern "C" __global__ void lowprec(u32 *out, const float *in) {
  u32 i = tid_x(), n = ntid_x();
  float x = in[i], y = in[(i + 1) % n], z = in[(i + 2) % n];
  u32 *o = out + 44 * i;
  u32 a = CVT2("cvt.rn.f16x2.f32", x, y), b = CVT2("cvt.rn.f16x2.f32", y, z);
  o[0] = a;
  o[1] = CVT2("cvt.rz.f16x2.f32", x, y);
  o[2] = CVT2("cvt.rn.relu.satfinite.f16x2.f32", x * 1000.0f, y * 1000.0f);
  u32 c = CVT2("cvt.rn.bf16x2.f32", x, y), d = CVT2("cvt.rn.bf16x2.f32", y, z);
  o[3] = c;
  o[4] = CVT2("cvt.rz.relu.bf16x2.f32", x, y);
  o[5] = FROM16F("cvt.f32.bf16", CVT1F("cvt.rn.bf16.f32", z));
  o[6] = FROM16F("cvt.f32.f16", CVT1F("cvt.rn.f16.f32", z));
  o[7] = OP2("add.rn.f16x2", a, b);
  o[8] = OP2("sub.f16x2", a, b);
  o[9] = OP2("mul.rn.f16x2", a, b);
  o[10] = OP3("fma.rn.f16x2", a, b, a);
  o[11] = OP1("neg.f16x2", a);
  o[12] = OP1("abs.f16x2", a);
  o[13] = OP2("min.f16x2", a, b);
  o[14] = OP2("max.f16x2", a, b);
  o[15] = OP3("fma.rn.relu.f16x2", a, b, b);
  o[16] = OP2("add.rn.sat.f16x2", a, b);
  o[17] = SETP2("setp.lt.f16x2", a, b);
  o[18] = OP2("add.rn.bf16x2", c, d);
  o[19] = OP2("sub.rn.bf16x2", c, d);
  o[20] = OP2("mul.rn.bf16x2", c, d);
  o[21] = OP3("fma.rn.bf16x2", c, d, c);
  o[22] = OP1("neg.bf16x2", c);
  o[23] = OP1("abs.bf16x2", c);
  o[24] = OP2("min.bf16x2", c, d);
  o[25] = OP2("max.bf16x2", c, d);
  o[26] = OP3("fma.rn.relu.bf16x2", c, d, d);
  o[27] = SETP2("setp.gt.bf16x2", c, d);
  o[28] = H2("add.rn.bf16", c, d);
  o[29] = H3("fma.rn.bf16", c, d, c);
  o[30] = HSETP("setp.lt.bf16", c, d);
  o[31] = H3("fma.rn.f16", a, b, a);
  u32 e = CVT2H("cvt.rn.satfinite.e4m3x2.f32", x * 4.0f, y * 4.0f);
  u32 f = CVT2H("cvt.rn.satfinite.e5m2x2.f32", x * 4.0f, y * 4.0f);
  o[32] = e;
  o[33] = f;
  o[34] = CVT2H("cvt.rn.satfinite.relu.e4m3x2.f32", x * 4.0f, y * 4.0f);
  o[35] = FROM16("cvt.rn.f16x2.e4m3x2", e);
  o[36] = FROM16("cvt.rn.f16x2.e5m2x2", f);
  o[37] = TO16("cvt.rn.satfinite.e4m3x2.f16x2", a);
  o[38] = TO16("cvt.rn.satfinite.e5m2x2.f16x2", a);
  int ia = __builtin_bit_cast(int, x) >> 22, ib = __builtin_bit_cast(int, y) >> 22;
  o[39] = PACKSAT("cvt.pack.sat.u8.s32.b32", ia, ib, 0x1234u);
  o[40] = PACKSAT("cvt.pack.sat.s8.s32.b32", ia, ib, 0xabcdu);
  o[41] = PACKSAT("cvt.pack.sat.u16.s32.b32", ia * 300, ib * 300, 0u);
  o[42] = PACKSAT("cvt.pack.sat.s16.s32.b32", ia * 300, ib * 300, 0u);
  o[43] = CVT1F("cvt.rn.satfinite.f16.f32", x * 1000.0f);
}
