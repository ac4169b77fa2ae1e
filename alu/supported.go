package alu

import (
	"errors"
	"fmt"

	"github.com/smsim/smsim/isa"
)

func isInt(t isa.Type) bool { return t <= isa.S64 }

func isFloat(t isa.Type) bool {
	switch t {
	case isa.F16, isa.F32, isa.F64, isa.BF16, isa.F16x2, isa.BF16x2:
		return true
	}
	return false
}

// isHalf reports the 16-bit float types and their packed pairs.
func isHalf(t isa.Type) bool {
	return t == isa.F16 || t == isa.BF16 || t == isa.F16x2 || t == isa.BF16x2
}

// Supported reports whether Eval implements the opcode/type/modifier
// combination of in; the error says what is refused. doc.go lists the
// supported combinations.
func Supported(in *isa.Inst) error { return check(in, true) }

// errUnsupported is check's error when no detail is asked for.
var errUnsupported = errors.New("alu: unsupported")

type checker struct {
	in     *isa.Inst
	detail bool
}

func (c checker) bad(why string, args ...any) error {
	if !c.detail {
		return errUnsupported
	}
	return fmt.Errorf("alu: %s: %s", opName(c.in), fmt.Sprintf(why, args...))
}

// extra refuses modifier bits outside allowed.
func (c checker) extra(allowed uint16) error {
	if x := c.in.Mods &^ allowed; x != 0 {
		return c.bad("modifier bits %#x not supported", x)
	}
	return nil
}

// intOp accepts integer types of at least minBits bits (the types are
// named in want) with the modifier bits allowed.
func (c checker) intOp(minBits int, want string, allowed uint16) error {
	if t := c.in.Type; !isInt(t) || t.Bits() < minBits {
		return c.bad("type not supported (%s)", want)
	}
	return c.extra(allowed)
}

// floatArith accepts a floating-point add, multiply or fused multiply-add
// with the modifier bits allowed: rounding up to .rp, no .ftz on f64.
func (c checker) floatArith(allowed uint16) error {
	if err := c.extra(allowed); err != nil {
		return err
	}
	if rnd := rndOf(c.in); rnd > isa.RndRP {
		return c.bad("rounding .%s not supported", isa.RoundingName(rnd))
	}
	if c.in.Mods&isa.ModFtz != 0 && c.in.Type == isa.F64 {
		return c.bad(".ftz on f64")
	}
	return nil
}

// check is Supported; without detail it returns errUnsupported rather than
// a formatted error (Eval's fast check).
func check(in *isa.Inst, detail bool) error {
	c := checker{in, detail}
	t := in.Type
	mods := in.Mods
	rnd := rndOf(in)
	switch in.Op {
	case isa.OpMOV:
		if !isInt(t) && !isFloat(t) && t != isa.Pred {
			return c.bad("type not supported")
		}
		if err := c.extra(isa.ModMovPack | isa.ModMovUnpack); err != nil {
			return err
		}
		if mods != 0 {
			if mods == isa.ModMovPack|isa.ModMovUnpack {
				return c.bad("pack and unpack together")
			}
			if t == isa.Pred || t.Bits() < 16 {
				return c.bad("packing needs a 16-, 32- or 64-bit type")
			}
		}
		return nil

	case isa.OpADD, isa.OpSUB, isa.OpMUL, isa.OpMAD:
		if isFloat(t) {
			if mods&isa.ModMulMask != 0 {
				return c.bad(".hi/.wide on a floating-point type")
			}
			return c.floatArith(isa.ModSat | isa.ModRndMask | isa.ModFtz)
		}
		if !isInt(t) {
			return c.bad("type not supported")
		}
		allowed := uint16(isa.ModSat)
		if in.Op == isa.OpMUL || in.Op == isa.OpMAD {
			allowed |= isa.ModMulMask
		}
		if in.Op != isa.OpMUL {
			allowed |= isa.ModCCIn | isa.ModCCOut
		}
		if err := c.extra(allowed); err != nil {
			return err
		}
		if mods&(isa.ModCCIn|isa.ModCCOut) != 0 {
			switch {
			case t != isa.U32 && t != isa.S32 && t != isa.U64 && t != isa.S64:
				return c.bad("carry needs u32, s32, u64 or s64")
			case mods&(isa.ModSat) != 0 || mods&isa.ModMulMask == isa.MulWide:
				return c.bad("carry with .sat or .wide")
			}
		}
		mm := mods & isa.ModMulMask
		if mm > isa.MulWide {
			return c.bad("multiply mode %d not defined", mm)
		}
		if mm == isa.MulWide && t.Bits() > 32 {
			return c.bad(".wide needs an 8-, 16- or 32-bit type")
		}
		if mods&isa.ModSat != 0 {
			switch {
			case t != isa.S32:
				return c.bad(".sat needs s32")
			case in.Op == isa.OpMUL:
				return c.bad(".sat not supported")
			case in.Op == isa.OpMAD && mm != isa.MulHi:
				return c.bad(".sat needs .hi")
			}
		}
		return nil

	case isa.OpFMA:
		if !isFloat(t) {
			return c.bad("type not supported")
		}
		allowed := uint16(isa.ModSat | isa.ModRndMask | isa.ModFtz)
		if isHalf(t) {
			allowed |= isa.ModRelu
		}
		return c.floatArith(allowed)

	case isa.OpDIV, isa.OpSQRT, isa.OpRCP:
		if isInt(t) && in.Op == isa.OpDIV {
			return c.extra(0)
		}
		if t != isa.F32 && t != isa.F64 {
			return c.bad("type not supported")
		}
		if err := c.extra(isa.ModRndMask | isa.ModFtz); err != nil {
			return err
		}
		ok := rnd <= isa.RndRP
		switch {
		case rnd == isa.RndApprox:
			ok = t == isa.F32 || in.Op == isa.OpRCP
		case rnd == isa.RndFull:
			ok = in.Op == isa.OpDIV && t == isa.F32
		}
		if !ok {
			return c.bad("rounding .%s not supported", isa.RoundingName(rnd))
		}
		if mods&isa.ModFtz != 0 && t == isa.F64 && !(in.Op == isa.OpRCP && rnd == isa.RndApprox) {
			return c.bad(".ftz on f64")
		}
		return nil

	case isa.OpREM:
		if !isInt(t) {
			return c.bad("type not supported")
		}
		return c.extra(0)

	case isa.OpMIN, isa.OpMAX, isa.OpNEG, isa.OpABS:
		if isFloat(t) {
			if t == isa.F64 {
				return c.extra(0)
			}
			if in.Op == isa.OpMIN || in.Op == isa.OpMAX {
				return c.extra(isa.ModFtz | isa.ModMinMaxNaN | isa.ModMinMaxXorsign)
			}
			return c.extra(isa.ModFtz)
		}
		if !isInt(t) {
			return c.bad("type not supported")
		}
		if in.Op == isa.OpABS && !t.Signed() {
			return c.bad("abs needs a signed type")
		}
		return c.extra(0)

	case isa.OpAND, isa.OpOR, isa.OpXOR, isa.OpNOT:
		if !isInt(t) && t != isa.Pred {
			return c.bad("type not supported")
		}
		return c.extra(0)

	case isa.OpSHL, isa.OpSHR:
		if !isInt(t) {
			return c.bad("type not supported")
		}
		return c.extra(0)

	case isa.OpSETP:
		if !isInt(t) && !isFloat(t) {
			return c.bad("type not supported")
		}
		allowed := uint16(isa.ModCmpMask | isa.ModBoolMask | isa.ModSetpDst2)
		if isFloat(t) {
			allowed |= ModSetpFtz
		}
		if err := c.extra(allowed); err != nil {
			return err
		}
		cmp := int(mods & isa.ModCmpMask)
		switch {
		case cmp > isa.CmpNAN:
			return c.bad("comparison %d not defined", cmp)
		case isFloat(t) && cmp >= isa.CmpLO && cmp <= isa.CmpHS:
			return c.bad(".%s is for integer types", isa.CmpName(cmp))
		case isInt(t) && cmp >= isa.CmpEQU:
			return c.bad(".%s is for floating-point types", isa.CmpName(cmp))
		}
		return nil

	case isa.OpSELP:
		if !isInt(t) && !isFloat(t) {
			return c.bad("type not supported")
		}
		return c.extra(0)

	case isa.OpCVT:
		return supportedCvt(c)

	case isa.OpPOPC, isa.OpCLZ, isa.OpBREV, isa.OpBFE:
		return c.intOp(32, "32- or 64-bit", 0)

	case isa.OpBFI:
		return c.intOp(32, "32- or 64-bit", isa.ModBfiLenReg)

	case isa.OpSHF:
		if t != isa.B32 {
			return c.bad("type not supported (b32)")
		}
		return c.extra(isa.ModShfLeft | isa.ModShfWrap)

	case isa.OpSAD:
		return c.intOp(16, "16-, 32- or 64-bit integer", 0)

	case isa.OpBFIND:
		return c.intOp(32, "u32, s32, u64, s64", isa.ModBfindShiftAmt)

	case isa.OpEX2, isa.OpLG2, isa.OpSIN, isa.OpCOS, isa.OpRSQRT, isa.OpTANH:
		if isHalf(t) {
			bf := t == isa.BF16 || t == isa.BF16x2
			switch {
			case in.Op != isa.OpEX2 && in.Op != isa.OpTANH:
				return c.bad("type not supported")
			case rnd != isa.RndApprox:
				return c.bad("needs .approx")
			case in.Op == isa.OpEX2 && (mods&isa.ModFtz != 0) != bf:
				return c.bad(".ftz with bf16 types only (and required there)")
			case in.Op == isa.OpTANH && mods&isa.ModFtz != 0:
				return c.bad(".ftz not defined")
			}
			return c.extra(isa.ModRndMask | isa.ModFtz)
		}
		switch {
		case t != isa.F32 && !(in.Op == isa.OpRSQRT && t == isa.F64):
			return c.bad("type not supported")
		case rnd != isa.RndApprox:
			return c.bad("needs .approx")
		case mods&isa.ModFtz != 0 && in.Op == isa.OpTANH:
			return c.bad(".ftz not defined")
		}
		return c.extra(isa.ModRndMask | isa.ModFtz)

	case isa.OpCOPYSIGN:
		if t != isa.F32 && t != isa.F64 {
			return c.bad("type not supported (f32, f64)")
		}
		return c.extra(0)

	case isa.OpTESTP:
		if t != isa.F32 && t != isa.F64 {
			return c.bad("type not supported (f32, f64)")
		}
		if mods > isa.TestpSubnormal {
			return c.bad("property %d not defined", mods)
		}
		return nil

	case isa.OpMUL24, isa.OpMAD24:
		if t != isa.U32 && t != isa.S32 {
			return c.bad("type not supported (u32, s32)")
		}
		allowed := uint16(isa.ModMulMask)
		if in.Op == isa.OpMAD24 {
			allowed |= isa.ModSat
		}
		if err := c.extra(allowed); err != nil {
			return err
		}
		switch mm := mods & isa.ModMulMask; {
		case mm > isa.MulHi:
			return c.bad("multiply mode %d not defined (lo, hi)", mm)
		case mods&isa.ModSat != 0 && (mm != isa.MulHi || t != isa.S32):
			return c.bad(".sat needs .hi.s32")
		}
		return nil

	case isa.OpDP4A, isa.OpDP2A:
		if (t != isa.U32 && t != isa.S32) || (in.Type2 != isa.U32 && in.Type2 != isa.S32) {
			return c.bad("types not supported (u32, s32)")
		}
		if in.Op == isa.OpDP2A {
			return c.extra(isa.ModDp2aHi)
		}
		return c.extra(0)

	case isa.OpBMSK, isa.OpSZEXT:
		if in.Op == isa.OpBMSK && t != isa.B32 || in.Op == isa.OpSZEXT && t != isa.U32 && t != isa.S32 {
			return c.bad("type not supported")
		}
		return c.extra(isa.ModWrap)

	case isa.OpFNS, isa.OpLOP3:
		if t != isa.B32 {
			return c.bad("type not supported (b32)")
		}
		return c.extra(0)

	case isa.OpPRMT:
		if !isInt(t) || t.Bits() != 32 {
			return c.bad("type not supported (b32)")
		}
		if mods > isa.PrmtRC16 {
			return c.bad("mode %d not defined", mods)
		}
		return nil
	}
	if !detail {
		return errUnsupported
	}
	return fmt.Errorf("alu: %s is not an ALU opcode", in.Op)
}

func supportedCvt(c checker) error {
	in := c.in
	dt, st := in.Type, in.Type2
	rnd := rndOf(in)
	if dt.LowPrecision() || st.LowPrecision() || in.Mods&cvtLowMods != 0 {
		return supportedCvtLow(c)
	}
	if !(isInt(dt) || isFloat(dt)) || !(isInt(st) || isFloat(st)) {
		return c.bad("type not supported")
	}
	if err := c.extra(isa.ModRndMask | isa.ModSat | isa.ModFtz); err != nil {
		return err
	}
	fr := rnd >= isa.RndRN && rnd <= isa.RndRP   // float rounding
	ir := rnd >= isa.RndRNI && rnd <= isa.RndRPI // integer rounding
	switch {
	case isInt(dt) && isInt(st):
		if rnd != isa.RndNone || in.Mods&isa.ModFtz != 0 {
			return c.bad("rounding or .ftz on an integer conversion")
		}
	case isFloat(dt) && isInt(st):
		if rnd != isa.RndNone && !fr {
			return c.bad("rounding .%s not supported", isa.RoundingName(rnd))
		}
	case isInt(dt):
		if rnd != isa.RndNone && !ir {
			return c.bad("float-to-int needs .rni .rzi .rmi or .rpi")
		}
	default:
		if rnd != isa.RndNone && !fr && !ir {
			return c.bad("rounding .%s not supported", isa.RoundingName(rnd))
		}
		if ir && dt.Bits() < st.Bits() {
			return c.bad("integral rounding on a narrowing conversion")
		}
	}
	return nil
}
