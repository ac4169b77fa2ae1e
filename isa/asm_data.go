// Assembling data: module and block variables, initializers and constants.

package isa

import (
	"fmt"
	"math"
	"strings"
)

// varSym is a module- or function-scope variable in memory.
type varSym struct {
	name    string
	space   int // SpaceGlobal, SpaceShared, SpaceConst, SpaceLocal (function frames)
	addr    uint64
	size    uint64
	elem    Type
	pos     Pos
	dynamic bool // extern .shared array of unknown size (dynamic shared memory)
}

func (a *assembler) declareModuleVar(d *VarDecl) {
	switch d.Space {
	case "global", "const", "shared":
	case "local":
		a.errorf(d.Pos, "unsupported: module-scope .local variable")
		return
	case "texref", "tex", "surfref", "samplerref":
		a.errorf(d.Pos, "unsupported: .%s", d.Space)
		return
	default:
		a.errorf(d.Pos, "unsupported: .%s variable at module scope", d.Space)
		return
	}
	a.declareMemVars(d, "")
}

// declareMemVars lays out global/const/shared variables. prefix scopes
// function-local (demoted) names; the symbol table keys are prefix+name.
func (a *assembler) declareMemVars(d *VarDecl, prefix string) []*varSym {
	if !d.Type.Encodable() || d.Type == Pred {
		a.errorf(d.Pos, "unsupported: variable type .%s", d.Type)
		return nil
	}
	var out []*varSym
	for _, v := range d.Vars {
		if v.Range > 0 {
			a.errorf(v.Pos, "the %%name<N> form is only for .reg declarations")
			continue
		}
		elem := uint64(d.Type.Bytes())
		if d.Vec > 0 {
			elem *= uint64(d.Vec)
		}
		count := uint64(1)
		dynamic := false
		for i, n := range v.Dims {
			if n < 0 {
				if i != 0 {
					a.errorf(v.Pos, "only the first array dimension may be left empty")
					continue
				}
				if v.Init != nil {
					n = len(v.Init.List)
					if n == 0 {
						n = 1
					}
				} else {
					if d.Space == "shared" && d.Linkage == "extern" {
						dynamic = true
						n = 0
					} else {
						a.errorf(v.Pos, "array %s has no size and no initializer", v.Name)
						continue
					}
				}
			}
			count *= uint64(n)
			if count > 1<<30 {
				a.errorf(v.Pos, "array %s is too large", v.Name)
				return out
			}
		}
		size := elem * count
		align := uint64(d.Align)
		if align == 0 {
			align = elem
		}
		if align == 0 || align&(align-1) != 0 {
			a.errorf(d.Pos, ".align %d is not a power of two", d.Align)
			align = 1
		}
		key := prefix + v.Name
		if _, dup := a.vars[key]; dup {
			a.errorf(v.Pos, "%s is declared twice", v.Name)
			continue
		}
		if _, dup := a.funcs[key]; dup {
			a.errorf(v.Pos, "%s is already declared as a function", v.Name)
			continue
		}
		vs := &varSym{name: v.Name, size: size, elem: d.Type, pos: v.Pos, dynamic: dynamic}
		switch d.Space {
		case "global":
			vs.space = SpaceGlobal
			off, ok := a.place(&a.data, 1<<28, "global data exceeds 256 MiB", d, v, align, size)
			if !ok {
				return out
			}
			vs.addr = GlobalDataBase + off
		case "const":
			vs.space = SpaceConst
			off, ok := a.place(&a.cbank, 1<<24, "the .const bank exceeds 16 MiB", d, v, align, size)
			if !ok {
				return out
			}
			vs.addr = off
		case "shared":
			vs.space = SpaceShared
			if v.Init != nil {
				a.errorf(v.Pos, ".shared variables cannot be initialized")
			}
			if dynamic {
				vs.addr = 0 // resolved per kernel: after the static segment
			} else {
				off := alignUp64(uint64(a.shared), align)
				if off+size > 1<<24 {
					a.errorf(v.Pos, "static shared memory exceeds 16 MiB")
					return out
				}
				vs.addr = off
				a.shared = uint32(off + size)
			}
		}
		a.vars[key] = vs
		out = append(out, vs)
	}
	return out
}

func alignUp64(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// place reserves size bytes for v at the next multiple of align in bank
// and writes its initializer there; past limit bytes in all it reports full
// and gives false.
func (a *assembler) place(bank *[]byte, limit uint64, full string, d *VarDecl, v *Var, align, size uint64) (uint64, bool) {
	off := alignUp64(uint64(len(*bank)), align)
	if off+size > limit {
		a.errorf(v.Pos, "%s", full)
		return 0, false
	}
	*bank = append(*bank, make([]byte, off+size-uint64(len(*bank)))...)
	if v.Init != nil {
		a.initData(bank, int(off), d, v)
	}
	return off, true
}

// initData writes a variable's initializer into bank at off.
func (a *assembler) initData(bank *[]byte, off int, d *VarDecl, v *Var) {
	elem := d.Type.Bytes()
	var flat []*Init
	var walk func(in *Init, depth int)
	walk = func(in *Init, depth int) {
		if depth > 64 {
			return
		}
		if in.List != nil {
			for _, e := range in.List {
				walk(e, depth+1)
			}
			return
		}
		flat = append(flat, in)
	}
	walk(v.Init, 0)
	total := 1
	for _, n := range v.Dims {
		if n > 0 {
			total *= n
		} else {
			total *= len(v.Init.List)
		}
	}
	if d.Vec > 0 {
		total *= d.Vec
	}
	if len(flat) > total {
		a.errorf(v.Init.Pos, "initializer has %d elements, %s holds %d", len(flat), v.Name, total)
		return
	}
	for i, in := range flat {
		at := off + i*elem
		switch val := in.Value.(type) {
		case *ImmOperand:
			bits, err := immBits(val, d.Type)
			if err != nil {
				a.errorf(val.Pos, "%v", err)
				continue
			}
			putLE((*bank)[at:at+elem], bits)
		case *SymOperand:
			if fs, ok := a.funcs[val.Name]; ok {
				if !fs.declaredBefore(val.Pos) {
					a.errorf(val.Pos, "%s is referenced in a call table initializer before its declaration (functions must be declared prior to it)", val.Name)
					continue
				}
				if elem < 4 {
					a.errorf(val.Pos, "function address of %s does not fit .%s", val.Name, d.Type)
					continue
				}
				a.dataRelocs = append(a.dataRelocs, dataReloc{bank: bank, off: at, size: elem, fn: val.Name, addend: val.Offset, pos: val.Pos})
				continue
			}
			if vs, ok := a.vars[val.Name]; ok {
				putLE((*bank)[at:at+elem], vs.addr+uint64(val.Offset))
				continue
			}
			a.errorf(val.Pos, "undefined symbol %s in initializer", val.Name)
		case *RegOperand:
			a.errorf(val.Pos, "registers cannot appear in initializers")
		case nil:
			a.errorf(in.Pos, "empty initializer element")
		default:
			a.errorf(in.Pos, "unsupported: initializer expression")
		}
	}
}

func putLE(b []byte, v uint64) {
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
}

// immBits converts an immediate to the raw bits of type t.
func immBits(im *ImmOperand, t Type) (uint64, error) {
	// An integer literal of a low-precision type (f16x2, bf16, ...) is
	// its bits, as for a bit type.
	if t.Float() && !(t.LowPrecision() && !im.Float) {
		f := im.F
		if !im.Float {
			f = float64(im.Int)
			if strings.HasPrefix(im.Text, "0f") || strings.HasPrefix(im.Text, "0F") {
				f = float64(math.Float32frombits(uint32(im.Int)))
			}
		}
		switch t {
		case F32:
			if im.Float && isHexFloat(im.Text) && len(im.Text) == 10 {
				return uint64(math.Float32bits(float32(im.F))), nil
			}
			return uint64(math.Float32bits(float32(f))), nil
		case F64:
			return math.Float64bits(f), nil
		case F16:
			return uint64(f32ToF16(float32(f))), nil
		case BF16: // the f32 value rounded to nearest even in its upper half
			b := math.Float32bits(float32(f))
			if f != f {
				return 0x7fff, nil
			}
			return uint64((b + 0x7fff + b>>16&1) >> 16), nil
		}
		return 0, fmt.Errorf("unsupported: immediate of type .%s", t)
	}
	if im.Float {
		// Hex float literals used with bit types keep their bits.
		if isHexFloat(im.Text) {
			if im.Text[1] == 'f' || im.Text[1] == 'F' {
				return uint64(math.Float32bits(float32(im.F))), nil
			}
			return math.Float64bits(im.F), nil
		}
		return 0, fmt.Errorf("floating-point immediate %s used with .%s", im.Text, t)
	}
	v := uint64(im.Int)
	if bits := t.Bits(); bits < 64 && bits > 0 {
		v &= 1<<uint(bits) - 1
	}
	return v, nil
}

func isHexFloat(s string) bool {
	return len(s) > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')
}

// f32ToF16 converts with round-to-nearest-even.
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff == 0:
		return sign
	case b>>23&0xff == 0xff:
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		h := mant >> shift
		rem := mant & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++
	}
	return sign | uint16(h)
}

// constIndex returns the constant-table slot of v.
func (a *assembler) constIndex(v uint64, pos Pos) int {
	if i, ok := a.consts[v]; ok {
		return i
	}
	i := len(a.img.Consts)
	if i >= 1024 {
		a.errorf(pos, "more than 1024 distinct wide constants in one module")
		return 0
	}
	a.consts[v] = i
	a.img.Consts = append(a.img.Consts, v)
	return i
}
