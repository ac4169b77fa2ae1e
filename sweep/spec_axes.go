package sweep

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/yamlpos"
)

// The axes of a spec and its exclude rules: configuration keys, their
// values and ranges.

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
	for m := range p.Mappings(items, "exclude") {
		i, what, es := m.Index, m.What, m.Entries
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
			if !slices.Contains(vals, v) {
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
