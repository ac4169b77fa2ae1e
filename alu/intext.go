package alu

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// evalMul24 is MUL24 and MAD24: the 48-bit product of the low 24 bits of
// a and b (sign-extended from bit 23 for s32), bits 31..0 (.lo) or 47..16
// (.hi), plus c for MAD24; .sat (mad24.hi.sat.s32) clamps the sum to the
// s32 range.
func evalMul24(in *isa.Inst, a, b, c uint64) uint64 {
	var p int64
	if in.Type == isa.S32 {
		p = sext(a, 24) * sext(b, 24)
	} else {
		p = int64(a&0xffffff) * int64(b&0xffffff)
	}
	t := uint32(p)
	if in.Mods&isa.ModMulMask == isa.MulHi {
		t = uint32(p >> 16)
	}
	if in.Op == isa.OpMUL24 {
		return uint64(t)
	}
	if in.Mods&isa.ModSat != 0 {
		return satS32(int64(int32(t)) + int64(int32(c)))
	}
	return uint64(t + uint32(c))
}

// evalDp is DP4A (c + the dot product of the four bytes of a and b) and
// DP2A (c + the dot product of the two 16-bit halves of a and bytes 0..1
// (.lo) or 2..3 (.hi) of b), each element sign- or zero-extended by its
// operand's type (Type for a, Type2 for b), modulo 2^32.
func evalDp(in *isa.Inst, a, b, c uint64) uint64 {
	sa, sb := in.Type == isa.S32, in.Type2 == isa.S32
	elem := func(x uint64, i, w int, signed bool) int64 {
		v := x >> uint(i*w) & mask(w)
		if signed {
			return sext(v, w)
		}
		return int64(v)
	}
	d := int64(c)
	if in.Op == isa.OpDP4A {
		for i := 0; i < 4; i++ {
			d += elem(a, i, 8, sa) * elem(b, i, 8, sb)
		}
		return uint64(uint32(d))
	}
	sel := 0
	if in.Mods&isa.ModDp2aHi != 0 {
		sel = 2
	}
	for i := 0; i < 2; i++ {
		d += elem(a, i, 16, sa) * elem(b, sel+i, 8, sb)
	}
	return uint64(uint32(d))
}

// evalBmsk is the PTX ISA's bmsk semantics: a mask of width b from bit a.
func evalBmsk(in *isa.Inst, a, b uint64) uint64 {
	a, b = uint64(uint32(a)), uint64(uint32(b))
	a1, b1 := a&0x1f, b&0x1f
	mask0 := ^uint32(0) << a1
	sum := a1 + b1
	overflow := sum >= 32
	if in.Mods&isa.ModWrap == 0 { // .clamp
		if a >= 32 {
			overflow, mask0 = true, 0
		}
		overflow = overflow || b >= 32
	}
	var mask1 uint32
	switch {
	case overflow:
	case b1 == 0:
		mask1 = ^uint32(0)
	default:
		mask1 = ^uint32(0) << sum
	}
	return uint64(mask0 &^ mask1)
}

// evalSzext is the PTX ISA's szext semantics: the low b bits of a, sign-
// (s32) or zero-extended (u32); b >= 32 keeps a (.clamp) or wraps.
func evalSzext(in *isa.Inst, a, b uint64) uint64 {
	x, n := uint32(a), uint32(b)
	b1 := n & 0x1f
	tooLarge := n >= 32 && in.Mods&isa.ModWrap == 0
	mask := ^uint32(0) << b1
	if tooLarge {
		mask = 0
	}
	sign := b1 != 0 && !tooLarge && in.Type == isa.S32 && x>>((b1-1)&0x1f)&1 != 0
	d := x &^ mask
	if sign {
		d |= mask
	}
	return uint64(d)
}

// evalFns is the PTX ISA's fns semantics: the position of the offset-th
// set bit of mask counting from base (upwards for a positive offset,
// downwards for a negative one; offset 0: base itself if set), else
// 0xffffffff.
func evalFns(mask, base, offset uint64) uint64 {
	m, pos, off := uint32(mask), int64(uint32(base)), int64(int32(offset))
	if off == 0 {
		if pos < 32 && m>>uint(pos)&1 != 0 {
			return uint64(pos)
		}
		return 0xffffffff
	}
	count, inc := off-1, int64(1)
	if off < 0 {
		count, inc = -off-1, -1
	}
	for ; pos >= 0 && pos < 32; pos += inc {
		if m>>uint(pos)&1 == 0 {
			continue
		}
		if count == 0 {
			return uint64(pos)
		}
		count--
	}
	return 0xffffffff
}

// evalLop3 is the three-input logic operation whose truth table is lut:
// bit (a<<2 | b<<1 | c) of lut is the result for those input bits
// (lut = F(0xF0, 0xCC, 0xAA)).
func evalLop3(lut uint32, a, b, c uint64) uint64 {
	x, y, z := uint32(a), uint32(b), uint32(c)
	var d uint32
	for m := lut & 0xff; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		t := ^uint32(0)
		if i&4 != 0 {
			t &= x
		} else {
			t &= ^x
		}
		if i&2 != 0 {
			t &= y
		} else {
			t &= ^y
		}
		if i&1 != 0 {
			t &= z
		} else {
			t &= ^z
		}
		d |= t
	}
	return uint64(d)
}
