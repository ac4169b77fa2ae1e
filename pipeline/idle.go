// Idle-cycle skipping: stretches in which no warp can issue, accounted in bulk.

package pipeline

// skipIdle advances over cycles in which no warp can issue, accounting the
// warp states in bulk, up to the first cycle at which anything can change
// (which Step then simulates), but not beyond cycle limit.
func (sm *SM) skipIdle(limit uint64) {
	c := sm.cycle
	if len(sm.resident) == 0 || sm.nextCTA < sm.numCTAs && len(sm.ctas) < sm.maxResident || sm.trap.busy() || sm.rp.busy() {
		return
	}
	t := uint64(never)
	sleeping := false
	for _, w := range sm.resident {
		if w.done {
			// Retires at memBusy.
			if w.memBusy <= c {
				return
			}
			t = min(t, w.memBusy)
			continue
		}
		if sm.asleep(w) {
			// Wakes when clock_timer says (NextWake, below).
			sleeping = true
			if w.readyAt > c {
				t = min(t, w.nextChange(c))
			}
			continue
		}
		if w.readyAt <= c {
			return
		}
		t = min(t, w.nextChange(c))
	}
	if sleeping {
		if n, ok := sm.u.ct.NextWake(); ok {
			t = min(t, c+n)
		}
	}
	if m := sm.cfg.Run.MaxCycles; m > 0 {
		t = min(t, m-1)
	}
	t = min(t, limit)
	if wd := sm.cfg.Run.WatchdogCycles; wd > 0 && sm.nLive > 0 {
		t = min(t, sm.lastIssue+wd)
	}
	if sm.nLive > 0 && sm.nBarWait+sm.rp.nHeld == sm.nLive {
		return // let Step report the deadlock
	}
	if t == never || t <= c+1 {
		return
	}
	n := t - c - 1 // cycles c .. t-2 are skipped; Step runs t-1
	for _, w := range sm.resident {
		st := sm.warpState(w, c)
		if w.done {
			st = StateDrain
		}
		w.state = st
		w.stalls[st] += n
		sm.stalls[st] += n
	}
	sm.stalls[StateIdle] += n * uint64(len(sm.slots)-len(sm.resident))
	sm.u.advance(n, &sm.stalls, len(sm.hooks) > 0)
	sm.cycle += n
}
