// Parsing functions: attributes, parameters, blocks, statements, instructions and operands.

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

// ---- functions ----

func (p *parser) parseFunc(pos Pos, linkage string) *Func {
	kw := p.tok()
	f := &Func{Pos: pos, Entry: kw.text == ".entry", Linkage: linkage}
	p.next()
	fail := func() *Func { p.syncDecl(); return nil }
	if !p.attributes(f) {
		return fail()
	}
	if !f.Entry && p.tok().is('(') {
		rets, ok := p.paramList("return parameter")
		if !ok {
			return fail()
		}
		f.Rets = rets
	}
	if f.Entry && p.tok().is('(') {
		p.errAt(p.tok(), "expected kernel name after .entry, found '('")
		return fail()
	}
	nt := p.tok()
	if nt.kind != tWord {
		p.errAt(nt, "expected function name, found %s", describe(nt))
		return fail()
	}
	f.Name = nt.text
	p.next()
	if !p.attributes(f) {
		return fail()
	}
	if p.tok().is('(') {
		params, ok := p.paramList("parameter")
		if !ok {
			return fail()
		}
		f.Params = params
	}
	pragmaSemi := false
	for p.tok().kind == tDir {
		t := p.tok()
		if t.text == ".attribute" {
			if !p.attributes(f) {
				return fail()
			}
			continue
		}
		if !perfDirectives[t.text] {
			if moduleStarters[t.text] || stateSpaces[t.text] {
				break
			}
			p.errDirective(t)
			return fail()
		}
		d := &PerfDirective{Pos: p.pos(t), Name: t.text[1:]}
		p.next()
		switch d.Name {
		case "noreturn":
			f.Attrs = append(f.Attrs, "noreturn")
		case "explicitcluster":
		case "pragma":
			d.Text = p.pragmaText()
			if p.tok().is(';') {
				p.next()
				pragmaSemi = true
			}
		default:
			for {
				a := p.tok()
				v, ok := p.intArg("argument of ." + d.Name)
				if !ok {
					return fail()
				}
				if v < 0 {
					p.errAt(a, "argument of .%s out of range", d.Name)
					return fail()
				}
				d.Args = append(d.Args, v)
				if !p.tok().is(',') {
					break
				}
				p.next()
			}
		}
		f.Directives = append(f.Directives, d)
	}
	t := p.tok()
	switch {
	case t.is('{'):
		f.Body = p.parseBlock()
	case t.is(';'):
		p.next()
	case pragmaSemi:
	default:
		if t.kind == tEOF || t.line > p.toks[p.i-1].line {
			p.errAfter("expected '{' or ';' after the signature of %s", f.Name)
			return f
		}
		p.errAt(t, "expected '{' or ';' after the signature of %s, found %s", f.Name, describe(t))
		return fail()
	}
	return f
}

// attributes parses any ".attribute(.a, .b)" groups into f.Attrs.
func (p *parser) attributes(f *Func) bool {
	for p.tok().isDir(".attribute") {
		p.next()
		if !p.expect('(', "after .attribute") {
			return false
		}
		for {
			t := p.tok()
			if t.kind != tDir {
				p.errAt(t, "expected attribute, found %s", describe(t))
				return false
			}
			f.Attrs = append(f.Attrs, t.text)
			p.next()
			if !p.tok().is(',') {
				break
			}
			p.next()
		}
		if !p.expect(')', "after attribute list") {
			return false
		}
	}
	return true
}

// paramList parses "( param, ... )"; the current token is '('.
func (p *parser) paramList(what string) ([]*Param, bool) {
	p.next()
	params := []*Param{}
	if p.tok().is(')') {
		p.next()
		return params, true
	}
	for {
		prm := p.parseParam(what)
		if prm == nil {
			return nil, false
		}
		params = append(params, prm)
		if p.tok().is(',') {
			p.next()
			continue
		}
		if !p.expect(')', "or ',' in "+what+" list") {
			return nil, false
		}
		return params, true
	}
}

func (p *parser) parseParam(what string) *Param {
	t := p.tok()
	if !t.isDir(".param") && !t.isDir(".reg") {
		p.errAt(t, "expected .param or .reg in %s list, found %s", what, describe(t))
		return nil
	}
	prm := &Param{Pos: p.pos(t), Space: t.text[1:], Type: NoType}
	p.next()
	haveType, ptr, vec := false, false, 0
	for p.tok().kind == tDir {
		d := p.tok()
		switch {
		case d.text == ".align":
			if !p.alignDir(&prm.Align) {
				return nil
			}
		case d.text == ".ptr":
			ptr = true
			prm.PtrSpace = "generic"
			p.next()
		case ptr && (d.text == ".global" || d.text == ".const" || d.text == ".shared" || d.text == ".local"):
			prm.PtrSpace = d.text[1:]
			p.next()
		case d.text == ".v2" || d.text == ".v4" || d.text == ".v8":
			if prm.Space != "param" && d.text == ".v8" {
				p.errAt(d, ".v8 is not a register vector (.reg takes .v2 and .v4)")
				return nil
			}
			vec = int(d.text[2] - '0')
			p.next()
		case opaqueTypes[d.text]:
			p.errAt(d, "unsupported: %s %s", d.text, what)
			return nil
		default:
			if !p.typeDir(d, &prm.Type, &haveType, what) {
				return nil
			}
		}
	}
	if !p.haveType(haveType, what) {
		return nil
	}
	nt := p.tok()
	if nt.kind != tWord {
		p.errAt(nt, "expected %s name, found %s", what, describe(nt))
		return nil
	}
	prm.Name = nt.text
	p.next()
	if open := p.tok(); open.is('[') {
		p.next()
		if p.tok().is(']') {
			p.errAt(open, "unsupported: unsized array %s", what)
			return nil
		}
		n, ok := p.smallInt("array size")
		if !ok {
			return nil
		}
		prm.ArrayLen = n
		if !p.expect(']', "after array size") {
			return nil
		}
		if p.tok().is('[') {
			p.errAt(p.tok(), "unsupported: multi-dimensional array %s", what)
			return nil
		}
	}
	if vec > 0 {
		// A vector .param (".param .v4 .f32 x"): vec elements, aligned
		// to the vector's size, read and written as an array of them. A
		// vector .reg parameter (".reg .v4 .f32 v") is passed the same
		// way and is a vector register in the callee.
		if prm.ArrayLen > 0 {
			p.errAt(nt, "unsupported: array of vectors %s", what)
			return nil
		}
		prm.ArrayLen = vec
		prm.Align = max(prm.Align, vec*prm.Type.Bytes())
		if prm.Space == "reg" {
			prm.Vec = vec
		}
	}
	return prm
}

// ---- bodies ----

// parseBlock parses "{ stmts }"; the current token is '{'.
func (p *parser) parseBlock() *Block {
	open := p.tok()
	p.enter(open, "blocks")
	defer p.leave()
	b := &Block{Pos: p.pos(open)}
	p.next()
	for {
		t := p.tok()
		start := p.i
		switch {
		case t.kind == tEOF:
			p.errAt(t, "unexpected end of file: missing '}' to close the block at %d:%d", open.line, open.col)
			b.End = p.pos(t)
			return b
		case t.is('}'):
			b.End = p.pos(t)
			p.next()
			return b
		case t.is('{'):
			b.Stmts = append(b.Stmts, p.parseBlock())
		case t.is(';'):
			p.next()
		default:
			if s := p.parseStmt(); s != nil {
				b.Stmts = append(b.Stmts, s)
			}
		}
		if p.i == start {
			p.next()
		}
	}
}

// parseStmt parses one statement other than a block. It returns nil after
// an error (and after an ignored directive).
func (p *parser) parseStmt() Stmt {
	t := p.tok()
	switch t.kind {
	case tWord:
		if p.peek(1).is(':') {
			return p.parseLabeled()
		}
		return p.parseInstr()
	case tDir:
		switch {
		case t.text == ".loc" || t.text == ".file":
			p.skipLine()
			return nil
		case t.text == ".pragma":
			p.next()
			s := &PragmaStmt{Pos: p.pos(t), Text: p.pragmaText()}
			if !p.expectSemi(".pragma") {
				p.syncStmt()
				return nil
			}
			return s
		case t.text == ".branchtargets" || t.text == ".calltargets" || t.text == ".callprototype":
			p.errAt(t, "%s needs a label", t.text)
			p.syncStmt()
			return nil
		case linkages[t.text] || stateSpaces[t.text] || opaqueTypes[t.text]:
			if d := p.parseDecl(false); d != nil {
				return d.(*VarDecl)
			}
			return nil
		}
		if moduleStarters[t.text] {
			p.errAt(t, "unexpected %s inside a function body (missing '}'?)", t.text)
		} else {
			p.errDirective(t)
		}
		p.syncStmt()
		return nil
	case tPunct:
		if t.ch == '@' {
			return p.parseInstr()
		}
		if n := p.peek(1); t.ch == '<' && n.kind == tWord && p.peek(2).is('>') {
			// "<Trap>;": how ZLUDA's tests print intrinsics in their
			// expected output, which follows the PTX in some of its files.
			p.errAt(t, "expected statement, found <%s> (an IR placeholder of ZLUDA's test output, not PTX)", n.text)
			p.syncStmt()
			return nil
		}
	}
	p.errAt(t, "expected statement, found %s", describe(t))
	p.syncStmt()
	return nil
}

// parseLabeled parses "name:" and the directive it may name.
func (p *parser) parseLabeled() Stmt {
	t := p.tok()
	pos := p.pos(t)
	p.next()
	p.next() // ':'
	d := p.tok()
	switch {
	case d.isDir(".branchtargets"), d.isDir(".calltargets"):
		p.next()
		var names []*SymOperand
		for {
			nt := p.tok()
			if nt.kind != tWord {
				p.errAt(nt, "expected name in %s list, found %s", d.text, describe(nt))
				p.syncStmt()
				return nil
			}
			names = append(names, &SymOperand{Pos: p.pos(nt), Name: nt.text})
			p.next()
			if !p.tok().is(',') {
				break
			}
			p.next()
		}
		if !p.expectSemi(d.text) {
			p.syncStmt()
			return nil
		}
		if d.text == ".branchtargets" {
			return &BranchTargets{Pos: pos, Name: t.text, Labels: names}
		}
		return &CallTargets{Pos: pos, Name: t.text, Funcs: names}
	case d.isDir(".callprototype"):
		p.next()
		cp := &CallPrototype{Pos: pos, Name: t.text}
		fail := func() Stmt { p.syncStmt(); return nil }
		if p.tok().is('(') {
			rets, ok := p.paramList("return parameter")
			if !ok {
				return fail()
			}
			cp.Rets = rets
		}
		if nt := p.tok(); nt.kind != tWord || nt.text != "_" {
			p.errAt(nt, "expected '_' in .callprototype, found %s", describe(nt))
			return fail()
		}
		p.next()
		if p.tok().is('(') {
			params, ok := p.paramList("parameter")
			if !ok {
				return fail()
			}
			cp.Params = params
		}
		if p.tok().isDir(".noreturn") {
			cp.NoReturn = true
			p.next()
		}
		if !p.expectSemi(".callprototype") {
			return fail()
		}
		return cp
	}
	return &Label{Pos: pos, Name: t.text}
}

// parseInstr parses "[@[!]p] op.mods operands;".
func (p *parser) parseInstr() Stmt {
	first := p.tok()
	in := &Instr{Pos: p.pos(first)}
	if first.is('@') {
		p.next()
		g := p.tok()
		neg := p.accept('!')
		nt := p.tok()
		if nt.kind != tWord {
			p.errAt(nt, "expected predicate after '@', found %s", describe(nt))
			p.syncStmt()
			return nil
		}
		in.Guard = regOperand(p.pos(g), nt.text)
		in.Guard.Neg = neg
		p.next()
		if p.tok().is('{') {
			p.errAt(p.tok(), "a guard applies to one instruction, not to a { } block (not PTX)")
			p.syncStmt()
			return nil
		}
	}
	ot := p.tok()
	if ot.kind != tWord || !isLetter(ot.text[0]) {
		p.errAt(ot, "expected instruction, found %s", describe(ot))
		p.syncStmt()
		return nil
	}
	parts := strings.Split(ot.text, ".")
	in.Op, in.Mods = parts[0], parts[1:]
	if len(in.Mods) == 0 {
		in.Mods = nil
	}
	p.next()
	if p.tok().is(';') {
		p.next()
		return in
	}
	for {
		if p.missingSemi() {
			p.errAfter("missing ';' after instruction")
			p.syncStmt()
			return nil
		}
		o := p.parseOperand(0)
		if o == nil {
			p.syncStmt()
			return nil
		}
		in.Operands = append(in.Operands, o)
		if p.tok().is(',') {
			p.next()
			continue
		}
		if !p.expectSemi("instruction") {
			p.syncStmt()
			return nil
		}
		return in
	}
}

// missingSemi reports, where an operand should start, a token that more
// likely begins the next statement: '}' or end of file, or a name on a new
// line followed by something that cannot follow an operand ("ret" then
// "add.s32 %r1, ..." on the next line).
func (p *parser) missingSemi() bool {
	t := p.tok()
	if t.kind == tEOF || t.is('}') {
		return true
	}
	if t.kind != tWord || t.line <= p.toks[p.i-1].line {
		return false
	}
	n := p.peek(1)
	if n.line != t.line {
		return false
	}
	return !(n.is(',') || n.is(';') || n.is('+') || n.is('-') || n.is('|') || n.is(')') || n.is('}'))
}

// regOperand builds a RegOperand, splitting "%tid.x" into name and component.
func regOperand(pos Pos, text string) *RegOperand {
	r := &RegOperand{Pos: pos, Name: text}
	if text[0] == '%' || vecComponent(text) {
		if dot := strings.IndexByte(text, '.'); dot > 0 {
			r.Name, r.Comp = text[:dot], text[dot+1:]
		}
	}
	return r
}

// vecComponent reports a name without '%' followed by a vector component
// ("v.x", "rv.a"): PTX identifiers have no '.', so such a word can only be
// an element of a vector register.
func vecComponent(text string) bool {
	dot := strings.IndexByte(text, '.')
	return dot > 0 && dot == len(text)-2 && strings.IndexByte("xyzwrgba", text[dot+1]) >= 0
}

func (p *parser) parseOperand(depth int) Operand {
	t := p.tok()
	if depth > 3 {
		p.errAt(t, "operands nested too deeply")
		return nil
	}
	var o Operand
	switch {
	case t.is('!'):
		p.next()
		nt := p.tok()
		if nt.kind != tWord {
			p.errAt(nt, "expected predicate after '!', found %s", describe(nt))
			return nil
		}
		r := regOperand(p.pos(t), nt.text)
		r.Neg = true
		p.next()
		o = r
	case t.kind == tWord:
		p.next()
		var off int64
		has := false
		if p.tok().is('+') || p.tok().is('-') {
			v, ok := p.offset()
			if !ok {
				return nil
			}
			off, has = v, true
		}
		if t.text[0] == '%' || vecComponent(t.text) {
			r := regOperand(p.pos(t), t.text)
			r.Offset, r.HasOffset = off, has
			o = r
		} else {
			o = &SymOperand{Pos: p.pos(t), Name: t.text, Offset: off}
		}
	case t.is('-') || t.kind == tInt || t.kind == tFloat:
		imm := p.parseImm()
		if imm == nil {
			return nil
		}
		o = imm
	case t.is('['):
		a := p.parseAddr(depth)
		if a == nil {
			return nil
		}
		o = a
	case t.is('{'), t.is('('):
		closer := byte('}')
		if t.is('(') {
			closer = ')'
		}
		p.next()
		var elems []Operand
		if !p.tok().is(closer) {
			for {
				e := p.parseOperand(depth + 1)
				if e == nil {
					return nil
				}
				elems = append(elems, e)
				if p.tok().is(',') {
					p.next()
					continue
				}
				if !p.expect(closer, "or ',' in operand list") {
					return nil
				}
				break
			}
		} else {
			p.next()
		}
		if closer == ')' {
			o = &ListOperand{Pos: p.pos(t), Elems: elems}
		} else {
			if len(elems) == 0 {
				p.errAt(t, "empty vector operand")
				return nil
			}
			o = &VecOperand{Pos: p.pos(t), Elems: elems}
		}
	default:
		p.errAt(t, "expected operand, found %s", describe(t))
		return nil
	}
	if p.tok().is('|') {
		p.next()
		b := p.parseOperand(depth + 1)
		if b == nil {
			return nil
		}
		o = &PipeOperand{Pos: p.pos(t), A: o, B: b}
	}
	return o
}

// parseAddr parses "[base]", "[base+off]", "[off]" or "[tex, extra...]".
func (p *parser) parseAddr(depth int) *AddrOperand {
	open := p.tok()
	a := &AddrOperand{Pos: p.pos(open)}
	p.next()
	t := p.tok()
	switch {
	case t.kind == tWord:
		a.Base, a.BaseIsReg = t.text, t.text[0] == '%'
		p.next()
		if p.tok().is('+') || p.tok().is('-') {
			off, ok := p.offset()
			if !ok {
				return nil
			}
			a.Offset = off
		}
		for p.tok().is(',') {
			p.next()
			e := p.parseOperand(depth + 1)
			if e == nil {
				return nil
			}
			a.Extra = append(a.Extra, e)
		}
	case t.kind == tInt:
		a.Offset = t.val
		p.next()
	case t.is('-') || t.is('+'):
		off, ok := p.offset()
		if !ok {
			return nil
		}
		a.Offset = off
	default:
		p.errAt(t, "expected address, found %s", describe(t))
		return nil
	}
	if !p.expect(']', "to close the address") {
		return nil
	}
	return a
}
