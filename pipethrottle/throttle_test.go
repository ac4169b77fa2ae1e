package pipethrottle_test

import (
	"math/rand"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/rtl/rtltest"
	"github.com/smsim/smsim/unitcfg"
)

func newUnit(t *testing.T, preset string) *pipethrottle.Unit {
	t.Helper()
	cfg, err := config.Preset(preset)
	if err != nil {
		t.Fatal(err)
	}
	u, err := pipethrottle.New(unitcfg.PipeThrottle(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// rate drives every scheduler with a request to pipe q every cycle for n
// cycles and returns the warp instructions accepted per cycle per SM,
// times 32: results per clock per SM.
func rate(u *pipethrottle.Unit, q pipethrottle.Pipe, n int) float64 {
	var in pipethrottle.Inputs
	for k := 0; k < u.Params().NumPorts; k++ {
		in.ReqValid[k], in.ReqPipe[k] = true, uint8(q)
	}
	acc := 0
	for c := 0; c < n; c++ {
		o := u.Eval(in)
		for k := 0; k < u.Params().NumPorts; k++ {
			if o.Accept[k] {
				acc++
			}
		}
		u.Tick()
	}
	return float64(acc*pipethrottle.WarpLanes) / float64(n)
}

// Each pipe, saturated by every scheduler, delivers its configured rate:
// at h100 FP32 128, INT32 64, IMAD 64, FP64 64, SFU 16, CVT 16 results per
// clock per SM (CUDA C++ Programming Guide, compute capability 9.0); the
// small preset has half of each.
func TestPipeRates(t *testing.T) {
	for _, c := range []struct {
		preset string
		want   [pipethrottle.NumPipes]float64
	}{
		{"h100", [...]float64{128, 64, 64, 64, 16, 16}},
		{"small", [...]float64{64, 32, 32, 32, 8, 8}},
	} {
		for q := pipethrottle.Pipe(0); q < pipethrottle.NumPipes; q++ {
			u := newUnit(t, c.preset)
			const n = 4096
			got := rate(u, q, n)
			// The first instruction of each scheduler is free (the pipes
			// start full): allow one per scheduler.
			slack := float64(u.Params().NumPorts*pipethrottle.WarpLanes) / n
			if got < c.want[q] || got > c.want[q]+slack {
				t.Errorf("%s %s: %.3f results/clk/SM, want %.0f", c.preset, q, got, c.want[q])
			}
			if e := u.Q().Executed[q]; e != uint64(got*n/pipethrottle.WarpLanes+0.5) {
				t.Errorf("%s %s: executed %d", c.preset, q, e)
			}
		}
	}
}

// One scheduler's SFU at h100 (16 / 4 schedulers = 4 lanes a clock) takes
// a warp instruction every 8 cycles; its other pipes stay ready, and the
// other schedulers are unaffected.
func TestBusyPipeCycles(t *testing.T) {
	u := newUnit(t, "h100")
	var in pipethrottle.Inputs
	in.ReqValid[0], in.ReqPipe[0] = true, uint8(pipethrottle.SFU)
	var acc []int
	for c := 0; c < 24; c++ {
		o := u.Eval(in)
		if o.Accept[0] {
			acc = append(acc, c)
		}
		if o.PipeReady[0]&(1<<pipethrottle.FP32) == 0 || o.PipeReady[1] != 1<<pipethrottle.NumPipes-1 {
			t.Fatalf("cycle %d: ready %06b %06b", c, o.PipeReady[0], o.PipeReady[1])
		}
		if ready := o.PipeReady[0]&(1<<pipethrottle.SFU) != 0; ready != o.Accept[0] || ready != u.Ready(0, pipethrottle.SFU) {
			t.Fatalf("cycle %d: ready %v accept %v", c, ready, o.Accept[0])
		}
		u.Tick()
	}
	if len(acc) != 3 || acc[0] != 0 || acc[1] != 8 || acc[2] != 16 {
		t.Fatalf("accepted at %v, want 0 8 16", acc)
	}
}

// A rate that does not divide the cost (48 lanes over 4 schedulers: a warp
// instruction every 2.67 cycles) is kept exactly over time, and never lets
// two instructions through closer than one cycle apart.
func TestFractionalRate(t *testing.T) {
	p := pipethrottle.Params{NumPorts: 4}
	for q := range p.Rate {
		p.Rate[q] = 48
	}
	u, err := pipethrottle.New(p)
	if err != nil {
		t.Fatal(err)
	}
	got := rate(u, pipethrottle.FP32, 3*1000)
	if got < 48 || got > 48.2 {
		t.Fatalf("%.3f results/clk, want 48", got)
	}
}

func TestTwoPhase(t *testing.T) {
	u := newUnit(t, "h100")
	r := rand.New(rand.NewSource(3))
	ins := make([]pipethrottle.Inputs, 500)
	for i := range ins {
		for k := 0; k < pipethrottle.MaxPorts; k++ {
			ins[i].ReqValid[k] = r.Intn(3) > 0
			ins[i].ReqPipe[k] = uint8(r.Intn(int(pipethrottle.NumPipes) + 1)) // NumPipes: no such pipe, never accepted
		}
	}
	outs := rtltest.CheckTwoPhase(t, u, ins...)
	for i, o := range outs {
		for k := 0; k < pipethrottle.MaxPorts; k++ {
			if o.Accept[k] && (k >= 4 || ins[i].ReqPipe[k] >= uint8(pipethrottle.NumPipes)) {
				t.Fatalf("cycle %d: port %d accepted %+v", i, k, ins[i])
			}
		}
	}
	rtltest.CheckTags(t, pipethrottle.Inputs{}, pipethrottle.Outputs{}, pipethrottle.State{})
	if sig := u.Signals(); len(sig) == 0 {
		t.Fatal("no signals")
	}
}

func TestParamsCheck(t *testing.T) {
	good := unitcfg.PipeThrottle(config.Default())
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	bad := good
	bad.Rate[pipethrottle.SFU] = 0
	if _, err := pipethrottle.New(bad); err == nil {
		t.Fatal("rate 0 accepted")
	}
	bad = good
	bad.NumPorts = 9
	if _, err := pipethrottle.New(bad); err == nil {
		t.Fatal("9 ports accepted")
	}
}

func TestMetrics(t *testing.T) {
	u := newUnit(t, "h100")
	rate(u, pipethrottle.SFU, 16)
	rate(u, pipethrottle.CVT, 16)
	m := u.Metrics()
	for _, x := range m {
		if x.Name == "smsp__inst_executed_pipe_xu.sum" && x.Value != 16 {
			t.Fatalf("%s = %d, want 16 (2 per scheduler of each pipe)", x.Name, x.Value)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		op     isa.Opcode
		t1, t2 isa.Type
		want   pipethrottle.Pipe
	}{
		{isa.OpFMA, isa.F32, 0, pipethrottle.FP32},
		{isa.OpADD, isa.F16x2, 0, pipethrottle.FP32},
		{isa.OpFMA, isa.F64, 0, pipethrottle.FP64},
		{isa.OpADD, isa.S32, 0, pipethrottle.INT32},
		{isa.OpAND, isa.B32, 0, pipethrottle.INT32},
		{isa.OpMAD, isa.S32, 0, pipethrottle.IMAD},
		{isa.OpMUL, isa.U64, 0, pipethrottle.IMAD},
		{isa.OpRCP, isa.F32, 0, pipethrottle.SFU},
		{isa.OpSQRT, isa.F64, 0, pipethrottle.SFU},
		{isa.OpEX2, isa.F32, 0, pipethrottle.SFU},
		{isa.OpPOPC, isa.B32, 0, pipethrottle.SFU},
		{isa.OpDIV, isa.U32, 0, pipethrottle.SFU},
		{isa.OpCVT, isa.F32, isa.S32, pipethrottle.CVT},
		{isa.OpCVT, isa.U32, isa.U64, pipethrottle.CVT},
		{isa.OpCVT, isa.S32, isa.S16, pipethrottle.INT32},
		{isa.OpMOV, isa.F32, 0, pipethrottle.INT32},
		{isa.OpSELP, isa.F64, 0, pipethrottle.INT32},
	} {
		in := isa.Inst{Op: c.op, Type: c.t1, Type2: c.t2}
		if got := pipethrottle.Classify(&in); got != c.want {
			t.Errorf("%v %v %v: %s, want %s", c.op, c.t1, c.t2, got, c.want)
		}
	}
}

// Advance(n) is n cycles without a request, and ReadyIn says when a busy
// pipe takes an instruction again, as stepping finds.
func TestAdvanceAndReadyIn(t *testing.T) {
	p := pipethrottle.Params{NumPorts: 4, Rate: [pipethrottle.NumPipes]int{128, 64, 48, 64, 16, 7}}
	stepped, _ := pipethrottle.New(p)
	skipped, _ := pipethrottle.New(p)
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 300; i++ {
		var in pipethrottle.Inputs
		for k := 0; k < 4; k++ {
			in.ReqValid[k], in.ReqPipe[k] = r.Intn(2) == 0, uint8(r.Intn(int(pipethrottle.NumPipes)))
		}
		stepped.Eval(in)
		stepped.Tick()
		skipped.Eval(in)
		skipped.Tick()
		// ReadyIn agrees with stepping a copy.
		for q := pipethrottle.Pipe(0); q < pipethrottle.NumPipes; q++ {
			want := uint64(0)
			probe := *stepped
			for !probe.Ready(1, q) {
				probe.Eval(pipethrottle.Inputs{})
				probe.Tick()
				want++
			}
			if got := stepped.ReadyIn(1, q); got != want {
				t.Fatalf("step %d: ReadyIn(1, %s) = %d, stepping %d", i, q, got, want)
			}
		}
		n := uint64(r.Intn(12))
		for j := uint64(0); j < n; j++ {
			stepped.Eval(pipethrottle.Inputs{})
			stepped.Tick()
		}
		skipped.Advance(n)
		if stepped.Q() != skipped.Q() {
			t.Fatalf("step %d: after %d idle cycles\nstepped %+v\nskipped %+v", i, n, stepped.Q(), skipped.Q())
		}
	}
}

// Step (the SM's fused Eval and Tick) leaves the registers Eval and Tick
// leave, and ReadyMask is PipeReady, over random requests and rates with
// Advance and Reset in between.
func TestStepMatchesEvalTick(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for trial := 0; trial < 50; trial++ {
		p := pipethrottle.Params{NumPorts: 1 + r.Intn(pipethrottle.MaxPorts)}
		for q := range p.Rate {
			p.Rate[q] = 1 + r.Intn(3*pipethrottle.WarpLanes*p.NumPorts/2)
		}
		a, err := pipethrottle.New(p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := pipethrottle.New(p)
		for c := 0; c < 400; c++ {
			var in pipethrottle.Inputs
			for k := 0; k < p.NumPorts; k++ {
				in.ReqValid[k], in.ReqPipe[k] = r.Intn(3) > 0, uint8(r.Intn(int(pipethrottle.NumPipes)+1))
			}
			o := a.Eval(in)
			for k := 0; k < p.NumPorts; k++ {
				if m := b.ReadyMask(k); m != o.PipeReady[k] {
					t.Fatalf("trial %d cycle %d: ReadyMask(%d) %#b, PipeReady %#b", trial, c, k, m, o.PipeReady[k])
				}
			}
			a.Tick()
			b.Step(&in)
			if a.Q() != b.Q() || b.D() != b.Q() {
				t.Fatalf("trial %d cycle %d: Step differs from Eval and Tick", trial, c)
			}
			switch r.Intn(40) {
			case 0:
				n := uint64(r.Intn(20))
				a.Advance(n)
				b.Advance(n)
			case 1:
				a.Reset()
				b.Reset()
			}
		}
	}
}
