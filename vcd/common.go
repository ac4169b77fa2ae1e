package vcd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Errors returned by the Writer and the Reader. Every error the package
// returns wraps one of these, so callers can test with errors.Is; the
// message itself names the variable, time or token involved.
var (
	ErrTimeOrder        = errors.New("vcd: time is not strictly increasing")
	ErrUnknownID        = errors.New("vcd: unknown identifier")
	ErrTooWide          = errors.New("vcd: value wider than variable")
	ErrDefinitionsEnded = errors.New("vcd: definitions already ended")
	ErrScope            = errors.New("vcd: unbalanced scope")
	ErrTimescale        = errors.New("vcd: bad timescale")
	ErrWidth            = errors.New("vcd: bad width")
	ErrName             = errors.New("vcd: bad name")
	ErrKind             = errors.New("vcd: bad kind")
	ErrValue            = errors.New("vcd: bad value")
	ErrClosed           = errors.New("vcd: writer closed")
	ErrSyntax           = errors.New("vcd: syntax error")
	ErrDuplicate        = errors.New("vcd: duplicate declaration")
	ErrState            = errors.New("vcd: call out of order")
)

// MaxWidth is the widest variable the Reader accepts (in strict and
// non-strict mode) and the Writer declares. It bounds the memory a single
// value can take.
const MaxWidth = 1 << 20

// VarKind is the type of a $var declaration.
type VarKind uint8

// Variable kinds. Wire, Reg, Integer, Real and String are the ones a
// simulator normally writes; the rest are accepted for completeness.
// String is GTKWave's extension (values written as "s<text> <id>").
const (
	Wire VarKind = iota
	Reg
	Integer
	Real
	String
	Event
	Parameter
	Realtime
	Time
	Supply0
	Supply1
	Tri
	Triand
	Trior
	Trireg
	Tri0
	Tri1
	Wand
	Wor
	// SystemVerilog types written by Verilator and GTKWave's tools.
	Logic
	Bit
	Int
	ShortInt
	LongInt
	Byte
	ShortReal
	Enum
	RealParameter
	// Other is a type the Reader did not recognise (non-strict mode only);
	// Var.KindName holds its spelling.
	Other
)

var varKindNames = [...]string{
	Wire: "wire", Reg: "reg", Integer: "integer", Real: "real", String: "string",
	Event: "event", Parameter: "parameter", Realtime: "realtime", Time: "time",
	Supply0: "supply0", Supply1: "supply1", Tri: "tri", Triand: "triand",
	Trior: "trior", Trireg: "trireg", Tri0: "tri0", Tri1: "tri1", Wand: "wand",
	Wor: "wor", Logic: "logic", Bit: "bit", Int: "int", ShortInt: "shortint",
	LongInt: "longint", Byte: "byte", ShortReal: "shortreal", Enum: "enum",
	RealParameter: "real_parameter", Other: "other",
}

// String returns the keyword used in $var ("wire", "reg", ...).
func (k VarKind) String() string {
	if int(k) < len(varKindNames) {
		return varKindNames[k]
	}
	return "VarKind(" + strconv.Itoa(int(k)) + ")"
}

// ParseVarKind maps a $var type keyword to its VarKind. It reports false
// for unknown keywords.
func ParseVarKind(s string) (VarKind, bool) {
	for k, n := range varKindNames {
		if n == s && VarKind(k) != Other {
			return VarKind(k), true
		}
	}
	return Other, false
}

// valueClass says how a variable's values are written.
type valueClass uint8

const (
	classBits valueClass = iota
	classReal
	classString
)

func (k VarKind) class() valueClass {
	switch k {
	case Real, Realtime, ShortReal, RealParameter:
		return classReal
	case String:
		return classString
	}
	return classBits
}

// Scope kinds of IEEE 1364-2005 §18.2.3.5. The Writer accepts only these;
// the Reader also accepts GTKWave's and SystemVerilog's (generate, struct,
// interface, ...) and, in non-strict mode, any word.
const (
	ScopeModule   = "module"
	ScopeBegin    = "begin"
	ScopeFork     = "fork"
	ScopeFunction = "function"
	ScopeTask     = "task"
)

func ieeeScope(kind string) bool {
	switch kind {
	case ScopeModule, ScopeBegin, ScopeFork, ScopeFunction, ScopeTask:
		return true
	}
	return false
}

func knownScope(kind string) bool {
	if ieeeScope(kind) {
		return true
	}
	switch kind {
	case "generate", "struct", "union", "class", "interface", "package", "program":
		return true
	}
	return strings.HasPrefix(kind, "vhdl_")
}

// Timescale is the unit of the time stamps: Magnitude × Unit, e.g. 10 ns.
type Timescale struct {
	Magnitude uint64 // 1, 10 or 100 (other positive values only from a non-strict Reader)
	Unit      string // "s", "ms", "us", "ns", "ps" or "fs"
}

// String formats the timescale as written in $timescale, e.g. "1ns".
func (t Timescale) String() string {
	return strconv.FormatUint(t.Magnitude, 10) + t.Unit
}

// Exponent returns the power of ten of Unit in seconds (s → 0, ms → -3, ..., fs → -15).
func (t Timescale) Exponent() int {
	return unitExp(t.Unit)
}

func unitExp(u string) int {
	switch u {
	case "s":
		return 0
	case "ms":
		return -3
	case "us":
		return -6
	case "ns":
		return -9
	case "ps":
		return -12
	case "fs":
		return -15
	}
	return 1 // invalid
}

// ParseTimescale parses "1ns", "10 ps", "100us" and the like. Only 1, 10
// and 100 and the units s, ms, us, ns, ps and fs are valid (IEEE 1364-2005
// §18.2.3.7); anything else is an error wrapping ErrTimescale.
func ParseTimescale(s string) (Timescale, error) {
	return parseTimescale(s, true)
}

func parseTimescale(s string, strict bool) (Timescale, error) {
	orig := s
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	num, unit := s[:i], strings.TrimSpace(s[i:])
	bad := func(why string) (Timescale, error) {
		return Timescale{}, fmt.Errorf("%w %q: %s (want 1, 10 or 100 followed by s, ms, us, ns, ps or fs)", ErrTimescale, orig, why)
	}
	if num == "" {
		if strict {
			return bad("missing number")
		}
		num = "1"
	}
	m, err := strconv.ParseUint(num, 10, 64)
	if err != nil || m == 0 {
		return bad("bad number")
	}
	if strict && m != 1 && m != 10 && m != 100 {
		return bad("number must be 1, 10 or 100")
	}
	if unitExp(unit) == 1 {
		return bad("bad unit")
	}
	return Timescale{Magnitude: m, Unit: unit}, nil
}

// IDCode returns the identifier code the Writer uses for the n-th declared
// variable: printable ASCII 33–126, least significant digit first, as
// short as possible: 0 → "!", 93 → "~", 94 → "!!", 95 → "\"!", ...
func IDCode(n int) string {
	return string(appendIDCode(nil, n))
}

func appendIDCode(b []byte, n int) []byte {
	b = append(b, byte(33+n%94))
	n /= 94
	for n > 0 {
		n--
		b = append(b, byte(33+n%94))
		n /= 94
	}
	return b
}

// validName reports whether s can be written as one VCD name token:
// non-empty printable ASCII other than space, not starting with '$' (which
// would read as a keyword).
func validName(s string) bool {
	if s == "" || s[0] == '$' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// normBit maps a value character to its canonical lower-case form, or 0
// if it is not one of 0, 1, x, X, z, Z.
func normBit(c byte) byte {
	switch c {
	case '0', '1', 'x', 'z':
		return c
	case 'X':
		return 'x'
	case 'Z':
		return 'z'
	}
	return 0
}

// Extend left-extends a bit string to width characters following the VCD
// rules (IEEE 1364-2005 §18.2.1): a leading 0 or 1 extends with 0, x with
// x and z with z. A string already width or longer is returned unchanged.
// An empty string extends to all x.
func Extend(bits string, width int) string {
	if len(bits) >= width {
		return bits
	}
	var b strings.Builder
	b.Grow(width)
	pad := extChar(bits)
	for i := len(bits); i < width; i++ {
		b.WriteByte(pad)
	}
	b.WriteString(bits)
	return b.String()
}

func extChar(bits string) byte {
	if bits == "" {
		return 'x'
	}
	switch c := bits[0]; c {
	case 'x', 'X':
		return 'x'
	case 'z', 'Z':
		return 'z'
	}
	return '0'
}
