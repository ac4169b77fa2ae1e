// sm_fpu_dpi.c: the behavioural FPU behind sm_fpu.sv's DPI-C import
// (docs/sm-rtl.md, "The behavioural FPU"). One lane of the f16, bf16,
// f16x2, bf16x2, f32 and f64 instructions of the PTX ISA (the
// floating-point, half-precision and comparison instructions, cvt),
// written from the ISA's definitions on the C library's IEEE 754
// arithmetic: fesetround for the rounding modifiers, the hardware's
// correctly rounded + - * / and sqrt, fma/fmaf, and exp2/log2/sin/cos/tanh
// for the SFU's approximations; the 16-bit formats are computed in double
// (rounded to odd) and rounded once by round_small. It is independent of the Go model (package alu): no
// call back into Go, no shared code; where the ISA leaves a choice to the
// implementation (which NaN, how exact an approximation is), it takes the
// choice the Go model documents (alu/doc.go), and says so ("Go model's
// choice") beside it.
//
// Encodings (op, types, modifier bits) come from sm_isa_pkg.h, which the
// Makefile derives from the generated rtl/sm_isa_pkg.sv
// (scripts/svpkg2h.sh).
//
// Build with -frounding-math (the Makefile does): the compiler must not
// fold or move floating-point operations across fesetround. Every
// operation under a non-default mode also goes through volatile
// temporaries, so that it cannot be scheduled outside the mode's window.

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "svdpi.h"
#include "sm_isa_pkg.h"

#ifdef SM_FPU_DPI_HEADER
// The Verilated model's DPI header: checks the prototype below.
#include SM_FPU_DPI_HEADER
#endif

void sm_fpu_eval(unsigned char op, unsigned char ty, unsigned char ty2, unsigned short mods,
                 unsigned long long a, unsigned long long b, unsigned long long c,
                 unsigned long long* d, unsigned char* flags);

// ---------------------------------------------------------------------
// Formats.

#define F32_SIGN 0x80000000ull
#define F32_ABS 0x7fffffffull
#define F32_INF 0x7f800000ull
#define F32_ONE 0x3f800000ull
#define F64_SIGN 0x8000000000000000ull
#define F64_ABS 0x7fffffffffffffffull
#define F64_INF 0x7ff0000000000000ull
#define F64_ONE 0x3ff0000000000000ull
#define F64_QUIET 0x0008000000000000ull
#define F64_HI 0xffffffff00000000ull

// Canonical NaNs: 0x7fffffff is the PTX ISA's canonical f32 NaN (0x7fff
// for the 16-bit formats), which f32 and 16-bit operations with a NaN
// result give (the Go model's choice where the ISA says only "NaN"). For
// f64 the Go model's choice: propagate the first NaN operand (a, then b,
// then c), quieted, and give 0x7fff...f for an invalid operation on
// numbers. rcp/rsqrt.approx.ftz.f64 map NaNs to 0x7fffffff00000000 (PTX
// ISA, rcp.approx.ftz.f64).
#define NAN32 0x7fffffffull
#define NAN64 0x7fffffffffffffffull
#define NAN64_APPROX 0x7fffffff00000000ull

static float f32(uint64_t x) {
  uint32_t u = (uint32_t)x;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static uint64_t b32(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static double f64(uint64_t x) {
  double f;
  memcpy(&f, &x, sizeof f);
  return f;
}

static uint64_t b64(double f) {
  uint64_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

// The 16-bit formats: f16 (IEEE binary16) and bf16 (the upper half of
// an f32). PTX: their operations give the canonical NaN 0x7fff.
#define NAN16 0x7fffull

// fmt describes f16, bf16, f32 or f64 by its bits; man and bias (the
// fraction bits and the exponent bias) are used for the 16-bit formats,
// which have no C type.
typedef struct {
  int bits;  // 16, 32, 64
  uint64_t sign, abs, inf, one, nan, mask;
  int man, bias;
} fmt_t;

static const fmt_t FMT16 = {16, 0x8000ull, 0x7fffull, 0x7c00ull, 0x3c00ull, NAN16, 0xffffull, 10, 15};
static const fmt_t FMTBF16 = {16, 0x8000ull, 0x7fffull, 0x7f80ull, 0x3f80ull, NAN16, 0xffffull, 7, 127};
static const fmt_t FMT32 = {32, F32_SIGN, F32_ABS, F32_INF, F32_ONE, NAN32, 0xffffffffull, 23, 127};
static const fmt_t FMT64 = {64, F64_SIGN, F64_ABS, F64_INF, F64_ONE, NAN64, ~0ull, 52, 1023};

// fmt_of: the format of a type (of the elements of f16x2 and bf16x2).
static const fmt_t* fmt_of(unsigned t) {
  switch (t) {
    case TyF64: return &FMT64;
    case TyF16: case TyF16x2: return &FMT16;
    case TyBF16: case TyBF16x2: return &FMTBF16;
  }
  return &FMT32;
}

// dec_small: the value of an f16 or bf16 (exact in double).
static double dec_small(const fmt_t* f, uint64_t x) {
  int e = (int)((x & f->inf) >> f->man);
  double m = (double)(x & ((1ull << f->man) - 1)), v;
  if ((x & f->abs) > f->inf) return NAN;
  if ((x & f->abs) == f->inf) {
    v = INFINITY;
  } else if (e == 0) {
    v = ldexp(m, 1 - f->bias - f->man);
  } else {
    v = ldexp(m + ldexp(1, f->man), e - f->bias - f->man);
  }
  return (x & f->sign) ? -v : v;
}

// overflow_small: a result too large for f under mode: infinity, or the
// largest finite value for the directed modes that round toward zero.
static uint64_t overflow_small(const fmt_t* f, uint64_t sign, int mode) {
  int to_inf = mode == FE_TONEAREST || (mode == FE_UPWARD && !sign) || (mode == FE_DOWNWARD && sign);
  return sign | (to_inf ? f->inf : f->inf - 1);
}

// round_small rounds x to f16 or bf16 under mode (an FE_ constant). x is
// the exact value, or a double from which the exact value rounds the
// same way (rounded to odd with two or more extra bits): subnormals,
// overflow and the signs of zeros as IEEE 754 says.
static uint64_t round_small(const fmt_t* f, double x, int mode) {
  uint64_t sign = signbit(x) ? f->sign : 0, mi, one = 1ull << f->man;
  int emax = f->bias, emin = 1 - f->bias, q, up = 0;
  double ax = fabs(x), m, frac;
  if (isnan(x)) return f->nan;
  if (isinf(x)) return sign | f->inf;
  if (ax == 0) return sign;
  q = ilogb(ax);
  if (q > emax) return overflow_small(f, sign, mode);
  q = (q < emin ? emin : q) - f->man;  // the quantum 2^q at this exponent
  m = ldexp(ax, -q);                   // exact
  mi = (uint64_t)m;
  frac = m - (double)mi;               // exact
  switch (mode) {
    case FE_TONEAREST: up = frac > 0.5 || (frac == 0.5 && (mi & 1)); break;
    case FE_UPWARD: up = frac > 0 && !sign; break;
    case FE_DOWNWARD: up = frac > 0 && sign; break;
    default: break;  // toward zero
  }
  mi += (uint64_t)up;
  if (mi == 2 * one) {
    mi = one;
    q++;
  }
  if (mi < one) return sign | mi;  // subnormal (or zero)
  if (q + f->man > emax) return overflow_small(f, sign, mode);
  return sign | (uint64_t)(q + f->man + f->bias) << f->man | (mi - one);
}

// encode: the exactly representable (or NaN, infinite) value x in f.
static uint64_t encode(const fmt_t* f, double x) {
  switch (f->bits) {
    case 64: return b64(x);
    case 32: return isnan(x) ? NAN32 : b32((float)x);
  }
  return round_small(f, x, FE_TONEAREST);
}

static int is_nan(const fmt_t* f, uint64_t x) { return (x & f->abs) > f->inf; }
static int is_inf(const fmt_t* f, uint64_t x) { return (x & f->abs) == f->inf; }
static int is_sub(const fmt_t* f, uint64_t x) {
  return (x & f->inf) == 0 && (x & f->abs) != 0;
}

// flush: .ftz's sign-preserving zero for a subnormal.
static uint64_t flush(const fmt_t* f, uint64_t x) { return is_sub(f, x) ? x & f->sign : x; }

// value: the number (f16 and f32 widened exactly).
static double value(const fmt_t* f, uint64_t x) {
  switch (f->bits) {
    case 64: return f64(x);
    case 32: return (double)f32(x);
  }
  return dec_small(f, x);
}

// nan_of: the NaN result of an operation with NaN operands ops[0..n).
static uint64_t nan_of(const fmt_t* f, const uint64_t* ops, int n) {
  if (f->bits == 64) {
    for (int i = 0; i < n; i++) {
      if (is_nan(f, ops[i])) return ops[i] | F64_QUIET;  // Go model's choice
    }
  }
  return f->nan;
}

// sat: .sat clamps to [+0.0, 1.0] and NaN results give +0.0 (PTX ISA,
// the .sat modifier of the floating-point instructions); -0.0 gives +0.0
// (Go model's choice).
static uint64_t sat(const fmt_t* f, uint64_t r) {
  if (is_nan(f, r) || (r & f->sign)) return 0;
  return r > f->one ? f->one : r;
}

// ---------------------------------------------------------------------
// Arithmetic under a rounding mode.

static int fe_mode(int rnd) {
  switch (rnd) {
    case RndRZ:
    case RndRZI:
      return FE_TOWARDZERO;
    case RndRM:
    case RndRMI:
      return FE_DOWNWARD;
    case RndRP:
    case RndRPI:
      return FE_UPWARD;
    default:
      return FE_TONEAREST;  // rn, rni, and what defaults to rn
  }
}

typedef enum { K_ADD, K_SUB, K_MUL, K_DIV, K_FMA, K_SQRT, K_RINT, K_NARROW } kind_t;

// arith_small: add sub mul fma of f16 or bf16 operands. The operation
// is computed in double toward zero and made odd when inexact (round to
// odd: 53 bits are more than two beyond the formats' 11 and 8), then
// rounded once to f under mode; an exact zero is recomputed under mode
// for its sign.
static uint64_t arith_small(const fmt_t* f, kind_t kind, int mode, uint64_t a, uint64_t b, uint64_t c) {
  volatile double x = dec_small(f, a), y = dec_small(f, b), z = dec_small(f, c), q;
  int old = fegetround();
  for (int pass = 0; pass < 2; pass++) {
    feclearexcept(FE_INEXACT);
    fesetround(pass ? mode : FE_TOWARDZERO);
    switch (kind) {
      case K_ADD: q = x + y; break;
      case K_SUB: q = x - y; break;
      case K_MUL: q = x * y; break;
      default: q = fma(x, y, z); break;  // K_FMA
    }
    if (fetestexcept(FE_INEXACT)) {
      q = f64(b64(q) | 1);
      break;
    }
    if (q != 0) break;
  }
  fesetround(old);
  return round_small(f, q, mode);
}

// arith computes kind on the raw operands under rounding mode mode (an
// FE_ constant) and returns the raw result in f's format, except
// K_NARROW (f64 a to f32).
static uint64_t arith(const fmt_t* f, kind_t kind, int mode, uint64_t a, uint64_t b, uint64_t c) {
  uint64_t r;
  int old;
  if (f->bits == 16 && kind != K_NARROW) return arith_small(f, kind, mode, a, b, c);
  old = fegetround();
  fesetround(mode);
  if (kind == K_NARROW) {
    volatile double x = f64(a);
    volatile float y = (float)x;
    r = b32(y);
  } else if (f->bits == 64) {
    volatile double x = f64(a), y = f64(b), z = f64(c), q;
    switch (kind) {
      case K_ADD: q = x + y; break;
      case K_SUB: q = x - y; break;
      case K_MUL: q = x * y; break;
      case K_DIV: q = x / y; break;
      case K_FMA: q = fma(x, y, z); break;
      case K_SQRT: q = sqrt(x); break;
      default: q = nearbyint(x); break;
    }
    r = b64(q);
  } else {
    volatile float x = f32(a), y = f32(b), z = f32(c), q;
    switch (kind) {
      case K_ADD: q = x + y; break;
      case K_SUB: q = x - y; break;
      case K_MUL: q = x * y; break;
      case K_DIV: q = x / y; break;
      case K_FMA: q = fmaf(x, y, z); break;
      case K_SQRT: q = sqrtf(x); break;
      default: q = nearbyintf(x); break;
    }
    r = b32(q);
  }
  fesetround(old);
  return r;
}

// int_to_float converts the integer v (signed when sgn) to f under mode.
static uint64_t int_to_float(const fmt_t* f, uint64_t v, int sgn, int mode) {
  uint64_t r;
  int old;
  if (f->bits == 16) {
    // To double toward zero, made odd when inexact (round to odd), then
    // rounded once.
    volatile uint64_t u = v;
    volatile double q;
    old = fegetround();
    feclearexcept(FE_INEXACT);
    fesetround(FE_TOWARDZERO);
    q = sgn ? (double)(int64_t)u : (double)u;
    if (fetestexcept(FE_INEXACT)) q = f64(b64(q) | 1);
    fesetround(old);
    return round_small(f, q, mode);
  }
  old = fegetround();
  fesetround(mode);
  if (f->bits == 64) {
    volatile uint64_t u = v;
    volatile double q = sgn ? (double)(int64_t)u : (double)u;
    r = b64(q);
  } else {
    volatile uint64_t u = v;
    volatile float q = sgn ? (float)(int64_t)u : (float)u;
    r = b32(q);
  }
  fesetround(old);
  return r;
}

// ---------------------------------------------------------------------
// The instructions.

static int rnd_of(unsigned mods) { return (int)((mods & ModRndMask) >> ModRndShift); }

// is_fp: the scalar float types; is_packed: the pairs of 16-bit floats.
static int is_fp(unsigned t) { return t == TyF16 || t == TyBF16 || t == TyF32 || t == TyF64; }
static int is_packed(unsigned t) { return t == TyF16x2 || t == TyBF16x2; }

static int is_int(unsigned t) {
  switch (t) {
    case TyB8: case TyB16: case TyB32: case TyB64:
    case TyU8: case TyU16: case TyU32: case TyU64:
    case TyS8: case TyS16: case TyS32: case TyS64:
      return 1;
  }
  return 0;
}

static int int_bits(unsigned t) {
  switch (t) {
    case TyB8: case TyU8: case TyS8: return 8;
    case TyB16: case TyU16: case TyS16: return 16;
    case TyB32: case TyU32: case TyS32: return 32;
  }
  return 64;
}

static int int_signed(unsigned t) { return t == TyS8 || t == TyS16 || t == TyS32 || t == TyS64; }

static uint64_t mask_of(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

// supported: the forms this unit implements. They are the f16, bf16,
// f16x2, bf16x2, f32 and f64 forms the Go model implements
// (alu.Supported), with the rounding modes the ISA defines; tf32 and fp8
// conversions are not here (docs/sm-rtl.md). Integer-to-integer cvt, mov
// and selp are the ALU's (sm_alu.sv).
static int supported(unsigned op, unsigned ty, unsigned ty2, unsigned mods) {
  int rnd = rnd_of(mods);
  int ftz = (mods & ModFtz) != 0;
  int f3264 = ty == TyF32 || ty == TyF64;
  int anyfp = is_fp(ty) || is_packed(ty);
  int half = ty == TyF16 || ty == TyBF16 || is_packed(ty);
  switch (op) {
    case OpADD: case OpSUB: case OpMUL: case OpMAD: case OpFMA: {
      // {.rnd}{.ftz}{.sat}, fma.relu of the half types; no .ftz on f64.
      unsigned allowed = ModSat | ModRndMask | ModFtz | (op == OpFMA && half ? ModRelu : 0);
      return anyfp && !(mods & ~allowed) && rnd <= (int)RndRP && !(ftz && ty == TyF64);
    }
    case OpDIV: case OpSQRT: case OpRCP: {
      int ok;
      if (!f3264 || (mods & ~(ModRndMask | ModFtz))) return 0;
      if (rnd == (int)RndApprox) {
        ok = ty == TyF32 || op == OpRCP;  // rcp.approx.ftz.f64; no sqrt/div.approx.f64
      } else if (rnd == (int)RndFull) {
        ok = op == OpDIV && ty == TyF32;  // div.full.f32
      } else {
        ok = rnd <= (int)RndRP;
      }
      return ok && !(ftz && ty == TyF64 && !(op == OpRCP && rnd == (int)RndApprox));
    }
    case OpMIN: case OpMAX:
      if (ty == TyF64) return mods == 0;
      return anyfp && !(mods & ~(ModFtz | ModMinMaxNaN | ModMinMaxXorsign));
    case OpNEG: case OpABS:
      if (ty == TyF64) return mods == 0;
      return anyfp && !(mods & ~ModFtz);
    case OpCOPYSIGN:
      return f3264 && mods == 0;
    case OpTESTP:
      return f3264 && mods <= TestpSubnormal;
    case OpSETP: {
      unsigned cmp = mods & ModCmpMask;
      if (!anyfp || (mods & ~(ModCmpMask | ModBoolMask | ModSetpDst2 | ModSetpFtz))) return 0;
      return cmp <= CmpNAN && !(cmp >= CmpLO && cmp <= CmpHS);
    }
    case OpEX2: case OpLG2: case OpSIN: case OpCOS: case OpRSQRT: case OpTANH:
      if (rnd != (int)RndApprox || (mods & ~(ModRndMask | ModFtz))) return 0;
      if (half) {
        // ex2.approx.f16{x2}, ex2.approx.ftz.bf16{x2} (.ftz required),
        // tanh.approx of the four (no .ftz).
        int bf = ty == TyBF16 || ty == TyBF16x2;
        return op == OpEX2 ? ftz == bf : op == OpTANH && !ftz;
      }
      if (!(ty == TyF32 || (op == OpRSQRT && ty == TyF64))) return 0;
      return !(ftz && op == OpTANH);  // tanh has no .ftz
    case OpCVT: {
      int fr = rnd >= (int)RndRN && rnd <= (int)RndRP;
      int ir = rnd >= (int)RndRNI && rnd <= (int)RndRPI;
      int low = ty == TyBF16 || ty2 == TyBF16;  // no .sat, no .ftz
      int fp8d = ty == TyE4M3x2 || ty == TyE5M2x2, fp8s = ty2 == TyE4M3x2 || ty2 == TyE5M2x2;
      int pack = (mods & ModCvtPack) != 0, satfinite = (mods & ModSatFinite) != 0;
      if (fp8d || fp8s || pack || ty == TyTF32 || is_packed(ty) || is_packed(ty2)) {
        // The packing and tf32 conversions (PTX ISA, cvt):
        // cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32 (a, b), f16x2},
        // cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2},
        // cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b,
        // cvt.{rna,rn,rz}{.relu}{.satfinite}.tf32.f32.
        if (mods & ~(ModRndMask | ModRelu | ModSatFinite | ModCvtPack)) return 0;
        if (fp8d) return rnd == (int)RndRN && satfinite && (ty2 == TyF32 ? pack : ty2 == TyF16x2 && !pack);
        if (fp8s) return ty == TyF16x2 && rnd == (int)RndRN && !satfinite && !pack;
        if (is_packed(ty) && ty2 == TyF32 && pack) return rnd == (int)RndRN || rnd == (int)RndRZ;
        if (ty == TyTF32 && ty2 == TyF32 && !pack) {
          return rnd == (int)RndRN || rnd == (int)RndRZ || rnd == (int)RndRNA;
        }
        return 0;
      }
      if (!(is_int(ty) || is_fp(ty)) || !(is_int(ty2) || is_fp(ty2))) return 0;
      if (!is_fp(ty) && !is_fp(ty2)) return 0;  // int to int: the ALU's
      if (mods & (ModRelu | ModSatFinite)) {
        // cvt.frnd2{.relu}{.satfinite}.{f16,bf16}.f32, .frnd2 = {.rn, .rz}
        // (PTX ISA, cvt); no rounding is .rn.
        return (ty == TyF16 || ty == TyBF16) && ty2 == TyF32 &&
               !(mods & ~(ModRndMask | ModRelu | ModSatFinite)) &&
               (rnd == (int)RndNone || rnd == (int)RndRN || rnd == (int)RndRZ);
      }
      if (mods & ~(ModRndMask | (low ? 0 : ModSat | ModFtz))) return 0;
      if (rnd == (int)RndNone) return 1;
      if (is_fp(ty) && !is_fp(ty2)) return fr;  // int to float: .rn .rz .rm .rp
      if (!is_fp(ty)) return ir;                // float to int: .rni .rzi .rmi .rpi
      // Integral rounding: no narrowing, except to bf16 (Go model's
      // choice: the integral value rounded to nearest).
      if (ir) return low || fmt_of(ty)->bits >= fmt_of(ty2)->bits;
      return fr;
    }
  }
  return 0;
}

// minmax: min/max of two (flushed) operands. A NaN operand gives the
// other one, two NaNs the canonical NaN; -0.0 is less than +0.0 (PTX ISA,
// min/max; signed zeros as IEEE 754-2019 minimumNumber/maximumNumber;
// the f64 canonical NaN is the Go model's choice).
static uint64_t minmax(const fmt_t* f, uint64_t a, uint64_t b, int is_max) {
  int na = is_nan(f, a), nb = is_nan(f, b);
  double x, y;
  if (na && nb) return f->nan;
  if (na) return b;
  if (nb) return a;
  x = value(f, a);
  y = value(f, b);
  if (x == y) {  // equal: only zeros can differ
    int a_neg = (a & f->sign) != 0;
    return a_neg == is_max ? b : a;
  }
  return (x < y) != is_max ? a : b;
}

static int fcmp(unsigned cmp, double x, double y) {
  int un = isnan(x) || isnan(y);
  switch (cmp) {
    case CmpEQ: return !un && x == y;
    case CmpNE: return !un && x != y;
    case CmpLT: return !un && x < y;
    case CmpLE: return !un && x <= y;
    case CmpGT: return !un && x > y;
    case CmpGE: return !un && x >= y;
    case CmpEQU: return un || x == y;
    case CmpNEU: return un || x != y;
    case CmpLTU: return un || x < y;
    case CmpLEU: return un || x <= y;
    case CmpGTU: return un || x > y;
    case CmpGEU: return un || x >= y;
    case CmpNUM: return !un;
    case CmpNAN: return un;
  }
  return 0;
}

static int combine(unsigned bop, int t, int c) {
  switch (bop) {
    case BoolAnd: return t && c;
    case BoolOr: return t || c;
    case BoolXor: return t != c;
  }
  return t;
}

// rsqrt64: 1/sqrt(x) as two IEEE operations (the Go model's formula for
// the approximation); -0.0 gives -Inf.
static double rsqrt64(double x) {
  if (x == 0) return copysign(INFINITY, x);
  return 1.0 / sqrt(x);
}

// approx64: rcp/rsqrt.approx.ftz.f64 (PTX ISA): the upper 32 bits of a
// (the low mantissa bits are ignored), subnormal inputs and results
// flushed, NaN inputs the canonical 0x7fffffff00000000. The result is the
// correctly rounded function of that input with its low 32 bits cleared
// (Go model's choice of approximation).
static uint64_t approx64(unsigned op, uint64_t a) {
  double x, y;
  if (is_nan(&FMT64, a)) return NAN64_APPROX;
  x = f64(flush(&FMT64, a & F64_HI));
  y = op == OpRCP ? 1.0 / x : rsqrt64(x);
  if (isnan(y)) return NAN64_APPROX;
  return flush(&FMT64, b64(y) & F64_HI);
}

// arith_op: add sub mul mad fma div rcp sqrt and their modifiers.
static uint64_t arith_op(const fmt_t* f, unsigned op, unsigned mods, uint64_t a, uint64_t b, uint64_t c) {
  int rnd = rnd_of(mods);
  int ftz = (mods & ModFtz) != 0;
  uint64_t ops[3], r;
  int n, mode;
  if (op == OpRCP && f->bits == 64 && rnd == (int)RndApprox) return approx64(op, a);
  if (ftz) {
    a = flush(f, a);
    b = flush(f, b);
    c = flush(f, c);
  }
  ops[0] = a;
  ops[1] = b;
  ops[2] = c;
  n = (op == OpMAD || op == OpFMA) ? 3 : (op == OpRCP || op == OpSQRT) ? 1 : 2;
  for (int i = 0; i < n; i++) {
    if (is_nan(f, ops[i])) {
      r = nan_of(f, ops, n);
      goto out;
    }
  }
  // .approx and .full (f32 div, rcp, sqrt) are approximations: the Go
  // model's choice is the round-to-nearest result (within the ISA's
  // bounds), except div.approx.f32 below.
  mode = fe_mode(rnd);
  switch (op) {
    case OpADD: r = arith(f, K_ADD, mode, a, b, 0); break;
    case OpSUB: r = arith(f, K_SUB, mode, a, b, 0); break;
    case OpMUL: r = arith(f, K_MUL, mode, a, b, 0); break;
    case OpMAD:  // mad.f32/f64 is fused (PTX ISA, mad: sm_20 and later)
    case OpFMA: r = arith(f, K_FMA, mode, a, b, c); break;
    case OpSQRT: r = arith(f, K_SQRT, mode, a, 0, 0); break;
    case OpRCP: r = arith(f, K_DIV, mode, f->one, a, 0); break;
    default:  // OpDIV
      if (rnd == (int)RndApprox) {
        // div.approx.f32 is a * (1/b) (PTX ISA); 1/b rounded to nearest
        // and flushed when subnormal, so that 2^126 < |b| < 2^128 gives 0
        // (or NaN for an infinite a) as the ISA says (Go model's choice).
        uint64_t rb = flush(f, arith(f, K_DIV, FE_TONEAREST, f->one, b, 0));
        r = arith(f, K_MUL, FE_TONEAREST, a, rb, 0);
      } else {
        r = arith(f, K_DIV, mode, a, b, 0);
      }
  }
  if (is_nan(f, r)) r = f->nan;  // an invalid operation on numbers
out:
  if (ftz) r = flush(f, r);
  if (mods & ModSat) r = sat(f, r);
  // fma.relu of the 16-bit types: a negative result (-0.0 included) gives
  // +0.0, NaN the canonical NaN (PTX ISA, fma, .relu).
  if ((mods & ModRelu) && !is_nan(f, r) && (r & f->sign)) r = 0;
  return r;
}

// sfu: ex2 lg2 sin cos rsqrt tanh (.approx). The ISA bounds their error;
// the Go model's choice of value is the double-precision library function
// of the (flushed) input rounded to nearest f32, which this computes with
// the C library's functions. Special values per the ISA's tables.
static uint64_t sfu(unsigned op, unsigned ty, unsigned mods, uint64_t a) {
  int ftz = (mods & ModFtz) != 0;
  double x, y;
  uint64_t r;
  if (ty == TyF16 || ty == TyBF16) {  // ex2.approx.{f16,ftz.bf16}, tanh.approx.{f16,bf16}
    const fmt_t* f = fmt_of(ty);
    a &= 0xffffull;
    if (ftz) a = flush(f, a);
    if (is_nan(f, a)) return NAN16;
    x = dec_small(f, a);
    if (op == OpEX2) {
      y = exp2(x);
    } else {
      if (x == 0 || is_sub(f, a)) return a;  // ±0 and subnormals pass through
      y = tanh(x);
    }
    r = round_small(f, y, FE_TONEAREST);
    return ftz ? flush(f, r) : r;
  }
  if (ty == TyF64) {  // rsqrt.approx{.ftz}.f64
    if (ftz) return approx64(op, a);
    if (is_nan(&FMT64, a)) return a | F64_QUIET;
    return b64(rsqrt64(f64(a)));
  }
  a &= 0xffffffffull;
  if (ftz) a = flush(&FMT32, a);
  if (is_nan(&FMT32, a)) return NAN32;
  x = (double)f32(a);
  switch (op) {
    case OpEX2:
      y = exp2(x);  // ex2(-Inf) = +0, ex2(+Inf) = +Inf
      break;
    case OpLG2:
      if (x < 0) return NAN32;
      if (x == 0) return F32_SIGN | F32_INF;  // lg2(±0) = -Inf
      y = log2(x);
      break;
    case OpSIN:
      if (x == 0) return a;  // sin(±0) = ±0
      y = sin(x);            // sin(±Inf) = NaN
      break;
    case OpCOS:
      y = cos(x);
      break;
    case OpRSQRT:
      y = rsqrt64(x);  // rsqrt(±0) = ±Inf, rsqrt(+Inf) = +0, rsqrt(x<0) = NaN
      break;
    default:  // OpTANH
      if (is_sub(&FMT32, a) || x == 0) return a;  // subnormals pass through
      y = tanh(x);
  }
  if (isnan(y)) return NAN32;
  r = b32((float)y);  // round to nearest (the default mode)
  return ftz ? flush(&FMT32, r) : r;
}

// cvt: conversions with a floating-point side (PTX ISA, cvt).
static uint64_t cvt(unsigned dt, unsigned st, unsigned mods, uint64_t a) {
  int rnd = rnd_of(mods);
  int ftz = (mods & ModFtz) != 0;
  int sat_ = (mods & ModSat) != 0;
  if (is_fp(dt) && !is_fp(st)) {
    // int to float: .rn .rz .rm .rp, none is .rn.
    const fmt_t* f = fmt_of(dt);
    int w = int_bits(st);
    uint64_t v = a & mask_of(w);
    uint64_t r;
    if (int_signed(st) && w < 64 && (v >> (w - 1)) & 1) v |= ~mask_of(w);  // sign-extend
    r = int_to_float(f, v, int_signed(st), fe_mode(rnd));
    return sat_ ? sat(f, r) : r;
  }
  const fmt_t* sf = fmt_of(st);
  a &= sf->mask;
  if (ftz && st == TyF32) a = flush(sf, a);
  if (!is_fp(dt)) {
    // float to int: .rni .rzi .rmi .rpi (none: .rzi, Go model's choice;
    // PTX requires one). Saturating always: NaN gives 0, values out of
    // range the nearest bound (PTX ISA, cvt: float-to-integer
    // conversions clamp to the destination's range).
    int w = int_bits(dt);
    double x = value(sf, a), r;
    if (isnan(x)) return 0;
    if (rnd == (int)RndNone) rnd = (int)RndRZI;
    r = f64(arith(&FMT64, K_RINT, fe_mode(rnd), b64(x), 0, 0));
    if (int_signed(dt)) {
      double lim = ldexp(1.0, w - 1);
      if (r >= lim) return mask_of(w - 1);
      if (r <= -lim) return (1ull << (w - 1)) & mask_of(w);
      return (uint64_t)(int64_t)r & mask_of(w);
    }
    if (r <= 0) return 0;
    if (r >= ldexp(1.0, w)) return mask_of(w);
    return (uint64_t)r;
  }
  // float to float.
  {
    const fmt_t* df = fmt_of(dt);
    uint64_t r;
    if (is_nan(sf, a)) {
      // The destination's canonical NaN; f64 to f64 keeps the payload
      // (Go model's choice).
      r = (sf->bits == 64 && df->bits == 64) ? a | F64_QUIET : df->nan;
    } else if (rnd >= (int)RndRNI && rnd <= (int)RndRPI) {
      // Integral rounding (same width or widening): exact in df.
      r = encode(df, f64(arith(&FMT64, K_RINT, fe_mode(rnd), b64(value(sf, a)), 0, 0)));
    } else if (df == sf) {
      r = a;  // the same format: the value itself
    } else if (df->bits == 16) {
      r = round_small(df, value(sf, a), fe_mode(rnd));  // to f16 or bf16: one rounding
    } else if (df->bits == 32 && sf->bits == 64) {
      r = arith(&FMT64, K_NARROW, fe_mode(rnd), a, 0, 0);  // f64 to f32
    } else {
      r = encode(df, value(sf, a));  // widening: exact
    }
    if (ftz && dt == TyF32) r = flush(df, r);
    if (sat_) r = sat(df, r);
    // .satfinite: an infinite result (an overflow included) becomes the
    // largest finite value of its sign, NaN stays NaN; .relu: a negative
    // result (-0.0 included) becomes +0.0, NaN the canonical NaN (PTX
    // ISA, cvt).
    if ((mods & ModSatFinite) && is_inf(df, r)) r = (r & df->sign) | (df->inf - 1);
    if ((mods & ModRelu) && is_nan(df, r)) r = df->nan;
    if ((mods & ModRelu) && !is_nan(df, r) && (r & df->sign)) r = 0;
    return r;
  }
}

// fp8 (OCP e4m3: no infinities, NaN S.1111.111, largest 448; e5m2:
// IEEE-like, largest 57344).
typedef struct {
  int man, emin, bias, e4m3;
  double max;
  uint64_t max_code;
} fp8_t;

static const fp8_t E4M3 = {3, -6, 7, 1, 448, 0x7e};
static const fp8_t E5M2 = {2, -14, 15, 0, 57344, 0x7b};

// fp8_from: x rounded to nearest even with .satfinite (magnitudes from the
// largest finite value on, infinities included, give it with x's sign;
// NaN gives 0x7f, Go model's choice of NaN); .relu: negative values, -0.0
// included, give +0.0.
static uint64_t fp8_from(const fp8_t* f, double x, int relu) {
  uint64_t sign = signbit(x) ? 0x80 : 0;
  double ax = fabs(x), q, r;
  int e;
  if (isnan(x)) return 0x7f;
  if (relu && sign) return 0;
  if (ax >= f->max) return sign | f->max_code;
  if (ax == 0) return sign;
  e = ilogb(ax);
  q = ldexp(1, (e < f->emin ? f->emin : e) - f->man);
  r = nearbyint(ax / q) * q;  // the default mode: to nearest even
  if (r == 0) return sign;
  if (r >= f->max) return sign | f->max_code;
  e = ilogb(r);
  if (e < f->emin) return sign | (uint64_t)(r / ldexp(1, f->emin - f->man));  // subnormal
  return sign | (uint64_t)(e + f->bias) << f->man | ((uint64_t)(r / ldexp(1, e - f->man)) - (1ull << f->man));
}

// fp8_to: the value of an fp8 code (NaN for NaN codes).
static double fp8_to(const fp8_t* f, uint64_t b) {
  int neg = (b & 0x80) != 0, ebits = 7 - f->man, ex;
  uint64_t m;
  double v;
  b &= 0x7f;
  ex = (int)(b >> f->man);
  m = b & ((1ull << f->man) - 1);
  if (f->e4m3 && b == 0x7f) return NAN;
  if (!f->e4m3 && ex == (1 << ebits) - 1) {
    if (m) return NAN;
    v = INFINITY;
  } else if (ex == 0) {
    v = ldexp((double)m, f->emin - f->man);
  } else {
    v = ldexp((double)(m | 1ull << f->man), ex - f->bias - f->man);
  }
  return neg ? -v : v;
}

// tf32: the f32 a rounded to tf32 (10 fraction bits: the f32 encoding
// with its 13 low bits cleared; PTX ISA, cvt): .rna to nearest, ties
// away from zero; .rn ties to even; .rz toward zero. A carry out of the
// fraction rounds up the exponent (to infinity at the top); infinities
// stay, NaN is the canonical NaN; .satfinite makes an infinite result the
// largest finite tf32, .relu a negative one +0.0.
static uint64_t tf32(unsigned mods, uint64_t a) {
  uint32_t x = (uint32_t)a, r;
  int rnd = rnd_of(mods);
  if (is_nan(&FMT32, x)) return NAN32;
  if ((x & F32_ABS) == F32_INF) {
    r = x;
  } else if (rnd == (int)RndRNA) {
    r = (x + 0x1000u) & ~0x1fffu;
  } else if (rnd == (int)RndRZ) {
    r = x & ~0x1fffu;
  } else {
    r = (x + 0xfffu + (x >> 13 & 1)) & ~0x1fffu;
  }
  if ((mods & ModSatFinite) && (r & F32_ABS) == F32_INF) r = (r & F32_SIGN) | 0x7f7fe000u;
  if ((mods & ModRelu) && (r & F32_SIGN)) r = 0;
  return r;
}

// cvt_low: the packing, fp8 and tf32 conversions, else cvt.
static uint64_t cvt_low(unsigned dt, unsigned st, unsigned mods, uint64_t a, uint64_t b) {
  int relu = (mods & ModRelu) != 0;
  if (dt == TyE4M3x2 || dt == TyE5M2x2) {
    // From two f32 (a into the upper byte) or the halves of an f16x2.
    const fp8_t* f = dt == TyE4M3x2 ? &E4M3 : &E5M2;
    if (st == TyF32) {
      return fp8_from(f, value(&FMT32, a & 0xffffffff), relu) << 8 | fp8_from(f, value(&FMT32, b & 0xffffffff), relu);
    }
    return fp8_from(f, dec_small(&FMT16, a >> 16 & 0xffff), relu) << 8 | fp8_from(f, dec_small(&FMT16, a & 0xffff), relu);
  }
  if (st == TyE4M3x2 || st == TyE5M2x2) {
    // To f16x2: every fp8 value is an f16 (exact), NaN the canonical NaN.
    const fp8_t* f = st == TyE4M3x2 ? &E4M3 : &E5M2;
    uint64_t h[2];
    for (int i = 0; i < 2; i++) {
      h[i] = round_small(&FMT16, fp8_to(f, a >> (8 * i) & 0xff), FE_TONEAREST);
      if (relu && (h[i] & 0x8000) && !is_nan(&FMT16, h[i])) h[i] = 0;
    }
    return h[1] << 16 | h[0];
  }
  if (dt == TyF16x2 || dt == TyBF16x2) {
    // Two f32: a into the upper half, b into the lower.
    unsigned et = dt == TyF16x2 ? TyF16 : TyBF16;
    unsigned m = mods & ~ModCvtPack;
    return cvt(et, TyF32, m, a) << 16 | cvt(et, TyF32, m, b);
  }
  if (dt == TyTF32) return tf32(mods, a);
  return cvt(dt, st, mods, a);
}

void sm_fpu_eval(unsigned char op, unsigned char ty, unsigned char ty2, unsigned short mods,
                 unsigned long long a, unsigned long long b, unsigned long long c,
                 unsigned long long* d, unsigned char* flags) {
  const fmt_t* f = fmt_of(ty);
  int p = 0, q = 0;
  uint64_t r = 0;
  *d = 0;
  *flags = 0;
  if (!supported(op, ty, ty2, mods)) return;
  if (is_packed(ty) && op != OpCVT) {
    // f16x2, bf16x2: each half on its own (PTX ISA); SETP's p compares
    // the lower halves, q the upper ones.
    unsigned char et = ty == TyF16x2 ? (unsigned char)TyF16 : (unsigned char)TyBF16, fl, fh;
    unsigned short m = op == OpSETP ? (unsigned short)(mods & ~ModSetpDst2) : mods;
    unsigned long long lo, hi;
    sm_fpu_eval(op, et, ty2, m, a & 0xffff, b & 0xffff, c & (op == OpSETP ? 1 : 0xffff), &lo, &fl);
    sm_fpu_eval(op, et, ty2, m, a >> 16 & 0xffff, b >> 16 & 0xffff, op == OpSETP ? c & 1 : c >> 16 & 0xffff, &hi,
                &fh);
    if (op == OpSETP) {
      p = fl & 1;
      q = fh & 1;
    } else {
      r = (lo & 0xffff) | (hi & 0xffff) << 16;
    }
    *d = r;
    *flags = (unsigned char)(p | q << 1 | 1 << 2);
    return;
  }
  if (op != OpCVT) {
    a &= f->mask;
    b &= f->mask;
    c &= f->mask;
  }
  switch (op) {
    case OpCVT:
      r = cvt_low(ty, ty2, mods, a, b);
      break;
    case OpNEG:
    case OpABS:
      if (mods & ModFtz) a = flush(f, a);
      r = op == OpNEG ? a ^ f->sign : a & ~f->sign;  // the sign bit only, NaNs too
      break;
    case OpCOPYSIGN:
      r = (b & f->abs) | (a & f->sign);  // b's magnitude, a's sign
      break;
    case OpMIN:
    case OpMAX:
      if (mods & ModFtz) {
        a = flush(f, a);
        b = flush(f, b);
      }
      if ((mods & ModMinMaxNaN) && (is_nan(f, a) || is_nan(f, b))) {
        r = f->nan;  // .NaN: a NaN operand gives the canonical NaN
      } else if ((mods & ModMinMaxXorsign) && !is_nan(f, a) && !is_nan(f, b)) {
        // .xorsign.abs: the magnitudes' min/max, with the XOR of the signs.
        r = minmax(f, a & f->abs, b & f->abs, op == OpMAX) | ((a ^ b) & f->sign);
      } else {
        r = minmax(f, a, b, op == OpMAX);
      }
      break;
    case OpTESTP: {
      int nan = is_nan(f, a), inf = is_inf(f, a), sub = is_sub(f, a);
      switch (mods) {  // zeros are normal (PTX ISA, testp)
        case TestpFinite: p = !nan && !inf; break;
        case TestpInfinite: p = inf; break;
        case TestpNumber: p = !nan; break;
        case TestpNotANumber: p = nan; break;
        case TestpNormal: p = !nan && !inf && !sub; break;
        default: p = sub;
      }
      r = (uint64_t)p;
      break;
    }
    case OpSETP: {
      unsigned bop = (mods & ModBoolMask) >> ModBoolShift;
      int t;
      // setp.ftz flushes subnormal f32 inputs (PTX ISA, setp: "setp.ftz.f32
      // flushes subnormal inputs to sign-preserving zero"); f64
      // comparisons support subnormal numbers, .ftz or not. (The Go model
      // flushes f64 operands too: a known divergence, cosim/fpu_test.go.)
      if ((mods & ModSetpFtz) && f->bits != 64) {
        a = flush(f, a);
        b = flush(f, b);
      }
      t = fcmp(mods & ModCmpMask, value(f, a), value(f, b));
      p = combine(bop, t, (c & 1) != 0);
      q = (mods & ModSetpDst2) ? combine(bop, !t, (c & 1) != 0) : 0;
      break;
    }
    case OpEX2: case OpLG2: case OpSIN: case OpCOS: case OpRSQRT: case OpTANH:
      r = sfu(op, ty, mods, a);
      break;
    default:
      r = arith_op(f, op, mods, a, b, c);
  }
  *d = r;
  *flags = (unsigned char)(p | q << 1 | 1 << 2);
}
