// Lowering operands: registers, immediates, symbols, guards and destinations.

package isa

import (
	"fmt"
	"strings"
)

func (st *fnState) guard(mi *minst, g *RegOperand) {
	if g == nil {
		return
	}
	v, ok := st.predReg(g)
	if !ok {
		return
	}
	mi.in.GuardOn = true
	mi.in.GuardNeg = g.Neg
	mi.uses = append(mi.uses, rref{v, fGuard})
}

// predReg resolves a predicate register operand.
func (st *fnState) predReg(g *RegOperand) (int, bool) {
	e := st.sc.lookup(g.Name)
	if e == nil || e.kind != entReg {
		if sr, ok := LookupSReg(g.Name); ok && sr == SRIsExplicitCluster {
			st.a.errorf(g.Pos, "special register %s can only be read with mov", g.Name)
			return 0, false
		}
		st.a.errorf(g.Pos, "undeclared predicate %s", g.Name)
		return 0, false
	}
	if st.vregs[e.v].class != classPred {
		st.a.errorf(g.Pos, "%s is not a predicate (declared .%s)", g.Name, st.vregs[e.v].typ)
		return 0, false
	}
	return e.v, true
}

// ---- operand helpers -------------------------------------------------

func identOf(o Operand) (string, Pos, bool) {
	switch o := o.(type) {
	case *RegOperand:
		if o.Comp != "" || o.HasOffset {
			return "", o.Pos, false
		}
		return o.Name, o.Pos, true
	case *SymOperand:
		if o.Offset != 0 {
			return "", o.Pos, false
		}
		return o.Name, o.Pos, true
	}
	return "", OperandPos(o), false
}

// regOf resolves an operand naming a register (scalar, or a vector
// component "%rx.y") and checks it against type t.
func (st *fnState) regOf(o Operand, t Type, wide bool) (int, bool) {
	var name, comp string
	var pos Pos
	switch o := o.(type) {
	case *RegOperand:
		if o.HasOffset {
			st.a.errorf(o.Pos, "unsupported: register-plus-offset operand %s%+d", o.Name, o.Offset)
			return 0, false
		}
		name, comp, pos = o.Name, o.Comp, o.Pos
	case *SymOperand:
		if o.Offset != 0 {
			st.a.errorf(o.Pos, "unsupported: %s%+d as a register operand", o.Name, o.Offset)
			return 0, false
		}
		name, pos = o.Name, o.Pos
	default:
		st.a.errorf(OperandPos(o), "expected a register")
		return 0, false
	}
	e := st.sc.lookup(name)
	if e == nil {
		if _, ok := LookupSReg(name); ok || IsSRegVector(name) || strings.HasPrefix(name, "SR_") {
			st.a.errorf(pos, "special register %s can only be read with mov or cvt", name)
		} else if _, ok := st.labels[name]; ok {
			st.a.errorf(pos, "label %s used as a register", name)
		} else {
			st.a.errorf(pos, "undeclared register %s", name)
		}
		return 0, false
	}
	v := -1
	switch e.kind {
	case entReg:
		if comp != "" {
			st.a.errorf(pos, "%s is not a vector register", name)
			return 0, false
		}
		v = e.v
	case entVec:
		i := strings.IndexAny(comp, "xyzwrgba")
		if comp == "" || len(comp) != 1 || i < 0 {
			st.a.errorf(pos, "vector register %s used without a component", name)
			return 0, false
		}
		idx := strings.Index("xyzw", comp)
		if idx < 0 {
			idx = strings.Index("rgba", comp)
		}
		if idx >= len(e.comps) {
			st.a.errorf(pos, "%s has no component .%s", name, comp)
			return 0, false
		}
		v = e.comps[idx]
	default:
		st.a.errorf(pos, "%s is not a register", name)
		return 0, false
	}
	vi := st.vregs[v]
	if t == Pred {
		if vi.class != classPred {
			st.a.errorf(pos, "%s is .%s, a predicate is needed", name, vi.typ)
			return 0, false
		}
		return v, true
	}
	if vi.class == classPred {
		st.a.errorf(pos, "predicate %s used where a .%s value is needed", name, t)
		return 0, false
	}
	need := t.Bits() > 32
	have := vi.class == classGPR2
	if need && !have {
		st.a.errorf(pos, "%s is .%s (32 bits or less) but the instruction needs a 64-bit register", name, vi.typ)
		return 0, false
	}
	if have && !need && !wide {
		st.a.errorf(pos, "%s is .%s (64 bits) but the instruction works on .%s", name, vi.typ, t)
		return 0, false
	}
	return v, true
}

// emitOps lowers in's operands as dstSrcs does, sets the source slots
// beyond srcs to zero and emits mi; nothing is emitted after an error.
func (st *fnState) emitOps(mi minst, in *Instr, d Type, srcs ...Type) {
	if !st.dstSrcs(&mi, in, d, srcs...) {
		return
	}
	for slot := len(srcs); slot < 3; slot++ {
		*mi.in.srcSlot(slot) = ZeroOp()
	}
	st.emit(mi)
}

// emitOptC emits mi with source C, of type t, read from c, or zero when the
// optional operand c is absent (nil).
func (st *fnState) emitOptC(mi minst, c Operand, t Type) {
	if c == nil {
		mi.in.C = ZeroOp()
	} else if !st.src(&mi, 2, c, t) {
		return
	}
	st.emit(mi)
}

// soleIntImm checks that in has one operand, an integer immediate, and
// returns it; otherwise it reports (msg for a wrong kind of operand) and
// gives false.
func (st *fnState) soleIntImm(in *Instr, msg string) (*ImmOperand, bool) {
	if !st.wantOperands(in, 1, 1) {
		return nil, false
	}
	im, ok := in.Operands[0].(*ImmOperand)
	if !ok || im.Float {
		st.a.errorf(OperandPos(in.Operands[0]), "%s", msg)
		return nil, false
	}
	return im, true
}

// srcSlot is the operand field of source slot (0=A, 1=B, 2=C).
func (in *Inst) srcSlot(slot int) *Operand12 {
	switch slot {
	case 1:
		return &in.B
	case 2:
		return &in.C
	}
	return &in.A
}

// setImm stores an immediate for slot (0=A,1=B,2=C): the Imm field when free
// and representable, else the constant table.
func (st *fnState) setImm(mi *minst, slot int, v uint64) {
	op := mi.in.srcSlot(slot)
	if !mi.immUsed && uint64(int64(int32(uint32(v)))) == v {
		*op = ImmOp()
		mi.in.Imm = uint32(v)
		mi.immUsed = true
		mi.immSlot = slot
		return
	}
	*op = ConstOp(st.a.constIndex(v, mi.pos))
}

// src resolves a source operand of type t into slot (0..2).
func (st *fnState) src(mi *minst, slot int, o Operand, t Type) bool {
	field := uint8(fA + slot)
	op := mi.in.srcSlot(slot)
	switch o := o.(type) {
	case *ImmOperand:
		if t == Pred {
			// 0 is false; any other integer is true: 1, -1 (all ones:
			// how clang-16 writes "true", mov.pred %p, -1), and the
			// others ptxas accepts (setp.eq.and.u32 p, a, b, 2 in the
			// zluda corpus).
			if o.Float {
				st.a.errorf(o.Pos, "a predicate immediate must be an integer")
				return false
			}
			st.setImm(mi, slot, b2u64(o.Int != 0))
			return true
		}
		bits, err := immBits(o, t)
		if err != nil {
			st.a.errorf(o.Pos, "%v", err)
			return false
		}
		// Sign-extend signed immediates so the 32-bit Imm field carries them.
		if t.Signed() || (!t.Float() && o.Int < 0) {
			if b := t.Bits(); b < 64 {
				bits = uint64(int64(bits<<(64-uint(b))) >> (64 - uint(b)))
			}
		}
		st.setImm(mi, slot, bits)
		return true
	case *RegOperand, *SymOperand:
		if so, ok := o.(*SymOperand); ok && so.Name == "WARP_SZ" && st.sc.lookup(so.Name) == nil {
			// PTX's predefined constant: the warp size, 32.
			return st.src(mi, slot, &ImmOperand{Pos: so.Pos, Text: so.Name, Int: 32 + so.Offset}, t)
		}
		if so, ok := o.(*SymOperand); ok {
			// Symbol address as a value: variable or function.
			if e := st.sc.lookup(so.Name); e == nil || so.Offset != 0 {
				if _, ok := st.symAddr(mi, so, slot); ok {
					return true
				}
				if e == nil {
					return false
				}
			}
		}
		if ro, ok := o.(*RegOperand); ok && ro.HasOffset && !ro.Neg {
			return st.srcRegPlusImm(mi, op, field, ro, t)
		}
		if ro, ok := o.(*RegOperand); ok && ro.Neg {
			if t != Pred {
				st.a.errorf(ro.Pos, "negation !%s is only allowed on predicates", ro.Name)
				return false
			}
		}
		if so, ok := o.(*SymOperand); ok {
			if e := st.sc.lookup(so.Name); e != nil && e.kind != entReg && e.kind != entVec {
				_, ok := st.symAddr(mi, so, slot)
				return ok
			}
		}
		v, ok := st.regOf(o, t, false)
		if !ok {
			return false
		}
		if t == Pred {
			neg := false
			if ro, ok := o.(*RegOperand); ok {
				neg = ro.Neg
			}
			*op = PredOp(0, neg)
		} else {
			*op = RegOp(0)
		}
		mi.uses = append(mi.uses, rref{v, field})
		return true
	case *VecOperand:
		st.a.errorf(o.Pos, "unsupported: vector operand here")
	case *AddrOperand:
		st.a.errorf(o.Pos, "memory operand not allowed here")
	default:
		st.a.errorf(OperandPos(o), "bad operand")
	}
	return false
}

// symAddr materializes the address of a variable or function symbol as an
// immediate value in slot, or (for frame variables) reports that it needs FP.
func (st *fnState) symAddr(mi *minst, so *SymOperand, slot int) (uint64, bool) {
	if e := st.sc.lookup(so.Name); e != nil {
		switch e.kind {
		case entMem:
			if e.mem.space == SpaceLocal {
				st.a.errorf(so.Pos, "the address of local variable %s must be taken with mov", so.Name)
				return 0, false
			}
			if e.mem.dynamic {
				mi.dynShared = true
				mi.dynSlot = slot
			}
			v := e.mem.addr + uint64(so.Offset)
			st.setImm(mi, slot, v)
			return v, true
		case entKParam:
			v := uint64(e.off) + uint64(so.Offset)
			st.setImm(mi, slot, v)
			return v, true
		case entFrame:
			st.a.errorf(so.Pos, "the address of parameter %s must be taken with mov", so.Name)
			return 0, false
		}
		return 0, false
	}
	if vs, ok := st.a.vars[so.Name]; ok {
		if vs.dynamic {
			mi.dynShared = true
			mi.dynSlot = slot
		}
		v := vs.addr + uint64(so.Offset)
		st.setImm(mi, slot, v)
		return v, true
	}
	if _, ok := st.a.funcs[so.Name]; ok {
		mi.reloc = relocFunc
		mi.fn = so.Name
		mi.addend = so.Offset
		mi.immSlot = slot
		st.setImm(mi, slot, uint64(FuncAddrBase)) // placeholder slot; link fixes value
		st.callees[so.Name] = true
		return 0, true
	}
	if _, ok := st.labels[so.Name]; ok {
		st.a.errorf(so.Pos, "label %s used as a value", so.Name)
		return 0, false
	}
	if strings.HasPrefix(so.Name, "%") || isSRegName(so.Name) {
		st.a.errorf(so.Pos, "special register %s can only be read with mov or cvt", so.Name)
		return 0, false
	}
	st.a.errorf(so.Pos, "undeclared identifier %s", so.Name)
	return 0, false
}

func isSRegName(n string) bool {
	_, ok := LookupSReg(n)
	return ok
}

// dstSrcs lowers operand 0 of in as the destination, of type d, and
// operands 1, 2, ... as sources A, B, ... of the types srcs; false after the
// first error.
func (st *fnState) dstSrcs(mi *minst, in *Instr, d Type, srcs ...Type) bool {
	if !st.dst(mi, fDst, in.Operands[0], d, false) {
		return false
	}
	for i, t := range srcs {
		if !st.src(mi, i, in.Operands[i+1], t) {
			return false
		}
	}
	return true
}

// dst resolves a destination register into field.
func (st *fnState) dst(mi *minst, field uint8, o Operand, t Type, wide bool) bool {
	if s, ok := o.(*SymOperand); ok && s.Name == "_" {
		v := st.newVreg("_", t, s.Pos)
		mi.defs = append(mi.defs, rref{v, field})
		return true
	}
	if ro, ok := o.(*RegOperand); ok && ro.Neg {
		st.a.errorf(ro.Pos, "a destination cannot be negated")
		return false
	}
	v, ok := st.regOf(o, t, wide)
	if !ok {
		return false
	}
	mi.defs = append(mi.defs, rref{v, field})
	return true
}

// srcWide is src, but allows a register wider than t.
func (st *fnState) srcWide(mi *minst, slot int, o Operand, t Type) bool {
	if ro, ok := o.(*RegOperand); ok && !ro.Neg {
		if e := st.sc.lookup(ro.Name); e != nil && (e.kind == entReg || e.kind == entVec) {
			v, ok := st.regOf(o, t, true)
			if !ok {
				return false
			}
			// Slot 2 is the second element of a vector store: in C, so
			// that A keeps the address's base (FP or RZ for a named
			// address).
			*mi.in.srcSlot(slot) = RegOp(0)
			mi.uses = append(mi.uses, rref{v, uint8(fA + slot)})
			return true
		}
	}
	return st.src(mi, slot, o, t)
}

// srcAsField reads a register source through a destination field (BFI
// length in Dst2, a vector store's third and fourth elements); with wide
// the register may be wider than t.
func (st *fnState) srcAsField(mi *minst, field uint8, o Operand, t Type, wide bool) bool {
	v, ok := st.regOf(o, t, wide)
	if !ok {
		return false
	}
	mi.uses = append(mi.uses, rref{v, field})
	return true
}

// lookupGPR2 returns the virtual register an operand names when it is a
// 64-bit register.
func (st *fnState) lookupGPR2(o Operand) (int, bool) {
	ro, ok := o.(*RegOperand)
	if !ok || ro.Comp != "" || ro.Neg || ro.HasOffset {
		return 0, false
	}
	e := st.sc.lookup(ro.Name)
	if e == nil || e.kind != entReg || st.vregs[e.v].class != classGPR2 {
		return 0, false
	}
	return e.v, true
}

// srcRegPlusImm reads %r+imm, a register plus a constant, as a value
// operand (the PTX ISA allows it where a register is read; the zluda
// corpus has add.u32 %r0, %r1+1, %r2+-1): an ADD of the constant into a
// fresh register before the instruction, which reads that register.
func (st *fnState) srcRegPlusImm(mi *minst, op *Operand12, field uint8, ro *RegOperand, t Type) bool {
	if t == Pred || t.Float() {
		st.a.errorf(ro.Pos, "unsupported: register-plus-offset operand %s%+d of type .%s", ro.Name, ro.Offset, t)
		return false
	}
	base := *ro
	base.HasOffset, base.Offset = false, 0
	add := minst{pos: mi.pos}
	add.in.Op, add.in.Type = OpADD, t
	if !st.src(&add, 0, &base, t) {
		return false
	}
	st.setImm(&add, 1, uint64(ro.Offset))
	add.in.C = ZeroOp()
	v := st.newVreg(fmt.Sprintf("%s%+d", ro.Name, ro.Offset), t, ro.Pos)
	add.defs = append(add.defs, rref{v, fDst})
	st.emit(add)
	*op = RegOp(0)
	mi.uses = append(mi.uses, rref{v, field})
	return true
}

func b2u64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
