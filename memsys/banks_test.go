package memsys

import (
	"testing"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/rtl/rtltest"
)

var h100Banks = BankParams{Banks: 32, BankBytes: 4}

func sharedStrided(size int, base, stride uint32) [WarpSize]uint32 {
	var a [WarpSize]uint32
	for l := range a {
		a[l] = base + uint32(l)*stride
	}
	return a
}

// Bank-conflict replay counts: an n-way conflict takes n wavefronts.
func TestSharedWavefronts(t *testing.T) {
	cases := []struct {
		name       string
		size       int
		base, step uint32
		mask       uint32
		n, ideal   int
	}{
		{"4B stride 1: conflict-free", 4, 0, 4, ^uint32(0), 1, 1},
		{"4B stride 2: 2-way", 4, 0, 8, ^uint32(0), 2, 1},
		{"4B stride 4: 4-way", 4, 0, 16, ^uint32(0), 4, 1},
		{"4B stride 8: 8-way", 4, 0, 32, ^uint32(0), 8, 1},
		{"4B stride 16: 16-way", 4, 0, 64, ^uint32(0), 16, 1},
		{"4B stride 32: 32-way", 4, 0, 128, ^uint32(0), 32, 1},
		{"4B stride 3 (odd): conflict-free", 4, 0, 12, ^uint32(0), 1, 1},
		{"4B stride 33: conflict-free", 4, 0, 132, ^uint32(0), 1, 1},
		{"4B broadcast of one word", 4, 0x40, 0, ^uint32(0), 1, 1},
		{"1B lanes in 8 words", 1, 0, 1, ^uint32(0), 1, 1},
		{"4B stride 32, 4 lanes: 4-way", 4, 0, 128, 0xf, 4, 1},
		{"8B stride 1: two half-warps", 8, 0, 8, ^uint32(0), 2, 2},
		{"8B stride 2: 2-way in each half", 8, 0, 16, ^uint32(0), 4, 2},
		{"8B upper half-warp only", 8, 0, 8, 0xffff0000, 1, 1},
		{"16B stride 1: four quarter-warps", 16, 0, 16, ^uint32(0), 4, 4},
		{"16B stride 2: 2-way in each quarter", 16, 0, 32, ^uint32(0), 8, 4},
		{"8B broadcast", 8, 0x100, 0, ^uint32(0), 2, 2},
		{"no lanes", 4, 0, 4, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := sharedStrided(c.size, c.base, c.step)
			w, err := SharedWavefronts(h100Banks, &a, c.size, c.mask)
			if err != nil {
				t.Fatal(err)
			}
			if w.N != c.n || w.Ideal != c.ideal || w.Conflicts() != c.n-c.ideal {
				t.Fatalf("%d wavefronts (ideal %d), want %d (%d)", w.N, w.Ideal, c.n, c.ideal)
			}
			var all uint32
			for _, l := range w.Lanes[:w.N] {
				if l == 0 || all&l != 0 {
					t.Fatalf("lanes %#x", w.Lanes[:w.N])
				}
				all |= l
			}
			if all != c.mask {
				t.Fatalf("lanes served %#x, want %#x", all, c.mask)
			}
			// No wavefront holds two distinct words of one bank.
			for _, l := range w.Lanes[:w.N] {
				seen := map[uint32]uint32{}
				for i := 0; i < WarpSize; i++ {
					if l&(1<<i) == 0 {
						continue
					}
					for b := uint32(0); b < uint32(c.size+3)/4; b++ {
						word := a[i]/4 + b
						bank := word % 32
						if w0, ok := seen[bank]; ok && w0 != word {
							t.Fatalf("bank %d holds words %d and %d in one wavefront", bank, w0, word)
						}
						seen[bank] = word
					}
				}
			}
		})
	}
}

func TestSharedWavefrontsErrors(t *testing.T) {
	a := sharedStrided(4, 2, 4)
	if _, err := SharedWavefronts(h100Banks, &a, 4, 1); err == nil {
		t.Fatal("misaligned accepted")
	}
	if _, err := SharedWavefronts(BankParams{Banks: 24, BankBytes: 4}, &a, 4, 1); err == nil {
		t.Fatal("24 banks accepted")
	}
	if _, err := NewBanks(BankParams{Banks: 32, BankBytes: 2}); err == nil {
		t.Fatal("2-byte banks accepted")
	}
	// 8-byte banks: 8-byte lanes at stride 1 fit one wavefront of 32 lanes.
	b := sharedStrided(8, 0, 8)
	w, err := SharedWavefronts(BankParams{Banks: 32, BankBytes: 8}, &b, 8, ^uint32(0))
	if err != nil || w.N != 1 {
		t.Fatalf("8-byte banks: %d wavefronts, %v", w.N, err)
	}
}

// A 32-way conflict holds the banks 32 cycles: one wavefront per cycle,
// the next request taken in the cycle of the last.
func TestBanksUnit(t *testing.T) {
	u, err := NewBanks(h100Banks)
	if err != nil {
		t.Fatal(err)
	}
	conflict := BankInputs{ReqValid: true, ReqOp: uint8(OpLoad), ReqSize: 4, ReqMask: ^uint32(0), ReqAddr: sharedStrided(4, 0, 128), ReqID: 1}
	clean := BankInputs{ReqValid: true, ReqOp: uint8(OpStore), ReqSize: 4, ReqMask: ^uint32(0), ReqAddr: sharedStrided(4, 0, 4), ReqID: 2}
	ins := []BankInputs{conflict}
	for i := 0; i < 32; i++ {
		ins = append(ins, clean) // offered every cycle; taken with the last wavefront
	}
	ins = append(ins, BankInputs{}, BankInputs{})
	outs := rtltest.CheckTwoPhase[BankInputs, BankOutputs, BankState](t, u, ins...)
	if !outs[0].ReqReady || outs[0].ReqWavefronts != 32 || outs[0].ReqConflicts != 31 {
		t.Fatalf("cycle 0: %+v", outs[0])
	}
	var lanes uint32
	for c := 1; c <= 32; c++ {
		o := outs[c]
		if !o.WfValid || o.WfID != 1 || o.WfLast != (c == 32) || o.ReqReady != (c == 32) {
			t.Fatalf("cycle %d: %+v", c, o)
		}
		lanes |= o.WfLanes
	}
	if lanes != ^uint32(0) {
		t.Fatalf("lanes %#x", lanes)
	}
	if o := outs[33]; !o.WfValid || o.WfID != 2 || !o.WfLast || o.WfOp != uint8(OpStore) || o.WfLanes != ^uint32(0) {
		t.Fatalf("cycle 33: %+v", o)
	}
	if outs[34].WfValid {
		t.Fatal("cycle 34 busy")
	}
}

func TestBanksSignals(t *testing.T) {
	rtltest.CheckTags(t, BankInputs{}, BankOutputs{}, BankState{})
	if err := rtl.CheckState(BankState{}); err != nil {
		t.Fatal(err)
	}
	u, _ := NewBanks(h100Banks)
	tab := u.Signals()
	if s, ok := tab.Find("wf_lanes_q"); !ok || s.Width != 32*32 || s.Scope != BanksScope {
		t.Fatalf("%+v", s)
	}
}
