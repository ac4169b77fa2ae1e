package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/vcd"
)

func writeVCD(t *testing.T, name string, vals []uint64) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := vcd.NewWriter(f)
	w.Scope(vcd.ScopeModule, "sm_top")
	id, err := w.Register(vcd.Wire, 8, "pc_q")
	if err != nil {
		t.Fatal(err)
	}
	w.Upscope()
	for i, v := range vals {
		if err := w.SetTime(uint64(i)); err != nil {
			t.Fatal(err)
		}
		if err := w.SetUint(id, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

func TestVCDDiff(t *testing.T) {
	a := writeVCD(t, "a.vcd", []uint64{1, 2, 3, 4})
	b := writeVCD(t, "b.vcd", []uint64{1, 2, 7, 4})
	if code, out, stderr := smsim(t, "vcddiff", a, a); code != 0 || !strings.Contains(out, "equal") {
		t.Fatalf("same file: exit %d %q %q", code, out, stderr)
	}
	code, out, _ := smsim(t, "vcddiff", a, b)
	if code != 1 || !strings.Contains(out, "first difference at time 2") || !strings.Contains(out, "sm_top.pc_q") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if code, _, _ := smsim(t, "vcddiff", a); code != 2 {
		t.Fatalf("one argument: exit %d", code)
	}
}
