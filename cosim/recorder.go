package cosim

import (
	"bytes"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/unitcfg"
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

// Stream is one recorded input stream of a unit: its input records, one
// per cycle, kept run-length encoded. A record equal to the one before it
// is only counted, so a quiescent SM (warps in a long nanosleep drive the
// same inputs for a million cycles) costs almost nothing to keep.
type Stream struct {
	size int
	data []byte   // the records at which the inputs changed, back to back
	runs []uint64 // how many consecutive cycles each of them lasts
	n    uint64
}

// NewStream returns an empty stream of records of size bytes.
func NewStream(size int) *Stream { return &Stream{size: size} }

// Append adds one cycle's record (of the stream's size).
func (s *Stream) Append(rec []byte) {
	if k := len(s.runs); k > 0 && bytes.Equal(s.data[(k-1)*s.size:], rec) {
		s.runs[k-1]++
	} else {
		s.data = append(s.data, rec...)
		s.runs = append(s.runs, 1)
	}
	s.n++
}

// Cycles is the number of records appended.
func (s *Stream) Cycles() uint64 { return s.n }

// Stimulus returns a fresh stimulus replaying the stream's records, one
// per cycle, in order.
func (s *Stream) Stimulus() Stimulus { return &streamStim{s: s} }

type streamStim struct {
	s    *Stream
	i    int    // the run being replayed
	done uint64 // records of run i replayed
}

func (r *streamStim) Next(rec []byte) bool {
	for r.i < len(r.s.runs) && r.done == r.s.runs[r.i] {
		r.i, r.done = r.i+1, 0
	}
	if r.i >= len(r.s.runs) {
		return false
	}
	copy(rec, r.s.data[r.i*r.s.size:(r.i+1)*r.s.size])
	r.done++
	return true
}

// SchedRecording holds recorded warp_sched input streams, one per
// scheduler, as input records of Unit.
type SchedRecording struct {
	Unit    Unit
	Streams []*Stream // per scheduler
	Cycles  uint64    // cycles recorded (the longest stream)

	rec []byte
}

// NewSchedRecording returns an empty recording for the schedulers of an
// SM with the configuration cfg.
func NewSchedRecording(cfg config.Config) (*SchedRecording, error) {
	p, err := unitcfg.WarpSched(cfg)
	if err != nil {
		return nil, err
	}
	u, err := WarpSched(p)
	if err != nil {
		return nil, err
	}
	k := &SchedRecording{Unit: u, rec: make([]byte, u.Layout().InBytes)}
	for s := 0; s < cfg.Sched.Count; s++ {
		k.Streams = append(k.Streams, NewStream(u.Layout().InBytes))
	}
	return k, nil
}

// RecordSched implements Recorder.
func (k *SchedRecording) RecordSched(cycle uint64, sched int, in *warpsched.Inputs, _ warpsched.Outputs) {
	if sched < 0 || sched > 1<<16 || in == nil {
		return
	}
	for len(k.Streams) <= sched {
		k.Streams = append(k.Streams, NewStream(k.Unit.Layout().InBytes))
	}
	if err := k.Unit.EncodeInput(in, k.rec); err != nil {
		return // cannot happen: the unit takes warpsched.Inputs
	}
	k.Streams[sched].Append(k.rec)
	if cycle+1 > k.Cycles {
		k.Cycles = cycle + 1
	}
}

// Stimulus returns a fresh stimulus replaying scheduler sched's stream
// (an empty one for a scheduler that was not recorded).
func (k *SchedRecording) Stimulus(sched int) Stimulus {
	if sched >= 0 && sched < len(k.Streams) {
		return k.Streams[sched].Stimulus()
	}
	return NewStream(k.Unit.Layout().InBytes).Stimulus()
}

var _ Recorder = (*SchedRecording)(nil)

// UnitRecording is one recorded input stream of a unit, one record per
// cycle (package kernelrec records the SM's trap_unit, clock_timer,
// perf_mon and reg_pool into them).
type UnitRecording struct {
	Unit   Unit
	Stream *Stream
	Cycles uint64 // records in Stream

	rec []byte
}

// NewUnitRecording returns an empty recording for u.
func NewUnitRecording(u Unit) *UnitRecording {
	return &UnitRecording{Unit: u, Stream: NewStream(u.Layout().InBytes), rec: make([]byte, u.Layout().InBytes)}
}

// Record appends one cycle's inputs: in is a value of the unit's Go
// Inputs type (trapunit.Inputs, clocktimer.Inputs, perfmon.Inputs,
// regpool.Inputs, ...), or better a pointer to one.
func (r *UnitRecording) Record(in any) error {
	if err := r.Unit.EncodeInput(in, r.rec); err != nil {
		return err
	}
	r.Stream.Append(r.rec)
	r.Cycles++
	return nil
}

// Stimulus returns a fresh stimulus replaying the stream.
func (r *UnitRecording) Stimulus() Stimulus { return r.Stream.Stimulus() }
