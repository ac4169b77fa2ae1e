package sweep

import (
	"encoding/base64"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"time"
)

var reportTmpl = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #eee; }
td.text { text-align: left; }
tr.failed td { background: #fdd; }
figure { margin: 1em 0; }
figcaption { font-size: 0.85em; color: #555; }
img { max-width: 100%; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>Spec <code>{{.Spec}}</code>: {{.Total}} points, {{.Completed}} completed, {{.Failed}} failed, {{.Pending}} pending. Written {{.When}}.</p>
{{if .Plots}}<h2>Plots</h2>
{{range .Plots}}<figure><img src="{{.Src}}" alt="{{.Title}}"><figcaption>{{.Title}}{{if .Note}} ({{.Note}}){{end}}; <a href="{{.SVG}}">SVG</a></figcaption></figure>
{{end}}{{end}}
<h2>Results</h2>
<table>
<tr>{{range .Columns}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr{{if .Failed}} class="failed"{{end}}>{{range .Cells}}<td{{if .Text}} class="text"{{end}}>{{.Value}}</td>{{end}}</tr>
{{end}}</table>
</body>
</html>
`))

// WriteHTML writes a self-contained page: the plots (PNG as data URIs)
// and the results table.
func (t *Table) WriteHTML(w io.Writer, plots []PlotFile) error {
	type fig struct {
		Title, Note, SVG string
		Src              template.URL
	}
	type cell struct {
		Value string
		Text  bool
	}
	type row struct {
		Cells  []cell
		Failed bool
	}
	title := t.Spec.Name
	if title == "" {
		title = "smsim sweep: " + filepath.Base(t.Spec.File)
	}
	d := struct {
		Title, Spec, When                 string
		Total, Completed, Failed, Pending int
		Plots                             []fig
		Columns                           []string
		Rows                              []row
	}{Title: title, Spec: t.Spec.File, When: time.Now().UTC().Format(time.RFC3339), Total: len(t.Results), Columns: t.Columns()}
	for _, p := range plots {
		data, err := os.ReadFile(p.PNG)
		if err != nil {
			return err
		}
		d.Plots = append(d.Plots, fig{Title: p.Title, Note: p.Note, SVG: "plots/" + filepath.Base(p.SVG),
			Src: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(data))})
	}
	metrics := map[string]bool{}
	for _, m := range t.Spec.Metrics {
		metrics[m] = true
	}
	for i, r := range t.Results {
		switch {
		case r.Status == StatusPending:
			d.Pending++
		case r.Failed():
			d.Failed++
		default:
			d.Completed++
		}
		var rw row
		rw.Failed = r.Failed()
		for _, c := range d.Columns {
			rw.Cells = append(rw.Cells, cell{Value: t.cell(i, c), Text: !metrics[c]})
		}
		d.Rows = append(d.Rows, rw)
	}
	return reportTmpl.Execute(w, d)
}
