package pipeline

import "testing"

// checkGlobal's verdicts and its nearest allocation, on two allocations
// a [0x10000, 0x10008) and b [0x10100, 0x10200).
func TestCheckGlobal(t *testing.T) {
	sm := &SM{allocs: []Allocation{{"a", 0x10000, 0x10008}, {"b", 0x10100, 0x10200}}}
	for _, c := range []struct {
		name      string
		addr      uint64
		n         int
		ok        bool
		alloc     string
		distance  int64
		msgSuffix string
	}{
		{"inside a", 0x10004, 4, true, "", 0, ""},
		{"inside b, last word", 0x101fc, 4, true, "", 0, ""},
		{"just past a", 0x10008, 4, false, "a", 0, "0 bytes past the end of a (8 bytes at 0x10000)"},
		{"crossing the end of a", 0x10004, 8, false, "a", 4, "crosses the end of a (8 bytes at 0x10000) by 4 bytes"},
		{"nearer b", 0x100f8, 4, false, "b", -8, "8 bytes before b (256 bytes at 0x10100)"},
		{"past b", 0x10300, 4, false, "b", 0x100, "256 bytes past the end of b (256 bytes at 0x10100)"},
		{"before everything", 0xfff0, 4, false, "a", -16, "16 bytes before a (8 bytes at 0x10000)"},
	} {
		f := sm.checkGlobal(3, c.addr, c.addr, c.addr+uint64(c.n))
		if c.ok {
			if f != nil {
				t.Errorf("%s: %v", c.name, f)
			}
			continue
		}
		if f == nil || f.san == nil || f.kind != "out_of_bounds" {
			t.Fatalf("%s: %+v, want an out_of_bounds fault", c.name, f)
		}
		r := f.san
		if r.Allocation == nil || r.Allocation.Name != c.alloc || r.Distance != c.distance || r.Lane != 3 || r.Size != c.n || r.Address != c.addr {
			t.Errorf("%s: report %+v (allocation %+v), want %s distance %d", c.name, r, r.Allocation, c.alloc, c.distance)
		}
		if want := c.msgSuffix; len(f.msg) < len(want) || f.msg[len(f.msg)-len(want):] != want {
			t.Errorf("%s: message %q, want it to end in %q", c.name, f.msg, want)
		}
	}
	empty := &SM{}
	if f := empty.checkGlobal(0, 0x10000, 0x10000, 0x10004); f == nil || f.san.Allocation != nil {
		t.Errorf("no allocation at all: %+v", f)
	}
}

// A misaligned ld.global.u32 gives a "misaligned" sanitizer record with
// its lane, address, size, PC and line; an aligned one gives none.
func TestMisalignedRecord(t *testing.T) {
	for _, off := range []int{2, 4} {
		src := kernel(`
	setp.eq.u32 %p1, %r2, 7;
	@%p1 add.s64 %rd3, %rd3, ` + itoa(off) + `;
	ld.global.u32 %r4, [%rd3];
	ret;`)
		_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(64)})
		if off == 4 {
			wantCompleted(t, rep)
			if len(rep.Sanitizer) != 0 {
				t.Errorf("aligned: %+v", rep.Sanitizer)
			}
			continue
		}
		if rep.Status != StatusFault || len(rep.Sanitizer) != 1 {
			t.Fatalf("status %s, sanitizer %+v", rep.Status, rep.Sanitizer)
		}
		s := rep.Sanitizer[0]
		addr, _ := sm0BufferAddr(t, src)
		if s.Kind != "misaligned" || s.Lane != 7 || s.Size != 4 || s.Address != addr+7*4+2 || s.Line == "" {
			t.Errorf("record %+v, want misaligned lane 7 size 4 at %#x", s, addr+7*4+2)
		}
	}
}

// sm0BufferAddr is the address "out" gets in a launch of src.
func sm0BufferAddr(t *testing.T, src string) (uint64, bool) {
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(64)})
	return sm.BufferAddr("out")
}
