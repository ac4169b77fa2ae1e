package vcd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gtkwaveTool returns the path of one of GTKWave's command-line tools. They
// are a real dependency of the test suite (scripts/deps.sh installs the
// gtkwave package for `make test`), so a missing tool fails the test.
func gtkwaveTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if _, serr := os.Stat("/usr/bin/" + name); serr == nil {
			return "/usr/bin/" + name
		}
		t.Fatalf("%s not found (%v): it is part of GTKWave; install it with `make deps` (scripts/deps.sh) or `apt-get install gtkwave`", name, err)
	}
	return p
}

// TestGTKWaveVcd2fst converts files written by the Writer to FST with
// GTKWave's vcd2fst, then back with fst2vcd, and checks that GTKWave saw
// the same waveforms: every signal, value and time.
func TestGTKWaveVcd2fst(t *testing.T) {
	vcd2fst := gtkwaveTool(t, "vcd2fst")
	fst2vcd := gtkwaveTool(t, "fst2vcd")
	random, _, _ := writeRandom(t, 3, false) // GTKWave's strings end at NUL
	files := map[string][]byte{"basic": writeBasic(t), "bench": benchFile(t, 300), "random": random}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, name+".vcd")
			out := filepath.Join(dir, name+".fst")
			require.NoError(t, os.WriteFile(in, data, 0o644))
			cmd := exec.Command(vcd2fst, in, out)
			msg, err := cmd.CombinedOutput()
			require.NoError(t, err, "vcd2fst %s %s failed: %s", in, out, msg)
			st, err := os.Stat(out)
			require.NoError(t, err, "vcd2fst wrote no .fst: %s", msg)
			assert.Greater(t, st.Size(), int64(0), "empty .fst")

			back, err := exec.Command(fst2vcd, out).Output()
			require.NoError(t, err, "fst2vcd %s", out)
			res, err := Diff(bytes.NewReader(data), bytes.NewReader(back), DiffOptions{ReportMissing: true, RealTolerance: 1e-15}) // fst2vcd prints reals with %.16g
			require.NoError(t, err)
			assert.True(t, res.Equal, "GTKWave read back different waveforms: %d differences, first %v, only in ours %v, only in GTKWave's %v",
				res.Count, res.First, res.OnlyInA, res.OnlyInB)
			assert.Greater(t, res.Compared, 0)
		})
	}
}
