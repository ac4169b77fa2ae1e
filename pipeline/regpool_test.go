package pipeline

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/trapunit"
)

// SM-level tests of setmaxnreg and the register pool (regpool.go), one per
// sentence of the setmaxnreg description in seeds 000
// (000_c17346db4d6b7e90.txt, section 9.7.19.5) and 001
// (001_782cb2a9dd03d179.txt); each quotes its sentence. The kernels are
// real PTX run on the H100 preset: 256 threads are two warpgroups
// (warps 0-3, 4-7) unless a test says otherwise, launched with
// Launch.MaxNReg = 136 (--maxnreg 136), so that 8 x 32 x 136 = 34816
// registers = 4 x 32 x 40 + 4 x 32 x 232: warpgroup 1 can reach 232 only
// with what warpgroup 0 releases by going down to 40.

// rpConfig is the H100 preset with the watchdog off and a modest cycle
// limit.
func rpConfig() config.Config {
	c := config.Default()
	c.Run.WatchdogCycles = 0
	c.Run.MaxCycles = 200_000
	return c
}

// rpKernel is kernel k with directives (e.g. ".maxnreg 136") and body
// after the prologue; %r3 is the warpgroup of the thread (%tid.x / 128),
// %r4 the warp in the CTA. %v<64> are free for many live values.
func rpKernel(directives, body string) string {
	return `.visible .entry k(.param .u64 out)` + directives + `
{
	.reg .b32 %r<32>;
	.reg .b32 %v<64>;
	.reg .b64 %rd<16>;
	.reg .pred %p<8>;
` + prologue + `
	shr.u32 %r3, %r1, 7;
	shr.u32 %r4, %r1, 5;
` + body + `
}
`
}

func rpLaunch(threads int, maxnreg uint32) Launch {
	l := threadsLaunch(threads)
	l.MaxNReg = maxnreg
	return l
}

// wantUBFault checks that the run ended in a SETMAXNREG_UB warp error of
// the given kind at the instruction from text.
func wantUBFault(t *testing.T, sm *SM, rep *Report, kind regpool.UBKind, text string) ErrorEntry {
	t.Helper()
	if rep.Status != StatusFault || len(rep.Errors) == 0 {
		t.Fatalf("status %s, errors %+v", rep.Status, rep.Errors)
	}
	e := rep.Errors[0]
	if e.Kind != "setmaxnreg" || trapunit.ErrorFromFault(e.Kind) != trapunit.ErrSetmaxnregUB || !strings.Contains(e.Message, kind.String()) || !strings.Contains(e.Message, kind.Describe()) {
		t.Fatalf("error %+v, want %s", e, kind)
	}
	if text != "" && e.PC != pcOfText(t, sm, text) {
		t.Fatalf("error at pc %d (%s), want %q", e.PC, e.Source, text)
	}
	var found bool
	for _, w := range rep.Warps {
		if w.WarpInCTA == e.WarpInCTA && w.CTA == e.CTA {
			found = strings.Contains(w.ESRDecoded, "SETMAXNREG_UB")
		}
	}
	if !found {
		t.Errorf("warp %d's ESR does not hold SETMAXNREG_UB: %+v", e.WarpInCTA, rep.Warps)
	}
	return e
}

// poolOf returns the report's pool of CTA cta.
func poolOf(t *testing.T, rep *Report, cta uint64) RegPoolCTA {
	t.Helper()
	for _, c := range rep.RegPool.CTAs {
		if c.CTA == cta {
			return c
		}
	}
	t.Fatalf("no regpool entry for CTA %d: %+v", cta, rep.RegPool)
	return RegPoolCTA{}
}

// wantNRegs checks every warp's count at the end.
func wantNRegs(t *testing.T, c RegPoolCTA, want ...int) {
	t.Helper()
	var got []int
	for _, w := range c.Warps {
		got = append(got, w.NRegAtEnd)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("nreg_at_end %v, want %v", got, want)
	}
}

func rep8(a, b int) []int { return []int{a, a, a, a, b, b, b, b} }

// splitBody is a kernel body in which warpgroup 0 (%tid.x < 128) runs wg0
// and warpgroup 1 runs wg1; then every thread stores %r1 and returns.
func splitBody(wg0, wg1 string) string {
	return `
	setp.ge.u32 %p1, %r1, 128;
	@%p1 bra INC;
	` + wg0 + `
	bra.uni END;
INC:
	` + wg1 + `
END:
	st.global.u32 [%rd3], %r1;
	ret;`
}

// decInc232 is the producer/consumer body: warpgroup 0 goes down to 40,
// warpgroup 1 up to 232.
var decInc232 = splitBody("setmaxnreg.dec.sync.aligned.u32 40;", "setmaxnreg.inc.sync.aligned.u32 232;")

// runSyncedDecInc runs 256 threads launched with maxnreg: warpgroup 0
// goes down to dec, all meet at a bar.sync, then warpgroup 1 goes up to
// inc. It checks that the run completed without errors and with the
// counts dec (warps 0-3) and inc (warps 4-7), and returns CTA 0's pool.
func runSyncedDecInc(t *testing.T, dec, inc int, maxnreg uint32) RegPoolCTA {
	t.Helper()
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", fmt.Sprintf(`
	setp.ge.u32 %%p1, %%r1, 128;
	@%%p1 bra SYNC;
	setmaxnreg.dec.sync.aligned.u32 %d;
SYNC:
	bar.sync 0;
	@!%%p1 bra END;
	setmaxnreg.inc.sync.aligned.u32 %d;
END:
	st.global.u32 [%%rd3], %%r1;
	ret;`, dec, inc)), rpLaunch(256, maxnreg))
	wantNoErrors(t, rep)
	c := poolOf(t, rep, 0)
	wantNRegs(t, c, rep8(dec, inc)...)
	return c
}

// runGroupDec runs 256 threads launched with --maxnreg 136 in which only
// warpgroup wg executes setmaxnreg.dec to n. It checks that the run
// completed without errors, warpgroup wg's warps with n registers and the
// other's with 136, and returns CTA 0's pool.
func runGroupDec(t *testing.T, wg, n int) RegPoolCTA {
	t.Helper()
	skip, want := "lt", rep8(136, n) // warpgroup 0 skips the .dec
	if wg == 0 {
		skip, want = "ge", rep8(n, 136)
	}
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", fmt.Sprintf(`
	setp.%s.u32 %%p1, %%r1, 128;
	@%%p1 bra END;
	setmaxnreg.dec.sync.aligned.u32 %d;
END:
	st.global.u32 [%%rd3], %%r1;
	ret;`, skip, n)), rpLaunch(256, 136))
	wantNoErrors(t, rep)
	c := poolOf(t, rep, 0)
	wantNRegs(t, c, want...)
	return c
}

// wantDeadlock checks that the run ended in deadlock and that its last
// error is the deadlock, with a message holding every string of want.
func wantDeadlock(t *testing.T, rep *Report, want ...string) {
	t.Helper()
	if rep.Status != StatusDeadlock {
		t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
	}
	e := rep.Errors[len(rep.Errors)-1]
	for _, w := range want {
		if e.Kind != "deadlock" || !strings.Contains(e.Message, w) {
			t.Errorf("deadlock %+v lacks %q", e, w)
		}
	}
}

// firstIssue returns the first issue of the instruction from text by
// warp slot w (ok false if none).
func firstIssue(t *testing.T, sm *SM, log issueLog, text string, w int) (IssueInfo, bool) {
	t.Helper()
	for _, i := range log.at(pcOfText(t, sm, text)) {
		if i.Warp == w {
			return i, true
		}
	}
	return IssueInfo{}, false
}

// --- Seed 000/001 sentences ---

// Seed 000 title: "Hint to change the number of registers owned by the
// warp." Warpgroup 1's warps own 64 registers per thread afterwards, the
// others still 136.
func TestSetmaxnregSentenceHintChangesWarpRegisters(t *testing.T) {
	runGroupDec(t, 1, 64)
}

// "setmaxnreg provides a hint to the system to update the maximum number of
// per-thread registers owned by the executing warp to the value specified
// by the imm-reg-count operand." The warp's count (CycleInfo.NRegs) is 136
// up to the cycle its setmaxnreg completes and the operand, 64, from the
// next cycle on.
func TestSetmaxnregSentenceUpdatesToImmRegCount(t *testing.T) {
	sm := newPTX(t, rpConfig(), rpKernel("", `
	setmaxnreg.dec.sync.aligned.u32 64;
	st.global.u32 [%rd3], %r1;
	ret;`), rpLaunch(128, 136))
	var log issueLog
	log.hook(sm)
	nregAt := map[uint64]uint16{}
	sm.OnCycle(func(ci *CycleInfo) { nregAt[ci.Cycle] = ci.NRegs[0] })
	rep, _ := sm.Run()
	wantNoErrors(t, rep)
	var last uint64 // the warpgroup's last arrival completes it
	for _, i := range log.at(pcOfText(t, sm, "setmaxnreg")) {
		last = max(last, i.Cycle)
	}
	if nregAt[last] != 136 || nregAt[last+1] != 64 {
		t.Fatalf("count %d in the completing cycle %d, %d after", nregAt[last], last, nregAt[last+1])
	}
	wantNRegs(t, poolOf(t, rep, 0), 64, 64, 64, 64)
}

// "Qualifier .dec is used to release extra registers such that the
// absolute per-thread maximum register count is reduced from its current
// value to imm-reg-count." Warpgroup 0 goes from 136 to 40: 4 warps x 32
// x 96 = 12288 registers go to the pool.
func TestSetmaxnregSentenceDecReleases(t *testing.T) {
	c := runGroupDec(t, 0, 40)
	if c.PoolSize != 8*32*136 || c.FreeAtEnd != 4*32*96 || c.HighWater != 0 {
		t.Fatalf("pool %+v", c)
	}
}

// "Qualifier .inc is used to request additional registers such that the
// absolute per-thread maximum register count is increased from its
// current value to imm-reg-count." After warpgroup 0's .dec 40 and a
// bar.sync, warpgroup 1's .inc 232 takes the 12288 registers.
func TestSetmaxnregSentenceIncRequests(t *testing.T) {
	c := runSyncedDecInc(t, 40, 232, 136)
	if c.FreeAtEnd != 0 || c.HighWater != 4*32*96 {
		t.Fatalf("pool %+v", c)
	}
}

// "A pool of available registers is maintained per-CTA." Two CTAs of one
// warpgroup each: CTA 0 releases 12288 registers, CTA 1 asks for 12288.
// Its own pool is empty and nothing in it can ever release any, so its
// .inc can never be satisfied (CTA 0's registers are not its): the run
// ends in deadlock naming CTA 1.
func TestSetmaxnregSentencePoolPerCTA(t *testing.T) {
	l := rpLaunch(128, 136)
	l.Grid = [3]uint32{2, 1, 1}
	l.Buffers = outBuf(256)
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	mov.u32 %r5, %ctaid.x;
	setp.ne.u32 %p1, %r5, 0;
	@%p1 bra INC;
	setmaxnreg.dec.sync.aligned.u32 40;
	bra.uni END;
INC:
	setmaxnreg.inc.sync.aligned.u32 232;
END:
	ret;`), l)
	wantDeadlock(t, rep, "setmaxnreg.inc can never be satisfied", "CTA 1,0,0 warps 0-3", "need 12288 registers", "has 0 free", "at most 0")
	if rep.CTAsLaunched != 2 {
		t.Fatalf("launched %d CTAs, want 2", rep.CTAsLaunched)
	}
	if c := poolOf(t, rep, 0); c.FreeAtEnd != 4*32*96 {
		t.Errorf("CTA 0 pool %+v", c)
	}
}

// "Register adjustments requested by the setmaxnreg instructions are
// handled by supplying extra registers from this pool to the requesting
// warp or by releasing extra registers from the requesting warp to this
// pool, depending upon the value of the .action qualifier." The pool's
// free registers, sampled every cycle, go 0 -> 12288 (.dec) -> 0 (.inc),
// and each step comes with the count of the warps that acted.
func TestSetmaxnregSentenceActionSelectsDirection(t *testing.T) {
	sm := newPTX(t, rpConfig(), rpKernel("", decInc232), rpLaunch(256, 136))
	type sample struct {
		free      uint32
		wg0, wg1  uint16
		highWater uint32
	}
	var seen []sample
	sm.OnCycle(func(ci *CycleInfo) {
		st := sm.RegPool().CTAStats(0)
		s := sample{st.Free, ci.NRegs[0], ci.NRegs[4], st.HighWater}
		if !st.Valid || s.wg0 == 0 || s.wg1 == 0 {
			return // before the launch, after the exits
		}
		if len(seen) == 0 || seen[len(seen)-1] != s {
			seen = append(seen, s)
		}
	})
	rep, _ := sm.Run()
	wantNoErrors(t, rep)
	want := []sample{{0, 136, 136, 0}, {12288, 40, 136, 0}, {0, 40, 232, 12288}}
	if !slices.Equal(seen, want) {
		t.Fatalf("pool over time %+v, want %+v", seen, want)
	}
}

// "The setmaxnreg.inc instruction blocks the execution until enough
// registers are available in the CTA's register pool." Warpgroup 1 asks
// for 232 at once; warpgroup 0 first waits for a global load (281 cycles)
// and only then releases. Warpgroup 1 stays blocked until the .dec: its
// next instruction issues two cycles after the last .dec arrival (the
// .dec completes in that cycle, its registers reach the pool at the end of
// it, the grant comes in the next cycle and the warps issue in the one
// after), and the report counts the cycles it waited.
func TestSetmaxnregSentenceIncBlocksUntilAvailable(t *testing.T) {
	cfg := rpConfig()
	cfg.PM.Counter[7] = "stall:regpool"
	sm, rep, log := runLogged(t, cfg, rpKernel("", `
	setp.ge.u32 %p1, %r1, 128;
	@%p1 bra INC;
	ld.global.u32 %r6, [%rd3];
	add.u32 %r6, %r6, 1; // waits for the load
	setmaxnreg.dec.sync.aligned.u32 40; // producer
	bra.uni END;
INC:
	setmaxnreg.inc.sync.aligned.u32 232; // consumer
	mov.u32 %r6, 2; // after the inc
END:
	st.global.u32 [%rd3], %r6;
	ret;`), rpLaunch(256, 136))
	wantNoErrors(t, rep)
	var dec, inc uint64
	for _, i := range log.at(pcOfText(t, sm, "// producer")) {
		dec = max(dec, i.Cycle)
	}
	for _, i := range log.at(pcOfText(t, sm, "// consumer")) {
		inc = max(inc, i.Cycle)
	}
	if inc >= dec {
		t.Fatalf("the .inc warpgroup arrived at cycle %d, after the .dec at %d: nothing to block", inc, dec)
	}
	for w := 4; w < 8; w++ {
		i, ok := firstIssue(t, sm, log, "// after the inc", w)
		if !ok || i.Cycle != dec+2 {
			t.Errorf("warp %d issued after its .inc at cycle %d, want %d (.dec at %d)", w, i.Cycle, dec+2, dec)
		}
	}
	c := poolOf(t, rep, 0)
	for _, w := range c.Warps {
		want := uint64(0)
		if w.Warp >= 4 {
			want = dec + 1 - inc // blocked from the rendezvous to the grant
		}
		if w.IncBlockedCycles != want {
			t.Errorf("warp %d blocked %d cycles, want %d", w.Warp, w.IncBlockedCycles, want)
		}
		// The scheduler shows them in the regpool stall state (pm
		// stall:regpool) for exactly those cycles.
		if got := rep.Warps[w.Warp].Stalls["regpool"]; got != want {
			t.Errorf("warp %d: %d regpool stall cycles, want %d", w.Warp, got, want)
		}
	}
	if rep.Stalls["regpool"] != 4*(dec+1-inc) || rep.Counters[7] != 4*(dec+1-inc) {
		t.Errorf("stalls %v, %%pm7 (stall:regpool) %d", rep.Stalls, rep.Counters[7])
	}
	wantNRegs(t, c, rep8(40, 232)...)
}

// manyValues defines n values %v0.. (tid + k) and, in sum, adds them into
// %r20 (so that n registers are live at once) and stores it.
func manyValues(n int) (defs, sum string) {
	var d, s strings.Builder
	for k := 0; k < n; k++ {
		fmt.Fprintf(&d, "\tadd.u32 %%v%d, %%r1, %d;\n", k, k)
	}
	fmt.Fprintf(&s, "\tadd.u32 %%r20, %%v0, %%v1;\n")
	for k := 2; k < n; k++ {
		fmt.Fprintf(&s, "\tadd.u32 %%r20, %%r20, %%v%d;\n", k)
	}
	s.WriteString("\tst.global.u32 [%rd3], %r20;\n")
	return d.String(), s.String()
}

// undefKernel keeps 48 values live across .dec 40 / bar.sync / .inc 64
// (one warp, launched with 64): those in registers 40 and above are in
// registers the warp gave back and obtained again.
func undefKernel(rewrite bool) string {
	defs, sum := manyValues(48)
	again := ""
	if rewrite {
		again = defs // initialize the values again after the .inc
	}
	return rpKernel("", defs+`
	setmaxnreg.dec.sync.aligned.u32 40;
	bar.sync 0;
	setmaxnreg.inc.sync.aligned.u32 64;
`+again+sum+"\tret;")
}

// undefRegs returns the registers of the undefined_register entries.
func undefRegs(t *testing.T, rep *Report) []int {
	t.Helper()
	var regs []int
	for _, e := range rep.Errors {
		if e.Kind != "undefined_register" {
			t.Fatalf("error %+v", e)
		}
		if e.Register == nil || e.Warp != 0 || !strings.Contains(e.Message, fmt.Sprintf("R%d", *e.Register)) {
			t.Fatalf("entry %+v does not name warp and register", e)
		}
		regs = append(regs, *e.Register)
	}
	return regs
}

// "After the instruction setmaxnreg.inc obtains new registers from the CTA
// pool, the initial contents of the new registers are undefined." Reading
// one of them before writing it is reported (regpool.strict=false: a
// warning naming warp, PC and register; the run goes on).
func TestSetmaxnregSentenceNewRegistersUndefined(t *testing.T) {
	cfg := rpConfig()
	cfg.RegPool.Strict = false
	sm, rep, _ := runLogged(t, cfg, undefKernel(false), rpLaunch(32, 64))
	wantCompleted(t, rep)
	if int(sm.kern.Regs) <= 40 {
		t.Fatalf("the kernel uses %d registers: nothing above 40 to test", sm.kern.Regs)
	}
	regs := undefRegs(t, rep)
	if len(regs) == 0 {
		t.Fatal("no undefined-register warning")
	}
	for i, e := range rep.Errors {
		if !e.Warning || !strings.Contains(e.Source, "add.u32") || e.Line == "" {
			t.Errorf("entry %d %+v", i, e)
		}
	}
}

// "The new registers must be initialized before they are used." With
// regpool.strict the first read of an undefined register is a warp error
// (SETMAXNREG_UB) at that instruction; a kernel that writes them first
// runs clean.
func TestSetmaxnregSentenceInitializeBeforeUse(t *testing.T) {
	_, rep, _ := runLogged(t, rpConfig(), undefKernel(false), rpLaunch(32, 64))
	if rep.Status != StatusFault || len(rep.Errors) != 1 || rep.Errors[0].Kind != "undefined_register" || *rep.Errors[0].Register < 40 {
		t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
	}
	if esr := rep.Warps[0].ESRDecoded; !strings.Contains(esr, "SETMAXNREG_UB") {
		t.Errorf("warp ESR %q", esr)
	}
	_, rep, _ = runLogged(t, rpConfig(), undefKernel(true), rpLaunch(32, 64))
	wantNoErrors(t, rep)
	for i, v := range rep.Buffers["out"] {
		if want := uint32(48*i + 47*48/2); v != want {
			t.Fatalf("out[%d] = %d, want %d", i, v, want)
		}
	}
}

// "Changes to the register file of the warp always happen at the tail-end
// of the register file." After .dec 40 and .inc 64 the registers below 40
// kept their values (no report, the sum is right where it only reads
// them) and exactly the registers read from the tail, 40 and above, are
// undefined.
func TestSetmaxnregSentenceTailEnd(t *testing.T) {
	cfg := rpConfig()
	cfg.RegPool.Strict = false
	sm, rep, _ := runLogged(t, cfg, undefKernel(false), rpLaunch(32, 64))
	wantCompleted(t, rep)
	regs := undefRegs(t, rep)
	// Every register of the kernel at or above 40 holds one of the values
	// (48 values live at once, plus %r1 and %rd3); each is read once.
	var want []int
	for r := 40; r < int(sm.kern.Regs); r++ {
		want = append(want, r)
	}
	slices.Sort(regs)
	if len(regs) == 0 || regs[0] < 40 || !slices.Equal(regs, want[:len(regs)]) {
		t.Fatalf("undefined registers %v, want a prefix of %v", regs, want)
	}
	// The model keeps the registers' contents (undefined means
	// unspecified), so the sum comes out right.
	for i, v := range rep.Buffers["out"] {
		if w := uint32(48*i + 47*48/2); v != w {
			t.Fatalf("out[%d] = %d, want %d", i, v, w)
		}
	}
}

// "The same setmaxnreg instruction must be executed by all warps in a
// warpgroup." Warps 0-1 execute one setmaxnreg.dec 40, warps 2-3 another
// (same count, other PC): SETMAXNREG_UB NOT_ALL_WARPS. The same count at
// one PC completes.
func TestSetmaxnregSentenceSameInstructionAllWarps(t *testing.T) {
	src := rpKernel("", `
	setp.lt.u32 %p1, %r1, 64;
	@%p1 bra A;
	setmaxnreg.dec.sync.aligned.u32 40; // B
	bra.uni END;
A:
	setmaxnreg.dec.sync.aligned.u32 40; // A
END:
	st.global.u32 [%rd3], %r1;
	ret;`)
	sm, rep, _ := runLogged(t, rpConfig(), src, rpLaunch(128, 136))
	e := wantUBFault(t, sm, rep, regpool.UBNotAllWarps, "")
	if e.PC != pcOfText(t, sm, "// A") && e.PC != pcOfText(t, sm, "// B") {
		t.Errorf("error at %+v", e)
	}
	_, rep, _ = runLogged(t, rpConfig(), rpKernel("", `
	setmaxnreg.dec.sync.aligned.u32 40;
	st.global.u32 [%rd3], %r1;
	ret;`), rpLaunch(128, 136))
	wantNoErrors(t, rep)
}

// "After executing a setmaxnreg instruction, all warps in the warpgroup
// must synchronize explicitly before executing subsequent setmaxnreg
// instructions." A second setmaxnreg right after the first, or after a
// bar.arrive (which releases nobody, so synchronizes nobody), is
// NO_SYNC_BETWEEN; after bar.sync, or a named barrier of just the
// warpgroup's 128 threads, it is fine.
func TestSetmaxnregSentenceSynchronizeBetween(t *testing.T) {
	for _, c := range []struct {
		name, between string
		ok            bool
	}{
		{"none", "", false},
		{"bar.arrive", "bar.arrive 1, 128;", false},
		{"bar.sync", "bar.sync 0;", true},
		{"barrier.sync warpgroup", "barrier.sync 2, 128;", true},
		{"bar.red", "bar.red.popc.u32 %r7, 3, %p1;", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := rpKernel("", `
	setp.lt.u32 %p1, %r2, 7;
	setmaxnreg.dec.sync.aligned.u32 64;
	`+c.between+`
	setmaxnreg.dec.sync.aligned.u32 40; // second
	st.global.u32 [%rd3], %r1;
	ret;`)
			sm, rep, _ := runLogged(t, rpConfig(), src, rpLaunch(128, 136))
			if c.ok {
				wantNoErrors(t, rep)
				wantNRegs(t, poolOf(t, rep, 0), 40, 40, 40, 40)
				return
			}
			wantUBFault(t, sm, rep, regpool.UBNoSyncBetween, "// second")
		})
	}
}

// "If a setmaxnreg instruction is not executed by all warps in the
// warpgroup, then the behavior is undefined." Warp 3 exits: before the
// others arrive (their arrival is NOT_ALL_WARPS), or while they wait (its
// exit is). Either way the run ends in a SETMAXNREG_UB warp error.
func TestSetmaxnregSentenceNotExecutedByAllWarps(t *testing.T) {
	t.Run("exits before", func(t *testing.T) {
		sm, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	setp.eq.u32 %p1, %r4, 3;
	@%p1 exit; // warp 3
	ld.global.u32 %r6, [%rd3];
	add.u32 %r6, %r6, 1; // a load first
	setmaxnreg.dec.sync.aligned.u32 40; // the others
	st.global.u32 [%rd3], %r6;
	ret;`), rpLaunch(128, 136))
		e := wantUBFault(t, sm, rep, regpool.UBNotAllWarps, "// the others")
		if e.WarpInCTA == 3 {
			t.Errorf("reported on warp 3: %+v", e)
		}
	})
	t.Run("exits while the others wait", func(t *testing.T) {
		sm, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	setp.ne.u32 %p1, %r4, 3;
	@%p1 bra SMR;
	ld.global.u32 %r6, [%rd3];
	add.u32 %r6, %r6, 1; // warp 3 waits for a load, then exits
	st.global.u32 [%rd3], %r6;
	exit; // warp 3
SMR:
	setmaxnreg.dec.sync.aligned.u32 40; // the others
	ret;`), rpLaunch(128, 136))
		// The exited warp can take no warp error: the first waiting
		// warp takes it, at its setmaxnreg.
		e := wantUBFault(t, sm, rep, regpool.UBNotAllWarps, "// the others")
		if e.WarpInCTA != 0 || !strings.Contains(e.Message, "warp 3 of the warpgroup exited at pc") || !strings.Contains(e.Message, "while warps 0-2 wait") {
			t.Errorf("error %+v", e)
		}
	})
}

// "Operand imm-reg-count is an integer constant." The assembler refuses a
// register, with its position.
func TestSetmaxnregSentenceIntegerConstant(t *testing.T) {
	_, err := isa.AssembleSource("t.ptx", []byte(ptxHeader+".visible .entry k()\n{\n.reg .b32 %r1;\nmov.u32 %r1, 64;\nsetmaxnreg.inc.sync.aligned.u32 %r1;\nret;\n}\n"))
	if err == nil || !strings.Contains(err.Error(), "t.ptx:8:33: setmaxnreg needs an integer constant register count") {
		t.Fatalf("err %v", err)
	}
}

// "The value of imm-reg-count must be in the range 24 to 256 (both
// inclusive) and must be a multiple of 8." 20, 100 and 264 are assembly
// errors with their position (also isa's TestAssembleErrors); 24 and 256
// run; an image carrying 20 anyway (not from the assembler) faults
// illegal_instruction at the SM and never reaches the pool.
func TestSetmaxnregSentenceCountRange(t *testing.T) {
	for _, n := range []int{20, 100, 264} {
		src := fmt.Sprintf(".visible .entry k()\n{\nsetmaxnreg.dec.sync.aligned.u32 %d;\nret;\n}\n", n)
		_, err := isa.AssembleSource("t.ptx", []byte(ptxHeader+src))
		if want := fmt.Sprintf("t.ptx:6:33: setmaxnreg count %d must be in 24..256 and a multiple of 8", n); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("count %d: err %v, want %q", n, err, want)
		}
	}
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	setmaxnreg.dec.sync.aligned.u32 24;
	bar.sync 0;
	setmaxnreg.inc.sync.aligned.u32 256;
	st.global.u32 [%rd3], %r1;
	ret;`), rpLaunch(32, 256))
	wantNoErrors(t, rep)
	wantNRegs(t, poolOf(t, rep, 0), 256)

	src := rpKernel("", `
	setmaxnreg.dec.sync.aligned.u32 24;
	ret;`)
	im := assemble(t, "test.ptx", []byte(ptxHeader+src))
	for pc := range im.Code {
		if im.Code[pc].Op == isa.OpSETMAXNREG {
			im.Code[pc].Imm = 20
		}
	}
	sm, err := New(rpConfig(), im, Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32), MaxNReg: 64})
	if err != nil {
		t.Fatal(err)
	}
	rep, _ = sm.Run()
	if rep.Status != StatusFault || rep.Errors[0].Kind != "illegal_instruction" || !strings.Contains(rep.Errors[0].Message, "count 20") {
		t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
	}
	if c := poolOf(t, rep, 0); c.Warps[0].NRegAtEnd != 64 {
		t.Errorf("pool %+v", c)
	}
}

// "The setmaxnreg instruction requires that the kernel has been launched
// with a valid value of maximum number of per-thread registers specified
// via the appropriate compilation via the appropriate compile-time option
// or the appropriate performance tuning directive. Otherwise, the
// setmaxnreg instruction may have no effect." Without --maxnreg and
// .maxnreg: no effect (the .inc 232 nobody can feed does not block), one
// warning. With the kernel's .maxnreg 136 directive, or --maxnreg, it
// acts.
func TestSetmaxnregSentenceValidMaxnregRequired(t *testing.T) {
	body := decInc232
	sm, rep, _ := runLogged(t, rpConfig(), rpKernel("", body), rpLaunch(256, 0))
	wantCompleted(t, rep)
	if len(rep.Errors) != 1 || rep.Errors[0].Kind != "setmaxnreg_noeffect" || !rep.Errors[0].Warning || !strings.Contains(rep.Errors[0].Message, "without a valid maximum register count") {
		t.Fatalf("errors %+v", rep.Errors)
	}
	launch := int(sm.kern.Regs+7) / 8 * 8
	if rep.RegPool.Effect || rep.RegPool.LaunchNReg != launch {
		t.Fatalf("regpool %+v", rep.RegPool)
	}
	c := poolOf(t, rep, 0)
	wantNRegs(t, c, rep8(launch, launch)...)
	if c.FreeAtEnd != 0 {
		t.Fatalf("pool %+v", c)
	}
	// The directive.
	_, rep, _ = runLogged(t, rpConfig(), rpKernel("\n.maxnreg 136", body), rpLaunch(256, 0))
	wantNoErrors(t, rep)
	if !rep.RegPool.Effect || rep.RegPool.LaunchNReg != 136 {
		t.Fatalf("regpool %+v", rep.RegPool)
	}
	wantNRegs(t, poolOf(t, rep, 0), rep8(40, 232)...)
	// --maxnreg takes precedence over the directive.
	_, rep, _ = runLogged(t, rpConfig(), rpKernel("\n.maxnreg 200", body), rpLaunch(256, 136))
	wantNoErrors(t, rep)
	if rep.RegPool.LaunchNReg != 136 {
		t.Fatalf("regpool %+v", rep.RegPool)
	}
}

// "When qualifier .dec is specified, the maximum number of per-thread
// registers owned by the warp prior to the execution of setmaxnreg
// instruction should be greater than or equal to the imm-reg-count.
// Otherwise, the behaviour is undefined." .dec 200 from 136: DEC_ABOVE
// (strict: a warp error; otherwise a warning and nothing changes). .dec
// to the current count is fine.
func TestSetmaxnregSentenceDecAbove(t *testing.T) {
	src := wantUBCount(t, "dec", 200, regpool.UBDecAbove)
	cfg := rpConfig()
	cfg.RegPool.Strict = false
	_, rep, _ := runLogged(t, cfg, src, rpLaunch(128, 136))
	wantCompleted(t, rep)
	if len(rep.Errors) != 4 || !rep.Errors[0].Warning || rep.Errors[0].Kind != "setmaxnreg" {
		t.Fatalf("errors %+v", rep.Errors)
	}
	wantNRegs(t, poolOf(t, rep, 0), 136, 136, 136, 136)
}

// wantUBCount runs one warpgroup launched with --maxnreg 136 that executes
// setmaxnreg.<action> n (marked "// ub"), checks the warp error of kind
// naming the count, checks that setmaxnreg.<action> 136 (the current
// count) runs clean, and returns the faulting kernel.
func wantUBCount(t *testing.T, action string, n int, kind regpool.UBKind) string {
	t.Helper()
	src := rpKernel("", fmt.Sprintf(`
	setmaxnreg.%s.sync.aligned.u32 %d; // ub
	st.global.u32 [%%rd3], %%r1;
	ret;`, action, n))
	sm, rep, _ := runLogged(t, rpConfig(), src, rpLaunch(128, 136))
	e := wantUBFault(t, sm, rep, kind, "// ub")
	if want := fmt.Sprintf("setmaxnreg.%s %d; the warp owns 136 registers per thread", action, n); !strings.Contains(e.Message, want) {
		t.Errorf("message %q, want %q", e.Message, want)
	}
	_, rep, _ = runLogged(t, rpConfig(), rpKernel("", `
	setmaxnreg.`+action+`.sync.aligned.u32 136;
	ret;`), rpLaunch(128, 136))
	wantNoErrors(t, rep)
	return src
}

// "When qualifier .inc is specified, the maximum number of per-thread
// registers owned by the warp prior to the execution of setmaxnreg
// instruction should be less than or equal to the imm-reg-count.
// Otherwise, the behaviour is undefined." .inc 64 from 136: INC_BELOW.
func TestSetmaxnregSentenceIncBelow(t *testing.T) {
	wantUBCount(t, "inc", 64, regpool.UBIncBelow)
}

// "The mandatory .sync qualifier indicates that setmaxnreg instruction
// causes the executing thread to wait until all threads in the warp
// execute the same setmaxnreg instruction before resuming execution." A
// warp whose threads diverged and reconverged before it executes it
// whole; one that executes it with half its threads (the others took a
// branch around it) is PARTIAL_WARP.
func TestSetmaxnregSentenceSyncWholeWarp(t *testing.T) {
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	and.b32 %r5, %r2, 1;
	setp.eq.u32 %p1, %r5, 1;
	@%p1 bra ODD;
	add.u32 %r6, %r1, 1;
	bra.uni JOIN;
ODD:
	add.u32 %r6, %r1, 2;
JOIN:
	setmaxnreg.dec.sync.aligned.u32 40;
	st.global.u32 [%rd3], %r6;
	ret;`), rpLaunch(128, 136))
	wantNoErrors(t, rep)
	sm, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	setp.lt.u32 %p1, %r2, 16;
	@%p1 bra SKIP;
	setmaxnreg.dec.sync.aligned.u32 40; // half
SKIP:
	st.global.u32 [%rd3], %r1;
	ret;`), rpLaunch(128, 136))
	e := wantUBFault(t, sm, rep, regpool.UBPartialWarp, "// half")
	if !strings.Contains(e.Message, "executing lanes 0xffff0000 of live 0xffffffff") {
		t.Errorf("message %q", e.Message)
	}
}

// "The mandatory .aligned qualifier indicates that all threads in the
// warpgroup must execute the same setmaxnreg instruction." The
// warpgroup's warps meet at it: warps 0-2 arrive first and wait until
// warp 3, delayed by a global load, arrives; all four go on in the next
// cycle.
func TestSetmaxnregSentenceAlignedWarpgroupRendezvous(t *testing.T) {
	sm, rep, log := runLogged(t, rpConfig(), rpKernel("", `
	setp.ne.u32 %p1, %r4, 3;
	@%p1 bra SMR;
	ld.global.u32 %r6, [%rd3];
	add.u32 %r6, %r6, 1; // warp 3 waits for a load
SMR:
	setmaxnreg.dec.sync.aligned.u32 40;
	add.u32 %r7, %r1, 1; // after
	st.global.u32 [%rd3], %r7;
	ret;`), rpLaunch(128, 136))
	wantNoErrors(t, rep)
	arr := log.at(pcOfText(t, sm, "setmaxnreg"))
	var last, first uint64 = 0, ^uint64(0)
	for _, i := range arr {
		last, first = max(last, i.Cycle), min(first, i.Cycle)
	}
	if len(arr) != 4 || last-first < 200 {
		t.Fatalf("arrivals %+v", arr)
	}
	for w := 0; w < 4; w++ {
		if i, ok := firstIssue(t, sm, log, "// after", w); !ok || i.Cycle != last+1 {
			t.Errorf("warp %d went on at cycle %d, want %d", w, i.Cycle, last+1)
		}
	}
	if rep.Stalls["misc"] < 3*200 {
		t.Errorf("waiting warps not counted: %v", rep.Stalls)
	}
}

// "In conditionally executed code, setmaxnreg instruction should only be
// used if it is known that all threads in warpgroup evaluate the condition
// identically, otherwise the behavior is undefined." A guard that differs
// between the warps of the warpgroup leaves warps 2-3 out (NOT_ALL_WARPS
// when they exit); one that differs inside a warp is PARTIAL_WARP; a
// guard true for the whole warpgroup is fine.
func TestSetmaxnregSentenceConditionalUniform(t *testing.T) {
	run := func(cond string) (*SM, *Report) {
		sm, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	`+cond+`
	@%p1 setmaxnreg.dec.sync.aligned.u32 40; // guarded
	st.global.u32 [%rd3], %r1;
	ret;`), rpLaunch(256, 136))
		return sm, rep
	}
	sm, rep := run("setp.lt.u32 %p1, %r1, 64;")
	wantUBFault(t, sm, rep, regpool.UBNotAllWarps, "")
	sm, rep = run("setp.lt.u32 %p1, %r2, 8;")
	wantUBFault(t, sm, rep, regpool.UBPartialWarp, "// guarded")
	_, rep = run("setp.lt.u32 %p1, %r1, 128;")
	wantNoErrors(t, rep)
	wantNRegs(t, poolOf(t, rep, 0), rep8(40, 136)...)
}

// Syntax: "setmaxnreg.action.sync.aligned.u32 imm-reg-count; .action = {
// .inc, .dec };" Other spellings are assembly errors.
func TestSetmaxnregSyntax(t *testing.T) {
	for _, c := range []struct{ inst, want string }{
		{"setmaxnreg.sync.aligned.u32 64;", "setmaxnreg needs exactly one of .inc and .dec"},
		{"setmaxnreg.inc.dec.sync.aligned.u32 64;", "setmaxnreg needs exactly one of .inc and .dec"},
		{"setmaxnreg.inc.aligned.u32 64;", "setmaxnreg must be written setmaxnreg.inc.sync.aligned.u32"},
		{"setmaxnreg.dec.sync.u32 64;", "setmaxnreg must be written setmaxnreg.dec.sync.aligned.u32"},
		{"setmaxnreg.dec.sync.aligned.u64 64;", "setmaxnreg must be written setmaxnreg.dec.sync.aligned.u32"},
	} {
		_, err := isa.AssembleSource("t.ptx", []byte(ptxHeader+".visible .entry k()\n{\n"+c.inst+"\nret;\n}\n"))
		if err == nil || !strings.Contains(err.Error(), "t.ptx:6:1: "+c.want) {
			t.Errorf("%s: err %v, want %q", c.inst, err, c.want)
		}
	}
}

// The seeds' examples: "setmaxnreg.dec.sync.aligned.u32 64;" and
// "setmaxnreg.inc.sync.aligned.u32 192;" (warpgroup 0 goes down to 64,
// warpgroup 1 up to 192 with what it released after a bar.sync).
func TestSetmaxnregSeedExamples(t *testing.T) {
	c := runSyncedDecInc(t, 64, 192, 128)
	if c.FreeAtEnd != 0 || c.HighWater != 4*32*64 {
		t.Fatalf("pool %+v", c)
	}
}

// --- The producer/consumer example, deadlock, register bounds, report ---

// TestSetmaxnregExampleProducerConsumer runs examples/setmaxnreg (grid 2
// x 256 threads, --maxnreg 136; warpgroup 0 .dec 40, warpgroup 1 .inc 232)
// on the H100 preset and checks that the .inc warpgroup goes on only after
// the .dec, at the cycle computed from the configuration.
//
// 136 x 256 = 34816 registers: one CTA resident at a time (65536 / 34816).
// sched.count 4, gto: warps 0-7 of the CTA are slots 0-7, warp w on
// scheduler w % 4, so warps 0-3 issue in lockstep, as do warps 4-7, and
// each scheduler prefers warps 0-3 (older) unless greedy on 4-7. Latencies:
// fetch 2, param 6, sreg 6, alu 4, mul 4, branch 4. The code up to the
// setmaxnreg (pc: instruction, result ready):
//
//	0 ld.param rd4, 1 ld.param rd5 (+6), 2 cvta rd1 <- rd5, 3 mov r1 %tid
//	(+6), 4 mov r7 %ctaid (+6), 5 mov r8 %ntid (+6), 6 mad r2 <- r7 r8 r1
//	(+4), 7 setp p1 <- r1 (+4), 8 mov rd16, 9 @p1 bra (+4; taken by
//	warpgroup 1: refetch +2), 10 setmaxnreg.dec 40 / 17 setmaxnreg.inc 232
//
// warps 0-3: launch at 0, first fetch done at 2: pc 0 at 2, pc 1 at 3;
// pc 2 needs rd5 (3+6 = 9). warps 4-7 meanwhile: pc 0 at 4, pc 1 at 5.
// warps 0-3: pc 2 at 9, pc 3-5 at 10-12; pc 6 needs r8 (12+6 = 18).
// warps 4-7: pc 2 at 13 (rd5 at 11), pc 3-5 at 13-16; their pc 6 needs r8
// at 16+6 = 22. warps 0-3: pc 6 at 18, pc 7 at 19 (p1 at 23), pc 8 at 20;
// pc 9 waits for p1. warps 4-7: pc 6 at 22 and, greedy, pc 7 at 23 (p1 at
// 27), pc 8 at 24. warps 0-3: pc 9 at 25 (falls through: no refetch, the
// branch resolves at 25+4 = 29). warps 4-7: pc 9 at 27, taken: resolves at
// 31, fetched at 31+2 = 33.
//
// So warpgroup 0 executes setmaxnreg.dec 40 in cycle 29, all four warps
// at once (one per scheduler): its rendezvous completes and 4 x 32 x
// (136 - 40) = 12288 registers reach the pool at the end of cycle 29.
// Warpgroup 1 executes setmaxnreg.inc 232 in cycle 33; it needs 4 x 32 x
// (232 - 136) = 12288, which the pool holds, so the allocator grants it
// in that cycle (0 cycles blocked) and warps 4-7 issue pc 18 at 34. The
// second CTA repeats this once the first has left.
func TestSetmaxnregExampleProducerConsumer(t *testing.T) {
	e, ok := examples.ByName("setmaxnreg")
	if !ok {
		t.Fatal("no setmaxnreg example")
	}
	cfg := config.Default()
	// The cycles above are worked out with the flat memory timing (ld.param
	// at lat.param) and unthrottled pipes.
	cfg.Mem.Model, cfg.Pipe.Throttle = config.MemFlat, false
	im := assemble(t, e.Name+".ptx", e.PTX)
	sm, err := New(cfg, im, launchOf(e))
	if err != nil {
		t.Fatal(err)
	}
	var log issueLog
	log.hook(sm)
	rep, _ := sm.Run()
	wantNoErrors(t, rep)
	if err := e.Verify(envOf(sm), rep.Buffers); err != nil {
		t.Fatal(err)
	}
	dec, inc := pcOfText(t, sm, "setmaxnreg.dec"), pcOfText(t, sm, "setmaxnreg.inc")
	after := inc + 1 // mov.u32 %r15, 2
	for w := 0; w < 8; w++ {
		pc, at := dec, uint64(29)
		if w >= 4 {
			pc, at = inc, 33
		}
		var c uint64
		for _, i := range log.at(pc) {
			if i.Warp == w {
				c = i.Cycle
				break
			}
		}
		if c != at {
			t.Errorf("warp %d executed its setmaxnreg at cycle %d, want %d", w, c, at)
		}
	}
	for w := 4; w < 8; w++ {
		var c uint64
		for _, i := range log.at(after) {
			if i.Warp == w {
				c = i.Cycle
				break
			}
		}
		if c != 34 {
			t.Errorf("warp %d went on after its .inc at cycle %d, want 34", w, c)
		}
	}
	if rep.RegPool.LaunchNReg != 136 || !rep.RegPool.Effect || len(rep.RegPool.CTAs) != 2 {
		t.Fatalf("regpool %+v", rep.RegPool)
	}
	for cta := uint64(0); cta < 2; cta++ {
		c := poolOf(t, rep, cta)
		wantNRegs(t, c, rep8(40, 232)...)
		if c.PoolSize != 34816 || c.FreeAtEnd != 0 || c.HighWater != 12288 {
			t.Errorf("CTA %d pool %+v", cta, c)
		}
		for _, w := range c.Warps {
			if w.IncBlockedCycles != 0 {
				t.Errorf("CTA %d warp %d blocked %d cycles", cta, w.Warp, w.IncBlockedCycles)
			}
		}
	}
}

// An .inc that can never be satisfied ends the run in deadlock, naming
// the waiting warps and the pool: warpgroup 0 goes down to 40, warpgroup 1
// asks for 256 (4 x 32 x 120 = 15360 registers) while the pool holds 12288
// and could hold at most 12288 + 4 x 32 x (40 - 24) = 14336.
func TestSetmaxnregUnsatisfiableIncDeadlock(t *testing.T) {
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", splitBody(
		"setmaxnreg.dec.sync.aligned.u32 40;",
		"setmaxnreg.inc.sync.aligned.u32 256; // never")), rpLaunch(256, 136))
	wantDeadlock(t, rep, "setmaxnreg.inc can never be satisfied", "CTA 0,0,0 warps 4-7", "need 15360 registers", "12288 free", "at most 14336")
	if rep.Cycles > 1000 {
		t.Errorf("found after %d cycles", rep.Cycles)
	}
}

// Warps held at a setmaxnreg and warps at a barrier can wait for each
// other: warpgroup 1 waits for registers warpgroup 0 would release after
// the bar.sync it waits at. The pool alone cannot tell (warpgroup 0 could
// still release); the SM reports the deadlock with the held warps.
func TestSetmaxnregBarrierDeadlock(t *testing.T) {
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", splitBody(
		"bar.sync 0;\n\tsetmaxnreg.dec.sync.aligned.u32 40;",
		"setmaxnreg.inc.sync.aligned.u32 232;\n\tbar.sync 0;")), rpLaunch(256, 136))
	wantDeadlock(t, rep, "barrier or a setmaxnreg", "CTA 0,0,0 warps 4-7 wait at a setmaxnreg (pool: 0 of 34816 registers free)")
	if rep.Cycles > 1000 {
		t.Errorf("found after %d cycles", rep.Cycles)
	}
}

// Reading or writing a register at or above the warp's current count is
// an ILLEGAL_REGISTER warp error naming the register.
func TestSetmaxnregIllegalRegister(t *testing.T) {
	defs, sum := manyValues(48)
	t.Run("read", func(t *testing.T) {
		sm, rep, _ := runLogged(t, rpConfig(), rpKernel("", defs+`
	setmaxnreg.dec.sync.aligned.u32 40;
`+sum+"\tret;"), rpLaunch(32, 64))
		if int(sm.kern.Regs) <= 40 || rep.Status != StatusFault || len(rep.Errors) != 1 {
			t.Fatalf("regs %d status %s errors %+v", sm.kern.Regs, rep.Status, rep.Errors)
		}
		e := rep.Errors[0]
		if e.Kind != "illegal_register" || e.Register == nil || *e.Register < 40 || !strings.Contains(e.Message, fmt.Sprintf("reads R%d, at or above the warp's 40 registers", *e.Register)) {
			t.Fatalf("error %+v", e)
		}
		if esr := rep.Warps[0].ESRDecoded; !strings.Contains(esr, "ILLEGAL_REGISTER") {
			t.Errorf("ESR %q", esr)
		}
	})
	t.Run("write", func(t *testing.T) {
		_, rep, _ := runLogged(t, rpConfig(), rpKernel("", `
	setmaxnreg.dec.sync.aligned.u32 40;
`+defs+sum+"\tret;"), rpLaunch(32, 64))
		if rep.Status != StatusFault || len(rep.Errors) != 1 || rep.Errors[0].Kind != "illegal_register" || !strings.Contains(rep.Errors[0].Message, "writes R") {
			t.Fatalf("status %s errors %+v", rep.Status, rep.Errors)
		}
	})
	t.Run("within", func(t *testing.T) {
		_, rep, _ := runLogged(t, rpConfig(), rpKernel("", defs+sum+`
	setmaxnreg.dec.sync.aligned.u32 40;
	st.global.u32 [%rd3], %r1;
	ret;`), rpLaunch(32, 64))
		wantNoErrors(t, rep)
	})
}

// The report's "regpool" key (smsim run --json).
func TestSetmaxnregReportJSON(t *testing.T) {
	_, rep, _ := runLogged(t, rpConfig(), rpKernel("", decInc232), rpLaunch(256, 136))
	wantNoErrors(t, rep)
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var got struct {
		LaunchNReg int  `json:"launch_nreg"`
		Effect     bool `json:"effect"`
		CTAs       []struct {
			CTA       uint64 `json:"cta"`
			PoolSize  uint32 `json:"pool_size"`
			FreeAtEnd uint32 `json:"free_at_end"`
			HighWater uint32 `json:"high_water"`
			Warps     []struct {
				Warp             int    `json:"warp"`
				NRegAtEnd        int    `json:"nreg_at_end"`
				IncBlockedCycles uint64 `json:"inc_blocked_cycles"`
			} `json:"warps"`
		} `json:"ctas"`
	}
	if err := json.Unmarshal(m["regpool"], &got); err != nil {
		t.Fatalf("regpool %s: %v", m["regpool"], err)
	}
	if got.LaunchNReg != 136 || !got.Effect || len(got.CTAs) != 1 || got.CTAs[0].PoolSize != 34816 || got.CTAs[0].HighWater != 12288 || len(got.CTAs[0].Warps) != 8 || got.CTAs[0].Warps[7].NRegAtEnd != 232 {
		t.Fatalf("regpool %s", m["regpool"])
	}
	for _, k := range []string{`"free_at_end":0`, `"inc_blocked_cycles":`} {
		if !strings.Contains(string(m["regpool"]), k) {
			t.Errorf("regpool %s lacks %s", m["regpool"], k)
		}
	}
}

// With regpool.strict=false undefined behaviour is a warning and the run
// goes on; NOT_ALL_WARPS abandons the rendezvous (nothing changes).
func TestSetmaxnregNonStrictContinues(t *testing.T) {
	cfg := rpConfig()
	cfg.RegPool.Strict = false
	_, rep, _ := runLogged(t, cfg, rpKernel("", `
	setp.eq.u32 %p1, %r4, 3;
	@%p1 exit;
	setmaxnreg.dec.sync.aligned.u32 40;
	st.global.u32 [%rd3], %r1;
	ret;`), rpLaunch(128, 136))
	wantCompleted(t, rep)
	if len(rep.Errors) == 0 || rep.Errors[0].Kind != "setmaxnreg" || !rep.Errors[0].Warning || !strings.Contains(rep.Errors[0].Message, "NOT_ALL_WARPS") {
		t.Fatalf("errors %+v", rep.Errors)
	}
	wantNRegs(t, poolOf(t, rep, 0), 136, 136, 136, 136)
}
