package rtl_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

// counter is a minimal two-phase unit: a wrapping counter with enable.
type counterIn struct {
	En bool `sv:"en_i"`
}
type counterOut struct {
	Count uint8 `sv:"count_o"`
	Wrap  bool  `sv:"wrap_o"`
}
type counterState struct {
	Count uint8 `sv:"count_q"`
}

type counter struct {
	q, d  counterState
	bad   bool // Eval writes Q (a broken unit)
	drift int  // Eval depends on a hidden variable (not idempotent)
}

func (c *counter) Eval(in counterIn) counterOut {
	c.d = c.q
	if in.En {
		c.d.Count = c.q.Count + 1
	}
	if c.bad {
		c.q.Count = 99
	}
	c.drift++
	out := counterOut{Count: c.q.Count, Wrap: c.q.Count == 255}
	if c.drift > 100 {
		out.Count = uint8(c.drift)
	}
	return out
}
func (c *counter) Tick()           { c.q = c.d }
func (c *counter) Q() counterState { return c.q }
func (c *counter) D() counterState { return c.d }
func (c *counter) Reset()          { c.q, c.d = counterState{}, counterState{} }
func (c *counter) Table() rtl.Table {
	return rtl.MustSignals("top.u_cnt", nil, counterIn{}, counterOut{}, counterState{})
}

var _ rtl.Unit[counterIn, counterOut, counterState] = (*counter)(nil)
var _ rtl.Resetter = (*counter)(nil)

func newCounter() *counter { return &counter{} }

func TestCheckTwoPhaseGood(t *testing.T) {
	c := newCounter()
	outs := rtltest.CheckTwoPhase[counterIn, counterOut, counterState](t, c, counterIn{true}, counterIn{false}, counterIn{true}, counterIn{true})
	want := []uint8{0, 1, 1, 2}
	for i, o := range outs {
		if o.Count != want[i] {
			t.Errorf("cycle %d: count %d, want %d", i, o.Count, want[i])
		}
	}
	if c.Q().Count != 3 {
		t.Errorf("final count %d, want 3", c.Q().Count)
	}
}

// fakeTB records the first Fatalf and stops the check.
type fakeTB struct {
	testing.TB
	msg string
}

type stop struct{}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(stop{})
}

func runCheck(c *counter, in ...counterIn) (msg string) {
	f := &fakeTB{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				panic(r)
			}
			msg = f.msg
		}
	}()
	rtltest.CheckTwoPhase[counterIn, counterOut, counterState](f, c, in...)
	return ""
}

func TestCheckTwoPhaseCatchesBadUnits(t *testing.T) {
	if msg := runCheck(&counter{bad: true}, counterIn{true}); !bytes.Contains([]byte(msg), []byte("changed Q")) {
		t.Errorf("Eval writing Q not caught: %q", msg)
	}
	if msg := runCheck(&counter{drift: 100}, counterIn{true}); !bytes.Contains([]byte(msg), []byte("not idempotent")) {
		t.Errorf("non-idempotent Eval not caught: %q", msg)
	}
}

func TestSignals(t *testing.T) {
	type in struct {
		Ready rtl.Bits `sv:"warp_ready_i" width:"NumWarps"`
		Stall bool     `sv:"stall_i"`
		Skip  int      // no tag: not a signal
		Vec   [4]bool  `sv:"vec_i"`
		// Warp indices narrower than their Go type, in an array sized for
		// the largest parameters.
		Idx [8]uint16 `sv:"idx_i" width:"NumPorts*idx(NumWarps)" elem:"idx(NumWarps)"`
	}
	type out struct {
		Valid bool   `sv:"issue_valid_o"`
		Warp  uint16 `sv:"issue_warp_o" width:"6"`
	}
	type st struct {
		Ptr uint32 `sv:"rr_ptr_q"`
	}
	tab, err := rtl.Signals("sm_top.u_warp_sched_0", testParams{NumWarps: 16, NumPorts: 2}, in{}, &out{}, st{})
	if err != nil {
		t.Fatal(err)
	}
	want := rtl.Table{
		{"warp_ready_i", 16, rtl.DirIn, "sm_top.u_warp_sched_0", 0},
		{"stall_i", 1, rtl.DirIn, "sm_top.u_warp_sched_0", 0},
		{"vec_i", 4, rtl.DirIn, "sm_top.u_warp_sched_0", 1},
		{"idx_i", 8, rtl.DirIn, "sm_top.u_warp_sched_0", 4},
		{"issue_valid_o", 1, rtl.DirOut, "sm_top.u_warp_sched_0", 0},
		{"issue_warp_o", 6, rtl.DirOut, "sm_top.u_warp_sched_0", 0},
		{"rr_ptr_q", 32, rtl.DirReg, "sm_top.u_warp_sched_0", 0},
	}
	if !reflect.DeepEqual(tab, want) {
		t.Fatalf("table\n%+v\nwant\n%+v", tab, want)
	}
	if s, ok := tab.Find("issue_warp_o"); !ok || s.Path() != "sm_top.u_warp_sched_0.issue_warp_o" {
		t.Errorf("Find/Path: %+v %v", s, ok)
	}
	var buf bytes.Buffer
	if _, err := tab.WriteTo(&buf); err != nil || !bytes.Contains(buf.Bytes(), []byte("sm_top.u_warp_sched_0 stall_i in 1\n")) {
		t.Errorf("WriteTo: %q %v", buf.String(), err)
	}
	if got := newCounter().Table().Names(); !reflect.DeepEqual(got, []string{"en_i", "count_o", "wrap_o", "count_q"}) {
		t.Errorf("counter table %v", got)
	}
}

func TestSignalsErrors(t *testing.T) {
	type noSuffix struct {
		X bool `sv:"x"`
	}
	type bitsNoWidth struct {
		X rtl.Bits `sv:"x_i"`
	}
	type badParam struct {
		X rtl.Bits `sv:"x_i" width:"Nope"`
	}
	type dup struct {
		X bool `sv:"x_i"`
		Y bool `sv:"x_i"`
	}
	type slice struct {
		X []int `sv:"x_i"`
	}
	type elemNotArray struct {
		X uint16 `sv:"x_i" elem:"4"`
	}
	type elemTooWide struct {
		X [4]uint8 `sv:"x_i" elem:"9"`
	}
	type notWhole struct {
		X [4]uint8 `sv:"x_i" width:"10" elem:"4"`
	}
	type tooMany struct {
		X [2]uint8 `sv:"x_i" width:"NumPorts*4" elem:"4"`
	}
	for _, c := range []any{noSuffix{}, bitsNoWidth{}, badParam{}, dup{}, slice{}, elemNotArray{}, elemTooWide{}, notWhole{}, tooMany{}, 3, (*dup)(nil)} {
		if _, err := rtl.Signals("s", testParams{NumPorts: 3}, c); err == nil {
			t.Errorf("%T: no error", c)
		}
	}
	if _, err := rtl.Signals("s", 3, noSuffix{}); err == nil {
		t.Error("parameters that are not a struct accepted")
	}
}

// testParams is a unit's Params for the width-expression tests: fields
// and a derived method.
type testParams struct {
	NumWarps, NumPorts int
	hidden             int
}

func (p testParams) Lanes() int { return 32 * p.NumWarps }

func TestEval(t *testing.T) {
	p := testParams{NumWarps: 48, NumPorts: 4, hidden: 1}
	for _, c := range []struct {
		expr string
		want int
	}{
		{"7", 7}, {"NumWarps", 48}, {"32*NumWarps", 1536}, {"NumPorts * idx(NumWarps)", 24},
		{"clog2(NumWarps+1)", 6}, {"clog2(1)", 0}, {"idx(1)", 1}, {"clog2(64)", 6}, {"clog2(65)", 7},
		{"Lanes/32 - 8", 40}, {"(NumPorts+1)*2", 10}, {"max(NumPorts, 9) + min(NumPorts, 9)", 13},
		{"2+3*4", 14}, {"20-4-3", 13},
	} {
		got, err := rtl.Eval(c.expr, p)
		if err != nil || got != c.want {
			t.Errorf("Eval(%q) = %d, %v; want %d", c.expr, got, err, c.want)
		}
	}
	if got, err := rtl.Eval("NumPorts*2", &p); err != nil || got != 8 {
		t.Errorf("pointer params: %d %v", got, err)
	}
	for _, bad := range []string{"", "Nope", "hidden", "clog2()", "clog2(1,2)", "frob(3)", "(3", "3)", "3 4", "4/0", "idx(3", "-"} {
		if v, err := rtl.Eval(bad, p); err == nil {
			t.Errorf("Eval(%q) = %d, no error", bad, v)
		}
	}
	if _, err := rtl.Eval("NumWarps", nil); err == nil {
		t.Error("a parameter without parameters: no error")
	}
}

func TestClog2(t *testing.T) {
	for x, want := range map[int]int{-1: 0, 0: 0, 1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 16: 4, 17: 5, 1024: 10} {
		if got := rtl.Clog2(x); got != want {
			t.Errorf("Clog2(%d) = %d, want %d", x, got, want)
		}
	}
}

func TestCheckState(t *testing.T) {
	type good struct {
		A rtl.Bits
		B [4]uint16
		C struct{ D bool }
	}
	type bad struct {
		A []int
	}
	type nested struct {
		B struct{ P *int }
	}
	if err := rtl.CheckState(good{}); err != nil {
		t.Error(err)
	}
	if err := rtl.CheckState(bad{}); err == nil {
		t.Error("slice state accepted")
	}
	if err := rtl.CheckState(nested{}); err == nil {
		t.Error("pointer state accepted")
	}
	if err := rtl.CheckState(counterState{}); err != nil {
		t.Error(err)
	}
}

func TestBits(t *testing.T) {
	b := rtl.BitsOf(0, 3, 64, 1023)
	if b.Count() != 4 || !b.Has(64) || b.Has(65) || b.Has(-1) || b.Has(5000) {
		t.Fatalf("bits %v", b)
	}
	b.Set(5000) // ignored
	b.Clear(-3) // ignored
	if got := b.String(); got != "{0,3,64,1023}" {
		t.Errorf("String %q", got)
	}
	cases := []struct{ from, n, want int }{
		{0, 1024, 0}, {1, 1024, 3}, {4, 1024, 64}, {65, 1024, 1023}, {65, 1000, -1},
	}
	for _, c := range cases {
		if got := b.NextFrom(c.from, c.n); got != c.want {
			t.Errorf("NextFrom(%d,%d) = %d, want %d", c.from, c.n, got, c.want)
		}
	}
	if got := b.NextCyclic(65, 100); got != 0 {
		t.Errorf("NextCyclic wrap = %d", got)
	}
	if got := b.NextCyclic(4, 100); got != 64 {
		t.Errorf("NextCyclic = %d", got)
	}
	var z rtl.Bits
	if z.Any() || z.NextCyclic(3, 10) != -1 || z.NextCyclic(0, 0) != -1 {
		t.Error("empty vector")
	}
	o := rtl.BitsOf(3, 4)
	if got := b.And(o); got != rtl.BitsOf(3) {
		t.Errorf("And %v", got)
	}
	if got := b.AndNot(o); got != rtl.BitsOf(0, 64, 1023) {
		t.Errorf("AndNot %v", got)
	}
	if got := b.Or(o); got.Count() != 5 {
		t.Errorf("Or %v", got)
	}
	b.Put(3, false)
	b.Put(7, true)
	if b.Has(3) || !b.Has(7) {
		t.Error("Put")
	}
}

// TestPlaces: where each signal's bits live, as the cosim codec and the
// tracer both read them.
func TestPlaces(t *testing.T) {
	type s struct {
		A    bool        `sv:"a_i"`
		B    int16       `sv:"b_i" width:"9"`
		V    rtl.Bits    `sv:"v_i" width:"NumWarps"`
		Idx  [8]uint16   `sv:"idx_i" width:"NumPorts*idx(NumWarps)" elem:"idx(NumWarps)"`
		N    [2][4]uint8 `sv:"n_q"`
		Skip int         // untagged
		Bo   [5]bool     `sv:"bo_o" width:"NumPorts"`
		Not  uint32      `sv:"not_in_table_o"`
		_    [0]func()   // keeps s incomparable, as unit State is not
		Pad  [3]uint64   `sv:"pad_q" width:"128"`
	}
	p := testParams{NumWarps: 48, NumPorts: 3}
	tab := rtl.MustSignals("x", p, s{})
	tab = append(tab[:6:6], tab[7:]...) // without not_in_table_o
	places, err := rtl.Places(reflect.TypeFor[*s](), tab, false)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		name        string
		width, elem int
		bits, array bool
		leaf        rtl.Leaf
		leafSize    int
		count       int
	}
	var got []row
	for _, pl := range places {
		got = append(got, row{pl.Name, pl.Width, pl.Elem, pl.Bits, pl.Array, pl.Leaf, pl.LeafSize, pl.Count})
	}
	want := []row{
		{"a_i", 1, 0, false, false, rtl.LeafBool, 1, 0},
		{"b_i", 9, 0, false, false, rtl.LeafInt, 2, 0},
		{"v_i", 48, 0, true, false, rtl.LeafBool, 0, 0},
		{"idx_i", 18, 6, false, true, rtl.LeafUint, 2, 3},
		{"n_q", 64, 8, false, true, rtl.LeafUint, 1, 8},
		{"bo_o", 3, 1, false, true, rtl.LeafBool, 1, 3},
		{"pad_q", 128, 64, false, true, rtl.LeafUint, 8, 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("places\n%+v\nwant\n%+v", got, want)
	}
	if places[3].Offset != reflect.TypeFor[s]().Field(3).Offset {
		t.Errorf("idx_i offset %d", places[3].Offset)
	}
	if _, err := rtl.Places(reflect.TypeFor[s](), tab, true); err == nil {
		t.Error("strict: a tagged field outside the table accepted")
	}
	for _, c := range []struct {
		name string
		sig  rtl.Signal
		typ  reflect.Type
	}{
		{"float", rtl.Signal{Name: "f_i", Width: 64}, reflect.TypeFor[struct {
			F float64 `sv:"f_i"`
		}]()},
		{"scalar too wide", rtl.Signal{Name: "f_i", Width: 9}, reflect.TypeFor[struct {
			F uint8 `sv:"f_i"`
		}]()},
		{"narrow elements without elem", rtl.Signal{Name: "f_i", Width: 20}, reflect.TypeFor[struct {
			F [4]uint16 `sv:"f_i"`
		}]()},
		{"element wider than Go", rtl.Signal{Name: "f_i", Width: 18, Elem: 9}, reflect.TypeFor[struct {
			F [4]uint8 `sv:"f_i"`
		}]()},
		{"bits too wide", rtl.Signal{Name: "f_i", Width: rtl.MaxBits + 1}, reflect.TypeFor[struct {
			F rtl.Bits `sv:"f_i"`
		}]()},
		{"not a struct", rtl.Signal{Name: "f_i", Width: 1}, reflect.TypeFor[int]()},
	} {
		if _, err := rtl.Places(c.typ, rtl.Table{c.sig}, false); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}

type buildParams struct{ N int }

func (p buildParams) Check() error {
	if p.N < 1 {
		return fmt.Errorf("N %d < 1", p.N)
	}
	return nil
}

// Regs gives Q = D on Tick and zeroes both on Reset; Build checks the
// parameters before it builds.
func TestRegsAndBuild(t *testing.T) {
	var r rtl.Regs[[2]int]
	r.Next = [2]int{1, 2}
	if r.Q() != [2]int{} || r.D() != [2]int{1, 2} {
		t.Fatalf("before Tick: Q %v D %v", r.Q(), r.D())
	}
	r.Tick()
	if r.Q() != [2]int{1, 2} {
		t.Fatalf("after Tick: Q %v", r.Q())
	}
	r.Reset()
	if r.Q() != [2]int{} || r.D() != [2]int{} {
		t.Fatalf("after Reset: Q %v D %v", r.Q(), r.D())
	}
	build := func(p buildParams) *int { return &p.N }
	if u, err := rtl.Build(buildParams{N: 3}, build); err != nil || *u != 3 {
		t.Fatalf("Build(3) = %v, %v", u, err)
	}
	if u, err := rtl.Build(buildParams{}, build); err == nil || u != nil {
		t.Fatalf("Build(0) = %v, %v; want the Check error", u, err)
	}
}
