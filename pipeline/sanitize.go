// The sanitizer's memcheck, always on: a misaligned access of any space
// is reported as "misaligned"; every access must fall inside an
// allocation of its space: global (a bound buffer, a host allocation or a
// module .global variable), shared (a module-scope .shared variable, one
// declared in the launched kernel or a function, or the launch's dynamic
// segment; not another kernel's), local (the thread's live stack: its frames up
// to the current function's), param (one kernel parameter) or const (one
// .const variable). An access outside every allocation, or one that
// starts in an allocation and crosses its end, is an out_of_bounds fault,
// reported with the warp, lane, PC and line (Report.Sanitizer) and the
// nearest allocation with how far outside it the access is. An access
// beyond the space itself (the CTA's shared window, sm.local_bytes, the
// parameter buffer, the .const bank, global memory) stays a
// memory_fault, as the hardware's own error.

package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
)

// SanitizerReport is one finding of the model's sanitizer checks.
type SanitizerReport struct {
	// Kind is the check's stable name: "out_of_bounds" (memcheck: outside
	// every allocation), "misaligned" (an address not a multiple of the
	// access size), "uninitialized_read" (--check init),
	// "barrier_divergence" (--check sync), "shared_race", "global_race"
	// and "nc_modified" (--check race; sancheck.go).
	Kind string `json:"kind"`
	// Space is the state space accessed: global, shared, local, param or
	// const (after a generic address is resolved).
	Space     string    `json:"space,omitempty"`
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
	// Detail says more where the fields do not (the optional checks).
	Detail string `json:"detail,omitempty"`
	// Other is the access a race is with (shared_race): the earlier one.
	Other *RaceAccess `json:"other,omitempty"`
}

// RaceAccess is the other access of a race.
type RaceAccess struct {
	WarpInCTA int    `json:"warp_in_cta"`
	PC        uint32 `json:"pc"`
	Line      string `json:"line"`
}

// Allocation is a region of a state space a kernel may access.
type Allocation struct {
	// Name is the bound parameter, the module variable, the host's name
	// (Launch.Allocations), "dynamic shared memory", or "stack" (a
	// thread's live local frames).
	Name  string `json:"name"`
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
	sm.initSpaces()
	sort.Slice(sm.allocs, func(i, j int) bool { return sm.allocs[i].Begin < sm.allocs[j].Begin })
}

// memcheck holds the allocations of the spaces other than global.
type memcheck struct {
	shared []Allocation // static .shared variables and the dynamic segment, by address
	param  []Allocation // kernel parameters, by offset
	konst  []Allocation // .const variables, by address
	frame  []uint32     // per pc: the frame size of the function holding it
	chk    sancheck     // the optional checks (sancheck.go)
}

// initSpaces lists the allocations of the shared, param and const spaces
// and the frame size at every pc.
func (sm *SM) initSpaces() {
	mc := memcheck{frame: make([]uint32, len(sm.im.Code))}
	otherKernel := map[string]bool{}
	for _, k := range sm.im.Kernels {
		otherKernel[k.Name] = k.Name != sm.kern.Name
	}
	for _, s := range sm.im.Symbols {
		a := Allocation{Name: s.Name, Begin: s.Addr, End: s.Addr + s.Size}
		scope, _, scoped := strings.Cut(s.Name, "::")
		switch {
		case s.Size == 0: // an extern (dynamic) .shared array: the segment below
		case int(s.Space) == isa.SpaceShared && scoped && otherKernel[scope]:
			// Another kernel's own variable: this launch has no business
			// there, though the module's kernels share one layout.
		case int(s.Space) == isa.SpaceShared:
			mc.shared = append(mc.shared, a)
		case int(s.Space) == isa.SpaceConst:
			mc.konst = append(mc.konst, a)
		}
	}
	// The dynamic segment runs to the end of the CTA's allocation, which
	// is rounded up to sm.smem_alloc_unit (accesses inside the rounding
	// do not fault: New). examples/sreg_all writes 256 bytes into its 200
	// requested ones, inside the rounding, and its golden reports stay
	// clean.
	if n := sm.launch.DynamicSmem; n > 0 {
		b := uint64(sm.im.DynamicSharedBase())
		mc.shared = append(mc.shared, Allocation{Name: "dynamic shared memory", Begin: b, End: max(b+uint64(n), uint64(sm.smemSize))})
	}
	for _, p := range sm.kern.Params {
		mc.param = append(mc.param, Allocation{Name: p.Name, Begin: uint64(p.Offset), End: uint64(p.Offset) + uint64(p.Size)})
	}
	for _, l := range [][]Allocation{mc.shared, mc.param, mc.konst} {
		sort.Slice(l, func(i, j int) bool { return l[i].Begin < l[j].Begin })
	}
	for _, f := range sm.im.Funcs {
		for pc := f.PC; pc < f.End && int(pc) < len(mc.frame); pc++ {
			mc.frame[pc] = f.Frame
		}
	}
	sm.mc = mc
	sm.initChecks()
}

// checkGlobal reports whether [addr, end) lies in one allocation; when it
// does not, it returns the out_of_bounds fault of lane.
func (sm *SM) checkGlobal(lane int, orig, addr, end uint64) *fault {
	return checkAllocs(sm.allocs, isa.SpaceGlobal, lane, orig, addr, end)
}

// checkLocal reports whether [addr, end) of lane's local memory lies in
// its live stack: the frames below FP and the frame of the function at
// pc.
func (sm *SM) checkLocal(w *warp, lane int, orig, addr, end uint64) *fault {
	live := uint64(w.fp[lane])
	if pc := w.gpc; int(pc) < len(sm.mc.frame) {
		live += uint64(sm.mc.frame[pc])
	}
	if end <= live {
		return nil
	}
	return checkAllocs([]Allocation{{Name: "stack", End: live}}, isa.SpaceLocal, lane, orig, addr, end)
}

// checkAllocs reports whether [addr, end) of space lies in one of allocs
// (sorted by address); when it does not, it returns the out_of_bounds
// fault of lane. orig is the address as the instruction gave it.
func checkAllocs(allocs []Allocation, space, lane int, orig, addr, end uint64) *fault {
	// The last allocation beginning at or before addr.
	i := sort.Search(len(allocs), func(i int) bool { return allocs[i].Begin > addr }) - 1
	if i >= 0 && end <= allocs[i].End {
		return nil
	}
	f := &fault{kind: "out_of_bounds", addr: orig, hasA: true, lane: lane, hasLane: true}
	r := &SanitizerReport{Kind: "out_of_bounds", Space: isa.SpaceName(space), Lane: lane, Address: orig, Size: int(end - addr)}
	// The nearest allocation: the one addr starts in (crossing its end),
	// else the closer of its neighbours.
	var near *Allocation
	switch {
	case i >= 0 && addr < allocs[i].End:
		near, r.Distance = &allocs[i], int64(end-allocs[i].End)
	default:
		if i >= 0 {
			near, r.Distance = &allocs[i], int64(addr-allocs[i].End)
		}
		if j := i + 1; j < len(allocs) && (near == nil || allocs[j].Begin-end < addr-near.End) {
			near, r.Distance = &allocs[j], -int64(allocs[j].Begin-addr)
		}
	}
	name := isa.SpaceName(space)
	if near != nil {
		a := *near
		r.Allocation = &a
		f.msg = fmt.Sprintf("%d-byte %s access at %#x: %s", r.Size, name, orig, describeOOB(r, addr))
	} else {
		f.msg = fmt.Sprintf("%d-byte %s access at %#x: the launch has no %s allocation", r.Size, name, orig, name)
	}
	f.san = r
	return f
}

// describeOOB says where the access at addr (in its space) lies against
// the nearest allocation.
func describeOOB(r *SanitizerReport, addr uint64) string {
	a := r.Allocation
	where := fmt.Sprintf("%s (%d bytes at %#x)", a.Name, a.End-a.Begin, a.Begin)
	switch {
	case addr >= a.Begin && addr < a.End:
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
