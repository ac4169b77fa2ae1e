package vcd

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// benchScript is a precomputed workload: 200 signals (50 1-bit, 100
// 32-bit, 50 8-bit), about 30% of which change at each time step.
type benchScript struct {
	widths []int
	steps  [][]benchChange
}

type benchChange struct {
	id ID
	v  uint64
}

func newBenchScript(nsteps int) *benchScript {
	rng := rand.New(rand.NewPCG(7, 11))
	s := &benchScript{}
	for i := 0; i < 200; i++ {
		switch {
		case i < 50:
			s.widths = append(s.widths, 1)
		case i < 150:
			s.widths = append(s.widths, 32)
		default:
			s.widths = append(s.widths, 8)
		}
	}
	for st := 0; st < nsteps; st++ {
		var step []benchChange
		for id, w := range s.widths {
			if rng.IntN(10) < 3 {
				step = append(step, benchChange{ID(id), rng.Uint64() & (1<<uint(w) - 1)})
			}
		}
		s.steps = append(s.steps, step)
	}
	return s
}

// run writes the whole workload to out and returns the Writer's error.
func (s *benchScript) run(out io.Writer) error {
	w := NewWriter(out)
	w.Scope(ScopeModule, "sm_top")
	for i, width := range s.widths {
		if i%50 == 0 {
			if i > 0 {
				w.Upscope()
			}
			w.Scope(ScopeModule, "u"+strconv.Itoa(i/50))
		}
		w.Register(Wire, width, "s"+strconv.Itoa(i))
	}
	w.Upscope()
	w.Upscope()
	for t, step := range s.steps {
		w.SetTime(uint64(t) * 10)
		for _, c := range step {
			w.SetUint(c.id, c.v)
		}
	}
	return w.Close()
}

func benchFile(t testing.TB, nsteps int) []byte {
	var b bytes.Buffer
	if err := newBenchScript(nsteps).run(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// BenchmarkWriter measures the Writer's throughput in MB/s of VCD text for
// the benchScript mix; one iteration writes 1000 time steps (about 1.3 MB).
// Besides the wall-clock MB/s it reports cpu-MB/s, the throughput per
// second of process CPU time, which stays meaningful on a loaded machine
// (run it with GOMAXPROCS=1 so that only this benchmark's thread counts,
// plus the garbage collector's share).
func BenchmarkWriter(b *testing.B) {
	s := newBenchScript(1000)
	var cw countWriter
	if err := s.run(&cw); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(cw.n)
	b.ReportAllocs()
	n := 0
	var cpu0 time.Duration
	for b.Loop() {
		if n == 0 {
			cpu0 = processCPU()
		}
		n++
		if err := s.run(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	if cpu := processCPU() - cpu0; cpu > 0 && cpu0 > 0 {
		b.ReportMetric(float64(cw.n)*float64(n)/cpu.Seconds()/1e6, "cpu-MB/s")
	}
}

// BenchmarkReader measures the streaming Reader on the same file.
func BenchmarkReader(b *testing.B) {
	data := benchFile(b, 1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(data))
		r.Strict = true
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
