package vcd

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
// Every golden file must also pass the strict Reader.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing: run go test ./vcd -run %s -update", t.Name())
	assert.Equal(t, string(want), string(got), "output differs from %s (go test ./vcd -update to regenerate)", path)
	r := NewReader(bytes.NewReader(got))
	r.Strict = true
	_, err = r.ReadAll()
	require.NoError(t, err, "golden output does not pass the strict reader")
}

// writeBasic writes the file of testdata/basic.vcd.
func writeBasic(t *testing.T) []byte {
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Date = "today"
	w.Version = "smsim vcd test"
	w.Comment = "golden file\nsecond line"
	w.Timescale = "10 ps"
	ok := func(err error) { t.Helper(); require.NoError(t, err) }
	reg := func(k VarKind, width int, name string) ID {
		t.Helper()
		id, err := w.Register(k, width, name)
		require.NoError(t, err)
		return id
	}
	ok(w.Scope(ScopeModule, "sm_top"))
	clk := reg(Wire, 1, "clk")
	ok(w.Scope(ScopeModule, "u_warp_sched"))
	ok(w.Scope(ScopeBegin, "g_warp[3]"))
	pc := reg(Reg, 32, "pc_q[31:0]")
	ok(w.Alias(pc, Reg, "pc_alias [31:0]"))
	ok(w.Upscope())
	state := reg(Reg, 4, "state")
	bit := reg(Wire, 1, "mask [3]")
	ok(w.Upscope())
	cnt := reg(Integer, 32, "cycles")
	temp := reg(Real, 64, "temp")
	op := reg(String, 1, "opcode")
	ok(w.Scope(ScopeTask, "t"))
	ok(w.Scope(ScopeFunction, "f"))
	ok(w.Scope(ScopeFork, "k"))
	wide := reg(Wire, 70, "wide")
	ok(w.Upscope())
	ok(w.Upscope())
	ok(w.Upscope())
	ok(w.Upscope())
	ok(w.EndDefinitions())
	// Initial values (before the first time): clk 0, pc unset (x).
	ok(w.SetUint(clk, 0))
	ok(w.SetString(op, "reset"))
	ok(w.SetTime(0))
	ok(w.SetBits(state, "z"))
	ok(w.SetBits(state, "z")) // unchanged: nothing written
	ok(w.SetTime(5))
	ok(w.SetUint(clk, 1))
	ok(w.SetUint(pc, 0x100))
	ok(w.SetBits(state, "0x1"))
	ok(w.SetUint(cnt, 0))
	ok(w.SetReal(temp, 36.6))
	ok(w.SetString(op, "ld.global u32"))
	ok(w.SetBits(bit, "1"))
	ok(w.SetTime(7)) // nothing changes at 7: no time stamp written
	ok(w.SetTime(10))
	ok(w.SetUint(clk, 0))
	ok(w.SetUint(clk, 0))
	ok(w.SetUint(pc, 0x104))
	ok(w.SetBits(state, "0101"))
	ok(w.SetX(bit))
	ok(w.SetReal(temp, math.Inf(-1)))
	b := new(big.Int).Lsh(big.NewInt(1), 69)
	ok(w.SetBig(wide, b))
	ok(w.SetTime(15))
	ok(w.SetUint(clk, 1))
	ok(w.SetUint(cnt, 1))
	ok(w.SetZ(pc))
	ok(w.SetBits(wide, "1z"))
	ok(w.SetTime(20)) // pending: written by Close
	ok(w.Close())
	return out.Bytes()
}

func TestWriterGoldenBasic(t *testing.T) {
	golden(t, "basic.vcd", writeBasic(t))
}

func TestWriterGoldenEmpty(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	require.NoError(t, w.Close())
	golden(t, "empty.vcd", out.Bytes())
}

func TestWriterGoldenNoTime(t *testing.T) {
	// Values set but SetTime never called: Close writes them at #0.
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Timescale = "1us"
	require.NoError(t, w.Scope("module", "top"))
	a, err := w.Register(Wire, 8, "a")
	require.NoError(t, err)
	_, err = w.Register(Reg, 1, "b")
	require.NoError(t, err)
	require.NoError(t, w.Upscope())
	require.NoError(t, w.SetUint(a, 0x5a))
	require.NoError(t, w.Close())
	golden(t, "notime.vcd", out.Bytes())
}

func TestWriterVectorFormatting(t *testing.T) {
	cases := []struct {
		width int
		set   func(w *Writer, id ID) error
		want  string
	}{
		{8, func(w *Writer, id ID) error { return w.SetUint(id, 0) }, "b0 !"},
		{8, func(w *Writer, id ID) error { return w.SetUint(id, 5) }, "b101 !"},
		{8, func(w *Writer, id ID) error { return w.SetUint(id, 0xff) }, "b11111111 !"},
		{64, func(w *Writer, id ID) error { return w.SetUint(id, math.MaxUint64) }, "b" + strings.Repeat("1", 64) + " !"},
		{8, func(w *Writer, id ID) error { return w.SetBits(id, "0000x1") }, "b0x1 !"},
		{8, func(w *Writer, id ID) error { return w.SetBits(id, "xxxx01") }, "bx01 !"},
		{8, func(w *Writer, id ID) error { return w.SetBits(id, "ZZ1") }, "bz1 !"},
		{8, func(w *Writer, id ID) error { return w.SetBits(id, "0001") }, "b1 !"},
		{8, func(w *Writer, id ID) error { return w.SetX(id) }, "bx !"},
		{8, func(w *Writer, id ID) error { return w.SetZ(id) }, "bz !"},
		{1, func(w *Writer, id ID) error { return w.SetBits(id, "X") }, "x!"},
		{1, func(w *Writer, id ID) error { return w.SetUint(id, 1) }, "1!"},
		{100, func(w *Writer, id ID) error { return w.SetUint(id, 6) }, "b110 !"},
		{100, func(w *Writer, id ID) error { return w.SetBitsBytes(id, []byte("10")) }, "b10 !"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		w := NewWriter(&out)
		id, err := w.Register(Wire, c.width, "v")
		require.NoError(t, err)
		require.NoError(t, w.SetTime(1))
		init := uint64(3)
		if c.width == 1 {
			init = 0
		}
		require.NoError(t, w.SetUint(id, init))
		require.NoError(t, w.SetTime(2))
		require.NoError(t, c.set(w, id))
		require.NoError(t, w.Close())
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		assert.Equal(t, c.want, lines[len(lines)-1], "width %d", c.width)
		assert.Equal(t, "#2", lines[len(lines)-2])
	}
}

func TestWriterChangeOnly(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	a, _ := w.Register(Wire, 16, "a")
	s, _ := w.Register(String, 1, "s")
	r, _ := w.Register(Real, 64, "r")
	require.NoError(t, w.SetTime(0))
	n := out.Len() + len(w.buf)
	require.NoError(t, w.SetTime(1))
	require.NoError(t, w.SetX(a))          // already x
	require.NoError(t, w.SetString(s, "")) // already empty
	require.NoError(t, w.SetReal(r, 0))    // already 0
	require.NoError(t, w.SetTime(2))
	require.NoError(t, w.SetBits(a, "11"))
	require.NoError(t, w.SetUint(a, 3)) // same value by another setter
	require.NoError(t, w.SetBig(a, big.NewInt(3)))
	require.NoError(t, w.Flush())
	assert.Equal(t, "#2\nb11 !\n", out.String()[n:])
}

func TestWriterIDCodes(t *testing.T) {
	assert.Equal(t, "!", IDCode(0))
	assert.Equal(t, "~", IDCode(93))
	assert.Equal(t, "!!", IDCode(94))
	assert.Equal(t, "\"!", IDCode(95))
	assert.Equal(t, "~~", IDCode(94+94*94-1))
	assert.Equal(t, "!!!", IDCode(94+94*94))
	seen := map[string]bool{}
	for i := 0; i < 20000; i++ {
		c := IDCode(i)
		require.False(t, seen[c], "duplicate code %q at %d", c, i)
		seen[c] = true
		for j := 0; j < len(c); j++ {
			require.True(t, c[j] >= 33 && c[j] <= 126)
		}
	}
}

func TestWriterTimescales(t *testing.T) {
	for _, ts := range []string{"1s", "10ms", "100us", "1ns", "10 ps", "100fs", " 1 ns "} {
		w := NewWriter(&bytes.Buffer{})
		w.Timescale = ts
		_, err := w.Register(Wire, 1, "a")
		assert.NoError(t, err, ts)
	}
	for _, ts := range []string{"2ns", "1000ns", "1 xs", "ns", "1", "-1ns", "0ns", "1 n s"} {
		w := NewWriter(&bytes.Buffer{})
		w.Timescale = ts
		_, err := w.Register(Wire, 1, "a")
		assert.ErrorIs(t, err, ErrTimescale, ts)
		assert.ErrorIs(t, w.Close(), ErrTimescale)
	}
}

// TestWriterErrors checks each misuse gives a clear error that is sticky.
func TestWriterErrors(t *testing.T) {
	type setup func(w *Writer) error
	var a, s, r, wide ID
	declare := func(w *Writer) {
		require.NoError(t, w.Scope("module", "top"))
		a, _ = w.Register(Wire, 4, "a")
		s, _ = w.Register(String, 1, "s")
		r, _ = w.Register(Real, 64, "r")
		wide, _ = w.Register(Wire, 80, "wide")
		require.NoError(t, w.Upscope())
	}
	cases := []struct {
		name     string
		do       setup
		sentinel error
		msg      string
	}{
		{"time equal", func(w *Writer) error { w.SetTime(5); return w.SetTime(5) }, ErrTimeOrder, "SetTime(5) after time 5"},
		{"time backwards", func(w *Writer) error { w.SetTime(5); return w.SetTime(4) }, ErrTimeOrder, "SetTime(4) after time 5"},
		{"unknown id", func(w *Writer) error { return w.SetUint(99, 1) }, ErrUnknownID, "ID 99"},
		{"negative id", func(w *Writer) error { w.SetTime(0); return w.SetUint(-1, 1) }, ErrUnknownID, "ID -1"},
		{"too wide uint", func(w *Writer) error { w.SetTime(0); return w.SetUint(a, 16) }, ErrTooWide, "width 4"},
		{"too wide bits", func(w *Writer) error { return w.SetBits(a, "10101") }, ErrTooWide, "5 bits"},
		{"too wide big", func(w *Writer) error { return w.SetBig(wide, new(big.Int).Lsh(big.NewInt(1), 80)) }, ErrTooWide, "81 bits"},
		{"negative big", func(w *Writer) error { return w.SetBig(a, big.NewInt(-1)) }, ErrValue, "non-negative"},
		{"bad bits", func(w *Writer) error { return w.SetBits(a, "10q") }, ErrValue, "want only 0, 1, x, z"},
		{"empty bits", func(w *Writer) error { return w.SetBits(a, "") }, ErrValue, "empty"},
		{"real on bits", func(w *Writer) error { return w.SetReal(a, 1) }, ErrKind, "SetReal"},
		{"uint on string", func(w *Writer) error { return w.SetUint(s, 1) }, ErrKind, "SetString"},
		{"x on real", func(w *Writer) error { return w.SetX(r) }, ErrKind, "SetX"},
		{"declare after end", func(w *Writer) error { w.EndDefinitions(); _, err := w.Register(Wire, 1, "late"); return err }, ErrDefinitionsEnded, "Register after the definitions ended"},
		{"declare after change", func(w *Writer) error { w.SetUint(a, 1); return w.Scope("module", "late") }, ErrDefinitionsEnded, "Scope after"},
		{"upscope without scope", func(w *Writer) error { return w.Upscope() }, ErrScope, "Upscope without an open Scope"},
		{"open scope at end", func(w *Writer) error { w.Scope("module", "open"); return w.SetTime(0) }, ErrScope, "1 scope(s) still open (open)"},
		{"zero width", func(w *Writer) error { _, err := w.Register(Wire, 0, "z"); return err }, ErrWidth, "width 0"},
		{"range mismatch", func(w *Writer) error { _, err := w.Register(Wire, 8, "d[3:0]"); return err }, ErrWidth, "range [3:0] has 4 bits"},
		{"space in name", func(w *Writer) error { _, err := w.Register(Wire, 1, "my sig"); return err }, ErrName, "my sig"},
		{"empty name", func(w *Writer) error { _, err := w.Register(Wire, 1, ""); return err }, ErrName, "non-empty"},
		{"keyword name", func(w *Writer) error { _, err := w.Register(Wire, 1, "$end"); return err }, ErrName, "not starting with $"},
		{"non-ascii name", func(w *Writer) error { _, err := w.Register(Wire, 1, "caf\u00e9"); return err }, ErrName, "printable ASCII"},
		{"tab in scope", func(w *Writer) error { return w.Scope("module", "a\tb") }, ErrName, "scope name"},
		{"bad scope kind", func(w *Writer) error { return w.Scope("generate", "g") }, ErrKind, "generate"},
		{"bad var kind", func(w *Writer) error { _, err := w.Register(Other, 1, "o"); return err }, ErrKind, "other"},
		{"duplicate", func(w *Writer) error { w.Scope("module", "top"); _, err := w.Register(Wire, 1, "a"); return err }, ErrDuplicate, "top.a"},
		{"after close", func(w *Writer) error { w.Close(); return w.SetTime(1) }, ErrClosed, "after Close"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			w := NewWriter(&out)
			declare(w)
			err := c.do(w)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.sentinel)
			assert.Contains(t, err.Error(), c.msg)
			// Sticky.
			assert.Equal(t, err, w.Error())
			assert.Equal(t, err, w.SetUint(a, 1))
			assert.Equal(t, err, w.SetTime(1000))
			assert.Equal(t, err, w.Flush())
			assert.Equal(t, err, w.Close())
			// What was written is still a valid VCD.
			rd := NewReader(bytes.NewReader(out.Bytes()))
			rd.Strict = true
			_, rerr := rd.ReadAll()
			assert.NoError(t, rerr, "output after error:\n%s", out.String())
		})
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("disk full")
	}
	f.n--
	return len(p), nil
}

func TestWriterIOErrorSticky(t *testing.T) {
	w := NewWriter(&failWriter{n: 1})
	ids := make([]ID, 100)
	for i := range ids {
		ids[i], _ = w.Register(Wire, 32, "s"+IDCode(i))
	}
	var err error
	for tm := uint64(0); tm < 10000 && err == nil; tm++ {
		err = w.SetTime(tm)
		for _, id := range ids {
			if e := w.SetUint(id, tm*uint64(id)&0xffffffff); e != nil && err == nil {
				err = e
			}
		}
	}
	require.EqualError(t, err, "disk full")
	assert.EqualError(t, w.SetUint(ids[0], 1), "disk full")
	assert.EqualError(t, w.Flush(), "disk full")
	assert.EqualError(t, w.Close(), "disk full")
}

func TestWriterHeaderTextWithEnd(t *testing.T) {
	w := NewWriter(&bytes.Buffer{})
	w.Comment = "oops $end"
	_, err := w.Register(Wire, 1, "a")
	assert.ErrorIs(t, err, ErrValue)
}

func TestWriterMisc(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out)
	a, err := w.Register(Wire, 4, "a")
	require.NoError(t, err)
	assert.Equal(t, "!", w.Code(a))
	assert.Equal(t, "", w.Code(7))
	assert.ErrorIs(t, w.Alias(a, Real, "ra"), ErrKind)

	w = NewWriter(&out)
	_, _ = w.Register(Wire, 4, "a")
	assert.ErrorIs(t, w.Alias(5, Wire, "b"), ErrUnknownID)
	w = NewWriter(&out)
	a, _ = w.Register(Wire, 4, "a")
	assert.ErrorIs(t, w.Alias(a, Wire, "a"), ErrDuplicate)
	w = NewWriter(&out)
	a, _ = w.Register(Wire, 4, "a")
	assert.ErrorIs(t, w.Alias(a, Wire, "b[7:0]"), ErrWidth)

	// Begin is SetTime.
	out.Reset()
	w = NewWriter(&out)
	a, _ = w.Register(Wire, 1, "a")
	require.NoError(t, w.Begin(1))
	require.NoError(t, w.Begin(2))
	require.NoError(t, w.SetUint(a, 1))
	assert.ErrorIs(t, w.Begin(2), ErrTimeOrder)
	require.ErrorIs(t, w.Close(), ErrTimeOrder)
	assert.True(t, strings.HasSuffix(out.String(), "#2\n1!\n"), out.String())
}

func TestWriterLargeOutputFlushes(t *testing.T) {
	// Wider than the buffer: a 1M-bit variable and many changes.
	var out bytes.Buffer
	w := NewWriter(&out)
	_, err := w.Register(Wire, MaxWidth, "huge")
	require.NoError(t, err)
	_, err = w.Register(Wire, MaxWidth+1, "too_huge")
	assert.ErrorIs(t, err, ErrWidth)

	out.Reset()
	w = NewWriter(&out)
	big1, _ := w.Register(Wire, MaxWidth, "huge")
	require.NoError(t, w.SetTime(0))
	require.NoError(t, w.SetBits(big1, "1"+strings.Repeat("0", MaxWidth-1)))
	require.NoError(t, w.SetTime(1))
	require.NoError(t, w.SetUint(big1, 1))
	require.NoError(t, w.Close())
	r := NewReader(&out)
	r.Strict = true
	d, err := r.ReadAll()
	require.NoError(t, err)
	ch := d.Signal("huge").Changes
	require.Len(t, ch, 3)
	assert.Equal(t, MaxWidth, len(ch[2].Value.Bits))
	assert.Equal(t, "01", ch[2].Value.Bits[MaxWidth-2:])
}
