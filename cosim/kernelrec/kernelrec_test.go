package kernelrec

import (
	"context"
	"fmt"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// TestRecordLaunchError: a bad launch is the pipeline's LaunchError.
func TestRecordLaunchError(t *testing.T) {
	e, _ := examples.ByName("demo_collatz")
	im, err := isa.AssembleSource("demo_collatz.ptx", e.PTX)
	if err != nil {
		t.Fatal(err)
	}
	l := exlaunch.Launch(e)
	l.Buffers = nil
	if _, err := Record(config.Default(), im, l); err == nil {
		t.Fatal("a launch without its buffers was recorded")
	}
}

// replayer runs recorded streams through one harness per parameter set,
// started on first use and shared by every example (starting a harness
// costs more than replaying most kernels).
type replayer struct {
	sessions map[string]*cosim.Session
}

func newReplayer(t *testing.T) *replayer {
	r := &replayer{sessions: map[string]*cosim.Session{}}
	t.Cleanup(func() {
		for _, s := range r.sessions {
			s.Close()
		}
	})
	return r
}

// replay is one recorded stream to run through u in lockstep: every one
// of its want cycles must match.
type replay struct {
	what string
	u    cosim.Unit
	src  func() cosim.Stimulus
	want uint64
}

// run runs the replays in order and fails t at the first error. (Two
// workers with harnesses of their own did not make it faster on 2 cores:
// a lockstep already keeps its Go side and its harness busy at once.)
func (r *replayer) run(t *testing.T, rs []replay) {
	t.Helper()
	for _, x := range rs {
		key := x.u.Module() + " " + cosim.ParamString(x.u.Params())
		sess := r.sessions[key]
		if sess == nil {
			var err error
			if sess, err = cosim.Start(context.Background(), x.u, cosim.HarnessOptions{}); err != nil {
				t.Fatal(err)
			}
			r.sessions[key] = sess
		}
		res, err := cosim.RunSession(context.Background(), sess, x.src, cosim.Options{})
		if err != nil {
			t.Fatalf("%s: %v", x.what, err)
		}
		if res.Cycles != x.want {
			t.Fatalf("%s: %d cycles compared, %d recorded", x.what, res.Cycles, x.want)
		}
	}
}

// TestUnitsReplayEveryExample runs every example kernel, launched as the
// example says, on the full SM of the default (h100) configuration under
// each scheduling policy, records the inputs of every RTL unit, checks
// that the recorded scheduler inputs make a Go warp_sched choose exactly
// as the SM's did, and replays each stream into the Go unit and its RTL,
// at the configuration's parameters (reg_pool with its 32 CTA slots), in
// lockstep: zero mismatches, one record per cycle of the run. warp_sched
// (one stream per scheduler) is replayed under every policy; trap_unit,
// clock_timer, perf_mon and reg_pool under the configuration's own
// policy.
func TestUnitsReplayEveryExample(t *testing.T) {
	rp := newReplayer(t)
	base := config.Default()
	pols := []config.SchedPolicy{config.PolicyLRR, config.PolicyGTO, config.PolicyTwoLevel}
	schedCycles := map[config.SchedPolicy]uint64{}
	unitCycles := map[string]uint64{}
	for _, e := range examples.All() {
		t.Run(e.Name, func(t *testing.T) {
			im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
			if err != nil {
				t.Fatal(err)
			}
			l := exlaunch.Launch(e)
			for _, pol := range pols {
				cfg := base
				cfg.Trap.Handler = e.TrapHandler
				cfg.Sched.Policy = pol
				res, err := Record(cfg, im, l)
				if err != nil {
					t.Fatalf("%s: %v", pol, err)
				}
				if res.Divergence != "" {
					t.Fatalf("%s: recording: %s", pol, res.Divergence)
				}
				if len(res.Streams) != cfg.Sched.Count || res.Cycles != res.Report.Cycles {
					t.Fatalf("%s: %d warp_sched streams of %d cycles, want %d of %d", pol, len(res.Streams), res.Cycles, cfg.Sched.Count, res.Report.Cycles)
				}
				if e.Outcome == examples.Completed && e.OnTrap == "" && res.Report.Status != pipeline.StatusCompleted {
					t.Fatalf("%s: run %s", pol, res.Report.Status)
				}
				t.Logf("%s: %s: %d cycles", pol, res.Report.Status, res.Report.Cycles)
				var rs []replay
				for s := range res.Streams {
					if n := res.Streams[s].Cycles(); n != res.Cycles {
						t.Fatalf("%s: warp_sched stream %d has %d cycles, want %d", pol, s, n, res.Cycles)
					}
					rs = append(rs, replay{fmt.Sprintf("%s: warp_sched[%d]", pol, s), res.Unit, func() cosim.Stimulus { return res.Stimulus(s) }, res.Cycles})
					schedCycles[pol] += res.Cycles
				}
				if pol == base.Sched.Policy {
					for _, name := range []string{"trap_unit", "clock_timer", "perf_mon", "reg_pool"} {
						ur := res.Units[name]
						if ur == nil {
							t.Fatalf("no %s recording", name)
						}
						if ur.Cycles != res.Report.Cycles && !(name == "reg_pool" && ur.Cycles+1 == res.Report.Cycles) {
							t.Fatalf("%s: %d cycles recorded, the run took %d", name, ur.Cycles, res.Report.Cycles)
						}
						if name == "reg_pool" && ur.Unit.Params()[0] != (cosim.Param{Name: "NumCTAs", Value: base.SM.MaxCTAs}) {
							t.Fatalf("reg_pool recorded at %s, not at the configuration's %d CTA slots", cosim.ParamString(ur.Unit.Params()), base.SM.MaxCTAs)
						}
						rs = append(rs, replay{name, ur.Unit, ur.Stimulus, ur.Cycles})
						unitCycles[name] += ur.Cycles
					}
				}
				rp.run(t, rs)
			}
		})
	}
	for _, pol := range pols {
		t.Logf("warp_sched %s: %d cycles replayed (all schedulers of every example)", pol, schedCycles[pol])
	}
	for _, name := range []string{"trap_unit", "clock_timer", "perf_mon", "reg_pool"} {
		t.Logf("%s: %d cycles replayed", name, unitCycles[name])
	}
}
