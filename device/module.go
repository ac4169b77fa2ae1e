package device

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// Module is a program loaded on a device: its kernels, its __constant__
// variables (one copy per module, kept between launches) and its .global
// variables (in device memory).
type Module struct {
	dev    *Device
	name   string
	im     *isa.Image
	consts []byte          // the module's .const bank as the host set it
	set    map[string]bool // .const variables the host set (SetVar)
}

// Load assembles src and loads it: PTX text, an smsim disassembly
// (".smsim_image") or a binary image ("SMSIMIMG"), as smsim run reads a
// kernel file (ReadImage). name is the file name used in positions and
// reports.
func (d *Device) Load(name string, src []byte) (*Module, error) {
	im, err := ReadImage(name, src)
	if err != nil {
		return nil, err
	}
	return d.LoadImage(name, im)
}

// ReadImage turns the bytes of a kernel file into an image, by their
// form: a binary image ("SMSIMIMG"), an smsim disassembly
// (".smsim_image") or PTX text. Errors are positioned in name.
func ReadImage(name string, src []byte) (*isa.Image, error) {
	switch {
	case bytes.HasPrefix(src, []byte("SMSIMIMG")):
		im, err := isa.Unmarshal(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return im, nil
	case bytes.HasPrefix(bytes.TrimSpace(src), []byte(".smsim_image")):
		return isa.ParseDisasm(name, src)
	}
	return isa.AssembleSource(name, src)
}

// LoadImage loads an assembled image. Its .global variables are placed at
// isa.GlobalDataBase with their initializers; that range must be free
// (load a module with .global variables before allocating, and at most
// one such module: the model does not relocate).
func (d *Device) LoadImage(name string, im *isa.Image) (*Module, error) {
	if im == nil {
		return nil, fmt.Errorf("load %s: no image", name)
	}
	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("load %s: malformed image: %w", name, err)
	}
	m := &Module{dev: d, name: name, im: im, consts: append([]byte(nil), im.ConstBank...), set: map[string]bool{}}
	if n := len(im.Data); n > 0 {
		begin, end := uint64(isa.GlobalDataBase), uint64(isa.GlobalDataBase)+uint64(n)
		if end > d.mem.Size() {
			return nil, fmt.Errorf("load %s: its %d bytes of .global variables do not fit the %d bytes of device memory (sm.global_bytes)", name, n, d.mem.Size())
		}
		for _, r := range d.regions {
			if r.begin < end && begin < r.end {
				if r.module != nil {
					return nil, fmt.Errorf("load %s: its .global variables would lie at %#x, where those of module %s are (every module's .global data starts at isa.GlobalDataBase; at most one loaded module may have any)", name, begin, r.module.name)
				}
				return nil, fmt.Errorf("load %s: its %d bytes of .global variables go at %#x, where allocation %s is; load the module before allocating", name, n, begin, r.name)
			}
		}
		if err := d.mem.Write(begin, im.Data); err != nil {
			return nil, err
		}
		d.regions = append(d.regions, region{name: name, begin: begin, end: end, module: m})
		sort.Slice(d.regions, func(i, j int) bool { return d.regions[i].begin < d.regions[j].begin })
	}
	d.modules = append(d.modules, m)
	return m, nil
}

// Name is the module's file name.
func (m *Module) Name() string { return m.name }

// Image is the module's assembled program.
func (m *Module) Image() *isa.Image { return m.im }

// Kernels lists the module's kernels (.entry) in declaration order.
func (m *Module) Kernels() []string {
	var n []string
	for _, k := range m.im.Kernels {
		n = append(n, k.Name)
	}
	return n
}

// Params returns the parameters of kernel in order.
func (m *Module) Params(kernel string) ([]isa.KParam, error) {
	k, err := m.kernel(kernel)
	if err != nil {
		return nil, err
	}
	return append([]isa.KParam(nil), k.Params...), nil
}

func (m *Module) kernel(name string) (*isa.Kernel, error) {
	k, ok := m.im.Kernel(name)
	if !ok {
		list := "it has none"
		if ks := m.Kernels(); len(ks) > 0 {
			list = "kernels: " + strings.Join(ks, ", ")
		}
		return nil, fmt.Errorf("module %s has no kernel %q (%s)", m.name, name, list)
	}
	return k, nil
}

// symbol finds a .const or .global variable.
func (m *Module) symbol(name string) (*isa.Symbol, error) {
	var sym *isa.Symbol
	for i := range m.im.Symbols {
		s := &m.im.Symbols[i]
		if s.Name == name && (int(s.Space) == isa.SpaceConst || int(s.Space) == isa.SpaceGlobal) {
			sym = s
		}
	}
	if sym == nil {
		return nil, fmt.Errorf("module %s has no __constant__ or .global variable %q", m.name, name)
	}
	return sym, nil
}

// SetVar writes data into the module variable name from its start: a
// __constant__ (.const) variable, kept by the module for its following
// launches, or a .global one, in device memory. data may be shorter than
// the variable; the rest keeps its value.
func (m *Module) SetVar(name string, data []byte) error {
	sym, err := m.symbol(name)
	if err != nil {
		return err
	}
	if uint64(len(data)) > sym.Size {
		return fmt.Errorf("set %s: %d bytes for a variable of %d bytes", name, len(data), sym.Size)
	}
	if int(sym.Space) == isa.SpaceGlobal {
		return m.dev.mem.Write(sym.Addr, data)
	}
	if sym.Addr+uint64(len(data)) > uint64(len(m.consts)) {
		return fmt.Errorf("set %s: the variable lies outside the module's .const bank", name)
	}
	copy(m.consts[sym.Addr:], data)
	m.set[name] = true
	return nil
}

// Var returns the current contents of the module variable name.
func (m *Module) Var(name string) ([]byte, error) {
	sym, err := m.symbol(name)
	if err != nil {
		return nil, err
	}
	out := make([]byte, sym.Size)
	if int(sym.Space) == isa.SpaceGlobal {
		return out, m.dev.mem.Read(sym.Addr, out)
	}
	if sym.Addr+sym.Size > uint64(len(m.consts)) {
		return nil, fmt.Errorf("var %s: the variable lies outside the module's .const bank", name)
	}
	copy(out, m.consts[sym.Addr:])
	return out, nil
}

// VarPtr returns the device address of the .global variable name
// (cudaGetSymbolAddress); a __constant__ variable has none.
func (m *Module) VarPtr(name string) (Ptr, error) {
	sym, err := m.symbol(name)
	if err != nil {
		return 0, err
	}
	if int(sym.Space) != isa.SpaceGlobal {
		return 0, fmt.Errorf("%s is a __constant__ variable: it has no global address (set it with SetVar)", name)
	}
	return Ptr(sym.Addr), nil
}

// Dim3 is a grid, block or cluster shape (x, y, z); a zero component
// counts as 1, so Dim3{256} is 256x1x1.
type Dim3 [3]uint32

func (d Dim3) norm() [3]uint32 {
	for i := range d {
		d[i] = max(d[i], 1)
	}
	return d
}

// LaunchConfig is the shape of a launch (kernel<<<Grid, Block,
// DynamicSmem>>>).
type LaunchConfig struct {
	Grid, Block Dim3
	// Cluster is the cluster shape; all zero means no explicit cluster.
	Cluster     Dim3
	DynamicSmem uint32 // bytes of dynamic shared memory per CTA
	MaxNReg     uint32 // per-thread register budget (0: the kernel's own)
}

// RunError is a launch that ran but did not complete: it faulted,
// trapped, deadlocked or hit the cycle limit. Report has the details.
type RunError struct {
	Kernel string
	Report *pipeline.Report
}

func (e *RunError) Error() string {
	msg := fmt.Sprintf("kernel %s ended %s after %d cycles", e.Kernel, e.Report.Status, e.Report.Cycles)
	for _, x := range e.Report.Errors {
		if !x.Warning {
			return fmt.Sprintf("%s: %s at %s: %s", msg, x.Kind, x.Line, x.Message)
		}
	}
	return msg
}

// Launch runs kernel with args, one per parameter in order, and returns
// its report. An argument is a Ptr (an 8-byte parameter), a Go integer
// (int, int8 ... uint64, bool: an integer parameter it fits, or a .b one;
// a negative value takes its two's complement), a float32 (a 4-byte .f32
// or .b32 parameter) or a float64 (an 8-byte .f64 or .b64 one). A launch
// that cannot start is an error and no report; one that runs but does not
// complete returns its report and a *RunError.
func (m *Module) Launch(kernel string, lc LaunchConfig, args ...any) (*pipeline.Report, error) {
	k, vals, err := m.encodeArgs(kernel, args)
	if err != nil {
		return nil, err
	}
	d := m.dev
	l := pipeline.Launch{
		Entry: kernel, Grid: lc.Grid.norm(), Block: lc.Block.norm(),
		DynamicSmem: lc.DynamicSmem, MaxNReg: lc.MaxNReg,
		Args: map[string]uint64{}, Memory: d.mem, Checks: d.checks,
	}
	if lc.Cluster != (Dim3{}) {
		l.Cluster = lc.Cluster.norm()
	}
	for i, v := range vals {
		l.Args[k.Params[i].Name] = v
	}
	for n := range m.set {
		sym, _ := m.symbol(n)
		l.Vars = setVar(l.Vars, n, m.consts[sym.Addr:sym.Addr+sym.Size])
	}
	for _, r := range d.regions {
		if r.module == nil {
			l.Allocations = append(l.Allocations, pipeline.Allocation{Name: r.name, Begin: r.begin, End: r.end})
		} else if r.module != m {
			// Another module's variables, reachable through pointers.
			for _, s := range r.module.im.Symbols {
				if int(s.Space) == isa.SpaceGlobal && s.Size > 0 {
					l.Allocations = append(l.Allocations, pipeline.Allocation{Name: s.Name, Begin: s.Addr, End: s.Addr + s.Size})
				}
			}
		}
	}
	sm, err := pipeline.New(d.cfg, m.im, l)
	if err != nil {
		return nil, fmt.Errorf("launch %s: %w", kernel, err)
	}
	if err := sm.SetHostPolicy(d.onTrap, d.onBreak); err != nil {
		return nil, fmt.Errorf("launch %s: %w", kernel, err)
	}
	if d.observe != nil {
		if err := d.observe(sm); err != nil {
			return nil, fmt.Errorf("launch %s: %w", kernel, err)
		}
	}
	rep, err := sm.Run()
	if err != nil {
		return nil, fmt.Errorf("launch %s: %w", kernel, err)
	}
	d.cycles += rep.Cycles
	d.nlaunch++
	m.reportBuffers(rep, k, args)
	if rep.Status != pipeline.StatusCompleted {
		return rep, &RunError{Kernel: kernel, Report: rep}
	}
	return rep, nil
}

// CheckArgs reports whether args suit kernel's parameters, by Launch's
// rules, without launching.
func (m *Module) CheckArgs(kernel string, args ...any) error {
	_, _, err := m.encodeArgs(kernel, args)
	return err
}

func (m *Module) encodeArgs(kernel string, args []any) (*isa.Kernel, []uint64, error) {
	k, err := m.kernel(kernel)
	if err != nil {
		return nil, nil, err
	}
	if len(args) != len(k.Params) {
		return nil, nil, fmt.Errorf("launch %s: %d arguments for %d parameters", kernel, len(args), len(k.Params))
	}
	vals := make([]uint64, len(args))
	for i, a := range args {
		if vals[i], err = encodeArg(&k.Params[i], a); err != nil {
			return nil, nil, fmt.Errorf("launch %s: argument %d (%s): %w", kernel, i, k.Params[i].Name, err)
		}
	}
	return k, vals, nil
}

func setVar(vars map[string][]byte, name string, b []byte) map[string][]byte {
	if vars == nil {
		vars = map[string][]byte{}
	}
	vars[name] = b
	return vars
}

// reportBuffers lists in rep.Buffers, by parameter name, the final
// contents of every allocation a pointer argument points at the start of
// (once per allocation), as smsim run lists its bound buffers.
func (m *Module) reportBuffers(rep *pipeline.Report, k *isa.Kernel, args []any) {
	seen := map[uint64]bool{}
	for i, a := range args {
		p, ok := a.(Ptr)
		if !ok || seen[uint64(p)] {
			continue
		}
		for _, r := range m.dev.regions {
			if r.begin != uint64(p) || r.module != nil {
				continue
			}
			seen[r.begin] = true
			words, _ := ReadSlice[uint32](m.dev, p, int(r.end-r.begin)/4)
			if tail := (r.end - r.begin) % 4; tail != 0 {
				b := make([]byte, 4)
				_ = m.dev.mem.Read(r.end-tail, b[:tail])
				words = append(words, uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16)
			}
			if words == nil {
				words = []uint32{}
			}
			rep.Buffers[k.Params[i].Name] = words
		}
	}
}

// encodeArg turns a typed argument into the parameter's value.
func encodeArg(p *isa.KParam, a any) (uint64, error) {
	intParam := p.Type >= isa.U8 && p.Type <= isa.S64
	switch v := a.(type) {
	case Ptr:
		if p.Size != 8 || p.Type.Float() {
			return 0, fmt.Errorf("a pointer for a .%s parameter of %d bytes", p.Type, p.Size)
		}
		return uint64(v), nil
	case float32:
		if p.Size != 4 || intParam {
			return 0, fmt.Errorf("a float32 for a .%s parameter of %d bytes (math.Float32bits gives its bits)", p.Type, p.Size)
		}
		return uint64(math.Float32bits(v)), nil
	case float64:
		if p.Size != 8 || intParam {
			return 0, fmt.Errorf("a float64 for a .%s parameter of %d bytes (math.Float64bits gives its bits)", p.Type, p.Size)
		}
		return math.Float64bits(v), nil
	}
	var u uint64
	switch v := a.(type) {
	case int, int8, int16, int32, int64:
		u = uint64(reflect.ValueOf(v).Int()) // sign-extended, as uint64(v)
	case uint, uint8, uint16, uint32, uint64:
		u = reflect.ValueOf(v).Uint()
	case bool:
		if v {
			u = 1
		}
	default:
		return 0, fmt.Errorf("an argument of Go type %T; want a Ptr, an integer, a float32 or a float64", a)
	}
	if p.Type.Float() {
		return 0, fmt.Errorf("an integer (%T) for a .%s parameter (pass a float32 or float64)", a, p.Type)
	}
	if p.Size < 8 {
		s := int64(u)
		bits := 8 * p.Size
		if u >= uint64(1)<<bits && (s >= 0 || s < -(int64(1)<<(bits-1))) {
			return 0, fmt.Errorf("%v does not fit a .%s parameter of %d bytes", a, p.Type, p.Size)
		}
		u &= uint64(1)<<bits - 1
	}
	return u, nil
}
