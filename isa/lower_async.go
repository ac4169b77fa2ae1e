// Lowering cp.async: the copy, commit_group, wait_group and wait_all.

package isa

// lowerCpAsync lowers cp.async.{ca,cg}.shared{::cta}.global [dst], [src],
// cp-size{, src-size | ignore-src}{, cache-policy} (cp-size 4, 8 or 16;
// .cg only 16; cache hints and the policy ignored; the ignore-src
// predicate p is the src-size p ? 0 : cp-size, a SELP),
// cp.async.commit_group, cp.async.wait_group N and cp.async.wait_all. A
// source address with an offset or a variable name is computed into a
// register first (an ADD).
func (st *fnState) lowerCpAsync(in *Instr, ms modSet, mi minst) {
	if len(ms.rest) == 0 {
		st.a.errorf(in.Pos, "cp needs .async")
		return
	}
	if ms.rest[0] != "async" {
		st.a.errorf(in.Pos, "unsupported: %s", joinMods(in))
		return
	}
	if len(ms.rest) > 1 && ms.rest[1] == "mbarrier" {
		st.lowerCpAsyncArrive(in, ms, mi)
		return
	}
	if len(ms.rest) > 1 && ms.rest[1] == "bulk" {
		st.lowerCpAsyncBulk(in, ms, mi)
		return
	}
	mi.in.Op = OpCPASYNC
	kind := -1
	cg, ca, shared, global := false, false, false, false
	for _, m := range ms.rest[1:] {
		switch {
		case m == "commit_group" && kind < 0:
			kind = CpAsyncCommit
		case m == "wait_group" && kind < 0:
			kind = CpAsyncWaitGroup
		case m == "wait_all" && kind < 0:
			kind = CpAsyncWaitAll
		case m == "ca":
			ca = true
		case m == "cg":
			cg = true
		case m == "shared" || m == "shared::cta":
			shared = true
		case m == "global":
			global = true
		case len(m) > 4 && m[:4] == "L2::":
		default:
			st.a.errorf(in.Pos, "unsupported: cp.async.%s", m)
			return
		}
	}
	if len(ms.types) != 0 {
		st.a.errorf(in.Pos, "unsupported: cp.async with a type")
		return
	}
	if kind >= 0 {
		st.lowerGroupOp(in, mi, kind, 0, "cp.async")
		return
	}
	if ca == cg || !shared || !global {
		st.a.errorf(in.Pos, "cp.async copies need .ca or .cg and .shared.global")
		return
	}
	// With .L2::cache_hint the last operand is the cache policy (read,
	// not used).
	hint := 0
	if ms.has("L2::cache_hint") {
		hint = 1
	}
	if !st.wantOperands(in, 3+hint, 4+hint) {
		return
	}
	size, ok := in.Operands[2].(*ImmOperand)
	code := -1
	if ok && !size.Float {
		switch size.Int {
		case 4:
			code = 0
		case 8:
			code = 1
		case 16:
			code = 2
		}
	}
	if code < 0 || cg && code != 2 {
		st.a.errorf(OperandPos(in.Operands[2]), "cp.async cp-size must be 4, 8 or 16 (.cg: 16)")
		return
	}
	mi.in.Mods = uint16(code)
	if cg {
		mi.in.Mods |= ModCpAsyncCG
	}
	// The source address into a register.
	addr := minst{pos: in.Pos}
	addr.in.Op, addr.in.Type = OpADD, U64
	if _, ok := st.memAddr(&addr, in.Operands[1], SpaceGlobal); !ok {
		return
	}
	if addr.in.Type2 != U64 {
		st.a.errorf(OperandPos(in.Operands[1]), "unsupported: cp.async from a 32-bit address")
		return
	}
	addr.in.Type2 = 0
	addr.in.B, addr.in.C = ImmOp(), ZeroOp()
	v := st.newVreg("cp.async.src", U64, in.Pos)
	addr.defs = append(addr.defs, rref{v, fDst})
	if _, ok := st.memAddr(&mi, in.Operands[0], SpaceShared); !ok {
		return
	}
	mi.in.B = RegOp(0)
	mi.uses = append(mi.uses, rref{v, fB})
	var sel *minst
	if len(in.Operands)-hint == 4 {
		mi.in.Mods |= ModCpAsyncSrcSize
		if ro, ok := in.Operands[3].(*RegOperand); ok && st.isPred(ro) {
			// ignore-src: when true nothing is read and the cp-size bytes
			// are zero, i.e. src-size = p ? 0 : cp-size (a SELP).
			sel = &minst{pos: in.Pos}
			sel.in.Op, sel.in.Type, sel.in.A = OpSELP, U32, ZeroOp()
			st.setImm(sel, 1, uint64(size.Int))
			if !st.src(sel, 2, ro, Pred) {
				return
			}
			n := st.newVreg("cp.async.src-size", U32, in.Pos)
			sel.defs = append(sel.defs, rref{n, fDst})
			mi.in.C = RegOp(0)
			mi.uses = append(mi.uses, rref{n, fC})
		} else if !st.src(&mi, 2, in.Operands[3], U32) {
			return
		}
	} else {
		mi.in.C = ZeroOp()
	}
	st.emit(addr)
	if sel != nil {
		st.emit(*sel)
	}
	st.emit(mi)
}

// isPred reports a register operand naming a predicate register.
func (st *fnState) isPred(ro *RegOperand) bool {
	e := st.sc.lookup(ro.Name)
	return e != nil && e.kind == entReg && st.vregs[e.v].class == classPred
}

// lowerGroupOp lowers a commit_group, wait_group N or wait_all (kind) of
// cp.async (mods 0) or of cp.async.bulk (mods ModCpAsyncBulk; what names
// the instruction in messages).
func (st *fnState) lowerGroupOp(in *Instr, mi minst, kind int, mods uint16, what string) {
	nops := 0
	if kind == CpAsyncWaitGroup {
		nops = 1
	}
	if !st.wantOperands(in, nops, nops) {
		return
	}
	mi.in.Op = OpCPASYNC
	mi.in.Mods = mods | uint16(kind)<<ModCpAsyncKindSh
	if kind == CpAsyncWaitGroup {
		n, ok := in.Operands[0].(*ImmOperand)
		if !ok || n.Float || n.Int < 0 || n.Int > 1<<20 {
			st.a.errorf(OperandPos(in.Operands[0]), "%s.wait_group needs an integer constant", what)
			return
		}
		mi.in.Imm, mi.immUsed = uint32(n.Int), true
	}
	mi.in.A, mi.in.B, mi.in.C = ZeroOp(), ZeroOp(), ZeroOp()
	st.emit(mi)
}

// lowerCpAsyncArrive lowers cp.async.mbarrier.arrive{.noinc}{.shared}.b64
// [mbar]: an arrive-on operation once the thread's earlier cp.async
// copies complete. The model's copies are done at issue, so the arrive is
// made at once: with .noinc it counts as one arrival (an mbarrier arrive
// of count 1); without, the pending count is incremented first, so the
// pair leaves the barrier as it is and nothing is emitted.
func (st *fnState) lowerCpAsyncArrive(in *Instr, ms modSet, mi minst) {
	noinc := false
	space := SpaceGeneric
	for _, m := range ms.rest[2:] {
		switch {
		case m == "arrive":
		case m == "noinc":
			noinc = true
		case m == "shared" || m == "shared::cta":
			space = SpaceShared
		default:
			st.a.errorf(in.Pos, "unsupported: cp.async.mbarrier.%s", m)
			return
		}
	}
	if !ms.has("arrive") || len(ms.types) != 1 || ms.types[0] != B64 || !st.wantOperands(in, 1, 1) {
		st.a.errorf(in.Pos, "cp.async.mbarrier needs .arrive, .b64 and the barrier's address")
		return
	}
	if !noinc {
		probe := minst{pos: in.Pos}
		st.memAddr(&probe, in.Operands[0], space) // reports a bad address
		return
	}
	mi.in.Op, mi.in.Type = OpATOM, B64
	if _, ok := st.atomHead(in, &mi, B64, true, space, AtomMbarArrive); !ok {
		return
	}
	st.setImm(&mi, 1, 1)
	mi.in.C = ZeroOp()
	st.emit(mi)
}

// lowerCpAsyncBulk lowers the non-tensor cp.async.bulk forms (PTX ISA
// 9.7.9.25.4) a single SM can run:
//
//	cp.async.bulk.shared::{cluster,cta}.global.mbarrier::complete_tx::bytes{.L2::cache_hint} [dst], [src], size, [mbar]{, policy}
//	cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
//	cp.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint} [dst], [src], size{, policy}
//	cp.async.bulk.commit_group
//	cp.async.bulk.wait_group{.read} N
//	cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [src], size{, policy}
//
// A copy is a CPASYNC with ModCpAsyncBulk (the source address computed
// into a register by an ADD first); an mbarrier completion is an
// mbarrier.complete_tx of size bytes after it, in the same lanes. The
// prefetch is a hint: nothing is emitted. .shared::cluster is the CTA's
// own window (spaceOf). Refused with
// unsupported: .multicast::cluster, .cp_mask, the tensor and reduction
// forms.
func (st *fnState) lowerCpAsyncBulk(in *Instr, ms modSet, mi minst) {
	var spaces []int
	kind, mbar, group, hint, prefetch, read := CpAsyncCopy, false, false, false, false, false
	for _, m := range ms.rest[2:] {
		switch m {
		case "shared::cluster", "shared::cta", "global":
			s, _ := spaceOf(m)
			spaces = append(spaces, s)
		case "mbarrier::complete_tx::bytes":
			mbar = true
		case "bulk_group":
			group = true
		case "L2::cache_hint":
			hint = true
		case "commit_group":
			kind = CpAsyncCommit
		case "wait_group":
			kind = CpAsyncWaitGroup
		case "read":
			read = true
		case "prefetch":
			prefetch = true
		case "L2":
		case "wait_all": // cp.async's, not cp.async.bulk's
			st.a.errorf(in.Pos, "cp.async.bulk.wait_all is not PTX (bulk async-groups are waited for with cp.async.bulk.wait_group)")
			return
		default:
			st.a.errorf(in.Pos, "unsupported: cp.async.bulk.%s", m)
			return
		}
	}
	if len(ms.types) != 0 {
		st.a.errorf(in.Pos, "unsupported: cp.async.bulk with a type")
		return
	}
	mi.in.Op = OpCPASYNC
	switch {
	case (kind == CpAsyncCommit && !read || kind == CpAsyncWaitGroup) && len(spaces) == 0:
		// wait_group.read: until the sources have been read; the model's
		// copies read them at issue, and the wait is the same as without.
		st.lowerGroupOp(in, mi, kind, ModCpAsyncBulk, "cp.async.bulk")
		return
	case prefetch && len(spaces) == 1 && spaces[0] == SpaceGlobal && !mbar && !group && kind == CpAsyncCopy:
		nops := 2
		if hint {
			nops = 3
		}
		if st.wantOperands(in, nops, nops) {
			probe := minst{pos: in.Pos}
			st.memAddr(&probe, in.Operands[0], SpaceGlobal) // reports a bad address
		}
		return
	}
	dir := -1
	if kind == CpAsyncCopy && !prefetch && !read && len(spaces) == 2 {
		switch {
		case spaces[0] == SpaceShared && spaces[1] == SpaceGlobal && mbar && !group:
			dir = CpAsyncGlobalToShared
		case spaces[0] == SpaceShared && spaces[1] == SpaceShared && mbar && !group && !hint:
			dir = CpAsyncSharedToShared
		case spaces[0] == SpaceGlobal && spaces[1] == SpaceShared && group && !mbar:
			dir = CpAsyncSharedToGlobal
		}
	}
	if dir < 0 {
		st.a.errorf(in.Pos, "%s is not a cp.async.bulk form (dst and src spaces with mbarrier::complete_tx::bytes or bulk_group, commit_group, wait_group, prefetch.L2.global)", joinMods(in))
		return
	}
	nops := 3
	if mbar {
		nops = 4
	}
	if hint {
		nops++ // the cache policy: read, not used
	}
	if !st.wantOperands(in, nops, nops) {
		return
	}
	// The source address into a register.
	addr := minst{pos: in.Pos}
	addr.in.Op = OpADD
	if _, ok := st.memAddr(&addr, in.Operands[1], spaces[1]); !ok {
		return
	}
	t := addr.in.Type2
	if t == U32 && spaces[1] == SpaceGlobal {
		st.a.errorf(OperandPos(in.Operands[1]), "unsupported: cp.async.bulk from a 32-bit global address")
		return
	}
	addr.in.Type, addr.in.Type2 = t, 0
	addr.in.B, addr.in.C = ImmOp(), ZeroOp()
	v := st.newVreg("cp.async.src", t, in.Pos)
	addr.defs = append(addr.defs, rref{v, fDst})
	if _, ok := st.memAddr(&mi, in.Operands[0], spaces[0]); !ok {
		return
	}
	mi.in.Mods = ModCpAsyncBulk | uint16(dir)<<ModCpAsyncDirSh
	if t == U32 {
		mi.in.Mods |= ModCpAsyncSrc32
	}
	mi.in.B = RegOp(0)
	mi.uses = append(mi.uses, rref{v, fB})
	if !st.src(&mi, 2, in.Operands[2], U32) {
		return
	}
	st.emit(addr)
	st.emit(mi)
	if mbar {
		g := minst{pos: in.Pos}
		g.guardAs(mi)
		st.instrLowered(&Instr{Pos: in.Pos, Op: "mbarrier", Mods: []string{"complete_tx", "shared::cluster", "b64"},
			Operands: []Operand{in.Operands[3], in.Operands[2]}}, g)
	}
}
