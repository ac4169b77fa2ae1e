package vcd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namedWriter declares state (4 bits) and its string companion, and a
// third variable of each kind for the error cases.
func namedWriter(t *testing.T, buf *bytes.Buffer) (w *Writer, state, str, other ID) {
	t.Helper()
	w = NewWriter(buf)
	var err error
	state, err = w.Register(Wire, 4, "state_q[3:0]")
	require.NoError(t, err)
	str, err = w.Register(String, 1, "state_q_str")
	require.NoError(t, err)
	other, err = w.Register(Wire, 65, "wide[64:0]")
	require.NoError(t, err)
	return w, state, str, other
}

// A Chunk's SetNamed writes exactly what SetUint and SetString write, for
// named values, unnamed ones ("?v") and names that need escaping, and
// the result passes the strict reader.
func TestSetNamedMatchesSetUintSetString(t *testing.T) {
	names := []string{"idle", "ready", "long wait", `back\slash`}
	var a, b bytes.Buffer
	wa, ida, sa, _ := namedWriter(t, &a)
	wb, idb, sb, _ := namedWriter(t, &b)
	na, err := wa.NewNamed(ida, sa, names)
	require.NoError(t, err)
	for _, w := range []*Writer{wa, wb} {
		require.NoError(t, w.EndDefinitions())
		require.NoError(t, w.SetTime(0))
	}
	ca, err := wa.NewChunk()
	require.NoError(t, err)
	cb, err := wb.NewChunk()
	require.NoError(t, err)
	for i, v := range []uint64{1, 2, 3, 0, 9, 15, 1} {
		require.NoError(t, ca.SetTime(uint64(10*i+10)))
		require.NoError(t, cb.SetTime(uint64(10*i+10)))
		require.NoError(t, ca.SetNamed(na, v))
		require.NoError(t, cb.SetUint(idb, v))
		require.NoError(t, cb.SetString(sb, na.Name(v)))
	}
	require.NoError(t, wa.WriteChunk(ca))
	require.NoError(t, wb.WriteChunk(cb))
	require.NoError(t, wa.Close())
	require.NoError(t, wb.Close())
	assert.Equal(t, b.String(), a.String())
	d := strictRead(t, a.Bytes())
	var got []string
	for _, c := range d.Signal("state_q_str").Changes {
		got = append(got, c.Value.Str)
	}
	assert.Equal(t, []string{"ready", "long wait", `back\slash`, "idle", "?9", "?15", "ready"}, got[len(got)-7:])
	assert.Equal(t, "?9", na.Name(9))
}

// The Writer's SetNamed is SetUint and SetString (change-only, like them).
func TestWriterSetNamed(t *testing.T) {
	var buf bytes.Buffer
	w, id, str, _ := namedWriter(t, &buf)
	n, err := w.NewNamed(id, str, []string{"a", "b"})
	require.NoError(t, err)
	require.NoError(t, w.EndDefinitions())
	require.NoError(t, w.SetNamed(n, 1))
	require.NoError(t, w.SetTime(10))
	require.NoError(t, w.SetTime(20))
	require.NoError(t, w.SetNamed(n, 1)) // unchanged: nothing written
	require.NoError(t, w.SetTime(30))
	require.NoError(t, w.SetNamed(n, 0))
	require.NoError(t, w.Close())
	body := buf.String()[strings.Index(buf.String(), "#10"):]
	assert.Equal(t, "#10\n$dumpvars\nb1 !\nsb \"\nbx #\n$end\n#30\nb0 !\nsa \"\n", body)
}

func TestNewNamedErrors(t *testing.T) {
	var buf bytes.Buffer
	w, id, str, wide := namedWriter(t, &buf)
	_, err := w.NewNamed(id, 99, nil)
	assert.ErrorIs(t, err, ErrUnknownID)
	_, err = w.NewNamed(str, id, nil)
	assert.ErrorIs(t, err, ErrKind, "a string variable as the value")
	_, err = w.NewNamed(id, id, nil)
	assert.ErrorIs(t, err, ErrKind, "a bit variable as the companion")
	_, err = w.NewNamed(wide, str, nil)
	assert.ErrorIs(t, err, ErrKind, "wider than 64 bits")

	// A value too wide for the variable, and a Named of another Writer.
	n, err := w.NewNamed(id, str, []string{"x"})
	require.NoError(t, err)
	assert.ErrorIs(t, startChunk(t, w).SetNamed(n, 16), ErrTooWide)
	var other bytes.Buffer
	w2 := NewWriter(&other)
	_, err = w2.Register(String, 1, "s")
	require.NoError(t, err)
	assert.ErrorIs(t, startChunk(t, w2).SetNamed(n, 0), ErrKind)
}

// startChunk ends w's definitions, starts its time at 0 and returns a
// Chunk of it.
func startChunk(t *testing.T, w *Writer) *Chunk {
	t.Helper()
	require.NoError(t, w.EndDefinitions())
	require.NoError(t, w.SetTime(0))
	c, err := w.NewChunk()
	require.NoError(t, err)
	return c
}
