package alu

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// elemOf is the element type of a packed half type (bf16 for bf16x2,
// else f16).
func elemOf(t isa.Type) isa.Type {
	if t == isa.BF16x2 {
		return isa.BF16
	}
	return isa.F16
}

// evalPacked computes an f16x2 or bf16x2 operation (ADD SUB MUL FMA NEG ABS
// MIN MAX) on the lower and upper halves independently.
func evalPacked(in *isa.Inst, a, b, c uint64) uint64 {
	e := *in
	e.Type = elemOf(in.Type)
	lo := evalFloat(&e, a&0xffff, b&0xffff, c&0xffff)
	hi := evalFloat(&e, a>>16&0xffff, b>>16&0xffff, c>>16&0xffff)
	return lo&0xffff | (hi&0xffff)<<16
}

// evalSetpPacked is SETP of f16x2 and bf16x2: P compares the lower halves
// and Q the upper halves, each combined with c (PTX ISA: "p =
// BoolOp(t[0], c); q = BoolOp(t[1], c)").
func evalSetpPacked(in *isa.Inst, a, b, c uint64) Result {
	e := *in
	e.Type = elemOf(in.Type)
	e.Mods &^= isa.ModSetpDst2
	lo := evalSetp(&e, a&0xffff, b&0xffff, c)
	hi := evalSetp(&e, a>>16&0xffff, b>>16&0xffff, c)
	return Result{P: lo.P, Q: hi.P}
}

// relu is max(r, +0): negative results and -0 give +0; NaN gives the
// canonical NaN.
func (f *ffmt) relu(r uint64) uint64 {
	switch {
	case f.isNaN(r):
		return f.nan
	case r&f.sign() != 0:
		return 0
	}
	return r
}

// satFinite clamps an infinite result to the largest finite value of its
// sign (an overflow of a finite input rounds to infinity first).
func (f *ffmt) satFinite(r uint64) uint64 {
	if f.abs(r) == f.expMask() {
		return f.maxFinite(r&f.sign() != 0)
	}
	return r
}

// fp8 describes the OCP 8-bit float formats of cvt: e4m3 (no
// infinities, NaN = S.1111.111, largest 448) and e5m2 (IEEE-like).
type fp8 struct {
	man, emin, bias int
	max             float64
	maxCode         uint64
	e4m3            bool
}

var (
	fmtE4M3 = &fp8{man: 3, emin: -6, bias: 7, max: 448, maxCode: 0x7e, e4m3: true}
	fmtE5M2 = &fp8{man: 2, emin: -14, bias: 15, max: 57344, maxCode: 0x7b}
)

func fp8Of(t isa.Type) *fp8 {
	if t == isa.E4M3x2 {
		return fmtE4M3
	}
	return fmtE5M2
}

// from is x rounded to nearest even in f with .satfinite (a magnitude
// above the largest finite value, infinities included, gives the largest
// finite value of its sign; NaN gives 0x7f) and, with relu, negative
// values and -0 clamped to +0.
func (f *fp8) from(x float64, relu bool) uint64 {
	if x != x {
		return 0x7f
	}
	if relu && math.Signbit(x) {
		return 0
	}
	var sign uint64
	if math.Signbit(x) {
		sign, x = 0x80, -x
	}
	if x >= f.max {
		return sign | f.maxCode
	}
	if x == 0 {
		return sign
	}
	_, e := math.Frexp(x)
	le := max(e-1, f.emin)
	q := math.Ldexp(1, le-f.man)
	r := math.RoundToEven(x/q) * q
	if r == 0 {
		return sign
	}
	if r >= f.max {
		return sign | f.maxCode
	}
	_, e = math.Frexp(r)
	if le = e - 1; le < f.emin {
		return sign | uint64(r/math.Ldexp(1, f.emin-f.man)) // subnormal
	}
	return sign | uint64(le+f.bias)<<uint(f.man) | (uint64(r/math.Ldexp(1, le-f.man)) - 1<<uint(f.man))
}

// to is the value of the 8-bit code b (NaN for NaN codes, ±Inf for e5m2's
// infinities).
func (f *fp8) to(b uint64) float64 {
	b &= 0xff
	neg := b&0x80 != 0
	b &= 0x7f
	ebits := 7 - f.man
	ex, m := int(b>>uint(f.man)), b&(1<<uint(f.man)-1)
	var v float64
	switch {
	case f.e4m3 && b == 0x7f:
		return math.NaN()
	case !f.e4m3 && ex == 1<<uint(ebits)-1:
		if m != 0 {
			return math.NaN()
		}
		v = math.Inf(1)
	case ex == 0:
		v = math.Ldexp(float64(m), f.emin-f.man)
	default:
		v = math.Ldexp(float64(m|1<<uint(f.man)), ex-f.bias-f.man)
	}
	if neg {
		v = -v
	}
	return v
}

// evalCvtLow computes the conversions of the low-precision types and
// cvt.pack.sat (a, b, c: the operands; see isa.ModCvtPack).
func evalCvtLow(in *isa.Inst, a, b, c uint64) uint64 {
	dt, st := in.Type, in.Type2
	relu := in.Mods&isa.ModRelu != 0
	if in.Mods&isa.ModCvtPackSat != 0 {
		lo, hi := int64(0), int64(0)
		switch dt {
		case isa.U8:
			hi = 0xff
		case isa.S8:
			lo, hi = -0x80, 0x7f
		case isa.U16:
			hi = 0xffff
		default:
			lo, hi = -0x8000, 0x7fff
		}
		sa := uint64(min(max(sext(a, 32), lo), hi))
		sb := uint64(min(max(sext(b, 32), lo), hi))
		if dt.Bits() == 16 {
			return (sa&0xffff)<<16 | sb&0xffff
		}
		return (c&0xffff)<<16 | (sa&0xff)<<8 | sb&0xff
	}
	switch {
	case dt == isa.TF32:
		return cvtTF32(a, rndOf(in), in.Mods&isa.ModSatFinite != 0, relu)
	case dt == isa.E4M3x2 || dt == isa.E5M2x2:
		f := fp8Of(dt)
		if st == isa.F32 { // a into the upper byte, b into the lower
			x, y := fmtF32.decode(a&0xffffffff), fmtF32.decode(b&0xffffffff)
			return f.from(x, relu)<<8 | f.from(y, relu)
		}
		return f.from(fmtF16.decode(a>>16&0xffff), relu)<<8 | f.from(fmtF16.decode(a&0xffff), relu)
	case st == isa.E4M3x2 || st == isa.E5M2x2: // to f16x2
		f := fp8Of(st)
		h := func(b uint64) uint64 {
			r := fmtF16.encode(f.to(b)) // exact: f16 holds every e4m3 and e5m2 value
			if relu {
				r = fmtF16.relu(r)
			}
			return r
		}
		return h(a>>8)<<16 | h(a)
	case in.Mods&isa.ModCvtPack != 0: // f16x2 / bf16x2 from two f32
		e := *in
		e.Type = elemOf(dt)
		e.Mods &^= isa.ModCvtPack
		return evalCvtLow(&e, a, 0, 0)<<16 | evalCvtLow(&e, b, 0, 0)
	}
	// Scalar conversions of bf16, and .relu/.satfinite to f16 or bf16.
	e := *in
	e.Mods &^= isa.ModRelu | isa.ModSatFinite
	r := evalCvt(&e, a)
	if dt.Float() {
		f := fmtOf(dt)
		if in.Mods&isa.ModSatFinite != 0 {
			r = f.satFinite(r)
		}
		if relu {
			r = f.relu(r)
		}
	}
	return r
}

// cvtLowMods are the CVT modifiers only the low-precision forms use.
const cvtLowMods = isa.ModRelu | isa.ModSatFinite | isa.ModCvtPack | isa.ModCvtPackSat

// supportedCvtLow checks the low-precision conversions and cvt.pack.sat
// (the forms isa's lowerCvtLow and lowerCvtPackSat emit).
func supportedCvtLow(c checker) error {
	in := c.in
	dt, st, m := in.Type, in.Type2, in.Mods
	rnd := rndOf(in)
	fp8t := func(t isa.Type) bool { return t == isa.E4M3x2 || t == isa.E5M2x2 }
	if m&isa.ModCvtPackSat != 0 {
		if m != isa.ModCvtPackSat|isa.ModSat || st != isa.S32 || dt != isa.U8 && dt != isa.S8 && dt != isa.U16 && dt != isa.S16 {
			return c.bad("cvt.pack.sat form not supported")
		}
		return nil
	}
	pack := m&isa.ModCvtPack != 0
	if err := c.extra(isa.ModRndMask | isa.ModRelu | isa.ModSatFinite | isa.ModCvtPack); err != nil {
		return err
	}
	ok := false
	switch {
	case fp8t(dt):
		ok = rnd == isa.RndRN && m&isa.ModSatFinite != 0 && (st == isa.F32 && pack || st == isa.F16x2 && !pack)
	case dt == isa.F16x2 && fp8t(st):
		ok = rnd == isa.RndRN && m&isa.ModSatFinite == 0 && !pack
	case (dt == isa.F16x2 || dt == isa.BF16x2) && st == isa.F32:
		ok = pack && (rnd == isa.RndRN || rnd == isa.RndRZ)
	case dt == isa.TF32 && st == isa.F32 && !pack:
		ok = rnd == isa.RndRN || rnd == isa.RndRZ || rnd == isa.RndRNA
	case dt.Packed() || st.Packed() || pack || dt == isa.E4M3 || dt == isa.E5M2 || st == isa.E4M3 || st == isa.E5M2 || dt == isa.TF32 || st == isa.TF32:
	case m&(isa.ModRelu|isa.ModSatFinite) != 0:
		ok = (dt == isa.F16 || dt == isa.BF16) && st == isa.F32
	default: // scalar bf16 conversions
		ok = (isInt(dt) || isFloat(dt)) && (isInt(st) || isFloat(st))
	}
	if !ok {
		return c.bad("conversion form not supported")
	}
	return nil
}

// cvtTF32 rounds the f32 a to tf32 (10 fraction bits; the 13 low bits of
// the f32 encoding cleared): .rna to nearest with ties away from zero,
// .rn ties to even, .rz toward zero; an overflow is infinite, or with
// .satfinite the largest finite tf32 of its sign; NaN is the canonical
// NaN; .relu clamps negative results to +0.
func cvtTF32(a uint64, mode int, satfinite, relu bool) uint64 {
	x := uint32(a)
	if fmtF32.isNaN(uint64(x)) {
		return fmtF32.nan
	}
	var r uint32
	switch {
	case x&0x7fffffff == 0x7f800000: // infinities stay
		r = x
	case mode == isa.RndRNA:
		r = (x + 0x1000) &^ 0x1fff
	case mode == isa.RndRZ:
		r = x &^ 0x1fff
	default: // rn
		r = (x + 0xfff + x>>13&1) &^ 0x1fff
	}
	if satfinite && r&0x7fffffff == 0x7f800000 {
		r = r&0x80000000 | 0x7f7fe000
	}
	if relu && r&0x80000000 != 0 {
		r = 0
	}
	return uint64(r)
}
