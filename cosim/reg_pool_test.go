package cosim

import (
	"context"
	"errors"
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
func TestRegPoolMillion(t *testing.T) {
	cycles := uint64(1_000_000)
	if testing.Short() {
		cycles = 100_000
	}
	info, ok := LookupUnit("reg_pool")
	if !ok {
		t.Fatal("reg_pool is not registered")
	}
	sets, err := info.Sets()
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range sets {
		t.Run(ParamString(u.Params()), func(t *testing.T) {
			res, err := Run(context.Background(), u, random(u, uint64(300+i)), Options{Cycles: cycles})
			if err != nil {
				t.Fatal(err)
			}
			if res.Cycles != cycles {
				t.Fatalf("compared %d cycles, want %d", res.Cycles, cycles)
			}
			t.Logf("%d cycles in %v: %.0f cycles/s", res.Cycles, res.Elapsed.Round(time.Millisecond), res.Rate())
		})
	}
}

// TestRegPoolStimulusCoverage: the random stimulus reaches grants,
// blocking, unsatisfiable requests, every UB kind and every protocol error.
func TestRegPoolStimulusCoverage(t *testing.T) {
	p := RegPoolStdParams()
	g := newRegPoolStim(p, 300)
	ad, _ := newRPUnit(p)
	pool, err := regpool.New(p)
	if err != nil {
		t.Fatal(err)
	}
	var in rpIn
	var grants, dec, blocked, unsat, noeff int
	ubs := map[regpool.UBKind]int{}
	errs := map[regpool.ErrCode]int{}
	for i := 0; i < 200_000; i++ {
		g.next(uint64(i), &in)
		o := pool.Eval(ad.unpackIn(&in))
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

// regPoolDirected encodes Go inputs as a replayable stimulus.
func regPoolDirected(t *testing.T, u Unit, ins []regpool.Inputs) func() Stimulus {
	t.Helper()
	ad, err := newRPUnit(RegPoolStdParams())
	if err != nil {
		t.Fatal(err)
	}
	l := u.Layout()
	data := make([]byte, len(ins)*l.InBytes)
	for i := range ins {
		var in rpIn
		ad.packIn(&ins[i], &in)
		if err := u.EncodeInput(&in, data[i*l.InBytes:]); err != nil {
			t.Fatal(err)
		}
	}
	return func() Stimulus {
		r, _ := NewRecords(data, l.InBytes)
		return r
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
	if _, err := Run(context.Background(), u, regPoolDirected(t, u, ins), Options{}); err != nil {
		t.Fatalf("reference run: %v", err)
	}
	ho := mutantRTL(t, "rp-dec-half", "reg_pool.sv", "r = (32'(cur) - 32'(cnt)) * 32'd32", "r = (32'(cur) - 32'(cnt)) * 32'd16")
	_, err := Run(context.Background(), u, regPoolDirected(t, u, ins), Options{Harness: ho, Window: 8})
	var m *Mismatch
	if !errors.As(err, &m) {
		t.Fatalf("mutant not caught: %v", err)
	}
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

// TestRegPoolOddSizes: parameter sets off the standard one: a single CTA
// slot (CTA index 1 names no slot) with three ports, CTAs of up to 32
// warps (8 warpgroups), an allocation granularity of 2 and a register
// allocation unit that is not a power of two; and one port with two
// CTA slots.
func TestRegPoolOddSizes(t *testing.T) {
	cycles := uint64(300_000)
	if testing.Short() {
		cycles = 50_000
	}
	for i, p := range []regpool.Params{
		{NumCTAs: 1, NumPorts: 3, AllocGranularity: 2, MaxThreadsPerCTA: 1024, MaxRegsPerThread: 248, Regfile: 40000, RegAllocUnit: 96},
		{NumCTAs: 2, NumPorts: 1, AllocGranularity: 4, MaxThreadsPerCTA: 1000, MaxRegsPerThread: 200, Regfile: 100000, RegAllocUnit: 128},
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
