package perfmon

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

func newMon(t *testing.T, ports int, specs ...string) *PerfMon {
	t.Helper()
	p := Params{NumPorts: ports}
	for i := range p.Counters {
		s := "off"
		if i < len(specs) {
			s = specs[i]
		}
		p.Counters[i] = counter(t, s)
	}
	u, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func ev(port int, mask uint16, in *Inputs) {
	in.EventValid[port], in.EventMask[port] = true, mask
}

// counter builds a Counter from a pm.counter spec ("cycles", "event:3",
// "events:0x5", "stall:sleep"; package unitcfg is the model's mapping, this
// is the test's own).
func counter(t *testing.T, spec string) Counter {
	t.Helper()
	c, err := config.ParsePMCounter(spec)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[config.PMKind]Kind{config.PMOff: Off, config.PMCycles: Cycles, config.PMInstructions: Instructions, config.PMEvents: Events, config.PMStall: Stall}
	return Counter{Kind: kinds[c.Kind], Mask: c.Mask, Stall: stallIndex(t, c.State)}
}

// stallIndex is the stall_count_i index of a config.StallStates name (0
// for "").
func stallIndex(t *testing.T, state string) int {
	t.Helper()
	if state == "" {
		return 0
	}
	for i, s := range config.StallStates() {
		if s == state {
			return i
		}
	}
	t.Fatalf("no stall state %q", state)
	return 0
}

func TestStallStatesLength(t *testing.T) {
	if n := len(config.StallStates()); n != NumStallStates {
		t.Fatalf("config.StallStates has %d names, NumStallStates is %d", n, NumStallStates)
	}
}

func TestEventCounts(t *testing.T) {
	u := newMon(t, 4, "event:3", "events:0x0005", "events:0xffff", "event:15")
	var c0, c1, c2 Inputs
	ev(0, 1<<3, &c0)         // pmevent 3
	ev(2, 0x00ff, &c0)       // pmevent.mask 0xff (events 0..7) on another scheduler
	ev(1, 1<<15, &c1)        // pmevent 15
	c1.EventMask[3] = 0xffff // valid low: ignored
	ev(0, 0x0005, &c2)       // pmevent.mask 5: events 0 and 2
	ev(5, 0xffff, &c2)       // port 5 is beyond NumPorts: ignored
	outs := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, c0, c1, c2, Inputs{})
	if outs[0] != (Outputs{}) {
		t.Errorf("counts at reset %+v", outs[0])
	}
	got := outs[3]
	want := [NumEvents]uint64{0: 2, 1: 1, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 15: 1}
	if got.EventCount != want {
		t.Errorf("event counts %v, want %v", got.EventCount, want)
	}
	// event:3 = 2; events:0x5 = events 0 and 2 = 4; events:0xffff = every
	// trigger = 12; event:15 = 1.
	if wantPm := [NumCounters]uint64{2, 4, 12, 1}; got.Pm != wantPm {
		t.Errorf("pm %v, want %v", got.Pm, wantPm)
	}
	// A counter over a mask is the sum of its events' counts.
	for i, c := range u.Params().Counters {
		var sum uint64
		for k := 0; k < NumEvents; k++ {
			if c.Kind == Events && c.Mask&(1<<k) != 0 {
				sum += got.EventCount[k]
			}
		}
		if got.Pm[i] != sum {
			t.Errorf("pm%d = %d, sum over mask %d", i, got.Pm[i], sum)
		}
	}
}

func TestCounterKinds(t *testing.T) {
	u := newMon(t, 2, "cycles", "instructions", "stall:sleep", "stall:any", "off", "stall:not_selected", "event:0", "events:0x8001")
	sleep, ns := stallIndex(t, "sleep"), stallIndex(t, "not_selected")
	ins := make([]Inputs, 10)
	for i := range ins {
		ins[i].IssueCount = uint8(i % 3)
		ins[i].StallCount[0] = uint16(i) // any
		ins[i].StallCount[sleep] = 2     // two warps asleep
		ins[i].StallCount[ns] = uint16(i % 2)
	}
	ev(1, 1, &ins[4])
	ev(0, 0x8000, &ins[6])
	outs := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, u, ins...)
	var want [NumCounters]uint64
	for c, o := range outs {
		if o.Pm != want {
			t.Fatalf("cycle %d: pm %v, want %v", c, o.Pm, want)
		}
		in := ins[c]
		want[0]++
		want[1] += uint64(in.IssueCount)
		want[2] += 2
		want[3] += uint64(in.StallCount[0])
		want[5] += uint64(in.StallCount[ns])
		if c == 4 {
			want[6]++
			want[7]++
		}
		if c == 6 {
			want[7]++
		}
	}
	if q := u.Q().Pm; q != want {
		t.Errorf("final pm %v, want %v", q, want)
	}
	if u.Q().Pm[4] != 0 {
		t.Error("off counter moved")
	}
}

// TestPm32 checks %pmN (the low 32 bits) against %pmN_64 across 2^32.
func TestPm32(t *testing.T) {
	u := newMon(t, 1, "cycles")
	u.Advance(Inputs{}, 1<<32+5)
	o := u.Eval(Inputs{})
	if o.Pm[0] != 1<<32+5 || uint32(o.Pm[0]) != 5 {
		t.Errorf("pm0_64 %#x", o.Pm[0])
	}
}

func randInputs(r *rand.Rand) Inputs {
	var in Inputs
	for p := 0; p < MaxPorts; p++ {
		if r.IntN(4) == 0 {
			ev(p, uint16(r.Uint32()), &in)
		}
	}
	in.IssueCount = uint8(r.IntN(MaxPorts + 1))
	for i := range in.StallCount {
		in.StallCount[i] = uint16(r.IntN(64))
	}
	return in
}

func randMon(t *testing.T, r *rand.Rand) (*PerfMon, *PerfMon) {
	kinds := []string{"off", "cycles", "instructions", "event:7", "events:0x0f0f", "stall:any", "stall:barrier", "stall:memory"}
	specs := make([]string, NumCounters)
	for i := range specs {
		specs[i] = kinds[r.IntN(len(kinds))]
	}
	ports := 1 + r.IntN(MaxPorts)
	return newMon(t, ports, specs...), newMon(t, ports, specs...)
}

func TestTwoPhaseAndAdvance(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 100; trial++ {
		a, b := randMon(t, r)
		ins := make([]Inputs, 50)
		for i := range ins {
			ins[i] = randInputs(r)
		}
		rtltest.CheckTwoPhase[Inputs, Outputs, State](t, a, ins...)
		for _, in := range ins {
			b.Advance(in, 1)
		}
		if a.Q() != b.Q() {
			t.Fatalf("trial %d: Advance(in, 1) differs from a cycle", trial)
		}
		in, n := randInputs(r), r.Uint64N(1000)
		for i := uint64(0); i < n; i++ {
			a.Eval(in)
			a.Tick()
		}
		b.Advance(in, n)
		if a.Q() != b.Q() || b.D() != b.Q() {
			t.Fatalf("trial %d: Advance(in, %d) differs from stepping", trial, n)
		}
	}
}

// TestAdvanceTotals checks that catching up with the sums of a stretch's
// inputs gives the registers that stepping through the stretch gives.
func TestAdvanceTotals(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 100; trial++ {
		a, b := randMon(t, r)
		var tot Totals
		n := r.IntN(60)
		for range n {
			in := randInputs(r)
			a.Eval(in)
			a.Tick()
			tot.Issued += uint64(in.IssueCount)
			for i, c := range in.StallCount {
				tot.Stall[i] += uint64(c)
			}
			b.AddEvents(&tot, &in)
		}
		b.AdvanceTotals(uint64(n), &tot)
		if a.Q() != b.Q() || b.D() != b.Q() {
			t.Fatalf("trial %d: AdvanceTotals over %d cycles differs from stepping", trial, n)
		}
	}
}

func TestCountsJSON(t *testing.T) {
	u := newMon(t, 1, "cycles", "event:2")
	var in Inputs
	ev(0, 1<<2, &in)
	u.Eval(in)
	u.Tick()
	type report struct {
		Status string `json:"status"`
		Counts
	}
	b, err := json.Marshal(report{Status: "completed", Counts: u.Counts()})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var evs, pms []uint64
	if json.Unmarshal(m["pm_events"], &evs) != nil || json.Unmarshal(m["pm_counters"], &pms) != nil {
		t.Fatalf("keys missing: %s", b)
	}
	if len(evs) != 16 || len(pms) != 8 || evs[2] != 1 || pms[0] != 1 || pms[1] != 1 {
		t.Errorf("report %s", b)
	}
}

func TestNewErrors(t *testing.T) {
	bad := []Params{
		{NumPorts: 0},
		{NumPorts: MaxPorts + 1},
		{NumPorts: 1, Counters: [NumCounters]Counter{{Kind: Events}}},
		{NumPorts: 1, Counters: [NumCounters]Counter{{Kind: Stall, Stall: NumStallStates}}},
		{NumPorts: 1, Counters: [NumCounters]Counter{{Kind: Stall, Stall: -1}}},
		{NumPorts: 1, Counters: [NumCounters]Counter{{Kind: 99}}},
	}
	rtltest.RejectsAll(t, New, bad)
}

func TestSignalTable(t *testing.T) {
	rtltest.CheckTypes(t, Inputs{}, Outputs{}, State{})
	tab := newMon(t, 4).Signals()
	want := rtl.Table{
		{Name: "event_valid_i", Width: 4, Dir: rtl.DirIn, Scope: Scope, Elem: 1},
		{Name: "event_mask_i", Width: 64, Dir: rtl.DirIn, Scope: Scope, Elem: 16},
		{Name: "issue_count_i", Width: 3, Dir: rtl.DirIn, Scope: Scope},
		{Name: "stall_count_i", Width: 176, Dir: rtl.DirIn, Scope: Scope, Elem: 16},
		{Name: "pm_o", Width: 512, Dir: rtl.DirOut, Scope: Scope, Elem: 64},
		{Name: "event_count_o", Width: 1024, Dir: rtl.DirOut, Scope: Scope, Elem: 64},
		{Name: "pm_q", Width: 512, Dir: rtl.DirReg, Scope: Scope, Elem: 64},
		{Name: "event_count_q", Width: 1024, Dir: rtl.DirReg, Scope: Scope, Elem: 64},
	}
	if !reflect.DeepEqual(tab, want) {
		t.Errorf("table\n%+v\nwant\n%+v", tab, want)
	}
	if Scope != "sm_top.u_perf_mon" {
		t.Errorf("scope %q", Scope)
	}
}

// TestOutNoCombPath: Out equals Eval's outputs whatever the inputs, and
// changes neither Q nor D.
func TestOutNoCombPath(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	u, _ := randMon(t, r)
	rtltest.CheckOut[Inputs, Outputs, State](t, u, 100, func() Inputs { return randInputs(r) })
}
