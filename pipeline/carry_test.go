package pipeline

import "testing"

// The carry flag CC.CF is per-thread state (PTX ISA 9.7.2: add.cc writes
// "the carry-out value into the condition code register", addc reads
// it): each lane keeps its own, a dependent addc waits for the add.cc
// that writes it as for a register result, and a trap handler runs with a
// carry flag of its own, the user's coming back after RTT with the rest
// of the user context (seed 002: the handler "will leave the PC pointing
// to the instruction immediately following the BPT.TRAP" and the thread
// carries on as before).
func TestCarryFlagPerThread(t *testing.T) {
	handler := `
	addc.u32 %h6, 0, 0;
	add.cc.u32 %h5, %h1, 0xffffffff;
	st.global.u32 [%hd3+512], %h6;
	RTT;`
	src := trapModule(handler, `
	sub.cc.u32 %r3, %r2, 16;
	addc.u32 %r4, 0, 0;
	sub.cc.u32 %r3, %r2, 16;
	BPT.TRAP 1;
	addc.u32 %r5, 0, 0;
	st.global.u32 [%rd3], %r4;
	st.global.u32 [%rd3+256], %r5;
	ret;`)
	run := newTrapRun(t, trapCfg(), src, 64)
	wantCompleted(t, run.run())
	out := run.rep.Buffers["out"]
	for tid := 0; tid < 64; tid++ {
		borrow := b2u32(tid%32 < 16) // lane - 16 borrows for lanes 0..15
		if out[tid] != borrow || out[64+tid] != borrow {
			t.Errorf("thread %d: carry %d, after the handler %d; want %d", tid, out[tid], out[64+tid], borrow)
		}
		if out[128+tid] != 0 {
			t.Errorf("thread %d: the handler's carry flag started at %d", tid, out[128+tid])
		}
	}
	// The first addc waits for the sub.cc's result like a register read.
	sub := run.log.at(pcOfText(t, run.sm, "sub.cc.u32 %r3"))[0]
	addc := run.log.at(pcOfText(t, run.sm, "addc.u32 %r4"))[0]
	if lat := uint64(smallConfig().Lat.ALU); addc.Cycle-sub.Cycle < lat {
		t.Errorf("addc issued %d cycles after sub.cc; the ALU latency is %d", addc.Cycle-sub.Cycle, lat)
	}
}
