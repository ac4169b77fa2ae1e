package isa

import (
	"fmt"
	"strings"
)

type relocKind uint8

const (
	relocNone relocKind = iota
	relocLabel
	relocFunc
	relocBrTable
)

// Fields of an Inst a virtual register reference patches.
const (
	fDst = iota
	fDst2
	fA
	fB
	fC
	fGuard
	fImmReg // a register index carried in the Imm field (SHFL member mask)
)

type rref struct {
	v     int
	field uint8
}

// minst is an instruction during assembly: an Inst whose register fields
// still name virtual registers.
type minst struct {
	in      Inst
	pos     Pos
	uses    []rref
	defs    []rref
	reloc   relocKind
	target  uint32 // relocLabel: label id (then local pc)
	fn      string // relocFunc
	addend  int64
	table   []uint32 // relocBrTable: label ids (then local pcs)
	immSlot int
	immUsed bool
	labels  []int // labels that name this instruction
	outArea bool  // Imm is an offset into the outgoing-argument area (fixed up late)
	isCall  bool
	// dynShared: Imm is an offset into dynamic shared memory; link adds the static segment size.
	dynShared bool
	dynSlot   int // the operand slot holding a dynamic-shared address (-1: the memory offset in Imm)
}

// vclass is the register class of a virtual register.
type vclass uint8

const (
	classGPR1 vclass = iota // one 32-bit register (8..32-bit types)
	classGPR2               // an aligned pair (64-bit types)
	classPred
)

type vregInfo struct {
	name  string
	class vclass
	typ   Type
	pos   Pos
}

type entKind uint8

const (
	entReg    entKind = iota
	entVec            // vector register: comps
	entMem            // memory variable (global/const/shared/local)
	entKParam         // kernel parameter (param bank)
	entFrame          // a .param variable in the frame: incoming param/ret or outgoing argument
	entBranchTargets
	entCallTargets
	entCallProto
)

type entity struct {
	kind   entKind
	v      int   // entReg
	comps  []int // entVec
	mem    *varSym
	off    uint32 // entKParam / entFrame offset
	out    bool   // entFrame in the outgoing area
	typ    Type
	size   uint32
	pos    Pos
	labels []string
	funcs  []string
	sig    signature
}

type scope struct {
	names  map[string]*entity
	parent *scope
}

func (s *scope) lookup(n string) *entity {
	for ; s != nil; s = s.parent {
		if e, ok := s.names[n]; ok {
			return e
		}
	}
	return nil
}

// fnState holds one function during lowering.
type fnState struct {
	a              *assembler
	fs             *funcSym
	f              *Func
	code           []minst
	vregs          []vregInfo
	sc             *scope
	labels         map[string]int // label name -> id
	labelAt        []int          // id -> minst index (-1 until defined)
	labelPos       []Pos
	pending        []int  // label ids waiting for the next instruction
	locals         uint32 // bytes of locals (after the incoming area)
	inSize         uint32
	outSize        uint32
	regRets        []retSlot // .reg return values: vreg and incoming-area offset
	callees        map[string]bool
	blockParamBind map[*VarDecl]map[string]uint32 // callseq .param -> outgoing offset
}

type retSlot struct {
	v   int
	off uint32
	typ Type
}

func (a *assembler) lowerFunc(fs *funcSym) {
	f := fs.def
	st := &fnState{a: a, fs: fs, f: f, labels: map[string]int{}, callees: map[string]bool{}}
	st.sc = &scope{names: map[string]*entity{}}
	// Parameters.
	if f.Entry {
		off := uint32(0)
		for _, p := range f.Params {
			al := paramAlign(p)
			off = alignUp(off, al)
			st.declare(p.Name, &entity{kind: entKParam, off: off, typ: p.Type, size: paramSize(p), pos: p.Pos}, p.Pos)
			off += paramSize(p)
		}
	} else {
		retOff, parOff, size := fs.sig.layout()
		st.inSize = size
		var prologue []func()
		for i, p := range f.Rets {
			if p.Space == "reg" {
				v := st.newVreg(p.Name, p.Type, p.Pos)
				st.declare(p.Name, &entity{kind: entReg, v: v, typ: p.Type, pos: p.Pos}, p.Pos)
				st.regRets = append(st.regRets, retSlot{v: v, off: retOff[i], typ: p.Type})
			} else {
				st.declare(p.Name, &entity{kind: entFrame, off: retOff[i], typ: p.Type, size: paramSize(p), pos: p.Pos}, p.Pos)
			}
		}
		for i, p := range f.Params {
			if p.Space == "reg" {
				v := st.newVreg(p.Name, p.Type, p.Pos)
				st.declare(p.Name, &entity{kind: entReg, v: v, typ: p.Type, pos: p.Pos}, p.Pos)
				off, typ, pos := parOff[i], p.Type, p.Pos
				prologue = append(prologue, func() {
					mi := minst{in: Inst{Op: OpLD, Type: typ, Mods: SpaceLocal, A: FPOp(), Imm: off}, pos: pos}
					mi.immUsed = true
					mi.defs = append(mi.defs, rref{v, fDst})
					st.emit(mi)
				})
			} else {
				st.declare(p.Name, &entity{kind: entFrame, off: parOff[i], typ: p.Type, size: paramSize(p), pos: p.Pos}, p.Pos)
			}
		}
		for _, p := range prologue {
			p()
		}
	}
	st.locals = alignUp(st.inSize, 16)
	st.prescanLabels(f.Body)
	st.block(f.Body, 0)
	// Labels at the very end and a missing final return: fall off the end = return.
	if len(st.code) == 0 || len(st.pending) > 0 || !isTerminator(st.code[len(st.code)-1].in) {
		st.emitRet(f.Body.End, false)
	}
	for id, at := range st.labelAt {
		if at < 0 {
			name := ""
			for n, i := range st.labels {
				if i == id {
					name = n
				}
			}
			a.errorf(st.labelPos[id], "label %s is not defined in %s", name, f.Name)
		}
	}
	if len(a.errs) > 0 {
		return
	}
	st.allocate()
	for c := range st.callees {
		fs.callees = append(fs.callees, c)
	}
	sortStrings(fs.callees)
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func isTerminator(in Inst) bool {
	if in.GuardOn {
		return false
	}
	switch in.Op {
	case OpRET, OpEXIT, OpBRA, OpBRX, OpRTT:
		return true
	}
	return false
}

func (st *fnState) declare(name string, e *entity, pos Pos) {
	if name == "" {
		return
	}
	if _, dup := st.sc.names[name]; dup {
		st.a.errorf(pos, "%s is declared twice in the same scope", name)
		return
	}
	st.sc.names[name] = e
}

func (st *fnState) newVreg(name string, t Type, pos Pos) int {
	c := classGPR1
	switch {
	case t == Pred:
		c = classPred
	case t.Bits() > 32:
		c = classGPR2
	}
	st.vregs = append(st.vregs, vregInfo{name: name, class: c, typ: t, pos: pos})
	return len(st.vregs) - 1
}

func (st *fnState) labelID(name string, pos Pos) int {
	if id, ok := st.labels[name]; ok {
		return id
	}
	id := len(st.labelAt)
	st.labels[name] = id
	st.labelAt = append(st.labelAt, -1)
	st.labelPos = append(st.labelPos, pos)
	return id
}

// prescanLabels registers every label of the body (labels are function-scoped).
func (st *fnState) prescanLabels(b *Block) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *Label:
			if id, ok := st.labels[s.Name]; ok && st.labelPos[id] != (Pos{}) && st.labelDefined(s.Name) {
				st.a.errorf(s.Pos, "label %s is defined twice (first at %s)", s.Name, st.labelPos[id])
				continue
			}
			id := st.labelID(s.Name, s.Pos)
			st.labelPos[id] = s.Pos
			st.labelAt[id] = -2 // defined, position pending
		case *Block:
			st.prescanLabels(s)
		}
	}
}

func (st *fnState) labelDefined(name string) bool {
	id, ok := st.labels[name]
	return ok && st.labelAt[id] == -2
}

func (st *fnState) emit(mi minst) {
	if len(st.pending) > 0 {
		mi.labels = append(mi.labels, st.pending...)
		for _, id := range st.pending {
			st.labelAt[id] = len(st.code)
		}
		st.pending = nil
	}
	st.code = append(st.code, mi)
}

func (st *fnState) block(b *Block, depth int) {
	if depth > 200 {
		st.a.errorf(b.Pos, "blocks nested too deeply")
		return
	}
	st.sc = &scope{names: map[string]*entity{}, parent: st.sc}
	defer func() { st.sc = st.sc.parent }()
	// Bind callseq .param variables of this block to call argument slots.
	st.bindCallParams(b)
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *Label:
			id := st.labels[s.Name]
			st.pending = append(st.pending, id)
		case *Block:
			st.block(s, depth+1)
		case *VarDecl:
			st.varDecl(s)
		case *BranchTargets:
			var names []string
			for _, l := range s.Labels {
				if !st.labelDefined(l.Name) {
					st.a.errorf(l.Pos, ".branchtargets %s: label %s is not defined in %s", s.Name, l.Name, st.f.Name)
					continue
				}
				names = append(names, l.Name)
			}
			st.declare(s.Name, &entity{kind: entBranchTargets, labels: names, pos: s.Pos}, s.Pos)
		case *CallTargets:
			var names []string
			var sig signature
			for i, fn := range s.Funcs {
				fsym, ok := st.a.funcs[fn.Name]
				if !ok {
					st.a.errorf(fn.Pos, ".calltargets %s: %s is not a function declared before it", s.Name, fn.Name)
					continue
				}
				if i == 0 {
					sig = fsym.sig
				} else if !fsym.sig.compatible(sig) {
					st.a.errorf(fn.Pos, ".calltargets %s: %s has a different signature from %s", s.Name, fn.Name, s.Funcs[0].Name)
				}
				names = append(names, fn.Name)
			}
			st.declare(s.Name, &entity{kind: entCallTargets, funcs: names, sig: sig, pos: s.Pos}, s.Pos)
		case *CallPrototype:
			st.declare(s.Name, &entity{kind: entCallProto, sig: signature{rets: paramSig(s.Rets), params: paramSig(s.Params)}, pos: s.Pos}, s.Pos)
		case *PragmaStmt:
		case *Instr:
			st.instr(s)
		}
	}
}

// bindCallParams gives each .param variable of block b that a call in b
// uses as an argument or return value the offset of that argument in the
// callee's argument area (the caller's outgoing area).
func (st *fnState) bindCallParams(b *Block) {
	params := map[string]*VarDecl{}
	for _, s := range b.Stmts {
		if d, ok := s.(*VarDecl); ok && d.Space == "param" {
			for _, v := range d.Vars {
				params[v.Name] = d
			}
		}
	}
	if len(params) == 0 {
		return
	}
	if st.blockParamBind == nil {
		st.blockParamBind = map[*VarDecl]map[string]uint32{}
	}
	for _, s := range b.Stmts {
		in, ok := s.(*Instr)
		if !ok || in.Op != "call" {
			continue
		}
		sig, ok := st.callSignature(in, false)
		if !ok {
			sig, ok = st.blockCallSignature(b, in)
		}
		if !ok {
			continue
		}
		retOff, parOff, size := sig.layout()
		if size > st.outSize {
			st.outSize = size
		}
		ops := in.Operands
		i := 0
		bind := func(o Operand, off uint32) {
			var name string
			switch o := o.(type) {
			case *SymOperand:
				name = o.Name
			case *RegOperand:
				name = o.Name
			}
			if d, ok := params[name]; ok {
				m := st.blockParamBind[d]
				if m == nil {
					m = map[string]uint32{}
					st.blockParamBind[d] = m
				}
				m[name] = off
			}
		}
		if i < len(ops) {
			if l, ok := ops[i].(*ListOperand); ok {
				for j, e := range l.Elems {
					if j < len(retOff) {
						bind(e, retOff[j])
					}
				}
				i++
			}
		}
		i++ // callee
		if i < len(ops) {
			if l, ok := ops[i].(*ListOperand); ok {
				for j, e := range l.Elems {
					if j < len(parOff) {
						bind(e, parOff[j])
					}
				}
			}
		}
	}
}

func (st *fnState) varDecl(d *VarDecl) {
	switch d.Space {
	case "reg":
		if !d.Type.Encodable() {
			st.a.errorf(d.Pos, "unsupported: register type .%s", d.Type)
			return
		}
		for _, v := range d.Vars {
			if len(v.Dims) > 0 || v.Init != nil {
				st.a.errorf(v.Pos, "unsupported: register arrays and initialized registers")
				continue
			}
			names := []string{v.Name}
			if v.Range > 0 {
				if v.Range > 1<<16 {
					st.a.errorf(v.Pos, "%s<%d>: too many registers", v.Name, v.Range)
					continue
				}
				names = names[:0]
				for i := 0; i < v.Range; i++ {
					names = append(names, fmt.Sprintf("%s%d", v.Name, i))
				}
			}
			for _, n := range names {
				if d.Vec > 0 {
					e := &entity{kind: entVec, typ: d.Type, pos: v.Pos}
					for i := 0; i < d.Vec; i++ {
						e.comps = append(e.comps, st.newVreg(n+"."+"xyzw"[i:i+1], d.Type, v.Pos))
					}
					st.declare(n, e, v.Pos)
					continue
				}
				st.declare(n, &entity{kind: entReg, v: st.newVreg(n, d.Type, v.Pos), typ: d.Type, pos: v.Pos}, v.Pos)
			}
		}
	case "local", "param":
		if !d.Type.Encodable() || d.Type == Pred {
			st.a.errorf(d.Pos, "unsupported: .%s variable of type .%s", d.Space, d.Type)
			return
		}
		bind := st.blockParamBind[d]
		for _, v := range d.Vars {
			elem := uint32(d.Type.Bytes())
			if d.Vec > 0 {
				elem *= uint32(d.Vec)
			}
			n := uint32(1)
			for _, x := range v.Dims {
				if x <= 0 || x > 1<<20 {
					st.a.errorf(v.Pos, "bad array size for %s", v.Name)
					return
				}
				n *= uint32(x)
			}
			size := elem * n
			if size > 1<<20 {
				st.a.errorf(v.Pos, "%s is too large for a thread's frame", v.Name)
				return
			}
			if v.Init != nil {
				st.a.errorf(v.Pos, "unsupported: initialized .%s variable", d.Space)
			}
			if off, ok := bind[v.Name]; ok && d.Space == "param" {
				st.declare(v.Name, &entity{kind: entFrame, off: off, out: true, typ: d.Type, size: size, pos: v.Pos}, v.Pos)
				continue
			}
			al := uint32(d.Align)
			if al == 0 {
				al = elem
			}
			st.locals = alignUp(st.locals, al)
			vs := &varSym{name: v.Name, space: SpaceLocal, addr: uint64(st.locals), size: uint64(size), elem: d.Type, pos: v.Pos}
			st.locals += size
			if st.locals > 1<<22 {
				st.a.errorf(v.Pos, "frame of %s exceeds 4 MiB", st.f.Name)
				return
			}
			if d.Space == "param" {
				st.declare(v.Name, &entity{kind: entFrame, off: uint32(vs.addr), typ: d.Type, size: size, pos: v.Pos}, v.Pos)
			} else {
				st.declare(v.Name, &entity{kind: entMem, mem: vs, typ: d.Type, size: size, pos: v.Pos}, v.Pos)
			}
		}
	case "shared", "global", "const":
		prefix := st.f.Name + "::"
		for _, vs := range st.a.declareMemVars(d, prefix) {
			st.declare(vs.name, &entity{kind: entMem, mem: vs, typ: d.Type, pos: vs.pos}, vs.pos)
		}
	default:
		st.a.errorf(d.Pos, "unsupported: .%s declaration inside a function", d.Space)
	}
}

// callSignature finds the signature a call uses (callee, flist or fproto).
func (st *fnState) callSignature(in *Instr, report bool) (signature, bool) {
	ops := in.Operands
	i := 0
	if i < len(ops) {
		if _, ok := ops[i].(*ListOperand); ok {
			i++
		}
	}
	if i >= len(ops) {
		return signature{}, false
	}
	switch c := ops[i].(type) {
	case *SymOperand:
		if fs, ok := st.a.funcs[c.Name]; ok {
			return fs.sig, true
		}
		if e := st.sc.lookup(c.Name); e != nil && e.kind == entReg {
			break
		}
		return signature{}, false
	case *RegOperand:
	default:
		return signature{}, false
	}
	// Indirect: the last operand names the flist/fproto.
	last := ops[len(ops)-1]
	if s, ok := last.(*SymOperand); ok {
		if e := st.sc.lookup(s.Name); e != nil && (e.kind == entCallProto || e.kind == entCallTargets) {
			return e.sig, true
		}
		if e := st.lookupCallTableSig(s.Name); e != nil {
			return *e, true
		}
	}
	return signature{}, false
}

// lookupCallTableSig: a call table is an array variable initialized with
// function names; its signature is that of its first function.
func (st *fnState) lookupCallTableSig(name string) *signature {
	d := st.findVarDecl(name)
	if d == nil {
		return nil
	}
	for _, v := range d.Vars {
		if v.Name != name || v.Init == nil {
			continue
		}
		var first string
		var walk func(in *Init)
		walk = func(in *Init) {
			if first != "" {
				return
			}
			if in.List != nil {
				for _, e := range in.List {
					walk(e)
				}
				return
			}
			if s, ok := in.Value.(*SymOperand); ok {
				if _, isF := st.a.funcs[s.Name]; isF {
					first = s.Name
				}
			}
		}
		walk(v.Init)
		if first != "" {
			sig := st.a.funcs[first].sig
			return &sig
		}
	}
	return nil
}

func (st *fnState) findVarDecl(name string) *VarDecl {
	for _, d := range st.a.mod.Decls {
		if vd, ok := d.(*VarDecl); ok {
			for _, v := range vd.Vars {
				if v.Name == name {
					return vd
				}
			}
		}
	}
	var find func(b *Block) *VarDecl
	find = func(b *Block) *VarDecl {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *VarDecl:
				for _, v := range s.Vars {
					if v.Name == name {
						return s
					}
				}
			case *Block:
				if d := find(s); d != nil {
					return d
				}
			}
		}
		return nil
	}
	return find(st.f.Body)
}

func (st *fnState) emitRet(pos Pos, uni bool) {
	st.emitRetGuarded(pos, uni, nil)
}

func (st *fnState) emitRetGuarded(pos Pos, uni bool, guard *RegOperand) {
	if st.f.Entry {
		mi := minst{in: Inst{Op: OpRET}, pos: pos}
		if uni {
			mi.in.Mods |= ModUni
		}
		st.guard(&mi, guard)
		st.emit(mi)
		return
	}
	for _, r := range st.regRets {
		mi := minst{in: Inst{Op: OpST, Type: r.typ, Mods: SpaceLocal, A: FPOp(), B: RegOp(0), Imm: r.off}, pos: pos, immUsed: true}
		mi.uses = append(mi.uses, rref{r.v, fB})
		st.guard(&mi, guard)
		st.emit(mi)
	}
	mi := minst{in: Inst{Op: OpRET}, pos: pos}
	if uni {
		mi.in.Mods |= ModUni
	}
	st.guard(&mi, guard)
	st.emit(mi)
}

func (st *fnState) guard(mi *minst, g *RegOperand) {
	if g == nil {
		return
	}
	v, ok := st.predReg(g)
	if !ok {
		return
	}
	mi.in.GuardOn = true
	mi.in.GuardNeg = g.Neg
	mi.uses = append(mi.uses, rref{v, fGuard})
}

// predReg resolves a predicate register operand.
func (st *fnState) predReg(g *RegOperand) (int, bool) {
	e := st.sc.lookup(g.Name)
	if e == nil || e.kind != entReg {
		if sr, ok := LookupSReg(g.Name); ok && sr == SRIsExplicitCluster {
			st.a.errorf(g.Pos, "special register %s can only be read with mov", g.Name)
			return 0, false
		}
		st.a.errorf(g.Pos, "undeclared predicate %s", g.Name)
		return 0, false
	}
	if st.vregs[e.v].class != classPred {
		st.a.errorf(g.Pos, "%s is not a predicate (declared .%s)", g.Name, st.vregs[e.v].typ)
		return 0, false
	}
	return e.v, true
}

// ---- operand helpers -------------------------------------------------

func identOf(o Operand) (string, Pos, bool) {
	switch o := o.(type) {
	case *RegOperand:
		if o.Comp != "" || o.HasOffset {
			return "", o.Pos, false
		}
		return o.Name, o.Pos, true
	case *SymOperand:
		if o.Offset != 0 {
			return "", o.Pos, false
		}
		return o.Name, o.Pos, true
	}
	return "", OperandPos(o), false
}

// regOf resolves an operand naming a register (scalar, or a vector
// component "%rx.y") and checks it against type t.
func (st *fnState) regOf(o Operand, t Type, wide bool) (int, bool) {
	var name, comp string
	var pos Pos
	switch o := o.(type) {
	case *RegOperand:
		if o.HasOffset {
			st.a.errorf(o.Pos, "unsupported: register-plus-offset operand %s%+d", o.Name, o.Offset)
			return 0, false
		}
		name, comp, pos = o.Name, o.Comp, o.Pos
	case *SymOperand:
		if o.Offset != 0 {
			st.a.errorf(o.Pos, "unsupported: %s%+d as a register operand", o.Name, o.Offset)
			return 0, false
		}
		name, pos = o.Name, o.Pos
	default:
		st.a.errorf(OperandPos(o), "expected a register")
		return 0, false
	}
	e := st.sc.lookup(name)
	if e == nil {
		if _, ok := LookupSReg(name); ok || IsSRegVector(name) || strings.HasPrefix(name, "SR_") {
			st.a.errorf(pos, "special register %s can only be read with mov or cvt", name)
		} else if _, ok := st.labels[name]; ok {
			st.a.errorf(pos, "label %s used as a register", name)
		} else {
			st.a.errorf(pos, "undeclared register %s", name)
		}
		return 0, false
	}
	v := -1
	switch e.kind {
	case entReg:
		if comp != "" {
			st.a.errorf(pos, "%s is not a vector register", name)
			return 0, false
		}
		v = e.v
	case entVec:
		i := strings.IndexAny(comp, "xyzwrgba")
		if comp == "" || len(comp) != 1 || i < 0 {
			st.a.errorf(pos, "vector register %s used without a component", name)
			return 0, false
		}
		idx := strings.Index("xyzw", comp)
		if idx < 0 {
			idx = strings.Index("rgba", comp)
		}
		if idx >= len(e.comps) {
			st.a.errorf(pos, "%s has no component .%s", name, comp)
			return 0, false
		}
		v = e.comps[idx]
	default:
		st.a.errorf(pos, "%s is not a register", name)
		return 0, false
	}
	vi := st.vregs[v]
	if t == Pred {
		if vi.class != classPred {
			st.a.errorf(pos, "%s is .%s, a predicate is needed", name, vi.typ)
			return 0, false
		}
		return v, true
	}
	if vi.class == classPred {
		st.a.errorf(pos, "predicate %s used where a .%s value is needed", name, t)
		return 0, false
	}
	need := t.Bits() > 32
	have := vi.class == classGPR2
	if need && !have {
		st.a.errorf(pos, "%s is .%s (32 bits or less) but the instruction needs a 64-bit register", name, vi.typ)
		return 0, false
	}
	if have && !need && !wide {
		st.a.errorf(pos, "%s is .%s (64 bits) but the instruction works on .%s", name, vi.typ, t)
		return 0, false
	}
	return v, true
}

// setImm stores an immediate for slot (0=A,1=B,2=C): the Imm field when free
// and representable, else the constant table.
func (st *fnState) setImm(mi *minst, slot int, v uint64) {
	op := &mi.in.A
	switch slot {
	case 1:
		op = &mi.in.B
	case 2:
		op = &mi.in.C
	}
	if !mi.immUsed && uint64(int64(int32(uint32(v)))) == v {
		*op = ImmOp()
		mi.in.Imm = uint32(v)
		mi.immUsed = true
		mi.immSlot = slot
		return
	}
	*op = ConstOp(st.a.constIndex(v, mi.pos))
}

// src resolves a source operand of type t into slot (0..2).
func (st *fnState) src(mi *minst, slot int, o Operand, t Type) bool {
	field := uint8(fA + slot)
	op := &mi.in.A
	switch slot {
	case 1:
		op = &mi.in.B
	case 2:
		op = &mi.in.C
	}
	switch o := o.(type) {
	case *ImmOperand:
		if t == Pred {
			if o.Float || (o.Int != 0 && o.Int != 1) {
				st.a.errorf(o.Pos, "predicate immediate must be 0 or 1")
				return false
			}
			st.setImm(mi, slot, uint64(o.Int))
			return true
		}
		bits, err := immBits(o, t)
		if err != nil {
			st.a.errorf(o.Pos, "%v", err)
			return false
		}
		// Sign-extend signed immediates so the 32-bit Imm field carries them.
		if t.Signed() || (!t.Float() && o.Int < 0) {
			if b := t.Bits(); b < 64 {
				bits = uint64(int64(bits<<(64-uint(b))) >> (64 - uint(b)))
			}
		}
		st.setImm(mi, slot, bits)
		return true
	case *RegOperand, *SymOperand:
		if so, ok := o.(*SymOperand); ok {
			// Symbol address as a value: variable or function.
			if e := st.sc.lookup(so.Name); e == nil || so.Offset != 0 {
				if _, ok := st.symAddr(mi, so, slot); ok {
					return true
				}
				if e == nil {
					return false
				}
			}
		}
		if ro, ok := o.(*RegOperand); ok && ro.Neg {
			if t != Pred {
				st.a.errorf(ro.Pos, "negation !%s is only allowed on predicates", ro.Name)
				return false
			}
		}
		if so, ok := o.(*SymOperand); ok {
			if e := st.sc.lookup(so.Name); e != nil && e.kind != entReg && e.kind != entVec {
				_, ok := st.symAddr(mi, so, slot)
				return ok
			}
		}
		v, ok := st.regOf(o, t, false)
		if !ok {
			return false
		}
		if t == Pred {
			neg := false
			if ro, ok := o.(*RegOperand); ok {
				neg = ro.Neg
			}
			*op = PredOp(0, neg)
		} else {
			*op = RegOp(0)
		}
		mi.uses = append(mi.uses, rref{v, field})
		return true
	case *VecOperand:
		st.a.errorf(o.Pos, "unsupported: vector operand here")
	case *AddrOperand:
		st.a.errorf(o.Pos, "memory operand not allowed here")
	default:
		st.a.errorf(OperandPos(o), "bad operand")
	}
	return false
}

// symAddr materializes the address of a variable or function symbol as an
// immediate value in slot, or (for frame variables) reports that it needs FP.
func (st *fnState) symAddr(mi *minst, so *SymOperand, slot int) (uint64, bool) {
	if e := st.sc.lookup(so.Name); e != nil {
		switch e.kind {
		case entMem:
			if e.mem.space == SpaceLocal {
				st.a.errorf(so.Pos, "the address of local variable %s must be taken with mov", so.Name)
				return 0, false
			}
			if e.mem.dynamic {
				mi.dynShared = true
				mi.dynSlot = slot
			}
			v := e.mem.addr + uint64(so.Offset)
			st.setImm(mi, slot, v)
			return v, true
		case entKParam:
			v := uint64(e.off) + uint64(so.Offset)
			st.setImm(mi, slot, v)
			return v, true
		case entFrame:
			st.a.errorf(so.Pos, "the address of parameter %s must be taken with mov", so.Name)
			return 0, false
		}
		return 0, false
	}
	if vs, ok := st.a.vars[so.Name]; ok {
		if vs.dynamic {
			mi.dynShared = true
			mi.dynSlot = slot
		}
		v := vs.addr + uint64(so.Offset)
		st.setImm(mi, slot, v)
		return v, true
	}
	if _, ok := st.a.funcs[so.Name]; ok {
		mi.reloc = relocFunc
		mi.fn = so.Name
		mi.addend = so.Offset
		mi.immSlot = slot
		st.setImm(mi, slot, uint64(FuncAddrBase)) // placeholder slot; link fixes value
		st.callees[so.Name] = true
		return 0, true
	}
	if _, ok := st.labels[so.Name]; ok {
		st.a.errorf(so.Pos, "label %s used as a value", so.Name)
		return 0, false
	}
	if strings.HasPrefix(so.Name, "%") || isSRegName(so.Name) {
		st.a.errorf(so.Pos, "special register %s can only be read with mov or cvt", so.Name)
		return 0, false
	}
	st.a.errorf(so.Pos, "undeclared identifier %s", so.Name)
	return 0, false
}

func isSRegName(n string) bool {
	_, ok := LookupSReg(n)
	return ok
}

// dst resolves a destination register into field.
func (st *fnState) dst(mi *minst, field uint8, o Operand, t Type, wide bool) bool {
	if s, ok := o.(*SymOperand); ok && s.Name == "_" {
		v := st.newVreg("_", t, s.Pos)
		mi.defs = append(mi.defs, rref{v, field})
		return true
	}
	if ro, ok := o.(*RegOperand); ok && ro.Neg {
		st.a.errorf(ro.Pos, "a destination cannot be negated")
		return false
	}
	v, ok := st.regOf(o, t, wide)
	if !ok {
		return false
	}
	mi.defs = append(mi.defs, rref{v, field})
	return true
}

// ---- instructions ----------------------------------------------------

// mods classifies an instruction's modifiers.
type modSet struct {
	types []Type
	rest  []string
}

func splitMods(in *Instr) modSet {
	var ms modSet
	for _, m := range in.Mods {
		if t, ok := ParseType(m); ok {
			ms.types = append(ms.types, t)
			continue
		}
		ms.rest = append(ms.rest, m)
	}
	return ms
}

func (ms modSet) has(m string) bool {
	for _, x := range ms.rest {
		if x == m {
			return true
		}
	}
	return false
}

func (st *fnState) wantOperands(in *Instr, min, max int) bool {
	n := len(in.Operands)
	if n < min || n > max {
		if min == max {
			st.a.errorf(in.Pos, "%s takes %d operands, got %d", in.Op, min, n)
		} else {
			st.a.errorf(in.Pos, "%s takes %d to %d operands, got %d", in.Op, min, max, n)
		}
		return false
	}
	return true
}

// oneType returns the single data type of an instruction.
func (st *fnState) oneType(in *Instr, ms modSet) (Type, bool) {
	if len(ms.types) != 1 {
		st.a.errorf(in.Pos, "%s needs exactly one type modifier", in.Op)
		return NoType, false
	}
	t := ms.types[0]
	if !t.Encodable() {
		st.a.errorf(in.Pos, "unsupported: .%s operations", t)
		return NoType, false
	}
	return t, true
}

func (st *fnState) instr(in *Instr) {
	if len(st.a.errs) >= 50 {
		return
	}
	mi := minst{pos: in.Pos}
	if in.Guard != nil {
		st.guard(&mi, in.Guard)
	}
	ms := splitMods(in)
	lw := in.Op
	switch lw {
	case "mov":
		st.lowerMov(in, ms, mi)
	case "add", "sub", "mul", "mad", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr", "fma":
		st.lowerArith(in, ms, mi)
	case "neg", "abs", "not", "popc", "clz", "brev", "sqrt", "rcp":
		st.lowerUnary(in, ms, mi)
	case "setp":
		st.lowerSetp(in, ms, mi)
	case "selp":
		st.lowerSelp(in, ms, mi)
	case "cvt":
		st.lowerCvt(in, ms, mi)
	case "cvta":
		st.lowerCvta(in, ms, mi)
	case "bfe", "bfi", "prmt":
		st.lowerBits(in, ms, mi)
	case "ld", "ldu", "st":
		st.lowerMem(in, ms, mi)
	case "atom", "red":
		st.lowerAtom(in, ms, mi)
	case "bra", "brx", "call", "ret", "exit":
		st.lowerFlow(in, ms, mi)
	case "bar", "barrier":
		st.lowerBar(in, ms, mi)
	case "membar", "fence":
		st.lowerMembar(in, ms, mi)
	case "activemask":
		if !st.wantOperands(in, 1, 1) {
			return
		}
		mi.in.Op, mi.in.Type = OpACTIVEMASK, B32
		if st.dst(&mi, fDst, in.Operands[0], B32, false) {
			st.emit(mi)
		}
	case "vote":
		st.lowerVote(in, ms, mi)
	case "shf":
		st.lowerShf(in, ms, mi)
	case "sad":
		st.lowerSad(in, ms, mi)
	case "bfind":
		st.lowerBfind(in, ms, mi)
	case "shfl":
		st.lowerShfl(in, ms, mi)
	case "brkpt", "trap", "nanosleep", "pmevent", "setmaxnreg":
		st.lowerMisc(in, ms, mi)
	case "BPT", "IDE", "RTT", "S2R":
		st.lowerSASS(in, ms, mi)
	default:
		st.a.errorf(in.Pos, "unsupported: %s", strings.Join(append([]string{in.Op}, in.Mods...), "."))
	}
}

func (st *fnState) checkNoMods(in *Instr, ms modSet, allowed ...string) bool {
	for _, m := range ms.rest {
		ok := false
		for _, a := range allowed {
			if m == a {
				ok = true
			}
		}
		if !ok {
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return false
		}
	}
	return true
}

func (st *fnState) lowerMov(in *Instr, ms modSet, mi minst) {
	if !st.wantOperands(in, 2, 2) {
		return
	}
	vec := 0
	var rest []string
	for _, m := range ms.rest {
		switch m {
		case "v2":
			vec = 2
		case "v4":
			vec = 4
		default:
			rest = append(rest, m)
		}
	}
	if len(rest) > 0 {
		st.a.errorf(in.Pos, "unsupported: mov.%s", rest[0])
		return
	}
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	d, s := in.Operands[0], in.Operands[1]
	// Special registers.
	if ro, ok := s.(*RegOperand); ok && st.sc.lookup(ro.Name) == nil {
		st.lowerSRegRead(in, mi, t, vec, d, ro)
		return
	}
	if vec > 0 {
		st.a.errorf(in.Pos, "unsupported: mov.v%d of registers", vec)
		return
	}
	// Pack {a, b} -> d.
	if vo, ok := s.(*VecOperand); ok {
		if len(vo.Elems) != 2 || t.Bits() < 16 {
			st.a.errorf(vo.Pos, "unsupported: mov packing %d elements", len(vo.Elems))
			return
		}
		half := halfType(t)
		mi.in.Op, mi.in.Type, mi.in.Mods = OpMOV, t, ModMovPack
		if !st.dst(&mi, fDst, d, t, false) || !st.src(&mi, 0, vo.Elems[0], half) || !st.src(&mi, 1, vo.Elems[1], half) {
			return
		}
		st.emit(mi)
		return
	}
	if vo, ok := d.(*VecOperand); ok {
		if len(vo.Elems) != 2 || t.Bits() < 16 {
			st.a.errorf(vo.Pos, "unsupported: mov unpacking into %d elements", len(vo.Elems))
			return
		}
		half := halfType(t)
		mi.in.Op, mi.in.Type, mi.in.Mods = OpMOV, t, ModMovUnpack
		if !st.dst(&mi, fDst, vo.Elems[0], half, false) || !st.dst(&mi, fDst2, vo.Elems[1], half, false) || !st.src(&mi, 0, s, t) {
			return
		}
		st.emit(mi)
		return
	}
	// Address of a frame variable or local: FP + offset.
	if so, ok := s.(*SymOperand); ok {
		if e := st.sc.lookup(so.Name); e != nil && (e.kind == entFrame || (e.kind == entMem && e.mem.space == SpaceLocal)) {
			off := uint64(e.off) + uint64(so.Offset)
			if e.kind == entMem {
				off = e.mem.addr + uint64(so.Offset)
			}
			mi.in.Op, mi.in.Type, mi.in.A = OpADD, t, FPOp()
			if t.Bits() < 32 || t == Pred || t.Float() {
				st.a.errorf(in.Pos, "address of %s needs a .u32/.u64/.b32/.b64 mov", so.Name)
				return
			}
			if !st.dst(&mi, fDst, d, t, false) {
				return
			}
			st.setImm(&mi, 1, off)
			mi.outArea = e.kind == entFrame && e.out
			st.emit(mi)
			return
		}
	}
	mi.in.Op, mi.in.Type = OpMOV, t
	if !st.dst(&mi, fDst, d, t, false) || !st.src(&mi, 0, s, t) {
		return
	}
	st.emit(mi)
}

func halfType(t Type) Type {
	switch t.Bits() {
	case 64:
		return B32
	case 32:
		return B16
	}
	return B8
}

// lowerSRegRead lowers mov/cvt from a special register.
func (st *fnState) lowerSRegRead(in *Instr, mi minst, t Type, vec int, d Operand, ro *RegOperand) {
	full := ro.Name
	if ro.Comp != "" {
		full += "." + ro.Comp
	}
	if vec > 0 || (ro.Comp == "" && IsSRegVector(ro.Name)) {
		// Whole vector: %tid etc. into a .v4 register or a {a,b,c,d} list.
		if !IsSRegVector(ro.Name) {
			st.a.errorf(ro.Pos, "%s is not a vector special register", ro.Name)
			return
		}
		var dsts []Operand
		switch dv := d.(type) {
		case *VecOperand:
			dsts = dv.Elems
		case *RegOperand, *SymOperand:
			name, _, _ := identOf(dv)
			e := st.sc.lookup(name)
			if e == nil || e.kind != entVec {
				st.a.errorf(OperandPos(d), "%s needs a vector destination", ro.Name)
				return
			}
			for i := range e.comps {
				dsts = append(dsts, &RegOperand{Pos: OperandPos(d), Name: name, Comp: "xyzw"[i : i+1]})
			}
		default:
			st.a.errorf(OperandPos(d), "bad destination")
			return
		}
		if vec != 0 && len(dsts) != vec {
			st.a.errorf(OperandPos(d), "mov.v%d needs %d destinations, got %d", vec, vec, len(dsts))
			return
		}
		for i, dd := range dsts {
			m := mi
			m.uses = append([]rref(nil), mi.uses...)
			if i == 3 {
				m.in.Op, m.in.Type = OpMOV, t
				if !st.dst(&m, fDst, dd, t, false) {
					return
				}
				st.setImm(&m, 0, 0)
				st.emit(m)
				continue
			}
			sr, _ := LookupSReg(ro.Name + "." + "xyz"[i:i+1])
			m.in.Op, m.in.Type, m.in.Imm, m.immUsed = OpS2R, t, uint32(sr), true
			if !st.dst(&m, fDst, dd, t, false) {
				return
			}
			st.emit(m)
		}
		return
	}
	if ro.Comp == "w" && IsSRegVector(ro.Name) {
		mi.in.Op, mi.in.Type = OpMOV, t
		if st.dst(&mi, fDst, d, t, false) {
			st.setImm(&mi, 0, 0)
			st.emit(mi)
		}
		return
	}
	sr, ok := LookupSReg(full)
	if !ok {
		if strings.HasPrefix(full, "%") {
			st.a.errorf(ro.Pos, "undeclared register or unknown special register %s", full)
		} else {
			st.a.errorf(ro.Pos, "undeclared register %s", full)
		}
		return
	}
	if sr == SRGlobalESR || sr == SRWarpESR {
		st.a.errorf(ro.Pos, "%s is read with S2R, not mov", full)
		return
	}
	if (sr.Type() == Pred) != (t == Pred) {
		st.a.errorf(in.Pos, "%s is .%s; mov.%s cannot read it", full, sr.Type(), t)
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Imm, mi.immUsed = OpS2R, t, uint32(sr), true
	if st.dst(&mi, fDst, d, t, false) {
		st.emit(mi)
	}
}

func (st *fnState) arithMods(in *Instr, ms modSet, mi *minst, allowMul bool) bool {
	for _, m := range ms.rest {
		switch m {
		case "lo":
			mi.in.Mods = mi.in.Mods&^ModMulMask | MulLo
		case "hi":
			mi.in.Mods = mi.in.Mods&^ModMulMask | MulHi
		case "wide":
			mi.in.Mods = mi.in.Mods&^ModMulMask | MulWide
		case "sat":
			mi.in.Mods |= ModSat
		case "ftz":
			mi.in.Mods |= ModFtz
		case "uni", "sync", "aligned":
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return false
		default:
			if r, ok := ParseRounding(m); ok {
				mi.in.Mods = mi.in.Mods&^ModRndMask | uint16(r)<<ModRndShift
				continue
			}
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return false
		}
	}
	if !allowMul && mi.in.Mods&ModMulMask != 0 {
		st.a.errorf(in.Pos, "unsupported: %s with .hi/.wide", in.Op)
		return false
	}
	return true
}

var arithOps = map[string]Opcode{"add": OpADD, "sub": OpSUB, "mul": OpMUL, "mad": OpMAD, "div": OpDIV, "rem": OpREM, "min": OpMIN, "max": OpMAX, "and": OpAND, "or": OpOR, "xor": OpXOR, "shl": OpSHL, "shr": OpSHR, "fma": OpFMA}

func (st *fnState) lowerArith(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	op := arithOps[in.Op]
	mi.in.Op, mi.in.Type = op, t
	if !st.arithMods(in, ms, &mi, op == OpMUL || op == OpMAD) {
		return
	}
	three := op == OpMAD || op == OpFMA
	if three {
		if !st.wantOperands(in, 4, 4) {
			return
		}
	} else if !st.wantOperands(in, 3, 3) {
		return
	}
	dt, at, ct := t, t, t
	if mi.in.Mods&ModMulMask == MulWide {
		if t.Bits() > 32 || t.Float() {
			st.a.errorf(in.Pos, "%s.wide needs a 16- or 32-bit integer type", in.Op)
			return
		}
		dt = wideType(t)
		ct = dt
	}
	bt := at
	if op == OpSHL || op == OpSHR {
		bt = U32
	}
	if !st.dst(&mi, fDst, in.Operands[0], dt, false) || !st.src(&mi, 0, in.Operands[1], at) || !st.src(&mi, 1, in.Operands[2], bt) {
		return
	}
	if three && !st.src(&mi, 2, in.Operands[3], ct) {
		return
	}
	mi.in.C = st.unusedSlot(mi.in.C, three)
	st.emit(mi)
}

func (st *fnState) unusedSlot(o Operand12, used bool) Operand12 {
	if used {
		return o
	}
	return ZeroOp()
}

func wideType(t Type) Type {
	switch t {
	case U16:
		return U32
	case S16:
		return S32
	case U32:
		return U64
	case S32:
		return S64
	case B16:
		return B32
	case B32:
		return B64
	}
	return t
}

var unaryOps = map[string]Opcode{"neg": OpNEG, "abs": OpABS, "not": OpNOT, "popc": OpPOPC, "clz": OpCLZ, "brev": OpBREV, "sqrt": OpSQRT, "rcp": OpRCP}

func (st *fnState) lowerUnary(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	op := unaryOps[in.Op]
	mi.in.Op, mi.in.Type = op, t
	if !st.arithMods(in, ms, &mi, false) {
		return
	}
	dt := t
	if op == OpPOPC || op == OpCLZ {
		dt = U32
	}
	if !st.dst(&mi, fDst, in.Operands[0], dt, false) || !st.src(&mi, 0, in.Operands[1], t) {
		return
	}
	mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
	st.emit(mi)
}

func (st *fnState) lowerSetp(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	cmp, boolop := -1, BoolNone
	for _, m := range ms.rest {
		if c, ok := ParseCmp(m); ok && cmp < 0 {
			cmp = c
			continue
		}
		switch m {
		case "and":
			boolop = BoolAnd
		case "or":
			boolop = BoolOr
		case "xor":
			boolop = BoolXor
		case "ftz":
			mi.in.Mods |= ModSetpFtz
		default:
			st.a.errorf(in.Pos, "unsupported: setp.%s", m)
			return
		}
	}
	if cmp < 0 {
		st.a.errorf(in.Pos, "setp needs a comparison operator")
		return
	}
	if !t.Float() && cmp >= CmpEQU {
		st.a.errorf(in.Pos, "setp.%s is only for floating-point types", CmpName(cmp))
		return
	}
	if t.Float() && cmp >= CmpLO && cmp <= CmpHS {
		st.a.errorf(in.Pos, "setp.%s is only for integer types", CmpName(cmp))
		return
	}
	n := 3
	if boolop != BoolNone {
		n = 4
	}
	if !st.wantOperands(in, n, n) {
		return
	}
	mi.in.Op, mi.in.Type = OpSETP, t
	mi.in.Mods |= uint16(cmp) | uint16(boolop)<<ModBoolShift
	d := in.Operands[0]
	if po, ok := d.(*PipeOperand); ok {
		mi.in.Mods |= ModSetpDst2
		if !st.dst(&mi, fDst, po.A, Pred, false) || !st.dst(&mi, fDst2, po.B, Pred, false) {
			return
		}
	} else if !st.dst(&mi, fDst, d, Pred, false) {
		return
	}
	if !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) {
		return
	}
	if boolop != BoolNone {
		if !st.src(&mi, 2, in.Operands[3], Pred) {
			return
		}
	} else {
		mi.in.C = ZeroOp()
	}
	st.emit(mi)
}

func (st *fnState) lowerSelp(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 4, 4) || !st.checkNoMods(in, ms) {
		return
	}
	mi.in.Op, mi.in.Type = OpSELP, t
	if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) || !st.src(&mi, 2, in.Operands[3], Pred) {
		return
	}
	st.emit(mi)
}

func (st *fnState) lowerCvt(in *Instr, ms modSet, mi minst) {
	if len(ms.types) != 2 {
		st.a.errorf(in.Pos, "cvt needs a destination and a source type")
		return
	}
	dt, at := ms.types[0], ms.types[1]
	if !dt.Encodable() || !at.Encodable() || dt == Pred || at == Pred {
		st.a.errorf(in.Pos, "unsupported: cvt.%s.%s", dt, at)
		return
	}
	if !st.wantOperands(in, 2, 2) {
		return
	}
	mi.in.Op, mi.in.Type, mi.in.Type2 = OpCVT, dt, at
	if !st.arithMods(in, ms, &mi, false) {
		return
	}
	if ro, ok := in.Operands[1].(*RegOperand); ok && st.sc.lookup(ro.Name) == nil {
		// cvt from a special register: S2R into the destination, then convert it in place.
		s2r := minst{pos: in.Pos, uses: append([]rref(nil), mi.uses...)}
		s2r.in.GuardOn, s2r.in.GuardNeg = mi.in.GuardOn, mi.in.GuardNeg
		st.lowerSRegRead(in, s2r, at, 0, in.Operands[0], ro)
		if len(st.a.errs) > 0 {
			return
		}
		if !st.dst(&mi, fDst, in.Operands[0], dt, true) || !st.src(&mi, 0, in.Operands[0], at) {
			return
		}
		mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
		st.emit(mi)
		return
	}
	if !st.dst(&mi, fDst, in.Operands[0], dt, false) {
		return
	}
	// The source register may be wider than the source type (cvt.u32.u64 reads a 64-bit register).
	if !st.srcWide(&mi, 0, in.Operands[1], at) {
		return
	}
	mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
	st.emit(mi)
}

// srcWide is src, but allows a register wider than t.
func (st *fnState) srcWide(mi *minst, slot int, o Operand, t Type) bool {
	if ro, ok := o.(*RegOperand); ok && !ro.Neg {
		if e := st.sc.lookup(ro.Name); e != nil && (e.kind == entReg || e.kind == entVec) {
			v, ok := st.regOf(o, t, true)
			if !ok {
				return false
			}
			op := &mi.in.A
			if slot == 1 {
				op = &mi.in.B
			}
			*op = RegOp(0)
			mi.uses = append(mi.uses, rref{v, uint8(fA + slot)})
			return true
		}
	}
	return st.src(mi, slot, o, t)
}

func spaceOf(m string) (int, bool) {
	switch m {
	case "global":
		return SpaceGlobal, true
	case "shared":
		return SpaceShared, true
	case "local":
		return SpaceLocal, true
	case "param":
		return SpaceParam, true
	case "const":
		return SpaceConst, true
	}
	return 0, false
}

func (st *fnState) lowerCvta(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok || !st.wantOperands(in, 2, 2) {
		return
	}
	to := false
	space := -1
	for _, m := range ms.rest {
		if m == "to" {
			to = true
			continue
		}
		if s, ok := spaceOf(m); ok {
			space = s
			continue
		}
		st.a.errorf(in.Pos, "unsupported: cvta.%s", m)
		return
	}
	if space < 0 {
		st.a.errorf(in.Pos, "cvta needs a state space")
		return
	}
	if space == SpaceParam || space == SpaceConst {
		st.a.errorf(in.Pos, "unsupported: cvta.%s", SpaceName(space))
		return
	}
	if t != U64 && t != B64 && t != S64 {
		st.a.errorf(in.Pos, "unsupported: cvta.%s (only 64-bit addresses)", t)
		return
	}
	if space == SpaceGlobal {
		// The global window is the identity: a plain move.
		mi.in.Op, mi.in.Type = OpMOV, t
	} else {
		mi.in.Op, mi.in.Type, mi.in.Mods = OpCVTA, t, uint16(space)
		if to {
			mi.in.Mods |= ModCvtaTo
		}
	}
	if !st.dst(&mi, fDst, in.Operands[0], t, false) {
		return
	}
	// The source may be a shared/global symbol (cvta.shared.u64 %rd, sym).
	if !st.src(&mi, 0, in.Operands[1], t) {
		return
	}
	mi.in.B, mi.in.C = ZeroOp(), ZeroOp()
	st.emit(mi)
}

func (st *fnState) lowerBits(in *Instr, ms modSet, mi minst) {
	t, ok := st.oneType(in, ms)
	if !ok {
		return
	}
	switch in.Op {
	case "bfe":
		if !st.wantOperands(in, 4, 4) || !st.checkNoMods(in, ms) {
			return
		}
		mi.in.Op, mi.in.Type = OpBFE, t
		if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], U32) || !st.src(&mi, 2, in.Operands[3], U32) {
			return
		}
	case "bfi":
		if !st.wantOperands(in, 5, 5) || !st.checkNoMods(in, ms) {
			return
		}
		mi.in.Op, mi.in.Type = OpBFI, t
		if !st.dst(&mi, fDst, in.Operands[0], t, false) {
			return
		}
		// len: a register in Dst2, or the Imm field (reserved first).
		switch l := in.Operands[4].(type) {
		case *ImmOperand:
			if l.Float {
				st.a.errorf(l.Pos, "bfi length must be an integer")
				return
			}
			mi.in.Imm = uint32(l.Int)
			mi.immUsed = true
			mi.immSlot = -1
		default:
			mi.in.Mods |= ModBfiLenReg
			if !st.srcAsField(&mi, fDst2, l, U32) {
				return
			}
		}
		if !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) || !st.src(&mi, 2, in.Operands[3], U32) {
			return
		}
	case "prmt":
		mode := PrmtDefault
		for _, m := range ms.rest {
			p, ok := ParsePrmt(m)
			if !ok {
				st.a.errorf(in.Pos, "unsupported: prmt.%s", m)
				return
			}
			mode = p
		}
		n := 4
		if !st.wantOperands(in, n, n) {
			return
		}
		mi.in.Op, mi.in.Type, mi.in.Mods = OpPRMT, t, uint16(mode)
		if !st.dst(&mi, fDst, in.Operands[0], t, false) || !st.src(&mi, 0, in.Operands[1], t) || !st.src(&mi, 1, in.Operands[2], t) || !st.src(&mi, 2, in.Operands[3], t) {
			return
		}
	}
	st.emit(mi)
}

// srcAsField reads a register source through a destination field (BFI length in Dst2).
func (st *fnState) srcAsField(mi *minst, field uint8, o Operand, t Type) bool {
	v, ok := st.regOf(o, t, false)
	if !ok {
		return false
	}
	mi.uses = append(mi.uses, rref{v, field})
	return true
}

// blockCallSignature finds the prototype or target list of an indirect call
// declared later in the same block (clang declares prototype_N just before the call).
func (st *fnState) blockCallSignature(b *Block, in *Instr) (signature, bool) {
	if len(in.Operands) == 0 {
		return signature{}, false
	}
	name, _, _ := identOf(in.Operands[len(in.Operands)-1])
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *CallPrototype:
			if s.Name == name {
				return signature{rets: paramSig(s.Rets), params: paramSig(s.Params)}, true
			}
		case *CallTargets:
			if s.Name == name && len(s.Funcs) > 0 {
				if fs, ok := st.a.funcs[s.Funcs[0].Name]; ok {
					return fs.sig, true
				}
			}
		}
	}
	return signature{}, false
}
