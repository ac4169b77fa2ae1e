package alu

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// evalInt computes the integer forms of the arithmetic, logic and shift
// opcodes. Operands may carry garbage above the type's width; it is ignored.
func evalInt(in *isa.Inst, a, b, c uint64) uint64 {
	t := in.Type
	w := t.Bits()
	m := mask(w)
	signed := t.Signed()
	sat := in.Mods&isa.ModSat != 0
	switch in.Op {
	case isa.OpADD:
		if sat {
			return satS32(sext(a, 32) + sext(b, 32))
		}
		return (a + b) & m
	case isa.OpSUB:
		if sat {
			return satS32(sext(a, 32) - sext(b, 32))
		}
		return (a - b) & m
	case isa.OpMUL:
		switch in.Mods & isa.ModMulMask {
		case isa.MulHi:
			return mulHi(a, b, w, signed)
		case isa.MulWide:
			return mulWide(a, b, w, signed)
		}
		return (a * b) & m
	case isa.OpMAD:
		switch in.Mods & isa.ModMulMask {
		case isa.MulHi:
			h := mulHi(a, b, w, signed)
			if sat {
				return satS32(sext(h, 32) + sext(c, 32))
			}
			return (h + c) & m
		case isa.MulWide:
			return (mulWide(a, b, w, signed) + c) & mask(2*w)
		}
		return (a*b + c) & m
	case isa.OpDIV:
		if signed {
			x, y := sext(a, w), sext(b, w)
			switch {
			case y == 0:
				return m // -1
			case y == -1:
				return uint64(-x) & m // MIN / -1 wraps to MIN
			}
			return uint64(x/y) & m
		}
		x, y := a&m, b&m
		if y == 0 {
			return m
		}
		return x / y
	case isa.OpREM:
		if signed {
			x, y := sext(a, w), sext(b, w)
			switch {
			case y == 0:
				return a & m
			case y == -1:
				return 0
			}
			return uint64(x%y) & m
		}
		x, y := a&m, b&m
		if y == 0 {
			return x
		}
		return x % y
	case isa.OpMIN, isa.OpMAX:
		var less bool // a < b
		if signed {
			less = sext(a, w) < sext(b, w)
		} else {
			less = a&m < b&m
		}
		if less == (in.Op == isa.OpMIN) {
			return a & m
		}
		return b & m
	case isa.OpNEG:
		return -a & m
	case isa.OpABS:
		if x := sext(a, w); x < 0 {
			return uint64(-x) & m
		}
		return a & m
	case isa.OpAND:
		return a & b & m
	case isa.OpOR:
		return (a | b) & m
	case isa.OpXOR:
		return (a ^ b) & m
	case isa.OpNOT:
		return ^a & m
	case isa.OpSHL:
		s := uint32(b)
		if s >= uint32(w) {
			return 0
		}
		return (a << s) & m
	case isa.OpSHR:
		s := uint32(b)
		if signed {
			if s > 63 {
				s = 63
			}
			return uint64(sext(a, w)>>s) & m
		}
		if s >= uint32(w) {
			return 0
		}
		return (a & m) >> s
	}
	return 0
}

func satS32(v int64) uint64 {
	if v > math.MaxInt32 {
		v = math.MaxInt32
	} else if v < math.MinInt32 {
		v = math.MinInt32
	}
	return uint64(uint32(int32(v)))
}

// mulHi returns the high w bits of the 2w-bit product of a and b.
func mulHi(a, b uint64, w int, signed bool) uint64 {
	m := mask(w)
	if w == 64 {
		hi, _ := bits.Mul64(a, b)
		if signed {
			if int64(a) < 0 {
				hi -= b
			}
			if int64(b) < 0 {
				hi -= a
			}
		}
		return hi
	}
	if signed {
		return uint64((sext(a, w)*sext(b, w))>>uint(w)) & m
	}
	return ((a & m) * (b & m)) >> uint(w) & m
}

// mulWide returns the 2w-bit product of a and b (w <= 32).
func mulWide(a, b uint64, w int, signed bool) uint64 {
	if signed {
		return uint64(sext(a, w)*sext(b, w)) & mask(2*w)
	}
	m := mask(w)
	return (a & m) * (b & m)
}

// evalCarry computes the carry-chain forms of ADD, SUB and MAD (32 and 64
// bits): d is the carry-in CC.CF (0 or 1) when in reads it (isa.ModCCIn).
// ADD: a + b [+ CF]; SUB: a - (b [+ CF]), CF out = the borrow; MAD: the
// low or high half of a*b, plus c [+ CF]. CF out is the carry (borrow) of
// the full-width sum (difference).
func evalCarry(in *isa.Inst, a, b, c, d uint64) Result {
	w := in.Type.Bits()
	cin := uint64(0)
	if in.Mods&isa.ModCCIn != 0 && d != 0 {
		cin = 1
	}
	m := mask(w)
	a, b, c = a&m, b&m, c&m
	var r, cout uint64
	switch in.Op {
	case isa.OpSUB:
		if w == 64 {
			r, cout = bits.Sub64(a, b, cin)
		} else {
			x := a - b - cin
			r, cout = x&m, x>>63
		}
	default:
		if in.Op == isa.OpMAD {
			if in.Mods&isa.ModMulMask == isa.MulHi {
				a = mulHi(a, b, w, in.Type.Signed())
			} else {
				a = (a * b) & m
			}
			b = c
		}
		if w == 64 {
			r, cout = bits.Add64(a, b, cin)
		} else {
			x := a + b + cin
			r, cout = x&m, x>>32
		}
	}
	return Result{D: r, CF: cout != 0}
}
