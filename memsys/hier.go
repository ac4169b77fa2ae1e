package memsys

import (
	"cmp"
	"fmt"

	"github.com/smsim/smsim/rtl"
)

// Fixed pipeline cycles of the paths through the components, counted from
// the cycle the coalescer takes a warp request to the cycle the response
// is on the L1's output. The configured latencies (Figures) are whole
// load-to-use figures as a pointer chase measures them; FromFigures
// subtracts these so that an unloaded access takes exactly the figure.
const (
	// CoalescerCycles: the coalescer sends a request's first line the
	// cycle after it takes it.
	CoalescerCycles = 1
	// L2PathCycles: an L1 miss reaches the L2 the cycle after the tag
	// stage, and its fill answers the cycle after the L2's response.
	L2PathCycles = 2
	// DRAMPathCycles: as L2PathCycles, plus the L2's fill cycle.
	DRAMPathCycles = 3
)

// Figures are the published load-to-use latencies the hierarchy is
// calibrated to, in SM cycles.
type Figures struct {
	L1Hit, L2Near, L2Far, DRAM int
}

// Derive returns the components' own latencies for f: the L1's
// HitLatency, the L2's LatNear and LatFar, and the DRAM's Latency. An error
// names the figure that is too small for the fixed path cycles.
func (f Figures) Derive() (l1, near, far, dram int, err error) {
	l1 = f.L1Hit - CoalescerCycles
	near = f.L2Near - CoalescerCycles - L2PathCycles
	far = f.L2Far - CoalescerCycles - L2PathCycles
	dram = f.DRAM - CoalescerCycles - DRAMPathCycles
	switch {
	case l1 < 1:
		return 0, 0, 0, 0, fmt.Errorf("L1 hit latency %d: at least %d cycles", f.L1Hit, CoalescerCycles+1)
	case near < 1:
		return 0, 0, 0, 0, fmt.Errorf("L2 near latency %d: at least %d cycles", f.L2Near, CoalescerCycles+L2PathCycles+1)
	case far < near:
		return 0, 0, 0, 0, fmt.Errorf("L2 far latency %d is below the near one %d", f.L2Far, f.L2Near)
	case dram < 1:
		return 0, 0, 0, 0, fmt.Errorf("DRAM latency %d: at least %d cycles", f.DRAM, CoalescerCycles+DRAMPathCycles+1)
	}
	return l1, near, far, dram, nil
}

// HierParams are the parameters of everything behind the SM's memory port.
type HierParams struct {
	L1    L1Params
	Const ConstParams
	L2    L2Params
}

// Check reports a parameter outside its range.
func (p HierParams) Check() error {
	return cmp.Or(p.L1.Check(), p.Const.Check(), p.L2.Check()) // the first error
}

// PortIn is what the SM drives on its memory port in a cycle.
type PortIn struct {
	// ReqValid: a global or local line request from the coalescer.
	ReqValid bool
	Req      Req
	// RespReady: the SM takes the response on PortOut.Resp.
	RespReady bool
	// ConstValid: a constant or parameter warp request, tagged ConstID.
	ConstValid bool
	ConstID    uint32
	Const      WarpReq
	// ConstRespReady: the SM takes PortOut.ConstResp.
	ConstRespReady bool
}

// PortOut is what the memory system shows the SM in a cycle: a function of
// its state alone (no input reaches an output in the same cycle).
type PortOut struct {
	ReqReady       bool
	RespValid      bool
	Resp           Resp
	ConstReady     bool
	ConstRespValid bool
	ConstResp      Resp
}

// Hier is the memory system behind the SM's port: the L1 data cache and
// the constant cache, sharing the port to this SM's L2 slice (round-robin
// when both have a request), and the DRAM behind it. It keeps the
// two-phase protocol of the SM's units: Eval(in) returns the outputs (from
// the state) and latches the inputs; Tick performs the cycle.
type Hier struct {
	p   HierParams
	l1  *L1
	cc  *ConstCache
	l2  *L2
	in  PortIn
	rr  bool // the constant cache has priority at the L2 port next time
	now uint64
}

// NewHier checks p and returns an empty, idle memory system at cycle 0.
func NewHier(p HierParams) (*Hier, error) { return rtl.Build(p, newHier) }

func newHier(p HierParams) *Hier {
	return &Hier{p: p, l1: newL1(p.L1), cc: newConstCache(p.Const), l2: newL2(p.L2)}
}

// Out returns this cycle's outputs.
func (h *Hier) Out() PortOut {
	var o PortOut
	o.ReqReady = h.l1.Ready()
	o.Resp, o.RespValid = h.l1.Resp()
	o.ConstReady = h.cc.Ready()
	o.ConstResp, o.ConstRespValid = h.cc.Resp()
	return o
}

// Eval latches this cycle's inputs and returns the outputs; calling it
// again replaces the inputs. It changes no state.
func (h *Hier) Eval(in PortIn) PortOut {
	h.in = in
	return h.Out()
}

// Tick performs the cycle with the inputs of the last Eval (none if Eval
// was not called), then clears them.
func (h *Hier) Tick() {
	o := h.Out()
	in := h.in
	h.in = PortIn{}
	// 1. The SM's side of the port.
	if in.ReqValid && o.ReqReady {
		h.l1.Push(in.Req)
	}
	if o.RespValid && in.RespReady {
		h.l1.PopResp()
	}
	if in.ConstValid && o.ConstReady {
		c := in.Const
		h.cc.Push(in.ConstID, &c)
	}
	if o.ConstRespValid && in.ConstRespReady {
		h.cc.PopResp()
	}
	// 2. One request toward the L2 (taken from the queues as they stood
	// at the start of the cycle).
	if h.l2.Ready() {
		r1, ok1 := h.l1.L2Req()
		rc, okc := h.cc.L2Req()
		switch {
		case okc && (h.rr || !ok1):
			h.l2.Push(rc)
			h.cc.PopL2Req()
			h.rr = false
		case ok1:
			h.l2.Push(r1)
			h.l1.PopL2Req()
			h.rr = true
		}
	}
	// 3. One response from the L2, to the requester (the constant cache
	// tags its fetches with the constant space bit of the ID).
	if r, ok := h.l2.Pop(); ok {
		if r.ID&constTag != 0 && r.Op == OpLoad {
			h.cc.Fill(r)
		} else {
			h.l1.Fill(r)
		}
	}
	// 4. The components' own cycle.
	h.l1.Step()
	h.cc.Step()
	h.l2.Step()
	h.now++
}

// constTag marks the constant cache's requests to the L2.
const constTag = 1 << 31

// Idle reports whether nothing is queued or outstanding anywhere.
func (h *Hier) Idle() bool { return h.l1.Idle() && h.cc.Idle() && h.l2.Idle() }

// Now is the current cycle (the number of Ticks).
func (h *Hier) Now() uint64 { return h.now }

// L1 returns the L1 data cache (for its counters and contents).
func (h *Hier) L1() *L1 { return h.l1 }

// Const returns the constant cache.
func (h *Hier) Const() *ConstCache { return h.cc }

// L2 returns the L2 slice (and, through it, the DRAM).
func (h *Hier) L2() *L2 { return h.l2 }

// NextEvent returns the number of cycles, from now, until something can
// happen in the memory system with no new input: 0 when a component has
// work every cycle (a queue is not empty) or a response is due now, the
// distance to the earliest due response otherwise; ok is false when the
// system is idle (nothing will ever happen without input). The SM may skip
// NextEvent() cycles with Advance.
func (h *Hier) NextEvent() (n uint64, ok bool) {
	if h.l1.in.len() > 0 || h.l1.toL2.len() > 0 || h.cc.q.len() > 0 || h.cc.toL2.len() > 0 ||
		h.l2.q.len() > 0 || h.l2.dram.q.len() > 0 {
		return 0, true
	}
	at, any := uint64(0), false
	consider := func(t uint64) {
		if !any || t < at {
			at, any = t, true
		}
	}
	if len(h.l1.out.h) > 0 {
		consider(h.l1.out.h[0].at)
	}
	if len(h.cc.out.h) > 0 {
		consider(h.cc.out.h[0].at)
	}
	if len(h.l2.out.h) > 0 {
		consider(h.l2.out.h[0].at)
	}
	if h.l2.dram.fly.len() > 0 {
		consider(h.l2.dram.fly.peek().at)
	}
	if !any {
		return 0, false
	}
	if at <= h.now {
		return 0, true
	}
	return at - h.now, true
}

// Advance moves the memory system n cycles forward as n Ticks without input
// would, in one step; n must not exceed NextEvent() (it panics otherwise:
// that is a bug of the caller, not of the simulated program).
func (h *Hier) Advance(n uint64) {
	if n == 0 {
		return
	}
	if next, ok := h.NextEvent(); ok && n > next {
		panic(fmt.Sprintf("memsys: Advance(%d) past the next event in %d cycles", n, next))
	}
	h.in = PortIn{}
	h.l1.now += n
	h.cc.now += n
	h.l2.now += n
	h.l2.bw.refillN(n)
	d := h.l2.dram
	if d.fly.len() > 0 {
		d.stats.BusyCycles += n
	}
	d.bw.refillN(n)
	d.now += n
	h.now += n
}
