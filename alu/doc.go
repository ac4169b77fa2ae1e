// Package alu is the functional semantics of one lane of every arithmetic,
// logic, comparison, conversion and bit-manipulation opcode of the machine
// (package isa). It models values only: no timing, no pipelines, no
// register reading or writing.
//
// # API
//
//	Eval(in, a, b, c, d) (Result, error)  one lane
//	Supported(in) error                   whether Eval implements in (the assembler refuses the rest)
//	Compile(in) (Func, error)             validate once, get a per-lane function (specialised for hot integer forms)
//
// For every instruction, Supported(in) == nil if and only if Eval(in, ...)
// returns no error, whatever the operand values; Eval never panics.
//
// # Operands and results
//
// a, b, c and d are operand values as raw bits of the source type: the
// caller reads register pairs for 64-bit types and sign- or zero-extends
// immediates. Bits above the source type's width are ignored. Predicate
// operands arrive as 0 or 1 with any negation already applied (any nonzero
// value counts as true).
//
// Result.D holds the destination as raw bits of the destination type's
// width, zero-extended to 64 bits for every type, signed ones included
// (cvt.s8.f32 of -1.0 gives D = 0xFF). Result.D2 is the second destination
// of MOV unpack. Result.P is the predicate result of SETP and of every
// operation whose Type is isa.Pred (D is then 0 or 1 as well); Result.Q is
// SETP's second predicate.
//
// Operand use, per opcode (T = Inst.Type, w = its width):
//
//	MOV     D = a. Type pred: P = a != 0.
//	        ModMovPack:   D = a | b << (w/2)   (halves of w/2 bits; w >= 16)
//	        ModMovUnpack: D = low w/2 bits of a, D2 = high w/2 bits of a
//	ADD SUB D = a + b, a - b
//	MUL     D = a * b; MulMode .lo (low w bits), .hi (high w bits of the 2w-bit
//	        product, signed or unsigned by T), .wide (the 2w-bit product; T is
//	        the SOURCE type: mul.wide.u32 has T = u32 and a 64-bit D)
//	MAD     D = a * b + c with the same modes; .hi adds c to the high half;
//	        .wide: c and D are 2w bits wide
//	FMA     D = a * b + c, floating point, one rounding
//	DIV REM D = a / b, a % b (integer division truncates; rem takes a's sign)
//	MIN MAX D = min(a, b), max(a, b)
//	NEG ABS NOT POPC CLZ BREV SQRT RCP   D = op(a)  (POPC, CLZ: u32 count)
//	AND OR XOR   D = a op b; Type pred: P = a op b
//	SHL SHR D = a << b, a >> b; b is a u32 shift amount
//	SETP    P = cmp(a, b) BOOL c, Q = !cmp(a, b) BOOL c (Q only with
//	        ModSetpDst2); cmp = Mods & ModCmpMask, BOOL = (Mods & ModBoolMask)
//	        >> ModBoolShift (none: c unused), c a predicate (0/1)
//	SELP    D = c != 0 ? a : b
//	CVT     D (Type) = convert(a (Type2))
//	BFE     D = bfe(a, pos b, len c)
//	BFI     D = bfi(insert a, into base b, pos c, len d)  (d: the Dst2 register
//	        or the Imm field, read by the caller; ModBfiLenReg is ignored here)
//	PRMT    D = prmt(a, b, selector c), mode = Mods & 7
//	EX2 LG2 SIN COS RSQRT TANH   D = f(a), .approx (f32; RSQRT also f64)
//	COPYSIGN D = b's magnitude with a's sign
//	TESTP   P = property Mods & ModTestpMask of a
//	MUL24 MAD24  D = 24x24-bit product of a and b, .lo or .hi [+ c]
//	ADD SUB MAD with ModCCIn/ModCCOut (carry chains): d is the carry-in
//	        CC.CF (0/1); Result.CF the carry-out (SUB: the borrow)
//	DP4A DP2A    D = c + dot product of a (Type) and b (Type2) elements
//	BMSK SZEXT FNS LOP3   the PTX ISA's semantics (LOP3: truth table Imm)
//
// # Integers
//
// Types b8..b64, u8..u64, s8..s64 (b types behave as unsigned) for ADD SUB
// MUL MAD DIV REM MIN MAX NEG AND OR XOR NOT SHL SHR SETP SELP MOV CVT; ABS
// needs a signed type; POPC CLZ BREV BFE BFI take 32- and 64-bit types, PRMT
// 32-bit ones. Arithmetic wraps modulo 2^w. Edge cases:
//
//   - .sat (ModSat) is implemented for add.s32, sub.s32 and mad.hi.s32:
//     the exact result clamps to [INT32_MIN, INT32_MAX]. Other .sat forms
//     are refused.
//   - .wide needs an 8-, 16- or 32-bit type.
//   - Division by zero: unsigned and signed div give all ones (0xFFFFFFFF
//     for 32 bits; -1 for signed, what the NVIDIA division sequence yields);
//     rem by zero gives a. INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
//   - Shifts: amounts >= w give 0 for shl and unsigned shr, and fill with the
//     sign bit for shr of a signed type (arithmetic shift).
//   - SETP eq/ne/lt/le/gt/ge use the signedness of T; lo/ls/hi/hs always
//     compare unsigned. Float-only comparisons on integer types are refused.
//   - BFE: pos = b & 0xff, len = c & 0xff; bits past the msb read as the
//     sign bit (signed) or 0; the result is sign-extended from bit
//     min(pos+len-1, msb) for signed types; len 0 gives 0.
//   - BFI: pos = c & 0xff, len = d & 0xff; bits past the msb are dropped.
//   - PRMT: the generic form (four 4-bit selectors, bit 3 replicates the
//     byte's sign) and .f4e .b4e .rc8 .ecl .ecr .rc16 (selector c & 3) as
//     in the PTX manual.
//
// # Floating point
//
// f32 and f64 for ADD SUB MUL MAD FMA DIV SQRT RCP MIN MAX NEG ABS SETP;
// f16 for ADD SUB MUL MAD FMA MIN MAX NEG ABS SETP (no f16 DIV/SQRT/RCP);
// SELP MOV CVT for all three. Values are IEEE 754 binary16/32/64 with
// subnormals.
//
//   - Rounding (ModRnd): .rn .rz .rm .rp are exact, correctly rounded IEEE
//     results for add, sub, mul, mad, fma, div, sqrt and rcp, for f16, f32
//     and f64, subnormal results and overflow included. RndNone behaves as
//     .rn. mad.f32 and mad.f64 are fused (= fma).
//   - Approximations are modelled deterministically: div.approx.f32 is
//     a * rcp(b) with rcp(b) = 1/b rounded to nearest and flushed to zero
//     when subnormal (so 2^126 < |b| < 2^128 gives 0, or NaN for infinite
//     a, as PTX specifies), the product rounded to nearest; div.full.f32,
//     sqrt.approx.f32 and rcp.approx.f32 are correctly rounded to nearest
//     (hardware is within 2 ulp / 2^-23 relative error of this);
//     rcp.approx.ftz.f64 is 1/a computed from the high 32 bits of a, with
//     the low 32 bits of the result cleared, subnormals flushed and NaN
//     inputs giving the canonical NaN (rcp.approx.f64 without .ftz is
//     accepted and behaves the same); its NaN is 0x7fffffff00000000.
//   - bf16, f16x2 and bf16x2 (ADD SUB MUL MAD FMA NEG ABS MIN MAX SETP
//     SELP MOV): the x2 types operate on each 16-bit half (alu/lowprec.go;
//     SETP: P the lower halves, Q the upper halves); results are
//     correctly rounded; FMA .relu (isa.ModRelu) clamps negative results
//     and -0 to +0. CVT of the low-precision formats (f16x2, bf16x2,
//     e4m3x2, e5m2x2 packing, .relu, .satfinite, cvt.pack.sat) is in
//     evalCvtLow.
//   - EX2 LG2 SIN COS RSQRT TANH (.approx) return the float64 library
//     value of the function rounded to nearest in f32 (alu/mufu.go), which
//     is within the maximum errors the PTX ISA documents; special inputs
//     follow the ISA's tables; rsqrt.approx.ftz.f64 works on the upper
//     word of a as rcp.approx.ftz.f64 does.
//   - .ftz (ModFtz; f32 and f16 arithmetic, rcp.approx.f64): subnormal
//     inputs and (rounded) results become zeros of the same sign. .ftz on
//     other f64 operations is refused.
//   - .sat (ModSat; add sub mul mad fma and cvt to a float type) clamps the
//     result to [+0, 1]; NaN and negative results, -0 included, give +0.
//   - NaN results: f32 and f16 operations give the canonical NaN
//     (0x7FFFFFFF, 0x7FFF). f64 operations propagate the first NaN operand
//     (a, then b, then c), quieted; invalid operations on non-NaN f64
//     operands (inf - inf, 0 * inf, 0/0, sqrt(-1)) give 0x7FFFFFFFFFFFFFFF.
//   - MIN/MAX: one NaN operand gives the other operand; two give the
//     canonical NaN (f64 too); -0 is less than +0.
//   - NEG/ABS flip/clear the sign bit only (NaN included), after the .ftz
//     flush.
//   - SETP: eq ne lt le gt ge are ordered (false when either is NaN; ne as
//     well), equ neu ltu leu gtu geu are unordered (true when either is
//     NaN), num and nan test for NaNs. setp.ftz is ModSetpFtz (bit 8),
//     because isa.ModFtz is ModSetpDst2 for SETP.
//
// # Conversions (CVT; Type = destination, Type2 = source)
//
//   - int to int: truncate, or sign/zero-extend by the source's signedness;
//     .sat clamps the source value to the destination's range. Rounding and
//     .ftz are refused.
//   - int to float: .rn .rz .rm .rp (RndNone = .rn), exact IEEE rounding.
//   - float to int: .rni .rzi .rmi .rpi; RndNone is treated as .rzi (PTX
//     requires an explicit mode). Always saturating: out-of-range values
//     clamp to the destination's range, NaN gives 0.
//   - float to float: narrowing (f64 to f32/f16, f32 to f16) rounds with .rn
//     .rz .rm .rp (RndNone = .rn), subnormals and overflow included;
//     widening is exact; .rni .rzi .rmi .rpi round to an integral value
//     (same width or widening only; refused on narrowing). NaN gives the
//     destination's canonical NaN (f64 to f64 keeps the payload, quieted).
//     .ftz flushes f32 subnormal inputs and results only; .sat clamps to
//     [+0, 1].
//
// # Not modelled
//
// f16 division, square root and reciprocal; f16x2, bf16, bf16x2, tf32 and
// the fp8 types; mul24/mad24, the carry chains (add.cc, addc, sub.cc, subc,
// madc); sad, copysign, testp, bfind, fns, bmsk, lop3, shf, dp2a/dp4a;
// transcendental approximations (sin cos lg2 ex2 rsqrt tanh); .relu,
// .satfinite, .rna and .rs roundings; the sm_1x rules (default flush to
// zero, non-fused mad.f32). The exact bit patterns of NVIDIA's .approx
// instructions are not reproduced (see above), nor whether hardware flushes
// ftz results before or after rounding.
package alu
