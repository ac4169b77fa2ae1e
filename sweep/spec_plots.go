package sweep

import (
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// The plots of a spec.

func (p *specParser) plots(s *Spec, n ast.Node) {
	items, ok := p.List(n, "plots", false)
	if !ok {
		return
	}
	names := map[string]bool{}
	for m := range p.Mappings(items, "plots") {
		it, what, es := m.Node, m.What, m.Entries
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
					case !slices.Contains(vals, v):
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
