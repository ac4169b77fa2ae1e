package vcd

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/internal/gtkwtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeSaveBasic writes a save file using every SaveWriter call, for the
// golden file and the GTKWave check. It references basic.vcd's signals.
func writeSaveBasic(t *testing.T, dump string) []byte {
	t.Helper()
	var buf bytes.Buffer
	s := NewSaveWriter(&buf)
	s.Comment("golden save file")
	s.DumpFile(dump)
	s.SaveFile("basic.gtkw")
	s.TimeStart(0)
	s.Size(1200, 600)
	s.Pos(-1, -1)
	s.Zoom(-2, -1)
	s.SignalsWidth(240)
	s.SSTExpanded(false)
	s.TreeOpen("sm_top")
	s.Trace("sm_top.clk", FormatBin)
	s.BeginGroup("vectors", false)
	s.Trace("sm_top.u_warp_sched.g_warp[3].pc_q[31:0]", FormatHex)
	s.TraceAlias("sm_top.u_warp_sched.g_warp[3].pc_q[31:0]", "pc (dec)", FormatDec)
	s.TraceAlias("sm_top.u_warp_sched.state[3:0]", "state (signed)", FormatSigned)
	s.Blank("a label")
	s.BeginGroup("nested, closed", true)
	s.Trace("sm_top.u_warp_sched.mask[3]", FormatBin)
	s.EndGroup()
	s.EndGroup()
	s.Trace("sm_top.opcode", FormatBin)
	s.Trace("sm_top.t.f.k.wide[69:0]", FormatHex|FlagHighlight)
	require.NoError(t, s.Flush())
	return buf.Bytes()
}

func TestSaveWriterGolden(t *testing.T) {
	got := writeSaveBasic(t, "basic.vcd")
	path := filepath.Join("testdata", "basic.gtkw")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "golden file missing: run go test ./vcd -run %s -update", t.Name())
	assert.Equal(t, string(want), string(got), "output differs from %s (go test ./vcd -update to regenerate)", path)
	// The GTKWave flag values, spelled out.
	for _, l := range []string{"@28", "@800200", "@22", "@24", "@420", "@200", "@c00200", "@1028", "@1401200", "@1000200", "@23"} {
		assert.Contains(t, strings.Split(string(got), "\n"), l)
	}
}

func TestSaveWriterErrors(t *testing.T) {
	cases := []struct {
		name string
		f    func(s *SaveWriter) error
	}{
		{"dump path with quote", func(s *SaveWriter) error { return s.DumpFile(`a"b.vcd`) }},
		{"empty dump path", func(s *SaveWriter) error { return s.DumpFile("") }},
		{"comment newline", func(s *SaveWriter) error { return s.Comment("a\nb") }},
		{"trace space", func(s *SaveWriter) error { return s.Trace("top.a b", FormatHex) }},
		{"trace marker", func(s *SaveWriter) error { return s.Trace("-top", FormatHex) }},
		{"trace group flag", func(s *SaveWriter) error { return s.Trace("top.a", FlagGroupBegin) }},
		{"alias brace", func(s *SaveWriter) error { return s.TraceAlias("top.a", "x}", FormatHex) }},
		{"end without begin", func(s *SaveWriter) error { return s.EndGroup() }},
		{"open group at flush", func(s *SaveWriter) error { s.BeginGroup("g", false); return s.Flush() }},
		{"bad size", func(s *SaveWriter) error { return s.Size(0, 10) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			s := NewSaveWriter(&buf)
			err := c.f(s)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrSaveFile), "%v", err)
			// Sticky.
			assert.Equal(t, err, s.Trace("top.x", FormatHex))
			assert.Equal(t, err, s.Flush())
		})
	}
}

func TestSaveWriterWriteError(t *testing.T) {
	s := NewSaveWriter(errWriter{})
	for i := 0; i < 1000; i++ {
		s.Trace("top.some_long_signal_name[31:0]", FormatHex)
	}
	assert.Error(t, s.Flush())
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestGTKWaveName(t *testing.T) {
	// What GTKWave 3.3 lists for these declarations (checked with
	// gtkwave::getFacName; see TestGTKWaveLoadsSaveFile).
	src := `$timescale 1ns $end
$scope module top $end
$var wire 8 ! a $end
$var wire 1 " b [3] $end
$var reg 4 # c [4:1] $end
$var string 1 $ s $end
$var real 64 % r $end
$var integer 32 & i $end
$var wire 1 ' clk $end
$scope module g[2] $end
$var wire 32 ( pc [31:0] $end
$upscope $end
$upscope $end
$enddefinitions $end
`
	h, err := NewReader(strings.NewReader(src)).Header()
	require.NoError(t, err)
	var got []string
	for _, v := range h.Vars {
		got = append(got, v.GTKWaveName())
	}
	assert.Equal(t, []string{"top.a[7:0]", "top.b[3]", "top.c[4:1]", "top.s", "top.r", "top.i", "top.clk", "top.g[2].pc[31:0]"}, got)
}

// TestGTKWaveLoadsSaveFile opens basic.vcd with the golden save file in
// GTKWave (under a virtual X server) and checks, through GTKWave's Tcl
// interface, that every trace was found with the flags written. It needs
// xvfb-run and gtkwave (scripts/deps.sh, run by make test); it fails
// without them.
func TestGTKWaveLoadsSaveFile(t *testing.T) {
	dir := t.TempDir()
	dump, err := filepath.Abs(filepath.Join("testdata", "basic.vcd"))
	require.NoError(t, err)
	save := filepath.Join(dir, "basic.gtkw")
	require.NoError(t, os.WriteFile(save, writeSaveBasic(t, dump), 0o644))
	list := gtkwtest.Traces(t, save, gtkwtest.NameFlags)
	// GTKWave shows names without their scopes and groups by their names.
	want := `clk 28
vectors 800200
pc_q[31:0] 22
pc (dec) 24
state (signed) 420
a label 200
nested, closed c00200
mask[3] 1028
nested, closed 1401200
vectors 1000200
opcode 28
wide[69:0] 23
`
	assert.Equal(t, want, list)
}
