package isa

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The disassembly format (docs/isa.md) is line-oriented text. Directives
// starting with "." carry every field of the image's tables; each
// instruction line shows a readable form followed by its exact fields in
// braces and its source:
//
//	/*0003*/ @!P1 ADD.s32 R4, R2, 0x10 { op=ADD t=s32 g=!1 d=4 a=r2 b=imm imm=0x10 loc=0:14:2:3 } // k.ptx:14  add.s32 %r4, %r2, 16;
//
// ParseDisasm reads the directives and the braces (the readable part and the
// comment are ignored), so disassembling and reassembling gives identical bytes.

const disasmMagic = ".smsim_image"

// Disassemble writes the image as text.
func Disassemble(im *Image, w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s %d\n", disasmMagic, imageVersion)
	for i, f := range im.Files {
		fmt.Fprintf(bw, ".file %d %s\n", i, strconv.Quote(f))
	}
	for i, s := range im.Source {
		fmt.Fprintf(bw, ".source %d %s\n", i, strconv.Quote(s))
	}
	for i, c := range im.Consts {
		fmt.Fprintf(bw, ".const %d %#x\n", i, c)
	}
	for i, t := range im.BrTables {
		fmt.Fprintf(bw, ".brtable %d %d\n", i, t)
	}
	writeHex(bw, ".data", im.Data)
	writeHex(bw, ".cbank", im.ConstBank)
	fmt.Fprintf(bw, ".shared_bytes %d\n", im.SharedBytes)
	for _, k := range im.Kernels {
		fmt.Fprintf(bw, ".kernel %s pc=%d regs=%d preds=%d param_bytes=%d shared=%d local=%d maxnreg=%d maxntid=%s reqntid=%s reqnctapercluster=%s minnctapersm=%d maxclusterrank=%d explicitcluster=%d line=%d\n",
			k.Name, k.PC, k.Regs, k.Preds, k.ParamBytes, k.SharedBytes, k.LocalBytes, k.MaxNReg, dim3(k.MaxNTid), dim3(k.ReqNTid), dim3(k.ReqNCtaPerCluster), k.MinNCtaPerSM, k.MaxClusterRank, btoi(k.ExplicitCluster), k.Line)
		for _, p := range k.Params {
			fmt.Fprintf(bw, ".kparam %s offset=%d size=%d align=%d type=%d ptr=%d\n", p.Name, p.Offset, p.Size, p.Align, p.Type, btoi(p.Ptr))
		}
		for _, p := range k.Pragmas {
			fmt.Fprintf(bw, ".pragma %s\n", strconv.Quote(p))
		}
	}
	for _, f := range im.Funcs {
		fmt.Fprintf(bw, ".func %s pc=%d end=%d frame=%d regs=%d preds=%d kernel=%d\n", f.Name, f.PC, f.End, f.Frame, f.Regs, f.Preds, btoi(f.Kernel))
	}
	for _, s := range im.Symbols {
		fmt.Fprintf(bw, ".symbol %s space=%d addr=%#x size=%d\n", s.Name, s.Space, s.Addr, s.Size)
	}
	for pc, in := range im.Code {
		if f, ok := im.FuncAt(uint32(pc)); ok && f.PC == uint32(pc) {
			fmt.Fprintf(bw, "\n// %s\n", f.Name)
		}
		fmt.Fprintf(bw, "/*%04x*/ %-40s { %s", pc, in.Pretty(), in.fields())
		if pc < len(im.Lines) {
			l := im.Lines[pc]
			fmt.Fprintf(bw, " loc=%d:%d:%d:%d }", l.File, l.Line, l.Col, l.Text)
			pos, text := im.Where(uint32(pc))
			fmt.Fprintf(bw, " // %s  %s\n", pos, text)
		} else {
			fmt.Fprintf(bw, " }\n")
		}
	}
	return bw.Flush()
}

func dim3(a [3]uint32) string { return fmt.Sprintf("%d,%d,%d", a[0], a[1], a[2]) }

func writeHex(w io.Writer, dir string, b []byte) {
	fmt.Fprintf(w, "%s_len %d\n", dir, len(b))
	for off := 0; off < len(b); off += 32 {
		end := min(off+32, len(b))
		fmt.Fprintf(w, "%s %d %s\n", dir, off, hex.EncodeToString(b[off:end]))
	}
}

func opText(o Operand12, imm uint32) string {
	switch o.Kind {
	case KindReg:
		return fmt.Sprintf("r%d", o.Val)
	case KindImm:
		return "imm"
	case KindConst:
		return fmt.Sprintf("c%d", o.Val)
	}
	switch o.Val >> 8 {
	case SpecialPred:
		if o.PredNeg() {
			return fmt.Sprintf("!p%d", o.PredIndex())
		}
		return fmt.Sprintf("p%d", o.PredIndex())
	case SpecialZero:
		return "rz"
	case SpecialFP:
		return "fp"
	}
	return fmt.Sprintf("s%d", o.Val)
}

// fields prints every field that differs from its zero value.
func (in Inst) fields() string {
	var b strings.Builder
	fmt.Fprintf(&b, "op=%s", in.Op)
	if in.Type != 0 {
		fmt.Fprintf(&b, " t=%s", in.Type)
	}
	if in.Type2 != 0 {
		fmt.Fprintf(&b, " t2=%s", in.Type2)
	}
	if in.GuardOn {
		neg := ""
		if in.GuardNeg {
			neg = "!"
		}
		fmt.Fprintf(&b, " g=%s%d", neg, in.Guard)
	} else if in.GuardNeg || in.Guard != 0 {
		fmt.Fprintf(&b, " graw=%d:%d", btoi(in.GuardNeg), in.Guard)
	}
	if in.Mods != 0 {
		fmt.Fprintf(&b, " m=%#x", in.Mods)
	}
	if in.Dst != 0 {
		fmt.Fprintf(&b, " d=%d", in.Dst)
	}
	if in.Dst2 != 0 {
		fmt.Fprintf(&b, " d2=%d", in.Dst2)
	}
	for i, o := range []Operand12{in.A, in.B, in.C} {
		if o != (Operand12{}) {
			fmt.Fprintf(&b, " %c=%s", "abc"[i], opText(o, in.Imm))
		}
	}
	if in.Imm != 0 {
		fmt.Fprintf(&b, " imm=%#x", in.Imm)
	}
	return b.String()
}

// Pretty renders the instruction in a SASS-like readable form.
func (in Inst) Pretty() string {
	var b strings.Builder
	if in.GuardOn {
		if in.GuardNeg {
			b.WriteString("@!")
		} else {
			b.WriteString("@")
		}
		fmt.Fprintf(&b, "P%d ", in.Guard)
	}
	val := func(o Operand12) string {
		switch o.Kind {
		case KindReg:
			return fmt.Sprintf("R%d", o.Val)
		case KindImm:
			return fmt.Sprintf("%#x", in.Imm)
		case KindConst:
			return fmt.Sprintf("C[%d]", o.Val)
		}
		switch o.Val >> 8 {
		case SpecialPred:
			if o.PredNeg() {
				return fmt.Sprintf("!P%d", o.PredIndex())
			}
			return fmt.Sprintf("P%d", o.PredIndex())
		case SpecialFP:
			return "FP"
		}
		return "RZ"
	}
	dst := fmt.Sprintf("R%d", in.Dst)
	if in.Type == Pred {
		dst = fmt.Sprintf("P%d", in.Dst)
	}
	b.WriteString(in.Op.String())
	if (in.Op == OpADD || in.Op == OpSUB || in.Op == OpMAD) && !in.Type.Float() {
		if in.Mods&ModCCIn != 0 {
			b.WriteString(".X") // addc, subc, madc
		}
		if in.Mods&ModCCOut != 0 {
			b.WriteString(".CC")
		}
	}
	switch in.Op {
	case OpLD, OpST, OpATOM, OpCVTA:
		fmt.Fprintf(&b, ".%s", SpaceName(int(in.Mods&ModSpaceMask)))
		if in.Op == OpATOM {
			name := AtomName(int(in.Mods & ModAtomMask >> ModAtomShift))
			switch {
			case in.Mods&ModMbarTry != 0:
				name = strings.Replace(name, "test_wait", "try_wait", 1)
			case in.Mods&ModMbarTxDone != 0:
				name += ".complete_tx"
			case in.Mods&ModMbarTx != 0:
				name += ".expect_tx"
			}
			fmt.Fprintf(&b, ".%s", name)
		}
		if in.Op == OpCVTA && in.Mods&ModCvtaTo != 0 {
			b.WriteString(".to")
		}
		if c := int(in.Mods & ModCacheMask >> ModCacheShift); c != CacheCA && in.Op == OpLD {
			fmt.Fprintf(&b, ".%s", CacheName(c))
		}
		if v := in.Mods & ModVecMask >> ModVecShift; v != 0 && in.Op != OpATOM && in.Op != OpCVTA {
			fmt.Fprintf(&b, ".v%d", 1<<v)
		}
		fmt.Fprintf(&b, ".%s ", in.Type)
		addr := fmt.Sprintf("[%s%+#x]", val(in.A), int32(in.Imm))
		switch in.Op {
		case OpLD:
			fmt.Fprintf(&b, "%s, %s", dst, addr)
		case OpST:
			fmt.Fprintf(&b, "%s, %s", addr, val(in.B))
		case OpATOM:
			fmt.Fprintf(&b, "%s, %s, %s", dst, addr, val(in.B))
			if in.Mods&(ModMbarHint|ModMbarTx) != 0 {
				fmt.Fprintf(&b, ", %s", val(in.C))
			}
		case OpCVTA:
			fmt.Fprintf(&b, "%s, %s", dst, val(in.A))
		}
	case OpBRA:
		fmt.Fprintf(&b, " %#x", in.Imm)
	case OpBRX:
		fmt.Fprintf(&b, " %s, table[%d:%d]", val(in.A), in.Imm, in.Imm+uint32(in.Mods>>ModBrxLenShift))
	case OpCALL:
		if in.Mods&ModCallInd != 0 {
			fmt.Fprintf(&b, " %s", val(in.A))
		} else {
			fmt.Fprintf(&b, " %#x", in.Imm)
		}
		fmt.Fprintf(&b, ", frame+%d", (in.Mods>>ModFrameShift)*8)
	case OpRET, OpEXIT, OpBRKPT, OpTRAP, OpRTT, OpNOP:
	case OpBPT:
		fmt.Fprintf(&b, ".%s", BPTName(int(in.Mods)))
		if in.Mods == BPTTrap {
			fmt.Fprintf(&b, " %d", in.Imm)
		}
	case OpIDE:
		if in.Mods&ModIDEEnable != 0 {
			b.WriteString(".EN")
		} else {
			b.WriteString(".DIS")
		}
	case OpS2R:
		fmt.Fprintf(&b, " %s, %s", dst, SReg(in.Imm))
	case OpSETMAXNREG:
		if in.Mods&ModSetmaxInc != 0 {
			b.WriteString(".INC")
		} else {
			b.WriteString(".DEC")
		}
		fmt.Fprintf(&b, " %d", in.Imm)
	case OpPMEVENT:
		fmt.Fprintf(&b, " %#x", in.Imm)
	case OpCPASYNC:
		if in.Mods&ModCpAsyncBulk != 0 {
			b.WriteString(".BULK")
		}
		switch int(in.Mods&ModCpAsyncKindMask) >> ModCpAsyncKindSh {
		case CpAsyncCommit:
			b.WriteString(".COMMIT_GROUP")
		case CpAsyncWaitGroup:
			fmt.Fprintf(&b, ".WAIT_GROUP %d", in.Imm)
		case CpAsyncWaitAll:
			b.WriteString(".WAIT_ALL")
		default:
			if in.Mods&ModCpAsyncBulk != 0 {
				dir := [...]string{"SHARED.GLOBAL", "SHARED.SHARED", "GLOBAL.SHARED", "DIR3"}[in.Mods&ModCpAsyncDirMask>>ModCpAsyncDirSh]
				fmt.Fprintf(&b, ".%s [%s%+#x], [%s], %s", dir, val(in.A), int32(in.Imm), val(in.B), val(in.C))
				break
			}
			fmt.Fprintf(&b, ".%d [%s%+#x], [%s]", 4<<(in.Mods&ModCpAsyncSizeMask), val(in.A), int32(in.Imm), val(in.B))
			if in.Mods&ModCpAsyncSrcSize != 0 {
				fmt.Fprintf(&b, ", %s", val(in.C))
			}
		}
	case OpREDUX:
		fmt.Fprintf(&b, ".%s.%s R%d, %s, %s", ReduxName(int(in.Mods&ModReduxMask)), in.Type, in.Dst, val(in.A), val(in.B))
	case OpMATCH:
		mode, p := "any", ""
		if in.Mods&ModMatchAll != 0 {
			mode = "all"
		}
		if in.Mods&ModMatchPred != 0 {
			p = fmt.Sprintf("|P%d", in.Dst2)
		}
		fmt.Fprintf(&b, ".%s.%s R%d%s, %s, %s", mode, in.Type, in.Dst, p, val(in.A), val(in.B))
	case OpELECT:
		fmt.Fprintf(&b, " R%d|P%d, %s", in.Dst, in.Dst2, val(in.A))
	case OpTESTP:
		fmt.Fprintf(&b, ".%s.%s P%d, %s", TestpName(int(in.Mods&ModTestpMask)), in.Type, in.Dst, val(in.A))
	case OpSETP:
		fmt.Fprintf(&b, ".%s.%s P%d, %s, %s", CmpName(int(in.Mods&ModCmpMask)), in.Type, in.Dst, val(in.A), val(in.B))
		if bo := in.Mods & ModBoolMask >> ModBoolShift; bo != 0 {
			fmt.Fprintf(&b, ", %s", val(in.C))
		}
	default:
		if in.Type2 != 0 || in.Op == OpCVT {
			fmt.Fprintf(&b, ".%s.%s", in.Type, in.Type2)
		} else if in.Type != 0 || in.Op == OpMOV {
			fmt.Fprintf(&b, ".%s", in.Type)
		}
		b.WriteString(" " + dst)
		if in.Op == OpMOV && in.Mods&ModMovUnpack != 0 {
			fmt.Fprintf(&b, ", R%d", in.Dst2)
		}
		for _, o := range []Operand12{in.A, in.B, in.C}[:in.Op.Arity(in.Mods)] {
			b.WriteString(", " + val(o))
		}
		if in.Op == OpLOP3 {
			fmt.Fprintf(&b, ", %#02x", in.Imm&LopLUTMask)
		}
	}
	return b.String()
}

// ParseDisasm reads the text Disassemble writes and rebuilds the image.
func ParseDisasm(file string, src []byte) (*Image, error) {
	p := &dparser{file: file, im: &Image{}}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var dataLen, cbankLen = -1, -1
	var kernel *Kernel
	for sc.Scan() {
		p.line++
		line := sc.Text()
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "//") {
			continue
		}
		if p.line == 1 {
			if t != fmt.Sprintf("%s %d", disasmMagic, imageVersion) {
				p.fail(1, "not an smsim disassembly (want %q)", fmt.Sprintf("%s %d", disasmMagic, imageVersion))
				break
			}
			continue
		}
		if strings.HasPrefix(t, "/*") {
			p.inst(line)
			continue
		}
		word, rest, _ := strings.Cut(t, " ")
		switch word {
		case ".file", ".source":
			idx, s := p.indexedString(rest)
			var tab *[]string = &p.im.Files
			if word == ".source" {
				tab = &p.im.Source
			}
			if idx != len(*tab) {
				p.fail(1, "%s %d out of order", word, idx)
			}
			*tab = append(*tab, s)
		case ".const":
			f := strings.Fields(rest)
			if len(f) != 2 || p.num(f[0], 32) != uint64(len(p.im.Consts)) {
				p.fail(1, "bad .const line")
				continue
			}
			p.im.Consts = append(p.im.Consts, p.num(f[1], 64))
		case ".brtable":
			f := strings.Fields(rest)
			if len(f) != 2 || p.num(f[0], 32) != uint64(len(p.im.BrTables)) {
				p.fail(1, "bad .brtable line")
				continue
			}
			p.im.BrTables = append(p.im.BrTables, uint32(p.num(f[1], 32)))
		case ".data_len":
			dataLen = int(p.num(rest, 28))
		case ".cbank_len":
			cbankLen = int(p.num(rest, 24))
		case ".data", ".cbank":
			f := strings.Fields(rest)
			b, err := hex.DecodeString(last(f))
			if len(f) != 2 || err != nil {
				p.fail(1, "bad %s line", word)
				continue
			}
			tab := &p.im.Data
			if word == ".cbank" {
				tab = &p.im.ConstBank
			}
			if int(p.num(f[0], 32)) != len(*tab) {
				p.fail(1, "%s offset out of order", word)
				continue
			}
			*tab = append(*tab, b...)
		case ".shared_bytes":
			p.im.SharedBytes = uint32(p.num(rest, 32))
		case ".kernel":
			name, kv := p.kv(rest)
			k := Kernel{Name: name}
			k.PC = uint32(p.field(kv, "pc", 32))
			k.Regs = uint16(p.field(kv, "regs", 16))
			k.Preds = uint16(p.field(kv, "preds", 16))
			k.ParamBytes = uint32(p.field(kv, "param_bytes", 32))
			k.SharedBytes = uint32(p.field(kv, "shared", 32))
			k.LocalBytes = uint32(p.field(kv, "local", 32))
			k.MaxNReg = uint16(p.field(kv, "maxnreg", 16))
			k.MaxNTid = p.dim(kv, "maxntid")
			k.ReqNTid = p.dim(kv, "reqntid")
			k.ReqNCtaPerCluster = p.dim(kv, "reqnctapercluster")
			k.MinNCtaPerSM = uint32(p.field(kv, "minnctapersm", 32))
			k.MaxClusterRank = uint32(p.field(kv, "maxclusterrank", 32))
			k.ExplicitCluster = p.field(kv, "explicitcluster", 1) == 1
			k.Line = uint32(p.field(kv, "line", 32))
			p.im.Kernels = append(p.im.Kernels, k)
			kernel = &p.im.Kernels[len(p.im.Kernels)-1]
		case ".kparam":
			if kernel == nil {
				p.fail(1, ".kparam before .kernel")
				continue
			}
			name, kv := p.kv(rest)
			kernel.Params = append(kernel.Params, KParam{Name: name, Offset: uint32(p.field(kv, "offset", 32)), Size: uint32(p.field(kv, "size", 32)), Align: uint32(p.field(kv, "align", 32)), Type: Type(p.field(kv, "type", 8)), Ptr: p.field(kv, "ptr", 1) == 1})
		case ".pragma":
			if kernel == nil {
				p.fail(1, ".pragma before .kernel")
				continue
			}
			s, err := strconv.Unquote(rest)
			if err != nil {
				p.fail(1, "bad string")
			}
			kernel.Pragmas = append(kernel.Pragmas, s)
		case ".func":
			name, kv := p.kv(rest)
			p.im.Funcs = append(p.im.Funcs, FuncInfo{Name: name, PC: uint32(p.field(kv, "pc", 32)), End: uint32(p.field(kv, "end", 32)), Frame: uint32(p.field(kv, "frame", 32)), Regs: uint16(p.field(kv, "regs", 16)), Preds: uint16(p.field(kv, "preds", 16)), Kernel: p.field(kv, "kernel", 1) == 1})
		case ".symbol":
			name, kv := p.kv(rest)
			p.im.Symbols = append(p.im.Symbols, Symbol{Name: name, Space: uint8(p.field(kv, "space", 3)), Addr: p.field(kv, "addr", 64), Size: p.field(kv, "size", 64)})
		default:
			p.fail(1, "unknown directive %q", word)
		}
		if len(p.errs) >= 20 {
			break
		}
	}
	if err := sc.Err(); err != nil {
		p.fail(1, "%v", err)
	}
	if dataLen >= 0 && dataLen != len(p.im.Data) {
		p.fail(1, ".data_len %d but %d bytes of .data", dataLen, len(p.im.Data))
	}
	if cbankLen >= 0 && cbankLen != len(p.im.ConstBank) {
		p.fail(1, ".cbank_len %d but %d bytes of .cbank", cbankLen, len(p.im.ConstBank))
	}
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	for _, s := range p.im.Symbols {
		if s.Space >= spaceCount {
			return nil, &Error{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: fmt.Sprintf("symbol %s: bad space %d", s.Name, s.Space)}
		}
	}
	if err := p.im.Validate(); err != nil {
		return nil, &Error{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: err.Error()}
	}
	return p.im, nil
}

func last(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

type dparser struct {
	file string
	line int
	im   *Image
	errs ErrorList
}

func (p *dparser) fail(col int, format string, args ...any) {
	if len(p.errs) < 20 {
		p.errs.Add(Pos{File: p.file, Line: p.line, Col: col}, format, args...)
	}
}

func (p *dparser) num(s string, bits int) uint64 {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 0, bits)
	if err != nil {
		p.fail(1, "bad number %q (%d-bit unsigned)", s, bits)
	}
	return v
}

func (p *dparser) indexedString(rest string) (int, string) {
	idx, q, ok := strings.Cut(rest, " ")
	if !ok {
		p.fail(1, "missing string")
		return -1, ""
	}
	s, err := strconv.Unquote(q)
	if err != nil {
		p.fail(len(idx)+2, "bad quoted string")
	}
	return int(p.num(idx, 31)), s
}

func (p *dparser) kv(rest string) (string, map[string]string) {
	f := strings.Fields(rest)
	m := map[string]string{}
	if len(f) == 0 {
		p.fail(1, "missing name")
		return "", m
	}
	for _, x := range f[1:] {
		k, v, ok := strings.Cut(x, "=")
		if !ok {
			p.fail(1, "expected key=value, got %q", x)
			continue
		}
		m[k] = v
	}
	return f[0], m
}

func (p *dparser) field(kv map[string]string, key string, bits int) uint64 {
	v, ok := kv[key]
	if !ok {
		p.fail(1, "missing %s=", key)
		return 0
	}
	return p.num(v, bits)
}

func (p *dparser) dim(kv map[string]string, key string) [3]uint32 {
	var r [3]uint32
	v, ok := kv[key]
	if !ok {
		p.fail(1, "missing %s=", key)
		return r
	}
	parts := strings.Split(v, ",")
	if len(parts) != 3 {
		p.fail(1, "%s needs three values", key)
		return r
	}
	for i := range parts {
		r[i] = uint32(p.num(parts[i], 32))
	}
	return r
}

func (p *dparser) inst(line string) {
	open := strings.Index(line, "{")
	close := strings.Index(line, "}")
	if open < 0 || close < open {
		p.fail(1, "instruction line without { fields }")
		return
	}
	var in Inst
	in.A, in.B, in.C = Operand12{}, Operand12{}, Operand12{}
	var loc *LineInfo
	for _, f := range strings.Fields(line[open+1 : close]) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			p.fail(open+2, "expected key=value, got %q", f)
			return
		}
		switch k {
		case "op":
			op, ok := ParseOpcode(v)
			if !ok {
				p.fail(open+2, "unknown opcode %q", v)
				return
			}
			in.Op = op
		case "t", "t2":
			t, ok := ParseType(v)
			if !ok || !t.Encodable() {
				p.fail(open+2, "bad type %q", v)
				return
			}
			if k == "t" {
				in.Type = t
			} else {
				in.Type2 = t
			}
		case "g":
			in.GuardOn = true
			if strings.HasPrefix(v, "!") {
				in.GuardNeg = true
				v = v[1:]
			}
			in.Guard = uint8(p.num(v, 6))
		case "graw":
			a, b, _ := strings.Cut(v, ":")
			in.GuardNeg = p.num(a, 1) == 1
			in.Guard = uint8(p.num(b, 6))
		case "m":
			in.Mods = uint16(p.num(v, 16))
		case "d":
			in.Dst = uint8(p.num(v, 8))
		case "d2":
			in.Dst2 = uint8(p.num(v, 8))
		case "a", "b", "c":
			o, ok := parseOpText(v)
			if !ok {
				p.fail(open+2, "bad operand %q", v)
				return
			}
			switch k {
			case "a":
				in.A = o
			case "b":
				in.B = o
			default:
				in.C = o
			}
		case "imm":
			in.Imm = uint32(p.num(v, 32))
		case "loc":
			parts := strings.Split(v, ":")
			if len(parts) != 4 {
				p.fail(open+2, "bad loc %q", v)
				return
			}
			loc = &LineInfo{File: uint16(p.num(parts[0], 16)), Line: uint32(p.num(parts[1], 32)), Col: uint16(p.num(parts[2], 16)), Text: uint32(p.num(parts[3], 32))}
		default:
			p.fail(open+2, "unknown field %q", k)
			return
		}
	}
	if !in.Op.Valid() {
		p.fail(open+2, "undefined opcode")
		return
	}
	p.im.Code = append(p.im.Code, in)
	if loc != nil {
		p.im.Lines = append(p.im.Lines, *loc)
	}
}

func parseOpText(v string) (Operand12, bool) {
	num := func(s string, max uint64) (uint16, bool) {
		n, err := strconv.ParseUint(s, 10, 16)
		return uint16(n), err == nil && n <= max
	}
	switch {
	case v == "imm":
		return ImmOp(), true
	case v == "rz":
		return ZeroOp(), true
	case v == "fp":
		return FPOp(), true
	case strings.HasPrefix(v, "!p"):
		n, ok := num(v[2:], 63)
		return PredOp(uint8(n), true), ok
	case strings.HasPrefix(v, "p"):
		n, ok := num(v[1:], 63)
		return PredOp(uint8(n), false), ok
	case strings.HasPrefix(v, "r"):
		n, ok := num(v[1:], 255)
		return RegOp(uint8(n)), ok
	case strings.HasPrefix(v, "c"):
		n, ok := num(v[1:], 1023)
		return ConstOp(int(n)), ok
	case strings.HasPrefix(v, "s"):
		n, ok := num(v[1:], 1023)
		return Operand12{Kind: KindSpecial, Val: n}, ok
	}
	return Operand12{}, false
}
