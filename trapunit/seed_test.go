package trapunit

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/rtl"
)

// One test per sentence of seed 002 (BPT), quoted in the test's comment,
// and the PTX trap/brkpt sentences of seed 000.

var handler = Params{NumWarps: 8, HasHandler: true}

// trapped returns a bench whose live warps 0..3 are in the handler after
// warp 1's BPT.TRAP 2 at pc 10 (saved PC 11).
func trapped(t *testing.T) *bench {
	t.Helper()
	b := newBench(t, handler, 0, 1, 2, 3)
	b.step(trap(1, 2, 11))
	return b
}

// "This instruction implements functionality associated with the SM trap
// handler and software debugger."
func TestSeed002_TrapHandlerAndDebugger(t *testing.T) {
	// The handler side: a trap enters the handler; the debugger side: the
	// handler pauses, the host (debugger) sees the interrupt and wakes.
	b := trapped(t)
	for w := 0; w < 4; w++ {
		b.step(ev(w, EvBPTPause))
	}
	o := b.idle()
	if !o.IRQ || o.IRQCause&IRQPause == 0 || !o.AllPaused {
		t.Fatalf("debugger not notified: irq %v cause %s all paused %v", o.IRQ, CauseString(o.IRQCause), o.AllPaused)
	}
	if o = b.cmd(HostWakeAll, 0); !o.HostAck {
		t.Fatalf("wake refused: %s", o.HostErr)
	}
	if q := b.q(); q.Paused.Any() || !q.SMTrapped {
		t.Fatalf("after wake: paused %v trapped %v", q.Paused, q.SMTrapped)
	}
}

// "The SM pipeline is drained to guarantee that all Warp Errors interrupts
// caused by previous instructions from the executing warp are taken before
// the next instruction."
func TestSeed002_DrainTakesErrorsFirst(t *testing.T) {
	// The pipeline holds the warp at BPT.DRAIN until its outstanding
	// errors are delivered; delivered on a lower port in the same cycle,
	// the error is taken and the DRAIN (and any later instruction) is
	// squashed by the redirect.
	b := newBench(t, handler, 0, 1)
	o := b.step(werr(0, ErrOutOfRangeAddr, 5), Event{Warp: 0, Kind: EvBPTDrain, PCNext: 7})
	if !o.EnterHandler.Has(0) {
		t.Fatal("error before the drain not taken")
	}
	if q := b.q(); q.SavedPC[0] != 5 || q.WarpESR[0].Error() != ErrOutOfRangeAddr {
		t.Fatalf("saved pc %d esr %s", q.SavedPC[0], q.WarpESR[0])
	}
	// BPT.DRAIN alone changes no register.
	b2 := newBench(t, handler, 0)
	before := b2.q()
	b2.step(ev(0, EvBPTDrain))
	if b2.q() != before {
		t.Fatal("BPT.DRAIN changed the trap unit")
	}
}

// "Note that BPT.DRAIN does not drain the memory pipeline beyond SM and
// provides no guarantee for L1 pipeline Error interrupts."
func TestSeed002_LateL1ErrorsAccepted(t *testing.T) {
	// An error can arrive any number of cycles after the DRAIN: it is
	// taken whenever it arrives, with the PC the pipeline gives.
	b := newBench(t, handler, 0, 1)
	b.step(ev(0, EvBPTDrain))
	for i := 0; i < 5; i++ {
		b.idle()
	}
	o := b.step(werr(0, ErrMisalignedAddr, 42))
	if !o.EnterHandler.Has(0) || !o.EnterHandler.Has(1) {
		t.Fatalf("late error not taken: enter %v", o.EnterHandler)
	}
}

// "Only allowed while in trap hander (otherwise it is treated as an
// ILLEGAL_INSTR_ENCODING error)."
func TestSeed002_PauseOutsideHandlerIsIllegal(t *testing.T) {
	for _, k := range []EvKind{EvBPTPause, EvBPTPauseQuiet, EvRTT} {
		b := newBench(t, handler, 0, 1)
		o := b.step(Event{Warp: 1, Kind: k, PCNext: 9})
		q := b.q()
		if !o.EnterHandler.Has(1) || q.WarpESR[1].Error() != ErrIllegalInstrEncoding || q.Paused.Any() {
			t.Errorf("%s outside the handler: enter %v esr %s paused %v", k, o.EnterHandler, q.WarpESR[1], q.Paused)
		}
		if q.GlobalESR&GlobalESRError == 0 || q.GlobalESR&GlobalESRBPTPause != 0 || q.IRQPending != IRQError {
			t.Errorf("%s outside the handler: global ESR %#x irq %s", k, q.GlobalESR, CauseString(q.IRQPending))
		}
	}
}

// "Stop the current warp from continuing execution and unconditionally
// send a notification (interrupt) to the CPU that a warp has stopped."
func TestSeed002_PauseStopsAndInterrupts(t *testing.T) {
	b := trapped(t)
	b.step(ev(2, EvIDEDisable)) // unconditionally: even with interrupts masked
	b.step(ev(2, EvBPTPause))
	o := b.idle()
	if !o.WarpPaused.Has(2) || o.WarpPaused.Count() != 1 {
		t.Fatalf("paused %v", o.WarpPaused)
	}
	if !o.IRQ || o.IRQCause != IRQPause || o.IRQCount != 1 || o.GlobalESR&GlobalESRBPTPause == 0 {
		t.Fatalf("irq %v cause %s count %d global %#x", o.IRQ, CauseString(o.IRQCause), o.IRQCount, o.GlobalESR)
	}
}

// "The warp will not continue execution until it has been woken by the
// CPU via an external signal."
func TestSeed002_PausedUntilWoken(t *testing.T) {
	b := trapped(t)
	b.step(ev(0, EvBPTPause))
	for i := 0; i < 10; i++ {
		// A paused warp issues nothing: anything the SM would report for
		// it but an error is ignored.
		if o := b.step(ev(0, EvBPTInt), ev(0, EvRTT)); o.Resume.Any() {
			t.Fatal("paused warp resumed")
		}
	}
	if q := b.q(); !q.Paused.Has(0) || q.GlobalESR&GlobalESRBPTInt != 0 {
		t.Fatalf("paused %v global %#x", q.Paused, q.GlobalESR)
	}
	for w := 1; w < 4; w++ {
		b.step(ev(w, EvBPTPause))
	}
	if o := b.cmd(HostWakeWarp, 0); !o.HostAck {
		t.Fatalf("wake refused: %s", o.HostErr)
	}
	q := b.q()
	if q.Paused.Has(0) || !q.InHandler.Has(0) || q.Paused.Count() != 3 {
		t.Fatalf("after WAKE_WARP 0: paused %v in handler %v", q.Paused, q.InHandler)
	}
}

// "The CPU should only "wake-up" warps from the paused state after all
// warps on a given SM have either paused or exited and while the SM is
// trapped. Otherwise the system may be placed in an inconsistent state."
func TestSeed002_WakeOnlyWhenAllStopped(t *testing.T) {
	empty := newBench(t, handler) // no live warp: "all paused" must not hold vacuously
	if o := empty.cmd(HostResume, 0); o.AllPaused || o.HostErr != HostErrNotTrapped {
		t.Errorf("RESUME of an empty SM: all paused %v, %s", o.AllPaused, o.HostErr)
	}
	b := newBench(t, handler, 0, 1, 2)
	for _, c := range []HostCmd{HostWakeAll, HostResume} {
		if o := b.cmd(c, 0); o.HostErr != HostErrNotTrapped {
			t.Errorf("%s in user mode: %s", c, o.HostErr)
		}
	}
	b.step(trap(0, 3, 1))
	b.step(ev(0, EvBPTPause))
	before := b.q()
	for _, c := range []HostCmd{HostWakeAll, HostWakeWarp, HostResume} {
		if o := b.cmd(c, 0); o.HostErr != HostErrNotStopped || o.AllPaused {
			t.Errorf("%s with running warps: %s", c, o.HostErr)
		}
	}
	if b.q() != before {
		t.Fatal("a refused command changed the state")
	}
	b.exit(1) // exited counts as stopped
	b.step(ev(2, EvBPTPause))
	if o := b.cmd(HostWakeWarp, 1); o.HostErr != HostErrBadWarp {
		t.Errorf("wake of an exited warp: %s", o.HostErr)
	}
	if o := b.cmd(HostWakeWarp, 99); o.HostErr != HostErrBadWarp {
		t.Errorf("wake of warp 99: %s", o.HostErr)
	}
	if o := b.cmd(HostWakeAll, 0); !o.AllPaused || !o.HostAck {
		t.Fatalf("wake with all paused or exited: all paused %v err %s", o.AllPaused, o.HostErr)
	}
	if q := b.q(); q.Paused.Any() {
		t.Fatalf("still paused %v", q.Paused)
	}
}

// "Note: Execution of BPT.PAUSE does not guarantee that prior instructions
// have completed."
func TestSeed002_PauseNoCompletionGuarantee(t *testing.T) {
	// An error of an instruction before the BPT.PAUSE may arrive while the
	// warp is paused: it is recorded and interrupts; the warp stays paused
	// in the handler (no second entry, saved PC kept).
	b := trapped(t)
	b.step(ev(1, EvBPTPause))
	o := b.step(werr(1, ErrOutOfRangeAddr, 500))
	q := b.q()
	if o.EnterHandler.Any() || !q.Paused.Has(1) || q.SavedPC[1] != 11 {
		t.Fatalf("enter %v paused %v saved %d", o.EnterHandler, q.Paused, q.SavedPC[1])
	}
	if q.WarpESR[1].Error() != ErrOutOfRangeAddr || q.IRQPending&IRQError == 0 || q.GlobalESR&GlobalESRError == 0 {
		t.Fatalf("esr %s irq %s global %#x", q.WarpESR[1], CauseString(q.IRQPending), q.GlobalESR)
	}
}

// "If a guarantee of prior instruction completion is desired, SW should
// insert BPT.DRAIN before BPT.PAUSE."
func TestSeed002_DrainBeforePause(t *testing.T) {
	// The unit sees BPT.DRAIN as a no-op; the SM holds the warp until its
	// errors are in, so the sequence DRAIN, (errors), PAUSE reaches the
	// unit in that order.
	b := trapped(t)
	b.step(ev(3, EvBPTDrain))
	b.step(werr(3, ErrMisalignedAddr, 77))
	b.step(ev(3, EvBPTPause))
	if q := b.q(); !q.Paused.Has(3) || q.WarpESR[3].Error() != ErrMisalignedAddr {
		t.Fatalf("paused %v esr %s", q.Paused, q.WarpESR[3])
	}
}

// "Intention of BPT.PAUSE: BPT.PAUSE is a very powerful operation. While
// all warps enter the trap handler when a BPT.TRAP or error is encountered,
// they are not required to stop waiting for the CPU at the same time."
func TestSeed002_AllWarpsEnterHandler(t *testing.T) {
	for _, e := range []Event{trap(2, 5, 33), werr(2, ErrStackOverflow, 33), {Warp: 2, Kind: EvPTXTrap, PCNext: 33}} {
		b := newBench(t, handler, 0, 2, 5)
		o := b.step(e)
		if o.EnterHandler != rtl.BitsOf(0, 2, 5) {
			t.Fatalf("%s: enter %v", e.Kind, o.EnterHandler)
		}
		q := b.q()
		if !q.SMTrapped || q.SavedPC[2] != 33 || q.SavedPC[0] != pcOf(0) || q.SavedPC[5] != pcOf(5) {
			t.Fatalf("%s: trapped %v saved %v", e.Kind, q.SMTrapped, q.SavedPC[:6])
		}
		if q.Paused.Any() {
			t.Fatalf("%s: warps paused on entry: %v", e.Kind, q.Paused)
		}
	}
}

// "Warps are allowed to be 'peeled' off from the group of running warps
// individually by using BPT.PAUSE."
func TestSeed002_PeelOffWarps(t *testing.T) {
	b := trapped(t)
	b.step(ev(0, EvBPTPause))
	// Warps 1..3 go on running handler code while 0 is paused.
	b.step(ev(2, EvIDEDisable), ev(3, EvBPTInt))
	if q := b.q(); q.Paused != rtl.BitsOf(0) || !q.IntMask.Has(2) {
		t.Fatalf("paused %v mask %v", q.Paused, q.IntMask)
	}
	b.step(ev(1, EvBPTPause), ev(2, EvBPTPause))
	if o := b.idle(); o.AllPaused {
		t.Fatal("all paused with warp 3 running")
	}
	b.step(ev(3, EvBPTPause))
	if o := b.idle(); !o.AllPaused || o.WarpPaused.Count() != 4 {
		t.Fatalf("all paused %v paused %v", o.AllPaused, o.WarpPaused)
	}
}

// "Initiates a Trap"
func TestSeed002_TrapInitiatesTrap(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	if o := b.idle(); o.SMTrapped {
		t.Fatal("trapped at reset")
	}
	b.step(trap(0, 2, 1))
	o := b.idle()
	if !o.SMTrapped || o.WarpInHandler != rtl.BitsOf(0, 1) {
		t.Fatalf("trapped %v in handler %v", o.SMTrapped, o.WarpInHandler)
	}
	if o.IRQ {
		t.Fatalf("a BPT.TRAP taken by the handler interrupted the host: %s", CauseString(o.IRQCause))
	}
}

// "No instructions past the BPT.TRAP will have been executed for this warp
// when it enters the trap handler. It is a precise trap which will leave
// the PC pointing to the instruction immediately following the BPT.TRAP."
func TestSeed002_PreciseTrap(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4, NumPorts: 3, HasHandler: true}, 0, 1)
	// The redirect is in the BPT.TRAP's own cycle; a later instruction of
	// the same warp reported in that cycle is squashed.
	o := b.step(trap(1, 4, 21), ev(1, EvBPTInt))
	if !o.EnterHandler.Has(1) {
		t.Fatal("not redirected in the trap's cycle")
	}
	q := b.q()
	if q.SavedPC[1] != 21 || q.GlobalESR&GlobalESRBPTInt != 0 || q.IRQPending != 0 {
		t.Fatalf("saved pc %d, global %#x, irq %s", q.SavedPC[1], q.GlobalESR, CauseString(q.IRQPending))
	}
	// RTT returns to the instruction after the BPT.TRAP.
	o = b.step(ev(1, EvRTT))
	if !o.Resume.Has(1) || o.ResumePC[1] != 21 {
		t.Fatalf("resume %v pc %d", o.Resume, o.ResumePC[1])
	}
}

// ".TRAP takes a 3-bit immediate as a mechanism to allow software to
// differentiate between traps. The 3-bit immediate is provided in a
// per-warp warp ESR so the trap handler can identify the BPT.TRAP type."
func TestSeed002_ReasonInWarpESR(t *testing.T) {
	for r := 1; r <= 7; r++ {
		b := newBench(t, handler, 0, 1, 2)
		b.step(trap(2, r, 1))
		o := b.idle() // what S2R SR_WARP_ESR reads in the handler
		if o.WarpESR[2].Reason() != r || o.WarpESR[0] != 0 || o.WarpESR[1] != 0 {
			t.Errorf("reason %d: warp ESRs %v", r, o.WarpESR[:3])
		}
	}
	// The handler returns; the next trap shows its own reason.
	b := trapped(t)
	for w := 0; w < 4; w++ {
		b.step(ev(w, EvRTT))
	}
	if q := b.q(); q.WarpESR[1] != 0 || q.SMTrapped {
		t.Fatalf("after RTT: esr %s trapped %v", q.WarpESR[1], q.SMTrapped)
	}
	b.step(trap(1, 6, 50))
	if q := b.q(); q.WarpESR[1].Reason() != 6 {
		t.Fatalf("second trap: %s", q.WarpESR[1])
	}
}

// "Furthermore, the global ESR broadcasts which BPT.TRAP types were
// encountered, if any."
func TestSeed002_GlobalESRBroadcastsReasons(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	if o := b.idle(); o.GlobalESR != 0 {
		t.Fatalf("global ESR at reset %#x", o.GlobalESR)
	}
	b.step(trap(0, 2, 1))
	b.step(ev(0, EvRTT), ev(1, EvRTT))
	b.step(trap(1, 5, 1))
	o := b.idle()
	if want := GlobalESRTrap(2) | GlobalESRTrap(5); o.GlobalESR != want || o.S2RGlobalESR != want {
		t.Fatalf("global ESR %#x s2r %#x, want %#x", o.GlobalESR, o.S2RGlobalESR, want)
	}
	b.cmd(HostClearGlobalESR, GlobalESRTrap(2))
	if o := b.idle(); o.GlobalESR != GlobalESRTrap(5) {
		t.Fatalf("after clearing bit 2: %#x", o.GlobalESR)
	}
}

// "BPT.TRAP with a 0 immediate value is illegal."
func TestSeed002_TrapZeroIllegal(t *testing.T) {
	if _, err := isa.AssembleSource("t.ptx", []byte(".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\nBPT.TRAP 0;\nret;\n}\n")); err == nil || !strings.Contains(err.Error(), "BPT.TRAP 0 is illegal") {
		t.Fatalf("assembler: %v", err)
	}
	// If it reaches the unit anyway (a hand-made encoding):
	for _, imm := range []uint32{0, 8, 1 << 19} {
		k, arg, ok := EventFromInst(isa.Inst{Op: isa.OpBPT, Mods: isa.BPTTrap, Imm: imm})
		if !ok || k != EvBPTTrap || arg != 0 {
			t.Fatalf("BPT.TRAP %d -> %s %d %v", imm, k, arg, ok)
		}
	}
	b := newBench(t, handler, 0, 1)
	o := b.step(trap(0, 0, 3))
	q := b.q()
	if !o.EnterHandler.Has(0) || q.WarpESR[0].Error() != ErrIllegalInstrEncoding || q.WarpESR[0].Reason() != 0 {
		t.Fatalf("enter %v esr %s", o.EnterHandler, q.WarpESR[0])
	}
	if q.GlobalESR != GlobalESRError || q.IRQPending != IRQError {
		t.Fatalf("global %#x irq %s", q.GlobalESR, CauseString(q.IRQPending))
	}
}

// "SOFTWARE NOTE: ... One trap immediate can be used as a debugger
// breakpoint while another can be used for all other SW initiated traps."
func TestSeed002_BreakpointReason(t *testing.T) {
	if Classify(GlobalESRTrap(1)) != StopBreakpoint || Classify(GlobalESRTrap(3)) != StopTrap ||
		Classify(GlobalESRTrap(1)|GlobalESRTrap(3)) != StopTrap || Classify(GlobalESRError|GlobalESRTrap(1)) != StopError ||
		Classify(GlobalESRBPTPause|GlobalESRBPTInt) != "" {
		t.Fatal("Classify")
	}
	// PTX brkpt is the breakpoint reason.
	b := newBench(t, handler, 0)
	b.step(Event{Warp: 0, Kind: EvPTXBrkpt, PCNext: 4})
	if q := b.q(); q.WarpESR[0].Reason() != ReasonBreakpoint || q.GlobalESR != GlobalESRTrap(ReasonBreakpoint) {
		t.Fatalf("brkpt: esr %s global %#x", q.WarpESR[0], q.GlobalESR)
	}
}

// "SPA 5.0 extends the two bit immediate trap reason to 3 bits."
func TestSeed002_ThreeBitReason(t *testing.T) {
	b := newBench(t, handler, 0)
	b.step(trap(0, 0x0c, 1)) // ev_arg_i[2:0] = 4; bit 3 is not part of the reason
	if q := b.q(); q.WarpESR[0].Reason() != 4 || q.GlobalESR != GlobalESRTrap(4) {
		t.Fatalf("esr %s global %#x", q.WarpESR[0], q.GlobalESR)
	}
}

// "Also the trap reason 7 has is considered as non maskable exception and
// is processed even when interrupts are masked with IDE.EN/.DIS."
func TestSeed002_Reason7NonMaskable(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	b.step(ev(0, EvIDEDisable))
	o := b.step(trap(0, 7, 8))
	if !o.EnterHandler.Has(0) || b.q().WarpESR[0].Reason() != 7 {
		t.Fatalf("reason 7 under IDE.DIS: enter %v", o.EnterHandler)
	}
}

// IDE.DIS masks BPT.TRAP 1..6 (the same sentence): a masked trap is
// recorded (global ESR bit, warp ESR PENDING) and taken at IDE.EN, with
// the saved PC of the instruction after the IDE.EN.
func TestSeed002_IDEMasksTraps(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	b.step(ev(0, EvIDEDisable))
	o := b.step(trap(0, 3, 8))
	q := b.q()
	if o.EnterHandler.Any() || q.SMTrapped || q.WarpESR[0].Pending() != 3 || q.GlobalESR != GlobalESRTrap(3) {
		t.Fatalf("masked trap: enter %v esr %s global %#x", o.EnterHandler, q.WarpESR[0], q.GlobalESR)
	}
	b.step(Event{Warp: 0, Kind: EvPTXBrkpt, PCNext: 9}) // a later masked trap replaces the pending one
	if q := b.q(); q.WarpESR[0].Pending() != 1 {
		t.Fatalf("pending %s", q.WarpESR[0])
	}
	b.step(ev(1, EvIDEEnable)) // another warp's IDE.EN does nothing for warp 0
	o = b.step(Event{Warp: 0, Kind: EvIDEEnable, PCNext: 12})
	q = b.q()
	if o.EnterHandler != rtl.BitsOf(0, 1) || q.SavedPC[0] != 12 || q.WarpESR[0].Reason() != 1 || q.WarpESR[0].Pending() != 0 {
		t.Fatalf("at IDE.EN: enter %v saved %d esr %s", o.EnterHandler, q.SavedPC[0], q.WarpESR[0])
	}
	// Errors are not masked.
	b2 := newBench(t, handler, 0)
	b2.step(ev(0, EvIDEDisable))
	if o := b2.step(werr(0, ErrInvalidPC, 3)); !o.EnterHandler.Has(0) {
		t.Fatal("error masked")
	}
}

// A trap held pending in the handler is taken when the warp leaves it.
func TestPendingTakenAtRTT(t *testing.T) {
	b := trapped(t)
	b.step(ev(1, EvIDEDisable))
	b.step(trap(1, 5, 30)) // masked: pending
	b.step(ev(1, EvIDEEnable))
	if q := b.q(); q.WarpESR[1].Pending() != 5 {
		t.Fatalf("IDE.EN in the handler took the trap: %s", q.WarpESR[1])
	}
	o := b.step(ev(1, EvRTT))
	q := b.q()
	if o.Resume.Has(1) || !o.EnterHandler.Has(1) || q.SavedPC[1] != 11 || q.WarpESR[1] != WarpESR(5) {
		t.Fatalf("RTT with a pending trap: resume %v enter %v saved %d esr %s", o.Resume, o.EnterHandler, q.SavedPC[1], q.WarpESR[1])
	}
}

// "BPT.INT raises an interrupt to CPU."
func TestSeed002_IntRaisesInterrupt(t *testing.T) {
	b := newBench(t, handler, 0)
	b.step(ev(0, EvBPTInt))
	if o := b.idle(); !o.IRQ || o.IRQCause != IRQInt || o.IRQCount != 1 {
		t.Fatalf("irq %v cause %s count %d", o.IRQ, CauseString(o.IRQCause), o.IRQCount)
	}
	b.cmd(HostAckIRQ, uint16(IRQInt))
	if o := b.idle(); o.IRQ || o.IRQCount != 1 {
		t.Fatalf("after ack: irq %v count %d", o.IRQ, o.IRQCount)
	}
}

// "It can be used both within and outside of the trap handler."
func TestSeed002_IntInAndOutOfHandler(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	b.step(ev(0, EvBPTInt))
	b.step(trap(0, 1, 1))
	b.step(ev(1, EvBPTInt))
	if q := b.q(); q.IRQCount != 2 || q.Paused.Any() || q.WarpESR[1].Error() != ErrNone {
		t.Fatalf("count %d paused %v esr %s", q.IRQCount, q.Paused, q.WarpESR[1])
	}
}

// "It also sets up a bit in global ESR which can only be cleared by the
// CPU."
func TestSeed002_IntBitClearedOnlyByHost(t *testing.T) {
	b := newBench(t, handler, 0)
	b.step(ev(0, EvBPTInt))
	b.step(trap(0, 2, 1))
	b.step(ev(0, EvRTT))
	b.cmd(HostAckIRQ, uint16(IRQMask))
	b.cmd(HostClearGlobalESR, GlobalESRTrap(2)|GlobalESRError)
	if q := b.q(); q.GlobalESR != GlobalESRBPTInt {
		t.Fatalf("global ESR %#x", q.GlobalESR)
	}
	b.cmd(HostClearGlobalESR, GlobalESRBPTInt)
	if q := b.q(); q.GlobalESR != 0 {
		t.Fatalf("global ESR after the host cleared BPT_INT: %#x", q.GlobalESR)
	}
}

// "This bit is always read as 0 when read by an S2R instruction."
func TestSeed002_IntBitReadsZeroInS2R(t *testing.T) {
	b := newBench(t, handler, 0)
	b.step(ev(0, EvBPTInt))
	b.step(trap(0, 3, 1))
	o := b.idle()
	if o.GlobalESR != GlobalESRBPTInt|GlobalESRTrap(3) || o.S2RGlobalESR != GlobalESRTrap(3) {
		t.Fatalf("global %#x s2r %#x", o.GlobalESR, o.S2RGlobalESR)
	}
}

// "BPT.INT interrupts do not trap the SM."
func TestSeed002_IntDoesNotTrap(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	if o := b.step(ev(0, EvBPTInt)); o.EnterHandler.Any() {
		t.Fatal("BPT.INT entered the handler")
	}
	if q := b.q(); q.SMTrapped || q.InHandler.Any() || q.Paused.Any() {
		t.Fatalf("trapped %v", q.SMTrapped)
	}
}

// "BPT.PAUSE_QUIET pauses the warp exactly like BPT.PAUSE does, except that
// it does not set the NV_PTPC_PRI_SM_HWW_GLOBAL_ESR_BPT_PAUSE, and
// therefore does not raise an interrupt."
func TestSeed002_PauseQuiet(t *testing.T) {
	b := trapped(t)
	b.step(ev(0, EvBPTPauseQuiet))
	o := b.idle()
	if !o.WarpPaused.Has(0) || o.IRQ || o.IRQCount != 0 || o.GlobalESR&GlobalESRBPTPause != 0 {
		t.Fatalf("paused %v irq %v count %d global %#x", o.WarpPaused, o.IRQ, o.IRQCount, o.GlobalESR)
	}
	// Exactly like BPT.PAUSE otherwise: the warp issues nothing.
	b.step(ev(0, EvBPTInt))
	if q := b.q(); q.IRQCount != 0 {
		t.Fatal("quietly paused warp executed")
	}
}

// "Additionally, if all live warps become paused by executing
// BPT.PAUSE_QUIET during a given trap event then the SM will return to
// user mode and allow launches to resume without needing any poke of the
// NV_PTPC_PRI_SM_DBGR_STATUS0_RUN_TRIGGER register bit (which would
// otherwise be required)."
func TestSeed002_QuietReturnToUser(t *testing.T) {
	b := trapped(t)
	b.step(werr(2, ErrWarpSync, 0)) // an error inside the handler (warp 2 stops)
	b.step(ev(0, EvBPTPauseQuiet), ev(1, EvBPTPauseQuiet))
	b.exit(3) // exited warps do not count
	if o := b.idle(); o.ReturnToUser {
		t.Fatal("returned with warp 2 paused loudly")
	}
	// Warp 2 was stopped by a nested error, not quietly: the host must
	// poke the run trigger (RESUME).
	if o := b.cmd(HostResume, 0); !o.HostAck || o.Resume != rtl.BitsOf(0, 1, 2) || o.ResumePC[1] != 11 {
		t.Fatalf("RESUME: ack %v resume %v", o.HostAck, o.Resume)
	}
	if o := b.idle(); o.SMTrapped {
		t.Fatal("still trapped after RESUME")
	}

	// All live warps quiet: back to user mode on its own.
	b = trapped(t)
	b.exit(3)
	b.step(ev(0, EvBPTPauseQuiet), ev(1, EvBPTPauseQuiet))
	b.step(ev(2, EvBPTPauseQuiet))
	o := b.idle()
	if !o.ReturnToUser || o.Resume != rtl.BitsOf(0, 1, 2) || o.ResumePC[1] != 11 || o.ResumePC[0] != pcOf(0) {
		t.Fatalf("return to user: %v resume %v pcs %v", o.ReturnToUser, o.Resume, o.ResumePC[:3])
	}
	o = b.idle()
	if o.SMTrapped || o.WarpInHandler.Any() || o.WarpPaused.Any() || o.IRQ || o.WarpESR[1] != 0 {
		t.Fatalf("after return: trapped %v in handler %v paused %v irq %v esr %s", o.SMTrapped, o.WarpInHandler, o.WarpPaused, o.IRQ, o.WarpESR[1])
	}
}

// The seed's example line "BPT.PAUSE; BPT.TRAP 1; BPT.DRAIN; BPT.INT;" and
// the other trap-unit instructions reach the unit as events.
func TestSeed002_ExampleInstructions(t *testing.T) {
	src := ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n" +
		"BPT.PAUSE; BPT.TRAP 1; BPT.DRAIN; BPT.INT;\nBPT.PAUSE_QUIET;\nIDE.EN;\nIDE.DIS;\nRTT;\ntrap;\nbrkpt;\nret;\n}\n"
	im, err := isa.AssembleSource("t.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type kv struct {
		k   EvKind
		arg uint8
	}
	var got []kv
	for _, in := range im.Code {
		if k, arg, ok := EventFromInst(in); ok {
			got = append(got, kv{k, arg})
		}
	}
	want := []kv{{EvBPTPause, 0}, {EvBPTTrap, 1}, {EvBPTDrain, 0}, {EvBPTInt, 0}, {EvBPTPauseQuiet, 0},
		{EvIDEEnable, 0}, {EvIDEDisable, 0}, {EvRTT, 0}, {EvPTXTrap, 0}, {EvPTXBrkpt, 0}}
	if len(got) != len(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d: %v, want %v", i, got[i], want[i])
		}
	}
	if k, arg, ok := EventFromInst(isa.Inst{Op: isa.OpBPT, Mods: 9}); !ok || k != EvWarpError || ErrCode(arg) != ErrIllegalInstrEncoding {
		t.Fatalf("bad BPT mode: %s %d", k, arg)
	}
	if _, _, ok := EventFromInst(isa.Inst{Op: isa.OpEXIT}); ok {
		t.Fatal("EXIT is an event")
	}
}

// Seed 000, trap: "Abort execution and generate an interrupt to the host
// CPU." PTX trap is the warp error ASSERT_TRAP: it traps the SM and always
// interrupts the host (cause ERROR); the default host policy aborts.
func TestSeed000_TrapAbortsAndInterrupts(t *testing.T) {
	for _, hasHandler := range []bool{true, false} {
		b := newBench(t, Params{NumWarps: 4, HasHandler: hasHandler}, 0, 1)
		b.step(Event{Warp: 1, Kind: EvPTXTrap, PCNext: 6})
		o := b.idle()
		if !o.SMTrapped || !o.IRQ || o.IRQCause&IRQError == 0 || o.WarpESR[1].Error() != ErrAssertTrap {
			t.Fatalf("handler %v: trapped %v irq %s esr %s", hasHandler, o.SMTrapped, CauseString(o.IRQCause), o.WarpESR[1])
		}
	}
	b := newBench(t, Params{NumWarps: 4}, 0, 1)
	b.step(Event{Warp: 1, Kind: EvPTXTrap, PCNext: 6})
	h := NewHost(Abort, Resume, false)
	stop := runHost(t, b, h, 20)
	if stop == nil || stop.Kind != StopError || len(stop.Warps) != 1 || stop.Warps[0].PC != 6 {
		t.Fatalf("stop %+v", stop)
	}
}

// Seed 000, brkpt: "Suspends execution." PTX brkpt is BPT.TRAP 1: the warps
// stop (no handler) until the host resumes them at the saved PCs.
func TestSeed000_BrkptSuspends(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4}, 0, 1, 2)
	o := b.step(Event{Warp: 1, Kind: EvPTXBrkpt, PCNext: 9})
	if o.EnterHandler.Any() {
		t.Fatal("redirect without a handler")
	}
	if o := b.idle(); o.WarpPaused != rtl.BitsOf(0, 1, 2) || !o.IRQ || o.IRQCause != IRQTrap {
		t.Fatalf("paused %v irq %s", o.WarpPaused, CauseString(o.IRQCause))
	}
	h := NewHost(Abort, Resume, false)
	if stop := runHost(t, b, h, 20); stop != nil {
		t.Fatalf("stopped: %v", stop)
	}
	if q := b.q(); q.SMTrapped || q.Paused.Any() || q.GlobalESR != 0 || h.Resumes != 1 {
		t.Fatalf("after the host resumed: trapped %v paused %v global %#x resumes %d", q.SMTrapped, q.Paused, q.GlobalESR, h.Resumes)
	}
}
