package cosim

import (
	"testing"

	"github.com/smsim/smsim/memsys"
)

// TestCoalescerMillion: one million random cycles.
func TestCoalescerMillion(t *testing.T) { unitMillion(t, "coalescer", 600) }

// TestCoalescerMutations breaks coalescer in a copy of the RTL and checks
// that the run stops at the right cycle on the right signal.
func TestCoalescerMutations(t *testing.T) {
	u, err := Coalescer()
	if err != nil {
		t.Fatal(err)
	}
	// At cycle 2, 4-byte loads at a lane stride of 16 bytes from 0x1000:
	// lanes 0..7 in line 0x1000 (sectors 0..3, each touched twice), lanes
	// 8..15 in 0x1080, 16..23 in 0x1100, 24..31 in 0x1180: 4 lines, 16
	// sectors. (One mutant: each costs a Verilator build in CI.)
	stride := func() []memsys.CoalescerInputs {
		ins := make([]memsys.CoalescerInputs, 10)
		r := &ins[2]
		r.ReqValid, r.ReqSize, r.ReqMask, r.ReqID = true, 4, ^uint32(0), 9
		for l := range r.ReqAddr {
			r.ReqAddr[l] = 0x1000 + uint64(l)*16
		}
		return ins
	}
	// A sector touched twice counted twice: 32 sectors, not 16.
	mutantCaughtAt(t, u, "coalescer-sectors", "coalescer.sv",
		"n_sectors = n_sectors + 6'(sectors[4*j]) + 6'(sectors[4*j+1]) + 6'(sectors[4*j+2])\n                + 6'(sectors[4*j+3]);",
		"n_sectors = n_sectors + 6'(lanes[32*j +: 8] != 8'd0) * 6'd8;", stride(), 2, "req_sectors_o")
}
