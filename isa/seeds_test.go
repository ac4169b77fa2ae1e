package isa

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/smsim/smsim/internal/sharedtest"
)

// The PTX examples of the seed specification excerpts (shared/seeds), made
// into standalone modules. seedExamples lists them; wrapSeedExample turns one
// example block into a module. TestSeedExamples only parses them; to check
// them with the assembler instead, change the one call marked below.

// seedExample is one example block of a seed file, already wrapped.
type seedExample struct {
	Name   string // "003/10.1": seed file prefix and spec section number ("#2" for a second block)
	Block  string // the block as it appears in the seed file
	Source string // wrapSeedExample(Block)
}

var seedHeading = regexp.MustCompile(`^(?:#+ +)?(\d+(?:\.\d+)+)\.? `)

// seedBlocks extracts the example blocks of one seed file: fenced ```
// blocks right after an "Examples" line (000, 003), or the lines after
// "Examples" / "ptx" up to the next section heading (004).
func seedBlocks(t testing.TB, path, prefix string) []seedExample {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out []seedExample
	section := "0"
	count := map[string]int{}
	add := func(block []string) {
		text := strings.Trim(strings.Join(block, "\n"), "\n")
		if strings.TrimSpace(text) == "" {
			return
		}
		count[section]++
		name := prefix + "/" + section
		if count[section] > 1 {
			name += fmt.Sprintf("#%d", count[section])
		}
		out = append(out, seedExample{Name: name, Block: text})
	}
	lastNonBlank := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if m := seedHeading.FindStringSubmatch(l); m != nil {
			section = m[1]
		}
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			// Fenced block: take it when it follows "Examples".
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
				j++
			}
			if lastNonBlank == "Examples" {
				add(lines[i+1 : min(j, len(lines))])
			}
			i = j
			lastNonBlank = "```"
			continue
		case trimmed == "ptx" && lastNonBlank == "Examples":
			// 004 style: the block runs to the next section heading.
			j := i + 1
			for j < len(lines) && !seedHeading.MatchString(lines[j]) {
				j++
			}
			add(lines[i+1 : j])
			i = j - 1
			lastNonBlank = "ptx"
			continue
		}
		if trimmed != "" {
			lastNonBlank = trimmed
		}
	}
	return out
}

// seedExamples returns every example block of seeds 000, 003 and 004,
// wrapped into modules. It fails the test when a seed file is missing or
// has no examples.
func seedExamples(t testing.TB) []seedExample {
	t.Helper()
	dir := sharedtest.Dir(t, "seeds")
	var all []seedExample
	for _, prefix := range []string{"000", "003", "004"} {
		files, _ := filepath.Glob(filepath.Join(dir, prefix+"_*.txt"))
		if len(files) != 1 {
			t.Fatalf("want one seed file %s_*.txt in %s, found %d", prefix, dir, len(files))
		}
		blocks := seedBlocks(t, files[0], prefix)
		if len(blocks) == 0 {
			t.Fatalf("%s: no example blocks found", files[0])
		}
		t.Logf("%s: %d example blocks", filepath.Base(files[0]), len(blocks))
		for i := range blocks {
			blocks[i].Source = wrapSeedExample(blocks[i].Block)
		}
		all = append(all, blocks...)
	}
	return all
}

// seedFix is a textual fix for a seed example that is not standalone
// valid PTX. It applies to the blocks containing key; an empty old replaces
// the whole block with new.
type seedFix struct {
	key, old, new string
	why           string
}

var seedFixes = []seedFix{
	{key: "%r, %lanemask_le", old: "%r, %lanemask_le", new: "%r, %lanemask_le;",
		why: "003 %lanemask_le example: missing ';'"},
	{key: "ratio,x,y", old: "ratio,x,y", new: "ratio,x,y;",
		why: "004 '@' example: missing ';' after div.f32"},
	{key: ".function foo", old: ".function foo", new: ".func foo",
		why: "004 brx.idx example: '.function' is not a PTX keyword"},
	{key: ".function foo", old: ".reg .u32 %r0;", new: ".reg .u32 %r0;\n    .reg .pred p;",
		why: "004 brx.idx example: the guard predicate p is not declared"},
	{key: "call-via-pointer using jump table", old: "", new: seedCallModule,
		why: "004 call example: three fragments mixing module and body scope, " +
			"bodies elided with '...', foo/bar/baz declared twice and %fptr vs fptr; " +
			"rewritten as one module keeping every example line"},
}

// seedCallModule is the 004 call example as one module: every instruction
// and directive of the example, in scopes where they are valid.
const seedCallModule = `.func init
{
	ret;
}

.func g (.reg .u32 a)
{
	ret;
}

.func (.reg .u32 rv) h (.reg .u32 a, .reg .u32 b)
{
	add.u32 rv, a, b;
	ret;
}

// call-via-pointer using jump table
.func (.reg .u32 rv) foo (.reg .u32 a, .reg .u32 b)
{
	add.u32 rv, a, b;
	ret;
}
.func (.reg .u32 rv) bar (.reg .u32 a, .reg .u32 b)
{
	sub.u32 rv, a, b;
	ret;
}
.func (.reg .u32 rv) baz (.reg .u32 a, .reg .u32 b)
{
	mul.lo.u32 rv, a, b;
	ret;
}

.global .u32 jmptbl[5] = { foo, bar, baz };

// call-via-pointer using .callprototype directive
.func dispatch (.reg .u32 %fptr, .reg .u32 idx)
{
	.reg .u32 x, y;
	mov.u32 x, 1;
	mov.u32 y, 2;
Fproto: .callprototype _ (.param .u32 _, .param .u32 _);
      call  %fptr, (x, y), Fproto;
	ret;
}

.visible .entry k()
{
	.reg .pred p, q;
	.reg .u32 a, b, d, x, y, retval, %r0;
	mov.u32 a, 1;
	mov.u32 b, 2;
	mov.u32 x, 3;
	mov.u32 y, 4;
	setp.ne.u32 p, a, 0;
	setp.eq.u32 q, a, 0;
// examples of direct call
    call     init;    // call function 'init'
    call.uni g, (a);  // call function 'g' with parameter 'a'
@p  call     (d), h, (a, b);  // return value into register d

@p    ld.global.u32  %r0, [jmptbl+4];
@p    ld.global.u32  %r0, [jmptbl+8];
      call  (retval), %r0, (x, y), jmptbl;

// call-via-pointer using .calltargets directive
@p    mov.u32  %r0, foo;
@q    mov.u32  %r0, baz;
Ftgt: .calltargets foo, bar, baz;
      call  (retval), %r0, (x, y), Ftgt;
	ret;
}
`

const seedHeader = ".version 8.0\n.target sm_90a\n.address_size 64\n\n"

var moduleLevelLine = regexp.MustCompile(`(?m)^\s*\.(func|entry|visible|extern|weak|global|const)\b`)

// wrapSeedExample makes one seed example block a standalone module: fixes
// from seedFixes, "..." lines dropped, then either the module header alone
// (for blocks declaring functions or variables) or a kernel around the
// fragment that declares the registers it uses, defines the labels it
// branches to and the functions it calls.
func wrapSeedExample(block string) string {
	frag := block
	for _, f := range seedFixes {
		if !strings.Contains(block, f.key) {
			continue
		}
		if f.old == "" {
			frag = f.new
		} else {
			frag = strings.ReplaceAll(frag, f.old, f.new)
		}
	}
	var kept []string
	for _, l := range strings.Split(frag, "\n") {
		if strings.TrimSpace(l) == "..." {
			continue
		}
		kept = append(kept, l)
	}
	frag = strings.Join(kept, "\n")
	if moduleLevelLine.MatchString(frag) {
		return seedHeader + frag + "\n"
	}
	kernel := func(decls, tail string) string {
		return seedHeader + ".visible .entry k()\n{\n" + decls + frag + "\n" + tail + "\tret;\n}\n"
	}
	naive := kernel("", "")
	m, err := Parse("", []byte(naive))
	if err != nil || len(m.Decls) != 1 {
		return naive // the caller's check reports the error
	}
	inf := inferUses(m.Decls[0].(*Func).Body)
	var decls, tail, funcs strings.Builder
	for _, name := range sortedKeys(inf.regs) {
		fmt.Fprintf(&decls, "\t.reg .%s %s;\n", inf.regs[name], name)
	}
	for _, name := range sortedKeys(inf.labels) {
		fmt.Fprintf(&tail, "%s:\n", name)
	}
	for _, name := range sortedKeys(inf.calls) {
		c := inf.calls[name]
		funcs.WriteString(".func ")
		if len(c.rets) > 0 {
			fmt.Fprintf(&funcs, "(%s) ", regParams("r", c.rets, inf.regs))
		}
		fmt.Fprintf(&funcs, "%s (%s)\n{\n\tret;\n}\n\n", name, regParams("p", c.args, inf.regs))
	}
	return strings.Replace(kernel(decls.String(), tail.String()), seedHeader, seedHeader+funcs.String(), 1)
}

func regParams(prefix string, names []string, types map[string]string) string {
	var ps []string
	for i, n := range names {
		ty := types[n]
		if ty == "" {
			ty = "b32"
		}
		ps = append(ps, fmt.Sprintf(".reg .%s %s%d", ty, prefix, i))
	}
	return strings.Join(ps, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type seedCall struct{ rets, args []string }

// seedUses is what a fragment uses without declaring it.
type seedUses struct {
	regs   map[string]string // register name -> type ("pred", "u32", ...)
	labels map[string]bool
	calls  map[string]seedCall
}

// inferUses walks a parsed fragment and collects the registers, labels and
// functions it uses but does not declare. Types come from the instruction:
// predicates from guards, '!', setp destinations and selp's selector; other
// operands take the instruction's type modifier (the first one for the
// destination, the last one for sources: cvt.u32.u16).
func inferUses(body *Block) seedUses {
	declared := map[string]bool{"_": true}
	u := seedUses{regs: map[string]string{}, labels: map[string]bool{}, calls: map[string]seedCall{}}
	use := func(name, ty string) {
		if ty == "pred" || u.regs[name] == "" {
			u.regs[name] = ty
		}
	}
	var instrs []*Instr
	walkStmts(body, func(s Stmt) {
		switch s := s.(type) {
		case *VarDecl:
			for _, v := range s.Vars {
				declared[v.Name] = true
				for i := 0; i < v.Range; i++ {
					declared[fmt.Sprintf("%s%d", v.Name, i)] = true
				}
			}
		case *Label:
			declared[s.Name] = true
		case *BranchTargets:
			declared[s.Name] = true
		case *CallTargets:
			declared[s.Name] = true
		case *CallPrototype:
			declared[s.Name] = true
		case *Instr:
			instrs = append(instrs, s)
		}
	})
	for _, in := range instrs {
		var types []string
		for _, m := range in.Mods {
			if _, ok := ParseType(m); ok {
				types = append(types, m)
			}
		}
		dstTy, srcTy := "b32", "b32"
		if len(types) > 0 {
			dstTy, srcTy = types[0], types[len(types)-1]
		}
		if in.Guard != nil {
			use(in.Guard.Name, "pred")
		}
		switch in.Op {
		case "bra":
			if len(in.Operands) > 0 {
				if s, ok := in.Operands[0].(*SymOperand); ok && !declared[s.Name] {
					u.labels[s.Name] = true
				}
			}
			continue
		case "call":
			var lists [][]string
			callee := ""
			for _, o := range in.Operands {
				switch o := o.(type) {
				case *ListOperand:
					var names []string
					for _, e := range o.Elems {
						if n := operandName(e); n != "" {
							names = append(names, n)
							use(n, "b32")
						}
					}
					lists = append(lists, names)
				case *SymOperand:
					if callee == "" {
						callee = o.Name
					}
				case *RegOperand:
					if callee == "" {
						callee = "%"
						use(o.Name, "b32")
					}
				}
			}
			if callee != "" && callee != "%" {
				var c seedCall
				switch {
				case len(lists) == 2:
					c.rets, c.args = lists[0], lists[1]
				case len(lists) == 1 && len(in.Operands) > 0 && isList(in.Operands[0]):
					c.rets = lists[0]
				case len(lists) == 1:
					c.args = lists[0]
				}
				u.calls[callee] = c
			}
			continue
		}
		for i, o := range in.Operands {
			ty := srcTy
			if i == 0 {
				ty = dstTy
			}
			if (in.Op == "setp" && i == 0) || (in.Op == "selp" && i == 3) {
				ty = "pred"
			}
			var visit func(o Operand, ty string)
			visit = func(o Operand, ty string) {
				switch o := o.(type) {
				case *RegOperand:
					if o.Neg {
						ty = "pred"
					}
					use(o.Name, ty)
				case *SymOperand:
					use(o.Name, ty)
				case *PipeOperand:
					visit(o.A, ty)
					visit(o.B, ty)
				case *VecOperand:
					for _, e := range o.Elems {
						visit(e, ty)
					}
				case *AddrOperand:
					if o.Base != "" {
						use(o.Base, "b64")
					}
				}
			}
			visit(o, ty)
		}
	}
	for name := range u.regs {
		_, called := u.calls[name]
		if declared[name] || isSpecialName(name) || called || u.labels[name] {
			delete(u.regs, name)
		}
	}
	return u
}

func isList(o Operand) bool { _, ok := o.(*ListOperand); return ok }

func operandName(o Operand) string {
	switch o := o.(type) {
	case *RegOperand:
		return o.Name
	case *SymOperand:
		return o.Name
	}
	return ""
}

// isSpecialName reports a special register (or vector special register base).
func isSpecialName(name string) bool {
	if IsSRegVector(name) {
		return true
	}
	_, ok := LookupSReg(name)
	return ok
}

func TestSeedExamples(t *testing.T) {
	examples := seedExamples(t)
	perFile := map[string]int{}
	for _, ex := range examples {
		perFile[ex.Name[:3]]++
		t.Run(ex.Name, func(t *testing.T) {
			// Every example must assemble, not only parse (issue 2).
			_, err := AssembleSource(ex.Name+".ptx", []byte(ex.Source))
			if err != nil {
				t.Errorf("%v\n--- block:\n%s\n--- wrapped:\n%s", err, ex.Block, ex.Source)
			}
		})
	}
	t.Logf("example blocks per seed: %v", perFile)
	if perFile["000"] < 5 || perFile["003"] < 30 || perFile["004"] < 7 {
		t.Errorf("too few example blocks extracted: %v", perFile)
	}
	// Every fix must still match some block, so that a seed edit cannot
	// silently leave a stale fix behind.
	for _, f := range seedFixes {
		found := false
		for _, ex := range examples {
			if strings.Contains(ex.Block, f.key) && (f.old == "" || strings.Contains(ex.Block, f.old)) {
				found = true
			}
		}
		if !found {
			t.Errorf("seed fix for %q (%s) matches no block", f.key, f.why)
		}
	}
}

// TestSeedWrapDeclares checks that the wrapper declares what a fragment uses.
func TestSeedWrapDeclares(t *testing.T) {
	src := wrapSeedExample("@p  call (d), h, (a, b);\nsetp.eq.f32 q, y, 0;\n@!q bra L23;\nmov.u16 %rh, %tid.x;\ncvt.u32.u16 %r2, %tid.z;")
	for _, want := range []string{
		".reg .pred p;", ".reg .pred q;", ".reg .b32 d;", ".reg .b32 a;", ".reg .f32 y;",
		".reg .u16 %rh;", ".reg .u32 %r2;", "L23:\n", ".func (.reg .b32 r0) h (.reg .b32 p0, .reg .b32 p1)",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("wrapped source lacks %q:\n%s", want, src)
		}
	}
	for _, bad := range []string{"%tid", "h", "L23"} {
		if regexp.MustCompile(`\.reg \.\w+ ` + regexp.QuoteMeta(bad) + `;`).MatchString(src) {
			t.Errorf("wrapped source declares %q as a register:\n%s", bad, src)
		}
	}
	if _, err := Parse("wrap.ptx", []byte(src)); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
}

// TestSeedSregSyntax parses the "Syntax (predefined)" blocks of seed 003
// (the .sreg declarations of the special registers) at module scope.
func TestSeedSregSyntax(t *testing.T) {
	dir := sharedtest.Dir(t, "seeds")
	files, _ := filepath.Glob(filepath.Join(dir, "003_*.txt"))
	if len(files) != 1 {
		t.Fatalf("seed 003 not found in %s", dir)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)Syntax \\(predefined\\)\\s*```\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 30 {
		t.Fatalf("found %d .sreg syntax blocks, want 30 or more", len(blocks))
	}
	for _, b := range blocks {
		// One block lacks the ';' after ".sreg .v4 .u32 %nctaid".
		text := strings.Replace(b[1], ".u32 %nctaid ", ".u32 %nctaid; ", 1)
		m, err := Parse("sreg.ptx", []byte(seedHeader+text))
		if err != nil {
			t.Errorf("%v\n%s", err, text)
			continue
		}
		for _, d := range m.Decls {
			if vd, ok := d.(*VarDecl); !ok || vd.Space != "sreg" {
				t.Errorf("want .sreg declarations only, got %#v", d)
			}
		}
	}
}
