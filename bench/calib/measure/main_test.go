package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/clangtest"
	"github.com/smsim/smsim/isa"
)

// Every microbenchmark assembles, and is what clang-16 makes of its .cu
// (when clang-16 is installed; bench/calib/run.sh --regen remakes them).
func TestKernelsAssemble(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "*.cu"))
	if len(files) == 0 {
		t.Fatal("no .cu files")
	}
	_, noClang := exec.LookPath("clang-16")
	for _, cu := range files {
		ptx := strings.TrimSuffix(cu, ".cu") + ".ptx"
		src, err := os.ReadFile(ptx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := isa.AssembleSource(filepath.Base(ptx), src); err != nil {
			t.Errorf("%s: %v", ptx, err)
		}
		if noClang == nil {
			clangtest.CheckPTX(t, cu, src)
		}
	}
}

// The memsys and pipe lines pass at the h100 preset: the figures the SM
// will be calibrated to once the port and the pipe throttle are wired in.
func TestUnitLinesPass(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	lines = nil
	cfg := config.Default()
	memsysLines(cfg)
	pipeLines(cfg)
	if len(lines) < 20 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if !l.b.ok(l.model, l.pub) {
			t.Errorf("%s %s: %.2f, published %.2f %s", l.src, l.name, l.model, l.pub, l.b)
		}
	}
}
