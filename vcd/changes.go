// The Reader's body: time stamps and value changes.

package vcd

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// Each calls f with every remaining value change, in order, up to the end
// of the input; it returns the first error of the input or of f.
func (r *Reader) Each(f func(Change) error) error {
	for {
		c, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(c); err != nil {
			return err
		}
	}
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
		case 'a', 'b', 'f', 'n', 'r', 't', 'v':
			out = append(out, "\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", e)])
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
