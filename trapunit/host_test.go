package trapunit

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/rtl"
)

// runHost runs n cycles with h driving the host command from the previous
// cycle's outputs; it returns h's Stop, if any.
func runHost(t *testing.T, b *bench, h *Host, n int) *Stop {
	t.Helper()
	cmd, arg := HostNone, uint16(0)
	for i := 0; i < n; i++ {
		o := b.cmd(cmd, arg)
		var stop *Stop
		cmd, arg, stop = h.Step(&o, b.u.Params().NumWarps)
		if stop != nil {
			return stop
		}
	}
	return nil
}

func TestParsePolicy(t *testing.T) {
	for _, s := range []string{"abort", "resume"} {
		p, err := ParsePolicy(s)
		if err != nil || p.String() != s {
			t.Errorf("%s: %v %v", s, p, err)
		}
	}
	if _, err := ParsePolicy("ignore"); err == nil {
		t.Error("ParsePolicy accepted ignore")
	}
}

func TestHostPolicies(t *testing.T) {
	cases := []struct {
		name          string
		ev            Event
		onTrap, onBrk Policy
		wantStop      string // "": resumed
	}{
		{"trap abort", trap(1, 2, 40), Abort, Resume, StopTrap},
		{"trap resume", trap(1, 2, 40), Resume, Abort, ""},
		{"break resume", trap(1, 1, 40), Abort, Resume, ""},
		{"break abort", Event{Warp: 1, Kind: EvPTXBrkpt, PCNext: 40}, Resume, Abort, StopBreakpoint},
		{"error abort", werr(1, ErrMisalignedAddr, 40), Abort, Resume, StopError},
		{"error resume", werr(1, ErrMisalignedAddr, 40), Resume, Abort, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newBench(t, Params{NumWarps: 4}, 0, 1, 3)
			b.step(c.ev)
			h := NewHost(c.onTrap, c.onBrk, false)
			stop := runHost(t, b, h, 30)
			if c.wantStop != "" {
				if stop == nil || stop.Kind != c.wantStop {
					t.Fatalf("stop %+v, want %s", stop, c.wantStop)
				}
				if len(stop.Warps) != 1 || stop.Warps[0].Warp != 1 || stop.Warps[0].PC != 40 || !strings.Contains(stop.Error(), "warp 1") {
					t.Fatalf("stop warps %+v (%v)", stop.Warps, stop)
				}
				return
			}
			if stop != nil {
				t.Fatalf("stopped: %v", stop)
			}
			q := b.q()
			if q.SMTrapped || q.InHandler.Any() || q.GlobalESR != 0 || q.IRQPending != 0 || h.Resumes != 1 || h.Interrupts != 1 {
				t.Fatalf("after resume: %+v host %+v", q, h)
			}
		})
	}
}

// The host resumes the warps at their saved PCs: the trapping warp after
// the trapping instruction, the others where they were.
func TestHostResumePCs(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4}, 0, 2)
	b.step(trap(2, 3, 77))
	h := NewHost(Resume, Resume, false)
	cmd, arg := HostNone, uint16(0)
	var resumed rtl.Bits
	for i := 0; i < 20; i++ {
		o := b.cmd(cmd, arg)
		if o.Resume.Any() {
			resumed = o.Resume
			if o.ResumePC[2] != 77 || o.ResumePC[0] != pcOf(0) {
				t.Fatalf("resume pcs %v", o.ResumePC[:3])
			}
		}
		cmd, arg, _ = h.Step(&o, 4)
	}
	if resumed != rtl.BitsOf(0, 2) {
		t.Fatalf("resumed %v", resumed)
	}
}

// With a handler the host wakes the paused warps (they go on in the
// handler, which returns with RTT).
func TestHostWithHandler(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4, NumPorts: 2, HasHandler: true}, 0, 1)
	b.step(trap(0, 1, 5))
	b.step(ev(0, EvBPTPause), ev(1, EvBPTPause))
	h := NewHost(Abort, Resume, true)
	if stop := runHost(t, b, h, 10); stop != nil {
		t.Fatalf("stopped: %v", stop)
	}
	q := b.q()
	if q.Paused.Any() || !q.SMTrapped || h.Resumes != 1 {
		t.Fatalf("paused %v trapped %v resumes %d", q.Paused, q.SMTrapped, h.Resumes)
	}
	b.step(ev(0, EvRTT), ev(1, EvRTT))
	if q := b.q(); q.SMTrapped {
		t.Fatal("still trapped after RTT")
	}
}

// BPT.INT outside a trap: the host acknowledges and clears the bit; the
// run goes on.
func TestHostInt(t *testing.T) {
	b := newBench(t, Params{NumWarps: 2}, 0)
	b.step(ev(0, EvBPTInt))
	h := NewHost(Abort, Abort, false)
	if stop := runHost(t, b, h, 6); stop != nil {
		t.Fatalf("stopped: %v", stop)
	}
	if q := b.q(); q.IRQPending != 0 || q.GlobalESR != 0 || h.Interrupts != 1 || h.Refused != 0 {
		t.Fatalf("state %+v host %+v", q, h)
	}
}

// The host waits while some warp still runs in the handler.
func TestHostWaitsForAllPaused(t *testing.T) {
	b := newBench(t, Params{NumWarps: 4, NumPorts: 2, HasHandler: true}, 0, 1)
	b.step(trap(0, 2, 5))
	b.step(ev(0, EvBPTPause))
	h := NewHost(Abort, Abort, true)
	if stop := runHost(t, b, h, 10); stop != nil {
		t.Fatalf("decided before all paused: %v", stop)
	}
	b.step(ev(1, EvBPTPause))
	if stop := runHost(t, b, h, 4); stop == nil || stop.Kind != StopTrap {
		t.Fatalf("stop %v", stop)
	}
}
