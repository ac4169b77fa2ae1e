package cosim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/alu"
	"github.com/smsim/smsim/isa"
)

// The behavioural FPU (verilog/rtl/sm_fpu.sv, verilog/dv/sm_fpu_dpi.c) is
// compared bit for bit with package alu, the Go model's arithmetic, over
// every f32/f64 form alu supports: special values and pairs of them, and
// seeded random operands (fixed seeds: the vectors are the same on every
// run). docs/sm-rtl.md, "The behavioural FPU".

// fpuOps are the opcodes in the FPU's scope, besides CVT.
var fpuOps = []isa.Opcode{
	isa.OpADD, isa.OpSUB, isa.OpMUL, isa.OpMAD, isa.OpFMA, isa.OpDIV, isa.OpSQRT, isa.OpRCP,
	isa.OpMIN, isa.OpMAX, isa.OpNEG, isa.OpABS, isa.OpCOPYSIGN, isa.OpTESTP, isa.OpSETP,
	isa.OpEX2, isa.OpLG2, isa.OpSIN, isa.OpCOS, isa.OpRSQRT, isa.OpTANH,
}

// fpuScope reports the instructions the FPU is meant to implement when
// alu does: the forms of fpuOps on f16, bf16, f16x2, bf16x2, f32 and f64,
// and the conversions between f16, bf16, f32, f64 and the integer types
// (one side at least a float), the packing conversions (f16x2, bf16x2,
// e4m3x2, e5m2x2) and tf32. Integer cvt (cvt.pack.sat included), mov and
// selp are not the FPU's.
func fpuScope(v FPUVector) bool {
	fp := func(t isa.Type) bool { return t == isa.F16 || t == isa.BF16 || t == isa.F32 || t == isa.F64 }
	if v.Op != isa.OpCVT {
		return slices.Contains(fpuOps, v.Op) && (fp(v.Type) || v.Type == isa.F16x2 || v.Type == isa.BF16x2)
	}
	if v.Mods&isa.ModCvtPackSat != 0 {
		return false
	}
	if v.Mods&isa.ModCvtPack != 0 || v.Type == isa.TF32 || v.Type.Packed() || v.Type2.Packed() {
		return true // alu refuses these but for the ISA's forms and roundings
	}
	in := func(t isa.Type) bool { return t <= isa.S64 || fp(t) }
	if !in(v.Type) || !in(v.Type2) || !fp(v.Type) && !fp(v.Type2) {
		return false
	}
	// The conversions alu takes on its low-precision path (bf16,
	// .relu/.satfinite) accept any rounding field there, encodings no PTX
	// instruction has (the unknown ones truncate); the FPU takes the
	// ISA's: .rn or .rz with .relu/.satfinite, else those of the other
	// conversions.
	rnd := int(v.Mods&isa.ModRndMask) >> isa.ModRndShift
	fr := rnd >= isa.RndRN && rnd <= isa.RndRP
	ir := rnd >= isa.RndRNI && rnd <= isa.RndRPI
	switch {
	case v.Mods&(isa.ModRelu|isa.ModSatFinite) != 0:
		return rnd == isa.RndNone || rnd == isa.RndRN || rnd == isa.RndRZ
	case v.Type != isa.BF16 && v.Type2 != isa.BF16 || rnd == isa.RndNone:
		return true
	case !fp(v.Type2):
		return fr
	case !fp(v.Type):
		return ir
	}
	return fr || ir
}

func (v FPUVector) inst() *isa.Inst {
	return &isa.Inst{Op: v.Op, Type: v.Type, Type2: v.Type2, Mods: v.Mods}
}

// fpuModVariants are modifier words to combine with every rounding mode
// (and, for SETP, with every comparison).
var fpuModVariants = []uint16{
	0, isa.ModFtz, isa.ModSat, isa.ModFtz | isa.ModSat,
	isa.ModMinMaxNaN, isa.ModMinMaxXorsign, isa.ModMinMaxNaN | isa.ModMinMaxXorsign | isa.ModFtz,
	isa.ModRelu, isa.ModSatFinite, isa.ModRelu | isa.ModSatFinite, isa.ModCvtPack,
	isa.ModCvtPack | isa.ModSatFinite, isa.ModCvtPack | isa.ModRelu, isa.ModCvtPack | isa.ModRelu | isa.ModSatFinite,
	isa.ModCvtPackSat | isa.ModSat, isa.ModCCOut, isa.MulHi, isa.MulWide, 1 << 15,
}

// fpuSetpVariants are SETP's modifier words besides the comparison.
var fpuSetpVariants = []uint16{
	0, isa.ModSetpFtz, isa.BoolAnd << isa.ModBoolShift, isa.BoolOr<<isa.ModBoolShift | isa.ModSetpDst2,
	isa.BoolXor<<isa.ModBoolShift | isa.ModSetpDst2 | isa.ModSetpFtz, isa.ModSetpDst2, 1 << 9, 1 << 15,
}

// fpuTypes are the types tried in the sweep: every encodable one.
var fpuTypes = []isa.Type{
	isa.B8, isa.B16, isa.B32, isa.B64, isa.U8, isa.U16, isa.U32, isa.U64,
	isa.S8, isa.S16, isa.S32, isa.S64, isa.F16, isa.F32, isa.F64, isa.Pred,
	isa.F16x2, isa.BF16, isa.BF16x2, isa.TF32, isa.E4M3x2, isa.E5M2x2,
}

// fpuSweep lists instruction forms (no operands): every opcode of fpuOps
// and a few others (MOV SELP AND DIV REM, which the FPU must refuse), on
// every type, with every rounding mode and modifier variant; CVT on every
// pair of types.
func fpuSweep() []FPUVector {
	var vs []FPUVector
	ops := append(slices.Clone(fpuOps), isa.OpMOV, isa.OpSELP, isa.OpAND, isa.OpREM, isa.OpCVT)
	for _, op := range ops {
		for _, t := range fpuTypes {
			t2s := []isa.Type{isa.NoType}
			if op == isa.OpCVT {
				t2s = fpuTypes
			}
			for _, t2 := range t2s {
				if t2 == isa.NoType {
					t2 = 0
				}
				switch op {
				case isa.OpSETP:
					for cmp := uint16(0); cmp <= isa.CmpNAN+1; cmp++ {
						for _, m := range fpuSetpVariants {
							vs = append(vs, FPUVector{Op: op, Type: t, Type2: t2, Mods: cmp | m})
						}
					}
				case isa.OpTESTP:
					for m := uint16(0); m < 8; m++ {
						vs = append(vs, FPUVector{Op: op, Type: t, Type2: t2, Mods: m})
					}
				default:
					for rnd := uint16(0); rnd <= isa.RndRNA+1; rnd++ {
						for _, m := range fpuModVariants {
							vs = append(vs, FPUVector{Op: op, Type: t, Type2: t2, Mods: rnd<<isa.ModRndShift | m})
						}
					}
				}
			}
		}
	}
	return vs
}

// TestFPUPortsMatchGoTags: the ports of sm_fpu.sv are the sv tags of
// FPUVector (inputs) and FPUOutput (outputs), each Go field wide enough.
func TestFPUPortsMatchGoTags(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(verilogDir(t), "rtl", "sm_fpu.sv"))
	if err != nil {
		t.Fatal(err)
	}
	type port struct {
		dir   string
		width int
	}
	rtlPorts := map[string]port{}
	re := regexp.MustCompile(`(?m)^\s*(input|output)\s+logic\s*(?:\[(\d+):0\])?\s*(\w+)`)
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		w := 1
		if m[2] != "" {
			msb, _ := strconv.Atoi(m[2])
			w = msb + 1
		}
		rtlPorts[m[3]] = port{m[1], w}
	}
	if len(rtlPorts) == 0 {
		t.Fatal("no ports found in sm_fpu.sv")
	}
	seen := map[string]bool{}
	for _, s := range []struct {
		dir string
		typ reflect.Type
	}{{"input", reflect.TypeFor[FPUVector]()}, {"output", reflect.TypeFor[FPUOutput]()}} {
		for f := range s.typ.Fields() {
			name := f.Tag.Get("sv")
			if name == "" {
				t.Errorf("%s.%s has no sv tag", s.typ.Name(), f.Name)
				continue
			}
			seen[name] = true
			p, ok := rtlPorts[name]
			gw := 1
			if f.Type.Kind() != reflect.Bool {
				gw = f.Type.Bits()
			}
			switch {
			case !ok:
				t.Errorf("%s.%s: no port %s in sm_fpu.sv", s.typ.Name(), f.Name, name)
			case p.dir != s.dir:
				t.Errorf("%s: Go %s, RTL %s", name, s.dir, p.dir)
			case gw < p.width:
				t.Errorf("%s: Go field of %d bits for an RTL port of %d", name, gw, p.width)
			}
		}
	}
	for name := range rtlPorts {
		if !seen[name] {
			t.Errorf("sm_fpu.sv port %s has no Go twin", name)
		}
	}
}

// fpuBench builds the bench once per test.
func fpuBench(t *testing.T) (context.Context, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	start := time.Now()
	bin, err := BuildFPU(ctx, HarnessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("make fpu: %v", time.Since(start).Round(time.Millisecond))
	return ctx, bin
}

// TestFPUSupported: the FPU claims exactly the forms in its scope that
// alu supports, and answers zeros for the others.
func TestFPUSupported(t *testing.T) {
	ctx, bin := fpuBench(t)
	vs := fpuSweep()
	for i := range vs {
		vs[i].A, vs[i].B, vs[i].C = 0x3f800000, 0x40000000, 1
	}
	out, err := RunFPU(ctx, bin, vs)
	if err != nil {
		t.Fatal(err)
	}
	claimed, bad := 0, 0
	for i, v := range vs {
		want := fpuScope(v) && alu.Supported(v.inst()) == nil
		o := out[i]
		if o.Supported {
			claimed++
		}
		if o.Supported != want || !o.Supported && o != (FPUOutput{}) {
			if bad++; bad <= 20 {
				t.Errorf("%s (op %d type %d type2 %d mods %#x): supported_o %v, want %v (alu: %v); outputs %+v",
					v.PTX(), v.Op, v.Type, v.Type2, v.Mods, o.Supported, want, alu.Supported(v.inst()), o)
			}
		}
	}
	t.Logf("%d forms swept, %d supported", len(vs), claimed)
	if claimed == 0 {
		t.Error("no form supported")
	}
}

// fpuDivergence is a documented difference between the Go model and the
// PTX ISA, which the FPU (written from the ISA) does not share.
type fpuDivergence struct {
	name  string
	cite  string // the ISA's words
	match func(v FPUVector) bool
}

// fpuDivergences: the known ones. Each must still occur (a fixed Go model
// makes the entry stale, and the test says so).
var fpuDivergences = []fpuDivergence{}

// Special operands.
var (
	fpuSpecials16 = []uint16{
		0, 0x8000, 1, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00, 0xbc00, 0x7bff, 0xfbff,
		0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7e12, 0x7c01, 0xfd23, 0x3800, 0x3e00, 0x4100, 0xc100,
		0x3555, 0x4248, 0x6800, 0x6801, 0x7800, 0xf800, 0x3bff, 0x3c01, 0x0200, 0x1400,
	}
	fpuSpecialsBF16 = []uint16{
		0, 0x8000, 1, 0x8001, 0x007f, 0x807f, 0x0080, 0x8080, 0x3f80, 0xbf80, 0x7f7f, 0xff7f,
		0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7fc1, 0x7f81, 0xffa3, 0x3f00, 0x3fc0, 0x4020, 0xc020,
		0x3eab, 0x4049, 0x4b00, 0x4b01, 0x4f00, 0xcf00, 0x3f7f, 0x3f81, 0x0040, 0x5f80,
	}
	fpuSpecials32 = []uint32{
		0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
		0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
		0x7fc00000, 0xffc00000, 0x7fc12345, 0x7f800001, 0xff812345,
		0x3f000000, 0x3fc00000, 0x40200000, 0xc0200000, 0x3eaaaaab, 0x40490fdb,
		0x4effffff, 0x4f000000, 0xcf000000, 0x4f800000, 0x5effffff, 0x5f000000, 0xdf000000, 0x5f800000,
		0x4b000001, 0x4b7fffff, 0x00400000, 0x3f7fffff, 0x3f800001,
		0x3f801000, 0x3f803000, 0x3f808000, 0x3f818000, // ties for f16/tf32 and bf16
	}
	fpuSpecials64 = []uint64{
		0, 1 << 63, 1, 1<<63 | 1, 0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000,
		0x3ff0000000000000, 0xbff0000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
		0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000000,
		0x7ff8000000012345, 0x7ff0000000000001, 0xfff0000000054321,
		0x3fe0000000000000, 0x3ff8000000000000, 0x4004000000000000, 0xc004000000000000,
		0x41dfffffffe00000, 0x41dfffffffffffff, 0x41e0000000000000, 0xc1e0000000000000, 0xc1e0000000200000,
		0x41efffffffe00000, 0x41effffffff00000, 0x41f0000000000000, 0x43dfffffffffffff, 0x43e0000000000000,
		0xc3e0000000000000, 0x43f0000000000000, 0x4330000000000001, 0x3810000000000000, 0x380fffffffffffff,
		0x36a0000000000000, 0x47efffffe0000000, 0x47efffffffffffff, 0x47f0000000000000, 0x3ff0000080000000,
	}
	fpuSpecialInts = []uint64{
		0, 1, 2, 3, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
		1<<24 + 1, 1<<24 + 3, 1<<53 + 1, 1<<63 - 1, 1 << 63, ^uint64(0), ^uint64(0) - 1, 1<<54 + 3,
	}
)

func fpuSpecials(t isa.Type) []uint64 {
	switch t {
	case isa.F16, isa.BF16:
		sp := fpuSpecials16
		if t == isa.BF16 {
			sp = fpuSpecialsBF16
		}
		s := make([]uint64, len(sp))
		for i, x := range sp {
			s[i] = uint64(x)
		}
		return s
	case isa.E4M3x2, isa.E5M2x2:
		// Every code in each byte.
		s := make([]uint64, 256)
		for i := range s {
			s[i] = uint64(i) | uint64(255-i)<<8
		}
		return s
	case isa.F16x2, isa.BF16x2:
		// Pairs: each special beside its neighbour in the list.
		h := fpuSpecials(elemType(t))
		s := make([]uint64, len(h))
		for i, x := range h {
			s[i] = x | h[(i+7)%len(h)]<<16
		}
		return s
	case isa.F32:
		s := make([]uint64, len(fpuSpecials32))
		for i, x := range fpuSpecials32 {
			s[i] = uint64(x)
		}
		return s
	case isa.F64:
		return fpuSpecials64
	}
	return fpuSpecialInts
}

// fpuGen draws operands for one form.
type fpuGen struct {
	rng *rand.Rand
}

// elemType is the element type of f16x2 and bf16x2.
func elemType(t isa.Type) isa.Type {
	if t == isa.BF16x2 {
		return isa.BF16
	}
	return isa.F16
}

// float draws a value of t (f16, bf16, their pairs, f32, f64) as raw bits.
func (g fpuGen) float(t isa.Type) uint64 {
	r := g.rng
	if t == isa.F16x2 || t == isa.BF16x2 {
		return g.float(elemType(t)) | g.float(elemType(t))<<16
	}
	man, ebits, bias := 23, 8, 127
	switch t {
	case isa.BF16:
		man = 7
	case isa.F16:
		man, ebits, bias = 10, 5, 15
	case isa.F64:
		man, ebits, bias = 52, 11, 1023
	}
	sign := r.Uint64N(2) << (man + ebits)
	frac := r.Uint64() & (1<<man - 1)
	enc := func(e int) uint64 { return sign | uint64(e)<<man | frac }
	switch r.IntN(12) {
	case 0, 1, 2: // any bits
		return r.Uint64() & (1<<(1+ebits+man) - 1)
	case 3, 4, 5: // moderate numbers, half of them with low zero bits (ties when narrowed)
		if r.IntN(2) == 0 {
			frac &^= 1<<r.IntN(man) - 1
		}
		if t == isa.F16 {
			return enc(1 + r.IntN(30))
		}
		return enc(bias + r.IntN(41) - 20)
	case 6: // subnormal
		return sign | frac
	case 7: // near the bottom or the top of the range
		if r.IntN(2) == 0 {
			return enc(1 + r.IntN(3))
		}
		return enc(1<<ebits - 2 - r.IntN(3))
	case 8, 9: // near an integer, or an integer bound
		if t == isa.F16 {
			return enc(bias + r.IntN(12))
		}
		bounds := []float64{0, 1, 100, 1 << 23, 1 << 24, 1 << 31, 1 << 32, 1 << 52, 1 << 53, 1 << 63, 1 << 64, 1 << 15, 1 << 16, 1 << 7, 1 << 8}
		x := bounds[r.IntN(len(bounds))] + float64(r.IntN(9)-4)
		x += []float64{0, 0.5, -0.5, 0.25, 0.75, 1e-9, -1e-9}[r.IntN(7)]
		if sign != 0 {
			x = -x
		}
		switch t {
		case isa.F64:
			return math.Float64bits(x)
		case isa.BF16:
			return uint64(math.Float32bits(float32(x)) >> 16)
		}
		return uint64(math.Float32bits(float32(x)))
	case 10: // exponent in the tanh/sin/ex2 interesting region or huge
		if t == isa.F16 {
			return enc(bias + r.IntN(11) - 5)
		}
		return enc(bias + r.IntN(300) - 150)
	}
	sp := fpuSpecials(t)
	return sp[r.IntN(len(sp))]
}

// int draws an integer of type t (raw bits, width masked).
func (g fpuGen) int(t isa.Type) uint64 {
	r := g.rng
	var x uint64
	switch r.IntN(4) {
	case 0:
		x = fpuSpecialInts[r.IntN(len(fpuSpecialInts))]
		if r.IntN(2) == 0 {
			x = -x
		}
	default:
		x = r.Uint64() >> r.IntN(64)
		if r.IntN(3) == 0 {
			x = -x
		}
	}
	if w := t.Bits(); w < 64 {
		x &= 1<<w - 1
	}
	return x
}

// operand draws operand i of v (0: a, 1: b, 2: c), after a and b for c.
func (g fpuGen) operand(v FPUVector, i int) uint64 {
	src := v.Type
	if v.Op == isa.OpCVT {
		src = v.Type2
	}
	if i == 2 && v.Op == isa.OpSETP {
		return g.rng.Uint64N(2)
	}
	if !src.Float() {
		return g.int(src)
	}
	if src.FP8() {
		return g.rng.Uint64() & 0xffff
	}
	if src == isa.F16x2 || src == isa.BF16x2 {
		return g.float(src)
	}
	switch {
	case i == 1 && g.rng.IntN(8) == 0: // b close to ±a: cancellation, equality
		x := v.A ^ uint64(g.rng.IntN(2))<<(src.Bits()-1)
		return (x + uint64(g.rng.IntN(3)) - 1) & (1<<src.Bits() - 1)
	case i == 2 && src.Bits() == 16 && g.rng.IntN(4) == 0: // c close to -a with a product near 1
		return (v.A ^ 0x8000 + uint64(g.rng.IntN(3)) - 1) & 0xffff
	case i == 2 && src.Bits() > 16 && g.rng.IntN(4) == 0 && v.A != 0 && v.B != 0: // c close to -a*b
		if src == isa.F64 {
			p := -math.Float64frombits(v.A) * math.Float64frombits(v.B)
			return math.Float64bits(p) + uint64(g.rng.IntN(3)) - 1
		}
		p := -math.Float32frombits(uint32(v.A)) * math.Float32frombits(uint32(v.B))
		return uint64(math.Float32bits(p) + uint32(g.rng.IntN(3)) - 1)
	}
	return g.float(src)
}

// arity is how many operands v reads (SETP: a, b and the predicate c).
func arity(v FPUVector) int {
	if v.Op == isa.OpCVT && v.Mods&isa.ModCvtPack != 0 {
		return 2 // a and b into the halves
	}
	switch v.Op {
	case isa.OpMAD, isa.OpFMA, isa.OpSETP:
		return 3
	case isa.OpADD, isa.OpSUB, isa.OpMUL, isa.OpDIV, isa.OpMIN, isa.OpMAX, isa.OpCOPYSIGN:
		return 2
	}
	return 1
}

// fpuVectors expands each supported form into special and random vectors:
// every special operand (unary), every pair of specials (binary), the
// pairs with c drawn (ternary), and n(form) random draws. Forms with
// modifiers besides the rounding and the comparison (.ftz, .sat, SETP's
// boolean operation, ...) take a third of the pairs, every a with every
// third b.
func fpuVectors(forms []FPUVector, n func(FPUVector) int, seed uint64) []FPUVector {
	var vs []FPUVector
	for fi, f := range forms {
		g := fpuGen{rand.New(rand.NewPCG(seed, uint64(fi)))}
		src := f.Type
		if f.Op == isa.OpCVT {
			src = f.Type2
		}
		sp := fpuSpecials(src)
		k := arity(f)
		stride, plain := 1, uint16(isa.ModRndMask)
		if f.Op == isa.OpSETP {
			plain = isa.ModCmpMask
		}
		if f.Mods&^plain != 0 {
			stride = 3
		}
		for i, a := range sp {
			if src != isa.F32 && src != isa.F64 {
				if w := src.Bits(); w < 64 {
					a &= 1<<w - 1
				}
			}
			v := f
			v.A = a
			if k == 1 {
				vs = append(vs, v)
				continue
			}
			for j, b := range sp {
				if (i+j)%stride != 0 {
					continue
				}
				v.B = b
				if k == 3 {
					v.C = g.operand(v, 2)
				}
				vs = append(vs, v)
			}
		}
		for range n(f) {
			v := f
			v.A = g.operand(v, 0)
			if k > 1 {
				v.B = g.operand(v, 1)
			}
			if k > 2 {
				v.C = g.operand(v, 2)
			}
			vs = append(vs, v)
		}
	}
	return vs
}

// describe prints an operand of type t: its bits and its value.
func describe(t isa.Type, x uint64) string {
	switch t {
	case isa.TF32:
		return describe(isa.F32, x)
	case isa.E4M3x2, isa.E5M2x2:
		return fmt.Sprintf("%#04x", x)
	case isa.F16x2, isa.BF16x2:
		return fmt.Sprintf("{hi %s, lo %s}", describe(elemType(t), x>>16&0xffff), describe(elemType(t), x&0xffff))
	case isa.BF16:
		return fmt.Sprintf("%#04x (%g)", x, math.Float32frombits(uint32(x)<<16))
	case isa.F16:
		e, m := int(x>>10&0x1f), float64(x&0x3ff)
		v := math.Ldexp(m, -24)
		switch {
		case e == 0x1f && m != 0:
			v = math.NaN()
		case e == 0x1f:
			v = math.Inf(1)
		case e > 0:
			v = math.Ldexp(m+1024, e-25)
		}
		if x&0x8000 != 0 {
			v = -v
		}
		return fmt.Sprintf("%#04x (%g)", x, v)
	case isa.F32:
		return fmt.Sprintf("%#08x (%g)", x, math.Float32frombits(uint32(x)))
	case isa.F64:
		return fmt.Sprintf("%#016x (%g)", x, math.Float64frombits(x))
	case isa.Pred:
		return fmt.Sprint(x != 0)
	}
	if t.Signed() {
		w := uint(64 - t.Bits())
		return fmt.Sprintf("%#x (%d)", x, int64(x<<w)>>w)
	}
	return fmt.Sprintf("%#x (%d)", x, x)
}

// TestFPUMatchesALU compares the FPU with alu.Eval, bit for bit, on every
// supported form.
func TestFPUMatchesALU(t *testing.T) {
	ctx, bin := fpuBench(t)
	var forms []FPUVector
	for _, v := range fpuSweep() {
		if fpuScope(v) && alu.Supported(v.inst()) == nil {
			forms = append(forms, v)
		}
	}
	// Random draws per form: conversions have many forms (every integer
	// type, each rounding, .sat, .ftz), so fewer draws each, and the
	// 16-bit types fewer than f32 and f64.
	n, nhalf, ncvt := 1000, 400, 200
	if testing.Short() {
		n, nhalf, ncvt = 100, 40, 20
	}
	vs := fpuVectors(forms, func(v FPUVector) int {
		switch {
		case v.Op == isa.OpCVT:
			return ncvt
		case v.Type == isa.F32 || v.Type == isa.F64:
			return n
		}
		return nhalf
	}, 15)
	start := time.Now()
	out, err := RunFPU(ctx, bin, vs)
	if err != nil {
		t.Fatal(err)
	}
	rtl := time.Since(start)
	seen := make([]int, len(fpuDivergences))
	bad := 0
	for i, v := range vs {
		o := out[i]
		r, err := alu.Eval(v.inst(), v.A, v.B, v.C, 0)
		if err != nil {
			t.Fatalf("%s: alu: %v", v.PTX(), err)
		}
		want := FPUOutput{D: r.D, P: r.P, Q: r.Q, Supported: true}
		if o == want {
			continue
		}
		if k := slices.IndexFunc(fpuDivergences, func(d fpuDivergence) bool { return d.match(v) }); k >= 0 {
			seen[k]++
			continue
		}
		if bad++; bad <= 30 {
			src := v.Type
			if v.Op == isa.OpCVT {
				src = v.Type2
			}
			ops := []string{"a " + describe(src, v.A)}
			if arity(v) > 1 {
				ops = append(ops, "b "+describe(src, v.B))
			}
			if arity(v) > 2 {
				ct := src
				if v.Op == isa.OpSETP {
					ct = isa.Pred
				}
				ops = append(ops, "c "+describe(ct, v.C))
			}
			dt := v.Type
			if v.Op == isa.OpSETP || v.Op == isa.OpTESTP {
				dt = isa.U32
			}
			t.Errorf("%s  %s:\n\tFPU d %s p %v q %v supported %v\n\tGo  d %s p %v q %v",
				v.PTX(), strings.Join(ops, ", "), describe(dt, o.D), o.P, o.Q, o.Supported,
				describe(dt, want.D), want.P, want.Q)
		}
	}
	if bad > 30 {
		t.Errorf("... %d mismatches in all", bad)
	}
	for k, d := range fpuDivergences {
		if seen[k] == 0 {
			t.Errorf("known divergence %q never occurred: remove it from fpuDivergences", d.name)
			continue
		}
		t.Logf("known divergence (%d vectors): %s; %s", seen[k], d.name, d.cite)
	}
	t.Logf("%d forms, %d vectors; bench %v", len(forms), len(vs), rtl.Round(time.Millisecond))
}
