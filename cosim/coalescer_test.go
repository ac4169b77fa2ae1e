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
	cases := []struct {
		name, old, new string
		cycle          uint64
		signal         string
	}{
		{
			// A sector touched twice counted twice: 32 sectors, not 16.
			name: "coalescer-sectors", old: "n_sectors = n_sectors + 6'(sectors[4*j]) + 6'(sectors[4*j+1]) + 6'(sectors[4*j+2])\n                + 6'(sectors[4*j+3]);",
			new:   "n_sectors = n_sectors + 6'(lanes[32*j +: 8] != 8'd0) * 6'd8;",
			cycle: 2, signal: "req_sectors_o",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ins := stride()
			ho := mutantRTL(t, c.name, "coalescer.sv", c.old, c.new)
			m := caught(t, u, records(t, u, ins), Options{Harness: ho, Window: 8})
			if m.Cycle != c.cycle || m.Signal != c.signal {
				t.Fatalf("got cycle %d %s (go %s rtl %s), want cycle %d %s\n%v", m.Cycle, m.Signal, m.Go, m.RTL, c.cycle, c.signal, m)
			}
		})
	}
}
