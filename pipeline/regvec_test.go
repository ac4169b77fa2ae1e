package pipeline

import "testing"

// Vector .reg parameters and return values of a .func (PTX ISA 5.1.6:
// .reg variables, vectors included, may be parameters; issue 16 item 5):
// f takes a .v4 .u32 register vector and a scalar and returns a .v2 .u32
// vector (x = a.x + a.y, y = a.z * a.w + s; names without '%', whose
// components are written "a.x"). It is called with vector registers and
// with {...} element lists; every word is checked.
func TestRegVectorParams(t *testing.T) {
	src := `.func (.reg .v2 .u32 rv) f(.reg .v4 .u32 a, .reg .u32 s)
{
	add.u32 rv.x, a.x, a.y;
	mul.lo.u32 rv.y, a.z, a.w;
	add.u32 rv.y, rv.y, s;
	ret;
}

` + kernelWith(".reg .v4 .u32 %v;\n\t.reg .v2 .u32 %w;", `
	mov.u32 %v.x, %r1;
	add.u32 %v.y, %r1, 100;
	add.u32 %v.z, %r1, 3;
	mul.lo.u32 %v.w, %r1, 5;
	call.uni (%w), f, (%v, 7);
	add.u32 %r4, %r1, 1;
	add.u32 %r5, %r1, 2;
	call.uni ({%r10, %r11}), f, ({%r4, %r5, %r1, %r1}, %r1);
	mul.lo.u32 %r12, %r1, 16;
	cvt.u64.u32 %rd4, %r12;
	add.s64 %rd5, %rd1, %rd4;
	st.global.v4.u32 [%rd5], {%w.x, %w.y, %r10, %r11};
	ret;`)
	out := runOut(t, src, 32, 4*32)
	for tid := uint32(0); tid < 32; tid++ {
		want := [4]uint32{tid + tid + 100, (tid+3)*tid*5 + 7, tid + 1 + tid + 2, tid*tid + tid}
		for k, w := range want {
			if got := out[4*tid+uint32(k)]; got != w {
				t.Errorf("thread %d word %d: %d, want %d", tid, k, got, w)
			}
		}
	}
}
