// The memory port with the memory system behind it (mem.model hier): the
// load/store stages hand each warp memory instruction to memsys.Port and
// deliver its destinations when the port answers.

package pipeline

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/unitcfg"
)

// pendingLat stands for "until the port answers" in the scoreboard and in
// warp.memBusy: far beyond any run, and far from overflowing.
const pendingLat = 1 << 40

// memPort is the SM's side of memsys.Port. The model still performs each
// access functionally as the instruction executes; the port decides when
// its results are delivered (the scoreboard releases the destinations
// the cycle after the response) and whether it is taken at all: the port
// takes one warp request per cycle and only while it has a free slot
// (mem.inflight); a memory instruction it does not take does not execute
// and its warp is throttled for the cycle, to try again: lg_throttle for
// a global or local access, mio_throttle for a shared, constant or
// parameter one (memsys.Path.Throttle).
type memPort struct {
	p    *memsys.Port
	used bool                // a request was offered this cycle
	out  *memsys.PortOutputs // the cycle's outputs once evaluated
	pend []memPending        // by tag
	free []uint32
	req  memsys.Request // scratch
	// refusedState is the throttle of the last request not taken:
	// lg_throttle (global, local) or mio_throttle (shared, const, param).
	refusedState WarpState
}

// memPending is a taken request: whose destinations its response
// releases.
type memPending struct {
	w       *warp
	d       *dinst
	sched   int
	pc      uint32
	handler bool // issued by the trap handler: its destinations are in the handler's bank
}

// portRefused is execMem's answer when the port does not take the request
// (sm.mp.refusedState says which throttle the warp is in).
var portRefused = &fault{kind: "port_refused"}

// pickCarveout chooses the launch's shared-memory carveout (sm.carveout)
// as the driver does: the smallest of l1.smem_carveouts that holds the
// preference l1.smem_carveout_bytes and the shared memory of n resident
// CTAs (config.L1.Carveout). A CTA that uses no shared memory needs none
// of it (its reserved part included), so such a kernel keeps the
// preference and the L1 the rest. When the largest carveout (or the fixed
// one, without a list) holds fewer than n CTAs, fewer are resident; it
// returns their number.
func (sm *SM) pickCarveout(l1 config.L1, n int) (int, error) {
	per := sm.smemSize + sm.reservedSmem
	if sm.smemSize == 0 {
		sm.carveout, _ = l1.Carveout(0)
		return n, nil
	}
	cv, ok := l1.Carveout(n * per)
	if !ok {
		if n = cv / per; n < 1 {
			return 0, &LaunchError{Field: "dynamic_smem", Msg: fmt.Sprintf("the CTA needs %d bytes of shared memory including %d reserved; the largest shared-memory carveout is %d bytes (l1.smem_carveout_bytes, l1.smem_carveouts)", per, sm.reservedSmem, cv)}
		}
		cv, _ = l1.Carveout(n * per)
	}
	sm.carveout = cv
	return n, nil
}

// initMemPort builds the port for mem.model hier, its L1 the unified
// storage less the launch's carveout.
func (sm *SM) initMemPort() error {
	cfg := sm.cfg
	cfg.L1.SmemCarveoutBytes = sm.carveout
	pp, err := unitcfg.Port(cfg)
	if err != nil {
		return err
	}
	p, err := memsys.NewPort(pp)
	if err != nil {
		return err
	}
	sm.mp = &memPort{p: p}
	return nil
}

// refuses reports that the port takes no request for d this cycle (it
// took one already, or d's path has no room; memsys.Port.Refuses), so
// execMem need not resolve d's lanes: d does not execute this cycle and
// its warp is throttled. A generic access's space is its lanes': never
// refused here.
func (sm *SM) refuses(d *dinst) bool {
	mp := sm.mp
	var s memsys.Space
	mp.refusedState = StateMIOThrottle
	switch d.space {
	case isa.SpaceGlobal:
		s, mp.refusedState = memsys.SpaceGlobal, StateLGThrottle
	case isa.SpaceLocal:
		s, mp.refusedState = memsys.SpaceLocal, StateLGThrottle
	case isa.SpaceShared:
		s = memsys.SpaceShared
	case isa.SpaceConst:
		s = memsys.SpaceConst
	case isa.SpaceParam:
		s = memsys.SpaceParam
	default:
		return false
	}
	if mp.used {
		return true
	}
	if mp.p.Refuses(s) {
		mp.used = true // as offer: the cycle's one offer is spent, refused
		return true
	}
	return false
}

// offer hands memory instruction d of w (lanes emask, resolved accesses
// in sm.refs, per-lane addresses base[l]+off) to the port, once per
// cycle. It reports whether the port took it.
func (sm *SM) offer(w *warp, d *dinst, emask uint32, base *[32]uint64, off uint64) bool {
	mp := sm.mp
	mp.refusedState = StateLGThrottle
	if sp := sm.refs[bits.TrailingZeros32(emask)*4].space; sp == isa.SpaceShared || sp == isa.SpaceConst || sp == isa.SpaceParam {
		mp.refusedState = StateMIOThrottle
	}
	if mp.used {
		return false // the port takes one request per cycle
	}
	mp.used = true
	r := &mp.req
	*r = memsys.Request{Op: memsys.OpLoad}
	switch d.cat {
	case catST:
		r.Op = memsys.OpStore
	case catATOM:
		r.Op = memsys.OpAtomic
	}
	n := d.elem.Bytes() * d.vec
	r.Size = min(n, 16) // a wider vector access is timed as its first 16 bytes per lane
	first := -1
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		ref := sm.refs[l*4]
		if first < 0 {
			first = ref.space
		} else if ref.space != first {
			continue // a generic access that falls in another space: timed with the first lane's
		}
		a := base[l] + off
		switch ref.space {
		case isa.SpaceGlobal:
			a = ref.gaddr
		case isa.SpaceShared:
			if d.space == isa.SpaceGeneric {
				a -= isa.SharedWindow
			}
		case isa.SpaceLocal:
			if d.space == isa.SpaceGeneric {
				a -= isa.LocalWindow
			}
			// Local memory is interleaved across the warp's lanes (CUDA
			// C++ Programming Guide, "Local Memory": consecutive 32-bit
			// words are accessed by consecutive thread IDs), so a warp's
			// access to one local variable is coalesced. Here the unit is
			// the access's size s (4 bytes: the guide's layout): element
			// k of lane l at warp base + 32sk + sl, so an 8- or 16-byte
			// access touches 8 or 16 sectors as on the GPU (two accesses
			// of different sizes to one variable are timed at different
			// lines). Each warp slot's local memory is its own,
			// sm.local_bytes a lane.
			s := uint64(r.Size)
			a = uint64(w.slot)*32*uint64(sm.cfg.SM.LocalBytes) + (a/s)*32*s + uint64(l)*s + a%s
		}
		r.Mask |= 1 << uint(l)
		r.Addr[l] = a &^ uint64(r.Size-1)
	}
	switch first {
	case isa.SpaceShared:
		r.Space = memsys.SpaceShared
	case isa.SpaceLocal:
		r.Space = memsys.SpaceLocal
	case isa.SpaceParam:
		r.Space = memsys.SpaceParam
	case isa.SpaceConst:
		r.Space = memsys.SpaceConst
	}
	if d.cat == catLD {
		r.Cache = memsys.CacheOp(d.in.Mods & isa.ModCacheMask >> isa.ModCacheShift)
	}
	var tag uint32
	if k := len(mp.free); k > 0 {
		tag = mp.free[k-1]
	} else {
		tag = uint32(len(mp.pend))
	}
	r.Tag = tag
	o := mp.p.Eval(r)
	mp.out = o
	if !o.Ready || o.Err != nil {
		return false
	}
	if k := len(mp.free); k > 0 {
		mp.free = mp.free[:k-1]
	} else {
		mp.pend = append(mp.pend, memPending{})
	}
	mp.pend[tag] = memPending{w: w, d: d, sched: sm.lsu.s, pc: w.gpc, handler: w.tr.handler}
	return true
}

// tickMemPort ends the port's cycle: the responses of the cycle release their
// instructions' destinations, then the port's registers advance.
func (sm *SM) tickMemPort() {
	mp := sm.mp
	o := mp.out
	if o == nil {
		o = mp.p.Eval(nil)
	}
	c := sm.cycle
	for _, resp := range o.Responses() {
		pd := mp.pend[resp.Tag]
		mp.pend[resp.Tag] = memPending{}
		mp.free = append(mp.free, resp.Tag)
		sm.deliver(pd, c)
	}
	mp.p.Tick()
	mp.out, mp.used = nil, false
}

// deliver releases the destinations of the pending request pd, answered
// in cycle c: usable from the next cycle, shown by the writeback stage
// then.
func (sm *SM) deliver(pd memPending, c uint64) {
	w, d := pd.w, pd.d
	ready := c + 1
	if d.lat != latNone && len(d.dstR)+len(d.dstP) > 0 {
		release := func() {
			for _, r := range d.dstR {
				w.rdy[r] = ready
			}
			for _, p := range d.dstP {
				w.prdy[p] = ready
			}
		}
		switch {
		case pd.handler == w.tr.handler:
			release()
		case !pd.handler:
			w.userBank(release) // the warp has entered the trap handler since
		}
		// else: the handler that issued it has returned; its bank is gone.
		sm.wb.push(c, ready, pd.sched, w.slot, pd.pc)
	}
	w.memOut--
	if w.memOut == 0 {
		w.memBusy = max(w.memFlat, ready)
		if (w.blockState == StateMembar || w.blockState == StateDrain) && w.blockUntil >= pendingLat {
			w.blockUntil = w.memBusy
		}
	}
	if w.done {
		w.invalidate()
		return
	}
	w.refresh()
}

// memNext bounds an idle stretch by the port's next event: the cycle at
// which it must be stepped again (never: nothing in flight).
func (sm *SM) memNext(c uint64) uint64 {
	if n, ok := sm.mp.p.NextEvent(); ok {
		return c + n + 1
	}
	return never
}

// MetricNames lists the keys the report's metrics hold with mem.model
// hier and pipe.throttle on (Nsight Compute names, dots included).
func MetricNames() []string {
	var out []string
	for _, v := range (&memsys.Metrics{}).Values() {
		out = append(out, v.Name)
	}
	out = append(out, "launch__shared_mem_config_size")
	for _, v := range (&pipethrottle.Unit{}).Metrics() {
		out = append(out, v.Name)
	}
	return out
}

// memMetrics returns the memory system's and the execution pipes'
// counters by their Nsight names (nil with mem.model flat and
// pipe.throttle off).
func (sm *SM) memMetrics() map[string]float64 {
	if sm.mp == nil && sm.pt == nil {
		return nil
	}
	out := map[string]float64{}
	if sm.mp != nil {
		m := sm.mp.p.Metrics()
		for _, v := range m.Values() {
			out[v.Name] = v.Value
		}
		out["launch__shared_mem_config_size"] = float64(sm.carveout)
	}
	if sm.pt != nil {
		for _, v := range sm.pt.u.Metrics() {
			out[v.Name] = float64(v.Value)
		}
	}
	return out
}

// The memory port's paths, as a warp's next instruction needs them
// (dinst.mpath): global and local accesses through the coalescer (lg),
// shared ones through the banks, constant and parameter loads through the
// constant cache. A generic access's path is its lanes': none here.
const (
	mpNone uint8 = iota
	mpLG
	mpShared
	mpConst
)

// memPathOf is d's path (mpNone for anything but LD, ST and ATOM).
func memPathOf(d *dinst) uint8 {
	if d.cat != catLD && d.cat != catST && d.cat != catATOM {
		return mpNone
	}
	switch d.space {
	case isa.SpaceGlobal, isa.SpaceLocal:
		return mpLG
	case isa.SpaceShared:
		return mpShared
	case isa.SpaceConst, isa.SpaceParam:
		return mpConst
	}
	return mpNone
}

// refusing returns the paths that take no request this cycle
// (memsys.Port.Refuses before the cycle's Eval), one bit per path.
func (mp *memPort) refusing() uint8 {
	var r uint8
	if mp.p.Refuses(memsys.SpaceGlobal) {
		r |= 1 << mpLG
	}
	if mp.p.Refuses(memsys.SpaceShared) {
		r |= 1 << mpShared
	}
	if mp.p.Refuses(memsys.SpaceConst) {
		r |= 1 << mpConst
	}
	return r
}

// memHold takes out of scheduler s's ready vector the eligible warps whose
// memory instruction the port would refuse this cycle (its path is in
// held): they are throttled for the cycle (lg_throttle or mio_throttle, as
// Nsight Compute counts a warp waiting for a full queue) and eligible
// again the next, and the scheduler picks among the others. A warp whose
// instruction would not reach the port (all lanes guarded off), or would
// fault first (registers beyond setmaxnreg's), is left to issue.
func (sm *SM) memHold(s int, c uint64, held uint8, ready *rtl.Bits, nw int) {
	ns := len(sm.scheds)
	for k := 0; k < nw; k++ {
		for m := ready[k]; m != 0; m &= m - 1 {
			b := bits.TrailingZeros64(m)
			w := sm.slots[(k*64+b)*ns+s]
			if w.mpath == mpNone || held&(1<<w.mpath) == 0 {
				continue
			}
			d := &sm.code[w.gpc]
			if d.bad != "" || int(d.regTop) > w.nreg || w.undefAny || w.gmask&w.guardMask(d) == 0 {
				continue
			}
			ready[k] &^= 1 << uint(b)
			st := StateMIOThrottle
			if w.mpath == mpLG {
				st = StateLGThrottle
			}
			sm.reclass(w, c, st, 0) // again the next cycle
		}
	}
}
