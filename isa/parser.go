// The PTX parser: tokens, errors and recovery (Parse).

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
	"strconv"
	"strings"
)

const maxNesting = 200 // nested blocks and initializer braces

// Parse parses one PTX source file. On error it returns an ErrorList (at
// most about 20 entries, sorted by position) and the partial module, whose
// Lines are always filled in.
func Parse(file string, src []byte) (*Module, error) {
	m := &Module{File: file, Lines: splitLines(src)}
	p := &parser{diag: diag{file: file}}
	p.run(func() {
		p.toks = lex(&p.diag, string(src))
		p.parseModule(m)
	})
	return m, p.errs.Err()
}

// run calls f, stopping quietly when it bails out (too many errors, too
// deep nesting). Any other panic is a bug and propagates.
func (p *parser) run(f func()) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
	}()
	f()
}

func splitLines(src []byte) []string {
	s := string(src)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

type parser struct {
	diag
	toks  []token
	i     int
	depth int
}

func (p *parser) tok() *token { return &p.toks[p.i] }

func (p *parser) peek(k int) *token {
	if p.i+k < len(p.toks) {
		return &p.toks[p.i+k]
	}
	return &p.toks[len(p.toks)-1]
}

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
	}
}

func (p *parser) pos(t *token) Pos { return Pos{File: p.file, Line: t.line, Col: t.col} }

func (p *parser) errAt(t *token, format string, args ...any) {
	p.errorf(t.line, t.col, format, args...)
}

// errAfter reports an error just past the previous token (for a missing ';').
func (p *parser) errAfter(format string, args ...any) {
	if p.i == 0 {
		p.errAt(p.tok(), format, args...)
		return
	}
	t := &p.toks[p.i-1]
	p.errorf(t.line, t.endCol, format, args...)
}

func (t *token) is(c byte) bool { return t.kind == tPunct && t.ch == c }

func (t *token) isDir(name string) bool { return t.kind == tDir && t.text == name }

// describe names a token for "found ..." in messages.
func describe(t *token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tString:
		return strconv.Quote(t.text)
	case tInt, tFloat:
		return t.text
	}
	return "'" + t.text + "'"
}

// expect consumes punctuation c or reports an error; it does not consume a
// wrong token.
func (p *parser) expect(c byte, what string) bool {
	t := p.tok()
	if t.is(c) {
		p.next()
		return true
	}
	p.errAt(t, "expected '%c' %s, found %s", c, what, describe(t))
	return false
}

// expectSemi consumes the ';' ending a statement.
func (p *parser) expectSemi(what string) bool {
	t := p.tok()
	if t.is(';') {
		p.next()
		return true
	}
	if p.i > 0 && (t.kind == tEOF || t.line > p.toks[p.i-1].line) {
		p.errAfter("missing ';' after %s", what)
	} else {
		p.errAt(t, "expected ';' after %s, found %s", what, describe(t))
	}
	return false
}

// syncStmt skips to the end of a broken statement: past the next ';', or up
// to a '{' or '}' (left for the caller).
func (p *parser) syncStmt() {
	for {
		t := p.tok()
		switch {
		case t.kind == tEOF, t.is('{'), t.is('}'):
			return
		case t.is(';'):
			p.next()
			return
		}
		p.next()
	}
}

// syncDecl skips a broken module-scope declaration: past the next ';' or
// past the balanced '{...}' block that follows.
func (p *parser) syncDecl() {
	depth := 0
	for {
		t := p.tok()
		switch {
		case t.kind == tEOF:
			return
		case t.is('{'):
			depth++
		case t.is('}'):
			depth--
			if depth <= 0 {
				p.next()
				return
			}
		case t.is(';') && depth == 0:
			p.next()
			return
		}
		p.next()
	}
}

// skipLine skips the rest of the current token's line (.loc, .file).
func (p *parser) skipLine() {
	line := p.tok().line
	for t := p.tok(); t.kind != tEOF && t.line == line; t = p.tok() {
		p.next()
	}
}

// intArg parses an unsigned integer argument of a directive.
func (p *parser) intArg(what string) (int64, bool) {
	t := p.tok()
	if t.kind != tInt {
		p.errAt(t, "expected integer %s, found %s", what, describe(t))
		return 0, false
	}
	p.next()
	return t.val, true
}

// smallInt is intArg for counts and sizes that must fit an int32.
func (p *parser) smallInt(what string) (int, bool) {
	t := p.tok()
	v, ok := p.intArg(what)
	if !ok {
		return 0, false
	}
	if v < 0 || v > 1<<31-1 {
		p.errAt(t, "%s %s out of range", what, t.text)
		return 0, false
	}
	return int(v), true
}

func (p *parser) enter(t *token, what string) {
	p.depth++
	if p.depth > maxNesting {
		p.errAt(t, "%s nested too deeply", what)
		panic(bailout{})
	}
}

func (p *parser) leave() { p.depth-- }

// accept consumes the punctuation ch if it is the current token.
func (p *parser) accept(ch byte) bool {
	if !p.tok().is(ch) {
		return false
	}
	p.next()
	return true
}
