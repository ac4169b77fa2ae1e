package isa_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/smsim/smsim/internal/sharedtest"
	"github.com/smsim/smsim/isa"
)

func ptxFiles(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.ptx"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .ptx files in %s", dir)
	}
	sort.Strings(files)
	return files
}

func assembleFile(t testing.TB, path string) (*isa.Image, error) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return isa.AssembleSource(filepath.Base(path), src)
}

// Every file of the corpus must assemble (issue 16) except those using
// textures, refused with positioned unsupported: errors, and those of
// notPTX.
var textureFiles = map[string]bool{
	"zluda-tex_read_2d_int.ptx": true,
}

// notPTX lists corpus files whose refusal is a syntax error, not an
// unsupported: construct, because the file holds text that is not PTX: the
// exact (positioned) error each must give, as TestParseCorpus's
// corpusExpect. ZLUDA's pass tests hold the PTX input, then
// zludaOutputMark and ZLUDA's IR output; the input must assemble.
var notPTX = map[string]string{
	"zluda-trap.ptx": "zluda-trap.ptx:21:5: expected statement, found <Trap> (an IR placeholder of ZLUDA's test output, not PTX)",
}

const zludaOutputMark = "// %%% output %%%"

func TestCorpus(t *testing.T) {
	var table strings.Builder
	fmt.Fprintf(&table, "%-36s %-10s %s\n", "file", "result", "first unsupported construct")
	for _, f := range ptxFiles(t, sharedtest.Dir(t, "corpus/ptx")) {
		name := filepath.Base(f)
		im, err := assembleFile(t, f)
		if err == nil {
			fmt.Fprintf(&table, "%-36s %-10s %d instructions, %d kernels\n", name, "assembled", len(im.Code), len(im.Kernels))
			continue
		}
		fmt.Fprintf(&table, "%-36s %-10s %s\n", name, "refused", firstLine(err))
		want, bad := notPTX[name]
		if !textureFiles[name] && !bad {
			t.Errorf("%s must assemble: %v", name, err)
			continue
		}
		var list isa.ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%s: error is not positioned: %v", name, err)
			continue
		}
		if bad {
			if len(list) != 1 || list[0].Error() != want {
				t.Errorf("%s: want the one error %q, got %v", name, want, err)
			}
			src, _ := os.ReadFile(f)
			in, _, ok := bytes.Cut(src, []byte(zludaOutputMark))
			if !ok {
				t.Errorf("%s: no %q line", name, zludaOutputMark)
				continue
			}
			im, err := isa.AssembleSource(name, in)
			if err != nil {
				t.Errorf("%s: the PTX before %q: %v", name, zludaOutputMark, err)
				continue
			}
			fmt.Fprintf(&table, "%-36s %-10s %d instructions, %d kernels (the PTX input, before %q)\n", name, "assembled", len(im.Code), len(im.Kernels), zludaOutputMark)
			continue
		}
		for _, e := range list {
			if !e.Unsupported() || e.Pos.Line < 1 || e.Pos.Col < 1 {
				t.Errorf("%s: want only positioned unsupported: errors, got %v", name, e)
			}
		}
	}
	t.Log("\n" + table.String())
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func exampleFiles(t testing.TB) []string {
	return ptxFiles(t, filepath.Join("..", "examples"))
}

func TestExamplesAssemble(t *testing.T) {
	files := exampleFiles(t)
	if len(files) < 12 {
		t.Fatalf("want at least 12 example kernels, have %d", len(files))
	}
	for _, f := range files {
		im, err := assembleFile(t, f)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		if len(im.Kernels) == 0 {
			t.Errorf("%s: no kernel", filepath.Base(f))
		}
		for _, k := range im.Kernels {
			if k.Regs == 0 || int(k.Regs) > 256 {
				t.Errorf("%s: kernel %s has %d registers", filepath.Base(f), k.Name, k.Regs)
			}
		}
	}
}

// TestRoundTrip: asm -> binary -> disasm -> asm gives identical bytes for
// every example and every corpus file that assembles.
func TestRoundTrip(t *testing.T) {
	files := exampleFiles(t)
	if dir, ok := sharedtest.Optional(t, "corpus/ptx"); ok {
		files = append(files, ptxFiles(t, dir)...)
	}
	n := 0
	for _, f := range files {
		im, err := assembleFile(t, f)
		if err != nil {
			continue
		}
		n++
		checkRoundTrip(t, f, im)
	}
	if n < 20 {
		t.Errorf("only %d files assembled", n)
	}
}

// checkRoundTrip checks that im (assembled from file f) goes through
// binary -> disasm -> asm to identical bytes, and that every instruction
// line of the disassembly shows its source line.
func checkRoundTrip(t *testing.T, f string, im *isa.Image) {
	t.Helper()
	bin := im.Marshal()
	im2, err := isa.Unmarshal(bin)
	if err != nil {
		t.Errorf("%s: unmarshal: %v", f, err)
		return
	}
	var text bytes.Buffer
	if err := isa.Disassemble(im2, &text); err != nil {
		t.Fatal(err)
	}
	im3, err := isa.ParseDisasm(filepath.Base(f)+".dis", text.Bytes())
	if err != nil {
		t.Errorf("%s: reassembling the disassembly: %v", f, err)
		return
	}
	if !bytes.Equal(im3.Marshal(), bin) {
		t.Errorf("%s: asm -> disasm -> asm differs", f)
	}
	for _, l := range strings.Split(text.String(), "\n") {
		if strings.HasPrefix(l, "/*") && !strings.Contains(l, "// "+filepath.Base(f)+":") {
			t.Errorf("%s: instruction without its source line: %s", f, l)
			break
		}
	}
}

const kernelHead = ".version 8.0\n.target sm_90a\n.address_size 64\n"

func TestStaticErrors(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"setmaxnreg 20", "setmaxnreg.inc.sync.aligned.u32 20;", "t.ptx:6:33: setmaxnreg count 20 must be in 24..256 and a multiple of 8"},
		{"setmaxnreg 100", "setmaxnreg.dec.sync.aligned.u32 100;", "t.ptx:6:33: setmaxnreg count 100 must be in 24..256 and a multiple of 8"},
		{"setmaxnreg 264", "setmaxnreg.inc.sync.aligned.u32 264;", "t.ptx:6:33: setmaxnreg count 264 must be in 24..256 and a multiple of 8"},
		{"setmaxnreg no sync", "setmaxnreg.inc.u32 64;", "t.ptx:6:1: setmaxnreg must be written setmaxnreg.inc.sync.aligned.u32"},
		{"BPT.TRAP 0", "BPT.TRAP 0;", "t.ptx:6:10: BPT.TRAP 0 is illegal"},
		{"BPT.TRAP 8", "BPT.TRAP 8;", "t.ptx:6:10: BPT.TRAP reason 8 does not fit 3 bits"},
		{"BPT bad mode", "BPT.STOP;", "t.ptx:6:1: unknown BPT mode .STOP"},
		{"undeclared register", "add.u32 %r1, %r2, 1;", "t.ptx:6:9: undeclared register %r1"},
		{"unknown sreg", ".reg .u32 %r1;\nmov.u32 %r1, %tidd.x;", "t.ptx:7:14: undeclared register or unknown special register %tidd.x"},
		{"sreg outside mov", ".reg .u32 %r1;\nadd.u32 %r1, %laneid, 1;", "t.ptx:7:14: special register %laneid can only be read with mov or cvt"},
		{"undefined label", "bra L9;", "t.ptx:6:5: label L9 is not defined in k"},
		{"brx without branchtargets", ".reg .u32 %r1;\nL1:\nbrx.idx %r1, L1;", "t.ptx:8:14: brx.idx: L1 is not a .branchtargets label declared earlier in k"},
		{"branchtargets after use", ".reg .u32 %r1;\nL1:\nbrx.idx %r1, ts;\nts: .branchtargets L1;", "t.ptx:8:14: brx.idx: ts is not a .branchtargets list declared earlier in this function"},
		{"branchtargets unknown label", "ts: .branchtargets L1, L7;\nL1: ret;", "t.ptx:6:24: .branchtargets ts: label L7 is not defined in k"},
		{"type mismatch", ".reg .u64 %rd1;\nadd.u32 %rd1, %rd1, 1;", "t.ptx:7:9: %rd1 is .u64 (64 bits) but the instruction works on .u32"},
		{"pmevent range", "pmevent 16;", "t.ptx:6:9: pmevent index 16 is outside 0..15"},
		{"pmevent.mask range", "pmevent.mask 0x10000;", "t.ptx:6:14: pmevent.mask operand 0x10000 does not fit 16 bits"},
		{"unsupported op", ".reg .b32 %r<4>;\nmma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r0}, {%r1}, {%r2}, {%r3};", "t.ptx:7:1: unsupported: mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32"},
		{"barrier id", "bar.sync 16;", "t.ptx:6:10: barrier 16: barriers are numbered 0..15"},
		{"two cache operators", ".reg .b64 %rd<2>;\nld.global.cg.L1::evict_first.u64 %rd1, [%rd1];", "t.ptx:7:1: ld.cg and .L1::evict_first disagree on how the load uses the L1"},
		{"cache operator on a strong load", ".reg .b64 %rd<2>;\nld.relaxed.gpu.global.L1::evict_first.u64 %rd1, [%rd1];", "t.ptx:7:1: ld.L1::evict_first on a strong load at .gpu scope (served by the L2)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantAsmError(t, kernelHead+".visible .entry k()\n{\n"+c.body+"\nret;\n}\n", c.want)
		})
	}
}

// wantAsmError assembles src as t.ptx and fails t unless that fails with
// an error containing want.
func wantAsmError(t *testing.T, src, want string) {
	t.Helper()
	_, err := isa.AssembleSource("t.ptx", []byte(src))
	if err == nil {
		t.Fatalf("assembled; want error %q", want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

func TestIndirectCallTypeCheck(t *testing.T) {
	src := kernelHead + `
.func (.param .b32 r) f(.param .b32 a) { st.param.b32 [r], 1; ret; }
.func g(.param .b32 a, .param .b32 b) { ret; }
.visible .entry k()
{
	.reg .b64 %rd<2>;
	Ftgt: .calltargets f, g;
	ret;
}
`
	wantAsmError(t, src, "t.ptx:10:24: .calltargets Ftgt: g has a different signature from f")
	src = kernelHead + `
.func (.param .b32 r) f(.param .b32 a) { st.param.b32 [r], 1; ret; }
.visible .entry k()
{
	.reg .b64 %rd<2>;
	.reg .b32 %r<3>;
	mov.u64 %rd1, f;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
	call (%r1), %rd1, (%r2), proto;
	ret;
}
`
	wantAsmError(t, src, "t.ptx:12:2: call passes 1 argument(s), the callee's type has 2")
}

func TestMaxNRegRefused(t *testing.T) {
	// 40 values live at once cannot fit .maxnreg 32.
	var b strings.Builder
	b.WriteString(kernelHead + ".visible .entry k(.param .u64 p)\n.maxnreg 32\n{\n.reg .b32 %r<41>;\n.reg .b64 %rd1;\nld.param.u64 %rd1, [p];\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "ld.global.u32 %%r%d, [%%rd1+%d];\n", i, 4*i)
	}
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "st.global.u32 [%%rd1+%d], %%r%d;\n", 4*i, i)
	}
	b.WriteString("ret;\n}\n")
	wantAsmError(t, b.String(), "t.ptx:5:1: kernel k needs 42 registers per thread, more than its .maxnreg 32")
}

func TestRegisterAllocationReuses(t *testing.T) {
	// A chain of 100 temporaries, each dead after its use, needs few registers.
	var b strings.Builder
	b.WriteString(kernelHead + ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<101>;\n.reg .b64 %rd1;\nld.param.u64 %rd1, [p];\nmov.u32 %r0, 1;\n")
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "add.u32 %%r%d, %%r%d, %d;\n", i, i-1, i)
	}
	b.WriteString("st.global.u32 [%rd1], %r100;\nret;\n}\n")
	im, err := isa.AssembleSource("t.ptx", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if r := im.Kernels[0].Regs; r > 4 {
		t.Fatalf("100-step chain allocated %d registers, want at most 4", r)
	}
}

func TestUnmarshalRejects(t *testing.T) {
	im, err := assembleFile(t, filepath.Join(sharedtest.Dir(t, "corpus/ptx"), "clang16-switch-call.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	bin := im.Marshal()
	for _, cut := range []int{0, 7, 8, 12, 40, len(bin) - 1} {
		if _, err := isa.Unmarshal(bin[:cut]); err == nil {
			t.Errorf("truncated to %d bytes: no error", cut)
		}
	}
	bad := append([]byte(nil), bin...)
	bad[16] = 0xff // first instruction's opcode
	if _, err := isa.Unmarshal(bad); err == nil || !strings.Contains(err.Error(), "undefined opcode") {
		t.Errorf("bad opcode: %v", err)
	}
}

// corpusSeeds assembles the fuzz seeds of the shared PTX corpus (none
// where it is not there; those that do not assemble are left out).
func corpusSeeds(f *testing.F) []*isa.Image {
	dir, ok := sharedtest.Optional(f, "corpus/ptx")
	if !ok {
		return nil
	}
	var out []*isa.Image
	for _, name := range []string{"clang16-switch-call.ptx", "clang16-diverge-trap.ptx"} {
		if im, err := assembleFile(f, filepath.Join(dir, name)); err == nil {
			out = append(out, im)
		}
	}
	return out
}

func FuzzUnmarshal(f *testing.F) {
	for _, im := range corpusSeeds(f) {
		f.Add(im.Marshal())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := isa.Unmarshal(data)
		if err != nil {
			return
		}
		if !bytes.Equal(im.Marshal(), data) {
			t.Fatalf("accepted image does not re-marshal identically")
		}
	})
}

func FuzzDisasmText(f *testing.F) {
	for _, im := range corpusSeeds(f) {
		var b bytes.Buffer
		_ = isa.Disassemble(im, &b)
		f.Add(b.Bytes())
	}
	f.Add([]byte(".smsim_image 1\n/*0000*/ X { op=RET }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		im, err := isa.ParseDisasm("f.dis", data)
		if err != nil {
			var list isa.ErrorList
			if !errors.As(err, &list) {
				var e *isa.Error
				if !errors.As(err, &e) {
					t.Fatalf("unpositioned error %T: %v", err, err)
				}
			}
			return
		}
		var b bytes.Buffer
		if err := isa.Disassemble(im, &b); err != nil {
			t.Fatal(err)
		}
		im2, err := isa.ParseDisasm("f2.dis", b.Bytes())
		if err != nil {
			t.Fatalf("disassembly of an accepted image does not parse: %v", err)
		}
		if !bytes.Equal(im.Marshal(), im2.Marshal()) {
			t.Fatal("round trip differs")
		}
	})
}

// A load's cache operator (Mods bits 8..10): the .cop, the L1 eviction
// priority, or the L2 path of a strong load above .cta scope.
func TestLoadCacheOperators(t *testing.T) {
	cases := []struct {
		ld   string
		want int
	}{
		{"ld.global.u64", isa.CacheCA},
		{"ld.global.ca.u64", isa.CacheCA},
		{"ld.global.L1::evict_last.u64", isa.CacheCA},
		{"ld.global.cg.u64", isa.CacheCG},
		{"ld.global.cs.u64", isa.CacheCS},
		{"ld.global.lu.u64", isa.CacheCS},
		{"ld.global.nc.L1::evict_first.u64", isa.CacheCS},
		{"ld.global.cv.u64", isa.CacheCV},
		{"ld.global.L1::no_allocate.u64", isa.CacheNoAlloc},
		{"ld.global.L1::evict_unchanged.u64", isa.CacheUnchanged},
		{"ld.volatile.global.u64", isa.CacheCG},
		{"ld.relaxed.gpu.global.u64", isa.CacheCG},
		{"ld.acquire.sys.global.u64", isa.CacheCG},
		{"ld.relaxed.cta.global.u64", isa.CacheCA},
		{"ld.relaxed.gpu.global.cg.u64", isa.CacheCG},
		{"ld.u64", isa.CacheCA},
	}
	for _, c := range cases {
		src := kernelHead + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [p];\n" + c.ld + " %rd2, [%rd1];\nst.global.cs.u64 [%rd1], %rd2;\nret;\n}\n"
		im, err := isa.AssembleSource("t.ptx", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.ld, err)
		}
		var got []int
		pretty := ""
		for _, in := range im.Code {
			if in.Op == isa.OpLD || in.Op == isa.OpST {
				got = append(got, int(in.Mods&isa.ModCacheMask>>isa.ModCacheShift))
				if len(got) == 2 {
					pretty = in.Pretty()
				}
			}
		}
		// ld.param, the load, the store (stores carry none).
		if len(got) != 3 || got[0] != isa.CacheCA || got[1] != c.want || got[2] != 0 {
			t.Fatalf("%s: cache operators %v, want [0 %d 0]", c.ld, got, c.want)
		}
		if c.want != isa.CacheCA && !strings.Contains(pretty, "."+isa.CacheName(c.want)+".u64") {
			t.Fatalf("%s: the disassembly %q does not show .%s", c.ld, pretty, isa.CacheName(c.want))
		}
	}
}
