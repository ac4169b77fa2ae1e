package randprog

import "fmt"

// An op writes one variable from variables and immediates. Operations
// that have a 64-bit form use it for a 64-bit destination variable.
type op struct {
	name string
	emit func(g *gen, wide bool)
}

// ops is every integer operation, in a fixed order.
var ops = []op{
	{"mov", func(g *gen, wide bool) {
		if wide {
			g.ins("mov.b64", g.dst64(), g.src64())
			return
		}
		g.ins("mov.u32", g.dst32(), g.src32())
	}},
	{"add", func(g *gen, wide bool) { g.bin(wide, "add", "s32", "s64") }},
	{"sub", func(g *gen, wide bool) { g.bin(wide, "sub", "s32", "s64") }},
	{"mul.lo", func(g *gen, wide bool) { g.bin(wide, "mul.lo", "s32", "u64") }},
	{"mul.hi", func(g *gen, wide bool) {
		g.bin(wide, "mul.hi", g.pick("u32", "s32"), g.pick("u64", "s64"))
	}},
	{"mul.wide", func(g *gen, _ bool) {
		g.ins("mul.wide."+g.pick("u32", "s32"), g.dst64(), g.src32r(), g.src32())
	}},
	{"mad.lo", func(g *gen, wide bool) {
		if wide {
			g.ins("mad.lo.s64", g.dst64(), g.src64r(), g.src64(), g.src64())
			return
		}
		g.ins("mad.lo.s32", g.dst32(), g.src32r(), g.src32(), g.src32())
	}},
	{"min", func(g *gen, wide bool) {
		g.bin(wide, "min", g.pick("u32", "s32"), g.pick("u64", "s64"))
	}},
	{"max", func(g *gen, wide bool) {
		g.bin(wide, "max", g.pick("u32", "s32"), g.pick("u64", "s64"))
	}},
	{"and", func(g *gen, wide bool) { g.bin(wide, "and", "b32", "b64") }},
	{"or", func(g *gen, wide bool) { g.bin(wide, "or", "b32", "b64") }},
	{"xor", func(g *gen, wide bool) { g.bin(wide, "xor", "b32", "b64") }},
	{"not", func(g *gen, wide bool) { g.unary(wide, "not", "b") }},
	{"shl", func(g *gen, wide bool) { g.shift(wide, "shl", "b32", "b64") }},
	{"shr", func(g *gen, wide bool) {
		g.shift(wide, "shr", g.pick("u32", "s32"), g.pick("u64", "s64"))
	}},
	{"cvt", func(g *gen, wide bool) {
		if wide {
			g.ins("cvt."+g.pick("u64.u32", "s64.s32"), g.dst64(), g.var32())
			return
		}
		g.ins("cvt."+g.pick("u32.u64", "s32.s64"), g.dst32(), g.var64())
	}},
	// Beyond the SM RTL's first subset.
	{"div", func(g *gen, wide bool) { g.divrem(wide, "div") }},
	{"rem", func(g *gen, wide bool) { g.divrem(wide, "rem") }},
	{"popc", func(g *gen, _ bool) { g.count("popc") }},
	{"clz", func(g *gen, _ bool) { g.count("clz") }},
	{"brev", func(g *gen, wide bool) { g.unary(wide, "brev", "b") }},
	{"bfe", func(g *gen, _ bool) {
		g.ins("bfe."+g.pick("u32", "s32"), g.dst32(), g.var32(), g.imm(g.r.intn(32)), g.imm(g.r.intn(33)))
	}},
	{"bfi", func(g *gen, _ bool) {
		g.ins("bfi.b32", g.dst32(), g.var32(), g.src32(), g.imm(g.r.intn(32)), g.imm(g.r.intn(33)))
	}},
	{"abs", func(g *gen, wide bool) { g.unary(wide, "abs", "s") }},
	{"neg", func(g *gen, wide bool) { g.unary(wide, "neg", "s") }},
	{"mul24", func(g *gen, _ bool) {
		g.ins("mul24."+g.pick("lo", "hi")+"."+g.pick("u32", "s32"), g.dst32(), g.var32(), g.src32())
	}},
	{"mad.hi", func(g *gen, _ bool) {
		g.ins("mad.hi."+g.pick("u32", "s32"), g.dst32(), g.var32(), g.src32(), g.src32())
	}},
	{"sad", func(g *gen, _ bool) {
		g.ins("sad."+g.pick("u32", "s32"), g.dst32(), g.var32(), g.src32(), g.src32())
	}},
	{"prmt", func(g *gen, _ bool) {
		g.ins("prmt.b32", g.dst32(), g.var32(), g.src32(), g.imm(g.r.intn(0x10000)))
	}},
	{"bfind", func(g *gen, _ bool) { g.ins("bfind."+g.pick("u32", "s32"), g.dst32(), g.var32()) }},
	{"shf", func(g *gen, _ bool) {
		g.ins("shf."+g.pick("l", "r")+"."+g.pick("wrap", "clamp")+".b32", g.dst32(), g.var32(), g.var32(), g.src32())
	}},
	{"lop3", func(g *gen, _ bool) {
		g.ins("lop3.b32", g.dst32(), g.var32(), g.src32(), g.src32(), g.imm(g.r.intn(256)))
	}},
	{"addc", func(g *gen, wide bool) {
		// The carry is written and read in the same snippet.
		w := g.width(wide)
		g.ins("add.cc.u"+w.bits, w.tmp(), w.v(), w.src())
		g.ins("addc.u"+w.bits, w.dst(), w.v(), w.src())
	}},
}

// wideOps have a 64-bit destination form.
var wideOps = map[string]bool{
	"mov": true, "add": true, "sub": true, "mul.lo": true, "mul.hi": true, "mul.wide": true,
	"mad.lo": true, "min": true, "max": true, "and": true, "or": true, "xor": true, "not": true,
	"shl": true, "shr": true, "cvt": true, "div": true, "rem": true, "brev": true, "abs": true,
	"neg": true, "addc": true,
}

// OpNames lists the integer operations Features.Ops takes, in a fixed
// order.
func OpNames() []string {
	out := make([]string, len(ops))
	for i, o := range ops {
		out[i] = o.name
	}
	return out
}

func lookupOp(name string) (op, bool) {
	for _, o := range ops {
		if o.name == name {
			return o, true
		}
	}
	return op{}, false
}

// bin emits a two-source operation of type t32 or t64.
func (g *gen) bin(wide bool, name, t32, t64 string) {
	if wide {
		a := g.var64()
		g.ins(name+"."+t64, g.dst64(), a, g.other64(a))
		return
	}
	a := g.var32()
	g.ins(name+"."+t32, g.dst32(), a, g.other32(a))
}

// count emits popc or clz of a 32- or 64-bit variable.
func (g *gen) count(name string) {
	if g.r.intn(3) == 0 {
		g.ins(name+".b64", g.dst32(), g.var64())
		return
	}
	g.ins(name+".b32", g.dst32(), g.var32())
}

// shift emits a shift by an immediate (in or beyond the width) or a
// register (any value: PTX clamps the amount).
func (g *gen) shift(wide bool, name, t32, t64 string) {
	var amt string
	switch g.r.intn(3) {
	case 0:
		amt = g.var32()
	default:
		amt = g.imm(g.r.intn(66))
	}
	if wide {
		g.ins(name+"."+t64, g.dst64(), g.var64(), amt)
		return
	}
	g.ins(name+"."+t32, g.dst32(), g.var32(), amt)
}

// divrem divides by a divisor forced non-zero (or 1) and, for the
// signed forms, positive (no overflow of the most negative value by -1).
func (g *gen) divrem(wide bool, name string) {
	signed := g.r.intn(2) == 0
	w := g.width(wide)
	d := w.tmp()
	if signed {
		g.ins("and.b"+w.bits, d, w.v(), "65535")
		g.ins("or.b"+w.bits, d, d, "1")
		g.ins(name+".s"+w.bits, w.dst(), w.v(), d)
		return
	}
	g.ins("or.b"+w.bits, d, w.v(), "1")
	g.ins(name+".u"+w.bits, w.dst(), w.v(), d)
}

// regs are the operand makers of one register width.
type regs struct {
	bits             string // "32" or "64", the width of the types
	tmp, v, dst, src func() string
}

// width is the operand makers of 64-bit (wide) or 32-bit registers.
func (g *gen) width(wide bool) regs {
	if wide {
		return regs{"64", g.tmp64, g.var64, g.dst64, g.src64}
	}
	return regs{"32", g.tmp32, g.var32, g.dst32, g.src32}
}

// unary emits name.<typ><bits> of one variable: typ is "b", "s" or "u".
func (g *gen) unary(wide bool, name, typ string) {
	w := g.width(wide)
	g.ins(name+"."+typ+w.bits, w.dst(), w.v())
}

// sregs are the special registers a program may read: those whose value
// is a function of the launch, the configuration and the cycle (so the
// Go model and the RTL agree on them), with their width.
var sregs = []struct {
	name string
	wide bool
}{
	{"%tid.x", false}, {"%ntid.x", false}, {"%ctaid.x", false}, {"%nctaid.x", false},
	{"%laneid", false}, {"%warpid", false}, {"%nwarpid", false}, {"%smid", false}, {"%nsmid", false},
	{"%tid.y", false}, {"%ntid.y", false}, {"%ctaid.y", false},
	{"%lanemask_eq", false}, {"%lanemask_le", false}, {"%lanemask_lt", false},
	{"%lanemask_ge", false}, {"%lanemask_gt", false},
	{"%clock", false}, {"%clock_hi", false}, {"%clock64", true},
	{"%globaltimer", true}, {"%globaltimer_lo", false},
	{"%total_smem_size", false}, {"%dynamic_smem_size", false},
}

// SRegNames lists the special registers Features.SRegs takes.
func SRegNames() []string {
	out := make([]string, len(sregs))
	for i, s := range sregs {
		out[i] = s.name
	}
	return out
}

func sregWide(name string) (wide, ok bool) {
	for _, s := range sregs {
		if s.name == name {
			return s.wide, true
		}
	}
	return false, false
}

// imm formats an integer immediate the way clang does (signed decimal).
func (g *gen) imm(v int) string { return fmt.Sprint(v) }
