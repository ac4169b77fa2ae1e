package device

import (
	"bytes"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

//go:embed testdata/memcheck.ptx
var memcheckPTX []byte

// Memcheck on clang-16's code through the API: a misaligned ld.global.u32
// gives a misaligned record with its lane and address, an aligned one
// nothing; a shared read past a __shared__ array gives out_of_bounds
// naming it, one inside nothing.
func TestMemcheckClangKernels(t *testing.T) {
	d := open(t)
	m, err := d.Load("memcheck.ptx", memcheckPTX)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := d.Alloc("src", 256)
	out, _ := d.Alloc("out", 128)
	lc := LaunchConfig{Block: Dim3{20}}
	if rep, err := m.Launch("load_at", lc, src, 4, out); err != nil || len(rep.Sanitizer) != 0 {
		t.Fatalf("aligned: %v %+v", err, rep)
	}
	rep, err := m.Launch("load_at", lc, src, 2, out)
	if err == nil || len(rep.Sanitizer) == 0 {
		t.Fatalf("misaligned: %v %+v", err, rep)
	}
	s := rep.Sanitizer[0]
	if s.Kind != "misaligned" || s.Space != "global" || s.Lane != 0 || s.Address != uint64(src)+2 || s.Size != 4 || s.Line != "memcheck.ptx:31" {
		t.Errorf("misaligned record %+v", s)
	}
	if rep, err := m.Launch("shared_shift", lc, out, 0); err != nil || len(rep.Sanitizer) != 0 {
		t.Fatalf("inside: %v %+v", err, rep)
	}
	rep, err = m.Launch("shared_shift", lc, out, 2)
	if err == nil || len(rep.Sanitizer) == 0 {
		t.Fatalf("past the array: %v %+v", err, rep)
	}
	s = rep.Sanitizer[0]
	if s.Kind != "out_of_bounds" || s.Space != "shared" || s.Lane != 18 || s.Address != 80 || s.Allocation == nil || s.Allocation.End != 80 || s.Distance != 0 || s.Line != "memcheck.ptx:60" {
		t.Errorf("shared record %+v (allocation %+v)", s, s.Allocation)
	}
}

// testdata/memcheck.ptx is exactly clang-16's output for memcheck.cu.
func TestMemcheckPTXIsClangOutput(t *testing.T) {
	clangCheck(t, "testdata/memcheck.cu", memcheckPTX)
}

func clangCheck(t *testing.T, cu string, ptx []byte) {
	clang, err := exec.LookPath("clang-16")
	if err != nil {
		t.Fatalf("clang-16 is required to check %s's PTX: %v", cu, err)
	}
	out := filepath.Join(t.TempDir(), "k.ptx")
	cmd := exec.Command(clang, "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-nocudainc", "-nocudalib", "-S", "-O2", "-x", "cuda", cu, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil || len(msg) > 0 {
		t.Fatalf("clang-16: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, ptx) {
		t.Fatalf("the .ptx beside %s is not what clang-16 makes of it now; regenerate it (the .cu has the command)", cu)
	}
}
