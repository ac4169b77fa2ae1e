package pipethrottle

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// Scope is the Verilog instance path of the unit.
const Scope = "sm_top.u_pipe_throttle"

// Pipe is an execution pipe (req_pipe_i encoding, smsim_pkg::pipe_e).
type Pipe uint8

// The pipes.
const (
	FP32  Pipe = iota // FP32 (and f16/bf16) add, multiply, fma, compare, min/max
	INT32             // 32-bit integer add, logic, shift, compare, select, move
	IMAD              // integer multiply and multiply-add, sad, dot products
	FP64              // FP64 add, multiply, fma, compare
	SFU               // special functions (MUFU): rcp, sqrt, rsqrt, ex2, lg2, sin, cos, tanh; bit counts
	CVT               // conversions involving a float or a 64-bit type
	NumPipes
)

var pipeNames = [NumPipes]string{"fp32", "int32", "imad", "fp64", "sfu", "cvt"}

// String is the pipe's configuration name (pipe.NAME).
func (p Pipe) String() string {
	if p < NumPipes {
		return pipeNames[p]
	}
	return fmt.Sprintf("pipe(%d)", uint8(p))
}

// MaxPorts bounds Params.NumPorts (sched.count).
const MaxPorts = 8

// MaxRate bounds a pipe's rate (results per clock per SM).
const MaxRate = 1024

// WarpLanes is the number of results of one warp instruction.
const WarpLanes = 32

// Params are the unit's parameters.
type Params struct {
	// NumPorts is the number of schedulers (sched.count), 1..MaxPorts.
	NumPorts int
	// Rate[p] is pipe p's throughput in results per clock per SM
	// (pipe.NAME), 1..MaxRate; each scheduler has Rate/NumPorts of it.
	Rate [NumPipes]int
}

// Pipes is NumPipes, for width expressions.
func (Params) Pipes() int { return int(NumPipes) }

// Cost is the credit one warp instruction uses: WarpLanes·NumPorts. A
// pipe earns Rate credits a cycle, so it takes Cost/Rate cycles per warp
// instruction.
func (p Params) Cost() int { return WarpLanes * p.NumPorts }

// Cap is the most credit pipe q can hold: Cost + Rate - 1, enough to keep
// a rate that does not divide Cost exact over time, never enough for two
// instructions in one cycle.
func (p Params) Cap(q Pipe) int { return p.Cost() + p.Rate[q] - 1 }

// Check reports a parameter outside its range.
func (p Params) Check() error {
	if p.NumPorts < 1 || p.NumPorts > MaxPorts {
		return fmt.Errorf("pipethrottle: NumPorts %d outside 1..%d", p.NumPorts, MaxPorts)
	}
	for q, r := range p.Rate {
		if r < 1 || r > MaxRate {
			return fmt.Errorf("pipethrottle: %s rate %d outside 1..%d", Pipe(q), r, MaxRate)
		}
	}
	return nil
}

// Inputs are the issue stage's requests, one per scheduler.
type Inputs struct {
	// ReqValid[k]: scheduler k dispatches a warp instruction to pipe
	// ReqPipe[k] this cycle, if that pipe accepts it.
	ReqValid [MaxPorts]bool  `sv:"req_valid_i" width:"NumPorts"`
	ReqPipe  [MaxPorts]uint8 `sv:"req_pipe_i" width:"3*NumPorts" elem:"3"`
}

// Outputs are the unit's ports.
type Outputs struct {
	// PipeReady[k] bit p: pipe p of scheduler k can take a warp
	// instruction this cycle (from the registers alone).
	PipeReady [MaxPorts]uint8 `sv:"pipe_ready_o" width:"Pipes*NumPorts" elem:"Pipes"`
	// Accept[k]: scheduler k's request is accepted (its pipe is ready). A
	// request that is not accepted leaves its warp in math_pipe_throttle.
	Accept [MaxPorts]bool `sv:"accept_o" width:"NumPorts"`
}

// State holds the registers.
type State struct {
	// Credit[k*NumPipes+p] is the credit of pipe p of scheduler k: ready
	// when at least Cost.
	Credit [MaxPorts * NumPipes]uint16 `sv:"credit_q" width:"16*Pipes*NumPorts" elem:"16"`
	// Executed[p] counts the warp instructions pipe p accepted, over all
	// schedulers (smsp__inst_executed_pipe_*).
	Executed [NumPipes]uint64 `sv:"inst_executed_q" width:"64*Pipes" elem:"64"`
}

// Unit is the pipe_throttle unit (rtl.Unit).
type Unit struct {
	p               Params
	rtl.Regs[State] // Q, D, Tick and Reset
	// Step's caches: the cost, each pipe's cap, and (when lowOK) the
	// credits below their cap (bit k*NumPipes+q), the only ones a cycle
	// without a request to them changes.
	cost  int
	capq  [NumPipes]int
	low   uint64
	lowOK bool
}

var _ rtl.Unit[Inputs, Outputs, State] = (*Unit)(nil)

// New checks p and returns the unit in its reset state (every pipe ready).
func New(p Params) (*Unit, error) {
	return rtl.Build(p, func(p Params) *Unit {
		u := &Unit{p: p, cost: p.Cost()}
		for q := range u.capq {
			u.capq[q] = p.Cap(Pipe(q))
		}
		u.Reset()
		return u
	})
}

// Params returns the parameters.
func (u *Unit) Params() Params { return u.p }

// Reset fills every pipe's credit to Cost and clears the counters.
func (u *Unit) Reset() {
	u.Cur = State{}
	for k := 0; k < u.p.NumPorts; k++ {
		for q := Pipe(0); q < NumPipes; q++ {
			u.Cur.Credit[k*int(NumPipes)+int(q)] = uint16(u.p.Cost())
		}
	}
	u.Next = u.Cur
	u.lowOK = false
}

// D returns the next-state values of the last Eval.
func (u *Unit) D() State { return u.Next }

// Ready reports whether pipe q of scheduler k can take an instruction
// this cycle (PipeReady without an Eval).
func (u *Unit) Ready(k int, q Pipe) bool {
	return int(u.Cur.Credit[k*int(NumPipes)+int(q)]) >= u.p.Cost()
}

// Eval is always_comb.
func (u *Unit) Eval(in Inputs) Outputs {
	u.lowOK = false
	u.Next = u.Cur
	var o Outputs
	cost := u.p.Cost()
	rate := &u.p.Rate
	for k := 0; k < u.p.NumPorts; k++ {
		cur := (*[NumPipes]uint16)(u.Cur.Credit[k*int(NumPipes):])
		next := (*[NumPipes]uint16)(u.Next.Credit[k*int(NumPipes):])
		// 1. Which pipes are ready.
		for q := Pipe(0); q < NumPipes; q++ {
			if int(cur[q]) >= cost {
				o.PipeReady[k] |= 1 << q
			}
		}
		// 2. The request, if its pipe is ready.
		req := Pipe(NumPipes)
		if in.ReqValid[k] && in.ReqPipe[k] < uint8(NumPipes) && o.PipeReady[k]&(1<<in.ReqPipe[k]) != 0 {
			req = Pipe(in.ReqPipe[k])
			o.Accept[k] = true
			u.Next.Executed[req]++
		}
		// 3. Every pipe earns its rate, up to its cap (Params.Cap: cost +
		// rate - 1).
		for q := Pipe(0); q < NumPipes; q++ {
			c := int(cur[q])
			if q == req {
				c -= cost
			}
			next[q] = uint16(min(c+rate[q], cost+rate[q]-1))
		}
	}
	return o
}

// Step is Eval(*in) followed by Tick, for a caller that reads neither the
// outputs nor D in between (the SM, whose issue stage reads Ready): the
// same registers afterwards, at the cost of the credits that change only.
func (u *Unit) Step(in *Inputs) {
	if !u.lowOK {
		u.low = 0
		for k := 0; k < u.p.NumPorts; k++ {
			for q := range u.capq {
				if i := k*int(NumPipes) + q; int(u.Cur.Credit[i]) < u.capq[q] {
					u.low |= 1 << uint(i)
				}
			}
		}
		u.lowOK = true
	}
	s := &u.Cur
	for k := 0; k < u.p.NumPorts; k++ {
		if q := in.ReqPipe[k]; in.ReqValid[k] && q < uint8(NumPipes) {
			if i := k*int(NumPipes) + int(q); int(s.Credit[i]) >= u.cost {
				s.Credit[i] -= uint16(u.cost)
				s.Executed[q]++
				u.low |= 1 << uint(i)
			}
		}
	}
	for m := u.low; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		q := i % int(NumPipes)
		if c := int(s.Credit[i]) + u.p.Rate[q]; c < u.capq[q] {
			s.Credit[i] = uint16(c)
		} else {
			s.Credit[i] = uint16(u.capq[q])
			u.low &^= 1 << uint(i)
		}
	}
	u.Next = u.Cur
}

// ReadyMask is PipeReady[k] without an Eval: bit q set when pipe q of
// scheduler k can take an instruction this cycle.
func (u *Unit) ReadyMask(k int) uint8 {
	var m uint8
	for q, c := range u.Cur.Credit[k*int(NumPipes) : (k+1)*int(NumPipes)] {
		if int(c) >= u.cost {
			m |= 1 << uint(q)
		}
	}
	return m
}

// Signals returns the unit's signal table under Scope.
func (u *Unit) Signals() rtl.Table {
	return rtl.MustSignals(Scope, u.p, Inputs{}, Outputs{}, State{})
}

// Metrics returns the instructions each pipe accepted under Nsight
// Compute's names (smsp__inst_executed_pipe_*.sum, summed over the
// schedulers): fp32 is pipe_fma, int32 pipe_alu, imad pipe_fmaheavy (a
// part of pipe_fma on real hardware; here counted apart), fp64 pipe_fp64,
// and sfu and cvt together pipe_xu.
func (u *Unit) Metrics() []Metric {
	e := &u.Cur.Executed
	return []Metric{
		{"smsp__inst_executed_pipe_fma.sum", e[FP32]},
		{"smsp__inst_executed_pipe_alu.sum", e[INT32]},
		{"smsp__inst_executed_pipe_fmaheavy.sum", e[IMAD]},
		{"smsp__inst_executed_pipe_fp64.sum", e[FP64]},
		{"smsp__inst_executed_pipe_xu.sum", e[SFU] + e[CVT]},
	}
}

// Metric is one named counter.
type Metric struct {
	Name  string
	Value uint64
}

// ReadyIn is the number of cycles, from now, until pipe q of scheduler k
// can take an instruction if nothing is dispatched to it meanwhile: 0 when
// it is ready now. An SM that skips idle cycles wakes a warp stalled in
// math_pipe_throttle after that many.
func (u *Unit) ReadyIn(k int, q Pipe) uint64 {
	c, cost := int(u.Cur.Credit[k*int(NumPipes)+int(q)]), u.p.Cost()
	if c >= cost {
		return 0
	}
	r := u.p.Rate[q]
	return uint64((cost - c + r - 1) / r)
}

// Advance moves the unit n cycles forward as n cycles without a request
// would (every pipe earns n times its rate, up to its cap), in one step:
// for an SM that skips idle cycles. Like Tick, it is a clock edge, not
// part of Eval.
func (u *Unit) Advance(n uint64) {
	if n == 0 {
		return
	}
	for k := 0; k < u.p.NumPorts; k++ {
		for q := Pipe(0); q < NumPipes; q++ {
			i := k*int(NumPipes) + int(q)
			c, capq := uint64(u.Cur.Credit[i]), uint64(u.p.Cap(q))
			if c < capq {
				c = min(c+n*uint64(u.p.Rate[q]), capq)
			}
			u.Cur.Credit[i] = uint16(c)
		}
	}
	u.Next = u.Cur
	u.lowOK = false
}
