package plan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/device"
	"github.com/smsim/smsim/diag"
	"github.com/smsim/smsim/pipeline"
)

// Options of a run.
type Options struct {
	OnTrap, OnBreak string          // host policies (device.SetHostPolicy)
	Checks          pipeline.Checks // optional sanitizer checks (device.SetChecks)
	// Outputs are written besides the plan's own (smsim run --out; At
	// names them in messages); their paths are used as given.
	Outputs []Output
	// Progress, when set, is called after each launch.
	Progress func(LaunchRecord)
}

// Result is the outcome of a run: `smsim run PLAN.yaml --json` prints it.
type Result struct {
	// Status is "completed" when every step ran, else the status of the
	// launch that ended the run ("fault", "trapped", ...) or "repeat_limit"
	// (a repeat's condition still false after max passes).
	Status   string         `json:"status"`
	Launches []LaunchRecord `json:"launches"`
	Cycles   uint64         `json:"cycles"` // the launches' cycles, summed
	// Buffers holds every named buffer's final contents as little-endian
	// 32-bit words (the last one zero-padded).
	Buffers map[string][]uint32 `json:"buffers"`
}

// LaunchRecord is one launch of the run: the kernel, the plan position of
// its step and its report (what smsim run --json prints for one launch).
type LaunchRecord struct {
	Kernel string           `json:"kernel"`
	At     string           `json:"at"`
	Report *pipeline.Report `json:"report"`
}

// Failure is a run that started but did not finish: a launch that did
// not complete, a repeat limit, an output that could not be written.
type Failure struct {
	At  string // plan position of the step
	Msg string
	Err error // a *device.RunError for a launch that did not complete
}

func (f *Failure) Error() string { return f.At + ": " + f.Msg }

// Unwrap returns the underlying error.
func (f *Failure) Unwrap() error { return f.Err }

// Configure applies the plan's set to cfg.
func (pl *Plan) Configure(cfg *config.Config) error {
	var errs diag.ErrorList
	for _, s := range pl.Set {
		if err := cfg.Set(s.Key + "=" + s.Value); err != nil {
			errs = append(errs, posErr(s.At, "set %s: %v", s.Key, err))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// posErr makes a positioned error from "file:line:col" (anything else,
// such as "--out x=y", goes in front of the message).
func posErr(at, format string, args ...any) *diag.Error {
	msg := fmt.Sprintf(format, args...)
	// The file may itself hold colons: line and column are the last two.
	if i := strings.LastIndexByte(at, ':'); i > 0 {
		if j := strings.LastIndexByte(at[:i], ':'); j > 0 {
			l, err1 := strconv.Atoi(at[j+1 : i])
			c, err2 := strconv.Atoi(at[i+1:])
			if err1 == nil && err2 == nil {
				return &diag.Error{Pos: diag.Pos{File: at[:j], Line: l, Col: c}, Msg: msg}
			}
		}
	}
	return &diag.Error{Msg: at + ": " + msg}
}

// run is the state of one run.
type run struct {
	pl    *Plan
	dev   *device.Device
	mods  []*device.Module
	ptrs  map[string]device.Ptr
	sizes map[string]int64
	where map[*Launch]*device.Module
	opt   Options
	res   *Result
	errs  diag.ErrorList
}

func (pl *Plan) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(pl.Dir, p)
}

// contents is a buffer's or variable's initial bytes: the file's when it
// names one (relative to the plan), else data.
func (pl *Plan) contents(data []byte, file string) ([]byte, error) {
	if file == "" {
		return data, nil
	}
	return os.ReadFile(pl.path(file))
}

// Run runs the plan on a new device with configuration cfg: it loads the
// modules, allocates the buffers in order, fills the variables, checks
// every launch against its kernel, then runs the steps and writes the
// outputs. Bad input (a missing file, an unknown kernel or variable, an
// argument that does not suit its parameter, a launch the model refuses)
// is a diag.ErrorList; a run that stops early is a *Failure, with the
// Result so far (outputs are written in both cases once steps ran).
func (pl *Plan) Run(cfg config.Config, opt Options) (*Result, error) {
	dev, err := device.Open(cfg)
	if err != nil {
		return nil, err
	}
	if err := dev.SetHostPolicy(opt.OnTrap, opt.OnBreak); err != nil {
		return nil, err
	}
	dev.SetChecks(opt.Checks)
	r := &run{pl: pl, dev: dev, ptrs: map[string]device.Ptr{}, sizes: map[string]int64{}, where: map[*Launch]*device.Module{}, opt: opt,
		res: &Result{Status: pipeline.StatusCompleted, Launches: []LaunchRecord{}, Buffers: map[string][]uint32{}}}
	r.setup()
	if len(r.errs) > 0 {
		return nil, r.errs.Err()
	}
	err = r.steps(pl.Steps)
	r.res.Cycles = dev.Cycles()
	if oerr := r.outputs(); oerr != nil && err == nil {
		err = oerr
	}
	var bad diag.ErrorList
	if errors.As(err, &bad) {
		return nil, err
	}
	return r.res, err
}

// setup loads, allocates, fills and checks everything before the first
// step, collecting every error.
func (r *run) setup() {
	pl := r.pl
	for _, m := range pl.Modules {
		src, err := os.ReadFile(pl.path(m.Path))
		if err != nil {
			r.errs = append(r.errs, posErr(m.At, "module: %v", err))
			continue
		}
		mod, err := r.dev.Load(pl.path(m.Path), src)
		if err != nil {
			r.errs = append(r.errs, posErr(m.At, "module %s: %v", m.Path, err))
			continue
		}
		r.mods = append(r.mods, mod)
	}
	if len(r.errs) > 0 {
		return
	}
	for _, b := range pl.Buffers {
		data, err := pl.contents(b.Data, b.File)
		if err != nil {
			r.errs = append(r.errs, posErr(b.At, "buffer %s: %v", b.Name, err))
			continue
		}
		size := b.Size
		switch {
		case size < 0:
			size = int64(len(data))
		case int64(len(data)) > size:
			r.errs = append(r.errs, posErr(b.At, "buffer %s: %d bytes of data for a size of %d", b.Name, len(data), size))
			continue
		}
		if size == 0 {
			r.errs = append(r.errs, posErr(b.At, "buffer %s: empty (its file has no bytes)", b.Name))
			continue
		}
		p, err := r.dev.Alloc(b.Name, int(size))
		if err == nil { // zeroed or filled by the plan: written (--check init)
			err = r.dev.Fill(p, b.Fill, int(size))
		}
		if err == nil && len(data) > 0 {
			err = r.dev.Write(p, data)
		}
		if err != nil {
			r.errs = append(r.errs, posErr(b.At, "buffer %s: %v", b.Name, err))
			continue
		}
		r.ptrs[b.Name], r.sizes[b.Name] = p, size
	}
	for _, v := range pl.Vars {
		data, err := pl.contents(v.Data, v.File)
		if err != nil {
			r.errs = append(r.errs, posErr(v.At, "var %s: %v", v.Name, err))
			continue
		}
		var errs []string
		set := false
		for _, m := range r.mods {
			err := m.SetVar(v.Name, data)
			if err == nil {
				set = true
				break
			}
			errs = append(errs, err.Error())
		}
		if !set {
			r.errs = append(r.errs, posErr(v.At, "var %s: %s", v.Name, strings.Join(errs, "; ")))
		}
	}
	for _, o := range r.opt.Outputs {
		if _, ok := r.ptrs[o.Buffer]; !ok {
			r.errs = append(r.errs, posErr(o.At, "no buffer %q in the plan", o.Buffer))
		}
	}
	if len(r.errs) > 0 {
		return
	}
	r.check(pl.Steps)
}

// check resolves every launch's kernel and checks its arguments, and
// every condition's index, before anything runs.
func (r *run) check(steps []*Step) {
	for _, s := range steps {
		switch {
		case s.Launch != nil:
			r.checkLaunch(s)
		case s.Repeat != nil:
			if c := s.Repeat.Until; c != nil {
				if end := (c.Index + 1) * int64(literalTypes[c.Type]); end > r.sizes[c.Buffer] {
					r.errs = append(r.errs, posErr(c.At, "repeat.until: %s[%d] lies beyond the %d bytes of buffer %s", c.Type, c.Index, r.sizes[c.Buffer], c.Buffer))
				}
			}
			r.check(s.Repeat.Steps)
		}
	}
}

func (r *run) checkLaunch(s *Step) {
	l := s.Launch
	var found []*device.Module
	for _, m := range r.mods {
		if _, err := m.Params(l.Kernel); err == nil {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		var names []string
		for _, m := range r.mods {
			names = append(names, m.Kernels()...)
		}
		r.errs = append(r.errs, posErr(s.At, "launch: no kernel %q (kernels: %s)", l.Kernel, strings.Join(names, ", ")))
		return
	case 1:
	default:
		r.errs = append(r.errs, posErr(s.At, "launch: kernel %q is in both %s and %s", l.Kernel, found[0].Name(), found[1].Name()))
		return
	}
	r.where[l] = found[0]
	args, ok := r.args(s, found[0])
	if !ok {
		return
	}
	if err := found[0].CheckArgs(l.Kernel, args...); err != nil {
		r.errs = append(r.errs, posErr(s.At, "%v", err))
	}
}

// args orders a launch's arguments by parameter and turns buffers into
// pointers, recording what is wrong in r.errs.
func (r *run) args(s *Step, m *device.Module) ([]any, bool) {
	l := s.Launch
	params, _ := m.Params(l.Kernel)
	out := make([]any, len(params))
	ok := true
	named := len(l.Args) > 0 && l.Args[0].Param != ""
	if !named && len(l.Args) != len(params) {
		var names []string
		for _, p := range params {
			names = append(names, p.Name)
		}
		r.errs = append(r.errs, posErr(s.At, "launch %s: %d arguments for its %d parameters (%s)", l.Kernel, len(l.Args), len(params), strings.Join(names, ", ")))
		return nil, false
	}
	for i, a := range l.Args {
		at := i
		if named {
			at = -1
			for j, p := range params {
				if p.Name == a.Param || strconv.Itoa(j) == a.Param {
					at = j
				}
			}
			if at < 0 {
				r.errs = append(r.errs, posErr(a.KeyAt, "args: kernel %s has no parameter %q", l.Kernel, a.Param))
				ok = false
				continue
			}
			if out[at] != nil {
				r.errs = append(r.errs, posErr(a.KeyAt, "args: parameter %s is given twice", params[at].Name))
				ok = false
				continue
			}
		}
		if a.Buffer == "" {
			out[at] = a.Value
			continue
		}
		if a.Offset > r.sizes[a.Buffer] {
			r.errs = append(r.errs, posErr(a.At, "args: %s points %d bytes past the end of buffer %s (%d bytes)", a.Text, a.Offset-r.sizes[a.Buffer], a.Buffer, r.sizes[a.Buffer]))
			ok = false
		}
		out[at] = r.ptrs[a.Buffer].Add(a.Offset)
	}
	for j, v := range out {
		if v == nil && ok {
			r.errs = append(r.errs, posErr(s.At, "launch %s: parameter %s is given no argument", l.Kernel, params[j].Name))
			ok = false
		}
	}
	return out, ok
}

func (r *run) steps(steps []*Step) error {
	for _, s := range steps {
		var err error
		switch {
		case s.Launch != nil:
			err = r.launch(s)
		case s.Fill != nil:
			p := r.ptrs[s.Fill.Buffer]
			if err = r.dev.Fill(p, s.Fill.Byte, int(r.sizes[s.Fill.Buffer])); err != nil {
				err = &Failure{At: s.At, Msg: err.Error(), Err: err}
			}
		case s.Repeat != nil:
			err = r.repeat(s)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *run) launch(s *Step) error {
	l, m := s.Launch, r.where[s.Launch]
	args, _ := r.args(s, m)
	lc := device.LaunchConfig{Grid: l.Grid, Block: l.Block, Cluster: l.Cluster, DynamicSmem: l.DynamicSmem, MaxNReg: l.MaxNReg}
	rep, err := m.Launch(l.Kernel, lc, args...)
	if rep != nil {
		rec := LaunchRecord{Kernel: l.Kernel, At: s.At, Report: rep}
		r.res.Launches = append(r.res.Launches, rec)
		if r.opt.Progress != nil {
			r.opt.Progress(rec)
		}
	}
	var re *device.RunError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		r.res.Status = rep.Status
		return &Failure{At: s.At, Msg: err.Error(), Err: err}
	}
	return diag.ErrorList{posErr(s.At, "%v", err)}
}

func (r *run) repeat(s *Step) error {
	rp := s.Repeat
	passes := rp.Times
	if rp.Until != nil {
		passes = rp.Max
	}
	for range passes {
		if err := r.steps(rp.Steps); err != nil {
			return err
		}
		if rp.Until == nil {
			continue
		}
		hold, err := r.holds(rp.Until)
		if err != nil {
			return &Failure{At: rp.Until.At, Msg: err.Error(), Err: err}
		}
		if hold {
			return nil
		}
	}
	if rp.Until != nil {
		r.res.Status = "repeat_limit"
		return &Failure{At: s.At, Msg: fmt.Sprintf("repeat: %s still false after max %d passes", rp.Until.Text, rp.Max)}
	}
	return nil
}

// holds evaluates a condition on the buffer's current contents.
func (r *run) holds(c *Cond) (bool, error) {
	n := literalTypes[c.Type]
	b := make([]byte, n)
	if err := r.dev.Read(r.ptrs[c.Buffer].Add(c.Index*int64(n)), b); err != nil {
		return false, err
	}
	var u uint64
	for i := n - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	var cmp int // -1, 0, 1: the element against the value
	switch c.Type {
	case "f32", "f64":
		f := math.Float64frombits(u)
		if c.Type == "f32" {
			f = float64(math.Float32frombits(uint32(u)))
		}
		if math.IsNaN(f) || math.IsNaN(c.floatV) {
			return c.Op == "!=", nil
		}
		cmp = compare(f, c.floatV)
	case "i32":
		cmp = compare(int64(int32(u)), c.intV)
	case "i64":
		cmp = compare(int64(u), c.intV)
	default:
		cmp = compare(u, c.uintV)
	}
	switch c.Op {
	case "==":
		return cmp == 0, nil
	case "!=":
		return cmp != 0, nil
	case "<":
		return cmp < 0, nil
	case "<=":
		return cmp <= 0, nil
	case ">":
		return cmp > 0, nil
	}
	return cmp >= 0, nil
}

func compare[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// outputs lists every buffer's final words and writes the output files.
func (r *run) outputs() error {
	for _, b := range r.pl.Buffers {
		raw := make([]byte, (r.sizes[b.Name]+3)&^3)
		if err := r.dev.Read(r.ptrs[b.Name], raw[:r.sizes[b.Name]]); err != nil {
			return &Failure{At: b.At, Msg: err.Error(), Err: err}
		}
		words := make([]uint32, len(raw)/4)
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(raw[4*i:])
		}
		r.res.Buffers[b.Name] = words
	}
	write := func(o Output, path string) error {
		p, ok := r.ptrs[o.Buffer]
		if !ok {
			return diag.ErrorList{posErr(o.At, "no buffer %q", o.Buffer)}
		}
		data := make([]byte, r.sizes[o.Buffer])
		if err := r.dev.Read(p, data); err != nil {
			return &Failure{At: o.At, Msg: err.Error(), Err: err}
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return &Failure{At: o.At, Msg: err.Error(), Err: err}
		}
		return nil
	}
	for _, o := range r.pl.Outputs {
		if err := write(o, r.pl.path(o.Path)); err != nil {
			return err
		}
	}
	for _, o := range r.opt.Outputs {
		if err := write(o, o.Path); err != nil {
			return err
		}
	}
	return nil
}
