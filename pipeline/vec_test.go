package pipeline

import (
	"math/rand"
	"testing"

	"github.com/smsim/smsim/alu"
	"github.com/smsim/smsim/isa"
)

// TestVecMatchesALU checks every whole-warp fast path against package
// alu, lane by lane, on random and edge-case operands.
func TestVecMatchesALU(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	edge := []uint64{0, 1, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff, 0xffffffff_ffffffff, 1 << 40}
	val := func(l int) uint64 {
		if l < len(edge) {
			return edge[l]
		}
		return r.Uint64()
	}
	ops := []isa.Opcode{isa.OpMOV, isa.OpADD, isa.OpSUB, isa.OpMUL, isa.OpMAD, isa.OpAND, isa.OpOR, isa.OpXOR, isa.OpSHL, isa.OpSHR, isa.OpSETP}
	n := 0
	for _, op := range ops {
		for _, typ := range []isa.Type{isa.B32, isa.U32, isa.S32} {
			cmps := []int{0}
			if op == isa.OpSETP {
				cmps = []int{isa.CmpEQ, isa.CmpNE, isa.CmpLT, isa.CmpLE, isa.CmpGT, isa.CmpGE, isa.CmpLO, isa.CmpLS, isa.CmpHI, isa.CmpHS}
			}
			for _, cmp := range cmps {
				in := isa.Inst{Op: op, Type: typ, Mods: uint16(cmp)}
				d := dinst{in: in}
				if op == isa.OpSETP {
					d.d1 = dest{kind: dPred}
				} else {
					d.d1 = dest{kind: dReg32, typ: typ}
				}
				v := vecOf(&d)
				if v == vNone {
					t.Fatalf("%s.%s has no fast path", op, typ)
				}
				for rep := 0; rep < 20; rep++ {
					var a, b, c [32]uint64
					for l := 0; l < 32; l++ {
						a[l], b[l], c[l] = val((l+rep)%40), val((l*7+rep)%40), r.Uint64()
					}
					if konst := (op == isa.OpSHL || op == isa.OpSHR) && rep%2 == 1; konst {
						// A shift by an immediate: its by-a-constant form,
						// B the same in every lane.
						d.b.kind = opConst
						if v = vecOf(&d); v < vShlK || v > vShrSK {
							t.Fatalf("%s.%s by a constant: fast path %d", op, typ, v)
						}
						for l := range b {
							b[l] = val(rep % 40)
						}
					} else {
						d.b.kind = opReg32
						v = vecOf(&d)
					}
					var res [32]uint32
					var pm uint32
					if v == vSetp {
						pm = vecSetp(cmp, typ.Signed(), &a, &b)
					} else {
						vec32(v, &a, &b, &c, &res)
					}
					// The same from 32-bit register rows (execRows).
					var ra, rb, rc, rres [32]uint32
					for l := range ra {
						ra[l], rb[l], rc[l] = uint32(a[l]), uint32(b[l]), uint32(c[l])
					}
					if v == vSetp {
						if rp := vecSetp(cmp, typ.Signed(), &ra, &rb); rp != pm {
							t.Fatalf("setp.%s.%s from rows: %#x, widened %#x", isa.CmpName(cmp), typ, rp, pm)
						}
					} else if vec32(v, &ra, &rb, &rc, &rres); rres != res {
						t.Fatalf("%s.%s from rows differs from widened operands", op, typ)
					}
					for l := 0; l < 32; l++ {
						bb := b[l]
						if op == isa.OpSHL || op == isa.OpSHR {
							bb &= 0xffffffff // B is a u32 operand
						}
						want, err := alu.Eval(&in, a[l], bb, c[l], 0)
						if err != nil {
							t.Fatalf("%s.%s: %v", op, typ, err)
						}
						if v == vSetp {
							if got := pm>>uint(l)&1 != 0; got != want.P {
								t.Fatalf("setp.%s.%s(%#x, %#x) = %v, alu %v", isa.CmpName(cmp), typ, a[l], b[l], got, want.P)
							}
						} else if uint64(res[l]) != want.D&0xffffffff {
							t.Fatalf("%s.%s(%#x, %#x, %#x) = %#x, alu %#x", op, typ, a[l], bb, c[l], res[l], want.D)
						}
						n++
					}
				}
			}
		}
	}
	// Modifiers, other types and wide destinations stay on the alu path.
	for _, in := range []isa.Inst{
		{Op: isa.OpADD, Type: isa.U64}, {Op: isa.OpADD, Type: isa.S32, Mods: isa.ModSat},
		{Op: isa.OpMUL, Type: isa.U32, Mods: isa.MulWide}, {Op: isa.OpMUL, Type: isa.U32, Mods: isa.MulHi},
		{Op: isa.OpSETP, Type: isa.U32, Mods: isa.CmpEQ | isa.BoolAnd<<isa.ModBoolShift},
		{Op: isa.OpADD, Type: isa.F32}, {Op: isa.OpSHR, Type: isa.U16},
	} {
		d := dinst{in: in, d1: dest{kind: dReg32}}
		if in.Op == isa.OpSETP {
			d.d1.kind = dPred
		}
		if v := vecOf(&d); v != vNone {
			t.Errorf("%+v took fast path %d", in, v)
		}
	}
	if n == 0 {
		t.Fatal("nothing compared")
	}
}
