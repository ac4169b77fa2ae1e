package memsys_test

import (
	"fmt"

	"github.com/smsim/smsim/memsys"
)

// A warp's 4-byte loads at a stride of two words touch eight sectors in two
// lines.
func ExampleCoalesce() {
	r := memsys.WarpReq{Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 4, Mask: ^uint32(0)}
	for l := range r.Addr {
		r.Addr[l] = 0x1000 + uint64(l)*8
	}
	c, err := memsys.Coalesce(&r)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Sectors, "sectors in", c.N, "lines")
	for _, ln := range c.Lines[:c.N] {
		fmt.Printf("line %#x sectors %04b lanes %#08x\n", ln.Addr, ln.Sectors, ln.Lanes)
	}
	// Output:
	// 8 sectors in 2 lines
	// line 0x1000 sectors 1111 lanes 0x0000ffff
	// line 0x1080 sectors 1111 lanes 0xffff0000
}

// Every lane reads a different word of bank 0: a 32-way conflict, served in
// 32 wavefronts; lanes reading one word share it.
func ExampleSharedWavefronts() {
	p := memsys.BankParams{Banks: 32, BankBytes: 4}
	var a [memsys.WarpSize]uint32
	for l := range a {
		a[l] = uint32(l) * 128
	}
	w, _ := memsys.SharedWavefronts(p, &a, 4, ^uint32(0))
	fmt.Println(w.N, "wavefronts,", w.Conflicts(), "conflicts")
	for l := range a {
		a[l] = 64
	}
	w, _ = memsys.SharedWavefronts(p, &a, 4, ^uint32(0))
	fmt.Println(w.N, "wavefront,", w.Conflicts(), "conflicts")
	// Output:
	// 32 wavefronts, 31 conflicts
	// 1 wavefront, 0 conflicts
}

// The load/store stage offers one warp instruction a cycle and gets its
// facts at once and its response, with the tag, when it completes: here a
// coalesced load that misses to DRAM, then hits in the L1.
func ExamplePort() {
	p, err := memsys.NewPort(memsys.PortParams{
		Hier: memsys.HierParams{
			L1:    memsys.L1Params{SizeBytes: 16384, Assoc: 32, MSHRs: 8, MSHRTargets: 4, HitLatency: 4, InQueue: 4, MissQueue: 4},
			Const: memsys.ConstParams{SizeBytes: 512, LineBytes: 64, Assoc: 2, HitLatency: 2, MSHRs: 2, Queue: 2},
			L2: memsys.L2Params{SliceBytes: 65536, Assoc: 8, Partitions: 1, LatNear: 10, LatFar: 10, BW: memsys.Rate{Num: 64, Den: 1},
				Queue: 8, DRAM: memsys.DRAMParams{Latency: 20, BW: memsys.Rate{Num: 16, Den: 1}, Queue: 8}},
		},
		Banks:         memsys.BankParams{Banks: 32, BankBytes: 4},
		SharedLatency: 4,
		Inflight:      8,
	})
	if err != nil {
		panic(err)
	}
	req := memsys.Request{Tag: 42, Op: memsys.OpLoad, Space: memsys.SpaceGlobal, Size: 4, Mask: ^uint32(0)}
	for l := range req.Addr {
		req.Addr[l] = 0x1000 + uint64(4*l)
	}
	for i := 0; i < 2; i++ {
		o := p.Step(&req)
		fmt.Println("taken:", o.Ready, "sectors:", o.Facts.Sectors, "lines:", o.Facts.Lines)
		for p.Inflight() > 0 {
			if n, ok := p.NextEvent(); ok && n > 0 {
				p.Advance(n) // nothing happens for n cycles
				continue
			}
			for _, r := range p.Step(nil).Responses() {
				fmt.Println("tag", r.Tag, "done after", r.Cycle-r.Issued, "cycles")
			}
		}
	}
	// Output:
	// taken: true sectors: 4 lines: 1
	// tag 42 done after 24 cycles
	// taken: true sectors: 4 lines: 1
	// tag 42 done after 5 cycles
}
