package pipeline

import "testing"

// Indirect calls through a call table (flist = the table) and through
// .calltargets, both divergent (each lane picks a target by lane % 3), with
// the .reg parameter form of seed 004's example.
const callFuncs = `
.func (.reg .u32 rv) foo (.reg .u32 a, .reg .u32 b) { add.u32 rv, a, b; ret; }
.func (.reg .u32 rv) bar (.reg .u32 a, .reg .u32 b) { mul.lo.u32 rv, a, b; ret; }
.func (.reg .u32 rv) baz (.reg .u32 a, .reg .u32 b) { sub.u32 rv, a, b; ret; }
.global .u64 jmptbl[3] = { foo, bar, baz };
`

func wantCall(l int) uint32 {
	a, b := uint32(l+10), uint32(3)
	switch l % 3 {
	case 0:
		return a + b
	case 1:
		return a * b
	}
	return a - b
}

func TestIndirectCallThroughTable(t *testing.T) {
	src := callFuncs + kernel(`
	rem.u32 %r5, %r2, 3;
	mul.wide.u32 %rd5, %r5, 8;
	mov.u64 %rd6, jmptbl;
	add.s64 %rd6, %rd6, %rd5;
	ld.global.u64 %rd7, [%rd6];
	add.u32 %r6, %r2, 10;
	call (%r7), %rd7, (%r6, 3), jmptbl;
	st.global.u32 [%rd3], %r7;
	ret;`)
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	rep, _ := sm.Run()
	if rep.Status != StatusCompleted {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
	for l, v := range rep.Buffers["out"] {
		if v != wantCall(l) {
			t.Errorf("out[%d] = %d, want %d", l, v, wantCall(l))
		}
	}
}

func TestIndirectCallThroughCallTargets(t *testing.T) {
	src := callFuncs + kernel(`
	rem.u32 %r5, %r2, 3;
	setp.eq.u32 %p1, %r5, 0;
	setp.eq.u32 %p2, %r5, 1;
	setp.eq.u32 %p3, %r5, 2;
	@%p1 mov.u64 %rd7, foo;
	@%p2 mov.u64 %rd7, bar;
	@%p3 mov.u64 %rd7, baz;
	add.u32 %r6, %r2, 10;
	Ftgt: .calltargets foo, bar, baz;
	call (%r7), %rd7, (%r6, 3), Ftgt;
	st.global.u32 [%rd3], %r7;
	ret;`)
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	rep, _ := sm.Run()
	if rep.Status != StatusCompleted {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
	for l, v := range rep.Buffers["out"] {
		if v != wantCall(l) {
			t.Errorf("out[%d] = %d, want %d", l, v, wantCall(l))
		}
	}
}

// An indirect call to an address that is not a function entry faults.
func TestIndirectCallBadTarget(t *testing.T) {
	src := callFuncs + kernel(`
	mov.u64 %rd7, 4096;
	call (%r7), %rd7, (%r6, 3), jmptbl;
	st.global.u32 [%rd3], %r7;
	ret;`)
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	rep, _ := sm.Run()
	if rep.Status != StatusFault || len(rep.Errors) == 0 {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
}
