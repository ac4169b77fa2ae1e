package pipeline

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/unitcfg"
)

// rpUnit is the SM's reg_pool instance (package regpool, the per-CTA
// register pool behind setmaxnreg) and the wires the SM drives into it,
// following the integration contract of docs/reg-pool.md.
//
// Events (CTA launch and exit, warp exit, barrier release, setmaxnreg
// arrival) are driven into in as they happen during a cycle; at the end of
// the cycle's issue stage rpStep evaluates the unit, acts on its outputs
// (releases, undefined behaviour, protocol errors, deadlock) and ticks it.
// A cycle with no event and no warpgroup blocked in .inc changes nothing in
// the unit, so it is neither evaluated nor ticked then (exact: the unit's
// D equals Q), and idle stretches may be skipped; while a warpgroup is
// blocked every cycle is stepped (its blocked-cycle counters count them).
type rpUnit struct {
	u      *regpool.Pool
	p      regpool.Params
	in     regpool.Inputs
	ev     bool     // in carries an event this cycle
	slots  []*cta   // resident CTA by pool slot (nil: free)
	syncQ  []rpSync // barrier releases waiting for a sync port
	nHeld  int      // warps held at a setmaxnreg (rendezvous or .inc)
	effect bool     // the launch gave a valid maximum register count
	nreg   int      // the launch count, rounded to regpool.alloc_granularity
	warned bool     // the "no effect" warning was given
	arrW   [regpool.MaxPorts]*warp
	arrPC  [regpool.MaxPorts]uint32
	arrCur [regpool.MaxPorts]int    // the arriving warp's count
	arrExe [regpool.MaxPorts]uint32 // its executing lanes
	exitW  [regpool.MaxPorts]*warp
	done   []RegPoolCTA // CTAs that retired, sampled in their exit cycle
	omit   int          // CTAs beyond maxRegPoolCTAs
}

// rpSync is one barrier release for the unit's sync ports.
type rpSync struct {
	c     *cta
	warps uint32
}

// maxRegPoolCTAs bounds Report.RegPool.CTAs.
const maxRegPoolCTAs = 1024

// RegPoolReport is the register pool's part of the report (JSON key
// "regpool"): the launch count, whether setmaxnreg takes effect, and per CTA
// (sampled when the CTA exits, or at the end of the run while resident) the
// pool and every warp's final count and cycles blocked in .inc.
type RegPoolReport struct {
	// LaunchNReg is the per-thread count every warp starts with: the
	// launch's --maxnreg (Launch.MaxNReg), else the kernel's .maxnreg,
	// else its register count, rounded up to regpool.alloc_granularity.
	LaunchNReg int `json:"launch_nreg"`
	// Effect: the launch gave a valid maximum register count (.maxnreg or
	// --maxnreg); without one setmaxnreg has no effect.
	Effect      bool         `json:"effect"`
	CTAs        []RegPoolCTA `json:"ctas"`
	CTAsOmitted int          `json:"ctas_omitted,omitempty"`
}

// RegPoolCTA is one CTA's register pool.
type RegPoolCTA struct {
	CTA       uint64 `json:"cta"`         // linear CTA index
	PoolSize  uint32 `json:"pool_size"`   // every register the CTA owns: launch count x 32 x warps
	FreeAtEnd uint32 `json:"free_at_end"` // registers left in the pool
	// HighWater is the most registers the CTA's warps held above the
	// launch count (taken from the pool) at once.
	HighWater uint32        `json:"high_water"`
	Warps     []RegPoolWarp `json:"warps"`
}

// RegPoolWarp is one warp of a CTA's register pool.
type RegPoolWarp struct {
	Warp             int    `json:"warp"`               // warp index in the CTA
	NRegAtEnd        int    `json:"nreg_at_end"`        // per-thread registers at the end
	IncBlockedCycles uint64 `json:"inc_blocked_cycles"` // cycles blocked in setmaxnreg.inc
}

// initRegPool builds the unit. nreg is the launch's per-thread count before
// rounding; valid says whether it is a valid maximum register count.
func (sm *SM) initRegPool(nreg int, valid bool) error {
	r := &sm.rp
	r.p = unitcfg.RegPool(sm.cfg)
	u, err := regpool.New(r.p)
	if err != nil {
		return err
	}
	r.u = u
	r.slots = make([]*cta, r.p.NumCTAs)
	r.in.KernThreads, r.in.KernNReg, r.in.KernNRegValid = uint16(sm.threadsPerCTA), uint16(nreg), valid
	r.effect, r.nreg = valid, sm.regsPerThread
	return nil
}

// RegPool returns the SM's reg_pool unit (for observers and tracers: read
// its Q, D, Out, statistics and Signals under "sm_top.u_reg_pool"; do not
// drive it).
func (sm *SM) RegPool() *regpool.Pool { return sm.rp.u }

// busy reports whether the unit must be stepped this cycle (an event is
// pending or a warpgroup is blocked in .inc): idle stretches are not
// skipped then.
func (r *rpUnit) busy() bool { return r.pending() || r.nHeld > 0 && r.u.Blocked() }

// pending reports events not yet evaluated (barrier releases waiting for a
// port).
func (r *rpUnit) pending() bool { return r.ev || len(r.syncQ) > 0 }

// rpLaunch drives cta_launch_i for c into the lowest free pool slot.
func (sm *SM) rpLaunch(c *cta) {
	r := &sm.rp
	for s, x := range r.slots {
		if x == nil {
			r.slots[s], c.rps = c, s
			r.in.CTALaunch.Set(s)
			r.ev = true
			return
		}
	}
	// sm.max_ctas bounds the resident CTAs, so a slot is always free.
	sm.stop(StatusFault, ErrorEntry{Kind: "internal_error", Warp: -1, Message: "reg_pool: no free CTA slot"})
}

// rpRetire drives cta_exit_i for c (its last warp was freed) after
// sampling its pool for the report (the unit's registers hold its final
// state).
func (sm *SM) rpRetire(c *cta) {
	r := &sm.rp
	r.record(c, len(c.warps))
	s := c.rps
	r.slots[s] = nil
	r.in.CTAExit.Set(s)
	r.ev = true
	// A barrier release still queued for c no longer matters.
	keep := r.syncQ[:0]
	for _, e := range r.syncQ {
		if e.c != c {
			keep = append(keep, e)
		}
	}
	r.syncQ = keep
}

// record appends c's pool statistics to the report.
func (r *rpUnit) record(c *cta, nw int) {
	if len(r.done) >= maxRegPoolCTAs {
		r.omit++
		return
	}
	r.done = append(r.done, r.sample(c, nw))
}

func (r *rpUnit) sample(c *cta, nw int) RegPoolCTA {
	st := r.u.CTAStats(c.rps)
	e := RegPoolCTA{CTA: c.linear, PoolSize: st.Alloc, FreeAtEnd: st.Free, HighWater: st.HighWater, Warps: make([]RegPoolWarp, 0, nw)}
	for w := 0; w < nw; w++ {
		n, blk, _ := r.u.WarpStats(c.rps, w)
		e.Warps = append(e.Warps, RegPoolWarp{Warp: w, NRegAtEnd: n, IncBlockedCycles: blk})
	}
	return e
}

// rpWarpExit drives exit_*_i: the last thread of w exited (on its
// scheduler's port: one issue per scheduler per cycle).
func (sm *SM) rpWarpExit(w *warp) {
	r := &sm.rp
	p := int(w.sched)
	if r.in.ExitValid[p] {
		sm.stop(StatusFault, ErrorEntry{Kind: "internal_error", Warp: w.slot, Message: fmt.Sprintf("reg_pool: two warp exits on port %d in one cycle", p)})
		return
	}
	r.in.ExitValid[p], r.in.ExitCTA[p], r.in.ExitWarp[p] = true, uint16(w.cta.rps), uint8(w.inCTA)
	r.exitW[p] = w
	r.ev = true
}

// rpSync queues a barrier release (bar.sync, barrier.sync, bar.red): the
// warps of c it lets go synchronized explicitly.
func (sm *SM) rpSync(c *cta, warps uint32) {
	sm.rp.syncQ = append(sm.rp.syncQ, rpSync{c, warps})
	sm.rp.ev = true
}

// execSetmaxnreg executes setmaxnreg for the lanes emask of w, issued by
// scheduler s. The count must be in 24..256 and a multiple of 8 (the
// assembler refuses others; a hand-made image faults). With no executing
// lane nothing happens. Otherwise the warp arrives at the register pool
// (arrive_*_i on its scheduler's port) and is held until a release record
// names it: when its warpgroup has arrived (.dec, or an .inc once the pool
// holds the registers).
func (sm *SM) execSetmaxnreg(w *warp, d *dinst, pc uint32, emask uint32, s int) *fault {
	n := int(d.in.Imm)
	if n < regpool.MinCount || n > regpool.MaxCount || n%regpool.CountStep != 0 {
		return &fault{kind: "illegal_instruction", msg: fmt.Sprintf("setmaxnreg count %d must be in 24..256 and a multiple of 8", n)}
	}
	if emask == 0 {
		return nil
	}
	r := &sm.rp
	if r.in.ArriveValid[s] {
		return &fault{kind: "internal_error", msg: fmt.Sprintf("reg_pool: two arrivals on port %d in one cycle", s)}
	}
	in := &r.in
	in.ArriveValid[s], in.ArriveCTA[s], in.ArriveWarp[s] = true, uint16(w.cta.rps), uint8(w.inCTA)
	in.ArrivePC[s], in.ArriveInc[s], in.ArriveCount[s] = pc, d.in.Mods&isa.ModSetmaxInc != 0, uint16(n)
	in.ArriveFullWarp[s] = emask == w.live()
	r.arrW[s], r.arrPC[s], r.arrCur[s], r.arrExe[s] = w, pc, w.nreg, emask
	r.ev = true
	w.rpHeld = true
	w.blockUntil, w.blockState = never, StateMisc
	w.invalidate()
	r.nHeld++
	return nil
}

// rpStep is the unit's part of the cycle, after the issue stage: deliver
// the queued barrier releases, Eval, act on the outputs, Tick. In a cycle
// with nothing to do (not busy) the unit is not stepped, observed or not.
func (sm *SM) rpStep() {
	r := &sm.rp
	if !r.busy() {
		// Eval would change nothing: no event, no port, no blocked
		// group to retry.
		if len(sm.hooks) > 0 {
			sm.unitIn.RegPool = r.in // what the SM drives (CycleInfo.Units)
		}
		return
	}
	in := &r.in
	n := min(len(r.syncQ), r.p.NumPorts)
	for i := 0; i < n; i++ {
		e := r.syncQ[i]
		in.SyncValid[i], in.SyncCTA[i], in.SyncWarps[i] = true, uint16(e.c.rps), e.warps
	}
	r.syncQ = r.syncQ[:copy(r.syncQ, r.syncQ[n:])]
	if len(sm.hooks) > 0 {
		sm.unitIn.RegPool = *in
	}
	out := r.u.Eval(*in)
	sm.rpReact(&out)
	r.u.Tick()
	// A warpgroup whose .inc completed its rendezvous without a grant is
	// blocked: its warps report the regpool stall state.
	for p := 0; p < r.p.NumPorts; p++ {
		if w := r.arrW[p]; w != nil && w.rpHeld && in.ArriveInc[p] && r.u.GroupBlocked(w.cta.rps, w.inCTA) {
			g := w.inCTA / regpool.WarpsPerGroup * regpool.WarpsPerGroup
			for _, x := range w.cta.warps[g:min(g+regpool.WarpsPerGroup, len(w.cta.warps))] {
				if x.rpHeld && !x.tr.handler {
					x.blockState = StateRegpool
					x.invalidate()
				}
			}
		}
	}
	// Clear the cycle's events (the launch shape stays).
	in.CTALaunch, in.CTAExit = rtl.Bits{}, rtl.Bits{}
	in.ExitValid, in.SyncValid, in.ArriveValid = [regpool.MaxPorts]bool{}, [regpool.MaxPorts]bool{}, [regpool.MaxPorts]bool{}
	r.arrW, r.exitW = [regpool.MaxPorts]*warp{}, [regpool.MaxPorts]*warp{}
	r.ev = false
}

// rpReact acts on the unit's outputs in the cycle they are computed.
func (sm *SM) rpReact(o *regpool.Outputs) {
	r := &sm.rp
	if o.ErrValid {
		var c *cta
		if int(o.ErrCTA) < len(r.slots) {
			c = r.slots[o.ErrCTA]
		}
		e := ErrorEntry{Kind: "internal_error", Warp: -1, Message: fmt.Sprintf("reg_pool protocol error %q (err_code_o %d), CTA slot %d, warp %d: a model bug", o.ErrCode, o.ErrCode, o.ErrCTA, o.ErrWarp)}
		if c != nil {
			e.CTA, e.WarpInCTA = c.id, int(o.ErrWarp)
		}
		sm.stop(StatusFault, e)
	}
	// Undefined behaviour: a fault under regpool.strict, else a warning.
	for i := 0; i < 2*r.p.NumPorts; i++ {
		if !o.UBValid[i] {
			continue
		}
		c := r.slots[o.UBCTA[i]]
		if c == nil || int(o.UBWarp[i]) >= len(c.warps) {
			continue
		}
		sm.rpUB(c, c.warps[o.UBWarp[i]], i, o)
	}
	// Releases: the warps issue again from the next cycle with their new
	// count.
	for i := 0; i < r.p.NumRel(); i++ {
		if !o.RelValid[i] {
			continue
		}
		c := r.slots[o.RelCTA[i]]
		if c == nil {
			continue
		}
		old, nw := int(o.RelOld[i]), int(o.RelNew[i])
		for m := o.RelWarps[i]; m != 0; m &= m - 1 {
			if k := bits.TrailingZeros32(m); k < len(c.warps) {
				sm.rpRelease(c.warps[k], old, nw)
			}
		}
		if o.RelNoEffect[i] && !r.warned {
			r.warned = true
			w := c.warps[bits.TrailingZeros32(o.RelWarps[i])]
			e := sm.errorAt("setmaxnreg_noeffect", w, w.lastPC, "setmaxnreg has no effect: the kernel was launched without a valid maximum register count (.maxnreg or --maxnreg); reported once")
			e.Warning = true
			sm.addError(e)
		}
	}
	if o.IncUnsat && !sm.stopped {
		sm.deadlock(r.unsatMessage(o))
	}
}

// rpUB reports the undefined behaviour of UB entry i, warp w of c (entry
// i: an arrival port, or an exit port at or above NumPorts).
func (sm *SM) rpUB(c *cta, w *warp, i int, o *regpool.Outputs) {
	r := &sm.rp
	k := o.UBKind[i]
	if !r.effect {
		// Without a valid maximum register count the warp's count was
		// never set by the program: .dec above / .inc below it are not
		// judged (the setmaxnreg has no effect and is warned about).
		if k &^= regpool.UBDecAbove | regpool.UBIncBelow; k == 0 {
			return
		}
	}
	pc := w.lastPC
	msg := "setmaxnreg undefined behaviour " + k.String() + ": " + k.Describe()
	if i < r.p.NumPorts && r.arrW[i] == w {
		pc = r.arrPC[i]
		in := &r.in
		act := "dec"
		if in.ArriveInc[i] {
			act = "inc"
		}
		msg += fmt.Sprintf(" (setmaxnreg.%s %d; the warp owns %d registers per thread", act, in.ArriveCount[i], r.arrCur[i])
		if !in.ArriveFullWarp[i] {
			msg += fmt.Sprintf("; executing lanes %#08x of live %#08x", r.arrExe[i], w.live())
		}
		msg += ")"
	} else if k&regpool.UBNotAllWarps != 0 {
		// w exited while others of its warpgroup wait: the error goes to
		// the first of them, at its setmaxnreg (the exited warp can take
		// no warp error).
		msg += fmt.Sprintf(" (warp %d of the warpgroup exited at pc %d %s", w.inCTA, w.lastPC, sm.lineOf(w.lastPC))
		if o.RelValid[i] && o.RelWarps[i] != 0 {
			msg += fmt.Sprintf(" while warps %s wait at this setmaxnreg)", warpList(o.RelWarps[i]))
			w = c.warps[bits.TrailingZeros32(o.RelWarps[i])]
			pc = w.lastPC
		} else {
			msg += ")"
		}
	}
	// Kind "setmaxnreg": trapunit.ErrorFromFault makes it the warp error
	// SETMAXNREG_UB.
	e := sm.errorAt("setmaxnreg", w, pc, msg)
	if sm.cfg.RegPool.Strict {
		e.Message += " (regpool.strict; SETMAXNREG_UB)"
		if w.done {
			sm.stop(StatusFault, e) // no live warp to take the error
			return
		}
		sm.warpError(w, e, pc)
		return
	}
	e.Warning = true
	e.Message += " (regpool.strict=false: continuing)"
	sm.addError(e)
}

// rpRelease applies a release record to w: its count becomes nw (the
// registers [old, nw) are new and undefined until written; [nw, old) are
// gone) and, if held, it issues again from the next cycle.
func (sm *SM) rpRelease(w *warp, old, nw int) {
	w.nreg = nw
	// Only registers an instruction of the kernel can name need tracking.
	top := int(sm.kern.Regs)
	for r := old; r < min(nw, top); r++ {
		w.undef[r>>6] |= 1 << uint(r&63)
		w.undefAny = true
	}
	for r := nw; r < min(old, top); r++ {
		w.undef[r>>6] &^= 1 << uint(r&63)
	}
	if w.undefAny {
		w.undefAny = w.undef != [4]uint64{}
	}
	if w.rpHeld {
		w.rpHeld = false
		sm.rp.nHeld--
		if w.tr.handler && w.tr.ctx != nil {
			// Taken into the trap handler while held: the user context
			// goes on when it comes back.
			w.tr.ctx.blockUntil, w.tr.ctx.blockState = sm.cycle+1, StateMisc
			return
		}
		w.blockUntil, w.blockState = sm.cycle+1, StateMisc
		w.refresh()
	}
}

func (r *rpUnit) unsatMessage(o *regpool.Outputs) string {
	c := r.slots[o.IncUnsatCTA]
	id := [3]uint32{}
	if c != nil {
		id = c.id
	}
	return fmt.Sprintf("setmaxnreg.inc can never be satisfied: CTA %d,%d,%d warps %s need %d registers, the CTA's pool has %d free and could hold at most %d",
		id[0], id[1], id[2], warpList(o.IncUnsatWarps), o.IncUnsatNeed, o.IncUnsatFree, o.IncUnsatMax)
}

// rpStuck reports whether every warp held at a setmaxnreg really waits
// (none runs the trap handler meanwhile); checkEnd asks only when the
// held and barrier-waiting warps account for every live warp.
func (sm *SM) rpStuck() bool {
	if sm.rp.nHeld == 0 {
		return true
	}
	for _, w := range sm.resident {
		if w.rpHeld && w.tr.handler {
			return false
		}
	}
	return true
}

// heldMessage describes the warps held at a setmaxnreg and their pools
// (for a deadlock report).
func (sm *SM) heldMessage() string {
	var parts []string
	for _, c := range sm.ctas {
		var m uint32
		for _, w := range c.warps {
			if w.rpHeld {
				m |= 1 << uint(w.inCTA)
			}
		}
		if m == 0 {
			continue
		}
		st := sm.rp.u.CTAStats(c.rps)
		parts = append(parts, fmt.Sprintf("CTA %d,%d,%d warps %s wait at a setmaxnreg (pool: %d of %d registers free)", c.id[0], c.id[1], c.id[2], warpList(m), st.Free, st.Alloc))
	}
	return strings.Join(parts, "; ")
}

// warpList spells a warp mask as "4-7" / "0,2".
func warpList(m uint32) string {
	var parts []string
	for m != 0 {
		lo := bits.TrailingZeros32(m)
		hi := lo
		for hi+1 < 32 && m>>uint(hi+1)&1 != 0 {
			hi++
		}
		if hi > lo {
			parts = append(parts, fmt.Sprintf("%d-%d", lo, hi))
		} else {
			parts = append(parts, fmt.Sprint(lo))
		}
		m &^= uint32(uint64(1)<<uint(hi+1) - 1)
	}
	return strings.Join(parts, ",")
}

// checkRegs checks the registers instruction d of w names before it
// executes (lanes emask, not empty): a register at or above the warp's
// count is an ILLEGAL_REGISTER fault; reading a register the warp obtained
// by setmaxnreg.inc and has not written is a warning (a fault under
// regpool.strict); a write makes it defined. It reports false when the run
// stopped. The caller tests the cheap condition first: regTop > nreg or
// undefAny.
func (sm *SM) checkRegs(w *warp, d *dinst, pc uint32) bool {
	if w.tr.handler {
		return true // the trap handler runs on a bank of its own
	}
	if int(d.regTop) > w.nreg {
		for k, rs := range [2][]uint8{d.srcR, d.dstR} {
			for _, r := range rs {
				if int(r) < w.nreg {
					continue
				}
				what := "reads"
				if k == 1 {
					what = "writes"
				}
				reg := int(r)
				sm.countIssue(w, pc, 0)
				e := sm.errorAt("illegal_register", w, pc, fmt.Sprintf("%s %s R%d, at or above the warp's %d registers per thread (setmaxnreg; ILLEGAL_REGISTER)", d.label, what, r, w.nreg))
				e.Register = &reg
				sm.warpError(w, e, pc)
				return false
			}
		}
	}
	if !w.undefAny {
		return true
	}
	for _, r := range d.srcR {
		if w.undef[r>>6]>>(r&63)&1 == 0 {
			continue
		}
		w.undef[r>>6] &^= 1 << (r & 63) // reported once
		reg := int(r)
		e := sm.errorAt("undefined_register", w, pc, fmt.Sprintf("%s reads R%d, obtained by setmaxnreg.inc and not written since: its contents are undefined (\"The new registers must be initialized before they are used.\")", d.label, r))
		e.Register = &reg
		if sm.cfg.RegPool.Strict {
			// A warp error SETMAXNREG_UB (the instruction does not
			// execute).
			e.Message += " (regpool.strict; SETMAXNREG_UB)"
			sm.countIssue(w, pc, 0)
			sm.addError(e)
			sm.trapEvent(w, trapunit.EvWarpError, uint8(trapunit.ErrSetmaxnregUB), pc, w.gmask, w.gmask)
			return false
		}
		e.Warning = true
		sm.addError(e)
	}
	for _, r := range d.dstR {
		w.undef[r>>6] &^= 1 << (r & 63)
	}
	w.undefAny = w.undef != [4]uint64{}
	return true
}

// rpReport builds the report's "regpool": the retired CTAs as sampled,
// then the resident ones now.
func (sm *SM) rpReport() *RegPoolReport {
	r := &sm.rp
	rep := &RegPoolReport{LaunchNReg: r.nreg, Effect: r.effect, CTAs: append([]RegPoolCTA{}, r.done...), CTAsOmitted: r.omit}
	for _, c := range sm.ctas {
		if len(rep.CTAs) >= maxRegPoolCTAs {
			rep.CTAsOmitted++
			continue
		}
		rep.CTAs = append(rep.CTAs, r.sample(c, len(c.warps)))
	}
	sort.SliceStable(rep.CTAs, func(i, j int) bool { return rep.CTAs[i].CTA < rep.CTAs[j].CTA })
	return rep
}
