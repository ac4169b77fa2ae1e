package alu

import (
	"math"
	"testing"

	"github.com/smsim/smsim/isa"
)

// TestISA16Eval pins one lane of issue 16's ALU instructions at the edge
// cases and the examples of the PTX ISA text (the pipeline tests run them
// in kernels against independent references).
func TestISA16Eval(t *testing.T) {
	approx := rndM(isa.RndApprox)
	inf32, ninf32 := f32b(float32(math.Inf(1))), f32b(float32(math.Inf(-1)))
	lop := func(lut uint32) *isa.Inst { in := mk(isa.OpLOP3, isa.B32, 0); in.Imm = lut; return in }
	dp := func(op isa.Opcode, at, bt isa.Type, mods uint16) *isa.Inst {
		in := mk(op, at, mods)
		in.Type2 = bt
		return in
	}
	cases := []struct {
		name       string
		in         *isa.Inst
		a, b, c, d uint64
		want       uint64
		cf         bool
	}{
		// Transcendentals: the special inputs of the ISA's tables.
		{"ex2 -inf", mk(isa.OpEX2, isa.F32, approx), ninf32, 0, 0, 0, 0, false},
		{"ex2 -0", mk(isa.OpEX2, isa.F32, approx), 1 << 31, 0, 0, 0, f32b(1), false},
		{"ex2 3", mk(isa.OpEX2, isa.F32, approx), f32b(3), 0, 0, 0, f32b(8), false},
		{"lg2 -0", mk(isa.OpLG2, isa.F32, approx), 1 << 31, 0, 0, 0, ninf32, false},
		{"lg2 -1", mk(isa.OpLG2, isa.F32, approx), f32b(-1), 0, 0, 0, 0x7fffffff, false},
		{"lg2 8", mk(isa.OpLG2, isa.F32, approx), f32b(8), 0, 0, 0, f32b(3), false},
		{"sin -0", mk(isa.OpSIN, isa.F32, approx), 1 << 31, 0, 0, 0, 1 << 31, false},
		{"cos inf", mk(isa.OpCOS, isa.F32, approx), inf32, 0, 0, 0, 0x7fffffff, false},
		{"rsqrt -0", mk(isa.OpRSQRT, isa.F32, approx), 1 << 31, 0, 0, 0, ninf32, false},
		{"rsqrt 4", mk(isa.OpRSQRT, isa.F32, approx), f32b(4), 0, 0, 0, f32b(0.5), false},
		{"rsqrt.ftz subnormal", mk(isa.OpRSQRT, isa.F32, approx|isa.ModFtz), 1, 0, 0, 0, inf32, false},
		{"tanh -inf", mk(isa.OpTANH, isa.F32, approx), ninf32, 0, 0, 0, f32b(-1), false},
		{"tanh subnormal", mk(isa.OpTANH, isa.F32, approx), 5, 0, 0, 0, 5, false},
		{"rsqrt.f64 4", mk(isa.OpRSQRT, isa.F64, approx), f64b(4), 0, 0, 0, f64b(0.5), false},
		{"rsqrt.ftz.f64 -1", mk(isa.OpRSQRT, isa.F64, approx|isa.ModFtz), f64b(-1), 0, 0, 0, 0x7fffffff00000000, false},
		{"rsqrt.ftz.f64 -subnormal", mk(isa.OpRSQRT, isa.F64, approx|isa.ModFtz), 1<<63 | 1<<40, 0, 0, 0, 0xfff0000000000000, false},
		{"copysign", mk(isa.OpCOPYSIGN, isa.F32, 0), 1 << 31, f32b(2.5), 0, 0, f32b(-2.5), false},
		{"testp.subnormal", mk(isa.OpTESTP, isa.F32, isa.TestpSubnormal), 1, 0, 0, 0, 1, false},
		{"testp.normal 0", mk(isa.OpTESTP, isa.F64, isa.TestpNormal), 0, 0, 0, 0, 1, false},
		// Integer.
		{"mul24.lo.u32", mk(isa.OpMUL24, isa.U32, isa.MulLo), 0x01000003, 5, 0, 0, 15, false},
		{"mul24.hi.u32", mk(isa.OpMUL24, isa.U32, isa.MulHi), 0xffffff, 0xffffff, 0, 0, 0xfffffe00, false},
		{"mul24.lo.s32", mk(isa.OpMUL24, isa.S32, isa.MulLo), 0x00ffffff, 2, 0, 0, 0xfffffffe, false},
		{"mad24.hi.sat.s32", mk(isa.OpMAD24, isa.S32, isa.MulHi|isa.ModSat), 0x7fffff, 0x7fffff, 0x7fffffff, 0, 0x7fffffff, false},
		{"add.cc.u32", mk(isa.OpADD, isa.U32, isa.ModCCOut), 0xffffffff, 1, 0, 0, 0, true},
		{"addc.u32", mk(isa.OpADD, isa.U32, isa.ModCCIn), 1, 1, 0, 1, 3, false},
		{"sub.cc.u32 borrow", mk(isa.OpSUB, isa.U32, isa.ModCCOut), 0, 1, 0, 0, 0xffffffff, true},
		{"subc.cc.u32", mk(isa.OpSUB, isa.U32, isa.ModCCIn|isa.ModCCOut), 5, 2, 0, 1, 2, false},
		{"addc.cc.u64", mk(isa.OpADD, isa.U64, isa.ModCCIn|isa.ModCCOut), math.MaxUint64, 0, 0, 1, 0, true},
		{"mad.lo.cc.u32", mk(isa.OpMAD, isa.U32, isa.MulLo|isa.ModCCOut), 0x10000, 0x10000, 5, 0, 5, false},
		{"madc.hi.cc.u32", mk(isa.OpMAD, isa.U32, isa.MulHi|isa.ModCCIn|isa.ModCCOut), 0xffffffff, 0xffffffff, 1, 1, 0, true},
		{"dp4a.u32.u32", dp(isa.OpDP4A, isa.U32, isa.U32, 0), 0x01020304, 0x01010101, 10, 0, 20, false},
		{"dp4a.s32.s32", dp(isa.OpDP4A, isa.S32, isa.S32, 0), 0xff000000, 0x02000000, 0, 0, 0xfffffffe, false},
		{"dp2a.hi.s32.u32", dp(isa.OpDP2A, isa.S32, isa.U32, isa.ModDp2aHi), 0xffff0002, 0x03040000, 1, 0, 1 + 2*4 - 3, false},
		{"bmsk.wrap 1,2", mk(isa.OpBMSK, isa.B32, isa.ModWrap), 1, 2, 0, 0, 6, false},
		{"bmsk.clamp 32,5", mk(isa.OpBMSK, isa.B32, 0), 32, 5, 0, 0, 0, false},
		{"bmsk.clamp 4,32", mk(isa.OpBMSK, isa.B32, 0), 4, 32, 0, 0, 0xfffffff0, false},
		{"szext.wrap.u32 0", mk(isa.OpSZEXT, isa.U32, isa.ModWrap), 0xffffffff, 0, 0, 0, 0, false},
		{"szext.clamp.s32 8", mk(isa.OpSZEXT, isa.S32, 0), 0x80, 8, 0, 0, 0xffffff80, false},
		{"szext.clamp.s32 40", mk(isa.OpSZEXT, isa.S32, 0), 0x1234, 40, 0, 0, 0x1234, false},
		{"fns 3,1", mk(isa.OpFNS, isa.B32, 0), 0xaaaaaaaa, 3, 1, 0, 3, false},
		{"fns 3,-1", mk(isa.OpFNS, isa.B32, 0), 0xaaaaaaaa, 3, 0xffffffff, 0, 3, false},
		{"fns 2,1", mk(isa.OpFNS, isa.B32, 0), 0xaaaaaaaa, 2, 1, 0, 3, false},
		{"fns 2,-1", mk(isa.OpFNS, isa.B32, 0), 0xaaaaaaaa, 2, 0xffffffff, 0, 1, false},
		{"fns none", mk(isa.OpFNS, isa.B32, 0), 0, 2, 1, 0, 0xffffffff, false},
		{"lop3 majority", lop(0xe8), 0b1100, 0b1010, 0b0110, 0, 0b1110, false},
		{"lop3 xor3", lop(0x96), 0b1100, 0b1010, 0b0110, 0, 0b0000, false},
		// Low precision.
		{"add.f16x2", mk(isa.OpADD, isa.F16x2, 0), 0x3c00_4000, 0x3c00_bc00, 0, 0, 0x4000_3c00, false},
		{"fma.relu.bf16x2", mk(isa.OpFMA, isa.BF16x2, rndM(isa.RndRN)|isa.ModRelu), 0x3f80_bf80, 0x4000_4000, 0, 0, 0x4000_0000, false},
		{"cvt.rn.satfinite.e4m3x2.f32", &isa.Inst{Op: isa.OpCVT, Type: isa.E4M3x2, Type2: isa.F32, Mods: rndM(isa.RndRN) | isa.ModSatFinite | isa.ModCvtPack}, f32b(500), f32b(-0.015625), 0, 0, 0x7e_88, false},
		{"cvt.rn.satfinite.e5m2x2.f32 inf", &isa.Inst{Op: isa.OpCVT, Type: isa.E5M2x2, Type2: isa.F32, Mods: rndM(isa.RndRN) | isa.ModSatFinite | isa.ModCvtPack}, inf32, f32b(1), 0, 0, 0x7b_3c, false},
		{"cvt.rn.f16x2.e4m3x2 NaN", &isa.Inst{Op: isa.OpCVT, Type: isa.F16x2, Type2: isa.E4M3x2, Mods: rndM(isa.RndRN)}, 0x7f_38, 0, 0, 0, 0x7fff_3c00, false},
		{"cvt.rn.bf16x2.f32", &isa.Inst{Op: isa.OpCVT, Type: isa.BF16x2, Type2: isa.F32, Mods: rndM(isa.RndRN) | isa.ModCvtPack}, f32b(1), f32b(-2), 0, 0, 0x3f80_c000, false},
		{"cvt.pack.sat.s8", &isa.Inst{Op: isa.OpCVT, Type: isa.S8, Type2: isa.S32, Mods: isa.ModCvtPackSat | isa.ModSat}, 300, 0xfffffe00, 0xabcd, 0, 0xabcd_7f80, false},
		{"cvt.f32.bf16", cvt(isa.F32, isa.BF16, 0), 0x4049, 0, 0, 0, 0x40490000, false},
	}
	for _, c := range cases {
		r, err := Eval(c.in, c.a, c.b, c.c, c.d)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := r.D
		if c.in.Op == isa.OpTESTP {
			got = b2u(r.P)
		}
		if got != c.want || r.CF != c.cf {
			t.Errorf("%s: D=%#x CF=%v, want %#x CF=%v", c.name, got, r.CF, c.want, c.cf)
		}
	}
}
