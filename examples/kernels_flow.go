// Examples of SIMT control flow: divergence, loops, switches, brx.idx, calls, recursion, partial exit.

package examples

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
