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
	vShlK  // vShl by a constant: every lane's B is B[0]
	vShrUK // vShrU by a constant
	vShrSK // vShrS by a constant
	vSetp  // 32-bit integer compare into a predicate
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
		return shiftVop(d, vShl)
	case isa.OpSHR:
		if t == isa.S32 {
			return shiftVop(d, vShrS)
		}
		return shiftVop(d, vShrU)
	}
	return vNone
}

// shiftVop returns the shift v, or its by-a-constant form when d's shift
// amount is an immediate.
func shiftVop(d *dinst, v vop) vop {
	if d.b.kind != opConst {
		return v
	}
	return v + vShlK - vShl
}

// vec32 computes a 32-bit fast-path result for every lane. Every result
// depends on the low 32 bits of each operand only, so operands may come
// widened ([32]uint64) or as register rows ([32]uint32) with the same
// results. Lane l of r depends on lane l of the sources alone, so r may be
// one of them.
func vec32[T uint32 | uint64](op vop, a, b, c *[32]T, r *[32]uint32) {
	// The loops index slices of the rows (indexing through the array
	// pointers would repeat their nil checks in every lane) and do four
	// lanes a step (one lane a step spends more on the loop than on the
	// lane). The slices' constant length lets the compiler drop the bounds
	// checks.
	x, y, z, d := a[:], b[:], c[:], r[:]
	switch op {
	case vMov:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]), uint32(x[l+1]), uint32(x[l+2]), uint32(x[l+3])
		}
	case vAdd:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]+y[l]), uint32(x[l+1]+y[l+1]), uint32(x[l+2]+y[l+2]), uint32(x[l+3]+y[l+3])
		}
	case vSub:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]-y[l]), uint32(x[l+1]-y[l+1]), uint32(x[l+2]-y[l+2]), uint32(x[l+3]-y[l+3])
		}
	case vMul:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]*y[l]), uint32(x[l+1]*y[l+1]), uint32(x[l+2]*y[l+2]), uint32(x[l+3]*y[l+3])
		}
	case vMad:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]*y[l]+z[l]), uint32(x[l+1]*y[l+1]+z[l+1]), uint32(x[l+2]*y[l+2]+z[l+2]), uint32(x[l+3]*y[l+3]+z[l+3])
		}
	case vAnd:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]&y[l]), uint32(x[l+1]&y[l+1]), uint32(x[l+2]&y[l+2]), uint32(x[l+3]&y[l+3])
		}
	case vOr:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]|y[l]), uint32(x[l+1]|y[l+1]), uint32(x[l+2]|y[l+2]), uint32(x[l+3]|y[l+3])
		}
	case vXor:
		for l := 0; l < 32; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l]^y[l]), uint32(x[l+1]^y[l+1]), uint32(x[l+2]^y[l+2]), uint32(x[l+3]^y[l+3])
		}
	case vShl, vShrU, vShrS:
		for l := range d {
			d[l] = shift32(op, uint32(x[l]), uint32(y[l]))
		}
	case vShlK, vShrUK, vShrSK:
		// B is the same in every lane.
		s := uint32(y[0])
		switch {
		case op == vShrSK:
			s = min(s, 31)
			for l := 0; l < 32; l += 4 {
				d[l], d[l+1], d[l+2], d[l+3] = uint32(int32(x[l])>>s), uint32(int32(x[l+1])>>s), uint32(int32(x[l+2])>>s), uint32(int32(x[l+3])>>s)
			}
		case s > 31:
			clear(d)
		case op == vShlK:
			for l := 0; l < 32; l += 4 {
				d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l])<<s, uint32(x[l+1])<<s, uint32(x[l+2])<<s, uint32(x[l+3])<<s
			}
		default:
			for l := 0; l < 32; l += 4 {
				d[l], d[l+1], d[l+2], d[l+3] = uint32(x[l])>>s, uint32(x[l+1])>>s, uint32(x[l+2])>>s, uint32(x[l+3])>>s
			}
		}
	}
}

// shift32 is a 32-bit shift as PTX defines it: amounts over 31 give 0, or
// the sign for an arithmetic right shift.
func shift32(op vop, x, s uint32) uint32 {
	switch op {
	case vShl, vShlK:
		if s > 31 {
			return 0
		}
		return x << s
	case vShrU, vShrUK:
		if s > 31 {
			return 0
		}
		return x >> s
	}
	return uint32(int32(x) >> min(s, 31))
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
// unsigned orderings LO, LS, HI and HS are those of uint32). One loop per
// comparison, over slices, keeps the lane loop free of the switch; each
// goes from lane 31 down, shifting the mask left one lane a step.
func setpLanes[T uint32 | uint64, C int32 | uint32](cmp int, a, b *[32]T) uint32 {
	var m uint32
	x, y := a[:], b[:]
	switch cmp {
	case isa.CmpEQ:
		for l := 31; l >= 0; l-- {
			m = m<<1 | bit(C(uint32(x[l])) == C(uint32(y[l])))
		}
	case isa.CmpNE:
		for l := 31; l >= 0; l-- {
			m = m<<1 | bit(C(uint32(x[l])) != C(uint32(y[l])))
		}
	case isa.CmpLT, isa.CmpLO:
		for l := 31; l >= 0; l-- {
			m = m<<1 | bit(C(uint32(x[l])) < C(uint32(y[l])))
		}
	case isa.CmpLE, isa.CmpLS:
		for l := 31; l >= 0; l-- {
			m = m<<1 | bit(C(uint32(x[l])) <= C(uint32(y[l])))
		}
	case isa.CmpGT, isa.CmpHI:
		for l := 31; l >= 0; l-- {
			m = m<<1 | bit(C(uint32(x[l])) > C(uint32(y[l])))
		}
	default:
		for l := 31; l >= 0; l-- {
			m = m<<1 | bit(C(uint32(x[l])) >= C(uint32(y[l])))
		}
	}
	return m
}

// bit is 1 when p holds, else 0.
func bit(p bool) uint32 {
	if p {
		return 1
	}
	return 0
}
