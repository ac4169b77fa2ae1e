// The issue stage's class timers: which warps to classify again, and
// when.

package pipeline

// A warp is classified again when its registers change (invalidate: its
// dirty bit) or when time reaches the first threshold of its timers
// (SM.until[slot]). The thresholds wait in a timing wheel of per-cycle
// buckets: an entry is (slot, cycle) and counts only while until[slot] is
// still that cycle (a warp classified or invalidated since leaves stale
// entries, dropped when met). A threshold beyond the wheel waits in the
// wheel's last bucket and moves on when met. Nothing here is done per
// warp per cycle.

// wheelN is the number of cycles the wheel spans (a power of two).
const wheelN = 1024

// wheelEntry is a warp slot's threshold at cycle at.
type wheelEntry struct {
	at   uint64
	slot uint32
}

// timers is the issue stage's record of when each warp must be
// classified again.
type timers struct {
	until []uint64 // per slot: the threshold (0: dirty; never: none)
	dirty []uint64 // per slot: classify at the next classification
	wheel [wheelN][]wheelEntry
	at    uint64 // the last cycle whose bucket was taken
}

func (t *timers) init(slots int) {
	t.until = make([]uint64, slots)
	for i := range t.until {
		t.until[i] = never
	}
	t.dirty = make([]uint64, (slots+63)/64)
}

// mark makes slot due at the next classification.
func (t *timers) mark(slot int) {
	t.until[slot] = 0
	t.dirty[slot>>6] |= 1 << uint(slot&63)
}

// clear forgets slot (a freed warp slot).
func (t *timers) clear(slot int) {
	t.until[slot] = never
	t.dirty[slot>>6] &^= 1 << uint(slot&63)
}

// set makes slot due at cycle at (> now; never: not by time).
func (t *timers) set(slot int, now, at uint64) {
	t.until[slot] = at
	switch {
	case at == never:
	case at == 0:
		t.dirty[slot>>6] |= 1 << uint(slot&63)
	default:
		t.push(now, wheelEntry{at: at, slot: uint32(slot)})
	}
}

// push files e in the bucket of its cycle, or in the wheel's last bucket
// when it lies beyond.
func (t *timers) push(now uint64, e wheelEntry) {
	b := e.at
	if b-now >= wheelN {
		b = now + wheelN - 1
	}
	t.wheel[b&(wheelN-1)] = append(t.wheel[b&(wheelN-1)], e)
}

// advance takes the buckets of the cycles after t.at up to c: the slots
// whose threshold has come are marked dirty, the entries of thresholds
// further on move on.
func (t *timers) advance(c uint64) {
	if c <= t.at {
		return
	}
	if c-t.at >= wheelN {
		t.rebuild(c)
		return
	}
	for cy := t.at + 1; cy <= c; cy++ {
		b := &t.wheel[cy&(wheelN-1)]
		if len(*b) == 0 {
			continue
		}
		for _, e := range *b {
			if t.until[e.slot] != e.at {
				continue // stale
			}
			if e.at <= c {
				t.dirty[e.slot>>6] |= 1 << (e.slot & 63)
			} else {
				t.push(cy, e)
			}
		}
		*b = (*b)[:0]
	}
	t.at = c
}

// rebuild refiles every threshold after a jump of a wheel's span or more.
func (t *timers) rebuild(c uint64) {
	for i := range t.wheel {
		t.wheel[i] = t.wheel[i][:0]
	}
	t.at = c
	for slot, u := range t.until {
		switch {
		case u == never || u == 0:
		case u <= c:
			t.dirty[slot>>6] |= 1 << uint(slot&63)
		default:
			t.push(c, wheelEntry{at: u, slot: uint32(slot)})
		}
	}
}
