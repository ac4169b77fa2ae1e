// Package clangtest checks, for tests, that a committed .ptx is exactly
// what clang-16 makes of the CUDA source beside it (the Makefile's
// `examples` command). It imports testing, so only tests import it.
package clangtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Args is the Makefile's clang-16 command, minus input and output.
var Args = []string{"--cuda-device-only", "--cuda-gpu-arch=sm_90", "-nocudainc", "-nocudalib", "-S", "-O2", "-x", "cuda"}

// CheckPTX compiles cu with clang-16 and fails t unless the output (with no
// warning) is ptx. A missing clang-16 fails too: the check is part of the
// suite (`make deps` installs it).
func CheckPTX(t testing.TB, cu string, ptx []byte) {
	t.Helper()
	clang, err := exec.LookPath("clang-16")
	if err != nil {
		t.Fatalf("clang-16 is required to check %s's PTX (install it with `make deps`, i.e. apt-get install clang-16): %v", cu, err)
	}
	out := filepath.Join(t.TempDir(), "k.ptx")
	args := append(append([]string(nil), Args...), cu, "-o", out)
	if msg, err := exec.Command(clang, args...).CombinedOutput(); err != nil || len(msg) > 0 {
		t.Fatalf("clang-16 %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, ptx) {
		t.Fatalf("the .ptx beside %s is not what clang-16 makes of it now; regenerate it (`make examples`, or the command in the .cu)", cu)
	}
}
