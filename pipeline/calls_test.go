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

// runIndirectCall runs one warp whose lanes each pick a target
// (lane % 3: foo, bar, baz) into %rd7 with pick and call it through
// %rd7 with the prototype or call table targets (after the
// declarations decl), and checks every lane's result.
func runIndirectCall(t *testing.T, pick, decl, targets string) {
	t.Helper()
	src := callFuncs + kernel(`
	rem.u32 %r5, %r2, 3;`+pick+`
	add.u32 %r6, %r2, 10;`+decl+`
	call (%r7), %rd7, (%r6, 3), `+targets+`;
	st.global.u32 [%rd3], %r7;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, threadsLaunch(32))
	wantOut(t, rep, wantCall)
}

func TestIndirectCallThroughTable(t *testing.T) {
	runIndirectCall(t, `
	mul.wide.u32 %rd5, %r5, 8;
	mov.u64 %rd6, jmptbl;
	add.s64 %rd6, %rd6, %rd5;
	ld.global.u64 %rd7, [%rd6];`, "", "jmptbl")
}

func TestIndirectCallThroughCallTargets(t *testing.T) {
	runIndirectCall(t, `
	setp.eq.u32 %p1, %r5, 0;
	setp.eq.u32 %p2, %r5, 1;
	setp.eq.u32 %p3, %r5, 2;
	@%p1 mov.u64 %rd7, foo;
	@%p2 mov.u64 %rd7, bar;
	@%p3 mov.u64 %rd7, baz;`, `
	Ftgt: .calltargets foo, bar, baz;`, "Ftgt")
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

// A guarded call with a return value: the lanes whose guard is false do
// not call, and keep the register the call would have written (the
// return-value load carries the call's guard; both .reg and .param
// return forms).
func TestGuardedCallKeepsReturnRegister(t *testing.T) {
	for _, guard := range []string{"@%p1", "@!%p1"} {
		src := callFuncs + `
.func (.param .b32 rv) pfoo (.param .b32 a) { .reg .b32 %x; ld.param.b32 %x, [a]; add.u32 %x, %x, 7; st.param.b32 [rv], %x; ret; }
` + kernel(`
	and.b32 %r5, %r2, 1;
	setp.eq.u32 %p1, %r5, 1;
	mov.u32 %r7, 555;
	mov.u32 %r8, 777;
	`+guard+` call (%r7), foo, (%r2, 1000);
	`+guard+` call (%r8), pfoo, (%r2);
	shl.b32 %r8, %r8, 16;
	add.u32 %r7, %r7, %r8;
	st.global.u32 [%rd3], %r7;
	ret;`)
		sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
		rep, _ := sm.Run()
		if rep.Status != StatusCompleted {
			t.Fatalf("%s: status %s %+v", guard, rep.Status, rep.Errors)
		}
		for l, v := range rep.Buffers["out"] {
			calls := l%2 == 1
			if guard == "@!%p1" {
				calls = !calls
			}
			want := uint32(555 + 777<<16)
			if calls {
				want = uint32(l+1000) + uint32(l+7)<<16
			}
			if v != want {
				t.Errorf("%s lane %d: out = %#x, want %#x (calls: %v)", guard, l, v, want, calls)
			}
		}
	}
}
