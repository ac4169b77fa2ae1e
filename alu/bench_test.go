package alu

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

var sink Result

func benchEval(b *testing.B, in *isa.Inst, a, x, c uint64) {
	b.ReportAllocs()
	var r Result
	for i := 0; i < b.N; i++ {
		r, _ = Eval(in, a+uint64(i), x, c, 0)
	}
	sink = r
}

// BenchmarkEval times Eval on one form of each instruction class.
func BenchmarkEval(b *testing.B) {
	for _, bc := range []struct {
		name    string
		in      *isa.Inst
		a, x, c uint64
	}{
		{"Add", mk(isa.OpADD, isa.U32, 0), 1, 2, 0},
		{"AddSat", mk(isa.OpADD, isa.S32, isa.ModSat), 1, 2, 0},
		{"MadWide", mk(isa.OpMAD, isa.S32, isa.MulWide), 12345, 678, 9},
		{"MulHiS64", mk(isa.OpMUL, isa.S64, isa.MulHi), 0x123456789, 0xFFFFFFFF12345, 0},
		{"DivS32", mk(isa.OpDIV, isa.S32, 0), 1000000, 7, 0},
		{"Setp", mk(isa.OpSETP, isa.S32, isa.CmpLT|isa.BoolAnd<<isa.ModBoolShift), 5, 7, 1},
		{"Bfe", mk(isa.OpBFE, isa.S32, 0), 0xABCD1234, 4, 12},
		{"Prmt", mk(isa.OpPRMT, isa.B32, 0), 0x11223344, 0x55667788, 0x5140},
		{"AddF32", mk(isa.OpADD, isa.F32, 0), f32b(1.5), f32b(2.25), 0},
		{"FmaF32", mk(isa.OpFMA, isa.F32, rndM(isa.RndRN)), f32b(1.5), f32b(2.25), f32b(-3)},
		{"FmaF32RZ", mk(isa.OpFMA, isa.F32, rndM(isa.RndRZ)), f32b(1.5), f32b(2.25), f32b(-3)},
		{"DivF32RN", mk(isa.OpDIV, isa.F32, rndM(isa.RndRN)), f32b(1), f32b(3), 0},
		{"FmaF64", mk(isa.OpFMA, isa.F64, rndM(isa.RndRN)), f64b(1.5), f64b(2.25), f64b(-3)},
		{"FmaF64RZ", mk(isa.OpFMA, isa.F64, rndM(isa.RndRZ)), f64b(1.1), f64b(2.3), f64b(-3)},
		{"DivF64RZ", mk(isa.OpDIV, isa.F64, rndM(isa.RndRZ)), f64b(1), f64b(3), 0},
		{"CvtF16F32", cvt(isa.F16, isa.F32, rndM(isa.RndRN)), f32b(0.1), 0, 0},
		{"CvtS32F32", cvt(isa.S32, isa.F32, rndM(isa.RndRNI)), f32b(-12.5), 0, 0},
	} {
		b.Run(bc.name, func(b *testing.B) { benchEval(b, bc.in, bc.a, bc.x, bc.c) })
	}
}

func BenchmarkCompiledAdd(b *testing.B) {
	f, err := Compile(mk(isa.OpADD, isa.U32, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var r Result
	for i := 0; i < b.N; i++ {
		r = f(uint64(i), 2, 0, 0)
	}
	sink = r
}

// Integer forms must not allocate.
func TestIntegerEvalDoesNotAllocate(t *testing.T) {
	for _, in := range []*isa.Inst{
		mk(isa.OpADD, isa.U32, 0), mk(isa.OpADD, isa.S32, isa.ModSat), mk(isa.OpMAD, isa.S32, isa.MulWide),
		mk(isa.OpMUL, isa.S64, isa.MulHi), mk(isa.OpDIV, isa.S32, 0), mk(isa.OpSHR, isa.S16, 0),
		mk(isa.OpSETP, isa.S32, isa.CmpLT|isa.ModSetpDst2), mk(isa.OpBFE, isa.S32, 0), mk(isa.OpBFI, isa.B64, 0),
		mk(isa.OpPRMT, isa.B32, isa.PrmtB4E), cvt(isa.S8, isa.S32, isa.ModSat), mk(isa.OpSELP, isa.U16, 0),
		mk(isa.OpAND, isa.Pred, 0), mk(isa.OpMOV, isa.B64, isa.ModMovUnpack),
		mk(isa.OpADD, isa.F32, 0), mk(isa.OpFMA, isa.F32, rndM(isa.RndRZ)), cvt(isa.F16, isa.F32, 0),
	} {
		n := testing.AllocsPerRun(100, func() { sink, _ = Eval(in, 0x12345, 0x678, 1, 2) })
		if n != 0 {
			t.Errorf("%s mods %#x: %v allocs per Eval", opName(in), in.Mods, n)
		}
	}
}
