package trace

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/smsim/smsim/rtl"
)

// A binder reads the signals of one sv-tagged struct type (a unit's
// Inputs, Outputs or State, or one of this package's observation structs)
// as packed words: signal i occupies words [off, off+nw) of the buffer,
// bit j of the Verilog vector in word j/64, bit j%64, the bits above its
// width zero.
//
// Which fields are signals, their names and widths come from the signal
// table (rtl.Signals over the same type); the binder only adds where each
// one lives in memory. It is built once with reflection and reads values
// with plain loads at the offsets reflection found, so sampling a unit
// costs no reflection and no allocation. The layout is checked against
// the slow reflection path by the package tests.
type binder struct {
	typ    reflect.Type
	fields []bfield
	words  int
	raws   int // bytes of the raw snapshot
}

// leaf kinds
const (
	lBool = iota
	lU8
	lU16
	lU32
	lU64
)

type bfield struct {
	sig    rtl.Signal
	off    uintptr // byte offset of the field in the struct
	leaf   int     // kind of the scalar elements
	stride uintptr // bytes between elements (arrays; 0 for a scalar)
	n      int     // elements used (1 for a scalar)
	ew     int     // bits per element in the vector
	bits   bool    // an rtl.Bits field: its words are copied
	word   int     // first word in the packed buffer
	nw     int     // words
	size   uintptr // bytes of the field the signal reads
	raw    int     // offset of the field's snapshot in the raw buffer
	enum   []string
}

var bitsType = reflect.TypeOf(rtl.Bits{})

// leafOf returns the scalar kind of t (signed integers read as their two's
// complement bits), or false.
func leafOf(t reflect.Type) (int, int, bool) {
	switch t.Kind() {
	case reflect.Bool:
		return lBool, 1, true
	case reflect.Uint8, reflect.Int8:
		return lU8, 8, true
	case reflect.Uint16, reflect.Int16:
		return lU16, 16, true
	case reflect.Uint32, reflect.Int32:
		return lU32, 32, true
	case reflect.Uint64, reflect.Int64, reflect.Uint, reflect.Int, reflect.Uintptr:
		return lU64, int(t.Size()) * 8, true
	}
	return 0, 0, false
}

// newBinder lays out the signals of table (a table derived from typ, as
// rtl.Signals does) found in struct type typ; signals of the table that
// are not fields of typ are ignored, so one table covering Inputs,
// Outputs and State can be bound to each type in turn. enums maps a
// signal name to the names of its values (written as a string companion);
// ew0 gives the element width of array signals whose elements are
// narrower than their Go type.
func newBinder(typ reflect.Type, table rtl.Table, enums map[string][]string, ew0 map[string]int) (*binder, error) {
	if typ.Kind() != reflect.Struct {
		return nil, fmt.Errorf("trace: %s is not a struct", typ)
	}
	b := &binder{typ: typ}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, ok := f.Tag.Lookup("sv")
		if !ok || name == "" || name == "-" {
			continue
		}
		sig, ok := table.Find(name)
		if !ok {
			continue
		}
		bf := bfield{sig: sig, off: f.Offset, n: 1, enum: enums[name]}
		t := f.Type
		switch {
		case t == bitsType:
			if sig.Width > rtl.MaxBits {
				return nil, fmt.Errorf("trace: %s: width %d exceeds rtl.MaxBits", name, sig.Width)
			}
			bf.bits = true
		case t.Kind() == reflect.Array:
			// Arrays (nested ones row-major) flatten to the vector with
			// element i at bits [ew*i, ew*i+ew), as the Verilog does.
			leaves := 1
			e := t
			for e.Kind() == reflect.Array {
				leaves *= e.Len()
				e = e.Elem()
			}
			k, tw, ok := leafOf(e)
			if !ok {
				return nil, fmt.Errorf("trace: %s: unsupported element type %s", name, e)
			}
			// The element width: the Go type's (warp_age_q: [1024]uint32 of
			// which NumWarps are used), a bool's 1, or the override ew
			// (elements narrower than their Go type, e.g. 9-bit counts in
			// uint16s); anything else cannot be told apart reliably.
			ew := tw
			if k == lBool {
				ew = 1
			}
			if o, ok := ew0[name]; ok {
				ew = o
			}
			if sig.Width%ew != 0 || sig.Width/ew > leaves {
				return nil, fmt.Errorf("trace: %s: width %d does not split into %d-bit elements of %s (give its element width)", name, sig.Width, ew, t)
			}
			bf.leaf, bf.ew, bf.stride, bf.n = k, ew, e.Size(), sig.Width/ew
		default:
			k, tw, ok := leafOf(t)
			if !ok {
				return nil, fmt.Errorf("trace: %s: unsupported field type %s", name, t)
			}
			if sig.Width > tw {
				return nil, fmt.Errorf("trace: %s: width %d wider than %s", name, sig.Width, t)
			}
			bf.leaf, bf.ew = k, sig.Width
		}
		bf.word = b.words
		bf.nw = (sig.Width + 63) / 64
		b.words += bf.nw
		switch {
		case bf.bits:
			bf.size = uintptr(bf.nw) * 8
		case bf.stride == 0:
			bf.size = t.Size()
		default:
			bf.size = uintptr(bf.n) * bf.stride
		}
		bf.raw = b.raws
		b.raws += int(bf.size)
		b.fields = append(b.fields, bf)
	}
	return b, nil
}

func load(p unsafe.Pointer, k int) uint64 {
	switch k {
	case lBool:
		if *(*bool)(p) {
			return 1
		}
		return 0
	case lU8:
		return uint64(*(*uint8)(p))
	case lU16:
		return uint64(*(*uint16)(p))
	case lU32:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// pack reads the struct at p (of the binder's type) into dst.
func (b *binder) pack(p unsafe.Pointer, dst []uint64) {
	for i := range b.fields {
		f := &b.fields[i]
		f.pack(unsafe.Add(p, f.off), dst[f.word:f.word+f.nw])
	}
}

// pack reads the field at fp into w.
func (f *bfield) pack(fp unsafe.Pointer, w []uint64) {
	switch {
	case f.bits:
		src := (*rtl.Bits)(fp)
		copy(w, src[:f.nw])
		maskTop(w, f.sig.Width)
	case f.stride == 0:
		w[0] = load(fp, f.leaf) & mask(f.ew)
	default:
		clear(w)
		m := mask(f.ew)
		for j := 0; j < f.n; j++ {
			v := load(unsafe.Add(fp, uintptr(j)*f.stride), f.leaf) & m
			bit := j * f.ew
			w[bit>>6] |= v << uint(bit&63)
			if s := bit&63 + f.ew; s > 64 {
				w[bit>>6+1] |= v >> uint(64-bit&63)
			}
		}
	}
}

// bytesAt is the field's memory as bytes.
func (f *bfield) bytesAt(fp unsafe.Pointer) []byte {
	return unsafe.Slice((*byte)(fp), f.size)
}

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

func maskTop(w []uint64, width int) {
	if r := width & 63; r != 0 {
		w[len(w)-1] &= 1<<uint(r) - 1
	}
}

// bound is a binder for the Go type T: pack takes a *T, so the unsafe
// reads above always see the type the layout was computed for.
type bound[T any] struct{ b *binder }

func bindType[T any](table rtl.Table, enums map[string][]string) (bound[T], error) {
	b, err := newBinder(reflect.TypeFor[T](), table, enums, nil)
	return bound[T]{b}, err
}

func (x bound[T]) pack(v *T, dst []uint64) { x.b.pack(unsafe.Pointer(v), dst) }

func (x bound[T]) ptr(v *T) unsafe.Pointer { return unsafe.Pointer(v) }

// enumTags reads the `enum:"..."` tags of an observation struct type:
// signal name -> value names, from names (a tag value -> value names).
func enumTags(typ reflect.Type, names map[string][]string) map[string][]string {
	out := map[string][]string{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if e, ok := f.Tag.Lookup("enum"); ok {
			sv, _, _ := strings.Cut(f.Tag.Get("sv"), ",")
			out[sv] = names[e]
		}
	}
	return out
}

// ptrOf is the address of v for pack (tests).
func ptrOf[T any](v *T) unsafe.Pointer { return unsafe.Pointer(v) }
