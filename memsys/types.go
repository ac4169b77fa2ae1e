package memsys

import "math/bits"

// Fixed geometry of the memory system (CUDA C++ Best Practices Guide,
// "Coalesced Access to Global Memory": accesses are serviced in 32-byte
// sectors of 128-byte cache lines; compute capability 9.0 L1 and L2 both
// use that geometry).
const (
	// WarpSize is the number of lanes of a warp request.
	WarpSize = 32
	// LineBytes is a cache line (L1 and L2).
	LineBytes = 128
	// SectorBytes is the unit of transfer and of validity.
	SectorBytes = 32
	// SectorsPerLine is LineBytes / SectorBytes.
	SectorsPerLine = LineBytes / SectorBytes
	// FullLine is the sector mask of a whole line.
	FullLine = 1<<SectorsPerLine - 1
)

// Op is the kind of a memory access (req_op_i encoding).
type Op uint8

// The memory operations.
const (
	OpLoad   Op = iota // a load (ld, ldu, ld.const, ld.param)
	OpStore            // a store (st)
	OpAtomic           // an atomic (atom): resolved at the L2, returns the old value
	// OpRed is a reduction (red): an atomic whose old value nobody waits
	// for. Only the Port distinguishes it (for its response and the
	// metrics); the lines it sends below are OpAtomic.
	OpRed
)

func (o Op) String() string {
	switch o {
	case OpLoad:
		return "load"
	case OpStore:
		return "store"
	case OpAtomic:
		return "atomic"
	case OpRed:
		return "red"
	}
	return "op?"
}

// Space is the state space of a warp request (req_space_i encoding).
type Space uint8

// The state spaces the memory system distinguishes.
const (
	SpaceGlobal Space = iota // global (and generic resolving to global)
	SpaceLocal               // local: per-thread stack, cached in L1 like global
	SpaceShared              // shared: the bank model, not the L1 tags
	SpaceConst               // constant banks: the constant cache
	SpaceParam               // kernel parameters: the constant cache, as the constant bank they live in
)

func (s Space) String() string {
	switch s {
	case SpaceGlobal:
		return "global"
	case SpaceLocal:
		return "local"
	case SpaceShared:
		return "shared"
	case SpaceConst:
		return "const"
	case SpaceParam:
		return "param"
	}
	return "space?"
}

// LineAddr is the 128-byte line holding byte address a.
func LineAddr(a uint64) uint64 { return a &^ (LineBytes - 1) }

// SectorOf is the sector index (0..3) of byte address a within its line.
func SectorOf(a uint64) uint { return uint(a%LineBytes) / SectorBytes }

// Sectors is the number of sectors in mask m.
func Sectors(m uint8) int { return bits.OnesCount8(m & FullLine) }

// Req is one line request on a port between the memory-system components
// (coalescer to L1, L1 and constant cache to L2, L2 to DRAM): the sectors
// of one 128-byte line.
type Req struct {
	// ID is the requester's tag, returned unchanged in the response.
	ID uint32
	// Op is the access kind.
	Op Op
	// Addr is the line address (a multiple of LineBytes).
	Addr uint64
	// Sectors is the mask of the line's sectors accessed (bit i: sector i).
	Sectors uint8
	// Lanes is the number of lane operations the request carries (atomics
	// serialise them at the L2); 0 counts as 1.
	Lanes uint8
	// Local marks an access to local memory: the L1 keeps the lines a
	// local store writes (the stack and spills are cached in the L1;
	// global stores do not allocate).
	Local bool
	// Cache is how a load uses the L1 (a global load's cache operator).
	Cache CacheOp
}

// CacheOp is how a global load uses the L1: PTX's cache operators and
// L1 eviction priorities (ld.cg, ld.cs, ld.L1::no_allocate, ...). Its
// values are isa's Cache* encodings.
type CacheOp uint8

// The cache operators.
const (
	// CacheAll (.ca, the default): looked up, allocated on a miss, and
	// every access makes the line the most recently used.
	CacheAll CacheOp = iota
	// CacheGlobal (.cg, and strong loads): served by the L2; the L1 is
	// neither looked up nor allocated (a fill still validates the sectors
	// of a line another load allocated).
	CacheGlobal
	// CacheStream (.cs, .lu, .L1::evict_first): allocated as the set's
	// least recently used line, so it is the next to go; a hit does not
	// promote it.
	CacheStream
	// CacheVolatile (.cv): the L1's copy of the requested sectors is
	// dropped, and the load is served by the L2 as CacheGlobal.
	CacheVolatile
	// CacheNoAllocate (.L1::no_allocate): hits in the L1; a miss does not
	// allocate.
	CacheNoAllocate
	// CacheUnchanged (.L1::evict_unchanged): a hit leaves the line's place
	// in the eviction order; a miss allocates as CacheAll.
	CacheUnchanged
)

// Resp is the response to a Req: a load's data is available, a store or
// an atomic has been performed.
type Resp struct {
	ID      uint32
	Op      Op
	Addr    uint64
	Sectors uint8
}
