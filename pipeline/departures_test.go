package pipeline

import "testing"

// Legal PTX that the front end refused (issue 16, item 7), run: every
// output word checked.
//   - cvt from a special register (seed 003: special registers "are
//     accessed through mov or cvt instructions"), to a wider and a
//     narrower register than the special register's own;
//   - mov.pred %p, -1 (clang-16's "true") and 0;
//   - WARP_SZ, PTX's predefined warp-size constant;
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
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(5 * 64)})
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
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
