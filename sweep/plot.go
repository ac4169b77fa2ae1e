package sweep

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PlotFile is one drawn plot.
type PlotFile struct {
	Title string
	PNG   string // path
	SVG   string // path
	Note  string // how the data was aggregated
}

// DrawPlots draws the spec's plots from the completed points into dir.
// A plot with no completed point to draw is left out.
func (t *Table) DrawPlots(dir string) ([]PlotFile, error) {
	if len(t.Spec.Plots) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var out []PlotFile
	for _, pl := range t.Spec.Plots {
		facets := []string{""}
		if pl.Per != "" {
			facets, _ = axisValues(t.Spec, pl.Per)
		}
		for _, f := range facets {
			p, note, err := t.drawOne(pl, f)
			if err != nil {
				return out, fmt.Errorf("plot %s: %v", pl.Name, err)
			}
			if p == nil {
				continue
			}
			stem := pl.Name
			if pl.Per != "" {
				stem += "-" + sanitize(f)
			}
			pf := PlotFile{Title: p.Title.Text, PNG: filepath.Join(dir, stem+".png"), SVG: filepath.Join(dir, stem+".svg"), Note: note}
			w, h := plotSize(pl, t)
			for _, path := range []string{pf.PNG, pf.SVG} {
				if err := save(p, w, h, path); err != nil {
					return out, fmt.Errorf("plot %s: %v", pl.Name, err)
				}
			}
			out = append(out, pf)
		}
	}
	return out, nil
}

func plotSize(pl Plot, t *Table) (vg.Length, vg.Length) {
	xs, _ := axisValues(t.Spec, pl.X)
	n := len(xs) * max(1, len(t.groups(pl)))
	w := 6 * vg.Inch
	if pl.Kind != PlotHeatmap && pl.Kind != PlotLines && n > 12 {
		w = vg.Length(min(11, 4+float64(n)/6)) * vg.Inch
	}
	return w, 4 * vg.Inch
}

// legendWidth is the strip right of the plot that holds its legend.
const legendWidth = 1.6 * vg.Inch

// save writes a PNG or SVG (by extension), the legend beside the data
// rather than over it.
func save(p *plot.Plot, w, h vg.Length, path string) error {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	defer func() { p.Legend = leg }()
	var canvas vg.CanvasWriterTo
	if strings.HasSuffix(path, ".svg") {
		canvas = vgsvg.New(w+legendWidth, h)
	} else {
		canvas = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w+legendWidth, h), vgimg.UseDPI(96))}
	}
	dc := draw.New(canvas)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	leg.Left, leg.Top = true, true
	leg.Draw(draw.Crop(dc, w+vg.Points(6), 0, 0, -vg.Points(24)))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// groups returns the group labels of a plot in spec order, and each
// point's label.
func (t *Table) groups(pl Plot) []string {
	if len(pl.Group) == 0 {
		return []string{""}
	}
	labels := []string{""}
	for _, g := range pl.Group {
		vals, _ := axisValues(t.Spec, g)
		var next []string
		for _, l := range labels {
			for _, v := range vals {
				if l == "" {
					next = append(next, v)
				} else {
					next = append(next, l+"/"+v)
				}
			}
		}
		labels = next
	}
	return labels
}

func groupOf(pl Plot, p *Point) string {
	var parts []string
	for _, g := range pl.Group {
		parts = append(parts, p.Value(g))
	}
	return strings.Join(parts, "/")
}

// cells aggregates value over the completed points of one facet by
// (x, group): arithmetic or geometric mean.
func (t *Table) cells(pl Plot, facet string, value func(i int) (float64, bool), geo bool) map[[2]string]float64 {
	sum := map[[2]string]float64{}
	n := map[[2]string]int{}
	for i := range t.Points {
		p := &t.Points[i]
		if t.Results[i].Status != "completed" || pl.Per != "" && p.Value(pl.Per) != facet {
			continue
		}
		v, ok := value(i)
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) || geo && v <= 0 {
			continue
		}
		second := groupOf(pl, p)
		if pl.Kind == PlotHeatmap {
			second = p.Value(pl.Y)
		}
		k := [2]string{p.Value(pl.X), second}
		if geo {
			v = math.Log(v)
		}
		sum[k] += v
		n[k]++
	}
	out := map[[2]string]float64{}
	for k, s := range sum {
		m := s / float64(n[k])
		if geo {
			m = math.Exp(m)
		}
		out[k] = m
	}
	return out
}

// aggregated names the dimensions a plot averages over.
func (t *Table) aggregated(pl Plot) []string {
	used := map[string]bool{pl.X: true, pl.Y: true, pl.Per: true}
	for _, g := range pl.Group {
		used[g] = true
	}
	var out []string
	for _, k := range axisKeys(t.Spec) {
		vals, _ := axisValues(t.Spec, k)
		if !used[k] && len(vals) > 1 {
			out = append(out, k)
		}
	}
	return out
}

func (t *Table) drawOne(pl Plot, facet string) (*plot.Plot, string, error) {
	over := t.aggregated(pl)
	note := ""
	mean := "mean"
	if pl.Kind == PlotSpeedup {
		mean = "geometric mean"
	}
	if len(over) > 0 {
		note = mean + " over " + strings.Join(over, ", ")
	}
	title := func(s string) string {
		if facet != "" {
			s += " (" + pl.Per + " " + facet + ")"
		}
		return s
	}
	metric := func(i int) (float64, bool) { return metricFloat(t.reports[i], pl.Metric) }
	switch pl.Kind {
	case PlotBars, PlotLines:
		c := t.cells(pl, facet, metric, false)
		if len(c) == 0 {
			return nil, "", nil
		}
		p, err := t.series(pl, c, pl.Metric)
		if err != nil {
			return nil, "", err
		}
		p.Title.Text = title(pl.Metric + " by " + pl.X)
		return p, note, nil
	case PlotSpeedup:
		c := t.cells(pl, facet, t.speedup(pl), true)
		if len(c) == 0 {
			return nil, "", nil
		}
		p, err := t.series(pl, c, "speed-up")
		if err != nil {
			return nil, "", err
		}
		var base []string
		for _, k := range axisKeys(t.Spec) {
			if v, ok := pl.Baseline[k]; ok {
				base = append(base, k+"="+v)
			}
		}
		p.Title.Text = title(fmt.Sprintf("speed-up in %s over %s", pl.Metric, strings.Join(base, ", ")))
		one := plotter.NewFunction(func(float64) float64 { return 1 })
		one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		one.Color = color.Gray{Y: 100}
		p.Add(one)
		return p, note, nil
	case PlotStalls:
		p, err := t.stalls(pl, facet)
		if p != nil {
			p.Title.Text = title("warp states by " + strings.Join(append([]string{pl.X}, pl.Group...), ", "))
		}
		return p, note, err
	case PlotHeatmap:
		c := t.cells(pl, facet, metric, false)
		if len(c) == 0 {
			return nil, "", nil
		}
		p, err := t.heatmap(pl, c)
		if p != nil {
			p.Title.Text = title(pl.Metric + " over " + pl.X + " and " + pl.Y)
		}
		return p, note, err
	}
	return nil, "", fmt.Errorf("unknown plot kind %q", pl.Kind)
}

// speedup returns, for each point, baseline metric / point metric, where
// the baseline point has the point's values except the baseline's.
func (t *Table) speedup(pl Plot) func(i int) (float64, bool) {
	keys := axisKeys(t.Spec)
	id := func(get func(string) string) string {
		var b strings.Builder
		for _, k := range keys {
			b.WriteString(get(k))
			b.WriteByte(0)
		}
		return b.String()
	}
	index := map[string]int{}
	for i := range t.Points {
		p := &t.Points[i]
		index[id(p.Value)] = i
	}
	return func(i int) (float64, bool) {
		p := &t.Points[i]
		bi, ok := index[id(func(k string) string {
			if v, ok := pl.Baseline[k]; ok {
				return v
			}
			return p.Value(k)
		})]
		if !ok || t.Results[bi].Status != "completed" {
			return 0, false
		}
		base, ok1 := metricFloat(t.reports[bi], pl.Metric)
		v, ok2 := metricFloat(t.reports[i], pl.Metric)
		if !ok1 || !ok2 || v == 0 {
			return 0, false
		}
		return base / v, true
	}
}

// series draws grouped bars (or lines) of c[x, group].
func (t *Table) series(pl Plot, c map[[2]string]float64, ylabel string) (*plot.Plot, error) {
	p := plot.New()
	p.Y.Label.Text = ylabel
	p.X.Label.Text = pl.X
	xs, _ := axisValues(t.Spec, pl.X)
	var groups []string
	for _, g := range t.groups(pl) {
		for _, x := range xs {
			if _, ok := c[[2]string{x, g}]; ok {
				groups = append(groups, g)
				break
			}
		}
	}
	colors := colorsFor(len(groups))
	numeric := pl.Kind == PlotLines
	xv := make([]float64, len(xs))
	for i, x := range xs {
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			numeric = false
		}
		xv[i] = f
	}
	if pl.Kind == PlotLines {
		if !numeric {
			for i := range xv {
				xv[i] = float64(i)
			}
			p.NominalX(xs...)
			p.X.Label.Text = pl.X
		}
		for gi, g := range groups {
			var pts plotter.XYs
			for i, x := range xs {
				if v, ok := c[[2]string{x, g}]; ok {
					pts = append(pts, plotter.XY{X: xv[i], Y: v})
				}
			}
			l, s, err := plotter.NewLinePoints(pts)
			if err != nil {
				return nil, err
			}
			l.Color, s.Color = colors[gi], colors[gi]
			s.Shape = draw.CircleGlyph{}
			p.Add(l, s)
			if g != "" {
				p.Legend.Add(g, l, s)
			}
		}
		return p, nil
	}
	n := max(len(groups), 1)
	width := vg.Points(min(24, 200/float64(n*len(xs))+4))
	for gi, g := range groups {
		vals := make(plotter.Values, len(xs))
		for i, x := range xs {
			vals[i] = c[[2]string{x, g}] // 0 where no point completed
		}
		b, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		b.Color = colors[gi]
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(gi)-float64(n-1)/2) * width
		p.Add(b)
		if g != "" {
			p.Legend.Add(g, b)
		}
	}
	p.NominalX(xs...)
	if len(pl.Group) > 0 {
		p.X.Label.Text = pl.X + "   (bars: " + strings.Join(pl.Group, "/") + ")"
	}
	p.Y.Min = 0
	p.Y.Max *= 1.05
	p.Add(plotter.NewGrid())
	return p, nil
}

func colorsFor(n int) []color.Color {
	if n <= 7 {
		out := make([]color.Color, n)
		for i := range out {
			out[i] = plotutil.Color(i)
		}
		return out
	}
	return palette.Rainbow(n, palette.Red, palette.Magenta, 0.6, 0.85, 1).Colors()
}

// stalls draws stacked bars of warp-state shares, one bar per (x, group).
func (t *Table) stalls(pl Plot, facet string) (*plot.Plot, error) {
	type bar struct {
		label  string
		shares map[string]float64
		n      int
	}
	xs, _ := axisValues(t.Spec, pl.X)
	var bars []*bar
	byLabel := map[string]*bar{}
	for _, x := range xs {
		for _, g := range t.groups(pl) {
			l := x
			if g != "" {
				l += "\n" + g
			}
			b := &bar{label: l, shares: map[string]float64{}}
			bars = append(bars, b)
			byLabel[x+"\x00"+g] = b
		}
	}
	states := map[string]bool{}
	for i := range t.Points {
		p := &t.Points[i]
		if t.Results[i].Status != "completed" || pl.Per != "" && p.Value(pl.Per) != facet {
			continue
		}
		st, _ := t.reports[i]["stalls"].(map[string]any)
		var total float64
		vals := map[string]float64{}
		for k := range st {
			if k == "idle" {
				continue // empty warp slots
			}
			f, _ := metricFloat(st, k)
			vals[k] = f
			total += f
		}
		if total == 0 {
			continue
		}
		b := byLabel[p.Value(pl.X)+"\x00"+groupOf(pl, p)]
		for k, v := range vals {
			b.shares[k] += v / total
			if v > 0 {
				states[k] = true
			}
		}
		b.n++
	}
	var kept []*bar
	for _, b := range bars {
		if b.n > 0 {
			kept = append(kept, b)
		}
	}
	if len(kept) == 0 || len(states) == 0 {
		return nil, nil
	}
	var names []string
	for s := range states {
		names = append(names, s)
	}
	sort.Strings(names)
	p := plot.New()
	p.Y.Label.Text = "share of resident warp-cycles"
	p.X.Label.Text = strings.Join(append([]string{pl.X}, pl.Group...), " / ")
	var labels []string
	for _, b := range kept {
		labels = append(labels, b.label)
	}
	colors := colorsFor(len(names))
	width := vg.Points(min(30, 360/float64(len(kept))))
	var below *plotter.BarChart
	for si, s := range names {
		vals := make(plotter.Values, len(kept))
		for i, b := range kept {
			vals[i] = b.shares[s] / float64(b.n)
		}
		bc, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		bc.Color = colors[si]
		bc.LineStyle.Width = 0
		if below != nil {
			bc.StackOn(below)
		}
		below = bc
		p.Add(bc)
		p.Legend.Add(s, bc)
	}
	p.NominalX(labels...)
	p.Y.Max = 1
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	return p, nil
}

// grid is a heat map's data: c[x, y] over the axes' values.
type grid struct {
	xs, ys []string
	v      map[[2]string]float64
}

func (g grid) Dims() (c, r int) { return len(g.xs), len(g.ys) }
func (g grid) Z(c, r int) float64 {
	if v, ok := g.v[[2]string{g.xs[c], g.ys[r]}]; ok {
		return v
	}
	return math.NaN()
}
func (g grid) X(c int) float64 { return float64(c) }
func (g grid) Y(r int) float64 { return float64(r) }

func (t *Table) heatmap(pl Plot, c map[[2]string]float64) (*plot.Plot, error) {
	xs, _ := axisValues(t.Spec, pl.X)
	ys, _ := axisValues(t.Spec, pl.Y)
	g := grid{xs: xs, ys: ys, v: c}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range c {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo == hi {
		hi = lo + 1
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(lo)
	cm.SetMax(hi)
	pal := cm.Palette(64)
	h := plotter.NewHeatMap(g, pal)
	h.Min, h.Max = lo, hi
	h.NaN = color.Gray{Y: 230}
	p := plot.New()
	p.Add(h)
	p.X.Label.Text = pl.X
	p.Y.Label.Text = pl.Y
	p.X.Tick.Marker = nominal(xs)
	p.Y.Tick.Marker = nominal(ys)
	var lp plotter.XYLabels
	for ci, x := range xs {
		for ri, y := range ys {
			if v, ok := c[[2]string{x, y}]; ok {
				lp.XYs = append(lp.XYs, plotter.XY{X: float64(ci), Y: float64(ri)})
				lp.Labels = append(lp.Labels, strconv.FormatFloat(v, 'g', 4, 64))
			}
		}
	}
	if len(lp.XYs) > 0 {
		labels, err := plotter.NewLabels(lp)
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign = -0.5
			labels.TextStyle[i].YAlign = -0.5
		}
		p.Add(labels)
	}
	// A colour key: the palette's range in the legend.
	for _, q := range []float64{lo, (lo + hi) / 2, hi} {
		col, err := cm.At(q)
		if err != nil {
			continue
		}
		p.Legend.Add(strconv.FormatFloat(q, 'g', 4, 64), swatch{col})
	}
	return p, nil
}

// swatch is a legend entry of one colour.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.c, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}})
}

// nominal labels integer positions with names.
type nominal []string

func (n nominal) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for i, s := range n {
		out = append(out, plot.Tick{Value: float64(i), Label: s})
	}
	return out
}
