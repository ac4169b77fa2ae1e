package pipeline

import (
	"strings"
	"testing"
)

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

// An indirect call that reaches a function outside its .calltargets
// list or call table, or of another type than its .callprototype, is
// undefined behaviour (seed 004: the call-target list names "the
// functions that may be called", the prototype gives their type); the
// SM reports it as a bad_call_target fault naming the function (issue
// 16, item 7).
func TestIndirectCallOutsideItsTargets(t *testing.T) {
	const other = `.func (.reg .u32 rv) other (.reg .u32 a) { mov.u32 rv, a; ret; }
.global .u64 shorttbl[2] = { foo, bar };
`
	for _, c := range []struct{ name, body string }{
		{"calltargets", `
	mov.u64 %rd7, baz;
	Ftgt: .calltargets foo, bar;
	call (%r7), %rd7, (%r6, 3), Ftgt;`},
		{"call table", `
	mov.u64 %rd7, baz;
	call (%r7), %rd7, (%r6, 3), shorttbl;`},
		{"prototype", `
	mov.u64 %rd7, other;
	proto: .callprototype (.reg .u32 _) _ (.reg .u32 _, .reg .u32 _);
	call (%r7), %rd7, (%r6, 3), proto;`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := callFuncs + other + kernel(`
	add.u32 %r6, %r2, 10;`+c.body+`
	st.global.u32 [%rd3], %r7;
	ret;`)
			_, rep := runPTX(t, smallConfig(), src, threadsLaunch(32))
			if rep.Status != StatusFault || len(rep.Errors) == 0 || rep.Errors[0].Kind != "bad_call_target" || !strings.Contains(rep.Errors[0].Message, "not among the call's targets") {
				t.Fatalf("status %s, errors %+v", rep.Status, rep.Errors)
			}
		})
	}
	// The same calls reaching a listed function (or one of the
	// prototype's type) run.
	src := callFuncs + other + kernel(`
	add.u32 %r6, %r2, 10;
	mov.u64 %rd7, bar;
	proto: .callprototype (.reg .u32 _) _ (.reg .u32 _, .reg .u32 _);
	call (%r7), %rd7, (%r6, 3), proto;
	st.global.u32 [%rd3], %r7;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, threadsLaunch(32))
	wantOut(t, rep, func(l int) uint32 { return uint32(l+10) * 3 })
}
