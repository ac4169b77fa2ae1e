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
