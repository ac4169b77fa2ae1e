package sweep

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/diag"
	"github.com/smsim/smsim/internal/yamlpos"
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
type Error = diag.Error

// ErrorList holds every error found in a spec, in order of position.
type ErrorList = diag.ErrorList

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
	p := &specParser{Reader: &yamlpos.Reader{File: path}}
	s := &Spec{File: path, Dir: filepath.Dir(path), Preset: "h100"}
	if abs, err := filepath.Abs(s.Dir); err == nil {
		s.Dir = abs
	}
	body := p.Parse(data)
	if body == nil {
		return nil, p.Err()
	}
	p.spec(s, body)
	if err := p.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// specParser reads a spec's syntax tree (yamlpos: positions, helpers).
type specParser struct {
	*yamlpos.Reader
	pending []excludeKey
}

func (p *specParser) spec(s *Spec, body ast.Node) {
	top, ok := p.Mapping(body, "spec")
	if !ok {
		return
	}
	var wl, axes, plots ast.Node
	var haveWl, haveAxes, haveMetrics bool
	for _, e := range top {
		switch e.Key {
		case "name":
			s.Name, _ = p.Scalar(e.Val, "name")
		case "preset":
			if v, ok := p.Scalar(e.Val, "preset"); ok {
				if _, err := config.Preset(v); err != nil {
					p.Errorf(e.Val, "preset: %v", err)
				}
				s.Preset = v
			}
		case "set":
			p.fixed(s, e.Val)
		case "workloads":
			wl, haveWl = e.Val, true
		case "axes":
			axes, haveAxes = e.Val, true
		case "metrics":
			haveMetrics = true
			p.metrics(s, e.Val)
		case "exclude":
			p.exclude(s, e.Val)
		case "plots":
			plots = e.Val
		default:
			p.Errorf(e.KeyN, "unknown key %q (keys: name, preset, set, workloads, axes, metrics, exclude, plots)", e.Key)
		}
	}
	if !haveWl {
		p.Errorf(body, "workloads: missing (at least one kernel)")
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
	if len(p.Errs) == 0 {
		n := len(s.Workloads)
		for _, a := range s.Axes {
			n *= len(a.Values)
			if n > maxPoints {
				p.Errorf(axes, "axes: more than %d points", maxPoints)
				break
			}
		}
	}
}

func (p *specParser) fixed(s *Spec, n ast.Node) {
	es, ok := p.Mapping(n, "set")
	if !ok {
		return
	}
	for _, e := range es {
		v, ok := p.Scalar(e.Val, "set: "+e.Key)
		if !ok {
			continue
		}
		if p.checkKey(e.Key, e.KeyN, "set") && p.checkValue(e.Key, v, e.Val, "set") {
			s.Set = append(s.Set, KV{e.Key, v})
		}
	}
}

// controlled are run flags the sweep sets itself.
var controlled = []string{"--json", "--set", "--preset", "--seed", "--config", "--vcd", "--vcd-scope", "--vcd-window", "--fst"}

func (p *specParser) workloads(s *Spec, n ast.Node) {
	items, ok := p.List(n, "workloads", false)
	if !ok {
		return
	}
	if len(items) == 0 {
		p.Errorf(n, "workloads: empty (at least one kernel)")
	}
	names := map[string]int{}
	for i, it := range items {
		what := fmt.Sprintf("workloads[%d]", i)
		es, ok := p.Mapping(it, what)
		if !ok {
			continue
		}
		var w Workload
		var kernelN, nameN ast.Node
		plan := false
		for _, e := range es {
			switch e.Key {
			case "kernel":
				kernelN = e.Val
				w.Kernel, _ = p.Scalar(e.Val, what+".kernel")
			case "name":
				nameN = e.Val
				w.Name, _ = p.Scalar(e.Val, what+".name")
			case "args":
				vals, ok := p.List(e.Val, what+".args", false)
				if !ok {
					continue
				}
				for _, a := range vals {
					v, ok := p.Scalar(a, what+".args")
					if !ok {
						continue
					}
					flag, _, _ := strings.Cut(v, "=")
					for _, c := range controlled {
						if flag == c || flag == c[1:] {
							p.Errorf(a, "%s.args: %s is set by the sweep (use axes or set)", what, flag)
						}
					}
					w.Args = append(w.Args, v)
				}
			case "plan":
				plan = true
				p.Errorf(e.KeyN, "%s.plan: plan-file workloads are not supported yet (smsim run PLAN.yaml runs a plan; a sweep takes single kernels)", what)
			default:
				p.Errorf(e.KeyN, "%s: unknown key %q (keys: kernel, name, args)", what, e.Key)
			}
		}
		if kernelN == nil {
			if plan {
				continue
			}
			p.Errorf(it, "%s.kernel: missing", what)
			continue
		}
		if w.Kernel == "" {
			continue
		}
		if !filepath.IsAbs(w.Kernel) {
			w.Kernel = filepath.Join(s.Dir, w.Kernel)
		}
		if st, err := os.Stat(w.Kernel); err != nil || st.IsDir() {
			p.Errorf(kernelN, "%s.kernel: no such file: %s", what, w.Kernel)
		}
		w.Args = absBufs(s.Dir, w.Args)
		if w.Name == "" {
			w.Name = strings.TrimSuffix(filepath.Base(w.Kernel), filepath.Ext(w.Kernel))
			if names[w.Name] > 0 {
				w.Name = fmt.Sprintf("%s#%d", w.Name, names[w.Name]+1)
			}
		} else if names[w.Name] > 0 {
			p.Errorf(nameN, "%s.name: %q is used by another workload", what, w.Name)
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
			p.Errorf(n, "set: %q is not a configuration key (use the top-level preset, or the %s axis)", key, key)
			return false
		}
		return true
	}
	ki, err := config.Info(key)
	if err != nil {
		p.Errorf(n, "%s: %v", what, err)
		return false
	}
	if ki.Type == "section" || ki.Type == "list" {
		p.Errorf(n, "%s: %q is a %s; name one of its keys (%s)", what, key, ki.Type, ki.Accepts)
		return false
	}
	return true
}

func (p *specParser) checkValue(key, v string, n ast.Node, what string) bool {
	switch key {
	case AxisPreset:
		if _, err := config.Preset(v); err != nil {
			p.Errorf(n, "%s: %s: %v", what, key, err)
			return false
		}
		return true
	case AxisSeed:
		if _, err := strconv.ParseUint(v, 0, 64); err != nil {
			p.Errorf(n, "%s: seed %q: not an unsigned 64-bit integer", what, v)
			return false
		}
		return true
	}
	cfg := config.Default()
	if err := cfg.Set(key + "=" + v); err != nil {
		p.Errorf(n, "%s: %s: %v", what, key, err)
		return false
	}
	return true
}

func (p *specParser) axes(s *Spec, n ast.Node) {
	es, ok := p.Mapping(n, "axes")
	if !ok {
		return
	}
	for _, e := range es {
		what := "axes: " + e.Key
		if e.Key == AxisWorkload {
			p.Errorf(e.KeyN, "axes: %q is not a configuration key (workloads are listed under workloads)", e.Key)
			continue
		}
		if !p.checkKey(e.Key, e.KeyN, "axes") {
			continue
		}
		var vals []string
		var valN []ast.Node
		if m, isMap := yamlpos.Unwrap(e.Val).(*ast.MappingNode); isMap {
			vals = p.rangeValues(m, what)
			for range vals {
				valN = append(valN, m)
			}
		} else if m, isMV := yamlpos.Unwrap(e.Val).(*ast.MappingValueNode); isMV {
			vals = p.rangeValues(m, what)
			for range vals {
				valN = append(valN, m)
			}
		} else {
			items, ok := p.List(e.Val, what, true)
			if !ok {
				continue
			}
			for _, it := range items {
				if v, ok := p.Scalar(it, what); ok {
					vals = append(vals, v)
					valN = append(valN, it)
				}
			}
		}
		if len(vals) == 0 {
			if len(p.Errs) == 0 {
				p.Errorf(e.Val, "%s: no values", what)
			}
			continue
		}
		seen := map[string]bool{}
		good := true
		for i, v := range vals {
			if seen[v] {
				p.Errorf(valN[i], "%s: value %q given twice", what, v)
				good = false
			}
			seen[v] = true
			if !p.checkValue(e.Key, v, valN[i], "axes") {
				good = false
				break // a range repeats its error for every value
			}
		}
		if good {
			s.Axes = append(s.Axes, Axis{Key: e.Key, Values: vals})
		}
	}
}

// rangeValues expands {from, to, step} (to inclusive).
func (p *specParser) rangeValues(n ast.Node, what string) []string {
	es, ok := p.Mapping(n, what)
	if !ok {
		return nil
	}
	var from, to, step *float64
	at := map[string]ast.Node{}
	isInt := true
	for _, e := range es {
		at[e.Key] = e.Val
		v, ok := p.Scalar(e.Val, what+"."+e.Key)
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
			p.Errorf(e.Val, "%s: bad range: %s %q is not a number", what, e.Key, v)
			return nil
		}
		switch e.Key {
		case "from":
			from = &f
		case "to":
			to = &f
		case "step":
			step = &f
		default:
			p.Errorf(e.KeyN, "%s: bad range: unknown key %q (keys: from, to, step)", what, e.Key)
			return nil
		}
	}
	if from == nil || to == nil {
		p.Errorf(n, "%s: bad range: want from and to (and step, default 1)", what)
		return nil
	}
	st := 1.0
	if step != nil {
		st = *step
	}
	switch {
	case st <= 0:
		p.Errorf(at["step"], "%s: bad range: step %v must be positive", what, st)
		return nil
	case *to < *from:
		p.Errorf(at["to"], "%s: bad range: to %v is below from %v", what, *to, *from)
		return nil
	case (*to-*from)/st >= 10000:
		p.Errorf(n, "%s: bad range: more than 10000 values", what)
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
	items, ok := p.List(n, "metrics", false)
	if !ok {
		return
	}
	seen := map[string]bool{}
	for _, it := range items {
		m, ok := p.Scalar(it, "metrics")
		if !ok {
			continue
		}
		if err := CheckMetric(m); err != nil {
			p.Errorf(it, "metrics: %v", err)
			continue
		}
		if seen[m] {
			p.Errorf(it, "metrics: %q given twice", m)
			continue
		}
		seen[m] = true
		s.Metrics = append(s.Metrics, m)
	}
	if len(items) == 0 {
		p.Errorf(n, "metrics: empty")
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
	items, ok := p.List(n, "exclude", false)
	if !ok {
		return
	}
	for i, it := range items {
		what := fmt.Sprintf("exclude[%d]", i)
		es, ok := p.Mapping(it, what)
		if !ok {
			continue
		}
		rule := map[string][]string{}
		for _, e := range es {
			vals, ok := p.List(e.Val, what+": "+e.Key, true)
			if !ok {
				continue
			}
			k := excludeKey{rule: i, key: e.Key, keyN: e.KeyN}
			for _, v := range vals {
				if sv, ok := p.Scalar(v, what+": "+e.Key); ok {
					rule[e.Key] = append(rule[e.Key], sv)
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
			p.Errorf(k.keyN, "exclude[%d]: %q is not an axis (axes: %s)", k.rule, k.key, strings.Join(axisKeys(s), ", "))
			continue
		}
		for i, v := range k.vals {
			if !contains(vals, v) {
				p.Errorf(k.valNs[i], "exclude[%d]: %s has no value %q (values: %s)", k.rule, k.key, v, strings.Join(vals, ", "))
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
	items, ok := p.List(n, "plots", false)
	if !ok {
		return
	}
	names := map[string]bool{}
	for i, it := range items {
		what := fmt.Sprintf("plots[%d]", i)
		es, ok := p.Mapping(it, what)
		if !ok {
			continue
		}
		var pl Plot
		scalars := map[string]*string{"kind": &pl.Kind, "name": &pl.Name, "metric": &pl.Metric, "x": &pl.X, "y": &pl.Y, "per": &pl.Per}
		at := map[string]ast.Node{}
		for _, e := range es {
			at[e.Key] = e.Val
			if dst := scalars[e.Key]; dst != nil {
				if v, ok := p.Scalar(e.Val, what+"."+e.Key); ok {
					*dst = v
				}
				continue
			}
			switch e.Key {
			case "group":
				vals, ok := p.List(e.Val, what+".group", true)
				if !ok {
					continue
				}
				for _, v := range vals {
					if sv, ok := p.Scalar(v, what+".group"); ok {
						pl.Group = append(pl.Group, sv)
					}
				}
			case "baseline":
				bs, ok := p.Mapping(e.Val, what+".baseline")
				if !ok {
					continue
				}
				pl.Baseline = map[string]string{}
				for _, b := range bs {
					v, ok := p.Scalar(b.Val, what+".baseline."+b.Key)
					if !ok {
						continue
					}
					vals, isAxis := axisValues(s, b.Key)
					switch {
					case !isAxis:
						p.Errorf(b.KeyN, "%s.baseline: %q is not an axis (axes: %s)", what, b.Key, strings.Join(axisKeys(s), ", "))
					case !contains(vals, v):
						p.Errorf(b.Val, "%s.baseline: %s has no value %q (values: %s)", what, b.Key, v, strings.Join(vals, ", "))
					}
					pl.Baseline[b.Key] = v
				}
			default:
				p.Errorf(e.KeyN, "%s: unknown key %q (keys: kind, name, metric, x, y, group, per, baseline)", what, e.Key)
			}
		}
		switch pl.Kind {
		case PlotBars, PlotLines, PlotHeatmap:
			if pl.Metric == "" {
				p.Errorf(it, "%s.metric: missing", what)
			}
		case PlotSpeedup:
			if pl.Metric == "" {
				pl.Metric = "cycles"
			}
			if len(pl.Baseline) == 0 {
				p.Errorf(it, "%s.baseline: missing (the axis values of the baseline point)", what)
			}
		case PlotStalls:
			if pl.Metric != "" {
				p.Errorf(at["metric"], "%s.metric: a stalls plot draws the stall states; it takes no metric", what)
			}
		case "":
			p.Errorf(it, "%s.kind: missing (bars, lines, stalls, heatmap, speedup)", what)
			continue
		default:
			p.Errorf(at["kind"], "%s.kind: unknown plot kind %q (bars, lines, stalls, heatmap, speedup)", what, pl.Kind)
			continue
		}
		if pl.Metric != "" {
			if err := CheckMetric(pl.Metric); err != nil {
				p.Errorf(at["metric"], "%s.metric: %v", what, err)
			}
		}
		if pl.Kind != PlotSpeedup && pl.Baseline != nil {
			p.Errorf(at["baseline"], "%s.baseline: only a speedup plot has a baseline", what)
		}
		if pl.X == "" {
			p.Errorf(it, "%s.x: missing (an axis, or workload)", what)
		}
		if pl.Kind == PlotHeatmap && pl.Y == "" {
			p.Errorf(it, "%s.y: missing (a heat map has two axes)", what)
		}
		if pl.Kind != PlotHeatmap && pl.Y != "" {
			p.Errorf(at["y"], "%s.y: only a heat map has a y axis", what)
		}
		if pl.Kind == PlotHeatmap && len(pl.Group) > 0 {
			p.Errorf(at["group"], "%s.group: a heat map has no groups", what)
		}
		used := map[string]bool{}
		check := func(key, field string) {
			if key == "" {
				return
			}
			if _, ok := axisValues(s, key); !ok {
				p.Errorf(at[field], "%s.%s: %q is not an axis (axes: %s)", what, field, key, strings.Join(axisKeys(s), ", "))
				return
			}
			if used[key] {
				p.Errorf(at[field], "%s.%s: %q is used twice in this plot", what, field, key)
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
			p.Errorf(at["name"], "%s.name: %q is not a file name", what, pl.Name)
		}
		if names[pl.Name] {
			p.Errorf(it, "%s: another plot is named %q (give one a name)", what, pl.Name)
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
