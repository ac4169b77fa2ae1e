// Examples of shared memory, atomics, nanosleep, pmevent, traps, breakpoints and setmaxnreg.

package examples

import (
	"fmt"
)

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
