package pipeline

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
	tx          []pendingTx // bulk copies' complete_tx not yet arrived (mbarrier.go)
	liveThreads int         // threads that have not exited
	rps         int         // reg_pool CTA slot (regpool.go)
	freed       int         // warps whose slots were freed
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
	c.tx = c.tx[:0]
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
		w.since = sm.cycle
		sm.hist[w.state]++
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
	w.invalidate()
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
		sm.hist[w.state]--
		sm.tm.clear(w.slot)
		sm.readyBase[w.sched].Clear(int(w.local))
		sm.readyPort[w.sched].Clear(int(w.local))
		sm.schedIn[w.sched].WarpLongWait.Clear(int(w.local))
		if sm.pt != nil {
			sm.pt.file(w, false)
		}
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
