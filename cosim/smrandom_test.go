package cosim

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/randprog"
)

// TestSMRandomFeatures: the derived preset holds what the RTL runs
// today (so the lockstep exercises it), nothing CheckSM refuses (300
// programs of the preset pass it), and not the families the RTL lacks.
func TestSMRandomFeatures(t *testing.T) {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	f, lim, err := SMRandomFeatures(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("preset: %s; limits %+v", f, lim)
	for _, name := range []string{"compare", "branch", "loop", "exit", "global", "call", "icall", "brx", "trap", "nanosleep"} {
		if !f.Has(name) {
			t.Errorf("the preset lacks %s", name)
		}
	}
	for _, op := range []string{"add", "mul.wide", "shr", "cvt"} {
		if !strings.Contains(","+strings.Join(f.Ops, ",")+",", ","+op+",") {
			t.Errorf("the preset lacks op %s", op)
		}
	}
	if f.PMEvent || f.GlobalNarrow {
		t.Errorf("the preset has a family the RTL lacks: %s", f)
	}
	for i := 0; i < 300; i++ {
		p, err := randprog.Generate(randprog.Seed(99, i), f, lim)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckSM(p.Config(cfg), p.Image, p.Launch); err != nil {
			t.Fatalf("seed %#x: %v\n%s", p.Seed, err, p.PTX)
		}
	}
	// The RTL runs two_level too: the same preset.
	cfg.Sched.Policy = config.PolicyTwoLevel
	if f2, _, err := SMRandomFeatures(cfg); err != nil || f2.String() != f.String() {
		t.Errorf("two_level: %v, %s", err, f2)
	}
}

// TestSMRandomLockstep cosimulates 20 random programs of the RTL's preset
// under lrr, gto and two_level: zero mismatches, equal buffers.
func TestSMRandomLockstep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Verilated SM")
	}
	for _, pol := range []config.SchedPolicy{config.PolicyLRR, config.PolicyGTO, config.PolicyTwoLevel} {
		t.Run(string(pol), func(t *testing.T) {
			cfg, err := config.Preset("small")
			if err != nil {
				t.Fatal(err)
			}
			cfg.Sched.Policy = pol
			start := time.Now()
			res, err := RunSMRandom(context.Background(), SMRandomOptions{Config: cfg, Seed: 1, N: 20})
			if err != nil {
				t.Fatal(err)
			}
			if res.Failed != nil {
				t.Fatalf("seed %#x: %v %v\n%s", res.Failed.Seed, res.Err, res.Result, res.Failed.PTX)
			}
			if res.Programs != 20 || res.Cycles == 0 {
				t.Fatalf("%d programs, %d cycles", res.Programs, res.Cycles)
			}
			t.Logf("%d programs, %d cycles, 0 mismatches (%s)", res.Programs, res.Cycles, time.Since(start).Round(time.Millisecond))
		})
	}
}
