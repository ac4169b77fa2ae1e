package rtl

import (
	"fmt"
	"io"
	"reflect"
	"strconv"
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
// (_i, _o, _q); any other suffix is an error. The width is the `width` tag
// (a decimal number, or the name of an entry of params, e.g.
// `width:"NumWarps"`), else derived from the Go type: bool 1, (u)int8 8,
// (u)int16 16, (u)int32 32, (u)int64/(u)int/uintptr 64, arrays of bool
// their length. A Bits field needs a width tag.
func Signals(scope string, params map[string]int, parts ...any) (Table, error) {
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
			w, err := fieldWidth(f, params)
			if err != nil {
				return nil, fmt.Errorf("rtl: %s.%s (%s): %v", st.Name(), f.Name, name, err)
			}
			t = append(t, Signal{Name: name, Width: w, Dir: dir, Scope: scope})
		}
	}
	return t, nil
}

// MustSignals is Signals for tables that are fixed by the program (a unit's
// own types): it panics on an error, which a unit test catches.
func MustSignals(scope string, params map[string]int, parts ...any) Table {
	t, err := Signals(scope, params, parts...)
	if err != nil {
		panic(err)
	}
	return t
}

func fieldWidth(f reflect.StructField, params map[string]int) (int, error) {
	if ws, ok := f.Tag.Lookup("width"); ok {
		if n, err := strconv.Atoi(ws); err == nil {
			if n <= 0 {
				return 0, fmt.Errorf("width %d", n)
			}
			return n, nil
		}
		n, ok := params[ws]
		if !ok {
			return 0, fmt.Errorf("width %q is neither a number nor a parameter", ws)
		}
		if n <= 0 {
			return 0, fmt.Errorf("width %s = %d", ws, n)
		}
		return n, nil
	}
	t := f.Type
	if t == bitsType {
		return 0, fmt.Errorf("a Bits signal needs a width tag")
	}
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
	case reflect.Array:
		if t.Elem().Kind() == reflect.Bool {
			return t.Len(), nil
		}
	}
	return 0, fmt.Errorf("cannot derive a width from %s; add a width tag", t)
}
