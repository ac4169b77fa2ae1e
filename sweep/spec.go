package sweep

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/smsim/smsim/config"
)

// Pseudo axis keys: not configuration keys.
const (
	AxisPreset   = "preset"   // the base preset (smsim run --preset)
	AxisSeed     = "seed"     // the seed of every pseudo-random choice (--seed)
	AxisWorkload = "workload" // a workload's name, usable in exclude rules and plots
)

// maxPoints bounds a spec's expansion so that a typo in a range cannot
// allocate without limit.
const maxPoints = 1_000_000

// Spec is a parsed, validated study.
type Spec struct {
	File      string                // the spec file as given
	Dir       string                // its directory: workload paths are relative to it
	Name      string                // a title for the report ("" = the file's base name)
	Preset    string                // base preset of every point unless the preset axis varies
	Set       []KV                  // fixed overrides applied to every point, in order
	Workloads []Workload            // at least one
	Axes      []Axis                // in spec order
	Metrics   []string              // report paths, in spec order
	Exclude   []map[string][]string // a point matching every key of one rule is left out
	Plots     []Plot
}

// KV is one configuration override.
type KV struct{ Key, Value string }

// Workload is one kernel launch: the kernel file and its `smsim run` flags.
type Workload struct {
	Name   string   // unique in the spec; the kernel's base name unless given
	Kernel string   // absolute path
	Args   []string // launch flags, as `smsim run` takes them
}

// Axis is one swept key with its values (as strings, in order).
type Axis struct {
	Key    string
	Values []string
}

// Plot kinds.
const (
	PlotBars    = "bars"    // a metric against one axis, bars grouped by another
	PlotLines   = "lines"   // a metric against one axis, one line per group
	PlotStalls  = "stalls"  // stall states as stacked bars per point group
	PlotHeatmap = "heatmap" // a metric over two axes
	PlotSpeedup = "speedup" // a time metric's speed-up against a baseline point
)

// Plot is one plot request. X, Y, Group and Per name axes (or "workload");
// every other axis is aggregated: the arithmetic mean for metrics, the
// geometric mean for speed-ups.
type Plot struct {
	Kind     string
	Name     string            // file stem in plots/ (default: derived from kind and keys)
	Metric   string            // bars, lines, heatmap, speedup (default cycles for speedup)
	X        string            // required
	Y        string            // heatmap only
	Group    []string          // bars, lines, stalls, speedup: one series per combination
	Per      string            // one file per value of this axis ("" = one file)
	Baseline map[string]string // speedup: the axis values of the baseline point
}

// Error is a spec error at a position: "file:line:col: message".
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// ErrorList holds every error found in a spec, in order of position.
type ErrorList []*Error

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Load reads and validates a spec file.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse validates a spec; path names it in errors and anchors its relative
// workload paths. The error, if any, is an ErrorList.
func Parse(path string, data []byte) (*Spec, error) {
	p := &specParser{file: path}
	s := &Spec{File: path, Dir: filepath.Dir(path), Preset: "h100"}
	if abs, err := filepath.Abs(s.Dir); err == nil {
		s.Dir = abs
	}
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		var se *yaml.SyntaxError
		if errors.As(err, &se) && se.Token != nil {
			p.errAt(se.Token.Position.Line, se.Token.Position.Column, "%s", se.Message)
		} else {
			p.errAt(0, 0, "%v", err)
		}
		return nil, p.errs
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		p.errAt(1, 1, "want one YAML document with a mapping at the top")
		return nil, p.errs
	}
	p.spec(s, f.Docs[0].Body)
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			a, b := p.errs[i], p.errs[j]
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, p.errs
	}
	return s, nil
}

type specParser struct {
	file    string
	errs    ErrorList
	pending []excludeKey
}

func (p *specParser) errAt(line, col int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func (p *specParser) errorf(n ast.Node, format string, args ...any) {
	line, col := 0, 0
	switch m := n.(type) {
	case *ast.MappingNode:
		if len(m.Values) > 0 {
			n = m.Values[0].Key // a block mapping's own token is its first ':'
		}
	case *ast.MappingValueNode:
		n = m.Key
	}
	if n != nil {
		if t := n.GetToken(); t != nil && t.Position != nil {
			line, col = t.Position.Line, t.Position.Column
		}
	}
	p.errAt(line, col, format, args...)
}

// unwrap strips anchors, tags and comments; aliases are refused.
func (p *specParser) unwrap(n ast.Node) ast.Node {
	for n != nil {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.CommentGroupNode:
			return nil
		default:
			return n
		}
	}
	return n
}

type entry struct {
	key  string
	keyN ast.Node
	val  ast.Node
}

// mapping returns the entries of a mapping node, reporting duplicates.
func (p *specParser) mapping(n ast.Node, what string) ([]entry, bool) {
	n = p.unwrap(n)
	var vals []*ast.MappingValueNode
	switch v := n.(type) {
	case *ast.MappingNode:
		vals = v.Values
	case *ast.MappingValueNode:
		vals = []*ast.MappingValueNode{v}
	default:
		p.errorf(n, "%s: want a mapping, have %s", what, kind(n))
		return nil, false
	}
	seen := map[string]bool{}
	var out []entry
	for _, mv := range vals {
		k, ok := p.scalar(mv.Key, what+" key")
		if !ok {
			continue
		}
		if seen[k] {
			p.errorf(mv.Key, "%s: key %q given twice", what, k)
			continue
		}
		seen[k] = true
		out = append(out, entry{key: k, keyN: mv.Key, val: mv.Value})
	}
	return out, true
}

func kind(n ast.Node) string {
	switch n.(type) {
	case nil:
		return "nothing"
	case *ast.NullNode:
		return "null"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.AliasNode:
		return "an alias"
	}
	return "a scalar"
}

// scalar returns a scalar's text (strings unquoted, numbers as written).
func (p *specParser) scalar(n ast.Node, what string) (string, bool) {
	n = p.unwrap(n)
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return v.GetToken().Value, true
	case *ast.LiteralNode:
		return strings.TrimRight(v.Value.Value, "\n"), true
	}
	p.errorf(n, "%s: want a scalar, have %s", what, kind(n))
	return "", false
}

// list returns a sequence's items; a scalar is a list of one when one is true.
func (p *specParser) list(n ast.Node, what string, one bool) ([]ast.Node, bool) {
	n = p.unwrap(n)
	if s, ok := n.(*ast.SequenceNode); ok {
		return s.Values, true
	}
	if one && kind(n) == "a scalar" {
		return []ast.Node{n}, true
	}
	p.errorf(n, "%s: want a list, have %s", what, kind(n))
	return nil, false
}

func (p *specParser) spec(s *Spec, body ast.Node) {
	top, ok := p.mapping(body, "spec")
	if !ok {
		return
	}
	var wl, axes, plots ast.Node
	var haveWl, haveAxes, haveMetrics bool
	for _, e := range top {
		switch e.key {
		case "name":
			s.Name, _ = p.scalar(e.val, "name")
		case "preset":
			if v, ok := p.scalar(e.val, "preset"); ok {
				if _, err := config.Preset(v); err != nil {
					p.errorf(e.val, "preset: %v", err)
				}
				s.Preset = v
			}
		case "set":
			p.fixed(s, e.val)
		case "workloads":
			wl, haveWl = e.val, true
		case "axes":
			axes, haveAxes = e.val, true
		case "metrics":
			haveMetrics = true
			p.metrics(s, e.val)
		case "exclude":
			p.exclude(s, e.val)
		case "plots":
			plots = e.val
		default:
			p.errorf(e.keyN, "unknown key %q (keys: name, preset, set, workloads, axes, metrics, exclude, plots)", e.key)
		}
	}
	if !haveWl {
		p.errorf(body, "workloads: missing (at least one kernel)")
	} else {
		p.workloads(s, wl)
	}
	if haveAxes {
		p.axes(s, axes)
	}
	if !haveMetrics {
		s.Metrics = []string{"cycles", "ipc"}
	}
	p.checkExclude(s)
	if plots != nil {
		p.plots(s, plots)
	}
	if len(p.errs) == 0 {
		n := len(s.Workloads)
		for _, a := range s.Axes {
			n *= len(a.Values)
			if n > maxPoints {
				p.errorf(axes, "axes: more than %d points", maxPoints)
				break
			}
		}
	}
}

func (p *specParser) fixed(s *Spec, n ast.Node) {
	es, ok := p.mapping(n, "set")
	if !ok {
		return
	}
	for _, e := range es {
		v, ok := p.scalar(e.val, "set: "+e.key)
		if !ok {
			continue
		}
		if p.checkKey(e.key, e.keyN, "set") && p.checkValue(e.key, v, e.val, "set") {
			s.Set = append(s.Set, KV{e.key, v})
		}
	}
}

// controlled are run flags the sweep sets itself.
var controlled = []string{"--json", "--set", "--preset", "--seed", "--config", "--vcd", "--vcd-scope", "--vcd-window", "--fst"}

func (p *specParser) workloads(s *Spec, n ast.Node) {
	items, ok := p.list(n, "workloads", false)
	if !ok {
		return
	}
	if len(items) == 0 {
		p.errorf(n, "workloads: empty (at least one kernel)")
	}
	names := map[string]int{}
	for i, it := range items {
		what := fmt.Sprintf("workloads[%d]", i)
		es, ok := p.mapping(it, what)
		if !ok {
			continue
		}
		var w Workload
		var kernelN, nameN ast.Node
		plan := false
		for _, e := range es {
			switch e.key {
			case "kernel":
				kernelN = e.val
				w.Kernel, _ = p.scalar(e.val, what+".kernel")
			case "name":
				nameN = e.val
				w.Name, _ = p.scalar(e.val, what+".name")
			case "args":
				vals, ok := p.list(e.val, what+".args", false)
				if !ok {
					continue
				}
				for _, a := range vals {
					v, ok := p.scalar(a, what+".args")
					if !ok {
						continue
					}
					flag, _, _ := strings.Cut(v, "=")
					for _, c := range controlled {
						if flag == c || flag == c[1:] {
							p.errorf(a, "%s.args: %s is set by the sweep (use axes or set)", what, flag)
						}
					}
					w.Args = append(w.Args, v)
				}
			case "plan":
				plan = true
				p.errorf(e.keyN, "%s.plan: plan-file workloads are not supported yet (smsim run PLAN.yaml runs a plan; a sweep takes single kernels)", what)
			default:
				p.errorf(e.keyN, "%s: unknown key %q (keys: kernel, name, args)", what, e.key)
			}
		}
		if kernelN == nil {
			if plan {
				continue
			}
			p.errorf(it, "%s.kernel: missing", what)
			continue
		}
		if w.Kernel == "" {
			continue
		}
		if !filepath.IsAbs(w.Kernel) {
			w.Kernel = filepath.Join(s.Dir, w.Kernel)
		}
		if st, err := os.Stat(w.Kernel); err != nil || st.IsDir() {
			p.errorf(kernelN, "%s.kernel: no such file: %s", what, w.Kernel)
		}
		w.Args = absBufs(s.Dir, w.Args)
		if w.Name == "" {
			w.Name = strings.TrimSuffix(filepath.Base(w.Kernel), filepath.Ext(w.Kernel))
			if names[w.Name] > 0 {
				w.Name = fmt.Sprintf("%s#%d", w.Name, names[w.Name]+1)
			}
		} else if names[w.Name] > 0 {
			p.errorf(nameN, "%s.name: %q is used by another workload", what, w.Name)
		}
		names[w.Name]++
		s.Workloads = append(s.Workloads, w)
	}
}

// absBufs makes --buf PARAM=@file paths relative to the spec's directory.
func absBufs(dir string, args []string) []string {
	out := append([]string(nil), args...)
	for i := range out {
		var v *string
		switch {
		case (out[i] == "--buf" || out[i] == "-buf") && i+1 < len(out):
			v = &out[i+1]
		case strings.HasPrefix(out[i], "--buf="):
			s := out[i][len("--buf="):]
			if nv := absBuf(dir, s); nv != s {
				out[i] = "--buf=" + nv
			}
			continue
		default:
			continue
		}
		*v = absBuf(dir, *v)
	}
	return out
}

func absBuf(dir, kv string) string {
	p, v, ok := strings.Cut(kv, "=@")
	if !ok || filepath.IsAbs(v) {
		return kv
	}
	return p + "=@" + filepath.Join(dir, v)
}

func (p *specParser) checkKey(key string, n ast.Node, what string) bool {
	switch key {
	case AxisPreset, AxisSeed:
		if what == "set" {
			p.errorf(n, "set: %q is not a configuration key (use the top-level preset, or the %s axis)", key, key)
			return false
		}
		return true
	}
	ki, err := config.Info(key)
	if err != nil {
		p.errorf(n, "%s: %v", what, err)
		return false
	}
	if ki.Type == "section" || ki.Type == "list" {
		p.errorf(n, "%s: %q is a %s; name one of its keys (%s)", what, key, ki.Type, ki.Accepts)
		return false
	}
	return true
}

func (p *specParser) checkValue(key, v string, n ast.Node, what string) bool {
	switch key {
	case AxisPreset:
		if _, err := config.Preset(v); err != nil {
			p.errorf(n, "%s: %s: %v", what, key, err)
			return false
		}
		return true
	case AxisSeed:
		if _, err := strconv.ParseUint(v, 0, 64); err != nil {
			p.errorf(n, "%s: seed %q: not an unsigned 64-bit integer", what, v)
			return false
		}
		return true
	}
	cfg := config.Default()
	if err := cfg.Set(key + "=" + v); err != nil {
		p.errorf(n, "%s: %s: %v", what, key, err)
		return false
	}
	return true
}

func (p *specParser) axes(s *Spec, n ast.Node) {
	es, ok := p.mapping(n, "axes")
	if !ok {
		return
	}
	for _, e := range es {
		what := "axes: " + e.key
		if e.key == AxisWorkload {
			p.errorf(e.keyN, "axes: %q is not a configuration key (workloads are listed under workloads)", e.key)
			continue
		}
		if !p.checkKey(e.key, e.keyN, "axes") {
			continue
		}
		var vals []string
		var valN []ast.Node
		if m, isMap := p.unwrap(e.val).(*ast.MappingNode); isMap {
			vals = p.rangeValues(m, what)
			for range vals {
				valN = append(valN, m)
			}
		} else if m, isMV := p.unwrap(e.val).(*ast.MappingValueNode); isMV {
			vals = p.rangeValues(m, what)
			for range vals {
				valN = append(valN, m)
			}
		} else {
			items, ok := p.list(e.val, what, true)
			if !ok {
				continue
			}
			for _, it := range items {
				if v, ok := p.scalar(it, what); ok {
					vals = append(vals, v)
					valN = append(valN, it)
				}
			}
		}
		if len(vals) == 0 {
			if len(p.errs) == 0 {
				p.errorf(e.val, "%s: no values", what)
			}
			continue
		}
		seen := map[string]bool{}
		good := true
		for i, v := range vals {
			if seen[v] {
				p.errorf(valN[i], "%s: value %q given twice", what, v)
				good = false
			}
			seen[v] = true
			if !p.checkValue(e.key, v, valN[i], "axes") {
				good = false
				break // a range repeats its error for every value
			}
		}
		if good {
			s.Axes = append(s.Axes, Axis{Key: e.key, Values: vals})
		}
	}
}

// rangeValues expands {from, to, step} (to inclusive).
func (p *specParser) rangeValues(n ast.Node, what string) []string {
	es, ok := p.mapping(n, what)
	if !ok {
		return nil
	}
	var from, to, step *float64
	at := map[string]ast.Node{}
	isInt := true
	for _, e := range es {
		at[e.key] = e.val
		v, ok := p.scalar(e.val, what+"."+e.key)
		if !ok {
			return nil
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, "_", ""), 64)
		if iv, ierr := strconv.ParseInt(v, 0, 64); ierr == nil {
			f, err = float64(iv), nil
		} else {
			isInt = false
		}
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			p.errorf(e.val, "%s: bad range: %s %q is not a number", what, e.key, v)
			return nil
		}
		switch e.key {
		case "from":
			from = &f
		case "to":
			to = &f
		case "step":
			step = &f
		default:
			p.errorf(e.keyN, "%s: bad range: unknown key %q (keys: from, to, step)", what, e.key)
			return nil
		}
	}
	if from == nil || to == nil {
		p.errorf(n, "%s: bad range: want from and to (and step, default 1)", what)
		return nil
	}
	st := 1.0
	if step != nil {
		st = *step
	}
	switch {
	case st <= 0:
		p.errorf(at["step"], "%s: bad range: step %v must be positive", what, st)
		return nil
	case *to < *from:
		p.errorf(at["to"], "%s: bad range: to %v is below from %v", what, *to, *from)
		return nil
	case (*to-*from)/st >= 10000:
		p.errorf(n, "%s: bad range: more than 10000 values", what)
		return nil
	}
	var out []string
	for i := 0; ; i++ {
		v := *from + float64(i)*st
		if v > *to+1e-9*math.Abs(st) {
			break
		}
		if isInt {
			out = append(out, strconv.FormatInt(int64(v), 10))
		} else {
			out = append(out, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return out
}

func (p *specParser) metrics(s *Spec, n ast.Node) {
	items, ok := p.list(n, "metrics", false)
	if !ok {
		return
	}
	seen := map[string]bool{}
	for _, it := range items {
		m, ok := p.scalar(it, "metrics")
		if !ok {
			continue
		}
		if err := CheckMetric(m); err != nil {
			p.errorf(it, "metrics: %v", err)
			continue
		}
		if seen[m] {
			p.errorf(it, "metrics: %q given twice", m)
			continue
		}
		seen[m] = true
		s.Metrics = append(s.Metrics, m)
	}
	if len(items) == 0 {
		p.errorf(n, "metrics: empty")
	}
}

// excludeNodes keeps rule keys' nodes for checks after the axes are known.
type excludeKey struct {
	rule  int
	key   string
	keyN  ast.Node
	vals  []string
	valNs []ast.Node
}

func (p *specParser) exclude(s *Spec, n ast.Node) {
	items, ok := p.list(n, "exclude", false)
	if !ok {
		return
	}
	for i, it := range items {
		what := fmt.Sprintf("exclude[%d]", i)
		es, ok := p.mapping(it, what)
		if !ok {
			continue
		}
		rule := map[string][]string{}
		for _, e := range es {
			vals, ok := p.list(e.val, what+": "+e.key, true)
			if !ok {
				continue
			}
			k := excludeKey{rule: i, key: e.key, keyN: e.keyN}
			for _, v := range vals {
				if sv, ok := p.scalar(v, what+": "+e.key); ok {
					rule[e.key] = append(rule[e.key], sv)
					k.vals, k.valNs = append(k.vals, sv), append(k.valNs, v)
				}
			}
			p.pending = append(p.pending, k)
		}
		s.Exclude = append(s.Exclude, rule)
	}
}

// checkExclude requires exclude keys to be axes (or workload) and values
// to be among the axis's values.
func (p *specParser) checkExclude(s *Spec) {
	for _, k := range p.pending {
		vals, ok := axisValues(s, k.key)
		if !ok {
			p.errorf(k.keyN, "exclude[%d]: %q is not an axis (axes: %s)", k.rule, k.key, strings.Join(axisKeys(s), ", "))
			continue
		}
		for i, v := range k.vals {
			if !contains(vals, v) {
				p.errorf(k.valNs[i], "exclude[%d]: %s has no value %q (values: %s)", k.rule, k.key, v, strings.Join(vals, ", "))
			}
		}
	}
}

func axisKeys(s *Spec) []string {
	out := []string{AxisWorkload}
	for _, a := range s.Axes {
		out = append(out, a.Key)
	}
	return out
}

// axisValues returns the values of an axis, or the workload names.
func axisValues(s *Spec, key string) ([]string, bool) {
	if key == AxisWorkload {
		var out []string
		for _, w := range s.Workloads {
			out = append(out, w.Name)
		}
		return out, true
	}
	for _, a := range s.Axes {
		if a.Key == key {
			return a.Values, true
		}
	}
	return nil, false
}

func contains(l []string, v string) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

func (p *specParser) plots(s *Spec, n ast.Node) {
	items, ok := p.list(n, "plots", false)
	if !ok {
		return
	}
	names := map[string]bool{}
	for i, it := range items {
		what := fmt.Sprintf("plots[%d]", i)
		es, ok := p.mapping(it, what)
		if !ok {
			continue
		}
		var pl Plot
		at := map[string]ast.Node{}
		for _, e := range es {
			at[e.key] = e.val
			switch e.key {
			case "kind", "name", "metric", "x", "y", "per":
				v, ok := p.scalar(e.val, what+"."+e.key)
				if !ok {
					continue
				}
				switch e.key {
				case "kind":
					pl.Kind = v
				case "name":
					pl.Name = v
				case "metric":
					pl.Metric = v
				case "x":
					pl.X = v
				case "y":
					pl.Y = v
				case "per":
					pl.Per = v
				}
			case "group":
				vals, ok := p.list(e.val, what+".group", true)
				if !ok {
					continue
				}
				for _, v := range vals {
					if sv, ok := p.scalar(v, what+".group"); ok {
						pl.Group = append(pl.Group, sv)
					}
				}
			case "baseline":
				bs, ok := p.mapping(e.val, what+".baseline")
				if !ok {
					continue
				}
				pl.Baseline = map[string]string{}
				for _, b := range bs {
					v, ok := p.scalar(b.val, what+".baseline."+b.key)
					if !ok {
						continue
					}
					vals, isAxis := axisValues(s, b.key)
					switch {
					case !isAxis:
						p.errorf(b.keyN, "%s.baseline: %q is not an axis (axes: %s)", what, b.key, strings.Join(axisKeys(s), ", "))
					case !contains(vals, v):
						p.errorf(b.val, "%s.baseline: %s has no value %q (values: %s)", what, b.key, v, strings.Join(vals, ", "))
					}
					pl.Baseline[b.key] = v
				}
			default:
				p.errorf(e.keyN, "%s: unknown key %q (keys: kind, name, metric, x, y, group, per, baseline)", what, e.key)
			}
		}
		switch pl.Kind {
		case PlotBars, PlotLines, PlotHeatmap:
			if pl.Metric == "" {
				p.errorf(it, "%s.metric: missing", what)
			}
		case PlotSpeedup:
			if pl.Metric == "" {
				pl.Metric = "cycles"
			}
			if len(pl.Baseline) == 0 {
				p.errorf(it, "%s.baseline: missing (the axis values of the baseline point)", what)
			}
		case PlotStalls:
			if pl.Metric != "" {
				p.errorf(at["metric"], "%s.metric: a stalls plot draws the stall states; it takes no metric", what)
			}
		case "":
			p.errorf(it, "%s.kind: missing (bars, lines, stalls, heatmap, speedup)", what)
			continue
		default:
			p.errorf(at["kind"], "%s.kind: unknown plot kind %q (bars, lines, stalls, heatmap, speedup)", what, pl.Kind)
			continue
		}
		if pl.Metric != "" {
			if err := CheckMetric(pl.Metric); err != nil {
				p.errorf(at["metric"], "%s.metric: %v", what, err)
			}
		}
		if pl.Kind != PlotSpeedup && pl.Baseline != nil {
			p.errorf(at["baseline"], "%s.baseline: only a speedup plot has a baseline", what)
		}
		if pl.X == "" {
			p.errorf(it, "%s.x: missing (an axis, or workload)", what)
		}
		if pl.Kind == PlotHeatmap && pl.Y == "" {
			p.errorf(it, "%s.y: missing (a heat map has two axes)", what)
		}
		if pl.Kind != PlotHeatmap && pl.Y != "" {
			p.errorf(at["y"], "%s.y: only a heat map has a y axis", what)
		}
		if pl.Kind == PlotHeatmap && len(pl.Group) > 0 {
			p.errorf(at["group"], "%s.group: a heat map has no groups", what)
		}
		used := map[string]bool{}
		check := func(key, field string) {
			if key == "" {
				return
			}
			if _, ok := axisValues(s, key); !ok {
				p.errorf(at[field], "%s.%s: %q is not an axis (axes: %s)", what, field, key, strings.Join(axisKeys(s), ", "))
				return
			}
			if used[key] {
				p.errorf(at[field], "%s.%s: %q is used twice in this plot", what, field, key)
			}
			used[key] = true
		}
		check(pl.X, "x")
		check(pl.Y, "y")
		for _, g := range pl.Group {
			check(g, "group")
		}
		check(pl.Per, "per")
		if pl.Name == "" {
			pl.Name = defaultPlotName(pl)
		}
		if strings.ContainsAny(pl.Name, "/\\") || strings.HasPrefix(pl.Name, ".") {
			p.errorf(at["name"], "%s.name: %q is not a file name", what, pl.Name)
		}
		if names[pl.Name] {
			p.errorf(it, "%s: another plot is named %q (give one a name)", what, pl.Name)
		}
		names[pl.Name] = true
		s.Plots = append(s.Plots, pl)
	}
}

func defaultPlotName(pl Plot) string {
	parts := []string{pl.Kind}
	if pl.Metric != "" && pl.Kind != PlotStalls {
		parts = append(parts, pl.Metric)
	}
	parts = append(parts, pl.X)
	if pl.Y != "" {
		parts = append(parts, pl.Y)
	}
	parts = append(parts, pl.Group...)
	if pl.Per != "" {
		parts = append(parts, "per", pl.Per)
	}
	return sanitize(strings.Join(parts, "-"))
}

// sanitize keeps file names portable.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}
