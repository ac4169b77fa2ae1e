package debugger

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/pipeline"
)

// newSM builds the SM of an example (with its trap handler, if any).
func newSM(t *testing.T, name string, handler bool) (*pipeline.SM, *examples.Example) {
	t.Helper()
	e, ok := examples.ByName(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	cfg, _ := config.Preset("small")
	if handler {
		cfg.Trap.Handler = e.TrapHandler
	}
	sm, err := exlaunch.New(e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sm, e
}

// runScript runs a scripted session and returns its transcript.
func runScript(t *testing.T, sm *pipeline.SM, script string) string {
	t.Helper()
	var out bytes.Buffer
	if err := Run(sm, strings.NewReader(script), &out, Options{Echo: true}); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// expect checks that the transcript contains each string, in order.
func expect(t *testing.T, out string, want ...string) {
	t.Helper()
	rest := out
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("transcript lacks %q (in order) after:\n%s\n--- whole transcript:\n%s", w, rest, out)
		}
		rest = rest[i+len(w):]
	}
}

// A session through a pipe: break at brkpt, inspect, step, wake and
// continue to the end.
func TestScriptedBreakpointSession(t *testing.T) {
	sm, e := newSM(t, "brkpt", false)
	out := runScript(t, sm, `help
continue
warps
esr
regs 0
regs 0 2
stepi 1
wake 1
step
step 3
continue
warps
continue
quit
`)
	expect(t, out,
		"smsim debug:", "no trap handler",
		"(smsim) help", "stepi W [N]",
		"(smsim) continue", "breakpoint: warp 0 (cta 0,0,0 warp 0) brkpt at pc", "`brkpt;`", "lanes 0x0000000f", "the warps stopped",
		"every live warp is stopped",
		"(smsim) warps", "trapped", "stopped @", "brkpt.ptx:",
		"(smsim) esr", "global ESR 0x0002 [BPT_TRAP1]", "SM trapped, every live warp stopped", "interrupts raised (causes seen: TRAP", "warp 0: ESR 0x0001 reason=1",
		"(smsim) regs 0", "warp 0 user registers (live lanes 0xffffffff)", "R0", "(every live lane)", "P0", "CC   lanes 0x00000000 (carry flag)",
		"(smsim) regs 0 2", "R0",
		"(smsim) stepi 1", "warp 1 is paused: wake it first",
		"(smsim) wake 1", "no trap handler: wake resumes every stopped warp (RESUME)", "RESUME accepted",
		"(smsim) step", "cycle",
		"(smsim) step 3",
		"(smsim) continue", "the run has ended: completed",
		"(smsim) warps", "no resident warp",
		"(smsim) continue", "the run has ended: completed",
		"(smsim) quit")
	rep := sm.Report()
	if rep.Status != pipeline.StatusCompleted || e.VerifyResumed(examples.DefaultEnv(), rep.Buffers) != nil {
		t.Fatalf("status %s %v", rep.Status, e.VerifyResumed(examples.DefaultEnv(), rep.Buffers))
	}
}

// With the trap handler: stops at each trap, a wake refused while a warp
// still runs, stepi through the handler.
func TestScriptedHandlerSession(t *testing.T) {
	sm, _ := newSM(t, "cta_continuation", true)
	out := runScript(t, sm, `continue
warps
stepi 1 3
regs 0 handler
wake
c 100000
`)
	expect(t, out,
		"trap handler cta_continuation_handler",
		"(smsim) continue", "trap: warp", "bpt.trap at pc", "`BPT.TRAP 2;`", "the warps entered the trap handler cta_continuation_handler",
		"(smsim) warps", "handler @",
		"(smsim) stepi 1 3", "warp 1 pc", "warp 1 pc", "warp 1 pc",
		"(smsim) regs 0 handler", "warp 0 trap handler registers",
		"(smsim) wake", "WAKE_ALL refused: NOT_STOPPED (a live warp is neither paused nor exited)")
}

// Plain reading ends at EOF without quit.
func TestEOF(t *testing.T) {
	sm, _ := newSM(t, "div_ifelse", false)
	out := runScript(t, sm, "step 2\nbogus\nw\nr\nregs 9\nstepi\ncontinue")
	expect(t, out, "(smsim) step 2", "cycle 0:", "(smsim) bogus", "unknown command", "(smsim) w", "ambiguous command \"w\": warps, wake",
		"(smsim) r", "usage: regs W", "(smsim) regs 9", "no warp in slot 9", "(smsim) stepi", "usage: stepi W", "(smsim) continue", "the run has ended: completed")
}

// The line editor: insertion, cursor motion, deletion, kills and history.
func TestEditor(t *testing.T) {
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	keys := "wrpsz\x7f\x1b[D\x1b[D\x1b[Da\x1b[F\r" + // Backspace, Left, insert: warps
		"regs 1\x01x\x02\x04\x05 2\r" + // Ctrl-A, insert, Ctrl-B, Ctrl-D deletes x, Ctrl-E
		"\x1b[A\x1b[A\r" + // history: warps
		"junk\x15step\r" + // Ctrl-U
		"one two\x17\x17three\r" + // Ctrl-W twice
		"abc\x1b[H\x1b[3~\x1b[C\x0bX\r" + // Home, Delete, Right, Ctrl-K
		"xx\x03" + // Ctrl-C drops the line
		"\x1b[A\x1b[B\x1b[B\r" + // up then down twice: back to the empty line
		"\x04" // Ctrl-D: EOF
	ed := newEditor(strings.NewReader(keys), w)
	var got []string
	for {
		l, err := ed.readLine("> ")
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l)
	}
	want := []string{"warps", "regs 1 2", "warps", "step", "three", "bX", ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q, want %q", got, want)
	}
	if !strings.Contains(out.String(), "^C") || !strings.Contains(out.String(), "\x1b[K") {
		t.Fatalf("echo %q", out.String())
	}
}
