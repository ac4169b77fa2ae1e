package alu

import (
	"math"
	"testing"

	"github.com/smsim/smsim/isa"
)

func mk(op isa.Opcode, t isa.Type, mods uint16) *isa.Inst {
	return &isa.Inst{Op: op, Type: t, Mods: mods}
}

func cvt(dt, st isa.Type, mods uint16) *isa.Inst {
	return &isa.Inst{Op: isa.OpCVT, Type: dt, Type2: st, Mods: mods}
}

func rndM(r int) uint16 { return uint16(r) << isa.ModRndShift }

func f32b(x float32) uint64 { return uint64(math.Float32bits(x)) }
func f64b(x float64) uint64 { return math.Float64bits(x) }

func mustEval(t *testing.T, in *isa.Inst, a, b, c, d uint64) Result {
	t.Helper()
	r, err := Eval(in, a, b, c, d)
	if err != nil {
		t.Fatalf("%s: %v", opName(in), err)
	}
	return r
}

type vec struct {
	name       string
	in         *isa.Inst
	a, b, c, d uint64
	want       uint64
}

func runVecs(t *testing.T, vs []vec) {
	t.Helper()
	for _, v := range vs {
		r, err := Eval(v.in, v.a, v.b, v.c, v.d)
		if err != nil {
			t.Errorf("%s: %v", v.name, err)
			continue
		}
		if r.D != v.want {
			t.Errorf("%s: got %#x want %#x", v.name, r.D, v.want)
		}
	}
}

const (
	i32min = 0x80000000
	i64min = 0x8000000000000000
	all32  = 0xFFFFFFFF
	all64  = 0xFFFFFFFFFFFFFFFF
)

func s32(x int32) uint64 { return uint64(uint32(x)) }
func s64(x int64) uint64 { return uint64(x) }

func TestIntegerVectors(t *testing.T) {
	sat := uint16(isa.ModSat)
	runVecs(t, []vec{
		// add/sub, wrapping and saturation
		{"add.u32 wrap", mk(isa.OpADD, isa.U32, 0), all32, 1, 0, 0, 0},
		{"add.u16 wrap", mk(isa.OpADD, isa.U16, 0), 0xFFFF, 1, 0, 0, 0},
		{"add.s8", mk(isa.OpADD, isa.S8, 0), 0x7F, 1, 0, 0, 0x80},
		{"add.s64", mk(isa.OpADD, isa.S64, 0), s64(-5), 3, 0, 0, s64(-2)},
		{"add.u32 ignores high bits", mk(isa.OpADD, isa.U32, 0), 0xDEAD00000001, 0xBEEF00000002, 0, 0, 3},
		{"add.sat.s32 +ovf", mk(isa.OpADD, isa.S32, sat), 0x7FFFFFFF, 1, 0, 0, 0x7FFFFFFF},
		{"add.sat.s32 -ovf", mk(isa.OpADD, isa.S32, sat), i32min, s32(-1), 0, 0, i32min},
		{"add.sat.s32 plain", mk(isa.OpADD, isa.S32, sat), s32(-7), 5, 0, 0, s32(-2)},
		{"sub.u32 wrap", mk(isa.OpSUB, isa.U32, 0), 0, 1, 0, 0, all32},
		{"sub.sat.s32 -ovf", mk(isa.OpSUB, isa.S32, sat), i32min, 1, 0, 0, i32min},
		{"sub.sat.s32 +ovf", mk(isa.OpSUB, isa.S32, sat), 0x7FFFFFFF, s32(-1), 0, 0, 0x7FFFFFFF},
		{"sub.sat.s32 plain", mk(isa.OpSUB, isa.S32, sat), 5, 7, 0, 0, s32(-2)},

		// mul lo/hi/wide
		{"mul.lo.u32", mk(isa.OpMUL, isa.U32, isa.MulLo), 0x10000, 0x10001, 0, 0, 0x10000},
		{"mul.lo.s16", mk(isa.OpMUL, isa.S16, isa.MulLo), 0xFFFF, 2, 0, 0, 0xFFFE},
		{"mul.hi.u32", mk(isa.OpMUL, isa.U32, isa.MulHi), all32, all32, 0, 0, 0xFFFFFFFE},
		{"mul.hi.s32 -1*1", mk(isa.OpMUL, isa.S32, isa.MulHi), s32(-1), 1, 0, 0, all32},
		{"mul.hi.s32 min*min", mk(isa.OpMUL, isa.S32, isa.MulHi), i32min, i32min, 0, 0, 0x40000000},
		{"mul.hi.s32 -3*5", mk(isa.OpMUL, isa.S32, isa.MulHi), s32(-3), 5, 0, 0, all32},
		{"mul.hi.s32 min*max", mk(isa.OpMUL, isa.S32, isa.MulHi), i32min, 0x7FFFFFFF, 0, 0, 0xC0000000},
		{"mul.hi.u16", mk(isa.OpMUL, isa.U16, isa.MulHi), 0xFFFF, 0xFFFF, 0, 0, 0xFFFE},
		{"mul.hi.s16", mk(isa.OpMUL, isa.S16, isa.MulHi), 0x8000, 2, 0, 0, 0xFFFF},
		{"mul.hi.u64", mk(isa.OpMUL, isa.U64, isa.MulHi), all64, all64, 0, 0, 0xFFFFFFFFFFFFFFFE},
		{"mul.hi.s64 -2*3", mk(isa.OpMUL, isa.S64, isa.MulHi), s64(-2), 3, 0, 0, all64},
		{"mul.hi.s64 min*min", mk(isa.OpMUL, isa.S64, isa.MulHi), i64min, i64min, 0, 0, 0x4000000000000000},
		{"mul.hi.s64 min*-1", mk(isa.OpMUL, isa.S64, isa.MulHi), i64min, all64, 0, 0, 0},
		{"mul.wide.s32", mk(isa.OpMUL, isa.S32, isa.MulWide), s32(-2), 3, 0, 0, s64(-6)},
		{"mul.wide.u32", mk(isa.OpMUL, isa.U32, isa.MulWide), all32, all32, 0, 0, 0xFFFFFFFE00000001},
		{"mul.wide.s32 min*min", mk(isa.OpMUL, isa.S32, isa.MulWide), i32min, i32min, 0, 0, 0x4000000000000000},
		{"mul.wide.s16", mk(isa.OpMUL, isa.S16, isa.MulWide), 0xFFFF, 0xFFFF, 0, 0, 1},
		{"mul.wide.s16 neg", mk(isa.OpMUL, isa.S16, isa.MulWide), 0xFFFF, 2, 0, 0, 0xFFFFFFFE},
		{"mul.wide.u16", mk(isa.OpMUL, isa.U16, isa.MulWide), 0xFFFF, 0xFFFF, 0, 0, 0xFFFE0001},

		// mad
		{"mad.lo.u32", mk(isa.OpMAD, isa.U32, isa.MulLo), 3, 4, 5, 0, 17},
		{"mad.lo.s32 wrap", mk(isa.OpMAD, isa.S32, isa.MulLo), 0x10000, 0x10000, 1, 0, 1},
		{"mad.hi.s32", mk(isa.OpMAD, isa.S32, isa.MulHi), 0x40000000, 4, 5, 0, 6},
		{"mad.hi.u32", mk(isa.OpMAD, isa.U32, isa.MulHi), all32, all32, 2, 0, 0},
		{"mad.hi.sat.s32 +", mk(isa.OpMAD, isa.S32, isa.MulHi|sat), 0x7FFFFFFF, 0x7FFFFFFF, 0x7FFFFFFF, 0, 0x7FFFFFFF},
		{"mad.hi.sat.s32 -", mk(isa.OpMAD, isa.S32, isa.MulHi|sat), s32(-1), 1, i32min, 0, i32min},
		{"mad.hi.sat.s32 plain", mk(isa.OpMAD, isa.S32, isa.MulHi|sat), 0x40000000, 4, 5, 0, 6},
		{"mad.wide.s32", mk(isa.OpMAD, isa.S32, isa.MulWide), s32(-2), 3, 10, 0, 4},
		{"mad.wide.s32 neg c", mk(isa.OpMAD, isa.S32, isa.MulWide), 2, 3, s64(-10), 0, s64(-4)},
		{"mad.wide.u32", mk(isa.OpMAD, isa.U32, isa.MulWide), all32, all32, all32, 0, 0xFFFFFFFF00000000},
		{"mad.wide.u16", mk(isa.OpMAD, isa.U16, isa.MulWide), 0xFFFF, 0xFFFF, 0xFFFF, 0, 0xFFFF0000},
		{"mad.lo.u64", mk(isa.OpMAD, isa.U64, 0), all64, 2, 3, 0, 1},

		// div/rem
		{"div.s32 min/-1", mk(isa.OpDIV, isa.S32, 0), i32min, s32(-1), 0, 0, i32min},
		{"div.s64 min/-1", mk(isa.OpDIV, isa.S64, 0), i64min, all64, 0, 0, i64min},
		{"div.s16 min/-1", mk(isa.OpDIV, isa.S16, 0), 0x8000, 0xFFFF, 0, 0, 0x8000},
		{"div.s32 7/-2", mk(isa.OpDIV, isa.S32, 0), 7, s32(-2), 0, 0, s32(-3)},
		{"div.s32 -7/2", mk(isa.OpDIV, isa.S32, 0), s32(-7), 2, 0, 0, s32(-3)},
		{"div.u32 /0", mk(isa.OpDIV, isa.U32, 0), 12345, 0, 0, 0, all32},
		{"div.u64 /0", mk(isa.OpDIV, isa.U64, 0), 12345, 0, 0, 0, all64},
		{"div.u16 /0", mk(isa.OpDIV, isa.U16, 0), 12345, 0, 0, 0, 0xFFFF},
		{"div.s32 pos/0", mk(isa.OpDIV, isa.S32, 0), 5, 0, 0, 0, all32},
		{"div.s32 neg/0", mk(isa.OpDIV, isa.S32, 0), s32(-5), 0, 0, 0, all32},
		{"div.u32", mk(isa.OpDIV, isa.U32, 0), all32, 2, 0, 0, 0x7FFFFFFF},
		{"div.s8", mk(isa.OpDIV, isa.S8, 0), 0x80, 2, 0, 0, 0xC0},
		{"rem.s32 -7%2", mk(isa.OpREM, isa.S32, 0), s32(-7), 2, 0, 0, all32},
		{"rem.s32 7%-2", mk(isa.OpREM, isa.S32, 0), 7, s32(-2), 0, 0, 1},
		{"rem.s32 min%-1", mk(isa.OpREM, isa.S32, 0), i32min, s32(-1), 0, 0, 0},
		{"rem.u32 %0", mk(isa.OpREM, isa.U32, 0), 5, 0, 0, 0, 5},
		{"rem.s32 %0", mk(isa.OpREM, isa.S32, 0), s32(-5), 0, 0, 0, s32(-5)},
		{"rem.u64", mk(isa.OpREM, isa.U64, 0), all64, 10, 0, 0, 5},

		// min/max/neg/abs
		{"min.s32", mk(isa.OpMIN, isa.S32, 0), s32(-1), 1, 0, 0, s32(-1)},
		{"min.u32", mk(isa.OpMIN, isa.U32, 0), all32, 1, 0, 0, 1},
		{"max.s16", mk(isa.OpMAX, isa.S16, 0), 0x8000, 0x7FFF, 0, 0, 0x7FFF},
		{"max.u16", mk(isa.OpMAX, isa.U16, 0), 0x8000, 0x7FFF, 0, 0, 0x8000},
		{"max.s64", mk(isa.OpMAX, isa.S64, 0), i64min, 0, 0, 0, 0},
		{"neg.s32", mk(isa.OpNEG, isa.S32, 0), 5, 0, 0, 0, s32(-5)},
		{"neg.s32 min", mk(isa.OpNEG, isa.S32, 0), i32min, 0, 0, 0, i32min},
		{"neg.s16", mk(isa.OpNEG, isa.S16, 0), 1, 0, 0, 0, 0xFFFF},
		{"abs.s32", mk(isa.OpABS, isa.S32, 0), s32(-5), 0, 0, 0, 5},
		{"abs.s32 min", mk(isa.OpABS, isa.S32, 0), i32min, 0, 0, 0, i32min},
		{"abs.s16", mk(isa.OpABS, isa.S16, 0), 0xFFFF, 0, 0, 0, 1},
		{"abs.s64", mk(isa.OpABS, isa.S64, 0), s64(-7), 0, 0, 0, 7},

		// logic
		{"and.b32", mk(isa.OpAND, isa.B32, 0), 0xF0F0, 0xFF00, 0, 0, 0xF000},
		{"or.b64", mk(isa.OpOR, isa.B64, 0), 1 << 63, 1, 0, 0, 1<<63 | 1},
		{"xor.b16", mk(isa.OpXOR, isa.B16, 0), 0xFFFF, 0x0F0F, 0, 0, 0xF0F0},
		{"not.b32", mk(isa.OpNOT, isa.B32, 0), 0, 0, 0, 0, all32},
		{"not.b16", mk(isa.OpNOT, isa.B16, 0), 0x00FF, 0, 0, 0, 0xFF00},
		{"not.b64", mk(isa.OpNOT, isa.B64, 0), 0, 0, 0, 0, all64},

		// shifts
		{"shl.b32 31", mk(isa.OpSHL, isa.B32, 0), 1, 31, 0, 0, i32min},
		{"shl.b32 32", mk(isa.OpSHL, isa.B32, 0), 1, 32, 0, 0, 0},
		{"shl.b32 huge", mk(isa.OpSHL, isa.B32, 0), 1, all32, 0, 0, 0},
		{"shl.b16 16", mk(isa.OpSHL, isa.B16, 0), 1, 16, 0, 0, 0},
		{"shl.b16 15", mk(isa.OpSHL, isa.B16, 0), 3, 15, 0, 0, 0x8000},
		{"shl.b64 63", mk(isa.OpSHL, isa.B64, 0), 1, 63, 0, 0, 1 << 63},
		{"shl.b64 64", mk(isa.OpSHL, isa.B64, 0), 1, 64, 0, 0, 0},
		{"shl.b64 amount is u32", mk(isa.OpSHL, isa.B64, 0), 1, 1<<32 | 1, 0, 0, 2},
		{"shr.u32 31", mk(isa.OpSHR, isa.U32, 0), i32min, 31, 0, 0, 1},
		{"shr.u32 32", mk(isa.OpSHR, isa.U32, 0), i32min, 32, 0, 0, 0},
		{"shr.b32 logical", mk(isa.OpSHR, isa.B32, 0), i32min, 4, 0, 0, 0x08000000},
		{"shr.s32 31", mk(isa.OpSHR, isa.S32, 0), i32min, 31, 0, 0, all32},
		{"shr.s32 100", mk(isa.OpSHR, isa.S32, 0), i32min, 100, 0, 0, all32},
		{"shr.s32 pos 100", mk(isa.OpSHR, isa.S32, 0), 0x40000000, 100, 0, 0, 0},
		{"shr.s32 4", mk(isa.OpSHR, isa.S32, 0), s32(-64), 4, 0, 0, s32(-4)},
		{"shr.s16 20", mk(isa.OpSHR, isa.S16, 0), 0x8000, 20, 0, 0, 0xFFFF},
		{"shr.s64 64", mk(isa.OpSHR, isa.S64, 0), i64min, 64, 0, 0, all64},
		{"shr.s64 huge", mk(isa.OpSHR, isa.S64, 0), i64min, all32, 0, 0, all64},
		{"shr.u64 64", mk(isa.OpSHR, isa.U64, 0), all64, 64, 0, 0, 0},

		// selp / mov
		{"selp.b32 true", mk(isa.OpSELP, isa.B32, 0), 1, 2, 1, 0, 1},
		{"selp.b32 false", mk(isa.OpSELP, isa.B32, 0), 1, 2, 0, 0, 2},
		{"selp.f64", mk(isa.OpSELP, isa.F64, 0), f64b(1), f64b(2), 0, 0, f64b(2)},
		{"selp.u16 masks", mk(isa.OpSELP, isa.U16, 0), 0x12345, 2, 1, 0, 0x2345},
		{"mov.b32", mk(isa.OpMOV, isa.B32, 0), 0x1_2345_6789, 0, 0, 0, 0x23456789},
		{"mov.u16", mk(isa.OpMOV, isa.U16, 0), 0x12345, 0, 0, 0, 0x2345},
		{"mov.f64", mk(isa.OpMOV, isa.F64, 0), f64b(-2.5), 0, 0, 0, f64b(-2.5)},
		{"mov.b64 pack", mk(isa.OpMOV, isa.B64, isa.ModMovPack), 0x11111111, 0x22222222, 0, 0, 0x2222222211111111},
		{"mov.b64 pack masks", mk(isa.OpMOV, isa.B64, isa.ModMovPack), 0xFF11111111, 0xFF22222222, 0, 0, 0x2222222211111111},
		{"mov.b32 pack", mk(isa.OpMOV, isa.B32, isa.ModMovPack), 0x1111, 0x2222, 0, 0, 0x22221111},
		{"mov.b16 pack", mk(isa.OpMOV, isa.B16, isa.ModMovPack), 0x11, 0x22, 0, 0, 0x2211},
	})
}

func TestMovUnpackAndPred(t *testing.T) {
	r := mustEval(t, mk(isa.OpMOV, isa.B64, isa.ModMovUnpack), 0x2222222211111111, 0, 0, 0)
	if r.D != 0x11111111 || r.D2 != 0x22222222 {
		t.Errorf("unpack b64: %+v", r)
	}
	r = mustEval(t, mk(isa.OpMOV, isa.B32, isa.ModMovUnpack), 0xAAAABBBB, 0, 0, 0)
	if r.D != 0xBBBB || r.D2 != 0xAAAA {
		t.Errorf("unpack b32: %+v", r)
	}
	if r := mustEval(t, mk(isa.OpMOV, isa.Pred, 0), 1, 0, 0, 0); !r.P || r.D != 1 {
		t.Errorf("mov.pred 1: %+v", r)
	}
	if r := mustEval(t, mk(isa.OpMOV, isa.Pred, 0), 0, 0, 0, 0); r.P {
		t.Errorf("mov.pred 0: %+v", r)
	}
	for _, c := range []struct {
		op   isa.Opcode
		a, b uint64
		want bool
	}{
		{isa.OpAND, 1, 1, true}, {isa.OpAND, 1, 0, false},
		{isa.OpOR, 0, 0, false}, {isa.OpOR, 0, 1, true},
		{isa.OpXOR, 1, 1, false}, {isa.OpXOR, 1, 0, true},
		{isa.OpNOT, 1, 0, false}, {isa.OpNOT, 0, 0, true},
	} {
		r := mustEval(t, mk(c.op, isa.Pred, 0), c.a, c.b, 0, 0)
		if r.P != c.want || r.D != b2u(c.want) {
			t.Errorf("%s.pred %d %d: %+v", c.op, c.a, c.b, r)
		}
	}
}

func TestBitVectors(t *testing.T) {
	runVecs(t, []vec{
		{"popc.b32", mk(isa.OpPOPC, isa.B32, 0), 0xF0F0F0F0, 0, 0, 0, 16},
		{"popc.b32 high ignored", mk(isa.OpPOPC, isa.B32, 0), 0xFF00000001, 0, 0, 0, 1},
		{"popc.b64", mk(isa.OpPOPC, isa.B64, 0), all64, 0, 0, 0, 64},
		{"clz.b32 0", mk(isa.OpCLZ, isa.B32, 0), 0, 0, 0, 0, 32},
		{"clz.b32 1", mk(isa.OpCLZ, isa.B32, 0), 1, 0, 0, 0, 31},
		{"clz.b32 top", mk(isa.OpCLZ, isa.B32, 0), i32min, 0, 0, 0, 0},
		{"clz.b64 0", mk(isa.OpCLZ, isa.B64, 0), 0, 0, 0, 0, 64},
		{"clz.b64 1", mk(isa.OpCLZ, isa.B64, 0), 1, 0, 0, 0, 63},
		{"brev.b32", mk(isa.OpBREV, isa.B32, 0), 1, 0, 0, 0, i32min},
		{"brev.b32 pattern", mk(isa.OpBREV, isa.B32, 0), 0x12345678, 0, 0, 0, 0x1E6A2C48},
		{"brev.b64", mk(isa.OpBREV, isa.B64, 0), 1, 0, 0, 0, 1 << 63},

		{"bfe.u32", mk(isa.OpBFE, isa.U32, 0), 0xABCD1234, 4, 8, 0, 0x23},
		{"bfe.s32 neg field", mk(isa.OpBFE, isa.S32, 0), 0x00000F00, 8, 4, 0, all32},
		{"bfe.s32 pos field", mk(isa.OpBFE, isa.S32, 0), 0x00000700, 8, 4, 0, 7},
		{"bfe.u32 neg field", mk(isa.OpBFE, isa.U32, 0), 0x00000F00, 8, 4, 0, 0xF},
		{"bfe.s32 len 0", mk(isa.OpBFE, isa.S32, 0), all32, 8, 0, 0, 0},
		{"bfe.u32 past msb", mk(isa.OpBFE, isa.U32, 0), 0xF0000000, 28, 8, 0, 0xF},
		{"bfe.s32 past msb", mk(isa.OpBFE, isa.S32, 0), 0xF0000000, 28, 8, 0, all32},
		{"bfe.s32 past msb pos", mk(isa.OpBFE, isa.S32, 0), 0x70000000, 28, 8, 0, 7},
		{"bfe.s32 pos beyond", mk(isa.OpBFE, isa.S32, 0), i32min, 40, 1, 0, all32},
		{"bfe.u32 pos beyond", mk(isa.OpBFE, isa.U32, 0), all32, 40, 1, 0, 0},
		{"bfe.u32 pos byte", mk(isa.OpBFE, isa.U32, 0), 0xABCD1234, 0x104, 0x208, 0, 0x23},
		{"bfe.u32 len 32", mk(isa.OpBFE, isa.U32, 0), 0xABCD1234, 0, 32, 0, 0xABCD1234},
		{"bfe.u32 len 255", mk(isa.OpBFE, isa.U32, 0), 0xABCD1234, 16, 255, 0, 0xABCD},
		{"bfe.s64", mk(isa.OpBFE, isa.S64, 0), i64min, 63, 1, 0, all64},
		{"bfe.u64", mk(isa.OpBFE, isa.U64, 0), 0xABCD000000000000, 48, 16, 0, 0xABCD},
		{"bfe.s64 mid", mk(isa.OpBFE, isa.S64, 0), 0x0000_8000_0000_0000, 32, 16, 0, 0xFFFFFFFFFFFF8000},

		{"bfi.b32", mk(isa.OpBFI, isa.B32, 0), 0xFF, 0, 8, 4, 0xF00},
		{"bfi.b32 keeps base", mk(isa.OpBFI, isa.B32, 0), 0, all32, 8, 4, 0xFFFFF0FF},
		{"bfi.b32 past msb", mk(isa.OpBFI, isa.B32, 0), 0xFF, 0, 30, 8, 0xC0000000},
		{"bfi.b32 len 0", mk(isa.OpBFI, isa.B32, 0), 0xFF, 0x1234, 0, 0, 0x1234},
		{"bfi.b32 pos 32", mk(isa.OpBFI, isa.B32, 0), 0xFF, 0x1234, 32, 8, 0x1234},
		{"bfi.b32 pos byte", mk(isa.OpBFI, isa.B32, 0), 0xFF, 0, 0x108, 0x104, 0xF00},
		{"bfi.b64", mk(isa.OpBFI, isa.B64, 0), all64, 0, 60, 8, 0xF000000000000000},
		{"bfi.b64 full", mk(isa.OpBFI, isa.B64, 0), 0x1234, all64, 0, 64, 0x1234},

		{"prmt identity a", mk(isa.OpPRMT, isa.B32, 0), 0x44332211, 0x88776655, 0x3210, 0, 0x44332211},
		{"prmt b", mk(isa.OpPRMT, isa.B32, 0), 0x44332211, 0x88776655, 0x7654, 0, 0x88776655},
		{"prmt reverse", mk(isa.OpPRMT, isa.B32, 0), 0x44332211, 0x88776655, 0x0123, 0, 0x11223344},
		{"prmt bcast", mk(isa.OpPRMT, isa.B32, 0), 0x44332211, 0x88776655, 0x0000, 0, 0x11111111},
		{"prmt sign", mk(isa.OpPRMT, isa.B32, 0), 0x000000F0, 0, 0x0008, 0, 0xF0F0F0FF},
		{"prmt sign positive", mk(isa.OpPRMT, isa.B32, 0), 0x44332211, 0x88776655, 0x888F, 0, 0x000000FF},
		{"prmt selector high bits ignored", mk(isa.OpPRMT, isa.B32, 0), 0x44332211, 0x88776655, 0xFFFF3210, 0, 0x44332211},
		{"prmt.f4e 0", mk(isa.OpPRMT, isa.B32, isa.PrmtF4E), 0x44332211, 0x88776655, 0, 0, 0x44332211},
		{"prmt.f4e 1", mk(isa.OpPRMT, isa.B32, isa.PrmtF4E), 0x44332211, 0x88776655, 1, 0, 0x55443322},
		{"prmt.f4e 3", mk(isa.OpPRMT, isa.B32, isa.PrmtF4E), 0x44332211, 0x88776655, 7, 0, 0x77665544},
		{"prmt.b4e 0", mk(isa.OpPRMT, isa.B32, isa.PrmtB4E), 0x44332211, 0x88776655, 0, 0, 0x66778811},
		{"prmt.b4e 3", mk(isa.OpPRMT, isa.B32, isa.PrmtB4E), 0x44332211, 0x88776655, 3, 0, 0x11223344},
		{"prmt.rc8 2", mk(isa.OpPRMT, isa.B32, isa.PrmtRC8), 0x44332211, 0x88776655, 2, 0, 0x33333333},
		{"prmt.ecl 1", mk(isa.OpPRMT, isa.B32, isa.PrmtECL), 0x44332211, 0x88776655, 1, 0, 0x44332222},
		{"prmt.ecl 3", mk(isa.OpPRMT, isa.B32, isa.PrmtECL), 0x44332211, 0x88776655, 3, 0, 0x44444444},
		{"prmt.ecr 2", mk(isa.OpPRMT, isa.B32, isa.PrmtECR), 0x44332211, 0x88776655, 2, 0, 0x33332211},
		{"prmt.ecr 0", mk(isa.OpPRMT, isa.B32, isa.PrmtECR), 0x44332211, 0x88776655, 0, 0, 0x11111111},
		{"prmt.rc16 0", mk(isa.OpPRMT, isa.B32, isa.PrmtRC16), 0x44332211, 0x88776655, 0, 0, 0x22112211},
		{"prmt.rc16 1", mk(isa.OpPRMT, isa.B32, isa.PrmtRC16), 0x44332211, 0x88776655, 1, 0, 0x44334433},
		{"prmt.rc16 2", mk(isa.OpPRMT, isa.B32, isa.PrmtRC16), 0x44332211, 0x88776655, 2, 0, 0x22112211},
		{"prmt.f4e no sign", mk(isa.OpPRMT, isa.B32, isa.PrmtF4E), 0x808080F0, 0, 0xC, 0, 0x808080F0},
	})
}

func TestSetp(t *testing.T) {
	nan32 := uint64(0x7FC00000)
	one := f32b(1)
	sub := uint64(1) // f32 subnormal
	cases := []struct {
		name string
		t    isa.Type
		mods uint16
		a, b uint64
		c    uint64
		p, q bool
	}{
		{"lt.s32", isa.S32, isa.CmpLT, s32(-1), 1, 0, true, false},
		{"lt.u32", isa.U32, isa.CmpLT, s32(-1), 1, 0, false, false},
		{"lt.b32 unsigned", isa.B32, isa.CmpLT, s32(-1), 1, 0, false, false},
		{"lo.s32 unsigned", isa.S32, isa.CmpLO, s32(-1), 1, 0, false, false},
		{"hi.s32 unsigned", isa.S32, isa.CmpHI, s32(-1), 1, 0, true, false},
		{"ls.u32", isa.U32, isa.CmpLS, 1, 1, 0, true, false},
		{"hs.u32", isa.U32, isa.CmpHS, 0, 1, 0, false, false},
		{"ge.s16", isa.S16, isa.CmpGE, 0x8000, 0x7FFF, 0, false, false},
		{"gt.s64", isa.S64, isa.CmpGT, 1, all64, 0, true, false},
		{"le.u64", isa.U64, isa.CmpLE, all64, 1, 0, false, false},
		{"eq.u32 ignores high", isa.U32, isa.CmpEQ, 1<<32 | 5, 5, 0, true, false},
		{"ne.u32", isa.U32, isa.CmpNE, 4, 5, 0, true, false},
		{"eq dst2", isa.U32, isa.CmpEQ | isa.ModSetpDst2, 4, 5, 0, false, true},
		{"lt and c=1", isa.S32, isa.CmpLT | isa.BoolAnd<<isa.ModBoolShift | isa.ModSetpDst2, 1, 2, 1, true, false},
		{"lt and c=0", isa.S32, isa.CmpLT | isa.BoolAnd<<isa.ModBoolShift | isa.ModSetpDst2, 1, 2, 0, false, false},
		{"lt or c=1", isa.S32, isa.CmpLT | isa.BoolOr<<isa.ModBoolShift | isa.ModSetpDst2, 3, 2, 1, true, true},
		{"lt or c=0", isa.S32, isa.CmpLT | isa.BoolOr<<isa.ModBoolShift | isa.ModSetpDst2, 3, 2, 0, false, true},
		{"lt xor c=1", isa.S32, isa.CmpLT | isa.BoolXor<<isa.ModBoolShift | isa.ModSetpDst2, 1, 2, 1, false, true},
		{"lt xor c=0", isa.S32, isa.CmpLT | isa.BoolXor<<isa.ModBoolShift | isa.ModSetpDst2, 1, 2, 0, true, false},
		{"no dst2: q false", isa.S32, isa.CmpLT, 3, 2, 0, false, false},

		{"eq.f32 nan", isa.F32, isa.CmpEQ, nan32, nan32, 0, false, false},
		{"ne.f32 nan", isa.F32, isa.CmpNE, nan32, one, 0, false, false},
		{"ne.f32", isa.F32, isa.CmpNE, f32b(2), one, 0, true, false},
		{"neu.f32 nan", isa.F32, isa.CmpNEU, nan32, one, 0, true, false},
		{"equ.f32 nan", isa.F32, isa.CmpEQU, one, nan32, 0, true, false},
		{"equ.f32", isa.F32, isa.CmpEQU, one, one, 0, true, false},
		{"ltu.f32", isa.F32, isa.CmpLTU, f32b(2), one, 0, false, false},
		{"leu.f32 nan", isa.F32, isa.CmpLEU, f32b(2), nan32, 0, true, false},
		{"gtu.f32", isa.F32, isa.CmpGTU, f32b(2), one, 0, true, false},
		{"geu.f32", isa.F32, isa.CmpGEU, f32b(0), one, 0, false, false},
		{"lt.f32 nan", isa.F32, isa.CmpLT, nan32, one, 0, false, false},
		{"ge.f32 nan", isa.F32, isa.CmpGE, one, nan32, 0, false, false},
		{"num.f32", isa.F32, isa.CmpNUM, one, one, 0, true, false},
		{"num.f32 nan", isa.F32, isa.CmpNUM, one, nan32, 0, false, false},
		{"nan.f32", isa.F32, isa.CmpNAN, nan32, one, 0, true, false},
		{"nan.f32 none", isa.F32, isa.CmpNAN, one, one, 0, false, false},
		{"eq.f32 -0 +0", isa.F32, isa.CmpEQ, 0x80000000, 0, 0, true, false},
		{"lt.f32 -0 +0", isa.F32, isa.CmpLT, 0x80000000, 0, 0, false, false},
		{"lt.f32 -inf", isa.F32, isa.CmpLT, f32b(float32(math.Inf(-1))), f32b(-1e38), 0, true, false},
		{"eq.f32 subnormal", isa.F32, isa.CmpEQ, sub, 0, 0, false, false},
		{"eq.ftz.f32 subnormal", isa.F32, isa.CmpEQ | ModSetpFtz, sub, 0, 0, true, false},
		{"gt.f32 subnormal", isa.F32, isa.CmpGT, sub, 0, 0, true, false},
		{"gt.ftz.f32 subnormal", isa.F32, isa.CmpGT | ModSetpFtz, sub, 0, 0, false, false},
		{"gt.ftz.f64 subnormal kept", isa.F64, isa.CmpGT | ModSetpFtz, 1, 0, 0, true, false},
		{"lt.f64", isa.F64, isa.CmpLT, f64b(1), f64b(1 + 1e-15), 0, true, false},
		{"nan.f64", isa.F64, isa.CmpNAN, 0x7FF0000000000001, f64b(1), 0, true, false},
		{"lt.f16", isa.F16, isa.CmpLT, 0x3C00, 0x4000, 0, true, false},
		{"lt.f16 neg", isa.F16, isa.CmpLT, 0xBC00, 0x3C00, 0, true, false},
		{"eq.f16 nan", isa.F16, isa.CmpEQ, 0x7E00, 0x7E00, 0, false, false},
		{"equ.f16 nan", isa.F16, isa.CmpEQU, 0x7E00, 0x3C00, 0, true, false},
	}
	for _, c := range cases {
		r := mustEval(t, mk(isa.OpSETP, c.t, c.mods), c.a, c.b, c.c, 0)
		if r.P != c.p || r.Q != c.q {
			t.Errorf("setp %s: got p=%v q=%v, want %v %v", c.name, r.P, r.Q, c.p, c.q)
		}
	}
}

func TestFloatVectors(t *testing.T) {
	RN, RZ, RM, RP := rndM(isa.RndRN), rndM(isa.RndRZ), rndM(isa.RndRM), rndM(isa.RndRP)
	ftz, sat := uint16(isa.ModFtz), uint16(isa.ModSat)
	one, three := f32b(1), f32b(3)
	maxf := uint64(0x7F7FFFFF)
	inf32 := uint64(0x7F800000)
	ninf32 := uint64(0xFF800000)
	minSub := uint64(1)
	inf64 := uint64(0x7FF0000000000000)
	runVecs(t, []vec{
		// 1/3 and friends in every mode
		{"div.rn.f32 1/3", mk(isa.OpDIV, isa.F32, RN), one, three, 0, 0, 0x3EAAAAAB},
		{"div.f32 1/3 default rn", mk(isa.OpDIV, isa.F32, 0), one, three, 0, 0, 0x3EAAAAAB},
		{"div.rz.f32 1/3", mk(isa.OpDIV, isa.F32, RZ), one, three, 0, 0, 0x3EAAAAAA},
		{"div.rm.f32 1/3", mk(isa.OpDIV, isa.F32, RM), one, three, 0, 0, 0x3EAAAAAA},
		{"div.rp.f32 1/3", mk(isa.OpDIV, isa.F32, RP), one, three, 0, 0, 0x3EAAAAAB},
		{"div.rz.f32 -1/3", mk(isa.OpDIV, isa.F32, RZ), f32b(-1), three, 0, 0, 0xBEAAAAAA},
		{"div.rm.f32 -1/3", mk(isa.OpDIV, isa.F32, RM), f32b(-1), three, 0, 0, 0xBEAAAAAB},
		{"div.rp.f32 -1/3", mk(isa.OpDIV, isa.F32, RP), f32b(-1), three, 0, 0, 0xBEAAAAAA},
		{"div.rn.f32 2/3", mk(isa.OpDIV, isa.F32, RN), f32b(2), three, 0, 0, 0x3F2AAAAB},
		{"div.rz.f32 2/3", mk(isa.OpDIV, isa.F32, RZ), f32b(2), three, 0, 0, 0x3F2AAAAA},
		{"div.full.f32 1/3", mk(isa.OpDIV, isa.F32, rndM(isa.RndFull)), one, three, 0, 0, 0x3EAAAAAB},
		{"div.rz.f32 exact", mk(isa.OpDIV, isa.F32, RZ), f32b(6), three, 0, 0, f32b(2)},
		{"div.rn.f64 1/3", mk(isa.OpDIV, isa.F64, RN), f64b(1), f64b(3), 0, 0, 0x3FD5555555555555},
		{"div.rz.f64 1/3", mk(isa.OpDIV, isa.F64, RZ), f64b(1), f64b(3), 0, 0, 0x3FD5555555555555},
		{"div.rm.f64 1/3", mk(isa.OpDIV, isa.F64, RM), f64b(1), f64b(3), 0, 0, 0x3FD5555555555555},
		{"div.rp.f64 1/3", mk(isa.OpDIV, isa.F64, RP), f64b(1), f64b(3), 0, 0, 0x3FD5555555555556},
		{"div.rp.f64 -1/3", mk(isa.OpDIV, isa.F64, RP), f64b(-1), f64b(3), 0, 0, 0xBFD5555555555555},
		{"div.rm.f64 -1/3", mk(isa.OpDIV, isa.F64, RM), f64b(-1), f64b(3), 0, 0, 0xBFD5555555555556},
		{"div.f32 1/0", mk(isa.OpDIV, isa.F32, RZ), one, 0, 0, 0, inf32},
		{"div.f32 -1/0", mk(isa.OpDIV, isa.F32, RN), f32b(-1), 0, 0, 0, ninf32},
		{"div.f32 0/0", mk(isa.OpDIV, isa.F32, RN), 0, 0, 0, 0, 0x7FFFFFFF},
		{"div.f32 inf/inf", mk(isa.OpDIV, isa.F32, RN), inf32, inf32, 0, 0, 0x7FFFFFFF},
		{"div.f32 1/-inf", mk(isa.OpDIV, isa.F32, RN), one, ninf32, 0, 0, 0x80000000},
		{"div.rz.f32 overflow", mk(isa.OpDIV, isa.F32, RZ), maxf, f32b(0.5), 0, 0, maxf},
		{"div.rn.f32 overflow", mk(isa.OpDIV, isa.F32, RN), maxf, f32b(0.5), 0, 0, inf32},
		{"div.rn.f32 subnormal", mk(isa.OpDIV, isa.F32, RN), f32b(0x1p-126), f32b(4), 0, 0, 0x00200000},
		{"div.ftz.f32 subnormal", mk(isa.OpDIV, isa.F32, RN|ftz), f32b(0x1p-126), f32b(4), 0, 0, 0},
		{"div.rz.f64 overflow", mk(isa.OpDIV, isa.F64, RZ), f64b(math.MaxFloat64), f64b(0.5), 0, 0, 0x7FEFFFFFFFFFFFFF},
		{"div.rp.f64 overflow", mk(isa.OpDIV, isa.F64, RP), f64b(math.MaxFloat64), f64b(0.5), 0, 0, inf64},
		{"div.rm.f64 -overflow", mk(isa.OpDIV, isa.F64, RM), f64b(-math.MaxFloat64), f64b(0.5), 0, 0, 0xFFF0000000000000},
		{"div.rp.f64 underflow", mk(isa.OpDIV, isa.F64, RP), f64b(0x1p-1074), f64b(3), 0, 0, 1},
		{"div.rn.f64 underflow", mk(isa.OpDIV, isa.F64, RN), f64b(0x1p-1074), f64b(3), 0, 0, 0},
		{"div.rm.f64 -underflow", mk(isa.OpDIV, isa.F64, RM), f64b(-0x1p-1074), f64b(3), 0, 0, 0x8000000000000001},

		// add with ties and directed modes
		{"add.rn.f32 tie even", mk(isa.OpADD, isa.F32, RN), one, f32b(0x1p-24), 0, 0, 0x3F800000},
		{"add.rp.f32", mk(isa.OpADD, isa.F32, RP), one, f32b(0x1p-24), 0, 0, 0x3F800001},
		{"add.rz.f32", mk(isa.OpADD, isa.F32, RZ), one, f32b(0x1p-24), 0, 0, 0x3F800000},
		{"add.rn.f32 tie odd", mk(isa.OpADD, isa.F32, RN), 0x3F800001, f32b(0x1p-24), 0, 0, 0x3F800002},
		{"add.rn.f32 above tie", mk(isa.OpADD, isa.F32, RN), one, f32b(0x1.8p-24), 0, 0, 0x3F800001},
		{"add.rm.f32 tiny", mk(isa.OpADD, isa.F32, RM), one, f32b(-0x1p-100), 0, 0, 0x3F7FFFFF},
		{"add.rz.f32 tiny", mk(isa.OpADD, isa.F32, RZ), one, f32b(-0x1p-100), 0, 0, 0x3F7FFFFF},
		{"add.rn.f32 tiny", mk(isa.OpADD, isa.F32, RN), one, f32b(-0x1p-100), 0, 0, 0x3F800000},
		{"add.rp.f32 tiny", mk(isa.OpADD, isa.F32, RP), one, f32b(0x1p-149), 0, 0, 0x3F800001},
		{"add.rm.f32 -tiny", mk(isa.OpADD, isa.F32, RM), f32b(-1), f32b(-0x1p-149), 0, 0, 0xBF800001},
		{"add.rn.f32 x-x", mk(isa.OpADD, isa.F32, RN), one, f32b(-1), 0, 0, 0},
		{"add.rm.f32 x-x", mk(isa.OpADD, isa.F32, RM), one, f32b(-1), 0, 0, 0x80000000},
		{"sub.rm.f32 x-x", mk(isa.OpSUB, isa.F32, RM), one, one, 0, 0, 0x80000000},
		{"sub.rn.f32 x-x", mk(isa.OpSUB, isa.F32, RN), one, one, 0, 0, 0},
		{"add.f32 -0+-0", mk(isa.OpADD, isa.F32, RN), 0x80000000, 0x80000000, 0, 0, 0x80000000},
		{"add.f32 -0++0", mk(isa.OpADD, isa.F32, RN), 0x80000000, 0, 0, 0, 0},
		{"add.rm.f32 -0++0", mk(isa.OpADD, isa.F32, RM), 0x80000000, 0, 0, 0, 0x80000000},
		{"add.rm.f64 x-x", mk(isa.OpADD, isa.F64, RM), f64b(1), f64b(-1), 0, 0, 1 << 63},
		{"sub.f32", mk(isa.OpSUB, isa.F32, 0), f32b(1.5), f32b(0.25), 0, 0, f32b(1.25)},
		{"add.f32 inf-inf", mk(isa.OpADD, isa.F32, RN), inf32, ninf32, 0, 0, 0x7FFFFFFF},
		{"add.f32 inf+1", mk(isa.OpADD, isa.F32, RZ), inf32, one, 0, 0, inf32},
		{"add.f32 nan", mk(isa.OpADD, isa.F32, RN), 0xFFC00001, one, 0, 0, 0x7FFFFFFF},
		{"add.rz.f32 overflow", mk(isa.OpADD, isa.F32, RZ), maxf, maxf, 0, 0, maxf},
		{"add.rn.f32 overflow", mk(isa.OpADD, isa.F32, RN), maxf, maxf, 0, 0, inf32},
		{"add.rm.f32 overflow", mk(isa.OpADD, isa.F32, RM), maxf, maxf, 0, 0, maxf},
		{"add.rm.f32 -overflow", mk(isa.OpADD, isa.F32, RM), maxf | 1<<31, maxf | 1<<31, 0, 0, ninf32},
		{"add.rp.f32 -overflow", mk(isa.OpADD, isa.F32, RP), maxf | 1<<31, maxf | 1<<31, 0, 0, maxf | 1<<31},
		{"add.f32 subnormals", mk(isa.OpADD, isa.F32, RN), minSub, minSub, 0, 0, 2},
		{"add.ftz.f32 subnormals", mk(isa.OpADD, isa.F32, RN|ftz), minSub, minSub, 0, 0, 0},
		{"add.ftz.f32 normal+sub", mk(isa.OpADD, isa.F32, RN|ftz), f32b(0x1p-126), 0x00400000, 0, 0, f32b(0x1p-126)},
		{"add.ftz.f32 result flushed", mk(isa.OpADD, isa.F32, RN|ftz), f32b(0x1.8p-126), f32b(-0x1p-126), 0, 0, 0},
		{"add.ftz.f32 -result flushed", mk(isa.OpADD, isa.F32, RN|ftz), f32b(-0x1.8p-126), f32b(0x1p-126), 0, 0, 0x80000000},
		{"add.rp.f64", mk(isa.OpADD, isa.F64, RP), f64b(1), f64b(0x1p-60), 0, 0, 0x3FF0000000000001},
		{"add.rz.f64", mk(isa.OpADD, isa.F64, RZ), f64b(1), f64b(-0x1p-60), 0, 0, 0x3FEFFFFFFFFFFFFF},
		{"add.rn.f64", mk(isa.OpADD, isa.F64, RN), f64b(1), f64b(-0x1p-60), 0, 0, f64b(1)},
		{"add.rz.f64 overflow", mk(isa.OpADD, isa.F64, RZ), f64b(math.MaxFloat64), f64b(math.MaxFloat64), 0, 0, 0x7FEFFFFFFFFFFFFF},
		{"add.f64 nan payload", mk(isa.OpADD, isa.F64, RN), f64b(1), 0x7FF0000000000001, 0, 0, 0x7FF8000000000001},
		{"sub.f64 nan payload", mk(isa.OpSUB, isa.F64, RN), f64b(1), 0xFFF0000000000002, 0, 0, 0xFFF8000000000002},
		{"add.f64 inf-inf", mk(isa.OpADD, isa.F64, RN), inf64, inf64 | 1<<63, 0, 0, 0x7FFFFFFFFFFFFFFF},

		// mul
		{"mul.rn.f32", mk(isa.OpMUL, isa.F32, RN), f32b(1.5), f32b(-2), 0, 0, f32b(-3)},
		{"mul.f32 subnormal exact", mk(isa.OpMUL, isa.F32, RN), f32b(0x1p-100), f32b(0x1p-40), 0, 0, 0x200},
		{"mul.ftz.f32 subnormal", mk(isa.OpMUL, isa.F32, RN|ftz), f32b(-0x1p-100), f32b(0x1p-40), 0, 0, 0x80000000},
		{"mul.rn.f32 0.75 min", mk(isa.OpMUL, isa.F32, RN), minSub, f32b(0.75), 0, 0, 1},
		{"mul.rz.f32 0.75 min", mk(isa.OpMUL, isa.F32, RZ), minSub, f32b(0.75), 0, 0, 0},
		{"mul.rp.f32 0.75 min", mk(isa.OpMUL, isa.F32, RP), minSub, f32b(0.75), 0, 0, 1},
		{"mul.rn.f32 0.5 min tie", mk(isa.OpMUL, isa.F32, RN), minSub, f32b(0.5), 0, 0, 0},
		{"mul.rn.f32 -0.5 min tie", mk(isa.OpMUL, isa.F32, RN), minSub, f32b(-0.5), 0, 0, 0x80000000},
		{"mul.rm.f32 -0.5 min", mk(isa.OpMUL, isa.F32, RM), minSub, f32b(-0.5), 0, 0, 0x80000001},
		{"mul.rn.f32 1.5 min", mk(isa.OpMUL, isa.F32, RN), minSub, f32b(1.5), 0, 0, 2},
		{"mul.rn.f32 2.5 min", mk(isa.OpMUL, isa.F32, RN), minSub, f32b(2.5), 0, 0, 2},
		{"mul.rz.f32 overflow", mk(isa.OpMUL, isa.F32, RZ), maxf, f32b(2), 0, 0, maxf},
		{"mul.rp.f32 overflow", mk(isa.OpMUL, isa.F32, RP), maxf, f32b(2), 0, 0, inf32},
		{"mul.rm.f32 overflow", mk(isa.OpMUL, isa.F32, RM), maxf, f32b(2), 0, 0, maxf},
		{"mul.rn.f32 0*inf", mk(isa.OpMUL, isa.F32, RN), 0, inf32, 0, 0, 0x7FFFFFFF},
		{"mul.rz.f32 -0*5", mk(isa.OpMUL, isa.F32, RZ), 0x80000000, f32b(5), 0, 0, 0x80000000},
		{"mul.rz.f32 1/3", mk(isa.OpMUL, isa.F32, RZ), 0x3EAAAAAB, three, 0, 0, 0x3F800000},
		{"mul.rp.f32 1/3", mk(isa.OpMUL, isa.F32, RP), 0x3EAAAAAB, three, 0, 0, 0x3F800001},
		{"mul.rz.f64 subnormal", mk(isa.OpMUL, isa.F64, RZ), 1, f64b(0.75), 0, 0, 0},
		{"mul.rp.f64 subnormal", mk(isa.OpMUL, isa.F64, RP), 1, f64b(0.75), 0, 0, 1},
		{"mul.rn.f64 subnormal tie", mk(isa.OpMUL, isa.F64, RN), 0x0010000000000001, f64b(0.5), 0, 0, 0x0008000000000000},
		{"mul.rp.f64 subnormal tie", mk(isa.OpMUL, isa.F64, RP), 0x0010000000000001, f64b(0.5), 0, 0, 0x0008000000000001},
		{"mul.rz.f64 subnormal tie", mk(isa.OpMUL, isa.F64, RZ), 0x0010000000000001, f64b(0.5), 0, 0, 0x0008000000000000},
		{"mul.rm.f64 overflow", mk(isa.OpMUL, isa.F64, RM), f64b(-math.MaxFloat64), f64b(2), 0, 0, inf64 | 1<<63},
		{"mul.rp.f64 -overflow", mk(isa.OpMUL, isa.F64, RP), f64b(-math.MaxFloat64), f64b(2), 0, 0, 0xFFEFFFFFFFFFFFFF},
		{"mul.sat.f32", mk(isa.OpMUL, isa.F32, sat), f32b(0.75), f32b(2), 0, 0, one},
		{"mul.sat.f32 neg", mk(isa.OpMUL, isa.F32, sat), f32b(0.75), f32b(-2), 0, 0, 0},
		{"mul.sat.f32 mid", mk(isa.OpMUL, isa.F32, sat), f32b(0.25), f32b(2), 0, 0, f32b(0.5)},
		{"mul.sat.f32 nan", mk(isa.OpMUL, isa.F32, sat), 0, inf32, 0, 0, 0},
		{"add.sat.f32 -0", mk(isa.OpADD, isa.F32, sat|RM), one, f32b(-1), 0, 0, 0},
		{"add.sat.f64", mk(isa.OpADD, isa.F64, sat), f64b(0.75), f64b(0.5), 0, 0, f64b(1)},

		// fma / mad
		{"fma.rn.f32 error term", mk(isa.OpFMA, isa.F32, RN), 0x3F800001, 0x3F800001, 0xBF800002, 0, 0x28800000},
		{"fma.rz.f32 error term", mk(isa.OpFMA, isa.F32, RZ), 0x3F800001, 0x3F800001, 0xBF800002, 0, 0x28800000},
		{"fma.rn.f32 double rounding trap", mk(isa.OpFMA, isa.F32, RN), 0x33802000, 0x3F7FC010, one, 0, 0x3F800001},
		{"fma.rz.f32 double rounding trap", mk(isa.OpFMA, isa.F32, RZ), 0x33802000, 0x3F7FC010, one, 0, 0x3F800000},
		{"fma.rp.f32", mk(isa.OpFMA, isa.F32, RP), 0x3F800001, 0x3F800001, 0, 0, 0x3F800003},
		{"fma.rz.f32", mk(isa.OpFMA, isa.F32, RZ), 0x3F800001, 0x3F800001, 0, 0, 0x3F800002},
		{"fma.rm.f32 -", mk(isa.OpFMA, isa.F32, RM), 0x3F800001, 0xBF800001, 0, 0, 0xBF800003},
		{"fma.rm.f32 cancel", mk(isa.OpFMA, isa.F32, RM), one, one, f32b(-1), 0, 0x80000000},
		{"fma.rn.f32 cancel", mk(isa.OpFMA, isa.F32, RN), one, one, f32b(-1), 0, 0},
		{"fma.rn.f32 0*x + -0", mk(isa.OpFMA, isa.F32, RN), 0x80000000, one, 0x80000000, 0, 0x80000000},
		{"fma.rn.f32 0*x + 0", mk(isa.OpFMA, isa.F32, RN), 0x80000000, one, 0, 0, 0},
		{"fma.rn.f32 0*x + c", mk(isa.OpFMA, isa.F32, RN), 0, one, three, 0, three},
		{"fma.f32 inf*0", mk(isa.OpFMA, isa.F32, RN), inf32, 0, one, 0, 0x7FFFFFFF},
		{"fma.f32 inf-inf", mk(isa.OpFMA, isa.F32, RN), inf32, one, ninf32, 0, 0x7FFFFFFF},
		{"fma.f32 x+inf", mk(isa.OpFMA, isa.F32, RN), one, one, ninf32, 0, ninf32},
		{"fma.rz.f32 overflow", mk(isa.OpFMA, isa.F32, RZ), maxf, f32b(2), f32b(-1), 0, maxf},
		{"fma.rn.f32 big product, small c", mk(isa.OpFMA, isa.F32, RN), f32b(0x1p100), f32b(0x1p100), one, 0, inf32},
		{"fma.sat.f32", mk(isa.OpFMA, isa.F32, sat), f32b(2), f32b(2), f32b(-3.5), 0, f32b(0.5)},
		{"fma.ftz.f32 sub in", mk(isa.OpFMA, isa.F32, ftz), minSub, f32b(0x1p100), one, 0, one},
		{"fma.f32 sub in", mk(isa.OpFMA, isa.F32, RN), minSub, f32b(0x1p127), one, 0, 0x3F800002},
		{"mad.rn.f32 = fma", mk(isa.OpMAD, isa.F32, RN), 0x3F800001, 0x3F800001, 0xBF800002, 0, 0x28800000},
		{"mad.f32 default fused", mk(isa.OpMAD, isa.F32, 0), 0x3F800001, 0x3F800001, 0xBF800002, 0, 0x28800000},
		{"fma.rn.f64", mk(isa.OpFMA, isa.F64, RN), 0x3FF0000000000001, 0x3FF0000000000001, 0xBFF0000000000002, 0, f64b(0x1p-104)},
		{"fma.rp.f64", mk(isa.OpFMA, isa.F64, RP), 0x3FF0000000000001, 0x3FF0000000000001, 0, 0, 0x3FF0000000000003},
		{"fma.rz.f64", mk(isa.OpFMA, isa.F64, RZ), 0x3FF0000000000001, 0x3FF0000000000001, 0, 0, 0x3FF0000000000002},
		{"fma.rm.f64 cancel", mk(isa.OpFMA, isa.F64, RM), f64b(3), f64b(1), f64b(-3), 0, 1 << 63},
		{"fma.rz.f64 overflow", mk(isa.OpFMA, isa.F64, RZ), f64b(math.MaxFloat64), f64b(2), f64b(-1), 0, 0x7FEFFFFFFFFFFFFF},
		{"fma.rp.f64 tiny c", mk(isa.OpFMA, isa.F64, RP), f64b(1), f64b(1), 1, 0, 0x3FF0000000000001},
		{"fma.rm.f64 tiny c", mk(isa.OpFMA, isa.F64, RM), f64b(1), f64b(1), 1 | 1<<63, 0, 0x3FEFFFFFFFFFFFFF},
		{"fma.f64 nan c payload", mk(isa.OpFMA, isa.F64, RN), f64b(1), f64b(1), 0x7FF8000000000123, 0, 0x7FF8000000000123},

		// sqrt / rcp
		{"sqrt.rn.f32 2", mk(isa.OpSQRT, isa.F32, RN), f32b(2), 0, 0, 0, 0x3FB504F3},
		{"sqrt.rz.f32 2", mk(isa.OpSQRT, isa.F32, RZ), f32b(2), 0, 0, 0, 0x3FB504F3},
		{"sqrt.rp.f32 2", mk(isa.OpSQRT, isa.F32, RP), f32b(2), 0, 0, 0, 0x3FB504F4},
		{"sqrt.approx.f32 2", mk(isa.OpSQRT, isa.F32, rndM(isa.RndApprox)), f32b(2), 0, 0, 0, 0x3FB504F3},
		{"sqrt.rn.f32 4", mk(isa.OpSQRT, isa.F32, RP), f32b(4), 0, 0, 0, f32b(2)},
		{"sqrt.f32 -1", mk(isa.OpSQRT, isa.F32, RN), f32b(-1), 0, 0, 0, 0x7FFFFFFF},
		{"sqrt.f32 -0", mk(isa.OpSQRT, isa.F32, RN), 0x80000000, 0, 0, 0, 0x80000000},
		{"sqrt.f32 inf", mk(isa.OpSQRT, isa.F32, RN), inf32, 0, 0, 0, inf32},
		{"sqrt.f32 -inf", mk(isa.OpSQRT, isa.F32, RN), ninf32, 0, 0, 0, 0x7FFFFFFF},
		{"sqrt.f32 subnormal", mk(isa.OpSQRT, isa.F32, RN), 0x00400000, 0, 0, 0, f32b(0x1.6a09e6p-64)},
		{"sqrt.ftz.f32 subnormal", mk(isa.OpSQRT, isa.F32, RN|ftz), 0x80400000, 0, 0, 0, 0x80000000},
		{"sqrt.rn.f64 2", mk(isa.OpSQRT, isa.F64, RN), f64b(2), 0, 0, 0, 0x3FF6A09E667F3BCD},
		{"sqrt.rz.f64 2", mk(isa.OpSQRT, isa.F64, RZ), f64b(2), 0, 0, 0, 0x3FF6A09E667F3BCC},
		{"sqrt.rm.f64 2", mk(isa.OpSQRT, isa.F64, RM), f64b(2), 0, 0, 0, 0x3FF6A09E667F3BCC},
		{"sqrt.rp.f64 2", mk(isa.OpSQRT, isa.F64, RP), f64b(2), 0, 0, 0, 0x3FF6A09E667F3BCD},
		{"sqrt.rz.f64 9", mk(isa.OpSQRT, isa.F64, RZ), f64b(9), 0, 0, 0, f64b(3)},
		{"sqrt.f64 -1", mk(isa.OpSQRT, isa.F64, RN), f64b(-1), 0, 0, 0, 0x7FFFFFFFFFFFFFFF},
		{"rcp.rn.f32 3", mk(isa.OpRCP, isa.F32, RN), three, 0, 0, 0, 0x3EAAAAAB},
		{"rcp.rz.f32 3", mk(isa.OpRCP, isa.F32, RZ), three, 0, 0, 0, 0x3EAAAAAA},
		{"rcp.approx.f32 3", mk(isa.OpRCP, isa.F32, rndM(isa.RndApprox)), three, 0, 0, 0, 0x3EAAAAAB},
		{"rcp.approx.f32 0", mk(isa.OpRCP, isa.F32, rndM(isa.RndApprox)), 0, 0, 0, 0, inf32},
		{"rcp.rn.f32 -0", mk(isa.OpRCP, isa.F32, RN), 0x80000000, 0, 0, 0, ninf32},
		{"rcp.rn.f32 inf", mk(isa.OpRCP, isa.F32, RN), inf32, 0, 0, 0, 0},
		{"rcp.rn.f32 big -> subnormal", mk(isa.OpRCP, isa.F32, RN), f32b(0x1p127), 0, 0, 0, 0x00400000},
		{"rcp.ftz.f32 big -> 0", mk(isa.OpRCP, isa.F32, RN|ftz), f32b(0x1p127), 0, 0, 0, 0},
		{"rcp.rn.f64 3", mk(isa.OpRCP, isa.F64, RN), f64b(3), 0, 0, 0, 0x3FD5555555555555},
		{"rcp.rp.f64 3", mk(isa.OpRCP, isa.F64, RP), f64b(3), 0, 0, 0, 0x3FD5555555555556},
		{"rcp.approx.ftz.f64 2", mk(isa.OpRCP, isa.F64, rndM(isa.RndApprox)|ftz), f64b(2), 0, 0, 0, f64b(0.5)},
		{"rcp.approx.ftz.f64 3", mk(isa.OpRCP, isa.F64, rndM(isa.RndApprox)|ftz), f64b(3), 0, 0, 0, 0x3FD5555500000000},
		{"rcp.approx.ftz.f64 low bits ignored", mk(isa.OpRCP, isa.F64, rndM(isa.RndApprox)|ftz), f64b(2) | 0xFFFFFFFF, 0, 0, 0, f64b(0.5)},
		{"rcp.approx.ftz.f64 0", mk(isa.OpRCP, isa.F64, rndM(isa.RndApprox)|ftz), 1 << 63, 0, 0, 0, inf64 | 1<<63},
		{"rcp.approx.ftz.f64 nan", mk(isa.OpRCP, isa.F64, rndM(isa.RndApprox)|ftz), 0x7FF8000000000123, 0, 0, 0, 0x7FFFFFFF00000000},
		{"rcp.approx.ftz.f64 huge", mk(isa.OpRCP, isa.F64, rndM(isa.RndApprox)|ftz), f64b(0x1p1023), 0, 0, 0, 0},

		// div.approx
		{"div.approx.f32 6/3", mk(isa.OpDIV, isa.F32, rndM(isa.RndApprox)), f32b(6), three, 0, 0, f32b(2)},
		{"div.approx.f32 big divisor", mk(isa.OpDIV, isa.F32, rndM(isa.RndApprox)), f32b(0x1p127), f32b(0x1p127), 0, 0, 0},
		{"div.approx.f32 inf/big", mk(isa.OpDIV, isa.F32, rndM(isa.RndApprox)), inf32, f32b(0x1p127), 0, 0, 0x7FFFFFFF},
		{"div.approx.f32 x/0", mk(isa.OpDIV, isa.F32, rndM(isa.RndApprox)), f32b(-2), 0, 0, 0, ninf32},
		{"div.approx.f32 0/0", mk(isa.OpDIV, isa.F32, rndM(isa.RndApprox)), 0, 0, 0, 0, 0x7FFFFFFF},

		// min/max/neg/abs
		{"min.f32", mk(isa.OpMIN, isa.F32, 0), f32b(-1), one, 0, 0, f32b(-1)},
		{"max.f32", mk(isa.OpMAX, isa.F32, 0), f32b(-1), one, 0, 0, one},
		{"min.f32 nan a", mk(isa.OpMIN, isa.F32, 0), 0x7FC00000, one, 0, 0, one},
		{"max.f32 nan b", mk(isa.OpMAX, isa.F32, 0), one, 0xFFC00000, 0, 0, one},
		{"min.f32 both nan", mk(isa.OpMIN, isa.F32, 0), 0x7FC00001, 0xFFC00000, 0, 0, 0x7FFFFFFF},
		{"min.f32 -0 +0", mk(isa.OpMIN, isa.F32, 0), 0, 0x80000000, 0, 0, 0x80000000},
		{"max.f32 -0 +0", mk(isa.OpMAX, isa.F32, 0), 0x80000000, 0, 0, 0, 0},
		{"min.f32 -inf", mk(isa.OpMIN, isa.F32, 0), ninf32, one, 0, 0, ninf32},
		{"min.f32 subnormal kept", mk(isa.OpMIN, isa.F32, 0), minSub, one, 0, 0, minSub},
		{"min.ftz.f32 subnormal", mk(isa.OpMIN, isa.F32, ftz), 0x80000001, one, 0, 0, 0x80000000},
		{"min.f64 both nan", mk(isa.OpMIN, isa.F64, 0), 0x7FF8000000000001, 0x7FF8000000000002, 0, 0, 0x7FFFFFFFFFFFFFFF},
		{"max.f64", mk(isa.OpMAX, isa.F64, 0), f64b(2), f64b(3), 0, 0, f64b(3)},
		{"min.f16", mk(isa.OpMIN, isa.F16, 0), 0xBC00, 0x3C00, 0, 0, 0xBC00},
		{"max.f16 nan", mk(isa.OpMAX, isa.F16, 0), 0x7E00, 0x3C00, 0, 0, 0x3C00},
		{"min.f16 both nan", mk(isa.OpMIN, isa.F16, 0), 0x7E00, 0x7E01, 0, 0, 0x7FFF},
		{"neg.f32", mk(isa.OpNEG, isa.F32, 0), one, 0, 0, 0, f32b(-1)},
		{"neg.f32 0", mk(isa.OpNEG, isa.F32, 0), 0, 0, 0, 0, 0x80000000},
		{"neg.f32 nan", mk(isa.OpNEG, isa.F32, 0), 0x7FC00000, 0, 0, 0, 0xFFC00000},
		{"neg.ftz.f32 sub", mk(isa.OpNEG, isa.F32, ftz), 1, 0, 0, 0, 0x80000000},
		{"neg.f32 sub", mk(isa.OpNEG, isa.F32, 0), 1, 0, 0, 0, 0x80000001},
		{"abs.f32 nan", mk(isa.OpABS, isa.F32, 0), 0xFFC00000, 0, 0, 0, 0x7FC00000},
		{"abs.f64", mk(isa.OpABS, isa.F64, 0), f64b(-2), 0, 0, 0, f64b(2)},
		{"neg.f64", mk(isa.OpNEG, isa.F64, 0), f64b(2), 0, 0, 0, f64b(-2)},
		{"neg.f16", mk(isa.OpNEG, isa.F16, 0), 0x3C00, 0, 0, 0, 0xBC00},
		{"abs.f16", mk(isa.OpABS, isa.F16, 0), 0xFE00, 0, 0, 0, 0x7E00},
		{"abs.ftz.f16 sub", mk(isa.OpABS, isa.F16, ftz), 0x8001, 0, 0, 0, 0},

		// f16 arithmetic
		{"add.f16", mk(isa.OpADD, isa.F16, 0), 0x3C00, 0x3C00, 0, 0, 0x4000},
		{"add.rn.f16 tie", mk(isa.OpADD, isa.F16, RN), 0x3C00, 0x1000, 0, 0, 0x3C00},
		{"add.rp.f16", mk(isa.OpADD, isa.F16, RP), 0x3C00, 0x1000, 0, 0, 0x3C01},
		{"add.f16 overflow", mk(isa.OpADD, isa.F16, RN), 0x7BFF, 0x7BFF, 0, 0, 0x7C00},
		{"add.rz.f16 overflow", mk(isa.OpADD, isa.F16, RZ), 0x7BFF, 0x7BFF, 0, 0, 0x7BFF},
		{"add.f16 nan", mk(isa.OpADD, isa.F16, RN), 0x7C01, 0x3C00, 0, 0, 0x7FFF},
		{"add.f16 subnormal", mk(isa.OpADD, isa.F16, RN), 0x0001, 0x0001, 0, 0, 0x0002},
		{"add.ftz.f16 subnormal", mk(isa.OpADD, isa.F16, RN|ftz), 0x0001, 0x0001, 0, 0, 0},
		{"sub.f16", mk(isa.OpSUB, isa.F16, RN), 0x3C00, 0x4000, 0, 0, 0xBC00},
		{"mul.f16", mk(isa.OpMUL, isa.F16, RN), 0x4000, 0x4200, 0, 0, 0x4600},
		{"mul.rn.f16 underflow", mk(isa.OpMUL, isa.F16, RN), 0x0001, 0x3800, 0, 0, 0},
		{"mul.rp.f16 underflow", mk(isa.OpMUL, isa.F16, RP), 0x0001, 0x3800, 0, 0, 1},
		{"fma.rn.f16 error term", mk(isa.OpFMA, isa.F16, RN), 0x3C01, 0x3C01, 0xBC02, 0, 0x0010},
		{"fma.sat.f16", mk(isa.OpFMA, isa.F16, RN|sat), 0x4000, 0x4000, 0x3C00, 0, 0x3C00},
	})
}

func TestCvtVectors(t *testing.T) {
	RN, RZ, RM, RP := rndM(isa.RndRN), rndM(isa.RndRZ), rndM(isa.RndRM), rndM(isa.RndRP)
	RNI, RZI, RMI, RPI := rndM(isa.RndRNI), rndM(isa.RndRZI), rndM(isa.RndRMI), rndM(isa.RndRPI)
	sat, ftz := uint16(isa.ModSat), uint16(isa.ModFtz)
	runVecs(t, []vec{
		// int -> int
		{"s32.s8", cvt(isa.S32, isa.S8, 0), 0x80, 0, 0, 0, 0xFFFFFF80},
		{"u32.s8", cvt(isa.U32, isa.S8, 0), 0xFF, 0, 0, 0, all32},
		{"u32.u8", cvt(isa.U32, isa.U8, 0), 0xFF, 0, 0, 0, 0xFF},
		{"s64.s32", cvt(isa.S64, isa.S32, 0), s32(-2), 0, 0, 0, s64(-2)},
		{"u64.u32", cvt(isa.U64, isa.U32, 0), 0xFFFFFFFFFFFFFFFF, 0, 0, 0, all32},
		{"s64.u32", cvt(isa.S64, isa.U32, 0), all32, 0, 0, 0, all32},
		{"u8.u32 truncates", cvt(isa.U8, isa.U32, 0), 0x1234, 0, 0, 0, 0x34},
		{"s8.s32 truncates raw", cvt(isa.S8, isa.S32, 0), s32(-2), 0, 0, 0, 0xFE},
		{"u16.s64", cvt(isa.U16, isa.S64, 0), s64(-1), 0, 0, 0, 0xFFFF},
		{"sat.u8.s32 neg", cvt(isa.U8, isa.S32, sat), s32(-5), 0, 0, 0, 0},
		{"sat.u8.s32 big", cvt(isa.U8, isa.S32, sat), 300, 0, 0, 0, 255},
		{"sat.u8.s32 in range", cvt(isa.U8, isa.S32, sat), 200, 0, 0, 0, 200},
		{"sat.s8.u32", cvt(isa.S8, isa.U32, sat), all32, 0, 0, 0, 0x7F},
		{"sat.s8.s32 neg", cvt(isa.S8, isa.S32, sat), s32(-200), 0, 0, 0, 0x80},
		{"sat.s8.s32 in range", cvt(isa.S8, isa.S32, sat), s32(-100), 0, 0, 0, 0x9C},
		{"sat.s32.s64 neg", cvt(isa.S32, isa.S64, sat), s64(-1 << 40), 0, 0, 0, i32min},
		{"sat.s32.s64 pos", cvt(isa.S32, isa.S64, sat), 1 << 40, 0, 0, 0, 0x7FFFFFFF},
		{"sat.u32.s32", cvt(isa.U32, isa.S32, sat), s32(-1), 0, 0, 0, 0},
		{"sat.s32.u32", cvt(isa.S32, isa.U32, sat), i32min, 0, 0, 0, 0x7FFFFFFF},
		{"sat.u64.s64", cvt(isa.U64, isa.S64, sat), all64, 0, 0, 0, 0},
		{"sat.s64.u64", cvt(isa.S64, isa.U64, sat), all64, 0, 0, 0, 0x7FFFFFFFFFFFFFFF},
		{"sat.u32.u64", cvt(isa.U32, isa.U64, sat), 1 << 32, 0, 0, 0, all32},
		{"sat.s64.s8", cvt(isa.S64, isa.S8, sat), 0x80, 0, 0, 0, s64(-128)},

		// int -> float
		{"rn.f32.s32 2^24+1", cvt(isa.F32, isa.S32, RN), 16777217, 0, 0, 0, 0x4B800000},
		{"f32.s32 default rn", cvt(isa.F32, isa.S32, 0), 16777217, 0, 0, 0, 0x4B800000},
		{"rp.f32.s32 2^24+1", cvt(isa.F32, isa.S32, RP), 16777217, 0, 0, 0, 0x4B800001},
		{"rn.f32.s32 2^24+3", cvt(isa.F32, isa.S32, RN), 16777219, 0, 0, 0, 0x4B800002},
		{"rm.f32.s32 -(2^24+1)", cvt(isa.F32, isa.S32, RM), s32(-16777217), 0, 0, 0, 0xCB800001},
		{"rz.f32.s32 -(2^24+1)", cvt(isa.F32, isa.S32, RZ), s32(-16777217), 0, 0, 0, 0xCB800000},
		{"rn.f32.u64 max", cvt(isa.F32, isa.U64, RN), all64, 0, 0, 0, 0x5F800000},
		{"rz.f32.u64 max", cvt(isa.F32, isa.U64, RZ), all64, 0, 0, 0, 0x5F7FFFFF},
		{"rn.f64.s64 min", cvt(isa.F64, isa.S64, RN), i64min, 0, 0, 0, 0xC3E0000000000000},
		{"rn.f64.u64 max", cvt(isa.F64, isa.U64, RN), all64, 0, 0, 0, 0x43F0000000000000},
		{"rz.f64.u64 max", cvt(isa.F64, isa.U64, RZ), all64, 0, 0, 0, 0x43EFFFFFFFFFFFFF},
		{"f32.s32 0", cvt(isa.F32, isa.S32, 0), 0, 0, 0, 0, 0},
		{"f32.u8", cvt(isa.F32, isa.U8, 0), 0xFF, 0, 0, 0, f32b(255)},
		{"f32.s8", cvt(isa.F32, isa.S8, 0), 0xFF, 0, 0, 0, f32b(-1)},
		{"rn.f16.u32 overflow", cvt(isa.F16, isa.U32, RN), 70000, 0, 0, 0, 0x7C00},
		{"rz.f16.u32 overflow", cvt(isa.F16, isa.U32, RZ), 70000, 0, 0, 0, 0x7BFF},
		{"rn.f16.s32", cvt(isa.F16, isa.S32, RN), s32(-2049), 0, 0, 0, 0xE800},
		{"rm.f16.s32", cvt(isa.F16, isa.S32, RM), s32(-2049), 0, 0, 0, 0xE801},
		{"sat.f32.s32", cvt(isa.F32, isa.S32, sat), 5, 0, 0, 0, f32b(1)},
		{"sat.f32.s32 neg", cvt(isa.F32, isa.S32, sat), s32(-5), 0, 0, 0, 0},

		// float -> int
		{"rzi.s32.f32 -1.5", cvt(isa.S32, isa.F32, RZI), f32b(-1.5), 0, 0, 0, all32},
		{"s32.f32 default rzi", cvt(isa.S32, isa.F32, 0), f32b(-1.5), 0, 0, 0, all32},
		{"rni.s32.f32 2.5", cvt(isa.S32, isa.F32, RNI), f32b(2.5), 0, 0, 0, 2},
		{"rni.s32.f32 3.5", cvt(isa.S32, isa.F32, RNI), f32b(3.5), 0, 0, 0, 4},
		{"rni.s32.f32 -2.5", cvt(isa.S32, isa.F32, RNI), f32b(-2.5), 0, 0, 0, s32(-2)},
		{"rmi.s32.f32 1.5", cvt(isa.S32, isa.F32, RMI), f32b(1.5), 0, 0, 0, 1},
		{"rmi.s32.f32 -1.5", cvt(isa.S32, isa.F32, RMI), f32b(-1.5), 0, 0, 0, s32(-2)},
		{"rpi.s32.f32 1.5", cvt(isa.S32, isa.F32, RPI), f32b(1.5), 0, 0, 0, 2},
		{"rpi.s32.f32 -1.5", cvt(isa.S32, isa.F32, RPI), f32b(-1.5), 0, 0, 0, s32(-1)},
		{"rzi.s32.f32 nan", cvt(isa.S32, isa.F32, RZI), 0x7FC00000, 0, 0, 0, 0},
		{"rzi.s32.f32 big", cvt(isa.S32, isa.F32, RZI), f32b(3e9), 0, 0, 0, 0x7FFFFFFF},
		{"rzi.s32.f32 -big", cvt(isa.S32, isa.F32, RZI), f32b(-3e9), 0, 0, 0, i32min},
		{"rzi.s32.f32 2^31", cvt(isa.S32, isa.F32, RZI), f32b(0x1p31), 0, 0, 0, 0x7FFFFFFF},
		{"rzi.s32.f32 -2^31", cvt(isa.S32, isa.F32, RZI), f32b(-0x1p31), 0, 0, 0, i32min},
		{"rzi.s32.f32 inf", cvt(isa.S32, isa.F32, RZI), 0x7F800000, 0, 0, 0, 0x7FFFFFFF},
		{"rzi.s32.f32 -inf", cvt(isa.S32, isa.F32, RZI), 0xFF800000, 0, 0, 0, i32min},
		{"rzi.s32.f64 max int", cvt(isa.S32, isa.F64, RZI), f64b(2147483647.9), 0, 0, 0, 0x7FFFFFFF},
		{"rpi.s32.f64 overflow", cvt(isa.S32, isa.F64, RPI), f64b(2147483647.1), 0, 0, 0, 0x7FFFFFFF},
		{"rzi.u32.f32 -1", cvt(isa.U32, isa.F32, RZI), f32b(-1), 0, 0, 0, 0},
		{"rzi.u32.f32 -0.5", cvt(isa.U32, isa.F32, RZI), f32b(-0.5), 0, 0, 0, 0},
		{"rzi.u32.f32 big", cvt(isa.U32, isa.F32, RZI), f32b(5e9), 0, 0, 0, all32},
		{"rzi.u32.f32 max", cvt(isa.U32, isa.F32, RZI), f32b(4294967040), 0, 0, 0, 4294967040},
		{"rzi.s8.f32 200", cvt(isa.S8, isa.F32, RZI), f32b(200), 0, 0, 0, 0x7F},
		{"rzi.s8.f32 -200", cvt(isa.S8, isa.F32, RZI), f32b(-200), 0, 0, 0, 0x80},
		{"rzi.s8.f32 -1", cvt(isa.S8, isa.F32, RZI), f32b(-1), 0, 0, 0, 0xFF},
		{"rzi.u8.f32 300", cvt(isa.U8, isa.F32, RZI), f32b(300), 0, 0, 0, 0xFF},
		{"rzi.u64.f64 1e20", cvt(isa.U64, isa.F64, RZI), f64b(1e20), 0, 0, 0, all64},
		{"rzi.u64.f64 2^63", cvt(isa.U64, isa.F64, RZI), f64b(0x1p63), 0, 0, 0, 1 << 63},
		{"rzi.s64.f64 -1e19", cvt(isa.S64, isa.F64, RZI), f64b(-1e19), 0, 0, 0, i64min},
		{"rzi.s64.f64 1e19", cvt(isa.S64, isa.F64, RZI), f64b(1e19), 0, 0, 0, 0x7FFFFFFFFFFFFFFF},
		{"rzi.s64.f64", cvt(isa.S64, isa.F64, RZI), f64b(-123456789012.9), 0, 0, 0, s64(-123456789012)},
		{"rni.s32.f16", cvt(isa.S32, isa.F16, RNI), 0x3E00, 0, 0, 0, 2}, // 1.5
		{"rzi.u16.f16 inf", cvt(isa.U16, isa.F16, RZI), 0x7C00, 0, 0, 0, 0xFFFF},
		{"rzi.s32.f32 subnormal", cvt(isa.S32, isa.F32, RPI), 1, 0, 0, 0, 1},
		{"rpi.ftz.s32.f32 subnormal", cvt(isa.S32, isa.F32, RPI|ftz), 1, 0, 0, 0, 0},

		// float -> float
		{"rn.f16.f32 0.1", cvt(isa.F16, isa.F32, RN), f32b(0.1), 0, 0, 0, 0x2E66},
		{"f16.f32 default rn", cvt(isa.F16, isa.F32, 0), f32b(0.1), 0, 0, 0, 0x2E66},
		{"rz.f16.f32 0.1", cvt(isa.F16, isa.F32, RZ), f32b(0.1), 0, 0, 0, 0x2E66},
		{"rp.f16.f32 0.1", cvt(isa.F16, isa.F32, RP), f32b(0.1), 0, 0, 0, 0x2E67},
		{"rm.f16.f32 -0.1", cvt(isa.F16, isa.F32, RM), f32b(-0.1), 0, 0, 0, 0xAE67},
		{"rn.f16.f32 65504", cvt(isa.F16, isa.F32, RN), f32b(65504), 0, 0, 0, 0x7BFF},
		{"rn.f16.f32 65519", cvt(isa.F16, isa.F32, RN), f32b(65519), 0, 0, 0, 0x7BFF},
		{"rn.f16.f32 65520", cvt(isa.F16, isa.F32, RN), f32b(65520), 0, 0, 0, 0x7C00},
		{"rz.f16.f32 65520", cvt(isa.F16, isa.F32, RZ), f32b(65520), 0, 0, 0, 0x7BFF},
		{"rz.f16.f32 inf", cvt(isa.F16, isa.F32, RZ), 0x7F800000, 0, 0, 0, 0x7C00},
		{"rn.f16.f32 -0", cvt(isa.F16, isa.F32, RN), 0x80000000, 0, 0, 0, 0x8000},
		{"rn.f16.f32 nan", cvt(isa.F16, isa.F32, RN), 0x7FC00000, 0, 0, 0, 0x7FFF},
		{"rn.f16.f32 2^-24", cvt(isa.F16, isa.F32, RN), f32b(0x1p-24), 0, 0, 0, 0x0001},
		{"rn.f16.f32 2^-25 tie", cvt(isa.F16, isa.F32, RN), f32b(0x1p-25), 0, 0, 0, 0},
		{"rp.f16.f32 2^-25", cvt(isa.F16, isa.F32, RP), f32b(0x1p-25), 0, 0, 0, 1},
		{"rn.f16.f32 0.75*2^-24", cvt(isa.F16, isa.F32, RN), f32b(0x1.8p-25), 0, 0, 0, 1},
		{"rn.f16.f32 1.5*2^-24", cvt(isa.F16, isa.F32, RN), f32b(0x1.8p-24), 0, 0, 0, 2},
		{"rn.f16.f32 min normal", cvt(isa.F16, isa.F32, RN), f32b(0x1p-14), 0, 0, 0, 0x0400},
		{"rn.f16.f32 round to min normal", cvt(isa.F16, isa.F32, RN), f32b(0x1.ffcp-15), 0, 0, 0, 0x0400},
		{"f32.f16 1", cvt(isa.F32, isa.F16, 0), 0x3C00, 0, 0, 0, f32b(1)},
		{"f32.f16 min subnormal", cvt(isa.F32, isa.F16, 0), 0x0001, 0, 0, 0, f32b(0x1p-24)},
		{"f32.f16 -max", cvt(isa.F32, isa.F16, 0), 0xFBFF, 0, 0, 0, f32b(-65504)},
		{"f32.f16 inf", cvt(isa.F32, isa.F16, 0), 0x7C00, 0, 0, 0, 0x7F800000},
		{"f32.f16 nan", cvt(isa.F32, isa.F16, 0), 0x7E00, 0, 0, 0, 0x7FFFFFFF},
		{"f64.f16", cvt(isa.F64, isa.F16, 0), 0x3555, 0, 0, 0, f64b(0.333251953125)},
		{"rn.f16.f64 1/3", cvt(isa.F16, isa.F64, RN), f64b(1.0 / 3), 0, 0, 0, 0x3555},
		{"rp.f16.f64 1/3", cvt(isa.F16, isa.F64, RP), f64b(1.0 / 3), 0, 0, 0, 0x3556},
		{"f64.f32", cvt(isa.F64, isa.F32, 0), f32b(0.1), 0, 0, 0, f64b(float64(float32(0.1)))},
		{"f64.f32 nan", cvt(isa.F64, isa.F32, 0), 0x7FC00000, 0, 0, 0, 0x7FFFFFFFFFFFFFFF},
		{"f64.f32 subnormal", cvt(isa.F64, isa.F32, 0), 1, 0, 0, 0, f64b(0x1p-149)},
		{"ftz.f64.f32 subnormal", cvt(isa.F64, isa.F32, ftz), 0x80000001, 0, 0, 0, 1 << 63},
		{"rn.f32.f64 1/3", cvt(isa.F32, isa.F64, RN), f64b(1.0 / 3), 0, 0, 0, 0x3EAAAAAB},
		{"rz.f32.f64 1/3", cvt(isa.F32, isa.F64, RZ), f64b(1.0 / 3), 0, 0, 0, 0x3EAAAAAA},
		{"rm.f32.f64 -1/3", cvt(isa.F32, isa.F64, RM), f64b(-1.0 / 3), 0, 0, 0, 0xBEAAAAAB},
		{"rn.f32.f64 overflow", cvt(isa.F32, isa.F64, RN), f64b(1e39), 0, 0, 0, 0x7F800000},
		{"rz.f32.f64 overflow", cvt(isa.F32, isa.F64, RZ), f64b(1e39), 0, 0, 0, 0x7F7FFFFF},
		{"rn.f32.f64 underflow", cvt(isa.F32, isa.F64, RN), f64b(1e-60), 0, 0, 0, 0},
		{"rp.f32.f64 underflow", cvt(isa.F32, isa.F64, RP), f64b(1e-60), 0, 0, 0, 1},
		{"rn.f32.f64 subnormal", cvt(isa.F32, isa.F64, RN), f64b(0x1.8p-149), 0, 0, 0, 2},
		{"rn.ftz.f32.f64 subnormal", cvt(isa.F32, isa.F64, RN|ftz), f64b(-0x1.8p-149), 0, 0, 0, 0x80000000},
		{"rn.f32.f64 nan", cvt(isa.F32, isa.F64, RN), 0x7FF8000000000001, 0, 0, 0, 0x7FFFFFFF},
		{"rni.f64.f64 nan payload", cvt(isa.F64, isa.F64, RNI), 0x7FF0000000000001, 0, 0, 0, 0x7FF8000000000001},
		{"rni.f32.f32 2.5", cvt(isa.F32, isa.F32, RNI), f32b(2.5), 0, 0, 0, f32b(2)},
		{"rmi.f32.f32 -0.5", cvt(isa.F32, isa.F32, RMI), f32b(-0.5), 0, 0, 0, f32b(-1)},
		{"rzi.f32.f32 -0.5", cvt(isa.F32, isa.F32, RZI), f32b(-0.5), 0, 0, 0, 0x80000000},
		{"rpi.f32.f32 0.1", cvt(isa.F32, isa.F32, RPI), f32b(0.1), 0, 0, 0, f32b(1)},
		{"rni.f32.f32 big", cvt(isa.F32, isa.F32, RNI), f32b(1e30), 0, 0, 0, f32b(1e30)},
		{"rni.f32.f32 inf", cvt(isa.F32, isa.F32, RNI), 0xFF800000, 0, 0, 0, 0xFF800000},
		{"rni.f64.f32", cvt(isa.F64, isa.F32, RNI), f32b(2.5), 0, 0, 0, f64b(2)},
		{"rpi.f64.f64", cvt(isa.F64, isa.F64, RPI), f64b(-2.5), 0, 0, 0, f64b(-2)},
		{"rni.f16.f16", cvt(isa.F16, isa.F16, RNI), 0x3E00, 0, 0, 0, 0x4000},
		{"f32.f32", cvt(isa.F32, isa.F32, 0), 1, 0, 0, 0, 1},
		{"ftz.f32.f32", cvt(isa.F32, isa.F32, ftz), 0x80000001, 0, 0, 0, 0x80000000},
		{"sat.f32.f32 1.5", cvt(isa.F32, isa.F32, sat), f32b(1.5), 0, 0, 0, f32b(1)},
		{"sat.f32.f32 -2", cvt(isa.F32, isa.F32, sat), f32b(-2), 0, 0, 0, 0},
		{"sat.f32.f32 nan", cvt(isa.F32, isa.F32, sat), 0x7FC00000, 0, 0, 0, 0},
		{"sat.f32.f32 0.5", cvt(isa.F32, isa.F32, sat), f32b(0.5), 0, 0, 0, f32b(0.5)},
		{"sat.f16.f32", cvt(isa.F16, isa.F32, sat), f32b(7), 0, 0, 0, 0x3C00},
		{"rn.f32.f32", cvt(isa.F32, isa.F32, RN), f32b(0.1), 0, 0, 0, f32b(0.1)},
	})
}
