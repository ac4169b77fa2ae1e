// The Writer's value changes: scalars, vectors, words, reals and strings.

package vcd

import (
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
)

// lookup validates id and moves to the value phase.
func (w *Writer) lookup(id ID) (*wvar, error) {
	if w.state < stDefsEnd || w.err != nil || w.state == stClosed {
		if err := w.ensureValues(); err != nil {
			return nil, err
		}
	}
	if id < 0 || int(id) >= len(w.vars) {
		return nil, w.failf(ErrUnknownID, "ID %d (%d variables declared)", id, len(w.vars))
	}
	return &w.vars[id], nil
}

// lookupAs is lookup for a setter of variables of class c: a variable of
// another class is an error naming setter.
func (w *Writer) lookupAs(id ID, c valueClass, setter string) (*wvar, error) {
	x, err := w.lookup(id)
	if err != nil {
		return nil, err
	}
	if x.class != c {
		return nil, w.classErr(x, id, setter)
	}
	return x, nil
}

func (w *Writer) classErr(v *wvar, id ID, setter string) error {
	want := map[valueClass]string{classBits: "SetUint, SetBits, SetBig, SetX or SetZ", classReal: "SetReal", classString: "SetString"}[v.class]
	return w.failf(ErrKind, "%s on variable %d (code %s) which takes %s", setter, id, v.code, want)
}

// SetUint sets a bit variable to v. v must fit in the variable's width.
func (w *Writer) SetUint(id ID, v uint64) error {
	// Fast path: established writer, known two-state variable.
	if w.err == nil && w.state == stTimed && uint(id) < uint(len(w.vars)) {
		x := &w.vars[id]
		if x.class == classBits && x.width <= 64 && (x.width == 64 || v>>uint(x.width) == 0) {
			if x.mode == modeU && x.u == v {
				return nil
			}
			x.mode = modeU
			x.u = v
			if w.pending {
				w.writeTime()
			}
			w.appendU(x, v)
			if len(w.buf) >= flushAt {
				w.flushBuf()
			}
			return w.err
		}
	}
	x, err := w.lookupAs(id, classBits, "SetUint")
	if err != nil {
		return err
	}
	if n := bits.Len64(v); n > x.width {
		return w.failf(ErrTooWide, "value %#x (%d bits) for variable %d (code %s) of width %d", v, n, id, x.code, x.width)
	}
	if x.width <= 64 {
		return w.setU(x, v)
	}
	s := w.scratch[:0]
	for i := x.width; i > 64; i-- {
		s = append(s, '0')
	}
	for i := 63; i >= 0; i-- {
		s = append(s, '0'+byte(v>>uint(i)&1))
	}
	w.scratch = s
	return w.setCur(x, s)
}

// timed reports whether a value change is written now (the header is
// done), writing the pending timestamp first.
func (w *Writer) timed() bool {
	if w.state != stTimed {
		return false
	}
	if w.pending {
		w.writeTime()
	}
	return true
}

func (w *Writer) setU(x *wvar, v uint64) error {
	if x.mode == modeU && x.u == v {
		return nil
	}
	x.mode = modeU
	x.u = v
	if !w.timed() {
		return nil
	}
	w.appendU(x, v)
	return w.maybeFlush()
}

// setCur sets a bit variable to the full-width canonical value s (which
// may alias w.scratch).
func (w *Writer) setCur(x *wvar, s []byte) error {
	if x.width <= 64 {
		twoState := true
		var u uint64
		for _, c := range s {
			if c > '1' {
				twoState = false
				break
			}
			u = u<<1 | uint64(c-'0')
		}
		if twoState {
			return w.setU(x, u)
		}
	}
	if x.mode == modeBits && string(x.cur) == string(s) {
		return nil
	}
	x.mode = modeBits
	copy(x.cur, s)
	if !w.timed() {
		return nil
	}
	w.appendCur(x, x.cur)
	return w.maybeFlush()
}

// SetBits sets a bit variable from a string of 0, 1, x and z (upper case
// X and Z accepted), most significant bit first. A string shorter than
// the variable is left-extended per VCD rules (0 and 1 extend with 0, x
// with x, z with z); a longer one is an error wrapping ErrTooWide.
func (w *Writer) SetBits(id ID, bits string) error { return setBits(w, id, bits) }

// SetBitsBytes is SetBits for a byte slice.
func (w *Writer) SetBitsBytes(id ID, bits []byte) error { return setBits(w, id, bits) }

// SetWords sets a bit variable to the two-state value v, least
// significant word first: bit i of the variable is bit i%64 of v[i/64].
// Missing words are zero; a set bit at or above the variable's width is
// an error wrapping ErrTooWide. It is the fast way to write vectors wider
// than 64 bits.
func (w *Writer) SetWords(id ID, v []uint64) error {
	x, err := w.lookupAs(id, classBits, "SetWords")
	if err != nil {
		return err
	}
	nw := (x.width + 63) / 64
	for i := len(v) - 1; i >= 0; i-- {
		if i >= nw && v[i] != 0 || i == nw-1 && x.width%64 != 0 && v[i]>>uint(x.width%64) != 0 {
			return w.failf(ErrTooWide, "SetWords value with bit %d set for variable %d (code %s) of width %d", i*64+bits.Len64(v[i])-1, id, x.code, x.width)
		}
	}
	v = v[:min(len(v), nw)]
	if x.width <= 64 {
		var u uint64
		if len(v) > 0 {
			u = v[0]
		}
		return w.setU(x, u)
	}
	if x.mode == modeW && slices.Equal(x.words[:len(v)], v) && allZero(x.words[len(v):]) {
		return nil
	}
	if x.words == nil {
		x.words = make([]uint64, nw)
	}
	copy(x.words, v)
	clear(x.words[len(v):])
	x.mode = modeW
	if !w.timed() {
		return nil
	}
	w.appendW(x)
	return w.maybeFlush()
}

func allZero(v []uint64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// appendW appends the change line of a modeW value.
func (w *Writer) appendW(x *wvar) { w.buf = appendW(w.buf, x.code, x.words) }

// appendW appends the change line of the two-state value v (least
// significant word first): its bits from the highest set one ("0" for
// zero; VCD left-extends with 0).
func appendW(b, code []byte, v []uint64) []byte {
	top := -1
	for i := len(v) - 1; i >= 0; i-- {
		if v[i] != 0 {
			top = i*64 + 63 - bits.LeadingZeros64(v[i])
			break
		}
	}
	b = append(b, 'b')
	if top < 0 {
		b = append(b, '0')
	}
	i := top
	for ; i >= 0 && i&7 != 7; i-- {
		b = append(b, '0'+byte(v[i>>6]>>uint(i&63)&1))
	}
	for ; i >= 7; i -= 8 {
		lo := i - 7
		b = append(b, bitTab[byte(v[lo>>6]>>uint(lo&63))][:]...)
	}
	b = append(b, ' ')
	b = append(b, code...)
	return append(b, '\n')
}

func setBits[S string | []byte](w *Writer, id ID, b S) error {
	x, err := w.lookupAs(id, classBits, "SetBits")
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return w.failf(ErrValue, "empty bit string for variable %d (code %s)", id, x.code)
	}
	if len(b) > x.width {
		return w.failf(ErrTooWide, "bit string of %d bits for variable %d (code %s) of width %d", len(b), id, x.code, x.width)
	}
	s := w.scratch[:0]
	for i := 0; i < len(b); i++ {
		c := normBit(b[i])
		if c == 0 {
			return w.failf(ErrValue, "bit string %q for variable %d (code %s): want only 0, 1, x, z", string(b), id, x.code)
		}
		if i == 0 {
			pad := byte('0')
			if c == 'x' || c == 'z' {
				pad = c
			}
			for j := len(b); j < x.width; j++ {
				s = append(s, pad)
			}
		}
		s = append(s, c)
	}
	w.scratch = s
	return w.setCur(x, s)
}

// SetBig sets a bit variable to the non-negative integer v, which must fit
// in the variable's width.
func (w *Writer) SetBig(id ID, v *big.Int) error {
	x, err := w.lookupAs(id, classBits, "SetBig")
	if err != nil {
		return err
	}
	if v == nil || v.Sign() < 0 {
		return w.failf(ErrValue, "SetBig of %v for variable %d (code %s): want a non-negative integer", v, id, x.code)
	}
	if n := v.BitLen(); n > x.width {
		return w.failf(ErrTooWide, "value of %d bits for variable %d (code %s) of width %d", n, id, x.code, x.width)
	}
	if x.width <= 64 {
		return w.setU(x, v.Uint64())
	}
	s := w.scratch[:0]
	for i := x.width - 1; i >= 0; i-- {
		s = append(s, '0'+byte(v.Bit(i)))
	}
	w.scratch = s
	return w.setCur(x, s)
}

// SetX sets every bit of a bit variable to x.
func (w *Writer) SetX(id ID) error { return w.setAll(id, 'x', "SetX") }

// SetZ sets every bit of a bit variable to z.
func (w *Writer) SetZ(id ID) error { return w.setAll(id, 'z', "SetZ") }

func (w *Writer) setAll(id ID, c byte, setter string) error {
	x, err := w.lookupAs(id, classBits, setter)
	if err != nil {
		return err
	}
	s := w.scratch[:0]
	for i := 0; i < x.width; i++ {
		s = append(s, c)
	}
	w.scratch = s
	return w.setCur(x, s)
}

// SetReal sets a real variable. Values are written with the shortest
// representation that reads back exactly (strconv 'g', -1); NaN and
// infinities are written as NaN, +Inf and -Inf.
func (w *Writer) SetReal(id ID, f float64) error {
	x, err := w.lookupAs(id, classReal, "SetReal")
	if err != nil {
		return err
	}
	if !x.unknown && math.Float64bits(x.r) == math.Float64bits(f) {
		return nil
	}
	x.r = f
	return w.changed(x, (*Writer).appendReal)
}

// SetString sets a String variable (GTKWave extension, written as
// "s<text> <code>"). Since values are whitespace-delimited, the backslash
// is written as "\\" and every byte outside printable ASCII 0x21–0x7e
// (space, tab, newline, UTF-8 bytes, ...) as "\xHH"; GTKWave and this
// package's Reader decode these escapes, so any string round-trips
// (through GTKWave, only up to the first NUL byte: it keeps C strings).
func (w *Writer) SetString(id ID, s string) error {
	x, err := w.lookupAs(id, classString, "SetString")
	if err != nil {
		return err
	}
	if !x.unknown && x.s == s {
		return nil
	}
	x.s = s
	return w.changed(x, (*Writer).appendString)
}

// changed ends a Set whose new value x holds: x is known from now on, and
// appendLine writes its change line when one is written now (timed).
func (w *Writer) changed(x *wvar, appendLine func(*Writer, *wvar)) error {
	x.unknown = false
	if !w.timed() {
		return nil
	}
	appendLine(w, x)
	return w.maybeFlush()
}

// appendU appends the change line of a two-state value.
func (w *Writer) appendU(x *wvar, v uint64) { w.buf = appendU(w.buf, x.code, x.width, v) }

// appendU appends the change line of a two-state value v of a variable
// of the given width and identifier code.
func appendU(b, code []byte, width int, v uint64) []byte {
	if width == 1 {
		b = append(b, '0'+byte(v&1))
		b = append(b, code...)
		return append(b, '\n')
	}
	n := bits.Len64(v)
	if n == 0 {
		n = 1
	}
	b = slices.Grow(b, n+len(code)+3)
	l := len(b)
	b = b[:l+1+n]
	b[l] = 'b'
	p := b[l+1 : l+1+n]
	i := n - 1
	for ; i >= 7; i -= 8 {
		t := &bitTab[v&0xff]
		copy(p[i-7:i+1], t[:])
		v >>= 8
	}
	for ; i >= 0; i-- {
		p[i] = '0' + byte(v&1)
		v >>= 1
	}
	b = append(b, ' ')
	b = append(b, code...)
	return append(b, '\n')
}

var bitTab = func() (t [256][8]byte) {
	for i := range t {
		for j := 0; j < 8; j++ {
			t[i][j] = '0' + byte(i>>uint(7-j)&1)
		}
	}
	return t
}()

// appendCur appends the change line of a four-state value, dropping
// leading characters that VCD left-extension restores.
func (w *Writer) appendCur(x *wvar, s []byte) {
	if x.width == 1 {
		w.buf = append(w.buf, s[0])
		w.buf = append(w.buf, x.code...)
		w.buf = append(w.buf, '\n')
		return
	}
	w.buf = append(w.buf, 'b')
	w.buf = append(w.buf, compress(s)...)
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, x.code...)
	w.buf = append(w.buf, '\n')
}

// compress returns the shortest suffix of the full-width value s that
// left-extends back to s.
func compress[S string | []byte](s S) S {
	c := s[0]
	if c == '1' {
		return s
	}
	i := 0
	for i+1 < len(s) && s[i+1] == c {
		i++
	}
	if c == '0' && i+1 < len(s) && s[i+1] == '1' {
		i++
	}
	return s[i:]
}

func (w *Writer) appendReal(x *wvar) {
	w.buf = append(w.buf, 'r')
	w.buf = strconv.AppendFloat(w.buf, x.r, 'g', -1, 64)
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, x.code...)
	w.buf = append(w.buf, '\n')
}

const hexDigits = "0123456789abcdef"

func (w *Writer) appendString(x *wvar) { w.buf = appendString(w.buf, x.code, x.s) }

func appendString(b, code []byte, s string) []byte {
	b = append(b, 's')
	b = appendEscaped(b, s)
	b = append(b, ' ')
	b = append(b, code...)
	return append(b, '\n')
}

func appendEscaped(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c <= ' ' || c > '~' {
			plain = false
			break
		}
	}
	if plain {
		return append(b, s...)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b = append(b, '\\', '\\')
		case c <= ' ' || c > '~':
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		default:
			b = append(b, c)
		}
	}
	return b
}
