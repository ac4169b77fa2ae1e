// Lowering control flow: branches, calls (arguments and return values), returns and barriers.

package isa

func (st *fnState) emitRet(pos Pos, uni bool) {
	st.emitRetGuarded(pos, uni, nil)
}

func (st *fnState) emitRetGuarded(pos Pos, uni bool, guard *RegOperand) {
	if st.f.Entry {
		mi := minst{in: Inst{Op: OpRET}, pos: pos}
		if uni {
			mi.in.Mods |= ModUni
		}
		st.guard(&mi, guard)
		st.emit(mi)
		return
	}
	for _, r := range st.regRets {
		b := RegOp(0)
		if r.typ == Pred {
			b = PredOp(0, false)
		}
		mi := minst{in: Inst{Op: OpST, Type: r.typ, Mods: SpaceLocal, A: FPOp(), B: b, Imm: r.off}, pos: pos, immUsed: true}
		mi.uses = append(mi.uses, rref{r.v, fB})
		st.guard(&mi, guard)
		st.emit(mi)
	}
	mi := minst{in: Inst{Op: OpRET}, pos: pos}
	if uni {
		mi.in.Mods |= ModUni
	}
	st.guard(&mi, guard)
	st.emit(mi)
}

func (st *fnState) lowerFlow(in *Instr, ms modSet, mi minst) {
	uni := ms.has("uni")
	for _, m := range ms.rest {
		if m != "uni" && !(in.Op == "brx" && m == "idx") {
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		}
	}
	if len(ms.types) > 0 {
		st.a.errorf(in.Pos, "%s takes no type", in.Op)
		return
	}
	if uni {
		mi.in.Mods |= ModUni
	}
	switch in.Op {
	case "bra":
		if !st.wantOperands(in, 1, 1) {
			return
		}
		so, ok := in.Operands[0].(*SymOperand)
		if !ok {
			st.a.errorf(OperandPos(in.Operands[0]), "unsupported: indirect branch (bra needs a label)")
			return
		}
		id, ok := st.labels[so.Name]
		if !ok || !st.labelDefinedID(id) {
			st.a.errorf(so.Pos, "label %s is not defined in %s", so.Name, st.f.Name)
			return
		}
		mi.in.Op = OpBRA
		mi.reloc, mi.target = relocLabel, uint32(id)
		mi.immUsed = true
		st.emit(mi)
	case "brx":
		if !ms.has("idx") {
			st.a.errorf(in.Pos, "unsupported: brx without .idx")
			return
		}
		if !st.wantOperands(in, 2, 2) {
			return
		}
		name, pos, _ := identOf(in.Operands[1])
		e := st.sc.lookup(name)
		if e == nil || e.kind != entBranchTargets {
			if _, isLabel := st.labels[name]; isLabel {
				st.a.errorf(pos, "brx.idx: %s is not a .branchtargets label declared earlier in %s", name, st.f.Name)
			} else {
				st.a.errorf(pos, "brx.idx: %s is not a .branchtargets list declared earlier in this function", name)
			}
			return
		}
		if len(e.labels) == 0 || len(e.labels) >= 1<<15 {
			st.a.errorf(pos, "brx.idx: %s has %d targets", name, len(e.labels))
			return
		}
		mi.in.Op = OpBRX
		mi.in.Mods |= uint16(len(e.labels)) << ModBrxLenShift
		mi.in.Type = U32
		if _, isReg := in.Operands[0].(*RegOperand); !isReg {
			// Seed 004: "The index operand is a .u32 register."
			st.a.errorf(in.Pos, "brx.idx: the index operand must be a .u32 register")
			return
		}
		if !st.src(&mi, 0, in.Operands[0], U32) {
			return
		}
		mi.immUsed = true
		mi.reloc = relocBrTable
		for _, l := range e.labels {
			mi.table = append(mi.table, uint32(st.labels[l]))
		}
		st.emit(mi)
	case "ret":
		if !st.wantOperands(in, 0, 0) {
			return
		}
		st.emitRetGuarded(in.Pos, uni, in.Guard)
	case "exit":
		if !st.wantOperands(in, 0, 0) {
			return
		}
		mi.in.Op = OpEXIT
		st.emit(mi)
	case "call":
		st.lowerCall(in, uni, mi)
	}
}

func (st *fnState) labelDefinedID(id int) bool { return st.labelAt[id] != -1 }

func (st *fnState) lowerCall(in *Instr, uni bool, mi minst) {
	ops := in.Operands
	var rets, args []Operand
	i := 0
	if i < len(ops) {
		if l, ok := ops[i].(*ListOperand); ok {
			rets = l.Elems
			i++
		}
	}
	if i >= len(ops) {
		st.a.errorf(in.Pos, "call needs a target")
		return
	}
	target := ops[i]
	i++
	if i < len(ops) {
		if l, ok := ops[i].(*ListOperand); ok {
			args = l.Elems
			i++
		}
	}
	var extra Operand
	if i < len(ops) {
		extra = ops[i]
		i++
	}
	if i < len(ops) {
		st.a.errorf(OperandPos(ops[i]), "call has too many operands")
		return
	}
	var sig signature
	mi.in.Op = OpCALL
	mi.isCall = true
	if uni {
		mi.in.Mods |= ModUni
	}
	name, _, _ := identOf(target)
	if fs, ok := st.a.funcs[name]; ok && st.sc.lookup(name) == nil {
		if extra != nil {
			st.a.errorf(OperandPos(extra), "a direct call takes no call-target list or prototype")
			return
		}
		if fs.decl.Entry {
			st.a.errorf(OperandPos(target), "cannot call kernel %s", name)
			return
		}
		sig = fs.sig
		mi.reloc, mi.fn = relocFunc, name
		mi.immUsed = true
		st.callees[name] = true
	} else {
		if extra == nil {
			st.a.errorf(in.Pos, "an indirect call needs a .calltargets list, a call table or a .callprototype as its last operand")
			return
		}
		xname, xpos, _ := identOf(extra)
		e := st.sc.lookup(xname)
		switch {
		case e != nil && (e.kind == entCallTargets || e.kind == entCallProto):
			sig = e.sig
			if e.kind == entCallTargets {
				for _, f := range e.funcs {
					st.callees[f] = true
				}
				mi.targets = append([]string(nil), e.funcs...)
			} else {
				p := e.sig
				mi.proto = &p
				st.fs.protos = append(st.fs.protos, p)
			}
		default:
			s := st.lookupCallTableSig(xname)
			if s == nil {
				st.a.errorf(xpos, "%s is not a .calltargets, .callprototype or call table", xname)
				return
			}
			sig = *s
			mi.targets = st.markTableCallees(xname)
		}
		mi.in.Mods |= ModCallInd
		mi.in.Type = U64
		v, ok := st.regOf(target, U64, false)
		if !ok {
			st.a.errs = st.a.errs[:len(st.a.errs)-1]
			v, ok = st.regOf(target, U32, false)
			if !ok {
				return
			}
			mi.in.Type = U32
		}
		mi.in.A = RegOp(0)
		mi.uses = append(mi.uses, rref{v, fA})
		// Without .uni the targets may diverge: the model splits the warp
		// per target.
	}
	if len(rets) != len(sig.rets) {
		st.a.errorf(in.Pos, "call passes %d return value(s), the callee's type has %d", len(rets), len(sig.rets))
		return
	}
	if len(args) != len(sig.params) {
		st.a.errorf(in.Pos, "call passes %d argument(s), the callee's type has %d", len(args), len(sig.params))
		return
	}
	retOff, parOff, size := sig.layout()
	if size > st.outSize {
		st.outSize = size
	}
	// Arguments: .param variables bound to the slot already hold the value;
	// registers and immediates are stored to the slot.
	for j, arg := range args {
		p := sig.params[j]
		if !st.passArg(in, arg, p, parOff[j], mi) {
			return
		}
	}
	st.emit(mi)
	for j, r := range rets {
		p := sig.rets[j]
		if !st.takeRet(in, r, p, retOff[j], mi) {
			return
		}
	}
}

func (st *fnState) markTableCallees(name string) []string {
	d := st.findVarDecl(name)
	if d == nil {
		return nil
	}
	var names []string
	var walk func(in *Init)
	walk = func(in *Init) {
		if in == nil {
			return
		}
		for _, e := range in.List {
			walk(e)
		}
		if s, ok := in.Value.(*SymOperand); ok {
			if _, isF := st.a.funcs[s.Name]; isF {
				st.callees[s.Name] = true
				names = append(names, s.Name)
			}
		}
	}
	for _, v := range d.Vars {
		if v.Name == name {
			walk(v.Init)
		}
	}
	return names
}

// guardAs gives mi the guard of call (an argument store or a return-value
// load executes exactly in the lanes that call).
func (mi *minst) guardAs(call minst) {
	mi.in.GuardOn, mi.in.GuardNeg = call.in.GuardOn, call.in.GuardNeg
	for _, u := range call.uses {
		if u.field == fGuard {
			mi.uses = append(mi.uses, u)
		}
	}
}

// boundSlot checks an argument or return value o that names a .param
// variable of the call sequence: it must be the call's slot at off, of
// the callee's size. It reports whether o is such a variable (then
// nothing is moved) and whether it is right.
func (st *fnState) boundSlot(o Operand, p sigParam, off uint32, what, slot, callee string) (bound, ok bool) {
	name, pos, _ := identOf(o)
	e := st.sc.lookup(name)
	if e == nil || e.kind != entFrame {
		return false, true
	}
	if !e.out || e.off != off {
		st.a.errorf(pos, "%s %s is not this call's %s slot", what, name, slot)
		return true, false
	}
	if e.size != p.size {
		st.a.errorf(pos, "%s %s has %d bytes, %s %d", what, name, e.size, callee, p.size)
		return true, false
	}
	return true, true
}

func (st *fnState) passArg(in *Instr, arg Operand, p sigParam, off uint32, call minst) bool {
	if bound, ok := st.boundSlot(arg, p, off, "argument", "parameter", "the callee's parameter has"); bound || !ok {
		return ok
	}
	_, pos, _ := identOf(arg)
	t := p.typ
	if !t.Encodable() {
		st.a.errorf(pos, "unsupported: argument of type .%s", t)
		return false
	}
	elems, ok := st.slotElems(arg, p, pos, "an array parameter must be passed through a .param variable")
	if !ok {
		return false
	}
	for k, e := range elems {
		mi := minst{pos: in.Pos, in: Inst{Op: OpST, Type: t, Mods: SpaceLocal, A: FPOp(), Imm: off + uint32(k*t.Bytes()), C: ZeroOp()}, immUsed: true, immSlot: -1, outArea: true}
		mi.guardAs(call)
		if !st.src(&mi, 1, e, t) {
			return false
		}
		st.emit(mi)
	}
	return true
}

// slotElems is the operand o of a call's argument or return slot p, one
// per element: o itself for a scalar, the elements of a vector register
// or {...} for a .reg vector. An array slot reports msg.
func (st *fnState) slotElems(o Operand, p sigParam, pos Pos, msg string) ([]Operand, bool) {
	switch {
	case p.vec > 0:
		return st.vecElems(o, p.vec)
	case p.size != uint32(p.typ.Bytes()):
		st.a.errorf(pos, "%s", msg)
		return nil, false
	}
	return []Operand{o}, true
}

// takeRet loads return value r from the call's return slot; the load
// carries the call's guard, so lanes that did not call keep r.
func (st *fnState) takeRet(in *Instr, r Operand, p sigParam, off uint32, call minst) bool {
	if bound, ok := st.boundSlot(r, p, off, "return value", "return", "the callee returns"); bound || !ok {
		return ok
	}
	t := p.typ
	_, pos, _ := identOf(r)
	elems, ok := st.slotElems(r, p, pos, "an array return value must be taken through a .param variable")
	if !ok {
		return false
	}
	for k, e := range elems {
		mi := minst{pos: in.Pos, in: Inst{Op: OpLD, Type: t, Mods: SpaceLocal, A: FPOp(), Imm: off + uint32(k*t.Bytes()), B: ZeroOp(), C: ZeroOp()}, immUsed: true, immSlot: -1, outArea: true}
		mi.guardAs(call)
		if !st.dst(&mi, fDst, e, t, false) {
			return false
		}
		st.emit(mi)
	}
	return true
}

func (st *fnState) lowerBar(in *Instr, ms modSet, mi minst) {
	kind := -1
	red := -1
	for _, m := range ms.rest {
		switch m {
		case "sync":
			kind = BarSync
		case "arrive":
			kind = BarArrive
		case "red":
			kind = BarRed
		case "popc":
			red = BarRedPopc
		case "and":
			red = BarRedAnd
		case "or":
			red = BarRedOr
		case "aligned", "cta":
		case "warp":
			kind = 10
		default:
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		}
	}
	if kind == 10 {
		// bar.warp.sync membermask
		if !st.wantOperands(in, 1, 1) {
			return
		}
		mi.in.Op, mi.in.Type = OpBARWARP, B32
		if !st.src(&mi, 0, in.Operands[0], B32) {
			return
		}
		mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
		st.emit(mi)
		return
	}
	if kind < 0 {
		if in.Op == "bar" && len(ms.rest) == 0 {
			kind = BarSync // "bar 0" is not PTX; be strict
		}
		st.a.errorf(in.Pos, "%s needs .sync, .arrive or .red", in.Op)
		return
	}
	mi.in.Op, mi.in.Type = OpBAR, U32
	mi.in.Mods = uint16(kind)
	ops := in.Operands
	if kind == BarRed {
		if red < 0 || len(ms.types) != 1 {
			st.a.errorf(in.Pos, "bar.red needs .popc.u32, .and.pred or .or.pred")
			return
		}
		t := ms.types[0]
		if (red == BarRedPopc) != (t == U32) || (red != BarRedPopc && t != Pred) {
			st.a.errorf(in.Pos, "bar.red.%s needs type .%s", map[int]string{0: "popc", 1: "and", 2: "or"}[red], map[bool]string{true: "u32", false: "pred"}[red == BarRedPopc])
			return
		}
		mi.in.Type = t
		mi.in.Mods |= uint16(red) << ModBarRedShift
		if !st.wantOperands(in, 3, 4) {
			return
		}
		if !st.dst(&mi, fDst, ops[0], t, false) {
			return
		}
		ops = ops[1:]
		pred := ops[len(ops)-1]
		ops = ops[:len(ops)-1]
		if !st.src(&mi, 2, pred, Pred) {
			return
		}
	} else {
		if kind == BarArrive && len(ops) != 2 {
			st.a.errorf(in.Pos, "%s.arrive needs a barrier and a thread count", in.Op)
			return
		}
		if !st.wantOperands(in, 1, 2) {
			return
		}
		mi.in.C = ZeroOp()
	}
	if !st.src(&mi, 0, ops[0], U32) {
		return
	}
	if mi.in.A.Kind == KindImm && mi.in.Imm > 15 {
		st.a.errorf(OperandPos(ops[0]), "barrier %d: barriers are numbered 0..15", mi.in.Imm)
		return
	}
	if len(ops) > 1 {
		if !st.src(&mi, 1, ops[1], U32) {
			return
		}
		if mi.in.B.Kind == KindImm && (mi.in.Imm == 0 || mi.in.Imm%32 != 0) {
			st.a.errorf(OperandPos(ops[1]), "barrier thread count %d must be a non-zero multiple of 32", mi.in.Imm)
			return
		}
	} else {
		mi.in.B = ZeroOp()
	}
	st.emit(mi)
}

func (st *fnState) lowerMembar(in *Instr, ms modSet, mi minst) {
	if !st.wantOperands(in, 0, 0) {
		return
	}
	mi.in.Op = OpMEMBAR
	level := MembarCTA
	if in.Op == "fence" {
		mi.in.Mods |= ModFence
		level = MembarGL
	}
	fence := in.Op == "fence"
	for _, m := range ms.rest {
		switch {
		case m == "cta":
			level = MembarCTA
		case m == "gl" && !fence, (m == "gpu" || m == "cluster") && fence:
			level = MembarGL
		case m == "sys":
			level = MembarSys
		case m == "proxy", m == "alias", m == "async", m == "global", m == "shared::cta", m == "shared::cluster":
			// membar.proxy is fence.proxy (PTX ISA 9.7.13.4).
		case fence && (m == "sc" || m == "acq_rel" || m == "release" || m == "acquire" || m == "mbarrier_init"):
			// fence.sc/.acq_rel, fence.release/.acquire (PTX 8.6),
			// fence.mbarrier_init.release.cluster,
			// fence.proxy.async.{global,shared::cta,shared::cluster}: one
			// SM's memory is coherent, so they order as the other fences do.
		case fence && (m == "tensormap::generic" || m == "sync_restrict::shared::cta" || m == "sync_restrict::shared::cluster"):
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		default:
			want := "membar takes .cta, .gl, .sys or .proxy.<kind>"
			if fence {
				want = "fence takes .sc, .acq_rel, .release, .acquire, .cta, .cluster, .gpu, .sys, .proxy.<kind> or .mbarrier_init"
			}
			st.a.errorf(in.Pos, "%s.%s is not PTX (%s)", in.Op, m, want)
			return
		}
	}
	mi.in.Mods |= uint16(level)
	mi.in.A, mi.in.B, mi.in.C = ZeroOp(), ZeroOp(), ZeroOp()
	st.emit(mi)
}
