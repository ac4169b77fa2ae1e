package sweep

import (
	"os"
	"path/filepath"

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
