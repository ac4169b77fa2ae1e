package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/internal/testptx"
)

// smsim runs the CLI in-process and returns exit code, stdout and stderr.
func smsim(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"smsim"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAsmDisasmRoundTrip(t *testing.T) {
	src := writeFile(t, "k.ptx", testptx.StoreTid)
	bin := strings.TrimSuffix(src, ".ptx") + ".bin"
	if code, _, stderr := smsim(t, "asm", src); code != 0 {
		t.Fatalf("asm: exit %d: %s", code, stderr)
	}
	code, dis, stderr := smsim(t, "disasm", bin)
	if code != 0 {
		t.Fatalf("disasm: exit %d: %s", code, stderr)
	}
	if !strings.Contains(dis, "st.global.u32 [%rd2], %r1;") || !strings.Contains(dis, "S2R R") {
		t.Fatalf("disassembly lacks source or instructions:\n%s", dis)
	}
	disFile := writeFile(t, "k.dis", dis)
	bin2 := filepath.Join(t.TempDir(), "k2.bin")
	if code, _, stderr := smsim(t, "asm", disFile, "-o", bin2); code != 0 {
		t.Fatalf("asm of disassembly: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(bin)
	b, _ := os.ReadFile(bin2)
	if !bytes.Equal(a, b) {
		t.Fatal("asm -> disasm -> asm differs")
	}
}

func TestAsmStats(t *testing.T) {
	src := writeFile(t, "k.ptx", testptx.StoreTid)
	code, out, stderr := smsim(t, "asm", "--stats", src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"kernel", "regs/thread", "shared bytes", "local bytes", "\nk "} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lack %q:\n%s", want, out)
		}
	}
}

func TestBadInputExit2(t *testing.T) {
	bad := writeFile(t, "bad.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfoo.bar %r1;\n}\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"asm", bad}, "bad.ptx:6:2: unknown instruction foo (not a PTX instruction)"},
		{[]string{"asm", filepath.Join(t.TempDir(), "missing.ptx")}, "no such file"},
		{[]string{"asm"}, "expected one FILE.ptx argument"},
		{[]string{"config", "--set", "sched.cnt=2"}, `unknown config key "sched.cnt" (did you mean sched.count?)`},
		{[]string{"config", "--set", "sched.count=99"}, "sched.count"},
		{[]string{"config", "--preset", "nope"}, "--preset"},
		{[]string{"asm", "--bogus-flag", bad}, "flag provided but not defined"},
	}
	for _, c := range cases {
		code, _, stderr := smsim(t, c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", c.args, code, stderr)
		}
		if !strings.Contains(stderr, c.want) {
			t.Errorf("%v: stderr %q lacks %q", c.args, stderr, c.want)
		}
	}
}

func TestConfigDump(t *testing.T) {
	code, out, stderr := smsim(t, "config", "--dump", "--set", "sched.count=2", "--preset", "small")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "count: 2") {
		t.Fatalf("dump lacks the override:\n%s", out)
	}
}

// failWriter fails every write, as a closed pipe or a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

// An output that cannot be written is an abnormal end (exit 1), not bad
// input: disasm -o onto a full device (the error from writing or from
// Close is reported), demo --source and disasm onto a failing stdout.
func TestOutputErrorsExit1(t *testing.T) {
	src := writeFile(t, "k.ptx", testptx.StoreTid)
	bin := filepath.Join(t.TempDir(), "k.bin")
	if code, _, stderr := smsim(t, "asm", src, "-o", bin); code != 0 {
		t.Fatalf("asm: exit %d %s", code, stderr)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		code, _, stderr := smsim(t, "disasm", bin, "-o", "/dev/full")
		if code != 1 || !strings.Contains(stderr, "-o /dev/full") {
			t.Errorf("disasm -o /dev/full: exit %d, stderr %q; want 1 naming -o", code, stderr)
		}
	}
	for _, args := range [][]string{{"demo", "--source"}, {"disasm", bin}} {
		var errb bytes.Buffer
		code := run(append([]string{"smsim"}, args...), strings.NewReader(""), failWriter{}, &errb)
		if code != 1 {
			t.Errorf("%v onto a failing stdout: exit %d (%s), want 1", args, code, errb.String())
		}
	}
}
