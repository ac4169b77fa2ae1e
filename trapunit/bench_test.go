package trapunit

import (
	"testing"

	"github.com/smsim/smsim/rtl/rtltest"
)

// bench drives one unit cycle by cycle through rtltest.CheckTwoPhase and
// checks the invariants after every cycle.
type bench struct {
	t  testing.TB
	u  *Unit
	in Inputs // the level inputs (live warps, PCs) carried from cycle to cycle
}

// pcOf is the next PC the test SM reports for warp w (warp_pc_i).
func pcOf(w int) uint32 { return uint32(1000 + 10*w) }

func newBench(t testing.TB, p Params, live ...int) *bench {
	t.Helper()
	if p.NumPorts == 0 {
		p.NumPorts = 2
	}
	u, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	b := &bench{t: t, u: u}
	for w := 0; w < MaxWarps; w++ {
		b.in.WarpPC[w] = pcOf(w)
	}
	for _, w := range live {
		b.in.WarpLive.Set(w)
	}
	return b
}

// step runs one cycle with events on ports 0, 1, ...
func (b *bench) step(evs ...Event) Outputs {
	b.t.Helper()
	return b.cmd(HostNone, 0, evs...)
}

// cmd runs one cycle with a host command and events.
func (b *bench) cmd(c HostCmd, arg uint16, evs ...Event) Outputs {
	b.t.Helper()
	in := b.in
	for i, e := range evs {
		in.SetEvent(i, e)
	}
	in.HostCmd, in.HostArg = c, arg
	return b.run(in)
}

// run runs one cycle with the full input in.
func (b *bench) run(in Inputs) Outputs {
	b.t.Helper()
	o := rtltest.CheckTwoPhase[Inputs, Outputs, State](b.t, b.u, in)[0]
	if err := invariants(b.u, in, o); err != "" {
		b.t.Fatalf("invariant: %s\nstate %+v", err, b.u.Q())
	}
	return o
}

// idle runs one cycle without events and returns its outputs, which show
// the registers the previous cycles wrote.
func (b *bench) idle() Outputs {
	b.t.Helper()
	return b.step()
}

func (b *bench) q() State { return b.u.Q() }

// exit makes warp w not live from the next cycle on.
func (b *bench) exit(w int) { b.in.WarpLive.Clear(w) }

// Event helpers.
func trap(w, r int, pc uint32) Event {
	return Event{Warp: w, Kind: EvBPTTrap, Arg: uint8(r), PCNext: pc}
}
func werr(w int, c ErrCode, pc uint32) Event {
	return Event{Warp: w, Kind: EvWarpError, Arg: uint8(c), PCNext: pc}
}
func ev(w int, k EvKind) Event { return Event{Warp: w, Kind: k, PCNext: pcOf(w) + 1} }

// invariants returns a description of the first broken invariant of the
// unit after the cycle with input in and outputs o, or "".
func invariants(u *Unit, in Inputs, o Outputs) string {
	q := u.Q()
	live := in.WarpLive.And(u.all)
	switch {
	case some(q.Quiet.AndNot(q.Paused)):
		return "a quiet warp is not paused"
	case some(q.Paused.AndNot(q.InHandler)):
		return "a paused warp is not in the handler"
	case some(q.InHandler.AndNot(live)):
		return "a warp that is not live is in the handler"
	case some(q.IntMask.AndNot(u.all)), some(q.InHandler.AndNot(u.all)):
		return "a bit beyond NumWarps is set"
	case q.SMTrapped != some(q.InHandler.And(live)):
		return "sm_trapped_q is not 'some live warp in the handler'"
	case q.GlobalESR&^GlobalESRMask != 0:
		return "undefined global ESR bit"
	case q.IRQPending&^IRQMask != 0:
		return "undefined interrupt cause"
	case some(o.EnterHandler.AndNot(q.InHandler)):
		return "a warp entering the handler is not in it"
	case some(o.Resume.And(q.InHandler)):
		return "a resumed warp is still in the handler"
	case some(o.Resume.And(o.EnterHandler)):
		return "a warp both enters and resumes"
	case !u.p.HasHandler && o.EnterHandler.Any():
		return "enter_handler_o without a handler"
	case o.HostAck != (in.HostCmd != HostNone && o.HostErr == HostOK):
		return "host_ack_o disagrees with host_err_o"
	case o.S2RGlobalESR&GlobalESRBPTInt != 0:
		return "S2R reads BPT_INT"
	}
	for w := 0; w < MaxWarps; w++ {
		e := q.WarpESR[w]
		if e&^(WarpESRReasonMask|WarpESRErrorMask|WarpESRPendingMask) != 0 {
			return "undefined warp ESR bit"
		}
		if e.Pending() == ReasonNonMaskable {
			return "reason 7 held pending"
		}
	}
	return ""
}
