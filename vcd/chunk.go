package vcd

import (
	"fmt"
	"math/bits"
)

// A Chunk is a run of time steps and value changes formatted apart from
// its Writer, so that several goroutines can format consecutive parts of
// one dump at once; Writer.WriteChunk then appends finished chunks in
// order. A Chunk checks what the Writer would check (known variable of
// the right kind, value within the width, strictly increasing time) and
// formats exactly as the Writer does, with one difference: it does not
// know the values written before it, so it writes every value it is
// given. The caller writes changes only (a tracer that compares with the
// previous cycle does).
//
// Changes set before the chunk's first SetTime happen at the time the
// Writer (or the previous chunk) was at. Errors are sticky and returned by
// Err and by WriteChunk.
//
// A Chunk is not safe for concurrent use, but chunks of one Writer may
// be used by different goroutines at once: a Chunk reads only the
// variables' declarations, copied when it was made.
type Chunk struct {
	vars    []chunkVar
	buf     []byte
	time    uint64 // the last SetTime
	timed   bool   // SetTime was called
	pending bool   // time not yet written
	first   uint64 // the first SetTime
	lead    bool   // changes before the first SetTime
	err     error
}

type chunkVar struct {
	code  []byte // shared with the Writer; never modified
	width int
	class valueClass
}

// NewChunk returns an empty Chunk for w's variables. The definitions must
// be complete and the $dumpvars section written (a SetTime done), else
// the error wraps ErrState.
func (w *Writer) NewChunk() (*Chunk, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.state != stTimed {
		return nil, fmt.Errorf("%w: NewChunk before the first SetTime", ErrState)
	}
	c := &Chunk{vars: make([]chunkVar, len(w.vars))}
	for i := range w.vars {
		v := &w.vars[i]
		c.vars[i] = chunkVar{code: v.code, width: v.width, class: v.class}
	}
	return c, nil
}

// Reset empties the chunk for reuse (and clears its error).
func (c *Chunk) Reset() {
	c.buf = c.buf[:0]
	c.timed, c.pending, c.lead, c.err = false, false, false, nil
}

// Err returns the chunk's first error.
func (c *Chunk) Err() error { return c.err }

// Len is the number of bytes formatted so far.
func (c *Chunk) Len() int { return len(c.buf) }

func (c *Chunk) failf(sentinel error, format string, args ...any) error {
	if c.err == nil {
		c.err = fmt.Errorf("vcd: chunk: %w: %s", sentinel, fmt.Sprintf(format, args...))
	}
	return c.err
}

// SetTime starts the time step t; times must strictly increase within the
// chunk, and the first must be later than the Writer's time when the
// chunk is written.
func (c *Chunk) SetTime(t uint64) error {
	if c.err != nil {
		return c.err
	}
	if c.timed && t <= c.time {
		return c.failf(ErrTimeOrder, "SetTime(%d) after time %d", t, c.time)
	}
	if !c.timed {
		c.first = t
	}
	c.time, c.timed, c.pending = t, true, true
	return nil
}

func (c *Chunk) lookup(id ID, class valueClass, setter string) (*chunkVar, error) {
	if c.err != nil {
		return nil, c.err
	}
	if uint(id) >= uint(len(c.vars)) {
		return nil, c.failf(ErrUnknownID, "%s of unknown variable %d", setter, id)
	}
	x := &c.vars[id]
	if x.class != class {
		return nil, c.failf(ErrKind, "%s of variable %d (code %s), a %s variable", setter, id, x.code, className[x.class])
	}
	c.stamp()
	return x, nil
}

// SetUint writes the two-state value v of a bit variable of width <= 64.
func (c *Chunk) SetUint(id ID, v uint64) error {
	if uint(id) < uint(len(c.vars)) && c.err == nil {
		// The common case in one piece.
		if x := &c.vars[id]; x.class == classBits && x.width <= 64 && (x.width == 64 || v>>uint(x.width) == 0) {
			c.stamp()
			c.buf = appendU(c.buf, x.code, x.width, v)
			return nil
		}
		if x := &c.vars[id]; x.class == classBits {
			return c.failf(ErrTooWide, "value %#x (%d bits) for variable %d (code %s) of width %d", v, bits.Len64(v), id, x.code, x.width)
		}
	}
	_, err := c.lookup(id, classBits, "SetUint")
	return err // lookup fails: an unknown variable, or not a bit variable
}

// SetWords writes the two-state value v (least significant word first) of
// a bit variable wider than 64 bits, as Writer.SetWords.
func (c *Chunk) SetWords(id ID, v []uint64) error {
	if uint(id) < uint(len(c.vars)) && c.err == nil {
		x := &c.vars[id]
		if x.class == classBits && x.width <= 64 {
			var u uint64
			if len(v) > 0 {
				u = v[0]
			}
			for _, w := range v[min(len(v), 1):] {
				if w != 0 {
					return c.failf(ErrTooWide, "SetWords value wider than 64 bits for variable %d (code %s) of width %d", id, x.code, x.width)
				}
			}
			return c.SetUint(id, u)
		}
		if x.class == classBits {
			nw := (x.width + 63) / 64
			for i := len(v) - 1; i >= 0; i-- {
				if i >= nw && v[i] != 0 || i == nw-1 && x.width%64 != 0 && v[i]>>uint(x.width%64) != 0 {
					return c.failf(ErrTooWide, "SetWords value with bit %d set for variable %d (code %s) of width %d", i*64+bits.Len64(v[i])-1, id, x.code, x.width)
				}
			}
			v = v[:min(len(v), nw)]
		}
	}
	x, err := c.lookup(id, classBits, "SetWords")
	if err != nil {
		return err
	}
	c.buf = appendW(c.buf, x.code, v)
	return nil
}

// SetString writes the value s of a string variable.
func (c *Chunk) SetString(id ID, s string) error {
	x, err := c.lookup(id, classString, "SetString")
	if err != nil {
		return err
	}
	c.buf = appendString(c.buf, x.code, s)
	return nil
}

// WriteChunk appends the chunk c, made by w.NewChunk, to the dump. Its
// changes before its first SetTime happen at w's current time; its first
// SetTime must be later than w's time. After it, w no longer knows the
// variables' values, so its next Set calls write whatever they are given
// (as a Chunk does). It returns c's error, or w's sticky error.
func (w *Writer) WriteChunk(c *Chunk) error {
	if w.err != nil {
		return w.err
	}
	if w.state != stTimed {
		return w.failf(ErrState, "WriteChunk before the first SetTime")
	}
	if len(c.vars) != len(w.vars) {
		return w.failf(ErrState, "WriteChunk of a chunk made for another Writer")
	}
	if c.err != nil {
		return w.fail(c.err)
	}
	if c.timed && c.first <= w.time {
		return w.failf(ErrTimeOrder, "chunk starting at time %d after time %d", c.first, w.time)
	}
	if c.lead && w.pending {
		w.writeTime()
	}
	if c.timed {
		w.time = c.time
		w.pending = c.pending
	}
	if len(c.buf) >= flushAt {
		// Large chunks go to the io.Writer as they are.
		w.flushBuf()
		if !w.ioErr {
			if _, err := w.w.Write(c.buf); err != nil {
				w.ioErr = true
				w.fail(err)
			}
		}
	} else {
		w.buf = append(w.buf, c.buf...)
	}
	for i := range w.vars {
		v := &w.vars[i]
		if v.class == classBits {
			v.mode = modeUnknown
		} else {
			v.unknown = true
		}
	}
	return w.maybeFlush()
}

// stamp writes the pending time stamp before a change, or notes a change
// before the chunk's first time step.
func (c *Chunk) stamp() {
	if c.pending {
		c.pending = false
		c.buf = append(c.buf, '#')
		c.buf = appendUint(c.buf, c.time)
		c.buf = append(c.buf, '\n')
	} else if !c.timed {
		c.lead = true
	}
}

var className = map[valueClass]string{classBits: "bit", classReal: "real", classString: "string"}

func appendUint(b []byte, v uint64) []byte {
	var t [20]byte
	i := len(t)
	for v >= 10 {
		i--
		t[i] = byte('0' + v%10)
		v /= 10
	}
	i--
	t[i] = byte('0' + v)
	return append(b, t[i:]...)
}
