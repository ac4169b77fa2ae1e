package isa

import "strings"

// isCacheMod reports modifiers that only carry cache or memory-ordering
// hints the model does not distinguish.
func isCacheMod(m string) bool {
	if strings.HasPrefix(m, "L1::") || strings.HasPrefix(m, "L2::") || strings.HasPrefix(m, "level::") {
		return true
	}
	switch m {
	case "ca", "cg", "cs", "lu", "cv", "wb", "wt", "weak", "relaxed", "acquire", "release", "acq_rel", "sc",
		"cta", "gpu", "sys", "cluster", "unified", "mmio":
		return true
	}
	return false
}

// memAddr resolves "[...]" for a memory instruction whose instruction-level
// space is space (SpaceGeneric when none). It sets A, Type2 (base width) and
// Imm, and returns the effective space.
func (st *fnState) memAddr(mi *minst, o Operand, space int) (int, bool) {
	ao, ok := o.(*AddrOperand)
	if !ok {
		st.a.errorf(OperandPos(o), "expected a memory operand [address]")
		return 0, false
	}
	if len(ao.Extra) > 0 {
		st.a.errorf(ao.Pos, "unsupported: texture/surface address")
		return 0, false
	}
	off := ao.Offset
	if off < -1<<31 || off >= 1<<31 {
		st.a.errorf(ao.Pos, "address offset %d does not fit 32 bits", off)
		return 0, false
	}
	mi.immUsed = true
	mi.immSlot = -1
	mi.in.Type2 = U64
	setOff := func(v int64) bool {
		if v < -1<<31 || v >= 1<<31 {
			st.a.errorf(ao.Pos, "address %#x does not fit the 32-bit offset field", v)
			return false
		}
		mi.in.Imm = uint32(int32(v))
		return true
	}
	if ao.Base == "" {
		mi.in.A = ZeroOp()
		return space, setOff(off)
	}
	e := st.sc.lookup(ao.Base)
	if e != nil && (e.kind == entReg || e.kind == entVec) {
		v, ok := st.regOf(&RegOperand{Pos: ao.Pos, Name: ao.Base}, U64, false)
		if !ok {
			// A 32-bit base register (shared/local addresses, or .address_size 32 style).
			st.a.errs = st.a.errs[:len(st.a.errs)-1]
			v, ok = st.regOf(&RegOperand{Pos: ao.Pos, Name: ao.Base}, U32, false)
			if !ok {
				return 0, false
			}
			mi.in.Type2 = U32
		}
		mi.in.A = RegOp(0)
		mi.uses = append(mi.uses, rref{v, fA})
		return space, setOff(off)
	}
	if e != nil {
		switch e.kind {
		case entMem:
			vs := e.mem
			return st.memSym(mi, ao, vs, space, off, setOff)
		case entKParam:
			if space != SpaceParam && space != SpaceGeneric {
				st.a.errorf(ao.Pos, "%s is a kernel parameter, accessed with .%s", ao.Base, SpaceName(space))
				return 0, false
			}
			if space == SpaceGeneric {
				st.a.errorf(ao.Pos, "unsupported: generic access to kernel parameter %s", ao.Base)
				return 0, false
			}
			mi.in.A = ZeroOp()
			return SpaceParam, setOff(int64(e.off) + off)
		case entFrame:
			if space != SpaceParam && space != SpaceLocal {
				st.a.errorf(ao.Pos, "%s is a .param variable, accessed with .%s", ao.Base, SpaceName(space))
				return 0, false
			}
			if off < 0 || uint64(off) >= uint64(e.size)+1 && e.size > 0 {
				st.a.errorf(ao.Pos, "offset %d is outside parameter %s (%d bytes)", off, ao.Base, e.size)
				return 0, false
			}
			mi.in.A = FPOp()
			mi.outArea = e.out
			return SpaceLocal, setOff(int64(e.off) + off)
		}
		st.a.errorf(ao.Pos, "%s cannot be used as an address", ao.Base)
		return 0, false
	}
	if vs, ok := st.a.vars[ao.Base]; ok {
		return st.memSym(mi, ao, vs, space, off, setOff)
	}
	if _, ok := st.a.funcs[ao.Base]; ok {
		st.a.errorf(ao.Pos, "function %s used as a memory address", ao.Base)
		return 0, false
	}
	st.a.errorf(ao.Pos, "undeclared identifier %s in address", ao.Base)
	return 0, false
}

func (st *fnState) memSym(mi *minst, ao *AddrOperand, vs *varSym, space int, off int64, setOff func(int64) bool) (int, bool) {
	mi.in.A = ZeroOp()
	switch {
	case space == SpaceGeneric && vs.space == SpaceGlobal:
		return SpaceGeneric, setOff(int64(vs.addr) + off)
	case space == SpaceGeneric && vs.space == SpaceShared:
		// Generic address inside the shared window: base from the constant table.
		mi.in.A = ConstOp(st.a.constIndex(SharedWindow, mi.pos))
		if vs.dynamic {
			st.a.errorf(ao.Pos, "unsupported: generic access to dynamic shared memory by name")
			return 0, false
		}
		return SpaceGeneric, setOff(int64(vs.addr) + off)
	case space == SpaceGeneric && vs.space == SpaceLocal:
		mi.in.A = FPOp()
		st.a.errorf(ao.Pos, "unsupported: generic access to local variable %s by name (use ld.local)", ao.Base)
		return 0, false
	case space == vs.space:
		if vs.space == SpaceLocal {
			mi.in.A = FPOp()
		}
		if vs.dynamic {
			mi.dynShared = true // the dynamic segment starts after the static one: fixed up at link
			mi.dynSlot = -1
		}
		return space, setOff(int64(vs.addr) + off)
	}
	st.a.errorf(ao.Pos, "%s is in .%s space, accessed with .%s", ao.Base, SpaceName(vs.space), SpaceName(space))
	return 0, false
}

func (st *fnState) lowerMem(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	if t == Pred {
		st.a.errorf(in.Pos, "%s.pred is not allowed", in.Op)
		return
	}
	space, vec := SpaceGeneric, 1
	for _, m := range ms.rest {
		if s, ok := spaceOf(m); ok {
			space = s
			continue
		}
		switch m {
		case "v2":
			vec = 2
		case "v4":
			vec = 4
		case "nc":
			mi.in.Mods |= ModNC
		case "volatile":
			mi.in.Mods |= ModVolatile
		default:
			if isCacheMod(m) {
				continue
			}
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		}
	}
	store := in.Op == "st"
	// st.const assembles: the model faults when it executes (the .const
	// bank is read-only), with the warp, PC and line.
	mi.in.Type = t
	if store {
		mi.in.Op = OpST
	} else {
		mi.in.Op = OpLD
	}
	addrOp, dataOp := in.Operands[1], in.Operands[0]
	if store {
		addrOp, dataOp = in.Operands[0], in.Operands[1]
	}
	eff, ok := st.memAddr(&mi, addrOp, space)
	if !ok {
		return
	}
	if vec > 1 && t.Bits() > 32 && vec == 4 {
		st.a.errorf(in.Pos, "unsupported: .v4 of 64-bit elements")
		return
	}
	lg := map[int]uint16{1: 0, 2: 1, 4: 2}[vec]
	mi.in.Mods |= uint16(eff) | lg<<ModVecShift
	elems := []Operand{dataOp}
	if vec > 1 {
		vo, ok := dataOp.(*VecOperand)
		if !ok {
			name, _, _ := identOf(dataOp)
			if e := st.sc.lookup(name); e != nil && e.kind == entVec && len(e.comps) >= vec {
				elems = nil
				for i := 0; i < vec; i++ {
					elems = append(elems, &RegOperand{Pos: OperandPos(dataOp), Name: name, Comp: "xyzw"[i : i+1]})
				}
			} else {
				st.a.errorf(OperandPos(dataOp), "%s.v%d needs a {...} list of %d registers", in.Op, vec, vec)
				return
			}
		} else {
			if len(vo.Elems) != vec {
				st.a.errorf(vo.Pos, "%s.v%d needs %d elements, got %d", in.Op, vec, vec, len(vo.Elems))
				return
			}
			elems = vo.Elems
		}
	} else if _, isVec := dataOp.(*VecOperand); isVec {
		st.a.errorf(OperandPos(dataOp), "a vector operand needs .v2 or .v4")
		return
	}
	// Small types may use a 32-bit register; a 64-bit register only holds 64-bit types.
	if store {
		fields := []uint8{fB, fC, fDst, fDst2}
		for i, e := range elems {
			if i < 2 {
				if !st.srcWide(&mi, 1+i, e, t) {
					return
				}
				continue
			}
			if _, ok := e.(*ImmOperand); ok {
				st.a.errorf(OperandPos(e), "unsupported: immediate as element %d of a vector store", i)
				return
			}
			if !st.srcAsFieldWide(&mi, fields[i], e, t) {
				return
			}
		}
		if vec == 1 {
			mi.in.C = ZeroOp()
		}
	} else {
		fields := []uint8{fDst, fDst2, fB, fC}
		for i, e := range elems {
			// A scalar load of 32 bits or less into a 64-bit register extends the value.
			if vec == 1 && t.Bits() <= 32 {
				if v, ok := st.lookupGPR2(e); ok {
					mi.in.Mods |= ModLdExt
					mi.defs = append(mi.defs, rref{v, fDst})
					continue
				}
			}
			if !st.dst(&mi, fields[i], e, t, false) {
				return
			}
			if i == 2 {
				mi.in.B = RegOp(0)
			}
			if i == 3 {
				mi.in.C = RegOp(0)
			}
		}
		if vec < 4 {
			mi.in.C = ZeroOp()
			if vec < 3 {
				mi.in.B = ZeroOp()
			}
		}
	}
	st.emit(mi)
}

func (st *fnState) srcAsFieldWide(mi *minst, field uint8, o Operand, t Type) bool {
	v, ok := st.regOf(o, t, true)
	if !ok {
		return false
	}
	mi.uses = append(mi.uses, rref{v, field})
	return true
}

func (st *fnState) lowerAtom(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	space, op := SpaceGeneric, -1
	for _, m := range ms.rest {
		if s, ok := spaceOf(m); ok {
			if s != SpaceGlobal && s != SpaceShared {
				st.a.errorf(in.Pos, "atomics on .%s are not allowed", m)
				return
			}
			space = s
			continue
		}
		if a, ok := ParseAtom(m); ok && op < 0 {
			op = a
			continue
		}
		if isCacheMod(m) {
			continue
		}
		st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
		return
	}
	if op < 0 {
		st.a.errorf(in.Pos, "%s needs an operation (.add, .cas, ...)", in.Op)
		return
	}
	red := in.Op == "red"
	n := 3
	if op == AtomCAS {
		n = 4
	}
	if red {
		n--
	}
	if !st.wantOperands(in, n, n) {
		return
	}
	if t.Float() && op != AtomAdd && op != AtomMin && op != AtomMax && op != AtomExch {
		st.a.errorf(in.Pos, "unsupported: atom.%s on .%s", AtomName(op), t)
		return
	}
	mi.in.Op, mi.in.Type = OpATOM, t
	ops := in.Operands
	if red {
		v := st.newVreg("_", t, in.Pos)
		mi.defs = append(mi.defs, rref{v, fDst})
	} else {
		if !st.dst(&mi, fDst, ops[0], t, false) {
			return
		}
		ops = ops[1:]
	}
	eff, ok := st.memAddr(&mi, ops[0], space)
	if !ok {
		return
	}
	mi.in.Mods |= uint16(eff) | uint16(op)<<ModAtomShift
	if !st.src(&mi, 1, ops[1], t) {
		return
	}
	if op == AtomCAS {
		if !st.src(&mi, 2, ops[2], t) {
			return
		}
	} else {
		mi.in.C = ZeroOp()
	}
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
		if !st.src(&mi, 0, in.Operands[0], U32) {
			return
		}
		if mi.in.A.Kind != KindReg {
			// An immediate index is fine too; it occupied Imm: move it to the constant table.
			v := uint64(mi.in.Imm)
			mi.immUsed = false
			mi.in.A = ConstOp(st.a.constIndex(v, mi.pos))
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
			}
		default:
			s := st.lookupCallTableSig(xname)
			if s == nil {
				st.a.errorf(xpos, "%s is not a .calltargets, .callprototype or call table", xname)
				return
			}
			sig = *s
			st.markTableCallees(xname)
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

func (st *fnState) markTableCallees(name string) {
	d := st.findVarDecl(name)
	if d == nil {
		return
	}
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
			}
		}
	}
	for _, v := range d.Vars {
		if v.Name == name {
			walk(v.Init)
		}
	}
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

func (st *fnState) passArg(in *Instr, arg Operand, p sigParam, off uint32, call minst) bool {
	name, pos, _ := identOf(arg)
	if e := st.sc.lookup(name); e != nil && e.kind == entFrame {
		if !e.out || e.off != off {
			st.a.errorf(pos, "argument %s is not this call's parameter slot", name)
			return false
		}
		if e.size != p.size {
			st.a.errorf(pos, "argument %s has %d bytes, the callee's parameter has %d", name, e.size, p.size)
			return false
		}
		return true
	}
	t := p.typ
	if t == Pred || !t.Encodable() {
		st.a.errorf(pos, "unsupported: argument of type .%s", t)
		return false
	}
	if p.size != uint32(t.Bytes()) {
		st.a.errorf(pos, "an array parameter must be passed through a .param variable")
		return false
	}
	mi := minst{pos: in.Pos, in: Inst{Op: OpST, Type: t, Mods: SpaceLocal, A: FPOp(), Imm: off, C: ZeroOp()}, immUsed: true, immSlot: -1, outArea: true}
	mi.guardAs(call)
	if !st.src(&mi, 1, arg, t) {
		return false
	}
	st.emit(mi)
	return true
}

// takeRet loads return value r from the call's return slot; the load
// carries the call's guard, so lanes that did not call keep r.
func (st *fnState) takeRet(in *Instr, r Operand, p sigParam, off uint32, call minst) bool {
	name, pos, _ := identOf(r)
	if e := st.sc.lookup(name); e != nil && e.kind == entFrame {
		if !e.out || e.off != off {
			st.a.errorf(pos, "return value %s is not this call's return slot", name)
			return false
		}
		if e.size != p.size {
			st.a.errorf(pos, "return value %s has %d bytes, the callee returns %d", name, e.size, p.size)
			return false
		}
		return true
	}
	t := p.typ
	mi := minst{pos: in.Pos, in: Inst{Op: OpLD, Type: t, Mods: SpaceLocal, A: FPOp(), Imm: off, B: ZeroOp(), C: ZeroOp()}, immUsed: true, immSlot: -1, outArea: true}
	mi.guardAs(call)
	if !st.dst(&mi, fDst, r, t, false) {
		return false
	}
	st.emit(mi)
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
	for _, m := range ms.rest {
		switch m {
		case "cta":
			level = MembarCTA
		case "gl", "gpu", "cluster":
			level = MembarGL
		case "sys":
			level = MembarSys
		case "sc", "acq_rel", "proxy", "alias", "async":
		default:
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return
		}
	}
	mi.in.Mods |= uint16(level)
	mi.in.A, mi.in.B, mi.in.C = ZeroOp(), ZeroOp(), ZeroOp()
	st.emit(mi)
}

func (st *fnState) lowerVote(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	mode := -1
	sync := false
	for _, m := range ms.rest {
		switch m {
		case "all":
			mode = 0
		case "any":
			mode = 1
		case "uni":
			mode = 2
		case "ballot":
			mode = 3
		case "sync":
			sync = true
		default:
			st.a.errorf(in.Pos, "unsupported: vote.%s", m)
			return
		}
	}
	if mode < 0 || (mode == 3) != (t == B32) || (mode != 3 && t != Pred) {
		st.a.errorf(in.Pos, "vote needs .all/.any/.uni with .pred or .ballot with .b32")
		return
	}
	n := 2
	if sync {
		n = 3
	}
	if !st.wantOperands(in, n, n) {
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = OpVOTE, t, uint16(mode)
	if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[1], Pred) {
		return
	}
	if sync {
		if !st.src(&mi, 1, in.Operands[2], B32) {
			return
		}
	} else {
		st.setImm(&mi, 1, 0xffffffff)
	}
	mi.in.C = ZeroOp()
	st.emit(mi)
}

func (st *fnState) lowerMisc(in *Instr, ms modSet, mi minst) {
	mi.in.A, mi.in.B, mi.in.C = ZeroOp(), ZeroOp(), ZeroOp()
	switch in.Op {
	case "brkpt", "trap":
		if !st.wantOperands(in, 0, 0) || !st.checkNoMods(in, ms) || len(ms.types) > 0 {
			if len(ms.types) > 0 {
				st.a.errorf(in.Pos, "%s takes no type", in.Op)
			}
			return
		}
		mi.in.Op = OpBRKPT
		if in.Op == "trap" {
			mi.in.Op = OpTRAP
		}
	case "nanosleep":
		if len(ms.types) != 1 || ms.types[0] != U32 || len(ms.rest) > 0 {
			st.a.errorf(in.Pos, "nanosleep must be written nanosleep.u32")
			return
		}
		if !st.wantOperands(in, 1, 1) {
			return
		}
		mi.in.Op, mi.in.Type = OpNANOSLEEP, U32
		if !st.src(&mi, 0, in.Operands[0], U32) {
			return
		}
	case "pmevent":
		mask := ms.has("mask")
		if len(ms.types) > 0 || len(ms.rest) > btoi(mask) {
			st.a.errorf(in.Pos, "pmevent takes only the .mask modifier")
			return
		}
		if !st.wantOperands(in, 1, 1) {
			return
		}
		im, ok := in.Operands[0].(*ImmOperand)
		if !ok || im.Float {
			st.a.errorf(OperandPos(in.Operands[0]), "pmevent needs an integer immediate operand")
			return
		}
		mi.in.Op = OpPMEVENT
		if mask {
			if im.Int < 0 || im.Int > 0xffff {
				st.a.errorf(im.Pos, "pmevent.mask operand %s does not fit 16 bits", im.Text)
				return
			}
			mi.in.Mods = ModPmeventMask
			mi.in.Imm = uint32(im.Int)
		} else {
			if im.Int < 0 || im.Int > 15 {
				st.a.errorf(im.Pos, "pmevent index %s is outside 0..15", im.Text)
				return
			}
			mi.in.Imm = 1 << uint(im.Int)
		}
	case "setmaxnreg":
		var inc, dec, sync, aligned bool
		for _, m := range ms.rest {
			switch m {
			case "inc":
				inc = true
			case "dec":
				dec = true
			case "sync":
				sync = true
			case "aligned":
				aligned = true
			default:
				st.a.errorf(in.Pos, "unsupported: setmaxnreg.%s", m)
				return
			}
		}
		if inc == dec {
			st.a.errorf(in.Pos, "setmaxnreg needs exactly one of .inc and .dec")
			return
		}
		if !sync || !aligned || len(ms.types) != 1 || ms.types[0] != U32 {
			st.a.errorf(in.Pos, "setmaxnreg must be written setmaxnreg.%s.sync.aligned.u32", map[bool]string{true: "inc", false: "dec"}[inc])
			return
		}
		if !st.wantOperands(in, 1, 1) {
			return
		}
		im, ok := in.Operands[0].(*ImmOperand)
		if !ok || im.Float {
			st.a.errorf(OperandPos(in.Operands[0]), "setmaxnreg needs an integer constant register count")
			return
		}
		if im.Int < 24 || im.Int > 256 || im.Int%8 != 0 {
			st.a.errorf(im.Pos, "setmaxnreg count %s must be in 24..256 and a multiple of 8", im.Text)
			return
		}
		mi.in.Op, mi.in.Type, mi.in.Imm = OpSETMAXNREG, U32, uint32(im.Int)
		if inc {
			mi.in.Mods = ModSetmaxInc
		}
	}
	mi.immUsed = true
	st.emit(mi)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (st *fnState) lowerSASS(in *Instr, ms modSet, mi minst) {
	mi.in.A, mi.in.B, mi.in.C = ZeroOp(), ZeroOp(), ZeroOp()
	mi.immUsed = true
	switch in.Op {
	case "BPT":
		if len(in.Mods) != 1 {
			st.a.errorf(in.Pos, "BPT needs one mode: .DRAIN, .PAUSE, .PAUSE_QUIET, .TRAP or .INT")
			return
		}
		mode, ok := ParseBPT(in.Mods[0])
		if !ok {
			st.a.errorf(in.Pos, "unknown BPT mode .%s (DRAIN, PAUSE, PAUSE_QUIET, TRAP, INT)", in.Mods[0])
			return
		}
		mi.in.Op, mi.in.Mods = OpBPT, uint16(mode)
		if mode == BPTTrap {
			if !st.wantOperands(in, 1, 1) {
				return
			}
			im, ok := in.Operands[0].(*ImmOperand)
			if !ok || im.Float {
				st.a.errorf(OperandPos(in.Operands[0]), "BPT.TRAP needs an immediate trap reason")
				return
			}
			if im.Int == 0 {
				st.a.errorf(im.Pos, "BPT.TRAP 0 is illegal (the trap reason must be 1..7)")
				return
			}
			if im.Int < 0 || im.Int > 7 {
				st.a.errorf(im.Pos, "BPT.TRAP reason %s does not fit 3 bits (1..7)", im.Text)
				return
			}
			mi.in.Imm = uint32(im.Int)
		} else {
			if !st.wantOperands(in, 0, 1) {
				return
			}
			if len(in.Operands) == 1 {
				im, ok := in.Operands[0].(*ImmOperand)
				if !ok || im.Float || im.Int < 0 || im.Int >= 1<<20 {
					st.a.errorf(OperandPos(in.Operands[0]), "BPT immediate must be an unsigned 20-bit integer")
					return
				}
				mi.in.Imm = uint32(im.Int)
			}
		}
	case "IDE":
		if len(in.Mods) != 1 || (in.Mods[0] != "EN" && in.Mods[0] != "DIS") {
			st.a.errorf(in.Pos, "IDE needs .EN or .DIS")
			return
		}
		if !st.wantOperands(in, 0, 0) {
			return
		}
		mi.in.Op = OpIDE
		if in.Mods[0] == "EN" {
			mi.in.Mods = ModIDEEnable
		}
	case "RTT":
		if len(in.Mods) != 0 || !st.wantOperands(in, 0, 0) {
			if len(in.Mods) != 0 {
				st.a.errorf(in.Pos, "RTT takes no modifiers")
			}
			return
		}
		mi.in.Op = OpRTT
	case "S2R":
		if len(in.Mods) != 0 {
			st.a.errorf(in.Pos, "S2R takes no modifiers")
			return
		}
		if !st.wantOperands(in, 2, 2) {
			return
		}
		name, pos, _ := identOf(in.Operands[1])
		sr, ok := sassSReg(name)
		if !ok {
			st.a.errorf(pos, "unknown special register %s for S2R (SR_GLOBAL_ESR, SR_WARP_ESR, SR_TID.X, SR_LANEID, SR_CLOCKLO, ...)", name)
			return
		}
		mi.in.Op, mi.in.Type, mi.in.Imm = OpS2R, U32, uint32(sr)
		if !st.dst(&mi, fDst, in.Operands[0], U32, false) {
			return
		}
	}
	st.emit(mi)
}

// sassSReg maps SASS special-register names to SReg ids.
func sassSReg(name string) (SReg, bool) {
	switch name {
	case "SR_GLOBAL_ESR":
		return SRGlobalESR, true
	case "SR_WARP_ESR":
		return SRWarpESR, true
	case "SR_TID.X":
		return SRTidX, true
	case "SR_TID.Y":
		return SRTidY, true
	case "SR_TID.Z":
		return SRTidZ, true
	case "SR_CTAID.X":
		return SRCtaIDX, true
	case "SR_CTAID.Y":
		return SRCtaIDY, true
	case "SR_CTAID.Z":
		return SRCtaIDZ, true
	case "SR_LANEID":
		return SRLaneID, true
	case "SR_VIRTUALSMID", "SR_SMID":
		return SRSmID, true
	case "SR_WARPID", "SR_VIRTID":
		return SRWarpID, true
	case "SR_CLOCKLO":
		return SRClock, true
	case "SR_CLOCKHI":
		return SRClockHi, true
	case "SR_GLOBALTIMERLO":
		return SRGlobalTimerLo, true
	case "SR_GLOBALTIMERHI":
		return SRGlobalTimerHi, true
	}
	return 0, false
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

func (st *fnState) lowerShf(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 4, 4) {
		return
	}
	if t != B32 {
		st.a.errorf(in.Pos, "shf needs .b32")
		return
	}
	dir, mode := -1, -1
	for _, m := range ms.rest {
		switch m {
		case "l":
			dir = 1
		case "r":
			dir = 0
		case "wrap":
			mode = 1
		case "clamp":
			mode = 0
		default:
			st.a.errorf(in.Pos, "unsupported: shf.%s", m)
			return
		}
	}
	if dir < 0 || mode < 0 {
		st.a.errorf(in.Pos, "shf needs .l or .r and .wrap or .clamp")
		return
	}
	mi.in.Op, mi.in.Type = OpSHF, B32
	if dir == 1 {
		mi.in.Mods |= ModShfLeft
	}
	if mode == 1 {
		mi.in.Mods |= ModShfWrap
	}
	if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) || !st.src(&mi, 2, in.Operands[3], U32) {
		return
	}
	st.emit(mi)
}

func (st *fnState) lowerSad(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 4, 4) || !st.checkNoMods(in, ms) {
		return
	}
	mi.in.Op, mi.in.Type = OpSAD, t
	if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) || !st.src(&mi, 2, in.Operands[3], t) {
		return
	}
	st.emit(mi)
}

func (st *fnState) lowerBfind(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	for _, m := range ms.rest {
		if m != "shiftamt" {
			st.a.errorf(in.Pos, "unsupported: bfind.%s", m)
			return
		}
		mi.in.Mods |= ModBfindShiftAmt
	}
	mi.in.Op, mi.in.Type = OpBFIND, t
	if !st.dst(&mi, fDst, in.Operands[0], U32, false) || !st.src(&mi, 0, in.Operands[1], t) {
		return
	}
	mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
	st.emit(mi)
}

func (st *fnState) lowerShfl(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || t.Bits() != 32 {
		st.a.errorf(in.Pos, "shfl needs a 32-bit type")
		return
	}
	mode, sync := -1, false
	for _, m := range ms.rest {
		switch m {
		case "up":
			mode = ShflUp
		case "down":
			mode = ShflDown
		case "bfly":
			mode = ShflBfly
		case "idx":
			mode = ShflIdx
		case "sync":
			sync = true
		default:
			st.a.errorf(in.Pos, "unsupported: shfl.%s", m)
			return
		}
	}
	if mode < 0 || !sync {
		st.a.errorf(in.Pos, "unsupported: shfl without .sync and a mode (.up/.down/.bfly/.idx)")
		return
	}
	if !st.wantOperands(in, 5, 5) {
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Mods = OpSHFL, t, uint16(mode)
	mi.immUsed = true
	mi.immSlot = -1
	if mask, ok := in.Operands[4].(*ImmOperand); ok && !mask.Float {
		mi.in.Imm = uint32(mask.Int)
	} else {
		v, ok := st.regOf(in.Operands[4], B32, false)
		if !ok {
			return
		}
		mi.in.Mods |= ModShflMaskReg
		mi.uses = append(mi.uses, rref{v, fImmReg})
	}
	d := in.Operands[0]
	if po, ok := d.(*PipeOperand); ok {
		mi.in.Mods |= ModShflPred
		if !st.dst(&mi, fDst, po.A, t, false) || !st.dst(&mi, fDst2, po.B, Pred, false) {
			return
		}
	} else if !st.dst(&mi, fDst, d, t, false) {
		return
	}
	if !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], U32) || !st.src(&mi, 2, in.Operands[3], U32) {
		return
	}
	st.emit(mi)
}
