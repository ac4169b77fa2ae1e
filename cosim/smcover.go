package cosim

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Coverage of the SM RTL (issue 15 item 5, docs/sm-rtl.md section
// "Coverage"): the coverage bench (BuildSMCoverage, make sm-cov) is
// Verilated with line and toggle coverage and writes its counts at the end
// of each run; SMCoverage collects them in a directory, merges them with
// verilator_coverage and reports, per RTL file, the line and toggle
// points hit and the lines never run.

// SMCoverageFile is the name of the merged counts in a coverage
// directory; SMCoverageSummary that of the report, SMCoverageAnnotated
// that of verilator_coverage's annotated sources.
const (
	SMCoverageFile      = "coverage.dat"
	SMCoverageSummary   = "summary.md"
	SMCoverageAnnotated = "annotated"
)

// smCoverMergeEvery is how many runs' counts wait before they are merged
// (each is a few megabytes).
const smCoverMergeEvery = 32

// SMCoverage collects the coverage counts of SM runs in Dir. Runs add to
// what Dir already holds, so runs of several commands (the examples, then
// random programs) merge into one report.
type SMCoverage struct {
	Dir   string
	next  int
	parts []string
}

// NewSMCoverage makes dir (if needed) for coverage counts.
func NewSMCoverage(dir string) (*SMCoverage, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &SMCoverage{Dir: dir}, nil
}

// Part names the file the next run writes its counts to (SMOptions.Coverage).
func (c *SMCoverage) Part() string {
	p := filepath.Join(c.Dir, fmt.Sprintf("part-%d-%d.dat", os.Getpid(), c.next))
	c.next++
	c.parts = append(c.parts, p)
	return p
}

// Collect merges the runs' counts when enough are waiting.
func (c *SMCoverage) Collect(ctx context.Context) error {
	if len(c.parts) < smCoverMergeEvery {
		return nil
	}
	return c.Merge(ctx)
}

// Merge folds the runs' counts into Dir/coverage.dat (verilator_coverage
// --write) and removes them: this command's, and any a stopped command
// left in Dir (one command at a time per directory). A run that failed
// wrote none.
func (c *SMCoverage) Merge(ctx context.Context) error {
	var in []string
	merged := filepath.Join(c.Dir, SMCoverageFile)
	if _, err := os.Stat(merged); err == nil {
		in = append(in, merged)
	}
	// This run's parts, and those a run that was stopped left behind.
	parts, _ := filepath.Glob(filepath.Join(c.Dir, "part-*.dat"))
	in = append(in, parts...)
	c.parts = nil
	if len(in) == 0 || (len(in) == 1 && in[0] == merged) {
		return nil
	}
	tmp := merged + ".tmp"
	out, err := exec.CommandContext(ctx, "verilator_coverage", append([]string{"--write", tmp}, in...)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("cosim: verilator_coverage --write: %v: %s", err, strings.TrimSpace(string(out)))
	}
	if err := os.Rename(tmp, merged); err != nil {
		return err
	}
	for _, p := range parts {
		_ = os.Remove(p)
	}
	return nil
}

// CoverageStat counts points: how many there are and how many were hit.
type CoverageStat struct{ Points, Hit int }

// Pct is the share of points hit, in percent (100 without points).
func (s CoverageStat) Pct() float64 {
	if s.Points == 0 {
		return 100
	}
	return 100 * float64(s.Hit) / float64(s.Points)
}

// UncoveredLine is a line point never hit: where, what kind (Verilator's
// comment: block, if, else, case, ...), and the source line.
type UncoveredLine struct {
	Line    int
	Kind    string
	Source  string
	Covered string // the lines the point stands for (Verilator's S key)
}

// CoverageOfFile is one RTL file's coverage, over every instance of its
// modules (a point counts as hit when any instance hit it).
type CoverageOfFile struct {
	File      string // as Verilator names it (relative to verilog/)
	Line      CoverageStat
	Toggle    CoverageStat
	Uncovered []UncoveredLine
}

// SMCoverageReport is the report of a coverage directory.
type SMCoverageReport struct {
	Files     []CoverageOfFile
	Summary   string // Dir/summary.md
	Annotated string // Dir/annotated: verilator_coverage's annotated sources
}

// Report merges what waits, annotates the sources (verilator_coverage
// --annotate) and writes the summary: per RTL file the line and toggle
// coverage and every line point never hit. h is the harness the runs
// used (its verilog directory is where Verilator ran).
func (c *SMCoverage) Report(ctx context.Context, h HarnessOptions) (*SMCoverageReport, error) {
	srcDir, _, _, err := h.dirs()
	if err != nil {
		return nil, err
	}
	if err := c.Merge(ctx); err != nil {
		return nil, err
	}
	merged := filepath.Join(c.Dir, SMCoverageFile)
	f, err := os.Open(merged)
	if err != nil {
		return nil, fmt.Errorf("cosim: no coverage in %s (no run completed): %w", c.Dir, err)
	}
	files, err := parseCoverage(f, srcDir)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("cosim: %s: %w", merged, err)
	}
	rep := &SMCoverageReport{Files: files, Summary: filepath.Join(c.Dir, SMCoverageSummary), Annotated: filepath.Join(c.Dir, SMCoverageAnnotated)}
	for i := range rep.Files {
		cf := &rep.Files[i]
		src, _ := os.ReadFile(resolveCoverageSource(srcDir, cf.File))
		lines := strings.Split(string(src), "\n")
		for j := range cf.Uncovered {
			if n := cf.Uncovered[j].Line; n >= 1 && n <= len(lines) {
				cf.Uncovered[j].Source = strings.TrimSpace(lines[n-1])
			}
		}
	}
	_ = os.RemoveAll(rep.Annotated)
	cmd := exec.CommandContext(ctx, "verilator_coverage", "--annotate", rep.Annotated, "--annotate-min", "1", merged)
	cmd.Dir = srcDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("cosim: verilator_coverage --annotate: %v: %s", err, strings.TrimSpace(string(out)))
	}
	if err := os.WriteFile(rep.Summary, []byte(rep.Markdown()), 0o644); err != nil {
		return nil, err
	}
	return rep, nil
}

// resolveCoverageSource finds a file Verilator named relative to the
// directory it ran in.
func resolveCoverageSource(srcDir, file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(srcDir, file)
}

// Table is the per-file table (markdown).
func (r *SMCoverageReport) Table() string {
	var b strings.Builder
	b.WriteString("| file | line points | hit | line % | toggle points | hit | toggle % |\n|---|---|---|---|---|---|---|\n")
	var line, tog CoverageStat
	for _, f := range r.Files {
		fmt.Fprintf(&b, "| %s | %d | %d | %.1f | %d | %d | %.1f |\n", f.File, f.Line.Points, f.Line.Hit, f.Line.Pct(), f.Toggle.Points, f.Toggle.Hit, f.Toggle.Pct())
		line.Points += f.Line.Points
		line.Hit += f.Line.Hit
		tog.Points += f.Toggle.Points
		tog.Hit += f.Toggle.Hit
	}
	fmt.Fprintf(&b, "| all | %d | %d | %.1f | %d | %d | %.1f |\n", line.Points, line.Hit, line.Pct(), tog.Points, tog.Hit, tog.Pct())
	return b.String()
}

// Markdown is the summary: the table, then the line points never hit.
func (r *SMCoverageReport) Markdown() string {
	var b strings.Builder
	b.WriteString("# Coverage of the SM RTL\n\nLine points are Verilator's blocks and branches (`--coverage-line`), toggle points each bit's 0->1 and 1->0 (`--coverage-toggle`); a point counts as hit when any instance hit it. Annotated sources: `" + SMCoverageAnnotated + "/`.\n\n")
	b.WriteString(r.Table())
	for _, f := range r.Files {
		if len(f.Uncovered) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s: %d line points never hit\n\n", f.File, len(f.Uncovered))
		for _, u := range f.Uncovered {
			fmt.Fprintf(&b, "- %d (%s, lines %s): `%s`\n", u.Line, u.Kind, u.Covered, u.Source)
		}
	}
	return b.String()
}

// coverPoint is one point of a coverage.dat line.
type coverPoint struct {
	kind, file, comment, lines string
	line, col                  int
	count                      uint64
}

// parseCoverage reads verilator_coverage's format: lines "C '<keys>'
// count", the keys \x01-separated key\x02value pairs (f file, l line, n
// column, o comment, page v_line/..., v_branch/..., v_toggle/..., h
// hierarchy, S the lines a block stands for). File names under srcDir
// are shown relative to it.
func parseCoverage(f io.Reader, srcDir string) ([]CoverageOfFile, error) {
	type key struct {
		kind, file, comment string
		line, col           int
	}
	type agg struct {
		hit   bool
		lines string
	}
	points := map[key]*agg{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for sc.Scan() {
		n++
		p, ok, err := parseCoverLine(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if !ok {
			continue
		}
		if rel, err := filepath.Rel(srcDir, p.file); err == nil && filepath.IsAbs(p.file) && !strings.HasPrefix(rel, "..") {
			p.file = rel
		}
		k := key{p.kind, p.file, p.comment, p.line, p.col}
		a := points[k]
		if a == nil {
			a = &agg{lines: p.lines}
			points[k] = a
		}
		a.hit = a.hit || p.count > 0
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	byFile := map[string]*CoverageOfFile{}
	for k, a := range points {
		cf := byFile[k.file]
		if cf == nil {
			cf = &CoverageOfFile{File: k.file}
			byFile[k.file] = cf
		}
		st := &cf.Line
		if k.kind == "toggle" {
			st = &cf.Toggle
		}
		st.Points++
		if a.hit {
			st.Hit++
		} else if k.kind == "line" {
			cf.Uncovered = append(cf.Uncovered, UncoveredLine{Line: k.line, Kind: k.comment, Covered: a.lines})
		}
	}
	var out []CoverageOfFile
	for _, cf := range byFile {
		sort.Slice(cf.Uncovered, func(i, j int) bool {
			if cf.Uncovered[i].Line != cf.Uncovered[j].Line {
				return cf.Uncovered[i].Line < cf.Uncovered[j].Line
			}
			return cf.Uncovered[i].Kind < cf.Uncovered[j].Kind
		})
		out = append(out, *cf)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

// parseCoverLine parses one line; ok is false for lines that are not
// points (the header).
func parseCoverLine(s string) (coverPoint, bool, error) {
	var p coverPoint
	if !strings.HasPrefix(s, "C '") {
		return p, false, nil
	}
	end := strings.LastIndexByte(s, '\'')
	if end < 3 {
		return p, false, fmt.Errorf("unterminated key")
	}
	cnt, err := strconv.ParseUint(strings.TrimSpace(s[end+1:]), 10, 64)
	if err != nil {
		return p, false, fmt.Errorf("count: %w", err)
	}
	p.count = cnt
	for _, kv := range strings.Split(s[3:end], "\x01") {
		k, v, ok := strings.Cut(kv, "\x02")
		if !ok {
			continue
		}
		switch k {
		case "f":
			p.file = v
		case "l":
			p.line, _ = strconv.Atoi(v)
		case "n":
			p.col, _ = strconv.Atoi(v)
		case "o":
			p.comment = v
		case "S":
			p.lines = v
		case "page":
			switch {
			case strings.HasPrefix(v, "v_toggle/"):
				p.kind = "toggle"
			case strings.HasPrefix(v, "v_line/"), strings.HasPrefix(v, "v_branch/"):
				p.kind = "line"
			default:
				p.kind = "other"
			}
		}
	}
	if p.kind == "" || p.kind == "other" || p.file == "" {
		return p, false, nil
	}
	return p, true, nil
}
