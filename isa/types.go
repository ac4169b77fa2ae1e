package isa

import "fmt"

// Type is a PTX fundamental type. The first 16 values are those the binary
// encoding carries in its 4-bit type fields; the others are parsed so that
// they can be refused with a positioned "unsupported:" error.
type Type uint8

const (
	B8 Type = iota
	B16
	B32
	B64
	U8
	U16
	U32
	U64
	S8
	S16
	S32
	S64
	F16
	F32
	F64
	Pred
	// Types the parser knows but the machine does not execute.
	B128
	F16x2
	BF16
	BF16x2
	TF32
	E4M3
	E5M2
	E4M3x2      // two e4m3 values in 16 bits (cvt only)
	E5M2x2      // two e5m2 values in 16 bits (cvt only)
	NoType Type = 0xff
)

var typeNames = [...]string{
	B8: "b8", B16: "b16", B32: "b32", B64: "b64",
	U8: "u8", U16: "u16", U32: "u32", U64: "u64",
	S8: "s8", S16: "s16", S32: "s32", S64: "s64",
	F16: "f16", F32: "f32", F64: "f64", Pred: "pred",
	B128: "b128", F16x2: "f16x2", BF16: "bf16", BF16x2: "bf16x2", TF32: "tf32",
	E4M3: "e4m3", E5M2: "e5m2", E4M3x2: "e4m3x2", E5M2x2: "e5m2x2",
}

func (t Type) String() string { return enumName(typeNames[:], uint8(t), "type(%d)") }

// ParseType maps a type name without its dot ("u32") to a Type.
func ParseType(s string) (Type, bool) {
	if i, ok := indexIn(typeNames[:], s, 0); ok {
		return Type(i), true
	}
	return NoType, false
}

// Encodable reports whether t fits the 5-bit type field of an
// instruction: the 16 types of the 4-bit field and the low-precision
// f16x2, bf16, bf16x2, tf32, e4m3 and e5m2 (not b128).
func (t Type) Encodable() bool {
	return t <= Pred || t == F16x2 || t >= BF16 && t <= TF32 || t >= E4M3 && t <= E5M2x2
}

// LowPrecision reports the types the machine uses only for f16/bf16
// arithmetic and the conversions of the low-precision formats: bf16 and
// the packed f16x2, bf16x2, e4m3x2, e5m2x2 (and the scalar fp8 types).
func (t Type) LowPrecision() bool {
	return t == F16x2 || t == BF16 || t == BF16x2 || t == TF32 || t >= E4M3 && t <= E5M2x2
}

// FP8 reports the fp8 types (e4m3, e5m2 and their x2 pairs), which PTX
// uses only in cvt (the x2 pairs) and in the tensor-core instructions.
func (t Type) FP8() bool { return t >= E4M3 && t <= E5M2x2 }

// Packed reports the types holding two values (f16x2 bf16x2 e4m3x2 e5m2x2).
func (t Type) Packed() bool { return t == F16x2 || t == BF16x2 || t == E4M3x2 || t == E5M2x2 }

// Bits is the width of the type in bits (1 for pred).
func (t Type) Bits() int {
	switch t {
	case B8, U8, S8, E4M3, E5M2:
		return 8
	case B16, U16, S16, F16, BF16, E4M3x2, E5M2x2:
		return 16
	case B32, U32, S32, F32, F16x2, BF16x2, TF32:
		return 32
	case B64, U64, S64, F64:
		return 64
	case B128:
		return 128
	case Pred:
		return 1
	}
	return 0
}

// Bytes is the storage size of the type in bytes (1 for pred).
func (t Type) Bytes() int {
	if t == Pred {
		return 1
	}
	return t.Bits() / 8
}

// Signed reports a signed integer type.
func (t Type) Signed() bool { return t >= S8 && t <= S64 }

// Float reports a floating-point type (the packed f16x2, bf16x2 and the
// fp8 types included).
func (t Type) Float() bool {
	switch t {
	case F16, F32, F64, BF16, TF32, F16x2, BF16x2, E4M3, E5M2, E4M3x2, E5M2x2:
		return true
	}
	return false
}

// Regs is the number of 32-bit machine registers a value of this type occupies.
func (t Type) Regs() int {
	if t.Bits() > 32 {
		return t.Bits() / 32
	}
	return 1
}

// Wide is the type of twice t's width and its signedness (the
// destination of mul.wide and mad.wide); t itself where there is none.
func (t Type) Wide() Type {
	switch t {
	case U8:
		return U16
	case S8:
		return S16
	case B8:
		return B16
	case U16:
		return U32
	case S16:
		return S32
	case B16:
		return B32
	case U32:
		return U64
	case S32:
		return S64
	case B32:
		return B64
	}
	return t
}

// Half is the untyped bits of half t's width (the halves of a mov
// packing or unpacking a register pair): .b32 of a 64-bit type, .b16 of a
// 32-bit one, else .b8.
func (t Type) Half() Type {
	switch t.Bits() {
	case 64:
		return B32
	case 32:
		return B16
	}
	return B8
}

// enumName is the name of v in names, or v printed with format where
// names has none: the String of an enumeration.
func enumName(names []string, v uint8, format string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return fmt.Sprintf(format, v)
}
