package cosim

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smsim/smsim/warpsched"
)

// reaped reports whether the process pid is gone (not even a zombie).
func reaped(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// stepAll runs batches of the unit's random stimulus through s until an
// error (or cycles run out).
func stepAll(s *Session, u Unit, cycles int) error {
	l := u.Layout()
	st := u.NewRandom(1)
	const batch = 100
	in := make([]byte, batch*l.InBytes)
	out := make([]byte, batch*l.OutBytes)
	for done := 0; done < cycles; done += batch {
		for i := 0; i < batch; i++ {
			st.Next(in[i*l.InBytes:])
		}
		if err := s.Step(in, batch, out); err != nil {
			return err
		}
	}
	return nil
}

func wantCause(t *testing.T, err error, cause Cause, texts ...string) *HarnessError {
	t.Helper()
	var he *HarnessError
	if !errors.As(err, &he) {
		t.Fatalf("got %v, want a HarnessError (%s)", err, cause)
	}
	if he.Cause != cause {
		t.Fatalf("cause %s, want %s: %v", he.Cause, cause, err)
	}
	for _, s := range texts {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error lacks %q:\n%v", s, err)
		}
	}
	return he
}

// TestFaults: every way the RTL side can fail ends in a HarnessError
// naming the cause, with the tail of the harness's stderr, and no
// process left behind.
func TestFaults(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 16, 8)
	cases := []struct {
		name   string
		opt    HarnessOptions
		cause  Cause
		texts  []string
		during func(*Session) // something to do to the harness mid-run
	}{
		{name: "killed", cause: CauseCrash, texts: []string{"crashed", "signal: killed", "during STEP"},
			during: func(s *Session) { syscall.Kill(s.PID(), syscall.SIGKILL) }},
		{name: "crash", opt: HarnessOptions{Inject: "crash@250"}, cause: CauseCrash,
			texts: []string{"signal: aborted", "injected fault at cycle 250"}},
		{name: "hang", opt: HarnessOptions{Inject: "hang@250", Timeout: time.Second}, cause: CauseHang,
			texts: []string{"no reply within 1s", "injected fault at cycle 250"}},
		{name: "stopped", opt: HarnessOptions{Timeout: time.Second}, cause: CauseHang,
			during: func(s *Session) { syscall.Kill(s.PID(), syscall.SIGSTOP) }},
		{name: "close", opt: HarnessOptions{Inject: "close@250"}, cause: CauseClosed,
			texts: []string{"closed the connection", "injected fault at cycle 250"}},
		{name: "exit", opt: HarnessOptions{Inject: "exit@250"}, cause: CauseExit,
			texts: []string{"exited in the middle", "exit status 0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Start(context.Background(), u, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			pid := s.PID()
			if err := stepAll(s, u, 200); err != nil {
				t.Fatalf("first cycles: %v", err)
			}
			if c.during != nil {
				c.during(s)
			}
			err = stepAll(s, u, 1000)
			he := wantCause(t, err, c.cause, c.texts...)
			if he.Op != "STEP" {
				t.Errorf("during %q, want STEP", he.Op)
			}
			// The session stays failed, and closing it reaps the process.
			if err2 := stepAll(s, u, 100); err2 != err {
				t.Errorf("after the failure: %v", err2)
			}
			s.Close()
			if !reaped(pid) {
				t.Errorf("harness %d still exists after Close", pid)
			}
			if s.sockDir != "" {
				t.Errorf("socket directory left: %s", s.sockDir)
			}
		})
	}
}

// TestProtocolVersionMismatch: a client speaking another version is
// refused in HELLO.
func TestProtocolVersionMismatch(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 16, 8)
	_, err := Start(context.Background(), u, HarnessOptions{protocolVersion: 99})
	wantCause(t, err, CauseVersion, "protocol version 99 not supported (harness speaks 1)", "during HELLO")
}

// TestParameterMismatch: a harness built for other parameters is refused.
func TestParameterMismatch(t *testing.T) {
	ctx := context.Background()
	gto := warpSched(t, warpsched.PolicyGTO, 16, 8)
	bin, err := Build(ctx, gto, HarnessOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lrr := warpSched(t, warpsched.PolicyLRR, 16, 8)
	_, err = Start(ctx, lrr, HarnessOptions{Binary: bin})
	wantCause(t, err, CauseParams, "parameter mismatch", "NumWarps=16 Policy=1 TwoLevelActive=8", "NumWarps=16 Policy=0 TwoLevelActive=8")
}

// TestStartFailures: a harness that cannot start, or exits before
// listening.
func TestStartFailures(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 16, 8)
	_, err := Start(context.Background(), u, HarnessOptions{Binary: filepath.Join(t.TempDir(), "nope")})
	wantCause(t, err, CauseStart, "cannot start")
	script := filepath.Join(t.TempDir(), "fake")
	os.WriteFile(script, []byte("#!/bin/sh\necho 'harness: out of luck' >&2\nexit 7\n"), 0o755)
	_, err = Start(context.Background(), u, HarnessOptions{Binary: script})
	wantCause(t, err, CauseStart, "exit status 7", "out of luck")
}

// TestBuildFailure: RTL that does not compile is a build error with
// Verilator's message.
func TestBuildFailure(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 16, 8)
	ho := mutantRTL(t, "syntax", "warp_sched.sv", "endmodule", "endmodul")
	_, err := Start(context.Background(), u, ho)
	wantCause(t, err, CauseBuild, "make failed", "warp_sched.sv")
}

// TestCancelLeavesValidVCDs: canceling the context mid-run (Ctrl-C)
// stops the run with the context's error and leaves both VCDs complete.
func TestCancelLeavesValidVCDs(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 16, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	res, err := Run(ctx, u, random(u, 9), Options{Cycles: 1_000_000, Batch: 1000, VCDDir: dir, Progress: func(n uint64) {
		if n >= 5000 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if res.Cycles < 5000 || res.Cycles >= 1_000_000 {
		t.Errorf("stopped after %d cycles", res.Cycles)
	}
	g := checkVCD(t, res.Waves.GoVCD, 0)
	r := checkVCD(t, res.Waves.RTLVCD, 0)
	if g.EndTime < cyclePeriod*4999 || r.EndTime < cyclePeriod*4999 {
		t.Errorf("VCDs end at %d (Go) and %d (RTL)", g.EndTime, r.EndTime)
	}
	// Canceled while blocked on a hung harness: the same.
	ctx2, cancel2 := context.WithCancel(context.Background())
	s, err := Start(ctx2, u, HarnessOptions{Inject: "hang@50"})
	if err != nil {
		t.Fatal(err)
	}
	pid := s.PID()
	time.AfterFunc(300*time.Millisecond, cancel2)
	wantCause(t, stepAll(s, u, 1000), CauseCanceled)
	s.Close()
	if !reaped(pid) {
		t.Errorf("harness %d still exists", pid)
	}
}
