// Package debugger is smsim's interactive debugger (smsim debug): a
// session on one SM (package pipeline) acting as the host CPU of the SM's
// trap unit (package trapunit, docs/trap-unit.md). It stops on
// breakpoints (PTX brkpt, BPT.TRAP 1), traps, warp errors and interrupts,
// lets the user inspect warps, registers and the error status registers,
// step by cycle or by instruction of a warp, wake the paused warps and
// continue.
//
//	err := debugger.Run(sm, os.Stdin, os.Stdout, debugger.Options{})
//
// Commands (unique prefixes and the aliases c, s, si, q work; an empty
// line repeats the previous command):
//
//	continue [N]     run until the next stop or the end (at most N cycles);
//	                 stopped warps are resumed first (RESUME without a trap
//	                 handler, WAKE_ALL with one)
//	step [N]         simulate N cycles (default 1), listing the issues
//	stepi W [N]      run until warp W has issued N instructions (default 1)
//	warps            every resident warp: state, PC, source line, ESR, trap state
//	regs W [LANE|handler]
//	                 warp W's registers: a compact table (a value shared by
//	                 every live lane is printed once), one lane's, or the
//	                 trap handler's bank
//	esr [clear]      the global ESR (and what S2R reads), the interrupts,
//	                 every non-zero warp ESR; clear: the host clears them
//	wake [W]         wake the paused warps (or warp W): WAKE_ALL / WAKE_WARP
//	                 with a handler, RESUME (the run trigger) without one;
//	                 refused unless every live warp has paused or exited and
//	                 the SM is trapped
//	help, quit
//
// When in is a terminal the line is edited in place (arrows, Home/End,
// Ctrl-A/E/K/U/W, history with Up/Down); otherwise lines are read plainly,
// so scripts can pipe commands in.
package debugger

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"strconv"
	"strings"

	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trapunit"
)

// Edit modes (Options.Edit).
const (
	EditAuto = iota // line editing when in and out are terminals
	EditOff         // plain line reading
	EditOn          // line editing (raw mode when in is a terminal)
)

// Options configure a session.
type Options struct {
	// Prompt is printed before each command ("(smsim) " when empty).
	Prompt string
	// Edit chooses line editing (EditAuto, EditOff, EditOn).
	Edit int
	// MaxCycles bounds one continue or stepi (0: 100,000,000).
	MaxCycles uint64
	// Echo writes each command read without line editing after the
	// prompt, so that a transcript of a piped session reads naturally.
	Echo bool
}

// session is one debugging session.
type session struct {
	sm     *pipeline.SM
	out    *bufio.Writer
	opts   Options
	agent  *agent
	issued []pipeline.IssueInfo // issues recorded while stepping
	record bool
	last   string
	traps  [3]int // TrapCounts at the last stop
}

// agent is the host agent of a session: it acknowledges interrupts and
// remembers their causes; the user decides everything else.
type agent struct {
	causes  uint8 // interrupt causes seen since the last esr clear
	pending uint8 // to acknowledge
}

func (a *agent) Step(o *trapunit.Outputs, _ int) (trapunit.HostCmd, uint16, *trapunit.Stop) {
	if o.IRQ && o.IRQCause&^a.pending != 0 {
		a.causes |= o.IRQCause
		a.pending = o.IRQCause
		return trapunit.HostAckIRQ, uint16(o.IRQCause), nil
	}
	a.pending = 0
	return trapunit.HostNone, 0, nil
}

// Run runs an interactive session on sm, reading commands from in and
// writing to out, until quit or the end of in. The session installs its
// own host agent (sm.SetHostAgent) in place of any batch policy. The
// error is an I/O error, never the kernel's fate (that is in
// sm.Report()).
func Run(sm *pipeline.SM, in io.Reader, out io.Writer, opts Options) error {
	if opts.Prompt == "" {
		opts.Prompt = "(smsim) "
	}
	if opts.MaxCycles == 0 {
		opts.MaxCycles = 100_000_000
	}
	s := &session{sm: sm, out: bufio.NewWriter(out), opts: opts, agent: &agent{}}
	sm.SetHostAgent(s.agent)
	sm.OnIssue(func(i *pipeline.IssueInfo) {
		if s.record {
			s.issued = append(s.issued, *i)
		}
	})
	defer func() { s.record = false }()
	s.traps[0], s.traps[1], s.traps[2] = sm.TrapCounts()

	read, closeIn := s.reader(in, out)
	defer closeIn()
	s.banner()
	for {
		s.out.Flush()
		line, err := read(opts.Prompt)
		if err != nil {
			s.out.Flush()
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			line = s.last
		}
		if line == "" {
			continue
		}
		s.last = line
		if !s.command(line) {
			return s.out.Flush()
		}
	}
}

// reader returns the line source: the editor on a terminal, plain lines
// otherwise.
func (s *session) reader(in io.Reader, out io.Writer) (func(prompt string) (string, error), func()) {
	f, isFile := in.(*os.File)
	mode := s.opts.Edit
	if mode == EditAuto {
		mode = EditOff
		if of, ok := out.(*os.File); ok && isFile && isTerminal(int(f.Fd())) && isTerminal(int(of.Fd())) {
			mode = EditOn
		}
	}
	if mode == EditOn {
		ed := newEditor(in, s.out)
		return func(prompt string) (string, error) {
			var restore func()
			if isFile && isTerminal(int(f.Fd())) {
				if r, err := makeRaw(int(f.Fd())); err == nil {
					restore = r
				}
			}
			line, err := ed.readLine(prompt)
			if restore != nil {
				restore()
			}
			return line, err
		}, func() {}
	}
	br := bufio.NewReader(in)
	return func(prompt string) (string, error) {
		fmt.Fprint(s.out, prompt)
		line, err := br.ReadString('\n')
		if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
			fmt.Fprintln(s.out)
			return "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if s.opts.Echo {
			fmt.Fprintln(s.out, line)
		}
		return line, nil
	}, func() {}
}

func (s *session) banner() {
	cfg := s.sm.Config()
	h := "no trap handler: a trap or breakpoint stops the warps where they are"
	if s.sm.HasTrapHandler() {
		h = "trap handler " + s.sm.TrapHandler()
	}
	fmt.Fprintf(s.out, "smsim debug: %d warp slots, %d schedulers; %s. Type help for the commands.\n", cfg.SM.MaxWarps, cfg.Sched.Count, h)
}

const help = `commands:
  continue [N]   run to the next stop (breakpoint, trap, warp error, interrupt) or the end;
                 stopped warps are resumed first
  step [N]       simulate N cycles (1), listing what issues
  stepi W [N]    run until warp W has issued N instructions (1)
  warps          state, PC, source line, ESR and trap state of every resident warp
  regs W [LANE|handler]   registers of warp W (compact table, one lane, or the handler's bank)
  esr [clear]    global ESR, interrupts and warp ESRs (clear: the host clears them)
  wake [W]       wake the paused warps (or warp W) once every live warp has paused or exited
  help, quit
`

// command runs one command line; false ends the session.
func (s *session) command(line string) bool {
	f := strings.Fields(line)
	name, args := f[0], f[1:]
	cmds := []string{"continue", "step", "stepi", "warps", "regs", "esr", "wake", "help", "quit"}
	switch name {
	case "c":
		name = "continue"
	case "s":
		name = "step"
	case "si":
		name = "stepi"
	case "q", "exit":
		name = "quit"
	case "h", "?":
		name = "help"
	default:
		var match []string
		for _, c := range cmds {
			if strings.HasPrefix(c, name) {
				match = append(match, c)
			}
		}
		switch {
		case len(match) == 1:
			name = match[0]
		case len(match) > 1 && !contains(match, name):
			fmt.Fprintf(s.out, "ambiguous command %q: %s\n", name, strings.Join(match, ", "))
			return true
		}
	}
	switch name {
	case "continue":
		n, ok := s.count(args, 0, s.opts.MaxCycles)
		if ok {
			s.cont(n)
		}
	case "step":
		n, ok := s.count(args, 0, 1)
		if ok {
			s.step(n)
		}
	case "stepi":
		w, ok := s.warpArg(args, "stepi W [N]")
		if !ok {
			break
		}
		n, ok := s.count(args, 1, 1)
		if ok {
			s.stepi(w, n)
		}
	case "warps":
		s.warps()
	case "regs":
		s.regs(args)
	case "esr":
		s.esr(args)
	case "wake":
		s.wake(args)
	case "help":
		fmt.Fprint(s.out, help)
	case "quit":
		return false
	default:
		fmt.Fprintf(s.out, "unknown command %q (help lists them)\n", name)
	}
	return true
}

func contains(l []string, x string) bool {
	for _, y := range l {
		if y == x {
			return true
		}
	}
	return false
}

// count parses optional argument i as a positive count (def when absent).
func (s *session) count(args []string, i int, def uint64) (uint64, bool) {
	if len(args) <= i {
		return def, true
	}
	n, err := strconv.ParseUint(args[i], 0, 64)
	if err != nil || n == 0 {
		fmt.Fprintf(s.out, "%q is not a positive count\n", args[i])
		return 0, false
	}
	return n, true
}

// warpArg is the warp named by a command's first argument; without one it
// prints the command's usage.
func (s *session) warpArg(args []string, usage string) (pipeline.WarpStatus, bool) {
	if len(args) < 1 {
		fmt.Fprintln(s.out, "usage: "+usage)
		return pipeline.WarpStatus{}, false
	}
	return s.warp(args[0])
}

// warp parses a warp slot that holds a warp.
func (s *session) warp(a string) (pipeline.WarpStatus, bool) {
	n, err := strconv.Atoi(a)
	if err == nil {
		for _, w := range s.sm.WarpStatus() {
			if w.Slot == n {
				return w, true
			}
		}
	}
	fmt.Fprintf(s.out, "no warp in slot %s (warps lists them)\n", a)
	return pipeline.WarpStatus{}, false
}

// ended reports (once per command) that the run is over.
func (s *session) ended() bool {
	if !s.sm.Done() {
		return false
	}
	rep := s.sm.Report()
	fmt.Fprintf(s.out, "the run has ended: %s after %d cycles", rep.Status, rep.Cycles)
	if n := len(rep.Errors); n > 0 {
		e := rep.Errors[n-1]
		fmt.Fprintf(s.out, " (%s at %s: %s)", e.Kind, e.Line, e.Message)
	}
	fmt.Fprintln(s.out)
	return true
}

// resume wakes the stopped warps if every live warp is stopped.
func (s *session) resume() {
	if !s.sm.AllStopped() {
		return
	}
	cmd := trapunit.HostResume
	if s.sm.HasTrapHandler() {
		cmd = trapunit.HostWakeAll
	}
	if e, err := s.sm.HostCommand(cmd, 0); err == nil && e != trapunit.HostOK {
		fmt.Fprintf(s.out, "%s refused: %s\n", cmd, e)
	}
}

// stepOne simulates one cycle and reports whether it stopped (a new trap,
// breakpoint or interrupt, or the end).
func (s *session) stepOne() bool {
	s.sm.Step()
	if s.sm.Done() {
		return true
	}
	t, b, i := s.sm.TrapCounts()
	return t != s.traps[0] || b != s.traps[1] || i != s.traps[2]
}

// report describes what happened since the last stop.
func (s *session) report() {
	log := s.sm.TrapLog()
	for _, r := range log.Breakpoints[min(s.traps[1], len(log.Breakpoints)):] {
		s.describe("breakpoint", r)
	}
	for _, r := range log.Traps[min(s.traps[0], len(log.Traps)):] {
		what := "trap"
		if r.Error != "" {
			what = "warp error " + r.Error
		}
		s.describe(what, r)
	}
	for _, ir := range log.Interrupts[min(s.traps[2], len(log.Interrupts)):] {
		fmt.Fprintf(s.out, "interrupt %s at cycle %d", ir.Cause, ir.Cycle)
		if ir.Warp >= 0 {
			fmt.Fprintf(s.out, " (warp %d)", ir.Warp)
		}
		fmt.Fprintln(s.out)
	}
	s.traps[0], s.traps[1], s.traps[2] = len(log.Traps), len(log.Breakpoints), len(log.Interrupts)
	if !s.ended() && s.sm.AllStopped() {
		fmt.Fprintln(s.out, "every live warp is stopped: continue or wake resumes them")
	}
}

func (s *session) describe(what string, r pipeline.TrapRecord) {
	_, src := s.sm.Image().Where(r.PC)
	fmt.Fprintf(s.out, "%s: warp %d (cta %d,%d,%d warp %d) %s at pc %d %s `%s`, lanes %#08x, cycle %d; ", what, r.Warp, r.CTA[0], r.CTA[1], r.CTA[2], r.WarpInCTA, r.Kind, r.PC, r.Line, strings.TrimSpace(src), r.Lanes, r.Cycle)
	switch r.Action {
	case "handler":
		fmt.Fprintf(s.out, "the warps entered the trap handler %s", s.sm.TrapHandler())
	case "stopped":
		fmt.Fprint(s.out, "the warps stopped")
	case "nested":
		fmt.Fprint(s.out, "the warp was in the trap handler already: it stopped for the host")
	case "pending":
		fmt.Fprint(s.out, "held by IDE.DIS until IDE.EN")
	default:
		fmt.Fprint(s.out, "ignored")
	}
	fmt.Fprintf(s.out, "; resumes at pc %d %s\n", r.ResumePC, s.sm.Line(r.ResumePC))
}

func (s *session) cont(n uint64) {
	if s.ended() {
		return
	}
	s.resume()
	for i := uint64(0); i < n; i++ {
		if s.stepOne() {
			break
		}
	}
	s.report()
	if !s.sm.Done() {
		fmt.Fprintf(s.out, "cycle %d\n", s.sm.Cycle())
	}
}

func (s *session) step(n uint64) {
	if s.ended() {
		return
	}
	s.record = true
	for i := uint64(0); i < n && !s.sm.Done(); i++ {
		s.issued = s.issued[:0]
		c := s.sm.Cycle()
		stop := s.stepOne()
		for _, x := range s.issued {
			s.issue(x)
		}
		if len(s.issued) == 0 && n <= 16 {
			fmt.Fprintf(s.out, "cycle %d: no issue\n", c)
		}
		if stop {
			break
		}
	}
	s.record = false
	s.report()
	if !s.sm.Done() {
		fmt.Fprintf(s.out, "cycle %d\n", s.sm.Cycle())
	}
}

func (s *session) issue(x pipeline.IssueInfo) {
	_, src := s.sm.Image().Where(x.PC)
	fmt.Fprintf(s.out, "cycle %d: warp %d pc %d %s `%s` lanes %#08x\n", x.Cycle, x.Warp, x.PC, s.sm.Line(x.PC), strings.TrimSpace(src), x.Exec)
}

func (s *session) stepi(w pipeline.WarpStatus, n uint64) {
	if s.ended() {
		return
	}
	if w.Paused {
		fmt.Fprintf(s.out, "warp %d is paused: wake it first\n", w.Slot)
		return
	}
	s.record = true
	defer func() { s.record = false }()
	var done uint64
	for c := uint64(0); c < s.opts.MaxCycles && done < n; c++ {
		s.issued = s.issued[:0]
		stop := s.stepOne()
		for _, x := range s.issued {
			if x.Warp == w.Slot {
				s.issue(x)
				done++
			}
		}
		if stop {
			break
		}
		if q := s.sm.TrapState(); q.Paused.Has(w.Slot) {
			fmt.Fprintf(s.out, "warp %d paused\n", w.Slot)
			break
		}
		if _, ok := s.find(w.Slot); !ok {
			fmt.Fprintf(s.out, "warp %d has exited\n", w.Slot)
			break
		}
	}
	s.report()
	if !s.sm.Done() {
		fmt.Fprintf(s.out, "cycle %d\n", s.sm.Cycle())
	}
}

func (s *session) find(slot int) (pipeline.WarpStatus, bool) {
	for _, w := range s.sm.WarpStatus() {
		if w.Slot == slot && w.State != "exited" {
			return w, true
		}
	}
	return pipeline.WarpStatus{}, false
}

func (s *session) warps() {
	ws := s.sm.WarpStatus()
	if len(ws) == 0 {
		fmt.Fprintln(s.out, "no resident warp")
		return
	}
	fmt.Fprintf(s.out, "cycle %d\n", s.sm.Cycle())
	fmt.Fprintf(s.out, "%4s  %-9s %4s  %-16s %5s  %-22s %-24s %-13s %-10s  %s\n", "slot", "cta", "warp", "state", "pc", "line", "esr", "trap", "active", "source")
	for _, w := range ws {
		trap := "-"
		switch {
		case w.Paused && w.InHandler && s.sm.HasTrapHandler():
			trap = "paused"
		case w.Paused:
			trap = "stopped"
		case w.InHandler:
			trap = "handler"
		}
		if w.Paused || w.InHandler {
			trap += fmt.Sprintf(" @%d", w.SavedPC)
		}
		esr := fmt.Sprintf("0x%04x %s", uint16(w.ESR), w.ESR)
		fmt.Fprintf(s.out, "%4d  %-9s %4d  %-16s %5d  %-22s %-24s %-13s %#08x  %s\n", w.Slot, fmt.Sprintf("%d,%d,%d", w.CTA[0], w.CTA[1], w.CTA[2]), w.WarpInCTA, w.State, w.PC, w.Line, esr, trap, w.Active, w.Source)
	}
}

func (s *session) regs(args []string) {
	w, ok := s.warpArg(args, "regs W [LANE|handler]")
	if !ok {
		return
	}
	lane, handler := -1, false
	if len(args) > 1 {
		if args[1] == "handler" {
			handler = true
		} else if l, err := strconv.Atoi(args[1]); err == nil && l >= 0 && l < 32 {
			lane = l
		} else {
			fmt.Fprintf(s.out, "%q: want a lane 0..31 or handler\n", args[1])
			return
		}
	}
	r, ok := s.sm.WarpRegs(w.Slot, handler)
	if !ok {
		fmt.Fprintf(s.out, "warp %d is not in the trap handler\n", w.Slot)
		return
	}
	what := "user"
	if handler {
		what = "trap handler"
	}
	fmt.Fprintf(s.out, "warp %d %s registers (live lanes %#08x):\n", w.Slot, what, r.Live)
	if lane >= 0 {
		for i, v := range r.Regs {
			fmt.Fprintf(s.out, "  R%-3d 0x%08x %d\n", i, v[lane], int32(v[lane]))
		}
		for i, p := range r.Preds {
			fmt.Fprintf(s.out, "  P%-3d %d\n", i, p>>uint(lane)&1)
		}
		fmt.Fprintf(s.out, "  CC   %d (carry flag)\n", r.CC>>uint(lane)&1)
		return
	}
	for i, v := range r.Regs {
		if x, same := uniform(v, r.Live); same {
			fmt.Fprintf(s.out, "  R%-3d 0x%08x (every live lane)\n", i, x)
			continue
		}
		fmt.Fprintf(s.out, "  R%-3d", i)
		for l := 0; l < 32; l++ {
			if l%8 == 0 && l > 0 {
				fmt.Fprint(s.out, "\n      ")
			}
			if r.Live>>uint(l)&1 == 0 {
				fmt.Fprintf(s.out, " %10s", "-")
			} else {
				fmt.Fprintf(s.out, " 0x%08x", v[l])
			}
		}
		fmt.Fprintln(s.out)
	}
	for i, p := range r.Preds {
		fmt.Fprintf(s.out, "  P%-3d lanes %#08x\n", i, p&r.Live)
	}
	fmt.Fprintf(s.out, "  CC   lanes %#08x (carry flag)\n", r.CC&r.Live)
}

// uniform reports whether every live lane of v holds the same value.
func uniform(v [32]uint32, live uint32) (uint32, bool) {
	if live == 0 {
		return 0, true
	}
	x := v[bits.TrailingZeros32(live)]
	for m := live; m != 0; m &= m - 1 {
		if v[bits.TrailingZeros32(m)] != x {
			return 0, false
		}
	}
	return x, true
}

func (s *session) esr(args []string) {
	if len(args) > 0 {
		if args[0] != "clear" {
			fmt.Fprintln(s.out, "usage: esr [clear]")
			return
		}
		if s.ended() {
			return
		}
		if e, err := s.sm.HostCommand(trapunit.HostClearGlobalESR, trapunit.GlobalESRMask); err != nil || e != trapunit.HostOK {
			fmt.Fprintf(s.out, "clear refused: %v %v\n", e, err)
			return
		}
		for _, w := range s.sm.WarpStatus() {
			if w.ESR != 0 {
				s.sm.HostCommand(trapunit.HostClearWarpESR, uint16(w.Slot))
			}
		}
		s.agent.causes = 0
	}
	q := s.sm.TrapState()
	fmt.Fprintf(s.out, "global ESR 0x%04x [%s] (S2R SR_GLOBAL_ESR reads 0x%04x)\n", q.GlobalESR, strings.Join(pipeline.GlobalESRFlags(q.GlobalESR), " "), q.GlobalESR&^trapunit.GlobalESRBPTInt)
	state := "user mode"
	if q.SMTrapped {
		state = "trapped"
		if s.sm.AllStopped() {
			state += ", every live warp stopped"
		}
	}
	fmt.Fprintf(s.out, "SM %s; %d interrupts raised (causes seen: %s; not yet acknowledged: %s)\n", state, q.IRQCount, trapunit.CauseString(s.agent.causes|q.IRQPending), trapunit.CauseString(q.IRQPending))
	any := false
	for _, w := range s.sm.WarpStatus() {
		if w.ESR == 0 {
			continue
		}
		any = true
		fmt.Fprintf(s.out, "warp %d: ESR 0x%04x %s; saved pc %d %s\n", w.Slot, uint16(w.ESR), w.ESR, w.SavedPC, s.sm.Line(w.SavedPC))
	}
	if !any {
		fmt.Fprintln(s.out, "every resident warp's ESR is 0")
	}
}

func (s *session) wake(args []string) {
	if s.ended() {
		return
	}
	cmd, arg := trapunit.HostWakeAll, uint16(0)
	if len(args) > 0 {
		w, ok := s.warp(args[0])
		if !ok {
			return
		}
		cmd, arg = trapunit.HostWakeWarp, uint16(w.Slot)
	}
	if !s.sm.HasTrapHandler() {
		// Without a handler the stopped warps resume at their saved PCs
		// (the run trigger); there is no handler code to continue in.
		cmd, arg = trapunit.HostResume, 0
		if len(args) > 0 {
			fmt.Fprintln(s.out, "no trap handler: wake resumes every stopped warp (RESUME)")
		}
	}
	e, err := s.sm.HostCommand(cmd, arg)
	switch {
	case err != nil:
		fmt.Fprintln(s.out, err)
	case e != trapunit.HostOK:
		why := map[trapunit.HostErr]string{
			trapunit.HostErrNotTrapped: "the SM is not trapped",
			trapunit.HostErrNotStopped: "a live warp is neither paused nor exited",
			trapunit.HostErrBadWarp:    "no such live warp",
			trapunit.HostErrNoHandler:  "no trap handler",
		}[e]
		fmt.Fprintf(s.out, "%s refused: %s (%s)\n", cmd, e, why)
	default:
		fmt.Fprintf(s.out, "%s accepted at cycle %d\n", cmd, s.sm.Cycle()-1)
	}
	s.report()
}
