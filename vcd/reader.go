package vcd

import (
	"fmt"
	"io"
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
		if parse := headerSections[kw]; parse != nil {
			if err := parse(r, kw); err != nil {
				return err
			}
			continue
		}
		switch kw {
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

// headerSections parse the header's declarations, each after its
// keyword, up to its $end.
var headerSections = map[string]func(r *Reader, kw string) error{
	"$date": (*Reader).parseInfo, "$version": (*Reader).parseInfo, "$comment": (*Reader).parseInfo,
	"$timescale": (*Reader).parseTimescaleDecl,
	"$scope":     (*Reader).parseScope,
	"$upscope":   (*Reader).parseUpscope,
	"$var":       (*Reader).parseVar,
}

// parseInfo reads $date, $version or $comment (comments accumulate, one
// per line).
func (r *Reader) parseInfo(kw string) error {
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
	return nil
}

func (r *Reader) parseTimescaleDecl(kw string) error {
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
	return nil
}

func (r *Reader) parseUpscope(kw string) error {
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
	return nil
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

// sectionFields is sectionText and its words.
func (r *Reader) sectionFields(kw string) (string, []string, error) {
	text, err := r.sectionText(kw)
	return text, strings.Fields(text), err
}

func (r *Reader) parseScope(kw string) error {
	text, f, err := r.sectionFields(kw)
	if err != nil {
		return err
	}
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

func (r *Reader) parseVar(kw string) error {
	text, f, err := r.sectionFields(kw)
	if err != nil {
		return err
	}
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
