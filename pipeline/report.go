package pipeline

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/smsim/smsim/perfmon"
)

// Report is the outcome of a run.
type Report struct {
	// Status is "completed", "trapped", "fault", "deadlock" or
	// "cycle_limit" ("running" if the run has not ended).
	Status             string  `json:"status"`
	Cycles             uint64  `json:"cycles"`
	WarpInstructions   uint64  `json:"warp_instructions"`
	ThreadInstructions uint64  `json:"thread_instructions"` // guard-true threads of each warp instruction
	IPC                float64 `json:"ipc"`                 // warp instructions per cycle
	// Buffers holds each bound buffer's final contents as little-endian
	// 32-bit words, by parameter name.
	Buffers map[string][]uint32 `json:"buffers"`
	// Stalls counts warp-cycles per warp state (StateNames); "idle" counts
	// the cycles of empty warp slots, so the values sum to cycles x
	// sm.max_warps.
	Stalls map[string]uint64 `json:"stalls"`
	// Warps lists every warp launched (CTA by CTA), at most 4096 of them.
	Warps        []WarpReport `json:"warps"`
	WarpsOmitted int          `json:"warps_omitted,omitempty"`
	// Errors lists the faults, traps and non-fatal errors (uniform
	// violations, warp-synchronous misuse, ...), at most 256.
	Errors []ErrorEntry `json:"errors"`
	// Sanitizer lists the sanitizer's findings (memcheck's out_of_bounds;
	// absent when there are none), SanitizerDropped those beyond 1024.
	Sanitizer        []SanitizerReport `json:"sanitizer,omitempty"`
	SanitizerDropped int               `json:"sanitizer_dropped,omitempty"`
	ErrorsDropped    int               `json:"errors_dropped,omitempty"`
	// Counts is perf_mon's state at the end of the run: pm_events (Events,
	// warp-level pmevent triggers per event 0..15) and pm_counters
	// (Counters, %pm0_64..%pm7_64 as pm.counter.N chose). It is the only
	// source of those keys.
	perfmon.Counts
	// TrapReport is the trap unit's part: traps, breakpoints,
	// interrupts, global_esr (trap_report.go).
	TrapReport
	CTAs          uint64 `json:"ctas"`           // CTAs in the grid
	CTAsLaunched  uint64 `json:"ctas_launched"`  // CTAs that were launched
	CTAsCompleted uint64 `json:"ctas_completed"` // CTAs whose warps all finished
	// RegPool is the per-CTA register pool behind setmaxnreg (regpool.go).
	RegPool *RegPoolReport `json:"regpool"`

	// Metrics are the memory system's counters under their Nsight Compute
	// names (l1tex__..., lts__..., dram__...), with the memory system
	// behind the load/store port (mem.model hier; absent with flat).
	Metrics map[string]float64 `json:"metrics,omitempty"`
}

// WarpReport describes one warp at the end of the run.
type WarpReport struct {
	CTA          [3]uint32         `json:"cta"`
	Warp         int               `json:"warp"` // hardware slot (%warpid)
	WarpInCTA    int               `json:"warp_in_cta"`
	PC           uint32            `json:"pc"`   // next instruction, or the last one of an exited warp
	Line         string            `json:"line"` // "file:line" of PC
	State        string            `json:"state"`
	Instructions uint64            `json:"instructions"`
	Stalls       map[string]uint64 `json:"stalls,omitempty"`
	// ESR is the warp ESR (trap unit; for an exited warp as it exited),
	// ESRDecoded its fields ("none", "reason=2", "error=MISALIGNED_ADDR",
	// ...); TrapState is "handler" (running the trap handler), "paused"
	// (paused in the handler) or "stopped" (stopped by a trap for the
	// host), empty in user mode.
	ESR        uint16 `json:"esr"`
	ESRDecoded string `json:"esr_decoded"`
	TrapState  string `json:"trap_state,omitempty"`
	ctaLinear  uint64
}

// ErrorEntry is one error of the run.
type ErrorEntry struct {
	Kind      string    `json:"kind"`
	Warp      int       `json:"warp"` // slot, -1 when no warp is concerned
	CTA       [3]uint32 `json:"cta"`
	WarpInCTA int       `json:"warp_in_cta"`
	PC        uint32    `json:"pc"`
	Line      string    `json:"line"`
	Source    string    `json:"source"` // the PTX text
	Message   string    `json:"message"`
	Address   *uint64   `json:"address,omitempty"`  // faulting address
	Lane      *int      `json:"lane,omitempty"`     // faulting lane
	Register  *int      `json:"register,omitempty"` // the register concerned (illegal_register, undefined_register)
	// Warning marks an entry that did not stop or fault the warp
	// (setmaxnreg: regpool.strict=false, no effect).
	Warning bool `json:"warning,omitempty"`
}

// lineOf is "file:line" of pc.
func (sm *SM) lineOf(pc uint32) string {
	if int(pc) >= len(sm.im.Lines) {
		return fmt.Sprintf("pc %d", pc)
	}
	l := sm.im.Lines[pc]
	f := "?"
	if int(l.File) < len(sm.im.Files) {
		f = sm.im.Files[l.File]
	}
	return fmt.Sprintf("%s:%d", f, l.Line)
}

func (sm *SM) warpReport(w *warp, st WarpState, pc uint32) WarpReport {
	w.flushStalls(sm.cycle)
	if sm.pt != nil {
		sm.pt.settle(w)
	}
	r := WarpReport{CTA: w.cta.id, Warp: w.slot, WarpInCTA: w.inCTA, PC: pc, Line: sm.lineOf(pc), State: st.String(), Instructions: w.insts, ctaLinear: w.cta.linear}
	sm.warpTrapFields(&r, w)
	for s, n := range w.stalls {
		if n != 0 {
			if r.Stalls == nil {
				r.Stalls = map[string]uint64{}
			}
			r.Stalls[WarpState(s).String()] = n
		}
	}
	return r
}

// recordWarp keeps the report entry of a warp leaving its slot.
func (sm *SM) recordWarp(w *warp, st WarpState) {
	if len(sm.warpLog) >= maxWarpRecords {
		sm.warpOmitted++
		return
	}
	sm.warpLog = append(sm.warpLog, sm.warpReport(w, st, w.lastPC))
}

// Report builds the report of the run so far.
func (sm *SM) Report() *Report {
	r := &Report{
		Status:             sm.status,
		Cycles:             sm.cycle,
		WarpInstructions:   sm.warpInsts,
		ThreadInstructions: sm.threadInsts,
		Buffers:            map[string][]uint32{},
		Warps:              []WarpReport{},
		Stalls:             map[string]uint64{},
		Errors:             append([]ErrorEntry{}, sm.errs...),
		Sanitizer:          append([]SanitizerReport(nil), sm.san...),
		SanitizerDropped:   sm.sanDropped,
		ErrorsDropped:      sm.dropped,
		Counts:             sm.PMCounts(),
		TrapReport:         sm.trapReport(),
		CTAs:               sm.numCTAs,
		CTAsLaunched:       sm.nextCTA,
		CTAsCompleted:      sm.ctasDone,
		RegPool:            sm.rpReport(),
		Metrics:            sm.memMetrics(),
		WarpsOmitted:       sm.warpOmitted,
	}
	if sm.cycle > 0 {
		r.IPC = float64(sm.warpInsts) / float64(sm.cycle)
	}
	if sm.mc.chk.sync {
		r.Sanitizer = append(r.Sanitizer, syncErrors(r.Errors)...)
	}
	for _, b := range sm.bufs {
		if b.alias {
			continue // the buffer it points into is listed
		}
		raw := make([]byte, (b.size+3)&^3)
		sm.global.read(b.addr, raw[:b.size])
		words := make([]uint32, len(raw)/4)
		for i := range words {
			words[i] = binary.LittleEndian.Uint32(raw[4*i:])
		}
		r.Buffers[b.param] = words
	}
	for s := WarpState(0); s < numStates; s++ {
		if s == StateExited {
			continue
		}
		r.Stalls[s.String()] = sm.stalls[s]
	}
	r.Warps = append(r.Warps, sm.warpLog...)
	for _, w := range sm.resident {
		if len(r.Warps) >= maxWarpRecords {
			r.WarpsOmitted++
			continue
		}
		st, pc := sm.shownState(w, StateDrain)
		if sm.stopped && sm.status != StatusCycleLimit && w.state == StateSelected && !w.done {
			st = w.state
		}
		r.Warps = append(r.Warps, sm.warpReport(w, st, pc))
	}
	sort.SliceStable(r.Warps, func(i, j int) bool {
		a, b := r.Warps[i], r.Warps[j]
		if a.ctaLinear != b.ctaLinear {
			return a.ctaLinear < b.ctaLinear
		}
		return a.WarpInCTA < b.WarpInCTA
	})
	return r
}
