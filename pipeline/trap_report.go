package pipeline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/smsim/smsim/trapunit"
)

// TrapReport is what the trap unit saw during the run; Report embeds it
// (JSON keys traps, breakpoints, interrupts, global_esr).
type TrapReport struct {
	// Traps lists the traps and warp errors the warps raised (BPT.TRAP
	// with a reason other than 1, PTX trap, every warp error), at most
	// 1024; Breakpoints the debugger breakpoints (BPT.TRAP 1, PTX brkpt).
	Traps       []TrapRecord `json:"traps"`
	Breakpoints []TrapRecord `json:"breakpoints"`
	// Interrupts lists the cycles in which the unit raised interrupts to
	// the host.
	Interrupts []InterruptRecord `json:"interrupts"`
	// GlobalESR is the global ESR at the end (after what the host
	// cleared) and every bit it held during the run.
	GlobalESR GlobalESRReport `json:"global_esr"`
	// TrapRecordsDropped counts records beyond the bounds.
	TrapRecordsDropped int `json:"trap_records_dropped,omitempty"`
}

// TrapRecord is one trap, breakpoint or warp error.
type TrapRecord struct {
	Cycle     uint64    `json:"cycle"`
	Warp      int       `json:"warp"` // slot
	CTA       [3]uint32 `json:"cta"`
	WarpInCTA int       `json:"warp_in_cta"`
	PC        uint32    `json:"pc"`   // the instruction that raised it
	Line      string    `json:"line"` // "file:line" of PC
	// Kind is "bpt.trap", "brkpt", "trap" (PTX trap), "warp_error", or
	// "pending" (a BPT.TRAP held by IDE.DIS taken at IDE.EN or when the
	// warp left the handler).
	Kind string `json:"kind"`
	// Reason is the BPT.TRAP reason (1..7; brkpt: 1; 0 for errors);
	// Error the warp error's name (ILLEGAL_INSTR_ENCODING, ...; "" for
	// traps).
	Reason int    `json:"reason"`
	Error  string `json:"error,omitempty"`
	Lanes  uint32 `json:"lanes"` // the lanes that executed it (active, guard true)
	// ESR is the warp ESR after the event, ESRDecoded its fields.
	ESR        uint16 `json:"esr"`
	ESRDecoded string `json:"esr_decoded"`
	// Action is what the unit did: "handler" (the warp, and every other
	// live warp if the SM was not trapped, entered the trap handler),
	// "stopped" (no handler: the warps stopped for the host), "nested"
	// (the warp was in the handler already: it paused for the host),
	// "pending" (masked by IDE.DIS, taken later) or "ignored".
	Action   string `json:"action"`
	ResumePC uint32 `json:"resume_pc"` // the saved PC
}

// InterruptRecord is one cycle in which the unit raised interrupts.
type InterruptRecord struct {
	Cycle uint64 `json:"cycle"`
	Count uint32 `json:"count"` // interrupts raised in the cycle
	// Cause is the causes raised (PAUSE, INT, TRAP, ERROR joined by |).
	Cause string `json:"cause"`
	Warp  int    `json:"warp"` // the warp of the cycle's first event, -1 if none
}

// GlobalESRReport is the global ESR with its bits named (ERROR,
// BPT_TRAP1..BPT_TRAP7, BPT_PAUSE, BPT_INT).
type GlobalESRReport struct {
	Value     uint16   `json:"value"`
	Flags     []string `json:"flags"`
	Seen      uint16   `json:"seen"` // bits set at any time during the run
	SeenFlags []string `json:"seen_flags"`
}

// GlobalESRFlags names the bits of a global ESR value.
func GlobalESRFlags(v uint16) []string {
	f := []string{}
	if v&trapunit.GlobalESRError != 0 {
		f = append(f, "ERROR")
	}
	for r := 1; r <= 7; r++ {
		if v&trapunit.GlobalESRTrap(r) != 0 {
			f = append(f, fmt.Sprintf("BPT_TRAP%d", r))
		}
	}
	if v&trapunit.GlobalESRBPTPause != 0 {
		f = append(f, "BPT_PAUSE")
	}
	if v&trapunit.GlobalESRBPTInt != 0 {
		f = append(f, "BPT_INT")
	}
	return f
}

// trapRecords records the cycle's traps, breakpoints and interrupts
// (before: the unit's registers before the cycle; nev events).
func (sm *SM) trapRecords(before *trapunit.State, nev int) {
	t := &sm.trap
	q := &t.q
	for p := 0; p < nev; p++ {
		w := t.evw[p]
		s := w.slot
		kind, arg := t.in.EvKind[p], t.in.EvArg[p]
		r := TrapRecord{Cycle: sm.cycle, Warp: s, CTA: w.cta.id, WarpInCTA: w.inCTA, PC: t.evpc[p], Line: sm.lineOf(t.evpc[p]), Lanes: w.tr.evExec}
		switch kind {
		case trapunit.EvBPTTrap:
			r.Kind, r.Reason = "bpt.trap", int(arg&7)
		case trapunit.EvPTXBrkpt:
			r.Kind, r.Reason = "brkpt", trapunit.ReasonBreakpoint
		case trapunit.EvPTXTrap:
			r.Kind, r.Error = "trap", trapunit.ErrAssertTrap.String()
		case trapunit.EvWarpError:
			r.Kind, r.Error = "warp_error", trapunit.ErrCode(arg&0xf).String()
		case trapunit.EvIDEEnable:
			if before.InHandler.Has(s) || !q.InHandler.Has(s) {
				continue
			}
			r.Kind, r.Reason = "pending", q.WarpESR[s].Reason()
		default:
			continue
		}
		entered := !before.InHandler.Has(s) && q.InHandler.Has(s)
		switch {
		case entered && t.hasHandler:
			r.Action = "handler"
		case entered:
			r.Action = "stopped"
		case before.InHandler.Has(s) && q.Paused.Has(s) && !before.Paused.Has(s):
			r.Action = "nested"
		case r.Reason != 0 && q.WarpESR[s].Pending() == r.Reason:
			r.Action = "pending"
		default:
			r.Action = "ignored"
		}
		sm.addTrapRecord(r, q)
	}
	if q.IRQCount != before.IRQCount {
		old := before.IRQPending
		if t.in.HostCmd == trapunit.HostAckIRQ {
			old &^= uint8(t.in.HostArg)
		}
		raised := q.IRQPending &^ old
		if raised == 0 {
			raised = q.IRQPending
		}
		ir := InterruptRecord{Cycle: sm.cycle, Count: q.IRQCount - before.IRQCount, Cause: trapunit.CauseString(raised), Warp: -1}
		if nev > 0 {
			ir.Warp = t.evw[0].slot
		}
		if len(t.rep.Interrupts) < maxTrapRecords {
			t.rep.Interrupts = append(t.rep.Interrupts, ir)
		} else {
			t.rep.TrapRecordsDropped++
		}
	}
}

func (sm *SM) addTrapRecord(r TrapRecord, q *trapunit.State) {
	t := &sm.trap
	e := q.WarpESR[r.Warp]
	r.ESR, r.ESRDecoded, r.ResumePC = uint16(e), e.String(), q.SavedPC[r.Warp]
	list, last := &t.rep.Traps, &t.lastTrap
	if r.Reason == trapunit.ReasonBreakpoint && r.Error == "" {
		list, last = &t.rep.Breakpoints, &t.lastBreak
	}
	if len(*list) >= maxTrapRecords {
		t.rep.TrapRecordsDropped++
		return
	}
	*list = append(*list, r)
	*last = len(*list) - 1
}

// recordReentry records a pending trap taken as w left the handler (it
// entered the handler afresh).
func (sm *SM) recordReentry(w *warp, before *trapunit.State) {
	s := w.slot
	q := &sm.trap.q
	if !before.InHandler.Has(s) || before.WarpESR[s].Pending() == 0 || q.WarpESR[s].Pending() != 0 {
		return
	}
	pc := q.SavedPC[s]
	r := TrapRecord{Cycle: sm.cycle, Warp: s, CTA: w.cta.id, WarpInCTA: w.inCTA, PC: pc - 1, Line: sm.lineOf(pc - 1), Kind: "pending", Reason: q.WarpESR[s].Reason(), Lanes: w.tr.group, Action: "handler"}
	sm.addTrapRecord(r, q)
}

// trapReport fills the report's trap part.
func (sm *SM) trapReport() TrapReport {
	t := &sm.trap
	r := TrapReport{
		Traps:              append([]TrapRecord{}, t.rep.Traps...),
		Breakpoints:        append([]TrapRecord{}, t.rep.Breakpoints...),
		Interrupts:         append([]InterruptRecord{}, t.rep.Interrupts...),
		TrapRecordsDropped: t.rep.TrapRecordsDropped,
	}
	g := t.q.GlobalESR
	r.GlobalESR = GlobalESRReport{Value: g, Flags: GlobalESRFlags(g), Seen: t.seenESR, SeenFlags: GlobalESRFlags(t.seenESR)}
	return r
}

// warpTrapFields fills a warp report's ESR and trap state.
func (sm *SM) warpTrapFields(r *WarpReport, w *warp) {
	if w.slot >= trapunit.MaxWarps {
		return
	}
	q := &sm.trap.q
	e := q.WarpESR[w.slot]
	r.ESR, r.ESRDecoded = uint16(e), e.String()
	if w.done {
		return
	}
	switch {
	case q.Paused.Has(w.slot) && q.InHandler.Has(w.slot) && sm.trap.hasHandler:
		r.TrapState = "paused"
	case q.Paused.Has(w.slot):
		r.TrapState = "stopped"
	case q.InHandler.Has(w.slot):
		r.TrapState = "handler"
	}
}

// --- Host interface ---

// SetHostPolicy installs the batch host agent (trapunit.Host) with the
// policies of smsim run's --on-trap (traps and warp errors) and
// --on-break (breakpoints): "abort" (the default; the run ends
// "trapped", or "fault" for a warp error other than PTX trap) or
// "resume" (the host wakes the stopped warps once every live warp has
// paused or exited: RESUME without a handler, WAKE_ALL with one). An
// empty string means "abort".
func (sm *SM) SetHostPolicy(onTrap, onBreak string) error {
	parse := func(flag, s string) (trapunit.Policy, error) {
		if s == "" {
			return trapunit.Abort, nil
		}
		p, err := trapunit.ParsePolicy(s)
		if err != nil {
			return p, fmt.Errorf("--%s %q: want abort or resume", flag, s)
		}
		return p, nil
	}
	t, err := parse("on-trap", onTrap)
	if err != nil {
		return err
	}
	b, err := parse("on-break", onBreak)
	if err != nil {
		return err
	}
	sm.SetHostAgent(trapunit.NewHost(t, b, sm.trap.hasHandler))
	return nil
}

// SetHostAgent replaces the host agent (nil: none; the warps a trap stops
// wait for HostCommand). New installs trapunit.Host aborting on traps and
// breakpoints.
func (sm *SM) SetHostAgent(h HostAgent) {
	sm.trap.host = h
	sm.trap.rest = sm.trap.atRest()
}

// HostCommand drives one host command (trapunit.HostAckIRQ ...
// trapunit.HostResume) and steps one cycle; the unit accepts it
// (trapunit.HostOK) or refuses it with a reason (NOT_TRAPPED,
// NOT_STOPPED: a wake before every live warp has paused or exited,
// BAD_WARP, NO_HANDLER). It takes the place of the host agent's command
// of that cycle. The error is non-nil when the run has ended.
func (sm *SM) HostCommand(cmd trapunit.HostCmd, arg uint16) (trapunit.HostErr, error) {
	if sm.stopped {
		return 0, errors.New("the run has ended")
	}
	t := &sm.trap
	t.cmd, t.arg, t.hasDirect = cmd, arg, true
	sm.Step()
	if t.oCycle != sm.cycle || t.hasDirect {
		t.hasDirect, t.cmd = false, trapunit.HostNone
		return 0, errors.New("the run ended before the command was driven")
	}
	return t.o.HostErr, nil
}

// TrapOutputs returns trap_unit's outputs: those of the last cycle if it
// was evaluated then, else the registered ones (the pulses read zero).
func (sm *SM) TrapOutputs() trapunit.Outputs {
	var o trapunit.Outputs
	sm.TrapOutputsTo(&o)
	return o
}

// TrapOutputsTo sets *o to TrapOutputs() without copying the outputs
// twice (a tracer reads them every cycle).
func (sm *SM) TrapOutputsTo(o *trapunit.Outputs) {
	t := &sm.trap
	if t.oCycle == sm.cycle && sm.cycle > 0 {
		*o = t.o
		return
	}
	q := &t.q
	*o = trapunit.Outputs{SMTrapped: q.SMTrapped, ResumePC: q.SavedPC, WarpPaused: q.Paused, WarpInHandler: q.InHandler,
		IRQCause: q.IRQPending & trapunit.IRQMask, IRQCount: q.IRQCount, GlobalESR: q.GlobalESR,
		S2RGlobalESR: q.GlobalESR &^ trapunit.GlobalESRBPTInt, WarpESR: q.WarpESR}
	o.IRQ = o.IRQCause != 0
	running := t.live.AndNot(q.Paused)
	o.AllPaused = q.SMTrapped && !running.Any()
}

// TrapCounts returns how many traps, breakpoints and interrupt records
// the run has so far (the lengths of the report's lists; cheap, for
// debuggers watching for the next stop).
func (sm *SM) TrapCounts() (traps, breakpoints, interrupts int) {
	r := &sm.trap.rep
	return len(r.Traps), len(r.Breakpoints), len(r.Interrupts)
}

// AllStopped reports whether the SM is trapped and every live warp is
// paused (registered state: the host may wake or resume them).
func (sm *SM) AllStopped() bool {
	q := &sm.trap.q
	running := sm.trap.live.AndNot(q.Paused)
	return q.SMTrapped && !running.Any()
}

// HasTrapHandler reports whether a trap handler is configured.
func (sm *SM) HasTrapHandler() bool { return sm.trap.hasHandler }

// TrapState returns trap_unit's registers (Q).
func (sm *SM) TrapState() trapunit.State { return sm.trap.q }

// TrapStateRef is TrapState without the copy, for observers that read it
// every cycle: valid until the next Step; do not write it.
func (sm *SM) TrapStateRef() *trapunit.State { return &sm.trap.q }

// TrapUnitModel returns the SM's trap_unit (for observers and tracers:
// read its Q, D and Signals; do not drive it).
func (sm *SM) TrapUnitModel() *trapunit.Unit { return sm.trap.unit }

// TrapHandler returns the trap handler's name (config trap.handler; ""
// without one).
func (sm *SM) TrapHandler() string { return sm.trap.handler }

// TrapLog returns what the trap unit saw so far (the report's trap part).
func (sm *SM) TrapLog() TrapReport { return sm.trapReport() }

// SetUniformTraps makes a .uni branch, call or return whose threads
// disagree a precise warp error UNIFORM_VIOLATION (it does not execute;
// the saved PC is the next instruction). By default such a violation is a
// non-fatal "uniform_violation" report error and the instruction
// executes divergently: .uni is the compiler's promise, and breaking it
// is undefined behaviour the model reports rather than a hardware fault.
func (sm *SM) SetUniformTraps(on bool) { sm.trap.uniformTraps = on }

// Line returns "file:line" of pc.
func (sm *SM) Line(pc uint32) string { return sm.lineOf(pc) }

// WarpStatus is one resident warp as a debugger sees it.
type WarpStatus struct {
	Slot      int
	CTA       [3]uint32
	WarpInCTA int
	State     string // warp state (paused, trapped, selected, ...; exited for a draining warp)
	PC        uint32 // the active group's PC (in the handler: the handler's)
	Line      string
	Source    string
	Active    uint32 // the active group
	Live      uint32 // lanes with a live thread
	ESR       trapunit.WarpESR
	InHandler bool
	Paused    bool
	SavedPC   uint32 // where it resumes (meaningful in the handler or stopped)
	Insts     uint64 // warp instructions issued
}

// shownState is the state and PC a report shows for resident warp w: a
// finished warp is in state done at its last PC; an eligible warp that
// was not picked is NOT_SELECTED.
func (sm *SM) shownState(w *warp, done WarpState) (WarpState, uint32) {
	st := sm.warpState(w, sm.cycle)
	switch {
	case w.done:
		return done, w.lastPC
	case st == StateEligible:
		st = StateNotSelected
	}
	return st, w.gpc
}

// WarpStatus lists the resident warps in slot order.
func (sm *SM) WarpStatus() []WarpStatus {
	var out []WarpStatus
	q := &sm.trap.q
	for _, w := range sm.resident {
		st, pc := sm.shownState(w, StateExited)
		_, text := sm.im.Where(pc)
		ws := WarpStatus{Slot: w.slot, CTA: w.cta.id, WarpInCTA: w.inCTA, State: st.String(), PC: pc, Line: sm.lineOf(pc), Source: strings.TrimSpace(text),
			Active: w.gmask, Live: w.live(), Insts: w.insts}
		if w.slot < trapunit.MaxWarps {
			ws.ESR, ws.InHandler, ws.Paused, ws.SavedPC = q.WarpESR[w.slot], q.InHandler.Has(w.slot), q.Paused.Has(w.slot), q.SavedPC[w.slot]
		}
		out = append(out, ws)
	}
	return out
}

// WarpRegisters is a warp's register context.
type WarpRegisters struct {
	Regs  [][32]uint32 // Regs[r][lane]
	Preds []uint32     // lane masks
	CC    uint32       // the carry flag CC.CF of each lane
	Live  uint32       // lanes with a live thread
	// Handler is set when these are the trap handler's registers.
	Handler bool
}

// WarpRegs returns the registers of the warp in slot: its user context
// (the kernel's registers, also while it runs the handler), or with
// handler the handler's bank (ok false when the warp does not run the
// handler).
func (sm *SM) WarpRegs(slot int, handler bool) (WarpRegisters, bool) {
	if slot < 0 || slot >= len(sm.slots) || sm.slots[slot] == nil {
		return WarpRegisters{}, false
	}
	w := sm.slots[slot]
	regs, preds, cc := w.regs, w.preds, w.cc
	if w.tr.handler != handler {
		if handler {
			return WarpRegisters{}, false
		}
		regs, preds, cc = w.tr.ctx.regs, w.tr.ctx.preds, w.tr.ctx.cc
	}
	r := WarpRegisters{Regs: make([][32]uint32, len(regs)/32), Preds: append([]uint32(nil), preds...), CC: cc, Live: w.live(), Handler: handler}
	for i := range r.Regs {
		copy(r.Regs[i][:], regs[32*i:])
	}
	return r, true
}
