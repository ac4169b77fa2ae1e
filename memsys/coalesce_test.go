package memsys

import (
	"math/bits"
	"strings"
	"testing"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

// strided is a full-warp request: lane l at base + l*stride bytes.
func strided(op Op, size int, base, stride uint64) WarpReq {
	r := WarpReq{Op: op, Space: SpaceGlobal, Size: size, Mask: ^uint32(0)}
	for l := range r.Addr {
		r.Addr[l] = base + uint64(l)*stride
	}
	return r
}

// The CUDA C++ Best Practices Guide's coalescing figures: 4-byte loads at
// lane strides of 1, 2, 4 and 8 words touch 4, 8, 16 and 32 sectors.
func TestCoalesceStrides(t *testing.T) {
	cases := []struct {
		name          string
		size          int
		base, stride  uint64
		sectors, line int
	}{
		{"4B stride 1 word", 4, 0x1000, 4, 4, 1},
		{"4B stride 2 words", 4, 0x1000, 8, 8, 2},
		{"4B stride 4 words", 4, 0x1000, 16, 16, 4},
		{"4B stride 8 words", 4, 0x1000, 32, 32, 8},
		{"4B stride 32 words", 4, 0x1000, 128, 32, 32},
		{"4B stride 1, misaligned by a word", 4, 0x1004, 4, 5, 2},
		{"4B broadcast", 4, 0x1008, 0, 1, 1},
		{"8B stride 1", 8, 0x2000, 8, 8, 2},
		{"16B stride 1", 16, 0x2000, 16, 16, 4},
		{"1B stride 1", 1, 0x2000, 1, 1, 1},
		{"2B stride 2 elements", 2, 0x2000, 4, 4, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := strided(OpLoad, c.size, c.base, c.stride)
			got, err := Coalesce(&r)
			if err != nil {
				t.Fatal(err)
			}
			if got.Sectors != c.sectors || got.N != c.line {
				t.Fatalf("%d sectors in %d lines, want %d in %d", got.Sectors, got.N, c.sectors, c.line)
			}
			var lanes uint32
			total := 0
			for _, ln := range got.Lines[:got.N] {
				if ln.Addr%LineBytes != 0 || ln.Sectors == 0 || ln.Sectors&^FullLine != 0 {
					t.Fatalf("bad line %+v", ln)
				}
				if lanes&ln.Lanes != 0 {
					t.Fatalf("a lane in two lines: %+v", got.Lines[:got.N])
				}
				lanes |= ln.Lanes
				total += Sectors(ln.Sectors)
			}
			if lanes != r.Mask || total != got.Sectors {
				t.Fatalf("lanes %#x sectors %d", lanes, total)
			}
		})
	}
}

func TestCoalesceMaskAndErrors(t *testing.T) {
	r := strided(OpLoad, 4, 0, 32)
	r.Mask = 0x0000_00ff // lanes 0..7: 8 sectors, two lines
	c, err := Coalesce(&r)
	if err != nil || c.Sectors != 8 || c.N != 2 || c.Lines[0].Lanes != 0x0f || c.Lines[1].Lanes != 0xf0 {
		t.Fatalf("%+v %v", c, err)
	}
	r.Mask = 0
	if c, err = Coalesce(&r); err != nil || c.N != 0 || c.Sectors != 0 {
		t.Fatalf("empty mask: %+v %v", c, err)
	}
	r = strided(OpLoad, 4, 2, 4)
	if _, err = Coalesce(&r); err == nil || !strings.Contains(err.Error(), "lane 0") {
		t.Fatalf("misaligned: %v", err)
	}
	r = strided(OpLoad, 3, 0, 4)
	if _, err = Coalesce(&r); err == nil {
		t.Fatal("size 3 accepted")
	}
}

func reqIn(r WarpReq, id uint32, outReady bool) CoalescerInputs {
	return CoalescerInputs{
		ReqValid: true, ReqOp: uint8(r.Op), ReqSpace: uint8(r.Space), ReqSize: uint8(r.Size),
		ReqMask: r.Mask, ReqAddr: r.Addr, ReqID: id, OutReady: outReady,
	}
}

// A request of four lines leaves one line per cycle from the next cycle;
// the next request is taken in the cycle of the last line, so the lines of
// back-to-back requests follow without a bubble; a stalled output holds
// its line.
func TestCoalescerUnit(t *testing.T) {
	u := NewCoalescer(CoalescerParams{})
	a := strided(OpLoad, 4, 0x1000, 16) // 4 lines
	b := strided(OpStore, 4, 0x8000, 4) // 1 line
	idle := CoalescerInputs{OutReady: true}
	stall := CoalescerInputs{}
	ins := []CoalescerInputs{
		reqIn(a, 7, true), // 0: taken
		reqIn(b, 8, true), // 1: line 0 of a; b not taken
		idle,              // 2: line 1
		stall,             // 3: line 2, not taken
		idle,              // 4: line 2
		reqIn(b, 8, true), // 5: line 3 (last) and b taken
		idle,              // 6: b's line
		idle,              // 7: nothing
	}
	outs := rtltest.CheckTwoPhase[CoalescerInputs, CoalescerOutputs, CoalescerState](t, u, ins...)
	type want struct {
		ready, valid, last bool
		idx                uint8
		addr               uint64
		id                 uint32
	}
	wants := []want{
		{true, false, false, 0, 0, 0},
		{false, true, false, 0, 0x1000, 7},
		{false, true, false, 1, 0x1080, 7},
		{false, true, false, 2, 0x1100, 7},
		{false, true, false, 2, 0x1100, 7},
		{true, true, true, 3, 0x1180, 7},
		{true, true, true, 0, 0x8000, 8},
		{true, false, false, 0, 0, 0},
	}
	for i, w := range wants {
		o := outs[i]
		if o.ReqReady != w.ready || o.OutValid != w.valid || (w.valid && (o.OutLast != w.last || o.OutIdx != w.idx || o.OutAddr != w.addr || o.OutID != w.id)) {
			t.Errorf("cycle %d: %+v, want %+v", i, o, w)
		}
	}
	if outs[0].ReqSectors != 16 || outs[1].OutSectors != FullLine || outs[6].OutOp != uint8(OpStore) {
		t.Errorf("sectors %d / %#x, op %d", outs[0].ReqSectors, outs[1].OutSectors, outs[6].OutOp)
	}
	if bits.OnesCount32(outs[1].OutLanes) != 8 {
		t.Errorf("lanes %#x", outs[1].OutLanes)
	}
	// A malformed request is flagged and dropped.
	bad := strided(OpLoad, 4, 1, 4)
	o := u.Eval(reqIn(bad, 9, true))
	if !o.ReqErr || u.D().Busy {
		t.Fatalf("malformed request: %+v busy %v", o, u.D().Busy)
	}
}

func TestCoalescerSignals(t *testing.T) {
	rtltest.CheckTags(t, CoalescerInputs{}, CoalescerOutputs{}, CoalescerState{})
	if err := rtl.CheckState(CoalescerState{}); err != nil {
		t.Fatal(err)
	}
	tab := NewCoalescer(CoalescerParams{}).Signals()
	for name, w := range map[string]int{"req_addr_i": 32 * 64, "out_sectors_o": 4, "line_sectors_q": 32 * 4, "req_ready_o": 1} {
		s, ok := tab.Find(name)
		if !ok || s.Width != w || s.Scope != CoalescerScope {
			t.Errorf("%s: %+v, want width %d", name, s, w)
		}
	}
}
