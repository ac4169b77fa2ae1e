// The load/store stages, sm_top.u_lsu_N: per sub-partition, the request
// of the memory instruction its scheduler issued, on the SM's memory port.

package pipeline

import "github.com/smsim/smsim/isa"

// LSUOutputs are one sub-partition's request on the SM's memory port,
// sm_top.u_lsu_N: the load, store or atomic its scheduler issued in the
// cycle, with the address of each executing lane's access (its first
// element's, for a vector access: the lane's accesses are ReqSize bytes
// from there). The model performs the access as the instruction executes
// and delivers its destinations through the writeback stage after the
// space's latency (lat.*); these ports are where a memory system attaches
// (package memsys, memsys.Port). A request whose instruction faults is
// not made. When nothing is requested, mem_req_valid_o drops and the other
// outputs hold. Like the issue stages' guard masks, the request is known
// once the cycle's instructions have executed: an OnCycle hook sees the
// cycle before's (SM.LSUOut), and the SM computes it only when a hook is
// registered.
type LSUOutputs struct {
	ReqValid bool       `sv:"mem_req_valid_o"`
	ReqOp    uint8      `sv:"mem_req_op_o" width:"2" enum:"mem_op"`       // MemLoad, MemStore, MemAtomic
	ReqSpace uint8      `sv:"mem_req_space_o" width:"3" enum:"mem_space"` // the instruction's state space (isa.Space*; generic included)
	ReqWarp  uint16     `sv:"mem_req_warp_o" width:"WarpSlotWidth"`       // warp slot
	ReqMask  uint32     `sv:"mem_req_mask_o"`                             // the executing lanes
	ReqSize  uint8      `sv:"mem_req_size_o" width:"7"`                   // bytes per lane (element size x vector length)
	ReqTag   uint32     `sv:"mem_req_tag_o"`                              // the request's number (counts from 1)
	ReqAddr  [32]uint64 `sv:"mem_req_addr_o" width:"64*32" elem:"64"`     // per lane: the address of its access
}

// Memory-port request operations (mem_req_op_o).
const (
	MemLoad = iota
	MemStore
	MemAtomic
)

// MemOpNames are the names of mem_req_op_o's values.
func MemOpNames() []string { return []string{"ld", "st", "atom"} }

// SpaceNames are the names of mem_req_space_o's values (isa.Space*).
func SpaceNames() []string {
	var out []string
	for s := isa.SpaceGeneric; s <= isa.SpaceConst; s++ {
		out = append(out, isa.SpaceName(s))
	}
	return out
}

// lsu is the load/store stages' observation: their outputs, set for the
// hooks as memory instructions execute.
type lsu struct {
	out []LSUOutputs // by scheduler
	tag uint32
	s   int // the scheduler whose instruction executes (tick)
}

// request records the request of memory instruction d of w on its
// scheduler's port: lanes emask, the per-lane addresses base[l]+off.
func (u *lsu) request(w *warp, d *dinst, emask uint32, base *[32]uint64, off uint64) {
	o := &u.out[u.s]
	u.tag++
	op := MemLoad
	switch d.cat {
	case catST:
		op = MemStore
	case catATOM:
		op = MemAtomic
	}
	o.ReqValid, o.ReqOp, o.ReqSpace, o.ReqWarp = true, uint8(op), uint8(d.space), uint16(w.slot)
	o.ReqMask, o.ReqSize, o.ReqTag = emask, uint8(d.elem.Bytes()*d.vec), u.tag
	for l := range o.ReqAddr {
		if emask>>uint(l)&1 != 0 {
			o.ReqAddr[l] = base[l] + off
		}
	}
}

// idle drops every port's request (a cycle in which none is made).
func (u *lsu) idle() {
	for s := range u.out {
		u.out[s].ReqValid = false
	}
}

// LSUOut returns the load/store stages' requests of the last cycle
// stepped (by scheduler), as an OnCycle hook sees them (they are made as
// the instructions execute, after the hooks of their cycle); the SM
// computes them only when a hook is registered. The slice is the SM's:
// read it in a hook, do not keep it.
func (sm *SM) LSUOut() []LSUOutputs { return sm.lsu.out }
