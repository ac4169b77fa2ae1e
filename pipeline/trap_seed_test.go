package pipeline

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/trapunit"
)

// One test per sentence of seed 002 (the SASS BPT instruction) and per
// trap/brkpt sentence of seed 000, at the SM level: real assembled PTX
// whose trap handler .func uses BPT, IDE, RTT and S2R. Each test quotes
// its sentence. (Package trapunit tests the same sentences on the unit's
// ports alone.)

// "BPT.mode {#ImmU20} {&req_6} {?sched>=?WAIT5} ;" and ".mode: { .DRAIN,
// .PAUSE, .TRAP, .INT }"
func TestSM002_Syntax(t *testing.T) {
	for _, ok := range []string{"BPT.DRAIN;", "BPT.DRAIN 0xfffff;", "BPT.PAUSE;", "BPT.PAUSE 3;", "BPT.PAUSE_QUIET;", "BPT.TRAP 1;", "BPT.TRAP 7;", "BPT.INT;", "BPT.INT 0x12345;", "IDE.EN;", "IDE.DIS;", "RTT;"} {
		if _, err := isa.AssembleSource("t.ptx", []byte(ptxHeader+trapModule("\t"+ok+"\n\tRTT;", "\tret;"))); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"BPT.DRAIN 0x100000;", "BPT.STOP;", "BPT;", "BPT.TRAP;", "BPT.TRAP 8;", "IDE;", "RTT.X;"} {
		if _, err := isa.AssembleSource("t.ptx", []byte(ptxHeader+trapModule("\t"+bad+"\n\tRTT;", "\tret;"))); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	// The 20-bit immediate of the modes other than TRAP has no effect.
	r := newTrapRun(t, trapCfg(), trapModule("\tRTT;", "\tBPT.INT 0x12345;\n\tBPT.DRAIN 7;\n\tret;"), 32)
	rep := r.run()
	if rep.Status != StatusCompleted || interruptsWith(rep, "INT") != 1 {
		t.Fatalf("status %s interrupts %+v", rep.Status, rep.Interrupts)
	}
}

// "This instruction implements functionality associated with the SM trap
// handler and software debugger."
func TestSM002_TrapHandlerAndDebugger(t *testing.T) {
	// Handler side: BPT.TRAP enters the handler .func, which reads its
	// ESR. Debugger side: BPT.PAUSE stops the warps and interrupts the
	// host, which inspects them and wakes them.
	r := newTrapRun(t, trapCfg(), trapModule(esrHandler("BPT.PAUSE"), `
	@%p7 BPT.TRAP 2;
	st.global.u32 [%rd3], %r1;
	ret;`), 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("every warp paused", 500, r.allPaused)
	for _, w := range r.sm.WarpStatus() {
		if !w.InHandler || !w.Paused || w.State != "paused" {
			t.Errorf("warp %+v", w)
		}
	}
	o := r.sm.TrapOutputs()
	if !o.IRQ || o.IRQCause&trapunit.IRQPause == 0 || o.GlobalESR&trapunit.GlobalESRBPTPause == 0 {
		t.Fatalf("host not notified: irq %v %s global ESR %#x", o.IRQ, trapunit.CauseString(o.IRQCause), o.GlobalESR)
	}
	r.host(trapunit.HostWakeAll, 0, trapunit.HostOK)
	rep := r.run()
	if rep.Status != StatusCompleted || r.hout(0) != 2 || r.hout(32) != 0 || r.out(40) != 40 {
		t.Fatalf("status %s handler ESRs %#x %#x out %d", rep.Status, r.hout(0), r.hout(32), r.out(40))
	}
}

// "The SM pipeline is drained to guarantee that all Warp Errors interrupts
// caused by previous instructions from the executing warp are taken
// before the next instruction."
func TestSM002_DrainTakesErrorsFirst(t *testing.T) {
	// An error of the instruction before BPT.DRAIN is taken before the
	// DRAIN: the warp enters the handler with the DRAIN as its saved PC.
	r := newTrapRun(t, trapCfg(), trapModule(esrHandler("BPT.PAUSE_QUIET"), `
	ld.global.u32 %r5, [%rd3+2]; // misaligned
	BPT.DRAIN; // drain
	st.global.u32 [%rd3], %r1;
	ret;`), 32)
	rep := r.run()
	ld, drain := r.pc("misaligned"), r.pc("// drain")
	if e := trapunit.WarpESR(r.hout(0)); e.Error() != trapunit.ErrMisalignedAddr {
		t.Fatalf("handler saw ESR %s", e)
	}
	if len(rep.Traps) != 1 || rep.Traps[0].Kind != "warp_error" || rep.Traps[0].PC != ld || rep.Traps[0].ResumePC != drain || rep.Traps[0].Error != "MISALIGNED_ADDR" {
		t.Fatalf("traps %+v", rep.Traps)
	}
	is := r.issues(0)
	for i, x := range is {
		if x.PC == ld {
			if is[i+1].PC != r.handlerPC() {
				t.Fatalf("after the faulting load warp 0 issued pc %d, not the handler", is[i+1].PC)
			}
			break
		}
	}
	if rep.Status != StatusCompleted || r.out(3) != 3 {
		t.Fatalf("status %s", rep.Status)
	}

	// Every earlier instruction completes before the next one issues: an
	// outstanding load holds the warp at the DRAIN for its latency (the
	// add after it does not depend on the load).
	cfg := smallConfig()
	cfg.Lat.Global = 100
	for _, drain := range []bool{true, false} {
		body := "\tld.global.u32 %r5, [%rd3]; // load\n"
		if drain {
			body += "\tBPT.DRAIN;\n"
		} else {
			body += "\tmov.u32 %r6, 0;\n"
		}
		body += "\tadd.u32 %r6, %r1, 1; // next\n\tst.global.u32 [%rd3], %r6;\n\tst.global.u32 [%rd3+256], %r5;\n\tret;"
		r := newTrapRun(t, cfg, kernel(body), 32)
		rep := r.run()
		load, next := r.firstAt(0, r.pc("// load")).Cycle, r.firstAt(0, r.pc("// next")).Cycle
		if drain && (next < load+100 || rep.Stalls["drain"] < 90) {
			t.Errorf("with BPT.DRAIN: load at %d, next at %d (want >= %d), drain stalls %d", load, next, load+100, rep.Stalls["drain"])
		}
		if !drain && next >= load+100 {
			t.Errorf("without BPT.DRAIN the next instruction waited: load %d next %d", load, next)
		}
	}
}

// "Note that BPT.DRAIN does not drain the memory pipeline beyond SM and
// provides no guarantee for L1 pipeline Error interrupts."
func TestSM002_DrainNotBeyondSM(t *testing.T) {
	// A store has left the SM: BPT.DRAIN does not wait for it (membar
	// does). The model detects every memory error at issue, so there are
	// no late L1 errors to wait for.
	cfg := smallConfig()
	cfg.Lat.Global = 100
	for _, op := range []string{"BPT.DRAIN", "membar.gl"} {
		r := newTrapRun(t, cfg, kernel("\tst.global.u32 [%rd3], %r1; // store\n\t"+op+";\n\tadd.u32 %r6, %r1, 1; // next\n\tret;"), 32)
		r.run()
		st, next := r.firstAt(0, r.pc("// store")).Cycle, r.firstAt(0, r.pc("// next")).Cycle
		if waited := next >= st+100; waited != (op == "membar.gl") {
			t.Errorf("%s: store at %d, next at %d", op, st, next)
		}
	}
}

// "Only allowed while in trap hander (otherwise it is treated as an
// ILLEGAL_INSTR_ENCODING error)."
func TestSM002_PauseOnlyInHandler(t *testing.T) {
	for _, op := range []string{"BPT.PAUSE", "BPT.PAUSE_QUIET", "RTT"} {
		r := newTrapRun(t, trapCfg(), trapModule(esrHandler("BPT.PAUSE_QUIET"), "\t"+op+"; // outside\n\tst.global.u32 [%rd3], %r1;\n\tret;"), 32)
		rep := r.run()
		if e := trapunit.WarpESR(r.hout(0)); e.Error() != trapunit.ErrIllegalInstrEncoding {
			t.Errorf("%s outside the handler: ESR %s", op, e)
		}
		if len(rep.Errors) != 1 || rep.Errors[0].Kind != "illegal_instruction" || !strings.Contains(rep.Errors[0].Message, "ILLEGAL_INSTR_ENCODING") {
			t.Errorf("%s: errors %+v", op, rep.Errors)
		}
		// The handler returned the SM to user mode; the warp went on at
		// the instruction after.
		if rep.Status != StatusCompleted || r.out(5) != 5 || rep.Traps[0].ResumePC != r.pc("// outside")+1 {
			t.Errorf("%s: status %s traps %+v", op, rep.Status, rep.Traps)
		}
	}
	// Without a handler the error stops the run as a fault.
	_, rep := runPTX(t, smallConfig(), kernel("\tBPT.PAUSE;\n\tret;"), Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusFault || rep.Warps[0].ESR>>4 != uint16(trapunit.ErrIllegalInstrEncoding) {
		t.Fatalf("no handler: %s %+v", rep.Status, rep.Warps)
	}
}

// "Stop the current warp from continuing execution and unconditionally
// send a notification (interrupt) to the CPU that a warp has stopped."
func TestSM002_PauseStopsAndInterrupts(t *testing.T) {
	// Unconditionally: even under IDE.DIS.
	r := newTrapRun(t, trapCfg(), trapModule(`
	IDE.DIS;
	BPT.PAUSE; // pause
	RTT;`, "\t@%p7 BPT.TRAP 2;\n\tret;"), 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("warp 0 paused", 500, func() bool { q := r.sm.TrapState(); return q.Paused.Has(0) })
	rep := r.sm.Report()
	if interruptsWith(rep, "PAUSE") != 1 || rep.GlobalESR.Value&trapunit.GlobalESRBPTPause == 0 {
		t.Fatalf("interrupts %+v global ESR %+v", rep.Interrupts, rep.GlobalESR)
	}
	n := len(r.issues(0))
	for i := 0; i < 300; i++ {
		r.sm.Step()
	}
	if len(r.issues(0)) != n || r.sm.WarpStatus()[0].State != "paused" {
		t.Fatalf("warp 0 continued: %d issues after %d, state %s", len(r.issues(0)), n, r.sm.WarpStatus()[0].State)
	}
}

// "The warp will not continue execution until it has been woken by the
// CPU via an external signal."
func TestSM002_PausedUntilWoken(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(`
	BPT.PAUSE;
	RTT; // rtt`, "\t@%p7 BPT.TRAP 2;\n\tst.global.u32 [%rd3], %r1;\n\tret;"), 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("every warp paused", 500, r.allPaused)
	for i := 0; i < 1000; i++ {
		r.sm.Step()
	}
	rtt := r.pc("// rtt")
	if len(r.issuesAt(0, rtt))+len(r.issuesAt(1, rtt)) != 0 {
		t.Fatal("a paused warp went on without a wake")
	}
	// The external signal: wake warp 1 only; warp 0 stays paused.
	c := r.sm.Cycle()
	r.host(trapunit.HostWakeWarp, 1, trapunit.HostOK)
	r.stepUntil("warp 1 exits", 500, func() bool { return len(r.sm.WarpStatus()) == 1 || r.sm.WarpStatus()[1].State == "exited" })
	if is := r.issuesAt(1, rtt); len(is) != 1 || is[0].Cycle < c {
		t.Fatalf("warp 1 RTT %+v", is)
	}
	if q := r.sm.TrapState(); len(r.issuesAt(0, rtt)) != 0 || !q.Paused.Has(0) {
		t.Fatal("warp 0 went on without its wake")
	}
	r.stepUntil("warp 1 retired", 100, func() bool { return len(r.sm.WarpStatus()) == 1 })
	r.host(trapunit.HostWakeAll, 0, trapunit.HostOK)
	if rep := r.run(); rep.Status != StatusCompleted || r.out(0) != 0 || r.out(33) != 33 {
		t.Fatalf("status %s", rep.Status)
	}
}

// spin is kernel code that keeps a warp busy for a while (so that it is
// alive when another warp traps).
const spin = `	mov.u32 %r20, 0;
SPIN:
	add.u32 %r20, %r20, 1;
	setp.lt.u32 %p6, %r20, 50;
	@%p6 bra SPIN;
`

// waitModule: warp 0 traps; in the handler warp 0 pauses, the other
// warps spin for a while and return with RTT (then exit).
func waitModule() string {
	return trapModule(warp0Handler("BPT.PAUSE;", 200, ""), "\t@%p7 BPT.TRAP 2;\n\tst.global.u32 [%rd3], %r1;\n\tret;")
}

// "The CPU should only "wake-up" warps from the paused state after all
// warps on a given SM have either paused or exited and while the SM is
// trapped."
func TestSM002_WakeOnlyWhenAllStopped(t *testing.T) {
	r := newTrapRun(t, trapCfg(), waitModule(), 64)
	r.sm.SetHostAgent(nil)
	// Not trapped yet.
	r.host(trapunit.HostWakeAll, 0, trapunit.HostErrNotTrapped)
	r.stepUntil("warp 0 paused", 500, func() bool { q := r.sm.TrapState(); return q.Paused.Has(0) })
	// Warp 1 still runs (its spin in the handler): refused.
	r.host(trapunit.HostWakeAll, 0, trapunit.HostErrNotStopped)
	r.host(trapunit.HostWakeWarp, 0, trapunit.HostErrNotStopped)
	r.host(trapunit.HostResume, 0, trapunit.HostErrNotStopped)
	// Warp 1 leaves the handler and exits: exited warps count as stopped.
	r.stepUntil("warp 1 exited", 5000, func() bool { return len(r.sm.WarpStatus()) == 1 })
	if !r.sm.TrapState().SMTrapped {
		t.Fatal("not trapped while warp 0 is paused in the handler")
	}
	r.host(trapunit.HostWakeAll, 0, trapunit.HostOK)
	if rep := r.run(); rep.Status != StatusCompleted || r.out(1) != 1 {
		t.Fatalf("status %s", rep.Status)
	}
}

// "Otherwise the system may be placed in an inconsistent state."
func TestSM002_EarlyWakeRefused(t *testing.T) {
	// The model cannot reach that state: a refused command changes
	// nothing, and the paused warp stays paused.
	r := newTrapRun(t, trapCfg(), waitModule(), 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("warp 0 paused", 500, func() bool { q := r.sm.TrapState(); return q.Paused.Has(0) })
	before := r.sm.TrapState()
	r.host(trapunit.HostWakeAll, 0, trapunit.HostErrNotStopped)
	after := r.sm.TrapState()
	if after.Paused != before.Paused || after.InHandler != before.InHandler || after.SavedPC != before.SavedPC || after.WarpESR != before.WarpESR {
		t.Fatal("a refused wake changed the trap state")
	}
	r.host(trapunit.HostWakeWarp, 9, trapunit.HostErrBadWarp)
	n := len(r.issues(0))
	for i := 0; i < 50; i++ {
		r.sm.Step()
	}
	if len(r.issues(0)) != n {
		t.Fatal("warp 0 issued after a refused wake")
	}
}

// runLoadPause runs one warp that traps into a handler that loads a word
// (global latency 100), runs between, pauses and stores the word after
// the host resumed it; it checks that the run completed and returns the
// run and the cycles of the load and of the pause.
func runLoadPause(t *testing.T, between string) (r *trapRun, load, pause uint64) {
	t.Helper()
	cfg := trapCfg()
	cfg.Lat.Global = 100
	r = newTrapRun(t, cfg, trapModule(`
	ld.global.u32 %h5, [%hd3]; // load
`+between+`	BPT.PAUSE; // pause
	st.global.u32 [%hd3+1024], %h5;
	RTT;`, "\t@%p7 BPT.TRAP 2;\n\tret;"), 32)
	r.sm.SetHostPolicy("resume", "")
	if rep := r.run(); rep.Status != StatusCompleted {
		t.Fatalf("status %s", rep.Status)
	}
	return r, r.firstAt(0, r.pc("// load")).Cycle, r.firstAt(0, r.pc("// pause")).Cycle
}

// "Note: Execution of BPT.PAUSE does not guarantee that prior
// instructions have completed."
func TestSM002_PauseNoCompletionGuarantee(t *testing.T) {
	_, load, pause := runLoadPause(t, "")
	if pause >= load+100 {
		t.Fatalf("BPT.PAUSE at %d waited for the load issued at %d", pause, load)
	}
}

// "If a guarantee of prior instruction completion is desired, SW should
// insert BPT.DRAIN before BPT.PAUSE."
func TestSM002_DrainBeforePause(t *testing.T) {
	r, load, pause := runLoadPause(t, "\tBPT.DRAIN; // drain\n")
	drain := r.firstAt(0, r.pc("// drain")).Cycle
	if pause < load+100 {
		t.Fatalf("load at %d (latency 100), BPT.DRAIN at %d, BPT.PAUSE at %d", load, drain, pause)
	}
	for _, x := range r.issues(0) {
		if x.Cycle > drain && x.Cycle < pause {
			t.Fatalf("warp 0 issued pc %d at %d while held at BPT.DRAIN", x.PC, x.Cycle)
		}
	}
}

// "Intention of BPT.PAUSE: BPT.PAUSE is a very powerful operation."
func TestSM002_PauseHoldsTheSM(t *testing.T) {
	// One paused warp keeps the SM trapped: the other CTAs finish, but
	// no new CTA launches until the host wakes the warp.
	r := newTrapGrid(t, trapCfg(), trapModule(`
	mov.u32 %h4, %ctaid.x;
	or.b32 %h4, %h4, %h0;
	setp.ne.u32 %hp1, %h4, 0;
	@%hp1 bra DONE;
	BPT.PAUSE;
DONE:
	RTT;`, "\tmov.u32 %r4, %ctaid.x;\n\tor.b32 %r4, %r4, %r30;\n\tsetp.eq.u32 %p1, %r4, 0;\n\t@%p1 BPT.TRAP 2;\n\tret;"), 8, 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("warp 0 paused", 2000, func() bool { q := r.sm.TrapState(); return q.Paused.Has(0) })
	for i := 0; i < 2000; i++ {
		r.sm.Step()
	}
	rep := r.sm.Report()
	if !r.sm.TrapState().SMTrapped || rep.CTAsLaunched != 4 || rep.CTAsCompleted != 3 {
		t.Fatalf("trapped %v, launched %d, completed %d", r.sm.TrapState().SMTrapped, rep.CTAsLaunched, rep.CTAsCompleted)
	}
	r.host(trapunit.HostWakeAll, 0, trapunit.HostOK)
	if rep := r.run(); rep.Status != StatusCompleted || rep.CTAsCompleted != 8 {
		t.Fatalf("status %s, %d CTAs", rep.Status, rep.CTAsCompleted)
	}
}

// "While all warps enter the trap handler when a BPT.TRAP or error is
// encountered, they are not required to stop waiting for the CPU at the
// same time."
func TestSM002_AllWarpsEnterHandler(t *testing.T) {
	// Warp 2 traps; all four warps run the handler; each spins 30 x its
	// warp number before pausing.
	r := newTrapRun(t, trapCfg(), trapModule(`
	mul.lo.u32 %h4, %h0, 30;
	mov.u32 %h3, 0;
LOOP:
	setp.lt.u32 %hp2, %h3, %h4;
	add.u32 %h3, %h3, 1;
	@%hp2 bra LOOP;
	BPT.PAUSE; // pause
	RTT;`, "\tsetp.eq.u32 %p1, %r30, 2;\n\t@%p1 BPT.TRAP 2;\n"+spin+"\tst.global.u32 [%rd3], %r1;\n\tret;"), 128)
	r.sm.SetHostPolicy("resume", "")
	rep := r.run()
	pauses := map[uint64]bool{}
	for w := 0; w < 4; w++ {
		if len(r.issuesAt(w, r.handlerPC())) != 1 {
			t.Errorf("warp %d entered the handler %d times", w, len(r.issuesAt(w, r.handlerPC())))
		}
		pauses[r.firstAt(w, r.pc("// pause")).Cycle] = true
	}
	if len(pauses) != 4 || rep.Status != StatusCompleted || r.out(127) != 127 {
		t.Fatalf("pause cycles %v status %s", pauses, rep.Status)
	}
}

// "Warps are allowed to be 'peeled' off from the group of running warps
// individually by using BPT.PAUSE."
func TestSM002_PeelOffWarps(t *testing.T) {
	r := newTrapRun(t, trapCfg(), waitModule(), 64)
	r.sm.SetHostPolicy("resume", "")
	rep := r.run()
	pause := r.firstAt(0, r.pc("BPT.PAUSE")).Cycle
	var after int
	for _, x := range r.issues(1) {
		if x.Cycle > pause+1 && r.inHandlerCode(x.PC) {
			after++
		}
	}
	for _, x := range r.issues(0) {
		if x.Cycle > pause && x.Cycle < pause+200 {
			t.Fatalf("peeled-off warp 0 issued pc %d at %d", x.PC, x.Cycle)
		}
	}
	if after < 100 || rep.Status != StatusCompleted {
		t.Fatalf("warp 1 issued %d handler instructions after warp 0 paused; status %s", after, rep.Status)
	}
}

// "Some example usage cases include:"
func TestSM002_UsageCases(t *testing.T) {
	// A debugger breakpoint (BPT.TRAP 1) and a system call (BPT.TRAP 3)
	// served by one handler that tells them apart by the reason.
	r := newTrapRun(t, trapCfg(), trapModule(`
	S2R %h2, SR_WARP_ESR;
	and.b32 %h2, %h2, 7;
	setp.eq.u32 %hp1, %h2, 3;
	@!%hp1 bra OUT;
	ld.global.u32 %h5, [%hd3];
	add.u32 %h5, %h5, 1000; // the system call's service
	st.global.u32 [%hd3], %h5;
OUT:
	setp.eq.u32 %hp2, %h2, 1;
	@%hp2 BPT.PAUSE; // the debugger stops here
	RTT;`, "\tst.global.u32 [%rd3], %r1;\n\t@%p7 BPT.TRAP 1;\n\t@%p7 BPT.TRAP 3;\n\tret;"), 64)
	r.sm.SetHostPolicy("abort", "resume")
	rep := r.run()
	if rep.Status != StatusCompleted || r.out(0) != 1000 || r.out(31) != 1031 || r.out(32) != 32 || len(rep.Breakpoints) != 1 || len(rep.Traps) != 1 {
		t.Fatalf("status %s out %d %d %d breakpoints %d traps %d", rep.Status, r.out(0), r.out(31), r.out(32), len(rep.Breakpoints), len(rep.Traps))
	}
}

// "Initiates a Trap"
func TestSM002_TrapInitiatesTrap(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tBPT.PAUSE;\n\tRTT;", "\t@%p7 BPT.TRAP 4;\n"+spin+"\tret;"), 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("the trap", 500, func() bool { return r.sm.TrapState().SMTrapped })
	q := r.sm.TrapState()
	if !q.InHandler.Has(0) || !q.InHandler.Has(1) || q.WarpESR[0].Reason() != 4 {
		t.Fatalf("in handler %v ESR %s", q.InHandler, q.WarpESR[0])
	}
	// Without a handler the SM stops for the host.
	_, rep := runPTX(t, smallConfig(), kernel("\tBPT.TRAP 4;\n\tret;"), Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	if rep.Status != StatusTrapped || rep.Traps[0].Action != "stopped" || rep.Warps[0].State != "trapped" || rep.Warps[1].TrapState != "stopped" {
		t.Fatalf("no handler: %s %+v %+v", rep.Status, rep.Traps, rep.Warps)
	}
}

// "No instructions past the BPT.TRAP will have been executed for this warp
// when it enters the trap handler."
func TestSM002_NothingPastTheTrap(t *testing.T) {
	// The store after the BPT.TRAP has not happened when the handler
	// reads the word.
	r := newTrapRun(t, trapCfg(), trapModule(`
	ld.global.u32 %h5, [%hd3];
	st.global.u32 [%hd3+1024], %h5;
	RTT;`, "\tmov.u32 %r9, 77;\n\tBPT.TRAP 2; // trap\n\tst.global.u32 [%rd3], %r9;\n\tret;"), 32)
	r.run()
	if r.hout(3) != 0 || r.out(3) != 77 {
		t.Fatalf("handler read %d (want 0), out %d", r.hout(3), r.out(3))
	}
	is := r.issues(0)
	for i, x := range is {
		if x.PC == r.pc("// trap") && is[i+1].PC != r.handlerPC() {
			t.Fatalf("after BPT.TRAP warp 0 issued pc %d", is[i+1].PC)
		}
	}
}

// "It is a precise trap which will leave the PC pointing to the
// instruction immediately following the BPT.TRAP."
func TestSM002_PreciseSavedPC(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tBPT.PAUSE;\n\tRTT;", `
	mov.u32 %r9, 1;
	BPT.TRAP 2; // trap
	add.u32 %r9, %r9, 10; // next
	st.global.u32 [%rd3], %r9;
	ret;`), 32)
	r.sm.SetHostAgent(nil)
	r.stepUntil("the pause", 500, r.allPaused)
	next := r.pc("// next")
	if q := r.sm.TrapState(); q.SavedPC[0] != next || r.sm.WarpStatus()[0].SavedPC != next {
		t.Fatalf("saved pc %d, want %d", q.SavedPC[0], next)
	}
	if w := r.sm.Report().Warps[0]; w.TrapState != "paused" || w.ESR != 2 {
		t.Fatalf("warp report %+v", w)
	}
	r.host(trapunit.HostWakeAll, 0, trapunit.HostOK)
	rep := r.run()
	is := r.issues(0)
	for i, x := range is {
		if x.Inst.Op == isa.OpRTT && is[i+1].PC != next {
			t.Fatalf("after RTT warp 0 issued pc %d, want %d", is[i+1].PC, next)
		}
	}
	if r.out(0) != 11 || rep.Traps[0].ResumePC != next || rep.Traps[0].PC != r.pc("// trap") {
		t.Fatalf("out %d traps %+v", r.out(0), rep.Traps)
	}
}

// reasonLog is a handler appending the warp's trap reason to its word
// (word = word*8 + reason) for every trap it takes.
const reasonLog = `
	S2R %h2, SR_WARP_ESR;
	and.b32 %h2, %h2, 7;
	ld.global.u32 %h5, [%hd3+1024];
	mad.lo.u32 %h5, %h5, 8, %h2;
	st.global.u32 [%hd3+1024], %h5;
	RTT;`

// ".TRAP takes a 3-bit immediate as a mechanism to allow software to
// differentiate between traps."
func TestSM002_ImmediateDifferentiates(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(reasonLog, "\tBPT.TRAP 5;\n\tBPT.TRAP 2;\n\tret;"), 32)
	r.run()
	if r.hout(0) != 5*8+2 {
		t.Fatalf("handler saw reasons %o, want 52", r.hout(0))
	}
}

// "The 3-bit immediate is provided in a per-warp warp ESR so the trap
// handler can identify the BPT.TRAP type."
func TestSM002_ReasonInWarpESR(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(reasonLog, "\t@%p7 BPT.TRAP 6;\n\tret;"), 64)
	r.run()
	if r.hout(0) != 6 || r.hout(32) != 0 {
		t.Fatalf("trapping warp saw %d, the other %d", r.hout(0), r.hout(32))
	}
}

// "Furthermore, the global ESR broadcasts which BPT.TRAP types were
// encountered, if any."
func TestSM002_GlobalESRBroadcastsReasons(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(`
	S2R %h2, SR_GLOBAL_ESR;
	st.global.u32 [%hd3+1024], %h2;
	RTT;`, "\t@%p7 BPT.TRAP 3;\n\tsetp.eq.u32 %p1, %r30, 1;\n\t@%p1 BPT.TRAP 6;\n\tret;"), 64)
	rep := r.run()
	want := uint32(trapunit.GlobalESRTrap(3) | trapunit.GlobalESRTrap(6))
	if r.hout(0) != want || r.hout(32) != want {
		t.Fatalf("handlers read %#x %#x, want %#x", r.hout(0), r.hout(32), want)
	}
	if strings.Join(rep.GlobalESR.Flags, ",") != "BPT_TRAP3,BPT_TRAP6" {
		t.Fatalf("global_esr %+v", rep.GlobalESR)
	}
}

// "BPT.TRAP with a 0 immediate value is illegal."
func TestSM002_TrapZeroIllegal(t *testing.T) {
	_, err := isa.AssembleSource("t.ptx", []byte(ptxHeader+kernel("\tBPT.TRAP 0;\n\tret;")))
	if err == nil || !strings.Contains(err.Error(), "BPT.TRAP 0 is illegal") {
		t.Fatalf("assembler: %v", err)
	}
	// An image carrying it anyway (patched): ILLEGAL_INSTR_ENCODING.
	src := trapModule(esrHandler("BPT.PAUSE_QUIET"), "\tBPT.TRAP 1; // patched\n\tret;")
	im := assemble(t, "t.ptx", []byte(ptxHeader+src))
	for pc := range im.Code {
		if _, s := im.Where(uint32(pc)); strings.Contains(s, "patched") {
			im.Code[pc].Imm = 0
		}
	}
	sm, err := New(trapCfg(), im, Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Buffers: outBuf(1024)})
	if err != nil {
		t.Fatal(err)
	}
	rep, _ := sm.Run()
	if e := trapunit.WarpESR(rep.Buffers["out"][256]); e.Error() != trapunit.ErrIllegalInstrEncoding || e.Reason() != 0 {
		t.Fatalf("ESR %s", e)
	}
	if len(rep.Breakpoints) != 0 || rep.GlobalESR.Seen != trapunit.GlobalESRError {
		t.Fatalf("breakpoints %+v global %+v", rep.Breakpoints, rep.GlobalESR)
	}
}

// "SOFTWARE NOTE: The motivation for providing an immediate for BPT.TRAP
// is to allow trapping for multiple reasons."
func TestSM002_MultipleReasons(t *testing.T) {
	// One handler serves reason 2 (add 100) and reason 4 (add 10000).
	r := newTrapRun(t, trapCfg(), trapModule(`
	S2R %h2, SR_WARP_ESR;
	and.b32 %h2, %h2, 7;
	ld.global.u32 %h5, [%hd3+1024];
	setp.eq.u32 %hp1, %h2, 2;
	@%hp1 add.u32 %h5, %h5, 100;
	setp.eq.u32 %hp1, %h2, 4;
	@%hp1 add.u32 %h5, %h5, 10000;
	st.global.u32 [%hd3+1024], %h5;
	RTT;`, "\tBPT.TRAP 2;\n\tBPT.TRAP 4;\n\tBPT.TRAP 2;\n\tret;"), 32)
	r.run()
	if r.hout(7) != 10200 {
		t.Fatalf("handler word %d, want 10200", r.hout(7))
	}
}

// "One trap immediate can be used as a debugger breakpoint while another
// can be used for all other SW initiated traps."
func TestSM002_BreakpointReason(t *testing.T) {
	// Without a handler: reason 1 follows --on-break, others --on-trap.
	src := kernel("\tBPT.TRAP 1; // break\n\tBPT.TRAP 2; // other\n\tst.global.u32 [%rd3], %r1;\n\tret;")
	cases := []struct {
		onTrap, onBreak, status, kind string
	}{
		{"abort", "abort", StatusTrapped, "breakpoint"},
		{"abort", "resume", StatusTrapped, "trap"},
		{"resume", "abort", StatusTrapped, "breakpoint"},
		{"resume", "resume", StatusCompleted, ""},
	}
	for _, c := range cases {
		sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
		if err := sm.SetHostPolicy(c.onTrap, c.onBreak); err != nil {
			t.Fatal(err)
		}
		rep, _ := sm.Run()
		kind := ""
		if len(rep.Errors) > 0 {
			kind = rep.Errors[len(rep.Errors)-1].Kind
		}
		if rep.Status != c.status || kind != c.kind {
			t.Errorf("--on-trap=%s --on-break=%s: %s %q, want %s %q", c.onTrap, c.onBreak, rep.Status, kind, c.status, c.kind)
		}
		if len(rep.Breakpoints) != 1 || rep.Breakpoints[0].PC != pcOfText(t, sm, "// break") {
			t.Errorf("breakpoints %+v", rep.Breakpoints)
		}
	}
}

// "Example use cases of non-debugger-breakpoint traps include system
// calls and CTA continuations."
func TestSM002_SyscallsAndContinuations(t *testing.T) {
	// The cta_continuation example: BPT.TRAP 2 continuation points and a
	// BPT.TRAP 3 system call served by its handler; --on-trap=resume
	// completes with the reference results, --on-trap=abort ends at the
	// system call.
	e, _ := examples.ByName("cta_continuation")
	for _, pol := range []string{"resume", "abort"} {
		for _, preset := range []string{"small", "h100"} {
			cfg, _ := config.Preset(preset)
			cfg.Trap.Handler = e.TrapHandler
			sm, err := New(cfg, assemble(t, e.Name+".ptx", e.PTX), launchOf(e))
			if err != nil {
				t.Fatal(err)
			}
			if err := sm.SetHostPolicy(pol, ""); err != nil {
				t.Fatal(err)
			}
			rep, _ := sm.Run()
			checkInvariants(t, sm, rep)
			cont := recordsOf(rep.Traps, "bpt.trap")
			if len(cont) != 4*examples.CTAContinuationN+1 || interruptsWith(rep, "PAUSE") != 1 {
				t.Errorf("%s/%s: %d BPT.TRAPs, interrupts %+v", pol, preset, len(cont), rep.Interrupts)
			}
			words := param(e.Entry, 1)
			want := e.Expect(envOf(sm))
			if got := rep.Buffers[words]; !slices.Equal(got, want[words]) {
				t.Errorf("%s/%s: words %v, want %v", pol, preset, got, want[words])
			}
			switch pol {
			case "resume":
				if rep.Status != StatusCompleted || e.Verify(envOf(sm), rep.Buffers) != nil {
					t.Errorf("resume/%s: %s %v", preset, rep.Status, e.Verify(envOf(sm), rep.Buffers))
				}
			case "abort":
				last := rep.Errors[len(rep.Errors)-1]
				if rep.Status != StatusTrapped || last.Kind != "trap" || !strings.Contains(last.Source, "BPT.TRAP 3") {
					t.Errorf("abort/%s: %s %+v", preset, rep.Status, rep.Errors)
				}
			}
		}
	}
}

func param(entry string, n int) string { return entry + "_param_" + strconv.Itoa(n) }

// "To differentiate between the non-breakpoint trap cases, SW will have
// to establish an ABI between user mode binaries and the kernel mode trap
// handler."
func TestSM002_ABI(t *testing.T) {
	// The ABI here: out[512] holds an operation code, out[513] its
	// argument, out[514] the handler's answer. Operation 7 adds 100,
	// operation 9 doubles.
	r := newTrapRun(t, trapCfg(), trapModule(reason2Handler(`
	ld.global.u32 %h5, [%hd1+2048];
	ld.global.u32 %h6, [%hd1+2052];
	setp.eq.u32 %hp2, %h5, 7;
	@%hp2 add.u32 %h6, %h6, 100;
	setp.eq.u32 %hp2, %h5, 9;
	@%hp2 shl.b32 %h6, %h6, 1;
	st.global.u32 [%hd1+2056], %h6;`), `
	mov.u32 %r5, 7;
	st.global.u32 [%rd1+2048], %r5;
	mov.u32 %r5, 21;
	st.global.u32 [%rd1+2052], %r5;
	BPT.TRAP 2;
	ld.global.u32 %r6, [%rd1+2056];
	mov.u32 %r5, 9;
	st.global.u32 [%rd1+2048], %r5;
	st.global.u32 [%rd1+2052], %r6;
	BPT.TRAP 2;
	ld.global.u32 %r7, [%rd1+2056];
	st.global.u32 [%rd3], %r7;
	ret;`), 32)
	r.run()
	if r.out(0) != (21+100)*2 {
		t.Fatalf("out %d, want %d", r.out(0), (21+100)*2)
	}
}

// "For example, SW could reserve per-warp words in global memory for this
// communication."
func TestSM002_PerWarpWords(t *testing.T) {
	// Four warps, each with its own argument word out[512+w] and answer
	// word out[520+w]; they trap when they may and the handler answers
	// the warps whose reason is 2.
	r := newTrapRun(t, trapCfg(), trapModule(reason2Handler(`
	mul.wide.u32 %hd4, %h0, 4;
	add.s64 %hd5, %hd1, %hd4;
	ld.global.u32 %h5, [%hd5+2048];
	mul.lo.u32 %h5, %h5, 3;
	st.global.u32 [%hd5+2080], %h5;`), `
	mul.wide.u32 %rd4, %r30, 4;
	add.s64 %rd5, %rd1, %rd4;
	add.u32 %r5, %r30, 10;
	st.global.u32 [%rd5+2048], %r5;
	BPT.TRAP 2;
	ld.global.u32 %r6, [%rd5+2080];
	st.global.u32 [%rd3], %r6;
	ret;`), 128)
	rep := r.run()
	for w := 0; w < 4; w++ {
		if got := r.out(32*w + 5); got != uint32(w+10)*3 {
			t.Errorf("warp %d got %d, want %d", w, got, (w+10)*3)
		}
	}
	if len(recordsOf(rep.Traps, "bpt.trap")) != 4 {
		t.Errorf("traps %+v", rep.Traps)
	}
}

// "Per-thread local memory could be used as well, but BPT.TRAP is a
// warp-wide instruction so care must be taken to ensure that memory is
// initialized and set properly."
func TestSM002_LocalMemoryABI(t *testing.T) {
	// The kernel publishes the generic address of a per-thread .local
	// word; only lanes 0..15 set it before the warp-wide BPT.TRAP. The
	// handler runs on every lane and reads each thread's own word: lanes
	// 16..31 read memory nobody initialized (0 here).
	src := `.global .align 8 .u64 hbuf;
.global .align 8 .u64 lptr;

.visible .func handler()
{
	.reg .b32 %h<8>;
	.reg .b64 %hd<8>;
	ld.global.u64 %hd1, [hbuf];
	mov.u32 %h1, %tid.x;
	mul.wide.u32 %hd2, %h1, 4;
	add.s64 %hd3, %hd1, %hd2;
	ld.global.u64 %hd4, [lptr];
	ld.u32 %h2, [%hd4];
	st.global.u32 [%hd3+1024], %h2;
	RTT;
}

.visible .entry k(.param .u64 out)
{
	.local .align 4 .b32 lv;
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	st.global.u64 [hbuf], %rd1;
	mov.u64 %rd2, lv;
	cvta.local.u64 %rd3, %rd2;
	st.global.u64 [lptr], %rd3;
	mov.u32 %r1, %tid.x;
	add.u32 %r2, %r1, 1000;
	setp.lt.u32 %p1, %r1, 16;
	@%p1 st.local.u32 [lv], %r2;
	BPT.TRAP 2;
	ret;
}
`
	r := newTrapRun(t, trapCfg(), src, 32)
	r.run()
	for l := 0; l < 32; l++ {
		want := uint32(0)
		if l < 16 {
			want = uint32(l) + 1000
		}
		if r.hout(l) != want {
			t.Errorf("lane %d: handler read %d, want %d", l, r.hout(l), want)
		}
	}
}

// "Debugger breakpoints receive special treatment via their own dedicated
// BPT.TRAP since there is generally no room to insert additional store
// instructions to implement the ABI around the breakpoint."
func TestSM002_BreakpointNeedsNoABI(t *testing.T) {
	// A breakpoint dropped between two dependent instructions, with no
	// store around it: the host learns everything from the unit (the
	// global ESR says "breakpoint", the warp ESR and the saved PC where).
	src := kernel("\tadd.u32 %r5, %r1, 3;\n\tBPT.TRAP 1; // break\n\tmul.lo.u32 %r5, %r5, 5;\n\tst.global.u32 [%rd3], %r5;\n\tret;")
	var stop *trapunit.Stop
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	host := trapunit.NewHost(trapunit.Abort, trapunit.Resume, false)
	sm.SetHostAgent(stopSpy{host, &stop})
	rep, _ := sm.Run()
	if rep.Status != StatusCompleted || rep.Buffers["out"][4] != (4+3)*5 || host.Resumes != 1 {
		t.Fatalf("status %s out %d resumes %d", rep.Status, rep.Buffers["out"][4], host.Resumes)
	}
	b := rep.Breakpoints
	if len(b) != 1 || b[0].Kind != "bpt.trap" || b[0].Reason != 1 || b[0].ResumePC != pcOfText(t, sm, "// break")+1 || trapunit.Classify(rep.GlobalESR.Seen) != trapunit.StopBreakpoint {
		t.Fatalf("breakpoints %+v global %+v", b, rep.GlobalESR)
	}
	// With --on-break=abort the stop is a breakpoint.
	sm = newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	sm.SetHostAgent(stopSpy{trapunit.NewHost(trapunit.Resume, trapunit.Abort, false), &stop})
	rep, _ = sm.Run()
	if rep.Status != StatusTrapped || stop == nil || stop.Kind != trapunit.StopBreakpoint || stop.Warps[0].ESR.Reason() != 1 {
		t.Fatalf("abort: %s %+v", rep.Status, stop)
	}
}

// stopSpy records the host agent's Stop.
type stopSpy struct {
	h    HostAgent
	stop **trapunit.Stop
}

func (s stopSpy) Step(o *trapunit.Outputs, n int) (trapunit.HostCmd, uint16, *trapunit.Stop) {
	c, a, st := s.h.Step(o, n)
	if st != nil {
		*s.stop = st
	}
	return c, a, st
}

// "SPA 5.0 extends the two bit immediate trap reason to 3 bits."
func TestSM002_ThreeBitReason(t *testing.T) {
	// Reasons 4..7 need the third bit; each arrives whole.
	r := newTrapRun(t, trapCfg(), trapModule(reasonLog, "\tBPT.TRAP 4;\n\tBPT.TRAP 5;\n\tBPT.TRAP 6;\n\tBPT.TRAP 7;\n\tret;"), 32)
	rep := r.run()
	if r.hout(0) != 04567 || strings.Join(rep.GlobalESR.Flags, ",") != "BPT_TRAP4,BPT_TRAP5,BPT_TRAP6,BPT_TRAP7" {
		t.Fatalf("reasons %o, global %+v", r.hout(0), rep.GlobalESR)
	}
	if _, err := isa.AssembleSource("t.ptx", []byte(ptxHeader+kernel("\tBPT.TRAP 8;\n\tret;"))); err == nil || !strings.Contains(err.Error(), "3 bits") {
		t.Fatalf("BPT.TRAP 8: %v", err)
	}
}

// "Also the trap reason 7 has is considered as non maskable exception and
// is processed even when interrupts are masked with IDE.EN/.DIS."
func TestSM002_Reason7NonMaskable(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(reasonLog, `
	IDE.DIS;
	BPT.TRAP 3; // masked
	BPT.TRAP 7; // non-maskable
	IDE.EN; // unmask
	st.global.u32 [%rd3], %r1;
	ret;`), 32)
	rep := r.run()
	// Reason 7 was taken under IDE.DIS; reason 3 waited for IDE.EN.
	if r.hout(0) != 7*8+3 {
		t.Fatalf("handler saw %o, want 073", r.hout(0))
	}
	tr := rep.Traps
	if len(tr) != 3 || tr[0].Reason != 3 || tr[0].Action != "pending" || tr[1].Reason != 7 || tr[1].Action != "handler" ||
		tr[2].Kind != "pending" || tr[2].Reason != 3 || tr[2].ResumePC != r.pc("// unmask")+1 {
		t.Fatalf("traps %+v", tr)
	}
}

// IDE.DIS / IDE.EN (seed 002, "interrupts are masked with IDE.EN/.DIS"):
// BPT.TRAP 1..6 under IDE.DIS are recorded in the global ESR at once and
// held in the warp ESR's PENDING field (the latest wins), taken at IDE.EN.
func TestSM002_IDEMasksTraps(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(reasonLog, `
	IDE.DIS;
	BPT.TRAP 2;
	BPT.TRAP 5;
	mov.u32 %r5, 1; // masked
	IDE.EN;
	ret;`), 32)
	var pending int
	r.sm.OnIssue(func(i *IssueInfo) {
		if i.PC == r.pc("// masked") {
			q := r.sm.TrapState()
			pending = q.WarpESR[0].Pending()
		}
	})
	rep := r.run()
	if r.hout(0) != 5 || pending != 5 || rep.GlobalESR.Seen != trapunit.GlobalESRTrap(2)|trapunit.GlobalESRTrap(5) {
		t.Fatalf("handler saw %o, pending %d, global %+v", r.hout(0), pending, rep.GlobalESR)
	}
}

// "BPT.INT raises an interrupt to CPU."
func TestSM002_IntRaisesInterrupt(t *testing.T) {
	_, rep := runPTX(t, smallConfig(), kernel("\tBPT.INT;\n"+spin+"\tret;"), Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusCompleted || len(rep.Interrupts) != 1 || rep.Interrupts[0].Cause != "INT" || rep.Interrupts[0].Warp != 0 {
		t.Fatalf("%s interrupts %+v", rep.Status, rep.Interrupts)
	}
	// The batch host acknowledged it and cleared the bit (while the
	// kernel was still running).
	if rep.GlobalESR.Value != 0 || rep.GlobalESR.Seen != trapunit.GlobalESRBPTInt {
		t.Fatalf("global ESR %+v", rep.GlobalESR)
	}
}

// "It can be used both within and outside of the trap handler."
func TestSM002_IntInAndOutOfHandler(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tBPT.INT; // in\n\tRTT;", "\tBPT.INT; // out\n\tBPT.TRAP 2;\n\tret;"), 32)
	rep := r.run()
	if rep.Status != StatusCompleted || len(rep.Errors) != 0 || interruptsWith(rep, "INT") != 2 {
		t.Fatalf("%s errors %+v interrupts %+v", rep.Status, rep.Errors, rep.Interrupts)
	}
}

// "It also sets up a bit in global ESR which can only be cleared by the
// CPU."
func TestSM002_IntBitClearedOnlyByHost(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tRTT;", "\tBPT.INT;\n\tBPT.TRAP 2; // trap\n"+spin+"\tret;"), 32)
	r.sm.SetHostAgent(nil)
	trap := r.pc("// trap")
	r.stepUntil("the trap event ends", 500, func() bool { return len(r.issuesAt(0, trap+1)) > 0 })
	q := r.sm.TrapState()
	if q.SMTrapped || q.GlobalESR&trapunit.GlobalESRBPTInt == 0 {
		t.Fatalf("after the trap event: trapped %v global ESR %#x", q.SMTrapped, q.GlobalESR)
	}
	r.host(trapunit.HostClearGlobalESR, trapunit.GlobalESRBPTInt, trapunit.HostOK)
	if q := r.sm.TrapState(); q.GlobalESR&trapunit.GlobalESRBPTInt != 0 || q.GlobalESR&trapunit.GlobalESRTrap(2) == 0 {
		t.Fatalf("after the host's clear: %#x", q.GlobalESR)
	}
	r.run()
}

// "This bit is always read as 0 when read by an S2R instruction."
func TestSM002_IntBitReadsZeroInS2R(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tRTT;", `
	BPT.TRAP 3;
	BPT.INT;
	S2R %r5, SR_GLOBAL_ESR;
	st.global.u32 [%rd3], %r5;
	ret;`), 32)
	r.sm.SetHostAgent(nil) // nobody clears the bit
	rep := r.run()
	if r.out(0) != uint32(trapunit.GlobalESRTrap(3)) || rep.GlobalESR.Value != trapunit.GlobalESRTrap(3)|trapunit.GlobalESRBPTInt {
		t.Fatalf("S2R read %#x; the register holds %#x", r.out(0), rep.GlobalESR.Value)
	}
}

// "BPT.INT interrupts do not trap the SM."
func TestSM002_IntDoesNotTrap(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tRTT;", "\tBPT.INT; // int\n\tadd.u32 %r5, %r1, 1; // next\n\tst.global.u32 [%rd3], %r5;\n\tret;"), 64)
	r.sm.OnCycle(func(*CycleInfo) {
		if r.sm.TrapState().SMTrapped {
			t.Fatal("the SM trapped")
		}
	})
	rep := r.run()
	if rep.Status != StatusCompleted || len(rep.Traps) != 0 || interruptsWith(rep, "INT") != 2 || r.out(33) != 34 {
		t.Fatalf("%s traps %+v interrupts %+v", rep.Status, rep.Traps, rep.Interrupts)
	}
	for w := 0; w < 2; w++ {
		if in, next := r.firstAt(w, r.pc("// int")).Cycle, r.firstAt(w, r.pc("// next")).Cycle; next > in+3 {
			t.Errorf("warp %d: BPT.INT at %d, next at %d", w, in, next)
		}
		for _, x := range r.issues(w) {
			if r.inHandlerCode(x.PC) {
				t.Fatalf("warp %d entered the handler", w)
			}
		}
	}
}

// "BPT.PAUSE_QUIET pauses the warp exactly like BPT.PAUSE does, except
// that it does not set the NV_PTPC_PRI_SM_HWW_GLOBAL_ESR_BPT_PAUSE, and
// therefore does not raise an interrupt."
func TestSM002_PauseQuiet(t *testing.T) {
	// Warp 0 pauses quietly, warp 1 spins in the handler and then pauses
	// loudly.
	r := newTrapRun(t, trapCfg(), trapModule(warp0Handler("BPT.PAUSE_QUIET;", 100, "\tBPT.PAUSE;\n"), "\t@%p7 BPT.TRAP 2;\n"+spin+"\tst.global.u32 [%rd3], %r1;\n\tret;"), 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("warp 0 paused", 500, func() bool { q := r.sm.TrapState(); return q.Paused.Has(0) })
	q := r.sm.TrapState()
	if w := r.sm.WarpStatus()[0]; w.State != "paused" || q.IRQCount != 0 || q.GlobalESR&trapunit.GlobalESRBPTPause != 0 || q.Paused.Has(1) {
		t.Fatalf("after PAUSE_QUIET: %+v, interrupts %d, global ESR %#x", w, q.IRQCount, q.GlobalESR)
	}
	r.stepUntil("every warp paused", 2000, r.allPaused)
	if q := r.sm.TrapState(); q.IRQCount != 1 || q.GlobalESR&trapunit.GlobalESRBPTPause == 0 || !q.SMTrapped {
		t.Fatalf("after PAUSE: interrupts %d global ESR %#x trapped %v", q.IRQCount, q.GlobalESR, q.SMTrapped)
	}
	r.host(trapunit.HostWakeAll, 0, trapunit.HostOK)
	if rep := r.run(); rep.Status != StatusCompleted {
		t.Fatal(rep.Status)
	}
}

// "Additionally, if all live warps become paused by executing
// BPT.PAUSE_QUIET during a given trap event then the SM will return to
// user mode and allow launches to resume without needing any poke of the
// NV_PTPC_PRI_SM_DBGR_STATUS0_RUN_TRIGGER register bit (which would
// otherwise be required)."
func TestSM002_QuietReturnToUser(t *testing.T) {
	// 8 CTAs of 2 warps on an SM that holds 4: warp 0 of CTA 0 traps and
	// every warp pauses quietly. No host agent: the SM returns to user
	// mode by itself and launches the other CTAs.
	body := "\tmov.u32 %r4, %ctaid.x;\n\tor.b32 %r4, %r4, %r30;\n\tsetp.eq.u32 %p1, %r4, 0;\n\t@%p1 BPT.TRAP 2;\n" + spin + "\tst.global.u32 [%rd3], %r1;\n\tret;"
	r := newTrapGrid(t, trapCfg(), trapModule("\tBPT.PAUSE_QUIET;\n\tRTT;", body), 8, 64)
	r.sm.SetHostAgent(nil)
	var launchedWhileTrapped bool
	var launched uint64
	r.sm.OnCycle(func(*CycleInfo) {
		n := r.sm.Report().CTAsLaunched
		if r.sm.TrapState().SMTrapped && n != launched {
			launchedWhileTrapped = true
		}
		launched = n
	})
	rep := r.run()
	if rep.Status != StatusCompleted || rep.CTAsCompleted != 8 || launchedWhileTrapped || len(rep.Interrupts) != 0 {
		t.Fatalf("status %s, %d CTAs, launched while trapped %v, interrupts %+v", rep.Status, rep.CTAsCompleted, launchedWhileTrapped, rep.Interrupts)
	}
	// With BPT.PAUSE instead, the SM stays trapped until the run trigger
	// (the host's RESUME).
	r = newTrapGrid(t, trapCfg(), trapModule("\tBPT.PAUSE;\n\tRTT;", body), 8, 64)
	r.sm.SetHostAgent(nil)
	r.stepUntil("every warp paused", 2000, r.allPaused)
	for i := 0; i < 5000; i++ {
		r.sm.Step()
	}
	if rep := r.sm.Report(); !r.sm.TrapState().SMTrapped || rep.CTAsLaunched != 4 || rep.CTAsCompleted != 0 {
		t.Fatalf("without the run trigger: trapped %v, launched %d", r.sm.TrapState().SMTrapped, rep.CTAsLaunched)
	}
	r.host(trapunit.HostResume, 0, trapunit.HostOK)
	if rep := r.run(); rep.Status != StatusCompleted || rep.CTAsCompleted != 8 {
		t.Fatalf("after RESUME: %s %d", rep.Status, rep.CTAsCompleted)
	}
}

// "BPT.PAUSE; BPT.TRAP 1; BPT.DRAIN; BPT.INT;"
func TestSM002_ExampleInstructions(t *testing.T) {
	// The example line as a handler: a loud pause, a breakpoint inside
	// the handler (nested: the warp stops for the host), a drain and an
	// interrupt. The batch host resumes each stop.
	r := newTrapRun(t, trapCfg(), trapModule("\tBPT.PAUSE; BPT.TRAP 1; BPT.DRAIN; BPT.INT;\n\tRTT;", "\tBPT.TRAP 2;\n\tst.global.u32 [%rd3], %r1;\n\tret;"), 32)
	r.sm.SetHostPolicy("resume", "resume")
	rep := r.run()
	if rep.Status != StatusCompleted || r.out(9) != 9 {
		t.Fatalf("status %s", rep.Status)
	}
	if len(rep.Breakpoints) != 1 || rep.Breakpoints[0].Action != "nested" || interruptsWith(rep, "PAUSE") != 1 || interruptsWith(rep, "TRAP") != 1 || interruptsWith(rep, "INT") != 1 {
		t.Fatalf("breakpoints %+v interrupts %+v", rep.Breakpoints, rep.Interrupts)
	}
}

// Seed 000, brkpt: "Breakpoint." — brkpt is the debugger breakpoint
// BPT.TRAP 1.
func TestSM000_BrkptIsBreakpoint(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(reasonLog, "\tbrkpt;\n\tret;"), 32)
	rep := r.run()
	if r.hout(0) != 1 || len(rep.Breakpoints) != 1 || rep.Breakpoints[0].Kind != "brkpt" || rep.GlobalESR.Seen != trapunit.GlobalESRTrap(1) {
		t.Fatalf("handler saw %d; breakpoints %+v global %+v", r.hout(0), rep.Breakpoints, rep.GlobalESR)
	}
}

// Seed 000, brkpt: "Suspends execution." (examples "brkpt;" and "@p
// brkpt;")
func TestSM000_BrkptSuspends(t *testing.T) {
	e, _ := examples.ByName("brkpt")
	cfg := smallConfig()
	for _, pol := range []string{"abort", "resume"} {
		sm, err := New(cfg, assemble(t, e.Name+".ptx", e.PTX), launchOf(e))
		if err != nil {
			t.Fatal(err)
		}
		sm.SetHostPolicy("abort", pol)
		rep, _ := sm.Run()
		checkInvariants(t, sm, rep)
		switch pol {
		case "abort":
			// Suspended: every warp stopped where it was.
			if rep.Status != StatusTrapped || rep.Errors[len(rep.Errors)-1].Kind != "breakpoint" || rep.Warps[0].State != "trapped" || rep.Warps[1].TrapState != "stopped" {
				t.Fatalf("abort: %s %+v %+v", rep.Status, rep.Errors, rep.Warps)
			}
		case "resume":
			if rep.Status != StatusCompleted || e.VerifyResumed(envOf(sm), rep.Buffers) != nil {
				t.Fatalf("resume: %s %v", rep.Status, e.VerifyResumed(envOf(sm), rep.Buffers))
			}
		}
	}
	// "@p brkpt" with p false suspends nothing.
	_, rep := runPTX(t, smallConfig(), kernel("\tsetp.eq.u32 %p1, %r1, 99;\n\t@%p1 brkpt;\n\tret;"), Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusCompleted || len(rep.Breakpoints) != 0 {
		t.Fatalf("@p brkpt: %s", rep.Status)
	}
}

// Seed 000, trap: "Perform trap operation." — trap is the warp error
// ASSERT_TRAP: the handler sees it in the warp ESR, the global ESR has
// ERROR.
func TestSM000_TrapPerformsTrap(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(`
	S2R %h2, SR_WARP_ESR;
	st.global.u32 [%hd3+1024], %h2;
	S2R %h3, SR_GLOBAL_ESR;
	st.global.u32 [%hd3+1028], %h3;
	RTT;`, "\ttrap;\n\tret;"), 32)
	rep := r.run()
	if e := trapunit.WarpESR(r.hout(0)); e.Error() != trapunit.ErrAssertTrap || r.hout(1) != uint32(trapunit.GlobalESRError) {
		t.Fatalf("ESR %s global %#x", e, r.hout(1))
	}
	if len(rep.Traps) != 1 || rep.Traps[0].Kind != "trap" || rep.Traps[0].Error != "ASSERT_TRAP" || interruptsWith(rep, "ERROR") != 1 {
		t.Fatalf("traps %+v interrupts %+v", rep.Traps, rep.Interrupts)
	}
}

// Seed 000, trap: "Abort execution and generate an interrupt to the host
// CPU." (examples "trap;" and "@p trap;")
func TestSM000_TrapAbortsAndInterrupts(t *testing.T) {
	e, _ := examples.ByName("trap_divergent")
	sm, rep := runExample(t, e, smallConfig())
	checkInvariants(t, sm, rep)
	if rep.Status != StatusTrapped || interruptsWith(rep, "ERROR") != 1 || len(rep.Traps) != 1 || rep.Traps[0].Lanes != 1<<8 || rep.Traps[0].Warp != 1 {
		t.Fatalf("%s interrupts %+v traps %+v", rep.Status, rep.Interrupts, rep.Traps)
	}
	if k := rep.Errors[len(rep.Errors)-1].Kind; k != "trap" {
		t.Fatalf("error kind %s", k)
	}
	// "@p trap" with p false does nothing.
	_, rep = runPTX(t, smallConfig(), kernel("\tsetp.eq.u32 %p1, %r1, 99;\n\t@%p1 trap;\n\tret;"), Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusCompleted || len(rep.Traps) != 0 || len(rep.Interrupts) != 0 {
		t.Fatalf("@p trap: %s", rep.Status)
	}
}
