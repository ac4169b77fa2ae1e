package alu

import (
	"cmp"
	"fmt"
	"math"

	"github.com/smsim/smsim/isa"
)

// Result is the outcome of one lane.
type Result struct {
	// D is the destination value as raw bits of the destination type's
	// width, zero-extended to 64 bits (also for signed types). For
	// MUL/MAD .wide the destination is twice the width of Inst.Type.
	D uint64
	// D2 is the second destination of MOV with isa.ModMovUnpack (the high
	// half of A); zero otherwise.
	D2 uint64
	// P is SETP's first predicate destination, and the result of every
	// operation whose Type is isa.Pred (AND OR XOR NOT MOV on predicates).
	P bool
	// Q is SETP's second predicate destination (isa.ModSetpDst2).
	Q bool
	// CF is the carry flag written by an instruction with isa.ModCCOut
	// (the carry of ADD and MAD, the borrow of SUB).
	CF bool
}

// ModSetpFtz is SETP's .ftz modifier bit (isa.ModSetpFtz; bit 7 is ModSetpDst2).
const ModSetpFtz = isa.ModSetpFtz

// Func evaluates one lane of a pre-validated instruction (see Compile).
type Func func(a, b, c, d uint64) Result

// Eval computes one lane of in. a, b, c and d are the operand values as raw
// bits of the source type (doc.go lists which opcode reads which operand).
// It returns an error, never panics, for a combination of opcode, types and
// modifiers that Supported refuses.
func Eval(in *isa.Inst, a, b, c, d uint64) (Result, error) {
	// Fast paths for the hottest integer forms (no modifiers).
	if in.Mods == 0 {
		switch in.Op {
		case isa.OpADD:
			switch in.Type {
			case isa.U32, isa.S32, isa.B32:
				return Result{D: uint64(uint32(a + b))}, nil
			case isa.U64, isa.S64, isa.B64:
				return Result{D: a + b}, nil
			}
		case isa.OpSUB:
			switch in.Type {
			case isa.U32, isa.S32, isa.B32:
				return Result{D: uint64(uint32(a - b))}, nil
			case isa.U64, isa.S64, isa.B64:
				return Result{D: a - b}, nil
			}
		case isa.OpMUL:
			switch in.Type {
			case isa.U32, isa.S32, isa.B32:
				return Result{D: uint64(uint32(a * b))}, nil
			case isa.U64, isa.S64, isa.B64:
				return Result{D: a * b}, nil
			}
		case isa.OpMAD:
			switch in.Type {
			case isa.U32, isa.S32, isa.B32:
				return Result{D: uint64(uint32(a*b + c))}, nil
			case isa.U64, isa.S64, isa.B64:
				return Result{D: a*b + c}, nil
			}
		case isa.OpAND:
			if in.Type == isa.B32 || in.Type == isa.U32 || in.Type == isa.S32 {
				return Result{D: uint64(uint32(a & b))}, nil
			}
		case isa.OpOR:
			if in.Type == isa.B32 || in.Type == isa.U32 || in.Type == isa.S32 {
				return Result{D: uint64(uint32(a | b))}, nil
			}
		case isa.OpXOR:
			if in.Type == isa.B32 || in.Type == isa.U32 || in.Type == isa.S32 {
				return Result{D: uint64(uint32(a ^ b))}, nil
			}
		case isa.OpSHL:
			if in.Type == isa.B32 || in.Type == isa.U32 || in.Type == isa.S32 {
				if s := uint32(b); s < 32 {
					return Result{D: uint64(uint32(a) << s)}, nil
				}
				return Result{}, nil
			}
		case isa.OpMOV:
			switch in.Type {
			case isa.U32, isa.S32, isa.B32, isa.F32:
				return Result{D: uint64(uint32(a))}, nil
			case isa.U64, isa.S64, isa.B64, isa.F64:
				return Result{D: a}, nil
			}
		}
	}
	// f32 add/sub/mul rounded to nearest: Go's float32 arithmetic is IEEE.
	if in.Type == isa.F32 && (in.Mods == 0 || in.Mods == isa.RndRN<<isa.ModRndShift) &&
		(in.Op == isa.OpADD || in.Op == isa.OpSUB || in.Op == isa.OpMUL) {
		x, y := math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b))
		var r float32
		switch in.Op {
		case isa.OpADD:
			r = x + y
		case isa.OpSUB:
			r = x - y
		default:
			r = x * y
		}
		if r != r {
			return Result{D: fmtF32.nan}, nil
		}
		return Result{D: uint64(math.Float32bits(r))}, nil
	}
	if check(in, false) != nil {
		return Result{}, Supported(in)
	}
	return eval(in, a, b, c, d), nil
}

// Compile validates in once and returns a function computing one lane of
// it, specialised for the hot integer forms. The simulator may cache it per
// instruction instead of calling Eval per lane.
func Compile(in *isa.Inst) (Func, error) {
	if err := Supported(in); err != nil {
		return nil, err
	}
	if f := fastFunc(in); f != nil {
		return f, nil
	}
	cp := *in
	return func(a, b, c, d uint64) Result { return eval(&cp, a, b, c, d) }, nil
}

// eval computes a lane of an instruction that Supported accepted.
func eval(in *isa.Inst, a, b, c, d uint64) Result {
	switch in.Op {
	case isa.OpMOV:
		return evalMov(in, a, b)
	case isa.OpSETP:
		return evalSetp(in, a, b, c)
	case isa.OpSELP:
		if c != 0 {
			return Result{D: a & mask(in.Type.Bits())}
		}
		return Result{D: b & mask(in.Type.Bits())}
	case isa.OpCVT:
		if in.Type.LowPrecision() || in.Type2.LowPrecision() || in.Mods&cvtLowMods != 0 {
			return Result{D: evalCvtLow(in, a, b, c)}
		}
		return Result{D: evalCvt(in, a)}
	case isa.OpPOPC, isa.OpCLZ, isa.OpBREV, isa.OpBFE, isa.OpBFI, isa.OpPRMT:
		return Result{D: evalBits(in, a, b, c, d)}
	case isa.OpSHF:
		return Result{D: evalShf(in, a, b, c)}
	case isa.OpSAD:
		return Result{D: evalSad(in, a, b, c)}
	case isa.OpBFIND:
		return Result{D: evalBfind(in, a)}
	case isa.OpEX2, isa.OpLG2, isa.OpSIN, isa.OpCOS, isa.OpRSQRT, isa.OpTANH:
		return Result{D: evalMufu(in, a)}
	case isa.OpCOPYSIGN:
		return Result{D: evalCopysign(in, a, b)}
	case isa.OpTESTP:
		p := evalTestp(in, a)
		return Result{D: b2u(p), P: p}
	case isa.OpMUL24, isa.OpMAD24:
		return Result{D: evalMul24(in, a, b, c)}
	case isa.OpDP4A, isa.OpDP2A:
		return Result{D: evalDp(in, a, b, c)}
	case isa.OpBMSK:
		return Result{D: evalBmsk(in, a, b)}
	case isa.OpSZEXT:
		return Result{D: evalSzext(in, a, b)}
	case isa.OpFNS:
		return Result{D: evalFns(a, b, c)}
	case isa.OpLOP3:
		return Result{D: evalLop3(in.Imm, a, b, c)}
	case isa.OpAND, isa.OpOR, isa.OpXOR, isa.OpNOT:
		if in.Type == isa.Pred {
			p := evalPredLogic(in.Op, a != 0, b != 0)
			return Result{D: b2u(p), P: p}
		}
		return Result{D: evalInt(in, a, b, c)}
	}
	if in.Type.Packed() {
		return Result{D: evalPacked(in, a, b, c)}
	}
	if in.Type.Float() {
		return Result{D: evalFloat(in, a, b, c)}
	}
	if in.Mods&(isa.ModCCIn|isa.ModCCOut) != 0 {
		return evalCarry(in, a, b, c, d)
	}
	return Result{D: evalInt(in, a, b, c)}
}

func evalMov(in *isa.Inst, a, b uint64) Result {
	w := in.Type.Bits()
	switch {
	case in.Type == isa.Pred:
		return Result{D: b2u(a != 0), P: a != 0}
	case in.Mods&isa.ModMovPack != 0:
		h := uint(w / 2)
		return Result{D: a&mask(w/2) | (b&mask(w/2))<<h}
	case in.Mods&isa.ModMovUnpack != 0:
		h := uint(w / 2)
		return Result{D: a & mask(w/2), D2: (a >> h) & mask(w/2)}
	}
	return Result{D: a & mask(w)}
}

// evalPredLogic is and, or, xor and not on predicates: the first three
// are setp's combining operations.
func evalPredLogic(op isa.Opcode, a, b bool) bool {
	bop := isa.BoolAnd
	switch op {
	case isa.OpAND:
	case isa.OpOR:
		bop = isa.BoolOr
	case isa.OpXOR:
		bop = isa.BoolXor
	default:
		return !a // NOT
	}
	return combine(bop, a, b)
}

func evalSetp(in *isa.Inst, a, b, c uint64) Result {
	if in.Type.Packed() {
		return evalSetpPacked(in, a, b, c)
	}
	cmp := int(in.Mods & isa.ModCmpMask)
	var t bool
	if in.Type.Float() {
		f := fmtOf(in.Type)
		// .ftz flushes subnormal inputs of .f32 (and .f16) comparisons;
		// .f64 comparisons keep subnormals (PTX ISA, setp: "setp.ftz.f32
		// flushes subnormal inputs to sign-preserving zero").
		if in.Mods&ModSetpFtz != 0 && in.Type != isa.F64 {
			a, b = f.flush(a), f.flush(b)
		}
		t = floatCmp(cmp, f.decode(a), f.decode(b))
	} else {
		t = intCmp(cmp, in.Type, a, b)
	}
	op := int(in.Mods&isa.ModBoolMask) >> isa.ModBoolShift
	r := Result{P: combine(op, t, c != 0)}
	if in.Mods&isa.ModSetpDst2 != 0 {
		r.Q = combine(op, !t, c != 0)
	}
	return r
}

func combine(op int, t, c bool) bool {
	switch op {
	case isa.BoolAnd:
		return t && c
	case isa.BoolOr:
		return t || c
	case isa.BoolXor:
		return t != c
	}
	return t
}

func intCmp(cmp int, t isa.Type, a, b uint64) bool {
	w := t.Bits()
	ua, ub := a&mask(w), b&mask(w)
	switch cmp {
	case isa.CmpEQ:
		return ua == ub
	case isa.CmpNE:
		return ua != ub
	case isa.CmpLT, isa.CmpLE, isa.CmpGT, isa.CmpGE:
		if t.Signed() {
			return ordered(cmp-isa.CmpLT, sext(a, w), sext(b, w))
		}
		return ordered(cmp-isa.CmpLT, ua, ub)
	case isa.CmpLO, isa.CmpLS, isa.CmpHI, isa.CmpHS:
		return ordered(cmp-isa.CmpLO, ua, ub)
	}
	return false
}

// ordered is x < y, x <= y, x > y or x >= y for rel 0 to 3 (the order of
// lt/le/gt/ge, lo/ls/hi/hs and ltu/leu/gtu/geu among the comparisons).
func ordered[T cmp.Ordered](rel int, x, y T) bool {
	switch rel {
	case 0:
		return x < y
	case 1:
		return x <= y
	case 2:
		return x > y
	default:
		return x >= y
	}
}

func floatCmp(cmp int, x, y float64) bool {
	un := x != x || y != y
	switch cmp {
	case isa.CmpEQ:
		return x == y
	case isa.CmpNE:
		return !un && x != y
	case isa.CmpLT, isa.CmpLE, isa.CmpGT, isa.CmpGE:
		return ordered(cmp-isa.CmpLT, x, y)
	case isa.CmpEQU:
		return un || x == y
	case isa.CmpNEU:
		return un || x != y
	case isa.CmpLTU, isa.CmpLEU, isa.CmpGTU, isa.CmpGEU:
		return un || ordered(cmp-isa.CmpLTU, x, y)
	case isa.CmpNUM:
		return !un
	case isa.CmpNAN:
		return un
	}
	return false
}

// mask returns the low w bits set (w in 1..64).
func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// sext sign-extends the low w bits of x.
func sext(x uint64, w int) int64 {
	s := uint(64 - w)
	return int64(x<<s) >> s
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func opName(in *isa.Inst) string {
	s := in.Op.String()
	if in.Op == isa.OpCVT {
		return fmt.Sprintf("%s.%s.%s", s, in.Type, in.Type2)
	}
	return fmt.Sprintf("%s.%s", s, in.Type)
}
