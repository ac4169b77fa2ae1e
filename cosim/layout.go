package cosim

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/bits"
	"strconv"
	"strings"

	"github.com/smsim/smsim/rtl"
)

// StorageBytes is the number of bytes Verilator uses to hold a signal of
// the given width, which is also its size on the wire: CData (1 byte) up
// to 8 bits, SData (2) up to 16, IData (4) up to 32, QData (8) up to 64,
// and VlWide, an array of 32-bit words, beyond.
func StorageBytes(width int) int {
	switch {
	case width <= 8:
		return 1
	case width <= 16:
		return 2
	case width <= 32:
		return 4
	case width <= 64:
		return 8
	}
	return 4 * ((width + 31) / 32)
}

// Field is one signal's place in a wire record.
type Field struct {
	rtl.Signal
	Offset int // byte offset in its record
	Size   int // bytes on the wire (StorageBytes(Width))
}

// Layout is the wire format of one unit at one parameter set: the input
// record carries the inputs, the output record the outputs and then the
// registers, each in signal-table order, each signal little-endian in
// StorageBytes(width) bytes with the bits above its width zero.
type Layout struct {
	Module   string
	In       []Field
	Out      []Field
	InBytes  int
	OutBytes int
}

// NewLayout lays out the signal table t of module.
func NewLayout(module string, t rtl.Table) (*Layout, error) {
	l := &Layout{Module: module}
	for _, dir := range []rtl.Dir{rtl.DirIn, rtl.DirOut, rtl.DirReg} {
		for _, s := range t {
			if s.Dir != dir {
				continue
			}
			if s.Width < 1 {
				return nil, fmt.Errorf("cosim: %s.%s: width %d", module, s.Name, s.Width)
			}
			f := Field{Signal: s, Size: StorageBytes(s.Width)}
			if dir == rtl.DirIn {
				f.Offset = l.InBytes
				l.InBytes += f.Size
				l.In = append(l.In, f)
			} else {
				f.Offset = l.OutBytes
				l.OutBytes += f.Size
				l.Out = append(l.Out, f)
			}
		}
	}
	if len(l.In)+len(l.Out) != len(t) {
		return nil, fmt.Errorf("cosim: %s: signal table has signals of unknown direction", module)
	}
	if l.InBytes == 0 || l.OutBytes == 0 {
		return nil, fmt.Errorf("cosim: %s: a unit needs at least one input and one output or register", module)
	}
	return l, nil
}

// Hash identifies the layout's signal names and directions (not the
// widths, which depend on the parameters): the generated C++ header
// carries the same number, and HELLO compares the two. It is FNV-1a 64
// over "module\n" and then "name dir\n" per signal in record order.
func (l *Layout) Hash() uint64 {
	return layoutHash(l.Module, append(append([]Field(nil), l.In...), l.Out...))
}

func layoutHash(module string, fs []Field) uint64 {
	h := fnv.New64a()
	h.Write([]byte(module + "\n"))
	for _, f := range fs {
		h.Write([]byte(f.Name + " " + f.Dir.String() + "\n"))
	}
	return h.Sum64()
}

// Find returns the field named name and whether it is in the input
// record.
func (l *Layout) Find(name string) (Field, bool, bool) {
	for _, f := range l.In {
		if f.Name == name {
			return f, true, true
		}
	}
	for _, f := range l.Out {
		if f.Name == name {
			return f, false, true
		}
	}
	return Field{}, false, false
}

// Param is one Verilog parameter value of a build.
type Param struct {
	Name  string
	Value int
}

// ParamString renders parameters as "Name=Value ..." in order.
func ParamString(ps []Param) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p.Name + "=" + strconv.Itoa(p.Value))
	}
	return b.String()
}

// ParamHash names one parameter set of a module: 12 hex digits of FNV-1a
// 64 over "module ParamString". It names the build directory and is
// compared in HELLO.
func ParamHash(module string, ps []Param) string {
	h := fnv.New64a()
	h.Write([]byte(module + " " + ParamString(ps)))
	return fmt.Sprintf("%012x", h.Sum64()>>16)
}

// wordAt reads up to 8 little-endian bytes of b at byte offset i as a
// word (missing bytes read as zero).
func wordAt(b []byte, i int) uint64 {
	if i+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[i:])
	}
	var w uint64
	for k := 0; i+k < len(b); k++ {
		w |= uint64(b[i+k]) << (8 * k)
	}
	return w
}

// FormatValue renders a wire value of the given width: "0x1f (31)" up to
// 64 bits, hexadecimal with "_" every 32 bits beyond.
func FormatValue(b []byte, width int) string {
	if width <= 64 {
		v := wordAt(b, 0)
		if width < 64 {
			v &= 1<<uint(width) - 1
		}
		return fmt.Sprintf("0x%x (%d)", v, v)
	}
	nw := (width + 31) / 32
	var sb strings.Builder
	sb.WriteString("0x")
	for i := nw - 1; i >= 0; i-- {
		w := uint32(wordAt(b, 4*i))
		if i == nw-1 && width%32 != 0 {
			w &= 1<<uint(width%32) - 1
		}
		fmt.Fprintf(&sb, "%08x", w)
		if i > 0 {
			sb.WriteByte('_')
		}
	}
	return sb.String()
}

// firstDiffBit is the lowest bit at which a and b differ, or -1.
func firstDiffBit(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if x := a[i] ^ b[i]; x != 0 {
			return 8*i + bits.TrailingZeros8(x)
		}
	}
	return -1
}

// bitString renders a wire value as VCD bits, most significant first.
func bitString(dst []byte, b []byte, width int) []byte {
	for i := width - 1; i >= 0; i-- {
		c := byte('0')
		if i/8 < len(b) && b[i/8]>>(uint(i)%8)&1 != 0 {
			c = '1'
		}
		dst = append(dst, c)
	}
	return dst
}
