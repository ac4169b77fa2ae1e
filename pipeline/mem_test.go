package pipeline

import (
	"math"
	"testing"
)

func TestMemoryOps(t *testing.T) {
	src := `.visible .entry k(.param .u64 out, .param .u64 acc)
{
	.reg .b32 %r<40>;
	.reg .b64 %rd<24>;
	.reg .f32 %f<4>;
	.reg .pred %p<4>;
	.shared .align 16 .b8 sh[1024];
	.local .align 16 .b8 loc[32];
` + prologue + `
	ld.param.u64 %rd10, [acc];
	mul.lo.u32 %r3, %r1, 16;
	mul.wide.u32 %rd4, %r1, 64;
	add.s64 %rd5, %rd1, %rd4;            // out + 64*tid: 16 words per thread
	add.u32 %r4, %r1, 1;
	add.u32 %r5, %r1, 2;
	add.u32 %r6, %r1, 3;
	add.u32 %r7, %r1, 4;
	// st.v4 / ld.v4 through shared memory, addressed generically.
	mov.u64 %rd6, sh;
	cvta.shared.u64 %rd7, %rd6;
	cvt.u64.u32 %rd8, %r3;
	add.s64 %rd9, %rd7, %rd8;
	st.v4.u32 [%rd9], {%r4, %r5, %r6, %r7};
	mov.u32 %r21, sh;
	add.u32 %r22, %r21, %r3;
	ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [%r22];
	st.global.v4.u32 [%rd5], {%r8, %r9, %r10, %r11};
	// local memory through the generic window, and back with cvta.to.
	mov.u64 %rd11, loc;
	cvta.local.u64 %rd12, %rd11;
	cvt.u64.u32 %rd13, %r1;
	shl.b64 %rd18, %rd13, 32;
	or.b64 %rd13, %rd13, %rd18;
	st.u64 [%rd12+8], %rd13;
	cvta.to.local.u64 %rd14, %rd12;
	ld.local.v2.u64 {%rd15, %rd16}, [%rd14];
	st.global.v2.u64 [%rd5+16], {%rd15, %rd16};
	// Sign-extending 8-bit load into a 64-bit register.
	mov.u32 %r12, 0xf0;
	st.shared.u8 [%r22], %r12;
	ld.shared.s8 %rd17, [%r22];
	st.global.u64 [%rd5+32], %rd17;
	// Atomics on the shared accumulator buffer acc (all threads):
	// [0] add.f32 0.5, [1] exch, [2] cas 0->tid+1 (first wins), [3] min.s32,
	// [4] max.u32, [5] inc wrap 9, [6] dec wrap 9, [7] xor.
	mov.f32 %f1, 0f3F000000;
	atom.global.add.f32 %f2, [%rd10], %f1;
	atom.global.exch.b32 %r13, [%rd10+4], %r1;
	atom.global.cas.b32 %r14, [%rd10+8], 0, %r4;
	sub.s32 %r15, 5, %r1;
	atom.global.min.s32 %r16, [%rd10+12], %r15;
	atom.global.max.u32 %r17, [%rd10+16], %r15;
	atom.global.inc.u32 %r18, [%rd10+20], 9;
	atom.global.dec.u32 %r19, [%rd10+24], 9;
	atom.global.xor.b32 %r20, [%rd10+28], %r4;
	st.global.u32 [%rd5+40], %r18;
	ret;
}
`
	const n = 64
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{n, 1, 1}, Buffers: []Buffer{{Param: "out", Size: 64 * n}, {Param: "acc", Size: 32}}})
	if rep.Status != StatusCompleted || len(rep.Errors) != 0 {
		t.Fatalf("status %s %+v", rep.Status, rep.Errors)
	}
	out := rep.Buffers["out"]
	for tid := 0; tid < n; tid++ {
		w := out[16*tid:]
		u := uint32(tid)
		want := []uint32{u + 1, u + 2, u + 3, u + 4, 0, 0, u, u, 0xfffffff0, 0xffffffff, u % 10}
		got := []uint32{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10]}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("thread %d: words %#x, want %#x", tid, got, want)
			}
		}
	}
	acc := rep.Buffers["acc"]
	xor := uint32(0)
	for i := 1; i <= n; i++ {
		xor ^= uint32(i)
	}
	// Lanes are applied in order: the last exch is thread 63; cas wins for
	// thread 0; inc/dec wrap over 0..9 64 times.
	want := []uint32{math.Float32bits(32), 63, 1, 0xffffffc6 /* min.s32 of 5-tid: -58 */, 0xffffffff, 64 % 10, 0, xor}
	dec := uint32(0)
	for i := 0; i < n; i++ {
		if dec == 0 || dec > 9 {
			dec = 9
		} else {
			dec--
		}
	}
	want[6] = dec
	for i := range want {
		if acc[i] != want[i] {
			t.Errorf("acc[%d] = %#x, want %#x", i, acc[i], want[i])
		}
	}
}
