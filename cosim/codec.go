package cosim

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/smsim/smsim/rtl"
)

// A structCodec moves the tagged fields of one Go struct type (a unit's
// Inputs, Outputs or State) to and from their places in a wire record.
// It is built once, by reflection, from the struct's `sv` tags and the
// layout's fields, so the Go wire format follows the signal table with
// nothing generated or copied. The per-cycle work uses the field offsets
// found by reflection and typed loads and stores (package unsafe), which
// keeps it to a few nanoseconds per signal; newStructCodec only admits
// the field types listed in fieldKind, whose sizes it checks.
type structCodec struct {
	typ    reflect.Type
	fields []fieldCodec
}

type fieldKind uint8

const (
	kBool      fieldKind = iota // bool
	kUint                       // unsigned integer
	kInt                        // signed integer (two's complement, truncated to the width)
	kBits                       // rtl.Bits
	kUintArray                  // array of unsigned integers, packed at their own size
	kBoolArray                  // array of bool, one bit each
)

type fieldCodec struct {
	goOff    uintptr // the field's offset in the Go struct
	goSize   int     // bytes of the Go field (integers)
	kind     fieldKind
	off      int // byte offset in the record
	size     int // bytes on the wire
	width    int
	elemSize int // kUintArray: bytes per element
	count    int // kUintArray, kBoolArray: elements on the wire
}

// newStructCodec binds the `sv`-tagged fields of t to the fields of
// layout with the same names. Every tagged field must have a place.
func newStructCodec(t reflect.Type, fields []Field) (*structCodec, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("cosim: %s is not a struct", t)
	}
	byName := map[string]Field{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	c := &structCodec{typ: t}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, ok := sf.Tag.Lookup("sv")
		if !ok || name == "" || name == "-" {
			continue
		}
		f, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("cosim: %s.%s (%s) has no place in the wire record", t.Name(), sf.Name, name)
		}
		fc := fieldCodec{goOff: sf.Offset, goSize: int(sf.Type.Size()), off: f.Offset, size: f.Size, width: f.Width}
		ft := sf.Type
		switch {
		case ft == reflect.TypeFor[rtl.Bits]():
			fc.kind = kBits
			if f.Width > rtl.MaxBits {
				return nil, fmt.Errorf("cosim: %s: width %d exceeds rtl.MaxBits", name, f.Width)
			}
		case ft.Kind() == reflect.Bool:
			fc.kind = kBool
		case ft.Kind() >= reflect.Uint && ft.Kind() <= reflect.Uintptr:
			fc.kind = kUint
		case ft.Kind() >= reflect.Int && ft.Kind() <= reflect.Int64:
			fc.kind = kInt
		case ft.Kind() == reflect.Array && ft.Elem().Kind() == reflect.Bool:
			fc.kind, fc.count = kBoolArray, min(f.Width, ft.Len())
		case ft.Kind() == reflect.Array && ft.Elem().Kind() >= reflect.Uint8 && ft.Elem().Kind() <= reflect.Uint64:
			eb := int(ft.Elem().Size()) * 8
			if f.Width%eb != 0 || f.Width/eb > ft.Len() {
				return nil, fmt.Errorf("cosim: %s: width %d is not a whole number of %d-bit elements of [%d]%s", name, f.Width, eb, ft.Len(), ft.Elem())
			}
			fc.kind, fc.elemSize, fc.count = kUintArray, eb/8, f.Width/eb
		default:
			return nil, fmt.Errorf("cosim: %s: Go type %s has no wire encoding", name, ft)
		}
		if fc.off+fc.size > maxRecord {
			return nil, fmt.Errorf("cosim: %s: record too large", name)
		}
		c.fields = append(c.fields, fc)
	}
	return c, nil
}

// maxRecord bounds one record (a sanity limit, far above any unit).
const maxRecord = 1 << 20

func mask(width int) uint64 {
	if width >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(width) - 1
}

// putWord writes the low n bytes of v little-endian.
func putWord(b []byte, v uint64, n int) {
	if n == 8 {
		binary.LittleEndian.PutUint64(b, v)
		return
	}
	for k := 0; k < n; k++ {
		b[k] = byte(v >> (8 * k))
	}
}

// encode writes the fields of the struct at base (a pointer to a value
// of the codec's type) into rec.
func (c *structCodec) encode(base unsafe.Pointer, rec []byte) {
	for i := range c.fields {
		fc := &c.fields[i]
		p := unsafe.Add(base, fc.goOff)
		dst := rec[fc.off : fc.off+fc.size]
		switch fc.kind {
		case kBool:
			clear(dst)
			if *(*bool)(p) {
				dst[0] = 1
			}
		case kUint:
			putWide(dst, loadUint(p, fc.goSize)&mask(fc.width))
		case kInt:
			putWide(dst, loadUint(p, fc.goSize)&mask(fc.width))
		case kBits:
			b := (*rtl.Bits)(p)
			nb := (fc.width + 7) / 8
			for k := 0; k < nb; k++ {
				dst[k] = byte(b[k/8] >> (8 * (k % 8)))
			}
			if r := fc.width % 8; r != 0 {
				dst[nb-1] &= byte(1<<uint(r) - 1)
			}
			clear(dst[nb:])
		case kUintArray:
			e := fc.elemSize
			if littleEndian() {
				copy(dst, unsafe.Slice((*byte)(p), fc.count*e))
			} else {
				for k := 0; k < fc.count; k++ {
					putWord(dst[k*e:], loadUint(unsafe.Add(p, k*e), e), e)
				}
			}
			clear(dst[fc.count*e:])
		case kBoolArray:
			clear(dst)
			for k := 0; k < fc.count; k++ {
				if *(*bool)(unsafe.Add(p, k)) {
					dst[k/8] |= 1 << uint(k%8)
				}
			}
		}
	}
}

// littleEndian reports a little-endian host, where an array of integers
// is already laid out as on the wire.
func littleEndian() bool { return binary.NativeEndian.Uint16([]byte{1, 0}) == 1 }

// loadUint reads an unsigned integer of n bytes (1, 2, 4 or 8) at p.
func loadUint(p unsafe.Pointer, n int) uint64 {
	switch n {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// storeUint writes the low n bytes (1, 2, 4 or 8) of v at p.
func storeUint(p unsafe.Pointer, n int, v uint64) {
	switch n {
	case 1:
		*(*uint8)(p) = uint8(v)
	case 2:
		*(*uint16)(p) = uint16(v)
	case 4:
		*(*uint32)(p) = uint32(v)
	default:
		*(*uint64)(p) = v
	}
}

// putWide writes v into a field of 1, 2, 4, 8 or more bytes.
func putWide(dst []byte, v uint64) {
	if len(dst) >= 8 {
		binary.LittleEndian.PutUint64(dst, v)
		clear(dst[8:])
		return
	}
	putWord(dst, v, len(dst))
}

// decode sets the fields of the struct at base (a pointer to a value of
// the codec's type) from rec. Bits above a field's width are ignored;
// signed fields are sign-extended. Array elements beyond the wire width
// are left alone (the codec's users decode into values whose extra
// elements stay zero).
func (c *structCodec) decode(rec []byte, base unsafe.Pointer) {
	for i := range c.fields {
		fc := &c.fields[i]
		p := unsafe.Add(base, fc.goOff)
		src := rec[fc.off : fc.off+fc.size]
		switch fc.kind {
		case kBool:
			*(*bool)(p) = src[0]&1 != 0
		case kUint:
			storeUint(p, fc.goSize, wordAt(src, 0)&mask(fc.width))
		case kInt:
			x := wordAt(src, 0) & mask(fc.width)
			if fc.width < 64 && x>>(uint(fc.width)-1)&1 != 0 {
				x |= ^mask(fc.width)
			}
			storeUint(p, fc.goSize, x)
		case kBits:
			b := (*rtl.Bits)(p)
			*b = rtl.Bits{}
			nb := (fc.width + 7) / 8
			for k := 0; k < nb; k++ {
				x := src[k]
				if k == nb-1 && fc.width%8 != 0 {
					x &= byte(1<<uint(fc.width%8) - 1)
				}
				b[k/8] |= uint64(x) << (8 * (k % 8))
			}
		case kUintArray:
			e := fc.elemSize
			for k := 0; k < fc.count; k++ {
				storeUint(unsafe.Add(p, k*e), e, wordAt(src[k*e:k*e+e], 0))
			}
		case kBoolArray:
			for k := 0; k < fc.count; k++ {
				*(*bool)(unsafe.Add(p, k)) = src[k/8]>>(uint(k%8))&1 != 0
			}
		}
	}
}
