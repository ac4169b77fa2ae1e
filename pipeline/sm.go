package pipeline

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/unitcfg"
	"github.com/smsim/smsim/warpsched"
)

// Run statuses (Report.Status).
const (
	StatusRunning    = "running"
	StatusCompleted  = "completed"
	StatusTrapped    = "trapped"
	StatusFault      = "fault"
	StatusDeadlock   = "deadlock"
	StatusCycleLimit = "cycle_limit"
)

// maxErrors bounds Report.Errors (non-fatal errors beyond it are counted).
const maxErrors = 256

// maxWarpRecords bounds Report.Warps (warps beyond it are counted).
const maxWarpRecords = 4096

// maxCallDepth bounds a thread's return stack.
const maxCallDepth = 1 << 16

// maxSlotLog bounds the recorded warp-slot map (SM.WarpSlot).
const maxSlotLog = 1 << 22

// SM is one streaming multiprocessor running one launch.
type SM struct {
	cfg    config.Config
	lat    latTable // cfg.Lat by latency class
	im     *isa.Image
	kern   *isa.Kernel
	launch Launch
	code   []dinst
	funcAt []int32 // pc -> index into im.Funcs of the function starting there, or -1

	global     *globalMem
	param      []byte
	constBank  []byte            // the .const bank: the image's, or a copy with Launch.Vars in it
	allocs     []Allocation      // global allocations, by address (sanitize.go)
	mc         memcheck          // the other spaces' allocations (sanitize.go)
	san        []SanitizerReport // sanitizer findings
	sanDropped int
	bufs       []boundBuf

	grid, block, cluster [3]uint32
	explicitCluster      bool
	threadsPerCTA        int
	warpsPerCTA          int
	numCTAs              uint64
	nextCTA              uint64
	ctasDone             uint64
	regsPerThread        int
	regsPerWarp          int
	smemSize             int // the CTA's user region: static + dynamic, rounded to sm.smem_alloc_unit
	totalSmem            int // %total_smem_size
	reservedSmem         int
	maxResident          int // CTAs resident at once
	carveout             int // mem.model hier: the shared-memory carveout of the unified L1 (pickCarveout)

	slots    []*warp // by slot; nil when free
	pool     []*warp // warp objects by slot, reused
	resident []*warp // occupied slots in slot order
	draining []*warp
	ctas     []*cta
	ctaPool  []*cta
	nLive    int // resident warps with live threads
	nBarWait int // warps blocked at a barrier not yet released

	scheds    []*warpsched.Sched
	schedIn   []warpsched.Inputs
	readyPort []rtl.Bits
	chosen    []int32 // per scheduler: the slot it issues this cycle, -1: none
	// The issue stages' classification (issue.go): when each warp must
	// be classified again (timers.go), the warps in each state,
	// sleeping_o at the last classification, and the persistent ready
	// vectors (eligible warps, by scheduler; readyPort: those whose
	// instruction needs a memory port).
	tm         timers
	hist       [numStates]uint64
	prevAsleep uint64
	readyBase  []rtl.Bits
	// schedWords is the number of rtl.Bits words a scheduler's warps
	// occupy (the SM clears and merges only those).
	schedWords int
	issOut     []IssueOutputs // the issue stages' outputs, by scheduler
	wb         writeback      // the writeback stages
	lsu        lsu            // the load/store stages' requests, for the hooks
	mp         *memPort       // the memory port (mem.model hier; nil: flat)
	pt         *pipeThrottle  // the execution pipes' throughput (pipe.throttle; nil: off)

	cycle     uint64
	lastIssue uint64
	status    string
	stopped   bool
	errs      []ErrorEntry
	dropped   int

	warpInsts   uint64
	threadInsts uint64
	stalls      [numStates]uint64

	warpLog     []WarpReport
	warpOmitted int
	slotLog     []uint16

	hooks     []func(*CycleInfo)
	issueHook []func(*IssueInfo)
	info      CycleInfo
	unitIn    UnitInputs // the last cycle's unit inputs, with a hook (CycleInfo.Units)
	unitInOK  bool
	trap      trapState      // trap_unit and the trap handler (trap.go)
	u         units          // clock_timer and perf_mon (units.go)
	rp        rpUnit         // reg_pool (regpool.go)
	refs      [32 * 4]memRef // scratch: one instruction's resolved accesses
	opA, opB  [32]uint64     // scratch: ALU operands
	opC, opD  [32]uint64
}

// New validates the configuration, the image and the launch, and returns an
// SM ready to run. A problem with the launch is a *LaunchError naming the
// culprit.
func New(cfg config.Config, im *isa.Image, l Launch) (*SM, error) {
	if err := cfg.Validate(); err != nil {
		return nil, &LaunchError{Field: "config", Msg: "invalid configuration: " + err.Error(), Err: err}
	}
	if _, err := cfg.PMCounters(); err != nil {
		return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
	}
	if im == nil {
		return nil, lerr("image", "no image")
	}
	if err := im.Validate(); err != nil {
		return nil, &LaunchError{Field: "image", Msg: "malformed image: " + err.Error(), Err: err}
	}
	k, ok := im.Kernel(l.Entry)
	if !ok {
		var names []string
		for _, k := range im.Kernels {
			names = append(names, k.Name)
		}
		list := "the image has no kernels"
		if len(names) > 0 {
			list = "entries: " + strings.Join(names, ", ")
		}
		return nil, lerr("entry", "unknown entry %q (%s)", l.Entry, list)
	}
	sm := &SM{cfg: cfg, im: im, kern: k, launch: l, status: StatusRunning, lat: newLatTable(cfg.Lat)}
	if err := sm.initUnits(); err != nil {
		return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
	}
	cluster, explicit, err := sm.validateShape(k, &l)
	if err != nil {
		return nil, err
	}
	sm.grid, sm.block, sm.cluster, sm.explicitCluster = l.Grid, l.Block, cluster, explicit
	sm.threadsPerCTA = int(l.Block[0] * l.Block[1] * l.Block[2])
	sm.warpsPerCTA = (sm.threadsPerCTA + 31) / 32
	sm.numCTAs = uint64(l.Grid[0]) * uint64(l.Grid[1]) * uint64(l.Grid[2])
	c := &cfg.SM

	// Registers. The launch count (setmaxnreg's starting point) is
	// --maxnreg (Launch.MaxNReg), else the kernel's .maxnreg, else its
	// register count; the first two are a valid maximum register count.
	regs := int(k.Regs)
	nregValid := l.MaxNReg != 0 || k.MaxNReg != 0
	switch {
	case l.MaxNReg != 0:
		if int(l.MaxNReg) < regs {
			return nil, lerr("regs", "kernel %s needs %d registers per thread; MaxNReg %d is fewer", k.Name, regs, l.MaxNReg)
		}
		regs = int(l.MaxNReg)
	case k.MaxNReg != 0:
		if int(k.MaxNReg) < regs {
			return nil, lerr("regs", "kernel %s needs %d registers per thread, more than its .maxnreg %d", k.Name, regs, k.MaxNReg)
		}
		regs = int(k.MaxNReg)
	}
	g := max(cfg.RegPool.AllocGranularity, 1)
	alloc := (regs + g - 1) / g * g
	if alloc > c.MaxRegsPerThread {
		return nil, lerr("regs", "kernel %s needs %d registers per thread (allocated %d); the SM allows %d (sm.max_regs_per_thread)", k.Name, regs, alloc, c.MaxRegsPerThread)
	}
	if int(k.Preds) > c.MaxPreds {
		return nil, lerr("regs", "kernel %s needs %d predicate registers; the SM has %d (sm.max_preds)", k.Name, k.Preds, c.MaxPreds)
	}
	sm.regsPerThread = alloc
	sm.regsPerWarp = (alloc*32 + c.RegAllocUnit - 1) / c.RegAllocUnit * c.RegAllocUnit
	if sm.warpsPerCTA > c.MaxWarps {
		return nil, lerr("block", "a CTA of %d threads needs %d warps; the SM holds %d (sm.max_warps)", sm.threadsPerCTA, sm.warpsPerCTA, c.MaxWarps)
	}
	if need := sm.regsPerWarp * sm.warpsPerCTA; need > c.Regfile {
		return nil, lerr("regs", "a CTA needs %d registers (%d warps x %d); the register file has %d (sm.regfile)", need, sm.warpsPerCTA, sm.regsPerWarp, c.Regfile)
	}
	// Local memory.
	if int(k.LocalBytes) > c.LocalBytes {
		return nil, lerr("local", "kernel %s's frame needs %d bytes of local memory per thread; the SM gives %d (sm.local_bytes)", k.Name, k.LocalBytes, c.LocalBytes)
	}
	// Shared memory.
	static := int(im.SharedBytes)
	user := static + int(l.DynamicSmem)
	if user > c.MaxSmemPerCTA {
		return nil, lerr("dynamic_smem", "the CTA needs %d bytes of shared memory (%d static + %d dynamic); the limit is %d (sm.max_smem_per_cta)", user, static, l.DynamicSmem, c.MaxSmemPerCTA)
	}
	unit := max(c.SmemAllocUnit, 1)
	sm.reservedSmem = c.ReservedSmemBytes
	// The CTA's user region: the static variables, then the dynamic
	// segment at DynamicSharedBase, rounded up to the allocation unit as the
	// hardware allocates it (accesses inside the rounding do not fault).
	// %total_smem_size is that allocation (seed 003: "total size of shared
	// memory allocated (statically and dynamically ...) for the CTA",
	// "returned in multiples of shared memory allocation unit size"), so
	// the reserved region starts where it ends and ends at
	// %aggr_smem_size.
	sm.smemSize = (int(im.DynamicSharedBase()) + int(l.DynamicSmem) + unit - 1) / unit * unit
	sm.totalSmem = sm.smemSize
	if alloc := sm.smemSize + sm.reservedSmem; alloc > c.SmemBytes {
		return nil, lerr("dynamic_smem", "the CTA needs %d bytes of shared memory including %d reserved; the SM has %d (sm.smem_bytes)", alloc, sm.reservedSmem, c.SmemBytes)
	}
	// Resident CTAs.
	n := min(c.MaxCTAs, c.MaxWarps/sm.warpsPerCTA)
	if r := sm.regsPerWarp * sm.warpsPerCTA; r > 0 {
		n = min(n, c.Regfile/r)
	}
	if a := sm.smemSize + sm.reservedSmem; a > 0 {
		n = min(n, c.SmemBytes/a)
	}
	if n < 1 {
		return nil, lerr("block", "not even one CTA fits the SM")
	}
	if cfg.Mem.Model == config.MemHier {
		if n, err = sm.pickCarveout(cfg.L1, n); err != nil {
			return nil, err
		}
	}
	sm.maxResident = n
	if err := sm.initRegPool(regs, nregValid); err != nil {
		return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
	}

	// Memory and parameters.
	sm.global = newGlobalMem(c.GlobalBytes)
	sm.param = make([]byte, k.ParamBytes)
	if err := sm.buildParams(k, &l); err != nil {
		return nil, err
	}
	sm.initAllocations()

	// Code.
	sm.funcAt = make([]int32, len(im.Code)+1)
	for i := range sm.funcAt {
		sm.funcAt[i] = -1
	}
	for i, f := range im.Funcs {
		if int(f.PC) < len(sm.funcAt) {
			sm.funcAt[f.PC] = int32(i)
		}
	}
	// The trap unit; the trap handler's code decodes for its own bank.
	nregs, npreds, err := sm.initTrap(int(k.Regs), int(k.Preds))
	if err != nil {
		return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
	}
	dc := decoder{im: im, nregs: nregs, npreds: npreds}
	sm.code = make([]dinst, len(im.Code))
	for pc, in := range im.Code {
		d := dc.decode(in)
		d.pipe = uint8(pipethrottle.NumPipes)
		if d.cat == catALU {
			d.pipe = uint8(pipethrottle.Classify(&d.in))
		}
		d.mpath = memPathOf(&d)
		sm.code[pc] = d
	}

	// Warp slots and schedulers.
	sm.slots = make([]*warp, c.MaxWarps)
	sm.pool = make([]*warp, c.MaxWarps)
	nsched := cfg.Sched.Count
	wp, err := unitcfg.WarpSched(cfg)
	if err != nil {
		return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
	}
	for s := 0; s < nsched; s++ {
		u, err := warpsched.New(wp)
		if err != nil {
			return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
		}
		sm.scheds = append(sm.scheds, u)
	}
	sm.schedIn = make([]warpsched.Inputs, nsched)
	sm.schedWords = rtl.Words(wp.NumWarps)
	sm.readyPort = make([]rtl.Bits, nsched)
	sm.readyBase = make([]rtl.Bits, nsched)
	sm.tm.init(c.MaxWarps)
	sm.chosen = make([]int32, nsched)
	for s := range sm.chosen {
		sm.chosen[s] = -1
	}
	sm.issOut = make([]IssueOutputs, nsched)
	sm.idleIssueOutputs()
	sm.wb.init(nsched)
	sm.lsu.out = make([]LSUOutputs, nsched)
	if cfg.Pipe.Throttle {
		if err := sm.initPipeThrottle(); err != nil {
			return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
		}
	}
	if cfg.Mem.Model == config.MemHier {
		if err := sm.initMemPort(); err != nil {
			return nil, &LaunchError{Field: "config", Msg: err.Error(), Err: err}
		}
	}
	if sm.numCTAs <= maxSlotLog/uint64(sm.warpsPerCTA) {
		sm.slotLog = make([]uint16, sm.numCTAs*uint64(sm.warpsPerCTA))
	}
	sm.info.States = make([]WarpState, c.MaxWarps)
	return sm, nil
}

// Config returns the configuration the SM runs with.
func (sm *SM) Config() config.Config { return sm.cfg }

// Image returns the program.
func (sm *SM) Image() *isa.Image { return sm.im }

// Cycle is the number of cycles simulated so far.
func (sm *SM) Cycle() uint64 { return sm.cycle }

// Status is the run status: "running" until the run ends.
func (sm *SM) Status() string { return sm.status }

// Done reports whether the run has ended.
func (sm *SM) Done() bool { return sm.stopped }

// WarpSlot returns the hardware warp slot (%warpid) that warp warpInCTA of
// the CTA with linear index cta ran in, once that CTA has been launched.
func (sm *SM) WarpSlot(cta, warpInCTA int) (uint32, bool) {
	i := cta*sm.warpsPerCTA + warpInCTA
	if cta < 0 || warpInCTA < 0 || warpInCTA >= sm.warpsPerCTA || i >= len(sm.slotLog) || uint64(cta) >= sm.nextCTA {
		return 0, false
	}
	return uint32(sm.slotLog[i]), true
}

// BufferAddr returns the global address of the buffer bound to param.
func (sm *SM) BufferAddr(param string) (uint64, bool) {
	for _, b := range sm.bufs {
		if b.param == param {
			return b.addr, true
		}
	}
	return 0, false
}

// BufferBytes returns the current contents of the buffer bound to param
// (for a parameter bound into another's buffer, from its address to that
// buffer's end).
func (sm *SM) BufferBytes(param string) ([]byte, bool) {
	for _, b := range sm.bufs {
		if b.param == param {
			out := make([]byte, b.size)
			sm.global.read(b.addr, out)
			return out, true
		}
	}
	return nil, false
}

// ReadGlobal copies global memory at addr into b (zeros outside the
// memory).
func (sm *SM) ReadGlobal(addr uint64, b []byte) {
	clear(b)
	if addr >= sm.global.size {
		return
	}
	n := min(uint64(len(b)), sm.global.size-addr)
	sm.global.read(addr, b[:n])
}

// Run steps the SM until the run ends (completion, trap, fault, deadlock
// or the cycle limit) and returns the report. Stretches of cycles in which
// no warp can issue are skipped in one step when no OnCycle hook is
// registered; the result is identical to stepping cycle by cycle.
//
// The error is reserved for failures of the simulator itself (there are
// none today); what happens to the kernel is in the report's status and
// errors.
func (sm *SM) Run() (*Report, error) {
	for sm.RunFor(1 << 62) {
	}
	return sm.Report(), nil
}

// RunFor advances the run by at most n cycles, skipping idle stretches
// as Run does, and reports whether the run goes on (for progress displays
// and debuggers that want more than one Step at a time).
func (sm *SM) RunFor(n uint64) bool {
	end := sm.cycle + n
	if end < sm.cycle {
		end = never
	}
	for !sm.stopped && sm.cycle < end {
		sm.skipIdle(end - 1)
		sm.Step()
	}
	return !sm.stopped
}

// Step simulates one cycle. It returns false once the run has ended (then
// it does nothing).
func (sm *SM) Step() bool {
	if sm.stopped {
		return false
	}
	c := sm.cycle
	// Clock edge events: drained warps leave, finished CTAs free their
	// resources, new CTAs launch.
	sm.retire()
	sm.launchCTAs()
	if sm.nextCTA == sm.numCTAs && len(sm.resident) == 0 {
		sm.finish(StatusCompleted)
		return false
	}

	// always_comb, in dependency order: the writeback stages, then the
	// issue stages (the scoreboard and the warp schedulers).
	sm.wb.eval(c)
	first := sm.evalIssue(c)
	// The hooks sample the cycle (the issue stages' outputs are computed
	// for them only: nothing in the SM reads them).
	if len(sm.hooks)+len(sm.issueHook) > 0 {
		sm.setIssueOutputs()
	}
	if len(sm.hooks) > 0 {
		sm.observe()
	}
	// always_ff.
	issued := sm.tick(c, first)
	if issued {
		sm.lastIssue = c
	}
	sm.cycle++
	if sm.stopped {
		return false
	}
	sm.checkEnd(issued)
	return !sm.stopped
}

// checkEnd detects deadlock, the watchdog and the cycle limit.
func (sm *SM) checkEnd(issued bool) {
	if !issued && sm.nLive > 0 && sm.nBarWait+sm.rp.nHeld == sm.nLive && len(sm.draining) == 0 && !sm.rp.pending() && sm.rpStuck() {
		if sm.rp.nHeld == 0 {
			sm.deadlock("every live warp waits at a barrier that cannot complete")
		} else {
			sm.deadlock("every live warp waits at a barrier or a setmaxnreg that cannot complete: " + sm.heldMessage())
		}
		return
	}
	if wd := sm.cfg.Run.WatchdogCycles; wd > 0 && sm.cycle-sm.lastIssue > wd && sm.nLive > 0 {
		sm.deadlock(fmt.Sprintf("watchdog: no warp issued for %d cycles (run.watchdog_cycles)", wd))
		return
	}
	if m := sm.cfg.Run.MaxCycles; m > 0 && sm.cycle >= m {
		sm.addError(ErrorEntry{Kind: "cycle_limit", Warp: -1, Message: fmt.Sprintf("the run reached run.max_cycles=%d", m)})
		if sm.trapped() {
			sm.finish(StatusTrapped) // the SM is in a trap (docs/trap-unit.md)
			return
		}
		sm.finish(StatusCycleLimit)
	}
}

func (sm *SM) finish(status string) {
	if sm.stopped {
		return
	}
	sm.status = status
	sm.stopped = true
}

func (sm *SM) deadlock(why string) {
	var parts []string
	for _, w := range sm.resident {
		if w.done {
			continue
		}
		pc := w.gpc
		if w.gmask == 0 {
			pc = w.lastPC
		}
		parts = append(parts, fmt.Sprintf("warp %d (cta %d,%d,%d warp %d) %s at pc %d %s", w.slot, w.cta.id[0], w.cta.id[1], w.cta.id[2], w.inCTA, sm.warpState(w, sm.cycle), pc, sm.lineOf(pc)))
	}
	sort.Strings(parts)
	sm.addError(ErrorEntry{Kind: "deadlock", Warp: -1, Message: why + ": " + strings.Join(parts, "; ")})
	sm.finish(StatusDeadlock)
}

// addError appends a report error (bounded).
func (sm *SM) addError(e ErrorEntry) {
	if len(sm.errs) >= maxErrors {
		sm.dropped++
		return
	}
	sm.errs = append(sm.errs, e)
}

// errorAt builds an error entry for warp w at pc.
func (sm *SM) errorAt(kind string, w *warp, pc uint32, msg string) ErrorEntry {
	_, text := sm.im.Where(pc)
	e := ErrorEntry{Kind: kind, Warp: -1, PC: pc, Line: sm.lineOf(pc), Source: text, Message: msg}
	if w != nil {
		e.Warp = w.slot
		e.CTA = w.cta.id
		e.WarpInCTA = w.inCTA
	}
	return e
}

// stop ends the run at warp w's instruction with status and an error.
func (sm *SM) stop(status string, e ErrorEntry) {
	sm.addError(e)
	sm.finish(status)
}

// IsLaunchError reports whether err is a *LaunchError.
func IsLaunchError(err error) bool {
	var le *LaunchError
	return errors.As(err, &le)
}
