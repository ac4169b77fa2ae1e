// Examples of integer and floating-point arithmetic, local arrays, the benchmark loop and the demo.

package examples

import (
	"math"
	"math/big"
	"math/bits"
)

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
