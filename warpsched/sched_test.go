package warpsched

import (
	"reflect"
	"testing"

	"github.com/smsim/smsim/internal/unittest"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

// cyc is one cycle of a scenario: the warps valid, ready and in a long
// wait, and the warp expected to issue (-1: none).
type cyc struct {
	valid, ready, long []int
	stall              bool
	want               int
	active             []int // two_level: expected active_q after the cycle (nil: not checked)
}

var all8 = []int{0, 1, 2, 3, 4, 5, 6, 7}

func TestPolicies(t *testing.T) {
	// Launch order (ages): warp 5 first, then 2, then the rest in index
	// order, over three cycles before each scenario.
	launches := [][]int{{5}, {2}, {0, 1, 3, 4, 6, 7}}
	cases := []struct {
		name   string
		p      Params
		cycles []cyc
	}{
		{
			name: "lrr rotates from the warp after the last issued",
			p:    Params{NumWarps: 8, Policy: PolicyLRR},
			cycles: []cyc{
				{valid: all8, ready: all8, want: 0},
				{valid: all8, ready: all8, want: 1},
				{valid: all8, ready: []int{1, 5}, want: 5},        // skips 2..4
				{valid: all8, ready: []int{1, 5}, want: 1},        // wraps past 7
				{valid: all8, ready: nil, want: -1},               // nothing ready: last_q holds
				{valid: all8, ready: []int{1, 2}, want: 2},        // continues after 1
				{valid: all8, ready: all8, stall: true, want: -1}, // stall_i
				{valid: all8, ready: all8, want: 3},
				{valid: []int{0, 1, 2, 3}, ready: all8, want: 0}, // invalid warps never issue
				{valid: all8, ready: []int{7}, want: 7},
				{valid: all8, ready: all8, want: 0},
			},
		},
		{
			name: "gto keeps the greedy warp, then the oldest ready",
			p:    Params{NumWarps: 8, Policy: PolicyGTO},
			cycles: []cyc{
				{valid: all8, ready: all8, want: 5},              // oldest
				{valid: all8, ready: all8, want: 5},              // greedy
				{valid: all8, ready: []int{0, 1, 2, 3}, want: 2}, // 5 stalls: oldest ready is 2
				{valid: all8, ready: all8, want: 2},              // greedy is now 2, even though 5 is older
				{valid: all8, ready: []int{0, 1, 3}, want: 0},    // ages 30 31 32
				{valid: all8, ready: []int{0, 1, 3}, want: 0},
				{valid: all8, ready: nil, want: -1},
				{valid: all8, ready: []int{0, 7}, want: 0}, // greedy survives an idle cycle
				{valid: all8, ready: []int{6, 7}, stall: true, want: -1},
				{valid: all8, ready: []int{6, 7}, want: 6},
				{valid: []int{7}, ready: []int{6, 7}, want: 7}, // 6 not valid
			},
		},
		{
			name: "two_level: active set, round-robin inside it, swap on long waits",
			p:    Params{NumWarps: 8, Policy: PolicyTwoLevel, TwoLevelActive: 2},
			cycles: []cyc{
				{valid: all8, ready: nil, want: -1, active: []int{}},                               // nothing ready: nothing promoted
				{valid: all8, ready: all8, want: 2, active: []int{2, 5}},                           // the two oldest; rr from 0 finds 2
				{valid: all8, ready: all8, want: 5, active: []int{2, 5}},                           // rr: 5
				{valid: all8, ready: all8, want: 2, active: []int{2, 5}},                           // others are ready but pending
				{valid: all8, ready: []int{0, 1, 3, 4, 6, 7}, want: -1, active: []int{2, 5}},       // short stalls: no swap
				{valid: all8, ready: []int{0, 1, 2}, long: []int{5}, want: 0, active: []int{0, 2}}, // 5 swapped for 0 (the oldest pending), rr after 2 -> 0
				{valid: all8, ready: []int{0, 1, 2}, long: []int{5}, want: 2, active: []int{0, 2}},
				{valid: []int{0, 1, 3, 4, 5, 6, 7}, ready: []int{1, 3}, want: 1, active: []int{0, 1}},  // 2 left: vacancy filled by 1
				{valid: all8, ready: []int{3}, long: []int{0, 1}, want: 3, active: []int{1, 3}},        // one candidate: 0 swapped for 3
				{valid: all8, ready: nil, long: []int{1, 3}, want: -1, active: []int{1, 3}},            // no ready pending warp: no swap
				{valid: all8, ready: all8, long: []int{1}, stall: true, want: -1, active: []int{1, 3}}, // stall_i: the set holds
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := New(c.p)
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range launches {
				out := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, s, Inputs{WarpValid: rtl.BitsOf(all8...), WarpLaunch: rtl.BitsOf(l...), Stall: i == 1})[0]
				if out.IssueValid {
					t.Fatalf("launch cycle %d issued", i)
				}
			}
			if q := s.Q(); q.NextAge != 8 || q.Age[5] != 0 || q.Age[2] != 1 || q.Age[0] != 2 || q.Age[7] != 7 {
				t.Fatalf("ages after the launches: next %d, %v", q.NextAge, q.Age[:8])
			}
			for i, cy := range c.cycles {
				in := Inputs{
					WarpValid:    rtl.BitsOf(cy.valid...),
					WarpReady:    rtl.BitsOf(cy.ready...),
					WarpLongWait: rtl.BitsOf(cy.long...),
					Stall:        cy.stall,
				}
				out := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, s, in)[0]
				got := -1
				if out.IssueValid {
					got = int(out.IssueWarp)
				}
				if got != cy.want {
					t.Fatalf("cycle %d: issued %d, want %d (state %+v)", i, got, cy.want, s.Q())
				}
				if cy.active != nil {
					if a := s.Q().Active; a != rtl.BitsOf(cy.active...) {
						t.Fatalf("cycle %d: active set %v, want %v", i, a, rtl.BitsOf(cy.active...))
					}
				}
			}
		})
	}
}

func TestLargeSchedulers(t *testing.T) {
	// 1024 warps: the search crosses word boundaries in both directions.
	s, err := New(Params{NumWarps: 1024, Policy: PolicyLRR})
	if err != nil {
		t.Fatal(err)
	}
	valid := make([]int, 1024)
	for i := range valid {
		valid[i] = i
	}
	seq := []struct {
		ready []int
		want  int
	}{
		{[]int{70, 1023}, 70}, {[]int{70, 1023}, 1023}, {[]int{70, 1023}, 70}, {[]int{3}, 3},
	}
	for i, c := range seq {
		out := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, s, Inputs{WarpValid: rtl.BitsOf(valid...), WarpReady: rtl.BitsOf(c.ready...)})[0]
		if !out.IssueValid || int(out.IssueWarp) != c.want {
			t.Fatalf("step %d: %+v, want %d", i, out, c.want)
		}
	}
	// GTO with equal ages (no launches recorded): index order decides.
	g, _ := New(Params{NumWarps: 100, Policy: PolicyGTO})
	out := rtltest.CheckTwoPhase[Inputs, Outputs, State](t, g, Inputs{WarpValid: rtl.BitsOf(valid[:100]...), WarpReady: rtl.BitsOf(90, 64)})[0]
	if out.IssueWarp != 64 {
		t.Fatalf("gto without ages issued %d", out.IssueWarp)
	}
}

func TestNewErrors(t *testing.T) {
	for _, p := range []Params{
		{NumWarps: 0, Policy: PolicyLRR},
		{NumWarps: 1025, Policy: PolicyLRR},
		{NumWarps: 4, Policy: 7},
		{NumWarps: 4, Policy: PolicyTwoLevel},
	} {
		if _, err := New(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

func TestSignalTable(t *testing.T) {
	s, _ := New(Params{NumWarps: 16, Policy: PolicyGTO})
	tab := s.Signals("sm_top.u_warp_sched_1")
	want := map[string]unittest.Sig{
		"warp_valid_i": {W: 16, Dir: rtl.DirIn}, "warp_ready_i": {W: 16, Dir: rtl.DirIn}, "warp_long_wait_i": {W: 16, Dir: rtl.DirIn},
		"warp_launch_i": {W: 16, Dir: rtl.DirIn}, "stall_i": {W: 1, Dir: rtl.DirIn},
		"issue_valid_o": {W: 1, Dir: rtl.DirOut}, "issue_warp_o": {W: 4, Dir: rtl.DirOut},
		"last_q": {W: 4, Dir: rtl.DirReg}, "greedy_q": {W: 4, Dir: rtl.DirReg}, "greedy_valid_q": {W: 1, Dir: rtl.DirReg}, "active_q": {W: 16, Dir: rtl.DirReg},
		"next_age_q": {W: 32, Dir: rtl.DirReg}, "warp_age_q": {W: 512, Dir: rtl.DirReg},
	}
	unittest.CheckTable(t, tab, "sm_top.u_warp_sched_1", want, Inputs{}, Outputs{}, State{})
	if err := rtl.CheckState(State{}); err != nil {
		t.Error(err)
	}
}

// TestCopySmall guards the partial copies of Eval and Tick: every State
// field but Age must go through copySmall.
func TestCopySmall(t *testing.T) {
	var src State
	v := reflect.ValueOf(&src).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if v.Type().Field(i).Name == "Age" {
			continue
		}
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Uint16, reflect.Uint32:
			f.SetUint(7)
		case reflect.Array:
			f.Index(1).SetUint(9)
		default:
			t.Fatalf("field %s: extend this test", v.Type().Field(i).Name)
		}
	}
	var dst State
	copySmall(&dst, &src, rtl.MaxBits/64)
	if dst != src {
		t.Fatalf("copySmall misses a field:\n%+v\n%+v", dst, src)
	}
}

// TestLaunchDuringEval: a launch seen by an Eval that is not ticked
// leaves no trace in the next Eval.
func TestLaunchDuringEval(t *testing.T) {
	s, _ := New(Params{NumWarps: 8, Policy: PolicyGTO})
	s.Eval(Inputs{WarpLaunch: rtl.BitsOf(3, 4)})
	s.Eval(Inputs{WarpLaunch: rtl.BitsOf(6)})
	s.Tick()
	if q := s.Q(); q.NextAge != 1 || q.Age[6] != 0 || q.Age[3] != 0 || q.Age[4] != 0 {
		t.Fatalf("state %+v", q.Age[:8])
	}
	s.Eval(Inputs{WarpLaunch: rtl.BitsOf(3)})
	s.Tick()
	if q := s.Q(); q.NextAge != 2 || q.Age[3] != 1 || s.D() != q {
		t.Fatalf("state %v next %d", q.Age[:8], q.NextAge)
	}
}

// Every Inputs, Outputs and State field carries its Verilog name.
func TestSignalTags(t *testing.T) {
	rtltest.CheckTags(t, Inputs{}, Outputs{}, State{})
}

// TestIdleEvalKeepsState: under lrr and gto, an Eval with no warp ready
// and none launched issues nothing and leaves D = Q, so the SM may skip
// it (pipeline.SM.Step does); under two_level it may not (the active set
// drops warps that left).
func TestIdleEvalKeepsState(t *testing.T) {
	for _, pol := range []Policy{PolicyLRR, PolicyGTO} {
		s, err := New(Params{NumWarps: 40, Policy: pol})
		if err != nil {
			t.Fatal(err)
		}
		seed := uint64(7)
		next := func() uint64 { // xorshift: deterministic stimulus
			seed ^= seed << 13
			seed ^= seed >> 7
			seed ^= seed << 17
			return seed
		}
		for i := 0; i < 2000; i++ {
			var in Inputs
			in.WarpValid[0] = next() & (1<<40 - 1)
			if i%3 != 0 {
				r1, r2 := next(), next()
				in.WarpReady[0] = r1 & r2 & (1<<40 - 1) // about a quarter of the warps
				if next()%5 == 0 {
					in.WarpLaunch[0] = 1 << (next() % 40)
				}
			}
			q := s.Q()
			out := s.Eval(in)
			if !in.WarpReady.Any() && !in.WarpLaunch.Any() {
				if out.IssueValid || s.D() != q {
					t.Fatalf("%v, cycle %d: an idle Eval issued %v or changed the registers", pol, i, out)
				}
			}
			s.Tick()
		}
	}
}
