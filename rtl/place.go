package rtl

import (
	"fmt"
	"reflect"
)

// Leaf is the kind of a signal's scalar value, or of its array's elements.
type Leaf uint8

// Leaf kinds.
const (
	LeafBool Leaf = iota // bool: 1 bit
	LeafUint             // unsigned integer
	LeafInt              // signed integer (two's complement, truncated to its width)
)

// Place says where one signal of a table lives in a Go struct (a unit's
// Inputs, Outputs or State, or an observer's struct): the one layout
// engine behind every consumer of signal values. The cosim codec packs
// places into little-endian wire records, the waveform tracer into 64-bit
// words; both take the places from Places, so a signal's width, its
// element width and where its bits come from are decided once, from the
// signal table and the Go type.
//
// A scalar signal is the field's value, truncated to Width. An rtl.Bits
// field's words are the vector. An array (nested arrays row-major) is the
// Verilog's flat vector: element i at bits [Elem*i, Elem*i+Elem), Count =
// Width/Elem elements; the Go array may hold more (sized for the largest
// parameters), and those are not part of the signal.
type Place struct {
	Signal
	Offset uintptr // the field's byte offset in the struct
	Size   uintptr // bytes of the Go field
	Bits   bool    // an rtl.Bits field
	Array  bool    // an array of bool or integer elements
	Leaf   Leaf    // the scalar kind of the field, or of its elements
	// LeafSize is the size in bytes of the scalar (the field, or one
	// element); array elements lie LeafSize bytes apart.
	LeafSize int
	Count    int // Array: elements in the signal (Width/Elem)
}

// Places lays out the signals of table that are fields of struct type
// typ, in field order. A signal of the table that is no field of typ is
// skipped (one table covering Inputs, Outputs and State binds to each type
// in turn); with strict, a tagged field of typ that is not in the table is
// an error.
func Places(typ reflect.Type, table Table, strict bool) ([]Place, error) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return nil, fmt.Errorf("rtl: %s is not a struct", typ)
	}
	var out []Place
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, ok := f.Tag.Lookup("sv")
		if !ok || name == "" || name == "-" {
			continue
		}
		sig, ok := table.Find(name)
		if !ok {
			if strict {
				return nil, fmt.Errorf("rtl: %s.%s (%s) is not in the signal table", typ.Name(), f.Name, name)
			}
			continue
		}
		p, err := place(f, sig)
		if err != nil {
			return nil, fmt.Errorf("rtl: %s.%s (%s): %v", typ.Name(), f.Name, name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// leafOf is the encoding of a value of type t and the bits it can hold
// (1 for a bool).
func leafOf(t reflect.Type) (leaf Leaf, bits int, ok bool) {
	switch k := t.Kind(); {
	case k == reflect.Bool:
		return LeafBool, 1, true
	case k >= reflect.Uint && k <= reflect.Uintptr:
		return LeafUint, 8 * int(t.Size()), true
	case k >= reflect.Int && k <= reflect.Int64:
		return LeafInt, 8 * int(t.Size()), true
	}
	return 0, 0, false
}

func place(f reflect.StructField, sig Signal) (Place, error) {
	t := f.Type
	p := Place{Signal: sig, Offset: f.Offset, Size: t.Size()}
	if sig.Width <= 0 {
		return p, fmt.Errorf("width %d", sig.Width)
	}
	switch {
	case t == bitsType:
		if sig.Width > MaxBits {
			return p, fmt.Errorf("width %d exceeds rtl.MaxBits", sig.Width)
		}
		p.Bits = true
	case t.Kind() == reflect.Array:
		leaves, e := 1, t
		for e.Kind() == reflect.Array {
			leaves *= e.Len()
			e = e.Elem()
		}
		leaf, own, ok := leafOf(e)
		if !ok {
			return p, fmt.Errorf("array elements of type %s have no bit encoding", e)
		}
		ew := sig.Elem
		if ew == 0 {
			ew = own
		}
		if ew < 1 || ew > own {
			return p, fmt.Errorf("element width %d outside 1..%d (the %s elements)", ew, own, e)
		}
		if sig.Width%ew != 0 || sig.Width/ew > leaves {
			return p, fmt.Errorf("width %d is not a whole number of %d-bit elements of %s, at most %d (a narrower element needs an elem tag)", sig.Width, ew, t, leaves)
		}
		p.Array, p.Leaf, p.LeafSize, p.Count = true, leaf, int(e.Size()), sig.Width/ew
		p.Elem = ew
	default:
		leaf, own, ok := leafOf(t)
		if !ok {
			return p, fmt.Errorf("the Go type %s has no bit encoding", t)
		}
		if sig.Width > own {
			return p, fmt.Errorf("width %d is wider than its Go type %s", sig.Width, t)
		}
		p.Leaf, p.LeafSize = leaf, int(t.Size())
	}
	return p, nil
}
