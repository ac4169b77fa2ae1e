package cosim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ProtocolVersion is the version of the harness protocol
// (docs/cosim-protocol.md) this package speaks.
const ProtocolVersion = 1

// Message types.
const (
	msgHello   = 0x01
	msgReset   = 0x02
	msgStep    = 0x03
	msgTrace   = 0x04
	msgQuit    = 0x05
	msgHelloOK = 0x81
	msgOK      = 0x82
	msgStepOK  = 0x83
	msgError   = 0xff
)

// maxFrame bounds one message, as in the harness.
const maxFrame = 1 << 30

// Cause classifies a harness failure.
type Cause string

// Harness failure causes.
const (
	CauseBuild    Cause = "build"    // make failed
	CauseStart    Cause = "start"    // the harness did not start or announce itself
	CauseCrash    Cause = "crash"    // the harness died of a signal
	CauseExit     Cause = "exit"     // the harness exited in the middle of the session
	CauseHang     Cause = "hang"     // no reply within the timeout
	CauseClosed   Cause = "closed"   // the harness closed the connection but kept running
	CauseVersion  Cause = "version"  // protocol version mismatch
	CauseParams   Cause = "params"   // the harness was built for another unit or parameter set
	CauseLayout   Cause = "layout"   // the harness's signals differ from the Go table
	CauseProtocol Cause = "protocol" // a malformed message or an ERROR reply
	CauseCanceled Cause = "canceled" // the context was canceled
)

// HarnessError is a failure of the RTL side: the build, the harness
// process or the protocol. Stderr holds the last lines the harness wrote
// on its standard error (or make's output for a build failure).
type HarnessError struct {
	Cause  Cause
	Module string
	Params string
	Op     string // the message being exchanged, e.g. "STEP"
	Msg    string
	Stderr string
	Err    error
}

func (e *HarnessError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cosim: %s harness (%s): %s", e.Module, e.Params, e.Msg)
	if e.Op != "" {
		fmt.Fprintf(&b, " [during %s]", e.Op)
	}
	if e.Stderr != "" {
		b.WriteString("\n--- harness stderr (last lines) ---\n")
		b.WriteString(strings.TrimRight(e.Stderr, "\n"))
	}
	return b.String()
}

func (e *HarnessError) Unwrap() error { return e.Err }

// HarnessOptions say how to build, start and talk to a harness. The zero
// value builds in verilog/build of this repository and talks over a
// Unix-domain socket.
type HarnessOptions struct {
	// VerilogDir is the repository's verilog directory. Default: the
	// SMSIM_VERILOG_DIR environment variable, else the verilog directory
	// of the first parent of the working directory holding
	// verilog/Makefile, else the one next to this package's source.
	VerilogDir string
	// BuildDir is where harnesses are built (make BUILD=); default
	// VerilogDir/build, or VerilogDir/build/rtl-<hash> for an RTLDir of
	// its own. The Verilator runtime is always shared from
	// VerilogDir/build/common.
	BuildDir string
	// RTLDir holds the RTL sources (make RTL_DIR=); default
	// VerilogDir/rtl. Tests point it at a mutated copy.
	RTLDir string
	// Binary is a harness to run instead of building one (it must speak
	// for the same unit and parameters, which HELLO checks).
	Binary string
	// TCP makes the harness listen on 127.0.0.1 instead of a Unix socket.
	TCP bool
	// Timeout bounds the wait for each reply; default 60 s.
	Timeout time.Duration
	// Inject is passed to the harness's --inject (tests): "crash@N",
	// "hang@N", "close@N" or "exit@N".
	Inject string
	// Stderr, when set, receives a copy of the harness's standard error.
	Stderr io.Writer
	// BuildLog, when set, receives make's output.
	BuildLog io.Writer

	protocolVersion uint32 // tests: announce another version
}

func (o *HarnessOptions) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return 60 * time.Second
}

// FindVerilogDir returns the verilog directory HarnessOptions.VerilogDir
// defaults to.
func FindVerilogDir() (string, error) {
	if d := os.Getenv("SMSIM_VERILOG_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if st, err := os.Stat(filepath.Join(d, "verilog", "Makefile")); err == nil && !st.IsDir() {
				return filepath.Join(d, "verilog"), nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		d := filepath.Join(filepath.Dir(filepath.Dir(file)), "verilog")
		if _, err := os.Stat(filepath.Join(d, "Makefile")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("cosim: cannot find the verilog directory (set SMSIM_VERILOG_DIR)")
}

func (o *HarnessOptions) dirs() (vdir, build, rtlDir string, err error) {
	vdir = o.VerilogDir
	if vdir == "" {
		if vdir, err = FindVerilogDir(); err != nil {
			return
		}
	}
	if vdir, err = filepath.Abs(vdir); err != nil {
		return
	}
	rtlDir = filepath.Join(vdir, "rtl")
	if o.RTLDir != "" {
		if rtlDir, err = filepath.Abs(o.RTLDir); err != nil {
			return
		}
	}
	build = o.BuildDir
	switch {
	case build != "":
		build, err = filepath.Abs(build)
	case rtlDir != filepath.Join(vdir, "rtl"):
		// Other sources never share build directories with the repository's.
		h := fnv.New64a()
		h.Write([]byte(rtlDir))
		build = filepath.Join(vdir, "build", fmt.Sprintf("rtl-%016x", h.Sum64()))
	default:
		build = filepath.Join(vdir, "build")
	}
	return
}

// Build builds (or finds up to date) the harness of u with make and
// returns its path. Builds are serialized by a lock file in the shared
// build directory, so concurrent test binaries do not race.
func Build(ctx context.Context, u Unit, opt HarnessOptions) (string, error) {
	vdir, build, rtlDir, err := opt.dirs()
	herr := func(msg, out string, err error) error {
		return &HarnessError{Cause: CauseBuild, Module: u.Module(), Params: ParamString(u.Params()), Msg: msg, Stderr: tailLines(out, 40), Err: err}
	}
	if err != nil {
		return "", herr(err.Error(), "", err)
	}
	set := ParamHash(u.Module(), u.Params())
	if out, err := runMake(ctx, vdir, opt, "harness", "UNIT="+u.Module(), "SET="+set, "PARAMS="+ParamString(u.Params()),
		"BUILD="+build, "RTL_DIR="+rtlDir); err != nil {
		return "", herr(err.Error(), out, err)
	}
	return filepath.Join(build, u.Module()+"-"+set, "harness"), nil
}

// firstLine passes the first line written to it to ch and discards the
// rest.
type firstLine struct {
	buf  []byte
	ch   chan string
	sent bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	if f.sent {
		return len(p), nil
	}
	f.buf = append(f.buf, p...)
	if i := bytes.IndexByte(f.buf, '\n'); i >= 0 {
		f.ch <- string(f.buf[:i])
		f.sent = true
		f.buf = nil
	} else if len(f.buf) > 4096 {
		f.ch <- string(f.buf)
		f.sent = true
		f.buf = nil
	}
	return len(p), nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// Tail returns the last 20 lines.
func (t *tailBuffer) Tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return tailLines(string(t.b), 20)
}

func tailLines(s string, n int) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	ls := strings.Split(s, "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// runMake runs make target in vdir with vars. The Verilator runtime's
// objects, which every build links, are made first under the build
// directory's lock (.lock); then the target under a lock of its own, named
// by the target and its variables (which name its build directory), so
// that builds of different harnesses and benches run at the same time
// (concurrent test binaries use both cores) while two runs of one build
// wait for each other. The output also goes to opt.BuildLog; on failure
// it is returned with an error naming the command.
func runMake(ctx context.Context, vdir string, opt HarnessOptions, target string, vars ...string) (string, error) {
	build := filepath.Join(vdir, "build")
	if err := os.MkdirAll(build, 0o755); err != nil {
		return "", err
	}
	common := "COMMON=" + filepath.Join(build, "common")
	var out bytes.Buffer
	var w io.Writer = &out
	if opt.BuildLog != nil {
		w = io.MultiWriter(&out, opt.BuildLog)
	}
	run := func(args ...string) error {
		args = append([]string{"-C", vdir, "--no-print-directory", "-j2"}, args...)
		cmd := exec.CommandContext(ctx, "make", args...)
		cmd.Stdout, cmd.Stderr = w, w
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("make failed: %w (make %s)", err, strings.Join(args, " "))
		}
		return nil
	}
	if err := withFileLock(filepath.Join(build, ".lock"), func() error { return run("common", common) }); err != nil {
		return out.String(), err
	}
	h := fnv.New64a()
	h.Write([]byte(target + "\x00" + strings.Join(vars, "\x00")))
	err := withFileLock(filepath.Join(build, fmt.Sprintf(".lock-%016x", h.Sum64())), func() error {
		return run(append(append([]string{target}, vars...), common)...)
	})
	return out.String(), err
}

// withFileLock runs f holding an exclusive flock on the file at path
// (made if missing).
func withFileLock(path string, f func() error) error {
	lock, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	return f()
}
