package pipeline

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// mufuRow is one line of testdata/isa16/mufu_ref.txt (mufu_ref.py, mpmath
// at 60 digits): an input and the reference values of its functions, of
// the input itself and of the input flushed to zero when subnormal.
type mufuRow struct {
	x        uint32
	ref, ftz [9]float64
}

const (
	refEx2 = iota
	refLg2
	refSin
	refCos
	refRsqrt
	refTanh
	refExpf // 2^(f32(x * f32(log2 e))): __expf's ex2
	refRsqrtHi
	refRcpHi
)

func readMufuRef(t *testing.T) []mufuRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "isa16", "mufu_ref.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []mufuRow
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 20 || f[10] != ";" {
			t.Fatalf("bad reference line %q", line)
		}
		var r mufuRow
		x, err := strconv.ParseUint(f[0], 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		r.x = uint32(x)
		for k := 0; k < 9; k++ {
			if r.ref[k], err = strconv.ParseFloat(f[1+k], 64); err != nil {
				t.Fatal(err)
			}
			if r.ftz[k], err = strconv.ParseFloat(f[11+k], 64); err != nil {
				t.Fatal(err)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// TestTranscendentals runs mufu.cu (clang-16: __nvvm_*_approx builtins,
// inline asm for tanh, testp, copysign and rsqrt.approx.ftz.f64) and holds
// every output word to the PTX ISA (9.7.3.13-22):
//   - ex2: "The maximum ulp error is 2 ulp from correctly rounded result
//     across the full range of inputs."
//   - lg2: "The maximum absolute error is 2^-22 when the input operand is
//     in the range (0.5, 2). For positive finite inputs outside of this
//     interval, maximum relative error is 2^-22."
//   - sin, cos: maximum absolute error 2^-20.5 in [-2pi, 2pi], 2^-14.7 in
//     [-100pi, +100pi]; "Outside of the range [-100pi .. +100pi], only
//     best effort is provided."
//   - rsqrt: "The maximum relative error for rsqrt.f32 over the entire
//     positive finite floating-point range is 2^-22.9." The ISA states no
//     bound for rsqrt.approx.f64; it is held to the same one.
//   - tanh: "The maximum relative error over the entire floating point
//     range is 2^-11"; subnormal inputs pass through.
//   - rsqrt.approx.ftz.f64 and rcp.approx.ftz.f64: the function of the
//     upper word of a (1.11.20 format) in the upper word of d, the lower
//     word zero, so a relative error below 2^-20; NaNs give the canonical
//     NaN 0x7fffffff00000000.
//   - .ftz: "flushes subnormal inputs and results to sign-preserving
//     zero"; special inputs give the ISA's tables.
func TestTranscendentals(t *testing.T) {
	rows := readMufuRef(t)
	n := len(rows)
	in := make([]uint32, n)
	for i, r := range rows {
		in[i] = r.x
	}
	rep := runKernelFile(t, "mufu", Launch{Block: [3]uint32{uint32(n), 1, 1}, Buffers: []Buffer{
		{Param: "mufu_param_0", Size: 4 * 18 * n},
		{Param: "mufu_param_1", Size: 8 * 32},
		{Param: "mufu_param_2", Size: 4 * n, Init: words32(in)},
	}})
	out, out2 := rep.Buffers["mufu_param_0"], rep.Buffers["mufu_param_1"]
	for i, r := range rows {
		x := f32(r.x)
		sub := r.x&0x7fff_ffff != 0 && r.x&0x7f80_0000 == 0
		word := func(k int) uint32 { return out[k*n+i] }
		fail := func(k int, what string, got uint32, ref float64) {
			t.Errorf("x=%#08x (%g) word %d %s: got %#08x (%g), reference %g", r.x, x, k, what, got, f32(got), ref)
		}
		for k, ftz := range []bool{false, true} {
			refs := &r.ref
			if ftz {
				refs = &r.ftz
			}
			// ex2, and __expf's ex2 of the rounded product (an .ftz form).
			if ftz {
				if got := word(11); !ulpsOK(got, refs[refExpf], true, 2) {
					fail(11, "__expf", got, refs[refExpf])
				}
			}
			if got := word(0 + k); !ulpsOK(got, refs[refEx2], ftz, 2) {
				fail(k, "ex2", got, refs[refEx2])
			}
			if got, ref := word(2+k), refs[refLg2]; !specialOK(got, ref) {
				fail(2+k, "lg2", got, ref)
			} else if xx := math.Abs(x); !math.IsInf(ref, 0) && ref == ref {
				tol := math.Ldexp(1, -22)
				if xx <= 0.5 || xx >= 2 {
					tol *= math.Abs(ref)
				}
				if math.Abs(f32(got)-ref) > tol {
					fail(2+k, "lg2", got, ref)
				}
			}
			for j, name := range []string{"sin", "cos"} {
				got, ref := word(4+2*j+k), refs[refSin+j]
				switch {
				case !specialOK(got, ref):
					fail(4+2*j+k, name, got, ref)
				case j == 0 && (x == 0 || ftz && sub):
					// sin(±0) = ±0 (flushed subnormals included).
					want := r.x & 0x8000_0000
					if !ftz && sub {
						want = r.x
					}
					if got != want {
						fail(4+k, name, got, ref)
					}
				case ref != ref:
				case math.Abs(x) <= 2*math.Pi:
					if math.Abs(f32(got)-ref) > math.Pow(2, -20.5) {
						fail(4+2*j+k, name, got, ref)
					}
				case math.Abs(x) <= 100*math.Pi:
					if math.Abs(f32(got)-ref) > math.Pow(2, -14.7) {
						fail(4+2*j+k, name, got, ref)
					}
				case math.Abs(f32(got)) > 1:
					fail(4+2*j+k, name, got, ref)
				}
			}
			if got, ref := word(8+k), refs[refRsqrt]; !relOK(f32(got), ref, math.Pow(2, -22.9)) {
				fail(8+k, "rsqrt", got, ref)
			}
		}
		if got, ref := word(10), r.ref[refTanh]; !relOK(f32(got), ref, math.Pow(2, -11)) || sub && got != r.x {
			fail(10, "tanh", got, ref)
		}
		if got, want := word(12), in[n-1-i]&0x7fff_ffff|r.x&0x8000_0000; got != want {
			t.Errorf("x=%#08x copysign: %#08x, want %#08x", r.x, got, want)
		}
		var tp uint32
		for b, p := range []bool{
			!math.IsInf(x, 0) && x == x, math.IsInf(x, 0), x == x, x != x,
			x == x && !math.IsInf(x, 0) && !sub, sub,
		} {
			if p {
				tp |= 1 << b
			}
		}
		if got := word(13); got != tp {
			t.Errorf("x=%#08x testp bits %06b, want %06b", r.x, got, tp)
		}
		f64at := func(w []uint32, k int) uint64 { return uint64(w[k]) | uint64(w[k+1])<<32 }
		if got, ref := f64at(out, 14*n+2*i), r.ref[refRsqrt]; !relOK(math.Float64frombits(got), ref, math.Pow(2, -22.9)) {
			t.Errorf("x=%#08x rsqrt.approx.f64: %#x (%g), reference %g", r.x, got, math.Float64frombits(got), ref)
		}
		hiOK := func(got uint64, ref float64) bool {
			if ref != ref {
				return got == 0x7fffffff00000000
			}
			return uint32(got) == 0 && relOK(math.Float64frombits(got), ref, math.Ldexp(1, -20))
		}
		if got, ref := f64at(out, 16*n+2*i), r.ref[refRsqrtHi]; !hiOK(got, ref) {
			t.Errorf("x=%#08x rsqrt.approx.ftz.f64: %#x (%g), reference %g", r.x, got, math.Float64frombits(got), ref)
		}
		if i < 32 {
			if got, ref := f64at(out2, 2*i), r.ref[refRcpHi]; !hiOK(got, ref) {
				t.Errorf("x=%#08x rcp.approx.ftz.f64: %#x (%g), reference %g", r.x, got, math.Float64frombits(got), ref)
			}
		}
	}
}

// specialOK checks NaN and infinite references exactly (any NaN; an
// infinity of the reference's sign).
func specialOK(got uint32, ref float64) bool {
	g := f32(got)
	switch {
	case ref != ref:
		return g != g
	case math.IsInf(ref, 0):
		return g == ref
	}
	return g == g && !math.IsInf(g, 0)
}

// relOK is |got - ref| <= tol * |ref|, with NaN, infinities and zeros of
// the reference matched exactly (a zero's sign included).
func relOK(got, ref, tol float64) bool {
	switch {
	case ref != ref:
		return got != got
	case math.IsInf(ref, 0) || ref == 0:
		return got == ref && math.Signbit(got) == math.Signbit(ref)
	}
	return math.Abs(got-ref) <= tol*math.Abs(ref)
}

// ulpsOK is within n ulps of the reference rounded to nearest f32 (with
// ftz, a subnormal rounded reference is +0 and the result must be zero).
func ulpsOK(got uint32, ref float64, ftz bool, n uint64) bool {
	ref = float64(float32(ref)) // beyond the f32 range: the rounded reference is infinite
	if !specialOK(got, ref) {
		return false
	}
	if ref != ref || math.IsInf(ref, 0) {
		return true
	}
	want := math.Float32bits(float32(ref))
	if ftz && want&0x7f80_0000 == 0 {
		return got&0x7fff_ffff == 0
	}
	return ulpDist(got, want) <= n
}
