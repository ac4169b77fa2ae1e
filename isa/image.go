package isa

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Address map of the machine (documented in docs/isa.md).
const (
	// GlobalDataBase is where initialized .global data is loaded; buffers bound
	// at launch are placed after it.
	GlobalDataBase = 0x0000_0000_0001_0000
	// SharedWindow and LocalWindow are the generic-address windows of the
	// shared and local state spaces (cvta adds / subtracts them).
	SharedWindow = 0x0000_7e00_0000_0000
	LocalWindow  = 0x0000_7f00_0000_0000
	WindowSize   = 0x0000_0001_0000_0000
	// FuncAddrBase is added to a function's entry PC to form its address
	// ("mov.u64 %rd, f"; call tables), so that no function has address 0.
	FuncAddrBase = 0x1000_0000
)

// Image is an assembled program: code, data and metadata for every kernel of
// one module. Marshal/Unmarshal give its binary form (docs/isa.md).
type Image struct {
	Code        []Inst
	Consts      []uint64 // the constant table (KindConst operands)
	BrTables    []uint32 // branch-target tables (BRX): PCs (instruction indices)
	Data        []byte   // initialized .global data, loaded at GlobalDataBase
	ConstBank   []byte   // the .const bank (SpaceConst addresses are offsets into it)
	SharedBytes uint32   // static shared memory of the module's .shared variables
	Kernels     []Kernel
	Funcs       []FuncInfo
	Symbols     []Symbol
	Files       []string
	Lines       []LineInfo // one per instruction of Code
	Source      []string   // source text referred to by LineInfo.Text
}

// Kernel describes one .entry.
type Kernel struct {
	Name              string
	PC                uint32
	Regs              uint16 // 32-bit registers per thread after allocation
	Preds             uint16 // predicate registers per thread
	ParamBytes        uint32
	Params            []KParam
	SharedBytes       uint32 // static shared memory of this kernel
	LocalBytes        uint32 // frame size of the entry (stack of callees not included)
	MaxNReg           uint16 // .maxnreg, 0 when absent
	MaxNTid           [3]uint32
	ReqNTid           [3]uint32
	ReqNCtaPerCluster [3]uint32
	MinNCtaPerSM      uint32
	MaxClusterRank    uint32
	ExplicitCluster   bool
	Pragmas           []string
	Line              uint32 // source line of the .entry
}

// KParam is one kernel parameter in the parameter buffer.
type KParam struct {
	Name   string
	Offset uint32
	Size   uint32
	Align  uint32
	Type   Type
	Ptr    bool // declared .ptr, or a 64-bit integer used as an address
}

// FuncInfo describes one function (or kernel) body in Code.
type FuncInfo struct {
	Name   string
	PC     uint32 // first instruction
	End    uint32 // one past the last instruction
	Frame  uint32 // frame size in bytes
	Regs   uint16
	Preds  uint16
	Kernel bool
}

// Symbol is a module variable with its address in its space.
type Symbol struct {
	Name  string
	Space uint8
	Addr  uint64
	Size  uint64
}

// LineInfo maps an instruction to its source.
type LineInfo struct {
	File uint16
	Line uint32
	Col  uint16
	Text uint32 // index into Source
}

// Kernel returns the kernel named name.
func (im *Image) Kernel(name string) (*Kernel, bool) {
	for i := range im.Kernels {
		if im.Kernels[i].Name == name {
			return &im.Kernels[i], true
		}
	}
	return nil, false
}

// FuncAt returns the function containing pc.
func (im *Image) FuncAt(pc uint32) (*FuncInfo, bool) {
	for i := range im.Funcs {
		f := &im.Funcs[i]
		if pc >= f.PC && pc < f.End {
			return f, true
		}
	}
	return nil, false
}

// Where describes pc as "file:line" plus the source text, for reports.
func (im *Image) Where(pc uint32) (pos string, text string) {
	if int(pc) >= len(im.Lines) {
		return fmt.Sprintf("pc %d", pc), ""
	}
	l := im.Lines[pc]
	file := "?"
	if int(l.File) < len(im.Files) {
		file = im.Files[l.File]
	}
	if int(l.Text) < len(im.Source) {
		text = im.Source[l.Text]
	}
	return fmt.Sprintf("%s:%d:%d", file, l.Line, l.Col), text
}

const (
	imageMagic   = "SMSIMIMG"
	imageVersion = 1
)

// Marshal encodes the image in its binary form.
func (im *Image) Marshal() []byte {
	w := &binWriter{}
	w.buf.WriteString(imageMagic)
	w.u32(imageVersion)
	im.code(&binCodec{w: w})
	return w.buf.Bytes()
}

// Unmarshal decodes an image. Malformed input gives an error naming the
// byte offset; it never panics.
func Unmarshal(data []byte) (*Image, error) {
	r := &binReader{data: data}
	if len(data) < len(imageMagic) || string(data[:len(imageMagic)]) != imageMagic {
		return nil, errors.New("not an smsim image (bad magic)")
	}
	r.off = len(imageMagic)
	if v := r.u32(); r.err == nil && v != imageVersion {
		return nil, fmt.Errorf("image version %d, want %d", v, imageVersion)
	}
	im := &Image{}
	im.code(&binCodec{r: r})
	if r.err == nil && r.off != len(data) {
		r.fail("%d trailing bytes", len(data)-r.off)
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := im.Validate(); err != nil {
		return nil, err
	}
	return im, nil
}

// code writes or reads every field of the image, in the order of the binary
// form: one description of the layout serves Marshal and Unmarshal.
func (im *Image) code(c *binCodec) {
	binSlice(c, &im.Code, InstBytes, func(i int, in *Inst) {
		if c.w != nil {
			b := in.Encode()
			c.w.buf.Write(b[:])
			return
		}
		b := c.r.take(InstBytes)
		if b == nil {
			return
		}
		d, err := Decode(b)
		if err != nil {
			c.r.fail("instruction %d: %v", i, err)
			return
		}
		*in = d
	})
	binSlice(c, &im.Consts, 8, func(_ int, v *uint64) { c.u64(v) })
	binSlice(c, &im.BrTables, 4, func(_ int, v *uint32) { c.u32(v) })
	c.bytes(&im.Data)
	c.bytes(&im.ConstBank)
	c.u32(&im.SharedBytes)
	binSlice(c, &im.Kernels, 8, func(_ int, k *Kernel) {
		c.str(&k.Name)
		c.u32(&k.PC)
		c.u16(&k.Regs)
		c.u16(&k.Preds)
		c.u32(&k.ParamBytes)
		binSlice(c, &k.Params, 8, func(_ int, p *KParam) {
			c.str(&p.Name)
			c.u32(&p.Offset)
			c.u32(&p.Size)
			c.u32(&p.Align)
			binU32(c, &p.Type)
			c.bool(&p.Ptr)
		})
		c.u32(&k.SharedBytes)
		c.u32(&k.LocalBytes)
		c.u16(&k.MaxNReg)
		for _, a := range []*[3]uint32{&k.MaxNTid, &k.ReqNTid, &k.ReqNCtaPerCluster} {
			for j := range a {
				c.u32(&a[j])
			}
		}
		c.u32(&k.MinNCtaPerSM)
		c.u32(&k.MaxClusterRank)
		c.bool(&k.ExplicitCluster)
		binSlice(c, &k.Pragmas, 4, func(_ int, p *string) { c.str(p) })
		c.u32(&k.Line)
	})
	binSlice(c, &im.Funcs, 8, func(_ int, f *FuncInfo) {
		c.str(&f.Name)
		c.u32(&f.PC)
		c.u32(&f.End)
		c.u32(&f.Frame)
		c.u16(&f.Regs)
		c.u16(&f.Preds)
		c.bool(&f.Kernel)
	})
	binSlice(c, &im.Symbols, 8, func(i int, s *Symbol) {
		c.str(&s.Name)
		sp := uint32(s.Space)
		c.u32(&sp)
		if c.r != nil {
			if sp >= spaceCount {
				c.r.fail("symbol %d: bad space %d", i, sp)
			}
			s.Space = uint8(sp)
		}
		c.u64(&s.Addr)
		c.u64(&s.Size)
	})
	binSlice(c, &im.Files, 4, func(_ int, f *string) { c.str(f) })
	binSlice(c, &im.Lines, 16, func(_ int, l *LineInfo) {
		c.u16(&l.File)
		c.u32(&l.Line)
		c.u16(&l.Col)
		c.u32(&l.Text)
	})
	binSlice(c, &im.Source, 4, func(_ int, s *string) { c.str(s) })
}

// Validate checks the cross-references of an image (PCs, tables, lines).
func (im *Image) Validate() error {
	n := uint32(len(im.Code))
	for _, k := range im.Kernels {
		if k.PC >= n {
			return fmt.Errorf("kernel %s: entry pc %d outside code (%d instructions)", k.Name, k.PC, n)
		}
		for _, p := range k.Params {
			if uint64(p.Offset)+uint64(p.Size) > uint64(k.ParamBytes) {
				return fmt.Errorf("kernel %s: parameter %s outside the parameter buffer", k.Name, p.Name)
			}
		}
	}
	for _, f := range im.Funcs {
		if f.PC > f.End || f.End > n {
			return fmt.Errorf("function %s: bad range [%d,%d)", f.Name, f.PC, f.End)
		}
	}
	for i, t := range im.BrTables {
		if t >= n {
			return fmt.Errorf("branch table entry %d: pc %d outside code", i, t)
		}
	}
	if len(im.Lines) != 0 && len(im.Lines) != len(im.Code) {
		return fmt.Errorf("line table has %d entries for %d instructions", len(im.Lines), n)
	}
	for i, l := range im.Lines {
		if int(l.File) >= len(im.Files) || int(l.Text) >= len(im.Source) {
			return fmt.Errorf("line entry %d refers outside the file or source table", i)
		}
	}
	for pc, in := range im.Code {
		if in.Op == OpCALL && in.Mods&ModCallInd != 0 && in.Imm != 0 {
			if first, n := int(in.Imm&0xffff)-1, int(in.Imm>>16); n == 0 || first+n > len(im.BrTables) {
				return fmt.Errorf("pc %d: indirect call's target list [%d,+%d) outside the %d-entry branch tables", pc, first, n, len(im.BrTables))
			}
		}
		for _, o := range []Operand12{in.A, in.B, in.C} {
			if o.Kind == KindConst && int(o.Val) >= len(im.Consts) {
				return fmt.Errorf("pc %d: constant %d outside the constant table", pc, o.Val)
			}
		}
	}
	return nil
}

type binWriter struct{ buf bytes.Buffer }

func (w *binWriter) u32(v uint32) { _ = binary.Write(&w.buf, binary.LittleEndian, v) }
func (w *binWriter) u64(v uint64) { _ = binary.Write(&w.buf, binary.LittleEndian, v) }
func (w *binWriter) bool(b bool) {
	if b {
		w.buf.WriteByte(1)
	} else {
		w.buf.WriteByte(0)
	}
}
func (w *binWriter) bytes(b []byte) { w.u32(uint32(len(b))); w.buf.Write(b) }
func (w *binWriter) str(s string)   { w.bytes([]byte(s)) }

type binReader struct {
	data []byte
	off  int
	err  error
}

func (r *binReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("image offset %d: %s", r.off, fmt.Sprintf(format, args...))
	}
}

func (r *binReader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.data)-r.off {
		r.fail("truncated: need %d bytes, have %d", n, len(r.data)-r.off)
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *binReader) u32() uint32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *binReader) u16() uint16 {
	v := r.u32()
	if v > math.MaxUint16 {
		r.fail("value %d does not fit 16 bits", v)
	}
	return uint16(v)
}

func (r *binReader) u64() uint64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

func (r *binReader) bool() bool {
	b := r.take(1)
	if b == nil {
		return false
	}
	if b[0] > 1 {
		r.fail("bad boolean %d", b[0])
	}
	return b[0] == 1
}

// count reads an element count and checks that the rest of the input can
// hold that many elements of at least minSize bytes (no huge allocations).
func (r *binReader) count(minSize int) int {
	n := r.u32()
	if r.err != nil {
		return 0
	}
	if uint64(n)*uint64(minSize) > uint64(len(r.data)-r.off) {
		r.fail("count %d too large for the remaining %d bytes", n, len(r.data)-r.off)
		return 0
	}
	return int(n)
}

func (r *binReader) bytes() []byte {
	n := r.count(1)
	b := r.take(n)
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

func (r *binReader) str() string { return string(r.bytes()) }

// binCodec is one direction of the binary form: w set, it writes each
// field; r set, it reads each field into place. Writing never stores
// through the pointers, so Marshal does not write to the image.
type binCodec struct {
	w *binWriter
	r *binReader
}

// binField writes *v with put or reads it with get.
func binField[T any](c *binCodec, v *T, put func(*binWriter, T), get func(*binReader) T) {
	if c.w != nil {
		put(c.w, *v)
	} else {
		*v = get(c.r)
	}
}

func (c *binCodec) u32(v *uint32) { binField(c, v, (*binWriter).u32, (*binReader).u32) }
func (c *binCodec) u64(v *uint64) { binField(c, v, (*binWriter).u64, (*binReader).u64) }
func (c *binCodec) bool(v *bool)  { binField(c, v, (*binWriter).bool, (*binReader).bool) }
func (c *binCodec) str(v *string) { binField(c, v, (*binWriter).str, (*binReader).str) }

func (c *binCodec) bytes(v *[]byte) { binField(c, v, (*binWriter).bytes, (*binReader).bytes) }

// u16 is a 16-bit field stored in 32 bits (checked on reading).
func (c *binCodec) u16(v *uint16) {
	binField(c, v, func(w *binWriter, x uint16) { w.u32(uint32(x)) }, (*binReader).u16)
}

// binU32 is a small integer field stored in 32 bits (the reader converts,
// as the caller checks the range where it matters).
func binU32[T ~uint8 | ~uint16 | ~uint32](c *binCodec, v *T) {
	x := uint32(*v)
	c.u32(&x)
	if c.r != nil {
		*v = T(x)
	}
}

// binSlice codes a count and then each element; on reading the count is
// checked against minSize bytes an element and reading stops at the first
// error.
func binSlice[T any](c *binCodec, s *[]T, minSize int, elem func(i int, v *T)) {
	if c.w != nil {
		c.w.u32(uint32(len(*s)))
		for i := range *s {
			elem(i, &(*s)[i])
		}
		return
	}
	n := c.r.count(minSize)
	for i := 0; i < n && c.r.err == nil; i++ {
		var v T
		elem(i, &v)
		*s = append(*s, v)
	}
}
