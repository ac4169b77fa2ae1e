package vcd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrSaveFile is wrapped by every error of a SaveWriter's misuse (a name
// or path GTKWave cannot read back, unbalanced groups, ...).
var ErrSaveFile = errors.New("vcd: bad GTKWave save file item")

// TraceFlags are GTKWave's per-trace display flags (the TR_* bits of
// GTKWave's analyzer.h). A save file sets them with an "@" line holding
// the flags in hex; they apply to every trace line that follows until the
// next "@" line.
type TraceFlags uint32

// The flag bits. Exactly one of Hex, Dec, Bin, Oct, Signed, ASCII and Real
// selects the data format (Signed is signed decimal); the others modify
// the display.
const (
	FlagHighlight          TraceFlags = 1 << 0
	FlagHex                TraceFlags = 1 << 1
	FlagDec                TraceFlags = 1 << 2
	FlagBin                TraceFlags = 1 << 3
	FlagOct                TraceFlags = 1 << 4
	FlagRJustify           TraceFlags = 1 << 5 // right-justify the name in the signal pane
	FlagInvert             TraceFlags = 1 << 6
	FlagReverse            TraceFlags = 1 << 7
	FlagExclude            TraceFlags = 1 << 8
	FlagBlank              TraceFlags = 1 << 9 // a blank or comment line, a group marker
	FlagSigned             TraceFlags = 1 << 10
	FlagASCII              TraceFlags = 1 << 11
	FlagCollapsed          TraceFlags = 1 << 12
	FlagFTranslated        TraceFlags = 1 << 13 // translate filter file
	FlagPTranslated        TraceFlags = 1 << 14 // translate filter process
	FlagAnalogStep         TraceFlags = 1 << 15
	FlagAnalogInterpolated TraceFlags = 1 << 16
	FlagAnalogBlankStretch TraceFlags = 1 << 17
	FlagReal               TraceFlags = 1 << 18
	FlagAnalogFullscale    TraceFlags = 1 << 19
	FlagZeroFill           TraceFlags = 1 << 20
	FlagOneFill            TraceFlags = 1 << 21
	FlagClosed             TraceFlags = 1 << 22 // a group shown closed
	FlagGroupBegin         TraceFlags = 1 << 23
	FlagGroupEnd           TraceFlags = 1 << 24
)

// The usual data formats, right-justified as GTKWave saves them: "@22"
// hex, "@24" decimal, "@28" binary, "@420" signed decimal, "@820" ASCII.
// A String variable shows its text whatever the format; FormatBin is what
// GTKWave saves for one.
const (
	FormatHex    = FlagHex | FlagRJustify
	FormatDec    = FlagDec | FlagRJustify
	FormatBin    = FlagBin | FlagRJustify
	FormatOct    = FlagOct | FlagRJustify
	FormatSigned = FlagSigned | FlagRJustify
	FormatASCII  = FlagASCII | FlagRJustify
	FormatReal   = FlagReal | FlagRJustify
)

// SaveWriter writes a GTKWave save file (.gtkw): the dump file to open,
// the window and zoom, and the traces shown, in order, with their display
// format, optionally in named groups. Open one in GTKWave with
// `gtkwave FILE.gtkw` (the dump file named by DumpFile) or
// `gtkwave DUMP.vcd FILE.gtkw`.
//
// Trace names are GTKWave's names for the variables: the full
// hierarchical name, with the bit range for a vector ("sm_top.pc_q[31:0]",
// see Var.GTKWaveName). The writer does not check that they exist in the
// dump; GTKWave ignores names it does not find.
//
// As with Writer, output is buffered and errors are sticky: after the
// first error (a misuse wrapping ErrSaveFile, or a failed write) nothing
// more is written and every call returns it. Call Flush at the end.
type SaveWriter struct {
	w      *bufio.Writer
	err    error
	flags  TraceFlags
	fset   bool
	groups []group
}

type group struct {
	name   string
	closed bool
}

// NewSaveWriter returns a SaveWriter writing to w.
func NewSaveWriter(w io.Writer) *SaveWriter {
	return &SaveWriter{w: bufio.NewWriter(w)}
}

// Error returns the first error that occurred, or nil.
func (s *SaveWriter) Error() error { return s.err }

func (s *SaveWriter) failf(format string, args ...any) error {
	if s.err == nil {
		s.err = fmt.Errorf("%w: %s", ErrSaveFile, fmt.Sprintf(format, args...))
	}
	return s.err
}

func (s *SaveWriter) line(parts ...string) error {
	if s.err != nil {
		return s.err
	}
	for _, p := range parts {
		if _, err := s.w.WriteString(p); err != nil {
			s.err = err
			return err
		}
	}
	if err := s.w.WriteByte('\n'); err != nil {
		s.err = err
	}
	return s.err
}

// oneLine reports whether text fits on one save-file line.
func oneLine(text string) bool { return !strings.ContainsAny(text, "\n\r") }

func (s *SaveWriter) quoted(key, path string) error {
	if path == "" || !oneLine(path) || strings.Contains(path, `"`) {
		return s.failf("%s path %q: must be non-empty, on one line, without a double quote", key, path)
	}
	return s.line(key, ` "`, path, `"`)
}

// Comment writes a comment line, "[*] text".
func (s *SaveWriter) Comment(text string) error {
	if !oneLine(text) {
		return s.failf("comment %q spans lines", text)
	}
	return s.line("[*] ", text)
}

// DumpFile names the dump file GTKWave opens ([dumpfile]).
func (s *SaveWriter) DumpFile(path string) error { return s.quoted("[dumpfile]", path) }

// SaveFile names the save file itself ([savefile]); GTKWave's "Write Save
// File" writes there.
func (s *SaveWriter) SaveFile(path string) error { return s.quoted("[savefile]", path) }

// TimeStart sets the time shown at the left edge of the wave pane
// ([timestart]), in the dump's time units.
func (s *SaveWriter) TimeStart(t uint64) error {
	return s.line("[timestart] ", strconv.FormatUint(t, 10))
}

// Size sets the main window's size in pixels ([size]).
func (s *SaveWriter) Size(width, height int) error {
	if width <= 0 || height <= 0 {
		return s.failf("window size %dx%d", width, height)
	}
	return s.line("[size] ", strconv.Itoa(width), " ", strconv.Itoa(height))
}

// Pos sets the main window's position ([pos]); -1 -1 lets the window
// manager choose.
func (s *SaveWriter) Pos(x, y int) error {
	return s.line("[pos] ", strconv.Itoa(x), " ", strconv.Itoa(y))
}

// SignalsWidth sets the width of the signal-name pane in pixels.
func (s *SaveWriter) SignalsWidth(px int) error {
	if px <= 0 {
		return s.failf("signals width %d", px)
	}
	return s.line("[signals_width] ", strconv.Itoa(px))
}

// SSTExpanded shows or hides the signal search tree pane.
func (s *SaveWriter) SSTExpanded(on bool) error {
	v := "0"
	if on {
		v = "1"
	}
	return s.line("[sst_expanded] ", v)
}

// TreeOpen opens scope (a dotted hierarchical name) in the signal search
// tree.
func (s *SaveWriter) TreeOpen(scope string) error {
	if scope == "" || !oneLine(scope) || strings.ContainsAny(scope, " \t") {
		return s.failf("tree scope %q", scope)
	}
	if !strings.HasSuffix(scope, ".") {
		scope += "."
	}
	return s.line("[treeopen] ", scope)
}

// Zoom sets the zoom level and the primary marker: GTKWave shows 2^-zoom
// time units per pixel (0: one unit per pixel; -3: eight), and marker is a
// time, or -1 for none. The named markers a..z are left unset.
func (s *SaveWriter) Zoom(zoom float64, marker int64) error {
	parts := []string{"*", strconv.FormatFloat(zoom, 'f', 6, 64), " ", strconv.FormatInt(marker, 10)}
	for i := 0; i < 26; i++ {
		parts = append(parts, " -1")
	}
	return s.line(parts...)
}

// setFlags writes an "@" line when f differs from the flags in force.
func (s *SaveWriter) setFlags(f TraceFlags) error {
	if s.err != nil {
		return s.err
	}
	if s.fset && f == s.flags {
		return nil
	}
	s.flags, s.fset = f, true
	return s.line("@", strconv.FormatUint(uint64(f), 16))
}

func validTraceName(name string) bool {
	return name != "" && oneLine(name) && !strings.ContainsAny(name, " \t") && name[0] != '-' && name[0] != '@' && name[0] != '[' && name[0] != '*' && name[0] != '+' && name[0] != '#' && name[0] != '('
}

// Trace adds the variable name (GTKWave's name, see Var.GTKWaveName) with
// the display flags f, e.g. FormatHex.
func (s *SaveWriter) Trace(name string, f TraceFlags) error {
	return s.TraceAlias(name, "", f)
}

// TraceAlias adds the variable name shown under the label alias instead of
// its own name (no alias when alias is empty). The alias must be on one
// line and may not contain braces.
func (s *SaveWriter) TraceAlias(name, alias string, f TraceFlags) error {
	if !validTraceName(name) {
		return s.failf("trace name %q: must be non-empty, without spaces, not starting with a save-file marker", name)
	}
	if f&(FlagBlank|FlagGroupBegin|FlagGroupEnd) != 0 {
		return s.failf("trace %s: flags %#x include a blank or group flag", name, uint32(f))
	}
	if !oneLine(alias) || strings.ContainsAny(alias, "{}") {
		return s.failf("alias %q of %s: must be on one line, without braces", alias, name)
	}
	if s.collapsed() {
		f |= FlagCollapsed
	}
	if err := s.setFlags(f); err != nil {
		return err
	}
	if alias != "" {
		return s.line("+{", alias, "} ", name)
	}
	return s.line(name)
}

// Blank adds a blank line to the signal pane, showing label (which may be
// empty) in the name column.
func (s *SaveWriter) Blank(label string) error {
	if !oneLine(label) {
		return s.failf("label %q spans lines", label)
	}
	f := FlagBlank
	if s.collapsed() {
		f |= FlagCollapsed
	}
	if err := s.setFlags(f); err != nil {
		return err
	}
	return s.line("-", label)
}

// BeginGroup opens a named group of traces ("@800200", or "@c00200" when
// closed, then "-name"); EndGroup closes it. Groups nest. A closed group
// shows only its name until the user opens it; its traces are marked
// collapsed, as GTKWave saves them.
func (s *SaveWriter) BeginGroup(name string, closed bool) error {
	if name == "" || !oneLine(name) {
		return s.failf("group name %q: must be non-empty and on one line", name)
	}
	f := FlagGroupBegin | FlagBlank
	if closed {
		f |= FlagClosed
	}
	if s.collapsed() {
		f |= FlagCollapsed
	}
	if err := s.setFlags(f); err != nil {
		return err
	}
	if err := s.line("-", name); err != nil {
		return err
	}
	s.groups = append(s.groups, group{name, closed})
	return nil
}

// collapsed reports whether the traces written now are inside a closed
// group.
func (s *SaveWriter) collapsed() bool {
	for _, g := range s.groups {
		if g.closed {
			return true
		}
	}
	return false
}

// EndGroup closes the innermost open group ("@1000200", or "@1401200"
// for a closed one, then "-name").
func (s *SaveWriter) EndGroup() error {
	if s.err != nil {
		return s.err
	}
	if len(s.groups) == 0 {
		return s.failf("EndGroup without an open group")
	}
	g := s.groups[len(s.groups)-1]
	f := FlagGroupEnd | FlagBlank
	if s.collapsed() {
		f |= FlagCollapsed
	}
	if g.closed {
		f |= FlagClosed
	}
	s.groups = s.groups[:len(s.groups)-1]
	if err := s.setFlags(f); err != nil {
		return err
	}
	return s.line("-", g.name)
}

// Flush writes the buffered lines. It fails if a group is still open.
func (s *SaveWriter) Flush() error {
	if s.err == nil && len(s.groups) > 0 {
		s.failf("group %q still open", s.groups[len(s.groups)-1].name)
	}
	if s.err != nil {
		return s.err
	}
	if err := s.w.Flush(); err != nil {
		s.err = err
	}
	return s.err
}

// GTKWaveName is the name GTKWave gives the variable in its signal list
// and in save files: the full name, followed by the bit range of a vector
// (the declared one, or "[width-1:0]" for a vector declared without one).
// Integer, real and string variables have no range.
func (v Var) GTKWaveName() string {
	base := v.Name
	if v.Range != "" && !strings.Contains(v.Range, ":") {
		base = strings.TrimSuffix(base, v.Range) // a bit select is already part of Name
	}
	switch {
	case v.Range != "":
		return base + v.Range
	case v.Kind.class() != classBits || v.Kind == Integer || v.Width == 1:
		return base
	}
	return base + "[" + strconv.Itoa(v.Width-1) + ":0]"
}
