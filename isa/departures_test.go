package isa_test

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// Departures from the seed specification found by acceptance testing
// (issue 16, item 7). Each case quotes the seed sentence it follows.
func TestSeedDepartures(t *testing.T) {
	cases := []struct {
		name, seed, src string
		want            string // "" assembles; else the error it must give
	}{
		{
			name: "branchtargets naming labels defined before it",
			seed: `004: "The .branchtargets directive must be defined in the local function scope before it is used. It must refer to labels within the current function."`,
			src: `.visible .entry k()
{
	.reg .b32 %r<4>;
	mov.u32 %r1, %tid.x;
	and.b32 %r1, %r1, 1;
	bra.uni START;
L1:
	ret;
L2:
	ret;
START:
	ts: .branchtargets L1, L2;
	brx.idx %r1, ts;
}
`,
		},
		{
			name: "brx.idx with an immediate index",
			seed: `004: "The index operand is a .u32 register."`,
			src: `.visible .entry k()
{
	ts: .branchtargets L1;
	brx.idx 0, ts;
L1:
	ret;
}
`,
			want: "t.ptx:7:2: brx.idx: the index operand must be a .u32 register",
		},
		{
			name: "calltargets naming a function declared after it",
			seed: `004: "All functions must be declared prior to being referenced in a call table initializer or .calltargets directive."`,
			src: `.visible .entry k()
{
	.reg .b64 %rd<2>;
	mov.u64 %rd1, late;
	Ft: .calltargets late;
	call %rd1, Ft;
	ret;
}
.func late() { ret; }
`,
			want: "t.ptx:8:19: .calltargets Ft: late is not a function declared before it",
		},
		{
			name: "function-local call table naming a function declared after it",
			seed: `004: "All functions must be declared prior to being referenced in a call table initializer or .calltargets directive."`,
			src: `.visible .entry k()
{
	.global .u64 tbl[1] = { late };
	ret;
}
.func late() { ret; }
`,
			want: "t.ptx:6:26: late is referenced in a call table initializer before its declaration",
		},
		{
			name: "call table and calltargets after a prototype",
			seed: `004: "All functions must be declared prior to being referenced in a call table initializer or .calltargets directive."`,
			src: `.func late();
.visible .entry k()
{
	.reg .b64 %rd<2>;
	.global .u64 tbl[1] = { late };
	mov.u64 %rd1, late;
	Ft: .calltargets late;
	call %rd1, Ft;
	ret;
}
.func late() { ret; }
`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := isa.AssembleSource("t.ptx", []byte(kernelHead+c.src))
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("%s\nrefused: %v", c.seed, err)
			case c.want != "" && err == nil:
				t.Fatalf("%s\nassembled; want %q", c.seed, c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Fatalf("%s\ngot  %v\nwant %s", c.seed, err, c.want)
			}
		})
	}
}

// Arguments and return values given as .param variables of the call
// sequence must be the call's own slots, of the callee's sizes.
func TestCallSlotErrors(t *testing.T) {
	const callee = ".func (.param .b64 rv) f (.param .b64 a) { st.param.b64 [rv], 1; ret; }\n"
	for _, c := range []struct{ body, want string }{
		{"{ .param .b32 p0; .param .b64 r0; call (r0), f, (p0); }", "argument p0 has 4 bytes, the callee's parameter has 8"},
		{"{ .param .b64 p0; .param .b32 r0; call (r0), f, (p0); }", "return value r0 has 4 bytes, the callee returns 8"},
		{"{ .param .b64 r0; call (r0), f, (r0); }", "return value r0 is not this call's return slot"},
	} {
		src := kernelHead + callee + ".visible .entry k()\n{\n" + c.body + "\nret;\n}\n"
		_, err := isa.AssembleSource("t.ptx", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.body, err, c.want)
		}
	}
}

func TestTypeWideHalf(t *testing.T) {
	for in, want := range map[isa.Type]isa.Type{isa.U8: isa.U16, isa.S16: isa.S32, isa.B16: isa.B32, isa.U32: isa.U64, isa.S32: isa.S64, isa.B32: isa.B64, isa.U64: isa.U64, isa.F32: isa.F32} {
		if got := in.Wide(); got != want {
			t.Errorf("%s.Wide() = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[isa.Type]isa.Type{isa.U64: isa.B32, isa.F64: isa.B32, isa.B32: isa.B16, isa.F32: isa.B16, isa.U16: isa.B8} {
		if got := in.Half(); got != want {
			t.Errorf("%s.Half() = %s, want %s", in, got, want)
		}
	}
}
