package cosim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/vcd"
)

// Options configure a lockstep run.
type Options struct {
	// Cycles is the number of cycles to compare; 0 runs until the
	// stimulus ends (a random stimulus never does: set Cycles).
	Cycles uint64
	// Batch is the number of cycles per STEP message (default 4096).
	Batch int
	// VCDDir, when set, receives the waveforms of the whole run (Go and
	// Verilator VCDs; on a mismatch also the side-by-side VCD and the
	// GTKWave save file). When empty, a mismatch is replayed with tracing
	// on for the last Window cycles into a fresh temporary directory.
	VCDDir string
	// Window is the number of cycles traced before a mismatch when
	// VCDDir is empty (default 64).
	Window int
	// History is the number of input cycles shown in a mismatch report
	// (default 16).
	History int
	// Harness says how to build and start the harness.
	Harness HarnessOptions
	// Progress, when set, is called after every batch with the cycles
	// compared so far.
	Progress func(cycles uint64)
}

func (o *Options) batch() int {
	if o.Batch > 0 {
		return o.Batch
	}
	return 4096
}

func (o *Options) window() int {
	if o.Window > 0 {
		return o.Window
	}
	return 64
}

func (o *Options) history() int {
	if o.History > 0 {
		return o.History
	}
	return 16
}

// Result is the outcome of a lockstep run.
type Result struct {
	Module  string
	Params  []Param
	Cycles  uint64        // cycles compared and equal
	Elapsed time.Duration // from the start of the harness to the end
	Waves   *Waves        // the waveforms written, if any
}

// Rate is the lockstep speed in cycles per second.
func (r *Result) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Cycles) / r.Elapsed.Seconds()
}

// Value is one signal's value in a report.
type Value struct {
	Name  string
	Width int
	Text  string // FormatValue
}

// InputCycle is one cycle of inputs in a mismatch report.
type InputCycle struct {
	Cycle  uint64
	Values []Value
}

// Mismatch is the first cycle at which the Go model and the RTL disagree.
// It is the error Run returns.
type Mismatch struct {
	Module string
	Params []Param
	Cycle  uint64
	// Signal is the first differing signal in table order (outputs, then
	// registers), by its Verilog name; Go and RTL are its values.
	Signal   string
	Dir      rtl.Dir
	Width    int
	Go, RTL  string
	FirstBit int // the lowest differing bit (useful for wide signals)
	// GoBytes and RTLBytes are the raw wire values.
	GoBytes, RTLBytes []byte
	// Also lists the other signals differing in the same cycle.
	Also []string
	// Inputs are the inputs of the last cycles up to and including Cycle,
	// oldest first.
	Inputs []InputCycle
	// Waves are the waveforms showing the mismatch (nil if they could not
	// be written: WavesErr says why).
	Waves    *Waves
	WavesErr error
	// VCDDiff is the first difference vcd.Diff finds between the Go and
	// the Verilator VCD: an independent check of the report.
	VCDDiff *vcd.Difference
}

func (m *Mismatch) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cosim: %s (%s): mismatch at cycle %d: %s (%s, %d bits): go %s, rtl %s",
		m.Module, ParamString(m.Params), m.Cycle, m.Signal, m.Dir, m.Width, m.Go, m.RTL)
	if m.Width > 64 {
		fmt.Fprintf(&b, " (first differing bit %d)", m.FirstBit)
	}
	if len(m.Also) > 0 {
		fmt.Fprintf(&b, "\n  also differing: %s", strings.Join(m.Also, ", "))
	}
	if len(m.Inputs) > 0 {
		fmt.Fprintf(&b, "\n  inputs of the last %d cycles:", len(m.Inputs))
		for _, c := range m.Inputs {
			fmt.Fprintf(&b, "\n    %8d:", c.Cycle)
			for _, v := range c.Values {
				fmt.Fprintf(&b, " %s=%s", v.Name, shortValue(v))
			}
		}
	}
	if m.Waves != nil {
		fmt.Fprintf(&b, "\n  waveforms: %s (Go), %s (Verilator)\n  side by side: gtkwave %s", m.Waves.GoVCD, m.Waves.RTLVCD, m.Waves.GTKW)
	}
	if m.WavesErr != nil {
		fmt.Fprintf(&b, "\n  waveforms: %v", m.WavesErr)
	}
	if m.VCDDiff != nil {
		fmt.Fprintf(&b, "\n  vcd diff: first difference at time %d (cycle %d): %s", m.VCDDiff.Time, m.VCDDiff.Time/cyclePeriod, m.VCDDiff.Signal)
	}
	return b.String()
}

// shortValue is the hex part of a formatted value.
func shortValue(v Value) string {
	if i := strings.IndexByte(v.Text, ' '); i > 0 {
		return v.Text[:i]
	}
	return v.Text
}

// Run cosimulates u: it starts the harness, runs the Go model and the
// RTL on the same input records from src (a fresh Stimulus each time it
// is called: a mismatch is replayed with tracing on), and compares every
// output and every register every cycle. It returns a *Mismatch at the
// first difference, a *HarnessError when the RTL side fails, or the
// context's error (wrapped) when ctx is canceled, with any VCD being
// written closed and valid.
func Run(ctx context.Context, u Unit, src func() Stimulus, opt Options) (*Result, error) {
	t0 := time.Now()
	sess, err := Start(ctx, u, opt.Harness)
	if err != nil {
		return &Result{Module: u.Module(), Params: u.Params()}, err
	}
	defer sess.Close()
	res, err := RunSession(ctx, sess, src, opt)
	res.Elapsed = time.Since(t0)
	return res, err
}

// RunSession is Run on a harness already started (opt.Harness is not
// used): it resets the unit and runs one lockstep pass. The session can
// serve further passes unless it failed. Result.Elapsed excludes the
// harness's start.
func RunSession(ctx context.Context, sess *Session, src func() Stimulus, opt Options) (*Result, error) {
	u := sess.unit
	l := u.Layout()
	res := &Result{Module: u.Module(), Params: u.Params()}
	t0 := time.Now()
	defer func() { res.Elapsed = time.Since(t0) }()
	if err := sess.Reset(); err != nil {
		return res, err
	}
	r := &runner{u: u, l: l, opt: opt, sess: sess}
	var wv *Waves
	if opt.VCDDir != "" {
		if err := os.MkdirAll(opt.VCDDir, 0o755); err != nil {
			return res, err
		}
		wv = newWaves(opt.VCDDir, u.Module())
		res.Waves = wv
	}
	m, n, err := r.pass(ctx, src(), opt.Cycles, wv, 0, opt.Progress)
	res.Cycles = n
	if err != nil {
		return res, err
	}
	if m == nil {
		if wv != nil {
			// The side-by-side view of a clean run, and a cross-check.
			d, err := finishWaves(wv, l, nil, 0)
			if err == nil && d != nil {
				err = fmt.Errorf("cosim: every cycle matched but the waveforms differ at time %d in %s", d.Time, d.Signal)
			}
			return res, err
		}
		return res, nil
	}
	if wv != nil {
		m.Waves = wv
		m.VCDDiff, m.WavesErr = finishWaves(wv, l, m, 0)
		return res, m
	}
	// Replay with tracing over the last cycles before the mismatch.
	dir, err := os.MkdirTemp("", "smsim-cosim-"+u.Module()+"-")
	if err != nil {
		m.WavesErr = err
		return res, m
	}
	wv = newWaves(dir, u.Module())
	start := uint64(0)
	if w := uint64(opt.window()); m.Cycle > w {
		start = m.Cycle - w
	}
	if err := sess.Reset(); err != nil {
		m.WavesErr = err
		return res, m
	}
	m2, _, err := r.pass(ctx, src(), m.Cycle+1, wv, start, nil)
	switch {
	case err != nil:
		m.WavesErr = err
	case m2 == nil || m2.Cycle != m.Cycle || m2.Signal != m.Signal:
		m.WavesErr = fmt.Errorf("the replay did not reproduce the mismatch (%v): is the stimulus deterministic?", m2)
	default:
		m.Waves = wv
		m.VCDDiff, m.WavesErr = finishWaves(wv, l, m, start)
	}
	res.Waves = m.Waves
	return res, m
}

type runner struct {
	u    Unit
	l    *Layout
	opt  Options
	sess *Session
}

// pass runs one pass from reset (the session must be freshly reset):
// up to limit cycles (0: until the stimulus ends), tracing from cycle
// traceFrom into wv when wv is set. It returns the first mismatch, the
// number of cycles compared equal, and an error if the run could not
// continue.
func (r *runner) pass(ctx context.Context, stim Stimulus, limit uint64, wv *Waves, traceFrom uint64, progress func(uint64)) (mm *Mismatch, done uint64, err error) {
	l := r.l
	model, err := r.u.NewModel()
	if err != nil {
		return nil, 0, err
	}
	model.Reset()
	batch := r.opt.batch()
	in := make([]byte, batch*l.InBytes)
	goOut := make([]byte, batch*l.OutBytes)
	rtlOut := make([]byte, batch*l.OutBytes)
	hist := r.opt.history()
	prev := make([]byte, 0, hist*l.InBytes) // the last inputs of the previous batch
	var gw *goWave
	tracing := false
	defer func() {
		// Close both VCDs, whatever happened: they stay valid files.
		if gw != nil {
			if e := gw.Close(); e != nil && err == nil {
				err = e
			}
		}
		if tracing && !r.sessBroken() {
			if e := r.sess.Trace(""); e != nil && err == nil {
				err = e
			}
		}
	}()
	for limit == 0 || done < limit {
		if e := ctx.Err(); e != nil {
			return nil, done, fmt.Errorf("cosim: %s: stopped after %d cycles: %w", r.u.Module(), done, e)
		}
		n := batch
		if limit > 0 && uint64(n) > limit-done {
			n = int(limit - done)
		}
		if wv != nil && !tracing {
			if done+uint64(n) > traceFrom {
				if done < traceFrom {
					n = int(traceFrom - done) // stop at the start of the trace
				} else {
					if gw, err = newGoWave(wv.GoVCD, l); err != nil {
						return nil, done, err
					}
					if err = r.sess.Trace(wv.RTLVCD); err != nil {
						return nil, done, err
					}
					tracing = true
				}
			}
		}
		k := 0
		for k < n && stim.Next(in[k*l.InBytes:(k+1)*l.InBytes]) {
			k++
		}
		if k == 0 {
			break
		}
		if err := r.sess.SendStep(in[:k*l.InBytes], k); err != nil {
			return nil, done, err
		}
		for i := 0; i < k; i++ {
			model.Cycle(in[i*l.InBytes:(i+1)*l.InBytes], goOut[i*l.OutBytes:(i+1)*l.OutBytes])
		}
		if err := r.sess.RecvStep(rtlOut, k); err != nil {
			return nil, done, err
		}
		g, rt := goOut[:k*l.OutBytes], rtlOut[:k*l.OutBytes]
		last := k
		eq := bytes.Equal(g, rt)
		if !eq {
			for i := 0; i < k; i++ {
				if !bytes.Equal(g[i*l.OutBytes:(i+1)*l.OutBytes], rt[i*l.OutBytes:(i+1)*l.OutBytes]) {
					last = i + 1
					break
				}
			}
		}
		if gw != nil {
			for i := 0; i < last; i++ {
				gw.cycle(done+uint64(i), in[i*l.InBytes:(i+1)*l.InBytes], g[i*l.OutBytes:(i+1)*l.OutBytes])
			}
		}
		if !eq {
			i := last - 1
			return r.mismatch(done+uint64(i), in[:k*l.InBytes], prev, i, g[i*l.OutBytes:(i+1)*l.OutBytes], rt[i*l.OutBytes:(i+1)*l.OutBytes]), done + uint64(i), nil
		}
		// Keep the last inputs for a report at the start of the next batch.
		prev = append(prev, in[max(0, k-hist)*l.InBytes:k*l.InBytes]...)
		if extra := len(prev) - hist*l.InBytes; extra > 0 {
			prev = append(prev[:0], prev[extra:]...)
		}
		done += uint64(k)
		if progress != nil {
			progress(done)
		}
		if k < n {
			break // the stimulus ended
		}
	}
	return nil, done, nil
}

func (r *runner) sessBroken() bool { return r.sess.broken != nil }

// mismatch builds the report of a mismatch at cycle c, record i of the
// batch whose inputs are in (prev holds the inputs before the batch).
func (r *runner) mismatch(c uint64, in, prev []byte, i int, g, rt []byte) *Mismatch {
	l := r.l
	m := &Mismatch{Module: r.u.Module(), Params: r.u.Params(), Cycle: c}
	for _, f := range l.Out {
		gb, rb := g[f.Offset:f.Offset+f.Size], rt[f.Offset:f.Offset+f.Size]
		if bytes.Equal(gb, rb) {
			continue
		}
		if m.Signal == "" {
			m.Signal, m.Dir, m.Width = f.Name, f.Dir, f.Width
			m.Go, m.RTL = FormatValue(gb, f.Width), FormatValue(rb, f.Width)
			m.FirstBit = firstDiffBit(gb, rb)
			m.GoBytes, m.RTLBytes = append([]byte(nil), gb...), append([]byte(nil), rb...)
		} else {
			m.Also = append(m.Also, f.Name)
		}
	}
	// The inputs of cycles c-History+1 .. c.
	hist := r.opt.history()
	recs := append(append([]byte(nil), prev...), in[:(i+1)*l.InBytes]...)
	nrec := len(recs) / l.InBytes
	from := max(0, nrec-hist)
	for k := from; k < nrec; k++ {
		rec := recs[k*l.InBytes : (k+1)*l.InBytes]
		ic := InputCycle{Cycle: c - uint64(nrec-1-k)}
		for _, f := range l.In {
			ic.Values = append(ic.Values, Value{Name: f.Name, Width: f.Width, Text: FormatValue(rec[f.Offset:f.Offset+f.Size], f.Width)})
		}
		m.Inputs = append(m.Inputs, ic)
	}
	return m
}

// IsMismatch reports whether err is (or wraps) a *Mismatch.
func IsMismatch(err error) bool {
	var m *Mismatch
	return errors.As(err, &m)
}
