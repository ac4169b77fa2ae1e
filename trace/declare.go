// Declaring the VCD scopes and variables of every traced instance.

package trace

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/vcd"
	"github.com/smsim/smsim/warpsched"
)

// scopeStack opens and closes VCD scopes as declarations move through the
// hierarchy.
type scopeStack struct {
	w    *vcd.Writer
	open []string
}

func (s *scopeStack) enter(path string) error {
	var want []string
	if path != "" {
		want = strings.Split(path, ".")
	}
	k := 0
	for k < len(s.open) && k < len(want) && s.open[k] == want[k] {
		k++
	}
	for len(s.open) > k {
		if err := s.w.Upscope(); err != nil {
			return err
		}
		s.open = s.open[:len(s.open)-1]
	}
	for _, name := range want[k:] {
		if err := s.w.Scope(vcd.ScopeModule, name); err != nil {
			return err
		}
		s.open = append(s.open, name)
	}
	return nil
}

func (s *scopeStack) close() error { return s.enter("") }

// unitInsts declares a unit's inputs, outputs and (q not nil) registers
// from its signal table.
func unitInsts[I, O, S any](t *Tracer, ss *scopeStack, tab rtl.Table, in *tinst[I], out *tinst[O], q *tinst[S]) (err error) {
	if *in, err = newInst[I](t, ss, tab, nil); err != nil {
		return err
	}
	if *out, err = newInst[O](t, ss, tab, nil); err != nil {
		return err
	}
	if q != nil {
		*q, err = newInst[S](t, ss, tab, nil)
	}
	return err
}

// newInst binds T's fields in table (all in one scope) and declares the
// selected ones.
func newInst[T any](t *Tracer, ss *scopeStack, table rtl.Table, enums map[string][]string) (tinst[T], error) {
	bt, err := bindType[T](table, enums)
	if err != nil {
		return tinst[T]{}, err
	}
	x := tinst[T]{inst: inst{b: bt.b}, bt: bt}
	x.cur = make([]uint64, bt.b.words)
	x.raw = make([]byte, bt.b.raws)
	for _, f := range bt.b.fields {
		id, sid := vcd.ID(-1), vcd.ID(-1)
		if t.selected(f.sig.Path()) {
			if err := ss.enter(f.sig.Scope); err != nil {
				return x, err
			}
			name := f.sig.Name
			if f.sig.Width > 1 {
				name += "[" + strconv.Itoa(f.sig.Width-1) + ":0]"
			}
			if id, err = t.w.Register(vcd.Wire, f.sig.Width, name); err != nil {
				return x, err
			}
			if f.enum != nil {
				if sid, err = t.w.Register(vcd.String, 1, f.sig.Name+StrSuffix); err != nil {
					return x, err
				}
				for len(t.comp) <= int(id) {
					t.comp = append(t.comp, companion{id: -1})
				}
				named, err := t.w.NewNamed(id, sid, f.enum)
				if err != nil {
					return x, err
				}
				t.comp[id] = companion{sid, named}
			}
			t.table = append(t.table, f.sig)
			x.any = true
		}
		x.ids = append(x.ids, id)
	}
	x.words(bt.b.typ.Size())
	return x, nil
}

// declare declares every signal, scope by scope, in the order of the
// Verilog hierarchy the waveform is compared with.
func (t *Tracer) declare() error {
	sm := t.sm
	cfg := sm.Config()
	p := sm.TopParams()
	ss := &scopeStack{w: t.w}
	s := t.s
	var err error
	vals := t.enums
	if s.top, err = newInst[pipeline.TopPorts](t, ss, pipeline.TopTable[pipeline.TopPorts](ScopeTop, p), enumsOf[pipeline.TopPorts](vals)); err != nil {
		return err
	}
	nw := cfg.SM.MaxWarps
	s.warps = make([]tinst[pipeline.WarpRegs], nw)
	s.warpSeen = make([]warpKey, nw)
	for i := range s.warps {
		if s.warps[i], err = newInst[pipeline.WarpRegs](t, ss, pipeline.TopTable[pipeline.WarpRegs](scopef(ScopeWarp, i), p), enumsOf[pipeline.WarpRegs](vals)); err != nil {
			return err
		}
		s.warps[i].fast = warpLayoutOK(s.warps[i].b)
		s.warpSeen[i] = warpKey{state: 255}
	}
	scheds := sm.Schedulers()
	ns := len(scheds)
	s.issue = make([]tinst[pipeline.IssueOutputs], ns)
	t.issueV = make([]pipeline.IssueOutputs, ns)
	s.wb = make([]tinst[pipeline.WritebackOutputs], ns)
	s.sIn = make([]tinst[warpsched.Inputs], ns)
	s.sOut = make([]tinst[warpsched.Outputs], ns)
	s.sQ = make([]tinst[warpsched.State], ns)
	all := sm.Signals()
	for k := 0; k < ns; k++ {
		if s.issue[k], err = newInst[pipeline.IssueOutputs](t, ss, pipeline.TopTable[pipeline.IssueOutputs](scopef(ScopeIssue, k), p), enumsOf[pipeline.IssueOutputs](vals)); err != nil {
			return err
		}
	}
	s.lsu = make([]tinst[pipeline.LSUOutputs], ns)
	for k := 0; k < ns; k++ {
		if s.lsu[k], err = newInst[pipeline.LSUOutputs](t, ss, pipeline.TopTable[pipeline.LSUOutputs](scopef(ScopeLSU, k), p), enumsOf[pipeline.LSUOutputs](vals)); err != nil {
			return err
		}
	}
	for k := 0; k < ns; k++ {
		if s.wb[k], err = newInst[pipeline.WritebackOutputs](t, ss, pipeline.TopTable[pipeline.WritebackOutputs](scopef(ScopeWriteback, k), p), nil); err != nil {
			return err
		}
	}
	for k := 0; k < ns; k++ {
		scope := scopef(ScopeSched, k)
		var tab rtl.Table
		for _, sig := range all {
			if sig.Scope == scope {
				tab = append(tab, sig)
			}
		}
		if err = unitInsts(t, ss, tab, &s.sIn[k], &s.sOut[k], &s.sQ[k]); err != nil {
			return err
		}
	}
	// clock_timer: its inputs, outputs and registers; perf_mon: its
	// inputs and outputs (its registers are the same values: pm_o = pm_q,
	// event_count_o = event_count_q). The inputs are driven while the
	// issued instructions execute, after the observation point: they are
	// dumped with the end of their cycle (CycleInfo.Units of the next).
	ct := sm.ClockTimer().Signals()
	if err = unitInsts(t, ss, ct, &s.ctIn, &s.ctOut, &s.ctQ); err != nil {
		return err
	}
	pm := sm.PerfMon().Signals()
	if err = unitInsts[perfmon.Inputs, perfmon.Outputs, struct{}](t, ss, pm, &s.pmIn, &s.pmOut, nil); err != nil {
		return err
	}
	// trap_unit: its inputs, outputs and registers. Its inputs and
	// outputs are those of the unit's Eval at the end of each cycle,
	// sampled when the next cycle starts.
	tt := sm.TrapUnitModel().Signals()
	if err = unitInsts(t, ss, tt, &s.trIn, &s.trOut, &s.trQ); err != nil {
		return err
	}
	if cfg.SM.MaxCTAs > pipeline.MaxCTASlots {
		return fmt.Errorf("trace: sm.max_ctas %d exceeds %d", cfg.SM.MaxCTAs, pipeline.MaxCTASlots)
	}
	if s.pool, err = newInst[regPoolObs](t, ss, pipeline.TopTable[regPoolObs](ScopeRegPool, p), nil); err != nil {
		return err
	}
	if s.rpIn, err = newInst[regpool.Inputs](t, ss, sm.RegPool().Signals(ScopeRegPool), nil); err != nil {
		return err
	}
	nc := sm.MaxResidentCTAs()
	s.ctas = make([]tinst[pipeline.BarrierCTA], nc)
	s.bars = make([][pipeline.NumBarriers]tinst[pipeline.BarrierRegs], nc)
	s.ctaSeen = make([]pipeline.CTAInfo, nc)
	s.ctaLin = make([]int64, nc)
	for k := 0; k < nc; k++ {
		s.ctaLin[k] = -1
		if s.ctas[k], err = newInst[pipeline.BarrierCTA](t, ss, pipeline.TopTable[pipeline.BarrierCTA](scopef(ScopeBarrier, k), p), nil); err != nil {
			return err
		}
		for b := range s.bars[k] {
			if s.bars[k][b], err = newInst[pipeline.BarrierRegs](t, ss, pipeline.TopTable[pipeline.BarrierRegs](scopef(ScopeBar, k, b), p), nil); err != nil {
				return err
			}
		}
	}
	if err := ss.close(); err != nil {
		return err
	}
	if err := t.w.EndDefinitions(); err != nil {
		return err
	}
	return t.w.Error()
}
