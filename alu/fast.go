package alu

import "github.com/smsim/smsim/isa"

// fastFunc returns a specialised lane function for the hottest forms of an
// already validated instruction, or nil.
func fastFunc(in *isa.Inst) Func {
	w := in.Type.Bits()
	if in.Type == isa.Pred || in.Type.Float() || (w != 32 && w != 64) {
		if in.Op == isa.OpMOV && in.Mods == 0 && in.Type != isa.Pred && w >= 32 {
			if w == 32 {
				return func(a, _, _, _ uint64) Result { return Result{D: uint64(uint32(a))} }
			}
			return func(a, _, _, _ uint64) Result { return Result{D: a} }
		}
		return nil
	}
	w32 := w == 32
	switch {
	case in.Mods == 0:
		switch in.Op {
		case isa.OpMOV:
			if w32 {
				return func(a, _, _, _ uint64) Result { return Result{D: uint64(uint32(a))} }
			}
			return func(a, _, _, _ uint64) Result { return Result{D: a} }
		case isa.OpADD:
			if w32 {
				return func(a, b, _, _ uint64) Result { return Result{D: uint64(uint32(a + b))} }
			}
			return func(a, b, _, _ uint64) Result { return Result{D: a + b} }
		case isa.OpSUB:
			if w32 {
				return func(a, b, _, _ uint64) Result { return Result{D: uint64(uint32(a - b))} }
			}
			return func(a, b, _, _ uint64) Result { return Result{D: a - b} }
		case isa.OpMUL:
			if w32 {
				return func(a, b, _, _ uint64) Result { return Result{D: uint64(uint32(a * b))} }
			}
			return func(a, b, _, _ uint64) Result { return Result{D: a * b} }
		case isa.OpMAD:
			if w32 {
				return func(a, b, c, _ uint64) Result { return Result{D: uint64(uint32(a*b + c))} }
			}
			return func(a, b, c, _ uint64) Result { return Result{D: a*b + c} }
		case isa.OpAND:
			if w32 {
				return func(a, b, _, _ uint64) Result { return Result{D: uint64(uint32(a & b))} }
			}
			return func(a, b, _, _ uint64) Result { return Result{D: a & b} }
		case isa.OpOR:
			if w32 {
				return func(a, b, _, _ uint64) Result { return Result{D: uint64(uint32(a | b))} }
			}
			return func(a, b, _, _ uint64) Result { return Result{D: a | b} }
		case isa.OpXOR:
			if w32 {
				return func(a, b, _, _ uint64) Result { return Result{D: uint64(uint32(a ^ b))} }
			}
			return func(a, b, _, _ uint64) Result { return Result{D: a ^ b} }
		case isa.OpSHL:
			if w32 {
				return func(a, b, _, _ uint64) Result {
					if s := uint32(b); s < 32 {
						return Result{D: uint64(uint32(a) << s)}
					}
					return Result{}
				}
			}
			return func(a, b, _, _ uint64) Result {
				if s := uint32(b); s < 64 {
					return Result{D: a << s}
				}
				return Result{}
			}
		case isa.OpSELP:
			if w32 {
				return func(a, b, c, _ uint64) Result {
					if c != 0 {
						return Result{D: uint64(uint32(a))}
					}
					return Result{D: uint64(uint32(b))}
				}
			}
			return func(a, b, c, _ uint64) Result {
				if c != 0 {
					return Result{D: a}
				}
				return Result{D: b}
			}
		}
	case in.Op == isa.OpMUL && in.Mods == isa.MulWide && w32:
		if in.Type.Signed() {
			return func(a, b, _, _ uint64) Result { return Result{D: uint64(int64(int32(a)) * int64(int32(b)))} }
		}
		return func(a, b, _, _ uint64) Result { return Result{D: uint64(uint32(a)) * uint64(uint32(b))} }
	case in.Op == isa.OpMAD && in.Mods == isa.MulWide && w32:
		if in.Type.Signed() {
			return func(a, b, c, _ uint64) Result { return Result{D: uint64(int64(int32(a))*int64(int32(b))) + c} }
		}
		return func(a, b, c, _ uint64) Result { return Result{D: uint64(uint32(a))*uint64(uint32(b)) + c} }
	case in.Op == isa.OpSETP && in.Mods&^isa.ModCmpMask == 0:
		cmp, t := int(in.Mods), in.Type
		return func(a, b, _, _ uint64) Result { return Result{P: intCmp(cmp, t, a, b)} }
	}
	return nil
}
