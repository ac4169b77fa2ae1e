package randprog

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// Limits bound a program to what its target holds.
type Limits struct {
	MaxRegs    int // 32-bit registers per thread after allocation (0: no limit)
	MaxPreds   int // predicates per thread (0: no limit)
	MaxThreads int // threads per CTA (0: 256)
	MaxCTAs    int // CTAs of a MultiCTA grid, 2..MaxCTAs (0: 4; 1: one CTA)
}

// Program is one generated kernel and its launch.
type Program struct {
	Seed     uint64
	Features Features
	Entry    string
	PTX      []byte
	Launch   pipeline.Launch
	// TrapHandler is the .func to configure as trap.handler ("" when the
	// program has no BPT.TRAP).
	TrapHandler string
	// Image is the assembled PTX (Generate assembles every program).
	Image *isa.Image
	// RecordWords is the 32-bit words of `out` per thread (global thread
	// index order); word TagWord of a record is Tag(global index) once
	// the thread has run to its end (exited threads leave it 0).
	RecordWords, TagWord int
}

// Tag is the value the epilogue stores into word TagWord of the record
// of the thread with global index i.
func Tag(i uint32) uint32 { return i*2654435761 + 1 }

// Entry is the generated kernel's name; its parameters are
// Entry_param_0 (out), _1 (in), _2 (scratch) and _3 (the scalar k).
const Entry = "randprog"

// TrapHandlerName is the handler .func of a program with Trap.
const TrapHandlerName = "randprog_trap_handler"

// Sizes of the buffers in 32-bit words.
const (
	scratchWords = 4 // per thread
	maxAttempts  = 8
)

// Generate writes the program of seed with features f inside lim. It
// assembles the kernel (isa.AssembleSource) and, when the allocation
// exceeds lim's registers or predicates, generates again smaller (each
// attempt is deterministic); an error means no attempt fitted or the
// generator produced a kernel the assembler refuses (a bug).
func Generate(seed uint64, f Features, lim Limits) (*Program, error) {
	for _, n := range f.Ops {
		if _, ok := lookupOp(n); !ok {
			return nil, fmt.Errorf("randprog: unknown operation %q", n)
		}
	}
	for _, n := range f.SRegs {
		if _, ok := sregWide(n); !ok {
			return nil, fmt.Errorf("randprog: unknown special register %q", n)
		}
	}
	if lim.MaxThreads <= 0 {
		lim.MaxThreads = 256
	}
	if lim.MaxCTAs <= 0 {
		lim.MaxCTAs = 4
	}
	if lim.MaxRegs != 0 && lim.MaxRegs < 12 {
		return nil, fmt.Errorf("randprog: %d registers are too few (the base program needs 12)", lim.MaxRegs)
	}
	var last string
	for attempt := 0; attempt < maxAttempts; attempt++ {
		p := generate(seed, attempt, f, lim)
		im, err := isa.AssembleSource(fmt.Sprintf("rand-%016x.ptx", seed), p.PTX)
		if err != nil {
			return nil, fmt.Errorf("randprog: seed %#x: the generated kernel does not assemble: %v", seed, err)
		}
		k, ok := im.Kernel(Entry)
		if !ok {
			return nil, fmt.Errorf("randprog: seed %#x: no kernel %s", seed, Entry)
		}
		if (lim.MaxRegs == 0 || int(k.Regs) <= lim.MaxRegs) && (lim.MaxPreds == 0 || int(k.Preds) <= lim.MaxPreds) {
			p.Image = im
			return p, nil
		}
		last = fmt.Sprintf("%d registers, %d predicates", k.Regs, k.Preds)
	}
	return nil, fmt.Errorf("randprog: seed %#x: no attempt fits %d registers and %d predicates (last: %s)", seed, lim.MaxRegs, lim.MaxPreds, last)
}

// kind is a statement kind and its weight.
type kind struct {
	name string
	w    int
}

// gen is the state of one generation.
type gen struct {
	r   rng
	f   Features
	lim Limits
	ops []op

	threads, ctas int
	bx, by        int // the block's shape (threads = bx*by)
	inWords       int
	nfuncs        int
	tableLen      int

	fn     *fnState
	out    strings.Builder // the module text after the header
	budget int             // statements left for the current function
	exits  int
	traps  int
	callSq int // callseq counter
}

// fnState is the function being written.
type fnState struct {
	b        strings.Builder
	id       int // label prefix $L__BB<id>_
	kernel   bool
	level    int // a callee may call functions of a lower level
	nr, nrd  int // highest %r, %rd used
	np       int
	label    int
	v32, v64 []string
	depth    int // divergent nesting
	loops    int
	smem     bool
}

func generate(seed uint64, attempt int, f Features, lim Limits) *Program {
	g := &gen{r: newRNG(seed, uint64(attempt)), f: f, lim: lim}
	for _, n := range f.Ops {
		o, _ := lookupOp(n)
		g.ops = append(g.ops, o)
	}
	if len(g.ops) == 0 {
		o, _ := lookupOp("mov")
		g.ops = []op{o}
	}
	scale := maxAttempts - attempt // 8 .. 1
	// Launch shape: often whole warps, sometimes a partial last warp.
	switch g.r.intn(3) {
	case 0:
		g.threads = 1 + g.r.intn(lim.MaxThreads)
	default:
		g.threads = 32 * (1 + g.r.intn(max(lim.MaxThreads/32, 1)))
		g.threads = min(g.threads, lim.MaxThreads)
	}
	g.bx, g.by = g.threads, 1
	if f.Block2D && lim.MaxThreads >= 2 {
		g.by = 2 + g.r.intn(min(lim.MaxThreads, 4)-1)
		g.bx = max(g.threads/g.by, 1)
		g.threads = g.bx * g.by
	}
	g.ctas = 1
	if f.MultiCTA && lim.MaxCTAs >= 2 {
		g.ctas = 2 + g.r.intn(lim.MaxCTAs-1)
	}
	g.inWords = 64 << g.r.intn(3)
	if f.Call || f.IndirectCall {
		g.nfuncs = 1 + g.r.intn(3)
	}
	if f.IndirectCall {
		g.tableLen = 4
	}

	p := &Program{Seed: seed, Features: f, Entry: Entry}
	var b strings.Builder
	b.WriteString("//\n// Generated by smsim randprog (seed " + fmt.Sprintf("%#x", seed) + ", features: " + f.String() + ")\n//\n\n")
	b.WriteString(".version 7.8\n.target sm_90\n.address_size 64\n\n")
	for i := 0; i < g.nfuncs; i++ {
		g.function(i, scale)
	}
	if g.tableLen > 0 {
		var names []string
		for i := 0; i < g.tableLen; i++ {
			names = append(names, funcName(g.r.intn(g.nfuncs)))
		}
		fmt.Fprintf(&g.out, ".visible .global .align 8 .u64 randprog_ftab[%d] = {%s};\n\n", g.tableLen, strings.Join(names, ", "))
	}
	if f.Trap {
		fmt.Fprintf(&g.out, trapHandlerPTX, g.threads*g.ctas)
		p.TrapHandler = TrapHandlerName
	}
	nv32, nv64 := 2+g.r.intn(2+scale/2), 1+g.r.intn(1+scale/4)
	if lim.MaxRegs != 0 {
		nv32, nv64 = min(nv32, 2+scale/2), min(nv64, 1+scale/6)
	}
	g.kernel(nv32, nv64, scale)
	b.WriteString(g.out.String())
	p.PTX = []byte(b.String())

	// The launch.
	total := g.threads * g.ctas
	slots, tag := recordWords(nv32, nv64, f.Trap)
	p.RecordWords, p.TagWord = slots, tag
	in := make([]byte, 4*g.inWords)
	for i := range g.inWords {
		binary.LittleEndian.PutUint32(in[4*i:], g.r.word())
	}
	scratch := make([]byte, 4*scratchWords*total)
	for i := range scratchWords * total {
		binary.LittleEndian.PutUint32(scratch[4*i:], g.r.word())
	}
	p.Launch = pipeline.Launch{
		Entry: Entry,
		Grid:  [3]uint32{uint32(g.ctas), 1, 1}, Block: [3]uint32{uint32(g.bx), uint32(g.by), 1},
		Args: map[string]uint64{paramName(g.kparam()): uint64(g.r.word())},
		Buffers: []pipeline.Buffer{
			{Param: paramName(0), Size: 4 * slots * total},
			{Param: paramName(1), Size: len(in), Init: in},
			{Param: paramName(2), Size: len(scratch), Init: scratch},
		},
	}
	return p
}

// recordWords is the words of `out` per thread: the 64-bit variables
// first (aligned), then the 32-bit ones, then with Trap the thread's trap
// log word, then the tag, rounded up to an even count; and the tag's word.
func recordWords(nv32, nv64 int, trap bool) (words, tag int) {
	tag = 2*nv64 + nv32
	if trap {
		tag++
	}
	return (tag + 2) &^ 1, tag
}

func paramName(i int) string { return fmt.Sprintf("%s_param_%d", Entry, i) }

func funcName(i int) string { return fmt.Sprintf("randprog_f%d", i) }

// kparam is the index of the scalar parameter k.
func (g *gen) kparam() int { return 3 }

// trapHandlerPTX is the trap handler: each thread of a warp in the
// handler multiplies its word of randprog_trap_log by 31 and adds the
// warp ESR's trap reason plus one (warps taken in by another warp's trap
// log reason 0), then returns with RTT. The kernel copies each thread's
// word into its record of `out` at the end. %d is the number of words.
const trapHandlerPTX = `.visible .global .align 4 .u32 randprog_trap_log[%d];

.visible .func randprog_trap_handler()
{
	.reg .b32 	%%r<10>;
	.reg .b64 	%%rd<4>;

	S2R %%r1, SR_WARP_ESR;
	and.b32  	%%r2, %%r1, 7;
	mov.u32 	%%r3, %%ntid.x;
	mov.u32 	%%r4, %%tid.y;
	mov.u32 	%%r5, %%tid.x;
	mad.lo.s32 	%%r5, %%r4, %%r3, %%r5;
	mov.u32 	%%r4, %%ntid.y;
	mul.lo.s32 	%%r4, %%r3, %%r4;
	mov.u32 	%%r3, %%ctaid.x;
	mad.lo.s32 	%%r6, %%r3, %%r4, %%r5;
	mov.u64 	%%rd1, randprog_trap_log;
	mul.wide.u32 	%%rd2, %%r6, 4;
	add.s64 	%%rd3, %%rd1, %%rd2;
	ld.global.u32 	%%r7, [%%rd3];
	mad.lo.s32 	%%r8, %%r7, 31, %%r2;
	add.s32 	%%r9, %%r8, 1;
	st.global.u32 	[%%rd3], %%r9;
	RTT;
	ret;

}

`

// begin starts a function.
func (g *gen) begin(id int, kernel bool) *fnState {
	g.fn = &fnState{id: id, kernel: kernel, level: id}
	return g.fn
}

// finish writes the function: the header, the register declarations
// and the body.
func (g *gen) finish(header string) {
	fn := g.fn
	g.out.WriteString(header)
	g.out.WriteString("{\n")
	if fn.np > 0 {
		fmt.Fprintf(&g.out, "\t.reg .pred \t%%p<%d>;\n", fn.np+1)
	}
	fmt.Fprintf(&g.out, "\t.reg .b32 \t%%r<%d>;\n", fn.nr+1)
	fmt.Fprintf(&g.out, "\t.reg .b64 \t%%rd<%d>;\n", fn.nrd+1)
	if fn.smem {
		fmt.Fprintf(&g.out, "\t.shared .align 8 .b8 randprog_smem[%d];\n", 8*g.threads)
	}
	g.out.WriteString("\n")
	g.out.WriteString(fn.b.String())
	g.out.WriteString("\n}\n")
}

// function writes callee i: two .b32 parameters, a .b32 return value.
func (g *gen) function(i, scale int) {
	fn := g.begin(i, false)
	name := funcName(i)
	a, b := g.tmp32(), g.tmp32()
	g.ins("ld.param.u32", a, "["+name+"_param_0]")
	g.ins("ld.param.u32", b, "["+name+"_param_1]")
	fn.v32 = []string{a, b}
	w := g.tmp64()
	g.ins("mul.wide.u32", w, a, g.imm(int(g.r.word()>>1)|1))
	fn.v64 = []string{w}
	g.budget = 2 + g.r.intn(2+scale/2)
	g.stmts()
	if g.r.intn(3) != 0 { // a divergent return
		g.ins("st.param.b32", "[func_retval0+0]", g.var32())
		p := g.cond()
		g.line("@" + p + " ret;")
		g.budget = 1 + g.r.intn(3)
		g.stmts()
	}
	res := g.tmp32()
	g.ins("cvt.u32.u64", res, g.var64())
	g.ins("xor.b32", res, res, g.var32())
	g.ins("st.param.b32", "[func_retval0+0]", res)
	g.ins("ret")
	g.finish(fmt.Sprintf(".visible .func  (.param .b32 func_retval0) %s(\n\t.param .b32 %s_param_0,\n\t.param .b32 %s_param_1\n)\n", name, name, name))
	g.out.WriteString("\n")
}

// kernel writes the kernel: prologue, statements, epilogue.
func (g *gen) kernel(nv32, nv64, scale int) {
	fn := g.begin(g.nfuncs, true)
	fn.level = g.nfuncs
	k := g.tmp32()
	g.ins("ld.param.u32", k, "["+paramName(g.kparam())+"]")
	gt := g.gtid()
	for i := 0; i < nv64; i++ {
		v := g.tmp64()
		g.ins("mul.wide.u32", v, gt, g.imm(int(g.r.word()|1)))
		fn.v64 = append(fn.v64, v)
	}
	for i := 0; i < nv32; i++ {
		v := g.tmp32()
		switch {
		case i == 0:
			g.ins("mad.lo.s32", v, gt, g.imm(int(int32(g.r.word()|1))), k)
		case g.f.Global && g.r.intn(2) == 0:
			g.ins("ld.global.u32", v, g.inAddr(gt, 4))
		default:
			g.ins("mad.lo.s32", v, gt, g.imm(int(int32(g.r.word()))), g.imm(int(int32(g.r.word()))))
		}
		fn.v32 = append(fn.v32, v)
	}
	if g.f.Shared {
		fn.smem = true
		g.ins("st.shared.u64", g.smemAddr(g.tid(), 0), fn.v64[0])
		if g.f.Barrier {
			g.ins("bar.sync", "0")
		}
	}
	g.budget = 5 + g.r.intn(5+4*scale)
	g.stmts()
	// Epilogue: the record of each thread.
	gt = g.gtid()
	base := g.globalPtr(0)
	off := g.tmp64()
	words, tag := recordWords(nv32, nv64, g.f.Trap)
	g.ins("mul.wide.u32", off, gt, g.imm(4*words))
	a := g.tmp64()
	g.ins("add.s64", a, base, off)
	for i, v := range fn.v64 {
		g.ins("st.global.u64", fmt.Sprintf("[%s+%d]", a, 8*i), v)
	}
	for i, v := range fn.v32 {
		g.ins("st.global.u32", fmt.Sprintf("[%s+%d]", a, 8*nv64+4*i), v)
	}
	if g.f.Trap {
		// The thread's trap log word, after its 32-bit variables.
		o, b, l := g.tmp64(), g.tmp64(), g.tmp64()
		g.ins("mul.wide.u32", o, gt, "4")
		g.ins("mov.u64", b, "randprog_trap_log")
		g.ins("add.s64", l, b, o)
		w := g.tmp32()
		g.ins("ld.global.u32", w, "["+l+"]")
		g.ins("st.global.u32", fmt.Sprintf("[%s+%d]", a, 8*nv64+4*nv32), w)
	}
	tv := g.tmp32()
	g.ins("mad.lo.s32", tv, gt, "-1640531535", "1")
	g.ins("st.global.u32", fmt.Sprintf("[%s+%d]", a, 4*tag), tv)
	g.ins("ret")
	var params []string
	n := g.kparam()
	for i := 0; i < n; i++ {
		params = append(params, "\t.param .u64 "+paramName(i))
	}
	params = append(params, "\t.param .u32 "+paramName(n))
	g.finish(fmt.Sprintf("\t// .globl\t%s\n.visible .entry %s(\n%s\n)\n", Entry, Entry, strings.Join(params, ",\n")))
}

// ---- emission helpers

func (g *gen) line(s string) { g.fn.b.WriteString("\t" + s + "\n") }

func (g *gen) label(l string) { g.fn.b.WriteString(l + ":\n") }

// ins emits one instruction: "op \ta, b, c;".
func (g *gen) ins(opc string, args ...string) {
	if len(args) == 0 {
		g.line(opc + ";")
		return
	}
	g.line(opc + " \t" + strings.Join(args, ", ") + ";")
}

func (g *gen) newLabel() string {
	g.fn.label++
	return fmt.Sprintf("$L__BB%d_%d", g.fn.id, g.fn.label)
}

func (g *gen) tmp32() string { g.fn.nr++; return fmt.Sprintf("%%r%d", g.fn.nr) }
func (g *gen) tmp64() string { g.fn.nrd++; return fmt.Sprintf("%%rd%d", g.fn.nrd) }
func (g *gen) tmpP() string  { g.fn.np++; return fmt.Sprintf("%%p%d", g.fn.np) }

func (g *gen) pick(a ...string) string { return a[g.r.intn(len(a))] }

func (g *gen) var32() string { return g.fn.v32[g.r.intn(len(g.fn.v32))] }
func (g *gen) var64() string { return g.fn.v64[g.r.intn(len(g.fn.v64))] }
func (g *gen) dst32() string { return g.var32() }
func (g *gen) dst64() string { return g.var64() }

// src32 is a variable or an immediate; src32r a variable.
func (g *gen) src32() string {
	if g.r.intn(10) < 3 {
		return g.imm(int(g.r.interesting32()))
	}
	return g.var32()
}

func (g *gen) src32r() string { return g.var32() }

// other32 is a variable other than a when there is one, or an immediate:
// the second operand of a two-source operation (x-x, x==x are dull).
func (g *gen) other32(a string) string {
	if g.r.intn(10) < 3 || len(g.fn.v32) < 2 {
		return g.imm(int(g.r.interesting32()))
	}
	for {
		if v := g.var32(); v != a {
			return v
		}
	}
}

func (g *gen) other64(a string) string {
	if g.r.intn(10) < 3 || len(g.fn.v64) < 2 {
		return fmt.Sprint(g.r.interesting64())
	}
	for {
		if v := g.var64(); v != a {
			return v
		}
	}
}

func (g *gen) src64() string {
	if g.r.intn(10) < 3 {
		return fmt.Sprint(g.r.interesting64())
	}
	return g.var64()
}

func (g *gen) src64r() string { return g.var64() }

// tid reads %tid.x into a temporary; gtid is %ctaid.x*%ntid.x+%tid.x.
// With Block2D the thread index is %tid.y*%ntid.x+%tid.x and a CTA has
// %ntid.x*%ntid.y threads.
func (g *gen) tid() string {
	t := g.tmp32()
	g.ins("mov.u32", t, "%tid.x")
	if g.by == 1 {
		return t
	}
	y, n, r := g.tmp32(), g.tmp32(), g.tmp32()
	g.ins("mov.u32", y, "%tid.y")
	g.ins("mov.u32", n, "%ntid.x")
	g.ins("mad.lo.s32", r, y, n, t)
	return r
}

func (g *gen) gtid() string {
	c, n := g.tmp32(), g.tmp32()
	g.ins("mov.u32", c, "%ctaid.x")
	g.ins("mov.u32", n, "%ntid.x")
	if g.by > 1 {
		y, m := g.tmp32(), g.tmp32()
		g.ins("mov.u32", y, "%ntid.y")
		g.ins("mul.lo.s32", m, n, y)
		n = m
	}
	t := g.tid()
	r := g.tmp32()
	g.ins("mad.lo.s32", r, c, n, t)
	return r
}

// globalPtr loads pointer parameter i as a global address.
func (g *gen) globalPtr(i int) string {
	p, q := g.tmp64(), g.tmp64()
	g.ins("ld.param.u64", p, "["+paramName(i)+"]")
	g.ins("cvta.to.global.u64", q, p)
	return q
}

// inAddr is "[addr]" of `in` at an index taken from idx (masked into
// the buffer), aligned to size bytes (1, 2, 4 or 8).
func (g *gen) inAddr(idx string, size int) string {
	base := g.globalPtr(1)
	t, w := g.tmp32(), g.tmp64()
	if size >= 4 {
		g.ins("and.b32", t, idx, g.imm(g.inWords-size/4))
		g.ins("mul.wide.u32", w, t, "4")
	} else {
		g.ins("and.b32", t, idx, g.imm(g.inWords*4-size))
		g.ins("cvt.u64.u32", w, t)
	}
	a := g.tmp64()
	g.ins("add.s64", a, base, w)
	return "[" + a + "]"
}

// scratchAddr is "[addr+off]" of the thread's own scratch slots, at a
// byte offset below 16 aligned to size.
func (g *gen) scratchAddr(size int) string {
	base := g.globalPtr(2)
	gt := g.gtid()
	o := g.tmp64()
	g.ins("mul.wide.u32", o, gt, g.imm(4*scratchWords))
	a := g.tmp64()
	g.ins("add.s64", a, base, o)
	off := size * g.r.intn(16/size)
	if off == 0 {
		return "[" + a + "]"
	}
	return fmt.Sprintf("[%s+%d]", a, off)
}

// smemAddr is "[addr]" of the 8-byte shared slot of thread t (+off).
func (g *gen) smemAddr(t string, off int) string {
	o, s, a := g.tmp64(), g.tmp64(), g.tmp64()
	g.ins("mul.wide.u32", o, t, "8")
	g.ins("mov.u64", s, "randprog_smem")
	g.ins("add.s64", a, s, o)
	if off == 0 {
		return "[" + a + "]"
	}
	return fmt.Sprintf("[%s+%d]", a, off)
}
