// Lowering memory instructions: addresses, ld/st, atomics, cvta and state spaces.

package isa

import (
	"strings"
)

func spaceOf(m string) (int, bool) {
	switch m {
	case "global":
		return SpaceGlobal, true
	case "shared", "shared::cta", "shared::cluster":
		// The CTA's own window. The model has no distributed shared
		// memory (mapa is refused), so every .shared::cluster address a
		// kernel can form is one of its own CTA's, which PTX defines to
		// be that CTA's shared memory.
		return SpaceShared, true
	case "local":
		return SpaceLocal, true
	case "param":
		return SpaceParam, true
	case "const":
		return SpaceConst, true
	}
	return 0, false
}

func (st *fnState) lowerCvta(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	to := false
	space := -1
	for _, m := range ms.rest {
		if m == "to" {
			to = true
			continue
		}
		if s, ok := spaceOf(m); ok {
			space = s
			continue
		}
		st.a.errorf(in.Pos, "unsupported: cvta.%s", m)
		return
	}
	if space < 0 {
		st.a.errorf(in.Pos, "cvta needs a state space")
		return
	}
	if space == SpaceParam || space == SpaceConst {
		st.a.errorf(in.Pos, "unsupported: cvta.%s", SpaceName(space))
		return
	}
	if t != U64 && t != B64 && t != S64 {
		st.a.errorf(in.Pos, "unsupported: cvta.%s (only 64-bit addresses)", t)
		return
	}
	if space == SpaceGlobal {
		// The global window is the identity: a plain move.
		mi.in.Op, mi.in.Type = OpMOV, t
	} else {
		mi.in.Op, mi.in.Type, mi.in.Mods = OpCVTA, t, uint16(space)
		if to {
			mi.in.Mods |= ModCvtaTo
		}
	}
	// cvta.local of a local variable by name: its local-window address
	// (FP + its offset, as mov takes it) into the destination, then the
	// conversion of that register in place.
	if so, ok := in.Operands[1].(*SymOperand); ok && space == SpaceLocal && !to {
		if off, out, ok := st.frameOffset(so); ok {
			addr := minst{pos: in.Pos, uses: append([]rref(nil), mi.uses...)}
			addr.in.GuardOn, addr.in.GuardNeg = mi.in.GuardOn, mi.in.GuardNeg
			addr.in.Op, addr.in.Type, addr.in.A = OpADD, t, FPOp()
			if !st.dst(&addr, fDst, in.Operands[0], t, false) {
				return
			}
			st.setImm(&addr, 1, off)
			addr.outArea = out
			addr.in.C = ZeroOp()
			st.emit(addr)
			if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[0], t) {
				return
			}
			mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
			st.emit(mi)
			return
		}
	}
	// The source may be a shared/global symbol (cvta.shared.u64 %rd, sym).
	st.emitOps(mi, in, t, t)
}

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

// loadCacheOp is the cache operator (Cache*) of ld in: its .cop
// (.ca .cg .cs .lu .cv), its L1 eviction priority, or the L2-only path of
// a strong load (.volatile, .mmio, .relaxed or .acquire at .gpu, .cluster
// or .sys scope: the L1 is not coherent, so such a load is served by the
// L2). Two that disagree are refused.
func (st *fnState) loadCacheOp(in *Instr, ms modSet) (int, bool) {
	c, from := CacheCA, ""
	strong, scope := false, ""
	for _, m := range ms.rest {
		op := -1
		switch m {
		case "ca", "L1::evict_normal", "L1::evict_last":
			op = CacheCA
		case "cg":
			op = CacheCG
		case "cs", "lu", "L1::evict_first":
			op = CacheCS
		case "cv":
			op = CacheCV
		case "L1::no_allocate":
			op = CacheNoAlloc
		case "L1::evict_unchanged":
			op = CacheUnchanged
		case "volatile", "mmio":
			strong, scope = true, "sys"
		case "relaxed", "acquire":
			strong = true
		case "cta", "cluster", "gpu", "sys":
			scope = m
		}
		if op < 0 {
			continue
		}
		if from != "" && op != c {
			st.a.errorf(in.Pos, "ld.%s and .%s disagree on how the load uses the L1", from, m)
			return 0, false
		}
		c, from = op, m
	}
	if strong && scope != "" && scope != "cta" {
		if from != "" && c != CacheCG {
			st.a.errorf(in.Pos, "ld.%s on a strong load at .%s scope (served by the L2)", from, scope)
			return 0, false
		}
		c = CacheCG
	}
	return c, true
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
	case space == SpaceGeneric && vs.space == SpaceShared && !vs.dynamic:
		// Generic address inside the shared window: base from the constant table.
		mi.in.A = ConstOp(st.a.constIndex(SharedWindow, mi.pos))
		return SpaceGeneric, setOff(int64(vs.addr) + off)
	case space == SpaceGeneric && (vs.space == SpaceLocal || vs.space == SpaceShared):
		// A generic access to a .local variable (or to dynamic shared
		// memory) by name: its generic address lies in that space's
		// window, so the access is the space's own (issue 16, item 5).
		space = vs.space
		fallthrough
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
	if in.Op == "st" && ms.has("async") { // st.async: distributed shared memory
		st.a.errorf(in.Pos, "unsupported: st.async")
		return
	}
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	if t == Pred {
		st.a.errorf(in.Pos, "%s.pred is not allowed", in.Op)
		return
	}
	if ms.has("v8") || ms.has("v4") && t.Bits() == 64 {
		st.lowerMemHalves(in, mi, t)
		return
	}
	store := in.Op == "st"
	if !store {
		c, ok := st.loadCacheOp(in, ms)
		if !ok {
			return
		}
		mi.in.Mods |= uint16(c) << ModCacheShift
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
			if !st.srcAsField(&mi, fields[i], e, t, true) {
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

func (st *fnState) lowerAtom(in *Instr, ms modSet, mi minst) {
	if in.Op == "red" && ms.has("async") { // red.async: distributed shared memory
		st.a.errorf(in.Pos, "unsupported: red.async")
		return
	}
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	space, op, noftz := SpaceGeneric, -1, false
	for _, m := range ms.rest {
		if m == "noftz" {
			noftz = true
			continue
		}
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
	// The half types: atom.add.noftz.{f16x2,bf16x2} (PTX requires
	// .noftz); the 16-bit scalar forms and the other operations are
	// refused.
	switch half := t == F16 || t.LowPrecision(); {
	case half && (op != AtomAdd || (t != F16x2 && t != BF16x2)):
		st.a.errorf(in.Pos, "unsupported: %s.%s on .%s", in.Op, AtomName(op), t)
		return
	case half != noftz:
		st.a.errorf(in.Pos, "%s.noftz is the form of .f16x2/.bf16x2 add (and only of it)", in.Op)
		return
	}
	mi.in.Op, mi.in.Type = OpATOM, t
	ops, ok := st.atomHead(in, &mi, t, red, space, op)
	if !ok || !st.src(&mi, 1, ops[0], t) {
		return
	}
	var c Operand
	if op == AtomCAS {
		c = ops[1]
	}
	st.emitOptC(mi, c, t)
}

// atomHead lowers the head of an ATOM (mbarrier operations included): its
// destination of type dt from the first operand (a fresh register when
// sink: red, and the forms without one) and its address from the next,
// in space, with operation op. It returns the operands after the address.
func (st *fnState) atomHead(in *Instr, mi *minst, dt Type, sink bool, space, op int) ([]Operand, bool) {
	ops := in.Operands
	if sink {
		v := st.newVreg("_", dt, in.Pos)
		mi.defs = append(mi.defs, rref{v, fDst})
	} else {
		if !st.dst(mi, fDst, ops[0], dt, false) {
			return nil, false
		}
		ops = ops[1:]
	}
	eff, ok := st.memAddr(mi, ops[0], space)
	if !ok {
		return nil, false
	}
	mi.in.Mods |= uint16(eff) | uint16(op)<<ModAtomShift
	return ops[1:], true
}

// lowerMemHalves lowers ld/st .v8 of 32-bit elements and .v4 of 64-bit
// ones (PTX ISA 8.x: 32-byte vectors) as two accesses of half the vector,
// at the address and 16 bytes above it, each with its half of the
// elements.
func (st *fnState) lowerMemHalves(in *Instr, mi minst, t Type) {
	n, half := 8, "v4"
	if t.Bits() == 64 {
		n, half = 4, "v2"
	}
	if t.Bits() < 32 {
		st.a.errorf(in.Pos, "unsupported: %s.v8.%s (only 32-bit elements)", in.Op, t)
		return
	}
	store := in.Op == "st"
	ai, di := 1, 0
	if store {
		ai, di = 0, 1
	}
	ao, ok := in.Operands[ai].(*AddrOperand)
	vo, vok := in.Operands[di].(*VecOperand)
	if !ok || !vok || len(vo.Elems) != n {
		st.a.errorf(in.Pos, "%s.v%d needs an address and a vector of %d elements", in.Op, n, n)
		return
	}
	for k := 0; k < 2; k++ {
		part := *in
		part.Mods = nil
		for _, m := range in.Mods {
			if m == "v8" || m == "v4" {
				m = half
			}
			part.Mods = append(part.Mods, m)
		}
		a := *ao
		a.Offset += int64(16 * k)
		v := *vo
		v.Elems = vo.Elems[k*n/2 : (k+1)*n/2]
		part.Operands = []Operand{nil, nil}
		part.Operands[ai], part.Operands[di] = &a, &v
		m := mi
		m.uses = append([]rref(nil), mi.uses...)
		st.lowerMem(&part, splitMods(&part), m)
	}
}
