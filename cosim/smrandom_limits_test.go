package cosim

import (
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/randprog"
)

// TestSMRandomLimitsFitRegfile: with more warp slots than the register
// file can fill at the RTL's 32 registers per thread (16 slots, 8,192
// registers), the random programs' CTAs stay within the register file,
// so the Go launch of every program is accepted.
func TestSMRandomLimitsFitRegfile(t *testing.T) {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SM.MaxWarps, cfg.Sched.Count, cfg.SM.MaxCTAs, cfg.SM.MaxThreadsPerCTA = 16, 4, 8, 512
	f, lim, err := SMRandomFeatures(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := cfg.SM.Regfile / 1024 * 32; lim.MaxThreads != want {
		t.Errorf("MaxThreads %d, want %d (sm.regfile %d over 1,024 registers a warp)", lim.MaxThreads, want, cfg.SM.Regfile)
	}
	for i := 0; i < 40; i++ {
		p, err := randprog.Generate(randprog.Seed(77, i), f, lim)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pipeline.New(p.Config(cfg), p.Image, p.Launch); err != nil {
			t.Fatalf("program %d: %v", i, err)
		}
	}
}
