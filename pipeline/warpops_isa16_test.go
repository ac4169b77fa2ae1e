package pipeline

import (
	"math/bits"
	"math/rand"
	"testing"
)

// TestReduxMatchElect runs warpops.cu (two warps) and checks every word
// against reductions, matches and elections computed here over the
// inputs, as the PTX ISA defines them (9.7.13: redux.sync "performs a
// reduction operation ... across all threads specified in membermask";
// match.any "d ... the mask of threads that have the same value of a";
// match.all: d = membermask and p true when all threads' values are the
// same, else 0 and false; elect.sync: "laneid of the elected thread is
// returned in d", p "True for the leader thread, and False for all other
// threads", and election is deterministic: the model elects the lowest
// lane).
func TestReduxMatchElect(t *testing.T) {
	const n = 64
	in := make([]uint32, n)
	r := rand.New(rand.NewSource(3))
	for i := range in {
		in[i] = r.Uint32()
		if i%5 == 0 {
			in[i] |= 0x80000000
		}
	}
	rep := runKernelFile(t, "warpops", Launch{Block: [3]uint32{n, 1, 1}, Buffers: []Buffer{
		{Param: "warpops_param_0", Size: 4 * 16 * n},
		{Param: "warpops_param_1", Size: 4 * n, Init: words32(in)},
	}})
	out := rep.Buffers["warpops_param_0"]
	for wp := 0; wp < n/32; wp++ {
		xs := in[32*wp : 32*wp+32]
		var add, oddAdd, and, or, xor uint32 = 0, 0, ^uint32(0), 0, 0
		umin, umax := ^uint32(0), uint32(0)
		smin, smax := int32(0x7fffffff), int32(-0x80000000)
		var evens uint32
		for l, x := range xs {
			add += x
			if l&1 == 1 {
				oddAdd += x
			}
			and, or, xor = and&x, or|x, xor^x
			umin, umax = min(umin, x), max(umax, x)
			smin, smax = min(smin, int32(x)), max(smax, int32(x))
			if x&1 == 0 {
				evens |= 1 << l
			}
		}
		leader := uint32(bits.TrailingZeros32(evens))
		for l, x := range xs {
			var anyMask, any64, all7 uint32
			for k, y := range xs {
				if y&7 == x&7 {
					anyMask |= 1 << k
				}
				if y&3 == x&3 {
					any64 |= 1 << k
				}
			}
			if anyMask == ^uint32(0) {
				all7 = ^uint32(0)
			}
			want := [16]uint32{add, uint32(smin), umax, umin, uint32(smax), and, or, xor, 0,
				anyMask, any64, all7, b2u32(all7 != 0), ^uint32(0), 1, 0xffffffff}
			if l&1 == 1 {
				want[8] = oddAdd
			}
			if x&1 == 0 {
				want[15] = leader | b2u32(uint32(l) == leader)<<8
			}
			tid := 32*wp + l
			for k, w := range want {
				if got := out[16*tid+k]; got != w {
					t.Errorf("thread %d word %d: %#x, want %#x", tid, k, got, w)
				}
			}
		}
	}
	if len(rep.Errors) != 0 {
		t.Errorf("errors: %+v", rep.Errors)
	}
}

// A redux.sync, match.sync or elect.sync whose member mask names live
// lanes that do not execute it is a warp_sync error (PTX ISA: "The
// behavior of redux.sync is undefined if the executing thread is not in
// the membermask", and each waits for all threads of membermask), as for
// vote.sync and shfl.sync; the executing lanes still get the operation
// over themselves.
func TestWarpOpsNotConverged(t *testing.T) {
	for _, c := range []struct{ name, inst string }{
		{"redux", "redux.sync.add.u32 %r3, %r2, 0xffffffff;"},
		{"match", "match.any.sync.b32 %r3, %r2, 0xffffffff;"},
		{"elect", "elect.sync %r3|%p2, 0xffffffff;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := kernel(`
	mov.u32 %r3, 0;
	setp.lt.u32 %p1, %r2, 16;
	@%p1 ` + c.inst + `
	st.global.u32 [%rd3], %r3;
	ret;`)
			_, rep := runPTX(t, smallConfig(), src, threadsLaunch(32))
			if len(rep.Errors) != 1 || rep.Errors[0].Kind != "warp_sync" {
				t.Fatalf("errors %+v, want one warp_sync", rep.Errors)
			}
		})
	}
}
