package trace

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/vcd"
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
	issueV []pipeline.IssueOutputs // the issue stage (outputs hold when idle)
	poolV  regPoolObs
	poolN  int // CTA slots of poolV read
	trOut  trapunit.Outputs
	idleIn pipeline.UnitInputs // the units' inputs where no cycle drove them

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
	fast bool     // pipeline.WarpRegs fields in the order of the w* constants
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

func (a *arena) words(n int) []uint64 { return carve(&a.u, n, 1<<13) }
func (a *arena) bytes(n int) []byte   { return carve(&a.b, n, 1<<15) }

// carve takes the next n elements of *block, starting a new block of at
// least chunk elements when it has fewer left.
func carve[T any](block *[]T, n, chunk int) []T {
	if len(*block) < n {
		*block = make([]T, max(n, chunk))
	}
	w := (*block)[:n:n]
	*block = (*block)[n:]
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
	t.layout()
	t.s.flat()
	t.poolN = min(len(t.poolV.Free), sm.RegPool().Params().NumCTAs, sm.MaxResidentCTAs()+1)
	t.par = newFrames(t, workers)
	sm.OnCycle(t.onCycle)
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

// Field indexes of pipeline.WarpRegs, for the fast path of sampleWarps.
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
		var in *pipeline.UnitInputs
		if u := t.sm.Observe().Units; u != nil && u.Cycle == t.last {
			in = u
		}
		t.captureEnd(f, in)
		s.endCycle(f, false)
		s.fallingEdge(t.last)
		if c := t.sm.Cycle(); t.sm.Done() && c > t.last && t.inWindow(c) {
			f.cycle, f.prev = c, t.last
			t.last = c
			s.setTime(c * TicksPerCycle)
			ci := t.sm.Observe()
			t.capture(ci, f, true)
			s.topV = pipeline.TopPorts{Clk: true, RstN: true, Done: true, Status: pipeline.StatusCode(t.sm.Status())}
			s.top.sample(s, &s.topV)
			s.warpSlots(f, false)
			s.body(f, false)
			s.ctaSlots(f)
			t.captureEnd(f, nil)
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
