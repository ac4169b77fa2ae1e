package trapunit

import (
	"fmt"

	"github.com/smsim/smsim/rtl"
)

// Params are the parameters of the trap_unit module.
type Params struct {
	// NumWarps is the number of warp slots of the SM (sm.max_warps),
	// 1..MaxWarps.
	NumWarps int
	// NumPorts is the number of event ports (ev_*_i[p]), 1..MaxPorts:
	// one per warp scheduler lets every warp issued in a cycle report
	// its BPT/IDE/RTT, plus its errors.
	NumPorts int
	// HasHandler: a trap handler is configured (trap.handler). Without
	// one, a warp that would enter the handler is stopped instead (paused
	// in the trap state) and the host decides (RESUME or abort).
	HasHandler bool
}

// Inputs are the ports the SM drives every cycle.
type Inputs struct {
	// WarpLive: the slot holds a warp with live threads (a warp that
	// has exited, or an empty slot, is 0).
	WarpLive rtl.Bits `sv:"warp_live_i" width:"NumWarps"`
	// WarpLaunch: a new warp was launched into the slot this cycle; its
	// per-warp registers (ESR, interrupt mask, trap state) are reset.
	WarpLaunch rtl.Bits `sv:"warp_launch_i" width:"NumWarps"`
	// WarpPC: per warp, the PC of the next instruction the warp will
	// issue after this cycle (this cycle's issue included). Sampled as
	// the saved PC of warps dragged into the handler by another warp's
	// trap.
	WarpPC [MaxWarps]uint32 `sv:"warp_pc_i" width:"32*NumWarps"`
	// One event per port and cycle, processed in port order.
	EvValid  [MaxPorts]bool   `sv:"ev_valid_i" width:"NumPorts"`
	EvWarp   [MaxPorts]uint16 `sv:"ev_warp_i" width:"NumPorts*idx(NumWarps)" elem:"idx(NumWarps)"`
	EvKind   [MaxPorts]EvKind `sv:"ev_kind_i" width:"4*NumPorts" elem:"4"`
	EvArg    [MaxPorts]uint8  `sv:"ev_arg_i" width:"4*NumPorts" elem:"4"` // BPT_TRAP: reason in [2:0]; WARP_ERROR: code in [3:0]
	EvPCNext [MaxPorts]uint32 `sv:"ev_pc_next_i" width:"32*NumPorts"`     // PC of the instruction after the one that raised the event
	// Host command (one per cycle) and its argument.
	HostCmd HostCmd `sv:"host_cmd_i" width:"3"`
	HostArg uint16  `sv:"host_arg_i"`
}

// Event is one event-port transaction, for SetEvent.
type Event struct {
	Warp   int
	Kind   EvKind
	Arg    uint8  // BPT_TRAP reason or WARP_ERROR code
	PCNext uint32 // PC of the next instruction
}

// SetEvent drives event port p with e (ev_valid_i[p] = 1). Ports outside
// 0..MaxPorts-1 and warps outside 0..65535 are ignored.
func (in *Inputs) SetEvent(p int, e Event) {
	if p < 0 || p >= MaxPorts || e.Warp < 0 || e.Warp > 0xffff {
		return
	}
	in.EvValid[p], in.EvWarp[p], in.EvKind[p], in.EvArg[p], in.EvPCNext[p] = true, uint16(e.Warp), e.Kind, e.Arg, e.PCNext
}

// Outputs are the unit's ports. Those marked "registered" are functions
// of Q only (the SM may read them, through Q, before it drives this
// cycle's inputs); the others are combinational pulses of this cycle.
type Outputs struct {
	// SMTrapped (registered): some live warp is in the trap handler
	// (or stopped in the trap state when there is no handler). The SM
	// holds CTA launches while it is set.
	SMTrapped bool `sv:"sm_trapped_o"`
	// EnterHandler (pulse): warps to redirect to the handler entry at
	// the end of this cycle. Never set without a handler.
	EnterHandler rtl.Bits `sv:"enter_handler_o" width:"NumWarps"`
	// Resume (pulse): warps leaving the handler this cycle (RTT, host
	// RESUME, return to user mode); each continues at ResumePC[w].
	Resume rtl.Bits `sv:"resume_o" width:"NumWarps"`
	// ReturnToUser (pulse): every live warp had paused with
	// BPT.PAUSE_QUIET; they all resume (Resume) and the SM returns to
	// user mode without host action.
	ReturnToUser bool `sv:"return_to_user_o"`
	// ResumePC (registered): the saved PC of every warp (saved_pc_q).
	ResumePC [MaxWarps]uint32 `sv:"resume_pc_o" width:"32*NumWarps"`
	// WarpPaused (registered): warps stopped by BPT.PAUSE(_QUIET), by a
	// trap inside the handler, or by a trap without a handler; the SM
	// must not issue from them.
	WarpPaused rtl.Bits `sv:"warp_paused_o" width:"NumWarps"`
	// WarpInHandler (registered): warps in the trap handler.
	WarpInHandler rtl.Bits `sv:"warp_in_handler_o" width:"NumWarps"`
	// AllPaused: the SM is trapped and every live warp is paused, so
	// the host may WAKE or RESUME (seed 002).
	AllPaused bool `sv:"all_paused_o"`
	// IRQ, IRQCause, IRQCount (registered): an interrupt to the host is
	// pending with these causes (IRQPause...); interrupts raised since
	// reset.
	IRQ      bool   `sv:"irq_o"`
	IRQCause uint8  `sv:"irq_cause_o" width:"4"`
	IRQCount uint32 `sv:"irq_count_o"`
	// GlobalESR (registered) and the value S2R SR_GLOBAL_ESR reads
	// (BPT_INT reads as 0).
	GlobalESR    uint16 `sv:"global_esr_o"`
	S2RGlobalESR uint16 `sv:"s2r_global_esr_o"`
	// WarpESR (registered): per-warp ESRs (S2R SR_WARP_ESR).
	WarpESR [MaxWarps]WarpESR `sv:"warp_esr_o" width:"16*NumWarps"`
	// HostAck / HostErr (pulse): this cycle's host command was accepted
	// / refused with this reason.
	HostAck bool    `sv:"host_ack_o"`
	HostErr HostErr `sv:"host_err_o" width:"3"`
}

// State holds the unit's registers. Invariants: Quiet ⊆ Paused ⊆
// InHandler; SMTrapped = some live warp in InHandler (as of the last Eval).
type State struct {
	SMTrapped bool `sv:"sm_trapped_q"`
	// InHandler: the warp is in the trap handler (or, without a handler,
	// stopped in the trap state).
	InHandler rtl.Bits `sv:"in_handler_q" width:"NumWarps"`
	// Paused: the warp is stopped, waiting for the host.
	Paused rtl.Bits `sv:"paused_q" width:"NumWarps"`
	// Quiet: the warp paused with BPT.PAUSE_QUIET.
	Quiet rtl.Bits `sv:"quiet_q" width:"NumWarps"`
	// IntMask: IDE.DIS is in force for the warp (BPT.TRAP 1..6 held).
	IntMask rtl.Bits `sv:"int_mask_q" width:"NumWarps"`
	// SavedPC: where the warp resumes when it leaves the handler.
	SavedPC [MaxWarps]uint32 `sv:"saved_pc_q" width:"32*NumWarps"`
	// WarpESR: the per-warp error status registers.
	WarpESR [MaxWarps]WarpESR `sv:"warp_esr_q" width:"16*NumWarps"`
	// GlobalESR: the SM's global error status register.
	GlobalESR uint16 `sv:"global_esr_q"`
	// IRQPending: interrupt causes not yet acknowledged by the host.
	IRQPending uint8 `sv:"irq_pending_q" width:"4"`
	// IRQCount: interrupts raised since reset (wraps).
	IRQCount uint32 `sv:"irq_count_q"`
}

// Unit is one trap_unit instance: a two-phase unit (rtl.Unit).
type Unit struct {
	p               Params
	all             rtl.Bits // bits 0..NumWarps-1
	rtl.Regs[State]          // Q, D, Tick and Reset
}

var _ rtl.Unit[Inputs, Outputs, State] = (*Unit)(nil)

// New checks p and returns a unit in its reset state (Reset, the zero
// State): user mode, no warp in the handler, interrupts enabled, ESRs and
// interrupt state clear.
func New(p Params) (*Unit, error) {
	if p.NumWarps < 1 || p.NumWarps > MaxWarps {
		return nil, fmt.Errorf("trapunit: NumWarps %d outside 1..%d", p.NumWarps, MaxWarps)
	}
	if p.NumPorts < 1 || p.NumPorts > MaxPorts {
		return nil, fmt.Errorf("trapunit: NumPorts %d outside 1..%d", p.NumPorts, MaxPorts)
	}
	u := &Unit{p: p}
	for w := 0; w < p.NumWarps; w++ {
		u.all.Set(w)
	}
	u.Reset()
	return u, nil
}

// Params returns the unit's parameters.
func (u *Unit) Params() Params { return u.p }

// Signals returns the unit's signal table under Scope.
func (u *Unit) Signals() rtl.Table {
	return rtl.MustSignals(Scope, u.p, Inputs{}, Outputs{}, State{})
}

// cycle is the scratch of one Eval (combinational wires, not state).
type cycle struct {
	p       *Params
	d       *State
	o       *Outputs
	live    rtl.Bits
	entered rtl.Bits // warps that entered the handler this cycle
	trapReq bool     // a warp took a trap this cycle
}

// Eval is always_comb. In order (each step sees the previous ones'
// results in D):
//
//  1. warps launched this cycle get fresh per-warp registers; warps that
//     are not live lose their trap state (in handler, paused);
//  2. if every live warp is paused quietly, they all leave the handler
//     (return to user mode);
//  3. the host command is checked and applied;
//  4. the events, port 0 first;
//  5. if a warp took a trap and the SM was not trapped before step 4,
//     every other live warp enters the handler too.
//
// The registered outputs come from Q.
func (u *Unit) Eval(in Inputs) Outputs {
	u.Next = u.Cur
	var o Outputs
	d := &u.Next
	c := cycle{p: &u.p, d: d, o: &o, live: in.WarpLive.And(u.all)}
	n := u.p.NumWarps

	// 1. Launches and exits.
	launch := in.WarpLaunch.And(u.all)
	for w := launch.NextFrom(0, n); w >= 0; w = launch.NextFrom(w+1, n) {
		d.WarpESR[w], d.SavedPC[w] = 0, 0
		d.IntMask.Clear(w)
	}
	gone := u.all.AndNot(c.live).Or(launch)
	d.InHandler = d.InHandler.AndNot(gone)
	d.Paused = d.Paused.AndNot(gone)
	d.Quiet = d.Quiet.AndNot(gone)

	// 2. Return to user mode when every live warp paused quietly.
	if c.live.Any() && !some(c.live.AndNot(d.Paused.And(d.Quiet))) {
		o.ReturnToUser = true
		for w := c.live.NextFrom(0, n); w >= 0; w = c.live.NextFrom(w+1, n) {
			c.leave(w)
		}
	}
	o.AllPaused = c.trapped() && !some(c.live.AndNot(d.Paused))

	// 3. Host command.
	c.host(in.HostCmd, in.HostArg)

	// 4. Events.
	before := c.trapped()
	for p := 0; p < u.p.NumPorts; p++ {
		if in.EvValid[p] {
			c.event(int(in.EvWarp[p]), in.EvKind[p], in.EvArg[p], in.EvPCNext[p])
		}
	}

	// 5. A trap that traps the SM takes every live warp into the handler.
	if c.trapReq && !before {
		rest := c.live.AndNot(d.InHandler)
		for w := rest.NextFrom(0, n); w >= 0; w = rest.NextFrom(w+1, n) {
			c.enter(w, in.WarpPC[w])
		}
	}
	d.SMTrapped = c.trapped()

	q := &u.Cur
	o.SMTrapped = q.SMTrapped
	o.ResumePC = q.SavedPC
	o.WarpPaused, o.WarpInHandler = q.Paused, q.InHandler
	o.IRQCause = q.IRQPending & IRQMask
	o.IRQ = o.IRQCause != 0
	o.IRQCount = q.IRQCount
	o.GlobalESR = q.GlobalESR
	o.S2RGlobalESR = q.GlobalESR &^ GlobalESRBPTInt
	o.WarpESR = q.WarpESR
	return o
}

// trapped: some live warp is in the handler (in D).
func (c *cycle) trapped() bool { return some(c.d.InHandler.And(c.live)) }

// some reports whether b has a set bit.
func some(b rtl.Bits) bool { return b.Any() }

func (c *cycle) irq(cause uint8) {
	c.d.IRQPending |= cause
	c.d.IRQCount++
}

// enter takes warp w (not in the handler) into the handler with saved
// PC pc. A warp that left the handler earlier this cycle keeps the saved
// PC it was resuming at (it re-enters before executing anything).
func (c *cycle) enter(w int, pc uint32) {
	c.d.InHandler.Set(w)
	if c.o.Resume.Has(w) {
		c.o.Resume.Clear(w)
	} else {
		c.d.SavedPC[w] = pc
	}
	c.redirect(w)
}

// redirect sends warp w, now in the handler, to the handler entry or,
// without a handler, stops it there.
func (c *cycle) redirect(w int) {
	c.entered.Set(w)
	if c.p.HasHandler {
		c.o.EnterHandler.Set(w)
	} else {
		c.d.Paused.Set(w)
		c.d.Quiet.Clear(w)
	}
}

// leave takes warp w (in the handler) back to its saved PC and clears the
// reason and error of its ESR. A pending trap that is no longer masked
// is taken instead: the warp stays in the handler (entering it afresh)
// with the pending reason.
func (c *cycle) leave(w int) {
	d := c.d
	d.Paused.Clear(w)
	d.Quiet.Clear(w)
	e := d.WarpESR[w] & WarpESRPendingMask
	if r := e.Pending(); r != 0 && !d.IntMask.Has(w) {
		d.WarpESR[w] = e.withPending(0).withReason(r)
		c.redirect(w)
		if !c.p.HasHandler {
			c.irq(IRQTrap)
		}
		return
	}
	d.WarpESR[w] = e
	d.InHandler.Clear(w)
	c.o.Resume.Set(w)
}

// nested handles a trap or error of a warp already in the handler: it
// stops the warp for the host. An error of a warp that entered the
// handler this cycle belongs to that entry and stops nothing.
func (c *cycle) nested(w int, cause uint8) {
	if c.entered.Has(w) {
		return
	}
	c.d.Paused.Set(w)
	c.d.Quiet.Clear(w)
	if cause != 0 {
		c.irq(cause)
	}
}

// takeTrap takes BPT.TRAP reason r (unmasked) for warp w.
func (c *cycle) takeTrap(w, r int, pc uint32) {
	d := c.d
	d.WarpESR[w] = d.WarpESR[w].withReason(r)
	if d.InHandler.Has(w) {
		c.nested(w, IRQTrap)
		return
	}
	c.enter(w, pc)
	c.trapReq = true
	if !c.p.HasHandler {
		c.irq(IRQTrap)
	}
}

// bptTrap is BPT.TRAP r: recorded in the global ESR, held pending under
// IDE.DIS (reasons 1..6), else taken.
func (c *cycle) bptTrap(w, r int, pc uint32) {
	d := c.d
	if r == 0 {
		c.warpError(w, ErrIllegalInstrEncoding, pc)
		return
	}
	d.GlobalESR |= GlobalESRTrap(r)
	if r != ReasonNonMaskable && d.IntMask.Has(w) {
		d.WarpESR[w] = d.WarpESR[w].withPending(r)
		return
	}
	c.takeTrap(w, r, pc)
}

// warpError records error code for warp w and traps.
func (c *cycle) warpError(w int, code ErrCode, pc uint32) {
	d := c.d
	if e := d.WarpESR[w]; e.Error() == ErrNone {
		d.WarpESR[w] = e.withError(code)
	}
	d.GlobalESR |= GlobalESRError
	c.irq(IRQError)
	if d.InHandler.Has(w) {
		c.nested(w, 0)
		return
	}
	c.enter(w, pc)
	c.trapReq = true
}

// event applies one event-port transaction.
func (c *cycle) event(w int, k EvKind, arg uint8, pc uint32) {
	d := c.d
	if w >= c.p.NumWarps || !c.live.Has(w) {
		return // not a live warp: ignored
	}
	if k != EvWarpError && (d.Paused.Has(w) || c.entered.Has(w)) {
		return // a paused warp issues nothing; an instruction of a warp redirected this cycle is squashed
	}
	switch k {
	case EvBPTPause, EvBPTPauseQuiet:
		if !d.InHandler.Has(w) {
			c.warpError(w, ErrIllegalInstrEncoding, pc)
			return
		}
		d.Paused.Set(w)
		if k == EvBPTPauseQuiet {
			d.Quiet.Set(w)
		} else {
			d.Quiet.Clear(w)
			d.GlobalESR |= GlobalESRBPTPause
			c.irq(IRQPause)
		}
	case EvBPTTrap:
		c.bptTrap(w, int(arg&reasonMask), pc)
	case EvPTXBrkpt:
		c.bptTrap(w, ReasonBreakpoint, pc)
	case EvBPTInt:
		d.GlobalESR |= GlobalESRBPTInt
		c.irq(IRQInt)
	case EvIDEEnable:
		d.IntMask.Clear(w)
		if r := d.WarpESR[w].Pending(); r != 0 && !d.InHandler.Has(w) {
			d.WarpESR[w] = d.WarpESR[w].withPending(0)
			c.takeTrap(w, r, pc)
		}
	case EvIDEDisable:
		d.IntMask.Set(w)
	case EvRTT:
		if !d.InHandler.Has(w) {
			c.warpError(w, ErrIllegalInstrEncoding, pc)
			return
		}
		c.leave(w)
	case EvWarpError:
		code := ErrCode(arg & errCodeMask)
		if code == ErrNone {
			code = ErrUnknown
		}
		c.warpError(w, code, pc)
	case EvPTXTrap:
		c.warpError(w, ErrAssertTrap, pc)
	}
	// EvNone, EvBPTDrain and reserved kinds: nothing.
}

// host checks and applies one host command.
func (c *cycle) host(cmd HostCmd, arg uint16) {
	d := c.d
	n := c.p.NumWarps
	var err HostErr
	switch cmd {
	case HostNone:
		return
	case HostAckIRQ:
		d.IRQPending &^= uint8(arg) & IRQMask
	case HostClearGlobalESR:
		d.GlobalESR &^= arg
	case HostClearWarpESR:
		if int(arg) >= n {
			err = HostErrBadWarp
		} else {
			d.WarpESR[arg] = 0
		}
	case HostWakeAll, HostWakeWarp, HostResume:
		switch {
		case cmd == HostWakeWarp && (int(arg) >= n || !c.live.Has(int(arg))):
			err = HostErrBadWarp
		case cmd != HostResume && !c.p.HasHandler:
			err = HostErrNoHandler
		case !c.trapped():
			err = HostErrNotTrapped
		case some(c.live.AndNot(d.Paused)):
			err = HostErrNotStopped
		case cmd == HostWakeWarp:
			d.Paused.Clear(int(arg))
			d.Quiet.Clear(int(arg))
		case cmd == HostWakeAll:
			d.Paused = d.Paused.AndNot(c.live)
			d.Quiet = d.Quiet.AndNot(c.live)
		default: // HostResume
			for w := c.live.NextFrom(0, n); w >= 0; w = c.live.NextFrom(w+1, n) {
				c.leave(w)
			}
		}
	default:
		err = HostErrBadCmd
	}
	c.o.HostErr, c.o.HostAck = err, err == HostOK
}
