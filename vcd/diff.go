package vcd

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// DiffOptions selects what Diff compares.
type DiffOptions struct {
	// Prefix, when non-empty, restricts the comparison to signals whose
	// full name is Prefix or lies under the scope Prefix (for example
	// "sm_top.u_warp_sched" matches "sm_top.u_warp_sched.pc_q" but not
	// "sm_top.u_warp_sched2.pc_q").
	Prefix string
	// Signals, when non-empty, restricts the comparison to these full
	// names. A name found in neither file is an error.
	Signals []string
	// ReportMissing lists the selected signals present in only one file
	// in DiffResult.OnlyInA and OnlyInB and makes the files unequal; by
	// default such signals are ignored.
	ReportMissing bool
	// Strict parses both files in strict mode.
	Strict bool
	// RealTolerance is the relative difference below which two reals are
	// equal: |a-b| <= RealTolerance × max(|a|, |b|). 0 means exact.
	RealTolerance float64
	// MaxDiffs is how many differences to keep in DiffResult.Diffs
	// (earliest first); 0 means 100. Count is always exact.
	MaxDiffs int
}

// Difference is one signal differing at one time.
type Difference struct {
	Time   uint64 // in DiffResult.Timescale units
	Signal string // full hierarchical name
	A, B   Value  // the values in each file at Time ("x" before a signal's first change)
}

func (d Difference) String() string {
	return fmt.Sprintf("#%d %s: a=%s b=%s", d.Time, d.Signal, d.A, d.B)
}

// DiffResult is what Diff found.
type DiffResult struct {
	// Equal is true when no compared signal differs (and, with
	// ReportMissing, no selected signal is missing from either file).
	Equal bool
	// Count is the number of (time, signal) pairs at which a compared
	// signal differs, counting the times at which either file has a
	// change of that signal.
	Count int
	// First is the earliest difference (ties broken by signal name), or
	// nil.
	First *Difference
	// Diffs holds the first MaxDiffs differences in (time, name) order.
	Diffs []Difference
	// Compared is the number of signals compared.
	Compared int
	// OnlyInA and OnlyInB are the selected signals found in only one
	// file (filled only with ReportMissing), sorted.
	OnlyInA, OnlyInB []string
	// Timescale is the unit of the reported times: the finer of the two
	// files' timescales (the other file's times are scaled to it).
	Timescale Timescale
}

// Diff reads two VCD files and compares them signal by signal, matching
// signals by full hierarchical name. At every time at which either file
// has a change of a signal, the signal's values (each holding until
// changed, x before the first change) are compared after left-extending
// the narrower to the wider width per VCD rules; reals compare by value
// (NaN equals NaN; see DiffOptions.RealTolerance), strings exactly. If the timescales differ, times are
// converted to the finer one.
func Diff(a, b io.Reader, opt DiffOptions) (DiffResult, error) {
	ra, rb := NewReader(a), NewReader(b)
	ra.Strict, rb.Strict = opt.Strict, opt.Strict
	da, err := ra.ReadAll()
	if err != nil {
		return DiffResult{}, fmt.Errorf("vcd: diff: file A: %w", err)
	}
	db, err := rb.ReadAll()
	if err != nil {
		return DiffResult{}, fmt.Errorf("vcd: diff: file B: %w", err)
	}
	return DiffDumps(da, db, opt)
}

// DiffDumps is Diff on files already read with ReadAll.
func DiffDumps(da, db *Dump, opt DiffOptions) (DiffResult, error) {
	var res DiffResult
	maxDiffs := opt.MaxDiffs
	if maxDiffs <= 0 {
		maxDiffs = 100
	}
	// Time scaling.
	ta, tb := da.Header.Timescale, db.Header.Timescale
	mulA, mulB := uint64(1), uint64(1)
	res.Timescale = ta
	if ta.Magnitude != 0 && tb.Magnitude != 0 && ta != tb {
		ea, eb := scaleExp(ta), scaleExp(tb)
		fine := ta
		if eb < ea || (eb == ea && tb.Magnitude < ta.Magnitude) {
			fine = tb
		}
		var ok1, ok2 bool
		mulA, ok1 = ratio(ta, fine)
		mulB, ok2 = ratio(tb, fine)
		if !ok1 || !ok2 {
			return res, fmt.Errorf("%w: cannot compare timescales %v and %v", ErrTimescale, ta, tb)
		}
		res.Timescale = fine
	} else if ta.Magnitude == 0 {
		res.Timescale = tb
	}

	selected := func(name string) bool {
		if opt.Prefix != "" {
			p := strings.TrimSuffix(opt.Prefix, ".")
			if name != p && !strings.HasPrefix(name, p+".") {
				return false
			}
		}
		return true
	}
	var want map[string]bool
	if len(opt.Signals) > 0 {
		want = map[string]bool{}
		for _, n := range opt.Signals {
			if da.Signal(n) == nil && db.Signal(n) == nil {
				return res, fmt.Errorf("vcd: diff: signal %q is in neither file", n)
			}
			want[n] = true
		}
	}
	names := map[string]bool{}
	for _, d := range []*Dump{da, db} {
		for n := range d.byName {
			if selected(n) && (want == nil || want[n]) {
				names[n] = true
			}
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)

	var all []Difference
	for _, n := range sorted {
		sa, sb := da.Signal(n), db.Signal(n)
		if sa == nil || sb == nil {
			if opt.ReportMissing {
				if sa == nil {
					res.OnlyInB = append(res.OnlyInB, n)
				} else {
					res.OnlyInA = append(res.OnlyInA, n)
				}
			}
			continue
		}
		res.Compared++
		cnt, ds := diffSignal(n, sa, sb, mulA, mulB, maxDiffs, opt.RealTolerance)
		res.Count += cnt
		all = append(all, ds...)
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].Time != all[j].Time {
			return all[i].Time < all[j].Time
		}
		return all[i].Signal < all[j].Signal
	})
	if len(all) > maxDiffs {
		all = all[:maxDiffs]
	}
	res.Diffs = all
	if len(all) > 0 {
		f := all[0]
		res.First = &f
	}
	res.Equal = res.Count == 0 && len(res.OnlyInA) == 0 && len(res.OnlyInB) == 0
	return res, nil
}

func scaleExp(t Timescale) int {
	e := t.Exponent()
	for m := t.Magnitude; m >= 10 && m%10 == 0; m /= 10 {
		e++
	}
	return e
}

// ratio returns how many units of fine make one unit of t.
func ratio(t, fine Timescale) (uint64, bool) {
	// t = Mt × 10^et, fine = Mf × 10^ef with et >= ef.
	num := t.Magnitude
	for i := t.Exponent(); i > fine.Exponent(); i-- {
		if num > math.MaxUint64/10 {
			return 0, false
		}
		num *= 10
	}
	if fine.Magnitude == 0 || num%fine.Magnitude != 0 {
		return 0, false
	}
	return num / fine.Magnitude, true
}

var undefined = Value{Kind: BitsValue, Bits: "x"}

// diffSignal walks both change lists in time order.
func diffSignal(name string, sa, sb *Signal, mulA, mulB uint64, keep int, tol float64) (int, []Difference) {
	ca, cb := sa.Changes, sb.Changes
	va, vb := undefined, undefined
	i, j := 0, 0
	count := 0
	var out []Difference
	for i < len(ca) || j < len(cb) {
		t := uint64(math.MaxUint64)
		if i < len(ca) {
			t = ca[i].Time * mulA
		}
		if j < len(cb) && cb[j].Time*mulB < t {
			t = cb[j].Time * mulB
		}
		for i < len(ca) && ca[i].Time*mulA == t {
			va = ca[i].Value
			i++
		}
		for j < len(cb) && cb[j].Time*mulB == t {
			vb = cb[j].Value
			j++
		}
		if !sameValue(va, vb, tol) {
			count++
			if len(out) < keep {
				out = append(out, Difference{Time: t, Signal: name, A: va, B: vb})
			}
		}
	}
	return count, out
}

func sameValue(a, b Value, tol float64) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case RealValue:
		if a.Real == b.Real || (math.IsNaN(a.Real) && math.IsNaN(b.Real)) {
			return true
		}
		return tol > 0 && math.Abs(a.Real-b.Real) <= tol*math.Max(math.Abs(a.Real), math.Abs(b.Real))
	case StringValue:
		return a.Str == b.Str
	}
	w := max(len(a.Bits), len(b.Bits))
	return Extend(a.Bits, w) == Extend(b.Bits, w)
}
