// Lowering mbarrier: init, inval, arrive (.noComplete), arrive_drop,
// test_wait/try_wait (.parity) as ATOM operations on the barrier object,
// and pending_count.

package isa

// lowerMbarrier lowers the mbarrier instructions (PTX ISA 9.7.13.15).
// try_wait is test_wait with ModMbarTry: a thread whose phase has not
// completed is suspended until it does or a time limit passes (the
// suspendTimeHint, in C with ModMbarHint, or the model's limit). The
// tx-count forms are arrive (or arrive_drop) with ModMbarTx and the
// tx-count in C: expect_tx (B = 0 arrivals), complete_tx (ModMbarTxDone:
// C is subtracted), arrive.expect_tx and arrive_drop.expect_tx (one
// arrival after the expect). .release/.acquire/.relaxed with .cta or
// .cluster scope are accepted (one SM: memory is coherent), and
// .shared::cluster is the CTA's own shared window (spaceOf).
func (st *fnState) lowerMbarrier(in *Instr, ms modSet, mi minst) {
	if len(ms.rest) == 0 {
		st.a.errorf(in.Pos, "mbarrier needs an operation")
		return
	}
	op, rest := ms.rest[0], ms.rest[1:]
	space := SpaceGeneric
	parity, noComplete, tx := false, false, op == "expect_tx" || op == "complete_tx"
	for _, m := range rest {
		if s, ok := spaceOf(m); ok && s == SpaceShared {
			space = s
			continue
		}
		switch m {
		case "release", "acquire", "relaxed", "cta", "cluster":
		case "parity":
			parity = true
		case "noComplete":
			noComplete = true
		case "expect_tx":
			tx = tx || op == "arrive" || op == "arrive_drop"
			if !tx {
				st.a.errorf(in.Pos, "mbarrier.%s.%s is not PTX (only arrive and arrive_drop take .expect_tx)", op, m)
				return
			}
		default:
			st.a.errorf(in.Pos, "mbarrier.%s.%s is not PTX", op, m)
			return
		}
	}
	if op == "pending_count" {
		st.lowerMbarPending(in, ms, mi)
		return
	}
	if len(ms.types) != 1 || ms.types[0] != B64 {
		st.a.errorf(in.Pos, "mbarrier.%s needs .b64", op)
		return
	}
	aop, nmin, nmax := -1, 0, 0
	switch {
	case op == "init" && !parity && !noComplete:
		aop, nmin, nmax = AtomMbarInit, 2, 2
	case op == "inval" && !parity && !noComplete:
		aop, nmin, nmax = AtomMbarInit, 1, 1
	case (op == "expect_tx" || op == "complete_tx") && !parity && !noComplete:
		aop, nmin, nmax = AtomMbarArrive, 2, 2
	case op == "arrive" && !parity:
		aop, nmin, nmax = AtomMbarArrive, 2, 3
		switch {
		case tx && noComplete:
			aop = -1
		case tx:
			nmin = 3
		case noComplete:
			aop, nmin = AtomMbarArriveNC, 3
		}
	case op == "arrive_drop" && !parity && !noComplete:
		aop, nmin, nmax = AtomMbarDrop, 2, 3
		if tx {
			nmin = 3
		}
	case (op == "test_wait" || op == "try_wait") && !noComplete:
		aop, nmin, nmax = AtomMbarTest, 3, 3
		if op == "try_wait" {
			nmax = 4 // suspendTimeHint
		}
		if parity {
			aop = AtomMbarTestParity
		}
	}
	switch {
	case aop < 0 && op == "arrive_drop" && noComplete && !tx:
		st.a.errorf(in.Pos, "unsupported: %s", joinMods(in))
		return
	case aop < 0:
		// Not PTX: an unknown operation, or .parity/.noComplete/.expect_tx
		// on an operation that has no such form.
		st.a.errorf(in.Pos, "%s is not PTX (the operations are init, inval, arrive, arrive_drop, expect_tx, complete_tx, test_wait, try_wait and pending_count; .noComplete goes with arrive or arrive_drop without .expect_tx, .parity with test_wait or try_wait)", joinMods(in))
		return
	}
	if !st.wantOperands(in, nmin, nmax) {
		return
	}
	mi.in.Op, mi.in.Type = OpATOM, B64
	dt := B64
	if aop == AtomMbarTest || aop == AtomMbarTestParity {
		dt = Pred
	}
	ops, ok := st.atomHead(in, &mi, dt, aop == AtomMbarInit || op == "expect_tx" || op == "complete_tx", space, aop)
	if !ok {
		return
	}
	var c Operand
	switch {
	case tx:
		mi.in.Mods |= ModMbarTx
		if op == "complete_tx" {
			mi.in.Mods |= ModMbarTxDone
		}
		n := uint64(1) // arrive.expect_tx, arrive_drop.expect_tx: one arrival
		if op == "expect_tx" || op == "complete_tx" {
			n = 0
		}
		st.setImm(&mi, 1, n)
		c = ops[0]
	case op == "inval":
		st.setImm(&mi, 1, 0)
	case aop == AtomMbarTest:
		if !st.src(&mi, 1, ops[0], B64) {
			return
		}
	case len(ops) > 0:
		if !st.src(&mi, 1, ops[0], U32) {
			return
		}
	default: // arrive without a count: 1
		st.setImm(&mi, 1, 1)
	}
	if op == "try_wait" {
		mi.in.Mods |= ModMbarTry
		if len(ops) > 1 { // suspendTimeHint
			mi.in.Mods |= ModMbarHint
			c = ops[1]
		}
	}
	st.emitOptC(mi, c, U32)
}

// lowerMbarPending lowers mbarrier.pending_count.b64 count, state: the
// pending-arrival field of the state (a CVT of its low word, then an AND).
func (st *fnState) lowerMbarPending(in *Instr, ms modSet, mi minst) {
	if len(ms.types) != 1 || ms.types[0] != B64 || !st.wantOperands(in, 2, 2) {
		st.a.errorf(in.Pos, "mbarrier.pending_count needs .b64 and two operands")
		return
	}
	cvt := mi
	cvt.uses = append([]rref(nil), mi.uses...)
	cvt.in.Op, cvt.in.Type, cvt.in.Type2 = OpCVT, U32, U64
	if !st.dst(&cvt, fDst, in.Operands[0], U32, false) || !st.srcWide(&cvt, 0, in.Operands[1], U64) {
		return
	}
	cvt.in.B, cvt.in.C = ZeroOp(), ZeroOp()
	v := cvt.defs[len(cvt.defs)-1].v
	st.emit(cvt)
	mi.in.Op, mi.in.Type = OpAND, B32
	mi.defs = append(mi.defs, rref{v, fDst})
	mi.in.A = RegOp(0)
	mi.uses = append(mi.uses, rref{v, fA})
	st.setImm(&mi, 1, MbarCountMask)
	mi.in.C = ZeroOp()
	st.emit(mi)
}
