// Package kernelrec records the inputs of an SM's RTL units during a
// full-SM run of a kernel (package pipeline), for `smsim cosim
// --from-kernel`: the recorded streams are then replayed into each Go
// unit and its RTL twin in lockstep (package cosim).
//
// The SM shows each scheduler's inputs of the cycle to its OnCycle hooks
// (CycleInfo.SchedIn); Record hands them to a cosim.SchedRecording. As a
// check of the recording, a Go warp_sched per scheduler is fed the same
// inputs and must choose the warp the SM issued, every cycle. The inputs
// of trap_unit, clock_timer, perf_mon and reg_pool (CycleInfo.Units) go
// into a cosim.UnitRecording each.
//
// It is apart from package cosim so that the cosimulation core does not
// depend on the SM model.
package kernelrec

import (
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/unitcfg"
	"github.com/smsim/smsim/warpsched"
)

// Result is a recorded kernel run.
type Result struct {
	*cosim.SchedRecording
	// Divergence describes the first cycle at which a Go scheduler fed the
	// recorded inputs chose differently from the SM ("" when they always
	// agreed, as they must).
	Divergence string
	Report     *pipeline.Report
	// Units holds the recorded input streams of trap_unit, clock_timer,
	// perf_mon and reg_pool (by module name), one record per cycle of
	// the run, from CycleInfo.Units.
	Units map[string]*cosim.UnitRecording
}

// unitRecs builds the recordings of the SM's other units at cfg.
func unitRecs(cfg config.Config) (*unitRec, error) {
	r := &unitRec{units: map[string]*cosim.UnitRecording{}}
	trapP := trapunit.Params{NumWarps: cfg.SM.MaxWarps, NumPorts: trapunit.MaxPorts, HasHandler: cfg.Trap.Handler != ""}
	tu, err := cosim.TrapUnit(trapP)
	if err != nil {
		return nil, err
	}
	if r.trapShadow, err = trapunit.New(trapP); err != nil {
		return nil, err
	}
	cu, err := cosim.ClockTimer(unitcfg.ClockTimer(cfg))
	if err != nil {
		return nil, err
	}
	pp, err := unitcfg.PerfMon(cfg)
	if err != nil {
		return nil, err
	}
	pu, err := cosim.PerfMon(pp)
	if err != nil {
		return nil, err
	}
	ru, err := cosim.RegPool(unitcfg.RegPool(cfg))
	if err != nil {
		return nil, err
	}
	if r.poolShadow, err = regpool.New(unitcfg.RegPool(cfg)); err != nil {
		return nil, err
	}
	r.units["trap_unit"], r.units["clock_timer"] = cosim.NewUnitRecording(tu), cosim.NewUnitRecording(cu)
	r.units["perf_mon"], r.units["reg_pool"] = cosim.NewUnitRecording(pu), cosim.NewUnitRecording(ru)
	return r, nil
}

// unitRec records CycleInfo.Units. A Go trap_unit and a Go reg_pool fed
// the recorded inputs must keep the SM's registers of those units, every
// cycle (the SM skips a unit in cycles in which it has nothing to do; the
// recording holds the inputs it would have driven, which must change
// nothing).
type unitRec struct {
	units map[string]*cosim.UnitRecording
	next  uint64 // the next cycle to record

	trapShadow *trapunit.Unit
	poolShadow *regpool.Pool
	divergence string
	err        string
}

func (r *unitRec) record(u *pipeline.UnitInputs, smTrap *trapunit.State, smPool *regpool.State) {
	if u == nil || u.Cycle < r.next {
		return
	}
	if u.Cycle != r.next {
		if r.err == "" {
			r.err = fmt.Sprintf("unit inputs of cycle %d missing (got %d)", r.next, u.Cycle)
		}
		return
	}
	r.next++
	rec := func(name string, in any) {
		if x := r.units[name]; x != nil {
			if err := x.Record(in); err != nil && r.err == "" {
				r.err = fmt.Sprintf("cycle %d: %s: %v", u.Cycle, name, err)
			}
		}
	}
	rec("trap_unit", &u.Trap)
	rec("clock_timer", &u.Clock)
	rec("perf_mon", &u.Perf)
	if u.RegPoolStepped {
		rec("reg_pool", &u.RegPool)
	}
	r.trapShadow.Eval(u.Trap)
	r.trapShadow.Tick()
	if r.divergence == "" && r.trapShadow.Q() != *smTrap {
		r.divergence = fmt.Sprintf("cycle %d: a Go trap_unit fed the recorded inputs left registers other than the SM's (stepped %v)", u.Cycle, u.TrapStepped)
	}
	if u.RegPoolStepped {
		r.poolShadow.Eval(u.RegPool)
		r.poolShadow.Tick()
		if r.divergence == "" && *r.poolShadow.QRef() != *smPool {
			r.divergence = fmt.Sprintf("cycle %d: a Go reg_pool fed the recorded inputs left registers other than the SM's", u.Cycle)
		}
	}
}

// Record runs the kernel of launch l in image im on the SM model and
// records the inputs of its warp schedulers. An error from pipeline.New
// (a *pipeline.LaunchError for a bad launch) is returned as is.
func Record(cfg config.Config, im *isa.Image, l pipeline.Launch) (*Result, error) {
	rec, err := cosim.NewSchedRecording(cfg)
	if err != nil {
		return nil, err
	}
	sm, err := pipeline.New(cfg, im, l)
	if err != nil {
		return nil, err
	}
	o, err := newObserver(cfg, rec)
	if err != nil {
		return nil, err
	}
	ur, err := unitRecs(cfg)
	if err != nil {
		return nil, err
	}
	sm.OnCycle(func(ci *pipeline.CycleInfo) {
		o.observe(ci)
		ur.record(ci.Units, sm.TrapStateRef(), sm.RegPool().QRef())
	})
	rep, err := sm.Run()
	if err != nil {
		return nil, err
	}
	ur.record(sm.Observe().Units, sm.TrapStateRef(), sm.RegPool().QRef())
	if o.err != "" {
		return nil, fmt.Errorf("kernelrec: %s", o.err)
	}
	if ur.err != "" {
		return nil, fmt.Errorf("kernelrec: %s", ur.err)
	}
	div := o.divergence
	if div == "" {
		div = ur.divergence
	}
	return &Result{SchedRecording: rec, Divergence: div, Report: rep, Units: ur.units}, nil
}

// observer records CycleInfo.SchedIn and checks it with shadow Go
// schedulers.
type observer struct {
	rec    cosim.Recorder
	ns     int
	shadow []*warpsched.Sched

	divergence string
	err        string
}

func newObserver(cfg config.Config, rec cosim.Recorder) (*observer, error) {
	p, err := unitcfg.WarpSched(cfg)
	if err != nil {
		return nil, err
	}
	o := &observer{rec: rec, ns: cfg.Sched.Count}
	for s := 0; s < o.ns; s++ {
		sh, err := warpsched.New(p)
		if err != nil {
			return nil, err
		}
		o.shadow = append(o.shadow, sh)
	}
	return o, nil
}

func (o *observer) observe(ci *pipeline.CycleInfo) {
	if len(ci.SchedIn) != o.ns {
		if o.err == "" {
			o.err = fmt.Sprintf("cycle %d: the SM shows %d scheduler inputs, want %d", ci.Cycle, len(ci.SchedIn), o.ns)
		}
		return
	}
	for s := range ci.SchedIn {
		in := &ci.SchedIn[s]
		out := o.shadow[s].Eval(*in)
		o.shadow[s].Tick()
		o.rec.RecordSched(ci.Cycle, s, in, out)
		want := -1
		if s < len(ci.Issued) && ci.Issued[s] >= 0 {
			want = ci.Issued[s] / o.ns
		}
		got := -1
		if out.IssueValid {
			got = int(out.IssueWarp)
		}
		if got != want && o.divergence == "" {
			o.divergence = fmt.Sprintf("cycle %d, scheduler %d: the SM issued local warp %d, a Go warp_sched fed the recorded inputs %d", ci.Cycle, s, want, got)
		}
	}
}
