package cosim

import (
	"testing"

	"github.com/smsim/smsim/memsys"
)

// TestSmemBanksMillion: one million random cycles per standard set.
func TestSmemBanksMillion(t *testing.T) { unitMillion(t, "smem_banks", 500) }

// TestSmemBanksMutations breaks smem_banks in a copy of the RTL and checks
// that the run stops at the right cycle on the right signal.
func TestSmemBanksMutations(t *testing.T) {
	u, err := SmemBanks(memsys.BankParams{Banks: 32, BankBytes: 4})
	if err != nil {
		t.Fatal(err)
	}
	// At cycle 2, 4-byte loads: lanes 0..15 all read word 0 (a
	// broadcast), lanes 16..31 words 32, 40, .., 152 (a lane stride of 8
	// words: words 32, 64, 96 and 128 share bank 0 with word 0): 5
	// wavefronts. (One mutant: each costs a Verilator build in CI.)
	conflict := func() []memsys.BankInputs {
		ins := make([]memsys.BankInputs, 10)
		r := &ins[2]
		r.ReqValid, r.ReqSize, r.ReqMask, r.ReqID = true, 4, ^uint32(0), 7
		for l := 16; l < 32; l++ {
			r.ReqAddr[l] = uint32(l-12) * 32
		}
		return ins
	}
	cases := []struct {
		name, old, new string
		cycle          uint64
		signal         string
	}{
		{
			// Broadcast lost: lanes reading one word count as distinct
			// words in the ranks of the words after them, so bank 0's
			// words rank from 16 on and the request takes 20 wavefronts,
			// not 5.
			name: "banks-broadcast", old: "if (req_mask_i[m] && (m >> lper) == (l >> lper) && word[m] == word[l]) begin\n          first[l] = 1'b0;",
			new:   "if (1'b0) begin\n          first[l] = 1'b0;",
			cycle: 2, signal: "req_wavefronts_o",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ho := mutantRTL(t, c.name, "smem_banks.sv", c.old, c.new)
			m := caught(t, u, records(t, u, conflict()), Options{Harness: ho, Window: 8})
			if m.Cycle != c.cycle || m.Signal != c.signal {
				t.Fatalf("got cycle %d %s (go %s rtl %s), want cycle %d %s\n%v", m.Cycle, m.Signal, m.Go, m.RTL, c.cycle, c.signal, m)
			}
		})
	}
}
