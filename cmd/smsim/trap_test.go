package main

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/examples"
)

// The CTA-continuation example completes only with its trap handler and the
// resume policy; with abort it ends trapped (exit 1).
func TestRunTrapHandlerFlags(t *testing.T) {
	p, e := examplePTX(t, "cta_continuation")
	base := []string{"run", p, "--grid", "2", "--block", "64", "--json", "--arg", "2=3"}
	for _, b := range e.Buffers {
		base = append(base, "--buf", b.Param+"="+itoa(4*b.Words))
	}
	args := append(append([]string(nil), base...), "--trap-handler", examples.CTAContinuationHandler, "--on-trap=resume")
	code, out, stderr := smsim(t, args...)
	if code != 0 || !strings.Contains(out, `"status":"completed"`) {
		t.Fatalf("resume: exit %d %s %s", code, out, stderr)
	}
	for _, k := range []string{`"traps"`, `"interrupts"`, `"global_esr"`, `"esr"`} {
		if !strings.Contains(out, k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
	args = append(append([]string(nil), base...), "--trap-handler", examples.CTAContinuationHandler, "--on-trap=abort")
	if code, out, _ := smsim(t, args...); code != 1 || !strings.Contains(out, `"status":"trapped"`) {
		t.Fatalf("abort: exit %d %s", code, out)
	}
	args = append(append([]string(nil), base...), "--on-trap=maybe")
	if code, _, stderr := smsim(t, args...); code != 2 || !strings.Contains(stderr, "maybe") {
		t.Fatalf("bad policy: exit %d %s", code, stderr)
	}
	args = append(append([]string(nil), base...), "--trap-handler", "nofunc")
	if code, _, stderr := smsim(t, args...); code != 2 || !strings.Contains(stderr, "nofunc") {
		t.Fatalf("bad handler: exit %d %s", code, stderr)
	}
}

// smsim debug through a pipe: stop at brkpt, inspect, continue.
func TestDebugThroughPipe(t *testing.T) {
	p, e := examplePTX(t, "brkpt")
	args := []string{"debug", p, "--grid", "1", "--block", "64", "--echo"}
	for _, b := range e.Buffers {
		args = append(args, "--buf", b.Param+"="+itoa(4*b.Words))
	}
	var out, errb strings.Builder
	code := run(append([]string{"smsim"}, args...), strings.NewReader("continue\nwarps\nesr\nwake\ncontinue\nquit\n"), &out, &errb)
	text := out.String()
	if !strings.Contains(text, "brkpt") && !strings.Contains(strings.ToLower(text), "breakpoint") {
		t.Fatalf("session did not stop at the breakpoint (exit %d):\n%s\n%s", code, text, errb.String())
	}
	if !strings.Contains(text, "warps") && !strings.Contains(text, "pc") {
		t.Fatalf("no warp listing:\n%s", text)
	}
}
