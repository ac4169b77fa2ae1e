package isa

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/internal/sharedtest"
)

// ---- a compact, deterministic dump of the AST for table tests ----

func dumpOperand(o Operand) string {
	switch o := o.(type) {
	case *RegOperand:
		s := o.Name
		if o.Neg {
			s = "!" + s
		}
		if o.Comp != "" {
			s += "." + o.Comp
		}
		if o.HasOffset {
			s += fmt.Sprintf("%+d", o.Offset)
		}
		return "R(" + s + ")"
	case *ImmOperand:
		if o.Float {
			if o.Int != 0 {
				return fmt.Sprintf("F(%s=%g bits=%#x)", o.Text, o.F, uint64(o.Int))
			}
			return fmt.Sprintf("F(%s=%g)", o.Text, o.F)
		}
		return fmt.Sprintf("I(%s=%d)", o.Text, o.Int)
	case *SymOperand:
		if o.Offset != 0 {
			return fmt.Sprintf("S(%s%+d)", o.Name, o.Offset)
		}
		return "S(" + o.Name + ")"
	case *AddrOperand:
		s := "["
		switch {
		case o.Base == "":
			s += fmt.Sprintf("%d", o.Offset)
		case o.BaseIsReg:
			s += "R " + o.Base
		default:
			s += "S " + o.Base
		}
		if o.Base != "" && o.Offset != 0 {
			s += fmt.Sprintf("%+d", o.Offset)
		}
		for _, e := range o.Extra {
			s += ", " + dumpOperand(e)
		}
		return s + "]"
	case *VecOperand:
		return "{" + dumpOperands(o.Elems) + "}"
	case *ListOperand:
		return "(" + dumpOperands(o.Elems) + ")"
	case *PipeOperand:
		return dumpOperand(o.A) + "|" + dumpOperand(o.B)
	}
	return fmt.Sprintf("?%T", o)
}

func dumpOperands(os []Operand) string {
	var parts []string
	for _, o := range os {
		parts = append(parts, dumpOperand(o))
	}
	return strings.Join(parts, ", ")
}

func dumpParams(ps []*Param) string {
	var parts []string
	for _, p := range ps {
		s := "." + p.Space
		if p.Align != 0 {
			s += fmt.Sprintf(" align=%d", p.Align)
		}
		if p.PtrSpace != "" {
			s += " ptr=" + p.PtrSpace
		}
		s += " ." + p.Type.String() + " " + p.Name
		if p.ArrayLen != 0 {
			s += fmt.Sprintf("[%d]", p.ArrayLen)
		}
		parts = append(parts, s)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func dumpInit(in *Init) string {
	if in.List != nil {
		var parts []string
		for _, e := range in.List {
			parts = append(parts, dumpInit(e))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return dumpOperand(in.Value)
}

func dumpVarDecl(d *VarDecl) string {
	s := ""
	if d.Linkage != "" {
		s += d.Linkage + " "
	}
	s += "." + d.Space
	if d.Align != 0 {
		s += fmt.Sprintf(" align=%d", d.Align)
	}
	if d.Vec != 0 {
		s += fmt.Sprintf(" v%d", d.Vec)
	}
	if d.Type != NoType {
		s += " ." + d.Type.String()
	}
	var vs []string
	for _, v := range d.Vars {
		x := v.Name
		if v.Range != 0 {
			x += fmt.Sprintf("<%d>", v.Range)
		}
		for _, n := range v.Dims {
			if n < 0 {
				x += "[]"
			} else {
				x += fmt.Sprintf("[%d]", n)
			}
		}
		if v.Init != nil {
			x += " = " + dumpInit(v.Init)
		}
		vs = append(vs, x)
	}
	return s + " " + strings.Join(vs, ", ")
}

func dumpStmts(b *Block, indent string, out *[]string) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *Block:
			*out = append(*out, indent+"{")
			dumpStmts(s, indent+"  ", out)
			*out = append(*out, indent+"}")
		default:
			*out = append(*out, indent+dumpStmt(s))
		}
	}
}

func dumpStmt(s Stmt) string {
	switch s := s.(type) {
	case *Label:
		return s.Name + ":"
	case *VarDecl:
		return dumpVarDecl(s)
	case *PragmaStmt:
		return fmt.Sprintf("pragma %q", s.Text)
	case *BranchTargets:
		var ns []string
		for _, l := range s.Labels {
			ns = append(ns, l.Name)
		}
		return s.Name + ": branchtargets " + strings.Join(ns, " ")
	case *CallTargets:
		var ns []string
		for _, l := range s.Funcs {
			ns = append(ns, l.Name)
		}
		return s.Name + ": calltargets " + strings.Join(ns, " ")
	case *CallPrototype:
		x := s.Name + ": callprototype "
		if s.Rets != nil {
			x += dumpParams(s.Rets) + " "
		}
		x += "_"
		if s.Params != nil {
			x += " " + dumpParams(s.Params)
		}
		if s.NoReturn {
			x += " noreturn"
		}
		return x
	case *Instr:
		x := ""
		if s.Guard != nil {
			x = "@" + dumpOperand(s.Guard) + " "
		}
		x += s.Op
		if len(s.Mods) > 0 {
			x += "[" + strings.Join(s.Mods, " ") + "]"
		}
		if len(s.Operands) > 0 {
			x += " " + dumpOperands(s.Operands)
		}
		return x
	}
	return fmt.Sprintf("?%T", s)
}

func dumpFunc(f *Func) string {
	s := ""
	if f.Linkage != "" {
		s += f.Linkage + " "
	}
	if f.Entry {
		s += ".entry "
	} else {
		s += ".func "
	}
	if f.Rets != nil {
		s += dumpParams(f.Rets) + " "
	}
	s += f.Name
	if f.Params != nil {
		s += " " + dumpParams(f.Params)
	}
	if len(f.Attrs) > 0 {
		s += " attrs=" + strings.Join(f.Attrs, ",")
	}
	for _, d := range f.Directives {
		s += " ." + d.Name
		if d.Text != "" {
			s += fmt.Sprintf(" %q", d.Text)
		}
		for i, a := range d.Args {
			if i > 0 {
				s += ","
			}
			s += fmt.Sprintf(" %d", a)
		}
	}
	if f.Body == nil {
		s += ";"
	}
	return s
}

// dumpModule dumps every declaration, and function bodies indented.
func dumpModule(m *Module) string {
	var out []string
	for _, d := range m.Decls {
		switch d := d.(type) {
		case *VarDecl:
			out = append(out, dumpVarDecl(d))
		case *Func:
			out = append(out, dumpFunc(d))
			if d.Body != nil {
				dumpStmts(d.Body, "  ", &out)
			}
		}
	}
	return strings.Join(out, "\n")
}

const testHeader = ".version 8.0\n.target sm_90\n.address_size 64\n"

func mustParse(t *testing.T, src string) *Module {
	t.Helper()
	m, err := Parse("t.ptx", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return m
}

// ---- module-level tests ----

func TestParseHeader(t *testing.T) {
	m := mustParse(t, "// comment\n/* block\n comment */ .version 7.8\n.target sm_90, debug, texmode_independent\n.address_size 64\n")
	if m.Version != "7.8" || strings.Join(m.Target, ",") != "sm_90,debug,texmode_independent" || m.AddressSize != 64 {
		t.Fatalf("got version %q target %q address size %d", m.Version, m.Target, m.AddressSize)
	}
	if len(m.Lines) != 5 || m.Lines[2] != " comment */ .version 7.8" {
		t.Fatalf("Lines = %q", m.Lines)
	}
	m = mustParse(t, ".version 8.0\r\n.target sm_90a\r\n")
	if m.Version != "8.0" || m.Target[0] != "sm_90a" || m.Lines[0] != ".version 8.0" {
		t.Fatalf("CRLF: %+v", m)
	}
}

// dumpCase is source and the dump it must parse to.
type dumpCase struct {
	name, src, want string
}

// checkDumps runs each case as a subtest: dump(src) must be the case's
// want.
func checkDumps(t *testing.T, cases []dumpCase, dump func(t *testing.T, src string) string) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := dump(t, tc.src); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// walkStmts calls fn on every statement of b and its nested blocks, the
// blocks excepted.
func walkStmts(b *Block, fn func(Stmt)) {
	for _, s := range b.Stmts {
		if nb, ok := s.(*Block); ok {
			walkStmts(nb, fn)
		} else {
			fn(s)
		}
	}
}

var moduleTests = []dumpCase{
	{"globals",
		".visible .global .align 4 .u32 i;\n.const .align 4 .u32 j;\n.extern .shared .align 16 .b8 smem[];\n.weak .global .f32 a, b;\n.common .global .u32 c;",
		"visible .global align=4 .u32 i\n.const align=4 .u32 j\nextern .shared align=16 .b8 smem[]\nweak .global .f32 a, b\ncommon .global .u32 c"},
	{"arrays and initializers",
		".global .u32 x[4] = {1, 2, 3, -4};\n.global .s32 m[2][3] = {{1,2,3},{4,5,6}};\n.global .u8 s[] = {0x41, 0x42};\n.const .f32 f = 1.5;\n.const .f64 d = 0d3FF0000000000000;",
		".global .u32 x[4] = {I(1=1), I(2=2), I(3=3), I(-4=-4)}\n.global .s32 m[2][3] = {{I(1=1), I(2=2), I(3=3)}, {I(4=4), I(5=5), I(6=6)}}\n.global .u8 s[] = {I(0x41=65), I(0x42=66)}\n.const .f32 f = F(1.5=1.5)\n.const .f64 d = F(0d3FF0000000000000=1 bits=0x3ff0000000000000)"},
	{"call table and symbol initializers",
		".global .u32 jmptbl[5] = { foo, bar, baz };\n.global .u64 p = generic(x+8);\n.global .u64 q[2] = {tbl+4, tbl-4};",
		".global .u32 jmptbl[5] = {S(foo), S(bar), S(baz)}\n.global .u64 p = S(generic(x)+8)\n.global .u64 q[2] = {S(tbl+4), S(tbl-4)}"},
	{"vector and empty init",
		".global .v4 .f32 v = {1.0, 2.0, 3.0, 4.0};\n.global .u32 e[2] = {};",
		".global v4 .f32 v = {F(1.0=1), F(2.0=2), F(3.0=3), F(4.0=4)}\n.global .u32 e[2] = {}"},
	{"opaque types",
		".global .texref tex;\n.global .samplerref smp;\n.global .surfref surf;\n.tex .u32 oldtex;",
		".texref tex\n.samplerref smp\n.surfref surf\n.tex .u32 oldtex"},
	{"entry with params",
		".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .u64 .ptr .global .align 8 p,\n\t.param .align 4 .b8 s[16],\n\t.param .u64 .ptr .align 16 g\n)\n{\n\tret;\n}",
		"visible .entry k (.param .u64 k_param_0, .param align=8 ptr=global .u64 p, .param align=4 .b8 s[16], .param align=16 ptr=generic .u64 g)\n  ret"},
	{"entry empty params and no params",
		".entry a()\n{\n}\n.entry b {\n}\n.visible .entry c(\n\n)\n{\n}",
		".entry a ()\n.entry b\nvisible .entry c ()"},
	{"func with return and prototype",
		".func (.param .b32 func_retval0) fabsf\n(\n.param .b32 fabsf_param_0\n)\n;\n.weak .func (.param .b32 r) f(.param .b64 a, .param .b32 b)\n{\nret;\n}\n.extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);",
		".func (.param .b32 func_retval0) fabsf (.param .b32 fabsf_param_0);\nweak .func (.param .b32 r) f (.param .b64 a, .param .b32 b)\n  ret\nextern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);"},
	{"func reg params, no parens, noreturn, attribute",
		".func (.reg .u32 rv) foo (.reg .u32 a, .reg .u32 b) { ret; }\n.func bar { ret; }\n.func baz;\n.func die() .noreturn { trap; }\n.extern .func .attribute(.unified) uf(.param .b32 x);",
		".func (.reg .u32 rv) foo (.reg .u32 a, .reg .u32 b)\n  ret\n.func bar\n  ret\n.func baz;\n.func die () attrs=noreturn .noreturn\n  trap\nextern .func uf (.param .b32 x) attrs=.unified;"},
	{"perf directives",
		".entry k() .maxntid 256, 1, 1 .minnctapersm 2 .maxnreg 32 { ret; }\n" +
			".entry c() .explicitcluster .reqnctapercluster 2, 1, 1 .maxclusterrank 8 .reqntid 128 { ret; }\n" +
			".entry p() .pragma \"nounroll\"; { ret; }",
		".entry k () .maxntid 256, 1, 1 .minnctapersm 2 .maxnreg 32\n  ret\n" +
			".entry c () .explicitcluster .reqnctapercluster 2, 1, 1 .maxclusterrank 8 .reqntid 128\n  ret\n" +
			".entry p () .pragma \"nounroll\"\n  ret"},
	{"debug directives ignored",
		".file 1 \"/a/b.cu\", 1595524614, 5649\n.file 2 \"c.h\"\n.entry k()\n{\n.loc 1 33 1\nfunc_begin0:\n.loc\t1 0 0\nret;\n}\n" +
			".section .debug_info {\n.b32 8837\n.b8 2\n.b32 .debug_abbrev\n.b64 func_begin0\n$L__info_string0:\n.b8 97,0\n{ }\n}\n.section .debug_ranges { }\n.pragma \"nounroll\";",
		".entry k ()\n  func_begin0:\n  ret"},
	{"odd names",
		".func (.param .b64 func_retval0) _ZN3ptr29_$RP$mut$x20T.RawPtr$LT$T$GT$6offset20hfbc25d526e97e8a67aa4v0.0E(.param .b64 x);\n.visible .entry %1 (.param .u64 %2) { %4: ret; }",
		".func (.param .b64 func_retval0) _ZN3ptr29_$RP$mut$x20T.RawPtr$LT$T$GT$6offset20hfbc25d526e97e8a67aa4v0.0E (.param .b64 x);\nvisible .entry %1 (.param .u64 %2)\n  %4:\n  ret"},
}

func TestParseModule(t *testing.T) {
	checkDumps(t, moduleTests, func(t *testing.T, src string) string {
		return dumpModule(mustParse(t, testHeader+src))
	})
}

// ---- statement and operand tests, inside a kernel body ----

func parseBody(t *testing.T, body string) string {
	t.Helper()
	m := mustParse(t, testHeader+".visible .entry k()\n{\n"+body+"\n}\n")
	if len(m.Decls) != 1 {
		t.Fatalf("want one declaration, got %d", len(m.Decls))
	}
	var out []string
	dumpStmts(m.Decls[0].(*Func).Body, "", &out)
	return strings.Join(out, "\n")
}

var bodyTests = []dumpCase{
	{"declarations",
		".reg .b32 %r<24>;\n.reg .pred p, q;\n.reg .v4 .b32 %rx;\n.local .align 8 .b8 __local_depot0[8];\n.shared .align 4 .u32 x;\n.param .b32 param0;\n.param .align 16 .b8 param1[16];\n.sreg .u32 %tid.x;",
		".reg .b32 %r<24>\n.reg .pred p, q\n.reg v4 .b32 %rx\n.local align=8 .b8 __local_depot0[8]\n.shared align=4 .u32 x\n.param .b32 param0\n.param align=16 .b8 param1[16]\n.sreg .u32 %tid.x"},
	{"labels and blocks",
		"$L__BB0_1:\nL2: L3: ret;\n{ // callseq 0, 0\n.reg .b32 temp_param_reg;\n{ }\n}\n;",
		"$L__BB0_1:\nL2:\nL3:\nret\n{\n  .reg .b32 temp_param_reg\n  {\n  }\n}"},
	{"branchtargets calltargets callprototype",
		"ts: .branchtargets L1, L2, L3;\nFtgt: .calltargets foo, bar, baz;\nFproto: .callprototype (.param .b32 _) _ (.param .u32 _, .param .u32 _);\n" +
			"P2: .callprototype _ (.param .b32 _);\nP3: .callprototype _ (.param .b32 _) .noreturn;\nprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\nP4: .callprototype _ ();",
		"ts: branchtargets L1 L2 L3\nFtgt: calltargets foo bar baz\nFproto: callprototype (.param .b32 _) _ (.param .u32 _, .param .u32 _)\n" +
			"P2: callprototype _ (.param .b32 _)\nP3: callprototype _ (.param .b32 _) noreturn\nprototype_0: callprototype (.param .b32 _) _ (.param .b32 _)\nP4: callprototype _ ()"},
	{"pragma", ".pragma \"nounroll\";\n.pragma \"a\", \"b\";", "pragma \"nounroll\"\npragma \"a, b\""},
	{"guards",
		"@p bra L;\n@!p bra L;\n@%p1 bra $L__BB0_2;\n@!%p1 bra.uni L;",
		"@R(p) bra S(L)\n@R(!p) bra S(L)\n@R(%p1) bra S($L__BB0_2)\n@R(!%p1) bra[uni] S(L)"},
	{"opcodes with modifiers",
		"ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];\nsetp.eq.and.u32 %p1, %r1, %r2, %p2;\nmul.wide.u32 %rd1, %r1, 4;\ncvt.rn.f32.s32 %f1, %r1;\natom.global.add.u32 %r1, [%rd1], 1;\n" +
			"bar.sync 0;\nbarrier.sync.aligned 0;\nsetmaxnreg.inc.sync.aligned.u32 192;\nmembar.gl;\nfence.acq_rel.gpu;\ncvta.to.global.u64 %rd1, %rd2;\n" +
			"shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;\nvote.sync.ballot.b32 %r1, %p1, -1;",
		"ld[global nc v4 f32] {R(%f1), R(%f2), R(%f3), R(%f4)}, [R %rd1]\nsetp[eq and u32] R(%p1), R(%r1), R(%r2), R(%p2)\nmul[wide u32] R(%rd1), R(%r1), I(4=4)\ncvt[rn f32 s32] R(%f1), R(%r1)\natom[global add u32] R(%r1), [R %rd1], I(1=1)\n" +
			"bar[sync] I(0=0)\nbarrier[sync aligned] I(0=0)\nsetmaxnreg[inc sync aligned u32] I(192=192)\nmembar[gl]\nfence[acq_rel gpu]\ncvta[to global u64] R(%rd1), R(%rd2)\n" +
			"shfl[sync bfly b32] R(%r1), R(%r2), I(1=1), I(31=31), I(-1=-1)\nvote[sync ballot b32] R(%r1), R(%p1), I(-1=-1)"},
	{"registers and symbols",
		"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %laneid;\nmov.pred p, q;\nmov.u64 %rd1, __local_depot0;\nnot.pred %p2, !%p1;\nS2R %r1, SR_GLOBAL_ESR;\nadd.u32 %r0, %r1+1, %r2+-1;\nmov.u64 %rd1, sym+4;\nmov.u64 %rd1, sym-4;\nmov.v4.u32 %rx, %clusterid;\nadd.f32 v.x, v.w, v.xy;",
		"mov[u32] R(%r1), R(%tid.x)\nmov[u32] R(%r2), R(%laneid)\nmov[pred] S(p), S(q)\nmov[u64] R(%rd1), S(__local_depot0)\nnot[pred] R(%p2), R(!%p1)\nS2R R(%r1), S(SR_GLOBAL_ESR)\nadd[u32] R(%r0), R(%r1+1), R(%r2-1)\nmov[u64] R(%rd1), S(sym+4)\nmov[u64] R(%rd1), S(sym-4)\nmov[v4 u32] R(%rx), R(%clusterid)\nadd[f32] R(v.x), R(v.w), S(v.xy)"},
	{"integer immediates",
		"mov.u32 %r1, 0x1F;\nmov.u32 %r1, 017;\nmov.u32 %r1, 0b101;\nmov.s32 %r1, -1;\nmov.u32 %r1, 0x80000000U;\nmov.u32 %r1, 0;\nmov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;\nmov.u64 %rd1, 18446744073709551615;\nmov.s64 %rd1, -9223372036854775808;",
		"mov[u32] R(%r1), I(0x1F=31)\nmov[u32] R(%r1), I(017=15)\nmov[u32] R(%r1), I(0b101=5)\nmov[s32] R(%r1), I(-1=-1)\nmov[u32] R(%r1), I(0x80000000U=2147483648)\nmov[u32] R(%r1), I(0=0)\nmov[u64] R(%rd1), I(0xFFFFFFFFFFFFFFFF=-1)\nmov[u64] R(%rd1), I(18446744073709551615=-1)\nmov[s64] R(%rd1), I(-9223372036854775808=-9223372036854775808)"},
	{"float immediates",
		"mov.f32 %f1, 0f3F800000;\nmov.f32 %f1, -0f3F800000;\nmov.f64 %fd1, 0d3FF0000000000000;\nmov.f64 %fd1, -0d3FF0000000000000;\nmov.f32 %f1, 1.5;\nmov.f32 %f1, 1e-3;\nmov.f32 %f1, -2.5E+2;\nmov.f32 %f1, 0f7FC00000;",
		"mov[f32] R(%f1), F(0f3F800000=1 bits=0x3f800000)\nmov[f32] R(%f1), F(-0f3F800000=-1 bits=0xbf800000)\nmov[f64] R(%fd1), F(0d3FF0000000000000=1 bits=0x3ff0000000000000)\nmov[f64] R(%fd1), F(-0d3FF0000000000000=-1 bits=0xbff0000000000000)\nmov[f32] R(%f1), F(1.5=1.5)\nmov[f32] R(%f1), F(1e-3=0.001)\nmov[f32] R(%f1), F(-2.5E+2=-250)\nmov[f32] R(%f1), F(0f7FC00000=NaN bits=0x7fc00000)"},
	{"addresses",
		"ld.u32 %r1, [%rd1];\nld.u32 %r1, [%rd1+4];\nld.u32 %r1, [%rd1+-4];\nld.u32 %r1, [%rd1-4];\nld.u32 %r1, [sym];\nld.u32 %r1, [sym+8];\nst.param.b32 [func_retval0+0], %r1;\nld.local.u32 %r1, [64];\nld.u32 %r1, [%SP+0x10];\ntex.2d.v4.s32.f32 {%r0, %r1, %r2, %r3}, [tex, {%fx, %fy}];",
		"ld[u32] R(%r1), [R %rd1]\nld[u32] R(%r1), [R %rd1+4]\nld[u32] R(%r1), [R %rd1-4]\nld[u32] R(%r1), [R %rd1-4]\nld[u32] R(%r1), [S sym]\nld[u32] R(%r1), [S sym+8]\nst[param b32] [S func_retval0], R(%r1)\nld[local u32] R(%r1), [64]\nld[u32] R(%r1), [R %SP+16]\ntex[2d v4 s32 f32] {R(%r0), R(%r1), R(%r2), R(%r3)}, [S tex, {R(%fx), R(%fy)}]"},
	{"vectors, sinks and pipes",
		"mov.u32 %r0, {0, %reg_16};\nld.v2.u32 {%r1, _}, [%rd1];\nsetp.lt.s32 p|q, %r1, 0;\nsetp.lt.s32 %p1|%p2, %r1, 0;",
		"mov[u32] R(%r0), {I(0=0), R(%reg_16)}\nld[v2 u32] {R(%r1), S(_)}, [R %rd1]\nsetp[lt s32] S(p)|S(q), R(%r1), I(0=0)\nsetp[lt s32] R(%p1)|R(%p2), R(%r1), I(0=0)"},
	{"calls",
		"call.uni (retval0), \n\t_Z2sqj, \n\t(\n\tparam0\n\t);\ncall %rd1, (param0), prototype_0;\ncall init;\ncall.uni g, (a);\n@p call (d), h, (a, b);\ncall (retval), %r0, (x, y), jmptbl;\ncall f, ();",
		"call[uni] (S(retval0)), S(_Z2sqj), (S(param0))\ncall R(%rd1), (S(param0)), S(prototype_0)\ncall S(init)\ncall[uni] S(g), (S(a))\n@R(p) call (S(d)), S(h), (S(a), S(b))\ncall (S(retval)), R(%r0), (S(x), S(y)), S(jmptbl)\ncall S(f), ()"},
	{"SASS trap handler",
		"BPT.TRAP 1;\nBPT.DRAIN;\nBPT.PAUSE;\nBPT.PAUSE_QUIET;\nBPT.INT;\nIDE.EN;\nIDE.DIS;\nRTT;\nS2R %r1, SR_GLOBAL_ESR;\nBPT.PAUSE; BPT.TRAP 1; BPT.DRAIN; BPT.INT;",
		"BPT[TRAP] I(1=1)\nBPT[DRAIN]\nBPT[PAUSE]\nBPT[PAUSE_QUIET]\nBPT[INT]\nIDE[EN]\nIDE[DIS]\nRTT\nS2R R(%r1), S(SR_GLOBAL_ESR)\nBPT[PAUSE]\nBPT[TRAP] I(1=1)\nBPT[DRAIN]\nBPT[INT]"},
	{"multi-line operands and comments everywhere",
		"add.s32 /* a */ %r1, // b\n %r2,\n\n 4 /* c */ ;",
		"add[s32] R(%r1), R(%r2), I(4=4)"},
}

func TestParseBody(t *testing.T) {
	checkDumps(t, bodyTests, parseBody)
}

func TestParsePositions(t *testing.T) {
	src := testHeader + ".visible .entry k(.param .u64 a)\n{\n\t.reg .b32 %r<2>;\nL1:\t@!%p1 add.s32 %r1, [x+4], {%r2, 5};\n}\n"
	m := mustParse(t, src)
	f := m.Decls[0].(*Func)
	check := func(what string, p Pos, line, col int) {
		t.Helper()
		if p.File != "t.ptx" || p.Line != line || p.Col != col {
			t.Errorf("%s at %v, want t.ptx:%d:%d", what, p, line, col)
		}
	}
	check("func", f.Pos, 4, 1)
	check("param", f.Params[0].Pos, 4, 19)
	check("body", f.Body.Pos, 5, 1)
	check("body end", f.Body.End, 8, 1)
	check("decl", StmtPos(f.Body.Stmts[0]), 6, 2)
	check("var", f.Body.Stmts[0].(*VarDecl).Vars[0].Pos, 6, 12)
	check("label", StmtPos(f.Body.Stmts[1]), 7, 1)
	in := f.Body.Stmts[2].(*Instr)
	check("instr", in.Pos, 7, 5)
	check("guard", in.Guard.Pos, 7, 6)
	check("op0", OperandPos(in.Operands[0]), 7, 19)
	check("op1", OperandPos(in.Operands[1]), 7, 24)
	check("op2", OperandPos(in.Operands[2]), 7, 31)
	check("vec elem", OperandPos(in.Operands[2].(*VecOperand).Elems[1]), 7, 37)
}

func TestParseImmediateValues(t *testing.T) {
	m := mustParse(t, testHeader+".entry k() { mov.f32 %f1, 0f40490FDB; mov.f64 %d, 1e308; }")
	in := m.Decls[0].(*Func).Body.Stmts
	imm := in[0].(*Instr).Operands[1].(*ImmOperand)
	if !imm.Float || float32(imm.F) != float32(math.Pi) || imm.Int != 0x40490FDB {
		t.Errorf("0f40490FDB: %+v", imm)
	}
	imm = in[1].(*Instr).Operands[1].(*ImmOperand)
	if !imm.Float || imm.F != 1e308 {
		t.Errorf("1e308: %+v", imm)
	}
}

// ---- errors ----

// errKernel opens a kernel on lines 4 and 5 (after testHeader); its body starts on line 6.
const errKernel = ".visible .entry k()\n{\n"

var errorTests = []struct {
	name, src string
	want      []string
}{
	{"missing semicolon", errKernel + "\tmov.u32 %r1, 2\n\tadd.s32 %r2, %r1, 1;\n}\n",
		[]string{"t.ptx:6:16: missing ';' after instruction"}},
	{"missing semicolon before next line", errKernel + "\tret\n\tadd.s32 %r2, %r1, 1;\n\tret\n}\n",
		[]string{"t.ptx:6:5: missing ';' after instruction", "t.ptx:8:5: missing ';' after instruction"}},
	{"missing closing brace", errKernel + "\tret;\n.visible .entry k2()\n{\n\tret;\n}\n",
		[]string{"t.ptx:7:10: unexpected .entry inside a function body (missing '}'?)", "t.ptx:11:1: unexpected end of file: missing '}' to close the block at 5:1"}},
	{"missing comma", errKernel + "\tadd.s32 %r2 %r1, 1;\n}\n",
		[]string{"t.ptx:6:14: expected ';' after instruction, found '%r1'"}},
	{"unterminated block comment", errKernel + "\tret; /* never closed\n ret;\n",
		[]string{"t.ptx:6:7: unterminated block comment", "t.ptx:8:1: unexpected end of file: missing '}' to close the block at 5:1"}},
	{"bad number", errKernel + "\tmov.u32 %r1, 12abc;\n\tmov.u32 %r1, 0x;\n\tmov.u32 %r1, 09;\n\tmov.f32 %f1, 0f3F80;\n}\n",
		[]string{`t.ptx:6:15: invalid number literal "12abc"`, `t.ptx:7:15: invalid number literal "0x"`, `t.ptx:8:15: invalid number literal "09"`, `t.ptx:9:15: invalid number literal "0f3F80"`}},
	{"integer overflow", errKernel + "\tmov.u64 %rd1, 18446744073709551616;\n\tmov.u64 %rd1, 0x1FFFFFFFFFFFFFFFF;\n}\n",
		[]string{"t.ptx:6:16: integer literal 18446744073709551616 out of range", "t.ptx:7:16: integer literal 0x1FFFFFFFFFFFFFFFF out of range"}},
	{"float overflow", errKernel + "\tmov.f64 %fd1, 1e999;\n}\n",
		[]string{"t.ptx:6:16: floating-point literal 1e999 out of range"}},
	{"EOF in body", errKernel + "\tret;\n",
		[]string{"t.ptx:7:1: unexpected end of file: missing '}' to close the block at 5:1"}},
	{"brace without open", errKernel + "\tret;\n}\n}\n",
		[]string{"t.ptx:8:1: unexpected '}' at module scope"}},
	{"bad guard", errKernel + "\t@5 bra L;\n\t@%p1;\n\t@!; ret;\n}\n",
		[]string{"t.ptx:6:3: expected predicate after '@', found 5", "t.ptx:7:6: expected instruction, found ';'", "t.ptx:8:4: expected predicate after '@', found ';'"}},
	{"unterminated string", ".pragma \"nounroll;\n",
		[]string{"t.ptx:4:9: unterminated string literal", "t.ptx:4:19: missing ';' after .pragma"}},
	{"bad characters", errKernel + "\tret; \x00 \xff é\n}\n",
		[]string{"t.ptx:6:7: unexpected character U+0000", "t.ptx:6:9: invalid UTF-8 encoding", "t.ptx:6:11: unexpected character U+00E9 'é'"}},
	{"bad version", ".version 8\n",
		[]string{"t.ptx:4:10: expected version number MAJOR.MINOR after .version, found 8"}},
	{"unsupported directive", ".alias a, b;\n" + errKernel + "\t.maxnreg 3;\n}\n",
		[]string{"t.ptx:4:1: unsupported: .alias", "t.ptx:7:2: unsupported: .maxnreg"}},
	{"unsupported param", ".func k2(.reg .v8 .f32 x) { }\n.entry k3(.param .b8 y[]) { }\n",
		[]string{"t.ptx:4:15: .v8 is not a register vector (.reg takes .v2 and .v4)", "t.ptx:5:23: unsupported: unsized array parameter"}},
	{"guarded block", errKernel + "\t@p { ret; }\n}\n",
		[]string{"t.ptx:6:5: a guard applies to one instruction, not to a { } block (not PTX)"}},
	{"unknown directive", ".frob x;\n" + errKernel + "\t.frob 3;\n}\n",
		[]string{"t.ptx:4:1: unknown directive .frob (not PTX)", "t.ptx:7:2: unknown directive .frob (not PTX)"}},
	{"preprocessor", "#include \"x.h\"\n",
		[]string{"t.ptx:4:1: unsupported: preprocessor directive"}},
	{"bad address", errKernel + "\tld.u32 %r1, [%rd1+%r2];\n\tld.u32 %r1, [%rd1;\n}\n",
		[]string{"t.ptx:6:20: expected integer offset, found '%r2'", "t.ptx:7:19: expected ']' to close the address, found ';'"}},
	{"bad declarations", errKernel + "\t.reg %r1;\n\t.reg .b32 %r<0>;\n\t.reg .b32 %r<99999999999>;\n\t.reg .u33 x;\n}\n",
		[]string{"t.ptx:6:7: expected type in .reg declaration, found '%r1'", "t.ptx:7:15: register count must be positive", "t.ptx:8:15: register count 99999999999 out of range", "t.ptx:9:7: unsupported: .u33 in .reg declaration"}},
	{"missing body", ".entry k2()\n.entry k3() { }\n",
		[]string{"t.ptx:4:12: expected '{' or ';' after the signature of k2"}},
	{"statement errors", errKernel + "\t%r1 = 5;\n\t.branchtargets L1;\n\t1: ret;\n}\n",
		[]string{"t.ptx:6:2: expected instruction, found '%r1'", "t.ptx:7:2: .branchtargets needs a label", "t.ptx:8:2: expected statement, found 1"}},
	{"zluda output syntax", errKernel + "\t<Trap>;\n\t<;\n}\n",
		[]string{"t.ptx:6:2: expected statement, found <Trap> (an IR placeholder of ZLUDA's test output, not PTX)", "t.ptx:7:2: expected statement, found '<'"}},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorTests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.ptx", []byte(testHeader+tc.src))
			if err == nil {
				t.Fatalf("no error for:\n%s", tc.src)
			}
			list, ok := err.(ErrorList)
			if !ok {
				t.Fatalf("error is %T, want ErrorList", err)
			}
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestParseErrorLimitAndNesting(t *testing.T) {
	// Many errors: the list stops at maxErrors plus "too many errors".
	_, err := Parse("t.ptx", []byte(strings.Repeat("}\n", 100)))
	list := err.(ErrorList)
	if len(list) != maxErrors+1 || list[maxErrors].Msg != "too many errors" {
		t.Errorf("got %d errors, last %v", len(list), list[len(list)-1])
	}
	// Deep nesting is refused, not a stack overflow.
	for _, src := range []string{
		".entry k() " + strings.Repeat("{", 100000),
		".global .u32 x[1] = " + strings.Repeat("{", 100000) + "1;",
	} {
		_, err := Parse("t.ptx", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("deep nesting: %v", err)
		}
	}
	// Nesting within the limit is fine.
	src := ".entry k() " + strings.Repeat("{", maxNesting) + strings.Repeat("}", maxNesting)
	if _, err := Parse("t.ptx", []byte(src)); err != nil {
		t.Errorf("%d nested blocks: %v", maxNesting, err)
	}
}

func TestParseUnsupportedFlag(t *testing.T) {
	_, err := Parse("t.ptx", []byte(testHeader+".alias a, b;\n"))
	e := err.(ErrorList)[0]
	if !e.Unsupported() {
		t.Errorf("%v: want Unsupported()", e)
	}
}

// ---- the real-PTX corpus ----

// corpusExpect lists corpus files that do not parse, with the exact error
// each must give. Every other file must parse without error.
var corpusExpect = map[string]string{
	// ZLUDA's test file ends with ZLUDA's expected output, an IR dump in
	// PTX-like syntax ("%4:" labels, "<Trap>;"): the placeholder is a
	// syntax error at its position (not "unsupported:", which is for legal
	// PTX the model does not implement). The real kernel above it parses.
	"zluda-trap.ptx": "zluda-trap.ptx:21:5: expected statement, found <Trap> (an IR placeholder of ZLUDA's test output, not PTX)",
}

func TestParseCorpus(t *testing.T) {
	dir := sharedtest.Dir(t, "corpus/ptx")
	files, err := filepath.Glob(filepath.Join(dir, "*.ptx"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .ptx files in %s", dir)
	}
	var table []string
	for _, path := range files {
		name := filepath.Base(path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		m, err := Parse(name, src)
		elapsed := time.Since(start)
		result, first := "ok", ""
		if err != nil {
			result = "FAIL"
			first = err.(ErrorList)[0].Error()
		}
		table = append(table, fmt.Sprintf("%-36s %-5s %6d lines %4d decls %10v  %s", name, result, len(m.Lines), len(m.Decls), elapsed.Round(time.Microsecond), first))
		want, expectFail := corpusExpect[name]
		switch {
		case err == nil && expectFail:
			t.Errorf("%s: parsed, but the test expects %q", name, want)
		case err != nil && !expectFail && !(name == "zluda-vectorAdd.ptx" && allUnsupported(err)):
			t.Errorf("%s: %v", name, err)
		case err != nil && expectFail && err.Error() != want:
			t.Errorf("%s: got %v, want %s", name, err, want)
		}
		if elapsed > time.Second {
			t.Errorf("%s: parsing took %v", name, elapsed)
		}
		if err == nil && len(m.Decls) == 0 {
			t.Errorf("%s: no declarations", name)
		}
	}
	t.Logf("corpus %s:\n%s", dir, strings.Join(table, "\n"))
}

func allUnsupported(err error) bool {
	for _, e := range err.(ErrorList) {
		if !e.Unsupported() {
			return false
		}
	}
	return true
}

// TestParseCorpusShapes spot-checks the AST of real compiler output.
func TestParseCorpusShapes(t *testing.T) {
	dir := sharedtest.Dir(t, "corpus/ptx")
	src, err := os.ReadFile(filepath.Join(dir, "clang16-switch-call.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	m := mustParse(t, string(src))
	if len(m.Decls) != 2 {
		t.Fatalf("want 2 functions, got %d", len(m.Decls))
	}
	sq := m.Decls[0].(*Func)
	if sq.Name != "_Z2sqj" || sq.Entry || sq.Linkage != "visible" || len(sq.Rets) != 1 || sq.Rets[0].Name != "func_retval0" {
		t.Errorf("_Z2sqj header: %s", dumpFunc(sq))
	}
	sw := m.Decls[1].(*Func)
	var calls []string
	walkStmts(sw.Body, func(s Stmt) {
		if s, ok := s.(*Instr); ok && s.Op == "call" {
			calls = append(calls, dumpStmt(s))
		}
	})
	want := "call[uni] (S(retval0)), S(_Z2sqj), (S(param0))"
	if len(calls) != 2 || calls[0] != want || calls[1] != want {
		t.Errorf("calls in sw: %q", calls)
	}

	src, err = os.ReadFile(filepath.Join(dir, "zluda-vectorAdd.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	m = mustParse(t, string(src))
	names := []string{}
	for _, d := range m.Decls {
		if f, ok := d.(*Func); ok {
			names = append(names, f.Name)
		}
	}
	if len(names) != 12 || names[0] != "fabsf" || m.Decls[0].(*Func).Body != nil {
		t.Errorf("zluda-vectorAdd functions: %q", names)
	}
}

func BenchmarkParseZludaVectorAdd(b *testing.B) {
	dir := sharedtest.Dir(b, "corpus/ptx")
	src, err := os.ReadFile(filepath.Join(dir, "zluda-vectorAdd.ptx"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("v.ptx", src); err != nil {
			b.Fatal(err)
		}
	}
}
