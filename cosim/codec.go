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
//
// An array (nested arrays row-major) is the flat vector the Verilog
// declares: element i at bits [ew*i, ew*i+ew) of the signal, ew its
// element width, which is the Go element's own width (1 for bool) unless
// the signal's elem tag gives a narrower one (5-bit warp indices in
// uint8s, 9-bit register counts in uint16s, ...). The signal's width says
// how many elements travel; the Go array may hold more (sized for the
// largest parameters), and those stay out of the record.
type structCodec struct {
	typ    reflect.Type
	fields []fieldCodec
}

type fieldKind uint8

const (
	kBool  fieldKind = iota // bool
	kUint                   // unsigned integer
	kInt                    // signed integer (two's complement, truncated to the width)
	kBits                   // rtl.Bits
	kArray                  // array of bool or integer elements, packed at ew bits each
)

type fieldCodec struct {
	name   string
	goOff  uintptr // the field's offset in the Go struct
	goSize int     // bytes of the Go field (kUint, kInt) or of one element (kArray)
	kind   fieldKind
	off    int // byte offset in the record
	size   int // bytes on the wire
	width  int
	signed bool // kArray: signed integer elements (sign-extended when decoded)
	ew     int  // kArray: bits per element on the wire
	count  int  // kArray: elements on the wire (width / ew)
	// kArray: the wire holds the elements exactly as Go does (integer
	// elements at their full width on a little-endian host): one copy.
	same bool
}

// newStructCodec binds the `sv`-tagged fields of t to the fields of
// layout with the same names. Every tagged field must have a place. Where
// each signal's bits live in the Go struct (its element width, how many
// elements travel) is rtl.Places's answer, which the waveform tracer
// shares.
func newStructCodec(t reflect.Type, fields []Field) (*structCodec, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	byName := map[string]Field{}
	table := make(rtl.Table, len(fields))
	for i, f := range fields {
		byName[f.Name] = f
		table[i] = f.Signal
	}
	places, err := rtl.Places(t, table, true)
	if err != nil {
		return nil, fmt.Errorf("cosim: %v (it has no place in the wire record)", err)
	}
	c := &structCodec{typ: t}
	for _, p := range places {
		f := byName[p.Name]
		fc := fieldCodec{name: p.Name, goOff: p.Offset, goSize: p.LeafSize, off: f.Offset, size: f.Size, width: p.Width}
		switch {
		case p.Bits:
			fc.kind = kBits
		case p.Array:
			fc.kind, fc.ew, fc.count = kArray, p.Elem, p.Count
			fc.signed = p.Leaf == rtl.LeafInt
			fc.same = p.Leaf != rtl.LeafBool && p.Elem == 8*p.LeafSize && littleEndian()
		case p.Leaf == rtl.LeafBool:
			fc.kind = kBool
		case p.Leaf == rtl.LeafUint:
			fc.kind = kUint
		default:
			fc.kind = kInt
		}
		if fc.off+fc.size > maxRecord {
			return nil, fmt.Errorf("cosim: %s: record too large", p.Name)
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

// at returns field i's codec, its address in the struct at base and its
// bytes in the record rec.
func (c *structCodec) at(i int, base unsafe.Pointer, rec []byte) (*fieldCodec, unsafe.Pointer, []byte) {
	fc := &c.fields[i]
	return fc, unsafe.Add(base, fc.goOff), rec[fc.off : fc.off+fc.size]
}

// encode writes the fields of the struct at base (a pointer to a value
// of the codec's type) into rec.
func (c *structCodec) encode(base unsafe.Pointer, rec []byte) {
	for i := range c.fields {
		fc, p, dst := c.at(i, base, rec)
		switch fc.kind {
		case kBool:
			clear(dst)
			if *(*bool)(p) {
				dst[0] = 1
			}
		case kUint, kInt:
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
		case kArray:
			if fc.same {
				n := fc.count * fc.goSize
				copy(dst, unsafe.Slice((*byte)(p), n))
				clear(dst[n:])
			} else {
				fc.pack(p, dst)
			}
		}
	}
}

// pack writes the array at p into dst, ew bits per element.
func (fc *fieldCodec) pack(p unsafe.Pointer, dst []byte) {
	switch fc.goSize {
	case 1: // uint8, int8 and bool (0 or 1)
		packElems(unsafe.Slice((*uint8)(p), fc.count), fc.ew, dst)
	case 2:
		packElems(unsafe.Slice((*uint16)(p), fc.count), fc.ew, dst)
	case 4:
		packElems(unsafe.Slice((*uint32)(p), fc.count), fc.ew, dst)
	default:
		packElems(unsafe.Slice((*uint64)(p), fc.count), fc.ew, dst)
	}
}

func packElems[T uint8 | uint16 | uint32 | uint64](src []T, ew int, dst []byte) {
	m := mask(ew)
	var acc uint64 // bits not yet written, from bit 8*j of dst
	n, j := 0, 0   // bits in acc, bytes written
	for _, e := range src {
		v := uint64(e) & m
		acc |= v << uint(n)
		n += ew
		if n >= 64 {
			binary.LittleEndian.PutUint64(dst[j:], acc)
			j += 8
			n -= 64
			acc = 0
			if n > 0 {
				acc = v >> uint(ew-n) // the bits that did not fit
			}
		}
	}
	for ; n > 0; n -= 8 {
		dst[j] = byte(acc)
		acc >>= 8
		j++
	}
	clear(dst[j:])
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
// signed fields and elements are sign-extended. Array elements beyond the
// wire width are left alone (the codec's users decode into values whose
// extra elements stay zero).
func (c *structCodec) decode(rec []byte, base unsafe.Pointer) {
	for i := range c.fields {
		fc, p, src := c.at(i, base, rec)
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
		case kArray:
			if fc.same {
				copy(unsafe.Slice((*byte)(p), fc.count*fc.goSize), src)
				continue
			}
			ew, es := fc.ew, fc.goSize
			for k := 0; k < fc.count; k++ {
				x := bitsAt(src, k*ew, ew)
				if fc.signed && ew < 64 && x>>(uint(ew)-1)&1 != 0 {
					x |= ^mask(ew)
				}
				storeUint(unsafe.Add(p, k*es), es, x) // a bool stores 0 or 1
			}
		}
	}
}

// bitsAt reads the w bits (w <= 64) of b starting at bit i.
func bitsAt(b []byte, i, w int) uint64 {
	k, sh := i>>3, uint(i&7)
	x := wordAt(b, k) >> sh
	if int(sh)+w > 64 {
		x |= uint64(b[k+8]) << (64 - sh)
	}
	return x & mask(w)
}
