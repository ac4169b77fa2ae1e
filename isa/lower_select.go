// Lowering set, slct and cnot (a SETP into a fresh predicate, then a
// SELP), and the cache and grid hints the model has nothing to do for
// (prefetch, prefetchu, discard, applypriority, griddepcontrol,
// createpolicy).

package isa

import "fmt"

// hiddenPred declares a fresh predicate under a name no PTX source can
// write and returns the name and its register.
func (st *fnState) hiddenPred(pos Pos) (string, int) { return st.hiddenReg(pos, Pred) }

// hiddenReg is hiddenPred for a register of type t.
func (st *fnState) hiddenReg(pos Pos, t Type) (string, int) {
	v := st.newVreg("", t, pos)
	name := fmt.Sprintf("%%%s tmp %d", t, v)
	st.vregs[v].name = name
	st.sc.names[name] = &entity{kind: entReg, v: v, typ: t, pos: pos}
	return name, v
}

// lowerIsspacep lowers isspacep.space p, a (a generic address): shared
// and local test a's window, global is neither window, const and param
// are false (no generic address of the model points into them).
func (st *fnState) lowerIsspacep(in *Instr, ms modSet, mi minst) {
	if len(ms.types) != 0 || len(ms.rest) != 1 || !st.wantOperands(in, 2, 2) {
		st.a.errorf(in.Pos, "isspacep needs a state space and two operands")
		return
	}
	sp := ms.rest[0]
	reg := func(n string) Operand { return &RegOperand{Pos: in.Pos, Name: n} }
	imm := func(v uint64) Operand { return &ImmOperand{Pos: in.Pos, Int: int64(v)} }
	emit := func(op string, mods []string, ops ...Operand) bool {
		i := &Instr{Pos: in.Pos, Op: op, Mods: mods, Operands: ops}
		m := mi
		m.uses = append([]rref(nil), mi.uses...)
		n := len(st.code)
		st.instrLowered(i, m)
		return len(st.code) > n
	}
	inWindow := func(win uint64, cmp string, dst Operand, c Operand) bool {
		tmp, _ := st.hiddenReg(in.Pos, U64)
		if !emit("sub", []string{"u64"}, reg(tmp), in.Operands[1], imm(win)) {
			return false
		}
		if c == nil {
			return emit("setp", []string{cmp, "u64"}, dst, reg(tmp), imm(WindowSize))
		}
		return emit("setp", []string{cmp, "and", "u64"}, dst, reg(tmp), imm(WindowSize), c)
	}
	switch sp {
	case "shared", "shared::cta", "shared::cluster":
		inWindow(SharedWindow, "lo", in.Operands[0], nil)
	case "local":
		inWindow(LocalWindow, "lo", in.Operands[0], nil)
	case "global":
		q, _ := st.hiddenPred(in.Pos)
		if inWindow(SharedWindow, "hs", reg(q), nil) {
			inWindow(LocalWindow, "hs", in.Operands[0], reg(q))
		}
	case "const", "param", "param::entry":
		emit("mov", []string{"pred"}, in.Operands[0], imm(0))
	default: // not PTX (PTX ISA 9.7.9.19)
		st.a.errorf(in.Pos, "isspacep.%s is not PTX (the spaces are .const, .global, .local, .shared{::cta,::cluster}, .param{::entry})", sp)
	}
}

// selpFromPred emits SELP.t d, a, b, p (p the hidden predicate v).
func (st *fnState) selpFromPred(in *Instr, mi minst, t Type, d, a, b Operand, v int) {
	m := mi
	m.uses = append([]rref(nil), mi.uses...)
	m.in.Op, m.in.Type = OpSELP, t
	if !st.dst(&m, fDst, d, t, false) || !st.src(&m, 0, a, t) || !st.src(&m, 1, b, t) {
		return
	}
	m.in.C = PredOp(0, false)
	m.uses = append(m.uses, rref{v, fC})
	st.emit(m)
}

// lowerSet lowers set.CmpOp{.BoolOp}{.ftz}.dtype.stype d, a, b{, c}
// (dtype u32, s32: all ones or 0; f32: 1.0 or 0.0).
func (st *fnState) lowerSet(in *Instr, ms modSet, mi minst) {
	if len(ms.types) != 2 {
		st.a.errorf(in.Pos, "set needs a destination and a source type")
		return
	}
	dt := ms.types[0]
	if dt != U32 && dt != S32 && dt != F32 {
		st.a.errorf(in.Pos, "unsupported: set.%s", dt)
		return
	}
	if !st.wantOperands(in, 3, 4) {
		return
	}
	name, v := st.hiddenPred(in.Pos)
	p := *in
	p.Op = "setp"
	p.Mods = dropFirst(in.Mods, dt.String()) // the destination type goes
	p.Operands = append([]Operand{&RegOperand{Pos: in.Pos, Name: name}}, in.Operands[1:]...)
	n := len(st.code)
	st.lowerSetp(&p, splitMods(&p), mi)
	if len(st.code) == n {
		return // refused
	}
	one := &ImmOperand{Pos: in.Pos, Int: -1}
	if dt == F32 {
		one = &ImmOperand{Pos: in.Pos, Float: true, F: 1}
	}
	st.selpFromPred(in, mi, dt, in.Operands[0], one, &ImmOperand{Pos: in.Pos}, v)
}

// dropFirst is mods without the first occurrence of m.
func dropFirst(mods []string, m string) []string {
	out := make([]string, 0, len(mods))
	done := false
	for _, x := range mods {
		if x == m && !done {
			done = true
			continue
		}
		out = append(out, x)
	}
	return out
}

// lowerSlct lowers slct.dtype.s32 d, a, b, c and slct{.ftz}.dtype.f32
// d, a, b, c: d = c >= 0 ? a : b.
func (st *fnState) lowerSlct(in *Instr, ms modSet, mi minst) {
	if len(ms.types) != 2 || (ms.types[1] != S32 && ms.types[1] != F32) {
		st.a.errorf(in.Pos, "slct needs .dtype.s32 or .dtype.f32")
		return
	}
	dt, ct := ms.types[0], ms.types[1]
	if !st.wantOperands(in, 4, 4) || !st.checkNoMods(in, ms, "ftz") {
		return
	}
	if ms.has("ftz") && ct != F32 {
		st.a.errorf(in.Pos, "slct.ftz needs .f32")
		return
	}
	name, v := st.hiddenPred(in.Pos)
	p := &Instr{Pos: in.Pos, Op: "setp", Mods: []string{"ge", ct.String()}}
	if ms.has("ftz") {
		p.Mods = append(p.Mods, "ftz")
	}
	zero := &ImmOperand{Pos: in.Pos}
	if ct == F32 {
		zero = &ImmOperand{Pos: in.Pos, Float: true}
	}
	p.Operands = []Operand{&RegOperand{Pos: in.Pos, Name: name}, in.Operands[3], zero}
	n := len(st.code)
	st.lowerSetp(p, splitMods(p), mi)
	if len(st.code) == n {
		return
	}
	st.selpFromPred(in, mi, dt, in.Operands[0], in.Operands[1], in.Operands[2], v)
}

// lowerCnot lowers cnot.{b16,b32,b64} d, a: d = a == 0 ? 1 : 0.
func (st *fnState) lowerCnot(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) || !st.checkNoMods(in, ms) {
		return
	}
	if t != B16 && t != B32 && t != B64 {
		st.a.errorf(in.Pos, "cnot needs .b16, .b32 or .b64")
		return
	}
	name, v := st.hiddenPred(in.Pos)
	p := &Instr{Pos: in.Pos, Op: "setp", Mods: []string{"eq", t.String()}}
	p.Operands = []Operand{&RegOperand{Pos: in.Pos, Name: name}, in.Operands[1], &ImmOperand{Pos: in.Pos}}
	n := len(st.code)
	st.lowerSetp(p, splitMods(p), mi)
	if len(st.code) == n {
		return
	}
	st.selpFromPred(in, mi, t, in.Operands[0], &ImmOperand{Pos: in.Pos, Int: 1}, &ImmOperand{Pos: in.Pos}, v)
}

// lowerHint lowers the instructions that only carry cache or grid hints:
// prefetch and prefetchu [a] and discard/applypriority [a], size (the
// address is checked; nothing is emitted: the model has no caches, and
// discard leaves memory as it is, one of its allowed outcomes),
// griddepcontrol (one grid: nothing to wait for or launch) and
// createpolicy (the opaque policy is 0).
func (st *fnState) lowerHint(in *Instr, ms modSet, mi minst) {
	switch in.Op {
	case "prefetch", "prefetchu", "discard", "applypriority":
		n := 1
		if in.Op == "discard" || in.Op == "applypriority" {
			n = 2
		}
		if !st.wantOperands(in, n, n) {
			return
		}
		if _, ok := in.Operands[0].(*AddrOperand); !ok {
			st.a.errorf(OperandPos(in.Operands[0]), "%s needs an address", in.Op)
		}
	case "griddepcontrol":
		if !st.wantOperands(in, 0, 0) || !st.checkNoMods(in, ms, "launch_dependents", "wait") || len(ms.rest) != 1 {
			if len(ms.rest) != 1 {
				st.a.errorf(in.Pos, "griddepcontrol needs .launch_dependents or .wait")
			}
		}
	case "createpolicy":
		if len(ms.types) != 1 || ms.types[0] != B64 || !st.wantOperands(in, 1, 4) {
			st.a.errorf(in.Pos, "createpolicy needs .b64 and a destination")
			return
		}
		mi.in.Op, mi.in.Type = OpMOV, B64
		if !st.dst(&mi, fDst, in.Operands[0], B64, false) {
			return
		}
		st.setImm(&mi, 0, 0)
		mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
		st.emit(mi)
	}
}
