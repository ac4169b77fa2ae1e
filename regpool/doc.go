// Package regpool is the per-CTA register pool behind setmaxnreg, a
// two-phase unit (package rtl) mirroring the Verilog module reg_pool
// (instance sm_top.u_reg_pool). docs/reg-pool.md is the full description:
// ports, cycle behaviour, the seed sentence behind each behaviour and the
// integration contract with the pipeline.
//
// What it models (seeds 000 and 001, setmaxnreg):
//
//   - At CTA launch the CTA gets launchCount x 32 registers per warp,
//     launchCount being the launch's per-thread count rounded up to
//     regpool.alloc_granularity; every warp owns launchCount per thread and
//     the pool is empty.
//   - setmaxnreg.sync.aligned is a warpgroup rendezvous: the unit acts
//     when all warps of the warpgroup (four contiguous warps of the CTA,
//     warp-in-CTA / 4) have arrived at the same setmaxnreg (same PC, count
//     and action). .dec returns (current - count) x 32 registers per warp to
//     the pool; .inc blocks until (count - current) x 32 x warps are free,
//     then takes them. Registers change at the tail of each warp's register
//     file; the release records carry the old and new counts so that the
//     pipeline can mark the new registers undefined.
//   - A single allocator grants at most one blocked .inc per cycle, CTAs
//     round-robin. Registers released by a .dec reach the pool at the end
//     of the cycle, so an .inc waiting for them proceeds the cycle after.
//   - Undefined behaviour is detected and reported (ub_*): a warp of the
//     warpgroup that exits or reaches a different setmaxnreg, a second
//     setmaxnreg without an explicit synchronization of the warpgroup in
//     between, .dec above or .inc below the current count, execution by a
//     subset of the warp's threads. The unit only reports; the pipeline
//     faults (regpool.strict) or warns.
//   - A kernel launched without a valid maximum register count: every
//     setmaxnreg completes without changing anything (rel_noeffect_o).
//   - Deadlock support: whether some warpgroup is blocked in .inc, and
//     whether a blocked request can never be satisfied.
//   - Statistics: pool size, free registers, registers used from the pool
//     and their high-water mark per CTA, each warp's count and its cycles
//     blocked in .inc.
//
// Not modelled: where in the physical register file a warp's registers
// live (only counts are tracked; fragmentation cannot occur), register
// reuse across CTAs, returning an exited warp's registers to the pool
// before its CTA exits, and any latency of the allocation beyond the
// one-cycle visibility of released registers. Checking the count's range
// (24..256, a multiple of 8) is the assembler's and the pipeline's job; the
// unit flags a bad count as a protocol error.
package regpool
