package kernelrec

import (
	"context"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

func launchOf(e *examples.Example) pipeline.Launch {
	l := pipeline.Launch{Entry: e.Entry, Args: map[string]uint64{}, DynamicSmem: uint32(e.DynamicSmem), MaxNReg: uint32(e.MaxNReg)}
	for i := 0; i < 3; i++ {
		l.Grid[i], l.Block[i] = uint32(max(e.Grid[i], 1)), uint32(max(e.Block[i], 1))
		l.Cluster[i] = uint32(e.Cluster[i])
	}
	for k, v := range e.Args {
		l.Args[k] = v
	}
	for _, b := range e.Buffers {
		init := make([]byte, 4*len(b.Init))
		for i, w := range b.Init {
			binary.LittleEndian.PutUint32(init[4*i:], w)
		}
		l.Buffers = append(l.Buffers, pipeline.Buffer{Param: b.Param, Size: 4 * b.Words, Init: init})
	}
	return l
}

// TestRecordAndReplay records the schedulers of real kernels under each
// policy, checks that the recorded inputs make a Go scheduler choose
// exactly as the SM's did, and replays every stream into the Go model and
// the RTL in lockstep.
func TestRecordAndReplay(t *testing.T) {
	kernels := []string{"demo_collatz", "exit_partial", "nanosleep", "atomics"}
	for _, pol := range []config.SchedPolicy{config.PolicyGTO, config.PolicyLRR, config.PolicyTwoLevel} {
		for _, name := range kernels {
			t.Run(string(pol)+"/"+name, func(t *testing.T) {
				e, ok := examples.ByName(name)
				if !ok {
					t.Fatalf("no example %s", name)
				}
				im, err := isa.AssembleSource(name+".ptx", e.PTX)
				if err != nil {
					t.Fatal(err)
				}
				cfg := config.Default()
				cfg.Sched.Policy = pol
				res, err := Record(cfg, im, launchOf(e))
				if err != nil {
					t.Fatal(err)
				}
				if res.Report.Status != pipeline.StatusCompleted {
					t.Fatalf("run %s", res.Report.Status)
				}
				if res.Divergence != "" {
					t.Fatalf("recording: %s", res.Divergence)
				}
				if len(res.Streams) != cfg.Sched.Count || res.Cycles == 0 {
					t.Fatalf("%d streams, %d cycles", len(res.Streams), res.Cycles)
				}
				sess, err := cosim.Start(context.Background(), res.Unit, cosim.HarnessOptions{})
				if err != nil {
					t.Fatal(err)
				}
				defer sess.Close()
				for s := range res.Streams {
					if got := uint64(len(res.Streams[s]) / res.Unit.Layout().InBytes); got != res.Cycles {
						t.Fatalf("stream %d has %d cycles, want %d", s, got, res.Cycles)
					}
					r, err := cosim.RunSession(context.Background(), sess, func() cosim.Stimulus { return res.Stimulus(s) }, cosim.Options{})
					if err != nil {
						t.Fatalf("scheduler %d: %v", s, err)
					}
					if r.Cycles != res.Cycles {
						t.Fatalf("scheduler %d: %d cycles compared", s, r.Cycles)
					}
				}
			})
		}
	}
}

// TestRecordLaunchError: a bad launch is the pipeline's LaunchError.
func TestRecordLaunchError(t *testing.T) {
	e, _ := examples.ByName("demo_collatz")
	im, err := isa.AssembleSource("demo_collatz.ptx", e.PTX)
	if err != nil {
		t.Fatal(err)
	}
	l := launchOf(e)
	l.Buffers = nil
	if _, err := Record(config.Default(), im, l); err == nil {
		t.Fatal("a launch without its buffers was recorded")
	}
}

// unitTestConfig is the small preset with 2 CTA slots and reg_pool's
// standard cosim parameters (RegPoolStdParams: the adapter holds at most
// 2 CTA slots), so that every unit of the SM can be recorded.
func unitTestConfig() config.Config {
	cfg, err := config.Preset("small")
	if err != nil {
		panic(err)
	}
	rp := cosim.RegPoolStdParams()
	cfg.SM.MaxCTAs = rp.NumCTAs
	cfg.SM.MaxThreadsPerCTA = rp.MaxThreadsPerCTA
	cfg.SM.MaxRegsPerThread = rp.MaxRegsPerThread
	cfg.SM.Regfile = rp.Regfile
	cfg.SM.RegAllocUnit = rp.RegAllocUnit
	cfg.RegPool.AllocGranularity = rp.AllocGranularity
	return cfg
}

// TestUnitsReplayEveryExample records trap_unit, clock_timer, perf_mon and
// reg_pool from a full-SM run of every example kernel and replays each
// stream into the Go unit and its RTL in lockstep: zero mismatches, one
// record per cycle of the run.
func TestUnitsReplayEveryExample(t *testing.T) {
	sessions := map[string]*cosim.Session{}
	defer func() {
		for _, s := range sessions {
			s.Close()
		}
	}()
	for _, e := range examples.All() {
		t.Run(e.Name, func(t *testing.T) {
			im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
			if err != nil {
				t.Fatal(err)
			}
			cfg := unitTestConfig()
			cfg.Trap.Handler = e.TrapHandler
			l := launchOf(e)
			if l.Block[0]*l.Block[1]*l.Block[2] > uint32(cfg.SM.MaxThreadsPerCTA) {
				// bench_intloop's 768-thread CTAs do not fit the reg_pool cosim
				// set: run the same code on CTAs of the largest size that fits
				// (this test compares unit inputs, not the kernel's results).
				l.Block = [3]uint32{uint32(cfg.SM.MaxThreadsPerCTA), 1, 1}
				t.Logf("block shrunk to %v threads to fit the reg_pool cosim set", l.Block)
			}
			res, err := Record(cfg, im, l)
			if err != nil {
				t.Fatal(err)
			}
			if res.Divergence != "" {
				t.Fatalf("recording: %s", res.Divergence)
			}
			if len(res.Skipped) != 0 {
				t.Fatalf("skipped: %v", res.Skipped)
			}
			t.Logf("%s: %d cycles", res.Report.Status, res.Report.Cycles)
			for _, name := range []string{"trap_unit", "clock_timer", "perf_mon", "reg_pool"} {
				ur := res.Units[name]
				if ur == nil {
					t.Fatalf("no %s recording", name)
				}
				if ur.Cycles != res.Report.Cycles && !(name == "reg_pool" && ur.Cycles+1 == res.Report.Cycles) {
					t.Fatalf("%s: %d cycles recorded, the run took %d", name, ur.Cycles, res.Report.Cycles)
				}
				key := ur.Unit.Module() + fmt.Sprint(ur.Unit.Params())
				sess := sessions[key]
				if sess == nil {
					if sess, err = cosim.Start(context.Background(), ur.Unit, cosim.HarnessOptions{}); err != nil {
						t.Fatal(err)
					}
					sessions[key] = sess
				}
				r, err := cosim.RunSession(context.Background(), sess, ur.Stimulus, cosim.Options{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if r.Cycles != ur.Cycles {
					t.Fatalf("%s: %d cycles compared, %d recorded", name, r.Cycles, ur.Cycles)
				}
			}
		})
	}
}
