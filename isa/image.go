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
	w.u32(uint32(len(im.Code)))
	for _, in := range im.Code {
		b := in.Encode()
		w.buf.Write(b[:])
	}
	w.u32(uint32(len(im.Consts)))
	for _, c := range im.Consts {
		w.u64(c)
	}
	w.u32(uint32(len(im.BrTables)))
	for _, t := range im.BrTables {
		w.u32(t)
	}
	w.bytes(im.Data)
	w.bytes(im.ConstBank)
	w.u32(im.SharedBytes)
	w.u32(uint32(len(im.Kernels)))
	for _, k := range im.Kernels {
		w.str(k.Name)
		w.u32(k.PC)
		w.u32(uint32(k.Regs))
		w.u32(uint32(k.Preds))
		w.u32(k.ParamBytes)
		w.u32(uint32(len(k.Params)))
		for _, p := range k.Params {
			w.str(p.Name)
			w.u32(p.Offset)
			w.u32(p.Size)
			w.u32(p.Align)
			w.u32(uint32(p.Type))
			w.bool(p.Ptr)
		}
		w.u32(k.SharedBytes)
		w.u32(k.LocalBytes)
		w.u32(uint32(k.MaxNReg))
		for _, a := range [][3]uint32{k.MaxNTid, k.ReqNTid, k.ReqNCtaPerCluster} {
			w.u32(a[0])
			w.u32(a[1])
			w.u32(a[2])
		}
		w.u32(k.MinNCtaPerSM)
		w.u32(k.MaxClusterRank)
		w.bool(k.ExplicitCluster)
		w.u32(uint32(len(k.Pragmas)))
		for _, p := range k.Pragmas {
			w.str(p)
		}
		w.u32(k.Line)
	}
	w.u32(uint32(len(im.Funcs)))
	for _, f := range im.Funcs {
		w.str(f.Name)
		w.u32(f.PC)
		w.u32(f.End)
		w.u32(f.Frame)
		w.u32(uint32(f.Regs))
		w.u32(uint32(f.Preds))
		w.bool(f.Kernel)
	}
	w.u32(uint32(len(im.Symbols)))
	for _, s := range im.Symbols {
		w.str(s.Name)
		w.u32(uint32(s.Space))
		w.u64(s.Addr)
		w.u64(s.Size)
	}
	w.u32(uint32(len(im.Files)))
	for _, f := range im.Files {
		w.str(f)
	}
	w.u32(uint32(len(im.Lines)))
	for _, l := range im.Lines {
		w.u32(uint32(l.File))
		w.u32(l.Line)
		w.u32(uint32(l.Col))
		w.u32(l.Text)
	}
	w.u32(uint32(len(im.Source)))
	for _, s := range im.Source {
		w.str(s)
	}
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
	n := r.count(InstBytes)
	for i := 0; i < n && r.err == nil; i++ {
		b := r.take(InstBytes)
		if r.err != nil {
			break
		}
		in, err := Decode(b)
		if err != nil {
			r.fail("instruction %d: %v", i, err)
			break
		}
		im.Code = append(im.Code, in)
	}
	n = r.count(8)
	for i := 0; i < n && r.err == nil; i++ {
		im.Consts = append(im.Consts, r.u64())
	}
	n = r.count(4)
	for i := 0; i < n && r.err == nil; i++ {
		im.BrTables = append(im.BrTables, r.u32())
	}
	im.Data = r.bytes()
	im.ConstBank = r.bytes()
	im.SharedBytes = r.u32()
	n = r.count(8)
	for i := 0; i < n && r.err == nil; i++ {
		var k Kernel
		k.Name = r.str()
		k.PC = r.u32()
		k.Regs = r.u16()
		k.Preds = r.u16()
		k.ParamBytes = r.u32()
		np := r.count(8)
		for j := 0; j < np && r.err == nil; j++ {
			var p KParam
			p.Name = r.str()
			p.Offset = r.u32()
			p.Size = r.u32()
			p.Align = r.u32()
			p.Type = Type(r.u32())
			p.Ptr = r.bool()
			k.Params = append(k.Params, p)
		}
		k.SharedBytes = r.u32()
		k.LocalBytes = r.u32()
		k.MaxNReg = r.u16()
		for _, a := range []*[3]uint32{&k.MaxNTid, &k.ReqNTid, &k.ReqNCtaPerCluster} {
			a[0], a[1], a[2] = r.u32(), r.u32(), r.u32()
		}
		k.MinNCtaPerSM = r.u32()
		k.MaxClusterRank = r.u32()
		k.ExplicitCluster = r.bool()
		npr := r.count(4)
		for j := 0; j < npr && r.err == nil; j++ {
			k.Pragmas = append(k.Pragmas, r.str())
		}
		k.Line = r.u32()
		im.Kernels = append(im.Kernels, k)
	}
	n = r.count(8)
	for i := 0; i < n && r.err == nil; i++ {
		var f FuncInfo
		f.Name = r.str()
		f.PC = r.u32()
		f.End = r.u32()
		f.Frame = r.u32()
		f.Regs = r.u16()
		f.Preds = r.u16()
		f.Kernel = r.bool()
		im.Funcs = append(im.Funcs, f)
	}
	n = r.count(8)
	for i := 0; i < n && r.err == nil; i++ {
		var s Symbol
		s.Name = r.str()
		sp := r.u32()
		if sp >= spaceCount {
			r.fail("symbol %d: bad space %d", i, sp)
		}
		s.Space = uint8(sp)
		s.Addr = r.u64()
		s.Size = r.u64()
		im.Symbols = append(im.Symbols, s)
	}
	n = r.count(4)
	for i := 0; i < n && r.err == nil; i++ {
		im.Files = append(im.Files, r.str())
	}
	n = r.count(16)
	for i := 0; i < n && r.err == nil; i++ {
		var l LineInfo
		l.File = r.u16()
		l.Line = r.u32()
		l.Col = r.u16()
		l.Text = r.u32()
		im.Lines = append(im.Lines, l)
	}
	n = r.count(4)
	for i := 0; i < n && r.err == nil; i++ {
		im.Source = append(im.Source, r.str())
	}
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
