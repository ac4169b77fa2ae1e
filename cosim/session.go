// A harness session: start, HELLO, reset, step, trace and close over the socket protocol.

package cosim

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Hello is what a harness announces in its HELLO reply.
type Hello struct {
	Version    uint32
	Unit       string
	ParamHash  string
	Params     string
	LayoutHash uint64
	InBytes    int
	OutBytes   int
	Signals    []HelloSignal
}

// HelloSignal is one signal as the harness sees it.
type HelloSignal struct {
	Name string
	Dir  uint8
	Size int
}

// Session is a running harness and its connection: the RTL side of a
// lockstep run. Its methods are not safe for concurrent use.
type Session struct {
	unit    Unit
	layout  *Layout
	opt     HarnessOptions
	ctx     context.Context
	stopCtx func() bool

	cmd    *exec.Cmd
	done   chan struct{} // closed when the process has been waited for
	waitMu sync.Mutex
	waitEr error

	conn    net.Conn
	br      *bufio.Reader
	bw      *bufio.Writer
	stderr  *tailBuffer
	sockDir string
	hello   Hello
	broken  error
	closed  bool
	hdr     [9]byte
}

// Start builds the harness of u (unless opt.Binary is set), starts it,
// connects and checks its HELLO against u. The unit is in reset until
// the first STEP. Close the session when done.
func Start(ctx context.Context, u Unit, opt HarnessOptions) (*Session, error) {
	bin := opt.Binary
	if bin == "" {
		var err error
		if bin, err = Build(ctx, u, opt); err != nil {
			return nil, err
		}
	}
	s := &Session{unit: u, layout: u.Layout(), opt: opt, ctx: ctx, done: make(chan struct{}), stderr: &tailBuffer{max: 16 << 10}}
	args := []string{}
	if opt.TCP {
		args = append(args, "--tcp")
	} else {
		dir, err := os.MkdirTemp("", "smsim-cosim-") // mode 0700
		if err != nil {
			return nil, s.startErr("private socket directory: "+err.Error(), err)
		}
		s.sockDir = dir
		args = append(args, "--socket", filepath.Join(dir, "h.sock"))
	}
	if opt.Inject != "" {
		args = append(args, "--inject", opt.Inject)
	}
	lines := make(chan string, 1)
	s.cmd = exec.Command(bin, args...)
	// Its own process group: a Ctrl-C on the terminal reaches only us, and
	// we end the harness cleanly (its VCD complete).
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	s.cmd.Stdout = &firstLine{ch: lines}
	var errw io.Writer = s.stderr
	if opt.Stderr != nil {
		errw = io.MultiWriter(s.stderr, opt.Stderr)
	}
	s.cmd.Stderr = errw
	s.cmd.WaitDelay = 2 * time.Second
	if err := s.cmd.Start(); err != nil {
		s.cleanup()
		return nil, s.startErr("cannot start "+bin+": "+err.Error(), err)
	}
	go func() {
		err := s.cmd.Wait()
		s.waitMu.Lock()
		s.waitEr = err
		s.waitMu.Unlock()
		close(s.done)
	}()
	if err := s.connect(lines); err != nil {
		s.kill()
		s.cleanup()
		return nil, err
	}
	s.stopCtx = context.AfterFunc(ctx, func() {
		// Unblock any I/O in progress; fail() reports the cancelation.
		s.conn.SetDeadline(time.Unix(1, 0))
	})
	if err := s.doHello(); err != nil {
		s.abort()
		return nil, err
	}
	return s, nil
}

func (s *Session) startErr(msg string, err error) error {
	return &HarnessError{Cause: CauseStart, Module: s.unit.Module(), Params: ParamString(s.unit.Params()), Msg: msg, Stderr: s.stderr.Tail(), Err: err}
}

func (s *Session) connect(lines chan string) error {
	var line string
	select {
	case line = <-lines:
	case <-s.done:
		return s.startErr("the harness exited before listening: "+s.exitStatus(), nil)
	case <-time.After(30 * time.Second):
		return s.startErr("the harness did not announce its socket within 30 s", nil)
	case <-s.ctx.Done():
		return &HarnessError{Cause: CauseCanceled, Module: s.unit.Module(), Params: ParamString(s.unit.Params()), Msg: "canceled while starting", Err: s.ctx.Err()}
	}
	// smsim-harness <version> <unit> listen <addr> token <hex>
	f := strings.Fields(line)
	if len(f) != 7 || f[0] != "smsim-harness" || f[3] != "listen" || f[5] != "token" {
		return s.startErr(fmt.Sprintf("unexpected announcement %q", line), nil)
	}
	network, addr, ok := strings.Cut(f[4], ":")
	if !ok || (network != "unix" && network != "tcp") {
		return s.startErr(fmt.Sprintf("unexpected address %q", f[4]), nil)
	}
	if network == "tcp" && !strings.HasPrefix(addr, "127.0.0.1:") {
		return s.startErr(fmt.Sprintf("harness listens on %s, not on 127.0.0.1", addr), nil)
	}
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(s.ctx, network, addr)
	if err != nil {
		return s.startErr("cannot connect: "+err.Error(), err)
	}
	s.conn = conn
	s.br = bufio.NewReaderSize(conn, 256<<10)
	s.bw = bufio.NewWriterSize(conn, 256<<10)
	s.hello.Unit = f[2]
	return s.sendHello(f[6])
}

func (s *Session) sendHello(token string) error {
	v := s.opt.protocolVersion
	if v == 0 {
		v = ProtocolVersion
	}
	var p []byte
	p = binary.LittleEndian.AppendUint32(p, v)
	p = appendStr(p, token)
	return s.send("HELLO", msgHello, p)
}

func appendStr(p []byte, s string) []byte {
	p = binary.LittleEndian.AppendUint16(p, uint16(len(s)))
	return append(p, s...)
}

func (s *Session) doHello() error {
	typ, p, err := s.recv("HELLO")
	if err != nil {
		return err
	}
	if typ == msgError {
		msg := string(decodeStr(p))
		cause := CauseProtocol
		if strings.Contains(msg, "protocol version") {
			cause = CauseVersion
		}
		return s.protoErr("HELLO", cause, "the harness refused HELLO: "+msg)
	}
	if typ != msgHelloOK {
		return s.protoErr("HELLO", CauseProtocol, fmt.Sprintf("unexpected reply type 0x%02x to HELLO", typ))
	}
	h, ok := parseHello(p)
	if !ok {
		return s.protoErr("HELLO", CauseProtocol, "malformed HELLO reply")
	}
	s.hello = h
	return s.checkHello()
}

// parseHello decodes the payload of a HELLO reply.
func parseHello(p []byte) (Hello, bool) {
	r := &preader{b: p}
	h := Hello{Version: r.u32(), Unit: r.str(), ParamHash: r.str(), Params: r.str(), LayoutHash: r.u64(), InBytes: int(r.u32()), OutBytes: int(r.u32())}
	n := int(r.u16())
	for i := 0; i < n && r.ok(); i++ {
		h.Signals = append(h.Signals, HelloSignal{Name: r.str(), Dir: r.u8(), Size: int(r.u32())})
	}
	return h, r.ok() && len(r.b) == 0
}

func (s *Session) checkHello() error {
	h, u, l := &s.hello, s.unit, s.layout
	if h.Version != ProtocolVersion {
		return s.protoErr("HELLO", CauseVersion, fmt.Sprintf("the harness speaks protocol version %d, this program %d", h.Version, ProtocolVersion))
	}
	want := ParamHash(u.Module(), u.Params())
	if h.Unit != u.Module() || h.ParamHash != want {
		return s.protoErr("HELLO", CauseParams, fmt.Sprintf("parameter mismatch: the harness was built for %s (%s, set %s), the Go model is %s (%s, set %s)",
			h.Unit, h.Params, h.ParamHash, u.Module(), ParamString(u.Params()), want))
	}
	if h.LayoutHash != l.Hash() {
		return s.protoErr("HELLO", CauseLayout, fmt.Sprintf("signal layout mismatch: harness %016x, Go %016x (run go generate ./cosim and rebuild)", h.LayoutHash, l.Hash()))
	}
	all := append(append([]Field(nil), l.In...), l.Out...)
	if len(h.Signals) != len(all) {
		return s.protoErr("HELLO", CauseLayout, fmt.Sprintf("the harness has %d signals, the Go table %d", len(h.Signals), len(all)))
	}
	for i, f := range all {
		g := h.Signals[i]
		if g.Name != f.Name || int(g.Dir) != int(f.Dir) || g.Size != f.Size {
			return s.protoErr("HELLO", CauseLayout, fmt.Sprintf("signal %d: harness %s (dir %d, %d bytes), Go %s (%s, %d bits = %d bytes)",
				i, g.Name, g.Dir, g.Size, f.Name, f.Dir, f.Width, f.Size))
		}
	}
	if h.InBytes != l.InBytes || h.OutBytes != l.OutBytes {
		return s.protoErr("HELLO", CauseLayout, fmt.Sprintf("record sizes: harness %d/%d, Go %d/%d", h.InBytes, h.OutBytes, l.InBytes, l.OutBytes))
	}
	return nil
}

// Unit is the unit the session simulates.
func (s *Session) Unit() Unit { return s.unit }

// Hello returns the harness's HELLO reply.
func (s *Session) Hello() Hello { return s.hello }

// PID is the harness's process id.
func (s *Session) PID() int { return s.cmd.Process.Pid }

// Reset resets the unit: the next STEP starts at cycle 0 with the
// registers at their reset values.
func (s *Session) Reset() error {
	if err := s.send("RESET", msgReset, nil); err != nil {
		return err
	}
	return s.expectOK("RESET")
}

// Trace starts writing the Verilator VCD to path (closing a previous
// one), or with path "" stops and closes it.
func (s *Session) Trace(path string) error {
	var p []byte
	if path != "" {
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		p = append(p, 1)
		p = appendStr(p, abs)
	} else {
		p = append(p, 0)
		p = appendStr(p, "")
	}
	if err := s.send("TRACE", msgTrace, p); err != nil {
		return err
	}
	return s.expectOK("TRACE")
}

// Step runs n cycles on the input records in (n*InBytes bytes) and
// fills out with the n output records.
func (s *Session) Step(in []byte, n int, out []byte) error {
	if err := s.SendStep(in, n); err != nil {
		return err
	}
	return s.RecvStep(out, n)
}

// SendStep sends a STEP of n cycles without waiting for the reply, so
// the caller can run the Go side meanwhile; RecvStep reads the reply.
func (s *Session) SendStep(in []byte, n int) error {
	if s.broken != nil {
		return s.broken
	}
	if n < 1 || len(in) != n*s.layout.InBytes || uint64(len(in))+5 > maxFrame {
		return fmt.Errorf("cosim: STEP of %d cycles with %d bytes of inputs", n, len(in))
	}
	h := s.hdr[:]
	binary.LittleEndian.PutUint32(h, uint32(1+4+len(in)))
	h[4] = msgStep
	binary.LittleEndian.PutUint32(h[5:], uint32(n))
	s.conn.SetWriteDeadline(time.Now().Add(s.opt.timeout()))
	if _, err := s.bw.Write(h); err != nil {
		return s.fail("STEP", err)
	}
	if _, err := s.bw.Write(in); err != nil {
		return s.fail("STEP", err)
	}
	if err := s.bw.Flush(); err != nil {
		return s.fail("STEP", err)
	}
	return nil
}

// RecvStep reads the reply to SendStep into out (n*OutBytes bytes).
func (s *Session) RecvStep(out []byte, n int) error {
	if s.broken != nil {
		return s.broken
	}
	s.conn.SetReadDeadline(time.Now().Add(s.opt.timeout()))
	var h [9]byte
	if _, err := io.ReadFull(s.br, h[:5]); err != nil {
		return s.fail("STEP", err)
	}
	ln := binary.LittleEndian.Uint32(h[:])
	switch h[4] {
	case msgStepOK:
	case msgError:
		p, err := s.readPayload(ln)
		if err != nil {
			return s.fail("STEP", err)
		}
		return s.protoErr("STEP", CauseProtocol, "the harness refused STEP: "+string(decodeStr(p)))
	default:
		return s.protoErr("STEP", CauseProtocol, fmt.Sprintf("unexpected reply type 0x%02x to STEP", h[4]))
	}
	want := uint64(n) * uint64(s.layout.OutBytes)
	if uint64(ln) != 5+want || len(out) < int(want) {
		return s.protoErr("STEP", CauseProtocol, fmt.Sprintf("STEP reply of %d bytes, want %d", ln, 5+want))
	}
	if _, err := io.ReadFull(s.br, h[5:9]); err != nil {
		return s.fail("STEP", err)
	}
	if got := binary.LittleEndian.Uint32(h[5:]); got != uint32(n) {
		return s.protoErr("STEP", CauseProtocol, fmt.Sprintf("STEP reply for %d cycles, want %d", got, n))
	}
	if _, err := io.ReadFull(s.br, out[:want]); err != nil {
		return s.fail("STEP", err)
	}
	return nil
}

// Close ends the session: QUIT (the harness closes its VCD and exits),
// then waits for the process, killing it if it does not exit, and
// removes the private socket directory. It never leaves a zombie.
func (s *Session) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.stopCtx != nil {
		s.stopCtx()
	}
	var err error
	if s.broken == nil {
		if err = s.send("QUIT", msgQuit, nil); err == nil {
			s.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			err = s.expectOK("QUIT")
		}
	}
	s.abort()
	if err != nil && s.broken == nil {
		return err
	}
	return nil
}

// abort closes the connection (the harness sees the end of its input,
// closes its VCD and exits), waits up to 2 s, then kills it.
func (s *Session) abort() {
	if s.conn != nil {
		s.conn.Close()
	}
	select {
	case <-s.done:
	case <-time.After(2 * time.Second):
		s.kill()
	}
	s.cleanup()
}

// kill kills the harness's process group and waits for it.
func (s *Session) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	<-s.done
}

func (s *Session) cleanup() {
	if s.sockDir != "" {
		os.RemoveAll(s.sockDir)
		s.sockDir = ""
	}
}

func (s *Session) exitStatus() string {
	s.waitMu.Lock()
	defer s.waitMu.Unlock()
	if s.waitEr == nil {
		return "exit status 0"
	}
	return s.waitEr.Error()
}

// fail classifies an I/O error on the connection, makes the session
// unusable and returns the error.
func (s *Session) fail(op string, err error) error {
	if s.broken != nil {
		return s.broken
	}
	he := &HarnessError{Module: s.unit.Module(), Params: ParamString(s.unit.Params()), Op: op, Err: err}
	var ne net.Error
	switch {
	case s.ctx.Err() != nil:
		he.Cause, he.Msg, he.Err = CauseCanceled, "canceled", s.ctx.Err()
		s.abort()
	case errors.As(err, &ne) && ne.Timeout():
		he.Cause, he.Msg = CauseHang, fmt.Sprintf("no reply within %v: the harness hangs; killed it", s.opt.timeout())
		s.kill()
		s.abort()
	default:
		// The connection broke: did the process die?
		select {
		case <-s.done:
		case <-time.After(2 * time.Second):
		}
		select {
		case <-s.done:
			st := s.exitStatus()
			s.waitMu.Lock()
			var ee *exec.ExitError
			signaled := errors.As(s.waitEr, &ee) && ee.Sys() != nil && ee.Sys().(syscall.WaitStatus).Signaled()
			s.waitMu.Unlock()
			if signaled {
				he.Cause, he.Msg = CauseCrash, "the harness crashed ("+st+")"
			} else {
				he.Cause, he.Msg = CauseExit, "the harness exited in the middle of the session ("+st+")"
			}
		default:
			he.Cause, he.Msg = CauseClosed, "the harness closed the connection ("+err.Error()+") but kept running; killed it"
			s.kill()
		}
		s.abort()
	}
	he.Stderr = s.stderr.Tail()
	s.broken = he
	return he
}

func (s *Session) protoErr(op string, cause Cause, msg string) error {
	if s.broken != nil {
		return s.broken
	}
	// The harness exits after an ERROR; give it a moment so stderr is
	// complete.
	select {
	case <-s.done:
	case <-time.After(500 * time.Millisecond):
	}
	he := &HarnessError{Cause: cause, Module: s.unit.Module(), Params: ParamString(s.unit.Params()), Op: op, Msg: msg, Stderr: s.stderr.Tail()}
	s.broken = he
	return he
}

func (s *Session) send(op string, typ byte, payload []byte) error {
	if s.broken != nil {
		return s.broken
	}
	var h [5]byte
	binary.LittleEndian.PutUint32(h[:], uint32(1+len(payload)))
	h[4] = typ
	s.conn.SetWriteDeadline(time.Now().Add(s.opt.timeout()))
	s.bw.Write(h[:])
	s.bw.Write(payload)
	if err := s.bw.Flush(); err != nil {
		return s.fail(op, err)
	}
	return nil
}

func (s *Session) readPayload(ln uint32) ([]byte, error) {
	if ln < 1 || ln > maxFrame {
		return nil, fmt.Errorf("bad frame length %d", ln)
	}
	p := make([]byte, ln-1)
	_, err := io.ReadFull(s.br, p)
	return p, err
}

func (s *Session) recv(op string) (byte, []byte, error) {
	if s.broken != nil {
		return 0, nil, s.broken
	}
	s.conn.SetReadDeadline(time.Now().Add(s.opt.timeout()))
	var h [5]byte
	if _, err := io.ReadFull(s.br, h[:]); err != nil {
		return 0, nil, s.fail(op, err)
	}
	ln := binary.LittleEndian.Uint32(h[:])
	if ln < 1 || ln > 1<<20 {
		return 0, nil, s.protoErr(op, CauseProtocol, fmt.Sprintf("reply of %d bytes to %s", ln, op))
	}
	p, err := s.readPayload(ln)
	if err != nil {
		return 0, nil, s.fail(op, err)
	}
	return h[4], p, nil
}

func (s *Session) expectOK(op string) error {
	typ, p, err := s.recv(op)
	if err != nil {
		return err
	}
	switch typ {
	case msgOK:
		return nil
	case msgError:
		return s.protoErr(op, CauseProtocol, "the harness refused "+op+": "+string(decodeStr(p)))
	}
	return s.protoErr(op, CauseProtocol, fmt.Sprintf("unexpected reply type 0x%02x to %s", typ, op))
}

func decodeStr(p []byte) []byte {
	r := &preader{b: p}
	s := r.str()
	if !r.ok() {
		return p
	}
	return []byte(s)
}

// preader reads little-endian fields; ok turns false on overrun.
type preader struct {
	b   []byte
	bad bool
}

func (r *preader) take(n int) []byte {
	if r.bad || n > len(r.b) {
		r.bad = true
		return make([]byte, n)
	}
	p := r.b[:n]
	r.b = r.b[n:]
	return p
}

func (r *preader) ok() bool    { return !r.bad }
func (r *preader) u8() uint8   { return r.take(1)[0] }
func (r *preader) u16() uint16 { return binary.LittleEndian.Uint16(r.take(2)) }
func (r *preader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *preader) u64() uint64 { return binary.LittleEndian.Uint64(r.take(8)) }
func (r *preader) str() string { n := int(r.u16()); return string(r.take(n)) }
