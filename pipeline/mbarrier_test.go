package pipeline

import (
	"sort"
	"strings"
	"testing"
)

// mbarrier (PTX ISA 9.7.13.15) in a CTA of two warps: thread 0
// initializes a barrier for 64 arrivals; after bar.sync every thread
// arrives (the state's pending count is what was pending before its
// arrival: over the CTA, each of 64..1 once) and spins on try_wait.parity
// 0 until the phase completes; test_wait with the state is then true.
// A second barrier for 2 arrivals takes an arrive.noComplete and an
// arrive from thread 0 and completes; an arrive_drop lowers the expected
// count of the next phase.
func TestMbarrier(t *testing.T) {
	src := kernelWith(".shared .align 8 .b64 bar[2];", `
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra WAIT0;
	mbarrier.init.shared::cta.b64 [bar], 64;
	mbarrier.init.shared.b64 [bar+8], 2;
	mbarrier.arrive.noComplete.shared.b64 %rd5, [bar+8], 1;
	mbarrier.arrive_drop.shared.b64 %rd6, [bar+8];
	fence.mbarrier_init.release.cluster;
	fence.proxy.async.shared::cta;
	fence.acq_rel.gpu;
	mbarrier.test_wait.parity.shared.b64 %p2, [bar+8], 0;
	selp.u32 %r10, 1, 0, %p2;
	mbarrier.pending_count.b64 %r11, %rd6;
	ld.shared.u64 %rd7, [bar+8];
	cvt.u32.u64 %r12, %rd7;
	st.global.u32 [%rd3+768], %r10;
	st.global.u32 [%rd3+772], %r11;
	st.global.u32 [%rd3+776], %r12;
WAIT0:
	bar.sync 0;
	mbarrier.arrive.release.cta.shared::cta.b64 %rd4, [bar];
	mbarrier.pending_count.b64 %r3, %rd4;
SPIN:
	mbarrier.try_wait.parity.shared.b64 %p3, [bar], 0;
	@!%p3 bra SPIN;
	mbarrier.test_wait.shared.b64 %p4, [bar], %rd4;
	selp.u32 %r4, 1, 0, %p4;
	shr.u64 %rd8, %rd4, 63;
	cvt.u32.u64 %r5, %rd8;
	st.global.u32 [%rd3], %r3;
	st.global.u32 [%rd3+256], %r4;
	st.global.u32 [%rd3+512], %r5;
	ret;`)
	out := runOut(t, src, 64, 4*64)
	pend := append([]uint32(nil), out[:64]...)
	sort.Slice(pend, func(i, j int) bool { return pend[i] < pend[j] })
	for i, p := range pend {
		if p != uint32(i+1) {
			t.Fatalf("pending counts of the states %v, want each of 1..64 once", out[:64])
		}
	}
	for tid := 0; tid < 64; tid++ {
		if out[64+tid] != 1 || out[128+tid] != 0 {
			t.Errorf("thread %d: test_wait of its state %d (want 1), state phase %d (want 0)", tid, out[64+tid], out[128+tid])
		}
	}
	// The second barrier: noComplete 2 -> 1, arrive_drop 1 -> 0 completes
	// phase 0 (the test with parity 0 is true), the next phase expects 1.
	if got := out[192:195]; got[0] != 1 || got[1] != 1 || got[2] != 1|1<<20 {
		t.Errorf("second barrier: test %d, state pending %d, object low word %#x; want 1, 1, %#x", got[0], got[1], got[2], 1|1<<20)
	}
}

// mbarrier.inval (PTX ISA 9.7.13.15) invalidates the object at its
// address, after which the memory may be used for another purpose or
// initialized again.
// The model clears the object: a barrier invalidated with one of its two
// arrivals in reads as 0, the location then holds an ordinary store, and
// a new init makes it a barrier again whose one arrival completes phase 0.
func TestMbarrierInval(t *testing.T) {
	src := kernelWith(".shared .align 8 .b64 bar;", `
	mbarrier.init.shared.b64 [bar], 2;
	mbarrier.arrive.shared.b64 %rd4, [bar];
	mbarrier.inval.shared.b64 [bar];
	ld.shared.u64 %rd5, [bar];
	st.shared.u64 [bar], 0x123456789;
	ld.shared.u64 %rd6, [bar];
	mbarrier.init.shared.b64 [bar], 1;
	mbarrier.arrive.shared.b64 %rd7, [bar];
	mbarrier.test_wait.parity.shared.b64 %p1, [bar], 0;
	selp.u32 %r3, 1, 0, %p1;
	st.global.v2.u64 [%rd1], {%rd5, %rd6};
	st.global.u32 [%rd1+16], %r3;
	ret;`)
	out := runOut(t, src, 1, 5)
	if got := out[:5]; got[0] != 0 || got[1] != 0 || got[2] != 0x23456789 || got[3] != 1 || got[4] != 1 {
		t.Errorf("after inval %#x:%#x (want 0), reused %#x:%#x (want 0x1:0x23456789), test_wait after re-init %d (want 1)", got[1], got[0], got[3], got[2], got[4])
	}
}

// Undefined behaviour of mbarrier is reported: a .noComplete arrive that
// completes the phase, more arrivals than pending, an object outside
// shared memory, an arrive on an invalidated object.
func TestMbarrierErrors(t *testing.T) {
	for _, c := range []struct{ name, body, msg string }{
		{"noComplete completes", "mbarrier.init.shared.b64 [bar], 1;\n\tmbarrier.arrive.noComplete.shared.b64 %rd4, [bar], 1;", "completes the current phase"},
		{"too many arrivals", "mbarrier.init.shared.b64 [bar], 1;\n\tmbarrier.arrive.shared.b64 %rd4, [bar], 2;", "2 arrivals on a barrier with 1 pending"},
		{"global object", "mbarrier.arrive.b64 %rd4, [%rd3];", "not in shared memory"},
		{"arrive after inval", "mbarrier.init.shared.b64 [bar], 2;\n\tmbarrier.inval.shared.b64 [bar];\n\tmbarrier.arrive.shared.b64 %rd4, [bar];", "1 arrivals on a barrier with 0 pending"},
		{"tx-count overflow", "mbarrier.init.shared.b64 [bar], 1;\n\tmbarrier.expect_tx.shared.b64 [bar], 1048575;\n\tmbarrier.expect_tx.shared.b64 [bar], 1;", "tx-count 1048576 (after +1) is outside ±1048575"},
		{"tx-count underflow", "mbarrier.init.shared.b64 [bar], 1;\n\tmbarrier.complete_tx.shared.b64 [bar], 1048575;\n\tmbarrier.complete_tx.shared.b64 [bar], 1;", "tx-count -1048576 (after -1) is outside ±1048575"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := kernelWith(".shared .align 8 .b64 bar;", "\t"+c.body+"\n\tret;")
			_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{1, 1, 1}, Buffers: outBuf(4)})
			if len(rep.Errors) == 0 || rep.Errors[0].Kind != "mbarrier_error" || !strings.Contains(rep.Errors[0].Message, c.msg) {
				t.Fatalf("errors %+v, want an mbarrier_error saying %q", rep.Errors, c.msg)
			}
		})
	}
}

// A cp.async.bulk whose size is not a positive multiple of 16 (PTX ISA
// 9.7.9.25.4.1 requires one) faults at the copy, naming the size.
func TestCpAsyncBulkSize(t *testing.T) {
	src := kernelWith(".shared .align 16 .b8 sm[64];\n\t.shared .align 8 .b64 bar;", `
	mbarrier.init.shared.b64 [bar], 1;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%rd1], 24, [bar];
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{1, 1, 1}, Buffers: outBuf(16)})
	if len(rep.Errors) == 0 || rep.Errors[0].Kind != "misaligned" || !strings.Contains(rep.Errors[0].Message, "size 24 is not a positive multiple of 16") {
		t.Fatalf("errors %+v, want a misaligned fault for size 24", rep.Errors)
	}
}
