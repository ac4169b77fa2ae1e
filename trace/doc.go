// Package trace dumps an SM's run as a VCD waveform, and writes the
// GTKWave save file that opens it grouped and formatted.
//
//	tr, err := trace.Attach(sm, f, trace.Options{})  // after pipeline.New, before Run
//	rep, err := sm.Run()
//	err = tr.Close()                                 // then close f
//	err = trace.WriteGTKW(trace.SavePath(path), path, trace.Options{})
//
// # What is dumped
//
// Tracing hangs off the SM's observation hooks (OnCycle, OnIssue): the
// model has no tracing code, and an SM without a Tracer pays nothing. A
// Tracer samples every cycle in the window and writes a signal only when
// it changes. Scopes follow the Verilog instance paths of the SM top, so a
// Go waveform and a Verilator waveform of the same unit can be compared
// scope by scope (vcd.Diff, smsim vcddiff):
//
//   - sm_top: clk_i, rst_ni, done_o, status_o (the run status);
//   - sm_top.g_warp[N], every warp slot: valid_q, pc_q, active_mask_q,
//     state_q (the Nsight warp state, pipeline.WarpState), stall_reason_q
//     (its stall class, perf_mon's stall_count_i index), esr_q (the warp
//     ESR, trap_unit's warp_esr_q), nreg_q;
//   - sm_top.u_issue_N, the issue stage of sub-partition N (the model
//     executes at issue): issue_valid_o, issue_warp_o (slot), issue_pc_o,
//     issue_op_o (opcode), issue_mask_o, issue_exec_o (guard-true lanes);
//   - sm_top.u_writeback_N: wb_valid_o, wb_warp_o, wb_pc_o, wb_count_o,
//     in the cycle an instruction's destination registers become
//     available;
//   - sm_top.u_warp_sched_N: the warp scheduler's own signal table
//     (warpsched: every input, output and register);
//   - sm_top.u_clock_timer (outputs and registers), sm_top.u_perf_mon
//     (outputs: pm_o, event_count_o), sm_top.u_trap_unit (outputs and
//     registers): the units' own signal tables;
//   - sm_top.u_reg_pool: cta_free_q and cta_high_water_q (the per-CTA
//     free count and high-water mark of the register pool);
//   - sm_top.u_barrier.g_cta[K] (CTA slot K: valid_q, cta_id_q) and
//     .g_bar[B] (named barrier B: arrived_q, expected_q, waiting_q).
//
// An enum signal (state_q, stall_reason_q, issue_op_o, status_o) has a
// GTKWave string companion named <name>_str that holds the value's name;
// the companions are Go-only (a Verilator dump has none; vcd.Diff skips
// signals found in one file only).
//
// The names come from one source each: a unit's signal table (its sv
// struct tags, rtl.Signals), or, for the scopes without a Go unit, the
// tagged observation structs of this package. Tracer.Signals lists
// them.
//
// # Time
//
// One SM cycle is 10 units of 100 ps, so GTKWave's nanoseconds are cycle
// numbers: cycle c's rising clock edge is at time 10c, its falling edge
// at 10c+5. Every signal changes at the rising edge; the issue stage's
// guard masks and trap_unit's outputs are those of the cycle's end. rst_ni
// is low in the first half of cycle 0. When the run ends inside the
// window, the cycle it ended at shows the final state (done_o set) and the
// clock runs on for TailCycles more cycles.
//
// # Cost
//
// The hooks, on the SM's goroutine, only copy each cycle's signals into a
// compact frame; worker goroutines turn runs of frames into VCD text
// (vcd.Chunk) and append it to the file in order, so the output does not
// depend on the number of workers. Observing does not change how the SM
// steps (it still skips idle stretches, showing each skipped cycle to the
// hooks); bench/trace/run.sh measures the cost.
//
// # Not dumped
//
// perf_mon's registers (equal to its outputs), the register pool's other
// state (too large to copy every cycle), register and memory contents, and
// anything between two cycles' observation points. The inputs the SM
// drives into trap_unit, clock_timer, perf_mon and reg_pool are dumped:
// they are driven while the issued instructions execute, after the
// observation point, so they show with the end of their cycle, as
// trap_unit's outputs do (CycleInfo.Units).
package trace
