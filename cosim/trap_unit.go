package cosim

import (
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/unitcfg"
)

// TrapUnit returns trap_unit at the parameters p.
func TrapUnit(p trapunit.Params) (Unit, error) {
	has := 0
	if p.HasHandler {
		has = 1
	}
	params := []Param{{"NumWarps", p.NumWarps}, {"NumPorts", p.NumPorts}, {"HasHandler", has}}
	return bindUnit("trap_unit", params, func() (*trapunit.Unit, error) { return trapunit.New(p) },
		rescoped[*trapunit.Unit]("trap_unit"),
		func(seed uint64) func(uint64, *trapunit.Inputs) { return newTrapStim(p, seed).next })
}

func trapUnitInfo() *UnitInfo {
	return &UnitInfo{
		Module:  "trap_unit",
		Summary: "trap unit of one SM (BPT, IDE, RTT, warp errors, ESRs, host commands)",
		// The standard sets: a small SM (8 warps, 2 schedulers) with and
		// without a trap handler.
		Sets: func() ([]Unit, error) {
			return units(TrapUnit, trapunit.Params{NumWarps: 8, NumPorts: 2, HasHandler: true},
				trapunit.Params{NumWarps: 8, NumPorts: 2, HasHandler: false})
		},
		// One area set: Yosys 0.23 takes about 40 s on it (18,725 cells)
		// but 4.5 minutes on 16 warps and 4 ports (59,771 cells, mostly the
		// multiplexers of the per-event warp indexing).
		AreaSets: func() ([]Unit, error) {
			return units(TrapUnit, trapunit.Params{NumWarps: 8, NumPorts: 2, HasHandler: true})
		},
		FromConfig: fromConfig(fixedParams(unitcfg.TrapUnit), TrapUnit),
	}
}

// trapStim is trap_unit's constrained-random stimulus. It keeps the
// resident warps the way the SM does (launch into a free slot, exit) and
// steers events and host commands with a shadow Go model of the unit (its
// registers as of the previous cycle, what the SM itself would see): warps
// in the handler mostly RTT, pause or raise BPT.INT; warps in user mode
// mostly trap, mask, unmask or hit warp errors; a host wakes or resumes
// soon after every live warp paused and acknowledges interrupts. Every
// 1..2048 cycles a new phase draws new densities, from quiet to saturated;
// in some phases it also breaks the SM's conventions (events of exited or
// paused warps, reserved kinds and commands, bad warp arguments, BPT.TRAP
// 0), which Go and RTL must handle alike.
type trapStim struct {
	p trapunit.Params
	phases
	shadow *trapunit.Unit
	idx    int // WarpIdxWidth
	live   rtl.Bits
	pc     [trapunit.MaxWarps]uint32

	launch, exit        int // per-warp chance per cycle, in 1/1024
	ev, host, wild, err int // per-port event chance, host command chance, rule breaking, error share (in 1/64)
}

func newTrapStim(p trapunit.Params, seed uint64) *trapStim {
	s, _ := trapunit.New(p)
	g := &trapStim{p: p, phases: newPhases(seed, 0x7ea9_0000_5eed_0002), shadow: s, idx: rtl.IdxWidth(p.NumWarps)}
	for w := range g.pc {
		g.pc[w] = uint32(w) << 16
	}
	return g
}

func (g *trapStim) phase() {
	g.launch = g.pick(0, 2, 16, 128)
	g.exit = g.pick(0, 0, 1, 8, 64)
	g.ev = g.pick(0, 2, 8, 24, 48, 64)
	g.host = g.pick(2, 8, 32, 64)
	g.wild = g.pick(0, 0, 0, 1, 4)
	g.err = g.pick(1, 4, 12)
}

func (g *trapStim) chance(k, of int) bool { return g.r.IntN(of) < k }

func (g *trapStim) next(_ uint64, in *trapunit.Inputs) {
	g.step(2048, g.phase)
	r := g.r
	n := g.p.NumWarps
	q := g.shadow.Q()
	*in = trapunit.Inputs{}

	// Warps: exits and launches (no launch while the SM is trapped, as
	// the SM holds CTA launches; in wild phases anyway, and relaunches of
	// occupied slots).
	for w := 0; w < n; w++ {
		switch {
		case g.live.Has(w) && g.chance(g.exit, 1024):
			g.live.Clear(w)
		case !g.live.Has(w) && (!q.SMTrapped || g.wild > 0) && g.chance(g.launch, 1024),
			g.live.Has(w) && g.wild > 0 && g.chance(g.wild, 4096):
			g.live.Set(w)
			in.WarpLaunch.Set(w)
			g.pc[w] = uint32(w)<<16 | uint32(r.IntN(64))
		}
		if g.live.Has(w) && !q.Paused.Has(w) && r.IntN(2) == 0 {
			g.pc[w]++
		}
		in.WarpPC[w] = g.pc[w]
	}
	in.WarpLive = g.live
	if g.wild > 0 && g.chance(g.wild, 64) {
		in.WarpLive = g.live.Or(rtl.BitsOf(r.IntN(n))) // a live warp the stimulus never launched
	}

	// Events, one port at a time.
	for p := 0; p < g.p.NumPorts; p++ {
		if !g.chance(g.ev, 64) {
			continue
		}
		w := r.IntN(n)
		if g.wild > 0 && g.chance(g.wild, 16) {
			w = r.IntN(1 << g.idx) // possibly out of range, not live or paused
		} else if !g.live.Has(w) || q.Paused.Has(w) {
			continue // the SM issues nothing for these
		}
		kind, arg := g.kind(q.InHandler.Has(w%64), q.IntMask.Has(w%64))
		in.SetEvent(p, trapunit.Event{Warp: w, Kind: kind, Arg: arg, PCNext: g.pc[w%64] + 1})
	}

	// The host.
	g.hostCmd(q, in)

	g.shadow.Eval(*in)
	g.shadow.Tick()
}

// kind draws an event for a warp in the handler or in user mode.
func (g *trapStim) kind(inHandler, masked bool) (trapunit.EvKind, uint8) {
	r := g.r
	if g.wild > 0 && g.chance(g.wild, 32) {
		return trapunit.EvKind(r.IntN(16)), uint8(r.IntN(16)) // anything, reserved kinds included
	}
	if g.chance(g.err, 64) {
		switch r.IntN(4) {
		case 0:
			return trapunit.EvPTXTrap, 0
		default:
			return trapunit.EvWarpError, uint8(r.IntN(16)) // code 0 included: UNKNOWN
		}
	}
	// The kind by weight (in 32nds), then its argument.
	tab := handlerKinds
	if !inHandler {
		en := 4
		if masked {
			en = 8 // unmask more often
		}
		// RTT and BPT.PAUSE are illegal outside the handler.
		tab = []weighted[trapunit.EvKind]{{9, trapunit.EvBPTTrap}, {2, trapunit.EvPTXBrkpt},
			{4, trapunit.EvIDEDisable}, {en, trapunit.EvIDEEnable}, {9 - en, trapunit.EvBPTInt},
			{2, trapunit.EvBPTDrain}, {1, trapunit.EvRTT}, {1, trapunit.EvBPTPause}, {4, trapunit.EvNone}}
	}
	k := draw(r, tab)
	switch {
	case k == trapunit.EvBPTTrap && inHandler:
		return k, uint8(1 + r.IntN(7)) // nested
	case k == trapunit.EvBPTTrap:
		reason := 1 + r.IntN(7)
		if g.chance(1, 16) {
			reason = 0 // illegal
		}
		return k, uint8(reason) | uint8(r.IntN(2))<<3 // bit 3 is not part of the reason
	case k == trapunit.EvNone:
		return k, uint8(r.IntN(16))
	}
	return k, 0
}

// handlerKinds are the weights of the events of a warp in the handler.
var handlerKinds = []weighted[trapunit.EvKind]{{10, trapunit.EvRTT}, {5, trapunit.EvBPTPause},
	{6, trapunit.EvBPTPauseQuiet}, {3, trapunit.EvBPTInt}, {2, trapunit.EvBPTTrap},
	{2, trapunit.EvIDEEnable}, {2, trapunit.EvIDEDisable}, {2, trapunit.EvBPTDrain}}

// hostCmd draws the host's command from the registers the host sees.
func (g *trapStim) hostCmd(q trapunit.State, in *trapunit.Inputs) {
	r := g.r
	n := g.p.NumWarps
	warp := func() uint16 {
		if g.wild > 0 && g.chance(g.wild, 8) {
			return uint16(r.IntN(1 << 16))
		}
		if g.chance(1, 16) {
			return uint16(r.IntN(n + 2)) // now and then just out of range
		}
		return uint16(r.IntN(n))
	}
	awake := g.live.AndNot(q.Paused)
	stopped := q.SMTrapped && !awake.Any()
	switch {
	case stopped && g.chance(24, 64):
		switch x := r.IntN(8); {
		case x < 3:
			in.HostCmd = trapunit.HostResume
		case x < 5:
			in.HostCmd = trapunit.HostWakeAll
		default:
			in.HostCmd, in.HostArg = trapunit.HostWakeWarp, warp()
		}
	case q.IRQPending != 0 && g.chance(g.host, 128):
		in.HostCmd, in.HostArg = trapunit.HostAckIRQ, uint16(r.IntN(1<<16))
		if r.IntN(2) == 0 {
			in.HostArg = uint16(q.IRQPending)
		}
	case g.chance(g.host, 256):
		switch x := r.IntN(16); {
		case x < 4:
			in.HostCmd, in.HostArg = trapunit.HostClearGlobalESR, uint16(r.IntN(1<<16))
		case x < 7:
			in.HostCmd, in.HostArg = trapunit.HostClearWarpESR, warp()
		case x < 9:
			in.HostCmd = trapunit.HostWakeAll
		case x < 11:
			in.HostCmd, in.HostArg = trapunit.HostWakeWarp, warp()
		case x < 13:
			in.HostCmd = trapunit.HostResume
		case x < 14:
			in.HostCmd, in.HostArg = trapunit.HostCmd(7), uint16(r.IntN(1<<16)) // reserved
		default:
			in.HostCmd, in.HostArg = trapunit.HostAckIRQ, uint16(r.IntN(16))
		}
	}
}
