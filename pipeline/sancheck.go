// The sanitizer's optional checks (Launch.Checks; smsim run --check):
//
//   - init: a read of shared memory that no thread of the CTA has written
//     is an uninitialized_read record (the access proceeds; one record
//     per instruction). Global memory is all host-initialized here:
//     buffers are zeroed or loaded by the host, .global variables start
//     with their initializers.
//   - sync: a barrier (bar.sync, bar.red) reached by part of a warp's live
//     threads (a divergent warp, or lanes whose guard is false), or with a
//     thread count that differs from the count another warp gave the same
//     barrier in the same phase, is a barrier_divergence record (one per
//     instruction and kind of finding). The encoding does not keep PTX's
//     .aligned, so a non-aligned barrier.sync in divergent code is
//     reported too.
//
// Off, a check costs a false test per shared access (init) or nothing at
// all (sync hangs off an issue hook, registered only when it is on).

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
}

// CheckNames lists the names ParseChecks accepts.
var CheckNames = []string{"init", "sync"}

// ParseChecks reads a comma-separated list of check names ("init,sync").
// "race" is named but not implemented: it is refused as such.
func ParseChecks(s string) (Checks, error) {
	var c Checks
	for _, n := range strings.Split(s, ",") {
		switch strings.TrimSpace(n) {
		case "init":
			c.Init = true
		case "sync":
			c.Sync = true
		case "":
		case "race":
			return c, fmt.Errorf("check race is not supported yet (checks: %s)", strings.Join(CheckNames, ", "))
		default:
			return c, fmt.Errorf("unknown check %q (checks: %s)", strings.TrimSpace(n), strings.Join(CheckNames, ", "))
		}
	}
	return c, nil
}

// sancheck is the state of the optional checks.
type sancheck struct {
	init   bool
	seen   map[sanKey]bool // instructions already reported, per kind
	phases map[*cta]*[numBarriers]barPhase
}

type sanKey struct {
	kind string
	pc   uint32
}

// barPhase is the thread count the first warp gave a barrier in its
// current phase.
type barPhase struct {
	set   bool
	count uint64
	warp  int
}

// initChecks turns on the launch's optional checks.
func (sm *SM) initChecks() {
	sm.mc.chk = sancheck{init: sm.launch.Checks.Init, seen: map[sanKey]bool{}}
	if sm.launch.Checks.Sync {
		sm.mc.chk.phases = map[*cta]*[numBarriers]barPhase{}
		sm.OnIssue(sm.checkSync)
	}
}

// record adds finding r of w's instruction at pc, once per instruction
// and kind (sub tells findings of one kind apart).
func (sm *SM) record(w *warp, pc uint32, sub string, r SanitizerReport) {
	k := sanKey{r.Kind + sub, pc}
	if sm.mc.chk.seen[k] {
		return
	}
	sm.mc.chk.seen[k] = true
	if len(sm.san) >= maxSanitizerReports {
		sm.sanDropped++
		return
	}
	r.Warp, r.CTA, r.WarpInCTA, r.PC, r.Line = w.slot, w.cta.id, w.inCTA, pc, sm.lineOf(pc)
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

// checkSync is the issue hook of the sync check.
func (sm *SM) checkSync(ii *IssueInfo) {
	in := &ii.Inst
	kind := int(in.Mods & isa.ModBarKindMask)
	if in.Op != isa.OpBAR || kind == isa.BarArrive {
		return
	}
	w := sm.slots[ii.Warp]
	if w == nil || int(ii.PC) >= len(sm.code) {
		return
	}
	live := w.valid &^ w.exited
	if ii.Exec != 0 && ii.Exec != live {
		sm.record(w, ii.PC, "", SanitizerReport{Kind: "barrier_divergence", Lane: bits.TrailingZeros32(ii.Exec),
			Detail: fmt.Sprintf("lanes %#08x of the warp's live %#08x reach the barrier", ii.Exec, live)})
	}
	if ii.Exec == 0 {
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
		*p = barPhase{set: true, count: count, warp: w.inCTA}
	case p.count != count:
		sm.record(w, ii.PC, "count", SanitizerReport{Kind: "barrier_divergence", Lane: l,
			Detail: fmt.Sprintf("barrier %d with thread count %s; warp %d of the CTA gave %s in this phase", id, countName(count), p.warp, countName(p.count))})
	}
	if w.cta.bars[id].threads == 0 { // released: the next arrival opens a phase
		p.set = false
	}
}

func countName(n uint64) string {
	if n == 0 {
		return "all (none given)"
	}
	return fmt.Sprint(n)
}
