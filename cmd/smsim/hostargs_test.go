package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// typedPTX stores its scalar parameters' bits: a .f32, a .f64, a .s32 and
// a .u32, at out+0, +8, +16, +20.
const typedPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .f32 a, .param .f64 b, .param .s32 c, .param .u32 d, .param .u64 out)
{
	.reg .f32 %f1;
	.reg .f64 %fd1;
	.reg .b32 %r<3>;
	.reg .b64 %rd1;
	ld.param.f32 %f1, [a];
	ld.param.f64 %fd1, [b];
	ld.param.s32 %r1, [c];
	ld.param.u32 %r2, [d];
	ld.param.u64 %rd1, [out];
	st.global.f32 [%rd1], %f1;
	st.global.f64 [%rd1+8], %fd1;
	st.global.s32 [%rd1+16], %r1;
	st.global.u32 [%rd1+20], %r2;
	ret;
}
`

// --arg takes typed scalars (1.5f, 2.0d, -3, 0x10) and they reach the
// kernel as the right bits; --out writes exactly the buffer's bytes.
func TestTypedArgsAndOut(t *testing.T) {
	p := writeFile(t, "typed.ptx", typedPTX)
	out := filepath.Join(t.TempDir(), "out.bin")
	code, _, stderr := smsim(t, "run", p, "--block", "1", "--arg", "a=1.5f", "--arg", "b=2.0d", "--arg", "c=-3", "--arg", "d=0x10",
		"--buf", "out=24", "--out", "out="+out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 24)
	binary.LittleEndian.PutUint32(want[0:], math.Float32bits(1.5))
	binary.LittleEndian.PutUint64(want[8:], math.Float64bits(2.0))
	binary.LittleEndian.PutUint32(want[16:], uint32(0xfffffffd))
	binary.LittleEndian.PutUint32(want[20:], 0x10)
	if string(data) != string(want) {
		t.Fatalf("--out wrote % x\nwant        % x", data, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--arg", "a=1.5x"}, "--arg a=1.5x"},
		{[]string{"--arg", "a=f"}, "--arg a=f"},
		{[]string{"--out", "out"}, "--out"},
		{[]string{"--out", "nope=x.bin"}, "--out"},
		{[]string{"--out", "a=x.bin"}, "bound to no buffer"},
	} {
		args := append([]string{"run", p, "--arg", "b=2.0d", "--arg", "c=1", "--arg", "d=1", "--buf", "out=24"}, c.args...)
		if !strings.Contains(strings.Join(c.args, " "), "a=") {
			args = append(args, "--arg", "a=1.0f")
		}
		code, _, stderr := smsim(t, args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d %q; want 2 naming %q", c.args, code, stderr, c.want)
		}
	}
}

// aliasPTX: b[i] = a[i] + 1 for the first four words, a and b pointers.
const aliasPTX = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 a, .param .u64 b)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [a];
	ld.param.u64 %rd2, [b];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.s64 %rd4, %rd1, %rd3;
	add.s64 %rd5, %rd2, %rd3;
	ld.global.u32 %r2, [%rd4];
	add.u32 %r3, %r2, 1;
	st.global.u32 [%rd5], %r3;
	ret;
}
`

// --buf P=@OTHER+OFFSET: a pointer into the middle of a buffer, and the
// same buffer bound twice; the report lists the buffer once.
func TestBufferAliases(t *testing.T) {
	p := writeFile(t, "alias.ptx", aliasPTX)
	init := make([]byte, 32)
	for i := 0; i < 8; i++ {
		binary.LittleEndian.PutUint32(init[4*i:], uint32(10*i))
	}
	in := filepath.Join(t.TempDir(), "in.bin")
	if err := os.WriteFile(in, init, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		b    string
		want []uint32
	}{
		{"b=@a+16", []uint32{0, 10, 20, 30, 1, 11, 21, 31}}, // b points at a's word 4
		{"1=@0", []uint32{1, 11, 21, 31, 40, 50, 60, 70}},   // a and b the same buffer
	} {
		code, stdout, stderr := smsim(t, "run", p, "--block", "4", "--buf", "a=@"+in, "--buf", c.b, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d %s", c.b, code, stderr)
		}
		var rep struct {
			Buffers map[string][]uint32 `json:"buffers"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Buffers) != 1 {
			t.Errorf("%s: buffers %v, want a's only", c.b, rep.Buffers)
		}
		if got := rep.Buffers["a"]; len(got) != 8 || !slices.Equal(got, c.want) {
			t.Errorf("%s: a = %v, want %v", c.b, got, c.want)
		}
	}
	for _, bad := range []struct{ b, want string }{
		{"b=@a+64", "offset 64"},
		{"b=@a+x", "offset"},
		{"b=@b", "no buffer of the launch"},
	} {
		code, _, stderr := smsim(t, "run", p, "--block", "4", "--buf", "a=32", "--buf", bad.b)
		if code != 2 || !strings.Contains(stderr, bad.want) {
			t.Errorf("--buf %s: exit %d %q; want 2 naming %q", bad.b, code, stderr, bad.want)
		}
	}
}

// constPTX copies the __constant__ array coef (4 words, initialized to
// 1..4) and the .global word g into out.
const constPTX = `.version 8.0
.target sm_90
.address_size 64
.const .align 4 .b8 coef[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
.global .align 4 .u32 g = 7;
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<5>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	mov.u64 %rd3, coef;
	add.s64 %rd3, %rd3, %rd2;
	ld.const.u32 %r2, [%rd3];
	add.s64 %rd4, %rd1, %rd2;
	st.global.u32 [%rd4], %r2;
	ld.global.u32 %r2, [g];
	st.global.u32 [%rd1+16], %r2;
	ret;
}
`

// --const NAME=@file fills a __constant__ array (in part: the rest keeps
// its initializer) and a .global variable; unknown names and oversized
// files are bad input.
func TestConstFill(t *testing.T) {
	p := writeFile(t, "const.ptx", constPTX)
	dir := t.TempDir()
	c8 := filepath.Join(dir, "c8.bin")
	g4 := filepath.Join(dir, "g4.bin")
	big := filepath.Join(dir, "big.bin")
	for f, words := range map[string][]uint32{c8: {100, 200}, g4: {99}, big: {1, 2, 3, 4, 5}} {
		b := make([]byte, 4*len(words))
		for i, w := range words {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(extra ...string) (int, []uint32, string) {
		code, stdout, stderr := smsim(t, append([]string{"run", p, "--block", "4", "--buf", "out=20", "--json"}, extra...)...)
		var rep struct {
			Buffers map[string][]uint32 `json:"buffers"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil && code == 0 {
			t.Fatalf("exit 0 without a JSON report: %v", err)
		}
		return code, rep.Buffers["out"], stderr
	}
	if code, out, stderr := run(); code != 0 || !slices.Equal(out, []uint32{1, 2, 3, 4, 7}) {
		t.Fatalf("without --const: exit %d %v %s", code, out, stderr)
	}
	if code, out, stderr := run("--const", "coef=@"+c8, "--const", "g=@"+g4); code != 0 || !slices.Equal(out, []uint32{100, 200, 3, 4, 99}) {
		t.Fatalf("with --const: exit %d %v %s; want [100 200 3 4 99]", code, out, stderr)
	}
	for _, c := range []struct{ arg, want string }{
		{"nope=@" + c8, `no variable "nope"`},
		{"coef=@" + big, "20 bytes for coef, a variable of 16 bytes"},
		{"coef=" + c8, "want NAME=@file.bin"},
		{"coef=@" + filepath.Join(dir, "missing.bin"), "--const"},
	} {
		if code, _, stderr := run("--const", c.arg); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("--const %s: exit %d %q; want 2 naming %q", c.arg, code, stderr, c.want)
		}
	}
}

// The case: div_ifelse writes 64 words into an 8-byte buffer.
// memcheck (always on) ends the run with out_of_bounds naming param_0,
// its 8 bytes, the lane and the line; with the right sizes it says
// nothing.
func TestMemcheckOutOfBounds(t *testing.T) {
	p, _ := examplePTX(t, "div_ifelse")
	code, stdout, stderr := smsim(t, "run", p, "--block", "64", "--buf", "0=8", "--buf", "1=512", "--buf", "2=512", "--json")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	var rep struct {
		Status    string `json:"status"`
		Sanitizer []struct {
			Kind       string `json:"kind"`
			Lane       *int   `json:"lane"`
			Line       string `json:"line"`
			Address    uint64 `json:"address"`
			Size       int    `json:"size"`
			Allocation *struct {
				Name       string `json:"name"`
				Begin, End uint64
			} `json:"allocation"`
			Distance int64 `json:"distance"`
		} `json:"sanitizer"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Status != "fault" || len(rep.Sanitizer) == 0 {
		t.Fatalf("status %s, sanitizer %+v", rep.Status, rep.Sanitizer)
	}
	s := rep.Sanitizer[0]
	if s.Kind != "out_of_bounds" || s.Lane == nil || !strings.Contains(s.Line, "div_ifelse.ptx:") ||
		s.Allocation == nil || !strings.HasSuffix(s.Allocation.Name, "_param_0") || s.Allocation.End-s.Allocation.Begin != 8 || s.Size != 4 || s.Address != s.Allocation.End+uint64(s.Distance) {
		t.Errorf("report %+v (allocation %+v)", s, s.Allocation)
	}
	// Readable without --json.
	_, text, _ := smsim(t, "run", p, "--block", "64", "--buf", "0=8", "--buf", "1=512", "--buf", "2=512")
	if !strings.Contains(text, "sanitizer:") || !strings.Contains(text, "out_of_bounds") || !strings.Contains(text, "_param_0 [") {
		t.Errorf("no sanitizer table:\n%s", text)
	}
	code, stdout, stderr = smsim(t, "run", p, "--block", "64", "--buf", "0=256", "--buf", "1=256", "--buf", "2=256", "--json")
	if code != 0 || strings.Contains(stdout, "sanitizer") {
		t.Errorf("right sizes: exit %d %s %s", code, stderr, stdout[:min(len(stdout), 200)])
	}
}
