package cosim

import (
	"context"
	"testing"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
)

func trapUnit(t testing.TB, p trapunit.Params) Unit {
	t.Helper()
	u, err := TrapUnit(p)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestTrapUnitMillion: one million random cycles per standard parameter
// set (with and without a trap handler) with zero mismatches.
func TestTrapUnitMillion(t *testing.T) { unitMillion(t, "trap_unit", 200) }

// TestTrapUnitOddSizes: one warp and one port; a non-power-of-two warp
// count (event warp indices beyond NumWarps); 64 warps and 8 ports.
func TestTrapUnitOddSizes(t *testing.T) {
	for _, c := range []struct {
		p      trapunit.Params
		cycles uint64
	}{
		{trapunit.Params{NumWarps: 1, NumPorts: 1, HasHandler: true}, 100_000},
		{trapunit.Params{NumWarps: 12, NumPorts: 3, HasHandler: false}, 200_000},
		{trapunit.Params{NumWarps: 64, NumPorts: 8, HasHandler: true}, 50_000},
	} {
		u := trapUnit(t, c.p)
		t.Run(ParamString(u.Params()), func(t *testing.T) {
			if _, err := Run(context.Background(), u, random(u, 9), Options{Cycles: shortCycles(c.cycles)}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTrapStimulusCoverage: the random stimulus makes the interesting
// things happen often: handler entries, resumes, pauses, quiet returns,
// host wakes and resumes accepted, masked traps taken at IDE.EN, nested
// traps, every interrupt cause.
func TestTrapStimulusCoverage(t *testing.T) {
	for _, has := range []bool{true, false} {
		p := trapunit.Params{NumWarps: 8, NumPorts: 2, HasHandler: has}
		g := newTrapStim(p, 1)
		m, _ := trapunit.New(p)
		var in trapunit.Inputs
		cnt := map[string]int{}
		const cycles = 200_000
		for c := uint64(0); c < cycles; c++ {
			g.next(c, &in)
			q := m.Q()
			o := m.Eval(in)
			d := m.D()
			newIn := d.InHandler.AndNot(q.InHandler)
			if o.EnterHandler.Any() || newIn.Any() {
				cnt["enter"]++
			}
			if o.Resume.Any() {
				cnt["resume"]++
			}
			if o.ReturnToUser {
				cnt["return_to_user"]++
			}
			if o.AllPaused {
				cnt["all_paused"]++
			}
			if o.HostAck && (in.HostCmd == trapunit.HostWakeAll || in.HostCmd == trapunit.HostWakeWarp) {
				cnt["wake"]++
			}
			if o.HostAck && in.HostCmd == trapunit.HostResume {
				cnt["host_resume"]++
			}
			if o.HostErr != 0 {
				cnt["host_refused"]++
			}
			for p := 0; p < 2; p++ {
				if in.EvValid[p] && in.EvKind[p] == trapunit.EvRTT {
					cnt["rtt"]++
				}
				if in.EvValid[p] && in.EvKind[p] == trapunit.EvIDEEnable && q.WarpESR[in.EvWarp[p]%8].Pending() != 0 {
					cnt["pending_taken"]++
				}
			}
			for b, name := range []string{"irq_pause", "irq_int", "irq_trap", "irq_error"} {
				if d.IRQPending&^q.IRQPending&(1<<b) != 0 {
					cnt[name]++
				}
			}
			m.Tick()
		}
		t.Logf("handler %v: %v", has, cnt)
		want := []string{"enter", "resume", "all_paused", "host_resume", "host_refused", "rtt", "pending_taken", "irq_int", "irq_trap", "irq_error"}
		if has {
			// Without a handler every warp in the handler is stopped, so
			// it issues no BPT.PAUSE and the host cannot WAKE.
			want = append(want, "return_to_user", "wake", "irq_pause")
		}
		for _, k := range want {
			if cnt[k] < 100 {
				t.Errorf("handler %v: %s only %d times in %d cycles", has, k, cnt[k], cycles)
			}
		}
	}
}

// TestTrapUnitMutationsAreCaught breaks trap_unit in a copy of the RTL
// and checks that the run stops at the right cycle on the right signal.
func TestTrapUnitMutationsAreCaught(t *testing.T) {
	p := trapunit.Params{NumWarps: 8, NumPorts: 2, HasHandler: true}
	live := rtl.BitsOf(0, 1, 2, 3)
	base := func(n int) []trapunit.Inputs {
		ins := make([]trapunit.Inputs, n)
		ins[0] = trapunit.Inputs{WarpLive: live, WarpLaunch: live}
		for i := 1; i < n; i++ {
			ins[i] = trapunit.Inputs{WarpLive: live}
			for w := 0; w < 4; w++ {
				ins[i].WarpPC[w] = uint32(0x100*w + i)
			}
		}
		return ins
	}
	cases := []struct {
		name, old, new string
		inputs         func() []trapunit.Inputs
		cycle          uint64
		signal         string
		goVal, rtlVal  string
	}{
		{
			// Reason 7 made maskable: under IDE.DIS (cycle 5) warp 2's
			// BPT.TRAP 7 at cycle 10 is held instead of taken, so the
			// pulse enter_handler_o differs at once.
			name: "trap-nonmaskable",
			old:  "if (bpt_r != smsim_pkg::ReasonNonMaskable && int_mask_d[ev_w]) begin",
			new:  "if (int_mask_d[ev_w]) begin",
			inputs: func() []trapunit.Inputs {
				ins := base(20)
				ins[5].SetEvent(0, trapunit.Event{Warp: 2, Kind: trapunit.EvIDEDisable, PCNext: 0x205})
				ins[10].SetEvent(1, trapunit.Event{Warp: 2, Kind: trapunit.EvBPTTrap, Arg: 7, PCNext: 0x20a})
				return ins
			},
			cycle: 10, signal: "enter_handler_o", goVal: "0xf (15)", rtlVal: "0x0 (0)",
		},
		{
			// The interrupt counter counts by two: the first interrupt
			// (a warp error at cycle 7) shows in irq_count_q at cycle 8.
			name: "trap-irq-count",
			old:  "irq_count_d   = irq_count_d + 32'd1;",
			new:  "irq_count_d   = irq_count_d + 32'd2;",
			inputs: func() []trapunit.Inputs {
				ins := base(20)
				ins[7].SetEvent(0, trapunit.Event{Warp: 1, Kind: trapunit.EvWarpError, Arg: 4, PCNext: 0x108})
				return ins
			},
			cycle: 8, signal: "irq_count_o", goVal: "0x1 (1)", rtlVal: "0x2 (2)",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := trapUnit(t, p)
			ho := mutantRTL(t, c.name, "trap_unit.sv", c.old, c.new)
			// The unmutated RTL passes the same inputs.
			if _, err := Run(context.Background(), u, records(t, u, c.inputs()), Options{}); err != nil {
				t.Fatalf("unmutated: %v", err)
			}
			m := caught(t, u, records(t, u, c.inputs()), Options{Harness: ho, Window: 8})
			if m.Cycle != c.cycle || m.Signal != c.signal || m.Go != c.goVal || m.RTL != c.rtlVal {
				t.Fatalf("got cycle %d %s go %s rtl %s, want cycle %d %s go %s rtl %s\n%v",
					m.Cycle, m.Signal, m.Go, m.RTL, c.cycle, c.signal, c.goVal, c.rtlVal, m)
			}
		})
	}
}

// TestTrapUnitMutationRandom: a subtle mutant (a nested trap of a warp
// that entered the handler this cycle pauses it) is found by the random
// stimulus, and every cycle before the reported one matches.
func TestTrapUnitMutationRandom(t *testing.T) {
	u := trapUnit(t, trapunit.Params{NumWarps: 8, NumPorts: 2, HasHandler: true})
	ho := mutantRTL(t, "trap-nested-entered", "trap_unit.sv",
		"            // nested(w, 0)\n            if (!entered[ev_w]) begin",
		"            // nested(w, 0)\n            if (1'b1) begin")
	m := caught(t, u, random(u, 21), Options{Cycles: 1_000_000, Harness: ho})
	if m.Signal != "paused_q" && m.Signal != "quiet_q" && m.Signal != "warp_paused_o" {
		t.Errorf("first difference on %s; the mutation pauses warps", m.Signal)
	}
	t.Logf("caught at cycle %d on %s", m.Cycle, m.Signal)
	if m.Cycle > 0 {
		if _, err := Run(context.Background(), u, random(u, 21), Options{Cycles: m.Cycle, Harness: ho}); err != nil {
			t.Fatalf("cycles before %d: %v", m.Cycle, err)
		}
	}
}
