package cosim

import (
	"fmt"
	"reflect"
	"sort"
	"unsafe"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/rtl"
)

// Unit is one RTL unit at one parameter set together with its Go twin,
// seen at the level of wire records: what the lockstep runner, the
// harness builder and the generators need, whatever the unit's Go types.
// Bind makes one from a Spec.
type Unit interface {
	// Module is the Verilog module name, e.g. "warp_sched".
	Module() string
	// Params are the Verilog parameter values of this build, in
	// declaration order.
	Params() []Param
	// RTL lists the unit's sources under verilog/rtl, in compile order
	// (packages first).
	RTL() []string
	// Table is the Go unit's signal table, scoped by the module name.
	Table() rtl.Table
	// Layout is the wire format derived from Table.
	Layout() *Layout
	// NewModel returns a fresh Go model in its reset state.
	NewModel() (Model, error)
	// NewRandom returns the unit's seeded constrained-random stimulus:
	// the same seed gives the same input records.
	NewRandom(seed uint64) Stimulus
	// EncodeInput writes in, a value of the unit's Go Inputs type (or a
	// pointer to one), as an input record.
	EncodeInput(in any, rec []byte) error
}

// Model is the Go side of a unit at the level of wire records.
type Model interface {
	// Reset puts the registers in their reset state.
	Reset()
	// Cycle runs one cycle: it decodes the input record, evaluates
	// (always_comb), writes the outputs and the registers' current values
	// (Q, before the clock edge) into out, and ticks (always_ff).
	Cycle(in, out []byte)
}

// Stimulus produces one input record per cycle.
type Stimulus interface {
	// Next fills rec with the next cycle's inputs. It returns false when
	// the stimulus has ended (rec is then untouched).
	Next(rec []byte) bool
}

// GoUnit is a two-phase Go unit with a reset: what a Spec wraps.
type GoUnit[I, O, S any] interface {
	rtl.Unit[I, O, S]
	rtl.Resetter
}

// Spec describes a Go unit and its RTL twin at one parameter set; Bind
// turns it into a Unit. I, O and S are the unit's Inputs, Outputs and
// State types, whose `sv` tags name the Verilog ports and registers.
type Spec[I, O, S any] struct {
	Module string
	RTL    []string
	Params []Param
	// Table is the Go unit's signal table (its Signals method), scoped by
	// Module.
	Table rtl.Table
	// New returns a fresh Go unit in its reset state.
	New func() (GoUnit[I, O, S], error)
	// Random returns the constrained-random input generator for a seed:
	// a function called once per cycle that sets every field of *in.
	Random func(seed uint64) func(cycle uint64, in *I)
}

// Bind checks a Spec and returns it as a Unit.
func Bind[I, O, S any](s Spec[I, O, S]) (Unit, error) {
	if s.Module == "" || s.New == nil || s.Random == nil || len(s.RTL) == 0 {
		return nil, fmt.Errorf("cosim: incomplete Spec for %q", s.Module)
	}
	l, err := NewLayout(s.Module, s.Table)
	if err != nil {
		return nil, err
	}
	b := &bound[I, O, S]{spec: s, layout: l}
	if b.in, err = newStructCodec(reflect.TypeFor[I](), l.In); err != nil {
		return nil, err
	}
	if b.out, err = newStructCodec(reflect.TypeFor[O](), l.Out); err != nil {
		return nil, err
	}
	if b.st, err = newStructCodec(reflect.TypeFor[S](), l.Out); err != nil {
		return nil, err
	}
	if n := len(b.in.fields) + len(b.out.fields) + len(b.st.fields); n != len(s.Table) {
		return nil, fmt.Errorf("cosim: %s: the Go types carry %d tagged signals, the table %d", s.Module, n, len(s.Table))
	}
	return b, nil
}

type bound[I, O, S any] struct {
	spec        Spec[I, O, S]
	layout      *Layout
	in, out, st *structCodec
}

func (b *bound[I, O, S]) Module() string   { return b.spec.Module }
func (b *bound[I, O, S]) Params() []Param  { return append([]Param(nil), b.spec.Params...) }
func (b *bound[I, O, S]) RTL() []string    { return append([]string(nil), b.spec.RTL...) }
func (b *bound[I, O, S]) Table() rtl.Table { return append(rtl.Table(nil), b.spec.Table...) }
func (b *bound[I, O, S]) Layout() *Layout  { return b.layout }

func (b *bound[I, O, S]) NewModel() (Model, error) {
	u, err := b.spec.New()
	if err != nil {
		return nil, err
	}
	m := &boundModel[I, O, S]{u: u, b: b}
	m.qref, _ = u.(QRefer[S])
	return m, nil
}

func (b *bound[I, O, S]) NewRandom(seed uint64) Stimulus {
	return &randomStim[I]{gen: b.spec.Random(seed), codec: b.in}
}

func (b *bound[I, O, S]) EncodeInput(in any, rec []byte) error {
	if len(rec) < b.layout.InBytes {
		return fmt.Errorf("cosim: input record of %d bytes, want %d", len(rec), b.layout.InBytes)
	}
	switch v := in.(type) {
	case I:
		b.in.encode(unsafe.Pointer(&v), rec)
	case *I:
		if v == nil {
			return fmt.Errorf("cosim: nil %T", in)
		}
		b.in.encode(unsafe.Pointer(v), rec)
	default:
		return fmt.Errorf("cosim: %s takes %s inputs, not %T", b.spec.Module, reflect.TypeFor[I](), in)
	}
	return nil
}

// QRefer is a unit that shows its registers in place: QRef returns a
// pointer to its registers (Q), read-only by convention. When a Go unit
// has it, the lockstep encodes the registers through it every cycle,
// between Eval and Tick, instead of copying State with Q (regpool's State
// is about 150 KB, warpsched's 4 KB).
type QRefer[S any] interface {
	QRef() *S
}

type boundModel[I, O, S any] struct {
	u      GoUnit[I, O, S]
	qref   QRefer[S] // u, when it has QRef
	b      *bound[I, O, S]
	inVal  I
	outVal O
	stVal  S
}

func (m *boundModel[I, O, S]) Reset() { m.u.Reset() }

func (m *boundModel[I, O, S]) Cycle(in, out []byte) {
	m.b.in.decode(in, unsafe.Pointer(&m.inVal))
	m.outVal = m.u.Eval(m.inVal)
	m.b.out.encode(unsafe.Pointer(&m.outVal), out)
	if m.qref != nil {
		m.b.st.encode(unsafe.Pointer(m.qref.QRef()), out)
	} else {
		m.stVal = m.u.Q()
		m.b.st.encode(unsafe.Pointer(&m.stVal), out)
	}
	m.u.Tick()
}

type randomStim[I any] struct {
	gen   func(uint64, *I)
	codec *structCodec
	val   I
	cycle uint64
}

func (s *randomStim[I]) Next(rec []byte) bool {
	s.gen(s.cycle, &s.val)
	s.cycle++
	s.codec.encode(unsafe.Pointer(&s.val), rec)
	return true
}

// Records is a recorded stimulus: input records back to back.
type Records struct {
	data []byte
	size int
	pos  int
}

// NewRecords returns a Stimulus replaying data, a sequence of input
// records of size bytes each.
func NewRecords(data []byte, size int) (*Records, error) {
	if size <= 0 || len(data)%size != 0 {
		return nil, fmt.Errorf("cosim: %d bytes of records is not a multiple of the record size %d", len(data), size)
	}
	return &Records{data: data, size: size}, nil
}

// Next implements Stimulus.
func (r *Records) Next(rec []byte) bool {
	if r.pos+r.size > len(r.data) {
		return false
	}
	copy(rec, r.data[r.pos:r.pos+r.size])
	r.pos += r.size
	return true
}

// Len is the number of records.
func (r *Records) Len() int { return len(r.data) / r.size }

// UnitInfo describes one unit cosim can build and compare, at any of its
// parameter sets.
type UnitInfo struct {
	Module  string
	Summary string
	// Sets are the standard parameter sets: built by `make -C verilog`,
	// linted, and run by the tests and by `smsim cosim --all`.
	Sets func() ([]Unit, error)
	// AreaSets are the parameter sets `make -C verilog area` synthesizes.
	AreaSets func() ([]Unit, error)
	// SynthFlags are extra options of Yosys's synth command for the unit
	// (after `-top <unit> -nofsm`), shown beside its rows in docs/area.md.
	SynthFlags string
	// FromConfig returns the unit at the parameters the SM configuration
	// gives its instances.
	FromConfig func(cfg config.Config) (Unit, error)
}

// bindUnit is the Spec of one of smsim's units, whose RTL is module.sv
// beside the generated package: newUnit makes the Go unit at the parameter
// set whose Verilog parameters are params, table returns its signal table
// scoped by module, and random is the stimulus (Spec.Random).
func bindUnit[I, O, S any, U GoUnit[I, O, S]](module string, params []Param, newUnit func() (U, error),
	table func(U) rtl.Table, random func(seed uint64) func(uint64, *I)) (Unit, error) {
	u, err := newUnit()
	if err != nil {
		return nil, err
	}
	return Bind(Spec[I, O, S]{
		Module: module,
		RTL:    []string{"smsim_pkg.sv", module + ".sv"},
		Params: params,
		Table:  table(u),
		New:    func() (GoUnit[I, O, S], error) { return newUnit() },
		Random: random,
	})
}

// rescoped is a bindUnit table: the unit's own table (its Signals
// method, scoped by the SM instance path) rescoped to module.
func rescoped[U interface{ Signals() rtl.Table }](module string) func(U) rtl.Table {
	return func(u U) rtl.Table { return rescope(u.Signals(), module) }
}

// fixedParams adapts, for fromConfig, a mapping from the configuration to
// a unit's parameters that cannot fail.
func fixedParams[P any](params func(config.Config) P) func(config.Config) (P, error) {
	return func(cfg config.Config) (P, error) { return params(cfg), nil }
}

// fromConfig is a UnitInfo.FromConfig: the unit bind makes at the
// parameters params maps the configuration to.
func fromConfig[P any](params func(config.Config) (P, error), bind func(P) (Unit, error)) func(config.Config) (Unit, error) {
	return func(cfg config.Config) (Unit, error) {
		p, err := params(cfg)
		if err != nil {
			return nil, err
		}
		return bind(p)
	}
}

// units binds a unit at each of the parameter sets ps (UnitInfo's Sets
// and AreaSets).
func units[P any](bind func(P) (Unit, error), ps ...P) ([]Unit, error) {
	us := make([]Unit, 0, len(ps))
	for _, p := range ps {
		u, err := bind(p)
		if err != nil {
			return nil, err
		}
		us = append(us, u)
	}
	return us, nil
}

// Units lists the units cosim knows, sorted by module name. Adding a unit
// means adding its UnitInfo here (see doc.go).
func Units() []*UnitInfo {
	us := []*UnitInfo{warpSchedInfo(), clockTimerInfo(), perfMonInfo(), trapUnitInfo(), regPoolInfo(), smemBanksInfo(), coalescerInfo(), pipeThrottleInfo()}
	sort.Slice(us, func(i, j int) bool { return us[i].Module < us[j].Module })
	return us
}

// LookupUnit finds a unit by module name.
func LookupUnit(module string) (*UnitInfo, bool) {
	for _, u := range Units() {
		if u.Module == module {
			return u, true
		}
	}
	return nil, false
}

// UnitNames lists the module names of Units.
func UnitNames() []string {
	var ns []string
	for _, u := range Units() {
		ns = append(ns, u.Module)
	}
	return ns
}
