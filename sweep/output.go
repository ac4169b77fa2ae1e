package sweep

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// StatusPending marks a point of the spec with no result yet.
const StatusPending = "pending"

// Table is the results of a spec's points, in the spec's point order.
type Table struct {
	Spec    *Spec
	Points  []Point
	Results []Result         // Results[i] is Points[i]'s; Status pending when not run
	reports []map[string]any // decoded reports (nil when none)
}

// LoadTable reads the results of the spec's points from DIR's database.
func LoadTable(s *Spec, dir string) (*Table, error) {
	points, err := s.Points()
	if err != nil {
		return nil, err
	}
	db, err := OpenDB(dir)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	all, err := db.All()
	if err != nil {
		return nil, err
	}
	t := &Table{Spec: s, Points: points}
	for _, p := range points {
		r, ok := all[p.Hash]
		if !ok {
			r = Result{Hash: p.Hash, Workload: p.Workload, Values: p.Values, Args: p.Args, Status: StatusPending}
		}
		// The row's names come from the spec (a renamed workload keeps its results).
		r.Workload, r.Values = p.Workload, p.Values
		t.Results = append(t.Results, r)
		t.reports = append(t.reports, decodeReport(r.Report))
	}
	return t, nil
}

// Columns are the table's columns: workload, one per axis, one per metric,
// status, error.
func (t *Table) Columns() []string {
	cols := []string{AxisWorkload}
	for _, a := range t.Spec.Axes {
		cols = append(cols, a.Key)
	}
	cols = append(cols, t.Spec.Metrics...)
	return append(cols, "status", "error")
}

// cell returns row i's value of a column as text ("" when missing).
func (t *Table) cell(i int, col string) string {
	r := &t.Results[i]
	switch col {
	case AxisWorkload:
		return r.Workload
	case "status":
		return r.Status
	case "error":
		return r.Error
	}
	if _, isAxis := r.Values[col]; isAxis {
		return r.Values[col]
	}
	v, ok := metricValue(t.reports[i], col)
	if !ok {
		return ""
	}
	return fmt.Sprint(v)
}

// WriteCSV writes the table with a header row.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cols := t.Columns()
	if err := cw.Write(cols); err != nil {
		return err
	}
	row := make([]string, len(cols))
	for i := range t.Results {
		for j, c := range cols {
			row[j] = t.cell(i, c)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// jsonValue gives axis values that read as numbers as JSON numbers.
func jsonValue(s string) any {
	if _, err := strconv.ParseFloat(s, 64); err == nil && json.Valid([]byte(s)) {
		return json.Number(s)
	}
	return s
}

// WriteJSON writes {"spec", "columns", "rows"}; each row is an object
// keyed by column, metrics as numbers (null when missing).
func (t *Table) WriteJSON(w io.Writer) error {
	type doc struct {
		Spec    string           `json:"spec"`
		Columns []string         `json:"columns"`
		Rows    []map[string]any `json:"rows"`
	}
	d := doc{Spec: t.Spec.File, Columns: t.Columns(), Rows: []map[string]any{}}
	for i, r := range t.Results {
		row := map[string]any{AxisWorkload: r.Workload, "status": r.Status, "error": r.Error, "hash": r.Hash}
		for _, a := range t.Spec.Axes {
			row[a.Key] = jsonValue(r.Values[a.Key])
		}
		for _, m := range t.Spec.Metrics {
			v, ok := metricValue(t.reports[i], m)
			if !ok {
				v = nil
			}
			row[m] = v
		}
		d.Rows = append(d.Rows, row)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// WriteOutputs writes results.csv, results.json, plots/ and report.html
// into DIR from its database. It returns the plot files written.
func WriteOutputs(s *Spec, dir string) ([]string, error) {
	t, err := LoadTable(s, dir)
	if err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(dir, "results.csv"), t.WriteCSV); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(dir, "results.json"), t.WriteJSON); err != nil {
		return nil, err
	}
	plots, err := t.DrawPlots(filepath.Join(dir, "plots"))
	if err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(dir, "report.html"), func(w io.Writer) error { return t.WriteHTML(w, plots) }); err != nil {
		return nil, err
	}
	var files []string
	for _, p := range plots {
		files = append(files, p.PNG, p.SVG)
	}
	return files, nil
}

// writeFile writes through a temporary file and renames it into place.
func writeFile(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("%s: %v", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
