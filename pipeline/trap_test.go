package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smsim/smsim/trapunit"
)

// Trap unit integration beyond the seed sentences (trap_seed_test.go):
// the model's faults as warp errors, the host policies, the default
// handler, the report, the handler's context.

// A fault of the model is a precise warp error: the handler reads its
// code in the warp ESR, the saved PC is the next instruction, nothing of
// the faulting instruction happened.
func TestWarpErrorsInESR(t *testing.T) {
	cases := []struct {
		name, body string
		want       trapunit.ErrCode
		uniform    bool
	}{
		{"misaligned", "\tld.global.u32 %r5, [%rd3+2]; // fault", trapunit.ErrMisalignedAddr, false},
		{"out of range", "\tmov.u64 %rd6, 0x7ffffff0;\n\tst.global.u32 [%rd6], %r2; // fault", trapunit.ErrOutOfRangeAddr, false},
		{"null", "\tmov.u64 %rd6, 0;\n\tld.global.u32 %r5, [%rd6]; // fault", trapunit.ErrOutOfRangeAddr, false},
		{"barrier id", "\tmov.u32 %r9, 17;\n\tbar.sync %r9; // fault", trapunit.ErrIllegalInstrParam, false},
		{"uniform", "\tsetp.lt.u32 %p1, %r2, 10;\n\t@%p1 bra.uni SKIP; // fault\nSKIP:", trapunit.ErrUniformViolation, true},
		{"brx index", `	mov.u32 %r9, 5;
TGT: .branchtargets L0, L1;
	brx.idx %r9, TGT; // fault
L0:
	bra.uni SKIP;
L1:
SKIP:`, trapunit.ErrBrxIndexOutOfRange, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newTrapRun(t, trapCfg(), trapModule(esrHandler("BPT.PAUSE_QUIET"), c.body+"\n\tst.global.u32 [%rd3], %r1; // after\n\tret;"), 32)
			r.sm.SetUniformTraps(c.uniform)
			rep := r.run()
			if e := trapunit.WarpESR(r.hout(0)); e.Error() != c.want {
				t.Fatalf("ESR %s, want error %s", e, c.want)
			}
			fault := r.pc("// fault")
			if len(rep.Traps) != 1 || rep.Traps[0].PC != fault || rep.Traps[0].ResumePC != fault+1 || rep.Traps[0].Error != c.want.String() {
				t.Fatalf("traps %+v", rep.Traps)
			}
			if rep.Status != StatusCompleted || r.out(3) != 3 || len(rep.Errors) != 1 || rep.Errors[0].PC != fault {
				t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
			}
		})
	}
}

// Without a trap handler, a trap or a warp error stops the SM; the
// default host records it and ends the grid ("trapped"; a fault keeps
// its status "fault").
func TestDefaultHandler(t *testing.T) {
	_, rep := runPTX(t, smallConfig(), kernel("\tshr.u32 %r30, %r1, 5;\n\tsetp.eq.u32 %p7, %r30, 0;\n\t@%p7 BPT.TRAP 2; // trap\n\tret;"), Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	if rep.Status != StatusTrapped || len(rep.Traps) != 1 || rep.Traps[0].Action != "stopped" || interruptsWith(rep, "TRAP") != 1 {
		t.Fatalf("%s traps %+v interrupts %+v", rep.Status, rep.Traps, rep.Interrupts)
	}
	if e := rep.Errors[0]; e.Kind != "trap" || e.Warp != rep.Traps[0].Warp || !strings.Contains(e.Source, "BPT.TRAP 2") || !strings.Contains(e.Message, "--on-trap=abort") {
		t.Fatalf("error %+v", e)
	}
	_, rep = runPTX(t, smallConfig(), kernel("\tld.global.u32 %r5, [%rd3+2];\n\tret;"), Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusFault || rep.Warps[0].ESR != uint16(trapunit.ErrMisalignedAddr)<<4 || rep.Warps[0].TrapState != "stopped" {
		t.Fatalf("fault: %s %+v", rep.Status, rep.Warps)
	}
}

// --on-trap=resume without a handler: the stopped warps continue at their
// saved PCs with their divergent state.
func TestHostPolicyResume(t *testing.T) {
	src := kernel(`
	and.b32 %r4, %r2, 1;
	setp.eq.u32 %p1, %r4, 1;
	mov.u32 %r5, 10;
	@%p1 bra ODD;
	add.u32 %r5, %r5, 1;
	BPT.TRAP 3; // even lanes trap
	add.u32 %r5, %r5, 100;
	bra.uni JOIN;
ODD:
	add.u32 %r5, %r5, 2;
JOIN:
	st.global.u32 [%rd3], %r5;
	ret;`)
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	if err := sm.SetHostPolicy("resume", "abort"); err != nil {
		t.Fatal(err)
	}
	rep, _ := sm.Run()
	checkInvariants(t, sm, rep)
	if rep.Status != StatusCompleted {
		t.Fatalf("status %s", rep.Status)
	}
	for i, v := range rep.Buffers["out"] {
		want := uint32(111)
		if i%2 == 1 {
			want = 12
		}
		if v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
	if err := sm.SetHostPolicy("maybe", ""); err == nil || !strings.Contains(err.Error(), "--on-trap") {
		t.Fatalf("bad policy: %v", err)
	}
}

// The handler runs on its own context: the warp's registers,
// predicates, divergent PCs and call stack come back at RTT, even when
// the handler needs more registers than the kernel.
func TestHandlerKeepsUserContext(t *testing.T) {
	var clobber strings.Builder
	for i := 4; i < 30; i++ {
		clobber.WriteString("\tmov.u32 %h" + itoa(i) + ", 0xdead;\n")
	}
	for i := 4; i < 30; i++ {
		clobber.WriteString("\tst.global.u32 [%hd3+1024], %h" + itoa(i) + ";\n")
	}
	clobber.WriteString("\tsetp.eq.u32 %hp1, %h4, %h4;\n\tsetp.eq.u32 %hp2, %h4, %h4;\n\tRTT;")
	src := `.global .align 8 .u64 hbuf;

` + handlerFunc(false, clobber.String()) + `
.visible .func (.reg .b32 r) f(.reg .b32 x)
{
	.reg .b32 %t<4>;
	add.u32 %t1, x, 5;
	BPT.TRAP 2; // in the callee
	add.u32 r, %t1, 1;
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .pred %p<4>;
	ld.param.u64 %rd1, [out];
	st.global.u64 [hbuf], %rd1;
	mov.u32 %r1, %laneid;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	setp.lt.u32 %p1, %r1, 8;
	mov.u32 %r2, 1000;
	@%p1 bra SMALL;
	call (%r3), f, (%r1);
	add.u32 %r2, %r2, %r3;
	bra.uni JOIN;
SMALL:
	add.u32 %r2, %r2, 7;
JOIN:
	selp.u32 %r4, 1, 2, %p1;
	add.u32 %r2, %r2, %r4;
	st.global.u32 [%rd3], %r2;
	ret;
}
`
	r := newTrapRun(t, trapCfg(), src, 32)
	rep := r.run()
	wantStatus(t, rep, StatusCompleted)
	for l := 0; l < 32; l++ {
		want := uint32(1000 + l + 6 + 2)
		if l < 8 {
			want = 1000 + 7 + 1
		}
		if r.out(l) != want {
			t.Errorf("lane %d: %d, want %d", l, r.out(l), want)
		}
	}
	if got := r.sm.im.Funcs; len(got) == 0 {
		t.Fatal("no funcs")
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// A warp waiting at a barrier when another warp traps runs the handler
// too and goes back to waiting; the barrier completes afterwards.
func TestTrapWhileAtBarrier(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule(reasonLog, `
	setp.eq.u32 %p1, %r30, 1;
	@%p1 bra LATE;
	bar.sync 0; // warp 0 waits
	bra.uni DONE;
LATE:
`+spin+`	BPT.TRAP 4;
	bar.sync 0;
DONE:
	st.global.u32 [%rd3], %r1;
	ret;`), 64)
	rep := r.run()
	if rep.Status != StatusCompleted || r.hout(0) != 0 || r.hout(32) != 4 || len(r.issuesAt(0, r.handlerPC())) != 1 || r.out(5) != 5 || r.out(40) != 40 {
		t.Fatalf("status %s handler words %d %d, warp 0 entries %d", rep.Status, r.hout(0), r.hout(32), len(r.issuesAt(0, r.handlerPC())))
	}
}

// ret with nothing to return to in the handler is an error: the handler
// returns with RTT.
func TestHandlerRetIsIllegal(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tret;", "\tBPT.TRAP 2;\n\tret;"), 32)
	r.sm.SetHostPolicy("abort", "abort")
	rep := r.run()
	if rep.Status != StatusFault || rep.Errors[0].Kind != "illegal_instruction" || !strings.Contains(rep.Errors[0].Message, "RTT") || rep.Traps[1].Action != "nested" {
		t.Fatalf("%s %+v %+v", rep.Status, rep.Errors, rep.Traps)
	}
}

// trap.handler must name a .func of the image.
func TestTrapHandlerConfig(t *testing.T) {
	cfg := smallConfig()
	cfg.Trap.Handler = "nothere"
	im := assemble(t, "t.ptx", []byte(ptxHeader+trapModule("\tRTT;", "\tret;")))
	_, err := New(cfg, im, Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Buffers: outBuf(1024)})
	if !IsLaunchError(err) || !strings.Contains(err.Error(), `trap.handler "nothere"`) || !strings.Contains(err.Error(), "handler") {
		t.Fatalf("%v", err)
	}
	cfg.Trap.Handler = "k" // a kernel is not a handler
	if _, err := New(cfg, im, Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Buffers: outBuf(1024)}); err == nil {
		t.Fatal("a kernel accepted as the trap handler")
	}
	sm, err := New(trapCfg(), im, Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Buffers: outBuf(1024)})
	if err != nil || sm.TrapHandler() != "handler" {
		t.Fatal(err)
	}
	sm.Run()
	if _, err := sm.HostCommand(trapunit.HostWakeAll, 0); err == nil {
		t.Fatal("HostCommand after the end")
	}
}

// --json: traps, breakpoints, interrupts, global_esr (value and flags)
// and each warp's esr, besides every existing key.
func TestReportTrapKeys(t *testing.T) {
	r := newTrapRun(t, trapCfg(), trapModule("\tBPT.INT;\n\tRTT;", "\t@%p7 BPT.TRAP 5;\n\tbrkpt;\n\tret;"), 64)
	r.sm.SetHostAgent(nil)
	rep := r.run()
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	json.Unmarshal(b, &m)
	for _, k := range []string{"status", "cycles", "warp_instructions", "thread_instructions", "ipc", "buffers", "stalls", "warps", "errors", "pm_events", "ctas", "ctas_launched", "ctas_completed",
		"traps", "breakpoints", "interrupts", "global_esr"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q", k)
		}
	}
	var x struct {
		Traps []map[string]any `json:"traps"`
		G     struct {
			Value uint16   `json:"value"`
			Flags []string `json:"flags"`
		} `json:"global_esr"`
		Warps []map[string]any `json:"warps"`
	}
	json.Unmarshal(b, &x)
	for _, k := range []string{"warp", "pc", "line", "reason", "esr", "esr_decoded", "resume_pc", "action"} {
		if _, ok := x.Traps[0][k]; !ok {
			t.Errorf("trap record lacks %q", k)
		}
	}
	if x.Traps[0]["reason"].(float64) != 5 || x.G.Value != rep.GlobalESR.Value || strings.Join(x.G.Flags, ",") != "BPT_TRAP1,BPT_TRAP5,BPT_INT" {
		t.Errorf("traps %v global %+v", x.Traps, x.G)
	}
	if _, ok := x.Warps[0]["esr"]; !ok {
		t.Errorf("warp lacks esr: %v", x.Warps[0])
	}
}
