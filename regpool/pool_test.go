package regpool

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/smsim/smsim/internal/unittest"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

// The producer/consumer pattern of warp-specialized kernels: launch 136,
// the producer warpgroup 0 gives registers back (.dec 40), the consumer
// warpgroup 1 asks for them (.inc 232). The consumer arrives first and
// blocks; the .dec completes in cycle 10; the .inc proceeds in cycle 11,
// not earlier (released registers reach the pool at the end of the cycle).
func TestProducerConsumer(t *testing.T) {
	h := launched(t, 136, true) // cycle 0
	o := h.step(group(0, 1, pcA, true, 232)...)
	h.wantNoRel(o) // cycle 1: blocked
	for h.cyc < 10 {
		o = h.step()
		h.wantNoRel(o)
		if !o.IncBlocked || o.IncUnsat {
			t.Fatalf("cycle %d: blocked %v unsatisfiable %v", h.cyc-1, o.IncBlocked, o.IncUnsat)
		}
	}
	o = h.step(group(0, 0, pcB, false, 40)...) // cycle 10: the .dec completes
	h.wantRel(o, 3, 0, 0x0f, 136, 40)
	if o.RelValid[h.u.p.RelGrant()] {
		t.Fatal("the .inc proceeded in the cycle of the .dec")
	}
	if st := h.u.CTAStats(0); st.Free != 4*96*32 {
		t.Fatalf("pool after .dec %+v", st)
	}
	o = h.step() // cycle 11
	if h.cyc-1 != 11 {
		t.Fatalf("cycle %d", h.cyc-1)
	}
	h.wantRel(o, h.u.p.RelGrant(), 0, 0xf0, 136, 232)
	if o.IncBlocked {
		t.Fatal("still blocked")
	}
	h.wantNReg(0, cat(rep(4, 40), rep(4, 232))...)
	for w := 0; w < 8; w++ {
		_, blk, _ := h.u.WarpStats(0, w)
		want := uint64(0)
		if w >= 4 {
			want = 10 // blocked in cycles 1..10
		}
		if blk != want {
			t.Fatalf("warp %d blocked %d cycles, want %d", w, blk, want)
		}
	}
	if st := h.u.CTAStats(0); st.Free != 0 || st.Used != 4*96*32 || st.HighWater != 4*96*32 || st.Alloc != 8*136*32 {
		t.Fatalf("pool %+v", st)
	}
}

// Both warpgroups arrive in the same cycle (8 ports): the .dec completes,
// the .inc blocks for exactly one cycle.
func TestProducerConsumerSameCycle(t *testing.T) {
	p := testParams()
	p.NumPorts = 8
	h := newHarnessWith(t, p, 256, 136, true)
	u := h.u
	h.step(launchEv(0))
	o := h.step(append(group(0, 1, pcA, true, 232), group(0, 0, pcB, false, 40)...)...)
	h.wantRel(o, 7, 0, 0x0f, 136, 40)
	o = h.step()
	h.wantRel(o, p.RelGrant(), 0, 0xf0, 136, 232)
	if _, blk, _ := u.WarpStats(0, 4); blk != 1 {
		t.Fatalf("blocked %d cycles, want 1", blk)
	}
}

func TestUnsatisfiable(t *testing.T) {
	t.Run("request above what the CTA can ever free", func(t *testing.T) {
		h := launched(t, 136, true)
		o := h.step(group(0, 1, pcA, true, 256)...) // needs 4*120*32 = 15360; warpgroup 0 can free 4*112*32 = 14336
		if !o.IncBlocked || !o.IncUnsat || o.IncUnsatCTA != 0 || o.IncUnsatWarps != 0xf0 ||
			o.IncUnsatNeed != 15360 || o.IncUnsatFree != 0 || o.IncUnsatMax != 14336 {
			t.Fatalf("%+v", o)
		}
	})
	t.Run("every other warpgroup exited", func(t *testing.T) {
		h := launched(t, 136, true)
		o := h.step(group(0, 1, pcA, true, 200)...)
		if !o.IncBlocked || o.IncUnsat {
			t.Fatalf("satisfiable request flagged: %+v", o)
		}
		o = h.step(exitEv(0, 0), exitEv(0, 1), exitEv(0, 2), exitEv(0, 3))
		if !o.IncUnsat || o.IncUnsatWarps != 0xf0 || o.IncUnsatMax != 0 {
			t.Fatalf("%+v", o)
		}
		h.wantUB(o)
	})
	t.Run("warpgroup with an exited warp cannot release", func(t *testing.T) {
		h := launched(t, 136, true)
		h.step(group(0, 1, pcA, true, 200)...)
		o := h.step(exitEv(0, 2))
		if !o.IncUnsat || o.IncUnsatWarps != 0xf0 || o.IncUnsatMax != 0 || o.IncUnsatNeed != 8192 {
			t.Fatalf("%+v", o)
		}
		h.wantNoErr(o)
		h.wantUB(o) // nobody of warpgroup 0 waits: no UB yet
	})
	t.Run("all warpgroups blocked", func(t *testing.T) {
		h := launched(t, 136, true)
		o := h.step(group(0, 0, pcA, true, 144)...)
		if o.IncUnsat {
			t.Fatal("flagged while warpgroup 1 can release")
		}
		o = h.step(group(0, 1, pcA, true, 144)...)
		if !o.IncUnsat || o.IncUnsatWarps != 0xff || o.IncUnsatNeed != 4*8*32 {
			t.Fatalf("%+v", o)
		}
	})
	t.Run("some pool, not enough", func(t *testing.T) {
		h := launched(t, 64, true)
		h.step(group(0, 0, pcA, false, 32)...) // frees 4*32*32 = 4096; warpgroup 0 can free 4*8*32 more
		o := h.step(group(0, 1, pcA, true, 112)...)
		if !o.IncUnsat || o.IncUnsatFree != 4096 || o.IncUnsatMax != 4096+1024 || o.IncUnsatNeed != 4*48*32 {
			t.Fatalf("%+v", o)
		}
	})
}

// A warp that exits before its warpgroup's setmaxnreg: every warp that
// reaches it later is reported (NOT_ALL_WARPS) and goes on at once.
func TestExitBeforeSetmaxnreg(t *testing.T) {
	h := launched(t, 136, true)
	o := h.step(exitEv(0, 1))
	h.wantUB(o)
	h.wantNoRel(o)
	o = h.step(arrive(0, 0, pcA, false, 64), arrive(0, 2, pcA, false, 64))
	h.wantUB(o, "0.0:NOT_ALL_WARPS", "0.2:NOT_ALL_WARPS")
	if o.RelWarps[0] != 0x1 || o.RelWarps[1] != 0x4 {
		t.Fatalf("releases %#x %#x", o.RelWarps[0], o.RelWarps[1])
	}
	o = h.step(arrive(0, 3, pcA, false, 64))
	h.wantUB(o, "0.3:NOT_ALL_WARPS")
	h.wantRel(o, 0, 0, 0x8, 136, 136)
	h.wantNReg(0, rep(8, 136)...)
}

// A CTA whose warp count is not a multiple of 4 has a short last
// warpgroup; a partial last warp still owns registers for 32 lanes.
func TestShortWarpgroup(t *testing.T) {
	h := newHarness(t, 6*32-16, 136, true) // 6 warps, the last one half full
	h.step(launchEv(0))
	if st := h.u.CTAStats(0); st.Alloc != 6*32*136 {
		t.Fatalf("alloc %d", st.Alloc)
	}
	o := h.step(arrive(0, 4, pcA, false, 40), arrive(0, 5, pcA, false, 40))
	h.wantRel(o, 1, 0, 0x30, 136, 40)
	if st := h.u.CTAStats(0); st.Free != 2*96*32 {
		t.Fatalf("free %d", st.Free)
	}
	o = h.step(group(0, 0, pcA, true, 184)...) // needs 4*48*32 = 6144 = 2*96*32
	h.wantRel(o, h.u.p.RelGrant(), 0, 0x0f, 136, 184)
}

// The grant arbiter: one grant per cycle, CTAs round-robin after the last
// one granted.
func TestGrantRoundRobin(t *testing.T) {
	p := testParams()
	p.NumPorts = 8
	h := newHarnessWith(t, p, 256, 64, true)
	u := h.u
	h.step(launchEv(0), launchEv(1))
	h.step(append(group(0, 0, pcA, false, 24), group(1, 0, pcA, false, 24)...)...) // 5120 free in each
	h.step(syncEv(0, 0xff), syncEv(1, 0xff))
	o := h.step(group(0, 1, pcA, true, 96)...) // CTA 0 alone: granted at once
	h.wantRel(o, p.RelGrant(), 0, 0xf0, 64, 96)
	h.step(syncEv(0, 0xff))
	o = h.step(append(group(0, 1, pcB, true, 104), group(1, 1, pcA, true, 96)...)...)
	h.wantRel(o, p.RelGrant(), 1, 0xf0, 64, 96) // after CTA 0 comes CTA 1
	o = h.step()
	h.wantRel(o, p.RelGrant(), 0, 0xf0, 96, 104)
	if _, blk, _ := u.WarpStats(0, 7); blk != 1 {
		t.Fatalf("CTA 0 blocked %d cycles, want 1", blk)
	}
	if _, blk, _ := u.WarpStats(1, 7); blk != 0 {
		t.Fatalf("CTA 1 blocked %d cycles, want 0", blk)
	}
}

// CTA exit releases everything: the CTA's registers return to the
// register file and the slot can be launched again in the same cycle.
func TestCTAExit(t *testing.T) {
	h := launched(t, 136, true)
	if o := h.step(); o.RFUsed != 8*136*32 {
		t.Fatalf("rf_used_o %d", o.RFUsed)
	}
	h.step(group(0, 1, pcA, false, 40)...)
	h.step(exitEv(0, 0), exitEv(0, 1), exitEv(0, 2), exitEv(0, 3))
	o := h.step(exitEv(0, 4), exitEv(0, 5), exitEv(0, 6), exitEv(0, 7))
	h.wantUB(o)
	h.wantNoErr(o)
	o = h.step(ctaExitEv(0))
	h.wantNoErr(o)
	if st := h.u.CTAStats(0); st.Valid {
		t.Fatalf("CTA still resident %+v", st)
	}
	if h.u.Q().RFUsed != 0 {
		t.Fatal("register file not released")
	}
	// Exit and relaunch in one cycle: the new CTA starts fresh.
	h.step(launchEv(0))
	h.step(group(0, 0, pcA, false, 40)...)
	o = h.step(ctaExitEv(0), launchEv(0))
	if !o.ErrValid || o.ErrCode != ErrCTAExitLive {
		t.Fatalf("exit of a live CTA: %v %s", o.ErrValid, o.ErrCode)
	}
	h.wantNReg(0, rep(8, 136)...)
	if st := h.u.CTAStats(0); st.Free != 0 || h.u.Q().Unsync[0] != 0 {
		t.Fatalf("relaunched CTA %+v", st)
	}
}

func TestProtocolErrors(t *testing.T) {
	cases := []struct {
		name string
		pre  [][]ev
		evs  []ev
		want ErrCode
	}{
		{"arrive no CTA", nil, []ev{arrive(2, 0, pcA, false, 64)}, ErrNoCTA},
		{"arrive CTA out of range", nil, []ev{arrive(9, 0, pcA, false, 64)}, ErrNoCTA},
		{"arrive bad warp", nil, []ev{arrive(0, 8, pcA, false, 64)}, ErrBadWarp},
		{"arrive exited", [][]ev{{exitEv(0, 1)}}, []ev{arrive(0, 1, pcA, false, 64)}, ErrExited},
		{"arrive twice", [][]ev{{arrive(0, 1, pcA, false, 64)}}, []ev{arrive(0, 1, pcA, false, 64)}, ErrBusy},
		{"arrive while blocked", [][]ev{group(0, 0, pcA, true, 200)}, []ev{arrive(0, 1, pcA, true, 200)}, ErrBusy},
		{"arrive bad count", nil, []ev{arrive(0, 1, pcA, false, 12)}, ErrBadCount},
		{"exit twice", [][]ev{{exitEv(0, 1)}}, []ev{exitEv(0, 1)}, ErrExited},
		{"exit no CTA", nil, []ev{exitEv(3, 1)}, ErrNoCTA},
		{"exit bad warp", nil, []ev{exitEv(0, 31)}, ErrBadWarp},
		{"exit while waiting", [][]ev{{arrive(0, 1, pcA, false, 64)}}, []ev{exitEv(0, 1)}, ErrBusy},
		{"exit while blocked", [][]ev{group(0, 0, pcA, true, 200)}, []ev{exitEv(0, 1)}, ErrBusy},
		{"sync no CTA", nil, []ev{syncEv(1, 1)}, ErrNoCTA},
		{"sync bad warp", nil, []ev{syncEv(0, 1<<9)}, ErrBadWarp},
		{"launch busy", nil, []ev{launchEv(0)}, ErrLaunchBusy},
		{"CTA exit idle", nil, []ev{ctaExitEv(3)}, ErrCTAExitIdle},
		{"CTA exit live", nil, []ev{ctaExitEv(0)}, ErrCTAExitLive},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := launched(t, 136, true)
			for _, p := range c.pre {
				h.wantNoErr(h.step(p...))
			}
			o := h.step(c.evs...)
			if !o.ErrValid || o.ErrCode != c.want {
				t.Fatalf("err %v %s, want %s", o.ErrValid, o.ErrCode, c.want)
			}
			if c.want.String() == "err?" || c.want.String() == "" {
				t.Fatal("unnamed error")
			}
		})
	}
	// Exiting a blocked warp abandons its warpgroup's .inc: the others go.
	h := launched(t, 136, true)
	h.step(group(0, 0, pcA, true, 200)...)
	o := h.step(exitEv(0, 1))
	h.wantRel(o, h.u.p.RelExit(0), 0, 0x0d, 136, 136)
	if o.IncBlocked {
		t.Fatal("still blocked")
	}
	// Launch shape and register-file checks.
	for _, k := range []struct {
		threads, nreg int
		want          ErrCode
	}{{0, 64, ErrLaunchShape}, {1025, 64, ErrLaunchShape}, {256, 257, ErrLaunchShape}, {1024, 256, ErrLaunchRegfile}} {
		h := newHarness(t, k.threads, k.nreg, true)
		if k.want == ErrLaunchRegfile {
			h.step(launchEv(1))
		}
		o := h.step(launchEv(0))
		if !o.ErrValid || o.ErrCode != k.want || h.u.CTAStats(0).Valid {
			t.Fatalf("%+v: err %v %s", k, o.ErrValid, o.ErrCode)
		}
	}
}

// The granularity rounds the launch count up: 130 -> 136 at 8, 130 at 2.
func TestAllocGranularity(t *testing.T) {
	for _, c := range []struct{ g, nreg, want int }{{8, 130, 136}, {2, 130, 130}, {4, 1, 4}, {1, 77, 77}} {
		p := testParams()
		p.AllocGranularity = c.g
		u, err := New(p)
		if err != nil {
			t.Fatal(err)
		}
		u.Eval(Inputs{KernThreads: 64, KernNReg: uint16(c.nreg), KernNRegValid: true, CTALaunch: rtl.BitsOf(0)})
		u.Tick()
		if st := u.CTAStats(0); st.LaunchReg != c.want || st.Alloc != uint32(64*c.want) {
			t.Fatalf("granularity %d, maxnreg %d: %+v", c.g, c.nreg, st)
		}
	}
}

// rtltest.CheckTwoPhase over a scenario with every kind of event.
func TestCheckTwoPhase(t *testing.T) {
	h := newHarness(t, 256, 136, true)
	var ins []Inputs
	add := func(evs ...ev) { ins = append(ins, h.inputs(evs...)) }
	add(launchEv(0), launchEv(2))
	add(group(0, 1, pcA, true, 232)...)
	add()
	add(group(0, 0, pcA, false, 40)...)
	add()
	add(syncEv(0, 0xff), exitEv(2, 0))
	add(arriveEv(2, 1, pcA, false, 64, false), arrive(2, 2, pcA, false, 64))
	add(exitEv(0, 3), ctaExitEv(1))
	in := h.inputs()
	in.StatCTA, in.StatWarp = 0, 5
	ins = append(ins, in)
	outs := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, h.u, ins...)
	if g := h.u.p.RelGrant(); !outs[4].RelValid[g] || outs[4].RelNew[g] != 232 {
		t.Fatalf("grant missing: %+v", outs[4])
	}
	if !outs[8].StatValid || outs[8].StatNReg != 232 || outs[8].StatBlockedCycles != 3 {
		t.Fatalf("stats %+v", outs[8])
	}
	if err := rtl.CheckState(State{}); err != nil {
		t.Fatal(err)
	}
}

// QRef shows Q in place: what Q returns, before and after each Tick, and
// untouched by Eval.
func TestQRef(t *testing.T) {
	h := newHarness(t, 256, 136, true)
	q := h.u.QRef()
	for i, in := range []Inputs{h.inputs(launchEv(0)), h.inputs(group(0, 1, pcA, true, 232)...), h.inputs()} {
		h.u.Eval(in)
		if *q != h.u.Q() || q != h.u.QRef() {
			t.Fatalf("cycle %d: QRef after Eval is not Q", i)
		}
		h.u.Tick()
		if *q != h.u.Q() || *q != h.u.D() {
			t.Fatalf("cycle %d: QRef after Tick is not Q = D", i)
		}
	}
	if !q.Valid.Has(0) {
		t.Fatal("QRef does not show the launched CTA")
	}
}

// Every Inputs, Outputs and State field carries an sv tag with the
// direction's suffix, in lower_snake_case, and no name is used twice.
func TestSignalTags(t *testing.T) {
	rtltest.CheckTags(t, Inputs{}, Outputs{}, State{})
}

func TestSignalTable(t *testing.T) {
	u, _ := New(testParams())
	tab := u.Signals("sm_top.u_reg_pool")
	want := map[string]unittest.Sig{
		"kern_threads_i": {W: 11, Dir: rtl.DirIn}, "cta_launch_i": {W: 4, Dir: rtl.DirIn}, "arrive_valid_i": {W: 4, Dir: rtl.DirIn},
		"arrive_cta_i": {W: 8, Dir: rtl.DirIn}, "arrive_warp_i": {W: 20, Dir: rtl.DirIn}, "arrive_pc_i": {W: 128, Dir: rtl.DirIn},
		"arrive_count_i": {W: 36, Dir: rtl.DirIn}, "sync_warps_i": {W: 128, Dir: rtl.DirIn}, "stat_cta_i": {W: 2, Dir: rtl.DirIn},
		"rel_valid_o": {W: 9, Dir: rtl.DirOut}, "rel_warps_o": {W: 9 * 32, Dir: rtl.DirOut}, "rel_old_o": {W: 81, Dir: rtl.DirOut},
		"ub_valid_o": {W: 8, Dir: rtl.DirOut}, "ub_warp_o": {W: 40, Dir: rtl.DirOut}, "ub_kind_o": {W: 40, Dir: rtl.DirOut},
		"err_code_o": {W: 4, Dir: rtl.DirOut}, "inc_unsatisfiable_o": {W: 1, Dir: rtl.DirOut}, "inc_unsat_cta_o": {W: 2, Dir: rtl.DirOut},
		"stat_blocked_cycles_o": {W: 64, Dir: rtl.DirOut},
		"cta_valid_q":           {W: 4, Dir: rtl.DirReg}, "grant_rr_q": {W: 2, Dir: rtl.DirReg}, "cta_free_q": {W: 128, Dir: rtl.DirReg},
		"cta_nwarps_q": {W: 24, Dir: rtl.DirReg}, "wg_nreg_q": {W: 4 * 8 * 9, Dir: rtl.DirReg}, "wg_blk_cycles_q": {W: 4 * 8 * 64, Dir: rtl.DirReg},
	}
	unittest.CheckTable(t, tab, "sm_top.u_reg_pool", want, Inputs{}, Outputs{}, State{})
}

// TestCopyHelpers guards copyGlobal, copyCTA and zeroCTA (the partial
// copies of Eval and Tick): together they must cover every State field.
func TestCopyHelpers(t *testing.T) {
	const c = 2
	var src State
	v := reflect.ValueOf(&src).Elem()
	for i := 0; i < v.NumField(); i++ {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case f.Type() == reflect.TypeOf(rtl.Bits{}):
			f.Set(reflect.ValueOf(rtl.BitsOf(c)))
		case f.Kind() == reflect.Uint16 || f.Kind() == reflect.Uint32:
			f.SetUint(7)
		case f.Kind() == reflect.Array && f.Len() == MaxCTAs:
			e := f.Index(c)
			switch e.Kind() {
			case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
				e.SetUint(9)
			case reflect.Array:
				e.Index(MaxGroups - 1).SetUint(9)
			default:
				t.Fatalf("field %s: extend this test", name)
			}
		default:
			t.Fatalf("field %s: extend this test", name)
		}
	}
	var dst State
	copyGlobal(&dst, &src)
	copyCTA(&dst, &src, c)
	if dst != src {
		t.Fatal("copyGlobal + copyCTA miss a field")
	}
	zeroCTA(&src, c)
	copyGlobal(&src, &State{})
	if src != (State{}) {
		t.Fatal("zeroCTA misses a field")
	}
}

func TestNewErrors(t *testing.T) {
	bad := []func(*Params){
		func(p *Params) { p.NumCTAs = 0 }, func(p *Params) { p.NumCTAs = MaxCTAs + 1 },
		func(p *Params) { p.NumPorts = 0 }, func(p *Params) { p.NumPorts = 9 },
		func(p *Params) { p.AllocGranularity = 3 }, func(p *Params) { p.AllocGranularity = 16 },
		func(p *Params) { p.MaxThreadsPerCTA = 2048 }, func(p *Params) { p.MaxRegsPerThread = 300 },
		func(p *Params) { p.Regfile = 0 }, func(p *Params) { p.RegAllocUnit = 0 },
	}
	for i, f := range bad {
		p := testParams()
		f(&p)
		if _, err := New(p); err == nil {
			t.Errorf("case %d: %+v accepted", i, p)
		}
	}

}

func TestNames(t *testing.T) {
	k := UBNotAllWarps | UBNoSyncBetween | UBDecAbove | UBIncBelow | UBPartialWarp
	if got := k.String(); got != "NOT_ALL_WARPS|NO_SYNC_BETWEEN|DEC_ABOVE|INC_BELOW|PARTIAL_WARP" {
		t.Fatalf("%q", got)
	}
	if got := UBKind(0).String(); got != "" {
		t.Fatalf("%q", got)
	}
	if got := UBKind(0x80).String(); got != "UB?" {
		t.Fatalf("%q", got)
	}
	if strings.Count(k.Describe(), ";") != 4 {
		t.Fatalf("%q", k.Describe())
	}
	for e := ErrNone; e <= ErrBadCount; e++ {
		if e.String() == "err?" {
			t.Errorf("error %d unnamed", e)
		}
	}
	if ErrCode(200).String() != "err?" {
		t.Error("unknown error code")
	}
}

// An Eval that is not ticked leaves no trace: the next Eval starts again
// from Q, also when it takes the quiet path.
func TestEvalWithoutTick(t *testing.T) {
	u, _ := New(testParams())
	if u.Params() != testParams() || u.Blocked() {
		t.Fatal("fresh pool")
	}
	kern := Inputs{KernThreads: 256, KernNReg: 136, KernNRegValid: true}
	in := kern
	in.CTALaunch = rtl.BitsOf(0)
	u.Eval(in)
	u.Eval(kern) // quiet
	u.Tick()
	if u.q.Valid.Any() || u.Q() != u.D() {
		t.Fatal("an un-ticked launch leaked into Q")
	}
	u.Eval(in)
	u.Tick()
	in = kern
	for i := 0; i < 4; i++ {
		in.ArriveValid[i], in.ArriveWarp[i], in.ArriveInc[i], in.ArriveCount[i], in.ArriveFullWarp[i] = true, uint8(i), true, 200, true
	}
	u.Eval(in)
	u.Eval(kern)
	u.Tick()
	if u.Blocked() || u.Q().Wait[0] != 0 {
		t.Fatal("an un-ticked arrival leaked into Q")
	}
	u.Eval(in)
	u.Tick()
	if !u.Blocked() {
		t.Fatal("not blocked")
	}
	u.Reset()
	if u.Blocked() || u.q.Valid.Any() || u.Q().GrantRR != uint16(testParams().NumCTAs-1) {
		t.Fatal("reset")
	}
}

// docs/reg-pool.md documents every port and register.
func TestDocListsEverySignal(t *testing.T) {
	doc, err := os.ReadFile("../docs/reg-pool.md")
	if err != nil {
		t.Fatal("docs/reg-pool.md not found:", err)
	}
	u, _ := New(testParams())
	for _, s := range u.Signals("sm_top.u_reg_pool") {
		if !strings.Contains(string(doc), "`"+s.Name+"`") {
			t.Errorf("docs/reg-pool.md does not mention %s", s.Name)
		}
	}
}
