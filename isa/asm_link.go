// Linking: relocations, line tables, kernel records and immediate placement.

package isa

import (
	"math"
	"sort"
	"strings"
)

// link lays out code, resolves relocations and fills the image.
func (a *assembler) link() {
	img := a.img
	a.fileIdx = map[string]uint16{}
	a.srcIdx = map[string]uint32{}
	pc := uint32(0)
	for _, f := range a.order {
		f.pc = pc
		pc += uint32(len(f.code))
	}
	if pc > 1<<24 {
		a.errorf(Pos{File: a.mod.File, Line: 1, Col: 1}, "program has %d instructions, more than 16M", pc)
		return
	}
	for _, f := range a.order {
		base := f.pc
		for i := range f.code {
			mi := &f.code[i]
			in := mi.in
			switch mi.reloc {
			case relocLabel:
				in.Imm = base + mi.target
			case relocFunc:
				callee := a.funcs[mi.fn]
				if callee.def == nil {
					a.errorf(mi.pos, "call to %s, which is declared but not defined in this module", mi.fn)
					continue
				}
				if mi.in.Op == OpCALL {
					in.Imm = callee.pc
				} else {
					addr := uint64(FuncAddrBase) + uint64(callee.pc) + uint64(mi.addend)
					a.placeImm(&in, mi, addr)
				}
			case relocBrTable:
				start := uint32(len(img.BrTables))
				for _, t := range mi.table {
					img.BrTables = append(img.BrTables, base+t)
				}
				in.Imm = start
			}
			if mi.targets != nil || mi.proto != nil {
				a.callTargets(img, &in, mi)
			}
			if mi.dynShared {
				a.fixDynShared(&in, mi)
			}
			img.Code = append(img.Code, in)
			img.Lines = append(img.Lines, a.lineInfo(mi.pos))
		}
		regs, preds := f.regs, f.preds
		img.Funcs = append(img.Funcs, FuncInfo{Name: f.def.Name, PC: f.pc, End: f.pc + uint32(len(f.code)), Frame: f.frame, Regs: uint16(regs), Preds: uint16(preds), Kernel: f.def.Entry})
	}
	for _, r := range a.dataRelocs {
		callee := a.funcs[r.fn]
		if callee.def == nil {
			a.errorf(r.pos, "call table entry %s is declared but not defined in this module", r.fn)
			continue
		}
		putLE((*r.bank)[r.off:r.off+r.size], uint64(FuncAddrBase)+uint64(callee.pc)+uint64(r.addend))
	}
	img.Data = a.data
	img.ConstBank = a.cbank
	img.SharedBytes = a.shared
	// Kernels.
	for _, f := range a.order {
		if !f.def.Entry {
			continue
		}
		k := a.kernelInfo(f)
		if k.MaxNReg > 0 && k.Regs > k.MaxNReg {
			pos := f.def.Pos
			for _, d := range f.def.Directives {
				if d.Name == "maxnreg" {
					pos = d.Pos
				}
			}
			a.errorf(pos, "kernel %s needs %d registers per thread, more than its .maxnreg %d", k.Name, k.Regs, k.MaxNReg)
		}
		a.img.Kernels = append(a.img.Kernels, k)
	}
	// Symbols, sorted by name for determinism.
	var names []string
	for n := range a.vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := a.vars[n]
		img.Symbols = append(img.Symbols, Symbol{Name: n, Space: uint8(v.space), Addr: v.addr, Size: v.size})
	}
	if err := img.Validate(); err != nil {
		a.errorf(Pos{File: a.mod.File, Line: 1, Col: 1}, "internal: %v", err)
	}
}

func (a *assembler) lineInfo(p Pos) LineInfo {
	fi, ok := a.fileIdx[p.File]
	if !ok {
		fi = uint16(len(a.img.Files))
		a.fileIdx[p.File] = fi
		a.img.Files = append(a.img.Files, p.File)
	}
	text := ""
	if p.Line >= 1 && p.Line <= len(a.mod.Lines) {
		text = strings.TrimSpace(a.mod.Lines[p.Line-1])
	}
	ti, ok := a.srcIdx[text]
	if !ok {
		ti = uint32(len(a.img.Source))
		a.srcIdx[text] = ti
		a.img.Source = append(a.img.Source, text)
	}
	col := p.Col
	if col > math.MaxUint16 {
		col = math.MaxUint16
	}
	return LineInfo{File: fi, Line: uint32(p.Line), Col: uint16(col), Text: ti}
}

func (a *assembler) kernelInfo(f *funcSym) Kernel {
	d := f.def
	regs, preds := a.kernelRegs(f, map[string]bool{})
	k := Kernel{Name: d.Name, PC: f.pc, Regs: uint16(regs), Preds: uint16(preds), SharedBytes: a.shared, LocalBytes: f.frame, Line: uint32(d.Pos.Line)}
	off := uint32(0)
	for _, p := range d.Params {
		al := paramAlign(p)
		off = alignUp(off, al)
		k.Params = append(k.Params, KParam{Name: p.Name, Offset: off, Size: paramSize(p), Align: al, Type: p.Type, Ptr: p.PtrSpace != "" || (p.Type.Bits() == 64 && !p.Type.Float() && p.ArrayLen == 0)})
		off += paramSize(p)
	}
	k.ParamBytes = off
	for _, pd := range d.Directives {
		args := pd.Args
		get3 := func() [3]uint32 {
			r := [3]uint32{1, 1, 1}
			for i := 0; i < 3 && i < len(args); i++ {
				r[i] = uint32(args[i])
			}
			return r
		}
		switch pd.Name {
		case "maxnreg":
			if len(args) == 1 {
				k.MaxNReg = uint16(args[0])
			}
		case "maxntid":
			k.MaxNTid = get3()
		case "reqntid":
			k.ReqNTid = get3()
		case "reqnctapercluster":
			k.ReqNCtaPerCluster = get3()
		case "minnctapersm":
			if len(args) == 1 {
				k.MinNCtaPerSM = uint32(args[0])
			}
		case "maxclusterrank":
			if len(args) == 1 {
				k.MaxClusterRank = uint32(args[0])
			}
		case "explicitcluster":
			k.ExplicitCluster = true
		case "pragma":
			k.Pragmas = append(k.Pragmas, pd.Text)
		}
	}
	return k
}

// kernelRegs is the register and predicate count of a kernel: the largest
// over every function reachable from it (callees are allocated
// independently and the caller saves what is live across a call). An
// indirect call through a .callprototype reaches every compatible
// function, as callTargets lists them.
func (a *assembler) kernelRegs(f *funcSym, seen map[string]bool) (regs, preds int) {
	if seen[f.def.Name] {
		return 0, 0
	}
	seen[f.def.Name] = true
	regs, preds = f.regs, f.preds
	visit := func(cf *funcSym) {
		if cf != nil && cf.def != nil {
			r, p := a.kernelRegs(cf, seen)
			regs, preds = max(regs, r), max(preds, p)
		}
	}
	for _, c := range f.callees {
		visit(a.funcs[c])
	}
	for _, sig := range f.protos {
		for _, cf := range a.order {
			if cf.def != nil && !cf.def.Entry && cf.sig.compatible(sig) {
				visit(cf)
			}
		}
	}
	return regs, preds
}

// placeImm puts a 64-bit immediate into the instruction: the Imm field when
// it sign-extends from 32 bits, else the constant table.
func (a *assembler) placeImm(in *Inst, mi *minst, v uint64) {
	slot := in.srcSlot(mi.immSlot)
	if uint64(int64(int32(uint32(v)))) == v {
		*slot = ImmOp()
		in.Imm = uint32(v)
	} else {
		*slot = ConstOp(a.constIndex(v, mi.pos))
	}
}

// DynamicSharedBase is where dynamic shared memory starts: after the
// module's static shared variables, 16-byte aligned.
func (im *Image) DynamicSharedBase() uint32 { return alignUp(im.SharedBytes, 16) }

// fixDynShared adds the dynamic shared segment's base to an address.
func (a *assembler) fixDynShared(in *Inst, mi *minst) {
	base := uint64(alignUp(a.shared, 16))
	if mi.dynSlot < 0 {
		in.Imm += uint32(base)
		return
	}
	slot := in.srcSlot(mi.dynSlot)
	switch slot.Kind {
	case KindImm:
		v := uint64(int64(int32(in.Imm))) + base
		if uint64(int64(int32(uint32(v)))) == v {
			in.Imm = uint32(v)
		} else {
			*slot = ConstOp(a.constIndex(v, mi.pos))
		}
	case KindConst:
		*slot = ConstOp(a.constIndex(a.img.Consts[slot.Val]+base, mi.pos))
	}
}

// callTargets lists an indirect call's allowed targets (its .calltargets
// or call table functions, or every function compatible with its
// .callprototype) as entry PCs in BrTables and points the CALL's Imm at
// them (bits 0..15: first entry + 1, bits 16..31: count; 0: no list, as
// when the list does not fit), so that the SM can report a call that
// reaches another function (seed 004: undefined behaviour).
func (a *assembler) callTargets(img *Image, in *Inst, mi *minst) {
	var pcs []uint32
	add := func(fs *funcSym) {
		if fs != nil && fs.def != nil && !fs.def.Entry {
			pcs = append(pcs, fs.pc)
		}
	}
	if mi.proto != nil {
		for _, fs := range a.order {
			if fs.sig.compatible(*mi.proto) {
				add(fs)
			}
		}
	}
	for _, n := range mi.targets {
		add(a.funcs[n])
	}
	start := len(img.BrTables)
	if len(pcs) == 0 || start+1 > 0xffff || len(pcs) > 0xffff {
		return
	}
	img.BrTables = append(img.BrTables, pcs...)
	in.Imm = uint32(start+1) | uint32(len(pcs))<<16
}
