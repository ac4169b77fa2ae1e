// Package examples is a library of small CUDA C kernels compiled to PTX by
// clang-16, each with a reference result computed in plain Go.
//
// Every kernel lives in examples/<name>.cu; examples/<name>.ptx is exactly
// what
//
//	clang-16 --cuda-device-only --cuda-gpu-arch=sm_90 -nocudainc -nocudalib \
//	         -S -O2 -x cuda examples/<name>.cu -o examples/<name>.ptx
//
// produces (`make examples` regenerates them; the package test fails if a
// committed .ptx differs). The .cu files include smsim_cuda.h, the few
// CUDA definitions they need, with a quoted #include, so no -I flag is
// needed.
//
// An Example describes one launch (grid, block, cluster, dynamic shared
// memory, buffers and scalar arguments by PTX parameter name) and how to
// judge it: Expect mirrors the CUDA code thread by thread over the whole
// launch and returns the final contents of every buffer; Env supplies the
// values only the machine knows (warp slots, SM id, %envreg, ...). Words a
// reference cannot know exactly (clock samples, words racing with a trap)
// sit in the buffers listed in Loose and are judged by Check instead.
// Verify combines both.
//
// Buffers are arrays of 32-bit little-endian words: a 64-bit value occupies
// two consecutive words (low first), a float its IEEE-754 bits. A simulator
// allocates Words words for each Buffer, fills them with Init (zeros where
// Init is shorter or nil), passes the buffer's address as the 64-bit pointer
// parameter Param, and passes Args as the scalar parameters (a .u32 or .f32
// parameter takes the low 32 bits of its Args value).
package examples

import (
	"embed"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
)

//go:embed *.ptx *.cu smsim_cuda.h
var files embed.FS

// Dim3 is a launch extent or index (x, y, z). In a launch shape a zero
// component counts as 1; a zero Cluster means no explicit cluster.
type Dim3 [3]int

// Count is the number of points in the extent (zero components count as 1).
func (d Dim3) Count() int {
	n := 1
	for _, v := range d {
		if v > 0 {
			n *= v
		}
	}
	return n
}

// norm returns d with zero components replaced by 1.
func (d Dim3) norm() Dim3 {
	for i := range d {
		if d[i] <= 0 {
			d[i] = 1
		}
	}
	return d
}

// Extent is d as a launch extent: zero components count as 1.
func (d Dim3) Extent() [3]uint32 {
	var out [3]uint32
	for i, v := range d.norm() {
		out[i] = uint32(v)
	}
	return out
}

// LaunchShape is the example's grid, block and cluster as launch extents;
// the cluster stays zero when the example names none.
func (e *Example) LaunchShape() (grid, block, cluster [3]uint32) {
	if e.Cluster != (Dim3{}) {
		cluster = e.Cluster.Extent()
	}
	return e.Grid.Extent(), e.Block.Extent(), cluster
}

// Buffer is one global-memory array passed to the kernel by pointer.
type Buffer struct {
	Param string   // PTX parameter name, e.g. "_Z10div_ifelsePjS_S__param_0"
	Name  string   // the parameter's name in the .cu, for messages
	Words int      // size in 32-bit words
	Init  []uint32 // initial contents (optional; missing words are zero)
}

// InitBytes is Init as little-endian bytes (4 a word).
func (b Buffer) InitBytes() []byte {
	out := make([]byte, 4*len(b.Init))
	for i, w := range b.Init {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	return out
}

// Outcomes of a launch.
const (
	Completed  = "completed"  // every thread ran to its end
	Trapped    = "trapped"    // a thread executed trap; the launch aborts
	Breakpoint = "breakpoint" // a thread executed brkpt; execution suspends
)

// Example is one kernel and its launch.
type Example struct {
	Name   string // file stem: <Name>.cu, <Name>.ptx
	Entry  string // mangled .entry name in PTX
	PTX    []byte // clang-16 output, byte for byte
	Source []byte // the .cu (it includes smsim_cuda.h, see Header)

	Grid, Block Dim3
	Cluster     Dim3 // explicit cluster shape; zero: launched without one
	DynamicSmem int  // bytes of dynamic shared memory (extern __shared__)
	StaticSmem  int  // bytes of .shared variables the PTX declares (informative; the test checks it)
	// MaxNReg is the per-thread register budget the launch must give the
	// kernel (the role of ptxas' -maxrregcount / .maxnreg, which clang-16
	// cannot emit); 0 leaves it to the assembler.
	MaxNReg int

	Buffers []Buffer
	Args    map[string]uint64 // scalar parameters by PTX name

	// Features the kernel exercises; each is visible in the PTX (the test
	// checks it): see FeatureNames.
	Features []string

	// Expect computes the final contents of every buffer from the launch,
	// evaluating the kernel's logic per thread in Go. For Loose buffers it
	// returns the values the threads would store (or the initial contents)
	// and Verify does not compare them.
	Expect func(env Env) map[string][]uint32
	// Loose lists the Params of buffers whose words Expect cannot fix
	// (timer samples, counters the ISA leaves undefined, stores racing
	// with a trap or breakpoint). Check, when set, judges them.
	Loose []string
	// Check validates the machine-dependent words (nil when there is
	// nothing to check beyond Expect).
	Check func(env Env, got map[string][]uint32) error
	// Resumed, for Outcome Breakpoint, is the final contents once the host
	// resumes the suspended warps and the launch runs to completion.
	Resumed func(env Env) map[string][]uint32

	Outcome string // Completed, Trapped or Breakpoint

	// TrapHandler, when set, is the .func the launch installs as the SM's
	// trap handler (config trap.handler, smsim run --trap-handler), and
	// OnTrap the host policy for traps (smsim run --on-trap: "abort" or
	// "resume"; empty: abort) under which the launch reaches Outcome.
	TrapHandler string
	OnTrap      string
	Notes       string // one line: what the kernel exercises
}

// FeatureNames lists the Features an Example may claim, each with what the
// PTX must then contain (checked by the package test).
var FeatureNames = map[string]string{
	"divergence":    "a guard-predicated branch (@%p bra), brx.idx, or a (non-.uni) call through a register",
	"loop":          "a backward branch",
	"call":          "a call instruction",
	"recursion":     "a .func that calls itself",
	"indirect-call": "a call through a register with .callprototype or .calltargets",
	"brx.idx":       "brx.idx and a .branchtargets list",
	"exit":          "an exit instruction",
	"barrier":       "bar.sync / barrier.sync",
	"shared":        "a .shared variable accessed with ld/st/atom.shared",
	"local":         "a .local depot (per-thread stack memory)",
	"atomics":       "atom.* instructions",
	"sreg":          "special registers beyond %tid/%ntid/%ctaid/%nctaid",
	"cluster":       "cluster special registers",
	"nanosleep":     "nanosleep.u32",
	"pmevent":       "pmevent / pmevent.mask",
	"trap":          "a trap instruction",
	"brkpt":         "a brkpt instruction",
	"setmaxnreg":    "setmaxnreg.inc / .dec",
	"float":         "f32 arithmetic",
	"int64":         "mul.wide or 64-bit integer arithmetic",
	"bitops":        "popc / clz / brev / bfe / prmt",
}

// Env is what the reference needs to know about the machine that ran the
// launch. Zero values are fine except where noted.
type Env struct {
	SMID, NSMID uint32 // %smid, %nsmid
	NWarpID     uint32 // %nwarpid (warp slots per SM; 64 on sm_90)
	GridID      uint64 // %gridid
	EnvReg      [32]uint32
	// WarpID gives the hardware warp slot (%warpid) of warp warpInCTA of
	// the CTA with linear index cta (x fastest). nil: the slots are
	// assigned in launch order, cta*warpsPerCTA+warpInCTA (mod NWarpID when
	// NWarpID is set).
	WarpID func(cta, warpInCTA int) uint32
	// SmemAllocUnit is the shared-memory allocation unit (128 bytes on
	// sm_90, seed 003); %total_smem_size is the CTA's static plus dynamic
	// shared memory rounded up to it. 0 means 128.
	SmemAllocUnit int
	// The reserved shared-memory region (%reserved_smem_offset_*).
	// %aggr_smem_size is %total_smem_size plus ReservedSmemCap.
	ReservedSmemBegin, ReservedSmemEnd, ReservedSmemCap uint32
	ReservedSmemOffset                                  [2]uint32
	CurrentGraphExec                                    uint64 // %current_graph_exec (0 outside a CUDA graph)
}

// DefaultEnv is a plausible single-SM sm_90 environment.
func DefaultEnv() Env {
	return Env{NSMID: 1, NWarpID: 64, GridID: 1, SmemAllocUnit: 128}
}

func (env Env) warpID(cta, w, warpsPerCTA int) uint32 {
	if env.WarpID != nil {
		return env.WarpID(cta, w)
	}
	v := uint32(cta*warpsPerCTA + w)
	if env.NWarpID != 0 {
		v %= env.NWarpID
	}
	return v
}

func (env Env) allocUnit() int {
	if env.SmemAllocUnit <= 0 {
		return 128
	}
	return env.SmemAllocUnit
}

// Thread is one thread of a launch, as the references iterate over them.
type Thread struct {
	CTA    int  // linear CTA index: ctaid.x + nctaid.x*(ctaid.y + nctaid.y*ctaid.z)
	CtaID  Dim3 // %ctaid
	Tid    Dim3 // %tid
	Linear int  // linear thread index in the CTA, x fastest
	Global int  // CTA*threadsPerCTA + Linear (= ctaid.x*ntid.x+tid.x in 1-D launches)
	Lane   int  // Linear % 32
	Warp   int  // Linear / 32
}

// Threads lists every thread of the launch, CTA by CTA.
func (e *Example) Threads() []Thread {
	g, b := e.Grid.norm(), e.Block.norm()
	per := b.Count()
	var ts []Thread
	for cz := 0; cz < g[2]; cz++ {
		for cy := 0; cy < g[1]; cy++ {
			for cx := 0; cx < g[0]; cx++ {
				cta := cx + g[0]*(cy+g[1]*cz)
				for tz := 0; tz < b[2]; tz++ {
					for ty := 0; ty < b[1]; ty++ {
						for tx := 0; tx < b[0]; tx++ {
							lin := tx + b[0]*(ty+b[1]*tz)
							ts = append(ts, Thread{
								CTA: cta, CtaID: Dim3{cx, cy, cz}, Tid: Dim3{tx, ty, tz},
								Linear: lin, Global: cta*per + lin, Lane: lin % 32, Warp: lin / 32,
							})
						}
					}
				}
			}
		}
	}
	return ts
}

// WarpsPerCTA is the number of warps of one CTA.
func (e *Example) WarpsPerCTA() int { return (e.Block.Count() + 31) / 32 }

// Buffer returns the buffer with the given PTX parameter name or C name.
func (e *Example) Buffer(name string) (Buffer, bool) {
	for _, b := range e.Buffers {
		if b.Param == name || b.Name == name {
			return b, true
		}
	}
	return Buffer{}, false
}

// Initial returns every buffer's initial contents (a fresh copy).
func (e *Example) Initial() map[string][]uint32 {
	m := make(map[string][]uint32, len(e.Buffers))
	for _, b := range e.Buffers {
		w := make([]uint32, b.Words)
		copy(w, b.Init)
		m[b.Param] = w
	}
	return m
}

// isLoose reports whether the buffer param is in Loose.
func (e *Example) isLoose(param string) bool {
	for _, l := range e.Loose {
		if l == param {
			return true
		}
	}
	return false
}

// Verify compares got (final buffer contents by Param) with Expect, word by
// word, except for Loose buffers, then runs Check. It reports at most a few
// mismatches per buffer.
func (e *Example) Verify(env Env, got map[string][]uint32) error {
	return e.verify(env, got, e.Expect)
}

// VerifyResumed is Verify against Resumed (for Breakpoint examples whose
// suspended warps the host resumed to completion).
func (e *Example) VerifyResumed(env Env, got map[string][]uint32) error {
	if e.Resumed == nil {
		return fmt.Errorf("%s: no Resumed reference", e.Name)
	}
	return e.verify(env, got, e.Resumed)
}

func (e *Example) verify(env Env, got map[string][]uint32, ref func(Env) map[string][]uint32) error {
	want := ref(env)
	var errs []string
	for _, b := range e.Buffers {
		g, ok := got[b.Param]
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: missing", b.Name))
			continue
		}
		if len(g) != b.Words {
			errs = append(errs, fmt.Sprintf("%s: %d words, want %d", b.Name, len(g), b.Words))
			continue
		}
		if e.isLoose(b.Param) {
			continue
		}
		w := want[b.Param]
		n := 0
		for i := range w {
			if g[i] != w[i] {
				if n < 4 {
					errs = append(errs, fmt.Sprintf("%s[%d] = %#x, want %#x", b.Name, i, g[i], w[i]))
				}
				n++
			}
		}
		if n > 4 {
			errs = append(errs, fmt.Sprintf("%s: %d more mismatches", b.Name, n-4))
		}
	}
	if len(errs) == 0 && e.Check != nil {
		if err := e.Check(env, got); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s: %s", e.Name, strings.Join(errs, "; "))
	}
	return nil
}

// Header returns smsim_cuda.h, which every .cu includes.
func Header() []byte {
	b, err := files.ReadFile("smsim_cuda.h")
	if err != nil {
		panic(err)
	}
	return b
}

var registry = func() []*Example {
	var all []*Example
	for name := range constructors {
		all = append(all, build(name))
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}()

// All returns every example, sorted by name. The Examples are shared: do
// not modify them.
func All() []*Example { return append([]*Example(nil), registry...) }

// ByName returns the example with the given name.
func ByName(name string) (*Example, bool) {
	for _, e := range registry {
		if e.Name == name {
			return e, true
		}
	}
	return nil, false
}

// Demo is the kernel `make demo` shows: divergence, calls and the warp
// scheduler at work on a per-lane Collatz count.
func Demo() *Example { e, _ := ByName("demo_collatz"); return e }

// Benchmark is the 48-warp integer loop kernel; Benchmark().WithArgs(
// map[string]uint64{BenchIters: n}) changes its trip count.
func Benchmark() *Example { e, _ := ByName("bench_intloop"); return e }

// BenchIters is the Args key of Benchmark's iteration count.
const BenchIters = "_Z13bench_intloopPjj_param_1"

// WithArgs returns a fresh copy of the example whose scalar arguments are
// its own overridden by args; its Expect and Check use the new values.
func (e *Example) WithArgs(args map[string]uint64) *Example {
	c := build(e.Name)
	for k, v := range args {
		c.Args[k] = v
	}
	return c
}

// build constructs the named example afresh.
func build(name string) *Example {
	mk, ok := constructors[name]
	if !ok {
		panic("examples: no example " + name)
	}
	e := mk()
	if e.Name != name {
		panic("examples: constructor for " + name + " builds " + e.Name)
	}
	var err error
	if e.PTX, err = files.ReadFile(e.Name + ".ptx"); err != nil {
		panic(err)
	}
	if e.Source, err = files.ReadFile(e.Name + ".cu"); err != nil {
		panic(err)
	}
	if e.Outcome == "" {
		e.Outcome = Completed
	}
	if e.Args == nil {
		e.Args = map[string]uint64{}
	}
	return e
}

// param is the PTX name of an entry's n-th parameter.
func param(entry string, n int) string { return fmt.Sprintf("%s_param_%d", entry, n) }

// Small helpers for the references.

func put64(w []uint32, i int, v uint64) { w[i], w[i+1] = uint32(v), uint32(v>>32) }

func get64(w []uint32, i int) uint64 { return uint64(w[i]) | uint64(w[i+1])<<32 }

// hash is the pseudo-random generator the examples' input buffers use.
func hash(i uint32) uint32 {
	x := i*0x9e3779b9 + 0x7f4a7c15
	x ^= x >> 16
	x *= 0x85ebca6b
	x ^= x >> 13
	x *= 0xc2b2ae35
	x ^= x >> 16
	return x
}

func hashes(n int, f func(i int, h uint32) uint32) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = f(i, hash(uint32(i)))
	}
	return w
}
