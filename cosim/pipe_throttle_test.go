package cosim

import (
	"testing"

	"github.com/smsim/smsim/pipethrottle"
)

// TestPipeThrottleMillion: one million random cycles per standard set.
func TestPipeThrottleMillion(t *testing.T) { unitMillion(t, "pipe_throttle", 700) }

// TestPipeThrottleMutation breaks pipe_throttle in a copy of the RTL: a
// pipe that refills one credit beyond its cap is caught where the credit
// first sits at the cap (cycle 0: reset leaves Cost, the first cycle adds
// the rate up to the cap, the mutant one more).
func TestPipeThrottleMutation(t *testing.T) {
	u, err := PipeThrottle(pipethrottle.Params{NumPorts: 4, Rate: [pipethrottle.NumPipes]int{128, 64, 64, 64, 16, 16}})
	if err != nil {
		t.Fatal(err)
	}
	ho := mutantRTL(t, "pipe-cap", "pipe_throttle.sv", "c = 17'(Cost + rate(p) - 1);", "c = 17'(Cost + rate(p));")
	m := caught(t, u, records(t, u, make([]pipethrottle.Inputs, 6)), Options{Harness: ho, Window: 8})
	if m.Cycle != 1 || m.Signal != "credit_q" {
		t.Fatalf("got cycle %d %s (go %s rtl %s), want cycle 1 credit_q\n%v", m.Cycle, m.Signal, m.Go, m.RTL, m)
	}
}
