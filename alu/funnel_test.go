package alu

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestShfSadBfind(t *testing.T) {
	cases := []struct {
		name       string
		in         isa.Inst
		a, b, c, d uint64
	}{
		{"shf.l.wrap 8", isa.Inst{Op: isa.OpSHF, Type: isa.B32, Mods: isa.ModShfLeft | isa.ModShfWrap}, 0x89abcdef, 0x01234567, 8, 0x23456789},
		{"shf.l.wrap 40=8", isa.Inst{Op: isa.OpSHF, Type: isa.B32, Mods: isa.ModShfLeft | isa.ModShfWrap}, 0x89abcdef, 0x01234567, 40, 0x23456789},
		{"shf.l.clamp 40", isa.Inst{Op: isa.OpSHF, Type: isa.B32, Mods: isa.ModShfLeft}, 0x89abcdef, 0x01234567, 40, 0x89abcdef},
		{"shf.r.wrap 4", isa.Inst{Op: isa.OpSHF, Type: isa.B32, Mods: isa.ModShfWrap}, 0x89abcdef, 0x01234567, 4, 0x789abcde},
		{"shf.r.clamp 33", isa.Inst{Op: isa.OpSHF, Type: isa.B32}, 0x89abcdef, 0x01234567, 33, 0x01234567},
		{"rotate left 5", isa.Inst{Op: isa.OpSHF, Type: isa.B32, Mods: isa.ModShfLeft | isa.ModShfWrap}, 0x80000001, 0x80000001, 5, 0x00000030},
		{"sad.u32", isa.Inst{Op: isa.OpSAD, Type: isa.U32}, 3, 10, 100, 107},
		{"sad.s32 negative", isa.Inst{Op: isa.OpSAD, Type: isa.S32}, 0xfffffffe, 3, 1, 6},
		{"bfind.u32", isa.Inst{Op: isa.OpBFIND, Type: isa.U32}, 0x00010000, 0, 0, 16},
		{"bfind.u32 zero", isa.Inst{Op: isa.OpBFIND, Type: isa.U32}, 0, 0, 0, 0xffffffff},
		{"bfind.shiftamt.u32", isa.Inst{Op: isa.OpBFIND, Type: isa.U32, Mods: isa.ModBfindShiftAmt}, 0x00010000, 0, 0, 15},
		{"bfind.s32 negative", isa.Inst{Op: isa.OpBFIND, Type: isa.S32}, 0xfffffff0, 0, 0, 3},
		{"bfind.u64", isa.Inst{Op: isa.OpBFIND, Type: isa.U64}, 1 << 40, 0, 0, 40},
	}
	for _, c := range cases {
		if err := Supported(&c.in); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		r, err := Eval(&c.in, c.a, c.b, c.c, 0)
		if err != nil || r.D != c.d {
			t.Errorf("%s: got %#x, %v; want %#x", c.name, r.D, err, c.d)
		}
	}
}
