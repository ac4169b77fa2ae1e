package vcd

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sim writes a small design: top.clk, top.core.pc (16 bits), top.core.acc
// (8 bits), top.mem.rd (4 bits), for 10 cycles; tweak may change values.
func sim(t *testing.T, timescale string, tmul uint64, tweak func(w *Writer, ids map[string]ID, cycle uint64)) []byte {
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Timescale = timescale
	ids := map[string]ID{}
	reg := func(k VarKind, width int, name, full string) {
		id, err := w.Register(k, width, name)
		require.NoError(t, err)
		ids[full] = id
	}
	require.NoError(t, w.Scope(ScopeModule, "top"))
	reg(Wire, 1, "clk", "clk")
	require.NoError(t, w.Scope(ScopeModule, "core"))
	reg(Reg, 16, "pc", "pc")
	reg(Reg, 8, "acc", "acc")
	require.NoError(t, w.Upscope())
	require.NoError(t, w.Scope(ScopeModule, "mem"))
	reg(Wire, 4, "rd", "rd")
	require.NoError(t, w.Upscope())
	require.NoError(t, w.Upscope())
	for c := uint64(0); c < 10; c++ {
		require.NoError(t, w.SetTime(c*10*tmul))
		require.NoError(t, w.SetUint(ids["clk"], 1))
		require.NoError(t, w.SetUint(ids["pc"], 4*c))
		require.NoError(t, w.SetUint(ids["acc"], c*c&0xff))
		require.NoError(t, w.SetUint(ids["rd"], c%3))
		if tweak != nil {
			tweak(w, ids, c)
		}
		require.NoError(t, w.SetTime((c*10+5)*tmul))
		require.NoError(t, w.SetUint(ids["clk"], 0))
	}
	require.NoError(t, w.Close())
	return out.Bytes()
}

func diff(t *testing.T, a, b []byte, opt DiffOptions) DiffResult {
	t.Helper()
	res, err := Diff(bytes.NewReader(a), bytes.NewReader(b), opt)
	require.NoError(t, err)
	return res
}

func TestDiffIdentical(t *testing.T) {
	a := sim(t, "1ns", 1, nil)
	res := diff(t, a, a, DiffOptions{Strict: true})
	assert.True(t, res.Equal)
	assert.Equal(t, 0, res.Count)
	assert.Nil(t, res.First)
	assert.Empty(t, res.Diffs)
	assert.Equal(t, 4, res.Compared)
}

func TestDiffOneChange(t *testing.T) {
	a := sim(t, "1ns", 1, nil)
	b := sim(t, "1ns", 1, func(w *Writer, ids map[string]ID, c uint64) {
		if c == 6 {
			require.NoError(t, w.SetUint(ids["acc"], 0x99))
		}
	})
	res := diff(t, a, b, DiffOptions{})
	assert.False(t, res.Equal)
	// acc differs at #60 only: at #70 both files change it to 49.
	assert.Equal(t, 1, res.Count)
	require.NotNil(t, res.First)
	assert.Equal(t, uint64(60), res.First.Time)
	assert.Equal(t, "top.core.acc", res.First.Signal)
	assert.Equal(t, "00100100", res.First.A.Bits) // 36
	assert.Equal(t, "10011001", res.First.B.Bits) // 0x99
	assert.Equal(t, "#60 top.core.acc: a=00100100 b=10011001", res.First.String())
}

func TestDiffCountsEveryStep(t *testing.T) {
	a := sim(t, "1ns", 1, nil)
	// pc stuck at x from cycle 7 on in b: differs at #70, #80, #90.
	b := sim(t, "1ns", 1, func(w *Writer, ids map[string]ID, c uint64) {
		if c >= 7 {
			require.NoError(t, w.SetX(ids["pc"]))
		}
	})
	res := diff(t, a, b, DiffOptions{MaxDiffs: 2})
	assert.Equal(t, 3, res.Count)
	require.Len(t, res.Diffs, 2)
	assert.Equal(t, uint64(70), res.Diffs[0].Time)
	assert.Equal(t, uint64(80), res.Diffs[1].Time)
	assert.Equal(t, strings.Repeat("x", 16), res.Diffs[0].B.Bits)
}

func TestDiffScopeAndSignalFilter(t *testing.T) {
	a := sim(t, "1ns", 1, nil)
	b := sim(t, "1ns", 1, func(w *Writer, ids map[string]ID, c uint64) {
		if c == 2 {
			require.NoError(t, w.SetUint(ids["rd"], 15))
		}
		if c == 4 {
			require.NoError(t, w.SetUint(ids["pc"], 1))
		}
	})
	res := diff(t, a, b, DiffOptions{})
	assert.Equal(t, 2, res.Count)
	assert.Equal(t, "top.mem.rd", res.First.Signal)
	assert.Equal(t, uint64(20), res.First.Time)

	res = diff(t, a, b, DiffOptions{Prefix: "top.core"})
	assert.Equal(t, 1, res.Count)
	assert.Equal(t, 2, res.Compared)
	assert.Equal(t, "top.core.pc", res.First.Signal)
	assert.Equal(t, uint64(40), res.First.Time)

	res = diff(t, a, b, DiffOptions{Prefix: "top.co"}) // not a scope boundary
	assert.Equal(t, 0, res.Compared)

	res = diff(t, a, b, DiffOptions{Signals: []string{"top.clk", "top.mem.rd"}})
	assert.Equal(t, 2, res.Compared)
	assert.Equal(t, 1, res.Count)
	assert.Equal(t, "top.mem.rd", res.First.Signal)

	_, err := Diff(bytes.NewReader(a), bytes.NewReader(b), DiffOptions{Signals: []string{"top.nope"}})
	assert.ErrorContains(t, err, `signal "top.nope" is in neither file`)
}

func TestDiffWidthAndTimescaleNormalization(t *testing.T) {
	a := header + "#0\n$dumpvars\n0!\nb101 \"\nr1 #\ns $\n$end\n#10\nbz1 \"\n"
	// Same values, written wider/narrower, with a 100ps timescale.
	b := `$timescale 100ps $end
$scope module top $end
$var wire 1 a clk $end
$var wire 12 b data $end
$var real 64 c r $end
$var string 1 d s $end
$upscope $end
$enddefinitions $end
#0
0a
b000000000101 b
r1.0 c
s d
#100
bzzzzzzzzzzz1 b
`
	res := diff(t, []byte(a), []byte(b), DiffOptions{Strict: true})
	assert.True(t, res.Equal, "%+v", res)
	assert.Equal(t, Timescale{100, "ps"}, res.Timescale)

	c := strings.Replace(b, "#100", "#101", 1)
	res = diff(t, []byte(a), []byte(c), DiffOptions{})
	// Differs at #100 (a changed, c not yet); equal again at #101.
	assert.Equal(t, 1, res.Count)
	assert.Equal(t, uint64(100), res.First.Time)

	d := strings.Replace(b, "r1.0 c", "r1.0000000000000002 c", 1)
	res = diff(t, []byte(a), []byte(d), DiffOptions{})
	assert.Equal(t, 1, res.Count)
	res = diff(t, []byte(a), []byte(d), DiffOptions{RealTolerance: 1e-15})
	assert.True(t, res.Equal)
}

func TestDiffMissingSignals(t *testing.T) {
	a := sim(t, "1ns", 1, nil)
	b := []byte(strings.Replace(string(a), "$var wire 4 $ rd $end", "$var wire 4 $ rd2 $end", 1))
	res := diff(t, a, b, DiffOptions{})
	assert.True(t, res.Equal)
	assert.Equal(t, 3, res.Compared)
	res = diff(t, a, b, DiffOptions{ReportMissing: true})
	assert.False(t, res.Equal)
	assert.Equal(t, []string{"top.mem.rd"}, res.OnlyInA)
	assert.Equal(t, []string{"top.mem.rd2"}, res.OnlyInB)
	assert.Equal(t, 0, res.Count)
}

func TestDiffParseError(t *testing.T) {
	a := sim(t, "1ns", 1, nil)
	_, err := Diff(bytes.NewReader(a), strings.NewReader(header+"#1\n1?\n"), DiffOptions{Strict: true})
	assert.ErrorIs(t, err, ErrUnknownID)
	assert.ErrorContains(t, err, "file B")
}
