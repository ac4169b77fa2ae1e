package isa

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The PTX lexer. It turns the whole source into a token slice up front (the
// parser needs two tokens of lookahead and the largest real inputs are a few
// hundred kilobytes), reporting malformed input as positioned errors and
// always making progress, so that no input can make it loop or panic.

type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // identifier or opcode, dots included: "ld.global.u32", "%tid.x", "_Z2sqj", "$L__BB0_1"
	tDir            // directive or dotted keyword: ".reg", ".b32", ".debug_info" (text keeps the dot)
	tInt            // integer literal; val holds its value (two's complement above MaxInt64)
	tFloat          // floating-point literal; fval holds its value, val the raw bits of 0f/0d literals
	tString         // "..." (text holds the contents, escapes kept as written)
	tPunct          // one ASCII punctuation character, in ch
)

type token struct {
	kind   tokKind
	ch     byte // for tPunct
	text   string
	line   int
	col    int
	endCol int // column just past the token's last byte (on its first line)
	val    int64
	fval   float64
}

const maxErrors = 20

// bailout is panicked (and recovered in Parse) to abandon a hopeless input:
// too many errors or too deep nesting.
type bailout struct{}

// diag collects errors for the lexer and parser, stopping at maxErrors.
type diag struct {
	file string
	errs ErrorList
}

func (d *diag) errorf(line, col int, format string, args ...any) {
	pos := Pos{File: d.file, Line: line, Col: col}
	if len(d.errs) >= maxErrors {
		d.errs.Add(pos, "too many errors")
		panic(bailout{})
	}
	d.errs.Add(pos, format, args...)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isIdentChar reports a byte that may follow the first character of an identifier.
func isIdentChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '$' }

// lex tokenizes src. The returned slice always ends with one tEOF token.
func lex(d *diag, src string) []token {
	toks := make([]token, 0, len(src)/4+1)
	line, lineStart := 1, 0
	i, n := 0, len(src)
	col := func(at int) int { return at - lineStart + 1 }
	emit := func(k tokKind, start int, text string) *token {
		toks = append(toks, token{kind: k, text: text, line: line, col: col(start), endCol: col(i)})
		return &toks[len(toks)-1]
	}
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			i++
			line, lineStart = line+1, i
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			sl, sc := line, col(i)
			i += 2
			closed := false
			for i < n {
				if src[i] == '*' && i+1 < n && src[i+1] == '/' {
					i += 2
					closed = true
					break
				}
				if src[i] == '\n' {
					line, lineStart = line+1, i+1
				}
				i++
			}
			if !closed {
				d.errorf(sl, sc, "unterminated block comment")
			}
		case isLetter(c) || c == '_' || c == '$' || c == '%':
			start := i
			i++
			for i < n && isIdentChar(src[i]) {
				i++
			}
			// Dotted continuations belong to the word: opcodes with
			// modifiers, %tid.x, and LLVM names such as "v0.0E"; so do
			// "::" sub-qualifiers of an opcode's modifiers
			// (ld.shared::cta, cp.async...L2::128B).
		word:
			for i+1 < n {
				switch {
				case src[i] == '.' && isIdentChar(src[i+1]):
					i += 2
				case src[i] == ':' && i+2 < n && src[i+1] == ':' && isIdentChar(src[i+2]) && strings.IndexByte(src[start:i], '.') >= 0:
					i += 3
				default:
					break word
				}
				for i < n && isIdentChar(src[i]) {
					i++
				}
			}
			if i-start == 1 && c == '%' {
				d.errorf(line, col(start), "expected identifier after '%%'")
				continue
			}
			emit(tWord, start, src[start:i])
		case c == '.':
			start := i
			i++
			if i >= n || !isIdentChar(src[i]) {
				d.errorf(line, col(start), "unexpected '.'")
				continue
			}
			for i < n && isIdentChar(src[i]) {
				i++
			}
			emit(tDir, start, src[start:i])
		case isDigit(c):
			start := i
			i = scanNumber(src, i)
			text := src[start:i]
			t := emit(tInt, start, text)
			if err := evalNumber(t); err != "" {
				d.errorf(t.line, t.col, "%s", err)
			}
		case c == '"':
			start := i
			i++
			closed := false
			for i < n && src[i] != '\n' {
				if src[i] == '\\' && i+1 < n && src[i+1] != '\n' {
					i += 2
					continue
				}
				if src[i] == '"' {
					closed = true
					break
				}
				i++
			}
			body := src[start+1 : min(i, n)]
			if closed {
				i++
			} else {
				d.errorf(line, col(start), "unterminated string literal")
			}
			emit(tString, start, body)
		case c == '#':
			d.errorf(line, col(i), "unsupported: preprocessor directive")
			for i < n && src[i] != '\n' {
				i++
			}
		case c > ' ' && c < 0x7f:
			start := i
			i++
			t := emit(tPunct, start, src[start:i])
			t.ch = c
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && size <= 1 {
				d.errorf(line, col(i), "invalid UTF-8 encoding")
				size = 1
			} else {
				d.errorf(line, col(i), "unexpected character %U %q", r, r)
			}
			i += size
		default:
			d.errorf(line, col(i), "unexpected character %U", rune(c))
			i++
		}
	}
	toks = append(toks, token{kind: tEOF, line: line, col: col(n), endCol: col(n)})
	return toks
}

// scanNumber returns the end of the number literal starting at src[i] (a
// digit). It takes the longest run that could belong to the literal, so a
// malformed literal ("12ab", "0x") is one token with one error.
func scanNumber(src string, i int) int {
	n := len(src)
	if src[i] == '0' && i+1 < n && strings.IndexByte("xXbBfFdD", src[i+1]) >= 0 {
		i += 2
		for i < n && isIdentChar(src[i]) {
			i++
		}
		return i
	}
	for i < n && isDigit(src[i]) {
		i++
	}
	if i+1 < n && src[i] == '.' && isDigit(src[i+1]) {
		i++
		for i < n && isDigit(src[i]) {
			i++
		}
	}
	if i < n && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < n && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < n && isDigit(src[j]) {
			i = j
			for i < n && isDigit(src[i]) {
				i++
			}
		}
	}
	for i < n && isIdentChar(src[i]) {
		i++
	}
	return i
}

func allIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) < 0 {
			return false
		}
	}
	return true
}

const (
	hexDigits = "0123456789abcdefABCDEF"
	decDigits = "0123456789"
)

// evalNumber classifies t.text, sets t.kind (tInt or tFloat) and its value,
// and returns an error message ("" when the literal is well formed).
func evalNumber(t *token) string {
	s := t.text
	bad := fmt.Sprintf("invalid number literal %q", s)
	if len(s) > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D') {
		digits := s[2:]
		want := 8
		if s[1] == 'd' || s[1] == 'D' {
			want = 16
		}
		if len(digits) != want || !allIn(digits, hexDigits) {
			return bad
		}
		u, err := strconv.ParseUint(digits, 16, 64)
		if err != nil {
			return bad
		}
		t.kind = tFloat
		t.val = int64(u)
		if want == 8 {
			t.fval = float64(math.Float32frombits(uint32(u)))
		} else {
			t.fval = math.Float64frombits(u)
		}
		return ""
	}
	body := strings.TrimSuffix(s, "U")
	base := 10
	switch {
	case len(body) > 2 && (body[:2] == "0x" || body[:2] == "0X"):
		base, body = 16, body[2:]
		if !allIn(body, hexDigits) {
			return bad
		}
	case len(body) > 2 && (body[:2] == "0b" || body[:2] == "0B"):
		base, body = 2, body[2:]
		if !allIn(body, "01") {
			return bad
		}
	case body != "" && allIn(body, decDigits):
		if len(body) > 1 && body[0] == '0' {
			base = 8
			if !allIn(body, "01234567") {
				return bad
			}
		}
	default:
		if body != s || !isFloatText(s) {
			return bad
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Sprintf("floating-point literal %s out of range", s)
		}
		t.kind = tFloat
		t.fval = f
		return ""
	}
	u, err := strconv.ParseUint(body, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return fmt.Sprintf("integer literal %s out of range", s)
		}
		return bad
	}
	t.val = int64(u)
	return ""
}

// isFloatText accepts digits [. digits] [e [+-] digits] with at least a
// fraction or an exponent.
func isFloatText(s string) bool {
	i, n := digitsEnd(s, 0), len(s)
	if i == 0 {
		return false
	}
	frac, exp := false, false
	if i < n && s[i] == '.' {
		j := digitsEnd(s, i+1)
		if frac = j > i+1; !frac {
			return false
		}
		i = j
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digitsEnd(s, i)
		if exp = j > i; !exp {
			return false
		}
		i = j
	}
	return i == n && (frac || exp)
}

// digitsEnd is the end of the run of decimal digits of s from i.
func digitsEnd(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}
