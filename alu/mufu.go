package alu

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// evalMufu computes the transcendental approximations EX2 LG2 SIN COS
// RSQRT TANH. The model returns the float64 library value of the function
// at the (flushed) input rounded to nearest in the destination format: it
// is within the maximum error the PTX ISA documents for each instruction
// (ex2: 2 ulp; lg2: 2^-22 absolute in (0.5, 2), else 2^-22 relative; sin,
// cos: 2^-20.5 absolute in [-2pi, 2pi]; rsqrt.f32: 2^-22.9 relative;
// tanh: 2^-11 relative), which is the contract a program may rely on.
// Special inputs give the results of the ISA's tables.
func evalMufu(in *isa.Inst, a uint64) uint64 {
	if isHalf(in.Type) {
		return evalMufuHalf(in, a)
	}
	ftz := in.Mods&isa.ModFtz != 0
	if in.Type == isa.F64 {
		if ftz {
			return rsqrtApproxF64(a)
		}
		x := math.Float64frombits(a)
		if x != x {
			return a | 1<<51 // f64 keeps the NaN payload
		}
		return math.Float64bits(rsqrt(x))
	}
	f := fmtF32
	a &= 0xffffffff
	if ftz {
		a = f.flush(a)
	}
	if f.isNaN(a) {
		return f.nan
	}
	x := float64(math.Float32frombits(uint32(a)))
	var y float64
	switch in.Op {
	case isa.OpEX2:
		y = math.Exp2(x)
	case isa.OpLG2:
		switch {
		case x < 0:
			return f.nan
		case x == 0:
			return f.inf(true) // lg2(±0) = -Inf
		}
		y = math.Log2(x)
	case isa.OpSIN:
		if x == 0 {
			return a // ±0
		}
		y = math.Sin(x)
	case isa.OpCOS:
		y = math.Cos(x)
	case isa.OpRSQRT:
		y = rsqrt(x)
	case isa.OpTANH:
		y = math.Tanh(x)
		if f.isSubnormal(a) {
			return a // subnormal inputs pass through
		}
	}
	if y != y {
		return f.nan // sin/cos of ±Inf, rsqrt of a negative value
	}
	r := uint64(math.Float32bits(float32(y)))
	if ftz {
		r = f.flush(r)
	}
	return r
}

// rsqrt is 1/sqrt(x): -0 gives -Inf, negative values NaN, +Inf +0.
func rsqrt(x float64) float64 {
	if x == 0 {
		return math.Copysign(math.Inf(1), x)
	}
	return 1 / math.Sqrt(x)
}

// nanApproxF64 is the canonical NaN of rcp.approx.ftz.f64 and
// rsqrt.approx.ftz.f64.
const nanApproxF64 = 0x7fffffff00000000

// rsqrtApproxF64 models rsqrt.approx.ftz.f64: the reciprocal square root of
// a with its low 32 bits cleared, rounded to nearest, with the low 32 bits
// of the result cleared; subnormal inputs are flushed (so they give ±Inf)
// and NaN gives the canonical NaN 0x7fffffff00000000 (PTX ISA).
func rsqrtApproxF64(a uint64) uint64 {
	if fmtF64.isNaN(a) {
		return nanApproxF64
	}
	x := math.Float64frombits(fmtF64.flush(a &^ 0xffffffff))
	y := rsqrt(x)
	if y != y {
		return nanApproxF64
	}
	return fmtF64.flush(math.Float64bits(y) &^ 0xffffffff)
}

// evalCopysign is copysign: b's magnitude with a's sign.
func evalCopysign(in *isa.Inst, a, b uint64) uint64 {
	f := fmtOf(in.Type)
	return b&(f.sign()-1) | a&f.sign()
}

// evalTestp is testp's property of a; zeros count as normal (PTX ISA).
func evalTestp(in *isa.Inst, a uint64) bool {
	f := fmtOf(in.Type)
	a &= mask(f.bits)
	abs := f.abs(a)
	nan, inf := f.isNaN(a), abs == f.expMask()
	switch int(in.Mods & isa.ModTestpMask) {
	case isa.TestpFinite:
		return !nan && !inf
	case isa.TestpInfinite:
		return inf
	case isa.TestpNumber:
		return !nan
	case isa.TestpNotANumber:
		return nan
	case isa.TestpNormal:
		return !nan && !inf && !f.isSubnormal(a)
	}
	return f.isSubnormal(a) // TestpSubnormal
}

// evalMufuHalf is ex2 and tanh of f16, bf16 and their x2 pairs (each half
// independently): the float64 function of the (flushed, for .ftz.bf16)
// input rounded to nearest in the format, within the PTX ISA's bounds
// (ex2: 2^-9.9 relative for f16, 2^-7 for bf16; tanh: 2^-10.987 absolute
// for f16, 2^-8 for bf16); .ftz flushes subnormal results too, tanh
// passes subnormal inputs through.
func evalMufuHalf(in *isa.Inst, a uint64) uint64 {
	if in.Type.Packed() {
		e := *in
		e.Type = elemOf(in.Type)
		return evalMufuHalf(&e, a&0xffff) | evalMufuHalf(&e, a>>16&0xffff)<<16
	}
	f := fmtOf(in.Type)
	ftz := in.Mods&isa.ModFtz != 0
	a &= 0xffff
	if ftz {
		a = f.flush(a)
	}
	if f.isNaN(a) {
		return f.nan
	}
	x := f.decode(a)
	var y float64
	if in.Op == isa.OpEX2 {
		y = math.Exp2(x)
	} else {
		if x == 0 || f.isSubnormal(a) {
			return a
		}
		y = math.Tanh(x)
	}
	var r uint64
	switch {
	case math.IsInf(y, 0) || y == 0:
		r = f.encode(y)
	default:
		r = f.roundDir(y, 0, rn)
	}
	if ftz {
		r = f.flush(r)
	}
	return r
}
