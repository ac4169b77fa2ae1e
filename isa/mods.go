package isa

import "fmt"

// Modifier-field (Inst.Mods) layouts, per opcode group. docs/isa.md mirrors this file.

// Arithmetic group (ADD SUB MUL MAD DIV REM MIN MAX NEG ABS FMA SQRT RCP CVT).
const (
	ModMulMask  = 0x3 // MUL/MAD: 0 = .lo, 1 = .hi, 2 = .wide
	MulLo       = 0
	MulHi       = 1
	MulWide     = 2
	ModSat      = 1 << 2
	ModRndShift = 3 // 4-bit rounding mode
	ModRndMask  = 0xf << ModRndShift
	ModFtz      = 1 << 7
	// Carry chains (integer ADD SUB MAD of 32 and 64 bits): ModCCOut
	// writes the lane's carry flag CC.CF (.cc: the carry of ADD and MAD,
	// the borrow of SUB); ModCCIn reads it (addc, subc, madc: a + b + CF,
	// a - (b + CF), a*b + c + CF).
	ModCCOut = 1 << 8
	ModCCIn  = 1 << 9
	// Low precision (FMA and CVT): .relu clamps a negative result to +0
	// (NaN stays the canonical NaN); .satfinite clamps an infinite or
	// overflowing result to the largest finite value of its sign.
	ModRelu      = 1 << 10
	ModSatFinite = 1 << 11
	// MIN/MAX of f32 and the half types: .NaN (a NaN operand gives the
	// canonical NaN) and .xorsign.abs (the smaller/larger magnitude, with
	// the XOR of the operands' signs).
	ModMinMaxNaN     = 1 << 10
	ModMinMaxXorsign = 1 << 11
	// CVT forms with more than one source: ModCvtPack converts A and B
	// (f32) into the upper and lower halves of a packed Type (f16x2
	// bf16x2 e4m3x2 e5m2x2); ModCvtPackSat is cvt.pack.sat: A and B (s32)
	// saturated to Type (u8 s8 u16 s16) and packed, with C's low 16 bits
	// above them for the 8-bit types.
	ModCvtPack    = 1 << 12
	ModCvtPackSat = 1 << 13
)

// Rounding modes (ModRnd field).
const (
	RndNone = iota
	RndRN
	RndRZ
	RndRM
	RndRP
	RndRNI
	RndRZI
	RndRMI
	RndRPI
	RndApprox
	RndFull
	RndRNA // round to nearest, ties away from zero (cvt.rna.tf32.f32)
)

var rndNames = [...]string{"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "approx", "full", "rna"}

// RoundingName returns the PTX spelling of a rounding mode ("" for none).
func RoundingName(r int) string { return nameIn(rndNames[:], r, 0, "") }

// ParseRounding maps "rn" etc. to a rounding mode.
func ParseRounding(s string) (int, bool) { return indexIn(rndNames[:], s, 1) }

// SETP: comparison, boolean combination with C, two destinations.
const (
	ModCmpMask   = 0x1f
	ModBoolShift = 5
	ModBoolMask  = 0x3 << ModBoolShift // 0 none, 1 and, 2 or, 3 xor
	ModSetpDst2  = 1 << 7              // "p|q": Dst2 receives the complement
	ModSetpFtz   = 1 << 8              // setp.ftz (flush f32 subnormal inputs)
)

// Comparison operators (SETP).
const (
	CmpEQ = iota
	CmpNE
	CmpLT
	CmpLE
	CmpGT
	CmpGE
	CmpLO
	CmpLS
	CmpHI
	CmpHS
	CmpEQU
	CmpNEU
	CmpLTU
	CmpLEU
	CmpGTU
	CmpGEU
	CmpNUM
	CmpNAN
)

var cmpNames = [...]string{"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}

// CmpName returns the PTX spelling of a comparison.
func CmpName(c int) string { return nameIn(cmpNames[:], c, 0, "cmp?") }

// ParseCmp maps "eq" etc. to a comparison.
func ParseCmp(s string) (int, bool) { return indexIn(cmpNames[:], s, 0) }

// Boolean combinations (SETP, BAR.RED).
const (
	BoolNone = 0
	BoolAnd  = 1
	BoolOr   = 2
	BoolXor  = 3
)

// The mbarrier object (64 bits): bits 0..19 the arrivals still pending
// in the current phase, 20..39 the expected arrivals per phase, 40..60
// the tx-count (21-bit two's complement: expected minus completed
// transaction bytes), bit 63 the parity of the current phase. A phase
// completes when both the pending count and the tx-count are zero.
const (
	MbarCountMask = 1<<20 - 1
	MbarExpShift  = 20
	MbarTxShift   = 40
	MbarTxMask    = 1<<21 - 1
	MbarPhaseBit  = 63
)

// Cache operators of LD (Mods&ModCacheMask>>ModCacheShift): what a load
// of global memory does in the L1 (docs/memory.md, "Cache operators").
// Loads of other spaces and stores ignore them (global stores always
// write through and do not allocate).
const (
	CacheCA        = iota // .ca (the default), .L1::evict_normal, .L1::evict_last: cached in the L1 and the L2
	CacheCG               // .cg, and strong loads (.volatile, .mmio, .relaxed/.acquire above .cta scope): the L2 only, the L1 neither looked up nor allocated
	CacheCS               // .cs, .lu, .L1::evict_first: allocated first in line for eviction, a hit does not promote
	CacheCV               // .cv: the L1's copy of the sectors is dropped and the load fetches them again from the L2
	CacheNoAlloc          // .L1::no_allocate: hits in the L1, a miss does not allocate
	CacheUnchanged        // .L1::evict_unchanged: a hit leaves the line's eviction order
	NumCacheOps
)

var cacheNames = [NumCacheOps]string{"ca", "cg", "cs", "cv", "L1::no_allocate", "L1::evict_unchanged"}

// CacheName is the PTX spelling of cache operator c.
func CacheName(c int) string {
	if c >= 0 && c < NumCacheOps {
		return cacheNames[c]
	}
	return fmt.Sprintf("cache%d", c)
}

// Memory group (LD ST ATOM CVTA).
const (
	ModSpaceMask  = 0x7
	ModVecShift   = 3 // LD/ST: log2 of the vector length (0, 1, 2)
	ModVecMask    = 0x3 << ModVecShift
	ModNC         = 1 << 5 // LD: .nc
	ModVolatile   = 1 << 6 // LD/ST: .volatile / .relaxed / .acquire / .release
	ModLdExt      = 1 << 7 // LD: the destination is a 64-bit register pair; the loaded value (Type <= 32 bits) is sign- or zero-extended by Type
	ModCacheShift = 8      // LD: the L1 cache operator, 3 bits (Cache*)
	ModCacheMask  = 0x7 << ModCacheShift
	ModAtomShift  = 3 // ATOM: 4-bit operation
	ModAtomMask   = 0xf << ModAtomShift
	ModMbarTry    = 1 << 7  // ATOM mbarrier.test_wait(.parity): try_wait, which may suspend the thread
	ModMbarHint   = 1 << 8  // ATOM try_wait: C is the suspendTimeHint in ns (clear: the model's time limit)
	ModMbarTx     = 1 << 9  // ATOM mbarrier arrive/arrive_drop: C is a tx-count added (expect_tx) before the B arrivals (B may be 0)
	ModMbarTxDone = 1 << 10 // with ModMbarTx: C is subtracted instead (complete_tx)
	ModCvtaTo     = 1 << 3  // CVTA: generic -> space ("cvta.to"); clear: space -> generic
)

// State spaces (ModSpace field).
const (
	SpaceGeneric = iota
	SpaceGlobal
	SpaceShared
	SpaceLocal // thread-private memory; addresses are byte offsets in the thread's local memory
	SpaceParam // the kernel's parameter buffer (read-only)
	SpaceConst // the .const bank
	spaceCount
)

var spaceNames = [...]string{"generic", "global", "shared", "local", "param", "const"}

// SpaceName returns the PTX name of a state space.
func SpaceName(s int) string { return nameIn(spaceNames[:], s, 0, "space?") }

// Atomic operations (ATOM).
const (
	AtomAdd = iota
	AtomCAS
	AtomExch
	AtomMin
	AtomMax
	AtomInc
	AtomDec
	AtomAnd
	AtomOr
	AtomXor
	// mbarrier operations on a 64-bit barrier object in shared memory
	// (Type b64; docs/isa.md gives the object's layout): init (B =
	// expected count; 0 = inval), arrive, arrive.noComplete, arrive_drop
	// (B = count, Dst = the state before), test_wait/try_wait (Dst
	// predicate = the phase of state B has completed) and their .parity
	// form (B = the phase parity).
	AtomMbarInit
	AtomMbarArrive
	AtomMbarArriveNC
	AtomMbarDrop
	AtomMbarTest
	AtomMbarTestParity
)

var atomNames = [...]string{"add", "cas", "exch", "min", "max", "inc", "dec", "and", "or", "xor",
	"mbarrier.init", "mbarrier.arrive", "mbarrier.arrive.noComplete", "mbarrier.arrive_drop", "mbarrier.test_wait", "mbarrier.test_wait.parity"}

// AtomName returns the PTX spelling of an atomic operation.
func AtomName(a int) string { return nameIn(atomNames[:], a, 0, "atom?") }

// ParseAtom maps "add" etc. to an atomic operation (not the mbarrier
// ones, which are written as mbarrier instructions).
func ParseAtom(s string) (int, bool) { return indexIn(atomNames[:AtomXor+1], s, 0) }

// MOV: packing and unpacking of vector operands.
const (
	ModMovPack   = 1 << 0 // Dst = {A, B} (two halves of Type)
	ModMovUnpack = 1 << 1 // {Dst, Dst2} = A
)

// Control flow (BRA BRX CALL RET).
const (
	ModUni         = 1 << 0
	ModCallInd     = 1 << 1 // CALL: target in A rather than Imm; Imm: its allowed targets, BrTables[Imm&0xffff-1 : +Imm>>16] (0: any function)
	ModFrameShift  = 2      // CALL: frame advance in 8-byte units, 14 bits
	ModBrxLenShift = 1      // BRX: table length, 15 bits
)

// BAR: kinds, reduction operators.
const (
	ModBarKindMask = 0x3
	BarSync        = 0
	BarArrive      = 1
	BarRed         = 2
	ModBarRedShift = 2 // 0 popc, 1 and, 2 or
	ModBarRedMask  = 0x3 << ModBarRedShift
	BarRedPopc     = 0
	BarRedAnd      = 1
	BarRedOr       = 2
)

// MEMBAR levels.
const (
	MembarCTA = 0
	MembarGL  = 1
	MembarSys = 2
	ModFence  = 1 << 2 // written as fence rather than membar
)

// BPT modes (SASS).
const (
	BPTDrain      = 1
	BPTPause      = 2
	BPTPauseQuiet = 3
	BPTTrap       = 4
	BPTInt        = 5
)

var bptNames = [...]string{"", "DRAIN", "PAUSE", "PAUSE_QUIET", "TRAP", "INT"}

// BPTName returns the SASS spelling of a BPT mode.
func BPTName(m int) string { return nameIn(bptNames[:], m, 1, "BPT?") }

// ParseBPT maps "PAUSE_QUIET" etc. to a BPT mode.
func ParseBPT(s string) (int, bool) { return indexIn(bptNames[:], s, 1) }

// Other single-bit modifiers.
const (
	ModIDEEnable   = 1 << 0 // IDE.EN (clear: IDE.DIS)
	ModSetmaxInc   = 1 << 0 // SETMAXNREG .inc (clear: .dec)
	ModPmeventMask = 1 << 0 // PMEVENT written as pmevent.mask
	ModVoteShift   = 0      // VOTE: 0 all, 1 any, 2 uni, 3 ballot
)

// PRMT modes (Mods bits 0..2).
const (
	PrmtDefault = iota
	PrmtF4E
	PrmtB4E
	PrmtRC8
	PrmtECL
	PrmtECR
	PrmtRC16
)

var prmtNames = [...]string{"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}

// PrmtName returns the PTX spelling of a prmt mode ("" for the default).
func PrmtName(m int) string { return nameIn(prmtNames[:], m, 0, "prmt?") }

// ParsePrmt maps "f4e" etc. to a prmt mode.
func ParsePrmt(s string) (int, bool) { return indexIn(prmtNames[:], s, 1) }

// BFI: the length operand is a register (Dst2) when ModBfiLenReg is set,
// otherwise the Imm field. Its position operand is C.
const ModBfiLenReg = 1 << 0

// SHR: arithmetic shift when Type is signed; SHF-style funnel shifts are not used.

// SHF (funnel shift) modifiers.
const (
	ModShfLeft = 1 << 0 // shf.l (clear: shf.r)
	ModShfWrap = 1 << 1 // .wrap: amount taken mod 32 (clear: .clamp to 32)
)

// BFIND modifiers.
const ModBfindShiftAmt = 1 << 0 // .shiftamt: return 31 - position

// SHFL modes (Mods bits 0..1) and the optional predicate destination.
const (
	ShflUp      = 0
	ShflDown    = 1
	ShflBfly    = 2
	ShflIdx     = 3
	ModShflPred = 1 << 2
	// ModShflMaskReg: the member mask is register Imm&0xff rather than the Imm value.
	ModShflMaskReg = 1 << 3
)

// TESTP properties (Mods bits 0..2).
const (
	TestpFinite = iota
	TestpInfinite
	TestpNumber
	TestpNotANumber
	TestpNormal
	TestpSubnormal
	ModTestpMask = 0x7
)

var testpNames = [...]string{"finite", "infinite", "number", "notanumber", "normal", "subnormal"}

// TestpName returns the PTX spelling of a testp property.
func TestpName(m int) string { return nameIn(testpNames[:], m, 0, "testp?") }

// ParseTestp maps "finite" etc. to a testp property.
func ParseTestp(s string) (int, bool) { return indexIn(testpNames[:], s, 0) }

// REDUX operations (Mods bits 0..2).
const (
	ReduxAdd = iota
	ReduxMin
	ReduxMax
	ReduxAnd
	ReduxOr
	ReduxXor
	ModReduxMask = 0x7
)

var reduxNames = [...]string{"add", "min", "max", "and", "or", "xor"}

// ReduxName returns the PTX spelling of a redux operation.
func ReduxName(m int) string { return nameIn(reduxNames[:], m, 0, "redux?") }

// ParseRedux maps "add" etc. to a redux operation.
func ParseRedux(s string) (int, bool) { return indexIn(reduxNames[:], s, 0) }

// MATCH: .all (clear: .any), and the optional predicate destination Dst2
// of match.all.
const (
	ModMatchAll  = 1 << 0
	ModMatchPred = 1 << 1
)

// CPASYNC: the kind (bits 4..5) and, for a copy, the size (bits 0..1:
// 4, 8 or 16 bytes), .cg (bit 2; else .ca) and whether C holds a
// src-size (bit 3; else the whole size is read). wait_group keeps Imm
// groups pending.
const (
	ModCpAsyncSizeMask = 0x3
	ModCpAsyncCG       = 1 << 2
	ModCpAsyncSrcSize  = 1 << 3
	ModCpAsyncKindSh   = 4
	ModCpAsyncKindMask = 0x3 << ModCpAsyncKindSh
	CpAsyncCopy        = 0
	CpAsyncCommit      = 1
	CpAsyncWaitGroup   = 2
	CpAsyncWaitAll     = 3
	// cp.async.bulk: a copy of C bytes (a multiple of 16) from [B] to
	// [A + Imm], in the direction of the ModCpAsyncDir field; with the
	// commit_group and wait_group kinds, the bulk async-groups.
	ModCpAsyncBulk        = 1 << 6
	ModCpAsyncDirSh       = 7
	ModCpAsyncDirMask     = 0x3 << ModCpAsyncDirSh
	CpAsyncGlobalToShared = 0      // completes on an mbarrier (complete_tx)
	CpAsyncSharedToShared = 1      // completes on an mbarrier (complete_tx)
	CpAsyncSharedToGlobal = 2      // completes with its bulk async-group
	ModCpAsyncSrc32       = 1 << 9 // B is a 32-bit (shared) address
)

// DP2A: .hi takes bytes 2 and 3 of B (clear: .lo, bytes 0 and 1).
const ModDp2aHi = 1 << 0

// BMSK, SZEXT: .wrap (clear: .clamp).
const ModWrap = 1 << 0

// LOP3: the truth table is Imm & LopLUTMask.
const LopLUTMask = 0xff

// nameIn is names[v] for v from from on, else unknown: the spelling of a
// modifier value.
func nameIn(names []string, v, from int, unknown string) string {
	if v >= from && v < len(names) {
		return names[v]
	}
	return unknown
}

// indexIn is the index of s in names from from on: a modifier value from
// its spelling.
func indexIn(names []string, s string, from int) (int, bool) {
	for i := from; i < len(names); i++ {
		if names[i] == s {
			return i, true
		}
	}
	return 0, false
}
