package vcd

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wordsOf is v as SetWords takes it.
func wordsOf(v *big.Int, width int) []uint64 {
	out := make([]uint64, (width+63)/64)
	for i, w := range v.Bits() {
		out[i] = uint64(w)
	}
	return out
}

func strictRead(t *testing.T, b []byte) *Dump {
	t.Helper()
	r := NewReader(bytes.NewReader(b))
	r.Strict = true
	d, err := r.ReadAll()
	require.NoError(t, err, "output does not pass the strict reader")
	return d
}

// SetWords writes exactly what SetBig writes, for every width around the
// word boundaries, and round-trips through the strict reader.
func TestSetWordsMatchesSetBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, width := range []int{1, 7, 63, 64, 65, 127, 128, 129, 512, 1000} {
		var a, b bytes.Buffer
		wa, wb := NewWriter(&a), NewWriter(&b)
		ida, err := wa.Register(Wire, width, "v")
		require.NoError(t, err)
		idb, err := wb.Register(Wire, width, "v")
		require.NoError(t, err)
		var vals []*big.Int
		for step := 0; step < 40; step++ {
			v := new(big.Int)
			switch step % 4 {
			case 0: // random
				for i := 0; i < width; i++ {
					if rng.IntN(2) == 1 {
						v.SetBit(v, i, 1)
					}
				}
			case 1: // zero
			case 2: // top bit only
				v.SetBit(v, width-1, 1)
			case 3: // a run of low bits
				v.Lsh(big.NewInt(1), uint(rng.IntN(width))).Sub(v, big.NewInt(1))
			}
			vals = append(vals, v)
			require.NoError(t, wa.SetTime(uint64(step)))
			require.NoError(t, wb.SetTime(uint64(step)))
			require.NoError(t, wa.SetBig(ida, v))
			require.NoError(t, wb.SetWords(idb, wordsOf(v, width)))
		}
		require.NoError(t, wa.Close())
		require.NoError(t, wb.Close())
		assert.Equal(t, a.String(), b.String(), "width %d", width)
		d := strictRead(t, b.Bytes())
		s := d.Signal("v")
		require.NotNil(t, s)
		for step, v := range vals {
			got, ok := s.ValueAt(uint64(step))
			require.True(t, ok)
			want := v.Text(2)
			want = strings.Repeat("0", width-len(want)) + want
			assert.Equal(t, want, got.Bits, "width %d step %d", width, step)
		}
	}
}

func TestSetWordsErrors(t *testing.T) {
	w := NewWriter(&bytes.Buffer{})
	id, err := w.Register(Wire, 70, "v")
	require.NoError(t, err)
	_, err = w.Register(String, 1, "s")
	require.NoError(t, err)
	assert.ErrorIs(t, w.SetWords(id, []uint64{0, 1 << 6}), ErrTooWide, "bit 70 of a 70-bit variable")
	w = NewWriter(&bytes.Buffer{})
	id, _ = w.Register(Wire, 70, "v")
	_, _ = w.Register(String, 1, "s")
	assert.ErrorIs(t, w.SetWords(id, []uint64{0, 0, 1}), ErrTooWide, "a third word")
	w = NewWriter(&bytes.Buffer{})
	_, _ = w.Register(Wire, 70, "v")
	s, _ := w.Register(String, 1, "s")
	assert.ErrorIs(t, w.SetWords(s, []uint64{1}), ErrKind)
	w = NewWriter(&bytes.Buffer{})
	id, _ = w.Register(Wire, 70, "v")
	assert.NoError(t, w.SetWords(id, []uint64{5}), "missing words are zero")
	assert.NoError(t, w.SetWords(id, []uint64{5, 0, 0}), "extra zero words")
	assert.ErrorIs(t, w.SetWords(ID(9), nil), ErrUnknownID)
}

// change is one value change of a random run.
type change struct {
	id     ID
	u      uint64
	words  []uint64
	s      string
	isWord bool
	isStr  bool
}

// TestChunksMatchWriter formats a random run of changes three ways: all
// through the Writer, and split into chunks formatted by goroutines of
// their own and written in order (with a part through the Writer between
// chunks). The files are the same byte for byte.
func TestChunksMatchWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	widths := []int{1, 3, 32, 64, 65, 200}
	// A run of steps; every change differs from the variable's last value
	// (chunks write what they are given).
	last := map[ID]string{ID(len(widths)): "reset"} // the initial values
	for i, w := range widths {
		if w > 64 {
			last[ID(i)] = fmt.Sprint(make([]uint64, (w+63)/64))
		} else {
			last[ID(i)] = fmt.Sprint(uint64(0))
		}
	}
	var steps [][]change
	for step := 1; step <= 400; step++ {
		var cs []change
		for id := range len(widths) + 1 {
			if rng.IntN(3) != 0 {
				continue
			}
			c := change{id: ID(id)}
			var key string
			if id == len(widths) {
				c.isStr, c.s = true, []string{"idle", "wait stall", "select\\ed", "ünï"}[rng.IntN(4)]
				key = c.s
			} else if w := widths[id]; w > 64 {
				c.isWord = true
				c.words = make([]uint64, (w+63)/64)
				for i := range c.words {
					c.words[i] = rng.Uint64()
				}
				if w%64 != 0 {
					c.words[len(c.words)-1] &= 1<<uint(w%64) - 1
				}
				key = fmt.Sprint(c.words)
			} else {
				c.u = rng.Uint64()
				if w < 64 {
					c.u &= 1<<uint(w) - 1
				}
				key = fmt.Sprint(c.u)
			}
			if last[c.id] == key {
				continue
			}
			last[c.id] = key
			cs = append(cs, c)
		}
		steps = append(steps, cs)
	}
	declare := func(w *Writer) {
		for i, width := range widths {
			_, err := w.Register(Wire, width, "v"+string(rune('a'+i)))
			require.NoError(t, err)
		}
		_, err := w.Register(String, 1, "name")
		require.NoError(t, err)
	}
	type setter interface {
		SetTime(uint64) error
		SetUint(ID, uint64) error
		SetWords(ID, []uint64) error
		SetString(ID, string) error
	}
	apply := func(s setter, step int, cs []change) {
		require.NoError(t, s.SetTime(uint64(step)*10))
		for _, c := range cs {
			switch {
			case c.isStr:
				require.NoError(t, s.SetString(c.id, c.s))
			case c.isWord:
				require.NoError(t, s.SetWords(c.id, c.words))
			default:
				require.NoError(t, s.SetUint(c.id, c.u))
			}
		}
	}
	initial := func(w *Writer) {
		for i, width := range widths {
			require.NoError(t, w.SetWords(ID(i), make([]uint64, (width+63)/64)))
		}
		require.NoError(t, w.SetString(ID(len(widths)), "reset"))
	}

	var direct bytes.Buffer
	w := NewWriter(&direct)
	declare(w)
	initial(w)
	require.NoError(t, w.SetTime(0))
	for i, cs := range steps {
		apply(w, i+1, cs)
	}
	require.NoError(t, w.Close())

	var chunked bytes.Buffer
	w = NewWriter(&chunked)
	declare(w)
	initial(w)
	require.NoError(t, w.SetTime(0))
	// Steps 1..99 and 200..400 in chunks of 33 steps, formatted at once;
	// 100..199 through the Writer between them.
	type part struct{ from, to int }
	var before, after []part
	for from := 0; from < 99; from += 33 {
		before = append(before, part{from, min(from+33, 99)})
	}
	for from := 199; from < len(steps); from += 33 {
		after = append(after, part{from, min(from+33, len(steps))})
	}
	format := func(parts []part) []*Chunk {
		chunks := make([]*Chunk, len(parts))
		var wg sync.WaitGroup
		for i, p := range parts {
			c, err := w.NewChunk()
			require.NoError(t, err)
			chunks[i] = c
			wg.Add(1)
			go func() {
				defer wg.Done()
				for s := p.from; s < p.to; s++ {
					apply(c, s+1, steps[s])
				}
			}()
		}
		wg.Wait()
		return chunks
	}
	for _, c := range format(before) {
		require.NoError(t, w.WriteChunk(c))
	}
	for s := 99; s < 199; s++ {
		apply(w, s+1, steps[s])
	}
	for _, c := range format(after) {
		require.NoError(t, w.WriteChunk(c))
	}
	require.NoError(t, w.Close())
	if a, b := direct.String(), chunked.String(); a != b {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		lo := max(0, i-200)
		t.Fatalf("chunked output differs at byte %d:\ndirect:  %q\nchunked: %q", i, a[lo:min(len(a), i+100)], b[lo:min(len(b), i+100)])
	}
	strictRead(t, chunked.Bytes())
}

// Changes set in a chunk before its first SetTime happen at the Writer's
// time, whose stamp is written first if nothing was written at it yet.
func TestChunkLeadingChanges(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	a, _ := w.Register(Wire, 4, "a")
	b, _ := w.Register(Wire, 1, "b")
	require.NoError(t, w.SetUint(a, 0))
	require.NoError(t, w.SetUint(b, 0))
	require.NoError(t, w.SetTime(0))
	require.NoError(t, w.SetTime(5)) // pending: nothing changed at 5 yet
	c, err := w.NewChunk()
	require.NoError(t, err)
	require.NoError(t, c.SetUint(a, 3)) // at 5
	require.NoError(t, c.SetTime(7))
	require.NoError(t, c.SetUint(b, 1))
	require.NoError(t, c.SetTime(9)) // nothing at 9: left pending
	require.NoError(t, w.WriteChunk(c))
	// The Writer no longer knows b's value: it writes it again.
	require.NoError(t, w.SetTime(12))
	require.NoError(t, w.SetUint(b, 1))
	require.NoError(t, w.Close())
	assert.Equal(t, "#5\nb11 !\n#7\n1\"\n#12\n1\"\n", out.String()[strings.Index(out.String(), "#5"):])
	d := strictRead(t, out.Bytes())
	v, _ := d.Signal("a").ValueAt(5)
	assert.Equal(t, "0011", v.Bits)
}

func TestChunkErrors(t *testing.T) {
	newW := func() (*Writer, ID, ID) {
		w := NewWriter(&bytes.Buffer{})
		a, _ := w.Register(Wire, 4, "a")
		s, _ := w.Register(String, 1, "s")
		return w, a, s
	}
	w, _, _ := newW()
	_, err := w.NewChunk()
	assert.ErrorIs(t, err, ErrState, "before the $dumpvars section")

	w, a, s := newW()
	require.NoError(t, w.SetTime(10))
	c, err := w.NewChunk()
	require.NoError(t, err)
	assert.ErrorIs(t, c.SetUint(a, 16), ErrTooWide)
	assert.ErrorIs(t, c.SetUint(a, 1), ErrTooWide, "sticky")
	assert.ErrorIs(t, w.WriteChunk(c), ErrTooWide, "the chunk's error reaches the Writer")
	assert.ErrorIs(t, w.Error(), ErrTooWide)

	w, a, s = newW()
	require.NoError(t, w.SetTime(10))
	for _, bad := range []func(c *Chunk) error{
		func(c *Chunk) error { return c.SetUint(ID(7), 1) },
		func(c *Chunk) error { return c.SetUint(s, 1) },
		func(c *Chunk) error { return c.SetString(a, "x") },
		func(c *Chunk) error { c.SetTime(20); return c.SetTime(20) },
		func(c *Chunk) error { return c.SetWords(a, []uint64{1, 1}) },
	} {
		c, err := w.NewChunk()
		require.NoError(t, err)
		err = bad(c)
		require.Error(t, err)
		assert.True(t, errors.Is(err, ErrUnknownID) || errors.Is(err, ErrKind) || errors.Is(err, ErrTimeOrder) || errors.Is(err, ErrTooWide), "%v", err)
		assert.Equal(t, err, c.Err())
		c.Reset()
		assert.NoError(t, c.Err(), "Reset clears the error")
	}

	// A chunk that starts at or before the Writer's time.
	w, a, _ = newW()
	require.NoError(t, w.SetTime(10))
	c, _ = w.NewChunk()
	require.NoError(t, c.SetTime(10))
	require.NoError(t, c.SetUint(a, 1))
	assert.ErrorIs(t, w.WriteChunk(c), ErrTimeOrder)

	// A chunk of another Writer.
	w, _, _ = newW()
	require.NoError(t, w.SetTime(1))
	w2 := NewWriter(&bytes.Buffer{})
	_, _ = w2.Register(Wire, 1, "x")
	require.NoError(t, w2.SetTime(1))
	c2, _ := w2.NewChunk()
	assert.ErrorIs(t, w.WriteChunk(c2), ErrState)
}
