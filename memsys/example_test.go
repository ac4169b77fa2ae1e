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
