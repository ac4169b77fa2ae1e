// The issue stages, sm_top.u_issue_N: per sub-partition, the scoreboard
// check of each warp's next instruction and the warp scheduler choosing
// one of the ready warps.

package pipeline

import "github.com/smsim/smsim/config"

// evalIssue is the issue stages' always_comb: it classifies every
// resident warp from the registers (Q): the scoreboard and the timing
// state of its next instruction (warp.refresh keeps readyAt, the cycle
// from which nothing holds it), accounts the states of those that cannot
// issue, drives the warp schedulers' inputs, evaluates the schedulers (in
// an order rotating each cycle; a memory-port chain gives each its share
// of mem.global_ports), accounts the eligible warps once the schedulers
// chose. It returns the first scheduler of the cycle's order, which the
// execute stage follows. The stages' outputs (IssueOutputs), which
// nothing in the SM reads, are set by setIssueOutputs for observers.
func (sm *SM) evalIssue(c uint64) int {
	nw := sm.schedWords
	for s := range sm.schedIn {
		in := &sm.schedIn[s]
		in.WarpReady.ClearWords(nw)
		in.WarpLongWait.ClearWords(nw)
		sm.readyPort[s].ClearWords(nw)
		sm.chosen[s] = -1
	}
	twoLevel := sm.cfg.Sched.Policy == config.PolicyTwoLevel
	asleep := sm.u.asleep
	elig := sm.elig[:0]
	for _, w := range sm.resident {
		sleeping := asleep != 0 && asleep>>uint(w.slot)&1 != 0
		if c >= w.readyAt && !sleeping {
			w.state = StateEligible
			elig = append(elig, uint16(w.slot)) // no pointer: no write barrier
			if w.port {
				sm.readyPort[w.sched].Set(int(w.local))
			} else {
				sm.schedIn[w.sched].WarpReady.Set(int(w.local))
			}
			continue
		}
		st := StateSleeping
		if !sleeping {
			st = w.stateAt(c)
		}
		w.state = st
		w.stalls[st]++
		sm.stalls[st]++
		if twoLevel && longWait(st) {
			sm.schedIn[w.sched].WarpLongWait.Set(int(w.local))
		}
	}
	sm.elig = elig
	// The schedulers, in an order rotating each cycle; a memory-port
	// chain gives each its share of mem.global_ports.
	ns := len(sm.scheds)
	ports := sm.cfg.Mem.GlobalPorts
	first := int(c % uint64(ns))
	// lrr and gto keep their registers when no warp is ready and none is
	// launched (two_level may still drop warps from its active set).
	idleEval := !twoLevel
	for j := 0; j < ns; j++ {
		s := (first + j) % ns
		in := &sm.schedIn[s]
		if ports > 0 {
			in.WarpReady.OrWords(&sm.readyPort[s], nw)
		}
		if idleEval && !in.WarpReady.AnyWords(nw) && !in.WarpLaunch.AnyWords(nw) {
			continue // nothing ready, nothing launched: Eval would change nothing
		}
		out := sm.scheds[s].EvalRef(in)
		if !out.IssueValid {
			continue
		}
		w := sm.slots[int(out.IssueWarp)*ns+s]
		if w == nil {
			continue
		}
		sm.chosen[s] = int32(w.slot)
		if w.port {
			ports--
		}
	}
	// Stall accounting of the eligible warps.
	for _, slot := range elig {
		w := sm.slots[slot]
		var st WarpState
		switch {
		case sm.chosen[w.sched] == int32(slot):
			st = StateSelected
		case w.port && !sm.schedIn[w.sched].WarpReady.Has(int(w.local)):
			st = StateLGThrottle
		default:
			st = StateNotSelected
		}
		w.state = st
		w.stalls[st]++
		sm.stalls[st]++
	}
	sm.stalls[StateIdle] += uint64(len(sm.slots) - len(sm.resident))
	return first
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
	t := w.readyAt
	for _, x := range [...]uint64{w.blockUntil, w.branchUntil, w.fetchUntil, w.sbUntil} {
		if x > c && x < t {
			t = x
		}
	}
	return t
}

// refresh recomputes the scoreboard wait of the group's instruction and
// readyAt.
func (w *warp) refresh() {
	sm := w.sm
	w.sbUntil, w.sbCls, w.port = 0, sbFixed, false
	if int(w.gpc) < len(sm.code) && w.gmask != 0 {
		d := &sm.code[w.gpc]
		w.port = d.usesPort
		for _, r := range d.srcR {
			if t := w.rdy[r]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.rcls[r]
			}
		}
		for _, r := range d.dstR {
			if t := w.rdy[r]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.rcls[r]
			}
		}
		for _, p := range d.srcP {
			if t := w.prdy[p]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.pcls[p]
			}
		}
		for _, p := range d.dstP {
			if t := w.prdy[p]; t > w.sbUntil {
				w.sbUntil, w.sbCls = t, w.pcls[p]
			}
		}
		if d.cc != 0 && w.ccRdy > w.sbUntil {
			w.sbUntil, w.sbCls = w.ccRdy, sbFixed
		}
	}
	r := w.lastIssue + 1
	if w.insts == 0 {
		r = 0
	}
	for _, x := range [...]uint64{w.blockUntil, w.branchUntil, w.fetchUntil, w.sbUntil} {
		if x > r {
			r = x
		}
	}
	if w.done || w.tr.paused {
		r = never
	}
	w.readyAt = r
}
