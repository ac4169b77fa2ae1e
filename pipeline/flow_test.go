package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// prologue computes %r1 = %tid.x, %r2 = %laneid and %rd3 = &out[tid].
const prologue = `
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %laneid;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
`

func kernel(body string) string { return kernelWith("", body) }

// kernelWith is kernel with a declaration decl (e.g. a .shared array; none
// if "") before the prologue.
func kernelWith(decl, body string) string {
	if decl != "" {
		decl = "\t" + decl + "\n"
	}
	return `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<32>;
	.reg .b64 %rd<16>;
	.reg .pred %p<8>;
` + decl + prologue + body + `
}
`
}

func TestDivergenceReconvergence(t *testing.T) {
	src := kernel(`
	and.b32 %r3, %r2, 1;
	setp.eq.u32 %p1, %r3, 1;
	@%p1 bra ODD;
	add.u32 %r4, %r2, 100; // even
	bra.uni JOIN;
ODD:
	add.u32 %r4, %r2, 200; // odd
JOIN:
	mov.u32 %r5, 0; // join
	and.b32 %r6, %r2, 3;
LOOP:
	add.u32 %r4, %r4, 1000; // loop body
	add.u32 %r5, %r5, 1;
	setp.le.u32 %p2, %r5, %r6;
	@%p2 bra LOOP;
	st.global.u32 [%rd3], %r4; // after loop
	ret;`)
	sm, rep, log := runLogged(t, smallConfig(), src, threadsLaunch(32))
	wantCompleted(t, rep)
	masks := func(text string) []uint32 {
		var m []uint32
		for _, i := range log.at(pcOfText(t, sm, text)) {
			m = append(m, i.Mask)
		}
		return m
	}
	check := func(text string, want ...uint32) {
		t.Helper()
		if got := masks(text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: issued with masks %#x, want %#x", text, got, want)
		}
	}
	check("// even", 0x55555555)
	check("// odd", 0xaaaaaaaa)
	check("// join", 0xffffffff)
	// Trip counts lane%4+1: every lane, then lanes with lane%4 >= 1, >= 2, == 3.
	check("// loop body", 0xffffffff, 0xeeeeeeee, 0xcccccccc, 0x88888888)
	check("// after loop", 0xffffffff)
	// The even path (lower PC) runs before the odd one.
	even, odd := log.at(pcOfText(t, sm, "// even"))[0], log.at(pcOfText(t, sm, "// odd"))[0]
	if even.Cycle >= odd.Cycle {
		t.Errorf("even path at cycle %d, odd at %d: the minimum PC must go first", even.Cycle, odd.Cycle)
	}
	for l, v := range rep.Buffers["out"] {
		want := uint32(l + 100 + 100*(l&1) + 1000*(l%4+1))
		if v != want {
			t.Errorf("out[%d] = %d, want %d", l, v, want)
		}
	}
}

func TestDivergentReturn(t *testing.T) {
	src := `.func (.reg .b32 r) f(.reg .b32 x)
{
	.reg .pred %p<2>;
	.reg .b32 %t<4>;
	setp.lt.u32 %p1, x, 16;
	mov.u32 r, 7;
	@%p1 ret; // early return
	mul.lo.u32 %t1, x, 3;
	add.u32 r, %t1, 1; // deep work
	ret;
}
` + kernel(`
	call (%r4), f, (%r2);
	add.u32 %r5, %r4, 5; // after call
	st.global.u32 [%rd3], %r5;
	ret;`)
	sm, rep, log := runLogged(t, smallConfig(), src, threadsLaunch(32))
	wantCompleted(t, rep)
	after := log.at(pcOfText(t, sm, "// after call"))
	if len(after) != 1 || after[0].Mask != 0xffffffff {
		t.Fatalf("the instruction after the call issued %+v; want once with every lane (returned threads wait for the deeper ones)", after)
	}
	deep := log.at(pcOfText(t, sm, "// deep work"))
	if len(deep) != 1 || deep[0].Mask != 0xffff0000 || deep[0].Cycle > after[0].Cycle {
		t.Fatalf("deep work %+v", deep)
	}
	for l, v := range rep.Buffers["out"] {
		want := uint32(12)
		if l >= 16 {
			want = uint32(3*l + 1 + 5)
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", l, v, want)
		}
	}
}

func TestPartialExitAndBarrier(t *testing.T) {
	// 96 threads: warp 2 exits entirely, odd lanes of warps 0 and 1 exit;
	// the survivors meet at bar.sync (exited threads count as arrived) and
	// exchange values through shared memory.
	src := kernelWith(".shared .align 4 .b8 buf[384];", `
	setp.ge.u32 %p1, %r1, 64;
	@%p1 exit;
	and.b32 %r3, %r2, 1;
	setp.eq.u32 %p2, %r3, 1;
	@%p2 exit;
	mul.lo.u32 %r4, %r1, 4;
	add.u32 %r5, %r1, 1000;
	st.shared.u32 [%r4], %r5;
	bar.sync 0;
	add.u32 %r6, %r1, 2;
	rem.u32 %r6, %r6, 64;
	mul.lo.u32 %r7, %r6, 4;
	ld.shared.u32 %r8, [%r7];
	st.global.u32 [%rd3], %r8;
	ret;`)
	sm, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{96, 1, 1}, Buffers: outBuf(96)})
	wantStatus(t, rep, StatusCompleted)
	if w := rep.Warps[2]; w.State != "exited" || w.PC != pcOfText(t, sm, "@%p1 exit") || w.Instructions == 0 {
		t.Errorf("warp 2 (exits early) reported %+v", w)
	}
	for i, v := range rep.Buffers["out"] {
		want := uint32(0)
		if i < 64 && i%2 == 0 {
			want = uint32((i+2)%64 + 1000)
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d", i, v, want)
		}
	}
	if rep.Stalls["barrier"] == 0 {
		t.Errorf("no barrier stall counted: %v", rep.Stalls)
	}
}

func TestDivergentBarrierInLoop(t *testing.T) {
	// The smem_reduce shape: threads that skip the body jump back to the
	// barrier (a lower PC) while the others still run the body; the
	// barrier must wait for every thread (per-thread arrival).
	src := kernelWith(".shared .align 4 .b8 s[256];", `
	mul.lo.u32 %r4, %r1, 4;
	st.shared.u32 [%r4], %r1;
	bar.sync 0;
	mov.u32 %r5, 64;
	bra.uni HEAD;
BAR:
	bar.sync 0;
	setp.lt.u32 %p1, %r5, 2;
	@%p1 bra DONE;
HEAD:
	shr.u32 %r5, %r5, 1;
	setp.ge.u32 %p2, %r1, %r5;
	@%p2 bra BAR;
	add.u32 %r6, %r1, %r5;
	mul.lo.u32 %r7, %r6, 4;
	ld.shared.u32 %r8, [%r7];
	ld.shared.u32 %r9, [%r4];
	add.u32 %r9, %r9, %r8;
	st.shared.u32 [%r4], %r9;
	bra.uni BAR;
DONE:
	ld.shared.u32 %r10, [0];
	st.global.u32 [%rd3], %r10;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	wantStatus(t, rep, StatusCompleted)
	for i, v := range rep.Buffers["out"] {
		if v != 63*64/2 {
			t.Fatalf("out[%d] = %d, want %d", i, v, 63*64/2)
		}
	}
}

func TestBrxIndexOutOfRange(t *testing.T) {
	src := kernel(`
	and.b32 %r3, %r2, 7;
	ts: .branchtargets T0, T1, T2, T3;
	brx.idx %r3, ts; // dispatch
T0:
	mov.u32 %r4, 10;
	bra.uni J;
T1:
	mov.u32 %r4, 11;
	bra.uni J;
T2:
	mov.u32 %r4, 12;
	bra.uni J;
T3:
	mov.u32 %r4, 13;
J:
	st.global.u32 [%rd3], %r4;
	ret;`)
	sm, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusFault || len(rep.Errors) != 1 {
		t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
	}
	e := rep.Errors[0]
	line := lineOfText(t, src, "// dispatch")
	if e.Kind != "brx_index_out_of_range" || e.PC != pcOfText(t, sm, "// dispatch") || e.Line != fmt.Sprintf("test.ptx:%d", line) || !strings.Contains(e.Source, "brx.idx") || !strings.Contains(e.Message, "index 4") {
		t.Errorf("error %+v (want line %d)", e, line)
	}
	for i, v := range rep.Buffers["out"] {
		if v != 0 {
			t.Errorf("out[%d] = %d: nothing after the faulting brx may run", i, v)
		}
	}
}

func TestBadAddressFault(t *testing.T) {
	src := kernel(`
	st.global.u32 [%rd3], %r2; // before
	setp.eq.u32 %p1, %r2, 5;
	mov.u64 %rd4, 8;
	selp.b64 %rd5, %rd4, %rd3, %p1;
	ld.global.u32 %r6, [%rd5+4]; // bad load
	add.u32 %r6, %r6, 1;
	st.global.u32 [%rd3], %r6; // after
	ret;`)
	sm, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	checkInvariants(t, sm, rep)
	if rep.Status != StatusFault || len(rep.Errors) != 1 {
		t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
	}
	e := rep.Errors[0]
	if e.Kind != "memory_fault" || e.PC != pcOfText(t, sm, "// bad load") || e.Line != fmt.Sprintf("test.ptx:%d", lineOfText(t, src, "// bad load")) {
		t.Errorf("error %+v", e)
	}
	if e.Address == nil || *e.Address != 12 || e.Lane == nil || *e.Lane != 5 {
		t.Errorf("address/lane of %+v", e)
	}
	// The faulting warp stopped precisely at the load: its stores before
	// it are visible, none after it.
	out := rep.Buffers["out"]
	for i := 0; i < 32; i++ {
		if out[i] != uint32(i) {
			t.Errorf("out[%d] = %d, want the value stored before the fault", i, out[i])
		}
	}
	var faulting *WarpReport
	for i := range rep.Warps {
		if rep.Warps[i].Warp == e.Warp {
			faulting = &rep.Warps[i]
		}
	}
	if faulting == nil || faulting.PC != e.PC {
		t.Errorf("faulting warp report %+v", faulting)
	}
}

func TestMiscFaults(t *testing.T) {
	cases := []struct {
		name, body, kind, msg string
	}{
		{"misaligned", `ld.global.u32 %r5, [%rd3+2];`, "memory_fault", "misaligned"},
		{"store to param", `st.param.u32 [out], %r2;`, "memory_fault", "read-only"},
		{"shared out of range", `st.shared.u32 [4096], %r2;`, "memory_fault", "shared"},
		{"local out of range", `st.local.u32 [4096], %r2;`, "memory_fault", "local"},
		{"beyond global", `mov.u64 %rd6, 0x7ffffff0; st.global.u32 [%rd6], %r2;`, "memory_fault", "outside"},
		{"bpt pause outside the handler", `BPT.PAUSE;`, "illegal_instruction", "outside the trap handler"},
		{"barrier id", `mov.u32 %r9, 17; bar.sync %r9;`, "barrier_error", "barrier id 17"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sm, rep := runPTX(t, smallConfig(), kernel(c.body+"\n\tret;"), Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
			checkInvariants(t, sm, rep)
			if rep.Status != StatusFault || len(rep.Errors) == 0 || rep.Errors[0].Kind != c.kind || !strings.Contains(rep.Errors[0].Message, c.msg) {
				t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
			}
		})
	}
}

func TestStackOverflow(t *testing.T) {
	src := `.func f(.reg .b32 x)
{
	.local .align 4 .b8 buf[64];
	.reg .b32 %t<4>;
	st.local.u32 [buf], x;
	add.u32 %t1, x, 1;
	call f, (%t1);
	ld.local.u32 %t2, [buf];
	ret;
}
` + kernel(`
	call f, (%r2);
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusFault || rep.Errors[0].Kind != "stack_overflow" {
		t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
	}
}

func TestUniformViolation(t *testing.T) {
	src := kernel(`
	setp.lt.u32 %p1, %r2, 10;
	mov.u32 %r4, 1;
	@%p1 bra.uni SKIP; // not uniform
	mov.u32 %r4, 2;
SKIP:
	st.global.u32 [%rd3], %r4;
	ret;`)
	sm, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	wantStatus(t, rep, StatusCompleted)
	if len(rep.Errors) != 1 || rep.Errors[0].Kind != "uniform_violation" || rep.Errors[0].PC != pcOfText(t, sm, "// not uniform") || rep.Errors[0].Warp != 0 {
		t.Fatalf("errors %+v", rep.Errors)
	}
	for l, v := range rep.Buffers["out"] {
		want := uint32(2)
		if l < 10 {
			want = 1
		}
		if v != want {
			t.Errorf("out[%d] = %d, want %d (divergent semantics)", l, v, want)
		}
	}
}

func TestDeadlock(t *testing.T) {
	// Half of the CTA waits at barrier 0, the other half at barrier 1:
	// both wait for every thread, neither can complete.
	src := kernel(`
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra LOW;
	bar.sync 1; // high half
	bra.uni END;
LOW:
	bar.sync 0; // low half
END:
	st.global.u32 [%rd3], %r1;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	wantStatus(t, rep, StatusDeadlock)
	if len(rep.Errors) != 1 || rep.Errors[0].Kind != "deadlock" {
		t.Fatalf("errors %+v", rep.Errors)
	}
	msg := rep.Errors[0].Message
	for _, want := range []string{"barrier", fmt.Sprintf("test.ptx:%d", lineOfText(t, src, "// low half")), fmt.Sprintf("test.ptx:%d", lineOfText(t, src, "// high half"))} {
		if !strings.Contains(msg, want) {
			t.Errorf("deadlock message %q lacks %q", msg, want)
		}
	}
	if len(rep.Warps) != 2 {
		t.Fatalf("warps %+v", rep.Warps)
	}
	for _, w := range rep.Warps {
		if w.State != "barrier" {
			t.Errorf("warp %+v", w)
		}
	}
	if rep.Cycles > 1000 {
		t.Errorf("deadlock found after %d cycles", rep.Cycles)
	}
	// The same shape where the other half exits instead completes: the
	// barrier waits only on exited threads.
	src2 := kernel(`
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra LOW;
	exit;
LOW:
	bar.sync 0;
	st.global.u32 [%rd3], %r1;
	ret;`)
	_, rep = runPTX(t, smallConfig(), src2, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	wantStatus(t, rep, StatusCompleted)
}

func TestCycleLimit(t *testing.T) {
	cfg := smallConfig()
	cfg.Run.MaxCycles = 500
	_, rep := runPTX(t, cfg, kernel(`
L:
	add.u32 %r2, %r2, 1;
	bra.uni L;`), Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	if rep.Status != StatusCycleLimit || rep.Cycles != 500 {
		t.Fatalf("status %s cycles %d", rep.Status, rep.Cycles)
	}
}
