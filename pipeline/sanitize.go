// The sanitizer's memcheck, always on: a misaligned access of any space
// is reported as "misaligned"; every global access must fall
// inside an allocation (a bound buffer or a module .global variable);
// an access outside every allocation, or one that starts in an
// allocation and crosses its end, is an out_of_bounds fault, reported
// with the warp, lane, PC and line (Report.Sanitizer) and the nearest
// allocation with how far outside it the access is.

package pipeline

import (
	"fmt"
	"sort"

	"github.com/smsim/smsim/isa"
)

// SanitizerReport is one finding of the model's sanitizer checks.
type SanitizerReport struct {
	// Kind is the check's stable name: "out_of_bounds" (memcheck: outside
	// every allocation), "misaligned" (an address not a multiple of the
	// access size).
	Kind      string    `json:"kind"`
	CTA       [3]uint32 `json:"cta"`
	Warp      int       `json:"warp"` // slot
	WarpInCTA int       `json:"warp_in_cta"`
	Lane      int       `json:"lane"`
	PC        uint32    `json:"pc"`
	Line      string    `json:"line"`
	Address   uint64    `json:"address"`
	Size      int       `json:"size"` // bytes accessed
	// Allocation is the nearest allocation, Distance how far outside it
	// the access lies: bytes before its start (negative) or past its end
	// (the first byte beyond it counts as 0).
	Allocation *Allocation `json:"allocation,omitempty"`
	Distance   int64       `json:"distance"`
}

// Allocation is a region of global memory a kernel may access.
type Allocation struct {
	Name  string `json:"name"`  // the bound parameter, the module variable, or the host's name (Launch.Allocations)
	Begin uint64 `json:"begin"` // first byte
	End   uint64 `json:"end"`   // one past the last byte
}

// maxSanitizerReports bounds Report.Sanitizer.
const maxSanitizerReports = 1024

// initAllocations lists the global allocations: the module's .global
// variables, the bound buffers (not the aliases, which point into them)
// and Launch.Allocations, sorted by address.
func (sm *SM) initAllocations() {
	sm.allocs = sm.allocs[:0]
	for _, s := range sm.im.Symbols {
		if int(s.Space) == isa.SpaceGlobal && s.Size > 0 {
			sm.allocs = append(sm.allocs, Allocation{Name: s.Name, Begin: s.Addr, End: s.Addr + s.Size})
		}
	}
	for _, b := range sm.bufs {
		if !b.alias {
			sm.allocs = append(sm.allocs, Allocation{Name: b.param, Begin: b.addr, End: b.addr + uint64(b.size)})
		}
	}
	sm.allocs = append(sm.allocs, sm.launch.Allocations...)
	sort.Slice(sm.allocs, func(i, j int) bool { return sm.allocs[i].Begin < sm.allocs[j].Begin })
}

// checkGlobal reports whether [addr, end) lies in one allocation; when it
// does not, it returns the out_of_bounds fault of lane.
func (sm *SM) checkGlobal(lane int, orig, addr, end uint64) *fault {
	// The last allocation beginning at or before addr.
	i := sort.Search(len(sm.allocs), func(i int) bool { return sm.allocs[i].Begin > addr }) - 1
	if i >= 0 && end <= sm.allocs[i].End {
		return nil
	}
	f := &fault{kind: "out_of_bounds", addr: orig, hasA: true, lane: lane, hasLane: true}
	r := &SanitizerReport{Kind: "out_of_bounds", Lane: lane, Address: orig, Size: int(end - addr)}
	// The nearest allocation: the one addr starts in (crossing its end),
	// else the closer of its neighbours.
	var near *Allocation
	switch {
	case i >= 0 && addr < sm.allocs[i].End:
		near, r.Distance = &sm.allocs[i], int64(end-sm.allocs[i].End)
	default:
		if i >= 0 {
			near, r.Distance = &sm.allocs[i], int64(addr-sm.allocs[i].End)
		}
		if j := i + 1; j < len(sm.allocs) && (near == nil || sm.allocs[j].Begin-end < addr-near.End) {
			near, r.Distance = &sm.allocs[j], -int64(sm.allocs[j].Begin-addr)
		}
	}
	if near != nil {
		a := *near
		r.Allocation = &a
		f.msg = fmt.Sprintf("%d-byte global access at %#x: %s", r.Size, orig, describeOOB(r))
	} else {
		f.msg = fmt.Sprintf("%d-byte global access at %#x: the launch has no global allocation", r.Size, orig)
	}
	f.san = r
	return f
}

func describeOOB(r *SanitizerReport) string {
	a := r.Allocation
	where := fmt.Sprintf("%s (%d bytes at %#x)", a.Name, a.End-a.Begin, a.Begin)
	switch {
	case r.Address >= a.Begin && r.Address < a.End:
		return fmt.Sprintf("crosses the end of %s by %d bytes", where, r.Distance)
	case r.Distance < 0:
		return fmt.Sprintf("%d bytes before %s", -r.Distance, where)
	}
	return fmt.Sprintf("%d bytes past the end of %s", r.Distance, where)
}

// sanitize records the sanitizer finding of fault f of w's instruction at
// pc.
func (sm *SM) sanitize(f *fault, w *warp, pc uint32) {
	if f.san == nil {
		return
	}
	if len(sm.san) >= maxSanitizerReports {
		sm.sanDropped++
		return
	}
	r := *f.san
	r.Warp, r.CTA, r.WarpInCTA, r.PC, r.Line = w.slot, w.cta.id, w.inCTA, pc, sm.lineOf(pc)
	sm.san = append(sm.san, r)
}
