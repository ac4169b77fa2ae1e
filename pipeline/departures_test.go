package pipeline

import (
	"math"
	"testing"
)

// Legal PTX that the front end refused (issue 16, item 7), run: every
// output word checked.
//   - cvt from a special register (seed 003: special registers "are
//     accessed through mov or cvt instructions"), to a wider and a
//     narrower register than the special register's own;
//   - mov.pred %p, -1 (clang-16's "true") and 0;
//   - WARP_SZ, PTX's predefined warp-size constant (seed 003, %laneid:
//     "The lane identifier ranges from zero to `WARP_SZ-1`.");
//   - cvta.local.u64 %rd, arr: the generic address of a local variable
//     taken by name.
func TestLegalPTXOnceRefused(t *testing.T) {
	src := kernelWith("\t.local .align 4 .b8 arr[16];\n", `
	cvt.u64.u32 %rd4, %tid.x;
	cvt.s64.s32 %rd5, %laneid;
	cvt.u64.u16 %rd6, %ntid.x;
	cvt.u32.u64 %r3, %clock64;
	mov.pred %p1, -1;
	mov.pred %p2, 0;
	mov.u32 %r4, 0;
	@%p1 add.u32 %r4, %r4, 1;
	@%p2 add.u32 %r4, %r4, 2;
	mov.u32 %r5, WARP_SZ;
	cvta.local.u64 %rd7, arr;
	add.u32 %r6, %r1, 1000;
	st.u32 [%rd7+4], %r6;
	ld.local.u32 %r7, [arr+4];
	cvt.u32.u64 %r8, %rd4;
	cvt.u32.u64 %r9, %rd5;
	cvt.u32.u64 %r10, %rd6;
	shl.b32 %r8, %r8, 24;
	shl.b32 %r9, %r9, 16;
	or.b32 %r8, %r8, %r9;
	or.b32 %r8, %r8, %r10;
	setp.ne.u32 %p3, %r3, 0;
	selp.u32 %r11, 1, 0, %p3;
	st.global.u32 [%rd3], %r8;
	st.global.u32 [%rd3+256], %r4;
	st.global.u32 [%rd3+512], %r5;
	st.global.u32 [%rd3+768], %r7;
	st.global.u32 [%rd3+1024], %r11;
	ret;`)
	out := runOut(t, src, 64, 5*64)
	for tid := 0; tid < 64; tid++ {
		want := []uint32{uint32(tid)<<24 | uint32(tid%32)<<16 | 64, 1, 32, uint32(tid + 1000), 1}
		for k, w := range want {
			if got := out[k*64+tid]; got != w {
				t.Errorf("thread %d word %d: %#x, want %#x", tid, k, got, w)
			}
		}
	}
}

// A guarded brkpt, trap or BPT.TRAP with one lane's guard true records
// that lane in lanes, not the whole active group (issue 16, item 7; seed
// 000: "trap ... Abort execution", brkpt "Suspends execution" are
// executed by the threads whose guard is true). The whole group still
// goes to the saved PC when the warp resumes.
func TestGuardedTrapRecordsItsLanes(t *testing.T) {
	for _, c := range []struct{ inst, list, kind string }{
		{"brkpt", "breakpoints", "brkpt"},
		{"BPT.TRAP 1", "breakpoints", "bpt.trap"},
		{"BPT.TRAP 3", "traps", "bpt.trap"},
		{"trap", "traps", "trap"},
	} {
		t.Run(c.inst, func(t *testing.T) {
			src := trapModule("\tRTT;", `
	setp.eq.u32 %p1, %r2, 5;
	@%p1 `+c.inst+`;
	st.global.u32 [%rd3], %r1;
	ret;`)
			_, rep := runPTX(t, trapCfg(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
			recs := rep.Traps
			if c.list == "breakpoints" {
				recs = rep.Breakpoints
			}
			if len(recs) != 1 {
				t.Fatalf("%s: %d records in %s: %+v / %+v", c.inst, len(recs), c.list, rep.Traps, rep.Breakpoints)
			}
			if r := recs[0]; r.Lanes != 1<<5 || r.Kind != c.kind {
				t.Errorf("%s: record %+v, want lanes %#x (lane 5) kind %s", c.inst, r, 1<<5, c.kind)
			}
		})
	}
}

// Vector stores to a named address (issue 16, item 7): every element goes
// to the variable's base plus its offset. Seed 004: "Arguments may be
// registers, immediate constants, or variables in .param space. Arguments
// are pass-by-value." clang-16's PTX for a function
// returning a 4-float vector (st.param.v4 into [param0+0] and
// [func_retval0+0]), plus st.local.v4 [loc] and st.shared.v2.b32 [sm+8].
func TestVectorStoreToNamedAddress(t *testing.T) {
	src := `.visible .func  (.param .align 16 .b8 func_retval0[16]) mk(
	.param .align 16 .b8 mk_param_0[16]
)
{
	.reg .f32 	%f<9>;
	ld.param.v4.f32 	{%f1, %f2, %f3, %f4}, [mk_param_0];
	fma.rn.f32 	%f5, %f4, 0f40000000, 0f40400000;
	fma.rn.f32 	%f6, %f3, 0f40000000, 0f40000000;
	fma.rn.f32 	%f7, %f2, 0f40000000, 0f3F800000;
	fma.rn.f32 	%f8, %f1, 0f40000000, 0f00000000;
	st.param.v4.f32 	[func_retval0+0], {%f8, %f7, %f6, %f5};
	ret;
}
` + kernelWith("\t.local .align 16 .b8 loc[16];\n\t.shared .align 8 .b8 sm[16];\n\t.reg .f32 %f<16>;\n", `
	cvt.rn.f32.u32 %f1, %r1;
	add.f32 %f2, %f1, 0f3F800000;
	add.f32 %f3, %f1, 0f40000000;
	add.f32 %f4, %f1, 0f40400000;
	{
	.param .align 16 .b8 param0[16];
	st.param.v4.f32 	[param0+0], {%f1, %f2, %f3, %f4};
	.param .align 16 .b8 retval0[16];
	call.uni (retval0), mk, (param0);
	ld.param.v4.f32 	{%f5, %f6, %f7, %f8}, [retval0+0];
	}
	st.local.v4.f32 [loc], {%f5, %f6, %f7, %f8};
	ld.local.v4.f32 {%f9, %f10, %f11, %f12}, [loc];
	mov.b32 %r5, %f9;
	mov.b32 %r6, %f10;
	mov.b32 %r7, %f11;
	mov.b32 %r8, %f12;
	st.shared.v2.b32 [sm+8], {%r5, %r6};
	bar.sync 0;
	ld.shared.v2.b32 {%r11, %r12}, [sm+8];
	st.global.u32 [%rd3], %r7;
	st.global.u32 [%rd3+128], %r8;
	st.global.u32 [%rd3+256], %r11;
	st.global.u32 [%rd3+384], %r12;
	ret;`)
	out := runOut(t, src, 32, 4*32)
	f := func(v float32) uint32 { return math.Float32bits(v) }
	for tid := 0; tid < 32; tid++ {
		x := float32(tid)
		// mk: 2a + (0, 1, 2, 3) of a = (x, x+1, x+2, x+3); the third and
		// fourth elements come back through loc.
		if w2, w3 := f(2*(x+2)+2), f(2*(x+3)+3); out[tid] != w2 || out[32+tid] != w3 {
			t.Errorf("thread %d: the vector return gives %#x %#x, want %#x %#x", tid, out[tid], out[32+tid], w2, w3)
		}
	}
	// Every thread stored (2a+0, 2a'+1) of its own a at sm+8 in turn; the
	// last writer is unknown, but the two words are one thread's pair.
	for tid := 0; tid < 32; tid++ {
		a, b := math.Float32frombits(out[64+tid]), math.Float32frombits(out[96+tid])
		if b != a+3 || a != float32(int(a)/2*2) {
			t.Errorf("thread %d: sm+8 holds %v %v, not one thread's (2x, 2x+3)", tid, a, b)
		}
	}
}

// Shared-memory sizes that are not multiples of the allocation unit: 4
// bytes static and 124 dynamic. The dynamic segment starts 16-aligned, so
// the CTA holds 16 + 124 = 140 bytes, allocated as 256. Seed 003:
// %total_smem_size is "total size of shared memory allocated (statically
// and dynamically, excluding the shared memory reserved for the NVIDIA
// system software use) for the CTA", "returned in multiples of shared
// memory allocation unit size"; the reserved region follows it, and
// %aggr_smem_size covers both.
func TestSharedMemorySizeRegisters(t *testing.T) {
	src := kernelWith("\t.shared .align 4 .b8 s4[4];\n", `
	mov.u32 %r3, %total_smem_size;
	mov.u32 %r4, %aggr_smem_size;
	mov.u32 %r5, %dynamic_smem_size;
	mov.u32 %r6, %reserved_smem_offset_begin;
	mov.u32 %r7, %reserved_smem_offset_end;
	mov.u32 %r8, %reserved_smem_offset_cap;
	st.global.u32 [%rd1], %r3;
	st.global.u32 [%rd1+4], %r4;
	st.global.u32 [%rd1+8], %r5;
	st.global.u32 [%rd1+12], %r6;
	st.global.u32 [%rd1+16], %r7;
	st.global.u32 [%rd1+20], %r8;
	ret;`)
	cfg := smallConfig()
	cfg.SM.SmemAllocUnit = 128
	sm, rep := runPTX(t, cfg, src, Launch{Block: [3]uint32{32, 1, 1}, DynamicSmem: 124, Buffers: outBuf(6)})
	wantCompleted(t, rep)
	res := uint32(sm.Config().SM.ReservedSmemBytes)
	want := []uint32{256, 256 + res, 124, 256, 256 + res, res}
	names := []string{"%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size", "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap"}
	for i, w := range want {
		if got := rep.Buffers["out"][i]; got != w {
			t.Errorf("%s = %d, want %d", names[i], got, w)
		}
	}
}
