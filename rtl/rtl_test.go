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
	}
	type out struct {
		Valid bool   `sv:"issue_valid_o"`
		Warp  uint16 `sv:"issue_warp_o" width:"6"`
	}
	type st struct {
		Ptr uint32 `sv:"rr_ptr_q"`
	}
	tab, err := rtl.Signals("sm_top.u_warp_sched_0", map[string]int{"NumWarps": 16}, in{}, &out{}, st{})
	if err != nil {
		t.Fatal(err)
	}
	want := rtl.Table{
		{"warp_ready_i", 16, rtl.DirIn, "sm_top.u_warp_sched_0"},
		{"stall_i", 1, rtl.DirIn, "sm_top.u_warp_sched_0"},
		{"vec_i", 4, rtl.DirIn, "sm_top.u_warp_sched_0"},
		{"issue_valid_o", 1, rtl.DirOut, "sm_top.u_warp_sched_0"},
		{"issue_warp_o", 6, rtl.DirOut, "sm_top.u_warp_sched_0"},
		{"rr_ptr_q", 32, rtl.DirReg, "sm_top.u_warp_sched_0"},
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
	for _, c := range []any{noSuffix{}, bitsNoWidth{}, badParam{}, dup{}, slice{}, 3, (*dup)(nil)} {
		if _, err := rtl.Signals("s", nil, c); err == nil {
			t.Errorf("%T: no error", c)
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
