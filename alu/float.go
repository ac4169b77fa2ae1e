package alu

import (
	"math"
	"math/big"

	"github.com/smsim/smsim/isa"
)

func rndOf(in *isa.Inst) int {
	return int(in.Mods&isa.ModRndMask) >> isa.ModRndShift
}

// evalFloat computes the f16/f32/f64 forms of ADD SUB MUL MAD FMA DIV SQRT
// RCP MIN MAX NEG ABS.
func evalFloat(in *isa.Inst, a, b, c uint64) uint64 {
	f := fmtOf(in.Type)
	m := mask(f.bits)
	a, b, c = a&m, b&m, c&m
	mode := rndOf(in)
	if mode == isa.RndNone {
		mode = rn
	}
	ftz := in.Mods&isa.ModFtz != 0
	if ftz && !(in.Op == isa.OpRCP && f == fmtF64) {
		a, b, c = f.flush(a), f.flush(b), f.flush(c)
	}
	var r uint64
	switch in.Op {
	case isa.OpNEG:
		return a ^ f.sign()
	case isa.OpABS:
		return a &^ f.sign()
	case isa.OpMIN, isa.OpMAX:
		if in.Mods&isa.ModMinMaxNaN != 0 && (f.isNaN(a) || f.isNaN(b)) {
			return f.nan
		}
		if in.Mods&isa.ModMinMaxXorsign != 0 {
			if f.isNaN(a) || f.isNaN(b) {
				return fminmax(f, a, b, in.Op == isa.OpMAX)
			}
			sign := (a ^ b) & f.sign()
			return fminmax(f, f.abs(a), f.abs(b), in.Op == isa.OpMAX) | sign
		}
		return fminmax(f, a, b, in.Op == isa.OpMAX)
	case isa.OpADD, isa.OpSUB:
		if f.isNaN(a) || f.isNaN(b) {
			r = nanOf(f, a, b)
			break
		}
		if in.Op == isa.OpSUB {
			b ^= f.sign()
		}
		r = fadd(f, a, b, mode)
	case isa.OpMUL:
		if f.isNaN(a) || f.isNaN(b) {
			r = nanOf(f, a, b)
			break
		}
		r = fmul(f, a, b, mode)
	case isa.OpMAD, isa.OpFMA:
		if f.isNaN(a) || f.isNaN(b) || f.isNaN(c) {
			r = nanOf(f, a, b, c)
			break
		}
		r = ffma(f, a, b, c, mode)
	case isa.OpDIV:
		if f.isNaN(a) || f.isNaN(b) {
			r = nanOf(f, a, b)
			break
		}
		switch mode {
		case isa.RndApprox:
			r = divApproxF32(a, b)
		case isa.RndFull:
			r = fdiv(f, a, b, rn)
		default:
			r = fdiv(f, a, b, mode)
		}
	case isa.OpRCP:
		if f == fmtF64 && mode == isa.RndApprox {
			return rcpApproxF64(a)
		}
		if f.isNaN(a) {
			r = nanOf(f, a)
			break
		}
		if mode == isa.RndApprox {
			mode = rn
		}
		r = fdiv(f, f.encode(1), a, mode)
	case isa.OpSQRT:
		if f.isNaN(a) {
			r = nanOf(f, a)
			break
		}
		if mode == isa.RndApprox {
			mode = rn
		}
		r = fsqrt(f, a, mode)
	}
	if ftz {
		r = f.flush(r)
	}
	if in.Mods&isa.ModSat != 0 {
		r = f.sat(r)
	}
	if in.Mods&isa.ModRelu != 0 {
		r = f.relu(r)
	}
	return r
}

// nanOf is the NaN result of an operation with a NaN operand: f64 keeps the
// payload of the first NaN operand (quieted), f32 and f16 give the
// canonical NaN.
func nanOf(f *ffmt, ops ...uint64) uint64 {
	if f == fmtF64 {
		for _, x := range ops {
			if f.isNaN(x) {
				return x | 1<<51
			}
		}
	}
	return f.nan
}

// sat clamps to [+0, 1]; NaN and negative values (-0 included) give +0.
func (f *ffmt) sat(r uint64) uint64 {
	if f.isNaN(r) || r&f.sign() != 0 {
		return 0
	}
	if one := f.encode(1); r > one {
		return one
	}
	return r
}

func fminmax(f *ffmt, a, b uint64, isMax bool) uint64 {
	na, nb := f.isNaN(a), f.isNaN(b)
	switch {
	case na && nb:
		return f.nan
	case na:
		return b
	case nb:
		return a
	}
	x, y := f.decode(a), f.decode(b)
	if x == y {
		// Equal values; only zeros can differ (-0 < +0).
		if (a&f.sign() != 0) == isMax {
			return b
		}
		return a
	}
	if (x < y) != isMax {
		return a
	}
	return b
}

// zeroSum is the sign of an exactly zero sum x + y (IEEE 754 6.3).
func zeroSum(f *ffmt, x, y float64, mode int) uint64 {
	if x == 0 && y == 0 && math.Signbit(x) == math.Signbit(y) {
		return f.encode(x)
	}
	if mode == rm {
		return f.sign()
	}
	return 0
}

func fadd(f *ffmt, a, b uint64, mode int) uint64 {
	x, y := f.decode(a), f.decode(b)
	s := x + y
	switch {
	case s != s:
		return f.nan // inf - inf
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		return f.encode(s)
	case s == 0: // sums of finite values round to zero only when exactly zero
		return zeroSum(f, x, y, mode)
	case mode == rn && f == fmtF64:
		return math.Float64bits(s)
	case mode == rn && f == fmtF32:
		return uint64(math.Float32bits(float32(x) + float32(y)))
	case math.IsInf(s, 0):
		return f.overflow(s < 0, mode)
	}
	s, e := twoSum(x, y)
	return f.roundDir(s, sgn(e), mode)
}

func fmul(f *ffmt, a, b uint64, mode int) uint64 {
	x, y := f.decode(a), f.decode(b)
	s := x * y
	switch {
	case s != s:
		return f.nan // 0 * inf
	case math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0 || y == 0:
		return f.encode(s)
	case f != fmtF64: // the product of two f32 (f16) values is exact in f64
		if mode == rn && f == fmtF32 {
			return uint64(math.Float32bits(float32(x) * float32(y)))
		}
		return f.roundDir(s, 0, mode)
	case mode == rn:
		return math.Float64bits(s)
	case math.IsInf(s, 0):
		return f.overflow(s < 0, mode)
	}
	p := new(big.Float).SetPrec(106).Mul(big.NewFloat(x), big.NewFloat(y))
	return f.roundDir(s, p.Cmp(big.NewFloat(s)), mode)
}

func ffma(f *ffmt, a, b, c uint64, mode int) uint64 {
	x, y, z := f.decode(a), f.decode(b), f.decode(c)
	if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsInf(z, 0) {
		return f.encode(math.FMA(x, y, z)) // NaN for inf*0 and inf-inf
	}
	if x == 0 || y == 0 {
		p := x * y // a signed zero
		if z != 0 {
			return c
		}
		return zeroSum(f, p, z, mode)
	}
	if f != fmtF64 {
		p := x * y // exact
		s, e := twoSum(p, z)
		if s == 0 {
			return zeroSum(f, p, z, mode)
		}
		return f.roundDir(s, sgn(e), mode)
	}
	s := math.FMA(x, y, z)
	switch {
	case mode == rn:
		return math.Float64bits(s)
	case math.IsInf(s, 0):
		return f.overflow(s < 0, mode)
	}
	p := new(big.Float).SetPrec(106).Mul(big.NewFloat(x), big.NewFloat(y))
	sum := new(big.Float).SetPrec(4400).Add(p, big.NewFloat(z))
	if sum.Sign() == 0 {
		return zeroSum(f, x*y, z, mode)
	}
	return f.roundDir(s, sum.Cmp(big.NewFloat(s)), mode)
}

func fdiv(f *ffmt, a, b uint64, mode int) uint64 {
	x, y := f.decode(a), f.decode(b)
	q := x / y
	switch {
	case q != q:
		return f.nan // 0/0, inf/inf
	case math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0 || y == 0:
		return f.encode(q)
	case f == fmtF32 && mode == rn:
		return uint64(math.Float32bits(float32(x) / float32(y)))
	case f != fmtF64:
		// The remainder x - q*y is exact in f64 for f32 and f16 operands.
		return f.roundDir(q, sgn(math.FMA(-q, y, x))*sgn(y), mode)
	case mode == rn:
		return math.Float64bits(q)
	case math.IsInf(q, 0):
		return f.overflow(q < 0, mode)
	}
	// sign(x/y - q) = sign(x - q*y) * sign(y), computed exactly.
	qy := new(big.Float).SetPrec(106).Mul(big.NewFloat(q), big.NewFloat(y))
	return f.roundDir(q, big.NewFloat(x).Cmp(qy)*sgn(y), mode)
}

func fsqrt(f *ffmt, a uint64, mode int) uint64 {
	x := f.decode(a)
	switch {
	case x == 0:
		return a // sqrt(-0) = -0
	case x < 0:
		return f.nan
	case math.IsInf(x, 1):
		return a
	}
	q := math.Sqrt(x)
	switch {
	case f == fmtF32 && mode == rn:
		// Rounding twice (to 53, then to 24 bits) is innocuous for sqrt.
		return uint64(math.Float32bits(float32(q)))
	case f != fmtF64:
		return f.roundDir(q, sgn(math.FMA(-q, q, x)), mode)
	case mode == rn:
		return math.Float64bits(q)
	}
	qq := new(big.Float).SetPrec(106).Mul(big.NewFloat(q), big.NewFloat(q))
	return f.roundDir(q, big.NewFloat(x).Cmp(qq), mode)
}

// divApproxF32 models div.approx.f32 as a * rcp(b), where rcp(b) is 1/b
// rounded to nearest with subnormal results flushed to zero (so that, as
// PTX specifies, 2^126 < |b| < 2^128 gives 0, or NaN when a is infinite).
func divApproxF32(a, b uint64) uint64 {
	r := fmtF32.flush(uint64(math.Float32bits(1 / math.Float32frombits(uint32(b)))))
	p := math.Float32frombits(uint32(a)) * math.Float32frombits(uint32(r))
	if p != p {
		return fmtF32.nan
	}
	return uint64(math.Float32bits(p))
}

// rcpApproxF64 models rcp.approx.ftz.f64: the reciprocal of a with its low
// 32 bits cleared, rounded to nearest, with the low 32 bits of the result
// cleared; subnormal inputs and results are flushed, NaN gives the
// canonical NaN 0x7fffffff00000000 (PTX ISA: "Input NaNs map to a
// canonical NaN with encoding 0x7fffffff00000000").
func rcpApproxF64(a uint64) uint64 {
	if fmtF64.isNaN(a) {
		return nanApproxF64
	}
	x := math.Float64frombits(fmtF64.flush(a &^ 0xffffffff))
	r := math.Float64bits(1/x) &^ 0xffffffff
	return fmtF64.flush(r)
}
