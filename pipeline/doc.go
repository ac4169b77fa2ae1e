// Package pipeline is the SM top: one streaming multiprocessor running one
// kernel launch of an assembled image (package isa), cycle by cycle.
//
// # API
//
//	sm, err := pipeline.New(cfg, image, pipeline.Launch{...}) // validates; *LaunchError names the culprit
//	rep, err := sm.Run()                                      // to completion, a trap, a fault, deadlock or run.max_cycles
//	for sm.Step() {}                                          // or one cycle at a time (debuggers)
//	for sm.RunFor(1 << 20) {}                                 // or in slices (progress displays)
//	rep = sm.Report()                                         // the report so far, at any time
//	sm.OnCycle(func(*pipeline.CycleInfo) {...})               // observation hooks (tracing, waveforms)
//	sm.OnIssue(func(*pipeline.IssueInfo) {...})
//	sm.SetHostPolicy("abort", "resume")                       // trap unit host: --on-trap, --on-break (trap.go)
//	sm.SetHostAgent(a); sm.HostCommand(cmd, arg)              // or a host of one's own (debugger): wake, resume, clear ESRs
//	sm.TrapState(), sm.WarpStatus(), sm.WarpRegs(w, false)    // trap unit registers, warps, registers (debuggers)
//	sm.Signals(), sm.Schedulers()                             // the units' signal table and state, for tracers
//	sm.WarpSlot(cta, w), sm.ReservedSmem(), sm.BufferAddr(p)  // what a reference needs to know
//
// Launch gives the entry, the grid, block and cluster shapes, dynamic
// shared memory, scalar arguments and buffers by PTX parameter name, and
// optionally MaxNReg, the per-thread register budget (ptxas
// -maxrregcount) that setmaxnreg starts from.
//
// Report carries the status, cycles, instruction counts, IPC, every bound
// buffer's final words, warp-cycles per warp state, every warp's final
// state and the errors (faults with address and lane, traps, uniform
// violations, warp-synchronous misuse, deadlock diagnostics).
//
// # What is modelled
//
// Functional execution happens at issue, in the order the schedulers pick
// instructions, so results are deterministic; timing decides when each
// warp may issue.
//
//   - Threads: per-thread PC, call depth, frame pointer and return stack;
//     32-bit registers (64-bit values in pairs) and predicates, stored per
//     warp lane-contiguously. Arithmetic goes through package alu (SHF, SAD
//     and BFIND are implemented here while alu lacks them).
//   - SIMT: each cycle a warp's active group is its live, unblocked threads
//     of the maximum call depth at the minimum PC among them (seed 004
//     control flow). Divergent bra, brx.idx, call and ret reconverge by
//     themselves; a divergent ret waits for the deeper threads; threads
//     leaving a loop wait at the higher PC. Guarded instructions act on
//     group and guard. .uni branches whose threads disagree are reported
//     ("uniform_violation") and execute divergently.
//   - Barriers (bar.sync / bar.arrive / bar.red, ids 0..15): arrivals are
//     counted per thread; a thread that arrives with sync or red blocks and
//     leaves its warp's active group, so a warp whose threads reach the
//     barrier along different paths (the tree-reduction loop shape) arrives
//     with every thread. A barrier with the default count completes when
//     every live thread of the CTA has arrived: exited threads count as
//     arrived (seed 004); with a thread count it also completes once that
//     many threads arrived. Waiters resume lat.barrier cycles after the
//     completing arrival; bar.red gives each waiter the reduction. A
//     thread that arrived (bar.arrive) and then exited counts once.
//   - setmaxnreg and the per-CTA register pool (regpool.go, the reg_pool
//     unit of package regpool, docs/reg-pool.md): the launch count is
//     Launch.MaxNReg (--maxnreg), else the kernel's .maxnreg, else its
//     register count, rounded to regpool.alloc_granularity; every warp
//     starts with it and the pool empty. A warp executing setmaxnreg is
//     held until its warpgroup (4 contiguous warps) has arrived; .dec
//     returns registers to the pool, .inc blocks (state "regpool") until
//     the pool holds the warpgroup's request. Undefined behaviour
//     (NOT_ALL_WARPS, NO_SYNC_BETWEEN, DEC_ABOVE, INC_BELOW, PARTIAL_WARP)
//     is a SETMAXNREG_UB warp error (kind "setmaxnreg") under
//     regpool.strict, else a warning; without a valid maximum register
//     count setmaxnreg has no effect (one warning). An instruction naming a
//     register at or above the warp's count is an ILLEGAL_REGISTER warp
//     error; reading a register obtained by .inc before writing it is a
//     warning ("undefined_register"; a SETMAXNREG_UB warp error under
//     regpool.strict). An .inc that can never be satisfied, or warps
//     waiting at barriers and setmaxnreg for each other, end the run
//     "deadlock". The report's "regpool" gives each CTA's pool size, free
//     registers at the end, high-water mark and each warp's final count
//     and cycles blocked in .inc.
//   - Memory: flat global memory of sm.global_bytes (pages allocated on
//     first store; the page below isa.GlobalDataBase is unmapped so null
//     pointers fault), .global data at isa.GlobalDataBase, bound buffers
//     after it (256-byte aligned); per-CTA shared memory (static variables,
//     then the dynamic segment at DynamicSharedBase, the whole rounded up to
//     sm.smem_alloc_unit); per-thread local memory of sm.local_bytes;
//     the read-only parameter buffer and .const bank; generic addresses
//     through the shared and local windows. Out-of-range, misaligned
//     (address % element size) and read-only accesses fault precisely: every
//     lane is checked before anything is written. Atomics are performed lane
//     by lane. A launch may run over a host program's memory kept between
//     launches (Launch.Memory; package device).
//   - Sanitizer (sanitize.go, sancheck.go): memcheck, always on, faults
//     an access outside every allocation of its space ("out_of_bounds")
//     or misaligned ("misaligned") with a Report.Sanitizer record; the
//     optional checks of Launch.Checks report uninitialized reads,
//     shared and global races within a CTA and divergent barriers.
//   - Calls: CALL pushes (PC+1, FP) per thread and advances FP by the
//     frame field; a frame beyond sm.local_bytes is a "stack_overflow"
//     fault; indirect calls must hit a function entry ("bad_call_target").
//   - Timing: per-class latencies (config.Lat) from issue to result, a
//     per-warp scoreboard on registers and predicates (RAW and WAW), one
//     issue per scheduler per cycle, one instruction per warp per cycle,
//     lat.branch after every control-flow instruction (branch_resolving)
//     and lat.fetch after a jump or at launch (no_instruction),
//     mem.global_ports global/local memory instructions per cycle
//     (lg_throttle), membar waiting for the warp's outstanding memory
//     operations, nanosleep (the clock_timer unit: one duration per warp
//     from the smallest t of the executing lanes, sleep.mode exact or
//     uniform, at most 1 ms, all threads of the warp wake together; the
//     warp is "sleeping" while its sleeping_o bit is set), exited warps
//     draining their stores before their slot frees.
//   - Schedulers: sched.count warpsched units (lrr, gto, two_level); warp
//     slot s belongs to scheduler s % sched.count. Each cycle the SM
//     computes every warp's state from the registers, evaluates the
//     schedulers in an order rotating with the cycle (a port chain shares
//     mem.global_ports among them), accounts the states, calls the OnCycle
//     hooks, then executes the selected instructions and ticks the
//     schedulers.
//   - Warp states (Nsight Compute names): selected, not_selected, wait,
//     short_scoreboard, long_scoreboard, barrier, sleeping,
//     branch_resolving, no_instruction, membar, drain, lg_throttle, misc;
//     besides them regpool (setmaxnreg.inc), paused and trapped (the trap
//     unit), cp_async (at cp.async.wait_group/wait_all) and mbarrier
//     (suspended in mbarrier.try_wait), named after what they wait on as
//     membar and barrier are; exited warps are not counted; "idle" counts empty slots, so the
//     per-SM counts sum to cycles x sm.max_warps.
//   - CTAs: as many resident as sm.max_warps, sm.max_ctas, the register file
//     (per-thread count rounded to regpool.alloc_granularity, per warp to
//     sm.reg_alloc_unit) and shared memory (user region plus
//     sm.reserved_smem_bytes) allow; larger grids run in waves, each new
//     CTA taking the lowest free warp slots (%warpid = slot).
//   - Special registers: everything of seed 003 (see sreg.go; the reserved
//     shared-memory region sits right after the CTA's user region, see
//     ReservedSmem); %clock, %clock_hi, %clock64 and %globaltimer* are the
//     outputs of the clock_timer unit, %pmN and %pmN_64 those of perf_mon
//     (counting what pm.counter.N says, pmevent once per warp-level
//     execution); SR_GLOBAL_ESR and SR_WARP_ESR read the trap unit's
//     s2r_global_esr_o (BPT_INT reads 0) and warp_esr_o. The report embeds
//     perfmon.Counts (pm_events, pm_counters). See units.go and
//     docs/clock-timer.md.
//   - The trap unit (package trapunit, trap.go, docs/trap-unit.md): BPT.*,
//     IDE.EN/DIS, RTT, PTX trap (warp error ASSERT_TRAP) and brkpt
//     (BPT.TRAP 1), and every fault of the model as a precise warp error
//     (the saved PC is the next instruction), with per-warp and global
//     ESRs. A trap takes every live warp into the trap handler .func
//     (trap.handler), which runs on a context of its own (the user context
//     comes back at RTT); without a handler the warps stop where they are.
//     BPT.DRAIN holds the warp until its earlier instructions completed;
//     paused warps issue nothing ("paused"; "trapped" when stopped by a
//     trap); launches wait while the SM is trapped. A host agent (the batch
//     trapunit.Host of --on-trap/--on-break, or a debugger) acknowledges
//     interrupts and decides when every live warp has stopped. The report
//     adds traps, breakpoints, interrupts, global_esr and each warp's esr.
//   - Run control: with the default host, a trap or breakpoint ends the run
//     "trapped" (error kind "trap" / "breakpoint"), a warp error "fault"
//     (PTX trap: "trapped") at the faulting instruction; when every live
//     warp waits at a barrier that
//     cannot complete the run stops "deadlock" listing each warp's state, PC
//     and line; run.watchdog_cycles without an issue also reports a
//     deadlock; run.max_cycles stops it "cycle_limit". Run skips stretches
//     of cycles in which no warp can issue (same result as stepping) unless
//     an OnCycle hook is registered.
//
// # What is not modelled (yet)
//
//   - The trap unit's memory-system side: every memory error is found at
//     issue (no late L1 errors), and the PRI registers of a real GPU (host
//     commands stand for them).
//   - Where a warp's registers sit in the register file (setmaxnreg moves
//     counts only) and the contents of registers a warp gives back and
//     obtains again (they keep their values; reading one is reported).
//   - Caches, memory coalescing, bank conflicts, DRAM bandwidth: every
//     access of a space takes that space's latency; a warp instruction uses
//     one memory port.
//   - Dual issue, operand collectors, register-bank conflicts, pipe
//     throughput limits other than one issue per scheduler.
//   - Clusters beyond their special registers (no distributed shared
//     memory, no co-scheduling), multiple SMs, graphs, preemption.
//   - Warp-synchronous instructions (vote, shfl, redux, match, elect,
//     bar.warp.sync) execute
//     for the executing lanes; member-mask lanes that are live but not
//     converged are reported ("warp_sync"), not waited for.
package pipeline
