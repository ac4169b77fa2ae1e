package rtl

// Unit is a clocked unit under the two-phase discipline (see the package
// documentation). I, O and S are the unit's Inputs, Outputs and State types.
type Unit[I, O, S any] interface {
	// Eval is always_comb: from the inputs and Q it computes the outputs
	// and D (starting from D = Q). It must not change Q, and calling it
	// twice with the same inputs gives the same outputs and D.
	Eval(in I) O
	// Tick is always_ff: Q = D.
	Tick()
	// Q returns the register outputs (the current state).
	Q() S
	// D returns the register inputs computed by the last Eval.
	D() S
}

// Resetter is implemented by units with a reset: Reset puts Q and D in
// their reset values (rst_ni low for one cycle).
type Resetter interface {
	Reset()
}

// Regs holds the registers of a unit whose always_ff is only Q = D, and
// gives it the Q, D, Tick and Reset methods of Unit and Resetter. A unit
// embeds it (rtl.Regs[State]); its Eval reads Cur and writes Next.
type Regs[S any] struct {
	// Cur is Q, the registers' outputs; Next is D, their inputs.
	Cur, Next S
}

// Q returns the registers.
func (r *Regs[S]) Q() S { return r.Cur }

// D returns the next-state values computed by the last Eval.
func (r *Regs[S]) D() S { return r.Next }

// Tick is always_ff: Q = D.
func (r *Regs[S]) Tick() { r.Cur = r.Next }

// Reset puts Q and D in the zero value of S. A unit with other reset
// values defines its own Reset.
func (r *Regs[S]) Reset() {
	var z S
	r.Cur, r.Next = z, z
}

// Build is the constructor of a unit whose parameters have a Check
// method: build(p) when p passes Check, else Check's error (and the zero
// U). A unit made of units builds them with their unchecked build
// functions, since its own Check checks their parameters.
func Build[P interface{ Check() error }, U any](p P, build func(P) U) (U, error) {
	if err := p.Check(); err != nil {
		var zero U
		return zero, err
	}
	return build(p), nil
}
