package regpool

import (
	"testing"

	"github.com/smsim/smsim/rtl"
)

// h100Params are reg_pool's parameters at the h100 preset
// (unitcfg.RegPool of config.Default).
func h100Params() Params {
	return Params{NumCTAs: 32, NumPorts: 4, AllocGranularity: 8, MaxThreadsPerCTA: 1024,
		MaxRegsPerThread: 256, Regfile: 65536, RegAllocUnit: 256}
}

// benchPool is an H100-sized pool with two resident CTAs; with blocked,
// warpgroup 1 of CTA 0 waits in .inc for registers that never come.
func benchPool(b *testing.B, blocked bool) (*Pool, Inputs) {
	u, err := New(h100Params())
	if err != nil {
		b.Fatal(err)
	}
	kern := Inputs{KernThreads: 256, KernNReg: 64, KernNRegValid: true}
	in := kern
	in.CTALaunch = rtl.BitsOf(0, 1)
	u.Eval(in)
	u.Tick()
	if blocked {
		in = kern
		for i := 0; i < 4; i++ {
			in.ArriveValid[i], in.ArriveWarp[i], in.ArriveInc[i], in.ArriveCount[i], in.ArriveFullWarp[i] = true, uint8(4+i), true, 200, true
		}
		u.Eval(in)
		u.Tick()
		if !u.Blocked() {
			b.Fatal("not blocked")
		}
	}
	return u, kern
}

func benchEval(b *testing.B, blocked bool) {
	u, in := benchPool(b, blocked)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		u.Eval(in)
		u.Tick()
	}
}

func BenchmarkEvalIdle(b *testing.B)    { benchEval(b, false) }
func BenchmarkEvalBlocked(b *testing.B) { benchEval(b, true) }
