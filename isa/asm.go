// Assembling a module: options, function symbols, signatures and the declaration pass.

package isa

import (
	"fmt"
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
	first   Pos   // the first declaration (prototype or definition)
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
	// protos are the signatures of its indirect calls through a
	// .callprototype: every compatible function is a possible callee.
	protos []signature
}

// signature is a function type: sizes/alignments of returns and parameters.
type signature struct {
	rets, params []sigParam
}

type sigParam struct {
	size, align uint32
	typ         Type
	space       string // "param" or "reg"
	vec         int    // a .reg vector: its length
}

func paramSig(ps []*Param) []sigParam {
	var out []sigParam
	for _, p := range ps {
		out = append(out, sigParam{size: paramSize(p), align: paramAlign(p), typ: p.Type, space: p.Space, vec: p.Vec})
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
	switch m.AddressSize {
	case 0, 64:
	case 32:
		a.errorf(m.AddressSizePos, "unsupported: .address_size 32 (only 64)")
	default:
		a.errorf(m.AddressSizePos, ".address_size %d is not PTX (32 or 64)", m.AddressSize)
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
		switch {
		case !p.Type.Encodable():
			a.errorf(p.Pos, "unsupported: parameter type .%s", p.Type)
		case p.Type == Pred && (p.Space != "reg" || f.Entry || p.ArrayLen > 0):
			// .pred is a register type: .reg parameters and return
			// values of a .func (one byte in the call's argument area).
			a.errorf(p.Pos, "a .pred parameter must be a .reg parameter of a .func")
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
		fs = &funcSym{first: f.Pos, decl: f, sig: sig}
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

// declaredBefore reports whether function f is declared before position p
// (seed 004: "All functions must be declared prior to being referenced in
// a call table initializer or .calltargets directive").
func (f *funcSym) declaredBefore(p Pos) bool {
	if f.first.File != p.File {
		return true
	}
	return f.first.Line < p.Line || f.first.Line == p.Line && f.first.Col < p.Col
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
