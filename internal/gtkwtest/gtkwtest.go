// Package gtkwtest opens a GTKWave save file in GTKWave, under a virtual X
// server, for tests: it lists the traces GTKWave shows through its Tcl
// interface. It imports testing, so only tests import it.
package gtkwtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Name is the Tcl of a trace's name; NameFlags adds its flags in hex.
const (
	Name      = `[gtkwave::getTraceNameFromIndex $i]`
	NameFlags = `"[gtkwave::getTraceNameFromIndex $i] [format %x [gtkwave::getTraceFlagsFromIndex $i]]"`
)

// Traces opens save in GTKWave and returns one line per trace shown, the
// value of the Tcl expression item (Name or NameFlags) for trace $i. It
// fails t without xvfb-run and gtkwave (scripts/deps.sh installs them;
// make test runs it).
func Traces(t testing.TB, save, item string) string {
	t.Helper()
	xvfb, err1 := exec.LookPath("xvfb-run")
	gtkwave, err2 := exec.LookPath("gtkwave")
	if err1 != nil || err2 != nil {
		t.Fatalf("xvfb-run or gtkwave not installed: run scripts/deps.sh (make test installs them)")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "traces.txt")
	script := filepath.Join(dir, "list.tcl")
	tcl := "set fp [open {" + out + "} w]\nset n [gtkwave::getTotalNumTraces]\nfor {set i 0} {$i < $n} {incr i} {\n    puts $fp " + item + "\n}\nclose $fp\nexit\n"
	if err := os.WriteFile(script, []byte(tcl), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xvfb, "-a", gtkwave, "-S", script, save)
	cmd.Dir = dir
	msg, err := cmd.CombinedOutput()
	list, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatalf("GTKWave wrote no trace list (%v): %s", err, msg)
	}
	return string(list)
}
