package cosim

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/smsim/smsim/rtl"
)

// Arrays the codec packs as flat vectors: elements narrower than their Go
// type, nested arrays, signed elements, vectors far wider than rtl.Bits,
// elements that straddle 64-bit words, and Go arrays longer than the
// vector.
type packedArrays struct {
	N5  [8]uint8      `sv:"n5_i" width:"20" elem:"5"`     // 4 elements of 5 bits
	N9  [3][4]uint16  `sv:"n9_i" width:"99" elem:"9"`     // 11 elements of 9 bits, row-major
	S6  [10]int8      `sv:"s6_i" width:"42" elem:"6"`     // 7 signed elements of 6 bits
	W   [40][8]uint64 `sv:"w_i" width:"17984"`            // 281 whole elements: 17,984 bits
	W61 [64]uint64    `sv:"w61_i" width:"3904" elem:"61"` // 64 elements of 61 bits
	E33 [70]uint64    `sv:"e33_i" width:"2211" elem:"33"` // 67 elements of 33 bits
	BO  [100]bool     `sv:"bo_i" width:"77"`              // 77 bits
	U32 [5]uint32     `sv:"u32s_i" width:"96"`            // 3 whole elements
	C   [2][1024]bool `sv:"c_i" width:"2000"`             // 2000 bits
	Q   [4]uint16     `sv:"q_i" width:"48"`               // whole elements
	One [1]uint8      `sv:"one_i" width:"3" elem:"3"`     // a single narrow element
	Sc  uint32        `sv:"sc_i" width:"17"`              // a scalar between the arrays
	Big [2500]uint16  `sv:"big_i" width:"12345" elem:"5"` // 2,469 elements of 5 bits
}

// packedEW are the element widths the elem tags above must give (the
// test's own record of them).
var packedEW = map[string]int{"n5_i": 5, "n9_i": 9, "s6_i": 6, "w61_i": 61, "e33_i": 33, "one_i": 3, "big_i": 5}

// leavesOf returns the leaf elements of an array value, row-major.
func leavesOf(v reflect.Value) []reflect.Value {
	if v.Kind() != reflect.Array {
		return []reflect.Value{v}
	}
	var out []reflect.Value
	for i := 0; i < v.Len(); i++ {
		out = append(out, leavesOf(v.Index(i))...)
	}
	return out
}

// inputLayout returns the wire layout of a test unit whose inputs are the
// tagged fields of in (and whose one output is oneOut's).
func inputLayout(t *testing.T, in any) *Layout {
	t.Helper()
	tab, err := rtl.Signals("t", nil, in, oneOut{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := NewLayout("t", tab)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// inputCodec is the layout of T as a unit's inputs (inputLayout) and T's
// codec for it.
func inputCodec[T any](t *testing.T) (*Layout, *structCodec) {
	t.Helper()
	var in T
	l := inputLayout(t, in)
	c, err := newStructCodec(reflect.TypeFor[T](), l.In)
	if err != nil {
		t.Fatal(err)
	}
	return l, c
}

// leafBits is a bool or integer leaf's value as bits (two's complement).
func leafBits(e reflect.Value) uint64 {
	switch {
	case e.Kind() == reflect.Bool:
		if e.Bool() {
			return 1
		}
		return 0
	case e.CanUint():
		return e.Uint()
	default:
		return uint64(e.Int())
	}
}

// bitAt reads bit i of a little-endian byte string.
func bitAt(b []byte, i int) uint64 { return uint64(b[i/8]>>(i%8)) & 1 }

// TestCodecPackedArrays checks the wire format of array signals bit by
// bit against the rule "element i at bits [ew*i, ew*i+ew), every other bit
// of the record zero", and the round trip (elements masked to ew bits,
// signed ones sign-extended, the ones beyond the vector left zero).
func TestCodecPackedArrays(t *testing.T) {
	l, c := inputCodec[packedArrays](t)
	r := rand.New(rand.NewPCG(3, 4))
	rec := make([]byte, l.InBytes)
	for iter := 0; iter < 200; iter++ {
		v := new(packedArrays)
		rv := reflect.ValueOf(v).Elem()
		for i := 0; i < rv.NumField(); i++ {
			for _, e := range leavesOf(rv.Field(i)) {
				switch {
				case e.Kind() == reflect.Bool:
					e.SetBool(r.IntN(2) == 1)
				case e.CanUint():
					e.SetUint(r.Uint64())
				default:
					e.SetInt(int64(r.Uint64()))
				}
			}
		}
		for i := range rec {
			rec[i] = 0xa5 // encode must write every byte
		}
		c.encode(unsafe.Pointer(v), rec)
		w := new(packedArrays)
		c.decode(rec, unsafe.Pointer(w))
		rw := reflect.ValueOf(w).Elem()
		for i := 0; i < rv.NumField(); i++ {
			sf := rv.Type().Field(i)
			name := sf.Tag.Get("sv")
			f, _, _ := l.Find(name)
			wire := rec[f.Offset : f.Offset+f.Size]
			for b := f.Width; b < 8*f.Size; b++ {
				if bitAt(wire, b) != 0 {
					t.Fatalf("%s: bit %d above the width %d is set", name, b, f.Width)
				}
			}
			src, got := leavesOf(rv.Field(i)), leavesOf(rw.Field(i))
			ew := packedEW[name]
			if ew == 0 {
				ew = int(src[0].Type().Size()) * 8
				if src[0].Kind() == reflect.Bool {
					ew = 1
				}
			}
			if sf.Type.Kind() != reflect.Array {
				ew = f.Width
			}
			n := f.Width / ew
			for k, e := range src {
				want := leafBits(e) & mask(ew)
				var onWire uint64
				if k < n {
					for b := 0; b < ew; b++ {
						onWire |= bitAt(wire, k*ew+b) << b
					}
					if onWire != want {
						t.Fatalf("%s[%d]: %#x on the wire, want %#x", name, k, onWire, want)
					}
				} else {
					want = 0 // beyond the vector: not decoded
				}
				g := got[k]
				back := leafBits(g)
				if g.CanInt() {
					if k < n && ew < 64 && want>>(ew-1)&1 != 0 {
						want |= ^mask(ew) // sign-extended
					}
					back &= mask(8 * int(g.Type().Size()))
					want &= mask(8 * int(g.Type().Size()))
				}
				if back != want {
					t.Fatalf("%s[%d]: decoded %#x, want %#x", name, k, back, want)
				}
			}
		}
	}
}

// TestCodecWidthErrors: a signal the Go type cannot hold is refused when
// the codec is built (element widths are checked by rtl.Signals and
// rtl.Places: rtl's tests).
func TestCodecWidthErrors(t *testing.T) {
	// A scalar wider than its Go type.
	type wide struct {
		X uint8 `sv:"x_i" width:"9"`
	}
	l := inputLayout(t, wide{})
	if _, err := newStructCodec(reflect.TypeFor[wide](), l.In); err == nil || !strings.Contains(err.Error(), "wider than its Go type") {
		t.Errorf("a 9-bit uint8: %v", err)
	}
}
