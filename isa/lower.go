// Lowering one function: its state, scopes, blocks and the per-instruction dispatch (instr).

package isa

import (
	"slices"
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
	// An indirect call's allowed targets: the functions of its
	// .calltargets list or call table (targets), or those compatible with
	// its .callprototype (proto); link puts their entry PCs in BrTables.
	targets []string
	proto   *signature
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
				st.regRets = append(st.regRets, st.declRegParam(p, retOff[i])...)
			} else {
				st.declare(p.Name, &entity{kind: entFrame, off: retOff[i], typ: p.Type, size: paramSize(p), pos: p.Pos}, p.Pos)
			}
		}
		for i, p := range f.Params {
			if p.Space == "reg" {
				for _, r := range st.declRegParam(p, parOff[i]) {
					prologue = append(prologue, func() {
						mi := minst{in: Inst{Op: OpLD, Type: r.typ, Mods: SpaceLocal, A: FPOp(), Imm: r.off}, pos: p.Pos}
						mi.immUsed = true
						mi.defs = append(mi.defs, rref{r.v, fDst})
						st.emit(mi)
					})
				}
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

// declRegParam declares the .reg parameter or return value p, whose slot
// in the incoming area is at off: a register, or for a vector (.reg .v4)
// a vector register whose elements follow each other in the slot. It
// returns each register with its offset.
func (st *fnState) declRegParam(p *Param, off uint32) []retSlot {
	if p.Vec == 0 {
		v := st.newVreg(p.Name, p.Type, p.Pos)
		st.declare(p.Name, &entity{kind: entReg, v: v, typ: p.Type, pos: p.Pos}, p.Pos)
		return []retSlot{{v: v, off: off, typ: p.Type}}
	}
	e := &entity{kind: entVec, typ: p.Type, pos: p.Pos}
	var rs []retSlot
	for k := 0; k < p.Vec; k++ {
		v := st.newVreg(p.Name+"."+"xyzw"[k:k+1], p.Type, p.Pos)
		e.comps = append(e.comps, v)
		rs = append(rs, retSlot{v: v, off: off + uint32(k*p.Type.Bytes()), typ: p.Type})
	}
	st.declare(p.Name, e, p.Pos)
	return rs
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

// labelDefined reports whether name is a label of the function: defined
// (-2, its position pending) or already placed (its PC).
func (st *fnState) labelDefined(name string) bool {
	id, ok := st.labels[name]
	return ok && st.labelAt[id] != -1
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
				if !ok || !fsym.declaredBefore(fn.Pos) {
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
	st.instrLowered(in, mi)
}

// instrLowered lowers in with mi (its guard already resolved): the
// dispatch of instr, also used for the instructions a lowering builds.
func (st *fnState) instrLowered(in *Instr, mi minst) {
	ms := splitMods(in)
	lw := in.Op
	switch lw {
	case "mov":
		st.lowerMov(in, ms, mi)
	case "add", "sub", "mul", "mad", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr", "fma", "addc", "subc", "madc":
		st.lowerArith(in, ms, mi)
	case "neg", "abs", "not", "popc", "clz", "brev", "sqrt", "rcp":
		st.lowerUnary(in, ms, mi)
	case "setp":
		st.lowerSetp(in, ms, mi)
	case "selp":
		st.lowerThree(in, ms, mi, OpSELP, Pred)
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
	case "mbarrier":
		st.lowerMbarrier(in, ms, mi)
	case "cp":
		st.lowerCpAsync(in, ms, mi)
	case "set":
		st.lowerSet(in, ms, mi)
	case "isspacep":
		st.lowerIsspacep(in, ms, mi)
	case "slct":
		st.lowerSlct(in, ms, mi)
	case "cnot":
		st.lowerCnot(in, ms, mi)
	case "prefetch", "prefetchu", "discard", "applypriority", "griddepcontrol", "createpolicy":
		st.lowerHint(in, ms, mi)
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
		st.lowerThree(in, ms, mi, OpSAD, NoType)
	case "bfind":
		st.lowerBfind(in, ms, mi)
	case "ex2", "lg2", "sin", "cos", "rsqrt", "tanh":
		st.lowerMufu(in, ms, mi)
	case "copysign":
		st.lowerCopysign(in, ms, mi)
	case "testp":
		st.lowerTestp(in, ms, mi)
	case "mul24", "mad24":
		st.lowerMul24(in, ms, mi)
	case "dp4a", "dp2a":
		st.lowerDp(in, ms, mi)
	case "bmsk", "szext":
		st.lowerMaskExt(in, ms, mi)
	case "fns":
		st.lowerFns(in, ms, mi)
	case "lop3":
		st.lowerLop3(in, ms, mi)
	case "shfl":
		st.lowerShfl(in, ms, mi)
	case "redux":
		st.lowerRedux(in, ms, mi)
	case "match":
		st.lowerMatch(in, ms, mi)
	case "elect":
		st.lowerElect(in, ms, mi)
	case "brkpt", "trap", "nanosleep", "pmevent", "setmaxnreg":
		st.lowerMisc(in, ms, mi)
	case "BPT", "IDE", "RTT", "S2R":
		st.lowerSASS(in, ms, mi)
	default:
		if ptxOpcodes[lw] {
			st.a.errorf(in.Pos, "unsupported: %s", joinMods(in))
		} else {
			st.a.errorf(in.Pos, "unknown instruction %s (not a PTX instruction)", lw)
		}
	}
}

// ptxOpcodes is every instruction name of the PTX ISA (8.x, chapter 9.7),
// to tell legal PTX the model does not implement (a positioned
// unsupported:) from a name that is not PTX at all (a plain error). The
// names instrLowered handles are here too.
var ptxOpcodes = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`
		add sub mul mad mul24 mad24 sad div rem abs neg min max popc clz bfind fns brev bfe bfi bmsk szext dp4a dp2a addc subc madc
		testp copysign fma rcp sqrt rsqrt sin cos lg2 ex2 tanh
		set setp selp slct and or xor not cnot lop3 shf shl shr
		mov shfl prmt ld ldu st multimem prefetch prefetchu applypriority discard createpolicy isspacep cvta cvt mapa getctarank
		cp tensormap tex tld4 txq istypep suld sust sured suq
		bra brx call ret exit bar barrier membar fence atom red vote match activemask redux griddepcontrol elect mbarrier clusterlaunchcontrol
		wmma mma ldmatrix stmatrix movmatrix wgmma tcgen05 stacksave stackrestore alloca
		vadd vsub vabsdiff vmin vmax vshl vshr vmad vset vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4 vset4
		brkpt nanosleep pmevent trap setmaxnreg`) {
		m[n] = true
	}
	return m
}()

// joinMods is the instruction's opcode and modifiers as written
// ("cp.async.bulk.shared::cluster.global").
func joinMods(in *Instr) string {
	return strings.Join(append([]string{in.Op}, in.Mods...), ".")
}

// checkNoMods reports whether every modifier left in ms is one of allowed;
// the first that is not is an error ("unsupported: op.mod").
func (st *fnState) checkNoMods(in *Instr, ms modSet, allowed ...string) bool {
	for _, m := range ms.rest {
		if !slices.Contains(allowed, m) {
			st.a.errorf(in.Pos, "unsupported: %s.%s", in.Op, m)
			return false
		}
	}
	return true
}
