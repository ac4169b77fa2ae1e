package config

import (
	"embed"
	"fmt"
	"strings"
)

// Config is everything a run of the SM model is parameterised by. It is a
// plain value: copy it freely, compare it with ==. Build one with Default or
// Preset, override it with Load (a YAML file) and Set ("key=value"), then
// call Validate once all overrides are in.
//
// Every leaf field is addressed by the dotted path of its yaml tags
// ("sched.count", "env.regs.5"); the struct tags are the single source of
// each key's name, unit, range and one-line documentation, which Set, Get,
// Keys, Info, Dump and Validate all read by reflection. Adding a key is
// adding one tagged field (and its value in the presets).
//
// Tags: yaml (the key segment), doc (one line), unit, min/max (inclusive
// range of an integer), enum (accepted strings, "|"-separated), fixed (the
// only accepted value), check (a named parser for a string: "ident",
// "pmcounter").
type Config struct {
	Clock   Clock   `yaml:"clock" doc:"SM clock and cycle counter"`
	Timer   Timer   `yaml:"timer" doc:"global nanosecond timer (%globaltimer)"`
	Sched   Sched   `yaml:"sched" doc:"warp schedulers"`
	SM      SM      `yaml:"sm" doc:"SM identity, resident limits and storage sizes"`
	Lat     Lat     `yaml:"lat" doc:"execution latencies, issue to result available"`
	Mem     Mem     `yaml:"mem" doc:"memory pipeline widths"`
	Pipe    Pipe    `yaml:"pipe" doc:"execution-pipe throughputs, results per clock per SM (package pipethrottle; enforced when pipe.throttle is true)"`
	L1      L1      `yaml:"l1" doc:"L1 data cache, unified with shared memory (package memsys; used when mem.model is hier)"`
	Smem    Smem    `yaml:"smem" doc:"shared-memory banks (package memsys; used when mem.model is hier)"`
	L2      L2      `yaml:"l2" doc:"this SM's view of the L2 cache (package memsys; used when mem.model is hier)"`
	DRAM    DRAM    `yaml:"dram" doc:"device memory behind the L2 (package memsys; used when mem.model is hier)"`
	Const   Const   `yaml:"const_cache" doc:"constant cache of constant-bank and kernel-parameter loads, hit latency lat.param (package memsys; used when mem.model is hier)"`
	Grid    Grid    `yaml:"grid" doc:"the launched grid"`
	Env     Env     `yaml:"env" doc:"driver-defined environment registers"`
	Graph   Graph   `yaml:"graph" doc:"CUDA device graph"`
	Trap    Trap    `yaml:"trap" doc:"SM trap handler"`
	RegPool RegPool `yaml:"regpool" doc:"per-CTA register pool (setmaxnreg)"`
	Sleep   Sleep   `yaml:"sleep" doc:"nanosleep"`
	PM      PM      `yaml:"pm" doc:"performance-monitor counters %pm0..%pm7"`
	Run     Run     `yaml:"run" doc:"run control"`
}

// Clock is the SM clock domain.
type Clock struct {
	MHz   int    `yaml:"mhz" unit:"MHz" min:"1" max:"100000" doc:"SM clock frequency; converts cycles to nanoseconds for %globaltimer and nanosleep"`
	Start uint64 `yaml:"start" unit:"cycles" doc:"value of the cycle counter %clock64 at reset (set near 2^32 to exercise %clock wrap-around)"`
}

// Timer is the global nanosecond timer.
//
// %globaltimer is derived from the cycle count and clock.mhz, then rounded
// down to a multiple of timer.resolution_ns. The default of 32 ns follows
// what is observed on recent NVIDIA GPUs, where %globaltimer advances in
// steps of roughly 32 ns rather than every nanosecond (older parts update
// it far more coarsely, about once a microsecond). The behaviour is
// target-specific (PTX ISA, "Special Registers: %globaltimer"), so the step
// is configurable: set 1 for an ideal nanosecond timer, or the value
// measured on the part being matched.
type Timer struct {
	ResolutionNs uint64 `yaml:"resolution_ns" unit:"ns" min:"1" max:"1000000000" doc:"update granularity of %globaltimer (about 32 ns on recent NVIDIA GPUs; 1 = ideal)"`
	StartNs      uint64 `yaml:"start_ns" unit:"ns" doc:"value of %globaltimer at reset"`
}

// SchedPolicy is a warp-scheduling policy (sched.policy).
type SchedPolicy string

// The warp-scheduling policies.
const (
	PolicyLRR      SchedPolicy = "lrr"       // loose round-robin
	PolicyGTO      SchedPolicy = "gto"       // greedy-then-oldest
	PolicyTwoLevel SchedPolicy = "two_level" // two-level: small active set, round-robin within it
)

// Sched configures the warp schedulers (one per SM sub-partition).
type Sched struct {
	Policy         SchedPolicy `yaml:"policy" enum:"lrr|gto|two_level" doc:"warp scheduling policy: lrr loose round-robin, gto greedy-then-oldest, two_level active/pending sets"`
	Count          int         `yaml:"count" unit:"schedulers" min:"1" max:"8" doc:"warp schedulers (sub-partitions) per SM; sm.max_warps must be a multiple of it"`
	TwoLevelActive int         `yaml:"two_level_active" unit:"warps" min:"1" max:"1024" doc:"active-set size of each scheduler under two_level (at most sm.max_warps / sched.count)"`
}

// SM is the identity, the resident-resource limits and the storage sizes of
// the modelled SM.
type SM struct {
	ID                int    `yaml:"id" min:"0" max:"65535" doc:"this SM's identifier, read by %smid (below sm.count)"`
	Count             int    `yaml:"count" unit:"SMs" min:"1" max:"65536" doc:"number of SM identifiers in the GPU, read by %nsmid"`
	WarpSize          int    `yaml:"warp_size" unit:"threads" fixed:"32" doc:"threads per warp (PTX WARP_SZ); fixed at 32"`
	MaxWarps          int    `yaml:"max_warps" unit:"warps" min:"1" max:"1024" doc:"resident warps per SM; also %nwarpid"`
	MaxCTAs           int    `yaml:"max_ctas" unit:"CTAs" min:"1" max:"1024" doc:"resident CTAs per SM"`
	MaxThreadsPerCTA  int    `yaml:"max_threads_per_cta" unit:"threads" min:"1" max:"1024" doc:"threads per CTA (%ntid.x*%ntid.y*%ntid.z); PTX allows 1024 on sm_9x"`
	Regfile           int    `yaml:"regfile" unit:"32-bit registers" min:"256" max:"1048576" doc:"register file per SM"`
	RegAllocUnit      int    `yaml:"reg_alloc_unit" unit:"registers" min:"32" max:"65536" doc:"register allocation granularity per warp"`
	MaxRegsPerThread  int    `yaml:"max_regs_per_thread" unit:"registers" min:"1" max:"256" doc:"registers a thread may own at launch"`
	SmemBytes         int    `yaml:"smem_bytes" unit:"bytes" min:"0" max:"16777216" doc:"shared memory per SM, including the system-reserved part"`
	SmemAllocUnit     int    `yaml:"smem_alloc_unit" unit:"bytes" min:"1" max:"65536" doc:"shared memory allocation unit (PTX %total_smem_size table: 128 on sm_8x/sm_9x)"`
	ReservedSmemBytes int    `yaml:"reserved_smem_bytes" unit:"bytes" min:"0" max:"1048576" doc:"shared memory reserved for NVIDIA system software per CTA (%reserved_smem_offset_cap)"`
	MaxSmemPerCTA     int    `yaml:"max_smem_per_cta" unit:"bytes" min:"0" max:"16777216" doc:"user shared memory one CTA may allocate (static + dynamic, excluding the reserved part)"`
	LocalBytes        int    `yaml:"local_bytes" unit:"bytes" min:"0" max:"524288" doc:"local memory (stack) per thread"`
	MaxPreds          int    `yaml:"max_preds" unit:"predicates" min:"1" max:"1024" doc:"predicate registers per thread"`
	GlobalBytes       uint64 `yaml:"global_bytes" unit:"bytes" min:"1048576" max:"17179869184" doc:"size of the modelled flat global memory"`
}

// Lat holds execution latencies in cycles: from issue until a dependent
// instruction may issue. Sources of the H100 values are given in h100().
type Lat struct {
	ALU     int `yaml:"alu" unit:"cycles" min:"1" max:"100000" doc:"integer add, logic, shift, compare, select, move"`
	Mul     int `yaml:"mul" unit:"cycles" min:"1" max:"100000" doc:"integer multiply and multiply-add"`
	Div     int `yaml:"div" unit:"cycles" min:"1" max:"100000" doc:"integer divide and remainder"`
	FP      int `yaml:"fp" unit:"cycles" min:"1" max:"100000" doc:"FP32/FP16 add, multiply, fma, compare, convert"`
	FP64    int `yaml:"fp64" unit:"cycles" min:"1" max:"100000" doc:"FP64 add, multiply, fma"`
	SFU     int `yaml:"sfu" unit:"cycles" min:"1" max:"100000" doc:"special functions: rcp, sqrt, rsqrt, sin, cos, lg2, ex2"`
	Branch  int `yaml:"branch" unit:"cycles" min:"1" max:"100000" doc:"bra, brx.idx, call, ret: issue to the target's fetch"`
	SReg    int `yaml:"sreg" unit:"cycles" min:"1" max:"100000" doc:"special-register read (mov from %tid, %clock, ...)"`
	Shared  int `yaml:"shared" unit:"cycles" min:"1" max:"100000" doc:"shared-memory load, no bank conflict"`
	Global  int `yaml:"global" unit:"cycles" min:"1" max:"100000" doc:"global-memory load (the flat memory has no caches: one figure)"`
	Local   int `yaml:"local" unit:"cycles" min:"1" max:"100000" doc:"local-memory load (stack, spills)"`
	Param   int `yaml:"param" unit:"cycles" min:"1" max:"100000" doc:"kernel-parameter and constant-bank load"`
	Atomic  int `yaml:"atomic" unit:"cycles" min:"1" max:"100000" doc:"atomic or reduction on global memory, issue to old value"`
	Barrier int `yaml:"barrier" unit:"cycles" min:"1" max:"100000" doc:"bar.sync: last warp's arrival to the release of all waiters"`
	Fetch   int `yaml:"fetch" unit:"cycles" min:"1" max:"100000" doc:"instruction fetch and decode: new PC to issuable"`
}

// MemModel is the timing model of memory accesses (mem.model).
type MemModel string

// The memory timing models.
const (
	MemFlat MemModel = "flat" // each space's fixed latency (lat.*), unlimited bandwidth
	MemHier MemModel = "hier" // the memory system of package memsys behind the load/store port
)

// Mem holds memory-pipeline widths.
type Mem struct {
	Model       MemModel `yaml:"model" enum:"flat|hier" doc:"memory timing: flat gives every access its space's latency (lat.global, lat.shared, ...) with unlimited bandwidth; hier sends each warp memory instruction through the load/store port into the memory system (coalescing, shared-memory banks, L1 with MSHRs, constant cache, L2, DRAM: sections l1, smem, l2, dram, const_cache; docs/memory.md)"`
	GlobalPorts int      `yaml:"global_ports" unit:"requests/cycle" min:"1" max:"32" doc:"warp-wide global/local memory requests the SM accepts per cycle (mem.model flat; hier takes one per cycle)"`
	Inflight    int      `yaml:"inflight" unit:"requests" min:"1" max:"65536" doc:"warp memory instructions the load/store unit's port tracks at once (taken, not yet answered; mem.model hier); with all in use a warp waits in lg_throttle or mio_throttle"`
}

// Pipe holds the throughput of each execution pipe, in results (lanes) per
// clock per SM as the CUDA C++ Programming Guide's table of arithmetic
// instruction throughput gives them. Each of the sched.count schedulers
// has its own copy of every pipe at rate / sched.count lanes per clock, so
// a warp instruction holds its pipe 32 * sched.count / rate cycles; a warp
// that waits for a busy pipe is in math_pipe_throttle. Sources and the
// mapping of instructions to pipes: docs/calibration.md.
type Pipe struct {
	Throttle bool `yaml:"throttle" doc:"enforce the rates below in the issue stage: a warp whose next instruction's pipe has no room this cycle waits in math_pipe_throttle (false: every pipe takes one warp instruction per scheduler per cycle)"`
	FP32     int  `yaml:"fp32" unit:"results/clock/SM" min:"1" max:"1024" doc:"FP32 add, multiply, fma, compare, min/max, and the f16/bf16 arithmetic (one result per packed pair): 128 on compute capability 9.0"`
	INT32    int  `yaml:"int32" unit:"results/clock/SM" min:"1" max:"1024" doc:"32-bit integer add, subtract, logic, shift, compare, min/max, select, move, and conversions between integer types of at most 32 bits: 64 on 9.0"`
	IMAD     int  `yaml:"imad" unit:"results/clock/SM" min:"1" max:"1024" doc:"integer multiply, multiply-add, mul24/mad24, sad, dp4a/dp2a: 64 on 9.0"`
	FP64     int  `yaml:"fp64" unit:"results/clock/SM" min:"1" max:"1024" doc:"FP64 add, multiply, fma, compare: 64 on 9.0"`
	SFU      int  `yaml:"sfu" unit:"results/clock/SM" min:"1" max:"1024" doc:"special functions rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh, and popc, clz, brev, bfind, integer div/rem: 16 on 9.0"`
	CVT      int  `yaml:"cvt" unit:"results/clock/SM" min:"1" max:"1024" doc:"conversions (cvt) with a float or 64-bit type on either side: 16 on 9.0"`
}

// L1 is the L1 data cache, which shares its storage with shared memory.
// Latencies here and in L2 and DRAM are load-to-use figures as a pointer
// chase measures them (docs/memory.md); sources in h100().
type L1 struct {
	UnifiedBytes      int    `yaml:"unified_bytes" unit:"bytes" min:"512" max:"16777216" doc:"L1 data cache and shared memory together, per SM (256 KiB on compute capability 9.0)"`
	SmemCarveoutBytes int    `yaml:"smem_carveout_bytes" unit:"bytes" min:"0" max:"16777216" doc:"part of l1.unified_bytes set aside as shared memory, the L1 data cache gets the rest; with l1.smem_carveouts the launch's preference, raised to what the resident CTAs need (0: no preference, all of it to L1 for a kernel without shared memory)"`
	SmemCarveouts     string `yaml:"smem_carveouts" check:"kibs" doc:"the carveouts the hardware supports, in KiB, rising, comma-separated (compute capability 9.0: 0,8,16,32,64,100,132,164,196,228); a launch with mem.model hier takes the smallest that holds l1.smem_carveout_bytes and its resident CTAs' shared memory, as the driver does; empty: the carveout is l1.smem_carveout_bytes and limits the resident CTAs"`
	LineBytes         int    `yaml:"line_bytes" unit:"bytes" fixed:"128" doc:"cache line of the L1 and the L2; fixed at 128"`
	SectorBytes       int    `yaml:"sector_bytes" unit:"bytes" fixed:"32" doc:"sector, the unit of coalescing, transfer and validity; fixed at 32"`
	Sets              int    `yaml:"sets" unit:"sets" min:"1" max:"65536" doc:"sets of the L1 data cache; its ways are its lines / l1.sets"`
	HitLatency        int    `yaml:"hit_latency" unit:"cycles" min:"2" max:"100000" doc:"load-to-use latency of an L1 hit (coalescer to data)"`
	MSHRs             int    `yaml:"mshrs" unit:"entries" min:"1" max:"4096" doc:"miss-status holding registers: lines with sectors outstanding at the L2"`
	MSHRTargets       int    `yaml:"mshr_targets" unit:"requests" min:"1" max:"1024" doc:"requests one MSHR holds: the first miss and the misses merged into it"`
	InQueue           int    `yaml:"in_queue" unit:"requests" min:"1" max:"1024" doc:"line requests waiting for the L1 tag stage (one lookup per cycle)"`
	MissQueue         int    `yaml:"miss_queue" unit:"requests" min:"1" max:"1024" doc:"requests waiting for the port to the L2 (misses, stores, atomics)"`
}

// Smem is the shared-memory bank geometry.
type Smem struct {
	Banks     int `yaml:"banks" unit:"banks" min:"1" max:"64" doc:"shared-memory banks, a power of two (32 since compute capability 2.0)"`
	BankBytes int `yaml:"bank_bytes" unit:"bytes" min:"4" max:"8" doc:"width of a bank: 4 or 8 (successive words go to successive banks; 4 since compute capability 5.0)"`
}

// L2 is this SM's view of the L2 cache.
type L2 struct {
	Bytes         uint64 `yaml:"bytes" unit:"bytes" min:"1024" max:"17179869184" doc:"L2 capacity of the whole GPU"`
	CapacitySMs   int    `yaml:"capacity_sms" unit:"SMs" min:"1" max:"65536" doc:"SMs whose private working sets split l2.bytes: this SM's slice holds l2.bytes / l2.capacity_sms (1: the whole L2, as a single-SM microbenchmark sees it; at most sm.count)"`
	Assoc         int    `yaml:"assoc" unit:"ways" min:"1" max:"1024" doc:"associativity of the L2"`
	Partitions    int    `yaml:"partitions" unit:"partitions" min:"1" max:"16" doc:"L2 partitions; lines are hashed over them, and those in a partition other than this SM's are far"`
	LatencyNear   int    `yaml:"latency_near" unit:"cycles" min:"4" max:"100000" doc:"load-to-use latency of an L1 miss that hits in the L2 partition of this SM"`
	LatencyFar    int    `yaml:"latency_far" unit:"cycles" min:"4" max:"100000" doc:"load-to-use latency of an L1 miss that hits in another L2 partition"`
	BandwidthGBs  int    `yaml:"bandwidth_gbs" unit:"GB/s" min:"1" max:"1000000" doc:"L2 bandwidth of the whole GPU; this SM's share is l2.bandwidth_gbs / sm.count at clock.mhz"`
	Queue         int    `yaml:"queue" unit:"requests" min:"1" max:"65536" doc:"requests waiting for this SM's L2 bandwidth"`
	AtomicLatency int    `yaml:"atomic_latency" unit:"cycles" min:"0" max:"100000" doc:"extra cycles of an atomic's read-modify-write at the L2 (each further lane operation in the same line adds one)"`
}

// DRAM is the device memory behind the L2.
type DRAM struct {
	Latency      int `yaml:"latency" unit:"cycles" min:"5" max:"1000000" doc:"load-to-use latency of a cold access (L1 and L2 miss)"`
	BandwidthGBs int `yaml:"bandwidth_gbs" unit:"GB/s" min:"1" max:"1000000" doc:"DRAM bandwidth of the whole GPU; this SM's share is dram.bandwidth_gbs / sm.count at clock.mhz"`
	Queue        int `yaml:"queue" unit:"requests" min:"1" max:"65536" doc:"requests waiting for this SM's DRAM bandwidth"`
}

// Const is the constant cache; its hit latency is lat.param.
type Const struct {
	Bytes     int `yaml:"bytes" unit:"bytes" min:"32" max:"1048576" doc:"constant cache capacity per SM"`
	LineBytes int `yaml:"line_bytes" unit:"bytes" min:"32" max:"128" doc:"constant cache line: a power of two, 32..128"`
	Assoc     int `yaml:"assoc" unit:"ways" min:"1" max:"1024" doc:"associativity of the constant cache"`
	MSHRs     int `yaml:"mshrs" unit:"entries" min:"1" max:"1024" doc:"constant cache lines outstanding at the L2"`
	Queue     int `yaml:"queue" unit:"requests" min:"1" max:"1024" doc:"warp requests waiting for the constant cache (one distinct address looked up per cycle)"`
}

// Grid describes the launched grid.
type Grid struct {
	ID uint64 `yaml:"id" doc:"temporal grid launch number, read by %gridid"`
}

// Env holds the driver-defined environment registers.
type Env struct {
	Regs [32]uint32 `yaml:"regs" doc:"values of %envreg0..%envreg31 (set one with env.regs.N=V)"`
}

// Graph describes the CUDA device graph being executed.
type Graph struct {
	Exec uint64 `yaml:"exec" doc:"%current_graph_exec; 0 when the kernel is not part of a device graph"`
}

// Trap configures the SM trap handler.
type Trap struct {
	Handler string `yaml:"handler" check:"ident" doc:"name of the .func entered on a trap (BPT.TRAP, trap, warp errors); empty: no handler, the SM stops and reports"`
}

// RegPool configures the per-CTA register pool used by setmaxnreg.
type RegPool struct {
	Strict           bool `yaml:"strict" doc:"true: setmaxnreg undefined behaviour (warpgroup disagreement, .dec above / .inc below the current count) stops the run with an error; false: warn and continue"`
	AllocGranularity int  `yaml:"alloc_granularity" unit:"registers/thread" min:"1" max:"8" doc:"per-thread register count is rounded up to this at launch; must divide 8 (setmaxnreg counts are multiples of 8)"`
}

// SleepMode selects how nanosleep durations are chosen (sleep.mode).
type SleepMode string

// The nanosleep modes.
const (
	SleepExact   SleepMode = "exact"   // sleep exactly t ns (clamped to 1 ms)
	SleepUniform SleepMode = "uniform" // draw from [0, 2t] with run.seed (clamped to 1 ms)
)

// Sleep configures nanosleep.
type Sleep struct {
	Mode SleepMode `yaml:"mode" enum:"exact|uniform" doc:"nanosleep t: exact sleeps t ns; uniform draws from [0, 2t] seeded by run.seed; both at most 1 ms (PTX nanosleep)"`
}

// PM configures what the performance-monitor counters count.
type PM struct {
	Counter [8]string `yaml:"counter" check:"pmcounter" doc:"what %pmN counts: cycles | instructions | event:K (pmevent K, 0..15) | events:MASK | stall:STATE | off"`
}

// Run holds run control.
type Run struct {
	MaxCycles      uint64 `yaml:"max_cycles" unit:"cycles" doc:"stop the run with an error after this many cycles; 0 = unlimited"`
	WatchdogCycles uint64 `yaml:"watchdog_cycles" unit:"cycles" doc:"report a hang when no warp issues for this many cycles; 0 = off; must exceed 1 ms (the longest nanosleep)"`
	Seed           uint64 `yaml:"seed" doc:"seed of every pseudo-random choice (sleep.mode uniform); equal seeds give identical runs"`
}

//go:embed presets/*.yaml
var presetFiles embed.FS

// presetNames lists the presets in the order Presets reports them.
var presetNames = [...]string{"h100", "small"}

// Presets returns the names of the built-in presets.
func Presets() []string { return append([]string(nil), presetNames[:]...) }

// Default returns the H100-like configuration (preset "h100").
func Default() Config { return h100() }

// Preset returns the named built-in configuration: "h100" (the default, an
// H100 SXM5-like SM) or "small" (a reduced SM for RTL builds and fast tests).
func Preset(name string) (Config, error) {
	switch name {
	case "h100":
		return h100(), nil
	case "small":
		return small(), nil
	}
	return Config{}, fmt.Errorf("unknown preset %q (presets: %s)", name, strings.Join(presetNames[:], ", "))
}

// PresetYAML returns the YAML form of a preset as shipped in presets/NAME.yaml
// (the output of Dump; a test keeps the two identical).
func PresetYAML(name string) ([]byte, error) {
	if _, err := Preset(name); err != nil {
		return nil, err
	}
	return presetFiles.ReadFile("presets/" + name + ".yaml")
}

// h100 is an H100 SXM5-like SM (compute capability 9.0).
//
// Latency sources (cycles; all approximate, and all configurable):
//   - [accel-sim] Accel-Sim's tuned Hopper configuration,
//     gpu-simulator/configs/tested-cfgs/SM90_H100/trace.config in
//     github.com/accel-sim/accel-sim-framework: int 4, sp (FP32) 4, dp 8,
//     sfu 23, branch unit 4. Its A100 gpgpusim.config
//     (tested-cfgs/NVIDIA_A100_80GB_PCIe) gives int DIV 21, shared memory 29,
//     L1 37 and the gto scheduler.
//   - [gh200] pointer-chasing measurements on a GH200 (Hopper) in
//     github.com/markdewing/AI_kernels latency/README.md: L1 hit 40, L2 hit
//     281, HBM 690 cycles.
//   - Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU
//     Architecture" (arXiv:2402.13499) and "Dissecting the NVIDIA Hopper
//     Architecture through Microbenchmarking and Multiple Level Analysis"
//     (arXiv:2501.12084) measure the same hierarchy on H800/H100 with numbers
//     of the same order (shared about 30, L2 a few hundred cycles).
//   - [2501.12084] Luo et al., "Dissecting the NVIDIA Hopper Architecture
//     through Microbenchmarking and Multiple Level Analysis": the memory-
//     system latencies the l1, l2 and dram sections are calibrated to (the
//     figures of issue 19); [2402.13499] Luo et al., "Benchmarking and
//     Dissecting the Nvidia Hopper GPU Architecture", measured differently.
//
// Values marked "assumed" have no published Hopper measurement we could
// find; they are round numbers of the right order.
func h100() Config {
	return Config{
		Clock: Clock{MHz: 1755, Start: 0}, // H100 SXM5 boost clock
		Timer: Timer{ResolutionNs: 32, StartNs: 0},
		Sched: Sched{Policy: PolicyGTO, Count: 4, TwoLevelActive: 8},
		SM: SM{
			ID:                0,
			Count:             132, // SMs enabled on H100 SXM5
			WarpSize:          32,
			MaxWarps:          64,
			MaxCTAs:           32,
			MaxThreadsPerCTA:  1024,
			Regfile:           65536,
			RegAllocUnit:      256,
			MaxRegsPerThread:  256,    // setmaxnreg's maximum and the assembler's default (isa.DefaultOptions)
			SmemBytes:         233472, // 228 KiB
			SmemAllocUnit:     128,
			ReservedSmemBytes: 1024,
			MaxSmemPerCTA:     232448, // 227 KiB
			LocalBytes:        16384,
			MaxPreds:          64,
			GlobalBytes:       64 << 20,
		},
		Lat: Lat{
			ALU:     4,   // [accel-sim] int 4
			Mul:     4,   // [accel-sim] IMAD runs on the int/FMA pipe: 4
			Div:     21,  // [accel-sim] A100 int DIV 21 (a MUFU.RCP-based sequence)
			FP:      4,   // [accel-sim] sp 4
			FP64:    8,   // [accel-sim] dp 8
			SFU:     23,  // [accel-sim] sfu 23
			Branch:  4,   // [accel-sim] BRA unit 4
			SReg:    6,   // assumed
			Shared:  29,  // [accel-sim] smem 29; Luo et al. about 30
			Global:  281, // [gh200] L2 hit 281 (L1 hit 40, HBM 690): the uncached flat memory uses the L2 figure
			Local:   40,  // [gh200] L1 hit 40: stack and spill traffic mostly hits L1
			Param:   6,   // assumed: a constant-bank (LDC) load
			Atomic:  300, // assumed: an L2 round trip (281) plus the atomic unit
			Barrier: 8,   // assumed
			Fetch:   2,   // assumed
		},
		// The memory system and the pipe throttle, calibrated against the
		// published figures (docs/calibration.md: every bench/calib sm
		// line within its band).
		Mem: Mem{Model: MemHier, GlobalPorts: 1, Inflight: 256}, // inflight: assumed (64 warps x 4 outstanding loads)
		// Execution pipes: CUDA C++ Programming Guide, "Arithmetic
		// Instructions", throughput table, compute capability 9.0 (and
		// the H100 whitepaper's 128 FP32, 64 INT32 and 64 FP64 units per
		// SM); docs/calibration.md.
		Pipe: Pipe{Throttle: true, FP32: 128, INT32: 64, IMAD: 64, FP64: 64, SFU: 16, CVT: 16},
		// Memory system (package memsys). Latencies at 1755 MHz from
		// [2501.12084] (L1 32.1, L2 near 264 / far 502, cold DRAM 655;
		// [2402.13499] has 40.7 for L1 and 478.8 for DRAM with a warm
		// TLB, by another method); bandwidths from NVIDIA's H100 SXM5
		// figures (HBM3 3.35 TB/s, 50 MB L2) and 27.5 B/clk/SM of L2
		// bandwidth (6.37 TB/s over 132 SMs at 1755 MHz). docs/memory.md
		// has the sources and the choices.
		L1: L1{
			UnifiedBytes: 262144, SmemCarveoutBytes: 0, LineBytes: 128, SectorBytes: 32,
			SmemCarveouts: "0,8,16,32,64,100,132,164,196,228", // CUDA C++ Programming Guide, compute capability 9.0
			Sets:          4,                                  // Accel-Sim's microbenchmarks: 4 sets since Kepler
			HitLatency:    32,                                 // [2501.12084] 32.1
			MSHRs:         256,                                // assumed: enough for this SM's DRAM share (14.5 B/clk x 655 clk = 74 lines in flight)
			MSHRTargets:   8,                                  // assumed
			InQueue:       16, MissQueue: 16,                  // assumed
		},
		Smem: Smem{Banks: 32, BankBytes: 4}, // CUDA C++ Programming Guide, compute capability 9.0
		L2: L2{
			Bytes: 50 << 20, CapacitySMs: 1, Assoc: 16, Partitions: 2,
			LatencyNear: 264, LatencyFar: 502, // [2501.12084]
			BandwidthGBs:  6371, // 27.5 B/clk x 132 SMs x 1755 MHz
			Queue:         64,   // assumed
			AtomicLatency: 36,   // assumed: a near atomic costs 300, lat.atomic
		},
		DRAM:    DRAM{Latency: 655, BandwidthGBs: 3350, Queue: 64}, // [2501.12084] cold 655; H100 SXM5 3.35 TB/s
		Const:   Const{Bytes: 2048, LineBytes: 64, Assoc: 4, MSHRs: 4, Queue: 4},
		Grid:    Grid{ID: 1},
		Trap:    Trap{Handler: ""},
		RegPool: RegPool{Strict: true, AllocGranularity: 8},
		Sleep:   Sleep{Mode: SleepExact},
		PM: PM{Counter: [8]string{
			"cycles", "instructions",
			"event:0", "event:1", "event:2", "event:3", "event:4", "event:5",
		}},
		Run: Run{MaxCycles: 100_000_000, WatchdogCycles: 10_000_000, Seed: 1},
	}
}

// small is a reduced SM for RTL builds (Verilator, FPGA) and fast tests:
// 2 schedulers, 8 warps, 4 CTAs, 8192 registers, 16 KiB of shared memory,
// 1 MiB of global memory and short latencies, flat memory timing and no
// pipe throttle (as the RTL); for mem.model hier a 16 KiB L1 beside the
// 16 KiB of shared memory, a 256 KiB L2 of one partition, 64 and 16 bytes
// per cycle of L2 and DRAM bandwidth; the h100's pipes per scheduler
// (half the rates per SM) and 16 memory requests in flight. At 1000 MHz one cycle is one
// nanosecond, which keeps %globaltimer easy to read in waveforms.
func small() Config {
	c := h100()
	c.Clock.MHz = 1000
	c.Sched = Sched{Policy: PolicyLRR, Count: 2, TwoLevelActive: 2}
	c.SM.Count = 1
	c.SM.MaxWarps = 8
	c.SM.MaxCTAs = 4
	c.SM.MaxThreadsPerCTA = 256
	c.SM.Regfile = 8192
	c.SM.SmemBytes = 16384
	c.SM.MaxSmemPerCTA = 15360
	c.SM.LocalBytes = 1024
	c.SM.GlobalBytes = 1 << 20
	c.Lat = Lat{
		ALU: 2, Mul: 2, Div: 4, FP: 2, FP64: 2, SFU: 4, Branch: 1, SReg: 1,
		Shared: 4, Global: 8, Local: 8, Param: 1, Atomic: 8, Barrier: 1, Fetch: 1,
	}
	c.L1 = L1{
		UnifiedBytes: 32768, SmemCarveoutBytes: 16384, LineBytes: 128, SectorBytes: 32,
		Sets: 4, HitLatency: 4, MSHRs: 8, MSHRTargets: 4, InQueue: 4, MissQueue: 4,
	}
	c.L2 = L2{
		Bytes: 256 << 10, CapacitySMs: 1, Assoc: 8, Partitions: 1,
		LatencyNear: 12, LatencyFar: 12, BandwidthGBs: 64, Queue: 8, AtomicLatency: 4,
	}
	c.DRAM = DRAM{Latency: 24, BandwidthGBs: 16, Queue: 8}
	c.Const = Const{Bytes: 512, LineBytes: 64, Assoc: 2, MSHRs: 2, Queue: 2}
	// Half the h100's schedulers with the same pipes each: every rate
	// halves, so a scheduler sees the h100's cycles per instruction.
	c.Pipe = Pipe{FP32: 64, INT32: 32, IMAD: 32, FP64: 32, SFU: 8, CVT: 8}
	// The small preset keeps the flat memory timing and unthrottled pipes:
	// it is the configuration the RTL is built from, and the RTL has
	// neither the memory system nor the pipe throttle yet (set mem.model
	// hier and pipe.throttle true to run the Go model's on it).
	c.Mem.Model = MemFlat
	c.Pipe.Throttle = false
	c.Mem.Inflight = 16
	c.Run = Run{MaxCycles: 10_000_000, WatchdogCycles: 2_000_000, Seed: 1}
	return c
}
