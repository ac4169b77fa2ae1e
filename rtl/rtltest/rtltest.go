// Package rtltest holds test helpers for the units of package rtl: the
// two-phase discipline check every unit's tests run. It imports testing,
// so only tests import it (the smsim binary does not link it).
package rtltest

import (
	"reflect"
	"regexp"
	"strings"
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

var svName = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// CheckTags fails t unless every exported field of a unit's Inputs,
// Outputs and State (in, out, st) carries an sv tag in lower_snake_case
// with its direction's suffix (_i, _o, _q) and no name is used twice: the
// Go side of the STYLE's one name per signal.
func CheckTags(t testing.TB, in, out, st any) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range []struct {
		v      any
		suffix string
	}{{in, "_i"}, {out, "_o"}, {st, "_q"}} {
		typ := reflect.TypeOf(c.v)
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			name, ok := f.Tag.Lookup("sv")
			if !ok || !strings.HasSuffix(name, c.suffix) || len(name) <= len(c.suffix) || !svName.MatchString(name) {
				t.Errorf("%s.%s: sv tag %q, want lower_snake_case ending in %s", typ.Name(), f.Name, name, c.suffix)
			}
			if seen[name] {
				t.Errorf("%s used twice", name)
			}
			seen[name] = true
		}
	}
}

// CheckTypes is CheckTags plus rtl.CheckState on st: the static checks of a
// unit's port and register types.
func CheckTypes(t testing.TB, in, out, st any) {
	t.Helper()
	CheckTags(t, in, out, st)
	if err := rtl.CheckState(st); err != nil {
		t.Fatal(err)
	}
}

// RejectsAll fails t for every parameter set of bad that newUnit accepts.
func RejectsAll[P, U any](t testing.TB, newUnit func(P) (U, error), bad []P) {
	t.Helper()
	for _, p := range bad {
		if _, err := newUnit(p); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

// OutUnit is a unit whose outputs depend on Q alone (no combinational path
// from the inputs): Out gives them without an Eval.
type OutUnit[I any, O, S comparable] interface {
	rtl.Unit[I, O, S]
	Out() O
}

// CheckOut runs u for cycles cycles on the inputs next draws and fails t
// unless Out changes neither Q nor D and equals the outputs of Eval.
func CheckOut[I any, O, S comparable](t testing.TB, u OutUnit[I, O, S], cycles int, next func() I) {
	t.Helper()
	for c := 0; c < cycles; c++ {
		q, d := u.Q(), u.D()
		o := u.Out()
		if u.Q() != q || u.D() != d {
			t.Fatal("Out changed the registers")
		}
		if e := u.Eval(next()); e != o {
			t.Fatalf("cycle %d: Out %+v, Eval %+v", c, o, e)
		}
		u.Tick()
	}
}
