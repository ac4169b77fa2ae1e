package cosim

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/regpool"
)

func regPool(t testing.TB) Unit {
	t.Helper()
	u, err := RegPool(RegPoolStdParams())
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestRegPoolMillion: one million random cycles at the standard parameter
// set, with zero mismatches.
func TestRegPoolMillion(t *testing.T) { unitMillion(t, "reg_pool", 300) }

// TestRegPoolStimulusCoverage: at each standard parameter set, the random
// stimulus reaches grants, blocking, unsatisfiable requests, every UB
// kind and every protocol error.
func TestRegPoolStimulusCoverage(t *testing.T) {
	for _, p := range RegPoolSets() {
		t.Run(fmt.Sprintf("NumCTAs=%d", p.NumCTAs), func(t *testing.T) { regPoolCoverage(t, p) })
	}
}

func regPoolCoverage(t *testing.T, p regpool.Params) {
	g := newRegPoolStim(p, 300)
	pool, err := regpool.New(p)
	if err != nil {
		t.Fatal(err)
	}
	var in regpool.Inputs
	var grants, dec, blocked, unsat, noeff int
	ubs := map[regpool.UBKind]int{}
	errs := map[regpool.ErrCode]int{}
	for i := 0; i < 200_000; i++ {
		g.next(uint64(i), &in)
		o := pool.Eval(in)
		pool.Tick()
		if o.RelValid[p.RelGrant()] {
			grants++
		}
		for k := 0; k < p.NumPorts; k++ {
			if o.RelValid[k] && o.RelNew[k] < o.RelOld[k] {
				dec++
			}
		}
		for k := 0; k < p.NumRel(); k++ {
			if o.RelValid[k] && o.RelNoEffect[k] {
				noeff++
			}
		}
		if o.IncBlocked {
			blocked++
		}
		if o.IncUnsat {
			unsat++
		}
		for k := 0; k < 2*p.NumPorts; k++ {
			if o.UBValid[k] {
				for b := regpool.UBNotAllWarps; b <= regpool.UBPartialWarp; b <<= 1 {
					if o.UBKind[k]&b != 0 {
						ubs[b]++
					}
				}
			}
		}
		if o.ErrValid {
			errs[o.ErrCode]++
		}
	}
	t.Logf("grants %d, dec %d, no-effect %d, blocked cycles %d, unsatisfiable cycles %d", grants, dec, noeff, blocked, unsat)
	t.Logf("UB %v", ubs)
	t.Logf("errors %v", errs)
	if grants == 0 || dec == 0 || noeff == 0 || blocked == 0 || unsat == 0 {
		t.Error("stimulus misses grants, .dec, no-effect, blocking or unsatisfiable requests")
	}
	for b := regpool.UBNotAllWarps; b <= regpool.UBPartialWarp; b <<= 1 {
		if ubs[b] == 0 {
			t.Errorf("UB %s never happens", b)
		}
	}
	for e := regpool.ErrLaunchBusy; e <= regpool.ErrBadCount; e++ {
		if errs[e] == 0 {
			t.Errorf("protocol error %q never happens", e)
		}
	}
}

// TestRegPoolMutation: a mutant RTL that returns half the registers a
// .dec frees to the pool is caught the cycle after the warpgroup's last
// arrival, on stat_free_o (the statistics port selects CTA 0; outputs are
// compared before registers), with cta_free_q also differing. CTA 0 (4 warps, 64 registers per thread) is
// launched at cycle 0; warps 0..3 arrive at setmaxnreg.dec 32 at cycles
// 1..4: the pool gets (64-32) x 32 x 4 = 4096 registers, visible in the
// registers at cycle 5.
func TestRegPoolMutation(t *testing.T) {
	u := regPool(t)
	ins := make([]regpool.Inputs, 12)
	ins[0].KernThreads, ins[0].KernNReg, ins[0].KernNRegValid = 128, 64, true
	ins[0].CTALaunch.Set(0)
	for w := 0; w < 4; w++ {
		in := &ins[1+w]
		in.ArriveValid[0], in.ArriveWarp[0], in.ArrivePC[0] = true, uint8(w), 0x40
		in.ArriveCount[0], in.ArriveFullWarp[0] = 32, true
	}
	// The unmutated RTL agrees.
	if _, err := Run(context.Background(), u, records(t, u, ins), Options{}); err != nil {
		t.Fatalf("reference run: %v", err)
	}
	ho := mutantRTL(t, "rp-dec-half", "reg_pool.sv", "r = (32'(cur) - 32'(cnt)) * 32'd32", "r = (32'(cur) - 32'(cnt)) * 32'd16")
	m := caught(t, u, records(t, u, ins), Options{Harness: ho, Window: 8})
	if m.Cycle != 5 || m.Signal != "stat_free_o" || m.Go != "0x1000 (4096)" || m.RTL != "0x800 (2048)" {
		t.Fatalf("got cycle %d %s go %s rtl %s, want cycle 5 stat_free_o go 0x1000 (4096) rtl 0x800 (2048)\n%v", m.Cycle, m.Signal, m.Go, m.RTL, m)
	}
	if msg := m.Error(); !strings.Contains(msg, "also differing: cta_free_q") {
		t.Errorf("report does not name cta_free_q:\n%s", msg)
	}
	if m.Waves != nil {
		os.RemoveAll(m.Waves.Dir)
	}
}

// TestRegPoolOddSizes: parameter sets off the standard ones: a single CTA
// slot (CTA index 1 names no slot) with three ports, CTAs of up to 32
// warps (8 warpgroups), an allocation granularity of 2 and a register
// allocation unit that is not a power of two; one port with two CTA
// slots; and the most ports (8) with 16 CTA slots, where several packed
// vectors (exit_warp_i: 8 x 5 bits, exit_cta_i: 8 x 4 bits) are also a
// whole number of their Go elements, so a wrong element width would pass
// the codec's checks and show only here.
func TestRegPoolOddSizes(t *testing.T) {
	cycles := shortCycles(300_000)
	for i, p := range []regpool.Params{
		{NumCTAs: 1, NumPorts: 3, AllocGranularity: 2, MaxThreadsPerCTA: 1024, MaxRegsPerThread: 248, Regfile: 40000, RegAllocUnit: 96},
		{NumCTAs: 2, NumPorts: 1, AllocGranularity: 4, MaxThreadsPerCTA: 1000, MaxRegsPerThread: 200, Regfile: 100000, RegAllocUnit: 128},
		{NumCTAs: 16, NumPorts: 8, AllocGranularity: 8, MaxThreadsPerCTA: 512, MaxRegsPerThread: 256, Regfile: 65536, RegAllocUnit: 256},
	} {
		u, err := RegPool(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(ParamString(u.Params()), func(t *testing.T) {
			res, err := Run(context.Background(), u, random(u, uint64(400+i)), Options{Cycles: cycles})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d cycles in %v: %.0f cycles/s", res.Cycles, res.Elapsed.Round(time.Millisecond), res.Rate())
		})
	}
}

// TestRegPoolWire: at the h100 parameters (32 CTA slots: 5-bit CTA
// indices), reg_pool's own Go types travel packed as reg_pool.sv declares
// its vectors, checked on a few signals against the Verilog indexing.
func TestRegPoolWire(t *testing.T) {
	p := RegPoolSets()[0]
	if p.NumCTAs != 32 || p.NumPorts != 4 {
		t.Fatalf("the h100 set is %+v", p)
	}
	u, err := RegPool(p)
	if err != nil {
		t.Fatal(err)
	}
	l := u.Layout()
	field := func(rec []byte, name string) []byte {
		f, _, ok := l.Find(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return rec[f.Offset : f.Offset+f.Size]
	}
	// get reads bits [lo, lo+w) of a wire value.
	get := func(b []byte, lo, w int) uint64 {
		var v uint64
		for i := 0; i < w; i++ {
			v |= uint64(b[(lo+i)/8]>>((lo+i)%8)&1) << i
		}
		return v
	}
	var in regpool.Inputs
	for q := 0; q < p.NumPorts; q++ {
		in.ExitCTA[q], in.ExitWarp[q] = uint16(31-q), uint8(17+q)
		in.ArriveCount[q], in.SyncWarps[q] = uint16(256-8*q), 0x8000_0001<<q
	}
	in.ExitCTA[4] = 7 // beyond NumPorts: not on the wire
	rec := make([]byte, l.InBytes)
	if err := u.EncodeInput(&in, rec); err != nil {
		t.Fatal(err)
	}
	for q := 0; q < p.NumPorts; q++ {
		if got := get(field(rec, "exit_cta_i"), 5*q, 5); got != uint64(31-q) {
			t.Errorf("exit_cta_i[5*%d +: 5] = %d", q, got)
		}
		if got := get(field(rec, "exit_warp_i"), 5*q, 5); got != uint64(17+q) {
			t.Errorf("exit_warp_i[5*%d +: 5] = %d", q, got)
		}
		if got := get(field(rec, "arrive_count_i"), 9*q, 9); got != uint64(256-8*q) {
			t.Errorf("arrive_count_i[9*%d +: 9] = %d", q, got)
		}
		if got := get(field(rec, "sync_warps_i"), 32*q, 32); got != uint64(uint32(0x8000_0001<<q)) {
			t.Errorf("sync_warps_i[32*%d +: 32] = %#x", q, got)
		}
	}
	if f := field(rec, "exit_cta_i"); len(f) != 4 || get(f, 20, 12) != 0 {
		t.Errorf("exit_cta_i: % x", f)
	}

	// The registers, from a random run of the model, against the Go unit
	// fed the same inputs.
	m, err := u.NewModel()
	if err != nil {
		t.Fatal(err)
	}
	m.Reset()
	ref, err := regpool.New(p)
	if err != nil {
		t.Fatal(err)
	}
	st := u.NewRandom(7)
	g := newRegPoolStim(p, 7)
	out := make([]byte, l.OutBytes)
	if n := len(field(out, "wg_blk_cycles_q")); n != 2048 {
		t.Fatalf("wg_blk_cycles_q is %d bytes, want 2048", n)
	}
	var gin regpool.Inputs
	seen := 0
	var nwarps, launch, free, nreg, count, pc, blk []byte
	for c := 0; c < 20_000; c++ {
		st.Next(rec)
		g.next(uint64(c), &gin)
		ref.Eval(gin)
		m.Cycle(rec, out)
		if c%50 == 49 {
			q := ref.QRef()
			nwarps, launch, free = field(out, "cta_nwarps_q"), field(out, "cta_launch_nreg_q"), field(out, "cta_free_q")
			nreg, count, pc, blk = field(out, "wg_nreg_q"), field(out, "wg_count_q"), field(out, "wg_pc_q"), field(out, "wg_blk_cycles_q")
			for cta := 0; cta < p.NumCTAs; cta++ {
				if get(nwarps, 6*cta, 6) != uint64(q.NWarps[cta]) || get(launch, 9*cta, 9) != uint64(q.LaunchNReg[cta]) ||
					get(free, 32*cta, 32) != uint64(q.Free[cta]) {
					t.Fatalf("cycle %d: CTA %d's registers differ on the wire", c, cta)
				}
				for wg := 0; wg < regpool.MaxGroups; wg++ {
					k := 8*cta + wg
					if get(nreg, 9*k, 9) != uint64(q.NReg[cta][wg]) || get(count, 9*k, 9) != uint64(q.Count[cta][wg]) ||
						get(pc, 32*k, 32) != uint64(q.PC[cta][wg]) || get(blk, 64*k, 64) != q.BlkCycles[cta][wg] {
						t.Fatalf("cycle %d: warpgroup %d of CTA %d differs on the wire", c, wg, cta)
					}
					if q.BlkCycles[cta][wg] != 0 {
						seen++
					}
				}
			}
		}
		ref.Tick()
	}
	if seen == 0 {
		t.Error("no warpgroup ever blocked: the check saw only zeros")
	}
}
