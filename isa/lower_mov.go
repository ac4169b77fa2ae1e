// Lowering mov and the special-register reads.

package isa

import (
	"strings"
)

func (st *fnState) lowerMov(in *Instr, ms modSet, mi minst) {
	if !st.wantOperands(in, 2, 2) {
		return
	}
	if !st.checkNoMods(in, ms, "v2", "v4") {
		return
	}
	vec := 0
	for _, m := range ms.rest {
		vec = int(m[1] - '0') // the last of .v2 and .v4
	}
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	d, s := in.Operands[0], in.Operands[1]
	// Special registers.
	if ro, ok := s.(*RegOperand); ok && st.sc.lookup(ro.Name) == nil {
		st.lowerSRegRead(in, mi, t, vec, d, ro)
		return
	}
	if vec > 0 {
		st.lowerMovVec(in, mi, t, vec, d, s)
		return
	}
	// Pack {a, b} -> d, or unpack s -> {lo, hi}.
	vo, pack := s.(*VecOperand)
	if !pack {
		vo, _ = d.(*VecOperand)
	}
	if vo != nil {
		st.lowerMovPack(in, mi, t, d, s, vo, pack)
		return
	}
	// Address of a frame variable or local: FP + offset.
	if so, ok := s.(*SymOperand); ok {
		if off, out, ok := st.frameOffset(so); ok {
			mi.in.Op, mi.in.Type, mi.in.A = OpADD, t, FPOp()
			if t.Bits() < 32 || t == Pred || t.Float() {
				st.a.errorf(in.Pos, "address of %s needs a .u32/.u64/.b32/.b64 mov", so.Name)
				return
			}
			if !st.dst(&mi, fDst, d, t, false) {
				return
			}
			st.setImm(&mi, 1, off)
			mi.outArea = out
			st.emit(mi)
			return
		}
	}
	mi.in.Op, mi.in.Type = OpMOV, t
	if !st.dst(&mi, fDst, d, t, false) || !st.src(&mi, 0, s, t) {
		return
	}
	st.emit(mi)
}

// lookupSReg resolves the special register full (ro's name and component)
// read by op (mov or cvt), or reports why it cannot be read so.
func (st *fnState) lookupSReg(ro *RegOperand, full, op string) (SReg, bool) {
	sr, ok := LookupSReg(full)
	switch {
	case !ok && strings.HasPrefix(full, "%"):
		st.a.errorf(ro.Pos, "undeclared register or unknown special register %s", full)
	case !ok:
		st.a.errorf(ro.Pos, "undeclared register %s", full)
	case sr == SRGlobalESR || sr == SRWarpESR:
		st.a.errorf(ro.Pos, "%s is read with S2R, not %s", full, op)
		ok = false
	}
	return sr, ok
}

// frameOffset returns the FP-relative offset of the variable so names when
// it lives in the thread's frame (a .local variable, or a .param variable
// of the function or of a call sequence), and whether it is an outgoing
// argument slot.
func (st *fnState) frameOffset(so *SymOperand) (off uint64, out, ok bool) {
	e := st.sc.lookup(so.Name)
	switch {
	case e != nil && e.kind == entFrame:
		return uint64(e.off) + uint64(so.Offset), e.out, true
	case e != nil && e.kind == entMem && e.mem.space == SpaceLocal:
		return e.mem.addr + uint64(so.Offset), false, true
	}
	return 0, false, false
}

// lowerSRegRead lowers mov/cvt from a special register.
func (st *fnState) lowerSRegRead(in *Instr, mi minst, t Type, vec int, d Operand, ro *RegOperand) {
	full := ro.Name
	if ro.Comp != "" {
		full += "." + ro.Comp
	}
	if vec > 0 || (ro.Comp == "" && IsSRegVector(ro.Name)) {
		// Whole vector: %tid etc. into a .v4 register or a {a,b,c,d} list.
		if !IsSRegVector(ro.Name) {
			st.a.errorf(ro.Pos, "%s is not a vector special register", ro.Name)
			return
		}
		var dsts []Operand
		switch dv := d.(type) {
		case *VecOperand:
			dsts = dv.Elems
		case *RegOperand, *SymOperand:
			name, _, _ := identOf(dv)
			e := st.sc.lookup(name)
			if e == nil || e.kind != entVec {
				st.a.errorf(OperandPos(d), "%s needs a vector destination", ro.Name)
				return
			}
			for i := range e.comps {
				dsts = append(dsts, &RegOperand{Pos: OperandPos(d), Name: name, Comp: "xyzw"[i : i+1]})
			}
		default:
			st.a.errorf(OperandPos(d), "bad destination")
			return
		}
		if vec != 0 && len(dsts) != vec {
			st.a.errorf(OperandPos(d), "mov.v%d needs %d destinations, got %d", vec, vec, len(dsts))
			return
		}
		for i, dd := range dsts {
			m := mi
			m.uses = append([]rref(nil), mi.uses...)
			if i == 3 {
				m.in.Op, m.in.Type = OpMOV, t
				if !st.dst(&m, fDst, dd, t, false) {
					return
				}
				st.setImm(&m, 0, 0)
				st.emit(m)
				continue
			}
			sr, _ := LookupSReg(ro.Name + "." + "xyz"[i:i+1])
			m.in.Op, m.in.Type, m.in.Imm, m.immUsed = OpS2R, t, uint32(sr), true
			if !st.dst(&m, fDst, dd, t, false) {
				return
			}
			st.emit(m)
		}
		return
	}
	if ro.Comp == "w" && IsSRegVector(ro.Name) {
		mi.in.Op, mi.in.Type = OpMOV, t
		if st.dst(&mi, fDst, d, t, false) {
			st.setImm(&mi, 0, 0)
			st.emit(mi)
		}
		return
	}
	sr, ok := st.lookupSReg(ro, full, "mov")
	if !ok {
		return
	}
	if (sr.Type() == Pred) != (t == Pred) {
		st.a.errorf(in.Pos, "%s is .%s; mov.%s cannot read it", full, sr.Type(), t)
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Imm, mi.immUsed = OpS2R, t, uint32(sr), true
	if st.dst(&mi, fDst, d, t, false) {
		st.emit(mi)
	}
}

// vecElems lists the n elements of a vector operand: {a, b, ...} or a
// vector register's components.
func (st *fnState) vecElems(o Operand, n int) ([]Operand, bool) {
	if vo, ok := o.(*VecOperand); ok {
		if len(vo.Elems) != n {
			st.a.errorf(vo.Pos, "a .v%d operand needs %d elements, has %d", n, n, len(vo.Elems))
			return nil, false
		}
		return vo.Elems, true
	}
	name, pos, _ := identOf(o)
	e := st.sc.lookup(name)
	if ro, ok := o.(*RegOperand); !ok || ro.Comp != "" || e == nil || e.kind != entVec || len(e.comps) < n {
		st.a.errorf(pos, "a .v%d operand must be a vector register or {...} of %d elements", n, n)
		return nil, false
	}
	var out []Operand
	for i := 0; i < n; i++ {
		out = append(out, &RegOperand{Pos: pos, Name: name, Comp: "xyzw"[i : i+1]})
	}
	return out, true
}

// lowerMovVec lowers mov.v2/.v4 between vector registers and {...}
// operands as one MOV per element; when a destination element is also a
// source, the sources are first copied into fresh registers.
func (st *fnState) lowerMovVec(in *Instr, mi minst, t Type, n int, d, s Operand) {
	ds, ok := st.vecElems(d, n)
	if !ok {
		return
	}
	ss, ok := st.vecElems(s, n)
	if !ok {
		return
	}
	regName := func(o Operand) string {
		if ro, ok := o.(*RegOperand); ok {
			return ro.Name + "." + ro.Comp
		}
		return ""
	}
	dst := map[string]bool{}
	for _, o := range ds {
		dst[regName(o)] = true
	}
	overlap := false
	for _, o := range ss {
		if n := regName(o); n != "" && dst[n] {
			overlap = true
		}
	}
	mov := func(dv int, do Operand, so Operand, sv int) bool {
		m := mi
		m.uses = append([]rref(nil), mi.uses...)
		m.in.Op, m.in.Type = OpMOV, t
		switch {
		case dv >= 0:
			m.defs = append(m.defs, rref{dv, fDst})
		case !st.dst(&m, fDst, do, t, false):
			return false
		}
		switch {
		case sv >= 0:
			m.in.A = RegOp(0)
			m.uses = append(m.uses, rref{sv, fA})
		case !st.src(&m, 0, so, t):
			return false
		}
		m.in.B, m.in.C = ZeroOp(), ZeroOp()
		st.emit(m)
		return true
	}
	tmp := make([]int, n)
	for i := range tmp {
		tmp[i] = -1
		if overlap {
			tmp[i] = st.newVreg("mov.v", t, in.Pos)
			if !mov(tmp[i], nil, ss[i], -1) {
				return
			}
		}
	}
	for i := range ds {
		if !mov(-1, ds[i], ss[i], tmp[i]) {
			return
		}
	}
}

// lowerMovPack lowers mov d, {a, b} (pack) and mov {lo, hi}, s (unpack):
// vo is the vector operand, two elements of half t's width.
func (st *fnState) lowerMovPack(in *Instr, mi minst, t Type, d, s Operand, vo *VecOperand, pack bool) {
	if len(vo.Elems) != 2 || t.Bits() < 16 {
		what := map[bool]string{true: "packing", false: "unpacking into"}[pack]
		st.a.errorf(vo.Pos, "unsupported: mov %s %d elements", what, len(vo.Elems))
		return
	}
	half := t.Half()
	mi.in.Op, mi.in.Type = OpMOV, t
	var ok bool
	if pack {
		mi.in.Mods = ModMovPack
		ok = st.dst(&mi, fDst, d, t, false) && st.src(&mi, 0, vo.Elems[0], half) && st.src(&mi, 1, vo.Elems[1], half)
	} else {
		mi.in.Mods = ModMovUnpack
		ok = st.dst(&mi, fDst, vo.Elems[0], half, false) && st.dst(&mi, fDst2, vo.Elems[1], half, false) && st.src(&mi, 0, s, t)
	}
	if ok {
		st.emit(mi)
	}
}
