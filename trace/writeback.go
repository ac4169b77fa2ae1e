// Pending writebacks: a ring of per-cycle buckets, a heap for far ones.

package trace

// wbEvent is an instruction's writeback at cycle at.
type wbEvent struct {
	at    uint64
	seq   uint64 // issue order
	sched int
	warp  int
	pc    uint32
}

func (e *wbEvent) before(f *wbEvent) bool { return e.at < f.at || e.at == f.at && e.seq < f.seq }

// wbRing is the number of cycles ahead that wbQueue keeps in its ring.
const wbRing = 1024

// wbQueue holds the pending writebacks: those due less than wbRing cycles
// after their issue in a ring of per-cycle buckets (a bucket's events all
// fall due in the cycle that empties it: an event is at most wbRing-1
// cycles ahead and every cycle is sampled), the rest in a heap.
type wbQueue struct {
	ring [wbRing][]wbEvent
	far  wbHeap
}

// push adds e, issued in cycle now.
func (q *wbQueue) push(now uint64, e wbEvent) {
	if e.at-now < wbRing {
		b := &q.ring[e.at%wbRing]
		*b = append(*b, e)
		return
	}
	q.far.push(e)
}

// wbHeap is a binary min-heap of pending writebacks by (cycle, issue
// order), so that the last one issued is reported when several complete
// in one cycle.
type wbHeap []wbEvent

func (h *wbHeap) push(e wbEvent) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(&q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *wbHeap) pop() wbEvent {
	q := *h
	e := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q = q[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && q[l].before(&q[m]) {
			m = l
		}
		if r := l + 1; r < n && q[r].before(&q[m]) {
			m = r
		}
		if m == i {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return e
}
