package alu

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

func evalBits(in *isa.Inst, a, b, c, d uint64) uint64 {
	w := in.Type.Bits()
	m := mask(w)
	switch in.Op {
	case isa.OpPOPC:
		return uint64(bits.OnesCount64(a & m))
	case isa.OpCLZ:
		return uint64(w - bits.Len64(a&m))
	case isa.OpBREV:
		return bits.Reverse64(a) >> uint(64-w)
	case isa.OpBFE:
		return bfe(a, b, c, w, in.Type.Signed())
	case isa.OpBFI:
		return bfi(a, b, c, d, w)
	case isa.OpPRMT:
		return uint64(prmt(uint32(a), uint32(b), uint32(c), int(in.Mods&7)))
	}
	return 0
}

// bfe extracts len = c&0xff bits of a starting at pos = b&0xff (PTX bfe):
// bits beyond the msb read as the sign bit (signed types) or zero; the
// result is sign- or zero-extended from the last extracted bit. A zero
// length gives zero.
func bfe(a, pos, ln uint64, w int, signed bool) uint64 {
	m := mask(w)
	a &= m
	pos &= 0xff
	ln &= 0xff
	msb := uint64(w - 1)
	var sbit uint64
	if signed && ln != 0 {
		i := pos + ln - 1
		if i > msb {
			i = msb
		}
		sbit = a >> i & 1
	}
	var k uint64 // bits actually extracted
	if pos <= msb {
		k = min(ln, msb-pos+1)
	}
	var field uint64
	if k > 0 {
		field = a >> pos & mask(int(k))
	}
	if sbit != 0 {
		if k < 64 {
			field |= ^uint64(0) << k
		}
	}
	return field & m
}

// bfi inserts the low len = ln&0xff bits of f into base at pos = pos&0xff
// (PTX bfi); bits that would land beyond the msb are dropped.
func bfi(f, base, pos, ln uint64, w int) uint64 {
	m := mask(w)
	pos &= 0xff
	ln &= 0xff
	msb := uint64(w - 1)
	if pos > msb || ln == 0 {
		return base & m
	}
	k := min(ln, msb-pos+1)
	fm := mask(int(k)) << pos
	return (base&^fm | f<<pos&fm) & m
}

// prmt is PTX prmt.b32 with mode 0 (generic) .. 6 (rc16).
func prmt(a, b, c uint32, mode int) uint32 {
	src := uint64(b)<<32 | uint64(a)
	n := c & 3
	var out uint32
	for i := uint32(0); i < 4; i++ {
		var sel uint32
		switch mode {
		case isa.PrmtDefault:
			sel = c >> (4 * i) & 0xf
		case isa.PrmtF4E:
			sel = (n + i) & 7
		case isa.PrmtB4E:
			sel = (n + 8 - i) & 7
		case isa.PrmtRC8:
			sel = n
		case isa.PrmtECL:
			sel = max(i, n)
		case isa.PrmtECR:
			sel = min(i, n)
		case isa.PrmtRC16:
			sel = (n&1)*2 + i&1
		}
		v := uint32(src>>(8*(sel&7))) & 0xff
		if sel&8 != 0 { // sign replicate (generic form only)
			if v&0x80 != 0 {
				v = 0xff
			} else {
				v = 0
			}
		}
		out |= v << (8 * i)
	}
	return out
}
