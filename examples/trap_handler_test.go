package examples

import (
	"regexp"
	"testing"
)

// An example with a TrapHandler defines it as a .func with the SASS
// trap-handler instructions, and has a valid host policy.
func TestTrapHandlerExamples(t *testing.T) {
	n := 0
	for _, e := range All() {
		if e.TrapHandler == "" {
			if e.OnTrap != "" {
				t.Errorf("%s: OnTrap without a TrapHandler", e.Name)
			}
			continue
		}
		n++
		body, ok := functionBodies(string(e.PTX))[e.TrapHandler]
		if !ok {
			t.Errorf("%s: no .func %s in the PTX", e.Name, e.TrapHandler)
			continue
		}
		if !regexp.MustCompile(`\bRTT;`).MatchString(body) || !regexp.MustCompile(`\bS2R\s+%r\d+, SR_WARP_ESR;`).MatchString(body) {
			t.Errorf("%s: the handler reads no SR_WARP_ESR or has no RTT", e.Name)
		}
		if e.OnTrap != "abort" && e.OnTrap != "resume" && e.OnTrap != "" {
			t.Errorf("%s: OnTrap %q", e.Name, e.OnTrap)
		}
	}
	if n == 0 {
		t.Fatal("no example runs a trap handler")
	}
}
