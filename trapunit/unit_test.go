package trapunit

import (
	"math/rand"
	"testing"
	"time"

	"github.com/smsim/smsim/internal/unittest"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

func TestNewChecksParams(t *testing.T) {
	rtltest.RejectsAll(t, New, []Params{{NumWarps: 0, NumPorts: 1}, {NumWarps: MaxWarps + 1, NumPorts: 1}, {NumWarps: 4}, {NumWarps: 4, NumPorts: MaxPorts + 1}})
	u, err := New(Params{NumWarps: MaxWarps, NumPorts: MaxPorts})
	if err != nil || u.Params().NumWarps != MaxWarps {
		t.Fatal(err)
	}
}

func TestStateIsPlain(t *testing.T) {
	if err := rtl.CheckState(State{}); err != nil {
		t.Fatal(err)
	}
}

// Every exported field of Inputs, Outputs and State carries an sv tag with
// the suffix of its direction.
func TestSignalSuffixes(t *testing.T) {
	rtltest.CheckTags(t, Inputs{}, Outputs{}, State{})
}

func TestSignals(t *testing.T) {
	u, err := New(Params{NumWarps: 48, NumPorts: 4})
	if err != nil {
		t.Fatal(err)
	}
	tab := u.Signals()
	want := map[string]unittest.Sig{
		"warp_live_i": {W: 48, Dir: rtl.DirIn}, "warp_pc_i": {W: 32 * 48, Dir: rtl.DirIn}, "ev_valid_i": {W: 4, Dir: rtl.DirIn},
		"ev_warp_i": {W: 6 * 4, Dir: rtl.DirIn}, "ev_kind_i": {W: 16, Dir: rtl.DirIn}, "ev_arg_i": {W: 16, Dir: rtl.DirIn},
		"ev_pc_next_i": {W: 128, Dir: rtl.DirIn}, "host_cmd_i": {W: 3, Dir: rtl.DirIn}, "host_arg_i": {W: 16, Dir: rtl.DirIn},
		"sm_trapped_o": {W: 1, Dir: rtl.DirOut}, "enter_handler_o": {W: 48, Dir: rtl.DirOut}, "resume_pc_o": {W: 32 * 48, Dir: rtl.DirOut},
		"irq_cause_o": {W: 4, Dir: rtl.DirOut}, "warp_esr_o": {W: 16 * 48, Dir: rtl.DirOut}, "host_err_o": {W: 3, Dir: rtl.DirOut},
		"s2r_global_esr_o": {W: 16, Dir: rtl.DirOut},
		"sm_trapped_q":     {W: 1, Dir: rtl.DirReg}, "saved_pc_q": {W: 32 * 48, Dir: rtl.DirReg}, "warp_esr_q": {W: 16 * 48, Dir: rtl.DirReg},
		"global_esr_q": {W: 16, Dir: rtl.DirReg}, "irq_pending_q": {W: 4, Dir: rtl.DirReg}, "int_mask_q": {W: 48, Dir: rtl.DirReg},
	}
	unittest.CheckTable(t, tab, "sm_top.u_trap_unit", want, Inputs{}, Outputs{}, State{})
	// The smallest unit still has a 1-bit warp index.
	u1, _ := New(Params{NumWarps: 1, NumPorts: 1})
	if s, _ := u1.Signals().Find("ev_warp_i"); s.Width != 1 {
		t.Errorf("ev_warp_i of a 1-warp unit: %d bits", s.Width)
	}
}

func TestStrings(t *testing.T) {
	checks := map[string]string{
		EvBPTPauseQuiet.String(): "BPT_PAUSE_QUIET", EvKind(14).String(): "EV_14",
		ErrAssertTrap.String(): "ASSERT_TRAP", ErrCode(16).String(): "ERR_16",
		HostResume.String(): "RESUME", HostCmd(7).String(): "HOST_CMD_7",
		HostErrNotStopped.String(): "NOT_STOPPED", HostErr(9).String(): "HOST_ERR_9",
		CauseString(IRQPause | IRQError): "PAUSE|ERROR", CauseString(0): "none",
		WarpESR(0).String(): "none", WarpESR(3 | 4<<4 | 2<<8).String(): "reason=3,error=OUT_OF_RANGE_ADDR,pending=2",
	}
	for got, want := range checks {
		if got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
}

func TestErrorFromFault(t *testing.T) {
	for kind, want := range map[string]ErrCode{
		"memory_fault": ErrOutOfRangeAddr, "misaligned_address": ErrMisalignedAddr, "illegal_instruction": ErrIllegalInstrEncoding,
		"brx_index_out_of_range": ErrBrxIndexOutOfRange, "stack_overflow": ErrStackOverflow, "setmaxnreg": ErrSetmaxnregUB,
		"uniform_violation": ErrUniformViolation, "bad_call_target": ErrInvalidPC, "pc_out_of_range": ErrInvalidPC,
		"barrier_error": ErrIllegalInstrParam, "warp_sync": ErrWarpSync, "trap": ErrAssertTrap, "illegal_register": ErrIllegalRegister,
		"out_of_range_address": ErrOutOfRangeAddr, "trap_unit": ErrIllegalInstrEncoding, "what": ErrUnknown,
	} {
		if got := ErrorFromFault(kind); got != want {
			t.Errorf("%s: %s, want %s", kind, got, want)
		}
	}
}

// Warp errors trap like BPT.TRAP; the first error of a warp stays in its
// ESR until the host clears it or the warp leaves the handler.
func TestWarpErrorTraps(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	o := b.step(werr(0, ErrMisalignedAddr, 14), werr(0, ErrOutOfRangeAddr, 15))
	q := b.q()
	if o.EnterHandler != rtl.BitsOf(0, 1) || q.SavedPC[0] != 14 || q.WarpESR[0].Error() != ErrMisalignedAddr {
		t.Fatalf("enter %v saved %d esr %s", o.EnterHandler, q.SavedPC[0], q.WarpESR[0])
	}
	// The second error belonged to the same entry: the warp is not stopped.
	if q.Paused.Any() || q.IRQCount != 2 || q.IRQPending != IRQError {
		t.Fatalf("paused %v irq count %d", q.Paused, q.IRQCount)
	}
	b.cmd(HostClearWarpESR, 0)
	b.step(werr(0, ErrCode(0), 16)) // code 0 is recorded as UNKNOWN; nested: the warp stops
	if q := b.q(); q.WarpESR[0].Error() != ErrUnknown || !q.Paused.Has(0) || q.SavedPC[0] != 14 {
		t.Fatalf("esr %s paused %v saved %d", q.WarpESR[0], q.Paused, q.SavedPC[0])
	}
}

// A BPT.TRAP inside the handler (unmasked) stops the warp and interrupts
// the host; the saved PC is kept.
func TestNestedTrap(t *testing.T) {
	b := trapped(t)
	b.step(trap(3, 4, 99))
	q := b.q()
	if !q.Paused.Has(3) || q.SavedPC[3] != pcOf(3) || q.WarpESR[3].Reason() != 4 || q.IRQPending != IRQTrap {
		t.Fatalf("paused %v saved %d esr %s irq %s", q.Paused, q.SavedPC[3], q.WarpESR[3], CauseString(q.IRQPending))
	}
}

// Without a handler a trap stops every live warp in the trap state; WAKE
// is refused; RESUME returns them to their saved PCs.
func TestNoHandler(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4}, 0, 1, 3)
	o := b.step(trap(1, 2, 20))
	if o.EnterHandler.Any() {
		t.Fatal("redirect without a handler")
	}
	o = b.idle()
	if !o.SMTrapped || o.WarpPaused != rtl.BitsOf(0, 1, 3) || o.IRQCause != IRQTrap || !o.AllPaused {
		t.Fatalf("trapped %v paused %v irq %s", o.SMTrapped, o.WarpPaused, CauseString(o.IRQCause))
	}
	if o := b.cmd(HostWakeAll, 0); o.HostErr != HostErrNoHandler {
		t.Fatalf("WAKE without handler: %s", o.HostErr)
	}
	if o := b.cmd(HostWakeWarp, 1); o.HostErr != HostErrNoHandler {
		t.Fatalf("WAKE_WARP without handler: %s", o.HostErr)
	}
	o = b.cmd(HostResume, 0)
	if !o.HostAck || o.Resume != rtl.BitsOf(0, 1, 3) || o.ResumePC[1] != 20 || o.ResumePC[3] != pcOf(3) {
		t.Fatalf("RESUME: %s resume %v", o.HostErr, o.Resume)
	}
	if q := b.q(); q.SMTrapped || q.Paused.Any() || q.WarpESR[1] != 0 {
		t.Fatalf("after RESUME: %+v", q)
	}
}

// A late error arriving in the cycle of the RESUME traps the SM again at
// once: nobody resumes, the saved PCs are kept.
func TestResumeAndErrorSameCycle(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4}, 0, 1)
	b.step(trap(1, 2, 20))
	o := b.cmd(HostResume, 0, werr(0, ErrOutOfRangeAddr, 500))
	q := b.q()
	if !o.HostAck || o.Resume.Any() || !q.SMTrapped || q.Paused != rtl.BitsOf(0, 1) {
		t.Fatalf("resume %v trapped %v paused %v", o.Resume, q.SMTrapped, q.Paused)
	}
	if q.SavedPC[0] != pcOf(0) || q.SavedPC[1] != 20 {
		t.Fatalf("saved pcs %v", q.SavedPC[:2])
	}
}

// Two warps trap in the same cycle on two ports: both enter with their own
// saved PC and reason; neither is stopped as a nested trap.
func TestTwoTrapsOneCycle(t *testing.T) {
	b := newBench(t, handler, 0, 1, 2)
	o := b.step(trap(0, 2, 7), trap(2, 3, 9))
	q := b.q()
	if o.EnterHandler != rtl.BitsOf(0, 1, 2) || q.Paused.Any() {
		t.Fatalf("enter %v paused %v", o.EnterHandler, q.Paused)
	}
	if q.SavedPC[0] != 7 || q.SavedPC[2] != 9 || q.SavedPC[1] != pcOf(1) || q.WarpESR[0].Reason() != 2 || q.WarpESR[2].Reason() != 3 {
		t.Fatalf("saved %v esr %v", q.SavedPC[:3], q.WarpESR[:3])
	}
}

// A warp that RTTs while the SM stays trapped runs user code; a later trap
// of that warp takes only that warp into the handler.
func TestTrapWhileTrapped(t *testing.T) {
	b := trapped(t)
	b.step(ev(0, EvRTT), ev(1, EvRTT))
	o := b.step(trap(0, 6, 70))
	q := b.q()
	if o.EnterHandler != rtl.BitsOf(0) || q.SavedPC[0] != 70 || q.InHandler != rtl.BitsOf(0, 2, 3) {
		t.Fatalf("enter %v in handler %v", o.EnterHandler, q.InHandler)
	}
}

// Launching a warp into a slot gives it fresh registers.
func TestLaunchResetsWarp(t *testing.T) {
	b := newBench(t, handler, 0, 1)
	b.step(ev(1, EvIDEDisable))
	b.step(trap(1, 3, 5)) // pending
	b.exit(1)
	b.idle()
	if q := b.q(); q.WarpESR[1].Pending() != 3 {
		t.Fatal("an exited warp's ESR was lost before the slot was reused")
	}
	in := b.in
	in.WarpLive.Set(1)
	in.WarpLaunch.Set(1)
	b.in.WarpLive.Set(1)
	b.run(in)
	if q := b.q(); q.WarpESR[1] != 0 || q.IntMask.Has(1) {
		t.Fatalf("launched warp: esr %s mask %v", q.WarpESR[1], q.IntMask)
	}
}

// Events of warps that are not live, outside NumWarps, on ports beyond
// NumPorts, and of reserved kinds are ignored.
func TestIgnoredEvents(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4, NumPorts: 2, HasHandler: true}, 0)
	before := b.q()
	in := b.in
	in.SetEvent(0, trap(1, 2, 3))            // not live
	in.SetEvent(1, trap(4, 2, 3))            // beyond NumWarps
	in.SetEvent(2, trap(0, 2, 3))            // port beyond NumPorts
	in.SetEvent(MaxPorts, trap(0, 2, 3))     // no such port: SetEvent ignores it
	in.SetEvent(0, Event{Warp: -1})          // ignored by SetEvent
	in.SetEvent(1, Event{Warp: 0, Kind: 13}) // reserved kind
	b.run(in)
	if b.q() != before {
		t.Fatalf("state changed: %+v", b.q())
	}
	if o := b.cmd(HostCmd(7), 0); o.HostErr != HostErrBadCmd {
		t.Fatalf("command 7: %s", o.HostErr)
	}
	if o := b.cmd(HostClearWarpESR, 4); o.HostErr != HostErrBadWarp {
		t.Fatalf("CLEAR_WARP_ESR 4: %s", o.HostErr)
	}
}

// randomInputs draws the inputs of one cycle: events biased to the kinds
// and warps that matter, with junk mixed in.
func randomInputs(r *rand.Rand, in *Inputs, n int) {
	for p := 0; p < MaxPorts; p++ {
		in.EvValid[p] = r.Intn(3) == 0
		in.EvWarp[p] = uint16(r.Intn(n + 2))
		in.EvKind[p] = EvKind(r.Intn(16))
		in.EvArg[p] = uint8(r.Intn(256))
		in.EvPCNext[p] = r.Uint32()
	}
	in.HostCmd, in.HostArg = HostNone, 0
	if r.Intn(4) == 0 {
		in.HostCmd = HostCmd(r.Intn(8))
		in.HostArg = uint16(r.Intn(n + 2))
		if r.Intn(4) == 0 {
			in.HostArg = uint16(r.Uint32())
		}
	}
	in.WarpLaunch = rtl.Bits{}
	if r.Intn(20) == 0 {
		w := r.Intn(n + 1)
		if in.WarpLive.Has(w) {
			in.WarpLive.Clear(w)
		} else {
			in.WarpLive.Set(w)
			in.WarpLaunch.Set(w)
		}
	}
	if r.Intn(200) == 0 {
		in.WarpLive[0] = r.Uint64() // junk beyond NumWarps included
	}
	for w := 0; w < n; w++ {
		in.WarpPC[w] = r.Uint32()
	}
}

// Random inputs for about a second: Eval never panics, the two-phase rules
// and the invariants hold (a paused warp is in the handler, ...).
func TestRandomInvariants(t *testing.T) {
	budget := time.Second
	if testing.Short() {
		budget = 200 * time.Millisecond
	}
	deadline := time.Now().Add(budget)
	r := rand.New(rand.NewSource(1))
	cycles := 0
	var seen struct{ enter, resume, quiet, wake, refused int }
	count := func(in Inputs, o Outputs) {
		switch {
		case o.EnterHandler.Any():
			seen.enter++
		case o.ReturnToUser:
			seen.quiet++
		case o.Resume.Any():
			seen.resume++
		}
		if o.HostAck && (in.HostCmd == HostWakeAll || in.HostCmd == HostWakeWarp) {
			seen.wake++
		}
		if o.HostErr != HostOK {
			seen.refused++
		}
	}
	for run := 0; time.Now().Before(deadline); run++ {
		p := Params{NumWarps: 1 + r.Intn(MaxWarps), NumPorts: 1 + r.Intn(MaxPorts), HasHandler: r.Intn(2) == 0}
		if run%3 == 0 {
			p.NumWarps = 1 + r.Intn(4) // small SMs reach the all-paused states often
		}
		b := newBench(t, p)
		for w := 0; w < p.NumWarps; w++ {
			if r.Intn(4) != 0 {
				b.in.WarpLive.Set(w)
			}
		}
		for i := 0; i < 500; i++ {
			in := b.in
			randomInputs(r, &in, p.NumWarps)
			b.in.WarpLive, b.in.WarpPC = in.WarpLive, in.WarpPC
			var o Outputs
			if i%8 == 0 {
				o = b.run(in) // CheckTwoPhase and invariants
			} else {
				o = b.u.Eval(in)
				b.u.Tick()
				if err := invariants(b.u, in, o); err != "" {
					t.Fatalf("run %d cycle %d %+v: %s", run, i, p, err)
				}
			}
			count(in, o)
			cycles++
		}
	}
	t.Logf("%d cycles: %+v", cycles, seen)
	if seen.enter == 0 || seen.resume == 0 || seen.quiet == 0 || seen.wake == 0 || seen.refused == 0 {
		t.Errorf("the random inputs do not reach every state: %+v", seen)
	}
}

// FuzzEval decodes bytes into cycles of inputs for a 4-warp, 2-port unit.
func FuzzEval(f *testing.F) {
	f.Add([]byte{0x0f, 0x01, 0x42, 0x07, 0x00, 0x00, 0x0f, 0x02, 0x02, 0x00, 0x04, 0x06})
	f.Add([]byte{0x03, 0x14, 0x01, 0x00, 0x00, 0x00, 0x03, 0x03, 0x03, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, handler := range []bool{false, true} {
			b := newBench(t, Params{NumWarps: 4, NumPorts: 2, HasHandler: handler})
			for i := 0; i+6 <= len(data) && i < 6*64; i += 6 {
				c := data[i : i+6]
				in := b.in
				in.WarpLive[0] = uint64(c[0])
				b.in.WarpLive[0] = uint64(c[0])
				in.SetEvent(0, Event{Warp: int(c[1] & 7), Kind: EvKind(c[1] >> 4), Arg: c[2], PCNext: uint32(c[2])})
				if c[3]&0x80 != 0 {
					in.SetEvent(1, Event{Warp: int(c[3] & 7), Kind: EvKind(c[3] >> 3 & 15), Arg: c[4], PCNext: uint32(c[4])})
				}
				in.HostCmd, in.HostArg = HostCmd(c[5]&7), uint16(c[5]>>3)
				b.run(in)
			}
		}
	})
}

func BenchmarkEval(b *testing.B) {
	u, err := New(Params{NumWarps: MaxWarps, NumPorts: 4, HasHandler: true})
	if err != nil {
		b.Fatal(err)
	}
	var in Inputs
	for w := 0; w < MaxWarps; w++ {
		in.WarpLive.Set(w)
	}
	in.SetEvent(0, Event{Warp: 3, Kind: EvBPTInt})
	for i := 0; i < b.N; i++ {
		u.Eval(in)
		u.Tick()
	}
}
