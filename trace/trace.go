package trace

import (
	"fmt"
	"io"
	"slices"
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
//
// The work is split in two (see frames.go). In the hooks, on the SM's
// goroutine, the Tracer only captures a frame per cycle: a copy of the
// values it dumps. Worker goroutines turn runs of frames into VCD text
// (comparing each signal with its value in the frame before and
// formatting the changes into a vcd.Chunk) and append the chunks to the
// file in order. The first cycle (the $dumpvars
// section) and the last (at Close) are dumped on the caller's goroutine.
// The output is the same byte for byte whatever the number of workers.
type Tracer struct {
	sm    *pipeline.SM
	w     *vcd.Writer
	opt   Options
	enums map[string][]string
	stall []uint8     // stall_reason_q by warp state
	table rtl.Table   // every signal declared, in order (string companions excluded)
	comp  []companion // by variable: the string companion of an enum (id -1: none)

	// s holds the signals' variables and layouts; it dumps the first and
	// the final cycles, and the workers' samplers are its clones.
	s *sampler

	started bool // the $dumpvars section is written
	live    bool // the current cycle is inside the window
	closed  bool
	last    uint64 // the last cycle captured
	rstLow  bool   // rst_ni is still 0
	err     error

	// What the capture keeps from cycle to cycle.
	issueObs []issueObs // the issue stage (outputs hold when idle)
	ops      []uint8    // opcode of each PC
	wbq      wbQueue
	wbSeq    uint64
	wbObs    []wbObs
	wbLast   []uint64 // sampleWriteback's scratch: the latest issue by scheduler
	ctaOf    []int64  // CTA slot -> linear CTA id, -1 when free
	ctaMark  []bool
	poolV    regPoolObs
	poolN    int // CTA slots of poolV read
	trOut    trapunit.Outputs

	par *frames
	lay layout // of frame.data

	// The fields read from frame.data, in the order they are dumped, and
	// by word of frame.data the fields over it.
	fops    []fop
	wordOps []wordOps
	nvals   int // words of the fops' packed values
	nraw    int // bytes of the vector fops' memory
}

// companion is an enum variable's string companion and its value names.
type companion struct {
	id    vcd.ID
	named *vcd.Named // both, formatted once
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
	wd   []wdiff  // the struct's memory under the dumped fields, by word
	runs []span   // the same, as runs of contiguous words
	prev []uint64 // its contents at the last sample
}

// wdiff is one 8-byte word of a sampled struct's memory (the last word of
// a struct whose size is not a multiple of 8 is shorter: n bytes) and the
// fields [f0, f1] that overlap it. Comparing words first makes a sample
// of a struct that did not change cost one load and compare per word,
// whatever its fields.
type wdiff struct {
	off    uintptr
	n      uintptr
	f0, f1 int
}

// span is a byte range of a struct.
type span struct{ off, n uintptr }

type tinst[T any] struct {
	inst
	bt bound[T]
}

// words lays out wd, runs and prev over the dumped fields of a struct of
// size bytes.
func (x *inst) words(size uintptr) {
	byWord := map[uintptr]int{}
	for i, f := range x.b.fields {
		if x.ids[i] < 0 || f.size == 0 {
			continue
		}
		for o := f.off &^ 7; o < f.off+f.size; o += 8 {
			k, ok := byWord[o]
			if !ok {
				k = len(x.wd)
				byWord[o] = k
				x.wd = append(x.wd, wdiff{off: o, n: min(8, size-o), f0: i})
			}
			x.wd[k].f1 = i
		}
	}
	slices.SortFunc(x.wd, func(a, b wdiff) int { return int(a.off) - int(b.off) })
	for _, d := range x.wd {
		if n := len(x.runs); n > 0 && x.runs[n-1].off+x.runs[n-1].n == d.off {
			x.runs[n-1].n += d.n
		} else {
			x.runs = append(x.runs, span{d.off, d.n})
		}
	}
	x.prev = make([]uint64, len(x.wd))
}

// arena hands out the memory of a sampler's instances from a few large
// blocks, in the order they are sampled, so that a cycle's sampling walks
// through memory instead of jumping between small allocations.
type arena struct {
	u []uint64
	b []byte
}

func (a *arena) words(n int) []uint64 {
	if len(a.u) < n {
		a.u = make([]uint64, max(n, 1<<13))
	}
	w := a.u[:n:n]
	a.u = a.u[n:]
	return w
}

func (a *arena) bytes(n int) []byte {
	if len(a.b) < n {
		a.b = make([]byte, max(n, 1<<15))
	}
	w := a.b[:n:n]
	a.b = a.b[n:]
	return w
}

// clone returns a copy of x with its own memory of the values written.
func (x inst) clone(a *arena) inst {
	x.cur = a.words(len(x.cur))
	x.prev = a.words(len(x.prev))
	x.raw = a.bytes(len(x.raw))
	return x
}

func (x tinst[T]) clone(a *arena) tinst[T] {
	x.inst = x.inst.clone(a)
	return x
}

func cloneAll[T any](xs []tinst[T], a *arena) []tinst[T] {
	out := make([]tinst[T], len(xs))
	for i := range xs {
		out[i] = xs[i].clone(a)
	}
	return out
}

// capture copies the dumped fields of src into data (the runs one after
// the other: word i of wd at data[8*i:], only the struct's last word may
// be shorter).
func (x *tinst[T]) capture(data []byte, src *T) {
	p := x.bt.ptr(src)
	data = data[:8*len(x.wd)] // the layout's room for it
	d := unsafe.Pointer(unsafe.SliceData(data))
	for i := range x.wd {
		w := &x.wd[i]
		if w.n == 8 {
			*(*uint64)(unsafe.Add(d, 8*i)) = *(*uint64)(unsafe.Add(p, w.off))
		} else {
			copy(data[8*i:8*i+int(w.n)], unsafe.Slice((*byte)(unsafe.Add(p, w.off)), w.n))
		}
	}
}

// loadWord reads the n (1..8) bytes at p as a little-endian word.
func loadWord(p unsafe.Pointer, n uintptr) uint64 {
	if n == 8 {
		return *(*uint64)(p)
	}
	var v uint64
	for i := uintptr(0); i < n; i++ {
		v |= uint64(*(*byte)(unsafe.Add(p, i))) << (8 * i)
	}
	return v
}

// Attach declares the SM's signals on a new VCD Writer writing to w and
// registers the tracer's hooks on sm: every cycle in opt's window is
// dumped as the run proceeds. Call it after pipeline.New and before the
// first Step or Run, and call Close when the run is over: Close also stops
// the goroutines that format the VCD. It returns an error for bad
// options. Tracing costs nothing until Attach: the SM has no hooks
// otherwise.
func Attach(sm *pipeline.SM, w io.Writer, opt Options) (*Tracer, error) {
	return attach(sm, w, opt, 0)
}

// attach is Attach with a number of worker goroutines (0: the default).
func attach(sm *pipeline.SM, w io.Writer, opt Options, workers int) (*Tracer, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	t := &Tracer{sm: sm, w: vcd.NewWriter(w), opt: opt, enums: enumValues(), rstLow: opt.Start == 0}
	t.s = &sampler{t: t, w: t.w}
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
	t.layout()
	t.s.flat()
	t.poolN = min(len(t.poolV.Free), sm.RegPool().Params().NumCTAs, sm.MaxResidentCTAs()+1)
	t.par = newFrames(t, workers)
	sm.OnCycle(t.onCycle)
	sm.OnIssue(t.onIssue)
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
	p := params(sm)
	ss := &scopeStack{w: t.w}
	s := t.s
	var err error
	vals := t.enums
	if s.top, err = newInst[topObs](t, ss, obsTable[topObs](ScopeTop, p), enumsOf[topObs](vals)); err != nil {
		return err
	}
	nw := cfg.SM.MaxWarps
	s.warps = make([]tinst[warpObs], nw)
	s.warpSeen = make([]warpKey, nw)
	for i := range s.warps {
		if s.warps[i], err = newInst[warpObs](t, ss, obsTable[warpObs](scopef(ScopeWarp, i), p), enumsOf[warpObs](vals)); err != nil {
			return err
		}
		s.warps[i].fast = warpLayoutOK(s.warps[i].b)
		s.warpSeen[i] = warpKey{state: 255}
	}
	scheds := sm.Schedulers()
	ns := len(scheds)
	s.issue = make([]tinst[issueObs], ns)
	t.issueObs = make([]issueObs, ns)
	s.wb = make([]tinst[wbObs], ns)
	t.wbObs = make([]wbObs, ns)
	s.sIn = make([]tinst[warpsched.Inputs], ns)
	s.sOut = make([]tinst[warpsched.Outputs], ns)
	s.sQ = make([]tinst[warpsched.State], ns)
	all := sm.Signals()
	for k := 0; k < ns; k++ {
		if s.issue[k], err = newInst[issueObs](t, ss, obsTable[issueObs](scopef(ScopeIssue, k), p), enumsOf[issueObs](vals)); err != nil {
			return err
		}
	}
	for k := 0; k < ns; k++ {
		if s.wb[k], err = newInst[wbObs](t, ss, obsTable[wbObs](scopef(ScopeWriteback, k), p), nil); err != nil {
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
		if s.sIn[k], err = newInst[warpsched.Inputs](t, ss, tab, nil); err != nil {
			return err
		}
		if s.sOut[k], err = newInst[warpsched.Outputs](t, ss, tab, nil); err != nil {
			return err
		}
		if s.sQ[k], err = newInst[warpsched.State](t, ss, tab, nil); err != nil {
			return err
		}
	}
	// clock_timer: its outputs and registers; perf_mon: its outputs (its
	// registers are the same values: pm_o = pm_q, event_count_o =
	// event_count_q). Their inputs are driven while the issued
	// instructions execute, after the observation point, and are not
	// visible to hooks.
	ct := sm.ClockTimer().Signals()
	if s.ctOut, err = newInst[clocktimer.Outputs](t, ss, ct, nil); err != nil {
		return err
	}
	if s.ctQ, err = newInst[clocktimer.State](t, ss, ct, nil); err != nil {
		return err
	}
	pm := sm.PerfMon().Signals()
	if s.pmOut, err = newInst[perfmon.Outputs](t, ss, pm, nil); err != nil {
		return err
	}
	// trap_unit: its outputs and registers (its inputs are driven while
	// the instructions execute). Its outputs are those of the unit's Eval
	// at the end of each cycle, sampled when the next cycle starts.
	tt := sm.TrapUnitModel().Signals()
	if s.trOut, err = newInst[trapunit.Outputs](t, ss, tt, nil); err != nil {
		return err
	}
	if s.trQ, err = newInst[trapunit.State](t, ss, tt, nil); err != nil {
		return err
	}
	if cfg.SM.MaxCTAs > maxCTASlots {
		return fmt.Errorf("trace: sm.max_ctas %d exceeds %d", cfg.SM.MaxCTAs, maxCTASlots)
	}
	if s.pool, err = newInst[regPoolObs](t, ss, obsTable[regPoolObs](ScopeRegPool, p), nil); err != nil {
		return err
	}
	nc := sm.MaxResidentCTAs()
	s.ctas = make([]tinst[ctaObs], nc)
	s.bars = make([][pipeline.NumBarriers]tinst[barObs], nc)
	t.ctaOf = make([]int64, nc)
	s.ctaSeen = make([]pipeline.CTAInfo, nc)
	s.ctaLin = make([]int64, nc)
	t.ctaMark = make([]bool, nc)
	for k := 0; k < nc; k++ {
		t.ctaOf[k], s.ctaLin[k] = -1, -1
		if s.ctas[k], err = newInst[ctaObs](t, ss, obsTable[ctaObs](scopef(ScopeBarrier, k), p), nil); err != nil {
			return err
		}
		for b := range s.bars[k] {
			if s.bars[k][b], err = newInst[barObs](t, ss, obsTable[barObs](scopef(ScopeBar, k, b), p), nil); err != nil {
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

// sampler turns frames into value changes: it compares each signal with
// the value it last wrote and writes the changes, to the Writer (the
// first and final cycles, on the caller's goroutine) or to a Chunk (a
// worker's run of frames).
type sampler struct {
	t       *Tracer     // read only: stall codes, companions
	w       *vcd.Writer // the output, when ch is nil
	ch      *vcd.Chunk
	mute    bool // update the values last written, write nothing
	started bool // the $dumpvars section is written: write changes only

	top   tinst[topObs]
	topV  topObs // sm_top's ports as last set (the falling edge keeps done_o, status_o)
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
	pool  tinst[regPoolObs]
	ctas  []tinst[ctaObs]
	bars  [][pipeline.NumBarriers]tinst[barObs]

	warpSeen []warpKey
	ctaLin   []int64 // CTA slot -> linear CTA id last dumped, -1 when free
	ctaSeen  []pipeline.CTAInfo

	// What was last written of the fops (frame.data): the words of
	// frame.data, the fops' packed values and the vectors' memory.
	prev []uint64
	vals []uint64
	raw  []byte
}

// flat gives the sampler its own memory of the fops' values.
func (s *sampler) flat() {
	s.prev = make([]uint64, s.t.lay.words)
	s.vals = make([]uint64, s.t.nvals)
	s.raw = make([]byte, s.t.nraw)
}

// clone returns a sampler for a worker: the same variables, its own
// memory of the values written (set by priming it with a frame).
func (s *sampler) clone() *sampler {
	c := *s
	c.w, c.ch, c.mute, c.started = nil, nil, false, true
	a := &arena{}
	c.top = s.top.clone(a)
	c.warps = cloneAll(s.warps, a)
	// The issue and writeback stages and the units are read through the
	// fops (frame.data) into the sampler's own vals and raw (flat): their
	// instances are only layouts, shared.
	c.ctas = make([]tinst[ctaObs], len(s.ctas))
	c.bars = make([][pipeline.NumBarriers]tinst[barObs], len(s.bars))
	for k := range s.bars {
		c.ctas[k] = s.ctas[k].clone(a)
		for b := range s.bars[k] {
			c.bars[k][b] = s.bars[k][b].clone(a)
		}
	}
	c.warpSeen = make([]warpKey, len(s.warpSeen))
	c.ctaLin = make([]int64, len(s.ctaLin))
	for k := range c.ctaLin {
		c.ctaLin[k] = -1
	}
	c.ctaSeen = make([]pipeline.CTAInfo, len(s.ctaSeen))
	c.flat()
	return &c
}

func (s *sampler) setTime(ts uint64) {
	switch {
	case s.mute:
	case s.ch != nil:
		s.ch.SetTime(ts)
	default:
		s.w.SetTime(ts)
	}
}

// uint writes a value change (and the name of an enum's value to its
// string companion).
func (s *sampler) uint(id vcd.ID, v uint64) {
	if s.mute {
		return
	}
	var c *companion
	if int(id) < len(s.t.comp) && s.t.comp[id].named != nil {
		c = &s.t.comp[id]
	}
	s.value(id, c, v)
}

// value writes value v of variable id, or of the enum c and its string
// companion.
func (s *sampler) value(id vcd.ID, c *companion, v uint64) {
	switch {
	case s.ch != nil && c != nil:
		s.ch.SetNamed(c.named, v)
	case s.ch != nil:
		s.ch.SetUint(id, v)
	case c != nil:
		s.w.SetNamed(c.named, v)
	default:
		s.w.SetUint(id, v)
	}
}

// words writes the change of a variable wider than 64 bits.
func (s *sampler) words(id vcd.ID, w []uint64) {
	switch {
	case s.mute:
	case s.ch != nil:
		s.ch.SetWords(id, w)
	default:
		s.w.SetWords(id, w)
	}
}

// sample writes the fields of v that changed since the last sample (all
// of them before the $dumpvars section: the writer keeps the last value
// set). The struct's memory is compared word by word first, so an
// unchanged struct costs a load and compare per word.
func (x *tinst[T]) sample(s *sampler, v *T) {
	if !x.any {
		return
	}
	p := x.bt.ptr(v)
	if !s.started {
		for k := range x.wd {
			x.prev[k] = loadWord(unsafe.Add(p, x.wd[k].off), x.wd[k].n)
		}
		for i := range x.b.fields {
			x.field(s, p, i, true)
		}
		return
	}
	done := -1 // the last field sampled
	for k := range x.wd {
		d := &x.wd[k]
		w := loadWord(unsafe.Add(p, d.off), d.n)
		if w == x.prev[k] {
			continue
		}
		x.prev[k] = w
		for i := max(d.f0, done+1); i <= d.f1; i++ {
			x.field(s, p, i, false)
		}
		done = max(done, d.f1)
	}
}

// field writes field i of the struct at p if it changed (or if all).
func (x *inst) field(s *sampler, p unsafe.Pointer, i int, all bool) {
	id := x.ids[i]
	if id < 0 {
		return
	}
	f := &x.b.fields[i]
	fp := unsafe.Add(p, f.off)
	w := x.cur[f.word : f.word+f.nw]
	if f.stride == 0 && !f.bits {
		// A scalar: compare its value.
		v := load(fp, f.leaf) & mask(f.ew)
		if !all && v == w[0] {
			return
		}
		w[0] = v
		s.uint(id, v)
		return
	}
	// A vector: compare its memory first, whatever its width.
	raw := x.raw[f.raw : f.raw+int(f.size)]
	mem := f.bytesAt(fp)
	if !all && string(mem) == string(raw) {
		return
	}
	copy(raw, mem)
	f.pack(fp, w)
	if f.nw == 1 {
		s.uint(id, w[0])
	} else {
		s.words(id, w)
	}
}

// put writes field i of a scalar-only instance whose value changed.
func (x *inst) put(s *sampler, i int, v uint64) {
	if id := x.ids[i]; id >= 0 {
		x.cur[x.b.fields[i].word] = v
		s.uint(id, v)
	}
}

// first dumps the first cycle of the window: every value, then the
// $dumpvars section at its time.
func (s *sampler) first(f *frame) {
	s.topV = f.top
	s.top.sample(s, &s.topV)
	s.warpSlots(f, false)
	s.body(f, false)
	s.ctaSlots(f)
	s.endCycle(f, false)
	s.setTime(f.cycle * TicksPerCycle)
	s.started = true
}

// process dumps frame f: the end of the cycle before (the issue stage's
// guard masks, trap_unit's outputs), its falling clock edge, and cycle
// f.cycle. With force, every warp slot is compared field by field (a
// sampler primed with a frame does not know the slots' last values).
func (s *sampler) process(f *frame, force bool) {
	s.endCycle(f, force)
	s.fallingEdge(f.prev)
	s.setTime(f.cycle * TicksPerCycle)
	s.topV = f.top
	s.top.sample(s, &s.topV)
	s.warpSlots(f, force)
	s.body(f, force)
	s.ctaSlots(f)
}

// prime makes the sampler's memory of the values written that of the
// end of frame f, writing nothing.
func (s *sampler) prime(f *frame) {
	s.mute = true
	s.process(f, true)
	s.mute = false
}

// endCycle writes what is known only once a cycle's instructions have
// executed: the issue stage's guard masks, trap_unit's outputs.
func (s *sampler) endCycle(f *frame, force bool) {
	s.segment(f, &s.t.lay.end, force)
}

// fallingEdge writes the falling clock edge of cycle c (where reset, low
// in the first cycle, is released).
func (s *sampler) fallingEdge(c uint64) {
	s.setTime(c*TicksPerCycle + TicksPerCycle/2)
	s.topV.Clk, s.topV.RstN = false, true
	s.top.sample(s, &s.topV)
}

// body writes the writeback stages and the units.
func (s *sampler) body(f *frame, force bool) {
	s.segment(f, &s.t.lay.body, force)
}

// segment writes the fops of g that changed: the words of frame.data
// are compared with those last seen first, so an unchanged unit costs a
// compare per word. With force (or before the $dumpvars section) it
// writes every fop of g.
func (s *sampler) segment(f *frame, g *segment, force bool) {
	data, prev := f.data, s.prev
	ops := s.t.fops
	if force || !s.started {
		copy(prev[g.w0:g.w1], data[g.w0:g.w1])
		for i := g.o0; i < g.o1; i++ {
			s.op(&ops[i], f, true)
		}
		return
	}
	wops := s.t.wordOps
	done := int32(-1) // the last fop written
	data, prev = data[g.w0:g.w1], prev[g.w0:g.w1]
	for k0 := 0; k0 < len(data); k0 += 4 {
		// Four words at a time: most of a frame is what it was.
		if k0+4 <= len(data) {
			d, q := data[k0:k0+4], prev[k0:k0+4]
			if (d[0]^q[0])|(d[1]^q[1])|(d[2]^q[2])|(d[3]^q[3]) == 0 {
				continue
			}
		}
		for k := k0; k < min(k0+4, len(data)); k++ {
			w := data[k]
			if w == prev[k] {
				continue
			}
			prev[k] = w
			r := wops[g.w0+k]
			for i := max(r.f0, done+1); i <= r.f1; i++ {
				s.op(&ops[i], f, false)
			}
			done = max(done, r.f1)
		}
	}
}

// op writes fop o of frame f if its value changed (or if all).
func (s *sampler) op(o *fop, f *frame, all bool) {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.bytes)), o.off)
	fd := o.f
	if !o.vec {
		v := load(p, o.leaf) & o.mask
		w := &s.vals[o.word]
		if !all && v == *w {
			return
		}
		*w = v
		s.put(o, v)
		return
	}
	raw := s.raw[o.raw : o.raw+int(fd.size)]
	mem := unsafe.Slice((*byte)(p), fd.size)
	if !all && string(mem) == string(raw) {
		return
	}
	copy(raw, mem)
	w := s.vals[o.word : o.word+fd.nw]
	fd.pack(p, w)
	if fd.nw == 1 {
		s.put(o, w[0])
	} else {
		s.words(o.id, w)
	}
}

// put writes the value change of a fop of width <= 64 (and the name of an
// enum's value to its string companion).
func (s *sampler) put(o *fop, v uint64) {
	if !s.mute {
		s.value(o.id, o.comp, v)
	}
}

func (s *sampler) warpSlots(f *frame, force bool) {
	states, pcs, masks, nregs := f.states, f.pcs, f.masks, f.nregs
	esr := f.esr
	seen := s.warpSeen
	stall := s.t.stall
	for i := range s.warps {
		e := esr[i]
		if states[i] == seen[i].state && pcs[i] == seen[i].pc && masks[i] == seen[i].mask && nregs[i] == seen[i].nreg && e == seen[i].esr && s.started && !force {
			continue
		}
		x := &s.warps[i]
		if !x.any {
			continue
		}
		k := warpKey{state: states[i], pc: pcs[i], mask: masks[i], nreg: nregs[i], esr: e}
		if s.started && !force && x.fast {
			// The common case, without the generic loop: write the
			// fields that changed.
			old := seen[i]
			seen[i] = k
			if k.state != old.state {
				if (k.state == pipeline.StateIdle) != (old.state == pipeline.StateIdle) {
					x.put(s, wValid, b2u(k.state != pipeline.StateIdle))
				}
				x.put(s, wState, uint64(k.state))
				if sc, so := stallCode(stall, k.state), stallCode(stall, old.state); sc != so {
					x.put(s, wStall, uint64(sc))
				}
			}
			if k.pc != old.pc {
				x.put(s, wPC, uint64(k.pc))
			}
			if k.mask != old.mask {
				x.put(s, wMask, uint64(k.mask))
			}
			if k.esr != old.esr {
				x.put(s, wESR, uint64(k.esr))
			}
			if k.nreg != old.nreg {
				x.put(s, wNReg, uint64(k.nreg))
			}
			continue
		}
		seen[i] = k
		o := warpObs{
			Valid:       k.state != pipeline.StateIdle,
			PC:          k.pc,
			ActiveMask:  k.mask,
			State:       uint8(k.state),
			StallReason: stallCode(stall, k.state),
			ESR:         k.esr,
			NReg:        k.nreg,
		}
		x.sample(s, &o)
	}
}

// ctaSlots dumps the CTA slots (the barrier state): slots whose CTA left
// in slot order, then the resident CTAs, new or changed, in the SM's
// order.
func (s *sampler) ctaSlots(f *frame) {
	if len(s.ctas) == 0 {
		return
	}
	for k, l := range s.ctaLin {
		if l >= 0 && l != f.ctaLin[k] {
			s.ctaLin[k] = -1
			s.dumpCTA(k, nil)
		}
	}
	for _, k := range f.ctaOrder {
		if s.ctaLin[k] != f.ctaLin[k] {
			s.ctaLin[k] = f.ctaLin[k]
		} else if s.started && s.ctaSeen[k] == f.ctaInfo[k] {
			continue
		}
		s.dumpCTA(k, &f.ctaInfo[k])
	}
	if !s.started {
		for k, l := range s.ctaLin {
			if l < 0 {
				s.dumpCTA(k, nil)
			}
		}
	}
}

func (s *sampler) dumpCTA(k int, c *pipeline.CTAInfo) {
	var o ctaObs
	var info pipeline.CTAInfo
	if c != nil {
		info = *c
		o = ctaObs{Valid: true, Linear: uint32(c.Linear)}
	}
	s.ctaSeen[k] = info
	s.ctas[k].sample(s, &o)
	for b := range s.bars[k] {
		x := &info.Bars[b]
		bo := barObs{Arrived: uint16(x.Arrived), Expected: uint16(x.Expected), Waiting: uint32(x.Waiting)}
		s.bars[k][b].sample(s, &bo)
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

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// stallCode is the stall_reason_q value of a warp state: the index of its
// stall class in config.StallStates (0, "any" there, is "none" here).
func stallCode(codes []uint8, s pipeline.WarpState) uint8 {
	if int(s) < len(codes) {
		return codes[s]
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
		t.captureEnd(f)
	}
	t.live = true
	t.last = c
	f.top = topObs{Clk: true, RstN: !t.rstLow}
	t.capture(ci, f, false)
	if t.started {
		t.par.commit()
		return
	}
	t.captureEnd(f)
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
	t.sampleIssue(ci, final)
	t.sampleWriteback(ci.Cycle)
	for k := range t.wbObs {
		if s.wb[k].any {
			s.wb[k].capture(f.bytes[l.wb[k]:], &t.wbObs[k])
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
// stage (with the guard masks of its instructions) and trap_unit's
// outputs (those of its Eval at the end of the cycle).
func (t *Tracer) captureEnd(f *frame) {
	s := t.s
	for k := range t.issueObs {
		if s.issue[k].any {
			s.issue[k].capture(f.bytes[t.lay.issue[k]:], &t.issueObs[k])
		}
	}
	if s.trOut.any {
		t.sm.TrapOutputsTo(&t.trOut)
		s.trOut.capture(f.bytes[t.lay.trOut:], &t.trOut)
	}
}

// sampleIssue samples the issue stage into t.issueObs; it is dumped once
// the cycle's instructions have executed (their guard masks come from
// OnIssue). A port that issues nothing drops issue_valid_o and shows
// issue_op_o idle; its other outputs hold (as a pipeline register's data
// would), which keeps the dump small.
func (t *Tracer) sampleIssue(ci *pipeline.CycleInfo, idle bool) {
	for s := range t.issueObs {
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

func (t *Tracer) onIssue(ii *pipeline.IssueInfo) {
	if !t.live || ii.Cycle != t.last || t.closed {
		return
	}
	s := ii.Sched
	if s < len(t.issueObs) {
		t.issueObs[s].Exec = ii.Exec
	}
	if ii.Done > ii.Cycle && s < len(t.s.wb) && t.s.wb[s].any && t.inWindow(ii.Done) {
		t.wbSeq++
		t.wbq.push(ii.Cycle, wbEvent{at: ii.Done, seq: t.wbSeq, sched: s, warp: ii.Warp, pc: ii.PC})
	}
}

// sampleWriteback sets t.wbObs to cycle c's writebacks.
func (t *Tracer) sampleWriteback(c uint64) {
	for s := range t.wbObs {
		o := &t.wbObs[s]
		o.Valid, o.Count = false, 0 // wb_warp_o and wb_pc_o hold
	}
	if len(t.wbLast) != len(t.wbObs) {
		t.wbLast = make([]uint64, len(t.wbObs))
	}
	// Of several writebacks in one cycle, the one issued last shows its
	// warp and PC; events due before c (cycles not sampled) are dropped.
	take := func(e *wbEvent) {
		if e.at != c || e.sched >= len(t.wbObs) {
			return
		}
		o := &t.wbObs[e.sched]
		if !o.Valid || e.seq > t.wbLast[e.sched] {
			o.Warp, o.PC, t.wbLast[e.sched] = uint16(e.warp), e.pc, e.seq
		}
		o.Valid = true
		if o.Count < 15 {
			o.Count++
		}
	}
	b := &t.wbq.ring[c%wbRing]
	for i := range *b {
		take(&(*b)[i])
	}
	*b = (*b)[:0]
	for len(t.wbq.far) > 0 && t.wbq.far[0].at <= c {
		e := t.wbq.far.pop()
		take(&e)
	}
}

// captureCTAs assigns the resident CTAs to CTA slots (a CTA keeps its
// slot while resident; a new one takes the lowest free slot, in launch
// order) and copies their barriers into f.
func (t *Tracer) captureCTAs(ci *pipeline.CycleInfo, f *frame) {
	if len(t.s.ctas) == 0 {
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
		if !t.ctaMark[k] {
			t.ctaOf[k] = -1
		}
	}
	f.ctaOrder = f.ctaOrder[:0]
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
		}
		f.ctaOrder = append(f.ctaOrder, slot)
		f.ctaInfo[slot] = *c
	}
	copy(f.ctaLin, t.ctaOf)
}

// Close completes the dump: the falling clock edge of the last cycle and,
// when the run has ended inside the window, one more step at the cycle it
// ended with the final state (done_o and status_o set, nothing issued).
// It stops the goroutines formatting the dump, flushes the VCD Writer (it
// does not close the io.Writer given to Attach) and returns its first
// error. Later cycles are not traced.
func (t *Tracer) Close() error {
	if t.closed {
		return t.err
	}
	t.closed, t.live = true, false
	if t.started {
		last, err := t.par.stop()
		if t.err == nil {
			t.err = err
		}
		s := t.s
		s.prime(last)
		// The end of the last cycle captured.
		f := t.par.scratch()
		t.captureEnd(f)
		s.endCycle(f, false)
		s.fallingEdge(t.last)
		if c := t.sm.Cycle(); t.sm.Done() && c > t.last && t.inWindow(c) {
			f.cycle, f.prev = c, t.last
			t.last = c
			s.setTime(c * TicksPerCycle)
			ci := t.sm.Observe()
			t.capture(ci, f, true)
			s.topV = topObs{Clk: true, RstN: true, Done: true, Status: statusCode(t.sm.Status(), t.enums["status"])}
			s.top.sample(s, &s.topV)
			s.warpSlots(f, false)
			s.body(f, false)
			s.ctaSlots(f)
			t.captureEnd(f)
			s.endCycle(f, false)
			// The clock runs on a few cycles after the end, so that the
			// final state shows in a viewer.
			for k := uint64(0); k < TailCycles && t.inWindow(c+k+1); k++ {
				s.fallingEdge(t.last)
				t.last = c + k + 1
				s.setTime(t.last * TicksPerCycle)
				s.topV.Clk = true
				s.top.sample(s, &s.topV)
			}
			s.fallingEdge(t.last)
		}
	}
	if err := t.w.Close(); t.err == nil {
		t.err = err
	}
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

// wbRing is the number of cycles ahead that wbQueue keeps in its ring.
const wbRing = 1024

// wbQueue holds the pending writebacks: those due less than wbRing cycles
// after their issue in a ring of per-cycle buckets (a bucket's events all
// fall due in the cycle that empties it: an event is at most wbRing-1
// cycles ahead and every cycle is sampled), the rest in a heap.
type wbQueue struct {
	ring [wbRing][]wbEvent
	far  wbHeap
}

// push adds e, issued in cycle now.
func (q *wbQueue) push(now uint64, e wbEvent) {
	if e.at-now < wbRing {
		b := &q.ring[e.at%wbRing]
		*b = append(*b, e)
		return
	}
	q.far.push(e)
}

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
