package pipeline

import "github.com/smsim/smsim/isa"

// vop is a whole-warp fast path for the hottest plain 32-bit integer
// instructions: one loop over the lanes instead of a call per lane.
// vecOf picks them at decode time; TestVecMatchesALU checks every one
// against package alu, which stays the reference.
type vop uint8

const (
	vNone vop = iota
	vMov
	vAdd
	vSub
	vMul
	vMad
	vAnd
	vOr
	vXor
	vShl
	vShrU
	vShrS
	vSetp // 32-bit integer compare into a predicate
)

// rowsOf reports whether the fast path of d can read its sources in
// place, as 32-bit register rows: each is a 32-bit register or a constant
// (which gets a row of its own, filled once).
func rowsOf(d *dinst) bool {
	if d.vop == vNone {
		return false
	}
	for _, o := range []*opnd{&d.a, &d.b, &d.c}[:d.nsrc] {
		switch o.kind {
		case opReg32:
		case opConst:
			o.row = new([32]uint32)
			for l := range o.row {
				o.row[l] = uint32(o.val)
			}
		default:
			return false
		}
	}
	return true
}

// row returns a rows operand's lanes: its register's row, or its
// constant's.
func (w *warp) row(o *opnd) *[32]uint32 {
	if o.kind == opReg32 {
		return (*[32]uint32)(w.regs[int(o.reg)<<5:])
	}
	return o.row
}

// vecOf returns the fast path of a decoded ALU instruction, or vNone.
func vecOf(d *dinst) vop {
	in := &d.in
	t := in.Type
	if t != isa.B32 && t != isa.U32 && t != isa.S32 {
		return vNone
	}
	if in.Op == isa.OpSETP {
		cmp := int(in.Mods & isa.ModCmpMask)
		if in.Mods&^isa.ModCmpMask != 0 || cmp > isa.CmpHS || d.d1.kind != dPred {
			return vNone
		}
		return vSetp
	}
	if in.Mods != 0 || d.d1.kind != dReg32 || d.d2.kind != dNone {
		return vNone
	}
	switch in.Op {
	case isa.OpMOV:
		return vMov
	case isa.OpADD:
		return vAdd
	case isa.OpSUB:
		return vSub
	case isa.OpMUL:
		return vMul
	case isa.OpMAD:
		return vMad
	case isa.OpAND:
		return vAnd
	case isa.OpOR:
		return vOr
	case isa.OpXOR:
		return vXor
	case isa.OpSHL:
		return vShl
	case isa.OpSHR:
		if t == isa.S32 {
			return vShrS
		}
		return vShrU
	}
	return vNone
}

// vec32 computes a 32-bit fast-path result for every lane. Every result
// depends on the low 32 bits of each operand only, so operands may come
// widened ([32]uint64) or as register rows ([32]uint32) with the same
// results.
func vec32[T uint32 | uint64](op vop, a, b, c *[32]T, r *[32]uint32) {
	switch op {
	case vMov:
		for l := range r {
			r[l] = uint32(a[l])
		}
	case vAdd:
		for l := range r {
			r[l] = uint32(a[l] + b[l])
		}
	case vSub:
		for l := range r {
			r[l] = uint32(a[l] - b[l])
		}
	case vMul:
		for l := range r {
			r[l] = uint32(a[l]) * uint32(b[l])
		}
	case vMad:
		for l := range r {
			r[l] = uint32(a[l])*uint32(b[l]) + uint32(c[l])
		}
	case vAnd:
		for l := range r {
			r[l] = uint32(a[l] & b[l])
		}
	case vOr:
		for l := range r {
			r[l] = uint32(a[l] | b[l])
		}
	case vXor:
		for l := range r {
			r[l] = uint32(a[l] ^ b[l])
		}
	case vShl:
		for l := range r {
			if s := uint32(b[l]); s < 32 {
				r[l] = uint32(a[l]) << s
			} else {
				r[l] = 0
			}
		}
	case vShrU:
		for l := range r {
			if s := uint32(b[l]); s < 32 {
				r[l] = uint32(a[l]) >> s
			} else {
				r[l] = 0
			}
		}
	case vShrS:
		for l := range r {
			s := uint32(b[l])
			if s > 31 {
				s = 31
			}
			r[l] = uint32(int32(uint32(a[l])) >> s)
		}
	}
}

// vecSetp compares every lane (32-bit integers) and returns the lane mask
// of true results.
func vecSetp[T uint32 | uint64](cmp int, signed bool, a, b *[32]T) uint32 {
	if signed && cmp <= isa.CmpGE {
		return setpLanes[T, int32](cmp, a, b)
	}
	return setpLanes[T, uint32](cmp, a, b)
}

// setpLanes is vecSetp with the lanes' low 32 bits read as C (the
// unsigned orderings LO, LS, HI and HS are those of uint32).
func setpLanes[T uint32 | uint64, C int32 | uint32](cmp int, a, b *[32]T) uint32 {
	var m uint32
	for l := 0; l < 32; l++ {
		x, y := C(uint32(a[l])), C(uint32(b[l]))
		var p bool
		switch cmp {
		case isa.CmpEQ:
			p = x == y
		case isa.CmpNE:
			p = x != y
		case isa.CmpLT, isa.CmpLO:
			p = x < y
		case isa.CmpLE, isa.CmpLS:
			p = x <= y
		case isa.CmpGT, isa.CmpHI:
			p = x > y
		default:
			p = x >= y
		}
		if p {
			m |= 1 << uint(l)
		}
	}
	return m
}
