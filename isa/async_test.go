package isa_test

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// The asynchronous forms of issue 16 (try_wait with and without its
// suspendTimeHint, the mbarrier tx-count forms, cp.async.bulk) go through
// binary, disassembly and back to identical bytes, and the disassembly
// names each form.
func TestAsyncRoundTrip(t *testing.T) {
	src := kernelHead + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	.reg .pred %p<4>;
	.shared .align 16 .b8 sm[256];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, sm;
	mbarrier.init.shared::cta.b64 [bar], 1;
	mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;
	mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0, 1000;
	mbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd2, %r2;
	mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [bar], 32;
	mbarrier.complete_tx.shared::cta.b64 [bar], %r2;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 32;
	mbarrier.arrive_drop.expect_tx.shared::cta.b64 %rd2, [bar], 32;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sm], [%rd1+16], 32, [bar];
	cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [sm+64], [%r1], %r2, [bar];
	cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd1], [sm+32], 32, %rd3;
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 1;
	cp.async.bulk.wait_group.read 0;
	cp.async.bulk.prefetch.L2.global [%rd1], 64;
	ret;
}
`
	im, err := isa.AssembleSource("async.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkRoundTrip(t, "async.ptx", im)
	var b strings.Builder
	if err := isa.Disassemble(im, &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"mbarrier.try_wait.parity", "mbarrier.arrive.expect_tx", "mbarrier.arrive.complete_tx",
		"mbarrier.arrive_drop.expect_tx", "CPASYNC.BULK.SHARED.GLOBAL", "CPASYNC.BULK.SHARED.SHARED",
		"CPASYNC.BULK.GLOBAL.SHARED", "CPASYNC.BULK.COMMIT_GROUP", "CPASYNC.BULK.WAIT_GROUP 1",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("disassembly has no %q:\n%s", want, b.String())
		}
	}
}
