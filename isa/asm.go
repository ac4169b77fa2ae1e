package isa

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Options control assembly.
type Options struct {
	// MaxRegs is the machine's per-thread register limit (256).
	MaxRegs int
	// MaxPreds is the number of predicate registers per thread (64).
	MaxPreds int
}

// DefaultOptions are the machine's limits.
func DefaultOptions() Options { return Options{MaxRegs: 256, MaxPreds: 64} }

// Assemble checks a parsed module and lowers it to an image. Every error is
// positioned; constructs outside the supported subset are refused with
// "unsupported: X".
func Assemble(m *Module, opt Options) (*Image, error) {
	if opt.MaxRegs == 0 {
		opt = DefaultOptions()
	}
	a := &assembler{mod: m, opt: opt, funcs: map[string]*funcSym{}, vars: map[string]*varSym{}, consts: map[uint64]int{}}
	a.run()
	if err := a.errs.Err(); err != nil {
		return nil, err
	}
	return a.img, nil
}

// AssembleSource parses and assembles one PTX source file.
func AssembleSource(file string, src []byte) (*Image, error) {
	m, err := Parse(file, src)
	if err != nil {
		return nil, err
	}
	return Assemble(m, DefaultOptions())
}

// funcSym is a function known at module scope.
type funcSym struct {
	decl    *Func // the definition if any, else the first prototype
	def     *Func
	pc      uint32 // entry after layout
	sig     signature
	index   int // order of definition
	regs    int
	preds   int
	frame   uint32
	code    []minst
	inSize  uint32
	callees []string
}

// signature is a function type: sizes/alignments of returns and parameters.
type signature struct {
	rets, params []sigParam
}

type sigParam struct {
	size, align uint32
	typ         Type
	space       string // "param" or "reg"
}

func paramSig(ps []*Param) []sigParam {
	var out []sigParam
	for _, p := range ps {
		out = append(out, sigParam{size: paramSize(p), align: paramAlign(p), typ: p.Type, space: p.Space})
	}
	return out
}

func paramSize(p *Param) uint32 {
	n := uint32(p.Type.Bytes())
	if p.ArrayLen > 0 {
		n *= uint32(p.ArrayLen)
	}
	return n
}

func paramAlign(p *Param) uint32 {
	if p.Align > 0 {
		return uint32(p.Align)
	}
	return uint32(p.Type.Bytes())
}

// layout returns the offsets of returns then parameters in a call's
// argument area, and the area size.
func (s signature) layout() (rets, params []uint32, size uint32) {
	off := uint32(0)
	place := func(p sigParam) uint32 {
		al := p.align
		if al == 0 {
			al = 1
		}
		off = alignUp(off, al)
		o := off
		off += p.size
		return o
	}
	for _, r := range s.rets {
		rets = append(rets, place(r))
	}
	for _, p := range s.params {
		params = append(params, place(p))
	}
	return rets, params, alignUp(off, 16)
}

func (s signature) compatible(t signature) bool {
	if len(s.rets) != len(t.rets) || len(s.params) != len(t.params) {
		return false
	}
	for i := range s.rets {
		if s.rets[i].size != t.rets[i].size {
			return false
		}
	}
	for i := range s.params {
		if s.params[i].size != t.params[i].size {
			return false
		}
	}
	return true
}

func (s signature) String() string {
	f := func(ps []sigParam) string {
		var parts []string
		for _, p := range ps {
			parts = append(parts, fmt.Sprintf("%d bytes", p.size))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	return f(s.rets) + " _ " + f(s.params)
}

func alignUp(v, a uint32) uint32 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// varSym is a module- or function-scope variable in memory.
type varSym struct {
	name    string
	space   int // SpaceGlobal, SpaceShared, SpaceConst, SpaceLocal (function frames)
	addr    uint64
	size    uint64
	elem    Type
	pos     Pos
	dynamic bool // extern .shared array of unknown size (dynamic shared memory)
}

type assembler struct {
	mod    *Module
	opt    Options
	errs   ErrorList
	img    *Image
	funcs  map[string]*funcSym
	order  []*funcSym // definitions in source order
	vars   map[string]*varSym
	consts map[uint64]int
	data   []byte
	cbank  []byte
	shared uint32
	// relocations of function addresses in data
	dataRelocs []dataReloc
	fileIdx    map[string]uint16
	srcIdx     map[string]uint32
}

type dataReloc struct {
	bank   *[]byte
	off    int
	size   int
	fn     string
	addend int64
	pos    Pos
}

func (a *assembler) errorf(pos Pos, format string, args ...any) {
	if len(a.errs) < 50 {
		a.errs.Add(pos, format, args...)
	}
}

func (a *assembler) run() {
	m := a.mod
	a.img = &Image{}
	if m.AddressSize != 0 && m.AddressSize != 64 {
		a.errorf(Pos{File: m.File, Line: 1, Col: 1}, "unsupported: .address_size %d (only 64)", m.AddressSize)
	}
	// Pass 1: functions and module variables.
	for _, d := range m.Decls {
		switch d := d.(type) {
		case *Func:
			a.declareFunc(d)
		case *VarDecl:
			a.declareModuleVar(d)
		}
	}
	if len(a.errs) > 0 {
		return
	}
	// Pass 2: lower each function body.
	for _, f := range a.order {
		a.lowerFunc(f)
	}
	if len(a.errs) > 0 {
		return
	}
	a.link()
}

func (a *assembler) declareFunc(f *Func) {
	if f.Name == "" {
		a.errorf(f.Pos, "function without a name")
		return
	}
	if _, ok := a.vars[f.Name]; ok {
		a.errorf(f.Pos, "%s is already declared as a variable", f.Name)
		return
	}
	for _, p := range append(append([]*Param(nil), f.Rets...), f.Params...) {
		if !p.Type.Encodable() || p.Type == Pred {
			a.errorf(p.Pos, "unsupported: parameter type .%s", p.Type)
		}
		if f.Entry && p.Space == "reg" {
			a.errorf(p.Pos, "kernel parameters must be in .param space")
		}
	}
	if f.Entry && len(f.Rets) > 0 {
		a.errorf(f.Pos, "a kernel (.entry) cannot return values")
	}
	a.checkDirectives(f)
	sig := signature{rets: paramSig(f.Rets), params: paramSig(f.Params)}
	fs, ok := a.funcs[f.Name]
	if !ok {
		fs = &funcSym{decl: f, sig: sig}
		a.funcs[f.Name] = fs
	} else if !fs.sig.compatible(sig) || fs.decl.Entry != f.Entry {
		a.errorf(f.Pos, "%s redeclared with a different signature (first at %s)", f.Name, fs.decl.Pos)
		return
	}
	if f.Body != nil {
		if fs.def != nil {
			a.errorf(f.Pos, "%s is defined twice (first at %s)", f.Name, fs.def.Pos)
			return
		}
		fs.def = f
		fs.decl = f
		fs.index = len(a.order)
		a.order = append(a.order, fs)
	}
}

func (a *assembler) declareModuleVar(d *VarDecl) {
	switch d.Space {
	case "global", "const", "shared":
	case "local":
		a.errorf(d.Pos, "unsupported: module-scope .local variable")
		return
	case "texref", "tex", "surfref", "samplerref":
		a.errorf(d.Pos, "unsupported: .%s", d.Space)
		return
	default:
		a.errorf(d.Pos, "unsupported: .%s variable at module scope", d.Space)
		return
	}
	a.declareMemVars(d, "")
}

// declareMemVars lays out global/const/shared variables. prefix scopes
// function-local (demoted) names; the symbol table keys are prefix+name.
func (a *assembler) declareMemVars(d *VarDecl, prefix string) []*varSym {
	if !d.Type.Encodable() || d.Type == Pred {
		a.errorf(d.Pos, "unsupported: variable type .%s", d.Type)
		return nil
	}
	var out []*varSym
	for _, v := range d.Vars {
		if v.Range > 0 {
			a.errorf(v.Pos, "the %%name<N> form is only for .reg declarations")
			continue
		}
		elem := uint64(d.Type.Bytes())
		if d.Vec > 0 {
			elem *= uint64(d.Vec)
		}
		count := uint64(1)
		dynamic := false
		for i, n := range v.Dims {
			if n < 0 {
				if i != 0 {
					a.errorf(v.Pos, "only the first array dimension may be left empty")
					continue
				}
				if v.Init != nil {
					n = len(v.Init.List)
					if n == 0 {
						n = 1
					}
				} else {
					if d.Space == "shared" && d.Linkage == "extern" {
						dynamic = true
						n = 0
					} else {
						a.errorf(v.Pos, "array %s has no size and no initializer", v.Name)
						continue
					}
				}
			}
			count *= uint64(n)
			if count > 1<<30 {
				a.errorf(v.Pos, "array %s is too large", v.Name)
				return out
			}
		}
		size := elem * count
		align := uint64(d.Align)
		if align == 0 {
			align = elem
		}
		if align == 0 || align&(align-1) != 0 {
			a.errorf(d.Pos, ".align %d is not a power of two", d.Align)
			align = 1
		}
		key := prefix + v.Name
		if _, dup := a.vars[key]; dup {
			a.errorf(v.Pos, "%s is declared twice", v.Name)
			continue
		}
		if _, dup := a.funcs[key]; dup {
			a.errorf(v.Pos, "%s is already declared as a function", v.Name)
			continue
		}
		vs := &varSym{name: v.Name, size: size, elem: d.Type, pos: v.Pos, dynamic: dynamic}
		switch d.Space {
		case "global":
			vs.space = SpaceGlobal
			off := alignUp64(uint64(len(a.data)), align)
			if off+size > 1<<28 {
				a.errorf(v.Pos, "global data exceeds 256 MiB")
				return out
			}
			a.data = append(a.data, make([]byte, off+size-uint64(len(a.data)))...)
			vs.addr = GlobalDataBase + off
			if v.Init != nil {
				a.initData(&a.data, int(off), d, v)
			}
		case "const":
			vs.space = SpaceConst
			off := alignUp64(uint64(len(a.cbank)), align)
			if off+size > 1<<24 {
				a.errorf(v.Pos, "the .const bank exceeds 16 MiB")
				return out
			}
			a.cbank = append(a.cbank, make([]byte, off+size-uint64(len(a.cbank)))...)
			vs.addr = off
			if v.Init != nil {
				a.initData(&a.cbank, int(off), d, v)
			}
		case "shared":
			vs.space = SpaceShared
			if v.Init != nil {
				a.errorf(v.Pos, ".shared variables cannot be initialized")
			}
			if dynamic {
				vs.addr = 0 // resolved per kernel: after the static segment
			} else {
				off := alignUp64(uint64(a.shared), align)
				if off+size > 1<<24 {
					a.errorf(v.Pos, "static shared memory exceeds 16 MiB")
					return out
				}
				vs.addr = off
				a.shared = uint32(off + size)
			}
		}
		a.vars[key] = vs
		out = append(out, vs)
	}
	return out
}

func alignUp64(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// initData writes a variable's initializer into bank at off.
func (a *assembler) initData(bank *[]byte, off int, d *VarDecl, v *Var) {
	elem := d.Type.Bytes()
	var flat []*Init
	var walk func(in *Init, depth int)
	walk = func(in *Init, depth int) {
		if depth > 64 {
			return
		}
		if in.List != nil {
			for _, e := range in.List {
				walk(e, depth+1)
			}
			return
		}
		flat = append(flat, in)
	}
	walk(v.Init, 0)
	total := 1
	for _, n := range v.Dims {
		if n > 0 {
			total *= n
		} else {
			total *= len(v.Init.List)
		}
	}
	if d.Vec > 0 {
		total *= d.Vec
	}
	if len(flat) > total {
		a.errorf(v.Init.Pos, "initializer has %d elements, %s holds %d", len(flat), v.Name, total)
		return
	}
	for i, in := range flat {
		at := off + i*elem
		switch val := in.Value.(type) {
		case *ImmOperand:
			bits, err := immBits(val, d.Type)
			if err != nil {
				a.errorf(val.Pos, "%v", err)
				continue
			}
			putLE((*bank)[at:at+elem], bits)
		case *SymOperand:
			if _, ok := a.funcs[val.Name]; ok {
				if elem < 4 {
					a.errorf(val.Pos, "function address of %s does not fit .%s", val.Name, d.Type)
					continue
				}
				a.dataRelocs = append(a.dataRelocs, dataReloc{bank: bank, off: at, size: elem, fn: val.Name, addend: val.Offset, pos: val.Pos})
				continue
			}
			if vs, ok := a.vars[val.Name]; ok {
				putLE((*bank)[at:at+elem], vs.addr+uint64(val.Offset))
				continue
			}
			a.errorf(val.Pos, "undefined symbol %s in initializer", val.Name)
		case *RegOperand:
			a.errorf(val.Pos, "registers cannot appear in initializers")
		case nil:
			a.errorf(in.Pos, "empty initializer element")
		default:
			a.errorf(in.Pos, "unsupported: initializer expression")
		}
	}
}

func putLE(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
}

// immBits converts an immediate to the raw bits of type t.
func immBits(im *ImmOperand, t Type) (uint64, error) {
	if t.Float() {
		f := im.F
		if !im.Float {
			f = float64(im.Int)
			if strings.HasPrefix(im.Text, "0f") || strings.HasPrefix(im.Text, "0F") {
				f = float64(math.Float32frombits(uint32(im.Int)))
			}
		}
		switch t {
		case F32:
			if im.Float && isHexFloat(im.Text) && len(im.Text) == 10 {
				return uint64(math.Float32bits(float32(im.F))), nil
			}
			return uint64(math.Float32bits(float32(f))), nil
		case F64:
			return math.Float64bits(f), nil
		case F16:
			return uint64(f32ToF16(float32(f))), nil
		}
		return 0, fmt.Errorf("unsupported: immediate of type .%s", t)
	}
	if im.Float {
		// Hex float literals used with bit types keep their bits.
		if isHexFloat(im.Text) {
			if im.Text[1] == 'f' || im.Text[1] == 'F' {
				return uint64(math.Float32bits(float32(im.F))), nil
			}
			return math.Float64bits(im.F), nil
		}
		return 0, fmt.Errorf("floating-point immediate %s used with .%s", im.Text, t)
	}
	v := uint64(im.Int)
	if bits := t.Bits(); bits < 64 && bits > 0 {
		v &= 1<<uint(bits) - 1
	}
	return v, nil
}

func isHexFloat(s string) bool {
	return len(s) > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')
}

// f32ToF16 converts with round-to-nearest-even.
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff == 0:
		return sign
	case b>>23&0xff == 0xff:
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := mant >> shift
		rem := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}

// constIndex returns the constant-table slot of v.
func (a *assembler) constIndex(v uint64, pos Pos) int {
	if i, ok := a.consts[v]; ok {
		return i
	}
	i := len(a.img.Consts)
	if i >= 1024 {
		a.errorf(pos, "more than 1024 distinct wide constants in one module")
		return 0
	}
	a.consts[v] = i
	a.img.Consts = append(a.img.Consts, v)
	return i
}

// link lays out code, resolves relocations and fills the image.
func (a *assembler) link() {
	img := a.img
	a.fileIdx = map[string]uint16{}
	a.srcIdx = map[string]uint32{}
	pc := uint32(0)
	for _, f := range a.order {
		f.pc = pc
		pc += uint32(len(f.code))
	}
	if pc > 1<<24 {
		a.errorf(Pos{File: a.mod.File, Line: 1, Col: 1}, "program has %d instructions, more than 16M", pc)
		return
	}
	for _, f := range a.order {
		base := f.pc
		for i := range f.code {
			mi := &f.code[i]
			in := mi.in
			switch mi.reloc {
			case relocLabel:
				in.Imm = base + mi.target
			case relocFunc:
				callee := a.funcs[mi.fn]
				if callee.def == nil {
					a.errorf(mi.pos, "call to %s, which is declared but not defined in this module", mi.fn)
					continue
				}
				if mi.in.Op == OpCALL {
					in.Imm = callee.pc
				} else {
					addr := uint64(FuncAddrBase) + uint64(callee.pc) + uint64(mi.addend)
					a.placeImm(&in, mi, addr)
				}
			case relocBrTable:
				start := uint32(len(img.BrTables))
				for _, t := range mi.table {
					img.BrTables = append(img.BrTables, base+t)
				}
				in.Imm = start
			}
			if mi.dynShared {
				a.fixDynShared(&in, mi)
			}
			img.Code = append(img.Code, in)
			img.Lines = append(img.Lines, a.lineInfo(mi.pos))
		}
		regs, preds := f.regs, f.preds
		img.Funcs = append(img.Funcs, FuncInfo{Name: f.def.Name, PC: f.pc, End: f.pc + uint32(len(f.code)), Frame: f.frame, Regs: uint16(regs), Preds: uint16(preds), Kernel: f.def.Entry})
	}
	for _, r := range a.dataRelocs {
		callee := a.funcs[r.fn]
		if callee.def == nil {
			a.errorf(r.pos, "call table entry %s is declared but not defined in this module", r.fn)
			continue
		}
		putLE((*r.bank)[r.off:r.off+r.size], uint64(FuncAddrBase)+uint64(callee.pc)+uint64(r.addend))
	}
	img.Data = a.data
	img.ConstBank = a.cbank
	img.SharedBytes = a.shared
	// Kernels.
	for _, f := range a.order {
		if !f.def.Entry {
			continue
		}
		k := a.kernelInfo(f)
		if k.MaxNReg > 0 && k.Regs > k.MaxNReg {
			pos := f.def.Pos
			for _, d := range f.def.Directives {
				if d.Name == "maxnreg" {
					pos = d.Pos
				}
			}
			a.errorf(pos, "kernel %s needs %d registers per thread, more than its .maxnreg %d", k.Name, k.Regs, k.MaxNReg)
		}
		a.img.Kernels = append(a.img.Kernels, k)
	}
	// Symbols, sorted by name for determinism.
	var names []string
	for n := range a.vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := a.vars[n]
		img.Symbols = append(img.Symbols, Symbol{Name: n, Space: uint8(v.space), Addr: v.addr, Size: v.size})
	}
	if err := img.Validate(); err != nil {
		a.errorf(Pos{File: a.mod.File, Line: 1, Col: 1}, "internal: %v", err)
	}
}

func (a *assembler) lineInfo(p Pos) LineInfo {
	fi, ok := a.fileIdx[p.File]
	if !ok {
		fi = uint16(len(a.img.Files))
		a.fileIdx[p.File] = fi
		a.img.Files = append(a.img.Files, p.File)
	}
	text := ""
	if p.Line >= 1 && p.Line <= len(a.mod.Lines) {
		text = strings.TrimSpace(a.mod.Lines[p.Line-1])
	}
	ti, ok := a.srcIdx[text]
	if !ok {
		ti = uint32(len(a.img.Source))
		a.srcIdx[text] = ti
		a.img.Source = append(a.img.Source, text)
	}
	col := p.Col
	if col > math.MaxUint16 {
		col = math.MaxUint16
	}
	return LineInfo{File: fi, Line: uint32(p.Line), Col: uint16(col), Text: ti}
}

func (a *assembler) kernelInfo(f *funcSym) Kernel {
	d := f.def
	regs, preds := a.kernelRegs(f, map[string]bool{})
	k := Kernel{Name: d.Name, PC: f.pc, Regs: uint16(regs), Preds: uint16(preds), SharedBytes: a.shared, LocalBytes: f.frame, Line: uint32(d.Pos.Line)}
	off := uint32(0)
	for _, p := range d.Params {
		al := paramAlign(p)
		off = alignUp(off, al)
		k.Params = append(k.Params, KParam{Name: p.Name, Offset: off, Size: paramSize(p), Align: al, Type: p.Type, Ptr: p.PtrSpace != "" || (p.Type.Bits() == 64 && !p.Type.Float() && p.ArrayLen == 0)})
		off += paramSize(p)
	}
	k.ParamBytes = off
	for _, pd := range d.Directives {
		args := pd.Args
		get3 := func() [3]uint32 {
			r := [3]uint32{1, 1, 1}
			for i := 0; i < 3 && i < len(args); i++ {
				r[i] = uint32(args[i])
			}
			return r
		}
		switch pd.Name {
		case "maxnreg":
			if len(args) == 1 {
				k.MaxNReg = uint16(args[0])
			}
		case "maxntid":
			k.MaxNTid = get3()
		case "reqntid":
			k.ReqNTid = get3()
		case "reqnctapercluster":
			k.ReqNCtaPerCluster = get3()
		case "minnctapersm":
			if len(args) == 1 {
				k.MinNCtaPerSM = uint32(args[0])
			}
		case "maxclusterrank":
			if len(args) == 1 {
				k.MaxClusterRank = uint32(args[0])
			}
		case "explicitcluster":
			k.ExplicitCluster = true
		case "pragma":
			k.Pragmas = append(k.Pragmas, pd.Text)
		}
	}
	return k
}

// kernelRegs is the register and predicate count of a kernel: the largest
// over every function reachable from it (callees are allocated
// independently and the caller saves what is live across a call).
func (a *assembler) kernelRegs(f *funcSym, seen map[string]bool) (regs, preds int) {
	if seen[f.def.Name] {
		return 0, 0
	}
	seen[f.def.Name] = true
	regs, preds = f.regs, f.preds
	for _, c := range f.callees {
		if cf := a.funcs[c]; cf != nil && cf.def != nil {
			r, p := a.kernelRegs(cf, seen)
			regs, preds = max(regs, r), max(preds, p)
		}
	}
	return regs, preds
}

// placeImm puts a 64-bit immediate into the instruction: the Imm field when
// it sign-extends from 32 bits, else the constant table.
func (a *assembler) placeImm(in *Inst, mi *minst, v uint64) {
	slot := &in.A
	switch mi.immSlot {
	case 1:
		slot = &in.B
	case 2:
		slot = &in.C
	}
	if uint64(int64(int32(uint32(v)))) == v {
		*slot = ImmOp()
		in.Imm = uint32(v)
	} else {
		*slot = ConstOp(a.constIndex(v, mi.pos))
	}
}

// DynamicSharedBase is where dynamic shared memory starts: after the
// module's static shared variables, 16-byte aligned.
func (im *Image) DynamicSharedBase() uint32 { return alignUp(im.SharedBytes, 16) }

// fixDynShared adds the dynamic shared segment's base to an address.
func (a *assembler) fixDynShared(in *Inst, mi *minst) {
	base := uint64(alignUp(a.shared, 16))
	if mi.dynSlot < 0 {
		in.Imm += uint32(base)
		return
	}
	slot := &in.A
	switch mi.dynSlot {
	case 1:
		slot = &in.B
	case 2:
		slot = &in.C
	}
	switch slot.Kind {
	case KindImm:
		v := uint64(int64(int32(in.Imm))) + base
		if uint64(int64(int32(uint32(v)))) == v {
			in.Imm = uint32(v)
		} else {
			*slot = ConstOp(a.constIndex(v, mi.pos))
		}
	case KindConst:
		*slot = ConstOp(a.constIndex(a.img.Consts[slot.Val]+base, mi.pos))
	}
}

// checkDirectives validates the performance-tuning directives of a function.
func (a *assembler) checkDirectives(f *Func) {
	for _, d := range f.Directives {
		n := len(d.Args)
		want := func(lo, hi int) bool {
			if n < lo || n > hi {
				if lo == hi {
					a.errorf(d.Pos, ".%s takes %d argument(s), got %d", d.Name, lo, n)
				} else {
					a.errorf(d.Pos, ".%s takes %d to %d arguments, got %d", d.Name, lo, hi, n)
				}
				return false
			}
			return true
		}
		if !f.Entry && d.Name != "noreturn" && d.Name != "pragma" {
			a.errorf(d.Pos, ".%s is only allowed on a kernel (.entry)", d.Name)
			continue
		}
		switch d.Name {
		case "maxnreg":
			if want(1, 1) && (d.Args[0] < 1 || d.Args[0] > 256) {
				a.errorf(d.Pos, ".maxnreg %d is outside 1..256", d.Args[0])
			}
		case "maxntid", "reqntid":
			if want(1, 3) {
				lim := []int64{1024, 1024, 64}
				prod := int64(1)
				for i, v := range d.Args {
					if v < 1 || v > lim[i] {
						a.errorf(d.Pos, ".%s dimension %d is %d, outside 1..%d", d.Name, i, v, lim[i])
					}
					prod *= v
				}
				if prod > 1024 {
					a.errorf(d.Pos, ".%s asks for %d threads, more than 1024 per CTA", d.Name, prod)
				}
			}
		case "reqnctapercluster":
			if want(1, 3) {
				for i, v := range d.Args {
					if v < 1 || v > 1024 {
						a.errorf(d.Pos, ".reqnctapercluster dimension %d is %d, outside 1..1024", i, v)
					}
				}
			}
		case "minnctapersm", "maxnctapersm", "maxclusterrank":
			if want(1, 1) && (d.Args[0] < 1 || d.Args[0] > 1<<20) {
				a.errorf(d.Pos, ".%s %d is out of range", d.Name, d.Args[0])
			}
		case "explicitcluster", "noreturn":
			want(0, 0)
		case "pragma":
		default:
			a.errorf(d.Pos, "unsupported: .%s", d.Name)
		}
	}
}
