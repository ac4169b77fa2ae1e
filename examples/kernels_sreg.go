// The special-register examples (sreg_all, sreg_cluster).

package examples

import (
	"fmt"
)

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
