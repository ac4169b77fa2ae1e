package cosim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
)

// FPUVector is one lane's input to the behavioural FPU (verilog/rtl/sm_fpu.sv,
// docs/sm-rtl.md "The behavioural FPU"): the instruction's Op, Type, Type2
// and Mods fields and the operands as raw bits of their types.
type FPUVector struct {
	Op    isa.Opcode `sv:"op_i"`
	Type  isa.Type   `sv:"ty_i"`
	Type2 isa.Type   `sv:"ty2_i"`
	Mods  uint16     `sv:"mods_i"`
	A     uint64     `sv:"a_i"`
	B     uint64     `sv:"b_i"`
	C     uint64     `sv:"c_i"`
}

// FPUOutput is the FPU's answer to one vector.
type FPUOutput struct {
	D         uint64 `sv:"d_o"`
	P         bool   `sv:"p_o"`
	Q         bool   `sv:"q_o"`
	Supported bool   `sv:"supported_o"`
}

// BuildFPU builds (or finds up to date) the behavioural FPU's bench
// (make fpu: the Verilated sm_fpu with its DPI-C implementation) and
// returns its path. Builds share the unit harnesses' lock.
func BuildFPU(ctx context.Context, opt HarnessOptions) (string, error) {
	vdir, build, rtlDir, err := opt.dirs()
	herr := func(msg, out string, err error) error {
		return &HarnessError{Cause: CauseBuild, Module: "sm_fpu", Msg: msg, Stderr: tailLines(out, 40), Err: err}
	}
	if err != nil {
		return "", herr(err.Error(), "", err)
	}
	if out, err := runMake(ctx, vdir, opt, "fpu", "BUILD="+build, "RTL_DIR="+rtlDir); err != nil {
		return "", herr(err.Error(), out, err)
	}
	return filepath.Join(build, "fpu", "fpu"), nil
}

// RunFPU evaluates vecs on the FPU bench bin (BuildFPU), in one run.
func RunFPU(ctx context.Context, bin string, vecs []FPUVector) ([]FPUOutput, error) {
	in := make([]byte, 0, 64*len(vecs))
	for _, v := range vecs {
		for i, x := range [...]uint64{uint64(v.Op), uint64(v.Type), uint64(v.Type2), uint64(v.Mods), v.A, v.B, v.C} {
			if i > 0 {
				in = append(in, ' ')
			}
			in = strconv.AppendUint(in, x, 16)
		}
		in = append(in, '\n')
	}
	cmd := exec.CommandContext(ctx, bin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, &HarnessError{Cause: CauseExit, Module: "sm_fpu", Msg: err.Error(), Stderr: tailLines(stderr.String(), 20), Err: err}
	}
	res := make([]FPUOutput, 0, len(vecs))
	for line := range bytes.Lines(out) {
		f := strings.Fields(string(line))
		var o FPUOutput
		var err error
		if len(f) != 4 {
			err = errors.New("want d p q supported")
		} else {
			o.D, err = strconv.ParseUint(f[0], 16, 64)
			o.P, o.Q, o.Supported = f[1] == "1", f[2] == "1", f[3] == "1"
		}
		if err != nil {
			return nil, fmt.Errorf("cosim: sm_fpu: output line %d %q: %w", len(res)+1, line, err)
		}
		res = append(res, o)
	}
	if len(res) != len(vecs) {
		return nil, fmt.Errorf("cosim: sm_fpu: %d results for %d vectors", len(res), len(vecs))
	}
	return res, nil
}

// PTX writes v's instruction in PTX syntax (opcode, modifiers, types), as
// a mismatch report names it: "div.rn.ftz.f32", "setp.ltu.and.f64",
// "cvt.rzi.sat.s32.f64".
func (v FPUVector) PTX() string {
	parts := []string{strings.ToLower(v.Op.String())}
	m := v.Mods
	switch v.Op {
	case isa.OpSETP:
		parts = append(parts, isa.CmpName(int(m&isa.ModCmpMask)))
		if b := int(m&isa.ModBoolMask) >> isa.ModBoolShift; b != isa.BoolNone {
			parts = append(parts, [...]string{"", "and", "or", "xor"}[b])
		}
		if m&isa.ModSetpFtz != 0 {
			parts = append(parts, "ftz")
		}
		if m&isa.ModSetpDst2 != 0 {
			parts = append(parts, "p|q")
		}
	case isa.OpTESTP:
		parts = append(parts, isa.TestpName(int(m)))
	default:
		if r := isa.RoundingName(int(m&isa.ModRndMask) >> isa.ModRndShift); r != "" {
			parts = append(parts, r)
		}
		if m&isa.ModFtz != 0 {
			parts = append(parts, "ftz")
		}
		if m&isa.ModSat != 0 {
			parts = append(parts, "sat")
		}
		if v.Op == isa.OpCVT || v.Op == isa.OpFMA {
			if m&isa.ModRelu != 0 {
				parts = append(parts, "relu")
			}
			if m&isa.ModSatFinite != 0 {
				parts = append(parts, "satfinite")
			}
		}
		if v.Op == isa.OpMIN || v.Op == isa.OpMAX {
			if m&isa.ModMinMaxNaN != 0 {
				parts = append(parts, "NaN")
			}
			if m&isa.ModMinMaxXorsign != 0 {
				parts = append(parts, "xorsign.abs")
			}
		}
		// The rest: .NaN/.xorsign.abs (min, max) or .relu/.satfinite (cvt,
		// fma) share bits 10 and 11; ModCvtPack is the two-source form
		// (cvt.f16x2.f32 d, a, b), which has no modifier of its own.
		x := m &^ (isa.ModRndMask | isa.ModFtz | isa.ModSat)
		switch v.Op {
		case isa.OpMIN, isa.OpMAX:
			x &^= isa.ModMinMaxNaN | isa.ModMinMaxXorsign
		case isa.OpCVT:
			x &^= isa.ModRelu | isa.ModSatFinite | isa.ModCvtPack
		case isa.OpFMA:
			x &^= isa.ModRelu
		}
		if x != 0 {
			parts = append(parts, fmt.Sprintf("mods%#x", x))
		}
	}
	parts = append(parts, v.Type.String())
	if v.Op == isa.OpCVT {
		parts = append(parts, v.Type2.String())
	}
	return strings.Join(parts, ".")
}
