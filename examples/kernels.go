package examples

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// constructors builds each example; the references below mirror the .cu
// files line by line (u32 is uint32, int is int32, u64 is uint64).
var constructors = map[string]func() *Example{
	"div_ifelse":       exDivIfelse,
	"div_nested":       exDivNested,
	"loop_tripcount":   exLoopTripcount,
	"switch_dense":     exSwitchDense,
	"brx_idx":          exBrxIdx,
	"call_direct":      exCallDirect,
	"recursion":        exRecursion,
	"indirect_call":    exIndirectCall,
	"exit_partial":     exExitPartial,
	"smem_reduce":      exSmemReduce,
	"atomics":          exAtomics,
	"sreg_all":         exSregAll,
	"sreg_cluster":     exSregCluster,
	"nanosleep":        exNanosleep,
	"pmevent":          exPmevent,
	"sleep_lanes":      exSleepLanes,
	"trap_divergent":   exTrapDivergent,
	"cta_continuation": exCTAContinuation,
	"brkpt":            exBrkpt,
	"setmaxnreg":       exSetmaxnreg,
	"int64_math":       exInt64Math,
	"float_saxpy":      exFloatSaxpy,
	"int_bitops":       exIntBitops,
	"bench_intloop":    exBenchIntloop,
	"demo_collatz":     exDemoCollatz,
	"local_array":      exLocalArray,
}

// buffers makes the Buffers of an entry from (name, words, init) triples in
// parameter order starting at parameter first.
func buffers(entry string, first int, specs ...bufSpec) []Buffer {
	bs := make([]Buffer, len(specs))
	for i, s := range specs {
		bs[i] = Buffer{Param: param(entry, first+i), Name: s.name, Words: s.words, Init: s.init}
	}
	return bs
}

type bufSpec struct {
	name  string
	words int
	init  []uint32
}

func fill(n int, v uint32) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = v
	}
	return w
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// ---------------------------------------------------------------------------

func exDivIfelse() *Example {
	const entry = "_Z10div_ifelsePjS_S_"
	e := &Example{
		Name: "div_ifelse", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 128, nil}, bufSpec{"odd", 64, nil}, bufSpec{"even", 64, nil}),
		Features: []string{"divergence"},
		Notes:    "if/else on lane parity, if-without-else on lane < 5",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, odd, even := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)]
		for _, t := range e.Threads() {
			i, lane := uint32(t.Global), uint32(t.Lane)
			var v uint32
			if lane&1 != 0 {
				v = i * 2654435761
				v ^= v >> 13
				v *= 0x5bd1e995
				odd[i/2] = v
			} else {
				v = (i + 7) * (i + 3)
				v = v<<5 | v>>27
				v -= lane
				even[i/2] = v
			}
			if lane < 5 {
				v += 1000 + lane
			}
			out[i] = v
		}
		return m
	}
	return e
}

func exDivNested() *Example {
	const entry = "_Z10div_nestedPjS_"
	e := &Example{
		Name: "div_nested", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{96, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 96, nil}, bufSpec{"trace", 96, nil}),
		Features: []string{"divergence"},
		Notes:    "three nested levels of lane-dependent branches",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, trace := m[param(entry, 0)], m[param(entry, 1)]
		for _, th := range e.Threads() {
			i, lane := uint32(th.Global), uint32(th.Lane)
			v, t := i, uint32(0)
			if lane&1 != 0 {
				v = v*3 + 1
				t = t*4 + 1
				if lane&2 != 0 {
					v ^= 0xff00
					t = t*4 + 1
					if lane&4 != 0 {
						v = v * v
						t = t*4 + 1
					} else {
						v = v + 0x10001
						t = t*4 + 2
					}
					v += 5
				} else {
					v = v >> 1
					t = t*4 + 2
					if lane >= 16 {
						v |= 0x80000000
						t = t*4 + 1
					}
				}
				v -= 3
			} else {
				v = v * 7
				t = t*4 + 2
				if lane%3 == 0 {
					v = ^v
					t = t*4 + 1
					if lane%5 == 0 {
						v = v / 3
						t = t*4 + 1
					} else {
						v = v % 1000
						t = t*4 + 2
					}
				}
			}
			out[i] = v
			trace[i] = t
		}
		return m
	}
	return e
}

func exLoopTripcount() *Example {
	const entry = "_Z14loop_tripcountPjS_j"
	e := &Example{
		Name: "loop_tripcount", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"sum", 128, nil}, bufSpec{"iters", 128, nil}),
		Args:     map[string]uint64{param(entry, 2): 12345},
		Features: []string{"divergence", "loop"},
		Notes:    "for loop of tid%7 trips, capped while loop with break, do/while",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		sum, iters := m[param(entry, 0)], m[param(entry, 1)]
		bias := uint32(e.Args[param(entry, 2)])
		for _, th := range e.Threads() {
			i := uint32(th.Global)
			s := bias
			for k := uint32(0); k < i%7; k++ {
				s = s*31 + k
			}
			n, x := uint32(0), i+1
			for x != 1 {
				if x&1 != 0 {
					x = (3*x + 1) / 2
				} else {
					x = x / 2
				}
				n++
				if n == 12 {
					break
				}
			}
			d := i
			for {
				d >>= 2
				s += d
				if d == 0 {
					break
				}
			}
			sum[i] = s
			iters[i] = n
		}
		return m
	}
	return e
}

func exSwitchDense() *Example {
	const entry = "_Z12switch_densePjPKj"
	in := hashes(128, func(i int, h uint32) uint32 {
		if i%4 == 0 {
			return uint32(i) // small values too
		}
		return h
	})
	e := &Example{
		Name: "switch_dense", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{128, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 128, nil}, bufSpec{"in", 128, in}),
		Features: []string{"divergence"},
		Notes:    "dense 12-way switch; clang-16 lowers it to a setp/bra tree (no brx.idx)",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, in := m[param(entry, 0)], m[param(entry, 1)]
		for _, th := range e.Threads() {
			i := th.Global
			x := in[i]
			var v uint32
			switch x % 12 {
			case 0:
				v = x * 7
			case 1:
				v = x + 100
			case 2:
				v = x ^ 0xabc
			case 3:
				v = x << 3
			case 4:
				v = x * x
			case 5:
				v = ^x
			case 6:
				v = x - 9
			case 7:
				v = x | 0x1000
			case 8:
				v = x / 3
			case 9:
				v = x>>2 + 11
			case 10:
				v = x * 1000003
			default:
				v = 42
			}
			out[i] = v
		}
		return m
	}
	return e
}

func exBrxIdx() *Example {
	const entry = "_Z7brx_idxPjS_"
	e := &Example{
		Name: "brx_idx", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 128, nil}, bufSpec{"out2", 128, nil}),
		Features: []string{"brx.idx", "call", "divergence"},
		Notes:    "brx.idx over a 6-label .branchtargets (inline PTX), divergent and warp-uniform index",
	}
	dispatch := func(idx, x uint32) uint32 {
		switch idx {
		case 0:
			return x + 1000
		case 1:
			return x * 3
		case 2:
			return x ^ 0x5555
		case 3:
			return x<<4 | 3
		case 4:
			return ^x
		case 5:
			return 77
		}
		panic("brx.idx index out of range")
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, out2 := m[param(entry, 0)], m[param(entry, 1)]
		for _, th := range e.Threads() {
			i, lane := uint32(th.Global), uint32(th.Lane)
			out[i] = dispatch(lane%6, i)
			out2[i] = dispatch((i/32)%6, lane)
		}
		return m
	}
	return e
}

func exCallDirect() *Example {
	const entry = "_Z11call_directPjS_S_"
	e := &Example{
		Name: "call_direct", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 128, nil}, bufSpec{"pairs", 256, nil}, bufSpec{"f", 128, nil}),
		Features: []string{"call", "divergence", "float", "int64"},
		Notes:    "direct .param calls: u32/u64/f32 arguments and results, void callee, nested call, call under a branch",
	}
	mix3 := func(a, b, c uint32) uint32 { return (a*31 + b) ^ c<<3 }
	widen := func(a uint32, b uint64) uint64 { return uint64(a)*0x100000001 + b>>3 }
	scale := func(x float32, k uint32) float32 { return fma32(x, float32(k), 0.5) }
	twice := func(a uint32) uint32 { return mix3(a, a+1, a+2) + mix3(a, 7, 9) }
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, pairs, f := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)]
		for _, th := range e.Threads() {
			i, lane := uint32(th.Global), uint32(th.Lane)
			a := mix3(i, lane, 5)
			w := widen(a, uint64(i)<<40)
			b := uint32(w) ^ uint32(w>>32)
			if lane < 12 {
				b += twice(lane)
			}
			out[i] = b
			pairs[2*i], pairs[2*i+1] = a, lane*lane
			f[i] = uint32(scale(float32(lane), i%5))
		}
		return m
	}
	return e
}

func exRecursion() *Example {
	const entry = "_Z9recursionPjS_PKj"
	e := &Example{
		Name: "recursion", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers: buffers(entry, 0, bufSpec{"fibs", 64, nil}, bufSpec{"sums", 64, nil},
			bufSpec{"base", 2, []uint32{1000, 2000000}}),
		Features: []string{"call", "recursion", "local", "divergence"},
		Notes:    "recursive fib(lane%12); recursive sum keeping a .local frame live across the call (needs a frame per activation)",
	}
	var fib func(n uint32) uint32
	fib = func(n uint32) uint32 {
		if n < 2 {
			return n
		}
		return fib(n-1) + fib(n-2)
	}
	var sumdown func(acc []uint32, n uint32) uint32
	sumdown = func(acc []uint32, n uint32) uint32 {
		var frame [4]uint32 // one frame per activation
		frame[n&3] = n * n
		if n == 0 {
			return acc[0] + frame[0]
		}
		r := sumdown(acc, n-1)
		return r + frame[n&3]
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		fibs, sums, base := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)]
		for _, th := range e.Threads() {
			i, lane := uint32(th.Global), uint32(th.Lane)
			fibs[i] = fib(lane % 12)
			sums[i] = sumdown(base[i&1:], lane%9)
		}
		return m
	}
	return e
}

func exIndirectCall() *Example {
	const entry = "_Z13indirect_callPjS_"
	e := &Example{
		Name: "indirect_call", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 64, nil}, bufSpec{"sel", 64, nil}),
		Features: []string{"call", "indirect-call", "divergence"},
		Notes:    "calls through a __device__ function-pointer table (.global .u64 ops[5] = {names}), 5 targets per warp",
	}
	ops := []func(a, b uint32) uint32{
		func(a, b uint32) uint32 { return a + b },
		func(a, b uint32) uint32 { return a * b },
		func(a, b uint32) uint32 { return a ^ b<<8 },
		func(a, b uint32) uint32 { return b - a },
		func(a, b uint32) uint32 { return max(a, b) },
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, sel := m[param(entry, 0)], m[param(entry, 1)]
		for _, th := range e.Threads() {
			i, lane := uint32(th.Global), uint32(th.Lane)
			k := (lane*7 + i/32) % 5
			sel[i] = k
			out[i] = ops[k](i, lane+3)
		}
		return m
	}
	return e
}

func exExitPartial() *Example {
	const entry = "_Z12exit_partialPjS_"
	e := &Example{
		Name: "exit_partial", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{128, 1, 1},
		StaticSmem: 512,
		Buffers: buffers(entry, 0, bufSpec{"out", 256, fill(256, 0xaaaaaaaa)},
			bufSpec{"before", 256, nil}),
		Features: []string{"exit", "barrier", "shared", "divergence"},
		Notes:    "odd lanes exit; the barrier releases on the remaining arrivals; shared-memory exchange among survivors",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, before := m[param(entry, 0)], m[param(entry, 1)]
		ts := e.Threads()
		per := e.Block.Count()
		alive := func(t Thread) bool { return t.Lane&1 == 0 }
		for _, t := range ts {
			before[t.Global] = uint32(t.Global)*5 + 1
		}
		for cta := 0; cta < e.Grid.Count(); cta++ {
			c := ts[cta*per : (cta+1)*per]
			var buf [128]uint32
			for _, t := range c {
				if alive(t) {
					i := uint32(t.Global)
					buf[t.Linear] = i*i + 7
				}
			}
			v := make([]uint32, per)
			for _, t := range c {
				if alive(t) {
					v[t.Linear] = buf[(t.Linear+2)%128]
				}
			}
			for _, t := range c {
				if alive(t) {
					buf[t.Linear] = v[t.Linear] + 1
				}
			}
			for _, t := range c {
				if alive(t) {
					out[t.Global] = buf[(128+t.Linear-4)%128] ^ uint32(t.Linear)
				}
			}
		}
		return m
	}
	return e
}

func exSmemReduce() *Example {
	const entry = "_Z11smem_reducePjS_S_PKj"
	in := hashes(512, func(i int, h uint32) uint32 { return h % 100000 })
	e := &Example{
		Name: "smem_reduce", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{256, 1, 1},
		StaticSmem: 2048,
		Buffers: buffers(entry, 0, bufSpec{"sums", 2, nil}, bufSpec{"maxs", 2, nil},
			bufSpec{"copy", 512, nil}, bufSpec{"in", 512, in}),
		Features: []string{"barrier", "shared", "loop", "divergence"},
		Notes:    "tree reduction (sum and max) in shared memory, 8 warps, barrier per level",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		sums, maxs, cp, in := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)], m[param(entry, 3)]
		per := e.Block.Count()
		for cta := 0; cta < e.Grid.Count(); cta++ {
			sSum := make([]uint32, per)
			sMax := make([]uint32, per)
			for t := 0; t < per; t++ {
				sSum[t] = in[cta*per+t]
				sMax[t] = in[cta*per+t]
			}
			for stride := per / 2; stride > 0; stride >>= 1 {
				for t := 0; t < stride; t++ {
					sSum[t] += sSum[t+stride]
					if o := sMax[t+stride]; o > sMax[t] {
						sMax[t] = o
					}
				}
			}
			sums[cta] = sSum[0]
			maxs[cta] = sMax[0]
			for t := 0; t < per; t++ {
				cp[cta*per+t] = sSum[0] - in[cta*per+t]
			}
		}
		return m
	}
	return e
}

func exAtomics() *Example {
	const entry = "_Z7atomicsPjS_S_Py"
	e := &Example{
		Name: "atomics", Entry: entry,
		Grid: Dim3{4, 1, 1}, Block: Dim3{64, 1, 1},
		StaticSmem: 32,
		Buffers: buffers(entry, 0, bufSpec{"hist", 16, nil},
			bufSpec{"stats", 6, []uint32{0, 0xffffffff, 0, 0, 5, 0}},
			bufSpec{"seen", 256, nil}, bufSpec{"wide", 2, nil}),
		Features: []string{"atomics", "barrier", "shared", "int64", "loop"},
		Notes:    "atom.global add/max/min/or/cas/inc, atom.shared add, atom.add.u64; order-independent results",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		hist, stats, seen, wide := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)], m[param(entry, 3)]
		local := make(map[int]*[8]uint32)
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			if local[t.CTA] == nil {
				local[t.CTA] = new([8]uint32)
			}
			key := (i*7 + i>>3) % 8
			hist[key]++
			local[t.CTA][key]++
			stats[0] = max(stats[0], i*13%251)
			stats[1] = min(stats[1], i*13%251+3)
			stats[2] |= 1 << (i % 31)
			ticket := stats[3]
			stats[3]++
			seen[ticket]++
			stats[4] += i + 1
			if stats[5] >= 99 {
				stats[5] = 0
			} else {
				stats[5]++
			}
			put64(wide, 0, get64(wide, 0)+uint64(i)<<30)
		}
		for cta, h := range local {
			for t := 0; t < 8; t++ {
				hist[8+t] += h[t] * uint32(cta+1)
			}
		}
		return m
	}
	return e
}

// sreg_all layout (see sreg_all.cu).
const (
	sregNIDS = 52
	sregNT   = 12
)

func exSregAll() *Example {
	const entry = "_Z8sreg_allPjS_S_S_"
	e := &Example{
		Name: "sreg_all", Entry: entry,
		Grid: Dim3{2, 2, 2}, Block: Dim3{8, 4, 2},
		DynamicSmem: 200, StaticSmem: 128,
		Features: []string{"sreg", "cluster", "barrier", "shared"},
		Notes:    "every special register on a 3-D grid of 3-D blocks with dynamic shared memory",
	}
	n := e.Grid.Count() * e.Block.Count()
	e.Buffers = buffers(entry, 0, bufSpec{"ids", n * sregNIDS, nil}, bufSpec{"env", e.Grid.Count() * 32, nil},
		bufSpec{"timers", n * sregNT, nil}, bufSpec{"pm", n * 16, nil})
	e.Loose = []string{param(entry, 2), param(entry, 3)}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		ids, envb := m[param(entry, 0)], m[param(entry, 1)]
		g, b := e.Grid.norm(), e.Block.norm()
		unit := env.allocUnit()
		total := uint32((e.StaticSmem + e.DynamicSmem + unit - 1) / unit * unit)
		for _, t := range e.Threads() {
			o := ids[t.Global*sregNIDS : (t.Global+1)*sregNIDS]
			lane := uint32(t.Lane)
			for k := 0; k < 3; k++ {
				o[0+k] = uint32(t.Tid[k])
				o[4+k] = uint32(b[k])
				o[8+k] = uint32(t.CtaID[k])
				o[12+k] = uint32(g[k])
			}
			// o[3], o[7], o[11], o[15]: the .w components read 0
			o[16] = lane
			o[17] = env.warpID(t.CTA, t.Warp, e.WarpsPerCTA())
			o[18] = env.NWarpID
			o[19] = env.SMID
			o[20] = env.NSMID
			o[21] = uint32(env.GridID)
			o[22] = uint32(env.GridID)
			o[23] = uint32(env.GridID >> 32)
			o[24] = 1 << lane
			o[25] = uint32(uint64(2)<<lane - 1)
			o[26] = 1<<lane - 1
			o[27] = ^(1<<lane - 1)
			o[28] = ^uint32(uint64(2)<<lane - 1)
			o[29] = 0 // no explicit cluster
			for k := 0; k < 3; k++ {
				o[30+k] = uint32(t.CtaID[k]) // implicit 1x1x1 cluster per CTA
				o[33+k] = uint32(g[k])
				o[36+k] = 0
				o[39+k] = 1
			}
			o[42] = 0
			o[43] = 1
			o[44] = total
			o[45] = uint32(e.DynamicSmem)
			o[46] = total + env.ReservedSmemCap
			o[47] = env.ReservedSmemBegin
			o[48] = env.ReservedSmemEnd
			o[49] = env.ReservedSmemCap
			o[50] = env.ReservedSmemOffset[0] ^ env.ReservedSmemOffset[1]
			o[51] = uint32(env.CurrentGraphExec) ^ uint32(env.CurrentGraphExec>>32) ^ uint32(t.Linear%32)
			if t.Linear == 0 {
				copy(envb[t.CTA*32:], env.EnvReg[:])
			}
		}
		return m
	}
	e.Check = func(env Env, got map[string][]uint32) error {
		tm := got[param(entry, 2)]
		for th := 0; th < n; th++ {
			w := tm[th*sregNT : (th+1)*sregNT]
			c0, chi := w[0], w[1]
			c64 := uint64(w[2]) | uint64(w[3])<<32
			c1 := w[4]
			c64b := uint64(w[5]) | uint64(w[6])<<32
			gt := uint64(w[7]) | uint64(w[8])<<32
			gtlo, gthi := w[9], w[10]
			c2 := w[11]
			// 32-bit clock samples in program order: differences from c0 grow.
			d64 := uint32(c64) - c0
			d1 := c1 - c0
			d64b := uint32(c64b) - c0
			d2 := c2 - c0
			if !(d64 <= d1 && d1 <= d64b && d64b <= d2) {
				return fmt.Errorf("timers of thread %d: %%clock samples out of order: %#x %#x %#x %#x %#x", th, c0, uint32(c64), c1, uint32(c64b), c2)
			}
			if c64b < c64 {
				return fmt.Errorf("timers of thread %d: %%clock64 went back: %#x then %#x", th, c64, c64b)
			}
			// %clock_hi was read between %clock and %clock64.
			if hi := uint32(c64 >> 32); hi != chi && hi != chi+1 {
				return fmt.Errorf("timers of thread %d: %%clock_hi %#x vs %%clock64 %#x", th, chi, c64)
			}
			// globaltimer_lo/hi after globaltimer.
			if hi := uint32(gt >> 32); gthi < hi || (gthi == hi && gtlo < uint32(gt)) {
				return fmt.Errorf("timers of thread %d: %%globaltimer %#x then lo %#x hi %#x", th, gt, gtlo, gthi)
			}
		}
		return nil
	}
	return e
}

func exSregCluster() *Example {
	const entry = "_Z12sreg_clusterPj"
	e := &Example{
		Name: "sreg_cluster", Entry: entry,
		Grid: Dim3{4, 2, 1}, Block: Dim3{32, 1, 1}, Cluster: Dim3{2, 2, 1},
		Features: []string{"sreg", "cluster"},
		Notes:    "cluster registers (scalar and mov.v4) under an explicit 2x2x1 cluster launch",
	}
	e.Buffers = buffers(entry, 0, bufSpec{"out", e.Grid.Count() * 32 * 24, nil})
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out := m[param(entry, 0)]
		g, cs := e.Grid.norm(), e.Cluster.norm()
		for _, t := range e.Threads() {
			o := out[t.Global*24 : (t.Global+1)*24]
			var cid, ncid, ccta Dim3
			for k := 0; k < 3; k++ {
				cid[k] = t.CtaID[k] / cs[k]
				ncid[k] = g[k] / cs[k]
				ccta[k] = t.CtaID[k] % cs[k]
			}
			for k := 0; k < 3; k++ {
				o[0+k] = uint32(cid[k])
				o[3+k] = uint32(ncid[k])
				o[6+k] = uint32(ccta[k])
				o[9+k] = uint32(cs[k])
			}
			rank := uint32(ccta[0] + cs[0]*(ccta[1]+cs[1]*ccta[2]))
			o[12] = rank
			o[13] = uint32(cs.Count())
			o[14] = 1
			o[15], o[16], o[17], o[18] = uint32(ccta[0]), uint32(ccta[1]), uint32(ccta[2]), 0
			v4 := func(d Dim3) uint32 { return uint32(d[0] + 10*d[1] + 100*d[2]) }
			o[19] = v4(cid)
			o[20] = v4(ncid)
			o[21] = v4(cs)
			o[22] = rank
			o[23] = uint32(ccta[0])
		}
		return m
	}
	return e
}

func exNanosleep() *Example {
	const entry = "_Z9nanosleepPjPy"
	e := &Example{
		Name: "nanosleep", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 64, nil}, bufSpec{"clk", 64 * 4 * 2, nil}),
		Features: []string{"nanosleep", "sreg", "divergence"},
		Notes:    "nanosleep.u32 with per-lane register delays, an immediate, and under divergence",
	}
	e.Loose = []string{param(entry, 1)}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out := m[param(entry, 0)]
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			v := i * 3
			if t.Lane >= 24 {
				v += 11
			}
			out[i] = v
		}
		return m
	}
	e.Check = func(env Env, got map[string][]uint32) error {
		clk := got[param(entry, 1)]
		for i := 0; i < 64; i++ {
			prev := uint64(0)
			for k := 0; k < 4; k++ {
				c := get64(clk, 2*(4*i+k))
				if c < prev {
					return fmt.Errorf("clk of thread %d: sample %d (%d) before sample %d (%d)", i, k, c, k-1, prev)
				}
				prev = c
			}
		}
		return nil
	}
	return e
}

func exPmevent() *Example {
	const entry = "_Z7pmeventPj"
	e := &Example{
		Name: "pmevent", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 64, nil}),
		Features: []string{"pmevent", "divergence"},
		Notes:    "pmevent N, pmevent.mask, guard-predicated @p pmevent, events on both sides of a branch",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out := m[param(entry, 0)]
		for _, t := range e.Threads() {
			v := uint32(t.Global)
			if t.Lane < 10 {
				v += 100
			} else {
				v ^= 0xf0
			}
			out[t.Global] = v
		}
		return m
	}
	return e
}

func exTrapDivergent() *Example {
	const entry = "_Z14trap_divergentPjS_PKj"
	const trapper = 40 // warp 1, lane 8
	key := make([]uint32, 96)
	for i := range key {
		key[i] = uint32(i) * 3
	}
	key[trapper] = 0xdead
	e := &Example{
		Name: "trap_divergent", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{96, 1, 1},
		Buffers: buffers(entry, 0, bufSpec{"before", 96, nil}, bufSpec{"after", 96, nil},
			bufSpec{"key", 96, key}),
		Features: []string{"trap", "barrier", "divergence"},
		Outcome:  Trapped,
		Notes:    "one lane of warp 1 traps after a barrier; the launch must abort",
	}
	e.Loose = []string{param(entry, 1)}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		before, after, key := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)]
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			before[i] = i + 0x1000
			if key[i] != 0xdead {
				after[i] = i*2 + 1 // may or may not land before the trap
			}
		}
		return m
	}
	e.Check = func(env Env, got map[string][]uint32) error {
		after := got[param(entry, 1)]
		for i, v := range after {
			if v != 0 && (i == trapper || v != uint32(i)*2+1) {
				return fmt.Errorf("after[%d] = %#x, want 0 or %#x", i, v, uint32(i)*2+1)
			}
		}
		return nil
	}
	return e
}

func exBrkpt() *Example {
	const entry = "_Z5brkptPjS_"
	e := &Example{
		Name: "brkpt", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"before", 64, nil}, bufSpec{"after", 64, nil}),
		Features: []string{"brkpt", "barrier", "divergence"},
		Outcome:  Breakpoint,
		Notes:    "lanes 0..3 of warp 0 hit brkpt after a barrier; execution suspends",
	}
	e.Loose = []string{param(entry, 1)}
	e.Resumed = func(env Env) map[string][]uint32 {
		m := e.Initial()
		before, after := m[param(entry, 0)], m[param(entry, 1)]
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			before[i] = i ^ 0x77
			after[i] = i * 9
		}
		return m
	}
	e.Expect = e.Resumed
	e.Check = func(env Env, got map[string][]uint32) error {
		for i, v := range got[param(entry, 1)] {
			if v != 0 && v != uint32(i)*9 {
				return fmt.Errorf("after[%d] = %#x, want 0 or %#x", i, v, uint32(i)*9)
			}
		}
		return nil
	}
	return e
}

func exSetmaxnreg() *Example {
	const entry = "_Z10setmaxnregPjS_"
	e := &Example{
		Name: "setmaxnreg", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{256, 1, 1},
		StaticSmem: 512, MaxNReg: 136,
		Buffers:  buffers(entry, 0, bufSpec{"out", 512, nil}, bufSpec{"role", 512, nil}),
		Features: []string{"setmaxnreg", "barrier", "shared", "divergence"},
		Notes:    "warpgroup 0 setmaxnreg.dec 40, warpgroup 1 setmaxnreg.inc 232 (blocks until the pool has them), MaxNReg 136",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, role := m[param(entry, 0)], m[param(entry, 1)]
		per := e.Block.Count()
		for _, t := range e.Threads() {
			i, tt := uint32(t.Global), uint32(t.Linear)
			if tt/128 == 0 {
				role[i] = 1
				out[i] = 0xc0de0000 + tt
			} else {
				role[i] = 2
				producer := uint32(t.CTA*per) + tt - 128
				out[i] = producer*3 + 7 + tt
			}
		}
		return m
	}
	return e
}

func exInt64Math() *Example {
	const entry = "_Z10int64_mathPyy"
	e := &Example{
		Name: "int64_math", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 128 * 6 * 2, nil}),
		Args:     map[string]uint64{param(entry, 1): 0x0123456789abcdef},
		Features: []string{"int64"},
		Notes:    "mul.wide.u32/s32, 64-bit mul/add/shift/rotate, div.u64, rem.s64, 64-bit compares",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out := m[param(entry, 0)]
		seed := e.Args[param(entry, 1)]
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			a := uint64(i) * 0x9e3779b9
			b := uint64(int64(int32(i-64)) * -77)
			c := a*seed + b
			d := c<<17 | c>>47
			x := d ^ a>>3 ^ uint64(int64(b)>>5)
			f := x / (uint64(i) + 3)
			g := int64(x) % -(int64(i) + 5)
			var h uint64
			if a > b {
				h = a - b
			} else {
				h = b - a
			}
			o := int(i) * 12
			put64(out, o+0, c)
			put64(out, o+2, d)
			put64(out, o+4, x)
			put64(out, o+6, f)
			put64(out, o+8, uint64(g))
			put64(out, o+10, h+uint64(b2u(x < seed)))
		}
		return m
	}
	return e
}

// fma32 is fma.rn.f32: a*b+c rounded once to float32 (computed exactly with
// big.Float, since float64 FMA followed by a float32 conversion can round
// twice).
func fma32(a, b, c float32) float32 {
	const prec = 400 // enough for any float32 a*b+c exactly
	x := new(big.Float).SetPrec(prec).SetFloat64(float64(a))
	y := new(big.Float).SetPrec(prec).SetFloat64(float64(b))
	z := new(big.Float).SetPrec(prec).SetFloat64(float64(c))
	x.Mul(x, y)
	x.Add(x, z)
	if x.Sign() == 0 {
		return float32(float64(a)*float64(b) + float64(c)) // signed zero per IEEE
	}
	f, _ := x.Float32()
	return f
}

func f32bits(f float32) uint32 { return math.Float32bits(f) }

func exFloatSaxpy() *Example {
	const entry = "_Z11float_saxpyPfPKfPjfj"
	const n = 128
	x := make([]uint32, n)
	y := make([]uint32, n)
	for i := range x {
		x[i] = f32bits(float32(i-40) / 8)
		y[i] = f32bits(float32(i%13) * 1.5)
	}
	e := &Example{
		Name: "float_saxpy", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers: buffers(entry, 0, bufSpec{"y", n, y}, bufSpec{"x", n, x},
			bufSpec{"ints", 2 * n, nil}),
		Args:     map[string]uint64{param(entry, 3): uint64(f32bits(2.5)), param(entry, 4): 100},
		Features: []string{"float", "divergence"},
		Notes:    "saxpy with fma.rn.f32, div.rn.f32, sqrt.rn.f32, min/max, cvt.rn.f32.u32, cvt.rzi.s32.f32; threads >= n return early",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		yb, xb, ints := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)]
		a := math.Float32frombits(uint32(e.Args[param(entry, 3)]))
		cnt := uint32(e.Args[param(entry, 4)])
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			if i >= cnt {
				continue
			}
			xi := math.Float32frombits(xb[i])
			yi := math.Float32frombits(yb[i])
			fi := float32(i)
			s := fma32(a, xi, yi)
			q := float32(s+1) / float32(fi+3)
			r := float32(math.Sqrt(float64(fma32(fi, 2, 1))))
			mm := float32(float32(math.Max(float64(q), float64(r))) - float32(math.Min(float64(xi), 0.25)))
			yb[i] = f32bits(fma32(r, q, s))
			ints[2*i] = uint32(int32(float32(mm * 16)))
			ints[2*i+1] = uint32(int32(float32(-fi * 0.75)))
		}
		return m
	}
	return e
}

// prmt is PTX prmt.b32 in its default mode: each selector nibble picks one
// of the 8 bytes {b, a} (a = bytes 0-3), bit 3 replicating its sign bit.
func prmt(a, b, c uint32) uint32 {
	src := uint64(b)<<32 | uint64(a)
	var r uint32
	for k := 0; k < 4; k++ {
		sel := c >> (4 * k) & 0xf
		v := uint32(src>>(8*(sel&7))) & 0xff
		if sel&8 != 0 {
			if v&0x80 != 0 {
				v = 0xff
			} else {
				v = 0
			}
		}
		r |= v << (8 * k)
	}
	return r
}

func exIntBitops() *Example {
	const entry = "_Z10int_bitopsPjPKj"
	in := hashes(128, func(i int, h uint32) uint32 {
		switch i {
		case 0:
			return 0
		case 1:
			return 0xffffffff
		case 2:
			return 0x80000000
		case 3:
			return 1
		}
		if i%8 == 5 {
			return h >> (i % 29) // leading zeros of all sizes
		}
		return h
	})
	e := &Example{
		Name: "int_bitops", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{128, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 128 * 12, nil}, bufSpec{"in", 128, in}),
		Features: []string{"bitops", "int64"},
		Notes:    "popc, clz, brev, bfe.u32/s32, prmt (incl. sign replicate), mul.hi, sad, shf.l.wrap, popc.b64, clz.b64",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, in := m[param(entry, 0)], m[param(entry, 1)]
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			x, y := in[i], in[(i+1)%128]
			o := out[i*12 : i*12+12]
			o[0] = uint32(bits.OnesCount32(x))
			o[1] = uint32(bits.LeadingZeros32(x))
			o[2] = bits.Reverse32(x)
			o[3] = x >> 5 & 0x3ff
			o[4] = uint32(int32(x<<3) >> 20)
			o[5] = prmt(x, y, 0x3210+i%8)
			o[6] = prmt(x, y, 0x7531^(i&3)<<14)
			o[7] = uint32(uint64(x) * uint64(y) >> 32)
			o[8] = uint32(int64(int32(x)) * int64(int32(y)) >> 32)
			if x > y {
				o[9] = i + (x - y)
			} else {
				o[9] = i + (y - x)
			}
			o[10] = bits.RotateLeft32(x, int(i%32))
			o[11] = uint32(bits.OnesCount64(uint64(x)<<32|uint64(y)) + bits.LeadingZeros64(uint64(y)|1))
		}
		return m
	}
	return e
}

func exBenchIntloop() *Example {
	const entry = "_Z13bench_intloopPjj"
	e := &Example{
		Name: "bench_intloop", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{768, 1, 1},
		Buffers:  buffers(entry, 0, bufSpec{"out", 1536, nil}),
		Args:     map[string]uint64{BenchIters: 100},
		Features: []string{"loop"},
		Notes:    "benchmark: 48 warps (2 CTAs x 768 threads), `iters` iterations of an integer LCG/xorshift chain",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out := m[param(entry, 0)]
		iters := uint32(e.Args[BenchIters])
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			a := i*2654435761 + 1
			b := i ^ 0x12345678
			for k := uint32(0); k < iters; k++ {
				a = a*1664525 + 1013904223
				b ^= b << 13
				b ^= b >> 17
				b ^= b << 5
				a += b >> 7
			}
			out[i] = a ^ b
		}
		return m
	}
	return e
}

func exDemoCollatz() *Example {
	const entry = "_Z12demo_collatzPjS_S_j"
	e := &Example{
		Name: "demo_collatz", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		StaticSmem: 4,
		Buffers: buffers(entry, 0, bufSpec{"steps", 128, nil}, bufSpec{"hist", 16, nil},
			bufSpec{"longest", 2, nil}),
		Args:     map[string]uint64{param(entry, 3): 27},
		Features: []string{"divergence", "call", "loop", "atomics", "barrier", "shared"},
		Notes:    "demo: per-lane Collatz step count (a call per step), atomic histogram, CTA max via shared atomics",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		steps, hist, longest := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)]
		start := uint32(e.Args[param(entry, 3)])
		best := map[int]uint32{}
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			n, s := start+i, uint32(0)
			for n != 1 {
				if n&1 != 0 {
					n = 3*n + 1
				} else {
					n = n / 2
				}
				s++
			}
			steps[i] = s
			hist[s%16]++
			best[t.CTA] = max(best[t.CTA], s)
		}
		for cta, b := range best {
			longest[cta] = b
		}
		return m
	}
	return e
}

func exLocalArray() *Example {
	const entry = "_Z11local_arrayPjS_PKj"
	in := hashes(64, func(i int, h uint32) uint32 { return h })
	e := &Example{
		Name: "local_array", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers: buffers(entry, 0, bufSpec{"sorted", 64 * 16, nil}, bufSpec{"picks", 64, nil},
			bufSpec{"in", 64, in}),
		Features: []string{"local", "loop", "divergence"},
		Notes:    "per-thread array in the kernel's __local_depot, insertion sort with data-dependent indices",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		sorted, picks, in := m[param(entry, 0)], m[param(entry, 1)], m[param(entry, 2)]
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			var a [16]uint32
			for k := uint32(0); k < 16; k++ {
				a[k] = in[(i*5+k*3)%64] % 1000
			}
			for k := 1; k < 16; k++ {
				v := a[k]
				j := k - 1
				for j >= 0 && a[j] > v {
					a[j+1] = a[j]
					j--
				}
				a[j+1] = v
			}
			copy(sorted[i*16:], a[:])
			picks[i] = a[i%16] + a[(i*7)%16]
		}
		return m
	}
	return e
}
