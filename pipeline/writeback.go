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
// after their issue sit in a ring of per-cycle, per-scheduler slots that
// hold what the stage will show in that cycle (the count, and the warp and
// PC of the instruction issued last: instructions are pushed in issue
// order); those due later wait in a heap. A slot whose cycle has passed
// unevaluated (skipped as idle) is recognised by its cycle and starts
// afresh, so skipping idle stretches needs no work here.

// wbEvent is an instruction's writeback at cycle at.
type wbEvent struct {
	at    uint64
	seq   uint64 // issue order
	sched int32
	warp  int32
	pc    uint32
}

func (e *wbEvent) before(f *wbEvent) bool { return e.at < f.at || e.at == f.at && e.seq < f.seq }

// wbSlot is one cycle's writebacks of one scheduler.
type wbSlot struct {
	at    uint64 // the cycle (the slot is empty unless it is the one looked at)
	seq   uint64 // issue order of the instruction shown
	warp  uint16
	count uint8
	pc    uint32
}

// wbRing is the number of cycles ahead that the ring holds.
const wbRing = 1024

// writeback is the writeback stages of all sub-partitions.
type writeback struct {
	ring []wbSlot // [cycle%wbRing*ns + sched]
	ns   int
	far  wbHeap
	seq  uint64
	out  []WritebackOutputs // by scheduler
	at   uint64             // the cycle out belongs to (never: none yet)
}

func (wb *writeback) init(nsched int) {
	wb.ns = nsched
	wb.ring = make([]wbSlot, wbRing*nsched)
	for i := range wb.ring {
		wb.ring[i].at = never
	}
	wb.out = make([]WritebackOutputs, nsched)
	wb.at = never
}

// push records that the instruction at pc of warp slot warp, issued by
// scheduler s in cycle now, writes its destinations back at cycle at.
// Instructions are pushed in issue order, so the last one pushed into a
// slot is the one it shows.
func (wb *writeback) push(now, at uint64, s, warp int, pc uint32) {
	wb.seq++
	if at-now >= wbRing {
		wb.far.push(wbEvent{at: at, seq: wb.seq, sched: int32(s), warp: int32(warp), pc: pc})
		return
	}
	x := &wb.ring[int(at&(wbRing-1))*wb.ns+s]
	if x.at != at {
		*x = wbSlot{at: at} // a slot of a cycle gone by
	}
	if x.count < 15 { // wb_count_o saturates
		x.count++
	}
	x.seq, x.warp, x.pc = wb.seq, uint16(warp), pc
}

// eval sets the outputs to cycle c's writebacks (always_comb of the
// stage; the ring and the heap are its pipeline registers). Evaluating a
// cycle again changes nothing (an observer between Steps may evaluate it
// first).
func (wb *writeback) eval(c uint64) {
	if wb.at == c {
		return
	}
	wb.at = c
	row := wb.ring[int(c&(wbRing-1))*wb.ns:][:wb.ns]
	if len(wb.far) > 0 && wb.far[0].at <= c {
		wb.popFar(row, c)
	}
	for s := range row {
		x, o := &row[s], &wb.out[s]
		if x.at == c {
			*o = WritebackOutputs{Valid: true, Warp: x.warp, PC: x.pc, Count: x.count}
		} else if o.Valid {
			o.Valid, o.Count = false, 0 // wb_warp_o and wb_pc_o hold
		}
	}
}

// popFar moves the heap's events of cycle c into row (the ring's slots of
// c) and drops those of cycles gone by.
func (wb *writeback) popFar(row []wbSlot, c uint64) {
	for len(wb.far) > 0 && wb.far[0].at <= c {
		e := wb.far.pop()
		if e.at != c {
			continue
		}
		x := &row[e.sched]
		if x.at != c {
			*x = wbSlot{at: c}
		}
		if x.count < 15 {
			x.count++
		}
		if e.seq > x.seq {
			x.seq, x.warp, x.pc = e.seq, uint16(e.warp), e.pc
		}
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
