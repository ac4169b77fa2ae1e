package pipeline

import (
	"math/bits"

	"github.com/smsim/smsim/alu"
	"github.com/smsim/smsim/isa"
)

// localALU implements the opcodes package alu does not (yet): SHF, SAD and
// BFIND. It returns nil for anything else and for unsupported types.
func localALU(in *isa.Inst) alu.Func {
	t := in.Type
	switch in.Op {
	case isa.OpSHF:
		if t.Bits() != 32 || t.Float() || in.Mods&^(isa.ModShfLeft|isa.ModShfWrap) != 0 {
			return nil
		}
		left := in.Mods&isa.ModShfLeft != 0
		wrap := in.Mods&isa.ModShfWrap != 0
		return func(a, b, c, _ uint64) alu.Result {
			n := uint32(c)
			if wrap {
				n &= 31
			} else if n > 32 {
				n = 32
			}
			v := uint64(uint32(b))<<32 | uint64(uint32(a))
			if left {
				return alu.Result{D: uint64(uint32((v << n) >> 32))}
			}
			return alu.Result{D: uint64(uint32(v >> n))}
		}
	case isa.OpSAD:
		if in.Mods != 0 || t.Float() || t == isa.Pred || t.Bits() < 16 {
			return nil
		}
		m := typeMask(t)
		signed := t.Signed()
		return func(a, b, c, _ uint64) alu.Result {
			var d uint64
			if signed {
				x, y := int64(ext64(a, t)), int64(ext64(b, t))
				if x > y {
					d = uint64(x) - uint64(y)
				} else {
					d = uint64(y) - uint64(x)
				}
			} else {
				x, y := a&m, b&m
				if x > y {
					d = x - y
				} else {
					d = y - x
				}
			}
			return alu.Result{D: (d + c) & m}
		}
	case isa.OpBFIND:
		w := t.Bits()
		if (w != 32 && w != 64) || t.Float() || in.Mods&^isa.ModBfindShiftAmt != 0 {
			return nil
		}
		shiftamt := in.Mods&isa.ModBfindShiftAmt != 0
		signed := t.Signed()
		return func(a, _, _, _ uint64) alu.Result {
			v := a & typeMask(t)
			if signed && v>>(uint(w)-1)&1 != 0 {
				v = ^v & typeMask(t)
			}
			if v == 0 {
				return alu.Result{D: 0xffffffff}
			}
			pos := uint64(63 - bits.LeadingZeros64(v))
			if shiftamt {
				pos = uint64(w-1) - pos
			}
			return alu.Result{D: pos}
		}
	}
	return nil
}
