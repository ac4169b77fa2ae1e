package memsys

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// PortParams are the parameters of the load/store unit's port: the bank
// geometry, the hierarchy behind the port, the shared-memory latency and
// the number of warp requests in flight.
type PortParams struct {
	Hier  HierParams
	Banks BankParams
	// SharedLatency is the load-to-use latency of a conflict-free
	// shared-memory access, from the cycle the port takes it to the cycle
	// its response is on the port (lat.shared); each further wavefront of
	// a bank conflict adds one cycle.
	SharedLatency int
	// Inflight is the number of warp requests the port tracks at once
	// (accepted, not yet answered); with all in use it takes no more
	// (lg_throttle or mio_throttle).
	Inflight int
}

// Check reports a parameter outside its range.
func (p PortParams) Check() error {
	if err := p.Banks.Check(); err != nil {
		return err
	}
	switch {
	case p.SharedLatency < 1:
		return fmt.Errorf("memsys: SharedLatency %d < 1", p.SharedLatency)
	case p.Inflight < 1 || p.Inflight > MaxInflight:
		return fmt.Errorf("memsys: Inflight %d outside 1..%d", p.Inflight, MaxInflight)
	}
	return p.Hier.Check()
}

// MaxInflight bounds PortParams.Inflight (the slot number travels in the
// line requests' IDs, below the constant cache's tag bit).
const MaxInflight = 1 << 16

// Request is one warp memory instruction as the load/store stage hands it
// to the port.
type Request struct {
	// Tag is the LSU's name for the instruction (the warp and its
	// destination registers, say), returned in the response. The port does
	// not interpret it; several requests may carry the same tag.
	Tag uint32
	// Op is OpLoad, OpStore, OpAtomic or OpRed.
	Op Op
	// Space is the state space after generic addresses are resolved.
	Space Space
	// Size is the access size of each lane in bytes: 1, 2, 4, 8 or 16
	// (a .v4 of 64-bit elements is two requests).
	Size int
	// Mask has bit l set when lane l takes part. A request with no lane is
	// taken and answered the next cycle.
	Mask uint32
	// Cache is a global load's cache operator (how it uses the L1);
	// ignored for other spaces and operations.
	Cache CacheOp
	// Addr[l] is lane l's byte address: global and local addresses for
	// those spaces, the offset in the shared window for shared, the
	// address in the constant bank (or parameter space) for const and
	// param.
	Addr [WarpSize]uint64
}

// Path is which part of the LSU serves a request, and which stall a warp
// waiting for it reports.
type Path uint8

// The paths.
const (
	// PathLG: global and local accesses, atomics and reductions (the
	// coalescer and the L1). A warp the port does not take waits in
	// lg_throttle.
	PathLG Path = iota
	// PathMIO: shared-memory accesses (the banks) and constant and
	// parameter loads (the constant cache). A warp the port does not take
	// waits in mio_throttle.
	PathMIO
)

// PathOf is the path of an access to space s.
func PathOf(s Space) Path {
	switch s {
	case SpaceShared, SpaceConst, SpaceParam:
		return PathMIO
	}
	return PathLG
}

// Throttle is the Nsight Compute stall reason of a warp whose request the
// port did not take: "lg_throttle" or "mio_throttle".
func (p Path) Throttle() string {
	if p == PathMIO {
		return "mio_throttle"
	}
	return "lg_throttle"
}

// Facts are what the port finds out about an offered request in the cycle
// it is offered (whether or not it takes it): the figures the SM's metrics
// and stall accounting need.
type Facts struct {
	// Path serves the request; Path.Throttle() is the stall of a warp the
	// port does not take.
	Path Path
	// Lines and Sectors: the 128-byte lines and 32-byte sectors a global
	// or local request touches (l1tex__t_sectors_...). The coalescer sends
	// one line per cycle.
	Lines, Sectors int
	// Wavefronts and Conflicts: the passes through the banks of a shared
	// request, and the passes beyond the conflict-free minimum
	// (l1tex__data_bank_conflicts_...). Conflicts is the number of bank-
	// conflict replays.
	Wavefronts, Conflicts int
	// Accesses: the distinct addresses of a const or param request, one
	// constant-cache lookup each.
	Accesses int
}

// Response says a warp request is complete: a load's data (or an
// atomic's old value) may be written back, a store or reduction has been
// performed at its level of the hierarchy.
type Response struct {
	Tag   uint32
	Op    Op
	Space Space
	// Cycle is the completion cycle: the cycle the response is on the
	// port (Port.Now() of the Eval that shows it).
	Cycle uint64
	// Issued is the cycle the port took the request, so Cycle - Issued is
	// the request's latency.
	Issued uint64
}

// MaxResponses is the most responses the port gives in one cycle: one from
// the L1, one from the constant cache, and two from the fixed-latency
// queue (a shared request's and an empty one's).
const MaxResponses = 4

// PortOutputs are the port's outputs in a cycle. Responses are given in
// the cycle they complete, and the SM must take them then. Eval returns
// them by pointer, valid until the next Eval or Tick (no copy per cycle).
type PortOutputs struct {
	// Ready: the offered request is taken this cycle.
	Ready bool
	// Err: the offered request is malformed (a misaligned lane, an
	// unsupported size, op or space); it is not taken. The SM faults the
	// warp before it gets here, so this is a bug of the caller.
	Err error
	// Facts of the offered request.
	Facts Facts
	// Resp[:NResp] are the requests completing this cycle.
	Resp  [MaxResponses]Response
	NResp int
}

// Responses returns the responses of o.
func (o *PortOutputs) Responses() []Response { return o.Resp[:o.NResp] }

type portSlot struct {
	busy   bool
	tag    uint32
	op     Op
	space  Space
	cache  CacheOp
	issued uint64
	lines  int // global/local: line responses still to come
}

type fixedDone struct {
	at   uint64
	slot int32
}

// Port is the load/store unit's side of the memory system: the one
// interface the SM's load/store stage uses for every warp memory
// instruction. It takes at most one warp request per cycle and sends it
// down its path: global and local accesses, atomics and reductions through
// the Coalescer to the L1 (Hier); shared accesses through the Banks;
// constant and parameter loads to the constant cache. It answers each
// request once, with its tag, when the whole request is done.
//
// It keeps the SM's two-phase protocol: Eval(req) computes the outputs from
// the state and the offered request and changes nothing; Tick performs the
// cycle.
// A caller that steps every cycle calls Eval and Tick (or Step); a caller
// that skips idle cycles asks NextEvent how far it may go and calls
// Advance, which gives the same result as that many Ticks without input.
//
// Latencies, counted from the cycle the port takes a request to the cycle
// its response is on the port: an L1 hit l1.hit_latency, an L2 or DRAM
// access its configured figure (docs/memory.md), plus queueing and one
// cycle per further line; a shared access SharedLatency plus one cycle per
// further wavefront; a constant hit the constant cache's HitLatency plus
// one cycle per further distinct address.
type Port struct {
	p     PortParams
	co    *Coalescer
	banks *Banks
	h     *Hier
	slots []portSlot
	free  []int32 // free slots, lowest on top
	fixed []fixedDone
	now   uint64
	m     Metrics

	// Latched by Eval for Tick.
	req     Request // the offered request (valid: offered)
	offered bool
	out     PortOutputs
	take    int32 // slot given to the offered request, -1 if none
	co1     CoalescerOutputs
	bk1     BankOutputs
	ho      PortOut
	wf      int  // wavefronts of the taken shared request
	evald   bool // Eval was called since the last Tick
	idle    bool // that Eval found nothing offered and nothing in flight
}

// NewPort checks p and returns an empty, idle port at cycle 0.
func NewPort(p PortParams) (*Port, error) { return rtl.Build(p, newPort) }

func newPort(p PortParams) *Port {
	t := &Port{p: p, co: NewCoalescer(CoalescerParams{}), banks: newBanks(p.Banks), h: newHier(p.Hier), slots: make([]portSlot, p.Inflight), take: -1}
	for i := p.Inflight - 1; i >= 0; i-- {
		t.free = append(t.free, int32(i))
	}
	return t
}

// Params returns the parameters.
func (t *Port) Params() PortParams { return t.p }

// Now is the current cycle (the number of Ticks and Advanced cycles).
func (t *Port) Now() uint64 { return t.now }

// Hier returns the memory system behind the port (its caches' counters).
func (t *Port) Hier() *Hier { return t.h }

// Coalescer returns the coalescer (for tracing its signals).
func (t *Port) Coalescer() *Coalescer { return t.co }

// Banks returns the shared-memory banks (for tracing their signals).
func (t *Port) Banks() *Banks { return t.banks }

// Refuses reports, before this cycle's Eval, that the port takes no
// request with a lane to space s this cycle: every slot is in use, the
// coalescer (global, local) or the banks (shared) are busy past this
// cycle, or the constant cache (const, param) has no room. False does not mean it takes one (the
// request's own facts decide); true means Eval would answer not Ready.
// For an SM that skips preparing a request the port cannot take.
func (t *Port) Refuses(s Space) bool {
	if len(t.free) == 0 {
		return true
	}
	switch s {
	case SpaceGlobal, SpaceLocal:
		q := &t.co.Cur
		// The coalescer takes a request when idle or as its last line
		// goes (the L1 ready for it).
		return q.Busy && !(q.Idx+1 == q.NLines && t.h.l1.Ready())
	case SpaceConst, SpaceParam:
		return !t.h.cc.Ready()
	case SpaceShared:
		// The banks take a request when idle or as the last wavefront
		// of the one they replay goes.
		q := &t.banks.Cur
		return q.Busy && q.Idx+1 != q.NWf
	}
	return false
}

// Inflight is the number of requests taken and not yet answered.
func (t *Port) Inflight() int { return t.p.Inflight - len(t.free) }

// Idle reports whether no request is in flight anywhere behind the port.
func (t *Port) Idle() bool { return t.Inflight() == 0 && t.h.Idle() }

// Metrics returns the counters of the port's traffic so far, with the
// caches' counters (Nsight Compute names: Metrics.Values).
func (t *Port) Metrics() Metrics {
	m := t.m
	m.L1, m.L2, m.DRAM, m.Const = t.h.L1().Stats(), t.h.L2().Stats(), t.h.L2().DRAM().Stats(), t.h.Const().Stats()
	return m
}

// Analyze returns the facts of req without offering it: its path, lines
// and sectors, wavefronts and conflicts, or distinct addresses, and an
// error if it is malformed.
func (t *Port) Analyze(req *Request) (Facts, error) {
	return analyze(t.p.Banks, req)
}

func analyze(bp BankParams, req *Request) (Facts, error) {
	f := Facts{Path: PathOf(req.Space)}
	if err := precheck(req); err != nil {
		return f, err
	}
	switch req.Space {
	case SpaceGlobal, SpaceLocal:
		w := WarpReq{Op: req.Op, Space: req.Space, Size: req.Size, Mask: req.Mask, Addr: req.Addr}
		c, err := Coalesce(&w)
		if err != nil {
			return f, err
		}
		f.Lines, f.Sectors = c.N, c.Sectors
	case SpaceShared:
		var a [WarpSize]uint32
		for m := req.Mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			a[l] = uint32(req.Addr[l])
		}
		w, err := SharedWavefronts(bp, &a, req.Size, req.Mask)
		if err != nil {
			return f, err
		}
		f.Wavefronts, f.Conflicts = w.N, w.Conflicts()
	default: // const, param
		f.Accesses = distinct(req)
	}
	return f, nil
}

// precheck finds the faults of req that do not need its addresses
// coalesced: an unknown op or space, a bad size, a shared address beyond
// 32 bits, a store or atomic to the constant space.
func precheck(req *Request) error {
	if req.Op > OpRed {
		return fmt.Errorf("memsys: unknown op %d", req.Op)
	}
	if err := CheckSize(req.Size); err != nil {
		return err
	}
	switch req.Space {
	case SpaceGlobal, SpaceLocal:
	case SpaceShared:
		for m := req.Mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			if req.Addr[l] > 1<<32-1 {
				return fmt.Errorf("memsys: lane %d shared address %#x is beyond 32 bits", l, req.Addr[l])
			}
		}
	case SpaceConst, SpaceParam:
		if req.Op != OpLoad {
			return fmt.Errorf("memsys: %s to the %s space", req.Op, req.Space)
		}
	default:
		return fmt.Errorf("memsys: unknown space %d", req.Space)
	}
	return nil
}

// distinct counts the distinct addresses of req's active lanes.
func distinct(req *Request) int {
	var seen [WarpSize]uint64
	n := 0
	for m := req.Mask; m != 0; m &= m - 1 {
		a := req.Addr[bits.TrailingZeros32(m)]
		dup := false
		for _, s := range seen[:n] {
			if s == a {
				dup = true
				break
			}
		}
		if !dup {
			seen[n] = a
			n++
		}
	}
	return n
}

// Eval computes this cycle's outputs from the state and the offered
// request (nil: none), and latches the request (a copy) for Tick. It
// changes no state; calling it again replaces the request. The outputs
// are the port's own, valid until the next Eval.
func (t *Port) Eval(req *Request) *PortOutputs {
	t.take, t.wf, t.evald = -1, 0, true
	o := &t.out
	o.Ready, o.Err, o.Facts, o.NResp = false, nil, Facts{}, 0
	t.offered = req != nil
	if !t.offered && len(t.free) == t.p.Inflight {
		// Nothing offered, nothing in flight: no output, and the units'
		// D is already their Q (the last Tick copied it).
		t.ho, t.idle = PortOut{}, true
		return o
	}
	if t.offered {
		t.req = *req
	}
	t.idle = false
	ho := t.h.Out()
	t.ho = ho

	// 1. The offered request: its facts, and whether its path has room.
	var coIn CoalescerInputs
	var bkIn BankInputs
	coIn.OutReady = ho.ReqReady
	offerOK := false
	r := &t.req
	empty := t.offered && r.Mask == 0
	// The coalescer and the banks find the facts of a request they are
	// offered (one coalescing per cycle); the others are found here.
	viaUnit := t.offered && len(t.free) > 0 && !empty &&
		(r.Space == SpaceGlobal || r.Space == SpaceLocal || r.Space == SpaceShared)
	if t.offered {
		o.Facts.Path = PathOf(r.Space)
		err := precheck(r)
		if err == nil && !viaUnit {
			o.Facts, err = analyze(t.p.Banks, r)
		}
		o.Err = err
		offerOK = err == nil && len(t.free) > 0
	}
	slot := int32(-1)
	if offerOK {
		slot = t.free[len(t.free)-1]
	}
	switch {
	case !offerOK:
	case empty:
		o.Ready = true
	case r.Space == SpaceGlobal || r.Space == SpaceLocal:
		op := r.Op
		if op == OpRed {
			op = OpAtomic
		}
		coIn.ReqValid, coIn.ReqOp, coIn.ReqSpace, coIn.ReqSize = true, uint8(op), uint8(r.Space), uint8(r.Size)
		coIn.ReqMask, coIn.ReqAddr, coIn.ReqID = r.Mask, r.Addr, uint32(slot)
	case r.Space == SpaceShared:
		op := r.Op
		if op == OpRed {
			op = OpAtomic
		}
		bkIn.ReqValid, bkIn.ReqOp, bkIn.ReqSize, bkIn.ReqMask, bkIn.ReqID = true, uint8(op), uint8(r.Size), r.Mask, uint32(slot)
		for m := r.Mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			bkIn.ReqAddr[l] = uint32(r.Addr[l])
		}
	default: // const, param
		o.Ready = ho.ConstReady
	}

	// 2. The units inside the LSU.
	co := t.co.Eval(coIn)
	bk := t.banks.Eval(bkIn)
	t.co1, t.bk1 = co, bk
	if coIn.ReqValid {
		o.Ready = co.ReqReady && !co.ReqErr
		o.Facts.Lines, o.Facts.Sectors = int(co.ReqLines), int(co.ReqSectors)
	}
	if bkIn.ReqValid {
		o.Ready = bk.ReqReady && !bk.ReqErr
		o.Facts.Wavefronts, o.Facts.Conflicts = int(bk.ReqWavefronts), int(bk.ReqConflicts)
		t.wf = int(bk.ReqWavefronts)
	}
	if co.ReqErr && coIn.ReqValid || bk.ReqErr && bkIn.ReqValid {
		_, o.Err = analyze(t.p.Banks, r) // the unit's reason, in words
	}
	if o.Ready {
		t.take = slot
	}

	// 3. The memory system behind the port.
	hin := PortIn{RespReady: true, ConstRespReady: true}
	if co.OutValid {
		hin.ReqValid = true
		hin.Req = Req{ID: co.OutID, Op: Op(co.OutOp), Addr: co.OutAddr, Sectors: co.OutSectors, Lanes: uint8(bits.OnesCount32(co.OutLanes)),
			Local: t.slots[co.OutID].space == SpaceLocal, Cache: t.slots[co.OutID].cache}
	}
	if o.Ready && (r.Space == SpaceConst || r.Space == SpaceParam) && !empty {
		hin.ConstValid, hin.ConstID = true, uint32(slot)
		hin.Const = WarpReq{Op: OpLoad, Space: r.Space, Size: r.Size, Mask: r.Mask, Addr: r.Addr}
	}
	t.h.Eval(hin)

	// 4. This cycle's responses.
	add := func(s int32) {
		sl := &t.slots[s]
		o.Resp[o.NResp] = Response{Tag: sl.tag, Op: sl.op, Space: sl.space, Cycle: t.now, Issued: sl.issued}
		o.NResp++
	}
	if ho.RespValid && t.slots[ho.Resp.ID].lines == 1 {
		add(int32(ho.Resp.ID))
	}
	if ho.ConstRespValid {
		add(int32(ho.ConstResp.ID))
	}
	for _, d := range t.fixed {
		if d.at > t.now {
			break
		}
		add(d.slot)
	}
	return o
}

// Tick performs the cycle with the inputs of the last Eval (none if Eval
// was not called since the last Tick).
func (t *Port) Tick() {
	if !t.evald {
		t.Eval(nil)
	}
	o := &t.out
	// 1. The request taken this cycle (its slot is the top of the free
	// list as Eval saw it, before this cycle's responses free theirs).
	if t.take >= 0 {
		r := &t.req
		s := &t.slots[t.take]
		*s = portSlot{busy: true, tag: r.Tag, op: r.Op, space: r.Space, issued: t.now, lines: o.Facts.Lines}
		if r.Op == OpLoad && r.Space == SpaceGlobal {
			s.cache = r.Cache
		}
		t.free = t.free[:len(t.free)-1]
		switch {
		case r.Mask == 0:
			t.schedule(t.now+1, t.take)
		case r.Space == SpaceShared:
			t.schedule(t.now+uint64(t.p.SharedLatency+t.wf-1), t.take)
		}
		t.m.add(r, &o.Facts)
	}
	// 2. Responses leave; their slots are freed.
	if t.ho.RespValid {
		s := &t.slots[t.ho.Resp.ID]
		s.lines--
		if s.lines == 0 {
			t.release(int32(t.ho.Resp.ID))
		}
	}
	if t.ho.ConstRespValid {
		t.release(int32(t.ho.ConstResp.ID))
	}
	for len(t.fixed) > 0 && t.fixed[0].at <= t.now {
		t.release(t.fixed[0].slot)
		t.fixed = t.fixed[1:]
	}
	// 3. The units.
	switch {
	case !t.idle:
		t.co.Tick()
		t.banks.Tick()
		t.h.Tick()
	case t.h.Idle():
		t.h.Advance(1) // the same as a Tick with nothing to do, cheaper
	default:
		t.h.Tick() // write-backs still drain behind the port
	}
	t.now++
	t.take, t.ho, t.evald = -1, PortOut{}, false
}

// Step is Eval(req) then Tick, for a caller with nothing to do between
// the two phases; it returns the outputs of the cycle (valid until the
// next Eval).
func (t *Port) Step(req *Request) *PortOutputs {
	o := t.Eval(req)
	t.Tick()
	return o
}

func (t *Port) release(s int32) {
	t.slots[s] = portSlot{}
	t.free = append(t.free, s)
}

// schedule queues slot s's response at cycle at, keeping the queue in order
// of time (ties in order of insertion).
func (t *Port) schedule(at uint64, s int32) {
	i := len(t.fixed)
	t.fixed = append(t.fixed, fixedDone{})
	for i > 0 && t.fixed[i-1].at > at {
		t.fixed[i] = t.fixed[i-1]
		i--
	}
	t.fixed[i] = fixedDone{at: at, slot: s}
}

// NextEvent returns the number of cycles, from now, until the port can do
// something with no new request: 0 when a unit inside it works this
// cycle or a response is due now; ok is false when nothing is in flight
// (nothing happens until the next request). A caller that skips idle
// cycles may Advance by NextEvent() cycles and must then step.
func (t *Port) NextEvent() (n uint64, ok bool) {
	if t.co.Q().Busy || t.banks.Q().Busy {
		return 0, true
	}
	n, ok = t.h.NextEvent()
	if len(t.fixed) > 0 {
		d := uint64(0)
		if at := t.fixed[0].at; at > t.now {
			d = at - t.now
		}
		if !ok || d < n {
			n, ok = d, true
		}
	}
	return n, ok
}

// Advance moves the port n cycles forward as n cycles without a request
// would, in one step; n must not exceed NextEvent() (it panics otherwise:
// a bug of the caller).
func (t *Port) Advance(n uint64) {
	if n == 0 {
		return
	}
	if next, ok := t.NextEvent(); ok && n > next {
		panic(fmt.Sprintf("memsys: Port.Advance(%d) past the next event in %d cycles", n, next))
	}
	t.h.Advance(n)
	t.now += n
	t.take, t.ho, t.evald = -1, PortOut{}, false
}
