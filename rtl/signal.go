package rtl

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Dir is the direction of a signal.
type Dir uint8

// Signal directions.
const (
	DirIn  Dir = iota // an input port (*_i)
	DirOut            // an output port (*_o)
	DirReg            // a register output (*_q)
)

func (d Dir) String() string {
	switch d {
	case DirIn:
		return "in"
	case DirOut:
		return "out"
	case DirReg:
		return "reg"
	}
	return "dir?"
}

// MarshalText gives the JSON/YAML spelling ("in", "out", "reg").
func (d Dir) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Signal is one row of a unit's signal table.
type Signal struct {
	Name  string `json:"name"`  // the Verilog name, e.g. "issue_valid_o"
	Width int    `json:"width"` // bits
	Dir   Dir    `json:"dir"`
	Scope string `json:"scope"` // the Verilog instance path, e.g. "sm_top.u_warp_sched_0"
	// Elem is the width of one element of an array signal (a Go array
	// flattened to the Verilog vector, element i at bits [Elem*i,
	// Elem*i+Elem)); 0 for a scalar signal.
	Elem int `json:"elem,omitempty"`
}

// Path is the hierarchical name scope.name.
func (s Signal) Path() string {
	if s.Scope == "" {
		return s.Name
	}
	return s.Scope + "." + s.Name
}

// Table is a unit's signal table, in declaration order (inputs, outputs,
// then registers, as passed to Signals).
type Table []Signal

// Find returns the signal named name.
func (t Table) Find(name string) (Signal, bool) {
	for _, s := range t {
		if s.Name == name {
			return s, true
		}
	}
	return Signal{}, false
}

// Names lists the signal names in order.
func (t Table) Names() []string {
	out := make([]string, len(t))
	for i, s := range t {
		out[i] = s.Name
	}
	return out
}

// WriteTo writes the table as text, one signal a line:
// "scope name dir width".
func (t Table) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, s := range t {
		k, err := fmt.Fprintf(w, "%s %s %s %d\n", s.Scope, s.Name, s.Dir, s.Width)
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

var bitsType = reflect.TypeOf(Bits{})

// Signals derives a signal table from the tagged fields of one or more
// struct values (a unit's Inputs, Outputs and State; pointers to them are
// accepted). Every field with an `sv:"name"` tag is a signal; fields
// without one are skipped. The direction comes from the name's suffix
// (_i, _o, _q); any other suffix is an error.
//
// The width is the `width` tag, a width expression over params (the
// unit's Params struct, or nil; see Eval: `width:"32*NumWarps"`), else
// derived from the Go type: bool 1, (u)int8 8, (u)int16 16, (u)int32 32,
// (u)int64/(u)int/uintptr 64, an array its elements' widths summed. A Bits
// field needs a width tag. An array signal's element width (Signal.Elem)
// is its `elem` tag, else its Go element's width (1 for bool); the array
// may be longer than the signal needs (sized for the largest parameters):
// the signal holds the first width/elem elements.
func Signals(scope string, params any, parts ...any) (Table, error) {
	env, err := newParamEnv(params)
	if err != nil {
		return nil, err
	}
	var t Table
	seen := map[string]bool{}
	for _, p := range parts {
		v := reflect.ValueOf(p)
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil, fmt.Errorf("rtl: nil %s", v.Type())
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return nil, fmt.Errorf("rtl: %s is not a struct", v.Type())
		}
		st := v.Type()
		for i := 0; i < st.NumField(); i++ {
			f := st.Field(i)
			name, ok := f.Tag.Lookup("sv")
			if !ok || name == "" || name == "-" {
				continue
			}
			var dir Dir
			switch {
			case strings.HasSuffix(name, "_i") || strings.HasSuffix(name, "_ni"):
				dir = DirIn
			case strings.HasSuffix(name, "_o") || strings.HasSuffix(name, "_no"):
				dir = DirOut
			case strings.HasSuffix(name, "_q"):
				dir = DirReg
			default:
				return nil, fmt.Errorf("rtl: %s.%s: signal %q has no _i, _o or _q suffix", st.Name(), f.Name, name)
			}
			if seen[name] {
				return nil, fmt.Errorf("rtl: signal %q declared twice", name)
			}
			seen[name] = true
			w, ew, err := fieldWidth(f, env)
			if err != nil {
				return nil, fmt.Errorf("rtl: %s.%s (%s): %v", st.Name(), f.Name, name, err)
			}
			t = append(t, Signal{Name: name, Width: w, Dir: dir, Scope: scope, Elem: ew})
		}
	}
	return t, nil
}

// MustSignals is Signals for tables that are fixed by the program (a unit's
// own types): it panics on an error, which a unit test catches.
func MustSignals(scope string, params any, parts ...any) Table {
	t, err := Signals(scope, params, parts...)
	if err != nil {
		panic(err)
	}
	return t
}

// fieldWidth returns a field's signal width and, for an array, its
// element width.
func fieldWidth(f reflect.StructField, env paramEnv) (width, elem int, err error) {
	t := f.Type
	isArray := t.Kind() == reflect.Array && t != bitsType // Bits is one vector
	leaves, et := 1, t
	for isArray && et.Kind() == reflect.Array {
		leaves *= et.Len()
		et = et.Elem()
	}
	if isArray {
		elem, err = scalarWidth(et)
		if err != nil {
			return 0, 0, err
		}
		if es, ok := f.Tag.Lookup("elem"); ok {
			if elem, err = env.eval(es); err != nil {
				return 0, 0, err
			}
			if w, _ := scalarWidth(et); elem <= 0 || elem > w {
				return 0, 0, fmt.Errorf("element width %s = %d: want 1..%d (the Go element's width)", es, elem, w)
			}
		}
	} else if _, ok := f.Tag.Lookup("elem"); ok {
		return 0, 0, fmt.Errorf("an elem tag on a field that is not an array")
	}
	if ws, ok := f.Tag.Lookup("width"); ok {
		n, err := env.eval(ws)
		if err != nil {
			return 0, 0, err
		}
		if n <= 0 {
			if isNumber(ws) {
				return 0, 0, fmt.Errorf("width %d", n)
			}
			return 0, 0, fmt.Errorf("width %s = %d", ws, n)
		}
		if isArray && (n%elem != 0 || n/elem > leaves) {
			if !isNumber(ws) {
				ws = fmt.Sprintf("%s = %d", ws, n)
			}
			return 0, 0, fmt.Errorf("width %s is not a whole number of %d-bit elements, at most %d (%s; a narrower element needs an elem tag)", ws, elem, leaves, t)
		}
		return n, elem, nil
	}
	if t == bitsType {
		return 0, 0, fmt.Errorf("a Bits signal needs a width tag")
	}
	if isArray {
		return elem * leaves, elem, nil
	}
	w, err := scalarWidth(t)
	return w, 0, err
}

// scalarWidth is the width of a bool or integer type.
func scalarWidth(t reflect.Type) (int, error) {
	switch t.Kind() {
	case reflect.Bool:
		return 1, nil
	case reflect.Int8, reflect.Uint8:
		return 8, nil
	case reflect.Int16, reflect.Uint16:
		return 16, nil
	case reflect.Int32, reflect.Uint32:
		return 32, nil
	case reflect.Int64, reflect.Uint64, reflect.Int, reflect.Uint, reflect.Uintptr:
		return 64, nil
	}
	return 0, fmt.Errorf("cannot derive a width from %s; add a width tag", t)
}
