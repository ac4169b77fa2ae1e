package pipeline

import (
	"encoding/binary"
	"encoding/json"
	"math/rand"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
)

// TestSkipIdleEquivalence: Run skips cycles in which no warp can issue; a
// registered OnCycle hook turns that off. Both must give the same report.
func TestSkipIdleEquivalence(t *testing.T) {
	for _, name := range []string{"nanosleep", "smem_reduce", "atomics", "recursion", "trap_divergent", "exit_partial"} {
		e, _ := examples.ByName(name)
		im := assemble(t, name+".ptx", e.PTX)
		cfg := config.Default()
		a, err := New(cfg, im, launchOf(e))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := New(cfg, im, launchOf(e))
		cycles := 0
		b.OnCycle(func(*CycleInfo) { cycles++ })
		ra, _ := a.Run()
		rb, _ := b.Run()
		ja, _ := json.Marshal(ra)
		jb, _ := json.Marshal(rb)
		if string(ja) != string(jb) {
			t.Errorf("%s: Run with and without skipping differ:\n%s\n%s", name, ja, jb)
		}
		if uint64(cycles) != rb.Cycles && rb.Status == StatusCompleted {
			// The last Step (which finds the grid done) is not a cycle.
			t.Errorf("%s: the hook saw %d cycles of %d", name, cycles, rb.Cycles)
		}
	}
}

// TestStepByStep drives an SM with Step alone.
func TestStepByStep(t *testing.T) {
	e, _ := examples.ByName("div_nested")
	sm, err := New(config.Default(), assemble(t, "div_nested.ptx", e.PTX), launchOf(e))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for sm.Step() {
		n++
	}
	if sm.Step() || !sm.Done() || sm.Status() != StatusCompleted {
		t.Fatalf("status %s", sm.Status())
	}
	rep := sm.Report()
	if err := e.Verify(envOf(sm), rep.Buffers); err != nil {
		t.Error(err)
	}
	if uint64(n) != rep.Cycles {
		t.Errorf("%d steps, %d cycles", n, rep.Cycles)
	}
}

func TestDeterminism(t *testing.T) {
	e := examples.Demo()
	im := assemble(t, e.Name+".ptx", e.PTX)
	var prev []byte
	for i := 0; i < 3; i++ {
		sm, err := New(config.Default(), im, launchOf(e))
		if err != nil {
			t.Fatal(err)
		}
		rep, _ := sm.Run()
		j, _ := json.Marshal(rep)
		if prev != nil && string(j) != string(prev) {
			t.Fatal("two runs of the same launch differ")
		}
		prev = j
	}
}

// TestNoPerCycleAllocations: once warmed up, a cycle allocates nothing.
func TestNoPerCycleAllocations(t *testing.T) {
	e := examples.Benchmark().WithArgs(map[string]uint64{examples.BenchIters: 2000})
	sm, err := New(config.Default(), assemble(t, e.Name+".ptx", e.PTX), launchOf(e))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		sm.Step()
	}
	if a := testing.AllocsPerRun(2000, func() { sm.Step() }); a != 0 {
		t.Errorf("%.2f allocations per cycle", a)
	}
	if sm.Done() {
		t.Fatal("the run ended during the measurement")
	}
}

// TestPoliciesAgree: every scheduling policy computes the same results.
func TestPoliciesAgree(t *testing.T) {
	for _, name := range []string{"demo_collatz", "smem_reduce", "recursion"} {
		e, _ := examples.ByName(name)
		im := assemble(t, name+".ptx", e.PTX)
		for _, p := range []config.SchedPolicy{config.PolicyLRR, config.PolicyGTO, config.PolicyTwoLevel} {
			cfg := config.Default()
			cfg.Sched.Policy = p
			sm, err := New(cfg, im, launchOf(e))
			if err != nil {
				t.Fatal(err)
			}
			rep, _ := sm.Run()
			if rep.Status != StatusCompleted {
				t.Fatalf("%s/%s: %s %+v", name, p, rep.Status, rep.Errors)
			}
			if err := e.Verify(envOf(sm), rep.Buffers); err != nil {
				t.Errorf("%s/%s: %v", name, p, err)
			}
		}
	}
}

// randomImage builds a one-kernel image of random instructions (valid
// opcodes, arbitrary fields) for robustness tests.
func randomImage(data []byte) *isa.Image {
	n := len(data) / 16
	if n == 0 {
		n = 1
	}
	im := &isa.Image{Consts: []uint64{0, 1, isa.SharedWindow, 0x10000}, BrTables: []uint32{0, 0}, Files: []string{"fuzz"}, Source: []string{""}}
	for i := 0; i < n; i++ {
		var b [16]byte
		copy(b[:], data[min(16*i, len(data)):])
		in, err := isa.Decode(b[:])
		if err != nil {
			in = isa.Inst{Op: isa.OpNOP}
		}
		in.A.Val %= 24
		in.B.Val %= 24
		in.C.Val %= 24
		if in.A.Kind == isa.KindConst {
			in.A.Val %= 4
		}
		if in.B.Kind == isa.KindConst {
			in.B.Val %= 4
		}
		if in.C.Kind == isa.KindConst {
			in.C.Val %= 4
		}
		if in.Op == isa.OpBRA || in.Op == isa.OpCALL && in.Mods&isa.ModCallInd == 0 {
			in.Imm %= uint32(n + 1)
		}
		im.Code = append(im.Code, in)
		im.Lines = append(im.Lines, isa.LineInfo{Line: uint32(i + 1)})
	}
	for i := range im.BrTables {
		im.BrTables[i] = uint32(i) % uint32(n)
	}
	if len(data) > 0 && data[0]&0x80 != 0 {
		// Without a final EXIT threads may run off the end of the code.
		im.Code = append(im.Code, isa.Inst{Op: isa.OpEXIT})
		im.Lines = append(im.Lines, isa.LineInfo{Line: uint32(n + 1)})
	}
	im.Kernels = []isa.Kernel{{Name: "k", Regs: 20, Preds: 4, ParamBytes: 8, Params: []isa.KParam{{Name: "p", Size: 8, Align: 8, Type: isa.U64, Ptr: true}}}}
	im.Funcs = []isa.FuncInfo{{Name: "k", PC: 0, End: uint32(len(im.Code)), Kernel: true}, {Name: "f", PC: uint32(n / 2), End: uint32(len(im.Code))}}
	return im
}

func runRandom(t testing.TB, data []byte) {
	im := randomImage(data)
	cfg := smallConfig()
	cfg.Run.MaxCycles = 3000
	sm, err := New(cfg, im, Launch{Entry: "k", Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{40, 1, 1}, Buffers: []Buffer{{Param: "p", Size: 256}}})
	if err != nil {
		return
	}
	rep, err := sm.Run()
	if err != nil || rep.Status == StatusRunning {
		t.Fatalf("%v %s", err, rep.Status)
	}
}

// TestRandomPrograms runs random instruction streams: whatever they do,
// the SM reports and never panics.
func TestRandomPrograms(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		data := make([]byte, 16*(1+r.Intn(40)))
		r.Read(data)
		// Keep opcodes valid most of the time.
		for j := 0; j < len(data); j += 16 {
			data[j] %= byte(isa.OpCPASYNC) + 1
			binary.LittleEndian.PutUint32(data[j+8:], binary.LittleEndian.Uint32(data[j+8:])&0x3fffffff)
		}
		runRandom(t, data)
	}
}

func FuzzRun(f *testing.F) {
	f.Add(make([]byte, 64))
	f.Add([]byte("\x1c\x06\x00\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16*64 {
			return
		}
		runRandom(t, data)
	})
}

func TestSignalsAndSchedulers(t *testing.T) {
	e, _ := examples.ByName("div_ifelse")
	sm, err := New(config.Default(), assemble(t, e.Name+".ptx", e.PTX), launchOf(e))
	if err != nil {
		t.Fatal(err)
	}
	tab := sm.Signals()
	s, ok := tab.Find("issue_valid_o")
	if !ok || s.Scope != "sm_top.u_warp_sched_0" || len(tab) != 4*len(sm.Schedulers()[0].Signals("x")) {
		t.Fatalf("signals %+v", tab)
	}
	// The schedulers obey the two-phase discipline inside the SM: after
	// each Step their D equals Q (Tick ran) and Q only changes at Tick.
	for i := 0; i < 50 && sm.Step(); i++ {
		for _, u := range sm.Schedulers() {
			if u.Q() != u.D() {
				t.Fatalf("cycle %d: Q != D after Tick", i)
			}
		}
	}
}

// TestRunFor: advancing in bounded slices gives Run's result.
func TestRunFor(t *testing.T) {
	e, _ := examples.ByName("nanosleep")
	im := assemble(t, e.Name+".ptx", e.PTX)
	a, _ := New(config.Default(), im, launchOf(e))
	ra, _ := a.Run()
	b, _ := New(config.Default(), im, launchOf(e))
	slices := 0
	for b.RunFor(1000) {
		slices++
		if b.Cycle()%1000 != 0 {
			t.Fatalf("RunFor(1000) stopped at cycle %d", b.Cycle())
		}
	}
	rb := b.Report()
	ja, _ := json.Marshal(ra)
	jb, _ := json.Marshal(rb)
	if string(ja) != string(jb) || slices < int(ra.Cycles/1000)-1 {
		t.Fatalf("RunFor slices (%d) differ from Run", slices)
	}
}
