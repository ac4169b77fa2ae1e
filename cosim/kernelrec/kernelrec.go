// Package kernelrec records the inputs of an SM's warp schedulers during
// a full-SM run of a kernel (package pipeline), for `smsim cosim
// --from-kernel`: the recorded streams are then replayed into the Go
// warp_sched and its RTL twin in lockstep (package cosim).
//
// The SM shows each scheduler's inputs of the cycle to its OnCycle hooks
// (CycleInfo.SchedIn); Record hands them to a cosim.SchedRecording. As a
// check of the recording, a Go warp_sched per scheduler is fed the same
// inputs and must choose the warp the SM issued, every cycle.
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
	sm.OnCycle(o.observe)
	rep, err := sm.Run()
	if err != nil {
		return nil, err
	}
	if o.err != "" {
		return nil, fmt.Errorf("kernelrec: %s", o.err)
	}
	return &Result{SchedRecording: rec, Divergence: o.divergence, Report: rep}, nil
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
	p := cosim.WarpSchedParams(cfg)
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
