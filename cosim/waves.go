package cosim

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/vcd"
)

// Waveform time layout, shared with the harness (docs/cosim-protocol.md):
// cycle c (counted from the reset) is dumped at time 10*c, right after
// its rising clock edge and with its inputs applied, and the falling edge
// at 10*c+5. The time unit is 1 ns.
const (
	cyclePeriod = 10
	timescale   = "1ns"
)

// Waves are the waveform files of a run.
type Waves struct {
	Dir     string
	GoVCD   string // the Go model: inputs, outputs, registers
	RTLVCD  string // Verilator's --trace: every signal of the RTL
	Compare string // both, side by side: scopes go and rtl
	GTKW    string // GTKWave save file showing Compare, each Go signal above its RTL twin
}

func newWaves(dir, module string) *Waves {
	return &Waves{
		Dir:     dir,
		GoVCD:   filepath.Join(dir, module+".go.vcd"),
		RTLVCD:  filepath.Join(dir, module+".rtl.vcd"),
		Compare: filepath.Join(dir, module+".compare.vcd"),
		GTKW:    filepath.Join(dir, module+".gtkw"),
	}
}

// goWave writes the Go side of a lockstep run as a VCD laid out like
// Verilator's: scope TOP.<module>, the clock and reset, every signal of
// the table under its Verilog name.
type goWave struct {
	f      *os.File
	bw     *bufio.Writer
	w      *vcd.Writer
	layout *Layout
	clk    vcd.ID
	rst    vcd.ID
	in     []vcd.ID
	out    []vcd.ID
	bits   []byte
}

func newGoWave(path string, l *Layout) (*goWave, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	g := &goWave{f: f, bw: bufio.NewWriterSize(f, 1<<16), layout: l}
	g.w = vcd.NewWriter(g.bw)
	g.w.Timescale = timescale
	g.w.Version = "smsim cosim (Go model)"
	g.w.Scope("module", "TOP")
	g.w.Scope("module", l.Module)
	g.clk, _ = g.w.Register(vcd.Wire, 1, "clk_i")
	g.rst, _ = g.w.Register(vcd.Wire, 1, "rst_ni")
	reg := func(f Field) vcd.ID {
		name := f.Name
		if f.Width > 1 {
			name = fmt.Sprintf("%s[%d:0]", f.Name, f.Width-1)
		}
		id, _ := g.w.Register(vcd.Wire, f.Width, name)
		return id
	}
	for _, f := range l.In {
		g.in = append(g.in, reg(f))
	}
	for _, f := range l.Out {
		g.out = append(g.out, reg(f))
	}
	g.w.Upscope()
	g.w.Upscope()
	if err := g.w.Error(); err != nil {
		f.Close()
		return nil, err
	}
	return g, nil
}

func (g *goWave) set(id vcd.ID, f Field, b []byte) {
	b = b[f.Offset : f.Offset+f.Size]
	if f.Width <= 64 {
		g.w.SetUint(id, wordAt(b, 0)&mask(f.Width))
		return
	}
	g.bits = bitString(g.bits[:0], b, f.Width)
	g.w.SetBitsBytes(id, g.bits)
}

// cycle records cycle c: its input record and the Go output record.
func (g *goWave) cycle(c uint64, in, out []byte) {
	g.w.SetTime(cyclePeriod * c)
	g.w.SetUint(g.clk, 1)
	g.w.SetUint(g.rst, 1)
	for i, f := range g.layout.In {
		g.set(g.in[i], f, in)
	}
	for i, f := range g.layout.Out {
		g.set(g.out[i], f, out)
	}
	g.w.SetTime(cyclePeriod*c + cyclePeriod/2)
	g.w.SetUint(g.clk, 0)
}

func (g *goWave) Close() error {
	err := g.w.Close()
	if e := g.bw.Flush(); err == nil {
		err = e
	}
	if e := g.f.Close(); err == nil {
		err = e
	}
	return err
}

// mergeVCDs writes dst holding a and b side by side: a's scopes under
// the top scope "go", b's under "rtl". Both must use the same timescale.
func mergeVCDs(dst, a, b string) error {
	fa, err := os.Open(a)
	if err != nil {
		return err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return err
	}
	defer fb.Close()
	ra, rb := vcd.NewReader(bufio.NewReader(fa)), vcd.NewReader(bufio.NewReader(fb))
	ha, err := ra.Header()
	if err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	hb, err := rb.Header()
	if err != nil {
		return fmt.Errorf("%s: %w", b, err)
	}
	if ha.Timescale != hb.Timescale {
		return fmt.Errorf("timescales differ: %s %v, %s %v", a, ha.Timescale, b, hb.Timescale)
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	w := vcd.NewWriter(bw)
	w.Timescale = ha.Timescale.String()
	w.Comment = "Go model (scope go) and RTL (scope rtl) side by side: smsim cosim"
	ida := declareUnder(w, "go", ha)
	idb := declareUnder(w, "rtl", hb)
	first := true
	var cur uint64
	apply := func(c vcd.Change, ids map[string]vcd.ID) {
		if first || c.Time > cur {
			w.SetTime(c.Time)
			cur, first = c.Time, false
		}
		id, ok := ids[c.ID]
		if !ok {
			return
		}
		switch c.Kind {
		case vcd.RealValue:
			w.SetReal(id, c.Real)
		case vcd.StringValue:
			w.SetString(id, c.Str)
		default:
			w.SetBits(id, c.Bits)
		}
	}
	ca, ea := ra.Next()
	cb, eb := rb.Next()
	for ea == nil || eb == nil {
		if ea == nil && (eb != nil || ca.Time <= cb.Time) {
			apply(ca, ida)
			ca, ea = ra.Next()
		} else {
			apply(cb, idb)
			cb, eb = rb.Next()
		}
	}
	err = w.Close()
	if e := bw.Flush(); err == nil {
		err = e
	}
	if e := out.Close(); err == nil {
		err = e
	}
	for _, e := range []error{ea, eb} {
		if e != io.EOF && err == nil {
			err = e
		}
	}
	return err
}

// declareUnder declares h's variables under the scope top, keeping their
// scope paths, and maps h's identifier codes to the new IDs.
func declareUnder(w *vcd.Writer, top string, h *vcd.Header) map[string]vcd.ID {
	ids := map[string]vcd.ID{}
	byScope := map[string][]vcd.Var{}
	var scopes []string
	for _, v := range h.Vars {
		if _, ok := byScope[v.Scope]; !ok {
			scopes = append(scopes, v.Scope)
		}
		byScope[v.Scope] = append(byScope[v.Scope], v)
	}
	sort.Strings(scopes)
	w.Scope("module", top)
	var open []string
	for _, sc := range scopes {
		parts := splitScope(sc)
		k := 0
		for k < len(open) && k < len(parts) && open[k] == parts[k] {
			k++
		}
		for len(open) > k {
			w.Upscope()
			open = open[:len(open)-1]
		}
		for _, p := range parts[k:] {
			w.Scope("module", p)
			open = append(open, p)
		}
		for _, v := range byScope[sc] {
			name := v.Ref + v.Range
			if id, dup := ids[v.ID]; dup {
				w.Alias(id, v.Kind, name)
				continue
			}
			kind := v.Kind
			if kind == vcd.Other {
				kind = vcd.Wire
			}
			id, err := w.Register(kind, v.Width, name)
			if err == nil {
				ids[v.ID] = id
			}
		}
	}
	for range open {
		w.Upscope()
	}
	w.Upscope()
	return ids
}

// splitScope splits a dotted scope path, keeping dots inside brackets
// (none are expected, but generate indices such as g_warp[3] stay whole).
func splitScope(s string) []string {
	if s == "" {
		return nil
	}
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '.':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// writeGTKW writes a GTKWave save file for the compare VCD (with
// vcd.SaveWriter): the marker at the first mismatch, the mismatching
// signal first and highlighted, then every signal of the table, each Go
// trace above its RTL twin.
func writeGTKW(path string, wv *Waves, l *Layout, m *Mismatch, start uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	s := vcd.NewSaveWriter(f)
	s.Comment("smsim cosim: " + l.Module + ", the Go model (go.*) above the RTL (rtl.*)")
	s.DumpFile(wv.Compare)
	s.SaveFile(path)
	s.TimeStart(cyclePeriod * start)
	s.Size(1600, 900)
	s.Pos(-1, -1)
	marker := int64(-1)
	if m != nil {
		marker = int64(cyclePeriod * m.Cycle)
	}
	s.Zoom(-4, marker)
	for _, sc := range []string{"go", "go.TOP", "rtl", "rtl.TOP"} {
		s.TreeOpen(sc)
	}
	s.SignalsWidth(320)
	s.SSTExpanded(true)
	name := func(side string, f Field) string {
		n := side + ".TOP." + l.Module + "." + f.Name
		if f.Width > 1 {
			n += fmt.Sprintf("[%d:0]", f.Width-1)
		}
		return n
	}
	pair := func(f Field, hl bool) {
		flags := vcd.FormatHex
		if f.Width == 1 {
			flags = vcd.FormatBin
		}
		if hl {
			flags |= vcd.FlagHighlight
		}
		s.Trace(name("go", f), flags)
		s.Trace(name("rtl", f), flags)
	}
	s.Trace("go.TOP."+l.Module+".clk_i", vcd.FormatBin)
	all := append(append([]Field(nil), l.In...), l.Out...)
	if m != nil {
		if f, _, ok := l.Find(m.Signal); ok {
			s.BeginGroup(fmt.Sprintf("first mismatch: %s at cycle %d", m.Signal, m.Cycle), false)
			pair(f, true)
			s.EndGroup()
		}
	}
	for _, grp := range []struct {
		title string
		dir   rtl.Dir
	}{{"inputs", rtl.DirIn}, {"outputs", rtl.DirOut}, {"registers", rtl.DirReg}} {
		s.BeginGroup(grp.title, false)
		for _, f := range all {
			if f.Dir == grp.dir {
				pair(f, false)
			}
		}
		s.EndGroup()
	}
	err = s.Flush()
	if e := f.Close(); err == nil {
		err = e
	}
	return err
}

// finishWaves writes the compare VCD and the save file once both VCDs
// are closed. It also cross-checks the two VCDs with vcd.Diff and
// returns the first difference it finds (nil when they agree).
func finishWaves(wv *Waves, l *Layout, m *Mismatch, start uint64) (*vcd.Difference, error) {
	var errs []error
	if err := mergeVCDs(wv.Compare, wv.GoVCD, wv.RTLVCD); err != nil {
		errs = append(errs, fmt.Errorf("compare VCD: %w", err))
	}
	if err := writeGTKW(wv.GTKW, wv, l, m, start); err != nil {
		errs = append(errs, err)
	}
	d, err := diffVCDs(wv.GoVCD, wv.RTLVCD, l.Module)
	if err != nil {
		errs = append(errs, fmt.Errorf("vcd diff: %w", err))
	}
	return d, errors.Join(errs...)
}

func diffVCDs(a, b, module string) (*vcd.Difference, error) {
	fa, err := os.Open(a)
	if err != nil {
		return nil, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return nil, err
	}
	defer fb.Close()
	res, err := vcd.Diff(bufio.NewReader(fa), bufio.NewReader(fb), vcd.DiffOptions{Prefix: "TOP." + module, MaxDiffs: 1})
	if err != nil {
		return nil, err
	}
	return res.First, nil
}
