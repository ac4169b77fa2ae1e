package alu

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// Rounding modes used internally (values of isa.Rnd*).
const (
	rn = isa.RndRN
	rz = isa.RndRZ
	rm = isa.RndRM
	rp = isa.RndRP
)

// ffmt describes an IEEE 754 binary format.
type ffmt struct {
	bits int    // storage width
	prec int    // significand bits including the hidden bit
	emin int    // exponent of the smallest normal
	emax int    // exponent of the largest finite; also the bias
	nan  uint64 // canonical NaN
}

var (
	fmtF16  = &ffmt{bits: 16, prec: 11, emin: -14, emax: 15, nan: 0x7FFF}
	fmtBF16 = &ffmt{bits: 16, prec: 8, emin: -126, emax: 127, nan: 0x7FFF}
	fmtF32  = &ffmt{bits: 32, prec: 24, emin: -126, emax: 127, nan: 0x7FFFFFFF}
	fmtF64  = &ffmt{bits: 64, prec: 53, emin: -1022, emax: 1023, nan: 0x7FFFFFFFFFFFFFFF}
)

func fmtOf(t isa.Type) *ffmt {
	switch t {
	case isa.F16, isa.F16x2:
		return fmtF16
	case isa.BF16, isa.BF16x2:
		return fmtBF16
	case isa.F32:
		return fmtF32
	}
	return fmtF64
}

func (f *ffmt) sign() uint64     { return 1 << uint(f.bits-1) }
func (f *ffmt) fracMask() uint64 { return 1<<uint(f.prec-1) - 1 }
func (f *ffmt) expMask() uint64  { return mask(f.bits-1) &^ f.fracMask() }
func (f *ffmt) abs(x uint64) uint64 {
	return x & mask(f.bits-1)
}

func (f *ffmt) isNaN(x uint64) bool {
	return f.abs(x) > f.expMask()
}

func (f *ffmt) isSubnormal(x uint64) bool {
	a := f.abs(x)
	return a != 0 && a&f.expMask() == 0
}

// flush replaces a subnormal by a zero of the same sign.
func (f *ffmt) flush(x uint64) uint64 {
	x &= mask(f.bits)
	if f.isSubnormal(x) {
		return x & f.sign()
	}
	return x
}

func (f *ffmt) inf(neg bool) uint64 {
	r := f.expMask()
	if neg {
		r |= f.sign()
	}
	return r
}

func (f *ffmt) maxFinite(neg bool) uint64 {
	r := f.expMask() - 1
	if neg {
		r |= f.sign()
	}
	return r
}

// decode converts raw bits of f to a float64 (exact: every f16, f32 and f64
// value is a float64).
func (f *ffmt) decode(x uint64) float64 {
	switch f.bits {
	case 64:
		return math.Float64frombits(x)
	case 32:
		return float64(math.Float32frombits(uint32(x)))
	}
	x &= 0xffff
	if f == fmtBF16 { // the upper half of an f32
		return float64(math.Float32frombits(uint32(x) << 16))
	}
	neg := x&0x8000 != 0
	e := int(x >> 10 & 0x1f)
	fr := x & 0x3ff
	var v float64
	switch e {
	case 0x1f:
		if fr != 0 {
			return math.NaN()
		}
		v = math.Inf(1)
	case 0:
		v = math.Ldexp(float64(fr), -24)
	default:
		v = math.Ldexp(float64(fr|0x400), e-25)
	}
	if neg {
		v = -v
	}
	return v
}

// encode converts a float64 that is exactly representable in f (or NaN, or
// an infinity) to raw bits; inexact values are rounded to nearest.
func (f *ffmt) encode(v float64) uint64 {
	switch {
	case v != v:
		return f.nan
	case math.IsInf(v, 0):
		return f.inf(v < 0)
	case f.bits == 64:
		return math.Float64bits(v)
	case f.bits == 32:
		return uint64(math.Float32bits(float32(v)))
	}
	return f.roundDir(v, 0, rn)
}

// round returns the encoding in f of (-1)^neg * (mant + δ) * 2^exp under mode
// (rn, rz, rm or rp), where δ = 0 when !sticky and 0 < δ < 1 when sticky.
// It handles subnormal results and overflow.
func (f *ffmt) round(neg bool, mant uint64, exp int, sticky bool, mode int) uint64 {
	var sign uint64
	if neg {
		sign = f.sign()
	}
	if mant == 0 && !sticky {
		return sign
	}
	if mant == 0 { // a positive amount below 2^exp: callers keep exp far below the format's range
		mant, exp = 1, exp-1
	}
	n := bits.Len64(mant)
	e := exp + n - 1 // exponent of the leading bit
	q := e - (f.prec - 1)
	if e < f.emin {
		q = f.emin - (f.prec - 1)
	}
	shift := q - exp
	var m uint64
	inexact := sticky
	half := -1 // remainder versus half a unit in the last place: -1 below, 0 equal, 1 above
	switch {
	case shift <= 0:
		m = mant << uint(-shift)
	case shift > 64:
		inexact = true
	default:
		var rem uint64
		if shift == 64 {
			rem = mant
		} else {
			m = mant >> uint(shift)
			rem = mant & (1<<uint(shift) - 1)
		}
		h := uint64(1) << uint(shift-1)
		if rem != 0 {
			inexact = true
		}
		switch {
		case rem > h || (rem == h && sticky):
			half = 1
		case rem == h:
			half = 0
		}
	}
	if inexact {
		up := false
		switch mode {
		case rn:
			up = half > 0 || (half == 0 && m&1 != 0)
		case rp:
			up = !neg
		case rm:
			up = neg
		}
		if up {
			m++
		}
	}
	if m == 0 {
		return sign
	}
	if m >= 1<<uint(f.prec) {
		m >>= 1
		q++
	}
	if m < 1<<uint(f.prec-1) {
		return sign | m // subnormal
	}
	E := q + f.prec - 1
	if E > f.emax {
		return f.overflow(neg, mode)
	}
	return sign | uint64(E+f.emax)<<uint(f.prec-1) | m&f.fracMask()
}

func (f *ffmt) overflow(neg bool, mode int) uint64 {
	if mode == rn || (mode == rp && !neg) || (mode == rm && neg) {
		return f.inf(neg)
	}
	return f.maxFinite(neg)
}

// roundDir rounds the exact value x to f, where s is the float64 nearest x
// (or x itself) and dir is the sign of x - s (0: s is exact). s must be finite.
func (f *ffmt) roundDir(s float64, dir int, mode int) uint64 {
	b := math.Float64bits(s)
	neg := b>>63 != 0
	ex := int(b >> 52 & 0x7ff)
	mant := b & (1<<52 - 1)
	exp := -1074
	if ex != 0 {
		mant |= 1 << 52
		exp = ex - 1075
	}
	if dir == 0 {
		return f.round(neg, mant, exp, false, mode)
	}
	if mant == 0 { // s == 0: x is a tiny value of sign dir
		return f.round(dir < 0, 0, -1200, true, mode)
	}
	// x lies strictly between s and its neighbour, within half an ulp of s;
	// two extra bits plus a sticky bit place it on the right side of s.
	mant <<= 2
	exp -= 2
	if (dir > 0) == neg { // |x| < |s|
		mant--
	}
	return f.round(neg, mant, exp, true, mode)
}

// twoSum returns s = RN(x+y) and the exact error x+y-s (x, y finite, no overflow).
func twoSum(x, y float64) (s, e float64) {
	s = x + y
	bp := s - x
	ap := s - bp
	return s, (x - ap) + (y - bp)
}

func sgn(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
