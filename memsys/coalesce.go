package memsys

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// CoalescerScope is the Verilog instance path of the coalescer.
const CoalescerScope = "sm_top.u_lsu.u_coalescer"

// WarpReq is a warp-wide memory request as the load/store unit issues it.
type WarpReq struct {
	Op    Op
	Space Space
	// Size is the access size of each lane in bytes: 1, 2, 4, 8 or 16.
	Size int
	// Mask has bit l set when lane l takes part.
	Mask uint32
	// Addr[l] is lane l's byte address (naturally aligned to Size).
	Addr [WarpSize]uint64
}

// Line is one 128-byte line a warp request touches.
type Line struct {
	Addr    uint64 // the line address
	Sectors uint8  // sectors accessed
	Lanes   uint32 // lanes whose access falls in the line
}

// Coalesced is a warp request turned into lines and sectors.
type Coalesced struct {
	// Lines[:N] are the lines touched, in the order of the lowest lane
	// touching each (deterministic, and the order the L1 sees them).
	Lines [WarpSize]Line
	N     int
	// Sectors is the total of 32-byte sectors over all lines (Nsight
	// Compute's l1tex__t_sectors per request).
	Sectors int
}

// CheckSize reports whether size is a supported access size.
func CheckSize(size int) error {
	switch size {
	case 1, 2, 4, 8, 16:
		return nil
	}
	return fmt.Errorf("memsys: access size %d is not 1, 2, 4, 8 or 16 bytes", size)
}

// Coalesce turns a warp request into the 128-byte lines and 32-byte
// sectors it touches: each active lane's access falls in one sector (an
// aligned access of at most 16 bytes never crosses a 32-byte boundary); a
// sector touched by several lanes is fetched once. This is the rule of the
// CUDA C++ Best Practices Guide ("Coalesced Access to Global Memory": "the
// concurrent accesses of the threads of a warp will coalesce into a number
// of transactions equal to the number of 32-byte transactions necessary to
// service all of the threads of the warp"), which gives 4, 8, 16 and 32
// sectors for 4-byte loads at lane strides of 1, 2, 4 and 8 words.
//
// A misaligned lane address is an error (the SM faults it before it reaches
// the memory system); so is an unsupported size.
func Coalesce(r *WarpReq) (Coalesced, error) {
	var c Coalesced
	if err := CheckSize(r.Size); err != nil {
		return c, err
	}
	for m := r.Mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a := r.Addr[l]
		if a%uint64(r.Size) != 0 {
			return c, fmt.Errorf("memsys: lane %d address %#x is not aligned to its %d-byte access", l, a, r.Size)
		}
		la, s := LineAddr(a), uint8(1)<<SectorOf(a)
		i := 0
		for i < c.N && c.Lines[i].Addr != la {
			i++
		}
		if i == c.N {
			c.Lines[i] = Line{Addr: la}
			c.N++
		}
		ln := &c.Lines[i]
		if ln.Sectors&s == 0 {
			c.Sectors++
		}
		ln.Sectors |= s
		ln.Lanes |= 1 << l
	}
	return c, nil
}

// CoalescerParams are the coalescer's parameters. It has none that change
// its structure; the type exists so that the unit looks like every other.
type CoalescerParams struct{}

// CoalescerInputs are the coalescer's ports from the LSU and from the L1.
type CoalescerInputs struct {
	// ReqValid: the LSU offers a warp request this cycle.
	ReqValid bool `sv:"req_valid_i"`
	// ReqOp, ReqSpace: its kind and state space (Op, Space encodings).
	ReqOp    uint8 `sv:"req_op_i" width:"2"`
	ReqSpace uint8 `sv:"req_space_i" width:"3"`
	// ReqSize: bytes per lane (1, 2, 4, 8, 16).
	ReqSize uint8 `sv:"req_size_i" width:"5"`
	// ReqMask: active lanes.
	ReqMask uint32 `sv:"req_mask_i"`
	// ReqAddr[l]: lane l's byte address.
	ReqAddr [WarpSize]uint64 `sv:"req_addr_i"`
	// ReqID: the LSU's tag of the warp request, echoed on every line.
	ReqID uint32 `sv:"req_id_i"`
	// OutReady: the L1 takes the line on out_* this cycle.
	OutReady bool `sv:"out_ready_i"`
}

// CoalescerOutputs are the coalescer's ports.
type CoalescerOutputs struct {
	// ReqReady: a warp request offered this cycle is taken. High when idle,
	// or when the last line of the current request leaves this cycle
	// (out_valid_o, out_last_o and out_ready_i), so back-to-back requests
	// leave no bubble.
	ReqReady bool `sv:"req_ready_o"`
	// ReqErr: the offered request is malformed (a size other than 1, 2, 4,
	// 8, 16 or a misaligned lane); it is dropped, and req_sectors_o and
	// req_lines_o are 0. The LSU faults the warp.
	ReqErr bool `sv:"req_err_o"`
	// ReqSectors and ReqLines: sectors and lines of the offered request
	// (for the metrics and the LSU's throttle accounting), valid with
	// req_valid_i.
	ReqSectors uint8 `sv:"req_sectors_o" width:"6"`
	ReqLines   uint8 `sv:"req_lines_o" width:"6"`
	// OutValid: a line request is on out_*.
	OutValid bool `sv:"out_valid_o"`
	// OutOp, OutSpace, OutID: the warp request's.
	OutOp    uint8  `sv:"out_op_o" width:"2"`
	OutSpace uint8  `sv:"out_space_o" width:"3"`
	OutID    uint32 `sv:"out_id_o"`
	// OutAddr: the line address; OutSectors its sectors accessed; OutLanes
	// the lanes served by it.
	OutAddr    uint64 `sv:"out_addr_o"`
	OutSectors uint8  `sv:"out_sectors_o" width:"4"`
	OutLanes   uint32 `sv:"out_lanes_o"`
	// OutIdx: the line's index within its warp request; OutLast: it is the
	// request's last line.
	OutIdx  uint8 `sv:"out_idx_o" width:"5"`
	OutLast bool  `sv:"out_last_o"`
}

// CoalescerState holds the coalescer's registers: the lines of the warp
// request being sent, one per cycle.
type CoalescerState struct {
	Busy    bool             `sv:"busy_q"`
	Op      uint8            `sv:"op_q" width:"2"`
	Space   uint8            `sv:"space_q" width:"3"`
	ID      uint32           `sv:"id_q"`
	NLines  uint8            `sv:"n_lines_q" width:"6"`
	Idx     uint8            `sv:"idx_q" width:"5"`
	Addr    [WarpSize]uint64 `sv:"line_addr_q"`
	Sectors [WarpSize]uint8  `sv:"line_sectors_q" elem:"4"`
	Lanes   [WarpSize]uint32 `sv:"line_lanes_q"`
}

// Coalescer is the coalescing stage of the load/store unit, a two-phase
// unit (rtl.Unit): it takes one warp request when ready, and sends its
// lines to the L1 one per cycle, starting the cycle after it took it. The
// tag stage of the L1 looks up one line per cycle, so a request touching
// n lines holds the stage n cycles (Nsight Compute's lg_throttle when the
// LSU has more to send).
type Coalescer struct {
	p                        CoalescerParams
	rtl.Regs[CoalescerState] // Q, D, Tick and Reset
}

var _ rtl.Unit[CoalescerInputs, CoalescerOutputs, CoalescerState] = (*Coalescer)(nil)

// NewCoalescer returns a coalescer in its reset state.
func NewCoalescer(p CoalescerParams) *Coalescer {
	u := &Coalescer{p: p}
	u.Reset()
	return u
}

// Eval is always_comb.
func (u *Coalescer) Eval(in CoalescerInputs) CoalescerOutputs {
	q := &u.Cur
	u.Next = *q
	var o CoalescerOutputs
	// 1. The line in flight.
	lastGoes := false
	if q.Busy {
		i := q.Idx
		o.OutValid = true
		o.OutOp, o.OutSpace, o.OutID = q.Op, q.Space, q.ID
		o.OutAddr, o.OutSectors, o.OutLanes = q.Addr[i], q.Sectors[i], q.Lanes[i]
		o.OutIdx, o.OutLast = i, i+1 == q.NLines
		if in.OutReady {
			u.Next.Idx = i + 1
			if o.OutLast {
				u.Next.Busy, u.Next.Idx = false, 0
				lastGoes = true
			}
		}
	}
	// 2. A new warp request.
	o.ReqReady = !q.Busy || lastGoes
	if in.ReqValid {
		r := WarpReq{Op: Op(in.ReqOp), Space: Space(in.ReqSpace), Size: int(in.ReqSize), Mask: in.ReqMask, Addr: in.ReqAddr}
		c, err := Coalesce(&r)
		o.ReqErr = err != nil
		if err != nil {
			c = Coalesced{} // a malformed request has no lines (nor partial counts)
		}
		o.ReqSectors, o.ReqLines = uint8(c.Sectors), uint8(c.N)
		if o.ReqReady && err == nil && c.N > 0 {
			u.Next.Busy, u.Next.Op, u.Next.Space, u.Next.ID = true, in.ReqOp, in.ReqSpace, in.ReqID
			u.Next.NLines, u.Next.Idx = uint8(c.N), 0
			u.Next.Addr, u.Next.Sectors, u.Next.Lanes = [WarpSize]uint64{}, [WarpSize]uint8{}, [WarpSize]uint32{}
			for k := 0; k < c.N; k++ {
				u.Next.Addr[k], u.Next.Sectors[k], u.Next.Lanes[k] = c.Lines[k].Addr, c.Lines[k].Sectors, c.Lines[k].Lanes
			}
		}
	}
	return o
}

// Signals returns the unit's signal table under CoalescerScope.
func (u *Coalescer) Signals() rtl.Table {
	return rtl.MustSignals(CoalescerScope, u.p, CoalescerInputs{}, CoalescerOutputs{}, CoalescerState{})
}
