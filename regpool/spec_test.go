package regpool

import (
	"fmt"
	"testing"
)

// One test per sentence of the setmaxnreg description. Seed 000
// (000_c17346db4d6b7e90.txt, section 9.7.19.5) and seed 001
// (001_782cb2a9dd03d179.txt) carry the same sentences; each test quotes
// the sentence it checks. The common setting: CTA slot 0, 256 threads (8
// warps, warpgroups 0 and 1), launched with a valid maxnreg of 136.

const pcA, pcB = 0x100, 0x200

func launched(t *testing.T, nreg int, valid bool) *harness {
	t.Helper()
	h := newHarness(t, 256, nreg, valid)
	h.wantNoErr(h.step(launchEv(0)))
	h.wantNReg(0, rep(8, nreg)...)
	if st := h.u.CTAStats(0); !st.Valid || st.Free != 0 || st.Alloc != uint32(8*32*nreg) {
		t.Fatalf("after launch %+v", st)
	}
	return h
}

// wantUndefinedCount steps warpgroup wg of CTA 0 (launched at 136) into a
// setmaxnreg (.inc if inc) to n that is undefined: every warp of the
// warpgroup reports kind, the warpgroup completes without a change (136
// to 136) and the pool stays empty.
func wantUndefinedCount(t *testing.T, wg int, inc bool, n int, kind string) {
	t.Helper()
	h := launched(t, 136, true)
	o := h.step(group(0, wg, pcA, inc, n)...)
	var want []string
	for w := 4 * wg; w < 4*wg+4; w++ {
		want = append(want, fmt.Sprintf("0.%d:%s", w, kind))
	}
	h.wantUB(o, want...)
	h.wantRel(o, 3, 0, 0x0f<<(4*wg), 136, 136)
	if h.u.CTAStats(0).Free != 0 {
		t.Fatal("pool changed")
	}
}

// Seed 000 title: "Hint to change the number of registers owned by the
// warp." The number of registers a warp owns changes, and only that warp's
// (its warpgroup's).
func TestSentenceTitleHint(t *testing.T) {
	h := launched(t, 136, true)
	h.step(group(0, 1, pcA, false, 64)...)
	h.wantNReg(0, cat(rep(4, 136), rep(4, 64))...)
}

// "setmaxnreg provides a hint to the system to update the maximum number of
// per-thread registers owned by the executing warp to the value specified
// by the imm-reg-count operand."
func TestSentenceUpdateToImmRegCount(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(group(0, 0, pcA, false, 64)...)
	h.wantNoErr(o)
	h.wantUB(o)
	h.wantRel(o, 3, 0, 0x0f, 136, 64) // completed by the last arrival (port 3)
	h.wantNReg(0, cat(rep(4, 64), rep(4, 136))...)
}

// "Qualifier .dec is used to release extra registers such that the
// absolute per-thread maximum register count is reduced from its current
// value to imm-reg-count."
func TestSentenceDecReleases(t *testing.T) {
	h := launched(t, 136, true)
	h.step(group(0, 1, pcA, false, 40)...)
	h.wantNReg(0, cat(rep(4, 136), rep(4, 40))...)
	if st := h.u.CTAStats(0); st.Free != 4*(136-40)*32 || st.Used != 0 {
		t.Fatalf("pool %+v", st)
	}
}

// "Qualifier .inc is used to request additional registers such that the
// absolute per-thread maximum register count is increased from its
// current value to imm-reg-count."
func TestSentenceIncRequests(t *testing.T) {
	h := launched(t, 136, true)
	h.step(group(0, 1, pcA, false, 40)...)
	h.step(syncEv(0, 0xff))
	o := h.step(group(0, 0, pcA, true, 232)...)
	h.wantRel(o, h.u.p.RelGrant(), 0, 0x0f, 136, 232)
	h.wantNReg(0, cat(rep(4, 232), rep(4, 40))...)
	if st := h.u.CTAStats(0); st.Free != 0 || st.Used != 4*96*32 || st.HighWater != 4*96*32 {
		t.Fatalf("pool %+v", st)
	}
}

// "A pool of available registers is maintained per-CTA." Registers CTA 0
// releases are not available to CTA 1.
func TestSentencePoolPerCTA(t *testing.T) {
	h := newHarness(t, 256, 64, true)
	h.step(launchEv(0), launchEv(1))
	h.step(group(0, 0, pcA, false, 24)...) // CTA 0: 4*40*32 = 5120 free
	o := h.step(group(1, 0, pcA, true, 96)...)
	h.wantNoRel(o) // CTA 1 needs 4*32*32 = 4096 from its own empty pool
	o = h.steps(5)
	h.wantNoRel(o)
	if !o.IncBlocked || o.IncUnsat {
		t.Fatalf("blocked %v unsatisfiable %v", o.IncBlocked, o.IncUnsat)
	}
	if h.u.CTAStats(0).Free != 5120 || h.u.CTAStats(1).Free != 0 {
		t.Fatalf("pools %+v %+v", h.u.CTAStats(0), h.u.CTAStats(1))
	}
	h.step(group(1, 1, pcA, false, 32)...) // CTA 1's own release
	o = h.step()
	h.wantRel(o, h.u.p.RelGrant(), 1, 0x0f, 64, 96)
	if h.u.CTAStats(0).Free != 5120 || h.u.CTAStats(1).Free != 0 {
		t.Fatalf("pools %+v %+v", h.u.CTAStats(0), h.u.CTAStats(1))
	}
}

// "Register adjustments requested by the setmaxnreg instructions are
// handled by supplying extra registers from this pool to the requesting
// warp or by releasing extra registers from the requesting warp to this
// pool, depending upon the value of the .action qualifier." The statistics
// read port shows the pool after each action.
func TestSentenceAdjustThroughPool(t *testing.T) {
	h := launched(t, 136, true)
	stat := func() Outputs {
		in := h.inputs()
		in.StatCTA, in.StatWarp = 0, 5
		o := h.u.Eval(in)
		h.u.Tick()
		h.cyc++
		return o
	}
	h.step(group(0, 1, pcA, false, 72)...) // .dec: release 4*64*32
	if o := stat(); !o.StatValid || o.StatAlloc != 8*136*32 || o.StatFree != 8192 || o.StatNReg != 72 || o.StatUsed != 0 {
		t.Fatalf("after .dec: %+v", o)
	}
	h.step(syncEv(0, 0xff))
	h.step(group(0, 0, pcA, true, 200)...) // .inc: take 4*64*32
	if o := stat(); o.StatFree != 0 || o.StatUsed != 8192 || o.StatHighWater != 8192 {
		t.Fatalf("after .inc: %+v", o)
	}
}

// "The setmaxnreg.inc instruction blocks the execution until enough
// registers are available in the CTA's register pool." A first release
// too small keeps the .inc blocked; the second one lets it proceed.
func TestSentenceIncBlocksUntilEnough(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(group(0, 0, pcA, true, 200)...) // needs 4*64*32 = 8192
	h.wantNoRel(o)
	if !o.IncBlocked || o.IncUnsat {
		t.Fatalf("blocked %v unsatisfiable %v", o.IncBlocked, o.IncUnsat)
	}
	h.wantNoRel(h.steps(3))
	h.step(group(0, 1, pcA, false, 104)...) // 4*32*32 = 4096: not enough
	h.wantNoRel(h.steps(3))
	h.step(syncEv(0, 0xf0))
	h.step(group(0, 1, pcB, false, 72)...) // 4096 more: enough
	o = h.step()
	h.wantRel(o, h.u.p.RelGrant(), 0, 0x0f, 136, 200)
	if o.IncBlocked {
		t.Fatal("still blocked")
	}
}

// "After the instruction setmaxnreg.inc obtains new registers from the CTA
// pool, the initial contents of the new registers are undefined." The
// grant reports the old and new counts: registers [old, new) are new.
func TestSentenceNewRegistersUndefined(t *testing.T) {
	h := launched(t, 136, true)
	h.step(group(0, 1, pcA, false, 40)...)
	h.step(syncEv(0, 0xff))
	o := h.step(group(0, 0, pcA, true, 232)...)
	g := h.u.p.RelGrant()
	if !o.RelValid[g] || o.RelOld[g] != 136 || o.RelNew[g] != 232 || o.RelWarps[g] != 0x0f {
		t.Fatalf("grant %v %d->%d warps %#x", o.RelValid[g], o.RelOld[g], o.RelNew[g], o.RelWarps[g])
	}
}

// "The new registers must be initialized before they are used." The unit
// reports each warp's new range exactly once, in the cycle the warp
// resumes, so the pipeline marks [old, new) undefined before the warp's
// next instruction; a .dec and a no-effect completion report no new range.
func TestSentenceNewRegistersMustBeInitialized(t *testing.T) {
	h := launched(t, 136, true)
	undefined := map[int][2]int{} // warp -> [lo, hi)
	note := func(o Outputs) {
		for _, i := range rels(o) {
			for w := 0; w < 32; w++ {
				if o.RelWarps[i]&(1<<uint(w)) == 0 {
					continue
				}
				if _, dup := undefined[w]; dup && o.RelNew[i] > o.RelOld[i] {
					t.Fatalf("warp %d: new range reported twice", w)
				}
				if o.RelNew[i] > o.RelOld[i] {
					undefined[w] = [2]int{int(o.RelOld[i]), int(o.RelNew[i])}
				}
			}
		}
	}
	note(h.step(group(0, 0, pcA, true, 200)...))
	note(h.step(group(0, 1, pcA, false, 72)...))
	for i := 0; i < 4; i++ {
		note(h.step())
	}
	for w := 0; w < 8; w++ {
		r, ok := undefined[w]
		if want := w < 4; ok != want || (ok && r != [2]int{136, 200}) {
			t.Fatalf("warp %d: undefined %v %v", w, r, ok)
		}
	}
}

// "The same setmaxnreg instruction must be executed by all warps in a
// warpgroup." Nothing happens until the last warp of the warpgroup
// arrives, in whatever cycles they arrive.
func TestSentenceSameInstructionAllWarps(t *testing.T) {
	h := launched(t, 136, true)
	for w := 4; w < 7; w++ {
		o := h.step(arrive(0, w, pcA, false, 64))
		h.wantNoRel(o)
		h.wantUB(o)
		h.step()
	}
	h.wantNReg(0, rep(8, 136)...)
	o := h.step(arrive(0, 7, pcA, false, 64))
	h.wantRel(o, 0, 0, 0xf0, 136, 64)
}

// "After executing a setmaxnreg instruction, all warps in the warpgroup
// must synchronize explicitly before executing subsequent setmaxnreg
// instructions." A barrier release covering only part of the warpgroup is
// not a synchronization of the warpgroup; one covering all of it is.
func TestSentenceSyncBeforeNext(t *testing.T) {
	h := launched(t, 136, true)
	h.step(group(0, 0, pcA, false, 96)...)
	o := h.step(group(0, 0, pcB, false, 88)...) // no barrier in between
	h.wantUB(o, "0.0:NO_SYNC_BETWEEN", "0.1:NO_SYNC_BETWEEN", "0.2:NO_SYNC_BETWEEN", "0.3:NO_SYNC_BETWEEN")
	h.wantRel(o, 3, 0, 0x0f, 96, 88) // reported; the instruction still acts
	h.step(syncEv(0, 0x03))          // covers warps 0 and 1 only
	o = h.step(group(0, 0, pcA, false, 80)...)
	h.wantUB(o, "0.0:NO_SYNC_BETWEEN", "0.1:NO_SYNC_BETWEEN", "0.2:NO_SYNC_BETWEEN", "0.3:NO_SYNC_BETWEEN")
	h.step(syncEv(0, 0x0f)) // the whole warpgroup
	o = h.step(group(0, 0, pcB, false, 72)...)
	h.wantUB(o)
	h.wantRel(o, 3, 0, 0x0f, 80, 72)
	// Warpgroup 1 never executed setmaxnreg: no synchronization needed.
	o = h.step(group(0, 1, pcA, false, 72)...)
	h.wantUB(o)
}

// "If a setmaxnreg instruction is not executed by all warps in the
// warpgroup, then the behavior is undefined." A warp exiting while the
// others wait is reported at its exit and releases the waiting warps; a
// warp that exited before makes every later arrival of its warpgroup
// undefined.
func TestSentenceNotAllWarpsUndefined(t *testing.T) {
	h := launched(t, 136, true)
	h.step(arrive(0, 0, pcA, false, 64), arrive(0, 1, pcA, false, 64))
	o := h.step(exitEv(0, 3))
	x := h.u.p.RelExit(0)
	h.wantUB(o, "0.3:NOT_ALL_WARPS")
	if !o.UBValid[x] {
		t.Fatalf("exit UB not on the exit port's entry %d", x)
	}
	h.wantRel(o, x, 0, 0x03, 136, 136)
	o = h.step(arrive(0, 2, pcA, false, 64))
	h.wantUB(o, "0.2:NOT_ALL_WARPS")
	h.wantRel(o, 0, 0, 0x04, 136, 136)
	h.wantNReg(0, rep(8, 136)...)
	h.wantNoErr(o)
}

// "Operand imm-reg-count is an integer constant." The count arrives on
// arrive_count_i with the instruction and is used as is; it is part of
// what makes two arrivals "the same setmaxnreg".
func TestSentenceImmRegCountConstant(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(arrive(0, 0, pcA, false, 64), arrive(0, 1, pcA, false, 64), arrive(0, 2, pcA, false, 64), arrive(0, 3, pcA, false, 56))
	h.wantUB(o, "0.3:NOT_ALL_WARPS")
	h.wantRel(o, 3, 0, 0x0f, 136, 136)
	h.step(group(0, 0, pcA, false, 48)...)
	h.wantNReg(0, 48, 48, 48, 48)
}

// "The value of imm-reg-count must be in the range 24 to 256 (both
// inclusive) and must be a multiple of 8." The pipeline faults such an
// instruction (illegal_instruction); if one reaches the unit anyway it is a
// protocol error and is ignored. 24 and 256 are accepted.
func TestSentenceCountRange(t *testing.T) {
	h := launched(t, 136, true)
	for _, n := range []int{0, 16, 20, 100, 257, 264} {
		o := h.step(arrive(0, 0, pcA, false, n))
		if !o.ErrValid || o.ErrCode != ErrBadCount {
			t.Fatalf("count %d: err %v %s", n, o.ErrValid, o.ErrCode)
		}
		h.wantNoRel(o)
	}
	if q := h.u.Q(); q.Wait[0] != 0 {
		t.Fatalf("a bad count left warp waiting %#x", q.Wait[0])
	}
	o := h.step(group(0, 0, pcA, false, 24)...)
	h.wantNoErr(o)
	h.wantRel(o, 3, 0, 0x0f, 136, 24)
	h.step(syncEv(0, 0xff))
	o = h.step(group(0, 0, pcA, true, 256)...)
	h.wantNoErr(o)
	h.wantUB(o)
}

// "Changes to the register file of the warp always happen at the tail-end
// of the register file." The release records carry only the old and new
// counts: a warp keeps registers [0, min(old, new)); .dec removes [new,
// old), .inc adds [old, new).
func TestSentenceTailEnd(t *testing.T) {
	h := launched(t, 136, true)
	// A model register file per warp: value r at register r.
	rf := make([][]int, 8)
	for w := range rf {
		for r := 0; r < 136; r++ {
			rf[w] = append(rf[w], r)
		}
	}
	apply := func(o Outputs) {
		for _, i := range rels(o) {
			for w := 0; w < 8; w++ {
				if o.RelWarps[i]&(1<<uint(w)) == 0 {
					continue
				}
				if len(rf[w]) != int(o.RelOld[i]) {
					t.Fatalf("warp %d owns %d registers, record says %d", w, len(rf[w]), o.RelOld[i])
				}
				n := int(o.RelNew[i])
				if n < len(rf[w]) {
					rf[w] = rf[w][:n]
				}
				for len(rf[w]) < n {
					rf[w] = append(rf[w], -1) // undefined
				}
			}
		}
	}
	apply(h.step(group(0, 1, pcA, false, 40)...))
	h.step(syncEv(0, 0xff))
	apply(h.step(group(0, 0, pcA, true, 232)...))
	for w := 0; w < 8; w++ {
		keep := min(len(rf[w]), 136)
		for r := 0; r < keep; r++ {
			if r < 40 || w < 4 {
				if rf[w][r] != r {
					t.Fatalf("warp %d register %d changed", w, r)
				}
			}
		}
	}
	if len(rf[0]) != 232 || rf[0][136] != -1 || len(rf[4]) != 40 {
		t.Fatalf("sizes %d %d", len(rf[0]), len(rf[4]))
	}
}

// "The setmaxnreg instruction requires that the kernel has been launched
// with a valid value of maximum number of per-thread registers specified
// via the appropriate compilation via the appropriate compile-time option
// or the appropriate performance tuning directive. Otherwise, the
// setmaxnreg instruction may have no effect." Without a valid maxnreg every
// setmaxnreg completes with rel_noeffect_o and changes nothing; an .inc
// does not block. Its undefined behaviours are still reported.
func TestSentenceValidMaxnregRequired(t *testing.T) {
	h := launched(t, 136, false)
	o := h.step(group(0, 1, pcA, false, 40)...)
	h.wantRel(o, 3, 0, 0xf0, 136, 136)
	if !o.RelNoEffect[3] {
		t.Fatal("no-effect warning missing")
	}
	o = h.step(group(0, 0, pcA, true, 232)...)
	h.wantRel(o, 3, 0, 0x0f, 136, 136)
	if !o.RelNoEffect[3] || o.IncBlocked {
		t.Fatalf("noeffect %v blocked %v", o.RelNoEffect[3], o.IncBlocked)
	}
	h.wantNReg(0, rep(8, 136)...)
	if st := h.u.CTAStats(0); st.Free != 0 || st.Effect {
		t.Fatalf("pool %+v", st)
	}
	h.step(syncEv(0, 0xff))
	o = h.step(group(0, 1, pcB, false, 200)...)
	h.wantUB(o, "0.4:DEC_ABOVE", "0.5:DEC_ABOVE", "0.6:DEC_ABOVE", "0.7:DEC_ABOVE")
}

// "When qualifier .dec is specified, the maximum number of per-thread
// registers owned by the warp prior to the execution of setmaxnreg
// instruction should be greater than or equal to the imm-reg-count." Equal
// is allowed (and changes nothing).
func TestSentenceDecPrecondition(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(group(0, 0, pcA, false, 136)...)
	h.wantUB(o)
	h.wantRel(o, 3, 0, 0x0f, 136, 136)
	h.step(syncEv(0, 0x0f))
	o = h.step(group(0, 0, pcA, false, 128)...)
	h.wantUB(o)
	h.wantRel(o, 3, 0, 0x0f, 136, 128)
}

// ".dec ... Otherwise, the behaviour is undefined." Reported as DEC_ABOVE
// for each warp; the warpgroup completes without a change.
func TestSentenceDecAboveUndefined(t *testing.T) {
	wantUndefinedCount(t, 0, false, 144, "DEC_ABOVE")
}

// "When qualifier .inc is specified, the maximum number of per-thread
// registers owned by the warp prior to the execution of setmaxnreg
// instruction should be less than or equal to the imm-reg-count." Equal is
// allowed and needs nothing from the pool.
func TestSentenceIncPrecondition(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(group(0, 0, pcA, true, 136)...)
	h.wantUB(o)
	h.wantRel(o, 3, 0, 0x0f, 136, 136)
	if o.IncBlocked {
		t.Fatal("blocked on an empty request")
	}
}

// ".inc ... Otherwise, the behaviour is undefined." Reported as INC_BELOW
// for each warp; nothing is released to the pool.
func TestSentenceIncBelowUndefined(t *testing.T) {
	wantUndefinedCount(t, 1, true, 64, "INC_BELOW")
}

// "The mandatory .sync qualifier indicates that setmaxnreg instruction
// causes the executing thread to wait until all threads in the warp
// execute the same setmaxnreg instruction before resuming execution." A
// warp whose setmaxnreg is executed by a subset of its threads is reported
// (PARTIAL_WARP) and, like every arriving warp, waits for the rest.
func TestSentenceSyncQualifier(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(arriveEv(0, 0, pcA, false, 64, false))
	h.wantUB(o, "0.0:PARTIAL_WARP")
	h.wantNoRel(o)
	o = h.step(arrive(0, 1, pcA, false, 64), arrive(0, 2, pcA, false, 64), arrive(0, 3, pcA, false, 64))
	h.wantUB(o)
	h.wantRel(o, 2, 0, 0x0f, 136, 64)
}

// "The mandatory .aligned qualifier indicates that all threads in the
// warpgroup must execute the same setmaxnreg instruction." A warp at
// another setmaxnreg (another PC) while the others wait: NOT_ALL_WARPS,
// and the whole warpgroup goes on without effect.
func TestSentenceAlignedQualifier(t *testing.T) {
	h := launched(t, 136, true)
	h.step(arrive(0, 4, pcA, false, 64), arrive(0, 5, pcA, false, 64), arrive(0, 6, pcA, false, 64))
	o := h.step(arrive(0, 7, pcB, false, 64))
	h.wantUB(o, "0.7:NOT_ALL_WARPS")
	h.wantRel(o, 0, 0, 0xf0, 136, 136)
	// Another action at the same PC is another instruction too.
	h.step(arrive(0, 4, pcA, false, 64))
	o = h.step(arrive(0, 5, pcA, true, 64))
	h.wantUB(o, "0.5:NOT_ALL_WARPS|INC_BELOW")
	h.wantRel(o, 0, 0, 0x30, 136, 136)
}

// "In conditionally executed code, setmaxnreg instruction should only be
// used if it is known that all threads in warpgroup evaluate the condition
// identically, otherwise the behavior is undefined." A condition split
// inside a warp gives PARTIAL_WARP; one split across warps sends a warp
// elsewhere (here: to exit) and gives NOT_ALL_WARPS.
func TestSentenceConditionalUndefined(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(arriveEv(0, 0, pcA, false, 64, false), arrive(0, 1, pcA, false, 64), arrive(0, 2, pcA, false, 64))
	h.wantUB(o, "0.0:PARTIAL_WARP")
	o = h.step(exitEv(0, 3))
	h.wantUB(o, "0.3:NOT_ALL_WARPS")
	h.wantRel(o, h.u.p.RelExit(0), 0, 0x07, 136, 136)
}

// Seed examples: "setmaxnreg.dec.sync.aligned.u32 64;" and
// "setmaxnreg.inc.sync.aligned.u32 192;" (launch count 128): the .dec frees
// exactly what the .inc needs.
func TestSeedExamples(t *testing.T) {
	h := launched(t, 128, true)
	o := h.step(group(0, 1, pcA, true, 192)...)
	h.wantNoRel(o)
	o = h.step(group(0, 0, pcB, false, 64)...)
	h.wantRel(o, 3, 0, 0x0f, 128, 64)
	o = h.step()
	h.wantRel(o, h.u.p.RelGrant(), 0, 0xf0, 128, 192)
	h.wantNReg(0, cat(rep(4, 64), rep(4, 192))...)
}
