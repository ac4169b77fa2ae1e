package pipethrottle

import "github.com/smsim/smsim/isa"

// Classify returns the pipe of an ALU instruction (the pipeline's ALU
// category: arithmetic, logic, compare, select, move, convert and the
// special functions), following the compute capability 9.0 rows of the
// CUDA C++ Programming Guide's throughput table:
//
//   - the special functions (rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh,
//     float div) and the bit counts popc, clz, brev, bfind (16 per clock
//     per SM): SFU; integer div and rem, a sequence around MUFU.RCP on real
//     hardware, are one pass through the SFU here;
//   - cvt with a float or a 64-bit type on either side: CVT (16); cvt
//     between integer types of at most 32 bits: INT32 (64);
//   - float moves, selects, copysign, testp: INT32 (they move bits);
//   - other f64 arithmetic: FP64 (64); other float arithmetic, f16 and
//     bf16 included (one lane per packed pair): FP32 (128);
//   - integer mul, mad, mul24, mad24, sad, dp4a, dp2a: IMAD (64);
//   - every other integer instruction: INT32 (64).
func Classify(in *isa.Inst) Pipe {
	t := in.Type
	if in.Op == isa.OpCVT {
		if t.Float() || in.Type2.Float() || t.Bits() == 64 || in.Type2.Bits() == 64 {
			return CVT
		}
		return INT32
	}
	switch in.Op {
	case isa.OpSQRT, isa.OpRCP, isa.OpEX2, isa.OpLG2, isa.OpSIN, isa.OpCOS, isa.OpRSQRT, isa.OpTANH,
		isa.OpPOPC, isa.OpCLZ, isa.OpBREV, isa.OpBFIND:
		return SFU
	case isa.OpDIV, isa.OpREM:
		return SFU
	}
	if t.Float() {
		switch in.Op {
		case isa.OpMOV, isa.OpSELP, isa.OpCOPYSIGN, isa.OpTESTP:
			return INT32
		}
		if t == isa.F64 {
			return FP64
		}
		return FP32
	}
	switch in.Op {
	case isa.OpMUL, isa.OpMAD, isa.OpSAD, isa.OpMUL24, isa.OpMAD24, isa.OpDP4A, isa.OpDP2A:
		return IMAD
	}
	return INT32
}
