package trace

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unsafe"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/vcd"
	"github.com/smsim/smsim/warpsched"
)

// TimeScale is the VCD time unit, and TicksPerCycle the number of units
// per SM cycle: cycle c's rising clock edge is at time c×10 (c ns as
// GTKWave shows it), its falling edge at c×10+5.
const (
	TimeScale     = "100ps"
	TicksPerCycle = 10
)

// TailCycles is the number of cycles dumped after the run ends (the clock
// toggling, everything else holding the final state), so that the end
// shows in a viewer.
const TailCycles = 3

// Tracer dumps one SM's run as VCD through the SM's observation hooks
// (OnCycle, OnIssue). Attach makes one; Close completes the file. A
// Tracer is not safe for concurrent use (nor is the SM).
type Tracer struct {
	sm    *pipeline.SM
	w     *vcd.Writer // for the declarations; then the encoder's
	enc   *encoder
	opt   Options
	enums map[string][]string
	stall []uint8   // stall_reason_q by warp state
	table rtl.Table // every signal declared, in order (string companions excluded)

	started bool // the $dumpvars section is written
	live    bool // the current cycle is inside the window
	closed  bool
	last    uint64 // the last cycle sampled
	rstLow  bool   // rst_ni is still 0
	err     error

	top   tinst[topObs]
	topV  topObs
	warps []tinst[warpObs]
	issue []tinst[issueObs]
	wb    []tinst[wbObs]
	sIn   []tinst[warpsched.Inputs]
	sOut  []tinst[warpsched.Outputs]
	sQ    []tinst[warpsched.State]
	ctOut tinst[clocktimer.Outputs]
	ctQ   tinst[clocktimer.State]
	pmOut tinst[perfmon.Outputs]
	trOut tinst[trapunit.Outputs]
	trQ   tinst[trapunit.State]
	trQv  trapunit.State // this cycle's trap_unit registers
	pool  tinst[regPoolObs]
	poolV regPoolObs
	ctas  []tinst[ctaObs]
	bars  [][pipeline.NumBarriers]tinst[barObs]

	// Per-slot memory of what was sampled, to skip unchanged slots.
	warpSeen []warpKey
	ctaOf    []int64 // CTA slot -> linear CTA id, -1 when free
	ctaSeen  []pipeline.CTAInfo
	ctaMark  []bool
	issueObs []issueObs
	ops      []uint8 // opcode of each PC
	wbq      wbHeap
	wbSeq    uint64
	wbAny    bool // some writeback signal is dumped
	wbObs    []wbObs
}

type warpKey struct {
	state pipeline.WarpState
	pc    uint32
	mask  uint32
	nreg  uint16
	esr   uint16
}

// inst is one instance of an sv-tagged struct's signals in one scope: its
// variables and the values last written.
type inst struct {
	b    *binder
	ids  []vcd.ID // per field: the variable (-1: filtered out)
	cur  []uint64 // packed values of the fields last written
	raw  []byte   // their memory
	any  bool     // some field is dumped
	fast bool     // warpObs fields in the order of the w* constants
}

type tinst[T any] struct {
	inst
	bt bound[T]
}

// Attach declares the SM's signals on a new VCD Writer writing to w and
// registers the tracer's hooks on sm: every cycle in opt's window is
// dumped as the run proceeds. Call it after pipeline.New and before the
// first Step or Run, and call Close when the run is over: Close also stops
// the goroutine that formats the VCD. It returns an error for bad
// options. Tracing costs nothing until Attach: the SM has no hooks
// otherwise.
func Attach(sm *pipeline.SM, w io.Writer, opt Options) (*Tracer, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	t := &Tracer{sm: sm, w: vcd.NewWriter(w), opt: opt, enums: enumValues(), rstLow: opt.Start == 0}
	t.enc = newEncoder(t.w)
	t.stall = stallCodes(t.enums["stall"])
	t.w.Timescale = TimeScale
	t.w.Version = "smsim trace (github.com/smsim/smsim/trace)"
	t.w.Comment = "one SM cycle = " + strconv.Itoa(TicksPerCycle) + " x " + TimeScale + "; signals change at the rising edge of clk_i"
	if err := t.declare(); err != nil {
		return nil, err
	}
	im := sm.Image()
	t.ops = make([]uint8, len(im.Code))
	for pc, in := range im.Code {
		t.ops[pc] = uint8(in.Op)
	}
	sm.OnCycle(t.onCycle)
	sm.OnIssue(t.onIssue)
	t.enc.start()
	return t, nil
}

// Signals returns the table of every signal the tracer dumps (after the
// scope filter), in declaration order; enum signals' string companions
// (<name>_str) are not listed.
func (t *Tracer) Signals() rtl.Table { return t.table }

// selected reports whether the signal path passes the scope filter.
func (t *Tracer) selected(path string) bool {
	if len(t.opt.Scopes) == 0 || path == ScopeTop+".clk_i" || path == ScopeTop+".rst_ni" {
		return true
	}
	for _, p := range t.opt.Scopes {
		if underPrefix(path, p) {
			return true
		}
	}
	return false
}

// underPrefix reports whether path is prefix or lies below it: the
// prefix ends at a scope boundary ('.' or the '[' of an index), or ends
// with one itself.
func underPrefix(path, prefix string) bool {
	if !strings.HasPrefix(path, prefix) {
		return false
	}
	if len(path) == len(prefix) || strings.HasSuffix(prefix, ".") || strings.HasSuffix(prefix, "[") {
		return true
	}
	c := path[len(prefix)]
	return c == '.' || c == '['
}

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
			if f.nw > 1 {
				t.enc.wide(id, f.sig.Width)
			}
			if f.enum != nil {
				if sid, err = t.w.Register(vcd.String, 1, f.sig.Name+StrSuffix); err != nil {
					return x, err
				}
				t.enc.enum(id, sid, f.enum)
			}
			t.table = append(t.table, f.sig)
			x.any = true
		}
		x.ids = append(x.ids, id)
	}
	return x, nil
}

// declare declares every signal, scope by scope, in the order of the
// Verilog hierarchy the waveform is compared with.
func (t *Tracer) declare() error {
	sm := t.sm
	cfg := sm.Config()
	p := params(sm)
	ss := &scopeStack{w: t.w}
	var err error
	vals := t.enums
	if t.top, err = newInst[topObs](t, ss, obsTable[topObs](ScopeTop, p), enumsOf[topObs](vals)); err != nil {
		return err
	}
	nw := cfg.SM.MaxWarps
	t.warps = make([]tinst[warpObs], nw)
	t.warpSeen = make([]warpKey, nw)
	for i := range t.warps {
		if t.warps[i], err = newInst[warpObs](t, ss, obsTable[warpObs](scopef(ScopeWarp, i), p), enumsOf[warpObs](vals)); err != nil {
			return err
		}
		t.warps[i].fast = warpLayoutOK(t.warps[i].b)
		t.warpSeen[i] = warpKey{state: 255}
	}
	scheds := sm.Schedulers()
	ns := len(scheds)
	t.issue = make([]tinst[issueObs], ns)
	t.issueObs = make([]issueObs, ns)
	t.wb = make([]tinst[wbObs], ns)
	t.wbObs = make([]wbObs, ns)
	t.sIn = make([]tinst[warpsched.Inputs], ns)
	t.sOut = make([]tinst[warpsched.Outputs], ns)
	t.sQ = make([]tinst[warpsched.State], ns)
	all := sm.Signals()
	for s := 0; s < ns; s++ {
		if t.issue[s], err = newInst[issueObs](t, ss, obsTable[issueObs](scopef(ScopeIssue, s), p), enumsOf[issueObs](vals)); err != nil {
			return err
		}
	}
	for s := 0; s < ns; s++ {
		if t.wb[s], err = newInst[wbObs](t, ss, obsTable[wbObs](scopef(ScopeWriteback, s), p), nil); err != nil {
			return err
		}
		t.wbAny = t.wbAny || t.wb[s].any
	}
	for s := 0; s < ns; s++ {
		scope := scopef(ScopeSched, s)
		var tab rtl.Table
		for _, sig := range all {
			if sig.Scope == scope {
				tab = append(tab, sig)
			}
		}
		if t.sIn[s], err = newInst[warpsched.Inputs](t, ss, tab, nil); err != nil {
			return err
		}
		if t.sOut[s], err = newInst[warpsched.Outputs](t, ss, tab, nil); err != nil {
			return err
		}
		if t.sQ[s], err = newInst[warpsched.State](t, ss, tab, nil); err != nil {
			return err
		}
	}
	// clock_timer: its outputs and registers; perf_mon: its outputs (its
	// registers are the same values: pm_o = pm_q, event_count_o =
	// event_count_q). Their inputs are driven while the issued
	// instructions execute, after the observation point, and are not
	// visible to hooks.
	ct := sm.ClockTimer().Signals()
	if t.ctOut, err = newInst[clocktimer.Outputs](t, ss, ct, nil); err != nil {
		return err
	}
	if t.ctQ, err = newInst[clocktimer.State](t, ss, ct, nil); err != nil {
		return err
	}
	pm := sm.PerfMon().Signals()
	if t.pmOut, err = newInst[perfmon.Outputs](t, ss, pm, nil); err != nil {
		return err
	}
	// trap_unit: its outputs and registers (its inputs are driven while
	// the instructions execute). Its outputs are those of the unit's Eval
	// at the end of each cycle, sampled when the next cycle starts.
	tt := sm.TrapUnitModel().Signals()
	if t.trOut, err = newInst[trapunit.Outputs](t, ss, tt, nil); err != nil {
		return err
	}
	if t.trQ, err = newInst[trapunit.State](t, ss, tt, nil); err != nil {
		return err
	}
	if cfg.SM.MaxCTAs > maxCTASlots {
		return fmt.Errorf("trace: sm.max_ctas %d exceeds %d", cfg.SM.MaxCTAs, maxCTASlots)
	}
	if t.pool, err = newInst[regPoolObs](t, ss, obsTable[regPoolObs](ScopeRegPool, p), nil); err != nil {
		return err
	}
	nc := sm.MaxResidentCTAs()
	t.ctas = make([]tinst[ctaObs], nc)
	t.bars = make([][pipeline.NumBarriers]tinst[barObs], nc)
	t.ctaOf = make([]int64, nc)
	t.ctaSeen = make([]pipeline.CTAInfo, nc)
	t.ctaMark = make([]bool, nc)
	for k := 0; k < nc; k++ {
		t.ctaOf[k] = -1
		if t.ctas[k], err = newInst[ctaObs](t, ss, obsTable[ctaObs](scopef(ScopeBarrier, k), p), nil); err != nil {
			return err
		}
		for b := range t.bars[k] {
			if t.bars[k][b], err = newInst[barObs](t, ss, obsTable[barObs](scopef(ScopeBar, k, b), p), nil); err != nil {
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

// sample writes the fields of v that changed since the last sample (all
// of them before the $dumpvars section: the writer keeps the last value
// set). A field's memory is compared first, so an unchanged field costs a
// memory comparison, whatever its width.
func (x *tinst[T]) sample(t *Tracer, v *T) {
	if !x.any {
		return
	}
	p := x.bt.ptr(v)
	all := !t.started
	for i := range x.b.fields {
		id := x.ids[i]
		if id < 0 {
			continue
		}
		f := &x.b.fields[i]
		fp := unsafe.Add(p, f.off)
		w := x.cur[f.word : f.word+f.nw]
		if f.stride == 0 && !f.bits {
			// A scalar: compare its value.
			v := load(fp, f.leaf) & mask(f.ew)
			if !all && v == w[0] {
				continue
			}
			w[0] = v
			t.enc.uint(id, v)
		} else {
			// A vector: compare its memory first, whatever its width.
			raw := x.raw[f.raw : f.raw+int(f.size)]
			mem := f.bytesAt(fp)
			if !all && string(mem) == string(raw) {
				continue
			}
			copy(raw, mem)
			f.pack(fp, w)
			if f.nw == 1 {
				t.enc.uint(id, w[0])
			} else {
				t.enc.bits(id, w)
			}
		}
	}
}

func enumName(names []string, v uint64) string {
	if v < uint64(len(names)) {
		return names[v]
	}
	return "?" + strconv.FormatUint(v, 10)
}

// inWindow reports whether cycle c is dumped.
func (t *Tracer) inWindow(c uint64) bool {
	return c >= t.opt.Start && (t.opt.End == 0 || c < t.opt.End)
}

// setTime starts time step ts; the first call writes the $dumpvars
// section with the values set so far.
func (t *Tracer) setTime(ts uint64) {
	t.enc.time(ts)
	t.started = true
}

// fallingEdge writes the falling clock edge of the last cycle sampled
// (where reset, low in cycle 0, is released).
func (t *Tracer) fallingEdge() {
	t.setTime(t.last*TicksPerCycle + TicksPerCycle/2)
	t.topV.Clk, t.topV.RstN = false, true
	t.rstLow = false
	t.top.sample(t, &t.topV)
}

func (t *Tracer) onCycle(ci *pipeline.CycleInfo) {
	c := ci.Cycle
	if !t.inWindow(c) || t.closed {
		t.live = false
		return
	}
	if t.started {
		t.endCycle()
		t.fallingEdge()
		t.setTime(c * TicksPerCycle)
	}
	t.live = true
	t.last = c
	t.topV = topObs{Clk: true, RstN: !t.rstLow}
	t.top.sample(t, &t.topV)
	t.trQv = t.sm.TrapState()
	t.sampleWarps(ci, false)
	t.sampleIssue(ci, false)
	t.sampleWriteback(c)
	t.sampleUnits(ci, false)
	t.sampleCTAs(ci)
	if !t.started {
		t.endCycle() // initial values
		t.setTime(c * TicksPerCycle)
	}
}

// endCycle writes what is known only once the cycle's instructions have
// executed: the issue stage's guard masks, trap_unit's outputs.
func (t *Tracer) endCycle() {
	t.flushIssue()
	if t.trOut.any {
		o := t.sm.TrapOutputs()
		t.trOut.sample(t, &o)
	}
}

func (t *Tracer) sampleWarps(ci *pipeline.CycleInfo, force bool) {
	states, pcs, masks, nregs := ci.States, ci.PCs, ci.Masks, ci.NRegs
	esr := &t.trQv.WarpESR
	seen := t.warpSeen
	for i := range t.warps {
		e := uint16(0)
		if i < len(esr) {
			e = uint16(esr[i])
		}
		if states[i] == seen[i].state && pcs[i] == seen[i].pc && masks[i] == seen[i].mask && nregs[i] == seen[i].nreg && e == seen[i].esr && t.started && !force {
			continue
		}
		x := &t.warps[i]
		if !x.any {
			continue
		}
		k := warpKey{state: states[i], pc: pcs[i], mask: masks[i], nreg: nregs[i], esr: e}
		if t.started && !force && x.fast {
			// The common case, without the generic loop: write the
			// fields that changed.
			old := seen[i]
			seen[i] = k
			if k.state != old.state {
				if (k.state == pipeline.StateIdle) != (old.state == pipeline.StateIdle) {
					x.put(t, wValid, b2u(k.state != pipeline.StateIdle))
				}
				x.put(t, wState, uint64(k.state))
				if sc, so := t.stallCode(k.state), t.stallCode(old.state); sc != so {
					x.put(t, wStall, uint64(sc))
				}
			}
			if k.pc != old.pc {
				x.put(t, wPC, uint64(k.pc))
			}
			if k.mask != old.mask {
				x.put(t, wMask, uint64(k.mask))
			}
			if k.esr != old.esr {
				x.put(t, wESR, uint64(k.esr))
			}
			if k.nreg != old.nreg {
				x.put(t, wNReg, uint64(k.nreg))
			}
			continue
		}
		seen[i] = k
		o := warpObs{
			Valid:       k.state != pipeline.StateIdle,
			PC:          k.pc,
			ActiveMask:  k.mask,
			State:       uint8(k.state),
			StallReason: t.stallCode(k.state),
			ESR:         k.esr,
			NReg:        k.nreg,
		}
		x.sample(t, &o)
	}
}

// warpLayoutOK checks that the binder laid warpObs out as the w*
// constants say (one word per field, in order).
func warpLayoutOK(b *binder) bool {
	want := []string{wValid: "valid_q", wPC: "pc_q", wMask: "active_mask_q", wState: "state_q", wStall: "stall_reason_q", wESR: "esr_q", wNReg: "nreg_q"}
	if len(b.fields) != wFields {
		return false
	}
	for i, f := range b.fields {
		if f.sig.Name != want[i] || f.nw != 1 || f.stride != 0 || f.bits {
			return false
		}
	}
	return true
}

// Field indexes of warpObs, for the fast path of sampleWarps.
const (
	wValid = iota
	wPC
	wMask
	wState
	wStall
	wESR
	wNReg
	wFields
)

// put writes field i of a scalar-only instance whose value changed.
func (x *inst) put(t *Tracer, i int, v uint64) {
	if id := x.ids[i]; id >= 0 {
		x.cur[x.b.fields[i].word] = v
		t.enc.uint(id, v)
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// stallCode is the stall_reason_q value of a warp state: the index of its
// stall class in config.StallStates (0, "any" there, is "none" here).
func (t *Tracer) stallCode(s pipeline.WarpState) uint8 {
	if int(s) < len(t.stall) {
		return t.stall[s]
	}
	return 0
}

// stallCodes tabulates stallCode for every warp state.
func stallCodes(names []string) []uint8 {
	out := make([]uint8, len(pipeline.StateNames()))
	for s := range out {
		r := pipeline.WarpState(s).StallReason()
		for i, n := range names {
			if r != "" && n == r {
				out[s] = uint8(i)
			}
		}
	}
	return out
}

// sampleIssue samples the issue stage into t.issueObs; flushIssue writes
// it once the cycle's instructions have executed (their guard masks come
// from OnIssue). A port that issues nothing drops issue_valid_o and shows
// issue_op_o idle; its other outputs hold (as a pipeline register's data
// would), which keeps the dump small.
func (t *Tracer) sampleIssue(ci *pipeline.CycleInfo, idle bool) {
	for s := range t.issue {
		o := &t.issueObs[s]
		o.Valid, o.Op = false, opIdle
		if w := ci.Issued[s]; w >= 0 && !idle {
			o.Valid, o.Warp, o.PC, o.Mask = true, uint16(w), ci.PCs[w], ci.Masks[w]
			o.Op = 0
			if int(o.PC) < len(t.ops) {
				o.Op = t.ops[o.PC]
			}
		}
	}
}

func (t *Tracer) flushIssue() {
	for s := range t.issue {
		t.issue[s].sample(t, &t.issueObs[s])
	}
}

func (t *Tracer) onIssue(ii *pipeline.IssueInfo) {
	if !t.live || ii.Cycle != t.last || t.closed {
		return
	}
	s := ii.Sched
	if s < len(t.issueObs) {
		t.issueObs[s].Exec = ii.Exec
	}
	if ii.Done > ii.Cycle && s < len(t.wb) && t.wb[s].any && t.inWindow(ii.Done) {
		t.wbSeq++
		t.wbq.push(wbEvent{at: ii.Done, seq: t.wbSeq, sched: s, warp: ii.Warp, pc: ii.PC})
	}
}

func (t *Tracer) sampleWriteback(c uint64) {
	if !t.wbAny {
		return
	}
	for s := range t.wbObs {
		o := &t.wbObs[s]
		o.Valid, o.Count = false, 0 // wb_warp_o and wb_pc_o hold
	}
	for len(t.wbq) > 0 && t.wbq[0].at <= c {
		e := t.wbq.pop()
		if e.at < c || e.sched >= len(t.wbObs) {
			continue
		}
		o := &t.wbObs[e.sched]
		o.Valid, o.Warp, o.PC = true, uint16(e.warp), e.pc
		if o.Count < 15 {
			o.Count++
		}
	}
	for s := range t.wb {
		t.wb[s].sample(t, &t.wbObs[s])
	}
}

func (t *Tracer) sampleUnits(ci *pipeline.CycleInfo, final bool) {
	scheds := t.sm.Schedulers()
	for s, u := range scheds {
		in, out := &ci.SchedIn[s], &ci.SchedOut[s]
		if final {
			in, out = &warpsched.Inputs{}, &warpsched.Outputs{}
		}
		t.sIn[s].sample(t, in)
		t.sOut[s].sample(t, out)
		if t.sQ[s].any {
			t.sQ[s].sample(t, u.QRef())
		}
	}
	if t.ctOut.any || t.ctQ.any {
		ct := t.sm.ClockTimer()
		o, q := ct.Out(), ct.Q()
		t.ctOut.sample(t, &o)
		t.ctQ.sample(t, &q)
	}
	if t.pmOut.any {
		o := t.sm.PerfMon().Out()
		t.pmOut.sample(t, &o)
	}
	t.trQ.sample(t, &t.trQv)
	if t.pool.any {
		// CTA slots are given lowest-free-first and at most
		// MaxResidentCTAs CTAs are resident, so the slots above stay
		// empty (one more is read for a CTA leaving as another arrives).
		rp := t.sm.RegPool()
		n := min(len(t.poolV.Free), rp.Params().NumCTAs, t.sm.MaxResidentCTAs()+1)
		for c := 0; c < n; c++ {
			st := rp.CTAStats(c)
			t.poolV.Free[c], t.poolV.HighWater[c] = st.Free, st.HighWater
		}
		t.pool.sample(t, &t.poolV)
	}
}

// sampleCTAs assigns the resident CTAs to CTA slots (a CTA keeps its slot
// while resident; a new one takes the lowest free slot, in launch order)
// and dumps their barriers.
func (t *Tracer) sampleCTAs(ci *pipeline.CycleInfo) {
	if len(t.ctas) == 0 {
		return
	}
	for k := range t.ctaMark {
		t.ctaMark[k] = false
	}
	for i := range ci.CTAs {
		c := &ci.CTAs[i]
		for k, l := range t.ctaOf {
			if l == int64(c.Linear) {
				t.ctaMark[k] = true
				break
			}
		}
	}
	for k := range t.ctaOf {
		if !t.ctaMark[k] && t.ctaOf[k] >= 0 {
			t.ctaOf[k] = -1
			t.dumpCTA(k, nil)
		}
	}
	for i := range ci.CTAs {
		c := &ci.CTAs[i]
		slot := -1
		for k, l := range t.ctaOf {
			if l == int64(c.Linear) {
				slot = k
				break
			}
		}
		if slot < 0 {
			for k, l := range t.ctaOf {
				if l < 0 {
					slot = k
					t.ctaOf[k] = int64(c.Linear)
					break
				}
			}
			if slot < 0 {
				continue // more resident CTAs than MaxResidentCTAs: cannot happen
			}
		} else if t.started && t.ctaSeen[slot] == *c {
			continue
		}
		t.dumpCTA(slot, c)
	}
	if !t.started {
		for k, l := range t.ctaOf {
			if l < 0 {
				t.dumpCTA(k, nil)
			}
		}
	}
}

func (t *Tracer) dumpCTA(k int, c *pipeline.CTAInfo) {
	var o ctaObs
	var info pipeline.CTAInfo
	if c != nil {
		info = *c
		o = ctaObs{Valid: true, Linear: uint32(c.Linear)}
	}
	t.ctaSeen[k] = info
	t.ctas[k].sample(t, &o)
	for b := range t.bars[k] {
		x := &info.Bars[b]
		bo := barObs{Arrived: uint16(x.Arrived), Expected: uint16(x.Expected), Waiting: uint32(x.Waiting)}
		t.bars[k][b].sample(t, &bo)
	}
}

// Close completes the dump: the falling clock edge of the last cycle and,
// when the run has ended inside the window, one more step at the cycle it
// ended with the final state (done_o and status_o set, nothing issued).
// It flushes the VCD Writer (it does not close the io.Writer given to
// Attach) and returns its first error. Later cycles are not traced.
func (t *Tracer) Close() error {
	if t.closed {
		return t.err
	}
	t.closed, t.live = true, false
	if t.started {
		t.endCycle()
		t.fallingEdge()
		if c := t.sm.Cycle(); t.sm.Done() && c > t.last && t.inWindow(c) {
			t.last = c
			t.setTime(c * TicksPerCycle)
			ci := t.sm.Observe()
			t.topV = topObs{Clk: true, RstN: true, Done: true, Status: statusCode(t.sm.Status(), t.enums["status"])}
			t.top.sample(t, &t.topV)
			t.trQv = t.sm.TrapState()
			t.sampleWarps(ci, false)
			t.sampleIssue(ci, true)
			t.sampleWriteback(c)
			t.sampleUnits(ci, true)
			t.sampleCTAs(ci)
			t.endCycle()
			// The clock runs on a few cycles after the end, so that the
			// final state shows in a viewer.
			for k := uint64(0); k < TailCycles && t.inWindow(c+k+1); k++ {
				t.fallingEdge()
				t.last = c + k + 1
				t.setTime(t.last * TicksPerCycle)
				t.topV.Clk = true
				t.top.sample(t, &t.topV)
			}
			t.fallingEdge()
		}
	}
	t.err = t.enc.close()
	return t.err
}

// wbEvent is an instruction's writeback at cycle at.
type wbEvent struct {
	at    uint64
	seq   uint64 // issue order
	sched int
	warp  int
	pc    uint32
}

func (e *wbEvent) before(f *wbEvent) bool { return e.at < f.at || e.at == f.at && e.seq < f.seq }

// wbHeap is a binary min-heap of pending writebacks by (cycle, issue
// order), so that the last one issued is reported when several complete
// in one cycle.
type wbHeap []wbEvent

func (h *wbHeap) push(e wbEvent) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(&q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *wbHeap) pop() wbEvent {
	q := *h
	e := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && q[l].before(&q[m]) {
			m = l
		}
		if r := l + 1; r < n && q[r].before(&q[m]) {
			m = r
		}
		if m == i {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return e
}
