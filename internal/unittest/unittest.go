// Package unittest holds test helpers the clocked units share beyond
// rtl/rtltest: checking a unit's signal table against the widths a test
// expects, and checking that a seeded generator repeats itself.
package unittest

import (
	"reflect"
	"testing"

	"github.com/smsim/smsim/rtl"
)

// Sig is the width and direction a test expects of a signal.
type Sig struct {
	W   int
	Dir rtl.Dir
}

// CheckTable checks a unit's signal table: every signal sits in scope,
// each signal of want is there with its width and direction, and there
// is one signal per field of in, out and st (the unit's Inputs, Outputs
// and State), so that a want naming every field is the whole table.
func CheckTable(t testing.TB, tab rtl.Table, scope string, want map[string]Sig, in, out, st any) {
	t.Helper()
	n := 0
	for _, v := range []any{in, out, st} {
		n += reflect.TypeOf(v).NumField()
	}
	if len(tab) != n {
		t.Errorf("table has %d signals, want %d: %v", len(tab), n, tab.Names())
	}
	for _, s := range tab {
		if s.Scope != scope {
			t.Errorf("signal %s in scope %q, want %q", s.Name, s.Scope, scope)
		}
	}
	for name, w := range want {
		s, ok := tab.Find(name)
		if !ok || s.Width != w.W || s.Dir != w.Dir {
			t.Errorf("%s: %+v (found %v), want width %d dir %s", name, s, ok, w.W, w.Dir)
		}
	}
}

// Repeatable calls gen with seed twice and with seed+1 once, and fails t
// unless the first two results are equal and the third differs. It
// returns the first.
func Repeatable[T any](t testing.TB, seed uint64, gen func(seed uint64) T) T {
	t.Helper()
	a, b, c := gen(seed), gen(seed), gen(seed+1)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("seed %d twice: different results", seed)
	}
	if reflect.DeepEqual(a, c) {
		t.Fatalf("seeds %d and %d: the same results", seed, seed+1)
	}
	return a
}
