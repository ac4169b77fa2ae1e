package pipeline

import (
	"math"
	"strings"
	"testing"
)

// %r+imm value operands (issue 16, item 5: "%r+imm value operands, where
// PTX allows them"; the zluda corpus's add.u32 %reg0, %reg1+1, %reg2+-1
// and setp.eq.and.u32 p, %reg1+1, %reg2+-1, 2) read the register plus
// the constant; a predicate immediate other than 0 is true.
func TestRegPlusImmOperands(t *testing.T) {
	src := kernel(`
	add.u32 %r3, %r1+5, %r2+-1;
	mul.wide.u32 %rd4, %r1+-3, 2;
	setp.eq.and.u32 %p1, %r1+1, %r2+1, 2;
	selp.u32 %r4, 1, 0, %p1;
	st.global.u32 [%rd3], %r3;
	st.global.u32 [%rd3+256], %r4;
	mov.b64 {%r5, %r6}, %rd4;
	st.global.u32 [%rd3+512], %r5;
	st.global.u32 [%rd3+768], %r6;
	ret;`)
	out := runOut(t, src, 64, 4*64)
	for tid := uint32(0); tid < 64; tid++ {
		lane := tid % 32
		if got, want := out[tid], tid+5+lane-1; got != want {
			t.Errorf("thread %d: %%r1+5 + %%r2+-1 = %d, want %d", tid, got, want)
		}
		if got, want := out[64+tid], b2u32(tid == lane); got != want {
			t.Errorf("thread %d: setp with c = 2: %d, want %d", tid, got, want)
		}
		// mul.wide.u32 of %r1+-3: the 32-bit sum wraps before widening.
		wide := uint64(tid-3) * 2
		if got := uint64(out[128+tid]) | uint64(out[192+tid])<<32; got != wide {
			t.Errorf("thread %d: mul.wide of %%r1+-3 = %#x, want %#x", tid, got, wide)
		}
	}
}

// .pred parameters and return values of a .func (issue 16, item 5): a
// predicate goes through the call's argument area as one byte.
func TestPredParams(t *testing.T) {
	src := `.func (.reg .pred %rp) f(.reg .pred %ap, .reg .b32 %x)
{
	.reg .pred %q;
	setp.gt.u32 %q, %x, 20;
	and.pred %rp, %ap, %q;
	ret;
}
` + kernel(`
	setp.eq.u32 %p1, %r2, 7;
	setp.lt.u32 %p2, %r1, 50;
	call.uni (%p3), f, (%p1, %r1);
	@%p2 bra DONE;
	setp.ge.u32 %p4, %r1, 50;
	call.uni (%p3), f, (%p4, %r1);
DONE:
	selp.u32 %r3, 1, 0, %p3;
	st.global.u32 [%rd3], %r3;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64)})
	wantCompleted(t, rep)
	for tid, got := range rep.Buffers["out"] {
		// Threads < 50: f(lane == 7, tid) = lane 7 and tid > 20 (thread
		// 39 only); threads >= 50: f(tid >= 50, tid) = true.
		want := b2u32(tid == 39 || tid >= 50)
		if got != want {
			t.Errorf("thread %d: %d, want %d", tid, got, want)
		}
	}
}

// ld/st .v8 of 32-bit elements and .v4 of 64-bit ones (two 16-byte
// halves), and mov.v2/.v4 between vector registers and {...} operands,
// a swap through the same register included (issue 16, item 5).
func TestWideVectorsAndVectorMov(t *testing.T) {
	src := kernelWith(".reg .v4 .b32 %v;\n\t.reg .v2 .b64 %w;", `
	mul.lo.u32 %r3, %r1, 32;
	cvt.u64.u32 %rd4, %r3;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.v8.b32 {%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11}, [%rd5];
	mov.v4.b32 %v, {%r4, %r5, %r6, %r7};
	mov.v4.b32 %v, {%v.w, %v.z, %v.y, %v.x};
	mov.v4.b32 {%r4, %r5, %r6, %r7}, %v;
	ld.global.v4.b64 {%rd6, %rd7, %rd8, %rd9}, [%rd5];
	mov.v2.b64 %w, {%rd9, %rd8};
	mov.v2.b64 {%rd8, %rd9}, %w;
	st.global.v8.b32 [%rd5+2048], {%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11};
	st.global.v4.b64 [%rd5+4096], {%rd6, %rd7, %rd8, %rd9};
	ret;`)
	const n = 64
	init := patternBytes(4*8*n, 4*8*n, 5, 1)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{n, 1, 1}, Buffers: []Buffer{{Param: "out", Size: 3 * 2048, Init: init}}})
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	in := func(i int) uint32 { return wordAt(init, i) }
	for tid := 0; tid < n; tid++ {
		b := 8 * tid
		// .v8: the first four reversed by the vector-register swap.
		want := []uint32{in(b + 3), in(b + 2), in(b + 1), in(b), in(b + 4), in(b + 5), in(b + 6), in(b + 7)}
		// .v4.b64: the last two 64-bit elements swapped.
		want64 := []uint32{in(b), in(b + 1), in(b + 2), in(b + 3), in(b + 6), in(b + 7), in(b + 4), in(b + 5)}
		for k := 0; k < 8; k++ {
			if got := out[512+b+k]; got != want[k] {
				t.Errorf("thread %d .v8 word %d: %#x, want %#x", tid, k, got, want[k])
			}
			if got := out[1024+b+k]; got != want64[k] {
				t.Errorf("thread %d .v4.b64 word %d: %#x, want %#x", tid, k, got, want64[k])
			}
		}
	}
}

// Vector .param parameters (issue 16, item 5): ".param .v4 .f32 a" is
// four f32 aligned to 16 bytes, passed and read with .v4 accesses; the
// function returns them reversed in a 16-byte .b8 array.
func TestVectorParams(t *testing.T) {
	src := `.func (.param .align 16 .b8 rv[16]) g(.param .v4 .f32 a)
{
	.reg .v4 .f32 %q;
	ld.param.v4.f32 {%q.x, %q.y, %q.z, %q.w}, [a];
	st.param.v4.f32 [rv], {%q.w, %q.z, %q.y, %q.x};
	ret;
}
` + kernel(`
	cvt.rn.f32.u32 %f1, %r1;
	add.f32 %f2, %f1, 0f3F000000;
	add.f32 %f3, %f1, 0f40000000;
	add.f32 %f4, %f1, 0f41000000;
	{
	.param .v4 .f32 arg;
	.param .align 16 .b8 ret[16];
	st.param.v4.f32 [arg], {%f1, %f2, %f3, %f4};
	call.uni (ret), g, (arg);
	ld.param.v4.f32 {%f5, %f6, %f7, %f8}, [ret];
	}
	st.global.f32 [%rd3], %f5;
	st.global.f32 [%rd3+256], %f6;
	st.global.f32 [%rd3+512], %f7;
	st.global.f32 [%rd3+768], %f8;
	ret;`)
	src = strings.Replace(src, ".reg .pred %p<8>;", ".reg .pred %p<8>;\n\t.reg .f32 %f<10>;", 1)
	out := runOut(t, src, 64, 4*64)
	for tid := 0; tid < 64; tid++ {
		x := float32(tid)
		want := []float32{x + 8, x + 2, x + 0.5, x}
		for k, w := range want {
			if got := math.Float32frombits(out[64*k+tid]); got != w {
				t.Errorf("thread %d element %d: %v, want %v", tid, k, got, w)
			}
		}
	}
}

// A generic ld/st of a .local variable, or of dynamic shared memory, by
// name (issue 16, item 5: "generic access to a .local variable by name")
// accesses that variable.
func TestGenericAccessByName(t *testing.T) {
	src := kernelWith(".local .align 4 .b8 arr[16];\n\t.extern .shared .align 4 .b8 dyn[];", `
	add.u32 %r3, %r1, 100;
	st.u32 [arr+4], %r3;
	ld.u32 %r4, [arr+4];
	ld.local.u32 %r5, [arr+4];
	shl.b32 %r6, %r1, 2;
	mov.u32 %r7, dyn;
	add.u32 %r7, %r7, %r6;
	st.shared.u32 [%r7], %r1;
	bar.sync 0;
	ld.u32 %r8, [dyn+8];
	add.u32 %r4, %r4, %r5;
	add.u32 %r4, %r4, %r8;
	st.global.u32 [%rd3], %r4;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, DynamicSmem: 128, Buffers: outBuf(32)})
	wantOut(t, rep, func(i int) uint32 { return 2*uint32(i+100) + 2 })
}

// set, slct and cnot (PTX ISA 9.7.5.1, 9.7.5.4, 9.7.8.5), and the hint
// instructions the model has nothing to do for (prefetch, prefetchu,
// discard, applypriority, griddepcontrol, createpolicy), run; every word
// is checked against the ISA's definitions.
func TestSetSlctCnotAndHints(t *testing.T) {
	src := kernel(`
	sub.s32 %r3, %r2, 16;
	cvt.rn.f32.s32 %f1, %r3;
	set.lt.u32.s32 %r4, %r3, 5;
	set.ge.and.f32.f32 %r5, %f1, 0f00000000, %p0;
	set.ne.s32.u32 %r6, %r2, 3;
	slct.u32.s32 %r7, 111, 222, %r3;
	slct.ftz.b32.f32 %r8, 333, 444, %f1;
	cnot.b32 %r9, %r2;
	prefetch.global.L2 [%rd3];
	prefetchu.L1 [%rd3];
	applypriority.global.L2::evict_normal [%rd1], 128;
	discard.global.L2 [%rd1], 128;
	griddepcontrol.wait;
	griddepcontrol.launch_dependents;
	createpolicy.fractional.L2::evict_last.b64 %rd5, 1.0;
	cvt.u32.u64 %r10, %rd5;
	st.global.u32 [%rd3], %r4;
	st.global.u32 [%rd3+128], %r5;
	st.global.u32 [%rd3+256], %r6;
	st.global.u32 [%rd3+384], %r7;
	st.global.u32 [%rd3+512], %r8;
	st.global.u32 [%rd3+640], %r9;
	st.global.u32 [%rd3+768], %r10;
	ret;`)
	src = strings.Replace(src, "add.s64 %rd3, %rd1, %rd2;", "add.s64 %rd3, %rd1, %rd2;\n\tsetp.eq.u32 %p0, %r1, %r1;\n\t.reg .f32 %f<4>;", 1)
	out := runOut(t, src, 32, 7*32)
	for l := 0; l < 32; l++ {
		x := int32(l - 16)
		sel := func(c bool, a, b uint32) uint32 {
			if c {
				return a
			}
			return b
		}
		want := []uint32{
			sel(x < 5, 0xffffffff, 0), sel(x >= 0, math.Float32bits(1), 0), sel(l != 3, 0xffffffff, 0),
			sel(x >= 0, 111, 222), sel(x >= 0, 333, 444), sel(l == 0, 1, 0), 0,
		}
		for k, w := range want {
			if got := out[32*k+l]; got != w {
				t.Errorf("lane %d word %d: %#x, want %#x", l, k, got, w)
			}
		}
	}
}

// isspacep (PTX ISA 9.7.9.20) of generic addresses of a shared variable,
// a local variable and a global buffer: bits global, shared, local,
// const, param per address.
func TestIsspacep(t *testing.T) {
	src := kernelWith(".shared .align 4 .b8 sh[16];\n\t.local .align 4 .b8 lo[16];", `
	cvta.shared.u64 %rd4, sh;
	cvta.local.u64 %rd5, lo;
	mov.u64 %rd6, %rd3;
	mov.u32 %r10, 0;
	isspacep.global %p1, %rd4;
	isspacep.shared %p2, %rd4;
	isspacep.local %p3, %rd4;
	isspacep.const %p4, %rd4;
	isspacep.param %p5, %rd4;
	selp.u32 %r3, 1, 0, %p1;
	selp.u32 %r4, 2, 0, %p2;
	selp.u32 %r5, 4, 0, %p3;
	selp.u32 %r6, 8, 0, %p4;
	selp.u32 %r7, 16, 0, %p5;
	or.b32 %r3, %r3, %r4;
	or.b32 %r3, %r3, %r5;
	or.b32 %r3, %r3, %r6;
	or.b32 %r3, %r3, %r7;
	isspacep.global %p1, %rd5;
	isspacep.shared::cta %p2, %rd5;
	isspacep.local %p3, %rd5;
	selp.u32 %r4, 1, 0, %p1;
	selp.u32 %r5, 2, 0, %p2;
	selp.u32 %r6, 4, 0, %p3;
	or.b32 %r4, %r4, %r5;
	or.b32 %r4, %r4, %r6;
	isspacep.global %p1, %rd6;
	isspacep.shared %p2, %rd6;
	isspacep.local %p3, %rd6;
	selp.u32 %r5, 1, 0, %p1;
	selp.u32 %r6, 2, 0, %p2;
	selp.u32 %r7, 4, 0, %p3;
	or.b32 %r5, %r5, %r6;
	or.b32 %r5, %r5, %r7;
	st.global.u32 [%rd3], %r3;
	st.global.u32 [%rd3+128], %r4;
	st.global.u32 [%rd3+256], %r5;
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(3 * 32)})
	wantOut(t, rep, func(i int) uint32 { return []uint32{2, 4, 1}[i/32] })
}
