// The issue stages, sm_top.u_issue_N: per sub-partition, the scoreboard
// check of each warp's next instruction and the warp scheduler choosing
// one of the ready warps.

package pipeline

import (
	"math/bits"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/pipethrottle"
)

// The issue stages keep, per warp slot, its class (warp.state) and the
// first cycle at which the class may change (until): a warp that cannot
// issue keeps its class until its registers change (refresh and the few
// writers that do not refresh call invalidate) or time reaches the next
// threshold of its timers (nextChange); an eligible warp stays eligible,
// its bit set in the persistent ready vectors (readyBase, or readyPort
// when its instruction needs a memory port), until it issues or its
// registers change. Stall cycles are counted lazily: per warp from the
// cycle it entered its class (warp.since, flushStalls), per state from the
// number of warps in it (hist), which is the same as adding one per warp
// per cycle.

// evalIssue is the issue stages' always_comb: it classifies the warps
// whose class may have changed (classify), drives the warp schedulers'
// inputs from the ready vectors, evaluates the schedulers (in an order
// rotating each cycle; a memory-port chain gives each its share of
// mem.global_ports), and accounts the cycle: the chosen warps are
// selected, the eligible warps of a scheduler the port chain left out are
// throttled (lg_throttle), those whose memory path has no room this cycle
// (mem.model hier) are held from the scheduler and throttled (memHold:
// lg_throttle or mio_throttle), the other eligible ones not selected. It
// returns the first scheduler of the cycle's order, which the execute
// stage follows. The stages' outputs (IssueOutputs), which nothing in the
// SM reads, are set by setIssueOutputs for observers.
func (sm *SM) evalIssue(c uint64) int {
	sm.classify(c)
	nw := sm.schedWords
	ns := len(sm.scheds)
	ports := sm.cfg.Mem.GlobalPorts
	first := int(c % uint64(ns))
	// lrr and gto keep their registers when no warp is ready and none is
	// launched (two_level may still drop warps from its active set).
	idleEval := sm.cfg.Sched.Policy != config.PolicyTwoLevel
	throttled := false
	held := uint8(0)
	if sm.mp != nil {
		held = sm.mp.refusing()
	}
	for j := 0; j < ns; j++ {
		s := (first + j) % ns
		sm.chosen[s] = -1
		in := &sm.schedIn[s]
		for k := range in.WarpReady[:nw] { // a word or two: no memmove call
			in.WarpReady[k] = sm.readyBase[s][k]
		}
		if ports > 0 {
			in.WarpReady.OrWords(&sm.readyPort[s], nw)
		} else if sm.readyPort[s].AnyWords(nw) {
			throttled = true
		}
		if sm.pt != nil {
			sm.pt.hold(s, &in.WarpReady, nw)
		}
		if held != 0 {
			sm.memHold(s, c, held, &in.WarpReady, nw)
		}
		if idleEval && !in.WarpReady.AnyWords(nw) && !in.WarpLaunch.AnyWords(nw) {
			continue // nothing ready, nothing launched: Eval would change nothing
		}
		out := sm.scheds[s].EvalRef(in)
		if !out.IssueValid {
			continue
		}
		slot := int(out.IssueWarp)*ns + s
		w := sm.slots[slot]
		if w == nil {
			continue
		}
		sm.chosen[s] = int32(slot)
		if w.port {
			ports--
		}
		sm.reclass(w, c, StateSelected, 0)
		if sm.pt != nil {
			sm.pt.request(s, w)
		}
	}
	if throttled {
		sm.throttle(c)
	}
	if sm.pt != nil {
		sm.pipeHeld()
	}
	sm.u.begin()
	for st, n := range sm.hist {
		sm.stalls[st] += n
	}
	sm.stalls[StateIdle] += uint64(len(sm.slots) - len(sm.resident))
	if sm.pt != nil {
		sm.pipeHeldCounts()
	}
	return first
}

// classify classifies the warps whose class may have changed by cycle c:
// those invalidated or at a timer threshold (timers), and those whose
// sleeping_o bit changed.
func (sm *SM) classify(c uint64) {
	tm := &sm.tm
	tm.advance(c)
	asleep := sm.u.asleep
	if ch := asleep ^ sm.prevAsleep; ch != 0 {
		for m := ch; m != 0; m &= m - 1 {
			if s := bits.TrailingZeros64(m); s < len(tm.until) && sm.slots[s] != nil {
				tm.mark(s)
			}
		}
		sm.prevAsleep = asleep
	}
	twoLevel := sm.cfg.Sched.Policy == config.PolicyTwoLevel
	for k, word := range tm.dirty {
		if word == 0 {
			continue
		}
		tm.dirty[k] = 0 // classifying a warp marks none (its next threshold is later)
		for ; word != 0; word &= word - 1 {
			slot := k*64 + bits.TrailingZeros64(word)
			w := sm.slots[slot]
			local := int(w.local)
			sleeping := asleep != 0 && asleep>>uint(slot)&1 != 0
			if c >= w.readyAt && !sleeping {
				// Eligible: not selected unless a scheduler picks it.
				if w.port {
					sm.readyBase[w.sched].Clear(local)
					sm.readyPort[w.sched].Set(local)
				} else {
					sm.readyPort[w.sched].Clear(local)
					sm.readyBase[w.sched].Set(local)
				}
				if twoLevel {
					sm.schedIn[w.sched].WarpLongWait.Clear(local)
				}
				if sm.pt != nil {
					sm.pt.file(w, true)
				}
				sm.reclass(w, c, StateNotSelected, never)
				continue
			}
			sm.readyBase[w.sched].Clear(local)
			sm.readyPort[w.sched].Clear(local)
			if sm.pt != nil {
				sm.pt.file(w, false)
			}
			st, until := StateSleeping, uint64(never) // until sleeping_o changes
			if !sleeping {
				st, until = w.stateAt(c), w.nextChange(c)
			}
			if twoLevel {
				sm.schedIn[w.sched].WarpLongWait.Put(local, longWait(st))
			}
			sm.reclass(w, c, st, until)
		}
	}
}

// reclass puts w in state st from cycle c on, to be classified again at
// cycle until (0: at the next classification; never: when something
// changes it).
func (sm *SM) reclass(w *warp, c uint64, st WarpState, until uint64) {
	w.flushStalls(c)
	sm.hist[w.state]--
	sm.hist[st]++
	w.state = st
	sm.tm.set(w.slot, c, until)
}

// throttle accounts the eligible warps that needed a memory port in a
// scheduler the port chain left out this cycle: lg_throttle for the cycle,
// eligible again the next.
func (sm *SM) throttle(c uint64) {
	ns := len(sm.scheds)
	for s := range sm.readyPort {
		in := &sm.schedIn[s]
		for k := 0; k < sm.schedWords; k++ {
			for m := sm.readyPort[s][k] &^ in.WarpReady[k]; m != 0; m &= m - 1 {
				slot := (k*64+bits.TrailingZeros64(m))*ns + s
				sm.reclass(sm.slots[slot], c, StateLGThrottle, 0) // again the next cycle
			}
		}
	}
}

// invalidate makes the issue stage classify w again at the next cycle it
// evaluates (w's registers changed).
func (w *warp) invalidate() { w.sm.tm.mark(w.slot) }

// flushStalls adds the cycles w has spent in its class since it entered
// it, up to cycle c (not included), to its stall counts.
func (w *warp) flushStalls(c uint64) {
	w.stalls[w.state] += c - w.since
	w.since = c
}

// setIssueOutputs sets each issue stage's outputs from its scheduler's
// choice: the warp, its active group's PC, opcode and lanes, and those of
// its lanes whose guard predicate (read from the register file) is true
// (none for an instruction that cannot execute: a PC outside the code, an
// instruction the decoder refused). Step calls it only for the hooks:
// nothing in the SM reads these outputs.
func (sm *SM) setIssueOutputs() {
	for s, slot := range sm.chosen {
		o := &sm.issOut[s]
		if slot < 0 {
			o.Valid, o.Op = false, OpIdle
			continue
		}
		w := sm.slots[slot]
		pc := w.gpc
		o.Valid, o.Warp, o.PC, o.Mask = true, uint16(slot), pc, w.gmask
		o.Op, o.Exec = 0, 0 // an instruction that cannot execute: no lane
		if int(pc) < len(sm.code) {
			d := &sm.code[pc]
			o.Op = uint8(d.in.Op)
			if d.bad == "" {
				o.Exec = w.gmask & w.guardMask(d)
			}
		}
	}
}

// idleIssueOutputs sets the outputs of a cycle in which nothing issues.
func (sm *SM) idleIssueOutputs() {
	for s := range sm.issOut {
		sm.issOut[s].Valid, sm.issOut[s].Op = false, OpIdle
	}
}

// guardMask is the lanes of w whose guard predicate of d is true (all
// lanes for an unguarded instruction).
func (w *warp) guardMask(d *dinst) uint32 {
	if !d.in.GuardOn {
		return ^uint32(0)
	}
	p := w.preds[d.in.Guard]
	if d.in.GuardNeg {
		p = ^p
	}
	return p
}

// stateAt classifies a warp that is not eligible at cycle c.
func (w *warp) stateAt(c uint64) WarpState {
	switch {
	case w.tr.paused:
		return w.tr.pauseState
	case c >= w.readyAt:
		return StateEligible
	case c < w.blockUntil:
		return w.blockState
	case c < w.branchUntil:
		return StateBranchResolving
	case c < w.fetchUntil:
		return StateNoInstruction
	case c < w.sbUntil:
		return sbState(w.sbCls)
	}
	return StateMisc
}

// nextChange is the first cycle after c at which stateAt may change.
func (w *warp) nextChange(c uint64) uint64 {
	return min(w.readyAt, after(w.blockUntil, c), after(w.branchUntil, c), after(w.fetchUntil, c), after(w.sbUntil, c))
}

// after is x when it lies after c, else never.
func after(x, c uint64) uint64 {
	if x > c {
		return x
	}
	return never
}

// refresh recomputes the scoreboard wait of the group's instruction and
// readyAt.
func (w *warp) refresh() {
	w.invalidate()
	sm := w.sm
	w.sbUntil, w.sbCls, w.port, w.pipe, w.mpath = 0, sbFixed, false, uint8(pipethrottle.NumPipes), mpNone
	if int(w.gpc) < len(sm.code) && w.gmask != 0 {
		d := &sm.code[w.gpc]
		w.port = d.usesPort
		w.pipe = d.pipe
		w.mpath = d.mpath
		w.waitOn(d.srcR, w.rdy, w.rcls)
		w.waitOn(d.dstR, w.rdy, w.rcls)
		w.waitOn(d.srcP, w.prdy, w.pcls)
		w.waitOn(d.dstP, w.prdy, w.pcls)
		if d.cc != 0 && w.ccRdy > w.sbUntil {
			w.sbUntil, w.sbCls = w.ccRdy, sbFixed
		}
	}
	r := w.lastIssue + 1
	if w.insts == 0 {
		r = 0
	}
	r = max(r, w.blockUntil, w.branchUntil, w.fetchUntil, w.sbUntil)
	if w.done || w.tr.paused {
		r = never
	}
	w.readyAt = r
}

// waitOn raises the scoreboard wait (sbUntil, sbCls) to the latest
// pending write among registers regs (rdy: the cycle each is available,
// cls: its scoreboard class).
func (w *warp) waitOn(regs []uint8, rdy []uint64, cls []uint8) {
	for _, r := range regs {
		if t := rdy[r]; t > w.sbUntil {
			w.sbUntil, w.sbCls = t, cls[r]
		}
	}
}
