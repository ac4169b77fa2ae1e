package memsys

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// BanksScope is the Verilog instance path of the shared-memory bank model.
const BanksScope = "sm_top.u_lsu.u_smem_banks"

// MaxBanks bounds BankParams.Banks.
const MaxBanks = 64

// BankParams are the shared-memory bank geometry (config smem.banks,
// smem.bank_bytes).
type BankParams struct {
	// Banks is the number of banks, a power of two in 1..MaxBanks (32 on
	// every NVIDIA GPU since compute capability 2.0).
	Banks int
	// BankBytes is the width of a bank: 4 or 8 (4 since compute
	// capability 5.0).
	BankBytes int
}

// Check reports a parameter outside its range.
func (p BankParams) Check() error {
	switch {
	case p.Banks < 1 || p.Banks > MaxBanks || p.Banks&(p.Banks-1) != 0:
		return fmt.Errorf("memsys: Banks %d is not a power of two in 1..%d", p.Banks, MaxBanks)
	case p.BankBytes != 4 && p.BankBytes != 8:
		return fmt.Errorf("memsys: BankBytes %d is not 4 or 8", p.BankBytes)
	}
	return nil
}

// Wavefronts is how a warp's shared-memory access is served: the lane
// masks of the wavefronts, one wavefront (one pass through the banks) per
// cycle.
type Wavefronts struct {
	// Lanes[:N] are the lanes served by each wavefront, in order.
	Lanes [WarpSize]uint32
	N     int
	// Ideal is the number of wavefronts the access needs without any
	// conflict: one per phase that has an active lane.
	Ideal int
}

// Conflicts is the number of extra wavefronts caused by bank conflicts
// (Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld
// and _op_st count these).
func (w Wavefronts) Conflicts() int { return w.N - w.Ideal }

// phaseLanes is the number of lanes served together in one phase: a phase
// moves at most Banks*BankBytes bytes, so 8-byte accesses go a half-warp
// and 16-byte accesses a quarter-warp at a time (with 32 4-byte banks).
func (p BankParams) phaseLanes(size int) int {
	n := p.Banks * p.BankBytes / max(size, 1)
	return min(max(n, 1), WarpSize)
}

// SharedWavefronts splits a warp's shared-memory access into wavefronts.
//
// The rule (CUDA C++ Programming Guide, compute capability 5.x and later,
// "Shared Memory"; the same for 9.0): shared memory has Banks banks;
// successive BankBytes-byte words go to successive banks. A request without
// a conflict is served in one pass; when n lanes access distinct words of
// the same bank the access is split into n conflict-free passes
// (wavefronts). Lanes reading the same word are served together (the word
// is broadcast); a write of the same word by several lanes is one write.
//
// Accesses wider than a bank (8 and 16 bytes with 4-byte banks) occupy
// size/BankBytes consecutive banks per lane. Such a request is processed in
// phases of Banks*BankBytes/size lanes (a half-warp for 8 bytes, a
// quarter-warp for 16 bytes), each phase at least one wavefront, and bank
// conflicts count only between lanes of the same phase. The programming
// guide does not state it for compute capability 5.0 and later; it follows
// from the 128 bytes per cycle the banks deliver (a warp's 256 or 512 bytes
// cannot take fewer than 2 or 4 cycles) and matches what NVIDIA's answers
// and Nsight Compute report (4 wavefronts, 0 conflicts for a conflict-free
// LDS.128; docs/memory.md has the references). A phase with no active lane
// costs nothing. The packing of uniform-address wide loads some GPUs do is
// not modelled.
//
// Within a phase, lanes are assigned greedily in lane order to the first
// wavefront whose banks are free or hold the same word; since lanes of a
// phase use aligned groups of size/BankBytes banks, that gives exactly the
// largest number of distinct words any bank group holds.
func SharedWavefronts(p BankParams, addr *[WarpSize]uint32, size int, mask uint32) (Wavefronts, error) {
	var w Wavefronts
	if err := CheckSize(size); err != nil {
		return w, err
	}
	if err := p.Check(); err != nil {
		return w, err
	}
	unit := max(size, p.BankBytes) // bytes one lane holds in a bank group
	groups := p.Banks * p.BankBytes / unit
	if groups < 1 {
		groups = 1
	}
	per := p.phaseLanes(size)
	for base := 0; base < WarpSize; base += per {
		pm := mask & laneRange(base, per)
		if pm == 0 {
			continue
		}
		w.Ideal++
		first := w.N
		// word[k][g]: the word bank group g serves in wavefront first+k.
		var word [WarpSize][MaxBanks]uint32
		var used [WarpSize]uint64
		for m := pm; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			a := addr[l]
			if a%uint32(size) != 0 {
				return Wavefronts{}, fmt.Errorf("memsys: lane %d shared address %#x is not aligned to its %d-byte access", l, a, size)
			}
			wd := a / uint32(unit)
			g := int(wd % uint32(groups))
			k := 0
			for ; first+k < w.N; k++ {
				if used[k]&(1<<uint(g)) == 0 || word[k][g] == wd {
					break
				}
			}
			if first+k == w.N {
				w.N++
			}
			used[k] |= 1 << uint(g)
			word[k][g] = wd
			w.Lanes[first+k] |= 1 << uint(l)
		}
	}
	return w, nil
}

func laneRange(base, n int) uint32 {
	if n >= WarpSize {
		return ^uint32(0)
	}
	return (1<<uint(n) - 1) << uint(base)
}

// BankInputs are the bank model's ports from the LSU.
type BankInputs struct {
	// ReqValid: the LSU offers a shared-memory warp request.
	ReqValid bool `sv:"req_valid_i"`
	// ReqOp: load, store or atomic (Op encoding).
	ReqOp uint8 `sv:"req_op_i" width:"2"`
	// ReqSize: bytes per lane (1, 2, 4, 8, 16).
	ReqSize uint8 `sv:"req_size_i" width:"5"`
	// ReqMask: active lanes.
	ReqMask uint32 `sv:"req_mask_i"`
	// ReqAddr[l]: lane l's shared-window byte offset.
	ReqAddr [WarpSize]uint32 `sv:"req_addr_i"`
	// ReqID: the LSU's tag of the request, echoed with every wavefront.
	ReqID uint32 `sv:"req_id_i"`
}

// BankOutputs are the bank model's ports.
type BankOutputs struct {
	// ReqReady: an offered request is taken this cycle (idle, or the last
	// wavefront of the current one goes this cycle).
	ReqReady bool `sv:"req_ready_o"`
	// ReqErr: the offered request is malformed and dropped.
	ReqErr bool `sv:"req_err_o"`
	// ReqWavefronts and ReqConflicts: the offered request's wavefront and
	// extra-wavefront counts (for the metrics), valid with req_valid_i.
	ReqWavefronts uint8 `sv:"req_wavefronts_o" width:"6"`
	ReqConflicts  uint8 `sv:"req_conflicts_o" width:"6"`
	// WfValid: a wavefront passes the banks this cycle; WfLanes are the
	// lanes it serves; WfLast: the request's last one; WfOp, WfID the
	// request's.
	WfValid bool   `sv:"wf_valid_o"`
	WfLanes uint32 `sv:"wf_lanes_o"`
	WfLast  bool   `sv:"wf_last_o"`
	WfOp    uint8  `sv:"wf_op_o" width:"2"`
	WfID    uint32 `sv:"wf_id_o"`
}

// BankState holds the bank model's registers: the wavefronts of the
// request being replayed.
type BankState struct {
	Busy  bool             `sv:"busy_q"`
	Op    uint8            `sv:"op_q" width:"2"`
	ID    uint32           `sv:"id_q"`
	NWf   uint8            `sv:"n_wf_q" width:"6"`
	Idx   uint8            `sv:"idx_q" width:"5"`
	Lanes [WarpSize]uint32 `sv:"wf_lanes_q"`
}

// Banks is the shared-memory bank model, a two-phase unit: it takes a
// shared-memory warp request when ready and plays its wavefronts one per
// cycle from the next cycle on, so an n-way conflict holds the banks n
// cycles (the replays behind Nsight Compute's mio_throttle and
// short_scoreboard stalls once integrated).
type Banks struct {
	p                   BankParams
	rtl.Regs[BankState] // Q, D, Tick and Reset
}

var _ rtl.Unit[BankInputs, BankOutputs, BankState] = (*Banks)(nil)

// NewBanks checks p and returns the unit in its reset state.
func NewBanks(p BankParams) (*Banks, error) { return rtl.Build(p, newBanks) }

func newBanks(p BankParams) *Banks {
	u := &Banks{p: p}
	u.Reset()
	return u
}

// Params returns the unit's parameters.
func (u *Banks) Params() BankParams { return u.p }

// Eval is always_comb.
func (u *Banks) Eval(in BankInputs) BankOutputs {
	q := &u.Cur
	u.Next = *q
	var o BankOutputs
	// 1. The wavefront of this cycle.
	lastGoes := false
	if q.Busy {
		o.WfValid, o.WfLanes, o.WfOp, o.WfID = true, q.Lanes[q.Idx], q.Op, q.ID
		o.WfLast = q.Idx+1 == q.NWf
		u.Next.Idx = q.Idx + 1
		if o.WfLast {
			u.Next.Busy, u.Next.Idx = false, 0
			lastGoes = true
		}
	}
	// 2. A new request.
	o.ReqReady = !q.Busy || lastGoes
	if in.ReqValid {
		w, err := SharedWavefronts(u.p, &in.ReqAddr, int(in.ReqSize), in.ReqMask)
		o.ReqErr = err != nil
		o.ReqWavefronts, o.ReqConflicts = uint8(w.N), uint8(w.Conflicts())
		if o.ReqReady && err == nil && w.N > 0 {
			u.Next.Busy, u.Next.Op, u.Next.ID, u.Next.NWf, u.Next.Idx = true, in.ReqOp, in.ReqID, uint8(w.N), 0
			u.Next.Lanes = w.Lanes
		}
	}
	return o
}

// Signals returns the unit's signal table under BanksScope.
func (u *Banks) Signals() rtl.Table {
	return rtl.MustSignals(BanksScope, u.p, BankInputs{}, BankOutputs{}, BankState{})
}
