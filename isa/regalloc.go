package isa

import (
	"math/bits"
	"sort"
)

// Register allocation: liveness over the function's control-flow graph,
// linear scan over conservative live intervals (one interval per virtual
// register), then caller-save code around every call for the registers
// live across it, and the final frame layout:
//
//	[incoming arguments | locals | call-save area | outgoing arguments]
//
// The callee's frame begins at the caller's outgoing area, so the callee
// sees its arguments at the start of its own frame.

type bitset []uint64

func newBitset(n int) bitset       { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)         { b[i>>6] |= 1 << uint(i&63) }
func (b bitset) clear(i int)       { b[i>>6] &^= 1 << uint(i&63) }
func (b bitset) has(i int) bool    { return b[i>>6]&(1<<uint(i&63)) != 0 }
func (b bitset) copyFrom(o bitset) { copy(b, o) }
func (b bitset) orWith(o bitset) bool {
	changed := false
	for i := range b {
		n := b[i] | o[i]
		if n != b[i] {
			b[i] = n
			changed = true
		}
	}
	return changed
}
func (b bitset) each(f func(int)) {
	for i, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			f(i*64 + t)
			w &^= 1 << uint(t)
		}
	}
}

func (st *fnState) successors(i int) []int {
	mi := &st.code[i]
	var out []int
	fall := i+1 < len(st.code)
	switch mi.in.Op {
	case OpBRA:
		out = append(out, st.labelAt[mi.target])
		fall = fall && mi.in.GuardOn
	case OpBRX:
		for _, l := range mi.table {
			out = append(out, st.labelAt[l])
		}
		fall = fall && mi.in.GuardOn
	case OpRET, OpEXIT, OpRTT:
		fall = fall && mi.in.GuardOn
	}
	if fall {
		out = append(out, i+1)
	}
	return out
}

func (st *fnState) allocate() {
	code := st.code
	n := len(code)
	nv := len(st.vregs)
	// Basic blocks.
	leader := make([]bool, n+1)
	leader[0] = true
	for i := range code {
		switch code[i].in.Op {
		case OpBRA, OpBRX, OpRET, OpEXIT, OpRTT:
			leader[i+1] = true
			for _, s := range st.successors(i) {
				leader[s] = true
			}
		}
	}
	var starts []int
	blockOf := make([]int, n)
	for i := 0; i < n; i++ {
		if leader[i] {
			starts = append(starts, i)
		}
		blockOf[i] = len(starts) - 1
	}
	nb := len(starts)
	end := func(b int) int {
		if b+1 < nb {
			return starts[b+1]
		}
		return n
	}
	succ := make([][]int, nb)
	for b := 0; b < nb; b++ {
		for _, s := range st.successors(end(b) - 1) {
			succ[b] = append(succ[b], blockOf[s])
		}
	}
	// Per-block use (upward exposed) and kill sets.
	use := make([]bitset, nb)
	kill := make([]bitset, nb)
	for b := 0; b < nb; b++ {
		use[b], kill[b] = newBitset(nv), newBitset(nv)
		for i := end(b) - 1; i >= starts[b]; i-- {
			mi := &code[i]
			if !mi.in.GuardOn {
				for _, d := range mi.defs {
					kill[b].set(d.v)
					use[b].clear(d.v)
				}
			}
			for _, u := range mi.uses {
				use[b].set(u.v)
			}
		}
	}
	liveIn := make([]bitset, nb)
	liveOut := make([]bitset, nb)
	for b := range liveIn {
		liveIn[b], liveOut[b] = newBitset(nv), newBitset(nv)
	}
	tmp := newBitset(nv)
	for changed := true; changed; {
		changed = false
		for b := nb - 1; b >= 0; b-- {
			for _, s := range succ[b] {
				if liveOut[b].orWith(liveIn[s]) {
					changed = true
				}
			}
			// in = use | (out &^ kill)
			for i := range tmp {
				tmp[i] = use[b][i] | liveOut[b][i]&^kill[b][i]
			}
			if liveIn[b].orWith(tmp) {
				changed = true
			}
		}
	}
	// Intervals and the registers live across each call.
	const none = -1
	start := make([]int, nv)
	stop := make([]int, nv)
	for v := range start {
		start[v], stop[v] = none, none
	}
	extend := func(v, lo, hi int) {
		if start[v] == none || lo < start[v] {
			start[v] = lo
		}
		if hi > stop[v] {
			stop[v] = hi
		}
	}
	across := map[int][]int{}
	live := newBitset(nv)
	for b := 0; b < nb; b++ {
		live.copyFrom(liveOut[b])
		live.each(func(v int) { extend(v, end(b)-1, end(b)) })
		for i := end(b) - 1; i >= starts[b]; i-- {
			mi := &code[i]
			if mi.isCall {
				var vs []int
				live.each(func(v int) { vs = append(vs, v) })
				across[i] = vs
			}
			live.each(func(v int) { extend(v, i, i+1) })
			for _, d := range mi.defs {
				extend(d.v, i, i+1)
				if !mi.in.GuardOn {
					live.clear(d.v)
				}
			}
			for _, u := range mi.uses {
				extend(u.v, i, i)
				live.set(u.v)
			}
		}
		live.each(func(v int) { extend(v, starts[b], starts[b]) })
	}
	// Linear scan.
	order := make([]int, 0, nv)
	for v := 0; v < nv; v++ {
		if start[v] != none {
			order = append(order, v)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return start[order[i]] < start[order[j]] })
	phys := make([]int, nv)
	gprFree := newBitset(st.a.opt.MaxRegs)
	predFree := newBitset(st.a.opt.MaxPreds)
	for i := 0; i < st.a.opt.MaxRegs; i++ {
		gprFree.set(i)
	}
	for i := 0; i < st.a.opt.MaxPreds; i++ {
		predFree.set(i)
	}
	var active []int
	maxGPR, maxPred := 0, 0
	failed := false
	for _, v := range order {
		// Expire intervals that ended.
		keep := active[:0]
		for _, w := range active {
			if stop[w] <= start[v] {
				st.release(w, phys[w], gprFree, predFree)
			} else {
				keep = append(keep, w)
			}
		}
		active = keep
		r := st.grab(v, gprFree, predFree)
		if r < 0 {
			if !failed {
				vi := st.vregs[v]
				what := "registers"
				limit := st.a.opt.MaxRegs
				if vi.class == classPred {
					what, limit = "predicate registers", st.a.opt.MaxPreds
				}
				st.a.errorf(vi.pos, "%s needs more than the machine's %d %s per thread (too many values live at once)", st.f.Name, limit, what)
				failed = true
			}
			continue
		}
		phys[v] = r
		active = append(active, v)
		switch st.vregs[v].class {
		case classGPR1:
			maxGPR = max(maxGPR, r+1)
		case classGPR2:
			maxGPR = max(maxGPR, r+2)
		case classPred:
			maxPred = max(maxPred, r+1)
		}
	}
	if failed {
		return
	}
	st.fs.regs, st.fs.preds = maxGPR, maxPred
	// Frame: locals, save area, outgoing area.
	saveBase := alignUp(st.locals, 8)
	saveSize := uint32(0)
	type saveSet struct {
		gprs  []int
		preds []int
	}
	saves := map[int]saveSet{}
	for i, vs := range across {
		var s saveSet
		seenG := map[int]bool{}
		seenP := map[int]bool{}
		for _, v := range vs {
			r := phys[v]
			switch st.vregs[v].class {
			case classGPR1:
				if !seenG[r] {
					seenG[r] = true
					s.gprs = append(s.gprs, r)
				}
			case classGPR2:
				for _, x := range []int{r, r + 1} {
					if !seenG[x] {
						seenG[x] = true
						s.gprs = append(s.gprs, x)
					}
				}
			case classPred:
				if !seenP[r] {
					seenP[r] = true
					s.preds = append(s.preds, r)
				}
			}
		}
		sort.Ints(s.gprs)
		sort.Ints(s.preds)
		saves[i] = s
		if sz := uint32(4*len(s.gprs) + len(s.preds)); sz > saveSize {
			saveSize = sz
		}
	}
	outBase := alignUp(saveBase+saveSize, 16)
	st.fs.frame = alignUp(outBase+st.outSize, 16)
	st.fs.inSize = st.inSize
	if st.outSize > 0 && outBase/8 >= 1<<14 {
		st.a.errorf(st.f.Pos, "frame of %s (%d bytes before its outgoing arguments) is too large for CALL's frame field", st.f.Name, outBase)
		return
	}
	// Patch registers and emit the final code with save/restore sequences.
	final := make([]minst, 0, n+8)
	newIndex := make([]int, n)
	for i := range code {
		mi := code[i]
		for _, r := range mi.defs {
			patch(&mi.in, r.field, phys[r.v])
		}
		for _, r := range mi.uses {
			patch(&mi.in, r.field, phys[r.v])
		}
		if mi.outArea {
			mi.in.Imm += outBase
		}
		if mi.isCall {
			mi.in.Mods |= uint16(outBase/8) << ModFrameShift
			s := saves[i]
			first := len(final)
			for k, r := range s.gprs {
				final = append(final, minst{pos: mi.pos, in: Inst{Op: OpST, Type: B32, Mods: SpaceLocal, A: FPOp(), B: RegOp(uint8(r)), C: ZeroOp(), Imm: saveBase + uint32(4*k)}})
			}
			for k, p := range s.preds {
				final = append(final, minst{pos: mi.pos, in: Inst{Op: OpST, Type: Pred, Mods: SpaceLocal, A: FPOp(), B: PredOp(uint8(p), false), C: ZeroOp(), Imm: saveBase + uint32(4*len(s.gprs)+k)}})
			}
			if len(final) > first {
				final[first].labels = mi.labels
				mi.labels = nil
			}
			newIndex[i] = first
			final = append(final, mi)
			for k, r := range s.gprs {
				final = append(final, minst{pos: mi.pos, in: Inst{Op: OpLD, Type: B32, Mods: SpaceLocal, A: FPOp(), B: ZeroOp(), C: ZeroOp(), Dst: uint8(r), Imm: saveBase + uint32(4*k)}})
			}
			for k, p := range s.preds {
				final = append(final, minst{pos: mi.pos, in: Inst{Op: OpLD, Type: Pred, Mods: SpaceLocal, A: FPOp(), B: ZeroOp(), C: ZeroOp(), Dst: uint8(p), Imm: saveBase + uint32(4*len(s.gprs)+k)}})
			}
			continue
		}
		newIndex[i] = len(final)
		final = append(final, mi)
	}
	for id, at := range st.labelAt {
		if at >= 0 && at < n {
			st.labelAt[id] = newIndex[at]
		}
	}
	for i := range final {
		mi := &final[i]
		switch mi.reloc {
		case relocLabel:
			mi.target = uint32(st.labelAt[mi.target])
		case relocBrTable:
			for k, l := range mi.table {
				mi.table[k] = uint32(st.labelAt[l])
			}
		}
	}
	st.fs.code = final
}

func (st *fnState) grab(v int, gpr, pred bitset) int {
	switch st.vregs[v].class {
	case classPred:
		for i := 0; i < st.a.opt.MaxPreds; i++ {
			if pred.has(i) {
				pred.clear(i)
				return i
			}
		}
	case classGPR1:
		for i := 0; i < st.a.opt.MaxRegs; i++ {
			if gpr.has(i) {
				gpr.clear(i)
				return i
			}
		}
	case classGPR2:
		for i := 0; i+1 < st.a.opt.MaxRegs; i += 2 {
			if gpr.has(i) && gpr.has(i+1) {
				gpr.clear(i)
				gpr.clear(i + 1)
				return i
			}
		}
	}
	return -1
}

func (st *fnState) release(v, r int, gpr, pred bitset) {
	switch st.vregs[v].class {
	case classPred:
		pred.set(r)
	case classGPR1:
		gpr.set(r)
	case classGPR2:
		gpr.set(r)
		gpr.set(r + 1)
	}
}

func patch(in *Inst, field uint8, r int) {
	switch field {
	case fDst:
		in.Dst = uint8(r)
	case fDst2:
		in.Dst2 = uint8(r)
	case fA:
		in.A = patchOp(in.A, r)
	case fB:
		in.B = patchOp(in.B, r)
	case fC:
		in.C = patchOp(in.C, r)
	case fGuard:
		in.Guard = uint8(r)
	case fImmReg:
		in.Imm = uint32(r)
	}
}

func patchOp(o Operand12, r int) Operand12 {
	if o.IsPred() {
		return PredOp(uint8(r), o.PredNeg())
	}
	return RegOp(uint8(r))
}
