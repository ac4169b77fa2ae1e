package rtl

import (
	"fmt"
	"math/bits"
	"reflect"
	"strconv"
	"strings"
)

// Width expressions are the values of the `width` and `elem` tags of a
// unit's signals, so that every width lives next to the signal it sizes,
// written once (the STYLE's "widths live in one place"):
//
//	Age      [MaxBits]uint32 `sv:"warp_age_q" width:"32*NumWarps"`
//	EvWarp   [MaxPorts]uint16 `sv:"ev_warp_i" width:"NumPorts*clog2(NumWarps)" elem:"clog2(NumWarps)"`
//
// An expression is built from decimal integers, the names of the unit's
// parameters (the exported integer fields of its Params struct, and its
// exported methods that take no argument and return an int), the
// operators + - * / with the usual precedence, parentheses, and these
// functions, spelled as in SystemVerilog where it has them:
//
//	clog2(x)   ceil(log2(x)): $clog2, 0 for x <= 1
//	idx(x)     the width of an index into x things: max(clog2(x), 1)
//	max(a, b), min(a, b)
type paramEnv struct {
	v reflect.Value // the Params struct (invalid: no parameters)
}

func newParamEnv(params any) (paramEnv, error) {
	if params == nil {
		return paramEnv{}, nil
	}
	v := reflect.ValueOf(params)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return paramEnv{}, fmt.Errorf("rtl: nil %s", v.Type())
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return paramEnv{}, fmt.Errorf("rtl: parameters of type %s: want a Params struct", v.Type())
	}
	return paramEnv{v: v}, nil
}

// lookup returns the parameter name: a field, or a method of no argument
// returning int.
func (e paramEnv) lookup(name string) (int, bool) {
	if !e.v.IsValid() {
		return 0, false
	}
	if f := e.v.FieldByName(name); f.IsValid() && f.CanInterface() {
		switch f.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return int(f.Int()), true
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return int(f.Uint()), true
		}
		return 0, false
	}
	m := e.v.MethodByName(name)
	if !m.IsValid() {
		if e.v.CanAddr() {
			m = e.v.Addr().MethodByName(name)
		} else {
			p := reflect.New(e.v.Type())
			p.Elem().Set(e.v)
			m = p.MethodByName(name)
		}
	}
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 || m.Type().Out(0).Kind() != reflect.Int {
		return 0, false
	}
	return int(m.Call(nil)[0].Int()), true
}

// Eval evaluates a width expression against the parameters params (a
// Params struct or a pointer to one; nil for none).
func Eval(expr string, params any) (int, error) {
	env, err := newParamEnv(params)
	if err != nil {
		return 0, err
	}
	return env.eval(expr)
}

func (e paramEnv) eval(expr string) (int, error) {
	p := exprParser{src: expr, env: e}
	v, err := p.sum()
	if err == nil {
		p.space()
		if p.i < len(p.src) {
			err = p.errorf("unexpected %q", p.src[p.i:])
		}
	}
	if err != nil {
		return 0, err
	}
	return v, nil
}

type exprParser struct {
	src string
	i   int
	env paramEnv
}

func (p *exprParser) errorf(format string, args ...any) error {
	return fmt.Errorf("width expression %q at offset %d: %s", p.src, p.i, fmt.Sprintf(format, args...))
}

func (p *exprParser) space() {
	for p.i < len(p.src) && p.src[p.i] == ' ' {
		p.i++
	}
}

func (p *exprParser) peek() byte {
	p.space()
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

// sum = product { ("+" | "-") product }
func (p *exprParser) sum() (int, error) {
	return p.chain(p.product, "+-")
}

// product = atom { ("*" | "/") atom }
func (p *exprParser) product() (int, error) {
	return p.chain(p.atom, "*/")
}

// chain = operand { op operand }, for op one of ops (all left-associative).
func (p *exprParser) chain(operand func() (int, error), ops string) (int, error) {
	v, err := operand()
	for err == nil {
		op := p.peek()
		if op == 0 || !strings.ContainsRune(ops, rune(op)) {
			break
		}
		p.i++
		var r int
		if r, err = operand(); err == nil {
			switch {
			case op == '+':
				v += r
			case op == '-':
				v -= r
			case op == '*':
				v *= r
			case r == 0:
				err = p.errorf("division by zero")
			default:
				v /= r
			}
		}
	}
	return v, err
}

// atom = number | name | name "(" sum { "," sum } ")" | "(" sum ")"
func (p *exprParser) atom() (int, error) {
	c := p.peek()
	switch {
	case c == '(':
		p.i++
		v, err := p.sum()
		if err != nil {
			return 0, err
		}
		if p.peek() != ')' {
			return 0, p.errorf("missing )")
		}
		p.i++
		return v, nil
	case c >= '0' && c <= '9':
		j := p.i
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			j++
		}
		v, err := strconv.Atoi(p.src[p.i:j])
		if err != nil {
			return 0, p.errorf("%v", err)
		}
		p.i = j
		return v, nil
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		j := p.i
		for j < len(p.src) && (p.src[j] == '_' || p.src[j] >= 'a' && p.src[j] <= 'z' || p.src[j] >= 'A' && p.src[j] <= 'Z' || p.src[j] >= '0' && p.src[j] <= '9') {
			j++
		}
		name := p.src[p.i:j]
		p.i = j
		if p.peek() == '(' {
			p.i++
			var args []int
			for {
				v, err := p.sum()
				if err != nil {
					return 0, err
				}
				args = append(args, v)
				if p.peek() == ',' {
					p.i++
					continue
				}
				break
			}
			if p.peek() != ')' {
				return 0, p.errorf("missing ) after the arguments of %s", name)
			}
			p.i++
			return p.call(name, args)
		}
		v, ok := p.env.lookup(name)
		if !ok {
			return 0, p.errorf("%s is not a parameter", name)
		}
		return v, nil
	}
	if c == 0 {
		return 0, p.errorf("unexpected end")
	}
	return 0, p.errorf("unexpected %q", c)
}

func (p *exprParser) call(name string, args []int) (int, error) {
	want := map[string]int{"clog2": 1, "idx": 1, "max": 2, "min": 2}
	n, ok := want[name]
	if !ok {
		return 0, p.errorf("unknown function %s (clog2, idx, max, min)", name)
	}
	if len(args) != n {
		return 0, p.errorf("%s takes %d argument(s), got %d", name, n, len(args))
	}
	switch name {
	case "clog2":
		return Clog2(args[0]), nil
	case "idx":
		return IdxWidth(args[0]), nil
	case "max":
		return max(args[0], args[1]), nil
	}
	return min(args[0], args[1]), nil
}

// Clog2 is SystemVerilog's $clog2: ceil(log2(x)), 0 for x <= 1.
func Clog2(x int) int {
	if x <= 1 {
		return 0
	}
	return bits.Len(uint(x - 1))
}

// IdxWidth is the width of an index into n things: max($clog2(n), 1).
func IdxWidth(n int) int { return max(Clog2(n), 1) }

// isNumber reports whether s is a plain decimal number.
func isNumber(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
