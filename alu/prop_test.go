package alu

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// ---- random operands ----

func randInt(r *rand.Rand) uint64 {
	switch r.Intn(8) {
	case 0:
		return uint64(r.Intn(5)) // 0..4
	case 1:
		return -uint64(r.Intn(5)) // 0, -1..-4
	case 2:
		w := []int{8, 16, 32, 64}[r.Intn(4)]
		return 1<<uint(w-1) + uint64(r.Intn(3)) - 1 // around MIN / MAX+1 of each width
	case 3:
		return uint64(r.Intn(300))
	}
	return r.Uint64()
}

// randFloat returns raw bits of f: specials, subnormals, values around 1 and
// anything at all.
func randFloat(r *rand.Rand, f *ffmt) uint64 {
	sign := uint64(r.Intn(2)) << uint(f.bits-1)
	frac := r.Uint64() & f.fracMask()
	switch r.Intn(10) {
	case 0:
		return r.Uint64() & mask(f.bits)
	case 1: // special
		sp := []uint64{0, f.expMask(), f.expMask() | 1, f.nan, f.encode(1), f.maxFinite(false), 1 << uint(f.prec-1)}
		return sign | sp[r.Intn(len(sp))]
	case 2: // subnormal
		return sign | frac
	case 3: // few significant bits
		frac &= ^uint64(0) << uint(r.Intn(f.prec))
	}
	// exponent within +-20 of 0, or anywhere in range
	var e int
	if r.Intn(3) == 0 {
		e = f.emin + r.Intn(f.emax-f.emin+1)
	} else {
		e = max(f.emin, min(f.emax, r.Intn(41)-20))
	}
	return sign | uint64(e+f.emax)<<uint(f.prec-1) | frac&f.fracMask()
}

// ---- integer references (math/big) ----

func bigOf(x uint64, t isa.Type) *big.Int {
	w := t.Bits()
	if t.Signed() {
		return big.NewInt(sext(x, w))
	}
	return new(big.Int).SetUint64(x & mask(w))
}

// wrap reduces v modulo 2^w and returns its low w bits.
func wrap(v *big.Int, w int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	r := new(big.Int).Mod(v, m)
	return r.Uint64()
}

func clampBig(v *big.Int, lo, hi *big.Int) *big.Int {
	if v.Cmp(lo) < 0 {
		return lo
	}
	if v.Cmp(hi) > 0 {
		return hi
	}
	return v
}

var intTypes = []isa.Type{isa.B8, isa.B16, isa.B32, isa.B64, isa.U8, isa.U16, isa.U32, isa.U64, isa.S8, isa.S16, isa.S32, isa.S64}

// refInt computes the integer opcodes from their definitions; ok=false means
// the case is covered elsewhere (division by zero, overflow).
func refInt(in *isa.Inst, a, b, c uint64) (uint64, bool) {
	t := in.Type
	w := t.Bits()
	A, B, C := bigOf(a, t), bigOf(b, t), bigOf(c, t)
	z := new(big.Int)
	mm := in.Mods & isa.ModMulMask
	sat := in.Mods&isa.ModSat != 0
	s32lo, s32hi := big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	switch in.Op {
	case isa.OpADD:
		z.Add(A, B)
		if sat {
			return wrap(clampBig(z, s32lo, s32hi), 32), true
		}
	case isa.OpSUB:
		z.Sub(A, B)
		if sat {
			return wrap(clampBig(z, s32lo, s32hi), 32), true
		}
	case isa.OpMUL, isa.OpMAD:
		z.Mul(A, B)
		switch mm {
		case isa.MulHi:
			z.Rsh(z, uint(w))
		case isa.MulWide:
			if in.Op == isa.OpMAD { // c is 2w bits wide
				z.Add(z, new(big.Int).SetUint64(c&mask(2*w)))
			}
			return wrap(z, 2*w), true
		}
		if in.Op == isa.OpMAD {
			z.Add(z, C)
		}
		if sat {
			return wrap(clampBig(z, s32lo, s32hi), 32), true
		}
	case isa.OpDIV, isa.OpREM:
		if B.Sign() == 0 {
			return 0, false
		}
		if in.Op == isa.OpDIV {
			z.Quo(A, B)
		} else {
			z.Rem(A, B)
		}
	case isa.OpMIN, isa.OpMAX:
		if (A.Cmp(B) < 0) == (in.Op == isa.OpMIN) {
			z.Set(A)
		} else {
			z.Set(B)
		}
	case isa.OpNEG:
		z.Neg(A)
	case isa.OpABS:
		z.Abs(A)
	case isa.OpAND:
		z.And(A, B)
	case isa.OpOR:
		z.Or(A, B)
	case isa.OpXOR:
		z.Xor(A, B)
	case isa.OpNOT:
		z.Not(A)
	case isa.OpSHL:
		z.Lsh(A, uint(min(uint32(b), 200)))
	case isa.OpSHR:
		z.Rsh(A, uint(min(uint32(b), 200)))
	default:
		return 0, false
	}
	return wrap(z, w), true
}

func TestIntegerProperties(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	type form struct {
		op   isa.Opcode
		mods uint16
	}
	forms := []form{
		{isa.OpADD, 0}, {isa.OpSUB, 0}, {isa.OpMUL, isa.MulLo}, {isa.OpMUL, isa.MulHi}, {isa.OpMUL, isa.MulWide},
		{isa.OpMAD, isa.MulLo}, {isa.OpMAD, isa.MulHi}, {isa.OpMAD, isa.MulWide}, {isa.OpDIV, 0}, {isa.OpREM, 0},
		{isa.OpMIN, 0}, {isa.OpMAX, 0}, {isa.OpNEG, 0}, {isa.OpABS, 0}, {isa.OpAND, 0}, {isa.OpOR, 0},
		{isa.OpXOR, 0}, {isa.OpNOT, 0}, {isa.OpSHL, 0}, {isa.OpSHR, 0},
		{isa.OpADD, isa.ModSat}, {isa.OpSUB, isa.ModSat}, {isa.OpMAD, isa.MulHi | isa.ModSat},
	}
	n := 0
	for _, fm := range forms {
		for _, ty := range intTypes {
			in := mk(fm.op, ty, fm.mods)
			if Supported(in) != nil {
				continue
			}
			for i := 0; i < 3000; i++ {
				a, b, c := randInt(r), randInt(r), randInt(r)
				if fm.op == isa.OpSHL || fm.op == isa.OpSHR {
					b = uint64(r.Intn(80))
					if r.Intn(10) == 0 {
						b = r.Uint64()
					}
				}
				want, ok := refInt(in, a, b, c)
				if !ok {
					continue
				}
				got := mustEval(t, in, a, b, c, 0)
				n++
				if got.D != want {
					t.Fatalf("%s mods %#x (%#x, %#x, %#x): got %#x want %#x", opName(in), fm.mods, a, b, c, got.D, want)
				}
			}
		}
	}
	if n < 100000 {
		t.Fatalf("only %d cases checked", n)
	}
}

// Plain Go expressions for the common 32- and 64-bit forms.
func TestIntegerGoExpressions(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 20000; i++ {
		a, b, c := randInt(r), randInt(r), randInt(r)
		ua, ub, uc := uint32(a), uint32(b), uint32(c)
		sa, sb := int32(a), int32(b)
		check := func(name string, in *isa.Inst, want uint64) {
			t.Helper()
			if got := mustEval(t, in, a, b, c, 0).D; got != want {
				t.Fatalf("%s(%#x, %#x, %#x) = %#x, want %#x", name, a, b, c, got, want)
			}
		}
		check("add.u32", mk(isa.OpADD, isa.U32, 0), uint64(ua+ub))
		check("add.u64", mk(isa.OpADD, isa.U64, 0), a+b)
		check("sub.s32", mk(isa.OpSUB, isa.S32, 0), uint64(uint32(sa-sb)))
		check("mul.lo.u32", mk(isa.OpMUL, isa.U32, 0), uint64(ua*ub))
		check("mul.hi.u32", mk(isa.OpMUL, isa.U32, isa.MulHi), uint64(ua)*uint64(ub)>>32)
		check("mul.hi.s32", mk(isa.OpMUL, isa.S32, isa.MulHi), uint64(uint32(int64(sa)*int64(sb)>>32)))
		check("mul.wide.s32", mk(isa.OpMUL, isa.S32, isa.MulWide), uint64(int64(sa)*int64(sb)))
		check("mad.lo.u32", mk(isa.OpMAD, isa.U32, 0), uint64(ua*ub+uc))
		check("mad.wide.u32", mk(isa.OpMAD, isa.U32, isa.MulWide), uint64(ua)*uint64(ub)+c)
		hi, _ := bits.Mul64(a, b)
		check("mul.hi.u64", mk(isa.OpMUL, isa.U64, isa.MulHi), hi)
		if ub != 0 {
			check("div.u32", mk(isa.OpDIV, isa.U32, 0), uint64(ua/ub))
			check("rem.u32", mk(isa.OpREM, isa.U32, 0), uint64(ua%ub))
		}
		if sb != 0 && !(sa == math.MinInt32 && sb == -1) {
			check("div.s32", mk(isa.OpDIV, isa.S32, 0), uint64(uint32(sa/sb)))
			check("rem.s32", mk(isa.OpREM, isa.S32, 0), uint64(uint32(sa%sb)))
		}
		check("min.s32", mk(isa.OpMIN, isa.S32, 0), uint64(uint32(min(sa, sb))))
		check("max.u32", mk(isa.OpMAX, isa.U32, 0), uint64(max(ua, ub)))
		check("xor.b64", mk(isa.OpXOR, isa.B64, 0), a^b)
		check("popc.b64", mk(isa.OpPOPC, isa.B64, 0), uint64(bits.OnesCount64(a)))
		check("popc.b32", mk(isa.OpPOPC, isa.B32, 0), uint64(bits.OnesCount32(ua)))
		check("clz.b32", mk(isa.OpCLZ, isa.B32, 0), uint64(bits.LeadingZeros32(ua)))
		check("clz.b64", mk(isa.OpCLZ, isa.B64, 0), uint64(bits.LeadingZeros64(a)))
		check("brev.b32", mk(isa.OpBREV, isa.B32, 0), uint64(bits.Reverse32(ua)))
		check("brev.b64", mk(isa.OpBREV, isa.B64, 0), bits.Reverse64(a))
		check("selp.b32", mk(isa.OpSELP, isa.B32, 0), uint64(map[bool]uint32{true: ua, false: ub}[c != 0]))
		check("cvt.s32.s8", cvt(isa.S32, isa.S8, 0), uint64(uint32(int32(int8(a)))))
		check("cvt.u16.s64", cvt(isa.U16, isa.S64, 0), uint64(uint16(int64(a))))
		check("cvt.s64.s32", cvt(isa.S64, isa.S32, 0), uint64(int64(sa)))
		check("cvt.u64.u32", cvt(isa.U64, isa.U32, 0), uint64(ua))
		check("cvt.rn.f32.s32", cvt(isa.F32, isa.S32, 0), uint64(math.Float32bits(float32(sa))))
		check("cvt.rn.f64.s64", cvt(isa.F64, isa.S64, 0), math.Float64bits(float64(int64(a))))
		check("cvt.rn.f64.u64", cvt(isa.F64, isa.U64, 0), math.Float64bits(float64(a)))
		check("cvt.rn.f32.u64", cvt(isa.F32, isa.U64, 0), uint64(math.Float32bits(float32(a))))
		if s := uint32(b); s < 32 {
			check("shl.b32", mk(isa.OpSHL, isa.B32, 0), uint64(ua<<s))
			check("shr.s32", mk(isa.OpSHR, isa.S32, 0), uint64(uint32(sa>>s)))
		}
	}
}

// ---- conversions ----

func TestCvtIntIntProperties(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for _, dt := range intTypes {
		for _, st := range intTypes {
			for _, sat := range []bool{false, true} {
				var mods uint16
				if sat {
					mods = isa.ModSat
				}
				in := cvt(dt, st, mods)
				dw := dt.Bits()
				lo, hi := big.NewInt(0), new(big.Int).SetUint64(mask(dw))
				if dt.Signed() {
					lo = big.NewInt(-1 << uint(dw-1))
					hi = big.NewInt(int64(mask(dw - 1)))
				}
				for i := 0; i < 500; i++ {
					a := randInt(r)
					v := bigOf(a, st)
					if sat {
						v = clampBig(v, lo, hi)
					}
					want := wrap(v, dw)
					if got := mustEval(t, in, a, 0, 0, 0).D; got != want {
						t.Fatalf("%s sat=%v %#x: got %#x want %#x", opName(in), sat, a, got, want)
					}
				}
			}
		}
	}
}

func TestCvtFloatToIntProperties(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	modes := []int{isa.RndRNI, isa.RndRZI, isa.RndRMI, isa.RndRPI}
	for _, st := range []isa.Type{isa.F16, isa.F32, isa.F64} {
		sf := fmtOf(st)
		for _, dt := range intTypes {
			for _, md := range modes {
				in := cvt(dt, st, rndM(md))
				for i := 0; i < 300; i++ {
					a := randFloat(r, sf)
					x := sf.decode(a)
					var want uint64
					if x == x {
						// exact integral value by big.Float, then clamp
						z := new(big.Float).SetPrec(2000).SetFloat64(roundIntegral(x, md))
						if math.IsInf(x, 0) {
							z.SetInf(x < 0)
						}
						dw := dt.Bits()
						lo, hi := big.NewFloat(0), new(big.Float).SetUint64(mask(dw))
						if dt.Signed() {
							lo = big.NewFloat(math.Ldexp(-1, dw-1))
							hi = new(big.Float).SetInt64(int64(mask(dw - 1)))
						}
						if z.Cmp(lo) < 0 {
							z = lo
						} else if z.Cmp(hi) > 0 {
							z = hi
						}
						iv, _ := z.Int(nil)
						want = wrap(iv, dw)
					}
					if got := mustEval(t, in, a, 0, 0, 0).D; got != want {
						t.Fatalf("%s %s %#x (%g): got %#x want %#x", opName(in), isa.RoundingName(md), a, x, got, want)
					}
				}
			}
		}
	}
}

// ---- floating point against math/big ----

func bigMode(m int) big.RoundingMode {
	switch m {
	case isa.RndRZ:
		return big.ToZero
	case isa.RndRM:
		return big.ToNegativeInf
	case isa.RndRP:
		return big.ToPositiveInf
	}
	return big.ToNearestEven
}

// refRound rounds the exact value z to f under mode; ok=false for zero
// results and results in f's subnormal range (covered by the vectors).
func refRound(z *big.Float, f *ffmt, mode int) (uint64, bool) {
	if z.Sign() == 0 || z.MantExp(nil)-1 < f.emin {
		return 0, false
	}
	rr := new(big.Float).SetPrec(uint(f.prec)).SetMode(bigMode(mode)).Set(z)
	neg := rr.Signbit()
	if rr.MantExp(nil)-1 > f.emax {
		toInf := mode == isa.RndRN || (mode == isa.RndRP && !neg) || (mode == isa.RndRM && neg)
		if toInf {
			return f.inf(neg), true
		}
		return f.maxFinite(neg), true
	}
	v, acc := rr.Float64()
	if acc != big.Exact {
		panic("inexact")
	}
	switch f {
	case fmtF64:
		return math.Float64bits(v), true
	case fmtF32:
		return uint64(math.Float32bits(float32(v))), true
	}
	return f.encode(v), true
}

func bf(x float64) *big.Float { return new(big.Float).SetFloat64(x) }

// refFloat computes op exactly (or truncated far below the result's
// precision) with math/big; ok=false when an operand is NaN or infinite.
func refFloat(op isa.Opcode, x, y, z float64) (*big.Float, bool) {
	for _, v := range []float64{x, y, z} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
	}
	r := new(big.Float)
	switch op {
	case isa.OpADD:
		r.SetPrec(2300).Add(bf(x), bf(y))
	case isa.OpSUB:
		r.SetPrec(2300).Sub(bf(x), bf(y))
	case isa.OpMUL:
		r.SetPrec(2300).Mul(bf(x), bf(y))
	case isa.OpFMA:
		p := new(big.Float).SetPrec(200).Mul(bf(x), bf(y))
		r.SetPrec(4500).Add(p, bf(z))
	case isa.OpDIV:
		if y == 0 {
			return nil, false
		}
		r.SetPrec(400).SetMode(big.ToZero).Quo(bf(x), bf(y))
	case isa.OpRCP:
		if x == 0 {
			return nil, false
		}
		r.SetPrec(400).SetMode(big.ToZero).Quo(bf(1), bf(x))
	case isa.OpSQRT:
		if x < 0 {
			return nil, false
		}
		r.SetPrec(400).Sqrt(bf(x))
	}
	return r, true
}

func TestFloatRoundingAgainstBig(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	ops := []isa.Opcode{isa.OpADD, isa.OpSUB, isa.OpMUL, isa.OpFMA, isa.OpDIV, isa.OpRCP, isa.OpSQRT}
	modes := []int{isa.RndRN, isa.RndRZ, isa.RndRM, isa.RndRP}
	checked := 0
	for _, ty := range []isa.Type{isa.F16, isa.F32, isa.F64} {
		f := fmtOf(ty)
		for _, op := range ops {
			for _, md := range modes {
				in := mk(op, ty, rndM(md))
				if Supported(in) != nil {
					continue
				}
				iters := 4000
				if ty == isa.F64 && md != isa.RndRN {
					iters = 1500
				}
				for i := 0; i < iters; i++ {
					a, b, c := randFloat(r, f), randFloat(r, f), randFloat(r, f)
					if op == isa.OpFMA && r.Intn(3) == 0 {
						// c near -a*b, to exercise cancellation
						if p := f.decode(a) * f.decode(b); !math.IsInf(p, 0) && p == p {
							c = f.roundDir(-p, 0, isa.RndRN)
						}
					}
					x, y, z := f.decode(a), f.decode(b), f.decode(c)
					if op == isa.OpRCP || op == isa.OpSQRT {
						y, z = 0, 0
					}
					exact, ok := refFloat(op, x, y, z)
					if !ok {
						continue
					}
					want, ok := refRound(exact, f, md)
					if !ok {
						continue
					}
					got := mustEval(t, in, a, b, c, 0).D
					checked++
					if got != want {
						t.Fatalf("%s.%s(%#x, %#x, %#x) = %#x, want %#x", opName(in), isa.RoundingName(md), a, b, c, got, want)
					}
				}
			}
		}
	}
	if checked < 50000 {
		t.Fatalf("only %d cases checked", checked)
	}
}

// f32 and f64 round-to-nearest results equal Go's own IEEE arithmetic
// (NaN results are canonical).
func TestFloatNearestAgainstGo(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	canon32 := func(v float32) uint64 {
		if v != v {
			return 0x7FFFFFFF
		}
		return uint64(math.Float32bits(v))
	}
	for i := 0; i < 50000; i++ {
		a, b, c := randFloat(r, fmtF32), randFloat(r, fmtF32), randFloat(r, fmtF32)
		x, y, z := math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)), math.Float32frombits(uint32(c))
		check := func(name string, in *isa.Inst, want uint64) {
			t.Helper()
			if got := mustEval(t, in, a, b, c, 0).D; got != want {
				t.Fatalf("%s(%g, %g, %g) = %#x, want %#x", name, x, y, z, got, want)
			}
		}
		check("add.f32", mk(isa.OpADD, isa.F32, 0), canon32(x+y))
		check("sub.f32", mk(isa.OpSUB, isa.F32, 0), canon32(x-y))
		check("mul.f32", mk(isa.OpMUL, isa.F32, 0), canon32(x*y))
		check("div.rn.f32", mk(isa.OpDIV, isa.F32, rndM(isa.RndRN)), canon32(x/y))
		check("sqrt.rn.f32", mk(isa.OpSQRT, isa.F32, rndM(isa.RndRN)), canon32(float32(math.Sqrt(float64(x)))))
		// fma.f32: the f64 product is exact and one f64 addition loses at most
		// the sticky bits, so compare where the f64 sum is exact.
		if s, e := twoSum(float64(x)*float64(y), float64(z)); e == 0 && !math.IsNaN(s) && !math.IsInf(s, 0) && s != 0 {
			check("fma.f32", mk(isa.OpFMA, isa.F32, 0), canon32(float32(s)))
		}
		ok := func(v bool) uint64 { return b2u(v) }
		for _, cm := range []struct {
			cmp  int
			want bool
		}{
			{isa.CmpEQ, x == y}, {isa.CmpNE, x != y && x == x && y == y}, {isa.CmpLT, x < y}, {isa.CmpLE, x <= y},
			{isa.CmpGT, x > y}, {isa.CmpGE, x >= y}, {isa.CmpNEU, x != y}, {isa.CmpGEU, !(x < y)}, {isa.CmpLTU, !(x >= y)},
		} {
			if got := mustEval(t, mk(isa.OpSETP, isa.F32, uint16(cm.cmp)), a, b, 0, 0); got.P != cm.want {
				t.Fatalf("setp.%s.f32(%g, %g) = %v", isa.CmpName(cm.cmp), x, y, ok(got.P))
			}
		}
	}
	for i := 0; i < 50000; i++ {
		a, b, c := randFloat(r, fmtF64), randFloat(r, fmtF64), randFloat(r, fmtF64)
		x, y, z := math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)
		if math.IsNaN(x) || math.IsNaN(y) || math.IsNaN(z) {
			continue
		}
		canon := func(v float64) uint64 {
			if v != v {
				return 0x7FFFFFFFFFFFFFFF
			}
			return math.Float64bits(v)
		}
		check := func(name string, in *isa.Inst, want uint64) {
			t.Helper()
			if got := mustEval(t, in, a, b, c, 0).D; got != want {
				t.Fatalf("%s(%g, %g, %g) = %#x, want %#x", name, x, y, z, got, want)
			}
		}
		check("add.f64", mk(isa.OpADD, isa.F64, 0), canon(x+y))
		check("mul.f64", mk(isa.OpMUL, isa.F64, 0), canon(x*y))
		check("div.f64", mk(isa.OpDIV, isa.F64, 0), canon(x/y))
		check("fma.f64", mk(isa.OpFMA, isa.F64, 0), canon(math.FMA(x, y, z)))
		check("sqrt.f64", mk(isa.OpSQRT, isa.F64, 0), canon(math.Sqrt(x)))
	}
}

// Directed results bracket the exact value: rm <= exact <= rp, rz is one of
// them, and they are adjacent (or equal when exact). Includes the f64
// subnormal range that TestFloatRoundingAgainstBig skips.
func TestDirectedRoundingBrackets(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for _, ty := range []isa.Type{isa.F16, isa.F32, isa.F64} {
		f := fmtOf(ty)
		for _, op := range []isa.Opcode{isa.OpADD, isa.OpMUL, isa.OpFMA, isa.OpDIV, isa.OpSQRT} {
			if Supported(mk(op, ty, 0)) != nil {
				continue
			}
			for i := 0; i < 3000; i++ {
				a, b, c := randFloat(r, f), randFloat(r, f), randFloat(r, f)
				if op == isa.OpMUL && r.Intn(2) == 0 { // aim at the subnormal range
					b = f.encode(math.Ldexp(1+r.Float64(), f.emin-r.Intn(f.prec+2)-1))
					a = f.encode(1 + float64(r.Intn(1000))/1000)
				}
				ev := func(m int) uint64 { return mustEval(t, mk(op, ty, rndM(m)), a, b, c, 0).D }
				lo, hi, tz, ne := ev(isa.RndRM), ev(isa.RndRP), ev(isa.RndRZ), ev(isa.RndRN)
				if f.isNaN(lo) {
					if !f.isNaN(hi) || !f.isNaN(tz) || !f.isNaN(ne) {
						t.Fatalf("%s.%s: NaN in some modes only", op, ty)
					}
					continue
				}
				xl, xh := f.decode(lo), f.decode(hi)
				if xl > xh || (tz != lo && tz != hi) || (ne != lo && ne != hi) {
					t.Fatalf("%s.%s(%#x,%#x,%#x): rm %#x rp %#x rz %#x rn %#x", op, ty, a, b, c, lo, hi, tz, ne)
				}
				if xl != xh && !math.IsInf(xl, 0) && !math.IsInf(xh, 0) {
					// adjacent: next value up from lo is hi
					next := lo + 1
					if lo&f.sign() != 0 {
						next = lo - 1
						if f.abs(lo) == 0 {
							next = 1
						}
					}
					if next != hi && !(f.abs(lo) == 0 && hi == 1) {
						t.Fatalf("%s.%s(%#x,%#x,%#x): rm %#x and rp %#x not adjacent", op, ty, a, b, c, lo, hi)
					}
				}
			}
		}
	}
}

func TestCvtFloatProperties(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	modes := []int{isa.RndRN, isa.RndRZ, isa.RndRM, isa.RndRP}
	pairs := [][2]isa.Type{{isa.F32, isa.F64}, {isa.F16, isa.F64}, {isa.F16, isa.F32}}
	for _, p := range pairs {
		df, sf := fmtOf(p[0]), fmtOf(p[1])
		for _, md := range modes {
			in := cvt(p[0], p[1], rndM(md))
			for i := 0; i < 5000; i++ {
				a := randFloat(r, sf)
				x := sf.decode(a)
				if math.IsNaN(x) || math.IsInf(x, 0) {
					continue
				}
				want, ok := refRound(bf(x), df, md)
				if !ok {
					continue
				}
				if got := mustEval(t, in, a, 0, 0, 0).D; got != want {
					t.Fatalf("%s.%s %#x: got %#x want %#x", opName(in), isa.RoundingName(md), a, got, want)
				}
			}
		}
	}
	// widening round trips exactly
	for i := 0; i < 5000; i++ {
		a := randFloat(r, fmtF16)
		if fmtF16.isNaN(a) {
			continue
		}
		w := mustEval(t, cvt(isa.F32, isa.F16, 0), a, 0, 0, 0).D
		back := mustEval(t, cvt(isa.F16, isa.F32, rndM(isa.RndRZ)), w, 0, 0, 0).D
		if back != a {
			t.Fatalf("f16 %#x -> f32 %#x -> f16 %#x", a, w, back)
		}
	}
	// int -> float in every mode
	for _, st := range intTypes {
		for _, dt := range []isa.Type{isa.F16, isa.F32, isa.F64} {
			for _, md := range modes {
				in := cvt(dt, st, rndM(md))
				for i := 0; i < 500; i++ {
					a := randInt(r)
					z := new(big.Float).SetInt(bigOf(a, st))
					want, ok := refRound(z, fmtOf(dt), md)
					if !ok {
						want = 0
					}
					if got := mustEval(t, in, a, 0, 0, 0).D; got != want {
						t.Fatalf("%s.%s %#x: got %#x want %#x", opName(in), isa.RoundingName(md), a, got, want)
					}
				}
			}
		}
	}
}

// ---- bit operations against literal transcriptions of the PTX pseudocode ----

func refBfe(a, b, c uint64, w int, signed bool) uint64 {
	msb := w - 1
	pos, ln := int(b&0xff), int(c&0xff)
	var sbit uint64
	if signed && ln != 0 {
		sbit = a >> uint(min(pos+ln-1, msb)) & 1
	}
	var d uint64
	for i := 0; i <= msb; i++ {
		bit := sbit
		if i < ln && pos+i <= msb {
			bit = a >> uint(pos+i) & 1
		}
		d |= bit << uint(i)
	}
	return d
}

func refBfi(f, base, c, d uint64, w int) uint64 {
	msb := w - 1
	pos, ln := int(c&0xff), int(d&0xff)
	r := base & mask(w)
	for i := 0; i < ln && pos+i <= msb; i++ {
		r = r&^(1<<uint(pos+i)) | (f>>uint(i)&1)<<uint(pos+i)
	}
	return r
}

func refPrmt(a, b, c uint32, mode int) uint32 {
	src := [8]uint32{a & 0xff, a >> 8 & 0xff, a >> 16 & 0xff, a >> 24, b & 0xff, b >> 8 & 0xff, b >> 16 & 0xff, b >> 24}
	if mode == isa.PrmtDefault {
		var r uint32
		for i := 0; i < 4; i++ {
			nib := c >> uint(4*i) & 0xf
			v := src[nib&7]
			if nib&8 != 0 {
				v = 0
				if src[nib&7]&0x80 != 0 {
					v = 0xff
				}
			}
			r |= v << uint(8*i)
		}
		return r
	}
	// Tables from the PTX manual, listed as d.b3 d.b2 d.b1 d.b0.
	tables := map[int][4][4]int{
		isa.PrmtF4E:  {{3, 2, 1, 0}, {4, 3, 2, 1}, {5, 4, 3, 2}, {6, 5, 4, 3}},
		isa.PrmtB4E:  {{5, 6, 7, 0}, {6, 7, 0, 1}, {7, 0, 1, 2}, {0, 1, 2, 3}},
		isa.PrmtRC8:  {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
		isa.PrmtECL:  {{3, 2, 1, 0}, {3, 2, 1, 1}, {3, 2, 2, 2}, {3, 3, 3, 3}},
		isa.PrmtECR:  {{0, 0, 0, 0}, {1, 1, 1, 0}, {2, 2, 1, 0}, {3, 2, 1, 0}},
		isa.PrmtRC16: {{1, 0, 1, 0}, {3, 2, 3, 2}, {1, 0, 1, 0}, {3, 2, 3, 2}},
	}
	row := tables[mode][c&3]
	return src[row[0]]<<24 | src[row[1]]<<16 | src[row[2]]<<8 | src[row[3]]
}

func TestBitOpProperties(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	for i := 0; i < 20000; i++ {
		a, b, c, d := randInt(r), uint64(r.Intn(300)), uint64(r.Intn(300)), uint64(r.Intn(300))
		if r.Intn(4) == 0 {
			b, c, d = r.Uint64(), r.Uint64(), r.Uint64()
		}
		for _, ty := range []isa.Type{isa.U32, isa.S32, isa.U64, isa.S64} {
			w := ty.Bits()
			if got, want := mustEval(t, mk(isa.OpBFE, ty, 0), a, b, c, 0).D, refBfe(a&mask(w), b, c, w, ty.Signed()); got != want {
				t.Fatalf("bfe.%s(%#x, %d, %d) = %#x, want %#x", ty, a, b, c, got, want)
			}
		}
		for _, ty := range []isa.Type{isa.B32, isa.B64} {
			w := ty.Bits()
			if got, want := mustEval(t, mk(isa.OpBFI, ty, 0), a, ^a, c, d).D, refBfi(a, ^a, c, d, w); got != want {
				t.Fatalf("bfi.%s(%#x, %d, %d) = %#x, want %#x", ty, a, c, d, got, want)
			}
		}
		for mode := isa.PrmtDefault; mode <= isa.PrmtRC16; mode++ {
			x, y, sel := uint32(a), uint32(a>>32)^uint32(b), uint32(r.Uint64())
			if got, want := mustEval(t, mk(isa.OpPRMT, isa.B32, uint16(mode)), uint64(x), uint64(y), uint64(sel), 0).D, uint64(refPrmt(x, y, sel, mode)); got != want {
				t.Fatalf("prmt mode %d (%#x, %#x, %#x) = %#x, want %#x", mode, x, y, sel, got, want)
			}
		}
	}
}

func TestSetpIntProperties(t *testing.T) {
	r := rand.New(rand.NewSource(10))
	for i := 0; i < 5000; i++ {
		a, b := randInt(r), randInt(r)
		if r.Intn(4) == 0 {
			b = a
		}
		ua, ub := uint32(a), uint32(b)
		sa, sb := int32(a), int32(b)
		want := map[int][2]bool{ // [s32, u32]
			isa.CmpEQ: {sa == sb, ua == ub}, isa.CmpNE: {sa != sb, ua != ub},
			isa.CmpLT: {sa < sb, ua < ub}, isa.CmpLE: {sa <= sb, ua <= ub},
			isa.CmpGT: {sa > sb, ua > ub}, isa.CmpGE: {sa >= sb, ua >= ub},
			isa.CmpLO: {ua < ub, ua < ub}, isa.CmpLS: {ua <= ub, ua <= ub},
			isa.CmpHI: {ua > ub, ua > ub}, isa.CmpHS: {ua >= ub, ua >= ub},
		}
		for cmp, w := range want {
			for k, ty := range []isa.Type{isa.S32, isa.U32} {
				for bop := isa.BoolNone; bop <= isa.BoolXor; bop++ {
					cv := uint64(r.Intn(2))
					in := mk(isa.OpSETP, ty, uint16(cmp)|uint16(bop)<<isa.ModBoolShift|isa.ModSetpDst2)
					got := mustEval(t, in, a, b, cv, 0)
					wp, wq := combine(bop, w[k], cv != 0), combine(bop, !w[k], cv != 0)
					if got.P != wp || got.Q != wq {
						t.Fatalf("setp.%s.%s bool %d (%#x, %#x, %d) = %v %v", isa.CmpName(cmp), ty, bop, a, b, cv, got.P, got.Q)
					}
				}
			}
		}
	}
}

// ---- Supported and Eval agree, Eval never panics, Compile matches Eval ----

func TestSupportedAgreesWithEval(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	types := []isa.Type{}
	for ty := isa.Type(0); ty <= isa.Pred; ty++ {
		types = append(types, ty)
	}
	types = append(types, isa.BF16, isa.TF32, isa.F16x2, isa.BF16x2, isa.E4M3x2, isa.E5M2x2)
	var modsList []uint16
	for m := 0; m < 512; m++ {
		modsList = append(modsList, uint16(m))
	}
	for bit := 9; bit < 16; bit++ {
		modsList = append(modsList, uint16(1)<<uint(bit), uint16(1)<<uint(bit)|isa.ModSat|isa.RndRN<<isa.ModRndShift)
	}
	// A pool of operand sets per type (floats of the type's format, and
	// integers); each instruction gets a rotating window of six.
	pools := map[isa.Type][][4]uint64{}
	for _, ty := range types {
		f := fmtF32
		if ty == isa.F16 || ty == isa.F64 {
			f = fmtOf(ty)
		}
		for i := 0; i < 64; i++ {
			pools[ty] = append(pools[ty], [4]uint64{randFloat(r, f), randFloat(r, f), randFloat(r, f), randInt(r)},
				[4]uint64{randInt(r), randInt(r), randInt(r), randInt(r)})
		}
	}
	next := 0
	inputs := func(ty isa.Type) [][4]uint64 {
		next = (next + 6) % (len(pools[ty]) - 6)
		return pools[ty][next : next+6]
	}
	supported, refused := 0, 0
	for op := isa.Opcode(0); op < 80; op++ {
		if err := Supported(mk(op, isa.B32, 0)); err != nil && strings.Contains(err.Error(), "not an ALU opcode") {
			// Not an ALU opcode: a few spot checks suffice.
			for _, mods := range []uint16{0, 1, 0x1ff, 0xffff} {
				in := mk(op, isa.F32, mods)
				if _, err := Eval(in, 1, 2, 3, 4); err == nil || Supported(in) == nil {
					t.Fatalf("%s: evaluated", opName(in))
				}
			}
			continue
		}
		for _, ty := range types {
			type2s := []isa.Type{0}
			if op == isa.OpCVT {
				type2s = types
			}
			for _, ty2 := range type2s {
				for _, mods := range modsList {
					in := &isa.Inst{Op: op, Type: ty, Type2: ty2, Mods: mods}
					serr := Supported(in)
					f, cerr := Compile(in)
					if (serr == nil) != (cerr == nil) {
						t.Fatalf("%s mods %#x: Supported %v, Compile %v", opName(in), mods, serr, cerr)
					}
					if serr == nil {
						supported++
					} else {
						refused++
					}
					vs := inputs(ty)
					if serr != nil {
						vs = vs[:2]
					}
					for _, v := range vs {
						res, err := Eval(in, v[0], v[1], v[2], v[3])
						if (serr == nil) != (err == nil) {
							t.Fatalf("%s mods %#x: Supported %v, Eval %v", opName(in), mods, serr, err)
						}
						if err == nil {
							if cr := f(v[0], v[1], v[2], v[3]); cr != res {
								t.Fatalf("%s mods %#x %x: Compile %+v, Eval %+v", opName(in), mods, v, cr, res)
							}
							if w := resultWidth(in); w < 64 && (res.D>>uint(w) != 0 || res.D2>>uint(w) != 0) {
								t.Fatalf("%s mods %#x %x: D %#x wider than %d bits", opName(in), mods, v, res.D, w)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d supported, %d refused combinations", supported, refused)
}

// resultWidth is the width of D for a supported instruction.
func resultWidth(in *isa.Inst) int {
	switch in.Op {
	case isa.OpSETP:
		return 0
	case isa.OpPOPC, isa.OpCLZ:
		return 32
	case isa.OpMUL, isa.OpMAD:
		if !in.Type.Float() && in.Mods&isa.ModMulMask == isa.MulWide {
			return 2 * in.Type.Bits()
		}
	case isa.OpMOV:
		if in.Mods&isa.ModMovUnpack != 0 {
			return in.Type.Bits() / 2
		}
	}
	if in.Type == isa.Pred {
		return 1
	}
	return in.Type.Bits()
}

func TestUnsupportedExamples(t *testing.T) {
	for _, in := range []*isa.Inst{
		mk(isa.OpNOP, isa.B32, 0),
		mk(isa.OpLD, isa.B32, 0),
		mk(isa.OpADD, isa.S16, isa.ModSat),
		mk(isa.OpADD, isa.U32, isa.ModSat),
		mk(isa.OpADD, isa.U32, rndM(isa.RndRN)),
		mk(isa.OpADD, isa.F32, rndM(isa.RndRNI)),
		mk(isa.OpADD, isa.F32, rndM(isa.RndApprox)),
		mk(isa.OpADD, isa.F64, isa.ModFtz),
		mk(isa.OpDIV, isa.BF16, 0),
		mk(isa.OpMUL, isa.U64, isa.MulWide),
		mk(isa.OpMUL, isa.F32, isa.MulHi),
		mk(isa.OpMUL, isa.S32, isa.ModSat),
		mk(isa.OpMAD, isa.S32, isa.MulLo|isa.ModSat),
		mk(isa.OpMUL, isa.S32, 3),
		mk(isa.OpDIV, isa.F16, 0),
		mk(isa.OpDIV, isa.F64, rndM(isa.RndApprox)),
		mk(isa.OpDIV, isa.F64, rndM(isa.RndFull)),
		mk(isa.OpDIV, isa.F32, isa.ModSat),
		mk(isa.OpSQRT, isa.F64, rndM(isa.RndApprox)),
		mk(isa.OpSQRT, isa.F16, 0),
		mk(isa.OpRCP, isa.F64, isa.ModFtz),
		mk(isa.OpREM, isa.F32, 0),
		mk(isa.OpABS, isa.U32, 0),
		mk(isa.OpSHL, isa.Pred, 0),
		mk(isa.OpSHL, isa.F32, 0),
		mk(isa.OpPOPC, isa.B16, 0),
		mk(isa.OpBFE, isa.U16, 0),
		mk(isa.OpPRMT, isa.B64, 0),
		mk(isa.OpPRMT, isa.B32, 7),
		mk(isa.OpSETP, isa.F32, isa.CmpLO),
		mk(isa.OpSETP, isa.S32, isa.CmpEQU),
		mk(isa.OpSETP, isa.S32, ModSetpFtz),
		mk(isa.OpSETP, isa.S32, 18),
		mk(isa.OpSETP, isa.Pred, 0),
		mk(isa.OpMOV, isa.B8, isa.ModMovPack),
		mk(isa.OpMOV, isa.B32, isa.ModMovPack|isa.ModMovUnpack),
		mk(isa.OpSELP, isa.Pred, 0),
		cvt(isa.S32, isa.S16, rndM(isa.RndRN)),
		cvt(isa.F32, isa.S32, rndM(isa.RndRNI)),
		cvt(isa.S32, isa.F32, rndM(isa.RndRN)),
		cvt(isa.F16, isa.F32, rndM(isa.RndRNI)),
		cvt(isa.F32, isa.Pred, 0),
		cvt(isa.TF32, isa.F32, 0),
		cvt(isa.E4M3x2, isa.F32, 0), // needs .rn.satfinite and the pack form
	} {
		if Supported(in) == nil {
			t.Errorf("%s mods %#x: supported", opName(in), in.Mods)
		}
		if _, err := Eval(in, 1, 2, 3, 4); err == nil {
			t.Errorf("%s mods %#x: Eval gave no error", opName(in), in.Mods)
		}
	}
}

func TestCompileMatchesEvalHotForms(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	var forms []*isa.Inst
	for _, op := range []isa.Opcode{isa.OpMOV, isa.OpADD, isa.OpSUB, isa.OpMUL, isa.OpMAD, isa.OpAND, isa.OpOR, isa.OpXOR, isa.OpSHL, isa.OpSELP, isa.OpSETP} {
		for _, ty := range intTypes {
			forms = append(forms, mk(op, ty, 0), mk(op, ty, isa.MulWide), mk(op, ty, isa.CmpLT), mk(op, ty, isa.CmpHS))
		}
	}
	for _, in := range forms {
		f, err := Compile(in)
		if err != nil {
			continue
		}
		for i := 0; i < 200; i++ {
			a, b, c := randInt(r), randInt(r), randInt(r)
			if in.Op == isa.OpSHL {
				b = uint64(r.Intn(70))
			}
			want := mustEval(t, in, a, b, c, 0)
			want2 := eval(in, a, b, c, 0) // the general path
			if got := f(a, b, c, 0); got != want || got != want2 {
				t.Fatalf("%s mods %#x (%#x, %#x, %#x): Compile %+v, Eval %+v, eval %+v", opName(in), in.Mods, a, b, c, got, want, want2)
			}
		}
	}
	// Eval's f32 fast path against the general path.
	for _, op := range []isa.Opcode{isa.OpADD, isa.OpSUB, isa.OpMUL} {
		for _, mods := range []uint16{0, rndM(isa.RndRN)} {
			in := mk(op, isa.F32, mods)
			for i := 0; i < 20000; i++ {
				a, b := randFloat(r, fmtF32), randFloat(r, fmtF32)
				if got, want := mustEval(t, in, a, b, 0, 0), eval(in, a, b, 0, 0); got != want {
					t.Fatalf("%s mods %#x (%#x, %#x): Eval %+v, eval %+v", opName(in), mods, a, b, got, want)
				}
			}
		}
	}
}
