package vcd

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ParseError is the error the Reader returns for malformed input. It
// wraps one of the package's sentinel errors (ErrSyntax, ErrUnknownID,
// ErrTimeOrder, ...).
type ParseError struct {
	Line int    // 1-based line of the offending token
	Msg  string // what is wrong
	Err  error  // sentinel
}

func (e *ParseError) Error() string { return "vcd: line " + strconv.Itoa(e.Line) + ": " + e.Msg }

// Unwrap returns the sentinel error.
func (e *ParseError) Unwrap() error { return e.Err }

// Var is one $var declaration.
type Var struct {
	Kind     VarKind
	KindName string // the type as written ("wire", "logic", ...)
	Width    int
	ID       string // identifier code
	Ref      string // reference as written, without the bit range
	Range    string // "[msb:lsb]", "[n]" or ""
	Scope    string // dotted path of the enclosing scopes, e.g. "sm_top.u_warp_sched.g_warp[3]"
	// Name is the full hierarchical name: Scope + "." + Ref, plus Range
	// when Range is a single bit select "[n]" (so the bits of a
	// bit-blasted vector get distinct names). A range "[msb:lsb]" is not
	// part of the name.
	Name string
}

// ScopeDecl is one $scope declaration.
type ScopeDecl struct {
	Kind string // "module", "begin", ...
	Name string // full dotted name
}

// Header is everything before $enddefinitions.
type Header struct {
	Date, Version string
	Comment       string // the header's $comment texts, joined by newlines
	// Timescale is the time unit; Magnitude is 0 if the file has none.
	Timescale Timescale
	Scopes    []ScopeDecl
	Vars      []Var // in declaration order; aliases appear once per name
}

// ValueKind says which field of a Value is meaningful.
type ValueKind uint8

// Value kinds.
const (
	BitsValue ValueKind = iota
	RealValue
	StringValue
)

// Value is the value of a variable.
type Value struct {
	Kind ValueKind
	// Bits is the value of a bit variable, most significant bit first, in
	// lower case, left-extended to the declared width (for a known
	// variable). It holds only 0, 1, x and z in strict mode; non-strict
	// mode also passes GTKWave's u, w, l, h and -.
	Bits string
	Real float64 // RealValue
	Str  string  // StringValue, with escapes decoded
}

// String formats the value: the bits, the real in strconv 'g' format, or
// the string quoted with strconv.Quote.
func (v Value) String() string {
	switch v.Kind {
	case RealValue:
		return strconv.FormatFloat(v.Real, 'g', -1, 64)
	case StringValue:
		return strconv.Quote(v.Str)
	}
	return v.Bits
}

// Change is one value change.
type Change struct {
	Time uint64
	ID   string // identifier code
	Value
}

type rvar struct {
	width int
	class valueClass
	vars  []int // indexes in Header.Vars
}

// Reader parses a VCD file as a stream.
//
// In strict mode (Strict set before the first call) the Reader rejects,
// with a *ParseError: a missing $enddefinitions; identifier codes used but
// never declared; time stamps that do not strictly increase; values wider
// than their variable; values of the wrong kind (a real for a bit
// variable, ...) or with characters other than 0, 1, x, z; a bad or
// missing-number $timescale; $upscope without $scope and scopes left open;
// a name declared twice in one scope with different identifier codes
// (aliases — the same code declared under several names — are legal); an
// identifier code declared twice with different widths; bit ranges that
// disagree with the width; unknown keywords, unknown $var or $scope types,
// a missing $end; and any other token that is not a VCD token.
//
// In non-strict mode it tolerates what GTKWave tolerates: such defects are
// skipped (unknown tokens, sections and codes are ignored; a missing
// $enddefinitions is implied by the first time stamp or value; a value
// wider than its variable keeps its low bits; a time stamp not greater
// than the current time is ignored, so its changes belong to the current
// time; a $var with a bad width is skipped). Only a token longer than
// 4 MiB and errors of the underlying io.Reader are reported in both modes.
//
// The Reader never panics, whatever its input.
type Reader struct {
	// Strict enables the strict checks listed above.
	Strict bool

	src    io.Reader
	buf    []byte
	pos    int
	end    int
	srcErr error
	line   int
	tok    []byte
	tokLn  int
	unread bool

	hdr      Header
	hdrDone  bool
	byID     map[string]*rvar
	names    map[string]string // full name -> id code
	scopes   []string
	err      error
	time     uint64
	timeSeen bool
	inDump   bool
	vbuf     []byte // the value token of the current change
	ext      []byte // scratch for extension
}

const maxToken = 4 << 20

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: r, buf: make([]byte, 64<<10), line: 1, byID: map[string]*rvar{}, names: map[string]string{}}
}

func (r *Reader) fail(sentinel error, format string, args ...any) error {
	if r.err == nil {
		r.err = &ParseError{Line: r.tokLn, Msg: fmt.Sprintf(format, args...), Err: sentinel}
	}
	return r.err
}

// next returns the next whitespace-delimited token, or io.EOF. The slice
// is valid until the following call.
func (r *Reader) next() ([]byte, error) {
	if r.unread {
		r.unread = false
		return r.tok, nil
	}
	// Skip whitespace.
	for {
		if r.pos == r.end {
			if !r.fill() {
				return nil, r.eof()
			}
		}
		c := r.buf[r.pos]
		if c > ' ' {
			break
		}
		if c == '\n' {
			r.line++
		}
		r.pos++
	}
	r.tokLn = r.line
	r.tok = r.tok[:0]
	for {
		start := r.pos
		for r.pos < r.end && r.buf[r.pos] > ' ' {
			r.pos++
		}
		r.tok = append(r.tok, r.buf[start:r.pos]...)
		if len(r.tok) > maxToken {
			return nil, r.fail(ErrSyntax, "token longer than %d bytes", maxToken)
		}
		if r.pos < r.end || !r.fill() {
			return r.tok, nil
		}
	}
}

func (r *Reader) back() { r.unread = true }

func (r *Reader) eof() error {
	if r.srcErr != nil && r.srcErr != io.EOF {
		if r.err == nil {
			r.err = r.srcErr
		}
		return r.err
	}
	return io.EOF
}

// fill reads more input; it reports false at end of input or error.
func (r *Reader) fill() bool {
	if r.srcErr != nil {
		return false
	}
	r.pos, r.end = 0, 0
	for tries := 0; tries < 100; tries++ {
		n, err := r.src.Read(r.buf)
		if n < 0 || n > len(r.buf) {
			n = 0
			err = io.ErrNoProgress
		}
		r.end = n
		if err != nil {
			r.srcErr = err
		}
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
	r.srcErr = io.ErrNoProgress
	return false
}

// sectionText collects the tokens up to $end, joined by single spaces.
// If input ends first, that is an error in strict mode; non-strict mode
// returns what was collected.
func (r *Reader) sectionText(kw string) (string, error) {
	var parts []string
	for {
		t, err := r.next()
		if err != nil {
			if err == io.EOF {
				if r.Strict {
					return "", r.fail(ErrSyntax, "%s without $end", kw)
				}
				return strings.Join(parts, " "), nil
			}
			return "", err
		}
		if string(t) == "$end" {
			return strings.Join(parts, " "), nil
		}
		if len(parts) < 1<<16 {
			parts = append(parts, string(t))
		}
	}
}

// Header parses the header (if not done yet) and returns it.
func (r *Reader) Header() (*Header, error) {
	if r.hdrDone {
		return &r.hdr, nil
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := r.parseHeader(); err != nil {
		return nil, err
	}
	return &r.hdr, nil
}

func (r *Reader) parseHeader() error {
	for {
		t, err := r.next()
		if err == io.EOF {
			if r.Strict {
				return r.fail(ErrSyntax, "missing $enddefinitions")
			}
			return r.endHeader()
		}
		if err != nil {
			return err
		}
		if t[0] != '$' {
			if r.Strict {
				if t[0] == '#' || isValueStart(t[0]) {
					return r.fail(ErrSyntax, "missing $enddefinitions before %q", clip(t))
				}
				return r.fail(ErrSyntax, "unexpected token %q in header", clip(t))
			}
			if t[0] == '#' || isValueStart(t[0]) {
				r.back()
				return r.endHeader()
			}
			continue
		}
		kw := string(t)
		switch kw {
		case "$date", "$version", "$comment":
			text, err := r.sectionText(kw)
			if err != nil {
				return err
			}
			switch kw {
			case "$date":
				r.hdr.Date = text
			case "$version":
				r.hdr.Version = text
			default:
				if r.hdr.Comment != "" {
					r.hdr.Comment += "\n"
				}
				r.hdr.Comment += text
			}
		case "$timescale":
			text, err := r.sectionText(kw)
			if err != nil {
				return err
			}
			ts, err := parseTimescale(text, r.Strict)
			if err != nil {
				if r.Strict {
					return r.fail(ErrTimescale, "%v", err)
				}
			} else {
				r.hdr.Timescale = ts
			}
		case "$scope":
			if err := r.parseScope(); err != nil {
				return err
			}
		case "$upscope":
			if err := r.expectEnd(kw); err != nil {
				return err
			}
			if len(r.scopes) == 0 {
				if r.Strict {
					return r.fail(ErrScope, "$upscope without $scope")
				}
			} else {
				r.scopes = r.scopes[:len(r.scopes)-1]
			}
		case "$var":
			if err := r.parseVar(); err != nil {
				return err
			}
		case "$enddefinitions":
			if err := r.expectEnd(kw); err != nil {
				return err
			}
			if len(r.scopes) != 0 && r.Strict {
				return r.fail(ErrScope, "$enddefinitions with %d scope(s) still open (%s)", len(r.scopes), strings.Join(r.scopes, "."))
			}
			return r.endHeader()
		case "$dumpvars", "$dumpall", "$dumpon", "$dumpoff":
			if r.Strict {
				return r.fail(ErrSyntax, "missing $enddefinitions before %s", kw)
			}
			r.back()
			return r.endHeader()
		default:
			if r.Strict && kw != "$attrbegin" && kw != "$attrend" && kw != "$timezero" {
				return r.fail(ErrSyntax, "unknown keyword %q", clip(t))
			}
			if _, err := r.sectionText(kw); err != nil {
				return err
			}
		}
	}
}

func (r *Reader) endHeader() error {
	r.hdrDone = true
	return nil
}

// expectEnd reads the $end closing a keyword that takes no arguments.
func (r *Reader) expectEnd(kw string) error {
	t, err := r.next()
	if err != nil {
		if err == io.EOF {
			if r.Strict {
				return r.fail(ErrSyntax, "%s without $end", kw)
			}
			return nil
		}
		return err
	}
	if string(t) == "$end" {
		return nil
	}
	if r.Strict {
		return r.fail(ErrSyntax, "%s: want $end, got %q", kw, clip(t))
	}
	if t[0] == '$' || t[0] == '#' {
		r.back()
		return nil
	}
	_, err = r.sectionText(kw)
	return err
}

func (r *Reader) parseScope() error {
	text, err := r.sectionText("$scope")
	if err != nil {
		return err
	}
	f := strings.Fields(text)
	if len(f) != 2 {
		if r.Strict || len(f) == 0 {
			if r.Strict {
				return r.fail(ErrSyntax, "$scope: want kind and name, got %q", clipS(text))
			}
			return nil
		}
		if len(f) == 1 {
			f = []string{"module", f[0]}
		}
	}
	if r.Strict && !knownScope(f[0]) {
		return r.fail(ErrSyntax, "$scope: unknown kind %q", clipS(f[0]))
	}
	r.scopes = append(r.scopes, f[1])
	r.hdr.Scopes = append(r.hdr.Scopes, ScopeDecl{Kind: f[0], Name: strings.Join(r.scopes, ".")})
	return nil
}

func (r *Reader) parseVar() error {
	text, err := r.sectionText("$var")
	if err != nil {
		return err
	}
	f := strings.Fields(text)
	if len(f) < 4 || (r.Strict && len(f) > 5) {
		if r.Strict {
			return r.fail(ErrSyntax, "$var: want type, width, identifier code, reference [range], got %q", clipS(text))
		}
		return nil
	}
	kind, ok := ParseVarKind(f[0])
	if !ok {
		if r.Strict {
			return r.fail(ErrSyntax, "$var: unknown type %q", clipS(f[0]))
		}
	}
	width, err := strconv.Atoi(f[1])
	if width == 0 && err == nil && kind == String {
		width = 1 // GTKWave's fst2vcd declares strings with width 0
	}
	if err != nil || width < 1 || width > MaxWidth {
		if r.Strict {
			return r.fail(ErrWidth, "$var %s: bad width %q (want 1..%d)", clipS(f[3]), clipS(f[1]), MaxWidth)
		}
		return nil // skipped: its changes will be ignored
	}
	v := Var{Kind: kind, KindName: f[0], Width: width, ID: f[2], Ref: f[3]}
	if len(f) > 4 {
		v.Range = strings.Join(f[4:], "")
		rw, ok := rangeWidth(v.Range)
		if r.Strict {
			if !ok {
				return r.fail(ErrSyntax, "$var %s: bad range %q", clipS(v.Ref), clipS(v.Range))
			}
			if kind.class() == classBits && rw != width {
				return r.fail(ErrWidth, "$var %s: range %s has %d bits but width is %d", clipS(v.Ref), clipS(v.Range), rw, width)
			}
		}
	}
	v.Scope = strings.Join(r.scopes, ".")
	v.Name = v.Ref
	if v.Range != "" && !strings.Contains(v.Range, ":") {
		v.Name += v.Range
	}
	if v.Scope != "" {
		v.Name = v.Scope + "." + v.Name
	}
	class := kind.class()
	if rv, ok := r.byID[v.ID]; ok {
		if rv.width != width || rv.class != class {
			if r.Strict {
				return r.fail(ErrDuplicate, "identifier code %q declared again for %s with width %d %s (was width %d)", clipS(v.ID), clipS(v.Name), width, f[0], rv.width)
			}
		}
	}
	if old, ok := r.names[v.Name]; ok {
		if old != v.ID && r.Strict {
			return r.fail(ErrDuplicate, "%s declared twice, with identifier codes %q and %q", clipS(v.Name), clipS(old), clipS(v.ID))
		}
		return nil // the same declaration again
	}
	r.names[v.Name] = v.ID
	rv := r.byID[v.ID]
	if rv == nil {
		rv = &rvar{width: width, class: class}
		r.byID[v.ID] = rv
	}
	rv.vars = append(rv.vars, len(r.hdr.Vars))
	r.hdr.Vars = append(r.hdr.Vars, v)
	return nil
}

// rangeWidth parses "[msb:lsb]" or "[n]".
func rangeWidth(s string) (int, bool) {
	if len(s) < 3 || s[0] != '[' || s[len(s)-1] != ']' {
		return 0, false
	}
	inner := s[1 : len(s)-1]
	if a, b, ok := strings.Cut(inner, ":"); ok {
		m, err1 := strconv.Atoi(a)
		l, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || m < -MaxWidth || m > MaxWidth || l < -MaxWidth || l > MaxWidth {
			return 0, false
		}
		if m < l {
			m, l = l, m
		}
		return m - l + 1, true
	}
	if _, err := strconv.Atoi(inner); err != nil {
		return 0, false
	}
	return 1, true
}

func isValueStart(c byte) bool {
	switch c {
	case '0', '1', 'x', 'X', 'z', 'Z', 'b', 'B', 'r', 'R', 's', 'S':
		return true
	}
	return false
}

// clip shortens a token for an error message.
func clip(t []byte) string {
	if len(t) > 40 {
		return string(t[:40]) + "..."
	}
	return string(t)
}

func clipS(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Next returns the next value change, or io.EOF at the end of the input.
// Changes in $dumpvars, $dumpall, $dumpon and $dumpoff sections are
// returned like any other, at the current time (0 before the first time
// stamp). Errors are sticky.
func (r *Reader) Next() (Change, error) {
	if r.err != nil {
		return Change{}, r.err
	}
	if !r.hdrDone {
		if err := r.parseHeader(); err != nil {
			return Change{}, err
		}
	}
	for {
		t, err := r.next()
		if err != nil {
			if err == io.EOF && r.inDump && r.Strict {
				return Change{}, r.fail(ErrSyntax, "$dumpvars section without $end")
			}
			return Change{}, err
		}
		switch c := t[0]; c {
		case '#':
			if err := r.setTime(t); err != nil {
				return Change{}, err
			}
		case '$':
			if err := r.bodyKeyword(t); err != nil {
				return Change{}, err
			}
		case 'b', 'B', 'r', 'R', 's', 'S':
			ch, ok, err := r.vectorChange(t)
			if err != nil {
				return Change{}, err
			}
			if ok {
				return ch, nil
			}
		default:
			ch, ok, err := r.scalarChange(t)
			if err != nil {
				return Change{}, err
			}
			if ok {
				return ch, nil
			}
		}
	}
}

func (r *Reader) setTime(t []byte) error {
	n, err := strconv.ParseUint(string(t[1:]), 10, 64)
	if err != nil {
		if r.Strict {
			return r.fail(ErrSyntax, "bad time stamp %q", clip(t))
		}
		return nil
	}
	if r.inDump && r.Strict {
		return r.fail(ErrSyntax, "time stamp %q inside a $dump section", clip(t))
	}
	if r.timeSeen && n <= r.time {
		if r.Strict {
			return r.fail(ErrTimeOrder, "time %d after time %d", n, r.time)
		}
		return nil
	}
	r.time = n
	r.timeSeen = true
	return nil
}

func (r *Reader) bodyKeyword(t []byte) error {
	kw := string(t)
	switch kw {
	case "$dumpvars", "$dumpall", "$dumpon", "$dumpoff":
		if r.inDump && r.Strict {
			return r.fail(ErrSyntax, "%s inside another $dump section", kw)
		}
		r.inDump = true
		return nil
	case "$end":
		if !r.inDump && r.Strict {
			return r.fail(ErrSyntax, "$end without an open section")
		}
		r.inDump = false
		return nil
	case "$comment":
		_, err := r.sectionText(kw)
		return err
	}
	if r.Strict {
		switch kw {
		case "$var", "$scope", "$upscope", "$enddefinitions", "$timescale", "$date", "$version":
			return r.fail(ErrDefinitionsEnded, "%s after $enddefinitions", kw)
		}
		return r.fail(ErrSyntax, "unknown keyword %q", clip(t))
	}
	// Non-strict: skip the section.
	_, err := r.sectionText(kw)
	return err
}

func (r *Reader) curTime() uint64 { return r.time }

// lookup finds the variable for an identifier code. It returns nil (and
// no error) for an unknown code in non-strict mode.
func (r *Reader) lookup(id []byte) (*rvar, error) {
	rv := r.byID[string(id)]
	if rv == nil && r.Strict {
		return nil, r.fail(ErrUnknownID, "unknown identifier code %q", clip(id))
	}
	return rv, nil
}

// normBits lower-cases a value in place and checks its characters.
func (r *Reader) normBits(v []byte, what []byte) error {
	for i, c := range v {
		n := normBit(c)
		if n == 0 {
			if r.Strict {
				return r.fail(ErrValue, "bad value %q: want only 0, 1, x, z", clip(what))
			}
			switch c {
			case 'u', 'w', 'l', 'h', '-':
				n = c
			case 'U', 'W', 'L', 'H':
				n = c + ('a' - 'A')
			default:
				n = 'x'
			}
		}
		v[i] = n
	}
	return nil
}

// fitBits returns the normalized value v left-extended (or, in
// non-strict mode, truncated) to the variable's width.
func (r *Reader) fitBits(v []byte, rv *rvar, id []byte) (string, error) {
	switch {
	case rv == nil || len(v) == rv.width:
		return string(v), nil
	case len(v) > rv.width:
		if r.Strict {
			return "", r.fail(ErrTooWide, "value of %d bits for %q of width %d", len(v), clip(id), rv.width)
		}
		return string(v[len(v)-rv.width:]), nil
	}
	b := r.ext[:0]
	pad := extChar(string(v[:1]))
	for i := len(v); i < rv.width; i++ {
		b = append(b, pad)
	}
	b = append(b, v...)
	r.ext = b
	return string(b), nil
}

func (r *Reader) idString(rv *rvar, id []byte) string {
	if rv != nil && len(rv.vars) > 0 {
		return r.hdr.Vars[rv.vars[0]].ID
	}
	return string(id)
}

func (r *Reader) scalarChange(t []byte) (Change, bool, error) {
	c := t[0]
	if normBit(c) == 0 {
		nineState := strings.IndexByte("uUwWlLhH-", c) >= 0
		if r.Strict {
			return Change{}, false, r.fail(ErrSyntax, "unexpected token %q", clip(t))
		}
		if !nineState {
			return Change{}, false, nil
		}
	}
	id := t[1:]
	if len(id) == 0 {
		if r.Strict {
			return Change{}, false, r.fail(ErrSyntax, "value %q without identifier code", clip(t))
		}
		return Change{}, false, nil
	}
	rv, err := r.lookup(id)
	if err != nil {
		return Change{}, false, err
	}
	if rv == nil && !r.Strict {
		return Change{}, false, nil
	}
	if rv.class != classBits && r.Strict {
		return Change{}, false, r.fail(ErrKind, "bit value %q for a %s variable", clip(t), classNames[rv.class])
	}
	r.vbuf = append(r.vbuf[:0], c)
	r.normBits(r.vbuf, t)
	bits, _ := r.fitBits(r.vbuf, rv, id)
	return Change{Time: r.curTime(), ID: r.idString(rv, id), Value: Value{Kind: BitsValue, Bits: bits}}, true, nil
}

var classNames = [...]string{classBits: "bit", classReal: "real", classString: "string"}

func (r *Reader) vectorChange(t []byte) (Change, bool, error) {
	kind := t[0] | 0x20 // lower case
	r.vbuf = append(r.vbuf[:0], t...)
	val := r.vbuf
	t = val // r.next overwrites the token buffer
	val = val[1:]
	idTok, err := r.next()
	if err != nil {
		if err == io.EOF && r.Strict {
			return Change{}, false, r.fail(ErrSyntax, "value %q without identifier code", clip(t))
		}
		return Change{}, false, err
	}
	if string(idTok) == "$end" {
		// Only possible in a malformed file: "$end" is never a code.
		if r.Strict {
			return Change{}, false, r.fail(ErrSyntax, "value %q without identifier code", clip(t))
		}
		r.back()
		return Change{}, false, nil
	}
	rv, err := r.lookup(idTok)
	if err != nil {
		return Change{}, false, err
	}
	if rv == nil {
		return Change{}, false, nil
	}
	ch := Change{Time: r.curTime(), ID: r.idString(rv, idTok)}
	switch kind {
	case 'b':
		if rv.class != classBits && r.Strict {
			return Change{}, false, r.fail(ErrKind, "bit value %q for a %s variable", clip(t), classNames[rv.class])
		}
		if len(val) == 0 {
			if r.Strict {
				return Change{}, false, r.fail(ErrValue, "empty value %q", clip(t))
			}
			val = []byte{'x'}
		}
		if err := r.normBits(val, t); err != nil {
			return Change{}, false, err
		}
		bits, err := r.fitBits(val, rv, idTok)
		if err != nil {
			return Change{}, false, err
		}
		ch.Value = Value{Kind: BitsValue, Bits: bits}
	case 'r':
		if rv.class != classReal && r.Strict {
			return Change{}, false, r.fail(ErrKind, "real value %q for a %s variable", clip(t), classNames[rv.class])
		}
		f, err := strconv.ParseFloat(string(val), 64)
		if err != nil {
			if r.Strict && !errors.Is(err, strconv.ErrRange) {
				return Change{}, false, r.fail(ErrValue, "bad real value %q", clip(t))
			}
			if !errors.Is(err, strconv.ErrRange) {
				f = math.NaN()
			}
		}
		ch.Value = Value{Kind: RealValue, Real: f}
	default: // 's'
		if rv.class != classString && r.Strict {
			return Change{}, false, r.fail(ErrKind, "string value %q for a %s variable", clip(t), classNames[rv.class])
		}
		ch.Value = Value{Kind: StringValue, Str: unescape(val)}
	}
	return ch, true, nil
}

// unescape decodes the escapes GTKWave understands in string values:
// \\ \a \b \f \n \r \t \v \' \" \? \xHH and \ooo. Anything else is kept
// literally.
func unescape(v []byte) string {
	if !strings.Contains(string(v), "\\") {
		return string(v)
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 >= len(v) {
			out = append(out, c)
			continue
		}
		i++
		switch e := v[i]; e {
		case 'a':
			out = append(out, '\a')
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'v':
			out = append(out, '\v')
		case '\\', '\'', '"', '?':
			out = append(out, e)
		case 'x', 'X':
			if i+2 < len(v) && hexVal(v[i+1]) >= 0 && hexVal(v[i+2]) >= 0 {
				out = append(out, byte(hexVal(v[i+1])<<4|hexVal(v[i+2])))
				i += 2
			} else {
				out = append(out, '\\', e)
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(v) && j < i+3 && v[j] >= '0' && v[j] <= '7'; j++ {
				n = n*8 + int(v[j]-'0')
			}
			out = append(out, byte(n))
			i = j - 1
		default:
			out = append(out, '\\', e)
		}
	}
	return string(out)
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// Sample is a value at a time.
type Sample struct {
	Time  uint64
	Value Value
}

// Signal is a declared variable with its changes in file order. Aliases
// (names sharing an identifier code) share the same Changes slice.
type Signal struct {
	Var
	Changes []Sample
}

// ValueAt returns the value at time t (the last change at or before t)
// and false if the signal has no change at or before t.
func (s *Signal) ValueAt(t uint64) (Value, bool) {
	lo, hi := 0, len(s.Changes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.Changes[m].Time <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return Value{}, false
	}
	return s.Changes[lo-1].Value, true
}

// Dump is a whole VCD file in memory, as ReadAll returns it.
type Dump struct {
	Header  *Header
	Signals []*Signal // one per Header.Vars entry, in declaration order
	EndTime uint64    // the last time stamp in the file
	byName  map[string]*Signal
}

// Signal returns the signal with the full hierarchical name, or nil.
func (d *Dump) Signal(name string) *Signal { return d.byName[name] }

// ReadAll reads the rest of the input and returns every signal with its
// changes.
func (r *Reader) ReadAll() (*Dump, error) {
	h, err := r.Header()
	if err != nil {
		return nil, err
	}
	lists := map[string][]Sample{}
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		lists[c.ID] = append(lists[c.ID], Sample{Time: c.Time, Value: c.Value})
	}
	d := &Dump{Header: h, EndTime: r.time, byName: make(map[string]*Signal, len(h.Vars))}
	for _, v := range h.Vars {
		s := &Signal{Var: v, Changes: lists[v.ID]}
		d.Signals = append(d.Signals, s)
		if _, ok := d.byName[v.Name]; !ok {
			d.byName[v.Name] = s
		}
	}
	return d, nil
}
