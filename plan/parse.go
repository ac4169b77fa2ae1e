package plan

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/smsim/smsim/device"
	"github.com/smsim/smsim/internal/yamlpos"
)

// Plan is a parsed launch plan. Positions ("file:line:col") name where
// each part was written, for the messages of a run.
type Plan struct {
	File    string // the plan's path as given
	Dir     string // relative paths (modules, files) are read from here
	Set     []Setting
	Modules []Source
	Buffers []*Buffer // in order: allocated in this order
	Vars    []*Var
	Steps   []*Step
	Outputs []Output
}

// Setting is one configuration key = value of the plan's set.
type Setting struct{ Key, Value, At string }

// Source is a module file.
type Source struct{ Path, At string }

// Buffer is a named allocation: Data (literal values or, at run time,
// File's bytes) then Fill bytes up to Size (-1: the data's length).
type Buffer struct {
	Name string
	Size int64
	Fill byte
	Data []byte
	File string
	At   string
}

// Var fills a module __constant__ or .global variable.
type Var struct {
	Name string
	Data []byte
	File string
	At   string
}

// Step is one step of the plan: exactly one of Launch, Fill, Repeat.
type Step struct {
	At     string
	Launch *Launch
	Fill   *Fill
	Repeat *Repeat
}

// Launch runs one kernel.
type Launch struct {
	Kernel               string
	Grid, Block          device.Dim3
	Cluster              device.Dim3
	DynamicSmem, MaxNReg uint32
	Args                 []Arg // positional (Param "") or by parameter
}

// Arg is one kernel argument: a pointer into a buffer (Buffer, Offset
// bytes in) or a typed scalar Value (int64, uint64, float32, float64).
type Arg struct {
	Param  string // PTX name or position; "" in a positional list
	KeyAt  string // where Param is written
	Buffer string
	Offset int64
	Value  any
	Text   string
	At     string
}

// Fill sets every byte of a buffer.
type Fill struct {
	Buffer string
	Byte   byte
}

// Repeat runs Steps Times times, or until Until holds after a pass (at
// most Max passes; not holding then is an error).
type Repeat struct {
	Times int
	Until *Cond
	Max   int
	Steps []*Step
}

// Cond compares one element of a buffer with a value: Type is u32 (the
// default), i32, u64, i64, f32 or f64, Index counts elements of that type.
type Cond struct {
	Type   string
	Buffer string
	Index  int64
	Op     string
	Value  string // as written; parsed for Type
	Text   string
	At     string
	intV   int64
	uintV  uint64
	floatV float64
}

// Output writes a buffer's final bytes to a file.
type Output struct{ Buffer, Path, At string }

// Load reads and parses the plan at path.
func Load(path string) (*Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// maxDepth bounds nested repeats.
const maxDepth = 16

// Parse parses a plan (path names it in messages and anchors its relative
// paths; nothing is read). The error, if any, is a diag.ErrorList.
func Parse(path string, data []byte) (*Plan, error) {
	p := &parser{r: &yamlpos.Reader{File: path}, bufs: map[string]*Buffer{}}
	pl := &Plan{File: path, Dir: filepath.Dir(path)}
	if body := p.r.Parse(data); body != nil {
		p.plan(pl, body)
	}
	if err := p.r.Err(); err != nil {
		return nil, err
	}
	return pl, nil
}

type parser struct {
	r    *yamlpos.Reader
	bufs map[string]*Buffer
}

var nameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.$]*$`)

const topKeys = "set, module, modules, buffers, vars, steps, outputs"

func (p *parser) plan(pl *Plan, body ast.Node) {
	top, ok := p.r.Mapping(body, "plan")
	if !ok {
		return
	}
	var stepsN, outN ast.Node
	for _, e := range top {
		switch e.Key {
		case "set":
			p.settings(pl, e.Val)
		case "module", "modules":
			items, _ := p.r.List(e.Val, e.Key, true)
			for _, it := range items {
				if s, ok := p.r.Scalar(it, e.Key); ok && s != "" {
					pl.Modules = append(pl.Modules, Source{Path: s, At: p.r.At(it)})
				} else if ok {
					p.r.Errorf(it, "%s: empty path", e.Key)
				}
			}
		case "buffers":
			ents, _ := p.r.Mapping(e.Val, "buffers")
			for _, b := range ents {
				if buf := p.buffer(b); buf != nil {
					pl.Buffers = append(pl.Buffers, buf)
					p.bufs[buf.Name] = buf
				}
			}
		case "vars":
			ents, _ := p.r.Mapping(e.Val, "vars")
			for _, v := range ents {
				if x := p.variable(v); x != nil {
					pl.Vars = append(pl.Vars, x)
				}
			}
		case "steps":
			stepsN = e.Val
		case "outputs":
			outN = e.Val
		default:
			p.r.Errorf(e.KeyN, "unknown key %q (keys: %s)", e.Key, topKeys)
		}
	}
	if len(pl.Modules) == 0 {
		p.r.Errorf(body, "no module: give the kernels' PTX with module: FILE.ptx")
	}
	if stepsN == nil {
		p.r.Errorf(body, "no steps: nothing to run")
	} else {
		pl.Steps = p.steps(stepsN, 0)
	}
	if outN != nil {
		ents, _ := p.r.Mapping(outN, "outputs")
		for _, e := range ents {
			path, ok := p.r.Scalar(e.Val, "outputs."+e.Key)
			if !ok {
				continue
			}
			if p.bufs[e.Key] == nil {
				p.r.Errorf(e.KeyN, "outputs: no buffer %q", e.Key)
			} else if path == "" {
				p.r.Errorf(e.Val, "outputs.%s: empty path", e.Key)
			}
			pl.Outputs = append(pl.Outputs, Output{Buffer: e.Key, Path: path, At: p.r.At(e.KeyN)})
		}
	}
}

func (p *parser) settings(pl *Plan, n ast.Node) {
	if _, isList := yamlpos.Unwrap(n).(*ast.SequenceNode); isList {
		items, _ := p.r.List(n, "set", false)
		for _, it := range items {
			s, ok := p.r.Scalar(it, "set")
			if !ok {
				continue
			}
			k, v, ok := strings.Cut(s, "=")
			if !ok {
				p.r.Errorf(it, "set: %q: want key=value", s)
				continue
			}
			pl.Set = append(pl.Set, Setting{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v), At: p.r.At(it)})
		}
		return
	}
	ents, _ := p.r.Mapping(n, "set")
	for _, e := range ents {
		if v, ok := p.r.Scalar(e.Val, "set."+e.Key); ok {
			pl.Set = append(pl.Set, Setting{Key: e.Key, Value: v, At: p.r.At(e.KeyN)})
		}
	}
}

const bufKeys = "size, fill, file, u8, u16, u32, i32, u64, i64, f32, f64"

// contents reads the data keys shared by buffers and variables (file or
// one literal type); other keys go to extra.
func (p *parser) contents(what string, ents []yamlpos.Entry, extra func(yamlpos.Entry) bool) (data []byte, file string, given bool) {
	first := ""
	for _, e := range ents {
		isData := e.Key == "file" || literalTypes[e.Key] > 0
		if !isData {
			if !extra(e) {
				p.r.Errorf(e.KeyN, "%s: unknown key %q (keys: %s)", what, e.Key, bufKeys)
			}
			continue
		}
		if first != "" {
			p.r.Errorf(e.KeyN, "%s: %q and %q both give the contents; give one", what, first, e.Key)
			continue
		}
		first, given = e.Key, true
		if e.Key == "file" {
			f, ok := p.r.Scalar(e.Val, what+".file")
			if ok && f == "" {
				p.r.Errorf(e.Val, "%s.file: empty path", what)
			}
			file = f
			continue
		}
		items, ok := p.r.List(e.Val, what+"."+e.Key, true)
		if !ok {
			continue
		}
		for _, it := range items {
			s, ok := p.r.Scalar(it, what+"."+e.Key)
			if !ok {
				continue
			}
			b, err := encodeLiteral(e.Key, s)
			if err != nil {
				p.r.Errorf(it, "%s.%s: %v", what, e.Key, err)
				continue
			}
			data = append(data, b...)
		}
	}
	return data, file, given
}

func (p *parser) buffer(e yamlpos.Entry) *Buffer {
	b := &Buffer{Name: e.Key, Size: -1, At: p.r.At(e.KeyN)}
	if !nameRE.MatchString(e.Key) {
		p.r.Errorf(e.KeyN, "buffers: %q is not a name (a letter or _, then letters, digits, _)", e.Key)
		return nil
	}
	what := "buffers." + e.Key
	if _, isScalar := yamlpos.Unwrap(e.Val).(*ast.IntegerNode); isScalar {
		s, _ := p.r.Scalar(e.Val, what)
		b.Size = p.count(e.Val, what, s)
		return b
	}
	ents, ok := p.r.Mapping(e.Val, what)
	if !ok {
		return nil
	}
	var sizeN ast.Node
	data, file, given := p.contents(what, ents, func(x yamlpos.Entry) bool {
		switch x.Key {
		case "size":
			s, _ := p.r.Scalar(x.Val, what+".size")
			b.Size, sizeN = p.count(x.Val, what+".size", s), x.Val
		case "fill":
			s, _ := p.r.Scalar(x.Val, what+".fill")
			v, err := strconv.ParseUint(s, 0, 8)
			if err != nil {
				p.r.Errorf(x.Val, "%s.fill: %q is not a byte (0 to 255, 0xff)", what, s)
			}
			b.Fill = byte(v)
		default:
			return false
		}
		return true
	})
	b.Data, b.File = data, file
	switch {
	case !given && b.Size < 0:
		p.r.Errorf(e.KeyN, "%s: give a size, a file or literal values", what)
	case sizeN != nil && file == "" && b.Size >= 0 && int64(len(data)) > b.Size:
		p.r.Errorf(sizeN, "%s.size: %d bytes hold less than its %d bytes of values", what, b.Size, len(data))
	case b.Size == 0 || b.Size < 0 && given && file == "" && len(data) == 0:
		p.r.Errorf(e.KeyN, "%s: an empty buffer (a buffer has at least 1 byte)", what)
	}
	return b
}

// count parses a byte count (at most 1 TiB).
func (p *parser) count(n ast.Node, what, s string) int64 {
	v, err := strconv.ParseUint(s, 0, 40)
	if err != nil {
		p.r.Errorf(n, "%s: %q is not a byte count", what, s)
		return 0
	}
	return int64(v)
}

func (p *parser) variable(e yamlpos.Entry) *Var {
	v := &Var{Name: e.Key, At: p.r.At(e.KeyN)}
	what := "vars." + e.Key
	ents, ok := p.r.Mapping(e.Val, what)
	if !ok {
		return nil
	}
	data, file, given := p.contents(what, ents, func(yamlpos.Entry) bool { return false })
	if !given {
		p.r.Errorf(e.KeyN, "%s: give a file or literal values", what)
	}
	v.Data, v.File = data, file
	return v
}

func (p *parser) steps(n ast.Node, depth int) []*Step {
	items, ok := p.r.List(n, "steps", false)
	if !ok {
		return nil
	}
	if len(items) == 0 {
		p.r.Errorf(n, "steps: empty")
	}
	var out []*Step
	for _, it := range items {
		if s := p.step(it, depth); s != nil {
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) step(n ast.Node, depth int) *Step {
	ents, ok := p.r.Mapping(n, "step")
	if !ok {
		return nil
	}
	s := &Step{At: p.r.At(n)}
	var kind *yamlpos.Entry
	for i, e := range ents {
		if e.Key != "launch" && e.Key != "fill" && e.Key != "repeat" {
			continue
		}
		if kind != nil {
			p.r.Errorf(e.KeyN, "step: %s and %s in one step; give each its own - item", kind.Key, e.Key)
			return nil
		}
		kind = &ents[i]
	}
	if kind == nil {
		p.r.Errorf(n, "step: a step is a launch, a fill or a repeat (launch: KERNEL, fill: BUFFER, repeat: {...})")
		return nil
	}
	others := func(what string) {
		for _, e := range ents {
			if e.Key != kind.Key {
				p.r.Errorf(e.KeyN, "%s: unknown key %q (%s)", kind.Key, e.Key, what)
			}
		}
	}
	switch kind.Key {
	case "launch":
		s.Launch = p.launch(ents)
	case "fill":
		others("write fill: NAME or fill: {buffer: NAME, byte: B}")
		s.Fill = p.fill(kind.Val)
	case "repeat":
		others("its keys go under repeat:")
		if depth >= maxDepth {
			p.r.Errorf(kind.KeyN, "repeat: nested more than %d deep", maxDepth)
			return nil
		}
		s.Repeat = p.repeat(kind.Val, depth)
	}
	return s
}

func (p *parser) fill(n ast.Node) *Fill {
	f := &Fill{}
	var nameN ast.Node
	if yamlpos.Kind(yamlpos.Unwrap(n)) == "a scalar" {
		f.Buffer, _ = p.r.Scalar(n, "fill")
		nameN = n
	} else {
		ents, ok := p.r.Mapping(n, "fill")
		if !ok {
			return nil
		}
		for _, e := range ents {
			s, ok := p.r.Scalar(e.Val, "fill."+e.Key)
			if !ok {
				continue
			}
			switch e.Key {
			case "buffer":
				f.Buffer, nameN = s, e.Val
			case "byte":
				v, err := strconv.ParseUint(s, 0, 8)
				if err != nil {
					p.r.Errorf(e.Val, "fill.byte: %q is not a byte (0 to 255, 0xff)", s)
				}
				f.Byte = byte(v)
			default:
				p.r.Errorf(e.KeyN, "fill: unknown key %q (keys: buffer, byte)", e.Key)
			}
		}
	}
	if nameN == nil {
		p.r.Errorf(n, "fill: which buffer? (fill: NAME)")
	} else if p.bufs[f.Buffer] == nil {
		p.r.Errorf(nameN, "fill: no buffer %q", f.Buffer)
	}
	return f
}

const launchKeys = "launch, grid, block, cluster, dynamic_smem, maxnreg, args"

func (p *parser) launch(ents []yamlpos.Entry) *Launch {
	l := &Launch{Grid: device.Dim3{1}, Block: device.Dim3{1}}
	for _, e := range ents {
		what := "launch." + e.Key
		switch e.Key {
		case "launch":
			l.Kernel, _ = p.r.Scalar(e.Val, "launch")
			if l.Kernel == "" {
				p.r.Errorf(e.Val, "launch: which kernel? (launch: NAME)")
			}
		case "grid":
			l.Grid = p.dim(e.Val, what)
		case "block":
			l.Block = p.dim(e.Val, what)
		case "cluster":
			l.Cluster = p.dim(e.Val, what)
		case "dynamic_smem", "maxnreg":
			s, _ := p.r.Scalar(e.Val, what)
			v, err := strconv.ParseUint(s, 0, 32)
			if err != nil {
				p.r.Errorf(e.Val, "%s: %q is not an unsigned 32-bit integer", what, s)
			}
			if e.Key == "maxnreg" {
				l.MaxNReg = uint32(v)
			} else {
				l.DynamicSmem = uint32(v)
			}
		case "args":
			l.Args = p.args(e.Val)
		default:
			p.r.Errorf(e.KeyN, "launch: unknown key %q (keys: %s)", e.Key, launchKeys)
		}
	}
	return l
}

// dim reads X, [X, Y] or [X, Y, Z] (positive components).
func (p *parser) dim(n ast.Node, what string) device.Dim3 {
	d := device.Dim3{1, 1, 1}
	items, ok := p.r.List(n, what, true)
	if !ok {
		return d
	}
	if len(items) == 0 || len(items) > 3 {
		p.r.Errorf(n, "%s: want X, [X, Y] or [X, Y, Z]", what)
		return d
	}
	for i, it := range items {
		s, _ := p.r.Scalar(it, what)
		v, err := strconv.ParseUint(s, 0, 32)
		if err != nil || v == 0 {
			p.r.Errorf(it, "%s: %q is not a positive 32-bit integer", what, s)
			continue
		}
		d[i] = uint32(v)
	}
	return d
}

func (p *parser) args(n ast.Node) []Arg {
	var out []Arg
	if _, isList := yamlpos.Unwrap(n).(*ast.SequenceNode); isList {
		items, _ := p.r.List(n, "args", false)
		for _, it := range items {
			if a, ok := p.arg(it, ""); ok {
				out = append(out, a)
			}
		}
		return out
	}
	ents, ok := p.r.Mapping(n, "args")
	if !ok {
		return nil
	}
	for _, e := range ents {
		if a, ok := p.arg(e.Val, e.Key); ok {
			a.KeyAt = p.r.At(e.KeyN)
			out = append(out, a)
		}
	}
	return out
}

// arg reads BUFFER, BUFFER+OFFSET or a typed scalar (-3, 0x10, 1.5f, 2.0d).
func (p *parser) arg(n ast.Node, param string) (Arg, bool) {
	s, ok := p.r.Scalar(n, "args")
	if !ok {
		return Arg{}, false
	}
	a := Arg{Param: param, Text: s, At: p.r.At(n)}
	if v, err := ParseScalar(s); err == nil {
		a.Value = v
		return a, true
	}
	name, off, hasOff := strings.Cut(s, "+")
	name = strings.TrimSpace(name)
	if nameRE.MatchString(name) {
		if p.bufs[name] == nil {
			p.r.Errorf(n, "args: %q is no buffer of the plan and no number (-3, 0x10, 1.5f, 2.0d)", name)
			return a, false
		}
		a.Buffer = name
		if hasOff {
			o, err := strconv.ParseUint(strings.TrimSpace(off), 0, 40)
			if err != nil {
				p.r.Errorf(n, "args: %q: the offset %q is not a byte count", s, off)
				return a, false
			}
			a.Offset = int64(o)
		}
		return a, true
	}
	_, err := ParseScalar(s)
	p.r.Errorf(n, "args: %v", err)
	return a, false
}

func (p *parser) repeat(n ast.Node, depth int) *Repeat {
	ents, ok := p.r.Mapping(n, "repeat")
	if !ok {
		return nil
	}
	r := &Repeat{}
	var stepsN, timesN, maxN ast.Node
	for _, e := range ents {
		switch e.Key {
		case "times", "max":
			s, _ := p.r.Scalar(e.Val, "repeat."+e.Key)
			v, err := strconv.ParseUint(s, 0, 31)
			if err != nil || v == 0 {
				p.r.Errorf(e.Val, "repeat.%s: %q is not a positive count", e.Key, s)
			}
			if e.Key == "times" {
				r.Times, timesN = int(v), e.KeyN
			} else {
				r.Max, maxN = int(v), e.KeyN
			}
		case "until":
			s, ok := p.r.Scalar(e.Val, "repeat.until")
			if ok {
				r.Until = p.cond(e.Val, s)
			}
		case "steps":
			stepsN = e.Val
		default:
			p.r.Errorf(e.KeyN, "repeat: unknown key %q (keys: times, until, max, steps)", e.Key)
		}
	}
	switch {
	case timesN != nil && (r.Until != nil || maxN != nil):
		p.r.Errorf(timesN, "repeat: times counts the passes; until and max stop a loop on a condition: give one or the other")
	case timesN == nil && r.Until == nil:
		p.r.Errorf(n, "repeat: give times: N, or until: CONDITION with max: N")
	case r.Until != nil && maxN == nil:
		p.r.Errorf(n, "repeat: until needs max: N, the most passes to run")
	}
	if stepsN == nil {
		p.r.Errorf(n, "repeat: no steps")
	} else {
		r.Steps = p.steps(stepsN, depth+1)
	}
	return r
}
