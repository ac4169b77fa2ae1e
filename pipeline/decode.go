package pipeline

import (
	"fmt"

	"github.com/smsim/smsim/alu"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
)

// Execution categories of a decoded instruction.
type category uint8

const (
	catNOP category = iota
	catALU
	catLD
	catST
	catATOM
	catCVTA
	catS2R
	catBRA
	catBRX
	catCALL
	catRET
	catEXIT
	catBAR
	catBARWARP
	catMEMBAR
	catACTIVEMASK
	catBRKPT
	catNANOSLEEP
	catPMEVENT
	catTRAP
	catSETMAXNREG
	catTrapUnit // BPT, IDE, RTT: handed to the trap unit
	catSHFL
	catVOTE
	catREDUX
	catMATCH
	catELECT
	catCPASYNC
)

// Latency classes (config.Lat fields).
type latClass uint8

const (
	latALU latClass = iota
	latMul
	latDiv
	latFP
	latFP64
	latSFU
	latBranch
	latSReg
	latShared
	latGlobal
	latLocal
	latParam
	latAtomic
	latBarrier
	latDynamic // resolved at execution (generic-space memory)
	latNone    // no result
	numLat
)

// latTable is latOf of every class, computed once per run.
type latTable [numLat]uint64

func newLatTable(l config.Lat) latTable {
	var t latTable
	for c := range t {
		t[c] = latOf(l, latClass(c))
	}
	return t
}

func latOf(l config.Lat, c latClass) uint64 {
	v := 1
	switch c {
	case latALU:
		v = l.ALU
	case latMul:
		v = l.Mul
	case latDiv:
		v = l.Div
	case latFP:
		v = l.FP
	case latFP64:
		v = l.FP64
	case latSFU:
		v = l.SFU
	case latBranch:
		v = l.Branch
	case latSReg:
		v = l.SReg
	case latShared:
		v = l.Shared
	case latGlobal:
		v = l.Global
	case latLocal:
		v = l.Local
	case latParam:
		v = l.Param
	case latAtomic:
		v = l.Atomic
	case latBarrier:
		v = l.Barrier
	}
	if v < 1 {
		v = 1
	}
	return uint64(v)
}

// Scoreboard classes: which stall state a dependent instruction reports.
const (
	sbFixed uint8 = iota // "wait"
	sbShort              // "short_scoreboard"
	sbLong               // "long_scoreboard"
)

func sbState(c uint8) WarpState {
	switch c {
	case sbShort:
		return StateShortScoreboard
	case sbLong:
		return StateLongScoreboard
	}
	return StateWait
}

// Operand kinds of a decoded source slot.
const (
	opNone uint8 = iota
	opReg32
	opReg64
	opConst // immediates and constants: val
	opPred  // predicate register (0/1 after negation)
	opFP    // the lane's frame pointer
)

type opnd struct {
	kind uint8
	reg  uint8 // register, or predicate index
	neg  bool
	val  uint64
	row  *[32]uint32 // a constant of a rows fast path (rowsOf): val in every lane
}

// Carry-flag use of a dinst (dinst.cc).
const (
	ccIn  uint8 = 1 << iota // reads CC.CF (addc, subc, madc)
	ccOut                   // writes CC.CF (.cc)
)

// Destination kinds.
const (
	dNone uint8 = iota
	dReg32
	dReg64
	dPred
)

type dest struct {
	kind uint8
	reg  uint8
	typ  isa.Type // for dReg32: the value's type (extension to 32 bits)
}

// dinst is one instruction decoded once at New: operand access, result
// destinations, scoreboard registers, latency class and execution function.
type dinst struct {
	in   isa.Inst
	cat  category
	bad  string // non-empty: executing it faults (illegal instruction)
	kind string // fault kind for bad

	a, b, c, d opnd // source slots (d: BFI length)
	nsrc       int  // ALU value operands
	d1, d2     dest
	fn         alu.Func
	vop        vop   // whole-warp fast path (vNone: fn per lane)
	rows       bool  // the fast path reads its sources in place (rowsOf)
	cc         uint8 // ccIn | ccOut: reads and/or writes the lanes' carry flag
	// targets: an indirect CALL's allowed entry PCs (nil: any function).
	targets []uint32

	space    int // memory: effective space from the encoding
	vec      int // memory vector length
	elem     isa.Type
	usesPort bool  // needs a global/local memory port
	pipe     uint8 // the execution pipe of an ALU instruction (pipethrottle.Pipe), pipethrottle.NumPipes: none
	mpath    uint8 // the memory port's path a load, store or atomic takes (mem.model hier; mpNone: none)

	lat   latClass
	sb    uint8 // scoreboard class of the results
	ctrl  bool  // control flow (branch_resolving after issue)
	srcR  []uint8
	srcP  []uint8
	dstR  []uint8
	dstP  []uint8
	sreg  isa.SReg
	label string // "OP" for messages
	// regTop is one more than the highest register the instruction reads
	// or writes (0: none): the register-bound check against the warp's
	// setmaxnreg count is one compare (regpool.go).
	regTop uint16
}

// decoder builds dinsts for one kernel's register budget.
type decoder struct {
	im     *isa.Image
	nregs  int
	npreds int
}

type decodeErr struct{ kind, msg string }

func (e *decodeErr) Error() string { return e.msg }

func illegal(format string, args ...any) *decodeErr {
	return &decodeErr{"illegal_instruction", fmt.Sprintf(format, args...)}
}

func (dc *decoder) decode(in isa.Inst) dinst {
	d := dinst{in: in, label: in.Op.String()}
	if err := dc.decodeInto(&d); err != nil {
		d.bad, d.kind = err.msg, err.kind
	}
	for _, rs := range [2][]uint8{d.srcR, d.dstR} {
		for _, r := range rs {
			d.regTop = max(d.regTop, uint16(r)+1)
		}
	}
	return d
}

func (dc *decoder) useReg(d *dinst, r uint8, wide bool) *decodeErr {
	n := 1
	if wide {
		n = 2
	}
	if int(r)+n > dc.nregs {
		if wide {
			return illegal("%s uses register pair R%d:R%d, outside the kernel's %d registers", d.label, r, int(r)+1, dc.nregs)
		}
		return illegal("%s uses register R%d, outside the kernel's %d registers", d.label, r, dc.nregs)
	}
	return nil
}

func (dc *decoder) src(d *dinst, o isa.Operand12, t isa.Type) (opnd, *decodeErr) {
	switch o.Kind {
	case isa.KindReg:
		if t == isa.Pred {
			return opnd{}, illegal("%s: register R%d where a predicate is needed", d.label, o.Val)
		}
		if o.Val > 255 {
			return opnd{}, illegal("%s: register %d does not exist", d.label, o.Val)
		}
		r := uint8(o.Val)
		wide := t.Bits() > 32
		if err := dc.useReg(d, r, wide); err != nil {
			return opnd{}, err
		}
		d.srcR = append(d.srcR, r)
		if wide {
			d.srcR = append(d.srcR, r+1)
			return opnd{kind: opReg64, reg: r}, nil
		}
		return opnd{kind: opReg32, reg: r}, nil
	case isa.KindImm:
		v := uint64(int64(int32(d.in.Imm)))
		if t == isa.Pred {
			return opnd{kind: opConst, val: v & 1}, nil
		}
		return opnd{kind: opConst, val: v & typeMask(t)}, nil
	case isa.KindConst:
		if int(o.Val) >= len(dc.im.Consts) {
			return opnd{}, illegal("%s: constant %d outside the constant table", d.label, o.Val)
		}
		v := dc.im.Consts[o.Val]
		if t == isa.Pred {
			return opnd{kind: opConst, val: v & 1}, nil
		}
		return opnd{kind: opConst, val: v & typeMask(t)}, nil
	case isa.KindSpecial:
		switch o.Val >> 8 {
		case isa.SpecialPred:
			p := o.PredIndex()
			if int(p) >= dc.npreds {
				return opnd{}, illegal("%s uses predicate P%d, outside the kernel's %d predicates", d.label, p, dc.npreds)
			}
			d.srcP = append(d.srcP, p)
			return opnd{kind: opPred, reg: p, neg: o.PredNeg()}, nil
		case isa.SpecialZero:
			return opnd{kind: opConst}, nil
		case isa.SpecialFP:
			return opnd{kind: opFP}, nil
		}
	}
	return opnd{}, illegal("%s: bad operand kind %d/%#x", d.label, o.Kind, o.Val)
}

func (dc *decoder) dstReg(d *dinst, r uint8, t isa.Type) (dest, *decodeErr) {
	if t == isa.Pred {
		if int(r) >= dc.npreds {
			return dest{}, illegal("%s writes predicate P%d, outside the kernel's %d predicates", d.label, r, dc.npreds)
		}
		d.dstP = append(d.dstP, r)
		return dest{kind: dPred, reg: r, typ: t}, nil
	}
	wide := t.Bits() > 32
	if err := dc.useReg(d, r, wide); err != nil {
		return dest{}, err
	}
	d.dstR = append(d.dstR, r)
	if wide {
		d.dstR = append(d.dstR, r+1)
		return dest{kind: dReg64, reg: r, typ: t}, nil
	}
	return dest{kind: dReg32, reg: r, typ: t}, nil
}

func (dc *decoder) decodeInto(d *dinst) *decodeErr {
	in := &d.in
	if !in.Op.Valid() {
		return illegal("undefined opcode %#x", uint8(in.Op))
	}
	if in.GuardOn {
		if int(in.Guard) >= dc.npreds {
			return illegal("%s guarded by P%d, outside the kernel's %d predicates", d.label, in.Guard, dc.npreds)
		}
		d.srcP = append(d.srcP, in.Guard)
	}
	d.lat, d.sb = latALU, sbFixed
	var err *decodeErr
	switch in.Op {
	case isa.OpNOP:
		d.cat, d.lat = catNOP, latNone
		return nil
	case isa.OpLD, isa.OpST, isa.OpATOM:
		return dc.decodeMem(d)
	case isa.OpCVTA:
		d.cat = catCVTA
		sp := int(in.Mods & isa.ModSpaceMask)
		if sp != isa.SpaceShared && sp != isa.SpaceLocal {
			return illegal("CVTA of space %s", isa.SpaceName(sp))
		}
		if in.Type.Bits() != 64 {
			return illegal("CVTA.%s: addresses are 64-bit", in.Type)
		}
		d.space = sp
		if d.a, err = dc.src(d, in.A, in.Type); err != nil {
			return err
		}
		d.d1, err = dc.dstReg(d, in.Dst, in.Type)
		return err
	case isa.OpS2R:
		d.cat, d.lat, d.sb = catS2R, latSReg, sbShort
		d.sreg = isa.SReg(in.Imm)
		if !d.sreg.Valid() {
			return illegal("S2R of undefined special register %d", in.Imm)
		}
		if !in.Type.Encodable() || in.Type.Float() {
			return illegal("S2R.%s", in.Type)
		}
		d.d1, err = dc.dstReg(d, in.Dst, in.Type)
		return err
	case isa.OpBRA:
		d.cat, d.lat, d.ctrl = catBRA, latNone, true
		if in.Imm >= uint32(len(dc.im.Code)) {
			return illegal("BRA to pc %d outside the code (%d instructions)", in.Imm, len(dc.im.Code))
		}
		return nil
	case isa.OpBRX:
		d.cat, d.lat, d.ctrl = catBRX, latNone, true
		d.a, err = dc.src(d, in.A, isa.U32)
		return err
	case isa.OpCALL:
		d.cat, d.lat, d.ctrl = catCALL, latNone, true
		if in.Mods&isa.ModCallInd != 0 {
			t := in.Type
			if t.Bits() != 32 && t.Bits() != 64 {
				t = isa.U64
			}
			if in.Imm != 0 {
				first, n := int(in.Imm&0xffff)-1, int(in.Imm>>16)
				if n == 0 || first+n > len(dc.im.BrTables) {
					return illegal("CALL: target list [%d,+%d) outside the %d-entry branch tables", first, n, len(dc.im.BrTables))
				}
				d.targets = dc.im.BrTables[first : first+n : first+n]
			}
			d.a, err = dc.src(d, in.A, t)
			return err
		}
		return nil
	case isa.OpRET:
		d.cat, d.lat, d.ctrl = catRET, latNone, true
		return nil
	case isa.OpEXIT:
		d.cat, d.lat, d.ctrl = catEXIT, latNone, true
		return nil
	case isa.OpBAR:
		d.cat, d.lat = catBAR, latBarrier
		if d.a, err = dc.src(d, in.A, isa.U32); err != nil {
			return err
		}
		if d.b, err = dc.src(d, in.B, isa.U32); err != nil {
			return err
		}
		switch int(in.Mods & isa.ModBarKindMask) {
		case isa.BarSync, isa.BarArrive:
		case isa.BarRed:
			op := int(in.Mods&isa.ModBarRedMask) >> isa.ModBarRedShift
			if op > isa.BarRedOr {
				return illegal("BAR.RED operation %d", op)
			}
			if d.c, err = dc.src(d, in.C, isa.Pred); err != nil {
				return err
			}
			t := isa.U32
			if op != isa.BarRedPopc {
				t = isa.Pred
			}
			d.d1, err = dc.dstReg(d, in.Dst, t)
			return err
		default:
			return illegal("BAR kind %d", in.Mods&isa.ModBarKindMask)
		}
		return nil
	case isa.OpBARWARP:
		d.cat = catBARWARP
		d.a, err = dc.src(d, in.A, isa.B32)
		return err
	case isa.OpMEMBAR:
		d.cat, d.lat = catMEMBAR, latNone
		return nil
	case isa.OpACTIVEMASK:
		d.cat = catACTIVEMASK
		d.d1, err = dc.dstReg(d, in.Dst, isa.B32)
		return err
	case isa.OpBRKPT:
		d.cat, d.lat = catBRKPT, latNone
		return nil
	case isa.OpTRAP:
		d.cat, d.lat = catTRAP, latNone
		return nil
	case isa.OpNANOSLEEP:
		d.cat, d.lat = catNANOSLEEP, latNone
		d.a, err = dc.src(d, in.A, isa.U32)
		return err
	case isa.OpPMEVENT:
		d.cat, d.lat = catPMEVENT, latNone
		return nil
	case isa.OpSETMAXNREG:
		d.cat, d.lat = catSETMAXNREG, latNone
		return nil
	case isa.OpBPT, isa.OpIDE, isa.OpRTT:
		d.cat, d.lat = catTrapUnit, latNone
		d.ctrl = in.Op == isa.OpRTT
		return nil
	case isa.OpSHFL:
		d.cat, d.lat, d.sb = catSHFL, latShared, sbShort
		if in.Type.Bits() != 32 {
			return illegal("SHFL.%s needs a 32-bit type", in.Type)
		}
		if d.a, err = dc.src(d, in.A, in.Type); err != nil {
			return err
		}
		if d.b, err = dc.src(d, in.B, isa.U32); err != nil {
			return err
		}
		if d.c, err = dc.src(d, in.C, isa.U32); err != nil {
			return err
		}
		if in.Mods&isa.ModShflMaskReg != 0 {
			r := uint8(in.Imm)
			if err := dc.useReg(d, r, false); err != nil {
				return err
			}
			d.srcR = append(d.srcR, r)
		}
		if d.d1, err = dc.dstReg(d, in.Dst, in.Type); err != nil {
			return err
		}
		if in.Mods&isa.ModShflPred != 0 {
			d.d2, err = dc.dstReg(d, in.Dst2, isa.Pred)
		}
		return err
	case isa.OpREDUX, isa.OpMATCH, isa.OpELECT:
		return dc.decodeWarpOp(d)
	case isa.OpCPASYNC:
		return dc.decodeCpAsync(d)
	case isa.OpVOTE:
		d.cat = catVOTE
		mode := int(in.Mods&3) >> isa.ModVoteShift
		if d.a, err = dc.src(d, in.A, isa.Pred); err != nil {
			return err
		}
		if d.b, err = dc.src(d, in.B, isa.B32); err != nil {
			return err
		}
		t := isa.Pred
		if mode == 3 {
			t = isa.B32
		}
		d.d1, err = dc.dstReg(d, in.Dst, t)
		return err
	}
	return dc.decodeALU(d)
}
