package rtl

import (
	"fmt"
	"reflect"
	"testing"
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
func CheckTwoPhase[I, O, S any](t testing.TB, u Unit[I, O, S], inputs ...I) []O {
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

// CheckState reports an error when a unit's State type is not a plain
// comparable value (it holds a pointer, slice, map, channel, function or
// interface, directly or in a nested struct or array).
func CheckState(s any) error {
	return plainValue(reflect.TypeOf(s), "State")
}

func plainValue(t reflect.Type, path string) error {
	if t == nil {
		return fmt.Errorf("%s: nil type", path)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
		return fmt.Errorf("%s is a %s; register state must be a plain value", path, t.Kind())
	case reflect.Array:
		return plainValue(t.Elem(), path+"[]")
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if err := plainValue(f.Type, path+"."+f.Name); err != nil {
				return err
			}
		}
	}
	return nil
}
