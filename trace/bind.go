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

// leafKind returns the load kind of a place's scalar (signed integers
// read as their two's complement bits).
func leafKind(p rtl.Place) int {
	if p.Leaf == rtl.LeafBool {
		return lBool
	}
	switch p.LeafSize {
	case 1:
		return lU8
	case 2:
		return lU16
	case 4:
		return lU32
	}
	return lU64
}

// newBinder lays out the signals of table (a table derived from typ, as
// rtl.Signals does) found in struct type typ; signals of the table that
// are not fields of typ are ignored, so one table covering Inputs,
// Outputs and State can be bound to each type in turn. enums maps a
// signal name to the names of its values (written as a string companion).
// Where each signal's bits live (element widths, element counts) is
// rtl.Places's answer, the one the cosim codec uses too.
func newBinder(typ reflect.Type, table rtl.Table, enums map[string][]string) (*binder, error) {
	places, err := rtl.Places(typ, table, false)
	if err != nil {
		return nil, fmt.Errorf("trace: %v", err)
	}
	b := &binder{typ: typ}
	for _, p := range places {
		bf := bfield{sig: p.Signal, off: p.Offset, n: 1, enum: enums[p.Name]}
		switch {
		case p.Bits:
			bf.bits = true
		case p.Array:
			bf.leaf, bf.ew, bf.stride, bf.n = leafKind(p), p.Elem, uintptr(p.LeafSize), p.Count
		default:
			bf.leaf, bf.ew = leafKind(p), p.Width
		}
		bf.word = b.words
		bf.nw = (p.Width + 63) / 64
		b.words += bf.nw
		switch {
		case bf.bits:
			bf.size = uintptr(bf.nw) * 8
		case bf.stride == 0:
			bf.size = p.Size
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
	b, err := newBinder(reflect.TypeFor[T](), table, enums)
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
