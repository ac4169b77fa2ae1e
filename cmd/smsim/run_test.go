package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/examples"
)

func examplePTX(t *testing.T, name string) (string, *examples.Example) {
	t.Helper()
	e, ok := examples.ByName(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	p := filepath.Join(t.TempDir(), name+".ptx")
	if err := os.WriteFile(p, e.PTX, 0o644); err != nil {
		t.Fatal(err)
	}
	return p, e
}

func TestRunJSON(t *testing.T) {
	p, e := examplePTX(t, "div_ifelse")
	args := []string{"run", p, "--grid", "2", "--block", "64", "--json"}
	for i, b := range e.Buffers {
		// Mix the two ways of naming a parameter: position and PTX name.
		name := b.Param
		if i == 0 {
			name = "0"
		}
		args = append(args, "--buf", name+"="+itoa(4*b.Words))
	}
	code, out, stderr := smsim(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"status", "cycles", "warp_instructions", "thread_instructions", "ipc", "buffers", "stalls", "warps", "errors"} {
		if _, ok := rep[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var bufs map[string][]uint32
	if err := json.Unmarshal(rep["buffers"], &bufs); err != nil {
		t.Fatal(err)
	}
	if err := e.Verify(examples.DefaultEnv(), bufs); err != nil {
		t.Fatalf("results: %v", err)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestRunTrappedExit1(t *testing.T) {
	p, e := examplePTX(t, "trap_divergent")
	args := []string{"run", p, "--grid", "1", "--block", "96", "--json"}
	for _, b := range e.Buffers {
		// Buffers with initial contents are loaded from a file (--buf PARAM=@file).
		data := make([]byte, 4*b.Words)
		for i, w := range b.Init {
			binary.LittleEndian.PutUint32(data[4*i:], w)
		}
		f := filepath.Join(t.TempDir(), b.Name+".bin")
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, "--buf", b.Param+"=@"+f)
	}
	for k, v := range e.Args {
		args = append(args, "--arg", k+"="+strconv.FormatUint(v, 10))
	}
	code, out, _ := smsim(t, args...)
	if code != 1 || !strings.Contains(out, `"status":"trapped"`) {
		t.Fatalf("exit %d, out %s", code, out)
	}
}

func TestRunBadInput(t *testing.T) {
	p, _ := examplePTX(t, "div_ifelse")
	bufs := []string{"--buf", "0=512", "--buf", "1=512", "--buf", "2=512"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"grid zero", []string{"--grid", "0"}, "--grid"},
		{"grid four dims", []string{"--grid", "1,1,1,1"}, "--grid"},
		{"block too big", []string{"--block", "2048"}, "block"},
		{"block z too big", []string{"--block", "1,1,65"}, "block"},
		{"unknown param", []string{"--buf", "nope=16"}, `no parameter "nope"`},
		{"param position", []string{"--buf", "7=16"}, "has 3 parameters"},
		{"missing buffer", []string{"--buf", "0=512", "--buf", "1=512"}, "_Z10div_ifelsePjS_S__param_2"},
		{"bad buffer size", []string{"--buf", "0=lots"}, "--buf"},
		{"unknown config key", []string{"--set", "sched.cnt=2"}, "sched.cnt"},
		{"bad config value", []string{"--set", "sched.policy=fifo"}, "sched.policy"},
		{"unknown entry", []string{"--entry", "nokernel"}, "nokernel"},
		{"bad arg value", []string{"--arg", "0=abc"}, "--arg"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"run", p}, bufs...)
			if strings.HasPrefix(c.name, "missing") || strings.HasPrefix(c.name, "bad buffer") {
				args = []string{"run", p}
			}
			args = append(args, c.args...)
			code, _, stderr := smsim(t, args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
			}
			if !strings.Contains(stderr, c.want) {
				t.Fatalf("stderr %q does not name %q", stderr, c.want)
			}
		})
	}
	code, _, stderr := smsim(t, "run", filepath.Join(t.TempDir(), "missing.ptx"))
	if code != 2 || !strings.Contains(stderr, "missing.ptx") {
		t.Fatalf("missing file: exit %d %q", code, stderr)
	}
}

func TestDemo(t *testing.T) {
	code, out, stderr := smsim(t, "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"status", "completed", "warp states", "results match the Go reference"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}
