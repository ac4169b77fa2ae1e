// Decoding and executing the mbarrier operations (ATOM operations on a
// 64-bit barrier object in shared memory; isa.AtomMbar*).

package pipeline

import (
	"fmt"

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
	var err *decodeErr
	if d.b, err = dc.src(d, in.B, bt); err != nil {
		return err
	}
	d.d1, err = dc.dstReg(d, in.Dst, dt)
	return err
}

// mbarrierFault is an mbarrier operation with undefined behaviour.
func mbarrierFault(lane int, format string, args ...any) *fault {
	return &fault{kind: "mbarrier_error", msg: fmt.Sprintf(format, args...), lane: lane, hasLane: true}
}

// mbarrier runs one lane's mbarrier operation on the object at r (PTX ISA
// 9.7.13.15): init sets the expected and pending counts (phase 0);
// arrive decrements the pending count by its count and returns the
// object as it was (its phase bit is the state's phase), completing the
// phase when the count reaches zero (the phase bit flips and the pending
// count is the expected one again); arrive_drop also lowers the expected
// count; test_wait is true once the phase of the state (or of the given
// parity) has completed. Undefined behaviour is an mbarrier_error: an
// object outside shared memory, a count of 0 or above 2^20-1, more
// arrivals than pending, and a .noComplete arrive that completes the
// phase.
func (sm *SM) mbarrier(w *warp, d *dinst, op, l int, r memRef) *fault {
	if r.space != isa.SpaceShared {
		return mbarrierFault(l, "%s: the barrier object is not in shared memory", isa.AtomName(op))
	}
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
		switch {
		case n == 0 || n > isa.MbarCountMask:
			return mbarrierFault(l, "%s: count %d is outside 1..%d", isa.AtomName(op), n, isa.MbarCountMask)
		case n > pend:
			return mbarrierFault(l, "%s: %d arrivals on a barrier with %d pending (expected %d per phase; not initialized?)", isa.AtomName(op), n, pend, exp)
		}
		if op == isa.AtomMbarDrop {
			exp -= min(n, exp)
		}
		pend -= n
		if pend == 0 {
			if op == isa.AtomMbarArriveNC {
				return mbarrierFault(l, "mbarrier.arrive.noComplete completes the current phase")
			}
			phase ^= 1
			pend = exp
		}
		sm.store(r, 8, phase<<isa.MbarPhaseBit|exp<<isa.MbarExpShift|pend)
		w.writeDest(d.d1, l, old)
	}
	return nil
}
