package trace

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Options select what a Tracer dumps. The zero value dumps every signal of
// every cycle.
type Options struct {
	// Scopes, when non-empty, restricts the dump to the signals whose
	// hierarchical name is one of these prefixes or lies under one at a
	// scope boundary: "sm_top.g_warp" selects every warp slot
	// (sm_top.g_warp[0], ...), "sm_top.g_warp[3]" only slot 3,
	// "sm_top.u_warp_sched_0" that scheduler. sm_top.clk_i and
	// sm_top.rst_ni are always dumped.
	Scopes []string
	// Start and End bound the cycles dumped to [Start, End); End 0 means
	// to the end of the run.
	Start, End uint64
	// FST tells WriteGTKW to name the FST conversion of the dump
	// (FSTPath) in the save file when it exists.
	FST bool
}

// Check reports bad options: an empty window or an empty scope prefix.
func (o Options) Check() error {
	if o.End != 0 && o.End <= o.Start {
		return fmt.Errorf("trace: empty window %d:%d (want START < END, or END omitted)", o.Start, o.End)
	}
	for _, s := range o.Scopes {
		if s == "" || strings.ContainsAny(s, " \t\n") {
			return fmt.Errorf("trace: bad scope prefix %q", s)
		}
	}
	return nil
}

// ParseWindow parses the --vcd-window value START:END, the cycles
// [START, END) (decimal or 0x hex); either side may be empty: "100:"
// dumps from cycle 100 to the end, ":500" the first 500 cycles.
func ParseWindow(s string) (start, end uint64, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("--vcd-window %q: want START:END (cycles; either may be empty)", s)
	}
	if a = strings.TrimSpace(a); a != "" {
		if start, err = strconv.ParseUint(a, 0, 64); err != nil {
			return 0, 0, fmt.Errorf("--vcd-window %q: START is not a cycle number", s)
		}
	}
	if b = strings.TrimSpace(b); b != "" {
		if end, err = strconv.ParseUint(b, 0, 64); err != nil {
			return 0, 0, fmt.Errorf("--vcd-window %q: END is not a cycle number", s)
		}
		if end <= start {
			return 0, 0, fmt.Errorf("--vcd-window %q: END must be greater than START", s)
		}
	}
	return start, end, nil
}

// ParseScopes splits --vcd-scope values: each may hold several prefixes
// separated by commas; empty items are dropped.
func ParseScopes(values ...string) []string {
	var out []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// SavePath is the GTKWave save file written beside the dump vcdPath: its
// extension replaced by .gtkw (run.vcd -> run.gtkw).
func SavePath(vcdPath string) string { return withExt(vcdPath, ".gtkw") }

// FSTPath is the FST file ConvertFST writes for vcdPath (run.vcd ->
// run.fst).
func FSTPath(vcdPath string) string { return withExt(vcdPath, ".fst") }

func withExt(p, ext string) string {
	if filepath.Ext(p) == ext {
		return p + ext
	}
	return strings.TrimSuffix(p, filepath.Ext(p)) + ext
}
