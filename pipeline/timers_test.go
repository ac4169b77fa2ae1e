package pipeline

import (
	"slices"
	"testing"
)

// dirtySlots returns the dirty slots and clears them, as a classification
// would (which gives each a new threshold: here none).
func dirtySlots(t *timers) []int {
	var out []int
	for k, w := range t.dirty {
		for ; w != 0; w &= w - 1 {
			for b := 0; b < 64; b++ {
				if w&(1<<uint(b)) != 0 {
					out = append(out, k*64+b)
					t.until[k*64+b] = never
					break
				}
			}
		}
		t.dirty[k] = 0
	}
	return out
}

// TestTimers: a threshold marks its slot dirty in its cycle, whether the
// cycles before are taken one by one, skipped in a jump inside the wheel,
// or in a jump beyond it; a threshold beyond the wheel waits in its last
// bucket and comes at its cycle; a slot set again or cleared leaves its
// old entries stale.
func TestTimers(t *testing.T) {
	var tm timers
	tm.init(130)
	tm.set(3, 0, 5)
	tm.set(70, 0, 5)
	tm.set(129, 0, 3*wheelN+7) // beyond the wheel
	tm.set(4, 0, 9)
	tm.set(4, 0, 12) // the entry at 9 is stale now
	tm.set(5, 0, 20)
	tm.clear(5) // freed: its entry is stale
	tm.mark(6)
	if got := dirtySlots(&tm); !slices.Equal(got, []int{6}) {
		t.Fatalf("marked: %v", got)
	}
	for c := uint64(1); c <= 4; c++ {
		tm.advance(c)
		if got := dirtySlots(&tm); len(got) != 0 {
			t.Fatalf("cycle %d: %v due early", c, got)
		}
	}
	tm.advance(5)
	if got := dirtySlots(&tm); !slices.Equal(got, []int{3, 70}) {
		t.Fatalf("cycle 5: %v", got)
	}
	tm.advance(11) // a jump over the stale entry at 9
	if got := dirtySlots(&tm); len(got) != 0 {
		t.Fatalf("cycle 11: %v", got)
	}
	tm.advance(12)
	if got := dirtySlots(&tm); !slices.Equal(got, []int{4}) {
		t.Fatalf("cycle 12: %v", got)
	}
	tm.advance(2*wheelN + 100) // the far entry moves on through the last bucket
	if got := dirtySlots(&tm); len(got) != 0 {
		t.Fatalf("cycle %d: %v", 2*wheelN+100, got)
	}
	tm.advance(3*wheelN + 6)
	if got := dirtySlots(&tm); len(got) != 0 {
		t.Fatalf("cycle %d: %v", 3*wheelN+6, got)
	}
	tm.advance(3*wheelN + 7)
	if got := dirtySlots(&tm); !slices.Equal(got, []int{129}) {
		t.Fatalf("cycle %d: %v", 3*wheelN+7, got)
	}
	// A jump of more than the wheel's span rebuilds it: thresholds passed
	// come due at once, later ones keep their cycle.
	c := uint64(3*wheelN + 7)
	tm.set(1, c, c+10)
	tm.set(2, c, c+5*wheelN)
	tm.advance(c + 2*wheelN)
	if got := dirtySlots(&tm); !slices.Equal(got, []int{1}) {
		t.Fatalf("after the jump: %v", got)
	}
	tm.advance(c + 5*wheelN - 1)
	if got := dirtySlots(&tm); len(got) != 0 {
		t.Fatalf("before slot 2's cycle: %v", got)
	}
	tm.advance(c + 5*wheelN)
	if got := dirtySlots(&tm); !slices.Equal(got, []int{2}) {
		t.Fatalf("slot 2's cycle: %v", got)
	}
}
