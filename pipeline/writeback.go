// The writeback stages, sm_top.u_writeback_N: the latency pipes that
// deliver each issued instruction's destination registers.

package pipeline

// The model computes an instruction's results at issue and makes its
// destination registers available through the scoreboard (warp.rdy) at
// the cycle its latency ends; the writeback stage holds the same events
// as the register-file write ports see them: per sub-partition, the
// instructions whose destinations become available in a cycle.
//
// The pending writebacks of instructions due less than wbRing cycles
// after their issue sit in a ring of per-cycle buckets, the rest in a
// heap. A bucket holds the events of one cycle: evalWriteback takes a
// bucket's events in their cycle, and a push into a bucket whose events
// are older than the new one (their cycle was skipped as idle) drops
// them, so skipping idle stretches needs no work here.

// wbEvent is an instruction's writeback at cycle at.
type wbEvent struct {
	at    uint64
	seq   uint64 // issue order
	sched int32
	warp  int32
	pc    uint32
}

func (e *wbEvent) before(f *wbEvent) bool { return e.at < f.at || e.at == f.at && e.seq < f.seq }

// wbRing is the number of cycles ahead that the ring holds.
const wbRing = 1024

// writeback is the writeback stages of all sub-partitions.
type writeback struct {
	ring [wbRing][]wbEvent
	far  wbHeap
	seq  uint64
	out  []WritebackOutputs // by scheduler
	at   uint64             // the cycle out belongs to (never: none yet)
	last []uint64           // eval's scratch: the latest issue by scheduler
}

func (wb *writeback) init(nsched int) {
	wb.out = make([]WritebackOutputs, nsched)
	wb.last = make([]uint64, nsched)
	wb.at = never
}

// push records that the instruction at pc of warp slot warp, issued by
// scheduler s in cycle now, writes its destinations back at cycle at.
func (wb *writeback) push(now, at uint64, s, warp int, pc uint32) {
	wb.seq++
	e := wbEvent{at: at, seq: wb.seq, sched: int32(s), warp: int32(warp), pc: pc}
	if at-now >= wbRing {
		wb.far.push(e)
		return
	}
	b := &wb.ring[at%wbRing]
	if n := len(*b); n > 0 && (*b)[n-1].at != at {
		*b = (*b)[:0] // a skipped cycle's events
	}
	*b = append(*b, e)
}

// eval sets the outputs to cycle c's writebacks (always_comb of the
// stage; the events are its pipeline registers). Evaluating a cycle again
// changes nothing (an observer between Steps may evaluate it first).
func (wb *writeback) eval(c uint64) {
	if wb.at == c {
		return
	}
	wb.at = c
	for s := range wb.out {
		o := &wb.out[s]
		o.Valid, o.Count = false, 0 // wb_warp_o and wb_pc_o hold
	}
	b := &wb.ring[c%wbRing]
	if len(*b) != 0 {
		if (*b)[0].at == c {
			for i := range *b {
				wb.take(&(*b)[i])
			}
		}
		*b = (*b)[:0]
	}
	for len(wb.far) > 0 && wb.far[0].at <= c {
		e := wb.far.pop()
		if e.at == c {
			wb.take(&e)
		}
	}
}

// take adds event e of the current cycle to the outputs: of several
// writebacks in one cycle, the one issued last shows its warp and PC.
func (wb *writeback) take(e *wbEvent) {
	o := &wb.out[e.sched]
	if !o.Valid || e.seq > wb.last[e.sched] {
		o.Warp, o.PC, wb.last[e.sched] = uint16(e.warp), e.pc, e.seq
	}
	o.Valid = true
	if o.Count < 15 {
		o.Count++
	}
}

// wbHeap is a binary min-heap of pending writebacks by (cycle, issue
// order).
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
