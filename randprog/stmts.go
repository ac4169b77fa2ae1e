package randprog

import (
	"fmt"
	"strings"
)

// Nesting bounds.
const (
	maxDepth = 3 // divergent if/brx nesting
	maxLoops = 2 // nested loops
	maxExits = 2 // partial exits per kernel
	maxTraps = 3 // BPT.TRAPs per kernel
)

// kinds lists the statement kinds allowed at this point, with weights.
func (g *gen) kinds() []kind {
	fn, f := g.fn, g.f
	ks := []kind{{"op", 6}}
	if f.Compare {
		ks = append(ks, kind{"cmp", 4})
	}
	if f.Branch && fn.depth < maxDepth {
		ks = append(ks, kind{"if", 3})
	}
	if f.Loop && fn.loops < maxLoops {
		ks = append(ks, kind{"loop", 2})
	}
	if f.Call && fn.level > 0 {
		ks = append(ks, kind{"call", 2})
	}
	if f.IndirectCall && fn.kernel {
		ks = append(ks, kind{"icall", 2})
	}
	if f.BrxIdx && fn.depth < maxDepth {
		ks = append(ks, kind{"brx", 2})
	}
	uniform := fn.kernel && fn.depth == 0 && fn.loops == 0
	if f.Barrier && uniform {
		ks = append(ks, kind{"bar", 2})
	}
	if f.Exit && fn.kernel && g.exits < maxExits {
		ks = append(ks, kind{"exit", 1})
	}
	if f.Shared && fn.kernel {
		ks = append(ks, kind{"shared", 2})
	}
	if f.Global && fn.kernel {
		ks = append(ks, kind{"global", 3})
	}
	if f.GlobalNarrow && fn.kernel {
		ks = append(ks, kind{"narrow", 2})
	}
	if len(f.SRegs) > 0 {
		ks = append(ks, kind{"sreg", 2})
	}
	if f.Nanosleep {
		ks = append(ks, kind{"sleep", 1})
	}
	if f.PMEvent {
		ks = append(ks, kind{"pmevent", 1})
	}
	if f.Warp {
		ks = append(ks, kind{"warp", 2})
	}
	if f.Trap && fn.kernel && fn.loops == 0 && g.traps < maxTraps {
		ks = append(ks, kind{"trap", 1})
	}
	return ks
}

// stmts emits statements until the budget is spent.
func (g *gen) stmts() {
	for g.budget > 0 {
		g.budget--
		g.stmt()
	}
}

// block emits a nested block of at most n statements of the current
// budget (at least one statement).
func (g *gen) block(n int) {
	saved := g.budget
	k := min(1+g.r.intn(n), max(saved, 1))
	g.budget = k
	g.stmts()
	g.budget = max(saved-k, 0)
}

func (g *gen) stmt() {
	ks := g.kinds()
	total := 0
	for _, k := range ks {
		total += k.w
	}
	x := g.r.intn(total)
	var name string
	for _, k := range ks {
		if x < k.w {
			name = k.name
			break
		}
		x -= k.w
	}
	switch name {
	case "op":
		g.op()
	case "cmp":
		g.compare()
	case "if":
		g.ifElse()
	case "loop":
		g.loop()
	case "call":
		g.call()
	case "icall":
		g.icall()
	case "brx":
		g.brx()
	case "bar":
		g.barrier()
	case "exit":
		// Half the lanes by a bit of %tid.x, or a condition on a variable.
		g.exits++
		var p string
		if g.r.intn(3) == 0 {
			p = g.cond()
		} else {
			t := g.tid()
			g.ins("and.b32", t, t, g.imm(1<<g.r.intn(6)))
			p = g.tmpP()
			g.ins("setp.ne.s32", p, t, "0")
		}
		g.line("@" + p + " exit;")
	case "shared":
		g.shared()
	case "global":
		g.global()
	case "narrow":
		g.narrow()
	case "sreg":
		g.sreg()
	case "sleep":
		if g.r.intn(2) == 0 {
			g.ins("nanosleep.u32", g.imm(g.r.intn(200)))
			return
		}
		t := g.tmp32()
		g.ins("and.b32", t, g.var32(), "127")
		g.ins("nanosleep.u32", t)
	case "pmevent":
		var s string
		if g.r.intn(2) == 0 {
			s = fmt.Sprintf("pmevent %d;", g.r.intn(16))
		} else {
			s = fmt.Sprintf("pmevent.mask %#x;", 1+g.r.intn(0xffff))
		}
		if g.f.Compare && g.r.intn(3) == 0 {
			s = g.guard() + " " + s
		}
		g.line(s)
	case "warp":
		g.warpOp()
	case "trap":
		g.traps++
		s := fmt.Sprintf("BPT.TRAP %d;", 2+g.r.intn(6))
		if g.r.intn(3) == 0 {
			s = "@" + g.cond() + " " + s
		}
		g.line(s)
	}
}

// op emits one integer operation.
func (g *gen) op() {
	o := g.ops[g.r.intn(len(g.ops))]
	wide := wideOps[o.name] && g.r.intn(3) == 0
	o.emit(g, wide)
}

var cmps32 = []string{"eq", "ne", "lt", "le", "gt", "ge"}
var cmpsU = []string{"lo", "ls", "hi", "hs"}

// setp emits a comparison of two values into predicate p (optionally
// combined with predicate c), returning the text after the destination.
func (g *gen) cmpOperands() (typ, a, b string) {
	c := cmps32[g.r.intn(len(cmps32))]
	if g.r.intn(4) == 0 {
		typ = "." + g.pick("u64", "s64")
		a = g.var64()
		return "." + c + typ, a, g.other64(a)
	}
	t := g.pick("u32", "s32", "b32")
	if t == "b32" {
		c = g.pick("eq", "ne")
	} else if t == "u32" && g.r.intn(3) == 0 {
		c = cmpsU[g.r.intn(len(cmpsU))]
	}
	a = g.var32()
	return "." + c + "." + t, a, g.other32(a)
}

// cond emits a setp on variables and returns its predicate.
func (g *gen) cond() string {
	p := g.tmpP()
	sfx, a, b := g.cmpOperands()
	if g.r.intn(3) == 0 {
		// A bit test, the shape clang gives `x & m`.
		t := g.tmp32()
		g.ins("and.b32", t, g.var32(), g.imm(1<<g.r.intn(6)))
		g.ins("setp."+g.pick("eq", "ne")+".s32", p, t, "0")
		return p
	}
	g.ins("setp"+sfx, p, a, b)
	return p
}

// guard is "@p" or "@!p" of a fresh condition.
func (g *gen) guard() string {
	p := g.cond()
	if g.r.intn(2) == 0 {
		return "@!" + p
	}
	return "@" + p
}

// compare emits one of the compare/select/predicate shapes.
func (g *gen) compare() {
	switch g.r.intn(5) {
	case 0: // selp
		p := g.cond()
		if g.r.intn(3) == 0 {
			g.ins("selp.b64", g.dst64(), g.src64(), g.src64(), p)
			return
		}
		g.ins("selp."+g.pick("b32", "u32", "s32"), g.dst32(), g.src32(), g.src32(), p)
	case 1: // a predicated operation
		gd := g.guard()
		saved := g.fn.b.Len()
		g.op()
		// Put the guard on the snippet's last instruction (the one
		// writing the variable).
		text := g.fn.b.String()[saved:]
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		lines[len(lines)-1] = "\t" + gd + " " + strings.TrimPrefix(lines[len(lines)-1], "\t")
		rest := g.fn.b.String()[:saved]
		g.fn.b.Reset()
		g.fn.b.WriteString(rest + strings.Join(lines, "\n") + "\n")
	case 2: // combination with a second predicate
		q := g.cond()
		p := g.tmpP()
		sfx, a, b := g.cmpOperands()
		parts := strings.SplitN(sfx[1:], ".", 2)
		neg := ""
		if g.r.intn(3) == 0 {
			neg = "!"
		}
		g.ins("setp."+parts[0]+"."+g.pick("and", "or", "xor")+"."+parts[1], p, a, b, neg+q)
		g.ins("selp.b32", g.dst32(), g.src32(), g.src32(), p)
	case 3: // two destinations and predicate logic
		p, q, r := g.tmpP(), g.tmpP(), g.tmpP()
		sfx, a, b := g.cmpOperands()
		g.ins("setp"+sfx, p+"|"+q, a, b)
		switch g.r.intn(4) {
		case 0:
			g.ins("not.pred", r, p)
		default:
			g.ins(g.pick("and", "or", "xor")+".pred", r, p, q)
		}
		g.ins("selp.b32", g.dst32(), g.src32(), g.src32(), r)
	default: // predicate constant and logic, as clang writes `x & 1`
		p, z, x, n := g.cond(), g.tmpP(), g.tmpP(), g.tmpP()
		g.ins("mov.pred", z, g.pick("0", "1"))
		g.ins("xor.pred", x, p, z)
		g.ins("not.pred", n, x)
		g.ins("selp.b32", g.dst32(), g.src32(), g.src32(), n)
	}
}

// ifElse emits a divergent if or if/else in clang's layout.
func (g *gen) ifElse() {
	p := g.cond()
	g.fn.depth++
	defer func() { g.fn.depth-- }()
	elseL, end := g.newLabel(), g.newLabel()
	if g.r.intn(3) == 0 { // if only
		g.ins("@"+p+" bra", end)
		g.block(4)
		g.label(end)
		return
	}
	g.ins("@"+p+" bra", elseL)
	g.block(4)
	g.ins("bra.uni", end)
	g.label(elseL)
	g.block(4)
	g.label(end)
}

// loop emits a loop whose trip count, 1..8, comes from a variable (each
// lane its own), counted down in a register the body does not write.
func (g *gen) loop() {
	c := g.tmp32()
	g.ins("and.b32", c, g.var32(), "7")
	g.ins("add.s32", c, c, "1")
	top := g.newLabel()
	g.label(top)
	g.fn.loops++
	g.fn.depth++
	g.block(4)
	g.fn.depth--
	g.fn.loops--
	g.ins("add.s32", c, c, "-1")
	p := g.tmpP()
	g.ins("setp.ne.s32", p, c, "0")
	g.ins("@"+p+" bra", top)
}

// callSeq emits clang's call sequence around call (the "call ..."
// lines) with two .b32 arguments and a .b32 result in dst.
func (g *gen) callSeq(callLines []string, proto string) {
	g.callSq++
	n := g.callSq
	fmt.Fprintf(&g.fn.b, "\t{ // callseq %d, 0\n", n)
	g.line(".reg .b32 temp_param_reg;")
	for i := 0; i < 2; i++ {
		g.line(fmt.Sprintf(".param .b32 param%d;", i))
		g.ins("st.param.b32", fmt.Sprintf("[param%d+0]", i), g.src32())
	}
	g.line(".param .b32 retval0;")
	if proto != "" {
		g.line(proto)
	}
	for _, l := range callLines {
		g.fn.b.WriteString("\t" + l + "\n")
	}
	g.ins("ld.param.b32", g.dst32(), "[retval0+0]")
	fmt.Fprintf(&g.fn.b, "\t} // callseq %d\n", n)
}

// call emits a direct call of a function of a lower level.
func (g *gen) call() {
	f := funcName(g.r.intn(g.fn.level))
	g.callSeq([]string{"call.uni (retval0), ", f + ", ", "(", "param0, ", "param1", ");"}, "")
}

// icall emits an indirect call through randprog_ftab, the index masked
// from a variable (each lane its own target).
func (g *gen) icall() {
	t := g.tmp32()
	g.ins("and.b32", t, g.var32(), g.imm(g.tableLen-1))
	o, b, a, fp := g.tmp64(), g.tmp64(), g.tmp64(), g.tmp64()
	g.ins("mul.wide.u32", o, t, "8")
	g.ins("mov.u64", b, "randprog_ftab")
	g.ins("add.s64", a, b, o)
	g.ins("ld.global.u64", fp, "["+a+"]")
	g.callSq++
	proto := fmt.Sprintf("prototype_%d : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);", g.callSq)
	g.callSeq([]string{"call (retval0), ", fp + ", ", "(", "param0, ", "param1", ")", fmt.Sprintf(", prototype_%d;", g.callSq)}, proto)
}

// brx emits brx.idx over a table of 2..4 entries (targets may repeat),
// the index masked from a variable.
func (g *gen) brx() {
	n := 2 << g.r.intn(2) // 2 or 4 entries
	t := g.tmp32()
	g.ins("and.b32", t, g.var32(), g.imm(n-1))
	ntargets := 1 + g.r.intn(n)
	targets := make([]string, ntargets)
	for i := range targets {
		targets[i] = g.newLabel()
	}
	end, tbl := g.newLabel(), g.newLabel()
	entries := make([]string, n)
	for i := range entries {
		entries[i] = targets[(i+g.r.intn(ntargets))%ntargets]
	}
	g.fn.b.WriteString(tbl + ": .branchtargets " + strings.Join(entries, ", ") + ";\n")
	g.ins("brx.idx", t, tbl)
	g.fn.depth++
	for i, l := range targets {
		g.label(l)
		g.block(3)
		if i < len(targets)-1 {
			g.ins("bra.uni", end)
		}
	}
	g.fn.depth--
	g.label(end)
}

// barrier emits bar.sync or, with shared memory, an exchange: every
// thread writes its slot, bar.sync, reads the slot of thread
// (tid + d) mod ntid, bar.sync.
func (g *gen) barrier() {
	if !g.f.Shared || g.r.intn(3) == 0 {
		g.ins("bar.sync", "0")
		return
	}
	d := 1 + g.r.intn(max(g.threads-1, 1))
	wide := g.r.intn(3) == 0
	t := g.tid()
	if wide {
		g.ins("st.shared.u64", g.smemAddr(t, 0), g.var64())
	} else {
		g.ins("st.shared.u32", g.smemAddr(t, 4*g.r.intn(2)), g.var32())
	}
	g.ins("bar.sync", "0")
	// (t + d) mod n = min(t + d, t + d - n) for t < n, d < n (unsigned).
	u, v, w := g.tmp32(), g.tmp32(), g.tmp32()
	g.ins("add.s32", u, t, g.imm(d%g.threads))
	g.ins("add.s32", v, t, g.imm(d%g.threads-g.threads))
	g.ins("min.u32", w, u, v)
	if wide {
		g.ins("ld.shared.u64", g.dst64(), g.smemAddr(w, 0))
	} else {
		g.ins("ld.shared.u32", g.dst32(), g.smemAddr(w, 4*g.r.intn(2)))
	}
	g.ins("bar.sync", "0")
}

// shared reads or writes the thread's own shared slot.
func (g *gen) shared() {
	t := g.tid()
	switch g.r.intn(4) {
	case 0:
		g.ins("st.shared.u64", g.smemAddr(t, 0), g.var64())
	case 1:
		g.ins("st.shared.u32", g.smemAddr(t, 4*g.r.intn(2)), g.var32())
	case 2:
		g.ins("ld.shared.u64", g.dst64(), g.smemAddr(t, 0))
	default:
		g.ins("ld.shared.u32", g.dst32(), g.smemAddr(t, 4*g.r.intn(2)))
	}
}

// global loads from `in` or reads and writes the thread's own scratch.
func (g *gen) global() {
	switch g.r.intn(6) {
	case 0:
		g.ins("ld.global."+g.pick("u32", "s32", "b32"), g.dst32(), g.inAddr(g.var32(), 4))
	case 1:
		g.ins("ld.global.nc.u32", g.dst32(), g.inAddr(g.var32(), 4))
	case 2:
		g.ins("ld.global.u64", g.dst64(), g.inAddr(g.var32(), 8))
	case 3:
		g.ins("st.global."+g.pick("u32", "b32"), g.scratchAddr(4), g.var32())
	case 4:
		g.ins("st.global.u64", g.scratchAddr(8), g.var64())
	default:
		if g.r.intn(2) == 0 {
			g.ins("ld.global.u32", g.dst32(), g.scratchAddr(4))
		} else {
			g.ins("ld.global.u64", g.dst64(), g.scratchAddr(8))
		}
	}
}

// narrow is 8- and 16-bit global traffic.
func (g *gen) narrow() {
	size := 1 + g.r.intn(2)
	t := fmt.Sprintf("%s%d", g.pick("u", "s"), 8*size)
	switch g.r.intn(3) {
	case 0:
		g.ins("ld.global."+t, g.dst32(), g.inAddr(g.var32(), size))
	case 1:
		g.ins("st.global."+fmt.Sprintf("u%d", 8*size), g.scratchAddr(size), g.var32())
	default:
		g.ins("ld.global."+t, g.dst32(), g.scratchAddr(size))
	}
}

// sreg folds a special register into a variable.
func (g *gen) sreg() {
	name := g.f.SRegs[g.r.intn(len(g.f.SRegs))]
	wide, _ := sregWide(name)
	if wide {
		t := g.tmp64()
		g.ins("mov.u64", t, name)
		d := g.dst64()
		g.ins("xor.b64", d, d, t)
		return
	}
	t := g.tmp32()
	g.ins("mov.u32", t, name)
	d := g.dst32()
	g.ins("add.s32", d, d, t)
}

// warpOp emits a warp operation whose member mask is the lanes running
// it (activemask): a vote, a reduction or the mask itself into a
// variable; where every lane of a full warp runs (uniform kernel code, no
// exit yet, whole warps), sometimes a shuffle instead, whose source lanes
// are then all members.
func (g *gen) warpOp() {
	m := g.tmp32()
	g.ins("activemask.b32", m)
	full := g.fn.kernel && g.fn.depth == 0 && g.fn.loops == 0 && g.exits == 0 && g.threads%32 == 0
	switch n := g.r.intn(8); {
	case n == 0:
		g.ins("mov.b32", g.dst32(), m)
	case n < 3:
		q := g.cond()
		if g.r.intn(2) == 0 {
			g.ins("vote.sync.ballot.b32", g.dst32(), q, m)
			return
		}
		p := g.tmpP()
		g.ins("vote.sync."+g.pick("all", "any", "uni")+".pred", p, q, m)
		d := g.dst32()
		g.ins("selp.b32", d, g.var32(), d, p)
	case n < 5 || !full:
		op := g.pick("add", "min", "max", "and", "or", "xor")
		typ := ".b32"
		if op == "add" || op == "min" || op == "max" {
			typ = "." + g.pick("u32", "s32")
		}
		g.ins("redux.sync."+op+typ, g.dst32(), g.var32(), m)
	default:
		mode := g.pick("up", "down", "bfly", "idx")
		w := 32 >> g.r.intn(4) // segments of 32, 16, 8 or 4 lanes
		c := (32 - w) << 8
		if mode != "up" {
			c |= 31
		}
		var b string
		if g.r.intn(2) == 0 {
			b = g.imm(g.r.intn(32))
		} else {
			b = g.tmp32()
			g.ins("and.b32", b, g.var32(), "31")
		}
		d := g.dst32()
		if g.r.intn(2) == 0 {
			p := g.tmpP()
			g.ins("shfl.sync."+mode+".b32", d+"|"+p, g.var32(), b, g.imm(c), m)
			g.ins("selp.b32", d, d, g.var32(), p)
			return
		}
		g.ins("shfl.sync."+mode+".b32", d, g.var32(), b, g.imm(c), m)
	}
}
