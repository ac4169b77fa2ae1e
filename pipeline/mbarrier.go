// Decoding and executing the mbarrier operations (ATOM operations on a
// 64-bit barrier object in shared memory; isa.AtomMbar*).

package pipeline

import (
	"fmt"
	"math/bits"
	"sort"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/isa"
)

// decodeMbar decodes an ATOM whose operation is an mbarrier one.
func (dc *decoder) decodeMbar(d *dinst, op int) *decodeErr {
	in := &d.in
	if in.Type != isa.B64 {
		return illegal("ATOM.%s.%s: the barrier object is .b64", isa.AtomName(op), in.Type)
	}
	bt, dt := isa.U32, isa.B64
	switch op {
	case isa.AtomMbarTest:
		bt, dt = isa.B64, isa.Pred
	case isa.AtomMbarTestParity:
		dt = isa.Pred
	}
	try, tx := in.Mods&(isa.ModMbarTry|isa.ModMbarHint), in.Mods&(isa.ModMbarTx|isa.ModMbarTxDone)
	if try != 0 && op != isa.AtomMbarTest && op != isa.AtomMbarTestParity || try == isa.ModMbarHint ||
		tx != 0 && op != isa.AtomMbarArrive && op != isa.AtomMbarDrop || tx == isa.ModMbarTxDone {
		return illegal("ATOM.%s: mbarrier modifiers %#x", isa.AtomName(op), in.Mods)
	}
	var err *decodeErr
	if d.b, err = dc.src(d, in.B, bt); err != nil {
		return err
	}
	if in.Mods&(isa.ModMbarHint|isa.ModMbarTx) != 0 {
		if d.c, err = dc.src(d, in.C, isa.U32); err != nil {
			return err
		}
	}
	d.d1, err = dc.dstReg(d, in.Dst, dt)
	return err
}

// mbarWait is a warp suspended in mbarrier.try_wait: the barrier object
// (its first byte in the CTA's shared memory) and the lanes whose phase
// had not completed, with their waitComplete predicate.
type mbarWait struct {
	obj   *byte
	lanes uint32
	dst   dest
	limit uint64 // the time limit (the end of the suspension without a completion)
}

// pendingTx is the complete_tx of a cp.async.bulk copy into shared
// memory: its bytes reach the barrier object obj at cycle at, when the
// copy completes. The CTA keeps them (they outlive a warp that exits).
// Until then the object holds the state without them;
// every mbarrier operation of the CTA first applies the completions that
// are due (applyTx), and a warp suspended in try_wait on obj is woken at
// the cycle the pending completions complete its phase (predictTx).
type pendingTx struct {
	obj   memRef
	at    uint64
	bytes int64
}

// tryWaitLimitNs is the model's time limit of a try_wait without a
// suspendTimeHint, and the longest hint it honours (PTX leaves the limit
// to the system): nanosleep's longest sleep, so that a suspension, like a
// sleep, stays below run.watchdog_cycles (which must exceed 1 ms).
const tryWaitLimitNs = clocktimer.MaxSleepNs

// tryWait suspends w after an mbarrier.try_wait (PTX ISA 9.7.13.15.16:
// "If the phase is not complete, the executing thread may be suspended.
// Suspended thread resumes execution when the specified phase completes
// OR before the phase completes following a system-dependent time
// limit"). The lanes' predicates are already written (false for the
// lanes whose phase is incomplete). If some lane's phase is incomplete
// and all such lanes test the same barrier object, the warp waits in
// state mbarrier until the time limit (the lowest suspendTimeHint of
// those lanes, in ns, or tryWaitLimitNs; at most tryWaitLimitNs), and
// the phase's completion wakes it with those lanes' predicates true
// (wakeTryWaits). Lanes on different objects are not suspended: they
// return at once, as test_wait does.
func (sm *SM) tryWait(w *warp, d *dinst, emask uint32) {
	lanes := emask &^ w.preds[d.d1.reg]
	if lanes == 0 {
		return
	}
	obj := &sm.refs[bits.TrailingZeros32(lanes)*4].buf[0]
	ns := uint32(tryWaitLimitNs)
	for m := lanes; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if &sm.refs[l*4].buf[0] != obj {
			return
		}
		if d.in.Mods&isa.ModMbarHint != 0 {
			ns = min(ns, uint32(w.value(&d.c, l)))
		}
	}
	until := sm.cycle + uint64(ns)*uint64(sm.cfg.Clock.MHz)/1000
	if until <= sm.cycle+1 {
		return
	}
	w.blockUntil, w.blockState = until, StateMbarrier
	w.asyncOf().wait = mbarWait{obj: obj, lanes: lanes, dst: d.d1, limit: until}
	sm.predictTx(w, sm.refs[bits.TrailingZeros32(lanes)*4])
}

// mbarFields splits a barrier object into its phase bit, tx-count (21-bit
// two's complement), expected and pending arrival counts.
func mbarFields(v uint64) (phase uint64, tx int64, exp, pend uint64) {
	return v >> isa.MbarPhaseBit, int64(v>>isa.MbarTxShift&isa.MbarTxMask) << 43 >> 43,
		v >> isa.MbarExpShift & isa.MbarCountMask, v & isa.MbarCountMask
}

func mbarValue(phase uint64, tx int64, exp, pend uint64) uint64 {
	return phase<<isa.MbarPhaseBit | uint64(tx)&isa.MbarTxMask<<isa.MbarTxShift | exp<<isa.MbarExpShift | pend
}

// applyTx applies the pending complete_tx of w's CTA that are due (at or
// before this cycle), oldest first: a completion that brings the pending
// arrivals and the tx-count to zero completes the phase and wakes its
// try_wait.
func (sm *SM) applyTx(w *warp) {
	c := w.cta
	for {
		k := -1
		for i, p := range c.tx {
			if p.at <= sm.cycle && (k < 0 || p.at < c.tx[k].at) {
				k = i
			}
		}
		if k < 0 {
			return
		}
		p := c.tx[k]
		c.tx = append(c.tx[:k], c.tx[k+1:]...)
		phase, tx, exp, pend := mbarFields(sm.load(p.obj, 8))
		tx -= p.bytes
		if pend == 0 && tx == 0 {
			phase, pend = phase^1, exp
			sm.store(p.obj, 8, mbarValue(phase, tx, exp, pend))
			sm.wakeTryWaits(w, &p.obj.buf[0])
			continue
		}
		sm.store(p.obj, 8, mbarValue(phase, tx, exp, pend))
	}
}

// txCompletion returns the cycle at which the pending complete_tx of w's
// CTA on the object at r complete its current phase, if they do (with no
// other operation on it before).
func (sm *SM) txCompletion(w *warp, r memRef) (uint64, bool) {
	_, tx, _, pend := mbarFields(sm.load(r, 8))
	if pend != 0 {
		return 0, false
	}
	var ps []pendingTx
	for _, p := range w.cta.tx {
		if &p.obj.buf[0] == &r.buf[0] {
			ps = append(ps, p)
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].at < ps[j].at })
	for _, p := range ps {
		if tx -= p.bytes; tx == 0 {
			return p.at, true
		}
	}
	return 0, false
}

// predictTx sets the wake-up of the warps of w's CTA suspended in try_wait
// on the object at r from its pending complete_tx: a warp whose phase they
// complete before its time limit waits until then, its waiting lanes'
// predicates true; the others wait until their limit, the predicates
// false (an operation on the object may have put off a completion that
// was predicted).
func (sm *SM) predictTx(w *warp, r memRef) {
	c := sm.cycle
	var at uint64
	var ok, done bool
	for _, x := range w.cta.warps {
		a := x.async
		if a == nil || a.wait.obj != &r.buf[0] || x.blockState != StateMbarrier || x.blockUntil <= c+1 {
			continue
		}
		if !done {
			at, ok = sm.txCompletion(w, r)
			done = true
		}
		p := a.wait.dst.reg
		if ok && at < a.wait.limit {
			x.preds[p] |= a.wait.lanes
			x.prdy[p], x.pcls[p] = min(x.prdy[p], max(at, c+1)), sbFixed
			x.blockUntil = max(at, c+1)
		} else {
			x.preds[p] &^= a.wait.lanes
			x.blockUntil = a.wait.limit
		}
		x.refresh()
	}
}

// wakeTryWaits resumes the warps of w's CTA suspended in try_wait on the
// barrier object obj, whose phase has just completed: their waiting
// lanes' predicates become true and they issue again from the next cycle.
func (sm *SM) wakeTryWaits(w *warp, obj *byte) {
	c := sm.cycle
	for _, x := range w.cta.warps {
		a := x.async
		if a == nil || a.wait.obj != obj {
			continue
		}
		if x.blockState == StateMbarrier && x.blockUntil > c+1 {
			p := a.wait.dst.reg
			x.preds[p] |= a.wait.lanes
			x.prdy[p], x.pcls[p] = min(x.prdy[p], c+1), sbFixed
			x.blockUntil = c + 1
			x.refresh()
		}
		a.wait = mbarWait{}
	}
}

// mbarrierFault is an mbarrier operation with undefined behaviour.
func mbarrierFault(lane int, format string, args ...any) *fault {
	return &fault{kind: "mbarrier_error", msg: fmt.Sprintf(format, args...), lane: lane, hasLane: true}
}

// mbarrier runs one lane's mbarrier operation on the object at r (PTX ISA
// 9.7.13.15): init sets the expected and pending counts (phase 0);
// arrive decrements the pending count by its count and returns the
// object as it was (its phase bit is the state's phase), completing the
// phase when the count and the tx-count are zero (the phase bit flips and
// the pending count is the expected one again); with ModMbarTx the
// tx-count C is added first (expect_tx; subtracted with ModMbarTxDone:
// complete_tx), and B may be 0; arrive_drop also lowers the expected
// count; test_wait is true once the phase of the state (or of the given
// parity) has completed. Undefined behaviour is an mbarrier_error: an
// object outside shared memory, a count of 0 or above 2^20-1, a tx-count
// outside ±(2^20-1), more arrivals than pending, and a .noComplete arrive
// that completes the phase.
func (sm *SM) mbarrier(w *warp, d *dinst, op, l int, r memRef) *fault {
	if r.space != isa.SpaceShared {
		return mbarrierFault(l, "%s: the barrier object is not in shared memory", isa.AtomName(op))
	}
	sm.applyTx(w)
	old := sm.load(r, 8)
	b := w.value(&d.b, l)
	phase := old >> isa.MbarPhaseBit
	pend := old & isa.MbarCountMask
	exp := old >> isa.MbarExpShift & isa.MbarCountMask
	switch op {
	case isa.AtomMbarInit:
		if b > isa.MbarCountMask {
			return mbarrierFault(l, "mbarrier.init: count %d is above %d", b, isa.MbarCountMask)
		}
		sm.store(r, 8, b|b<<isa.MbarExpShift) // 0: mbarrier.inval
		w.writeDest(d.d1, l, old)
	case isa.AtomMbarTest, isa.AtomMbarTestParity:
		want := b >> isa.MbarPhaseBit // the state's phase
		if op == isa.AtomMbarTestParity {
			want = b & 1
		}
		w.writeDest(d.d1, l, b2u(phase != want))
	default:
		n := b & 0xffffffff
		txOp := d.in.Mods&isa.ModMbarTx != 0
		switch {
		case n == 0 && !txOp || n > isa.MbarCountMask:
			return mbarrierFault(l, "%s: count %d is outside 1..%d", isa.AtomName(op), n, isa.MbarCountMask)
		case n > pend:
			return mbarrierFault(l, "%s: %d arrivals on a barrier with %d pending (expected %d per phase; not initialized?)", isa.AtomName(op), n, pend, exp)
		}
		// The tx-count: 21-bit two's complement.
		tx := int64(old>>isa.MbarTxShift&isa.MbarTxMask) << 43 >> 43
		if a := w.async; txOp && d.in.Mods&isa.ModMbarTxDone != 0 && a != nil && a.txAt > sm.cycle && a.txPC == w.gpc {
			if f := sm.deferTx(w, d, op, l, r, tx); f != nil {
				return f
			}
			w.writeDest(d.d1, l, old)
			return nil
		}
		if txOp {
			c := int64(uint32(w.value(&d.c, l)))
			if d.in.Mods&isa.ModMbarTxDone != 0 {
				c = -c
			}
			if tx += c; tx < -isa.MbarCountMask || tx > isa.MbarCountMask || c < -isa.MbarCountMask || c > isa.MbarCountMask {
				return mbarrierFault(l, "%s: tx-count %d (after %+d) is outside ±%d", isa.AtomName(op), tx, c, isa.MbarCountMask)
			}
		}
		if op == isa.AtomMbarDrop {
			exp -= min(n, exp)
		}
		pend -= n
		if pend == 0 && tx == 0 {
			if op == isa.AtomMbarArriveNC {
				return mbarrierFault(l, "mbarrier.arrive.noComplete completes the current phase")
			}
			phase ^= 1
			pend = exp
		}
		sm.store(r, 8, mbarValue(phase, tx, exp, pend))
		w.writeDest(d.d1, l, old)
		if phase != old>>isa.MbarPhaseBit {
			sm.wakeTryWaits(w, &r.buf[0])
		} else {
			// The last arrival or an expect_tx may make the pending
			// completions complete the phase, or put that off.
			sm.predictTx(w, r)
		}
	}
	return nil
}

// deferTx records the complete_tx that follows a cp.async.bulk copy into
// shared memory (the lowering puts it right after the copy, in the same
// lanes) as pending until the copy completes, and lets the warps suspended
// on the object wake then. Its tx-count is checked now, against the
// object's with every pending completion on it applied.
func (sm *SM) deferTx(w *warp, d *dinst, op, l int, r memRef, tx int64) *fault {
	c := int64(uint32(w.value(&d.c, l)))
	for _, p := range w.cta.tx {
		if &p.obj.buf[0] == &r.buf[0] {
			tx -= p.bytes
		}
	}
	if tx -= c; tx < -isa.MbarCountMask || c > isa.MbarCountMask {
		return mbarrierFault(l, "%s: tx-count %d (after %+d) is outside ±%d", isa.AtomName(op), tx, -c, isa.MbarCountMask)
	}
	w.cta.tx = append(w.cta.tx, pendingTx{obj: r, at: w.async.txAt, bytes: c})
	sm.predictTx(w, r)
	return nil
}
