package vcd

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ID identifies a variable declared with Writer.Register. IDs are small
// integers in declaration order; the identifier code written to the file is
// IDCode(int(id)), except that the code "$end" (IDCode(57175409)) is
// skipped, so from that ID on the code is IDCode(int(id)+1).
type ID int

// Writer writes a four-state VCD file (IEEE 1364-2005 §18) with GTKWave's
// string extension.
//
// Use it in three phases:
//
//  1. declarations: Scope, Register, Alias, Upscope (the exported option
//     fields must be set before the first of these calls);
//  2. EndDefinitions (optional: the first value change or SetTime ends the
//     definitions implicitly) — values set now, before the first SetTime,
//     become the initial values written in the $dumpvars section;
//  3. SetTime / Begin with strictly increasing times, each followed by the
//     value changes at that time, and finally Close.
//
// Output is buffered; only changes are written (setting a variable to the
// value it already has writes nothing), and a time stamp is written only
// when something changes at that time (or by Close, for the last one).
//
// Errors are sticky: the first error, whether a misuse (unknown ID,
// decreasing time, over-wide value, ...) or a failed write on the
// underlying io.Writer, is remembered, nothing more is written for the
// failing call or any later value change, and every later call as well as
// Error, Flush and Close returns it. After a misuse, Close still completes
// and flushes the file so that what was written so far is a valid VCD.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	// Timescale is the unit of the time stamps: 1, 10 or 100 followed by
	// s, ms, us, ns, ps or fs, optionally separated by a space. Default
	// "1ns". Anything else makes the first declaration fail with
	// ErrTimescale.
	Timescale string
	// Date, Version and Comment are written in $date, $version and
	// $comment sections when non-empty. They must not contain "$end".
	Date    string
	Version string
	Comment string

	w     io.Writer
	buf   []byte
	err   error
	ioErr bool // err came from w

	state    int
	depth    int
	scope    []string // open scope names
	names    map[string]struct{}
	vars     []wvar
	nextCode int
	time     uint64
	pending  bool // time stamp w.time not yet written
	scratch  []byte
}

const (
	stNew     = iota // nothing written
	stDecl           // preamble written, declaring
	stDefsEnd        // $enddefinitions written; values are initial values
	stTimed          // $dumpvars written; changes are written
	stClosed         // Close called
)

const (
	bufSize = 64 << 10
	flushAt = bufSize - 512
)

const (
	modeBits    = iota // value in wvar.cur (full width, canonical 01xz)
	modeU              // two-state value in wvar.u (width <= 64)
	modeW              // two-state value in wvar.words (width > 64)
	modeUnknown        // not known (a Chunk was written since it was set)
)

type wvar struct {
	code    []byte
	width   int
	class   valueClass
	mode    int
	u       uint64
	cur     []byte   // modeBits value, len == width
	words   []uint64 // modeW value, (width+63)/64 words
	unknown bool     // a real's or string's value is not known (WriteChunk)
	r       float64
	s       string
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, buf: make([]byte, 0, bufSize), names: map[string]struct{}{}}
}

// Error returns the first error that occurred, or nil.
func (w *Writer) Error() error { return w.err }

func (w *Writer) fail(err error) error {
	if w.err == nil {
		w.err = err
	}
	return w.err
}

func (w *Writer) failf(sentinel error, format string, args ...any) error {
	return w.fail(fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...)))
}

// check returns the sticky error, or ErrClosed after Close.
func (w *Writer) check() error {
	if w.err != nil {
		return w.err
	}
	if w.state == stClosed {
		return w.fail(fmt.Errorf("%w: call after Close", ErrClosed))
	}
	return nil
}

func (w *Writer) section(kw, text string) {
	if text == "" {
		return
	}
	w.buf = append(w.buf, kw...)
	w.buf = append(w.buf, "\n\t"...)
	w.buf = append(w.buf, strings.ReplaceAll(strings.TrimSpace(text), "\n", "\n\t")...)
	w.buf = append(w.buf, "\n$end\n"...)
}

// preamble writes $date, $version, $comment and $timescale.
func (w *Writer) preamble() error {
	if err := w.check(); err != nil {
		return err
	}
	if w.state != stNew {
		return nil
	}
	ts := w.Timescale
	if ts == "" {
		ts = "1ns"
	}
	t, err := ParseTimescale(ts)
	if err != nil {
		return w.fail(err)
	}
	for _, f := range []struct{ name, v string }{{"Date", w.Date}, {"Version", w.Version}, {"Comment", w.Comment}} {
		if strings.Contains(f.v, "$end") {
			return w.failf(ErrValue, "%s contains \"$end\"", f.name)
		}
	}
	w.section("$date", w.Date)
	w.section("$version", w.Version)
	w.section("$comment", w.Comment)
	w.buf = append(w.buf, "$timescale "...)
	w.buf = append(w.buf, t.String()...)
	w.buf = append(w.buf, " $end\n"...)
	w.state = stDecl
	return nil
}

func (w *Writer) declaring(what string) error {
	if err := w.preamble(); err != nil {
		return err
	}
	if w.state != stDecl {
		return w.failf(ErrDefinitionsEnded, "%s after the definitions ended", what)
	}
	return nil
}

// Scope opens a scope of the given kind (module, begin, fork, function or
// task) named name. Names must be non-empty printable ASCII without
// whitespace.
func (w *Writer) Scope(kind, name string) error {
	if err := w.declaring("Scope"); err != nil {
		return err
	}
	if !ieeeScope(kind) {
		return w.failf(ErrKind, "scope kind %q (want module, begin, fork, function or task)", kind)
	}
	if !validName(name) {
		return w.failf(ErrName, "scope name %q: must be non-empty printable ASCII without whitespace, not starting with $", name)
	}
	w.scope = append(w.scope, name)
	w.depth++
	w.buf = append(w.buf, "$scope "...)
	w.buf = append(w.buf, kind...)
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, " $end\n"...)
	return nil
}

// Upscope closes the innermost open scope.
func (w *Writer) Upscope() error {
	if err := w.declaring("Upscope"); err != nil {
		return err
	}
	if w.depth == 0 {
		return w.failf(ErrScope, "Upscope without an open Scope")
	}
	w.depth--
	w.scope = w.scope[:w.depth]
	w.buf = append(w.buf, "$upscope $end\n"...)
	return nil
}

// splitRef splits "data[7:0]" or "data [7:0]" into ("data", "[7:0]") and
// "bit [3]" into ("bit", "[3]"); other names are returned whole. It reports
// the width the range implies (0 when there is no range).
func splitRef(name string) (ref, rng string, width int, ok bool) {
	if !strings.HasSuffix(name, "]") {
		return name, "", 0, true
	}
	i := strings.LastIndexByte(name, '[')
	if i < 0 {
		return name, "", 0, true
	}
	inner := name[i+1 : len(name)-1]
	base := name[:i]
	spaced := strings.HasSuffix(base, " ")
	base = strings.TrimRight(base, " ")
	if msb, lsb, found := strings.Cut(inner, ":"); found {
		m, err1 := strconv.Atoi(msb)
		l, err2 := strconv.Atoi(lsb)
		if err1 != nil || err2 != nil {
			return "", "", 0, false
		}
		d := m - l
		if d < 0 {
			d = -d
		}
		return base, "[" + strconv.Itoa(m) + ":" + strconv.Itoa(l) + "]", d + 1, true
	}
	if spaced {
		n, err := strconv.Atoi(inner)
		if err != nil {
			return "", "", 0, false
		}
		return base, "[" + strconv.Itoa(n) + "]", 1, true
	}
	return name, "", 0, true
}

func (w *Writer) fullName(ref, rng string) string {
	var b strings.Builder
	for _, s := range w.scope {
		b.WriteString(s)
		b.WriteByte('.')
	}
	b.WriteString(ref)
	if rng != "" && !strings.Contains(rng, ":") {
		b.WriteString(rng)
	}
	return b.String()
}

// Register declares a variable in the current scope and returns its ID.
//
// kind is any VarKind but Other; Real, Realtime, ShortReal and
// RealParameter variables take SetReal, String variables take SetString,
// all others take the bit setters. width must be 1..MaxWidth. name is the
// reference, optionally followed by a bit range "[msb:lsb]" (with or
// without a space before it) whose size must equal width, or for a 1-bit
// variable by a space and a bit select "[n]"; it is written as
// "name [msb:lsb]". Names must be non-empty printable ASCII without
// whitespace (other than the space before a range) and unique in their
// scope.
func (w *Writer) Register(kind VarKind, width int, name string) (ID, error) {
	if err := w.declaring("Register"); err != nil {
		return -1, err
	}
	if kind >= Other {
		return -1, w.failf(ErrKind, "variable kind %v", kind)
	}
	if width < 1 || width > MaxWidth {
		return -1, w.failf(ErrWidth, "variable %q: width %d (want 1..%d)", name, width, MaxWidth)
	}
	ref, rng, rw, ok := splitRef(name)
	if !ok || !validName(ref) {
		return -1, w.failf(ErrName, "variable name %q: must be non-empty printable ASCII without whitespace, not starting with $, optionally followed by [msb:lsb]", name)
	}
	if rw != 0 && rw != width && kind.class() == classBits {
		return -1, w.failf(ErrWidth, "variable %q: range %s has %d bits but width is %d", name, rng, rw, width)
	}
	full := w.fullName(ref, rng)
	if _, dup := w.names[full]; dup {
		return -1, w.failf(ErrDuplicate, "variable %q declared twice", full)
	}
	w.names[full] = struct{}{}
	id := ID(len(w.vars))
	code := appendIDCode(nil, w.nextCode)
	w.nextCode++
	if string(code) == "$end" {
		code = appendIDCode(code[:0], w.nextCode)
		w.nextCode++
	}
	v := wvar{code: code, width: width, class: kind.class(), mode: modeBits}
	if v.class == classBits {
		v.cur = make([]byte, width)
		for i := range v.cur {
			v.cur[i] = 'x'
		}
	}
	w.vars = append(w.vars, v)
	w.appendVar(kind, width, v.code, ref, rng)
	return id, nil
}

func (w *Writer) appendVar(kind VarKind, width int, code []byte, ref, rng string) {
	w.buf = append(w.buf, "$var "...)
	w.buf = append(w.buf, kind.String()...)
	w.buf = append(w.buf, ' ')
	w.buf = strconv.AppendInt(w.buf, int64(width), 10)
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, code...)
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, ref...)
	if rng != "" {
		w.buf = append(w.buf, ' ')
		w.buf = append(w.buf, rng...)
	}
	w.buf = append(w.buf, " $end\n"...)
}

// Alias declares name in the current scope as another name for the
// variable id: it gets the same identifier code, kind and width, so it
// always shows the same value (a legal VCD alias).
func (w *Writer) Alias(id ID, kind VarKind, name string) error {
	if err := w.declaring("Alias"); err != nil {
		return err
	}
	if id < 0 || int(id) >= len(w.vars) {
		return w.failf(ErrUnknownID, "Alias of ID %d (%d variables declared)", id, len(w.vars))
	}
	v := &w.vars[id]
	if kind >= Other || kind.class() != v.class {
		return w.failf(ErrKind, "alias %q: kind %v does not match the aliased variable", name, kind)
	}
	ref, rng, rw, ok := splitRef(name)
	if !ok || !validName(ref) {
		return w.failf(ErrName, "variable name %q: must be non-empty printable ASCII without whitespace, not starting with $, optionally followed by [msb:lsb]", name)
	}
	if rw != 0 && rw != v.width && v.class == classBits {
		return w.failf(ErrWidth, "alias %q: range %s has %d bits but width is %d", name, rng, rw, v.width)
	}
	full := w.fullName(ref, rng)
	if _, dup := w.names[full]; dup {
		return w.failf(ErrDuplicate, "variable %q declared twice", full)
	}
	w.names[full] = struct{}{}
	w.appendVar(kind, v.width, v.code, ref, rng)
	return nil
}

// Code returns the identifier code written for id ("" for an unknown ID).
func (w *Writer) Code(id ID) string {
	if id < 0 || int(id) >= len(w.vars) {
		return ""
	}
	return string(w.vars[id].code)
}

// EndDefinitions writes "$enddefinitions $end". It is implied by the first
// SetTime or value change. All scopes must have been closed.
func (w *Writer) EndDefinitions() error {
	if err := w.declaring("EndDefinitions"); err != nil {
		return err
	}
	return w.endDefs()
}

func (w *Writer) endDefs() error {
	if w.depth != 0 {
		return w.failf(ErrScope, "definitions ended with %d scope(s) still open (%s)", w.depth, strings.Join(w.scope, "."))
	}
	w.buf = append(w.buf, "$enddefinitions $end\n"...)
	w.state = stDefsEnd
	return w.maybeFlush()
}

// ensureValues moves to the value phase (stDefsEnd or later).
func (w *Writer) ensureValues() error {
	if err := w.check(); err != nil {
		return err
	}
	if w.state >= stDefsEnd {
		return nil
	}
	if err := w.preamble(); err != nil {
		return err
	}
	return w.endDefs()
}

// Begin starts the time step t; it is the same as SetTime.
func (w *Writer) Begin(t uint64) error { return w.SetTime(t) }

// SetTime starts the time step t: the following value changes happen at
// t. Times must strictly increase; an equal or smaller time is an error
// wrapping ErrTimeOrder. The first call writes the $dumpvars section with
// every variable's initial value.
func (w *Writer) SetTime(t uint64) error {
	if w.err != nil {
		return w.err
	}
	if w.state == stTimed {
		if t <= w.time {
			return w.failf(ErrTimeOrder, "SetTime(%d) after time %d", t, w.time)
		}
		w.time = t
		w.pending = true
		return nil
	}
	if err := w.ensureValues(); err != nil {
		return err
	}
	w.dumpvars(t)
	return w.maybeFlush()
}

func (w *Writer) dumpvars(t uint64) {
	w.time = t
	w.buf = append(w.buf, '#')
	w.buf = strconv.AppendUint(w.buf, t, 10)
	w.buf = append(w.buf, "\n$dumpvars\n"...)
	w.state = stTimed
	for i := range w.vars {
		v := &w.vars[i]
		switch {
		case v.class == classReal:
			w.appendReal(v)
		case v.class == classString:
			w.appendString(v)
		case v.mode == modeU:
			w.appendU(v, v.u)
		case v.mode == modeW:
			w.appendW(v)
		default:
			w.appendCur(v, v.cur)
		}
		if len(w.buf) >= flushAt {
			w.flushBuf()
		}
	}
	w.buf = append(w.buf, "$end\n"...)
}

func (w *Writer) maybeFlush() error {
	if len(w.buf) >= flushAt {
		w.flushBuf()
	}
	return w.err
}

func (w *Writer) flushBuf() {
	if w.ioErr || len(w.buf) == 0 {
		return
	}
	_, err := w.w.Write(w.buf)
	w.buf = w.buf[:0]
	if err != nil {
		// A misuse error, if any, stays the first error; either way
		// nothing more is written.
		w.ioErr = true
		w.fail(err)
	}
}

// Flush writes any buffered data to the underlying io.Writer and returns
// the sticky error, if any.
func (w *Writer) Flush() error {
	w.flushBuf()
	return w.err
}

// Close completes the file and flushes it. It ends the definitions if
// needed, writes the $dumpvars section if no time was ever set (at time
// 0), and writes the last time stamp if it has no changes yet, so that
// viewers show the last step. It does not close the underlying io.Writer.
// Close returns the sticky error, if any; after a misuse it still leaves a
// valid file holding everything written before the misuse.
func (w *Writer) Close() error {
	if w.state == stClosed {
		return w.err
	}
	if !w.ioErr && w.state != stNew {
		if w.state == stDecl {
			for w.depth > 0 {
				w.depth--
				w.buf = append(w.buf, "$upscope $end\n"...)
			}
			w.scope = w.scope[:0]
			w.buf = append(w.buf, "$enddefinitions $end\n"...)
			w.state = stDefsEnd
		}
		if w.state == stDefsEnd {
			w.dumpvars(0)
		}
		if w.pending {
			w.writeTime()
		}
	} else if w.state == stNew && w.err == nil {
		if err := w.ensureValues(); err == nil {
			w.dumpvars(0)
		}
	}
	w.flushBuf()
	w.state = stClosed
	return w.err
}

func (w *Writer) writeTime() {
	w.pending = false
	w.buf = append(w.buf, '#')
	w.buf = strconv.AppendUint(w.buf, w.time, 10)
	w.buf = append(w.buf, '\n')
}
