package pipeline

import (
	"math/big"
	"math/rand"
	"testing"
)

// intopsInputs are the 64 input words of intops.cu: edge values of 24-,
// 32-bit and byte arithmetic, then pseudo-random words.
func intopsInputs() []uint32 {
	in := []uint32{0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x00ffffff, 0x00800000, 0x007fffff,
		0xff800000, 0x12345678, 0x80808080, 0x7f7f7f7f, 0xffff0000, 0x0000ffff, 31, 32, 33, 63}
	r := rand.New(rand.NewSource(16))
	for len(in) < 64 {
		in = append(in, r.Uint32())
	}
	return in
}

// TestIntegerOps runs intops.cu (clang-16: mul24 builtins and 128-bit
// arithmetic, which clang writes as add.cc/addc.cc/sub.cc/subc.cc.s64;
// inline asm for the rest) and checks every output word against values
// computed here from the PTX ISA's definitions (math/big for the 128-bit
// chains).
func TestIntegerOps(t *testing.T) {
	in := intopsInputs()
	n := len(in)
	rep := runKernelFile(t, "intops", Launch{Block: [3]uint32{uint32(n), 1, 1}, Buffers: []Buffer{
		{Param: "intops_param_0", Size: 4 * 24 * n},
		{Param: "intops_param_1", Size: 4 * 8 * n},
		{Param: "intops_param_2", Size: 4 * n},
		{Param: "intops_param_3", Size: 4 * n, Init: words32(in)},
	}})
	out, out2, out3 := rep.Buffers["intops_param_0"], rep.Buffers["intops_param_1"], rep.Buffers["intops_param_2"]
	s24 := func(v uint32) int64 { return int64(int32(v<<8) >> 8) }
	u128 := func(w3, w2, w1, w0 uint32) *big.Int {
		v := new(big.Int)
		for _, w := range []uint32{w3, w2, w1, w0} {
			v.Lsh(v, 32).Or(v, big.NewInt(int64(w)))
		}
		return v
	}
	mod128 := new(big.Int).Lsh(big.NewInt(1), 128)
	word := func(v *big.Int, k int) uint32 {
		return uint32(new(big.Int).Rsh(v, uint(32*k)).Uint64())
	}
	for i := 0; i < n; i++ {
		x, y, z := in[i], in[(i+1)%n], in[(i+2)%n]
		var want [24]uint32
		pu := int64(x&0xffffff) * int64(y&0xffffff)
		ps := s24(x) * s24(y)
		want[0], want[1] = uint32(pu), uint32(ps)
		want[2], want[3] = uint32(pu>>16), uint32(ps>>16)
		want[4] = uint32(pu) + z
		sat := int64(int32(uint32(ps>>16))) + int64(int32(z))
		want[5] = uint32(int32(max(min(sat, 1<<31-1), -1<<31)))
		p, q := u128(x, y, z, x), u128(y, z, x, y)
		sum := new(big.Int).Add(p, q)
		sum.Mod(sum, mod128)
		diff := new(big.Int).Sub(p, q)
		diff.Mod(diff, mod128)
		prod := new(big.Int).Mul(u128(0, 0, x, y), u128(0, 0, z, x))
		prod.Mod(prod, mod128)
		for k := 0; k < 4; k++ {
			want[6+k], want[10+k], want[14+k] = word(sum, k), word(diff, k), word(prod, k)
		}
		dot := func(av, bv []int64) uint32 {
			d := int64(z)
			if len(av) == 2 {
				d = int64(int32(z))
			}
			for j := range av {
				d += av[j] * bv[j]
			}
			return uint32(d)
		}
		ub := func(v uint32, j int) int64 { return int64(v >> (8 * j) & 0xff) }
		sb := func(v uint32, j int) int64 { return int64(int8(v >> (8 * j))) }
		want[18] = dot([]int64{ub(x, 0), ub(x, 1), ub(x, 2), ub(x, 3)}, []int64{ub(y, 0), ub(y, 1), ub(y, 2), ub(y, 3)})
		want[19] = dot([]int64{sb(x, 0), sb(x, 1), sb(x, 2), sb(x, 3)}, []int64{ub(y, 0), ub(y, 1), ub(y, 2), ub(y, 3)})
		want[20] = dot([]int64{int64(int16(x)), int64(int16(x >> 16))}, []int64{sb(y, 0), sb(y, 1)})
		want[21] = dot([]int64{int64(x & 0xffff), int64(x >> 16)}, []int64{sb(y, 2), sb(y, 3)})
		want[22] = bmskRef(x&63, y&63, false)
		want[23] = bmskRef(x&63, y&63, true)
		for k, w := range want {
			if got := out[24*i+k]; got != w {
				t.Errorf("thread %d (x=%#x y=%#x z=%#x) word %d: %#x, want %#x", i, x, y, z, k, got, w)
			}
		}
		d01 := ^x & ^y & ^z
		want2 := [8]uint32{
			szextRef(x, y&63, true, false), szextRef(x, y&63, false, true),
			fnsRef(x, y&31, int32(z)%40),
			x&y | x&z | y&z, x ^ y ^ z,
			b2u32(x&y&z != 0 || z&1 != 0), b2u32(d01 != 0 && z&1 != 0), d01,
		}
		for k, w := range want2 {
			if got := out2[8*i+k]; got != w {
				t.Errorf("thread %d (x=%#x y=%#x z=%#x) out2 word %d: %#x, want %#x", i, x, y, z, k, got, w)
			}
		}
		if got, w := out3[i], b2u32(x < y); got != w {
			t.Errorf("thread %d: borrow of %#x - %#x = %d, want %d", i, x, y, got, w)
		}
	}
}

func b2u32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// bmskRef: bits start..start+width-1 below 32. .clamp: start >= 32 gives 0,
// width is not limited; .wrap: start and width are taken mod 32.
func bmskRef(start, width uint32, wrap bool) uint32 {
	if wrap {
		start, width = start%32, width%32
	} else if start >= 32 {
		return 0
	}
	var m uint32
	for i := start; i < 32 && i-start < width; i++ {
		m |= 1 << i
	}
	return m
}

// szextRef: the low n bits of a, extended by sign (s32) or with zeros;
// n >= 32 keeps a (.clamp) or is taken mod 32 (.wrap); n = 0 gives 0.
func szextRef(a, n uint32, signed, wrap bool) uint32 {
	if n >= 32 {
		if !wrap {
			return a
		}
		n %= 32
	}
	if n == 0 {
		return 0
	}
	v := uint64(a) & (1<<n - 1)
	if signed && v>>(n-1) != 0 {
		v |= ^uint64(0) << n
	}
	return uint32(v)
}

// fnsRef: the offset-th set bit of mask from base, upwards (offset > 0),
// downwards (offset < 0) or base itself (offset 0), else all ones.
func fnsRef(mask, base uint32, offset int32) uint32 {
	if offset == 0 {
		if mask>>base&1 != 0 {
			return base
		}
		return 0xffffffff
	}
	seen := int32(0)
	for p := int32(base); p >= 0 && p < 32; {
		if mask>>uint(p)&1 != 0 {
			seen++
			if seen == offset || seen == -offset {
				return uint32(p)
			}
		}
		if offset > 0 {
			p++
		} else {
			p--
		}
	}
	return 0xffffffff
}
