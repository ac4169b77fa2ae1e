package plan

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// literal types of buffers and variables, with their element sizes.
var literalTypes = map[string]int{"u8": 1, "u16": 2, "u32": 4, "i32": 4, "u64": 8, "i64": 8, "f32": 4, "f64": 8}

// encodeLiteral encodes one literal value of type t little-endian.
func encodeLiteral(t, s string) ([]byte, error) {
	n := literalTypes[t]
	var bits uint64
	switch t {
	case "f32", "f64":
		f, err := strconv.ParseFloat(strings.TrimRight(s, "fd"), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		if t == "f32" {
			bits = uint64(math.Float32bits(float32(f)))
		} else {
			bits = math.Float64bits(f)
		}
	case "i32", "i64":
		v, err := strconv.ParseInt(s, 0, 8*n)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %d-bit signed integer", s, 8*n)
		}
		bits = uint64(v)
	default:
		v, err := strconv.ParseUint(s, 0, 8*n)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %d-bit unsigned integer", s, 8*n)
		}
		bits = v
	}
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(bits >> (8 * i))
	}
	return out, nil
}

// ParseScalar reads a typed scalar: an integer (-3, 0x10; int64, or
// uint64 above its range), a float32 (1.5f) or a float64 (2.0d). A
// number without a suffix that is not an integer is refused: say which
// width.
func ParseScalar(s string) (any, error) {
	t := strings.TrimSpace(s)
	if v, err := strconv.ParseInt(t, 0, 64); err == nil {
		return v, nil
	}
	if v, err := strconv.ParseUint(t, 0, 64); err == nil {
		return v, nil
	}
	lower := strings.ToLower(strings.TrimLeft(t, "+-"))
	if n := len(t); n > 1 && !strings.HasPrefix(lower, "0x") {
		switch t[n-1] {
		case 'f', 'F':
			if f, err := strconv.ParseFloat(t[:n-1], 32); err == nil {
				return float32(f), nil
			}
		case 'd', 'D':
			if f, err := strconv.ParseFloat(t[:n-1], 64); err == nil {
				return f, nil
			}
		}
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return nil, fmt.Errorf("%q: say its width: %sf (float32) or %sd (float64)", s, t, t)
	}
	return nil, fmt.Errorf("%q is neither an integer (-3, 0x10) nor a typed float (1.5f, 2.0d)", s)
}

var condRE = regexp.MustCompile(`^\s*(?:(u32|i32|u64|i64|f32|f64)\s+)?([A-Za-z_][A-Za-z0-9_.$]*)\s*\[\s*([0-9a-fA-Fx]+)\s*\]\s*(==|!=|<=|>=|<|>)\s*(\S+)\s*$`)

// cond reads "[TYPE ]BUFFER[INDEX] OP VALUE".
func (p *parser) cond(n ast.Node, s string) *Cond {
	m := condRE.FindStringSubmatch(s)
	if m == nil {
		p.r.Errorf(n, "repeat.until: %q: want [TYPE ]BUFFER[INDEX] OP VALUE, such as over[0] == 0 or f32 err[0] < 0.001 (TYPE: u32 (default), i32, u64, i64, f32, f64; OP: == != < <= > >=)", s)
		return nil
	}
	c := &Cond{Type: m[1], Buffer: m[2], Op: m[4], Value: m[5], Text: strings.TrimSpace(s), At: p.r.At(n)}
	if c.Type == "" {
		c.Type = "u32"
	}
	if p.bufs[c.Buffer] == nil {
		p.r.Errorf(n, "repeat.until: no buffer %q", c.Buffer)
		return nil
	}
	idx, err := strconv.ParseUint(m[3], 0, 40)
	if err != nil {
		p.r.Errorf(n, "repeat.until: index %q is not an element count", m[3])
		return nil
	}
	c.Index = int64(idx)
	switch c.Type {
	case "f32", "f64":
		c.floatV, err = strconv.ParseFloat(strings.TrimRight(c.Value, "fd"), 64)
	case "i32", "i64":
		c.intV, err = strconv.ParseInt(c.Value, 0, literalTypes[c.Type]*8)
	default:
		c.uintV, err = strconv.ParseUint(c.Value, 0, literalTypes[c.Type]*8)
	}
	if err != nil {
		p.r.Errorf(n, "repeat.until: %q is not a %s value", c.Value, c.Type)
		return nil
	}
	return c
}
