package pipeline

import (
	"math"
	"math/rand"
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

// min/max .NaN and .xorsign.abs (PTX ISA 9.7.3.10-11, 9.7.4.7-8): with
// .NaN a NaN operand gives NaN, without it the other operand; -0 is below
// +0; .xorsign.abs compares magnitudes and gives the result the XOR of
// the operands' signs. Each lane's expected halves and words are chosen
// here from the operands by those rules.
func TestMinMaxNaNXorsign(t *testing.T) {
	src := kernel(`
	mul.wide.u32 %rd4, %r1, 16;
	add.s64 %rd5, %rd1, %rd4;
	ld.global.v2.u32 {%r3, %r4}, [%rd5];
	min.NaN.f32 %r5, %r3, %r4;
	max.xorsign.abs.f32 %r6, %r3, %r4;
	min.xorsign.abs.f16x2 %r7, %r3, %r4;
	max.NaN.bf16x2 %r8, %r3, %r4;
	st.global.v4.u32 [%rd5], {%r5, %r6, %r7, %r8};
	ret;`)
	r := rand.New(rand.NewSource(5))
	const n = 64
	in := make([]uint32, 4*n)
	specials := []uint32{0, 0x80000000, 0x7fc00000, 0x3f800000, 0xbf800000, 0x7e007e00, 0x80008000}
	for i := 0; i < n; i++ {
		for k := 0; k < 2; k++ {
			v := r.Uint32() &^ 0x40004000 // mostly moderate exponents
			if r.Intn(4) == 0 {
				v = specials[r.Intn(len(specials))]
			}
			in[4*i+k] = v
		}
	}
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{n, 1, 1}, Buffers: []Buffer{{Param: "out", Size: 16 * n, Init: words32(in)}}})
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	// pick returns the operand min (or max) selects, by value (-0 < +0).
	pick := func(x, y float64, bx, by uint32, max bool) uint32 {
		switch {
		case x == y && x == 0:
			if math.Signbit(x) != max {
				return bx
			}
			return by
		case x < y != max:
			return bx
		}
		return by
	}
	for i := 0; i < n; i++ {
		a, b := in[4*i], in[4*i+1]
		fa, fb := float64(math.Float32frombits(a)), float64(math.Float32frombits(b))
		got := out[4*i : 4*i+4]
		// min.NaN.f32
		if fa != fa || fb != fb {
			if g := math.Float32frombits(got[0]); g == g {
				t.Errorf("lane %d: min.NaN.f32(%#x, %#x) = %#x, want NaN", i, a, b, got[0])
			}
		} else if w := pick(fa, fb, a, b, false); got[0] != w {
			t.Errorf("lane %d: min.NaN.f32(%#x, %#x) = %#x, want %#x", i, a, b, got[0], w)
		}
		// max.xorsign.abs.f32 (NaN operands not checked)
		if fa == fa && fb == fb {
			w := pick(math.Abs(fa), math.Abs(fb), a&^(1<<31), b&^(1<<31), true) | (a^b)&(1<<31)
			if got[1] != w {
				t.Errorf("lane %d: max.xorsign.abs.f32(%#x, %#x) = %#x, want %#x", i, a, b, got[1], w)
			}
		}
		for h := 0; h < 2; h++ {
			sh := uint(16 * h)
			ha, hb := a>>sh&0xffff, b>>sh&0xffff
			// min.xorsign.abs.f16x2
			xa, xb := halfVal(ha, false), halfVal(hb, false)
			if xa == xa && xb == xb {
				w := pick(math.Abs(xa), math.Abs(xb), ha&0x7fff, hb&0x7fff, false) | (ha^hb)&0x8000
				if g := got[2] >> sh & 0xffff; g != w {
					t.Errorf("lane %d half %d: min.xorsign.abs.f16(%#x, %#x) = %#x, want %#x", i, h, ha, hb, g, w)
				}
			}
			// max.NaN.bf16x2
			ya, yb := halfVal(ha, true), halfVal(hb, true)
			g := got[3] >> sh & 0xffff
			if ya != ya || yb != yb {
				if v := halfVal(g, true); v == v {
					t.Errorf("lane %d half %d: max.NaN.bf16(%#x, %#x) = %#x, want NaN", i, h, ha, hb, g)
				}
			} else if w := pick(ya, yb, ha, hb, true); g != w {
				t.Errorf("lane %d half %d: max.NaN.bf16(%#x, %#x) = %#x, want %#x", i, h, ha, hb, g, w)
			}
		}
	}
}

// atom.add.noftz.f16x2 and .bf16x2 (PTX ISA 9.7.13.4: CUDA's atomicAdd on
// __half2 and __nv_bfloat162): 64 threads add (1.0, 0.5) and (0.25, 2)
// to one word each; the sums are exact in both formats.
func TestAtomAddHalf2(t *testing.T) {
	src := kernel(`
	atom.global.add.noftz.f16x2 %r3, [%rd1], 0x3c003800;
	atom.global.add.noftz.bf16x2 %r4, [%rd1+4], 0x3e804000;
	ret;`)
	out := runOut(t, src, 64, 2)
	// f16: 64*1.0 = 64 (0x5400) high, 64*0.5 = 32 (0x5000) low;
	// bf16: 64*0.25 = 16 (0x4180) high, 64*2 = 128 (0x4300) low.
	if out[0] != 0x5400_5000 || out[1] != 0x4180_4300 {
		t.Errorf("sums %#x %#x, want 0x54005000 0x41804300", out[0], out[1])
	}
}

// cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32 (PTX ISA 9.7.9.21): the f32
// rounded to 10 fraction bits (the low 13 bits of the result zero); the
// expected values are computed here in float64: x scaled by its quantum,
// rounded (away from zero on ties, to even, toward zero), scaled back,
// infinite beyond the f32 range (or, with .satfinite, the largest finite
// tf32), negative results +0 with .relu.
func TestCvtTF32(t *testing.T) {
	src := kernel(`
	ld.global.u32 %r3, [%rd3];
	cvt.rna.tf32.f32 %r4, %r3;
	cvt.rn.tf32.f32 %r5, %r3;
	cvt.rz.satfinite.tf32.f32 %r6, %r3;
	cvt.rna.satfinite.relu.tf32.f32 %r7, %r3;
	st.global.u32 [%rd3+256], %r4;
	st.global.u32 [%rd3+512], %r5;
	st.global.u32 [%rd3+768], %r6;
	st.global.u32 [%rd3+1024], %r7;
	ret;`)
	const n = 64
	in := []uint32{0, 0x80000000, 0x3f800000, 0x3f801000, 0x3f803000, 0x3f802000, 0xbf801000,
		0x7f7fffff, 0xff7ff000, 0x7f800000, 0x00001000, 0x00000fff, 0x3effffff, 0xc0000fff}
	r := rand.New(rand.NewSource(32))
	for len(in) < n {
		in = append(in, r.Uint32()&^0x40000000|uint32(r.Intn(2))<<30)
	}
	buf := make([]uint32, 5*n)
	copy(buf, in)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{n, 1, 1}, Buffers: []Buffer{{Param: "out", Size: 4 * 5 * n, Init: words32(buf)}}})
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	maxTF32 := (2 - math.Ldexp(1, -10)) * math.Ldexp(1, 127)
	round := func(x float64, mode string, sat, relu bool) uint32 {
		if x != x {
			return 0x7fffffff
		}
		v := x
		if !math.IsInf(x, 0) && x != 0 {
			_, e := math.Frexp(x)
			q := math.Ldexp(1, max(e-1, -126)-10)
			m := x / q
			switch mode {
			case "rna":
				m = math.Round(m)
			case "rn":
				m = math.RoundToEven(m)
			default:
				m = math.Trunc(m)
			}
			v = m * q
			if math.Abs(v) >= math.Ldexp(1, 128) {
				v = math.Inf(int(math.Copysign(1, x)))
			}
		}
		if sat && math.IsInf(v, 0) {
			v = math.Copysign(maxTF32, v)
		}
		if relu && math.Signbit(v) {
			v = 0
		}
		return math.Float32bits(float32(v))
	}
	for i, x := range in {
		f := float64(math.Float32frombits(x))
		want := []uint32{round(f, "rna", false, false), round(f, "rn", false, false), round(f, "rz", true, false), round(f, "rna", true, true)}
		for k, w := range want {
			if got := out[n*(k+1)+i]; got != w {
				t.Errorf("x=%#08x form %d: %#08x, want %#08x", x, k, got, w)
			}
		}
	}
}
