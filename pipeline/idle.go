// Idle-cycle skipping: stretches in which no warp can issue, accounted in bulk.

package pipeline

import (
	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/rtl"
)

// skipIdle advances over cycles in which no warp can issue, accounting the
// warp states in bulk, up to the first cycle at which anything can change
// (which Step then simulates), but not beyond cycle limit.
func (sm *SM) skipIdle(limit uint64) {
	c := sm.cycle
	// Right after a cycle that issued, a stretch rarely starts: stepping
	// this one cycle (always correct) is cheaper than looking.
	if c > 0 && sm.lastIssue == c-1 {
		return
	}
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
	if sm.mp != nil {
		t = min(t, sm.memNext(c))
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
	// Every warp holds its class through the stretch (its stall cycles
	// follow lazily: warp.since).
	sm.classify(c)
	sm.u.syncPM() // perf_mon takes the busy cycles before the stretch first
	for st, k := range sm.hist {
		sm.stalls[st] += n * k
	}
	sm.stalls[StateIdle] += n * uint64(len(sm.slots)-len(sm.resident))
	sm.u.idle(n, &sm.stalls)
	// The schedulers see the same inputs in every cycle of the stretch
	// (nothing ready); one Eval and Tick bring them to where those n
	// cycles would (two_level drops warps that left from its active set;
	// after that its registers hold).
	sm.idleSchedInputs()
	hooked := len(sm.hooks) > 0
	if hooked {
		sm.observeIdle(c, 0, 1)
	}
	for s, u := range sm.scheds {
		u.EvalRef(&sm.schedIn[s])
		u.Tick()
	}
	if hooked {
		sm.observeIdle(c, 1, n)
	} else {
		sm.u.lag += n
		sm.u.pmLag += n
	}
	sm.cycle = c + n
	if sm.mp != nil {
		sm.mp.p.Advance(n)
	}
	if sm.pt != nil {
		sm.pt.u.Advance(n)
	}
	if sm.u.asleep != 0 {
		sm.u.sync() // clock_timer never lags while a warp sleeps
	}
}

// idleSchedInputs drives the schedulers' inputs of an idle cycle: nothing
// ready, nothing launched, two_level's long waits from the warp states.
func (sm *SM) idleSchedInputs() {
	for s := range sm.schedIn {
		in := &sm.schedIn[s]
		in.WarpReady, in.WarpLongWait, in.WarpLaunch = rtl.Bits{}, rtl.Bits{}, rtl.Bits{}
		sm.chosen[s] = -1
	}
	if sm.cfg.Sched.Policy == config.PolicyTwoLevel {
		for _, w := range sm.resident {
			if longWait(w.state) {
				sm.schedIn[w.sched].WarpLongWait.Set(int(w.local))
			}
		}
	}
}

// observeIdle shows the skipped cycles c+from .. c+to-1 to the OnCycle
// hooks, one by one, as cycles in which nothing issues and nothing
// changes but the free-running counters: clock_timer and perf_mon take
// the cycles as the hooks read them (the lag they would have taken in one
// step), and the unit inputs each hook sees (CycleInfo.Units, those of
// the cycle before) are the ones an idle cycle drives. What the SM
// computes is the same as without hooks.
func (sm *SM) observeIdle(c, from, to uint64) {
	sm.idleIssueOutputs()
	for i := from; i < to; i++ {
		sm.cycle = c + i
		sm.wb.eval(c + i)
		sm.observe()
		sm.lsu.idle() // cycle c+i makes no request
		// This cycle's unit inputs, which the next cycle's hooks see.
		u := &sm.unitIn
		u.Cycle, u.RegPoolStepped, u.TrapStepped = c+i, true, false
		u.Trap = sm.trap.in
		sm.trapInputs(&u.Trap)
		u.Clock, u.Perf, u.RegPool = clocktimer.Inputs{}, sm.u.pmIdle, sm.rp.in
		sm.unitInOK = true
		sm.u.lag++
		sm.u.pmLag++
	}
}
