package vcd

import (
	"fmt"
	"strconv"
)

// A Named pairs a bit variable whose values have names with a string
// variable (GTKWave's string extension) that shows the name of the
// current value, e.g. a state machine's state_q and state_q_str. Its
// change lines are formatted once, when it is made, so that writing an
// enum value to a Chunk costs one append instead of two formatted
// changes.
type Named struct {
	id, str ID
	width   int
	names   []string
	lines   [][]byte // by value: both change lines
}

// NewNamed pairs the bit variable id (at most 64 bits wide) with the
// string variable str; names[v] is the name of value v, and a value
// without one shows as "?v" (v in decimal). Call it after both are
// registered. It fails (ErrUnknownID, ErrKind) for unknown variables or
// ones of the wrong kind.
func (w *Writer) NewNamed(id, str ID, names []string) (*Named, error) {
	if uint(id) >= uint(len(w.vars)) || uint(str) >= uint(len(w.vars)) {
		return nil, fmt.Errorf("%w: NewNamed(%d, %d) of %d variables", ErrUnknownID, id, str, len(w.vars))
	}
	x, s := &w.vars[id], &w.vars[str]
	if x.class != classBits || x.width > 64 {
		return nil, fmt.Errorf("%w: NewNamed: variable %d (code %s) is not a bit variable of at most 64 bits", ErrKind, id, x.code)
	}
	if s.class != classString {
		return nil, fmt.Errorf("%w: NewNamed: variable %d (code %s) is not a string variable", ErrKind, str, s.code)
	}
	e := &Named{id: id, str: str, width: x.width, names: append([]string(nil), names...)}
	n := len(e.names)
	if x.width < 31 {
		n = min(n, 1<<uint(x.width)) // names beyond the variable's values are never written
	}
	// Every value's lines in one buffer.
	var buf []byte
	ends := make([]int, n)
	for v, name := range e.names[:n] {
		buf = appendU(buf, x.code, x.width, uint64(v))
		buf = appendString(buf, s.code, name)
		ends[v] = len(buf)
	}
	e.lines = make([][]byte, n)
	start := 0
	for v, end := range ends {
		e.lines[v] = buf[start:end:end]
		start = end
	}
	return e, nil
}

// Name is the name value v shows as.
func (e *Named) Name(v uint64) string {
	if v < uint64(len(e.names)) {
		return e.names[v]
	}
	return "?" + strconv.FormatUint(v, 10)
}

// SetNamed writes value v of e's bit variable and its name to e's string
// variable, as SetUint and SetString would.
func (w *Writer) SetNamed(e *Named, v uint64) error {
	if err := w.SetUint(e.id, v); err != nil {
		return err
	}
	return w.SetString(e.str, e.Name(v))
}

// SetNamed writes value v of e's bit variable and its name to e's string
// variable, as SetUint and SetString would. e must come from the chunk's
// Writer.
func (c *Chunk) SetNamed(e *Named, v uint64) error {
	if c.err != nil {
		return c.err
	}
	if uint(e.id) >= uint(len(c.vars)) || uint(e.str) >= uint(len(c.vars)) || c.vars[e.id].class != classBits || c.vars[e.str].class != classString || c.vars[e.id].width != e.width {
		return c.failf(ErrKind, "SetNamed of an Named made for another Writer (variables %d, %d)", e.id, e.str)
	}
	if v < uint64(len(e.lines)) {
		c.stamp()
		c.buf = append(c.buf, e.lines[v]...)
		return nil
	}
	if err := c.SetUint(e.id, v); err != nil {
		return err
	}
	return c.SetString(e.str, e.Name(v))
}
