// The sanitizer's optional checks (Launch.Checks; smsim run --check):
//
//   - init: a read of shared memory that no thread of the CTA has written
//     is an uninitialized_read record (the access proceeds; one record
//     per instruction). So is a read of a host program's device memory
//     (Launch.Memory) that neither the host (a copy, a fill, a module's
//     .global data) nor a kernel under this check has written: a fresh
//     allocation is zeroed but unwritten, as cudaMalloc's memory. A
//     single launch's global memory is all host-initialized: its buffers
//     are zeroed or loaded by the host.
//   - sync: a barrier (bar.sync, bar.red) that a warp reached while some
//     of its live threads never arrived there in that phase (a divergent
//     warp, lanes whose guard is false), that a warp's threads reached at
//     two different instructions, or with a thread count other than the
//     one the phase's first warp gave, is a barrier_divergence record (one
//     per instruction and kind of finding). The threads of a warp may
//     arrive in several groups at the same instruction (the model's
//     reconvergence lets them): that is no divergence. The encoding does not keep PTX's
//     .aligned, so a non-aligned barrier.sync in divergent code is
//     reported too. The model's own reports of the same family join the
//     sanitizer list under their kinds: uniform_violation (a .uni branch
//     or call that diverges), setmaxnreg and setmaxnreg_noeffect.
//   - race: two accesses to the same shared (global) bytes from different
//     warps of a CTA, at least one a write, with no barrier of the whole
//     CTA between them, is a shared_race (global_race) record naming both
//     (one per instruction). Only a barrier every thread of the CTA takes
//     part in (no thread count, or one that covers the CTA) orders
//     accesses here: a named barrier of some warps, or a fence with a
//     flag, is not recognized, so such producer-consumer code is
//     reported. Atomics are left out, and so are races between CTAs.
//     Also under race: global bytes read with ld.global.nc (the
//     non-coherent read-only path, __ldg) that the kernel writes, before
//     or after the read, by any thread of any CTA (a store or an atomic),
//     are an nc_modified record (one per instruction): data read through
//     that path must not change while the kernel runs, or the load may
//     return a stale value.
//
// Off, a check costs a false test per shared access (init, race) or
// nothing at all (sync and race's barrier tracking hang off an issue hook,
// registered only when one of them is on).

package pipeline

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
)

// Checks selects the optional sanitizer checks.
type Checks struct {
	Init bool // uninitialized shared-memory reads
	Sync bool // barriers reached by divergent warps or with different counts
	Race bool // races between the warps of a CTA, and .nc data the kernel writes
}

// checkNames lists the names ParseChecks accepts, for messages.
const checkNames = "init, race, sync"

// ParseChecks reads a comma-separated list of check names ("init,sync").
func ParseChecks(s string) (Checks, error) {
	var c Checks
	for _, n := range strings.Split(s, ",") {
		switch strings.TrimSpace(n) {
		case "init":
			c.Init = true
		case "sync":
			c.Sync = true
		case "race":
			c.Race = true
		case "":
		default:
			return c, fmt.Errorf("unknown check %q (checks: %s)", strings.TrimSpace(n), checkNames)
		}
	}
	return c, nil
}

// sancheck is the state of the optional checks.
type sancheck struct {
	init, sync, race bool
	seen             map[sanKey]bool // instructions already reported, per kind
	phases           map[*cta]*[numBarriers]barPhase
	nc               map[uint64]*ncCell // per global byte written or read with ld.global.nc (race)
}

// ncCell is what the kernel did to one global byte, for nc_modified: the
// first write and the first ld.global.nc read.
type ncCell struct {
	written, read bool
	w, r          ncAccess
}

// ncAccess is one access of an ncCell.
type ncAccess struct {
	cta  [3]uint32
	warp int // in the CTA
	pc   uint32
}

type sanKey struct {
	kind string
	pc   uint32
}

// barPhase is a barrier's current phase: the thread count its first warp
// gave, and each warp's arrivals.
type barPhase struct {
	set   bool
	count uint64
	warp  int
	arr   []warpArrival // by warp of the CTA; slot -1 for none
}

// warpArrival is one warp's part in a barrier phase: the lanes live when
// it first arrived, the lanes that arrived, where.
type warpArrival struct {
	slot          int
	pc            uint32
	live, arrived uint32
}

// initChecks turns on the launch's optional checks.
func (sm *SM) initChecks() {
	c := sm.launch.Checks
	sm.mc.chk = sancheck{init: c.Init, sync: c.Sync, race: c.Race, seen: map[sanKey]bool{}}
	if c.Race {
		sm.mc.chk.nc = map[uint64]*ncCell{}
	}
	if c.Sync || c.Race {
		sm.mc.chk.phases = map[*cta]*[numBarriers]barPhase{}
		sm.OnIssue(sm.barrierHook)
	}
}

// record adds finding r of w's instruction at pc, once per instruction
// and kind (sub tells findings of one kind apart).
func (sm *SM) record(w *warp, pc uint32, sub string, r SanitizerReport) {
	r.Warp, r.CTA, r.WarpInCTA, r.PC, r.Line = w.slot, w.cta.id, w.inCTA, pc, sm.lineOf(pc)
	sm.add(sub, r)
}

// add adds finding r (warp, CTA and PC filled in), once per instruction
// and kind.
func (sm *SM) add(sub string, r SanitizerReport) {
	k := sanKey{r.Kind + sub, r.PC}
	if sm.mc.chk.seen[k] {
		return
	}
	sm.mc.chk.seen[k] = true
	if len(sm.san) >= maxSanitizerReports {
		sm.sanDropped++
		return
	}
	sm.san = append(sm.san, r)
}

// initShared marks [addr, end) of w's CTA written, or checks that it was
// (a read).
func (sm *SM) initShared(w *warp, lane int, orig, addr, end uint64, write bool) {
	c := w.cta
	if n := (len(c.shared) + 63) / 64; len(c.written) != n {
		if cap(c.written) >= n {
			c.written = c.written[:n]
			clear(c.written)
		} else {
			c.written = make([]uint64, n)
		}
	}
	for b := addr; b < end; b++ {
		bit := uint64(1) << (b & 63)
		if write {
			c.written[b>>6] |= bit
		} else if c.written[b>>6]&bit == 0 {
			r := SanitizerReport{Kind: "uninitialized_read", Space: "shared", Lane: lane, Address: orig, Size: int(end - addr)}
			if i := sort.Search(len(sm.mc.shared), func(i int) bool { return sm.mc.shared[i].Begin > addr }) - 1; i >= 0 {
				a := sm.mc.shared[i]
				r.Allocation = &a
			}
			r.Detail = "no thread of the CTA wrote these bytes"
			sm.record(w, w.gpc, "", r)
			return
		}
	}
}

// initGlobal marks [addr, end) of the launch's memory written, or checks
// that it was (a read).
func (sm *SM) initGlobal(w *warp, lane int, orig, addr, end uint64, write bool) {
	m := sm.launch.Memory
	if write {
		m.mark(addr, end, true)
		return
	}
	if m.written(addr, end) {
		return
	}
	r := SanitizerReport{Kind: "uninitialized_read", Space: "global", Lane: lane, Address: orig, Size: int(end - addr),
		Detail: "neither the host nor a kernel wrote these bytes"}
	if i := sort.Search(len(sm.allocs), func(i int) bool { return sm.allocs[i].Begin > addr }) - 1; i >= 0 {
		a := sm.allocs[i]
		r.Allocation = &a
	}
	sm.record(w, w.gpc, "", r)
}

// barrierHook follows the phases of every barrier (sync, race) and checks
// the barriers reached (sync).
func (sm *SM) barrierHook(ii *IssueInfo) {
	in := &ii.Inst
	switch {
	case in.Op == isa.OpEXIT:
		// Threads that exit count as arrived: a barrier may complete. In
		// CTA order, so that the records come in a stable order.
		var open []*cta
		for c := range sm.mc.chk.phases {
			open = append(open, c)
		}
		sort.Slice(open, func(i, j int) bool { return open[i].linear < open[j].linear })
		for _, c := range open {
			ph := sm.mc.chk.phases[c]
			for id := range ph {
				if ph[id].set && c.bars[id].threads == 0 {
					sm.released(c, id, &ph[id])
				}
			}
		}
		return
	case in.Op != isa.OpBAR || ii.Exec == 0:
		return
	}
	w := sm.slots[ii.Warp]
	if w == nil || int(ii.PC) >= len(sm.code) {
		return
	}
	d := &sm.code[ii.PC]
	l := bits.TrailingZeros32(ii.Exec)
	id := int(w.value(&d.a, l))
	if id < 0 || id >= numBarriers {
		return
	}
	count := w.value(&d.b, l)
	ph := sm.mc.chk.phases[w.cta]
	if ph == nil {
		ph = &[numBarriers]barPhase{}
		sm.mc.chk.phases[w.cta] = ph
	}
	p := &ph[id]
	switch {
	case !p.set:
		p.set, p.count, p.warp = true, count, w.inCTA
		if len(p.arr) != sm.warpsPerCTA {
			p.arr = make([]warpArrival, sm.warpsPerCTA)
		}
		for i := range p.arr {
			p.arr[i] = warpArrival{slot: -1}
		}
	case p.count != count && sm.mc.chk.sync:
		sm.record(w, ii.PC, "count", SanitizerReport{Kind: "barrier_divergence", Lane: l,
			Detail: fmt.Sprintf("barrier %d with thread count %s; warp %d of the CTA gave %s in this phase", id, countName(count), p.warp, countName(p.count))})
	}
	if int(in.Mods&isa.ModBarKindMask) != isa.BarArrive && w.inCTA < len(p.arr) {
		a := &p.arr[w.inCTA]
		switch {
		case a.slot < 0:
			*a = warpArrival{slot: w.slot, pc: ii.PC, live: w.valid &^ w.exited}
		case a.pc != ii.PC && sm.mc.chk.sync:
			sm.record(w, ii.PC, "pc", SanitizerReport{Kind: "barrier_divergence", Lane: l,
				Detail: fmt.Sprintf("the warp's lanes reach barrier %d at two instructions (%s and %s)", id, sm.lineOf(a.pc), sm.lineOf(ii.PC))})
		}
		a.arrived |= ii.Exec
	}
	if w.cta.bars[id].threads == 0 {
		sm.released(w.cta, id, p)
	}
}

// released ends phase p of barrier id of c: the next arrival opens one.
// A warp whose lanes, live when it first arrived, did not all arrive or
// exit reached the barrier divergent (sync). A barrier of the whole CTA orders
// the accesses before it against those after it (race).
func (sm *SM) released(c *cta, id int, p *barPhase) {
	if sm.mc.chk.sync {
		for i, a := range p.arr {
			missing := a.live &^ a.arrived
			if i < len(c.warps) {
				if w := c.warps[i]; w.cta == c && !w.done {
					missing &^= w.exited // exited threads count as arrived
				} else {
					missing = 0 // the warp has ended: every thread exited
				}
			}
			if a.slot < 0 || missing == 0 {
				continue
			}
			sm.add("", SanitizerReport{Kind: "barrier_divergence", CTA: c.id, Warp: a.slot, WarpInCTA: i,
				Lane: bits.TrailingZeros32(missing), PC: a.pc, Line: sm.lineOf(a.pc),
				Detail: fmt.Sprintf("lanes %#08x of the warp, live when it reached barrier %d, never arrived there (%#08x did)", missing, id, a.arrived)})
		}
	}
	if p.count == 0 || p.count >= uint64(sm.threadsPerCTA) {
		c.raceGen++
	}
	p.set = false
}

// raceCell is what the race check knows of one byte: the last write and
// the reads since, in barrier generations of the CTA.
type raceCell struct {
	wGen, rGen uint32 // generation of the last write, of the reads (0: none)
	wPC, rPC   uint32
	r2PC       uint32
	wWarp      int16
	rWarp      int16  // the last reader
	r2Warp     int16  // the reader before it that was another warp
	readers    uint64 // warps of the CTA that read in generation rGen
}

// access records an access of warp me at pc in generation g and returns
// the other warp's access it races with, if any.
func (x *raceCell) access(g uint32, me int16, pc uint32, write bool) (other int16, otherPC uint32, what string) {
	other = -1
	switch {
	case x.wGen == g && x.wWarp != me:
		other, otherPC, what = x.wWarp, x.wPC, "read after write"
		if write {
			what = "write after write"
		}
	case write && x.rGen == g && x.readers&^(1<<uint(me)) != 0:
		other, otherPC, what = x.rWarp, x.rPC, "write after read"
		if x.rWarp == me {
			other, otherPC = x.r2Warp, x.r2PC
		}
	}
	if write {
		x.wGen, x.wWarp, x.wPC = g, me, pc
		return
	}
	if x.rGen != g {
		x.rGen, x.readers, x.rWarp = g, 0, -1
	}
	x.readers |= 1 << uint(me)
	if x.rWarp != me {
		x.r2Warp, x.r2PC = x.rWarp, x.rPC
	}
	x.rWarp, x.rPC = me, pc
	return
}

// raceShared checks lane's access [addr, end) of w's CTA's shared memory
// against the other warps' accesses since the last barrier of the whole
// CTA.
func (sm *SM) raceShared(w *warp, lane int, orig, addr, end uint64, write bool) {
	if sm.atomicAt(w.gpc) {
		return
	}
	c := w.cta
	if len(c.race) != len(c.shared) {
		if cap(c.race) >= len(c.shared) {
			c.race = c.race[:len(c.shared)]
			clear(c.race)
		} else {
			c.race = make([]raceCell, len(c.shared))
		}
	}
	sm.raceScan(w, "shared", lane, orig, addr, end, write, func(b uint64) *raceCell { return &c.race[b] })
}

// raceGlobal is raceShared for global memory: the bytes the CTA touched,
// in a map.
func (sm *SM) raceGlobal(w *warp, lane int, orig, addr, end uint64, write bool) {
	if sm.atomicAt(w.gpc) {
		return
	}
	c := w.cta
	if c.grace == nil {
		c.grace = map[uint64]*raceCell{}
	}
	sm.raceScan(w, "global", lane, orig, addr, end, write, func(b uint64) *raceCell {
		x := c.grace[b]
		if x == nil {
			x = &raceCell{}
			c.grace[b] = x
		}
		return x
	})
}

// ncGlobal checks lane's access [addr, end) of global memory against
// the kernel's ld.global.nc reads and writes of the same bytes
// (nc_modified): a write of bytes an .nc load read, or an .nc load of
// bytes the kernel wrote.
func (sm *SM) ncGlobal(w *warp, lane int, orig, addr, end uint64, write bool) {
	pc := w.gpc
	d := &sm.code[pc]
	nc := !write && d.cat == catLD && d.in.Mods&isa.ModNC != 0
	if !write && !nc {
		return
	}
	me := ncAccess{cta: w.cta.id, warp: w.inCTA, pc: pc}
	var found *ncAccess
	for b := addr; b < end; b++ {
		x := sm.mc.chk.nc[b]
		if x == nil {
			x = &ncCell{}
			sm.mc.chk.nc[b] = x
		}
		switch {
		case write && x.read && found == nil:
			found = &x.r
		case nc && x.written && found == nil:
			found = &x.w
		}
		if write && !x.written {
			x.written, x.w = true, me
		}
		if nc && !x.read {
			x.read, x.r = true, me
		}
	}
	if found == nil {
		return
	}
	what := "a store or atomic writes bytes that ld.global.nc read"
	if nc {
		what = "ld.global.nc reads bytes this kernel wrote"
	}
	r := SanitizerReport{Kind: "nc_modified", Space: "global", Lane: lane, Address: orig, Size: int(end - addr),
		Other: &RaceAccess{WarpInCTA: found.warp, PC: found.pc, Line: sm.lineOf(found.pc)},
		Detail: fmt.Sprintf("%s (warp %d of CTA (%d,%d,%d) at %s): data read through the non-coherent path must not change while the kernel runs, or the load may return a stale value",
			what, found.warp, found.cta[0], found.cta[1], found.cta[2], sm.lineOf(found.pc))}
	sm.record(w, pc, "", r)
}

// atomicAt reports whether the instruction at pc is an atomic (atomics do
// not race).
func (sm *SM) atomicAt(pc uint32) bool {
	return int(pc) < len(sm.code) && sm.code[pc].cat == catATOM
}

// raceScan records w's access of the bytes [addr, end) of space in their
// cells (cell(b)) and reports the first race found.
func (sm *SM) raceScan(w *warp, space string, lane int, orig, addr, end uint64, write bool, cell func(b uint64) *raceCell) {
	pc := w.gpc
	g, me := w.cta.raceGen+1, int16(w.inCTA) // generations start at 1: 0 is "never"
	for b := addr; b < end; b++ {
		if other, opc, what := cell(b).access(g, me, pc, write); other >= 0 {
			sm.raceRecord(w, space, lane, orig, end-addr, other, opc, what)
			return
		}
	}
}

func (sm *SM) raceRecord(w *warp, space string, lane int, orig, size uint64, other int16, otherPC uint32, what string) {
	r := SanitizerReport{Kind: space + "_race", Space: space, Lane: lane, Address: orig, Size: int(size),
		Other:  &RaceAccess{WarpInCTA: int(other), PC: otherPC, Line: sm.lineOf(otherPC)},
		Detail: fmt.Sprintf("%s by warp %d of the CTA at %s, with no barrier of the whole CTA between", what, other, sm.lineOf(otherPC))}
	sm.record(w, w.gpc, "", r)
}

func countName(n uint64) string {
	if n == 0 {
		return "all (none given)"
	}
	return fmt.Sprint(n)
}

// syncErrors are the errors of the sync family (a .uni instruction that
// diverges, setmaxnreg's undefined behaviour) as sanitizer records.
func syncErrors(errs []ErrorEntry) []SanitizerReport {
	var out []SanitizerReport
	for _, e := range errs {
		switch e.Kind {
		case "uniform_violation", "setmaxnreg", "setmaxnreg_noeffect":
		default:
			continue
		}
		r := SanitizerReport{Kind: e.Kind, CTA: e.CTA, Warp: e.Warp, WarpInCTA: e.WarpInCTA, PC: e.PC, Line: e.Line, Detail: e.Message}
		if e.Lane != nil {
			r.Lane = *e.Lane
		}
		if e.Address != nil {
			r.Address = *e.Address
		}
		out = append(out, r)
	}
	return out
}
