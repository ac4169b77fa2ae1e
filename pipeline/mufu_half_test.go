package pipeline

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// halfVal is the value of 16-bit float bits: f16 by its fields, bf16 as
// the upper half of an f32.
func halfVal(b uint32, bf bool) float64 {
	b &= 0xffff
	if bf {
		return float64(math.Float32frombits(b << 16))
	}
	sign := 1.0
	if b&0x8000 != 0 {
		sign = -1
	}
	e, m := int(b>>10&0x1f), float64(b&0x3ff)
	switch e {
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	case 0:
		return sign * math.Ldexp(m, -24)
	}
	return sign * math.Ldexp(m+1024, e-25)
}

// TestHalfTranscendentals runs ex2.approx.f16x2, ex2.approx.ftz.bf16x2,
// tanh.approx.f16x2 and tanh.approx.bf16x2 (and the scalar forms on the
// lower halves) over the inputs of testdata/isa16/halfmufu_ref.txt
// (mpmath references) and holds every half to the PTX ISA (9.7.4.9-10):
// "The maximum relative error for .f16 type is 2^-9.9. The maximum
// relative error for .bf16 type is 2^-7" (ex2) and "The maximum absolute
// error for .f16 type is 2^-10.987. The maximum absolute error for .bf16
// type is 2^-8" (tanh); infinities, NaN, zeros and results outside the
// format's normal range (where a relative bound cannot hold) must be the
// reference rounded to the format, within one unit of its last place;
// ex2.approx.ftz.bf16 flushes subnormal inputs and results.
func TestHalfTranscendentals(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "isa16", "halfmufu_ref.txt"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		bits      uint32
		ex2, tanh float64
	}
	var f16, bf16 []row
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		b, err1 := strconv.ParseUint(f[1], 16, 16)
		e, err2 := strconv.ParseFloat(f[2], 64)
		th, err3 := strconv.ParseFloat(f[3], 64)
		if len(f) != 4 || err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("bad reference line %q", line)
		}
		r := row{uint32(b), e, th}
		if f[0] == "f16" {
			f16 = append(f16, r)
		} else {
			bf16 = append(bf16, r)
		}
	}
	n := len(f16) / 2
	in := make([]uint32, 2*n)
	for i := 0; i < n; i++ {
		in[i] = f16[2*i].bits | f16[2*i+1].bits<<16
		in[n+i] = bf16[2*i].bits | bf16[2*i+1].bits<<16
	}
	src := `.visible .entry k(.param .u64 out, .param .u64 in)
{
	.reg .b32 %r<20>;
	.reg .b16 %h<12>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	ld.param.u64 %rd2, [in];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd2, %rd3;
	ld.global.u32 %r2, [%rd4];
	ld.global.u32 %r3, [%rd4+` + strconv.Itoa(4*n) + `];
	ex2.approx.f16x2 %r4, %r2;
	tanh.approx.f16x2 %r5, %r2;
	ex2.approx.ftz.bf16x2 %r6, %r3;
	tanh.approx.bf16x2 %r7, %r3;
	mov.b32 {%h1, %h2}, %r2;
	mov.b32 {%h3, %h4}, %r3;
	ex2.approx.f16 %h5, %h1;
	tanh.approx.f16 %h6, %h1;
	ex2.approx.ftz.bf16 %h7, %h3;
	tanh.approx.bf16 %h8, %h3;
	mov.b32 %r8, {%h5, %h6};
	mov.b32 %r9, {%h7, %h8};
	mul.wide.u32 %rd5, %r1, 24;
	add.s64 %rd6, %rd1, %rd5;
	st.global.v2.u32 [%rd6], {%r4, %r5};
	st.global.v2.u32 [%rd6+8], {%r6, %r7};
	st.global.v2.u32 [%rd6+16], {%r8, %r9};
	ret;
}
`
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{uint32(n), 1, 1}, Buffers: []Buffer{
		{Param: "out", Size: 24 * n}, {Param: "in", Size: 8 * n, Init: words32(in)}}})
	rep := runSM(t, sm)
	wantCompleted(t, rep)
	out := rep.Buffers["out"]
	check := func(what string, r row, got uint32, bf, ex2 bool) {
		g := halfVal(got, bf)
		ref := r.tanh
		if ex2 {
			ref = r.ex2
		}
		prec, emin := 11, -14
		if bf {
			prec, emin = 8, -126
		}
		ok := false
		minNormal := math.Ldexp(1, emin)
		switch {
		case ref != ref:
			ok = g != g
		case math.IsInf(ref, 0) || ref == 0:
			ok = g == ref
		case ex2 && math.Abs(ref) >= minNormal && math.Abs(ref) < math.Ldexp(2, -emin+1):
			bound := math.Pow(2, -9.9)
			if bf {
				bound = math.Pow(2, -7)
			}
			ok = math.Abs(g-ref) <= bound*math.Abs(ref)
		case !ex2:
			bound := math.Pow(2, -10.987)
			if bf {
				bound = math.Pow(2, -8)
			}
			ok = math.Abs(g-ref) <= bound
		default: // outside the normal range: within one ulp (or flushed)
			ulp := math.Ldexp(1, emin-prec+1)
			ok = math.Abs(g-ref) <= ulp || bf && g == 0 && math.Abs(ref) < minNormal || math.IsInf(g, 1) && ref > 60000
		}
		if !ok {
			t.Errorf("%s of %#04x (%g): %#04x (%g), reference %g", what, r.bits, halfVal(r.bits, bf), got&0xffff, g, ref)
		}
	}
	for i := 0; i < n; i++ {
		w := out[6*i:]
		for h := 0; h < 2; h++ {
			sh := uint(16 * h)
			check("ex2.approx.f16x2", f16[2*i+h], w[0]>>sh, false, true)
			check("tanh.approx.f16x2", f16[2*i+h], w[1]>>sh, false, false)
			check("ex2.approx.ftz.bf16x2", bf16[2*i+h], w[2]>>sh, true, true)
			check("tanh.approx.bf16x2", bf16[2*i+h], w[3]>>sh, true, false)
		}
		check("ex2.approx.f16", f16[2*i], w[4], false, true)
		check("tanh.approx.f16", f16[2*i], w[4]>>16, false, false)
		check("ex2.approx.ftz.bf16", bf16[2*i], w[5], true, true)
		check("tanh.approx.bf16", bf16[2*i], w[5]>>16, true, false)
	}
}
