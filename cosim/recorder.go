package cosim

import (
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/warpsched"
)

// Recorder receives the ports of every warp scheduler of an SM, every
// cycle: the inputs the SM drove into scheduler sched and the outputs its
// Eval returned. SchedRecording is one. The SM shows its schedulers'
// inputs to OnCycle hooks (pipeline.CycleInfo.SchedIn); package kernelrec
// passes them on from a full-SM run of a kernel.
type Recorder interface {
	RecordSched(cycle uint64, sched int, in *warpsched.Inputs, out warpsched.Outputs)
}

// SchedRecording holds recorded warp_sched input streams, one per
// scheduler, as input records of Unit.
type SchedRecording struct {
	Unit    Unit
	Streams [][]byte // per scheduler: input records back to back
	Cycles  uint64   // cycles recorded (the longest stream)

	rec []byte
}

// NewSchedRecording returns an empty recording for the schedulers of an
// SM with the configuration cfg.
func NewSchedRecording(cfg config.Config) (*SchedRecording, error) {
	u, err := WarpSched(WarpSchedParams(cfg))
	if err != nil {
		return nil, err
	}
	return &SchedRecording{Unit: u, Streams: make([][]byte, cfg.Sched.Count), rec: make([]byte, u.Layout().InBytes)}, nil
}

// RecordSched implements Recorder.
func (k *SchedRecording) RecordSched(cycle uint64, sched int, in *warpsched.Inputs, _ warpsched.Outputs) {
	if sched < 0 || sched > 1<<16 || in == nil {
		return
	}
	for len(k.Streams) <= sched {
		k.Streams = append(k.Streams, nil)
	}
	if err := k.Unit.EncodeInput(in, k.rec); err != nil {
		return // cannot happen: the unit takes warpsched.Inputs
	}
	k.Streams[sched] = append(k.Streams[sched], k.rec...)
	if cycle+1 > k.Cycles {
		k.Cycles = cycle + 1
	}
}

// Stimulus returns a fresh stimulus replaying scheduler sched's stream.
func (k *SchedRecording) Stimulus(sched int) Stimulus {
	var data []byte
	if sched >= 0 && sched < len(k.Streams) {
		data = k.Streams[sched]
	}
	r, err := NewRecords(data, k.Unit.Layout().InBytes)
	if err != nil {
		r, _ = NewRecords(nil, k.Unit.Layout().InBytes)
	}
	return r
}

var _ Recorder = (*SchedRecording)(nil)

// UnitRecording is one recorded input stream of a unit: input records of
// Unit back to back, one per cycle (package kernelrec records the SM's
// trap_unit, clock_timer, perf_mon and reg_pool into them).
type UnitRecording struct {
	Unit   Unit
	Stream []byte
	Cycles uint64 // records in Stream

	rec []byte
}

// NewUnitRecording returns an empty recording for u.
func NewUnitRecording(u Unit) *UnitRecording {
	return &UnitRecording{Unit: u, rec: make([]byte, u.Layout().InBytes)}
}

// Record appends one cycle's inputs: in is a value of the unit's wire
// Inputs type, or a pointer to one (TrapInputs from PackTrapInputs,
// ClockTimerInputs from PackClockTimerInputs, perfmon.Inputs, the value
// of PackRegPoolInputs).
func (r *UnitRecording) Record(in any) error {
	if err := r.Unit.EncodeInput(in, r.rec); err != nil {
		return err
	}
	r.Stream = append(r.Stream, r.rec...)
	r.Cycles++
	return nil
}

// Stimulus returns a fresh stimulus replaying the stream.
func (r *UnitRecording) Stimulus() Stimulus {
	s, err := NewRecords(r.Stream, r.Unit.Layout().InBytes)
	if err != nil {
		s, _ = NewRecords(nil, r.Unit.Layout().InBytes)
	}
	return s
}
