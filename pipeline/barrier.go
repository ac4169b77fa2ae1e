// The barrier unit, sm_top.u_barrier: per CTA slot, the named barriers'
// arrival counts and the warps blocked on them; their release.

package pipeline

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// numBarriers is the number of named barriers per CTA (bar ids 0..15).
const numBarriers = 16

// barrier is one named barrier of a CTA in its current phase.
type barrier struct {
	threads  int    // threads that arrived
	expected int    // thread count; 0 = every thread of the CTA
	warps    uint64 // warps (by index in the CTA) with lanes blocked on it
	arrWarps uint64 // warps with lanes that arrived (bar.sync, bar.red, bar.arrive)
	// arrExited counts the arrived threads that exited since: they count
	// once, as arrived, not again as exited.
	arrExited int
	redOp     int // bar.red operation, -1 when none arrived with .red
	popc      uint32
	and, or   bool
}

func (b *barrier) reset() { *b = barrier{redOp: -1, and: true} }

// arrive records the arrival of warp w's lanes emask at barrier id (BAR d
// with thread count count, 0 = all). With wait the lanes block until the
// release; the others of the group have moved on already. pred holds the
// bar.red predicate of each lane.
//
// Arrivals are counted per thread, so a warp whose threads reach the
// barrier in several groups (divergent code that reconverges at the
// barrier) counts each thread once; a converged warp counts its live
// threads, as the hardware counts a warp's arrival.
func (sm *SM) arrive(w *warp, d *dinst, id int, count int, emask uint32, wait bool, pred uint32) {
	c := w.cta
	b := &c.bars[id]
	if b.threads == 0 && b.warps == 0 {
		b.reset()
		b.expected = count
	}
	b.threads += bits.OnesCount32(emask)
	w.barArr[id] |= emask
	b.arrWarps |= 1 << uint(w.inCTA)
	if int(d.in.Mods&isa.ModBarKindMask) == isa.BarRed {
		b.redOp = int(d.in.Mods&isa.ModBarRedMask) >> isa.ModBarRedShift
		b.popc += uint32(bits.OnesCount32(pred & emask))
		if pred&emask != emask {
			b.and = false
		}
		if pred&emask != 0 {
			b.or = true
		}
		w.redOn |= 1 << uint(id)
		w.redDst[id] = d.d1
	}
	if wait {
		w.barLanes[id] |= emask
		w.blocked |= emask
		b.warps |= 1 << uint(w.inCTA)
	}
	w.regroup()
	if w.gmask == 0 {
		// Every live thread of the warp waits at a barrier.
		w.blockUntil, w.blockState = never, StateBarrier
		sm.nBarWait++
	}
	sm.checkBarrier(c, id)
}

// checkBarrier releases barrier id of c when it is complete: every live
// thread of the CTA has arrived (threads that exited count as arrived,
// seed 004: "barriers exclusively waiting on arrivals from exited threads
// are always released"; a thread that arrived and then exited counts
// once), or, for an explicit thread count, that many threads have
// arrived. The waiting threads resume lat.barrier cycles after the
// completing arrival. A release that lets warps go (bar.sync, bar.red) is
// an explicit synchronization of those warps for the register pool.
func (sm *SM) checkBarrier(c *cta, id int) {
	b := &c.bars[id]
	if b.threads == 0 {
		return
	}
	if b.threads-b.arrExited < c.liveThreads && (b.expected == 0 || b.threads < b.expected) {
		return
	}
	if b.warps != 0 {
		sm.rpSync(c, uint32(b.warps))
	}
	for m := b.arrWarps; m != 0; m &= m - 1 {
		c.warps[bits.TrailingZeros64(m)].barArr[id] = 0
	}
	release := sm.cycle + sm.lat[latBarrier]
	for m := b.warps; m != 0; m &= m - 1 {
		w := c.warps[bits.TrailingZeros64(m)]
		lanes := w.barLanes[id]
		w.barLanes[id] = 0
		w.blocked &^= lanes
		if w.redOn&(1<<uint(id)) != 0 {
			w.redOn &^= 1 << uint(id)
			var v uint64
			switch b.redOp {
			case isa.BarRedPopc:
				v = uint64(b.popc)
			case isa.BarRedAnd:
				v = b2u(b.and)
			case isa.BarRedOr:
				v = b2u(b.or)
			}
			dst := w.redDst[id]
			w.userBank(func() { // the warp may be running the trap handler
				for l := lanes; l != 0; l &= l - 1 {
					w.writeDest(dst, bits.TrailingZeros32(l), v)
				}
				switch dst.kind {
				case dPred:
					w.prdy[dst.reg], w.pcls[dst.reg] = release, sbFixed
				case dReg32:
					w.rdy[dst.reg], w.rcls[dst.reg] = release, sbFixed
				}
			})
		}
		if w.blockState == StateBarrier && w.blockUntil == never {
			sm.nBarWait--
			w.blockUntil = release
		}
		w.regroup()
		w.refresh()
	}
	b.reset()
}

// threadsExited accounts the lanes exits of w that exited: those that had
// arrived at a barrier (bar.arrive) stop counting as live arrivals there,
// and every barrier of the CTA is re-examined.
func (sm *SM) threadsExited(w *warp, exits uint32) {
	c := w.cta
	for id := range c.bars {
		if a := w.barArr[id] & exits; a != 0 {
			c.bars[id].arrExited += bits.OnesCount32(a)
		}
	}
	sm.checkBarriers(c)
}

// checkBarriers re-examines every barrier of c (after threads exit).
func (sm *SM) checkBarriers(c *cta) {
	for id := range c.bars {
		if c.bars[id].threads != 0 {
			sm.checkBarrier(c, id)
		}
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Regs are the barrier's registers as the signal table names them
// (BarrierRegs: arrived_q, expected_q, waiting_q).
func (b BarrierInfo) Regs() BarrierRegs {
	return BarrierRegs{Arrived: uint16(b.Arrived), Expected: uint16(b.Expected), Waiting: uint32(b.Waiting)}
}
