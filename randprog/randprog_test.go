package randprog

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

func smallConfig(t testing.TB) config.Config {
	t.Helper()
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// familySets are the feature sets the self-checks cover: the base
// program, each family alone (with the operations the RTL runs, so the
// family's own constructs are what varies), every operation alone, and
// everything together.
func familySets() map[string]Features {
	rtlOps := []string{"mov", "add", "sub", "mul.lo", "and", "xor", "shl", "shr", "mad.lo"}
	sets := map[string]Features{"base": {}, "all": All()}
	for _, name := range Families() {
		f := Features{Ops: rtlOps}
		if err := f.Set(name, true); err != nil {
			panic(err)
		}
		sets[name] = f
	}
	sets["sregs"] = Features{Ops: rtlOps, SRegs: SRegNames()}
	sets["ops"] = Features{Ops: OpNames(), Compare: true}
	return sets
}

// check generates seed's program with f and checks the invariants: it
// assembles, runs to completion on the Go model with no error and no
// sanitizer finding (init, race, sync), and is deterministic (the same
// text and launch from a second generation; with rerun, the same final
// buffers and cycles from a second run).
func check(t testing.TB, cfg config.Config, seed uint64, f Features, lim Limits, rerun bool) *pipeline.Report {
	t.Helper()
	p, err := Generate(seed, f, lim)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := isa.AssembleSource("again.ptx", p.PTX); err != nil {
		t.Fatalf("seed %#x: %v", seed, err)
	}
	rep, err := p.RunGo(cfg)
	if err != nil {
		t.Fatalf("%v\n%s", err, p.PTX)
	}
	q, err := Generate(seed, f, lim)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p.PTX, q.PTX) || !reflect.DeepEqual(p.Launch, q.Launch) {
		t.Fatalf("seed %#x: two generations differ", seed)
	}
	if !rerun {
		return rep
	}
	rep2, err := q.RunGo(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Buffers, rep2.Buffers) || rep.Cycles != rep2.Cycles {
		t.Fatalf("seed %#x: two runs differ", seed)
	}
	return rep
}

// TestFamilies: for 300 seeds per feature set, every program assembles,
// completes cleanly on the Go model and is deterministic (every fifth
// program is run twice); without Exit
// the records of the threads hold their variables (out is not left all
// zero; with Exit every thread may leave early).
func TestFamilies(t *testing.T) {
	cfg := smallConfig(t)
	n := 300
	if testing.Short() {
		n = 40
	}
	for name, f := range familySets() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var cycles uint64
			for s := 0; s < n; s++ {
				rep := check(t, cfg, Seed(7, s), f, Limits{}, s%5 == 0)
				cycles += rep.Cycles
				p, _ := Generate(Seed(7, s), f, Limits{})
				checkTags(t, p, rep.Buffers[paramName(0)])
			}
			t.Logf("%d programs, %d cycles", n, cycles)
		})
	}
}

// checkTags: every thread's record ends with its tag, or (with Exit)
// is all zero; some thread ran to the end unless one of the first 32
// threads exits.
func checkTags(t testing.TB, p *Program, out []uint32) {
	t.Helper()
	n := int(p.Launch.Grid[0] * p.Launch.Block[0] * p.Launch.Block[1])
	if len(out) != n*p.RecordWords {
		t.Fatalf("seed %#x: out has %d words for %d threads of %d", p.Seed, len(out), n, p.RecordWords)
	}
	for i := 0; i < n; i++ {
		rec := out[i*p.RecordWords : (i+1)*p.RecordWords]
		if rec[p.TagWord] == Tag(uint32(i)) {
			continue
		}
		if !p.Features.Exit {
			t.Fatalf("seed %#x: thread %d: tag %#x, want %#x", p.Seed, i, rec[p.TagWord], Tag(uint32(i)))
		}
		for _, w := range rec {
			if w != 0 {
				t.Fatalf("seed %#x: thread %d exited but its record is %x", p.Seed, i, rec)
			}
		}
	}
}

// TestFeaturesAppear: each family's construct is in its programs (the
// switch is not dead).
func TestFeaturesAppear(t *testing.T) {
	marks := map[string]string{
		"compare": "setp.", "branch": "bra.uni", "loop": "add.s32 \t%r", "call": "call.uni",
		"icall": ".callprototype", "brx": "brx.idx", "barrier": "bar.sync", "exit": " exit;",
		"shared": ".shared.", "global": "scratch", "narrow": "8", "nanosleep": "nanosleep",
		"pmevent": "pmevent", "warp": "activemask", "trap": "BPT.TRAP", "multicta": "", "block2d": "",
	}
	sets := familySets()
	for _, name := range Families() {
		seen := false
		for s := 0; s < 40 && !seen; s++ {
			p, err := Generate(Seed(3, s), sets[name], Limits{})
			if err != nil {
				t.Fatal(err)
			}
			switch name {
			case "multicta":
				seen = p.Launch.Grid[0] > 1
			case "block2d":
				seen = p.Launch.Block[1] > 1 && strings.Contains(string(p.PTX), "%tid.y")
			case "global":
				seen = strings.Contains(string(p.PTX), paramName(2))
			case "narrow":
				seen = strings.Contains(string(p.PTX), ".u8") || strings.Contains(string(p.PTX), ".s16")
			default:
				seen = strings.Contains(string(p.PTX), marks[name])
			}
		}
		if !seen {
			t.Errorf("family %s: no program of 40 shows it", name)
		}
	}
}

// TestLimits: programs generated for a register budget stay inside it
// and inside the thread and CTA limits.
func TestLimits(t *testing.T) {
	cfg := smallConfig(t)
	lim := Limits{MaxRegs: 16, MaxPreds: 8, MaxThreads: 96, MaxCTAs: 2}
	for s := 0; s < 200; s++ {
		p, err := Generate(Seed(11, s), All(), lim)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := p.Image.Kernel(Entry)
		if k.Regs > 16 || k.Preds > 8 || p.Launch.Block[0]*p.Launch.Block[1] > 96 || p.Launch.Grid[0] > 2 {
			t.Fatalf("seed %d: %d registers, %d predicates, block %d, grid %d", s, k.Regs, k.Preds, p.Launch.Block[0], p.Launch.Grid[0])
		}
		if s < 50 {
			if _, err := p.RunGo(cfg); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := Generate(1, All(), Limits{MaxRegs: 4}); err == nil {
		t.Error("4 registers accepted")
	}
	for s := 0; s < 20; s++ {
		// One predicate: a smaller program fits, or an error says none did.
		if p, err := Generate(Seed(12, s), All(), Limits{MaxRegs: 16, MaxPreds: 1}); err == nil {
			if k, _ := p.Image.Kernel(Entry); k.Preds > 1 {
				t.Fatalf("seed %d: %d predicates", s, k.Preds)
			}
		} else if !strings.Contains(err.Error(), "no attempt fits") {
			t.Fatal(err)
		}
	}
	for _, lim := range []Limits{{MaxCTAs: 1, MaxThreads: 1}, {MaxCTAs: -3, MaxThreads: -1}} {
		p, err := Generate(2, All(), lim)
		if err != nil {
			t.Fatal(err)
		}
		if p.Launch.Grid[0] < 1 || (lim.MaxCTAs == 1 && p.Launch.Grid[0] != 1) || (lim.MaxThreads == 1 && p.Launch.Block[0]*p.Launch.Block[1] != 1) {
			t.Errorf("%+v: grid %d, block %d", lim, p.Launch.Grid[0], p.Launch.Block[0])
		}
		if _, err := p.RunGo(cfg); err != nil {
			t.Error(err)
		}
	}
}

// TestBadFeatures: unknown names are errors, never panics.
func TestBadFeatures(t *testing.T) {
	if _, err := Generate(1, Features{Ops: []string{"fma"}}, Limits{}); err == nil {
		t.Error("op fma accepted")
	}
	if _, err := Generate(1, Features{SRegs: []string{"%envreg0"}}, Limits{}); err == nil {
		t.Error("sreg envreg0 accepted")
	}
	for _, s := range []string{"bogus", "ops=fma", "sregs=%x", "x=1"} {
		if _, err := ParseFeatures(s); err == nil {
			t.Errorf("ParseFeatures(%q) accepted", s)
		}
	}
	f, err := ParseFeatures(All().String())
	if err != nil || !reflect.DeepEqual(sortedCopy(f), sortedCopy(All())) {
		t.Errorf("round trip of All: %v, %v", f, err)
	}
	if f, err := ParseFeatures("branch,loop ops=add"); err != nil || !f.Branch || !f.Loop || len(f.Ops) != 1 {
		t.Errorf("ParseFeatures: %+v %v", f, err)
	}
}

func sortedCopy(f Features) string { return f.String() }

// FuzzGenerate: any seed, with every feature or with the RTL's register
// budget, gives a program that assembles, completes cleanly on the Go
// model and is deterministic.
func FuzzGenerate(f *testing.F) {
	for _, s := range []uint64{0, 1, 0xdeadbeef, 1 << 63} {
		f.Add(s, false)
		f.Add(s, true)
	}
	cfg := smallConfig(f)
	f.Fuzz(func(t *testing.T, seed uint64, small bool) {
		lim := Limits{}
		if small {
			lim = Limits{MaxRegs: 16, MaxPreds: 8}
		}
		check(t, cfg, seed, All(), lim, true)
	})
}
