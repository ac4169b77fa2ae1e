package pipeline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLowPrecision runs lowprec.cu (inline asm: f16x2, bf16x2, bf16 and
// f16 arithmetic, setp, and the conversions among f32, f16, bf16, e4m3
// and e5m2, cvt.pack.sat) and compares every word with
// testdata/isa16/lowprec_ref.txt, which lowprec_ref.py computes with exact
// rational arithmetic and IEEE 754 rounding into each format (PTX ISA
// 9.7.4 and 9.7.9.21: the x2 forms work on both halves; cvt to f16x2 or
// bf16x2 and to e4m3x2/e5m2x2 put the converted a in the upper half;
// .satfinite clamps to the largest finite value, .relu clamps negative
// results to +0; e4m3x2/e5m2x2 conversions are .rn.satfinite).
func TestLowPrecision(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "isa16", "lowprec_ref.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var in []uint32
	var want [][]uint32
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 45 {
			t.Fatalf("bad reference line %q", line)
		}
		var ws []uint32
		for _, s := range f {
			v, err := strconv.ParseUint(s, 16, 32)
			if err != nil {
				t.Fatal(err)
			}
			ws = append(ws, uint32(v))
		}
		in = append(in, ws[0])
		want = append(want, ws[1:])
	}
	n := len(in)
	rep := runKernelFile(t, "lowprec", Launch{Block: [3]uint32{uint32(n), 1, 1}, Buffers: []Buffer{
		{Param: "lowprec_param_0", Size: 4 * 44 * n},
		{Param: "lowprec_param_1", Size: 4 * n, Init: words32(in)},
	}})
	out := rep.Buffers["lowprec_param_0"]
	bad := 0
	for i := range want {
		for k, w := range want[i] {
			if got := out[44*i+k]; got != w {
				bad++
				if bad <= 40 {
					t.Errorf("thread %d (x=%#08x) word %d: %#x, want %#x", i, in[i], k, got, w)
				}
			}
		}
	}
	if bad > 40 {
		t.Errorf("%d words differ", bad)
	}
}
