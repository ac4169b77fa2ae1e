// Package rtltest holds test helpers for the units of package rtl: the
// two-phase discipline check every unit's tests run. It imports testing,
// so only tests import it (the smsim binary does not link it).
package rtltest

import (
	"reflect"
	"testing"

	"github.com/smsim/smsim/rtl"
)

// CheckTwoPhase drives u with each input in turn, one cycle per input, and
// fails t when the unit breaks the two-phase discipline:
//
//   - Eval changes Q;
//   - a second Eval with the same input gives different outputs or a
//     different D (Eval is not a pure function of the inputs and Q);
//   - after Tick, Q differs from the D the Eval computed.
//
// It returns the outputs of each cycle, so a test can also assert on them.
// Every unit's tests should call it; it works on any Unit.
func CheckTwoPhase[I, O, S any](t testing.TB, u rtl.Unit[I, O, S], inputs ...I) []O {
	t.Helper()
	outs := make([]O, 0, len(inputs))
	for cyc, in := range inputs {
		q0 := u.Q()
		o1 := u.Eval(in)
		if q := u.Q(); !reflect.DeepEqual(q, q0) {
			t.Fatalf("cycle %d: Eval changed Q:\nbefore %+v\nafter  %+v", cyc, q0, q)
		}
		d1 := u.D()
		o2 := u.Eval(in)
		if !reflect.DeepEqual(o1, o2) {
			t.Fatalf("cycle %d: Eval is not idempotent: outputs %+v then %+v", cyc, o1, o2)
		}
		if d2 := u.D(); !reflect.DeepEqual(d1, d2) {
			t.Fatalf("cycle %d: Eval is not idempotent: D %+v then %+v", cyc, d1, d2)
		}
		if q := u.Q(); !reflect.DeepEqual(q, q0) {
			t.Fatalf("cycle %d: second Eval changed Q", cyc)
		}
		u.Tick()
		if q := u.Q(); !reflect.DeepEqual(q, d1) {
			t.Fatalf("cycle %d: after Tick Q = %+v, want D = %+v", cyc, q, d1)
		}
		outs = append(outs, o1)
	}
	return outs
}
