package alu

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// evalShf is shf.{l,r}.{wrap,clamp}.b32: a is the low word, b the high word
// of a 64-bit value; c the shift amount (PTX ISA "shf").
func evalShf(in *isa.Inst, a, b, c uint64) uint64 {
	n := uint32(c)
	if in.Mods&isa.ModShfWrap != 0 {
		n &= 31
	} else if n > 32 {
		n = 32
	}
	v := uint64(uint32(b))<<32 | uint64(uint32(a))
	if in.Mods&isa.ModShfLeft != 0 {
		return uint64(uint32((v << n) >> 32))
	}
	return uint64(uint32(v >> n))
}

// evalSad is sad: |a - b| + c in the type's width and signedness.
func evalSad(in *isa.Inst, a, b, c uint64) uint64 {
	w := in.Type.Bits()
	var d uint64
	if in.Type.Signed() {
		x, y := sext(a, w), sext(b, w)
		if x > y {
			d = uint64(x - y)
		} else {
			d = uint64(y - x)
		}
	} else {
		x, y := a&mask(w), b&mask(w)
		if x > y {
			d = x - y
		} else {
			d = y - x
		}
	}
	return (d + c) & mask(w)
}

// evalBfind is bfind: the bit position of the most significant non-sign
// bit (0xffffffff when there is none); .shiftamt returns the left shift
// that would normalize the value instead.
func evalBfind(in *isa.Inst, a uint64) uint64 {
	w := in.Type.Bits()
	x := a & mask(w)
	if in.Type.Signed() && x>>(uint(w)-1) != 0 {
		x = ^x & mask(w)
	}
	if x == 0 {
		return 0xffffffff
	}
	pos := uint64(63 - bits.LeadingZeros64(x))
	if in.Mods&isa.ModBfindShiftAmt != 0 {
		return uint64(w-1) - pos
	}
	return pos
}
