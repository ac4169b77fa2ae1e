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

// cta is one resident CTA.
type cta struct {
	linear      uint64
	id          [3]uint32
	warps       []*warp
	shared      []byte
	written     []uint64             // shared bytes written (--check init; sancheck.go)
	race        []raceCell           // per shared byte (--check race; sancheck.go)
	grace       map[uint64]*raceCell // per global byte the CTA touched (--check race)
	raceGen     uint32               // barriers of the whole CTA released (--check race)
	bars        [numBarriers]barrier
	liveThreads int // threads that have not exited
	rps         int // reg_pool CTA slot (regpool.go)
	freed       int // warps whose slots were freed
}

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

// launchCTAs fills free resources with the next CTAs of the grid.
func (sm *SM) launchCTAs() {
	if sm.trapped() {
		return // sm_trapped_q holds launches until the SM returns to user mode
	}
	for sm.nextCTA < sm.numCTAs && len(sm.ctas) < sm.maxResident {
		sm.launchCTA(sm.nextCTA)
		sm.nextCTA++
	}
}

func (sm *SM) launchCTA(linear uint64) {
	g := sm.grid
	id := [3]uint32{uint32(linear % uint64(g[0])), uint32(linear / uint64(g[0]) % uint64(g[1])), uint32(linear / (uint64(g[0]) * uint64(g[1])))}
	var c *cta
	if n := len(sm.ctaPool); n > 0 {
		c = sm.ctaPool[n-1]
		sm.ctaPool = sm.ctaPool[:n-1]
	} else {
		c = &cta{}
	}
	c.linear, c.id = linear, id
	c.warps = c.warps[:0]
	if cap(c.shared) >= sm.smemSize {
		c.shared = c.shared[:sm.smemSize]
		clear(c.shared)
	} else {
		c.shared = make([]byte, sm.smemSize)
	}
	if sm.mc.chk.init {
		c.written = c.written[:0] // sized on the first shared access
	}
	if sm.mc.chk.race {
		c.race, c.raceGen = c.race[:0], 0
		clear(c.grace)
	}
	delete(sm.mc.chk.phases, c) // a reused CTA's barriers start afresh
	for i := range c.bars {
		c.bars[i].reset()
	}
	c.liveThreads, c.freed = sm.threadsPerCTA, 0
	sm.ctas = append(sm.ctas, c)
	sm.rpLaunch(c)
	slot := 0
	for wi := 0; wi < sm.warpsPerCTA; wi++ {
		for sm.slots[slot] != nil {
			slot++
		}
		w := sm.pool[slot]
		if w == nil {
			w = &warp{sm: sm, slot: slot, sched: int32(slot % len(sm.scheds)), local: int32(slot / len(sm.scheds))}
			sm.pool[slot] = w
		}
		w.reset(max(int(sm.kern.Regs), sm.trap.hregs), max(int(sm.kern.Preds), sm.trap.hpreds))
		w.cta, w.inCTA = c, wi
		w.nreg = sm.regsPerThread
		nth := min(32, sm.threadsPerCTA-32*wi)
		w.valid = uint32(uint64(1)<<uint(nth) - 1)
		for l := 0; l < nth; l++ {
			w.pc[l] = sm.kern.PC
		}
		w.regroup()
		w.fetchUntil = sm.cycle + uint64(max(sm.cfg.Lat.Fetch, 1))
		w.refresh()
		c.warps = append(c.warps, w)
		sm.slots[slot] = w
		in := &sm.schedIn[w.sched]
		in.WarpValid.Set(int(w.local))
		in.WarpLaunch.Set(int(w.local))
		sm.nLive++
		sm.trapLaunch(slot)
		if i := linear*uint64(sm.warpsPerCTA) + uint64(wi); i < uint64(len(sm.slotLog)) {
			sm.slotLog[i] = uint16(slot)
		}
	}
	sm.rebuildResident()
}

func (sm *SM) rebuildResident() {
	sm.resident = sm.resident[:0]
	for _, w := range sm.slots {
		if w != nil {
			sm.resident = append(sm.resident, w)
		}
	}
}

// warpDone is called when the last thread of w exits.
func (sm *SM) warpDone(w *warp) {
	w.done = true
	w.blockUntil, w.blockState = w.memBusy, StateDrain
	w.readyAt = never
	sm.nLive--
	sm.trapExit(w)
	sm.schedIn[w.sched].WarpValid.Clear(int(w.local))
	sm.draining = append(sm.draining, w)
	sm.rpWarpExit(w)
}

// retire frees the slots of drained warps and the resources of finished
// CTAs.
func (sm *SM) retire() {
	if len(sm.draining) == 0 {
		return
	}
	c := sm.cycle
	keep := sm.draining[:0]
	changed := false
	for _, w := range sm.draining {
		if w.memBusy > c {
			keep = append(keep, w)
			continue
		}
		sm.recordWarp(w, StateExited)
		sm.slots[w.slot] = nil
		changed = true
		t := w.cta
		t.freed++
		if t.freed == len(t.warps) {
			for i, x := range sm.ctas {
				if x == t {
					sm.ctas = append(sm.ctas[:i], sm.ctas[i+1:]...)
					break
				}
			}
			sm.ctaPool = append(sm.ctaPool, t)
			sm.ctasDone++
			sm.rpRetire(t)
		}
	}
	sm.draining = keep
	if changed {
		sm.rebuildResident()
	}
}
