// Parsing module-level declarations: directives, variables, initializers and immediates.

package isa

// The PTX parser: syntax only. Types, declarations and operand kinds are
// checked later by the assembler.
//
// Operand rule. The parser does not know which names are registers, so it
// classifies operands by spelling alone:
//
//   - a %-prefixed name is a *RegOperand ("%r1", "%SP"); a dotted suffix is
//     its component ("%tid.x" -> Name "%tid", Comp "x"), and "%r1+4" sets
//     Offset/HasOffset;
//   - a bare name ("p", "_Z2sqj", "$L__BB0_1", "SR_GLOBAL_ESR", "_") is a
//     *SymOperand, with "sym+8" / "sym-8" in Offset; dots stay in the name
//     ("v.x" and LLVM names like "..._v0.0E" are one SymOperand). The
//     assembler resolves a SymOperand against register declarations as
//     well as labels, functions and variables;
//   - the guard of "@p" / "@!p" and a negated operand "!p" are always
//     *RegOperand (only a predicate register can appear there);
//   - in an address "[base+off]" Base is the name as written and BaseIsReg
//     tells whether it starts with '%';
//   - "generic(sym)" / "generic(sym+8)" in an initializer becomes a
//     *SymOperand named "generic(sym)" (the assembler decides what to do).
//
// Immediates: ImmOperand.Text is the literal as written (with a leading '-'
// when negated). For 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX literals Int holds the
// raw bits (f32 bits for 0f, f64 bits for 0d; the sign bit flipped by '-')
// and F their value; decimal floats set only F; integers set only Int (a
// literal above MaxInt64 wraps to two's complement).
//
// Ignored: .file and .loc (debug line information; the rest of their line
// is skipped), .section blocks (DWARF data; skipped to the matching '}'),
// and module-scope .pragma. Inside a function .pragma is a *PragmaStmt and
// between signature and body a *PerfDirective named "pragma". ".noreturn"
// on a function is recorded both in Func.Attrs ("noreturn") and as a
// PerfDirective named "noreturn". ".ptr" without a state space sets
// Param.PtrSpace to "generic".

import (
	"strings"
)

var linkages = map[string]bool{".visible": true, ".extern": true, ".weak": true, ".common": true}

var stateSpaces = map[string]bool{
	".reg": true, ".sreg": true, ".const": true, ".global": true, ".local": true,
	".param": true, ".shared": true, ".tex": true,
}

// opaqueTypes are the texture/sampler/surface handle types; a declaration
// using one records it as its Space.
var opaqueTypes = map[string]bool{".texref": true, ".samplerref": true, ".surfref": true}

var perfDirectives = map[string]bool{
	".maxnreg": true, ".maxntid": true, ".reqntid": true, ".minnctapersm": true,
	".maxnctapersm": true, ".explicitcluster": true, ".reqnctapercluster": true,
	".maxclusterrank": true, ".noreturn": true, ".pragma": true,
}

// moduleStarters begin a module-scope declaration or directive.
var moduleStarters = map[string]bool{
	".version": true, ".target": true, ".address_size": true, ".entry": true, ".func": true,
	".visible": true, ".extern": true, ".weak": true, ".common": true, ".global": true,
	".const": true, ".shared": true, ".file": true, ".section": true, ".local": true,
}

// ---- module scope ----

func (p *parser) parseModule(m *Module) {
	for {
		t := p.tok()
		start := p.i
		switch {
		case t.kind == tEOF:
			return
		case t.is(';'):
			p.next()
		case t.is('}'):
			p.errAt(t, "unexpected '}' at module scope")
			p.next()
		case t.kind != tDir:
			p.errAt(t, "expected directive at module scope, found %s", describe(t))
			p.syncDecl()
		default:
			p.parseModuleDirective(m)
		}
		if p.i == start {
			p.next() // always make progress
		}
	}
}

func (p *parser) parseModuleDirective(m *Module) {
	t := p.tok()
	switch t.text {
	case ".version":
		p.next()
		v := p.tok()
		if v.kind != tFloat || !isVersion(v.text) {
			p.errAt(v, "expected version number MAJOR.MINOR after .version, found %s", describe(v))
			p.syncDecl()
			return
		}
		m.Version = v.text
		p.next()
	case ".target":
		p.next()
		for {
			w := p.tok()
			if w.kind != tWord {
				p.errAt(w, "expected target name, found %s", describe(w))
				p.syncDecl()
				return
			}
			m.Target = append(m.Target, w.text)
			p.next()
			if !p.tok().is(',') {
				break
			}
			p.next()
		}
	case ".address_size":
		m.AddressSizePos = p.pos(t)
		p.next()
		v, ok := p.smallInt("address size")
		if !ok {
			p.syncDecl()
			return
		}
		m.AddressSize = v
	case ".file", ".loc":
		p.skipLine()
	case ".section":
		p.skipSection()
	case ".pragma":
		p.next()
		p.pragmaText()
		if !p.expectSemi(".pragma") {
			p.syncDecl()
		}
	default:
		if d := p.parseDecl(true); d != nil {
			m.Decls = append(m.Decls, d)
		}
	}
}

func isVersion(s string) bool {
	dot := strings.IndexByte(s, '.')
	return dot > 0 && dot < len(s)-1 && allIn(s[:dot], decDigits) && allIn(s[dot+1:], decDigits)
}

// skipSection skips ".section name { ... }" (DWARF debug data).
func (p *parser) skipSection() {
	start := p.tok()
	p.next()
	for !p.tok().is('{') {
		if p.tok().kind == tEOF || p.tok().is(';') || p.tok().is('}') {
			p.errAt(start, "expected '{' after .section")
			return
		}
		p.next()
	}
	depth := 0
	for {
		t := p.tok()
		switch {
		case t.kind == tEOF:
			p.errAt(start, "unterminated .section: missing '}'")
			return
		case t.is('{'):
			depth++
		case t.is('}'):
			depth--
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
}

// pragmaText parses the string list of a .pragma.
func (p *parser) pragmaText() string {
	var parts []string
	for {
		t := p.tok()
		if t.kind != tString {
			p.errAt(t, "expected string after .pragma, found %s", describe(t))
			return strings.Join(parts, ", ")
		}
		parts = append(parts, t.text)
		p.next()
		if !p.tok().is(',') {
			return strings.Join(parts, ", ")
		}
		p.next()
	}
}

// parseDecl parses a variable declaration or (at module scope) a function,
// starting at its first directive. It returns nil after reporting an error.
func (p *parser) parseDecl(module bool) Decl {
	first := p.tok()
	pos := p.pos(first)
	linkage := ""
	for linkages[p.tok().text] && p.tok().kind == tDir {
		if linkage != "" {
			p.errAt(p.tok(), "unexpected %s after .%s", p.tok().text, linkage)
		}
		linkage = p.tok().text[1:]
		p.next()
	}
	t := p.tok()
	switch {
	case t.isDir(".entry") || t.isDir(".func"):
		if !module {
			p.errAt(t, "unexpected %s inside a function body (missing '}'?)", t.text)
			p.syncStmt()
			return nil
		}
		if f := p.parseFunc(pos, linkage); f != nil {
			return f
		}
		return nil
	case t.kind == tDir && (stateSpaces[t.text] || opaqueTypes[t.text]):
		d := p.parseVarDecl(pos, linkage)
		if d == nil {
			if module {
				p.syncDecl()
			} else {
				p.syncStmt()
			}
			return nil
		}
		return d
	case t.kind == tDir:
		p.errDirective(t)
	default:
		p.errAt(t, "expected declaration after .%s, found %s", linkage, describe(t))
	}
	if module {
		p.syncDecl()
	} else {
		p.syncStmt()
	}
	return nil
}

// ---- variables ----

func (p *parser) parseVarDecl(pos Pos, linkage string) *VarDecl {
	d := &VarDecl{Pos: pos, Linkage: linkage, Type: NoType}
	sp := p.tok()
	d.Space = sp.text[1:]
	p.next()
	haveType := opaqueTypes[sp.text]
	for p.tok().kind == tDir {
		t := p.tok()
		switch {
		case t.text == ".align":
			if !p.alignDir(&d.Align) {
				return nil
			}
		case t.text == ".v2" || t.text == ".v4" || t.text == ".v8":
			d.Vec = int(t.text[2] - '0')
			p.next()
		case opaqueTypes[t.text]:
			d.Space = t.text[1:]
			haveType = true
			p.next()
		case t.text == ".attribute":
			p.errAt(t, "unsupported: .attribute on a variable")
			return nil
		default:
			if !p.typeDir(t, &d.Type, &haveType, "."+d.Space+" declaration") {
				return nil
			}
		}
	}
	if !p.haveType(haveType, "."+sp.text[1:]+" declaration") {
		return nil
	}
	for {
		v := p.parseVar(d)
		if v == nil {
			return nil
		}
		d.Vars = append(d.Vars, v)
		if !p.tok().is(',') {
			break
		}
		p.next()
	}
	if !p.expectSemi("declaration") {
		return nil
	}
	return d
}

// word consumes a word token (a name), reporting what was expected
// otherwise.
func (p *parser) word(what string) (*token, bool) {
	t := p.tok()
	if t.kind != tWord {
		p.errAt(t, "expected %s, found %s", what, describe(t))
		return t, false
	}
	p.next()
	return t, true
}

func (p *parser) parseVar(d *VarDecl) *Var {
	t, ok := p.word("variable name")
	if !ok {
		return nil
	}
	v := &Var{Pos: p.pos(t), Name: t.text}
	if p.tok().is('<') {
		p.next()
		nt := p.tok()
		n, ok := p.smallInt("register count")
		if !ok {
			return nil
		}
		if n <= 0 {
			p.errAt(nt, "register count must be positive")
			return nil
		}
		v.Range = n
		if !p.expect('>', "after register count") {
			return nil
		}
	}
	for p.tok().is('[') {
		p.next()
		if p.tok().is(']') {
			v.Dims = append(v.Dims, -1)
			p.next()
			continue
		}
		n, ok := p.smallInt("array size")
		if !ok {
			return nil
		}
		v.Dims = append(v.Dims, n)
		if !p.expect(']', "after array size") {
			return nil
		}
	}
	if p.tok().is('=') {
		if d.Space == "texref" || d.Space == "samplerref" || d.Space == "surfref" {
			p.errAt(p.tok(), "unsupported: .%s initializer", d.Space)
			return nil
		}
		p.next()
		v.Init = p.parseInit()
		if v.Init == nil {
			return nil
		}
	}
	return v
}

func (p *parser) parseInit() *Init {
	t := p.tok()
	in := &Init{Pos: p.pos(t)}
	if t.is('{') {
		p.enter(t, "initializer")
		defer p.leave()
		p.next()
		in.List = []*Init{}
		if p.tok().is('}') {
			p.next()
			return in
		}
		for {
			e := p.parseInit()
			if e == nil {
				return nil
			}
			in.List = append(in.List, e)
			if p.tok().is(',') {
				p.next()
				continue
			}
			if !p.expect('}', "or ',' in initializer") {
				return nil
			}
			return in
		}
	}
	if t.kind == tWord && t.text == "generic" && p.peek(1).is('(') {
		p.next()
		p.next()
		s := p.symWithOffset()
		if s == nil || !p.expect(')', "after generic(symbol") {
			return nil
		}
		s.Pos = in.Pos
		s.Name = "generic(" + s.Name + ")"
		in.Value = s
		return in
	}
	if t.kind == tWord {
		s := p.symWithOffset()
		if s == nil {
			return nil
		}
		in.Value = s
		return in
	}
	imm := p.parseImm()
	if imm == nil {
		return nil
	}
	in.Value = imm
	return in
}

// symWithOffset parses "name" or "name+N" / "name-N" as a SymOperand.
func (p *parser) symWithOffset() *SymOperand {
	t, ok := p.word("symbol")
	if !ok {
		return nil
	}
	s := &SymOperand{Pos: p.pos(t), Name: t.text}
	if p.tok().is('+') || p.tok().is('-') {
		off, ok := p.offset()
		if !ok {
			return nil
		}
		s.Offset = off
	}
	return s
}

// offset parses "+N", "-N", "+-N" (the current token is '+' or '-').
func (p *parser) offset() (int64, bool) {
	neg := p.tok().is('-')
	p.next()
	if p.tok().is('-') {
		neg = !neg
		p.next()
	}
	t := p.tok()
	if t.kind != tInt {
		p.errAt(t, "expected integer offset, found %s", describe(t))
		return 0, false
	}
	p.next()
	if neg {
		return -t.val, true
	}
	return t.val, true
}

// parseImm parses an integer or float literal with an optional '-'.
func (p *parser) parseImm() *ImmOperand {
	t := p.tok()
	neg := p.accept('-')
	n := p.tok()
	if n.kind != tInt && n.kind != tFloat {
		p.errAt(n, "expected operand, found %s", describe(n))
		return nil
	}
	p.next()
	imm := &ImmOperand{Pos: p.pos(t), Text: n.text, Int: n.val, Float: n.kind == tFloat, F: n.fval}
	if neg {
		imm.Text = "-" + n.text
		imm.F = -imm.F
		switch {
		case n.kind == tInt:
			imm.Int = -imm.Int
		case len(n.text) > 1 && (n.text[1] == 'f' || n.text[1] == 'F'):
			imm.Int ^= 1 << 31
		case len(n.text) > 1 && (n.text[1] == 'd' || n.text[1] == 'D'):
			imm.Int ^= -1 << 63
		}
	}
	return imm
}

// typeDir reads the type directive t (".u32") of a declaration or
// parameter (what, for messages) into *ty; a second type is an error.
func (p *parser) typeDir(t *token, ty *Type, have *bool, what string) bool {
	v, ok := ParseType(t.text[1:])
	if !ok {
		p.errAt(t, "unsupported: %s in %s", t.text, what)
		return false
	}
	if *have {
		p.errAt(t, "unexpected second type %s", t.text)
		return false
	}
	*ty, *have = v, true
	p.next()
	return true
}

// haveType reports a declaration or parameter (what) that ended its
// directives without a type.
func (p *parser) haveType(have bool, what string) bool {
	if !have {
		p.errAt(p.tok(), "expected type in %s, found %s", what, describe(p.tok()))
	}
	return have
}

// alignDir reads ".align N" (the current token is .align) into *a.
func (p *parser) alignDir(a *int) bool {
	p.next()
	n, ok := p.smallInt("alignment")
	if ok {
		*a = n
	}
	return ok
}

// ptxDirectives are the directives of the PTX ISA (chapter 11 and the
// state spaces), to tell a PTX directive the front end does not take
// where it stands (unsupported:) from a name that is not PTX.
var ptxDirectives = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`.address_size .alias .align .attribute .branchtargets .callprototype .calltargets
		.common .const .entry .explicitcluster .extern .file .func .global .loc .local .maxclusterrank .maxnctapersm
		.maxnreg .maxntid .minnctapersm .noreturn .param .pragma .reg .reqnctapercluster .reqntid .section .shared
		.sreg .target .tex .version .visible .weak .abi_preserve .abi_preserve_control .blocksareclusters
		.texref .samplerref .surfref`) {
		m[n] = true
	}
	return m
}()

// errDirective reports the directive t where it cannot stand: a PTX
// directive the front end does not take there is unsupported:, another
// name is not PTX.
func (p *parser) errDirective(t *token) {
	if ptxDirectives[t.text] {
		p.errAt(t, "unsupported: %s", t.text)
		return
	}
	p.errAt(t, "unknown directive %s (not PTX)", t.text)
}
