package pipeline

import "testing"

// TestWritebackPipe: events due in the ring and beyond it (the heap) show
// in their cycle, by scheduler, the one issued last on top; events whose
// cycle was never evaluated (skipped as idle) never show, and neither
// leaves anything behind for a later lap of the ring.
func TestWritebackPipe(t *testing.T) {
	var wb writeback
	wb.init(2)
	wb.push(0, 5, 0, 3, 100)
	wb.push(1, 5, 0, 4, 101) // issued later: shown
	wb.push(1, 5, 1, 7, 102)
	wb.push(2, 2+wbRing+10, 1, 9, 103) // the heap
	wb.push(2, 7, 0, 1, 104)           // never evaluated: its cycle is skipped
	for c := uint64(0); c < 5; c++ {
		wb.eval(c)
		for s, o := range wb.out {
			if o.Valid || o.Count != 0 {
				t.Fatalf("cycle %d: stage %d shows %+v before anything is due", c, s, o)
			}
		}
	}
	wb.eval(5)
	if o := wb.out[0]; !o.Valid || o.Count != 2 || o.Warp != 4 || o.PC != 101 {
		t.Fatalf("cycle 5, stage 0: %+v", o)
	}
	if o := wb.out[1]; !o.Valid || o.Count != 1 || o.Warp != 7 || o.PC != 102 {
		t.Fatalf("cycle 5, stage 1: %+v", o)
	}
	wb.eval(5) // evaluating a cycle again changes nothing
	if o := wb.out[0]; !o.Valid || o.Count != 2 {
		t.Fatalf("cycle 5 evaluated twice: %+v", o)
	}
	// Cycles 6 .. 7+wbRing-1 are skipped; cycle 7's bucket comes round
	// again at 7+wbRing with its old event in it.
	wb.push(7+wbRing-3, 7+wbRing, 0, 2, 105)
	wb.eval(7 + wbRing)
	if o := wb.out[0]; !o.Valid || o.Count != 1 || o.Warp != 2 || o.PC != 105 {
		t.Fatalf("cycle %d, stage 0: %+v (a stale event counted?)", 7+wbRing, o)
	}
	if o := wb.out[1]; o.Valid || o.Warp != 7 || o.PC != 102 {
		t.Fatalf("cycle %d, stage 1: %+v (wb_warp_o, wb_pc_o hold)", 7+wbRing, o)
	}
	wb.eval(2 + wbRing + 10)
	if o := wb.out[1]; !o.Valid || o.Count != 1 || o.Warp != 9 || o.PC != 103 {
		t.Fatalf("the far event: %+v", o)
	}
	// Sixteen in one cycle: wb_count_o saturates at 15.
	for i := 0; i < 16; i++ {
		wb.push(3000, 3001, 1, i, uint32(i))
	}
	wb.eval(3001)
	if o := wb.out[1]; o.Count != 15 || o.Warp != 15 {
		t.Fatalf("16 writebacks: %+v", o)
	}
}
