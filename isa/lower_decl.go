// Lowering declarations: variables, call parameters, call signatures and call tables.

package isa

import (
	"fmt"
)

// bindCallParams gives each .param variable of block b that a call in b
// uses as an argument or return value the offset of that argument in the
// callee's argument area (the caller's outgoing area).
func (st *fnState) bindCallParams(b *Block) {
	params := map[string]*VarDecl{}
	for _, s := range b.Stmts {
		if d, ok := s.(*VarDecl); ok && d.Space == "param" {
			for _, v := range d.Vars {
				params[v.Name] = d
			}
		}
	}
	if len(params) == 0 {
		return
	}
	if st.blockParamBind == nil {
		st.blockParamBind = map[*VarDecl]map[string]uint32{}
	}
	for _, s := range b.Stmts {
		in, ok := s.(*Instr)
		if !ok || in.Op != "call" {
			continue
		}
		sig, ok := st.callSignature(in, false)
		if !ok {
			sig, ok = st.blockCallSignature(b, in)
		}
		if !ok {
			continue
		}
		retOff, parOff, size := sig.layout()
		if size > st.outSize {
			st.outSize = size
		}
		ops := in.Operands
		i := 0
		bind := func(o Operand, off uint32) {
			var name string
			switch o := o.(type) {
			case *SymOperand:
				name = o.Name
			case *RegOperand:
				name = o.Name
			}
			if d, ok := params[name]; ok {
				m := st.blockParamBind[d]
				if m == nil {
					m = map[string]uint32{}
					st.blockParamBind[d] = m
				}
				m[name] = off
			}
		}
		if i < len(ops) {
			if l, ok := ops[i].(*ListOperand); ok {
				for j, e := range l.Elems {
					if j < len(retOff) {
						bind(e, retOff[j])
					}
				}
				i++
			}
		}
		i++ // callee
		if i < len(ops) {
			if l, ok := ops[i].(*ListOperand); ok {
				for j, e := range l.Elems {
					if j < len(parOff) {
						bind(e, parOff[j])
					}
				}
			}
		}
	}
}

func (st *fnState) varDecl(d *VarDecl) {
	switch d.Space {
	case "reg":
		if !d.Type.Encodable() {
			st.a.errorf(d.Pos, "unsupported: register type .%s", d.Type)
			return
		}
		for _, v := range d.Vars {
			if len(v.Dims) > 0 || v.Init != nil {
				st.a.errorf(v.Pos, "unsupported: register arrays and initialized registers")
				continue
			}
			names := []string{v.Name}
			if v.Range > 0 {
				if v.Range > 1<<16 {
					st.a.errorf(v.Pos, "%s<%d>: too many registers", v.Name, v.Range)
					continue
				}
				names = names[:0]
				for i := 0; i < v.Range; i++ {
					names = append(names, fmt.Sprintf("%s%d", v.Name, i))
				}
			}
			for _, n := range names {
				if d.Vec > 0 {
					e := &entity{kind: entVec, typ: d.Type, pos: v.Pos}
					for i := 0; i < d.Vec; i++ {
						e.comps = append(e.comps, st.newVreg(n+"."+"xyzw"[i:i+1], d.Type, v.Pos))
					}
					st.declare(n, e, v.Pos)
					continue
				}
				st.declare(n, &entity{kind: entReg, v: st.newVreg(n, d.Type, v.Pos), typ: d.Type, pos: v.Pos}, v.Pos)
			}
		}
	case "local", "param":
		if !d.Type.Encodable() || d.Type == Pred {
			st.a.errorf(d.Pos, "unsupported: .%s variable of type .%s", d.Space, d.Type)
			return
		}
		bind := st.blockParamBind[d]
		for _, v := range d.Vars {
			elem := uint32(d.Type.Bytes())
			if d.Vec > 0 {
				elem *= uint32(d.Vec)
			}
			n := uint32(1)
			for _, x := range v.Dims {
				if x <= 0 || x > 1<<20 {
					st.a.errorf(v.Pos, "bad array size for %s", v.Name)
					return
				}
				n *= uint32(x)
			}
			size := elem * n
			if size > 1<<20 {
				st.a.errorf(v.Pos, "%s is too large for a thread's frame", v.Name)
				return
			}
			if v.Init != nil {
				st.a.errorf(v.Pos, "unsupported: initialized .%s variable", d.Space)
			}
			if off, ok := bind[v.Name]; ok && d.Space == "param" {
				st.declare(v.Name, &entity{kind: entFrame, off: off, out: true, typ: d.Type, size: size, pos: v.Pos}, v.Pos)
				continue
			}
			al := uint32(d.Align)
			if al == 0 {
				al = elem
			}
			st.locals = alignUp(st.locals, al)
			vs := &varSym{name: v.Name, space: SpaceLocal, addr: uint64(st.locals), size: uint64(size), elem: d.Type, pos: v.Pos}
			st.locals += size
			if st.locals > 1<<22 {
				st.a.errorf(v.Pos, "frame of %s exceeds 4 MiB", st.f.Name)
				return
			}
			if d.Space == "param" {
				st.declare(v.Name, &entity{kind: entFrame, off: uint32(vs.addr), typ: d.Type, size: size, pos: v.Pos}, v.Pos)
			} else {
				st.declare(v.Name, &entity{kind: entMem, mem: vs, typ: d.Type, size: size, pos: v.Pos}, v.Pos)
			}
		}
	case "shared", "global", "const":
		prefix := st.f.Name + "::"
		for _, vs := range st.a.declareMemVars(d, prefix) {
			st.declare(vs.name, &entity{kind: entMem, mem: vs, typ: d.Type, pos: vs.pos}, vs.pos)
		}
	default:
		st.a.errorf(d.Pos, "unsupported: .%s declaration inside a function", d.Space)
	}
}

// callSignature finds the signature a call uses (callee, flist or fproto).
func (st *fnState) callSignature(in *Instr, report bool) (signature, bool) {
	ops := in.Operands
	i := 0
	if i < len(ops) {
		if _, ok := ops[i].(*ListOperand); ok {
			i++
		}
	}
	if i >= len(ops) {
		return signature{}, false
	}
	switch c := ops[i].(type) {
	case *SymOperand:
		if fs, ok := st.a.funcs[c.Name]; ok {
			return fs.sig, true
		}
		if e := st.sc.lookup(c.Name); e != nil && e.kind == entReg {
			break
		}
		return signature{}, false
	case *RegOperand:
	default:
		return signature{}, false
	}
	// Indirect: the last operand names the flist/fproto.
	last := ops[len(ops)-1]
	if s, ok := last.(*SymOperand); ok {
		if e := st.sc.lookup(s.Name); e != nil && (e.kind == entCallProto || e.kind == entCallTargets) {
			return e.sig, true
		}
		if e := st.lookupCallTableSig(s.Name); e != nil {
			return *e, true
		}
	}
	return signature{}, false
}

// lookupCallTableSig: a call table is an array variable initialized with
// function names; its signature is that of its first function.
func (st *fnState) lookupCallTableSig(name string) *signature {
	d := st.findVarDecl(name)
	if d == nil {
		return nil
	}
	for _, v := range d.Vars {
		if v.Name != name || v.Init == nil {
			continue
		}
		var first string
		var walk func(in *Init)
		walk = func(in *Init) {
			if first != "" {
				return
			}
			if in.List != nil {
				for _, e := range in.List {
					walk(e)
				}
				return
			}
			if s, ok := in.Value.(*SymOperand); ok {
				if _, isF := st.a.funcs[s.Name]; isF {
					first = s.Name
				}
			}
		}
		walk(v.Init)
		if first != "" {
			sig := st.a.funcs[first].sig
			return &sig
		}
	}
	return nil
}

func (st *fnState) findVarDecl(name string) *VarDecl {
	for _, d := range st.a.mod.Decls {
		if vd, ok := d.(*VarDecl); ok {
			for _, v := range vd.Vars {
				if v.Name == name {
					return vd
				}
			}
		}
	}
	var find func(b *Block) *VarDecl
	find = func(b *Block) *VarDecl {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *VarDecl:
				for _, v := range s.Vars {
					if v.Name == name {
						return s
					}
				}
			case *Block:
				if d := find(s); d != nil {
					return d
				}
			}
		}
		return nil
	}
	return find(st.f.Body)
}

// blockCallSignature finds the prototype or target list of an indirect call
// declared later in the same block (clang declares prototype_N just before the call).
func (st *fnState) blockCallSignature(b *Block, in *Instr) (signature, bool) {
	if len(in.Operands) == 0 {
		return signature{}, false
	}
	name, _, _ := identOf(in.Operands[len(in.Operands)-1])
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *CallPrototype:
			if s.Name == name {
				return signature{rets: paramSig(s.Rets), params: paramSig(s.Params)}, true
			}
		case *CallTargets:
			if s.Name == name && len(s.Funcs) > 0 {
				if fs, ok := st.a.funcs[s.Funcs[0].Name]; ok {
					return fs.sig, true
				}
			}
		}
	}
	return signature{}, false
}
