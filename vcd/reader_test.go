package vcd

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const header = `$timescale 1ns $end
$scope module top $end
$var wire 1 ! clk $end
$var wire 8 " data [7:0] $end
$var real 64 # r $end
$var string 1 $ s $end
$upscope $end
$enddefinitions $end
`

func readAll(t *testing.T, text string, strict bool) (*Dump, error) {
	t.Helper()
	r := NewReader(strings.NewReader(text))
	r.Strict = strict
	return r.ReadAll()
}

func TestReaderBasic(t *testing.T) {
	text := `$date Mon $end
$version v1 $end
$comment hello
  world $end
$timescale 100 us $end
$scope module sm_top $end
$scope module u_warp_sched $end
$scope begin g_warp[3] $end
$var reg 32 % pc_q [31:0] $end
$var wire 1 & mask [2] $end
$upscope $end
$upscope $end
$var wire 1 ! clk $end
$var wire 1 ! clk_alias $end
$upscope $end
$enddefinitions $end
$comment in body $end
#0
$dumpvars
0!
bx %
z&
$end
#10
1!
b1 %
#20
0!
B0X1 %
`
	for _, strict := range []bool{true, false} {
		d, err := readAll(t, text, strict)
		require.NoError(t, err)
		h := d.Header
		assert.Equal(t, "Mon", h.Date)
		assert.Equal(t, "v1", h.Version)
		assert.Equal(t, "hello world", h.Comment)
		assert.Equal(t, Timescale{100, "us"}, h.Timescale)
		require.Len(t, h.Vars, 4)
		assert.Equal(t, Var{Kind: Reg, KindName: "reg", Width: 32, ID: "%", Ref: "pc_q", Range: "[31:0]",
			Scope: "sm_top.u_warp_sched.g_warp[3]", Name: "sm_top.u_warp_sched.g_warp[3].pc_q"}, h.Vars[0])
		assert.Equal(t, "sm_top.u_warp_sched.g_warp[3].mask[2]", h.Vars[1].Name)
		assert.Equal(t, []ScopeDecl{{"module", "sm_top"}, {"module", "sm_top.u_warp_sched"}, {"begin", "sm_top.u_warp_sched.g_warp[3]"}}, h.Scopes)
		pc := d.Signal("sm_top.u_warp_sched.g_warp[3].pc_q")
		require.NotNil(t, pc)
		require.Len(t, pc.Changes, 3)
		assert.Equal(t, Sample{0, Value{Bits: strings.Repeat("x", 32)}}, pc.Changes[0])
		assert.Equal(t, Sample{10, Value{Bits: strings.Repeat("0", 31) + "1"}}, pc.Changes[1])
		assert.Equal(t, Sample{20, Value{Bits: strings.Repeat("0", 29) + "0x1"}}, pc.Changes[2])
		clk, alias := d.Signal("sm_top.clk"), d.Signal("sm_top.clk_alias")
		require.NotNil(t, alias)
		assert.Equal(t, clk.Changes, alias.Changes)
		assert.Len(t, clk.Changes, 3)
		v, ok := clk.ValueAt(15)
		assert.True(t, ok)
		assert.Equal(t, "1", v.Bits)
		_, ok = clk.ValueAt(0)
		assert.True(t, ok)
		assert.Equal(t, uint64(20), d.EndTime)
	}
}

func TestReaderNextValues(t *testing.T) {
	text := header + "#1\n1!\nb101 \"\nr-2.5e3 #\nsa\\x20b\\\\c $\nR1 #\nS\\n $\n"
	r := NewReader(strings.NewReader(text))
	r.Strict = true
	var got []Change
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, c)
	}
	assert.Equal(t, []Change{
		{1, "!", Value{Bits: "1"}},
		{1, "\"", Value{Bits: "00000101"}},
		{1, "#", Value{Kind: RealValue, Real: -2500}},
		{1, "$", Value{Kind: StringValue, Str: "a b\\c"}},
		{1, "#", Value{Kind: RealValue, Real: 1}},
		{1, "$", Value{Kind: StringValue, Str: "\n"}},
	}, got)
	// Errors are sticky and EOF repeats.
	_, err := r.Next()
	assert.Equal(t, io.EOF, err)
}

func TestReaderSpecialReals(t *testing.T) {
	d, err := readAll(t, header+"#1\nrNaN #\n#2\nr+Inf #\n#3\nr-inf #\n#4\nr1e999 #\n", true)
	require.NoError(t, err)
	ch := d.Signal("top.r").Changes
	require.Len(t, ch, 4)
	assert.True(t, math.IsNaN(ch[0].Value.Real))
	assert.True(t, math.IsInf(ch[1].Value.Real, 1))
	assert.True(t, math.IsInf(ch[2].Value.Real, -1))
	assert.True(t, math.IsInf(ch[3].Value.Real, 1))
}

// TestReaderStrictRejects checks each defect is rejected in strict mode
// with the right error, and tolerated in non-strict mode.
func TestReaderStrictRejects(t *testing.T) {
	body := "#0\n$dumpvars\n0!\nb0 \"\n$end\n"
	cases := []struct {
		name     string
		text     string
		sentinel error
		msg      string
	}{
		{"missing enddefinitions", strings.Replace(header, "$enddefinitions $end\n", "", 1) + body, ErrSyntax, "missing $enddefinitions"},
		{"missing enddefinitions at eof", strings.Replace(header, "$enddefinitions $end\n", "", 1), ErrSyntax, "missing $enddefinitions"},
		{"unknown id", header + body + "#1\n1?\n", ErrUnknownID, `unknown identifier code "?"`},
		{"unknown vector id", header + body + "#1\nb1 ??\n", ErrUnknownID, `"??"`},
		{"decreasing time", header + body + "#5\n1!\n#4\n0!\n", ErrTimeOrder, "time 4 after time 5"},
		{"repeated time", header + body + "#5\n1!\n#5\n0!\n", ErrTimeOrder, "time 5 after time 5"},
		{"too wide", header + body + "#1\nb101010101 \"\n", ErrTooWide, "9 bits"},
		{"too wide leading zeros", header + body + "#1\nb000000001 \"\n", ErrTooWide, "9 bits"},
		{"bad timescale number", strings.Replace(header, "1ns", "3ns", 1), ErrTimescale, "3ns"},
		{"bad timescale unit", strings.Replace(header, "1ns", "1 hz", 1), ErrTimescale, "bad unit"},
		{"upscope without scope", strings.Replace(header, "$upscope $end\n", "$upscope $end\n$upscope $end\n", 1), ErrScope, "$upscope without $scope"},
		{"scope left open", strings.Replace(header, "$upscope $end\n", "", 1), ErrScope, "1 scope(s) still open (top)"},
		{"duplicate name", strings.Replace(header, "$upscope", "$var wire 1 % clk $end\n$upscope", 1), ErrDuplicate, `top.clk declared twice, with identifier codes "!" and "%"`},
		{"code redeclared with other width", strings.Replace(header, "$upscope", "$var wire 2 ! clk2 $end\n$upscope", 1), ErrDuplicate, `identifier code "!" declared again`},
		{"unknown keyword", strings.Replace(header, "$upscope", "$foo bar $end\n$upscope", 1), ErrSyntax, `unknown keyword "$foo"`},
		{"unknown body keyword", header + body + "$bar $end\n", ErrSyntax, `unknown keyword "$bar"`},
		{"var after enddefinitions", header + body + "$var wire 1 % late $end\n", ErrDefinitionsEnded, "$var after $enddefinitions"},
		{"var missing end", strings.Replace(header, "$var wire 1 ! clk $end", "$var wire 1 ! clk", 1), ErrSyntax, "$var: want type"},
		{"var bad type", strings.Replace(header, "$var wire 1 ! clk", "$var wyre 1 ! clk", 1), ErrSyntax, `unknown type "wyre"`},
		{"var bad width", strings.Replace(header, "$var wire 1 ! clk", "$var wire one ! clk", 1), ErrWidth, `bad width "one"`},
		{"var zero width", strings.Replace(header, "$var wire 1 ! clk", "$var wire 0 ! clk", 1), ErrWidth, `bad width "0"`},
		{"var huge width", strings.Replace(header, "$var wire 1 ! clk", "$var wire 99999999999 ! clk", 1), ErrWidth, "bad width"},
		{"range mismatch", strings.Replace(header, "[7:0]", "[3:0]", 1), ErrWidth, "range [3:0] has 4 bits but width is 8"},
		{"bad range", strings.Replace(header, "[7:0]", "[7-0]", 1), ErrSyntax, "bad range"},
		{"scope missing name", strings.Replace(header, "$scope module top $end", "$scope module $end", 1), ErrSyntax, "$scope: want kind and name"},
		{"scope bad kind", strings.Replace(header, "$scope module top", "$scope modul top", 1), ErrSyntax, `unknown kind "modul"`},
		{"enddefinitions junk", strings.Replace(header, "$enddefinitions $end", "$enddefinitions x $end", 1), ErrSyntax, "want $end"},
		{"comment without end", header + body + "$comment never closed\n", ErrSyntax, "$comment without $end"},
		{"garbage in header", strings.Replace(header, "$upscope", "hello\n$upscope", 1), ErrSyntax, `unexpected token "hello"`},
		{"garbage in body", header + body + "#1\nhello\n", ErrSyntax, `unexpected token "hello"`},
		{"bad time", header + body + "#1x\n", ErrSyntax, `bad time stamp "#1x"`},
		{"bad bits", header + body + "#1\nb10q1 \"\n", ErrValue, `bad value "b10q1"`},
		{"nine state", header + body + "#1\nb10u1 \"\n", ErrValue, `bad value "b10u1"`},
		{"empty vector", header + body + "#1\nb \"\n", ErrValue, "empty value"},
		{"scalar without id", header + body + "#1\n1\n", ErrSyntax, `value "1" without identifier code`},
		{"vector without id", header + body + "#1\nb1", ErrSyntax, `value "b1" without identifier code`},
		{"real for bits", header + body + "#1\nr1.5 \"\n", ErrKind, "real value \"r1.5\" for a bit variable"},
		{"bits for real", header + body + "#1\nb1 #\n", ErrKind, "bit value \"b1\" for a real variable"},
		{"scalar for string", header + body + "#1\n1$\n", ErrKind, "for a string variable"},
		{"bad real", header + body + "#1\nr1.5.5 #\n", ErrValue, `bad real value "r1.5.5"`},
		{"dumpvars unclosed", header + "#0\n$dumpvars\n0!\n", ErrSyntax, "$dumpvars section without $end"},
		{"stray end", header + body + "$end\n", ErrSyntax, "$end without an open section"},
		{"time in dumpvars", header + "#0\n$dumpvars\n0!\n#1\n$end\n", ErrSyntax, "inside a $dump section"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := readAll(t, c.text, true)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.sentinel)
			assert.Contains(t, err.Error(), c.msg)
			var pe *ParseError
			require.True(t, errors.As(err, &pe))
			assert.Greater(t, pe.Line, 0)
			_, err = readAll(t, c.text, false)
			assert.NoError(t, err, "non-strict mode should tolerate this")
		})
	}
}

func TestReaderErrorLine(t *testing.T) {
	_, err := readAll(t, header+"#0\n1!\n#1\n1?\n", true)
	require.Error(t, err)
	assert.Equal(t, `vcd: line 12: unknown identifier code "?"`, err.Error())
}

func TestReaderNonStrictTolerance(t *testing.T) {
	text := `$timescale 7 ns $end
$scope module top $end
$var wire 4 ! a $end
$var wire 1 " b $end
$var logic 8 # c [7:0] $end
$var mystery 2 % m $end
$attrbegin misc 07 foo 1 $end
#0
b1 !
b101011 !
u"
bx01 #
1?
#5
b11 !
#3
b0 !
#5
1"
`
	d, err := readAll(t, text, false)
	require.NoError(t, err)
	assert.Equal(t, Timescale{7, "ns"}, d.Header.Timescale)
	a := d.Signal("top.a")
	require.NotNil(t, a)
	assert.Equal(t, []Sample{
		{0, Value{Bits: "0001"}},
		{0, Value{Bits: "1011"}}, // over-wide: low bits kept
		{5, Value{Bits: "0011"}},
		{5, Value{Bits: "0000"}}, // #3 after #5 is ignored
	}, a.Changes)
	assert.Equal(t, []Sample{{0, Value{Bits: "u"}}, {5, Value{Bits: "1"}}}, d.Signal("top.b").Changes)
	assert.Equal(t, "xxxxxx01", d.Signal("top.c").Changes[0].Value.Bits)
	m := d.Signal("top.m")
	require.NotNil(t, m)
	assert.Equal(t, Other, m.Kind)
	assert.Equal(t, "mystery", m.KindName)
}

func TestReaderOneByteReads(t *testing.T) {
	data := writeBasic(t)
	whole, err := NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	r := NewReader(iotest.OneByteReader(bytes.NewReader(data)))
	r.Strict = true
	bytewise, err := r.ReadAll()
	require.NoError(t, err)
	assert.Equal(t, whole.Signals, bytewise.Signals)
}

func TestReaderIOError(t *testing.T) {
	r := NewReader(iotest.TimeoutReader(strings.NewReader(header + "#0\n1!\n")))
	_, err := r.ReadAll()
	assert.ErrorIs(t, err, iotest.ErrTimeout)
}

func TestExtend(t *testing.T) {
	assert.Equal(t, "0001", Extend("1", 4))
	assert.Equal(t, "0010", Extend("10", 4))
	assert.Equal(t, "000x", Extend("0x", 4))
	assert.Equal(t, "xxx1", Extend("x1", 4))
	assert.Equal(t, "zzzz", Extend("z", 4))
	assert.Equal(t, "xxxx", Extend("", 4))
	assert.Equal(t, "10101", Extend("10101", 4))
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`plain`:        "plain",
		`a\x20b`:       "a b",
		`\X4A\x4a`:     "JJ",
		`\n\t\r\a\b`:   "\n\t\r\a\b",
		`\f\v\'\"\?\\`: "\f\v'\"?\\",
		`\101\0`:       "A\x00",
		`\q\x4`:        `\q\x4`,
		`end\`:         `end\`,
	} {
		assert.Equal(t, want, unescape([]byte(in)), in)
	}
}

func TestValueString(t *testing.T) {
	assert.Equal(t, "01xz", Value{Bits: "01xz"}.String())
	assert.Equal(t, "1.5", Value{Kind: RealValue, Real: 1.5}.String())
	assert.Equal(t, `"a b"`, Value{Kind: StringValue, Str: "a b"}.String())
	assert.Equal(t, "wire", Wire.String())
	assert.Equal(t, "VarKind(200)", VarKind(200).String())
	ts, err := ParseTimescale(" 100 fs ")
	require.NoError(t, err)
	assert.Equal(t, "100fs", ts.String())
	assert.Equal(t, -15, ts.Exponent())
}
