// Package cosimbench measures cosimulation throughput per unit and
// parameter set, in cycles per second, three ways in the same run:
//
//   - go: the Go unit alone (its Eval and Tick through the wire codec, on
//     pre-generated input records);
//   - rtl: the Verilated unit alone (the harness's --replay mode: the same
//     records, no socket, timed inside the harness);
//   - lockstep: both in lockstep through the socket, batched, comparing
//     every output and register every cycle (cosim.RunSession, the
//     stimulus generated on the fly).
//
// Run bench/cosim/run.sh for the table: it checks the target, lockstep at
// a quarter or more of the slower side's speed (a measurement, kept out of
// `make test`, where a loaded machine would make it flaky).
package cosimbench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/cosim"
)

// records generates n input records of the unit's random stimulus.
func records(u cosim.Unit, n int) []byte {
	l := u.Layout()
	st := u.NewRandom(1)
	b := make([]byte, n*l.InBytes)
	for i := 0; i < n; i++ {
		st.Next(b[i*l.InBytes:])
	}
	return b
}

// goRate runs the Go model alone over n cycles.
func goRate(u cosim.Unit, in []byte) (float64, error) {
	l := u.Layout()
	m, err := u.NewModel()
	if err != nil {
		return 0, err
	}
	m.Reset()
	out := make([]byte, l.OutBytes)
	n := len(in) / l.InBytes
	t0 := time.Now()
	for i := 0; i < n; i++ {
		m.Cycle(in[i*l.InBytes:(i+1)*l.InBytes], out)
	}
	return float64(n) / time.Since(t0).Seconds(), nil
}

// rtlRate runs the Verilated unit alone on the records (harness
// --replay, timed inside the harness).
func rtlRate(ctx context.Context, u cosim.Unit, in []byte, dir string) (float64, error) {
	bin, err := cosim.Build(ctx, u, cosim.HarnessOptions{})
	if err != nil {
		return 0, err
	}
	f := filepath.Join(dir, "stimulus.bin")
	if err := os.WriteFile(f, in, 0o644); err != nil {
		return 0, err
	}
	out, err := exec.CommandContext(ctx, bin, "--replay", f).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%s --replay: %v: %s", bin, err, out)
	}
	// cycles N ns T cycles_per_s R
	fs := strings.Fields(string(out))
	if len(fs) != 6 || fs[0] != "cycles" || fs[4] != "cycles_per_s" {
		return 0, fmt.Errorf("unexpected replay output %q", out)
	}
	if want := strconv.Itoa(len(in) / u.Layout().InBytes); fs[1] != want {
		return 0, fmt.Errorf("the harness replayed %s cycles of %s", fs[1], want)
	}
	return strconv.ParseFloat(fs[5], 64)
}

// lockstepRate runs n cycles in lockstep on a started session.
func lockstepRate(ctx context.Context, s *cosim.Session, n int) (float64, error) {
	u := s.Unit()
	res, err := cosim.RunSession(ctx, s, func() cosim.Stimulus { return u.NewRandom(1) }, cosim.Options{Cycles: uint64(n)})
	if err != nil {
		return 0, err
	}
	if res.Cycles != uint64(n) {
		return 0, fmt.Errorf("lockstep compared %d cycles of %d", res.Cycles, n)
	}
	return res.Rate(), nil
}

func units(tb testing.TB) []cosim.Unit {
	var us []cosim.Unit
	for _, info := range cosim.Units() {
		sets, err := info.Sets()
		if err != nil {
			tb.Fatal(err)
		}
		us = append(us, sets...)
	}
	return us
}

func name(u cosim.Unit) string {
	return u.Module() + "/" + strings.ReplaceAll(cosim.ParamString(u.Params()), " ", ",")
}

// BenchmarkCosim: b.N cycles per unit and parameter set, each way; the
// cycles/s metric is the figure to read.
func BenchmarkCosim(b *testing.B) {
	ctx := context.Background()
	for _, u := range units(b) {
		b.Run(name(u)+"/go", func(b *testing.B) {
			in := records(u, b.N)
			b.ResetTimer()
			r, err := goRate(u, in)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(r, "cycles/s")
		})
		b.Run(name(u)+"/rtl", func(b *testing.B) {
			in := records(u, b.N)
			b.ResetTimer()
			r, err := rtlRate(ctx, u, in, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(r, "cycles/s")
		})
		b.Run(name(u)+"/lockstep", func(b *testing.B) {
			s, err := cosim.Start(ctx, u, cosim.HarnessOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			b.ResetTimer()
			r, err := lockstepRate(ctx, s, b.N)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(r, "cycles/s")
		})
	}
}

// TestMeasurementsRun runs the three measurements of BenchmarkCosim
// briefly on every unit, so that the benchmark keeps working: each must
// complete and count cycles (the speeds themselves are bench/cosim/run.sh's
// to judge, not a unit test's).
func TestMeasurementsRun(t *testing.T) {
	ctx := context.Background()
	const n = 2000
	for _, u := range units(t) {
		t.Run(name(u), func(t *testing.T) {
			in := records(u, n)
			g, err := goRate(u, in)
			if err != nil {
				t.Fatal(err)
			}
			r, err := rtlRate(ctx, u, in, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			s, err := cosim.Start(ctx, u, cosim.HarnessOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			l, err := lockstepRate(ctx, s, n)
			if err != nil {
				t.Fatal(err)
			}
			if !(g > 0 && r > 0 && l > 0) {
				t.Fatalf("rates go %v, rtl %v, lockstep %v cycles/s: each must be positive", g, r, l)
			}
		})
	}
}
