// Capturing each cycle: the hooks' frames of the issue stage, writeback, warps, CTAs and units.

package trace

import (
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/warpsched"
)

// inWindow reports whether cycle c is dumped.
func (t *Tracer) inWindow(c uint64) bool {
	return c >= t.opt.Start && (t.opt.End == 0 || c < t.opt.End)
}

// onCycle captures the cycle into a frame; the first cycle of the window
// is dumped at once (the $dumpvars section), the others by the workers.
func (t *Tracer) onCycle(ci *pipeline.CycleInfo) {
	c := ci.Cycle
	if !t.inWindow(c) || t.closed {
		t.live = false
		return
	}
	f := t.par.next()
	f.cycle, f.prev = c, t.last
	if t.started {
		// The end of the cycle before.
		t.captureEnd(f, ci.Units)
	}
	t.live = true
	t.last = c
	f.top = pipeline.TopPorts{Clk: true, RstN: !t.rstLow}
	t.capture(ci, f, false)
	if t.started {
		t.par.commit()
		return
	}
	t.captureEnd(f, ci.Units)
	t.s.first(f)
	t.started, t.rstLow = true, false
	if err := t.par.start(); err != nil {
		t.err = err
	}
}

// capture fills f with cycle ci's values (final: the state after the run
// ended, nothing issuing).
func (t *Tracer) capture(ci *pipeline.CycleInfo, f *frame, final bool) {
	s := t.s
	copy(f.states, ci.States)
	copy(f.pcs, ci.PCs)
	copy(f.masks, ci.Masks)
	copy(f.nregs, ci.NRegs)
	l := &t.lay
	tq := t.sm.TrapStateRef()
	s.trQ.capture(f.bytes[l.trQ:], tq)
	n := min(len(f.esr), len(tq.WarpESR))
	for i, e := range tq.WarpESR[:n] {
		f.esr[i] = uint16(e)
	}
	clear(f.esr[n:])
	t.sampleIssue(final)
	wb := t.sm.WritebackOut()
	for k := range wb {
		if s.wb[k].any {
			s.wb[k].capture(f.bytes[l.wb[k]:], &wb[k])
		}
	}
	for k, u := range t.sm.Schedulers() {
		in, out := &ci.SchedIn[k], &ci.SchedOut[k]
		if final {
			in, out = &warpsched.Inputs{}, &warpsched.Outputs{}
		}
		s.sIn[k].capture(f.bytes[l.sIn[k]:], in)
		s.sOut[k].capture(f.bytes[l.sOut[k]:], out)
		if s.sQ[k].any {
			s.sQ[k].capture(f.bytes[l.sQ[k]:], u.QRef())
		}
	}
	if s.ctOut.any || s.ctQ.any {
		ct := t.sm.ClockTimer()
		o := ct.Out()
		s.ctOut.capture(f.bytes[l.ctOut:], &o)
		s.ctQ.capture(f.bytes[l.ctQ:], ct.QRef())
	}
	if s.pmOut.any {
		o := t.sm.PerfMon().Out()
		s.pmOut.capture(f.bytes[l.pmOut:], &o)
	}
	if s.pool.any {
		// CTA slots are given lowest-free-first and at most
		// MaxResidentCTAs CTAs are resident, so the slots above stay
		// empty (one more is read for a CTA leaving as another arrives).
		// A free slot reads 0 (as Pool.CTAStats).
		q := t.sm.RegPool().QRef()
		for c := 0; c < t.poolN; c++ {
			t.poolV.Free[c], t.poolV.HighWater[c] = 0, 0
			if q.Valid.Has(c) {
				t.poolV.Free[c], t.poolV.HighWater[c] = q.Free[c], q.HighWater[c]
			}
		}
		s.pool.capture(f.bytes[l.pool:], &t.poolV)
	}
	t.captureCTAs(ci, f)
}

// captureEnd captures the end of the cycle before into f: the issue
// stage (with the guard masks of its instructions), the load/store
// stages' memory-port requests, trap_unit's outputs
// (those of its Eval at the end of the cycle) and the inputs the SM drove
// into the units in that cycle (u: CycleInfo.Units; nil before the
// first cycle or after the last, when they read idle).
func (t *Tracer) captureEnd(f *frame, u *pipeline.UnitInputs) {
	s := t.s
	for k := range t.issueV {
		if s.issue[k].any {
			s.issue[k].capture(f.bytes[t.lay.issue[k]:], &t.issueV[k])
		}
	}
	lsu := t.sm.LSUOut()
	for k := range s.lsu {
		if s.lsu[k].any {
			r := lsu[k]
			if u == nil {
				r.ReqValid = false // no cycle drove the port
			}
			s.lsu[k].capture(f.bytes[t.lay.lsu[k]:], &r)
		}
	}
	if s.trOut.any {
		t.sm.TrapOutputsTo(&t.trOut)
		s.trOut.capture(f.bytes[t.lay.trOut:], &t.trOut)
	}
	if u == nil {
		u = &t.idleIn
	}
	s.ctIn.capture(f.bytes[t.lay.ctIn:], &u.Clock)
	s.pmIn.capture(f.bytes[t.lay.pmIn:], &u.Perf)
	s.trIn.capture(f.bytes[t.lay.trIn:], &u.Trap)
	s.rpIn.capture(f.bytes[t.lay.rpIn:], &u.RegPool)
}

// sampleIssue keeps the issue stages' outputs of the cycle (pipeline's
// IssueOutputs) in t.issueV: they are dumped with the end of the cycle,
// once its instructions have executed. After the run (final) nothing
// issues.
func (t *Tracer) sampleIssue(final bool) {
	copy(t.issueV, t.sm.IssueOut())
	if final {
		for s := range t.issueV {
			t.issueV[s].Valid, t.issueV[s].Op = false, pipeline.OpIdle
		}
	}
}

// captureCTAs copies the resident CTAs' barriers into f, by CTA slot
// (CTAInfo.Slot: a CTA keeps its slot while resident; a new one takes the
// lowest free slot, in launch order).
func (t *Tracer) captureCTAs(ci *pipeline.CycleInfo, f *frame) {
	if len(t.s.ctas) == 0 {
		return
	}
	for k := range f.ctaLin {
		f.ctaLin[k] = -1
	}
	f.ctaOrder = f.ctaOrder[:0]
	for i := range ci.CTAs {
		c := &ci.CTAs[i]
		if c.Slot >= len(f.ctaLin) {
			continue // more resident CTAs than MaxResidentCTAs: cannot happen
		}
		f.ctaOrder = append(f.ctaOrder, c.Slot)
		f.ctaInfo[c.Slot] = *c
		f.ctaLin[c.Slot] = int64(c.Linear)
	}
}
