package cosim

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/unitcfg"
)

// TestPerfMonMillion: one million random cycles per standard set.
func TestPerfMonMillion(t *testing.T) { unitMillion(t, "perf_mon", 300) }

// TestPerfMonCounterCode checks the CounterN encoding.
func TestPerfMonCounterCode(t *testing.T) {
	for _, c := range []struct {
		spec string
		code int
	}{
		{"off", 0}, {"cycles", 1}, {"instructions", 2}, {"event:3", 3 | 8<<4},
		{"events:0xffff", 3 | 0xffff<<4}, {"stall:any", 4}, {"stall:not_selected", 4 | 10<<4},
	} {
		pc, err := config.ParsePMCounter(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		pm, err := unitcfg.Counter(pc)
		if err != nil {
			t.Fatal(err)
		}
		if got := PerfMonCounterCode(pm); got != c.code {
			t.Errorf("%s: %d, want %d", c.spec, got, c.code)
		}
	}
}

// TestPerfMonMutations breaks perf_mon in a copy of the RTL and checks
// that the run stops at the right cycle on the right signal.
func TestPerfMonMutations(t *testing.T) {
	p := PerfMonSets()[0] // counter 0 cycles, counter 2 event:3
	u, err := PerfMon(p)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new string
		ins            func() []perfmon.Inputs
		cycle          uint64
		signal         string
	}{
		{
			// The cycle counter counts by two: pm_q[0] is 1 in Go, 2 in
			// the mutant at cycle 1; pm_o comes first in the record.
			name: "pm-cycles-step", old: "assign inc = 64'd1;", new: "assign inc = 64'd2;",
			ins:   func() []perfmon.Inputs { return make([]perfmon.Inputs, 10) },
			cycle: 1, signal: "pm_o",
		},
		{
			// A trigger counted without event_valid_i: a mask of event 3
			// on an idle port at cycle 4 bumps the event:3 counter (pm_o,
			// before event_count_o) at cycle 5.
			name: "pm-event-valid", old: "if (event_valid_i[p] && event_mask_i[16*p + k]) begin",
			new: "if (event_valid_i[p] || event_mask_i[16*p + k]) begin",
			ins: func() []perfmon.Inputs {
				ins := make([]perfmon.Inputs, 12)
				ins[4].EventMask[1] = 1 << 3
				return ins
			},
			cycle: 5, signal: "pm_o",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ho := mutantRTL(t, c.name, "perf_mon.sv", c.old, c.new)
			m := caught(t, u, records(t, u, c.ins()), Options{Harness: ho, Window: 8})
			if m.Cycle != c.cycle || m.Signal != c.signal {
				t.Fatalf("got cycle %d %s (go %s rtl %s), want cycle %d %s\n%v", m.Cycle, m.Signal, m.Go, m.RTL, c.cycle, c.signal, m)
			}
			cleanWaves(t, m)
		})
	}
}

// TestPortsOddSizesClockTimerPerfMon extends TestPortsMatchGoTags (which
// covers the standard sets) to the area sets and odd sizes of clock_timer
// and perf_mon: one warp, 64 warps, 8 ports, one port.
func TestPortsOddSizesClockTimerPerfMon(t *testing.T) {
	var us []Unit
	for _, m := range []string{"clock_timer", "perf_mon"} {
		info, _ := LookupUnit(m)
		a, err := info.AreaSets()
		if err != nil {
			t.Fatal(err)
		}
		us = append(us, a...)
	}
	for _, p := range []clocktimer.Params{
		{NumWarps: 1, NumPorts: 1, MHz: 1, ResolutionNs: 1},
		{NumWarps: 64, NumPorts: 8, MHz: 100000, ResolutionNs: 1 << 40, ClockStart: ^uint64(0), TimerStartNs: 1 << 63},
		{NumWarps: 33, NumPorts: 5, MHz: 999, ResolutionNs: 1000},
	} {
		u, err := ClockTimer(p)
		if err != nil {
			t.Fatal(err)
		}
		us = append(us, u)
	}
	u, err := PerfMon(perfmon.Params{NumPorts: 8, Counters: pmCounters("stall:not_selected", "events:0xffff")})
	if err != nil {
		t.Fatal(err)
	}
	us = append(us, u)
	for _, u := range us {
		t.Run(u.Module()+" "+ParamString(u.Params()), func(t *testing.T) {
			vars, _ := verilatorXML(t, u)
			tab := u.Table()
			want := map[rtl.Dir]string{rtl.DirIn: "input", rtl.DirOut: "output", rtl.DirReg: ""}
			for _, s := range tab {
				if v, ok := vars[s.Name]; !ok || v.Dir != want[s.Dir] || v.Width != s.Width {
					t.Errorf("Go %s (%s, %d bits): RTL %+v (%v)", s.Name, s.Dir, s.Width, v, ok)
				}
			}
			for name, v := range vars {
				if _, ok := tab.Find(name); !ok && name != "clk_i" && name != "rst_ni" && (v.Dir != "" || strings.HasSuffix(name, "_q")) {
					t.Errorf("RTL %s (%+v) has no Go twin", name, v)
				}
			}
		})
	}
}
