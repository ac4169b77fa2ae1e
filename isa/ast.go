package isa

// The abstract syntax tree of a PTX module, as the parser produces it. The
// parser checks syntax only; the assembler (Assemble) checks meaning.

// Module is one parsed PTX source file.
type Module struct {
	File        string
	Version     string // ".version 7.8" -> "7.8"
	Target      []string
	AddressSize int // 32 or 64; 0 when absent
	// AddressSizePos is the position of the .address_size directive.
	AddressSizePos Pos
	Decls          []Decl
	Lines          []string // source lines, for diagnostics and the disassembler
}

// Decl is a module-scope declaration: *VarDecl or *Func.
type Decl interface{ declPos() Pos }

// Func is a .entry or .func, with or without a body.
type Func struct {
	Pos        Pos
	Name       string
	Entry      bool     // .entry (kernel) rather than .func
	Linkage    string   // "", "visible", "extern" or "weak"
	Attrs      []string // .attribute(...) contents, e.g. ".unified"; "noreturn" for .noreturn
	Rets       []*Param // return parameters (.func only)
	Params     []*Param
	Directives []*PerfDirective
	Body       *Block // nil for a prototype (declaration without body)
}

func (f *Func) declPos() Pos { return f.Pos }

// Param is one formal parameter: ".param .u64 .ptr .global .align 8 name" or ".reg .u32 name".
type Param struct {
	Pos      Pos
	Space    string // "param" or "reg"
	Type     Type
	Align    int    // 0 when absent
	PtrSpace string // for ".ptr .global": "global"; "" when absent
	Name     string
	ArrayLen int // ".param .b8 p[16]" -> 16; 0 for a scalar (a vector: its length)
	Vec      int // ".reg .v4 .f32 v" -> 4: a vector register parameter; 0 otherwise
}

// PerfDirective is a performance-tuning directive between the signature and
// the body: .maxnreg .maxntid .reqntid .minnctapersm .explicitcluster
// .reqnctapercluster .maxclusterrank .noreturn, or .pragma "text".
type PerfDirective struct {
	Pos  Pos
	Name string  // without the dot: "maxntid"
	Args []int64 // numeric arguments
	Text string  // for .pragma: the string contents
}

// Block is a "{ ... }" statement list; it opens a scope.
type Block struct {
	Pos   Pos
	End   Pos // position of the closing brace
	Stmts []Stmt
}

// Stmt is a statement inside a function body: *Instr, *Label, *Block,
// *VarDecl, *BranchTargets, *CallTargets, *CallPrototype or *PragmaStmt.
type Stmt interface{ stmtPos() Pos }

func (b *Block) stmtPos() Pos { return b.Pos }

// Label is "name:" on its own (a label naming a .branchtargets, .calltargets
// or .callprototype directive is stored in that directive instead).
type Label struct {
	Pos  Pos
	Name string
}

func (l *Label) stmtPos() Pos { return l.Pos }

// VarDecl declares variables in a state space: .reg, .local, .shared,
// .global, .const, .param (inside a body), .tex/.texref (refused later).
type VarDecl struct {
	Pos     Pos
	Linkage string // "", "visible", "extern", "weak", "common"
	Space   string // "reg", "local", "shared", "global", "const", "param", "sreg", "texref", ...
	Align   int
	Vec     int // 0, 2 or 4 (".v4 .b32 %rx")
	Type    Type
	Vars    []*Var
}

func (d *VarDecl) declPos() Pos { return d.Pos }
func (d *VarDecl) stmtPos() Pos { return d.Pos }

// Var is one declared name: "%r<4>" (Range 4: %r0..%r3), "buf[16]", "x = 5".
type Var struct {
	Pos   Pos
	Name  string
	Range int   // >0 for the "%r<N>" form: the names are Name0 .. Name(N-1)
	Dims  []int // array dimensions; -1 for "[]" (size from the initializer)
	Init  *Init // nil when absent
}

// Init is an initializer: a scalar expression or a brace list.
type Init struct {
	Pos   Pos
	List  []*Init // non-nil for "{ ... }"
	Value Operand // for a scalar: *ImmOperand or *SymOperand (function or variable name, maybe with offset)
}

// BranchTargets is "label: .branchtargets L1, L2, ...;".
type BranchTargets struct {
	Pos    Pos
	Name   string
	Labels []*SymOperand
}

func (b *BranchTargets) stmtPos() Pos { return b.Pos }

// CallTargets is "label: .calltargets f1, f2, ...;".
type CallTargets struct {
	Pos   Pos
	Name  string
	Funcs []*SymOperand
}

func (c *CallTargets) stmtPos() Pos { return c.Pos }

// CallPrototype is "label: .callprototype (.param .b32 _) _ (.param .b32 _, ...);".
type CallPrototype struct {
	Pos      Pos
	Name     string
	Rets     []*Param
	Params   []*Param
	NoReturn bool
}

func (c *CallPrototype) stmtPos() Pos { return c.Pos }

// PragmaStmt is a ".pragma "...";" inside a body.
type PragmaStmt struct {
	Pos  Pos
	Text string
}

func (p *PragmaStmt) stmtPos() Pos { return p.Pos }

// Instr is one instruction: "@!%p1 add.s32 %r1, %r2, 4;".
type Instr struct {
	Pos      Pos
	Guard    *RegOperand // nil when unguarded; Guard.Neg for "@!p"
	Op       string      // opcode without modifiers: "add", "setp", "BPT", "S2R"
	Mods     []string    // modifiers in source order, without dots: ["s32"], ["eq","and","u32"]
	Operands []Operand
}

func (i *Instr) stmtPos() Pos { return i.Pos }

// HasMod reports whether the instruction carries modifier m.
func (i *Instr) HasMod(m string) bool {
	for _, x := range i.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// Operand is an instruction operand: *RegOperand, *ImmOperand, *SymOperand,
// *AddrOperand, *VecOperand, *ListOperand or *PipeOperand.
type Operand interface{ operandPos() Pos }

// RegOperand names a register, a special register or a predicate:
// "%r1", "%tid.x" (Name "%tid", Comp "x"), "!p" (Neg).
type RegOperand struct {
	Pos       Pos
	Name      string
	Comp      string // vector component "x","y","z","w" (or "r","g","b","a"); "" for none
	Neg       bool   // "!p"
	Offset    int64  // "%r1+4" used as a value operand (rare; ZLUDA tests use it)
	HasOffset bool
}

// ImmOperand is an integer or floating-point immediate. Hex float literals
// (0fXXXXXXXX for f32 bits, 0dXXXXXXXXXXXXXXXX for f64 bits) and decimal
// floats set Float and F.
type ImmOperand struct {
	Pos   Pos
	Text  string
	Int   int64   // integer value (two's complement for large unsigned literals)
	Float bool    // a floating-point literal
	F     float64 // its value
}

// SymOperand names a label, function or variable, optionally with an offset: "tbl+8".
type SymOperand struct {
	Pos    Pos
	Name   string
	Offset int64
}

// AddrOperand is a memory address "[base+off]", "[sym]", "[%rd1+-4]" or "[64]".
// Base is a register or symbol name ("" for an absolute address).
type AddrOperand struct {
	Pos       Pos
	Base      string
	BaseIsReg bool
	Offset    int64
	// Tex-style addresses "[tex, {a, b}]" keep their extra operands here (refused later).
	Extra []Operand
}

// VecOperand is "{a, b, c, d}".
type VecOperand struct {
	Pos   Pos
	Elems []Operand
}

// ListOperand is a parenthesised call list "(a, b)".
type ListOperand struct {
	Pos   Pos
	Elems []Operand
}

// PipeOperand is "p|q" (setp's two destinations).
type PipeOperand struct {
	Pos  Pos
	A, B Operand
}

func (o *RegOperand) operandPos() Pos  { return o.Pos }
func (o *ImmOperand) operandPos() Pos  { return o.Pos }
func (o *SymOperand) operandPos() Pos  { return o.Pos }
func (o *AddrOperand) operandPos() Pos { return o.Pos }
func (o *VecOperand) operandPos() Pos  { return o.Pos }
func (o *ListOperand) operandPos() Pos { return o.Pos }
func (o *PipeOperand) operandPos() Pos { return o.Pos }

// OperandPos returns the position of any operand.
func OperandPos(o Operand) Pos { return o.operandPos() }

// StmtPos returns the position of any statement.
func StmtPos(s Stmt) Pos { return s.stmtPos() }
