package isa

import (
	"encoding/binary"
	"fmt"
)

// Opcode is the 8-bit machine opcode. docs/isa.md lists each one with its
// operand use and modifier bits.
type Opcode uint8

const (
	OpNOP Opcode = iota
	OpMOV        // Dst = A; Mods&MovPack: Dst(64) = {A,B}; Mods&MovUnpack: {Dst,Dst2} = A(64)
	OpADD
	OpSUB
	OpMUL // Mods MulMode: lo/hi/wide
	OpMAD // Dst = A*B + C, MulMode
	OpDIV
	OpREM
	OpMIN
	OpMAX
	OpNEG
	OpABS
	OpAND
	OpOR
	OpXOR
	OpNOT
	OpSHL
	OpSHR
	OpSETP // Dst (pred) [, Dst2 pred] = cmp(A, B) boolop C
	OpSELP // Dst = C ? A : B
	OpCVT  // Dst(Type) = A(Type2)
	OpPOPC
	OpCLZ
	OpBREV
	OpBFE  // Dst = bfe(A, pos B, len C)
	OpBFI  // Dst = bfi(insert A, into B, pos C, len Imm / const)
	OpPRMT // Dst = prmt(A, B, selector C)
	OpFMA  // Dst = A*B + C (float)
	OpLD   // Dst.. = [A + Imm] in space
	OpST   // [A + Imm] = B (and vector elements: B, C, Dst, Dst2)
	OpATOM // Dst = atom(op, [A + Imm], B [, C])
	OpCVTA // address conversion between a window and generic
	OpS2R  // Dst = special register Imm
	OpBRA  // PC = Imm
	OpBRX  // PC = table[Imm + A]; Mods: table length
	OpCALL // direct: PC = Imm; indirect: PC = A; Mods: frame advance
	OpRET
	OpEXIT
	OpBAR     // barrier: Mods BarKind; A = id, B = thread count (RZ: all)
	OpBARWARP // bar.warp.sync A (member mask)
	OpMEMBAR
	OpACTIVEMASK
	OpBRKPT
	OpNANOSLEEP // A = t (ns)
	OpPMEVENT   // Imm = mask of events
	OpTRAP
	OpSETMAXNREG // Imm = count; Mods bit 0: 1 = inc, 0 = dec
	OpBPT        // Mods BPTMode; Imm = reason (for TRAP)
	OpIDE        // Mods bit 0: 1 = EN, 0 = DIS
	OpRTT
	OpSQRT // float sqrt/rcp approximations nvcc emits for division
	OpRCP
	OpSHFL  // shfl.sync: Dst = A from lane per mode (Mods ShflMode), B = lane/offset, C = clamp, Imm = member mask; Dst2 = in-range predicate when ModShflPred
	OpVOTE  // vote.sync: Mods VoteMode; A = predicate, B = member mask
	OpSHF   // funnel shift: Dst = shf(A = low word, B = high word, C = amount); Mods ShfLeft|ShfWrap
	OpSAD   // Dst = |A - B| + C
	OpBFIND // Dst = position of the most significant non-sign bit of A; Mods ModBfindShiftAmt
	// Transcendental approximations (the MUFU unit): Dst = f(A); Mods rounding (.approx) and ftz.
	OpEX2
	OpLG2
	OpSIN
	OpCOS
	OpRSQRT
	OpTANH
	OpCOPYSIGN // Dst = |B| with the sign of A
	OpTESTP    // Dst (pred) = property Mods&ModTestpMask of A
	OpMUL24    // Dst = 24x24-bit product of A and B, .lo (bits 31..0) or .hi (bits 47..16); MulMode
	OpMAD24    // Dst = MUL24(A, B) + C; MulMode, ModSat (.hi.sat.s32)
	OpDP4A     // Dst = C + dot of the four bytes of A (Type) and B (Type2)
	OpDP2A     // Dst = C + dot of the two halves of A (Type) and two bytes of B (Type2); ModDp2aHi
	OpBMSK     // Dst = mask of width B from bit A; ModWrap (clear: .clamp)
	OpSZEXT    // Dst = A's low B bits sign- (s32) or zero-extended (u32); ModWrap
	OpFNS      // Dst = position of the C-th set bit of A from bit B
	OpLOP3     // Dst = LUT(A, B, C); Imm bits 0..7 = the truth table
	OpREDUX    // redux.sync: Dst = reduction (Mods ReduxOp) of A over the member mask B
	OpMATCH    // match.sync: Dst = lanes of member mask B whose A equals (.any) or all equal (.all); Dst2 pred with ModMatchPred
	OpELECT    // elect.sync: Dst = lane of the leader among member mask A, Dst2 (pred) = this lane is it
	OpCPASYNC  // cp.async: Mods CpAsyncKind; copy: shared [A + Imm] = global [B], size Mods, src-size C
	opcodeCount
)

var opcodeNames = [...]string{
	OpNOP: "NOP", OpMOV: "MOV", OpADD: "ADD", OpSUB: "SUB", OpMUL: "MUL", OpMAD: "MAD",
	OpDIV: "DIV", OpREM: "REM", OpMIN: "MIN", OpMAX: "MAX", OpNEG: "NEG", OpABS: "ABS",
	OpAND: "AND", OpOR: "OR", OpXOR: "XOR", OpNOT: "NOT", OpSHL: "SHL", OpSHR: "SHR",
	OpSETP: "SETP", OpSELP: "SELP", OpCVT: "CVT", OpPOPC: "POPC", OpCLZ: "CLZ",
	OpBREV: "BREV", OpBFE: "BFE", OpBFI: "BFI", OpPRMT: "PRMT", OpFMA: "FMA",
	OpLD: "LD", OpST: "ST", OpATOM: "ATOM", OpCVTA: "CVTA", OpS2R: "S2R",
	OpBRA: "BRA", OpBRX: "BRX", OpCALL: "CALL", OpRET: "RET", OpEXIT: "EXIT",
	OpBAR: "BAR", OpBARWARP: "BARWARP", OpMEMBAR: "MEMBAR", OpACTIVEMASK: "ACTIVEMASK",
	OpBRKPT: "BRKPT", OpNANOSLEEP: "NANOSLEEP", OpPMEVENT: "PMEVENT", OpTRAP: "TRAP",
	OpSETMAXNREG: "SETMAXNREG", OpBPT: "BPT", OpIDE: "IDE", OpRTT: "RTT",
	OpSQRT: "SQRT", OpRCP: "RCP", OpSHFL: "SHFL", OpVOTE: "VOTE",
	OpSHF: "SHF", OpSAD: "SAD", OpBFIND: "BFIND",
	OpEX2: "EX2", OpLG2: "LG2", OpSIN: "SIN", OpCOS: "COS", OpRSQRT: "RSQRT", OpTANH: "TANH",
	OpCOPYSIGN: "COPYSIGN", OpTESTP: "TESTP",
	OpMUL24: "MUL24", OpMAD24: "MAD24", OpDP4A: "DP4A", OpDP2A: "DP2A", OpBMSK: "BMSK",
	OpSZEXT: "SZEXT", OpFNS: "FNS", OpLOP3: "LOP3",
	OpREDUX: "REDUX", OpMATCH: "MATCH", OpELECT: "ELECT", OpCPASYNC: "CPASYNC",
}

func (o Opcode) String() string { return enumName(opcodeNames[:], uint8(o), "OP%d") }

// ParseOpcode maps a mnemonic ("ADD") to its opcode.
func ParseOpcode(s string) (Opcode, bool) {
	i, ok := indexIn(opcodeNames[:], s, 0)
	return Opcode(i), ok
}

// Valid reports whether o is a defined opcode.
func (o Opcode) Valid() bool { return o < opcodeCount }

// OperandKind is the 2-bit kind of a source operand slot.
type OperandKind uint8

const (
	KindReg     OperandKind = iota // Val = register index (64-bit values: the pair Val, Val+1)
	KindImm                        // the instruction's 32-bit Imm field (sign- or zero-extended by type)
	KindConst                      // Val = index into the image's 64-bit constant table
	KindSpecial                    // Val>>8 = class (Special*), Val&0xff = index
)

// Special operand classes (KindSpecial, Val>>8).
const (
	SpecialPred = 0 // predicate register Val&0x3f; bit 6 = negate
	SpecialZero = 1 // RZ: reads as zero; also marks an unused slot
	SpecialFP   = 2 // the warp's frame pointer (local-memory byte offset of the current frame)
)

// Operand is one 12-bit source operand slot.
type Operand12 struct {
	Kind OperandKind
	Val  uint16 // 10 bits
}

// Convenience constructors for operand slots.
func RegOp(r uint8) Operand12 { return Operand12{KindReg, uint16(r)} }
func ImmOp() Operand12        { return Operand12{KindImm, 0} }
func ConstOp(i int) Operand12 { return Operand12{KindConst, uint16(i)} }
func PredOp(p uint8, neg bool) Operand12 {
	v := uint16(p & 0x3f)
	if neg {
		v |= 0x40
	}
	return Operand12{KindSpecial, SpecialPred<<8 | v}
}
func ZeroOp() Operand12 { return Operand12{KindSpecial, SpecialZero << 8} }
func FPOp() Operand12   { return Operand12{KindSpecial, SpecialFP << 8} }

// IsZero reports the RZ / unused slot.
func (o Operand12) IsZero() bool { return o.Kind == KindSpecial && o.Val>>8 == SpecialZero }

// IsPred reports a predicate operand; PredIndex and PredNeg decode it.
func (o Operand12) IsPred() bool     { return o.Kind == KindSpecial && o.Val>>8 == SpecialPred }
func (o Operand12) PredIndex() uint8 { return uint8(o.Val & 0x3f) }
func (o Operand12) PredNeg() bool    { return o.Val&0x40 != 0 }
func (o Operand12) IsFP() bool       { return o.Kind == KindSpecial && o.Val>>8 == SpecialFP }

func (o Operand12) bits() uint64 { return uint64(o.Kind&3)<<10 | uint64(o.Val&0x3ff) }
func operandFromBits(b uint64) Operand12 {
	return Operand12{Kind: OperandKind(b >> 10 & 3), Val: uint16(b & 0x3ff)}
}

// Inst is one decoded 128-bit machine instruction. The field layout
// (bit ranges within the little-endian 128-bit word) is:
//
//	 0..7    Op
//	 8..11   Type      (destination / operation type), bits 3..0
//	12..15   Type2     (source type for CVT; unused elsewhere), bits 3..0
//	16       GuardOn   (instruction is predicated)
//	17       GuardNeg  (@!p)
//	18..23   Guard     (predicate register 0..63)
//	24..39   Mods      (opcode-specific modifier bits)
//	40..47   Dst
//	48..55   Dst2
//	56..67   A         (2-bit kind, 10-bit value)
//	68..79   B
//	80..91   C
//	92       Type bit 4 (the low-precision types f16x2 bf16 bf16x2 e4m3 e5m2)
//	93       Type2 bit 4
//	94..95   reserved, zero
//	96..127  Imm
type Inst struct {
	Op       Opcode
	Type     Type
	Type2    Type
	GuardOn  bool
	GuardNeg bool
	Guard    uint8
	Mods     uint16
	Dst      uint8
	Dst2     uint8
	A, B, C  Operand12
	Imm      uint32
}

// InstBytes is the size of one encoded instruction.
const InstBytes = 16

// Encode packs the instruction into 16 little-endian bytes.
func (in Inst) Encode() [InstBytes]byte {
	var lo, hi uint64
	lo |= uint64(in.Op)
	lo |= uint64(in.Type&0xf) << 8
	lo |= uint64(in.Type2&0xf) << 12
	if in.GuardOn {
		lo |= 1 << 16
	}
	if in.GuardNeg {
		lo |= 1 << 17
	}
	lo |= uint64(in.Guard&0x3f) << 18
	lo |= uint64(in.Mods) << 24
	lo |= uint64(in.Dst) << 40
	lo |= uint64(in.Dst2) << 48
	a := in.A.bits()
	lo |= (a & 0xff) << 56
	hi |= a >> 8
	hi |= in.B.bits() << (68 - 64)
	hi |= in.C.bits() << (80 - 64)
	hi |= uint64(in.Type>>4&1) << (92 - 64)
	hi |= uint64(in.Type2>>4&1) << (93 - 64)
	hi |= uint64(in.Imm) << 32
	var out [InstBytes]byte
	binary.LittleEndian.PutUint64(out[0:], lo)
	binary.LittleEndian.PutUint64(out[8:], hi)
	return out
}

// Decode unpacks 16 bytes. It rejects undefined opcodes, type codes and
// set reserved bits (an ILLEGAL_INSTR_ENCODING in the machine).
func Decode(b []byte) (Inst, error) {
	if len(b) < InstBytes {
		return Inst{}, fmt.Errorf("short instruction: %d bytes", len(b))
	}
	lo := binary.LittleEndian.Uint64(b[0:])
	hi := binary.LittleEndian.Uint64(b[8:])
	in := Inst{
		Op:       Opcode(lo & 0xff),
		Type:     Type(lo>>8&0xf | hi>>(92-64)&1<<4),
		Type2:    Type(lo>>12&0xf | hi>>(93-64)&1<<4),
		GuardOn:  lo>>16&1 != 0,
		GuardNeg: lo>>17&1 != 0,
		Guard:    uint8(lo >> 18 & 0x3f),
		Mods:     uint16(lo >> 24),
		Dst:      uint8(lo >> 40),
		Dst2:     uint8(lo >> 48),
		A:        operandFromBits(lo>>56 | (hi&0xf)<<8),
		B:        operandFromBits(hi >> 4 & 0xfff),
		C:        operandFromBits(hi >> 16 & 0xfff),
		Imm:      uint32(hi >> 32),
	}
	if !in.Op.Valid() {
		return in, fmt.Errorf("undefined opcode %#x", uint8(in.Op))
	}
	if hi>>30&3 != 0 {
		return in, fmt.Errorf("reserved bits 94..95 set")
	}
	if !in.Type.Encodable() || !in.Type2.Encodable() {
		return in, fmt.Errorf("undefined type code")
	}
	return in, nil
}

// Arity is the number of source operand slots (A, B, C) the opcode reads as
// values; slots past it are unused. Memory, control-flow and special
// opcodes document their own slot use.
func (o Opcode) Arity(mods uint16) int {
	switch o {
	case OpMOV:
		if mods&ModMovPack != 0 {
			return 2
		}
		return 1
	case OpCVT:
		switch {
		case mods&ModCvtPackSat != 0:
			return 3
		case mods&ModCvtPack != 0:
			return 2
		}
		return 1
	case OpNEG, OpABS, OpNOT, OpPOPC, OpCLZ, OpBREV, OpSQRT, OpRCP, OpBFIND, OpCVTA, OpNANOSLEEP, OpBARWARP,
		OpEX2, OpLG2, OpSIN, OpCOS, OpRSQRT, OpTANH, OpTESTP, OpELECT:
		return 1
	case OpADD, OpSUB, OpMUL, OpDIV, OpREM, OpMIN, OpMAX, OpAND, OpOR, OpXOR, OpSHL, OpSHR, OpVOTE, OpCOPYSIGN,
		OpMUL24, OpBMSK, OpSZEXT, OpREDUX, OpMATCH:
		return 2
	case OpSETP:
		if mods&ModBoolMask != 0 {
			return 3
		}
		return 2
	case OpMAD, OpFMA, OpSELP, OpBFE, OpBFI, OpPRMT, OpSHF, OpSAD, OpSHFL,
		OpMAD24, OpDP4A, OpDP2A, OpFNS, OpLOP3:
		return 3
	}
	return 0
}
