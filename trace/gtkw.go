package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/smsim/smsim/vcd"
)

// ErrNoVcd2fst is returned by ConvertFST when GTKWave's vcd2fst is not
// installed.
var ErrNoVcd2fst = errors.New("trace: vcd2fst not found (it is part of GTKWave: make deps / scripts/deps.sh installs it)")

// ConvertFST converts the VCD file vcdPath to FST (GTKWave's compressed
// format) at FSTPath(vcdPath) with GTKWave's vcd2fst, and returns that
// path. It fails with ErrNoVcd2fst when vcd2fst is not on the PATH; the
// VCD is left in place either way.
func ConvertFST(vcdPath string) (string, error) {
	tool, err := exec.LookPath("vcd2fst")
	if err != nil {
		return "", ErrNoVcd2fst
	}
	out := FSTPath(vcdPath)
	if msg, err := exec.Command(tool, vcdPath, out).CombinedOutput(); err != nil {
		return "", fmt.Errorf("trace: vcd2fst %s %s: %v: %s", vcdPath, out, err, strings.TrimSpace(string(msg)))
	}
	return out, nil
}

// View geometry of the save file.
const (
	viewWidth    = 1600
	viewHeight   = 1000
	signalsWidth = 330
	viewCycles   = 100 // cycles shown across the wave pane at first
)

// WriteGTKW writes the GTKWave save file path for the dump vcdPath
// written by a Tracer: it opens the dump (or, with opt.FST, its FST
// conversion when that exists) and shows the important signals in
// groups: the SM top (clock, reset, status, cycle counter), the warps
// that were ever valid (state by name, PC, active mask; the rest in a
// closed group), the issue stage and the warp schedulers, the trap unit,
// the register pool, the timers, the performance counters, the barriers
// of the CTA slots used and the writeback stage. Enums show by name (their
// string companions), masks and wide vectors in hex, PCs and counts in
// decimal. Every trace names a variable of the dump: WriteGTKW reads
// the dump's declarations (and scans its values for the warps and CTA
// slots in use) rather than assuming them. The view starts at the first
// dumped cycle, zoomed to about 100 cycles.
func WriteGTKW(path, vcdPath string, opt Options) error {
	f, err := os.Open(vcdPath)
	if err != nil {
		return err
	}
	defer f.Close()
	d, err := scanDump(f)
	if err != nil {
		return fmt.Errorf("trace: %s: %w", vcdPath, err)
	}
	dump := vcdPath
	if opt.FST {
		if _, err := os.Stat(FSTPath(vcdPath)); err == nil {
			dump = FSTPath(vcdPath)
		}
	}
	absDump, err := filepath.Abs(dump)
	if err != nil {
		return err
	}
	absSave, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	werr := writeView(out, d, absDump, absSave)
	if cerr := out.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// dumpInfo is what the save file needs to know about a dump.
type dumpInfo struct {
	vars       map[string]vcd.Var // by full name
	order      []string           // full names in declaration order
	used       map[string]bool    // scopes whose valid_q was ever 1
	first, end uint64             // first and last time stamps
	scale      vcd.Timescale
}

func (d *dumpInfo) has(name string) bool { _, ok := d.vars[name]; return ok }

// scanDump reads the declarations and the values of the valid_q signals
// of the warp and CTA slots, and the time range.
func scanDump(r io.Reader) (*dumpInfo, error) {
	rd := vcd.NewReader(r)
	h, err := rd.Header()
	if err != nil {
		return nil, err
	}
	d := &dumpInfo{vars: map[string]vcd.Var{}, used: map[string]bool{}, scale: h.Timescale}
	if d.scale.Magnitude == 0 {
		d.scale.Magnitude = 1
	}
	watch := map[string][]string{} // id code -> scopes
	for _, v := range h.Vars {
		d.vars[v.Name] = v
		d.order = append(d.order, v.Name)
		if v.Ref == "valid_q" && (strings.HasPrefix(v.Scope, "sm_top.g_warp[") || strings.HasPrefix(v.Scope, "sm_top.u_barrier.g_cta[")) {
			watch[v.ID] = append(watch[v.ID], v.Scope)
		}
	}
	seenTime := false
	err = rd.Each(func(c vcd.Change) error {
		if !seenTime {
			d.first, seenTime = c.Time, true
		}
		d.end = c.Time
		if scopes, ok := watch[c.ID]; ok && c.Bits == "1" {
			for _, s := range scopes {
				d.used[s] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// view accumulates the save file's traces.
type view struct {
	s *vcd.SaveWriter
	d *dumpInfo
}

// trace adds name (a full name) if the dump has it, labelled with its
// path below sm_top.
func (v *view) trace(name string, f vcd.TraceFlags) bool {
	x, ok := v.d.vars[name]
	if !ok {
		return false
	}
	if x.Kind == vcd.String {
		f = vcd.FormatBin // what GTKWave saves for a string; it shows the text
	}
	// GTKWave shows only the last component of a dotted name, aliases
	// included: the label is the path below sm_top with slashes.
	v.s.TraceAlias(x.GTKWaveName(), strings.ReplaceAll(strings.TrimPrefix(name, "sm_top."), ".", "/"), f)
	return true
}

// auto adds name with a format chosen from its width and name.
func (v *view) auto(name string) bool {
	x, ok := v.d.vars[name]
	if !ok {
		return false
	}
	return v.trace(name, formatFor(x))
}

func formatFor(x vcd.Var) vcd.TraceFlags {
	ref := x.Ref
	switch {
	case x.Kind == vcd.String || x.Width == 1:
		return vcd.FormatBin
	case x.Width <= 64 && (strings.Contains(ref, "pc") || strings.Contains(ref, "warp") || strings.Contains(ref, "count") ||
		strings.Contains(ref, "cta_id") || strings.Contains(ref, "nreg") || strings.Contains(ref, "arrived") || strings.Contains(ref, "expected") ||
		strings.HasPrefix(ref, "clock") || strings.HasPrefix(ref, "globaltimer") || strings.HasPrefix(ref, "cycle") || strings.HasPrefix(ref, "gtimer") ||
		ref == "last_q" || ref == "greedy_q" || ref == "next_age_q" || ref == "rf_used_o"):
		if strings.Contains(ref, "mask") || strings.Contains(ref, "waiting") {
			return vcd.FormatHex
		}
		return vcd.FormatDec
	}
	return vcd.FormatHex
}

// group adds the signals of names that exist as a group; nothing when none
// does.
func (v *view) group(title string, closed bool, names []string) {
	var present []string
	for _, n := range names {
		if v.d.has(n) {
			present = append(present, n)
		}
	}
	if len(present) == 0 {
		return
	}
	v.s.BeginGroup(title, closed)
	for _, n := range present {
		v.auto(n)
	}
	v.s.EndGroup()
}

// keyGroup shows the key signals of scope (in that order) in an open
// group titled title, and the scope's other signals in a closed group
// inside it.
func (v *view) keyGroup(title, scope, rest string, keys ...string) {
	all := v.d.under(scope)
	if len(all) == 0 {
		return
	}
	v.s.BeginGroup(title, false)
	isKey := map[string]bool{}
	for _, k := range keys {
		isKey[scope+"."+k] = true
		v.auto(scope + "." + k)
	}
	var others []string
	for _, n := range all {
		if !isKey[n] {
			others = append(others, n)
		}
	}
	v.group(rest, true, others)
	v.s.EndGroup()
}

// keySig is a key signal of a scope and how to show it.
type keySig struct {
	name string
	f    vcd.TraceFlags
}

// keyTraces shows the key signals of every scope (all the keys of the first
// scope, then of the next), and returns the scopes' other signals.
func (v *view) keyTraces(scopes []string, keys []keySig) []string {
	for _, sc := range scopes {
		for _, k := range keys {
			v.trace(sc+"."+k.name, k.f)
		}
	}
	var rest []string
	for _, sc := range scopes {
		for _, n := range v.d.under(sc) {
			if !slices.ContainsFunc(keys, func(k keySig) bool { return strings.HasSuffix(n, "."+k.name) }) {
				rest = append(rest, n)
			}
		}
	}
	return rest
}

// under lists the dump's variables in scope (directly, not below), in
// declaration order, string companions right after their signal.
func (d *dumpInfo) under(scope string) []string {
	var out []string
	for _, n := range d.order {
		if d.vars[n].Scope == scope {
			out = append(out, n)
		}
	}
	return out
}

// indexed lists the scopes named format (one %d: a slot or unit index)
// that hold variables, in index order.
func (d *dumpInfo) indexed(format string) []string {
	prefix, suffix, _ := strings.Cut(format, "%d")
	seen := map[int]bool{}
	var idx []int
	for _, n := range d.order {
		sc := d.vars[n].Scope
		if !strings.HasPrefix(sc, prefix) {
			continue
		}
		rest := sc[len(prefix):]
		k := 0
		for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
			k++
		}
		if k == 0 || !strings.HasPrefix(rest[k:], suffix) {
			continue
		}
		if tail := rest[k+len(suffix):]; tail != "" && tail[0] != '.' {
			continue
		}
		i, err := strconv.Atoi(rest[:k])
		if err != nil || seen[i] {
			continue
		}
		seen[i] = true
		idx = append(idx, i)
	}
	sort.Ints(idx)
	out := make([]string, len(idx))
	for i, x := range idx {
		out[i] = fmt.Sprintf(format, x)
	}
	return out
}

func writeView(w io.Writer, d *dumpInfo, dump, save string) error {
	s := vcd.NewSaveWriter(w)
	v := &view{s: s, d: d}
	s.Comment("smsim waveform view (trace.WriteGTKW): groups of the SM's signals; enum signals show by name in their *_str companions")
	s.DumpFile(dump)
	s.SaveFile(save)
	// GTKWave counts time in the timescale's unit (ps for 100ps) and
	// zooms by the time shown per 200 pixels: 2^-zoom.
	unit := d.scale.Magnitude
	s.TimeStart(d.first * unit)
	s.Size(viewWidth, viewHeight)
	s.Pos(-1, -1)
	span := float64(min(d.end-d.first+TicksPerCycle, viewCycles*TicksPerCycle) * unit)
	px := float64(viewWidth - signalsWidth - 80)
	s.Zoom(-math.Log2(200*span/px), -1)
	s.SignalsWidth(signalsWidth)
	s.SSTExpanded(false)
	s.TreeOpen("sm_top")

	// The SM top and the cycle counter.
	for _, n := range []string{"clk_i", "rst_ni", "done_o", "status_o_str"} {
		v.auto("sm_top." + n)
	}
	v.trace(clockTimerPath+".clock64_o", vcd.FormatDec)

	// Warps: state, PC and active mask of every slot ever used.
	warps := d.scopesUsed("sm_top.g_warp[%d]")
	if len(warps) > 0 {
		s.BeginGroup("warps", false)
		rest := v.keyTraces(warps, []keySig{{"state_q_str", vcd.FormatBin}, {"pc_q", vcd.FormatDec}, {"active_mask_q", vcd.FormatHex}})
		v.group("warp details", true, rest)
		s.EndGroup()
	}

	// Issue stage and warp schedulers.
	issue := d.indexed(ScopeIssue)
	sched := d.indexed(ScopeSched)
	if len(issue)+len(sched) > 0 {
		s.BeginGroup("scheduler", false)
		rest := v.keyTraces(issue, []keySig{{"issue_op_o_str", vcd.FormatBin}, {"issue_warp_o", vcd.FormatDec}, {"issue_pc_o", vcd.FormatDec}})
		v.group("issue details", true, rest)
		for _, ss := range sched {
			v.group(strings.TrimPrefix(ss, "sm_top."), true, d.under(ss))
		}
		s.EndGroup()
	}

	v.keyGroup("trap unit", ScopeTrap, "trap_unit details", "sm_trapped_o", "global_esr_o", "irq_o", "warp_in_handler_o", "warp_paused_o")
	v.group("register pool", false, d.under(ScopeRegPool))
	v.keyGroup("timers", clockTimerPath, "clock_timer details", "globaltimer_o", "sleeping_o")
	v.group("perf_mon", true, d.under(perfMonPath))

	// Barriers of the CTA slots used.
	ctas := d.scopesUsed(ScopeBarrier)
	if len(ctas) > 0 {
		s.BeginGroup("barriers", true)
		for _, cs := range ctas {
			names := d.under(cs)
			for b := 0; b < 1<<8; b++ {
				bs := fmt.Sprintf("%s.g_bar[%d]", cs, b)
				u := d.under(bs)
				if len(u) == 0 {
					break
				}
				names = append(names, u...)
			}
			v.group(strings.TrimPrefix(cs, "sm_top."), true, names)
		}
		s.EndGroup()
	}

	var wb []string
	for _, ws := range d.indexed(ScopeWriteback) {
		wb = append(wb, d.under(ws)...)
	}
	v.group("writeback", true, wb)
	return s.Flush()
}

// scopesUsed lists the slot scopes format%d (warps, CTA slots) whose
// valid_q was ever 1 in the dump, or that have variables but no valid_q
// (filtered out), in index order.
func (d *dumpInfo) scopesUsed(format string) []string {
	var out []string
	for _, sc := range d.indexed(format) {
		if d.used[sc] || !d.has(sc+".valid_q") {
			out = append(out, sc)
		}
	}
	return out
}
