// Package warpsched is the warp scheduler of one SM sub-partition, a
// two-phase unit (package rtl) mirroring the Verilog module warp_sched.
//
// The SM instantiates sched.count schedulers; warp slot s belongs to
// scheduler s % sched.count as its local warp s / sched.count. Every cycle
// the SM drives, per local warp, warp_valid_i (resident with live
// threads), warp_ready_i (eligible to issue), warp_long_wait_i (stalled on
// a long-latency event) and warp_launch_i (launched this cycle), plus
// stall_i; Eval selects at most one warp (issue_valid_o, issue_warp_o),
// Tick commits the registers.
//
// Registers: last_q (the warp issued last), greedy_q/greedy_valid_q (GTO's
// warp), active_q (two_level's active set), and the age order: warp_age_q
// holds each warp's launch stamp, taken from next_age_q when
// warp_launch_i is set (several launches in one cycle are stamped in index
// order, which is the SM's launch order). Launch stamps are recorded even
// when stall_i holds the other registers.
//
// Policies (sched.policy):
//
//   - lrr, loose round-robin: the first ready warp after the one issued
//     last, wrapping around.
//   - gto, greedy-then-oldest: keep issuing greedy_q while it is ready;
//     otherwise the ready warp with the smallest launch stamp, which
//     becomes the new greedy warp.
//   - two_level: an active set of at most TwoLevelActive warps, served
//     round-robin after last_q. Warps that stop being valid leave it; an
//     active warp in a long-latency wait (warp_long_wait_i: long_scoreboard,
//     barrier, sleeping) is swapped out for the oldest ready pending warp;
//     vacancies are filled with the oldest ready pending warps. Only active
//     warps issue. The set is updated and used in the same cycle, so a
//     promoted warp can issue at once.
//
// Not modelled: dual issue, per-warp instruction buffers, the operand
// collector and register-bank conflicts, scheduler-to-pipe dispatch
// stalls (the SM folds structural hazards into warp_ready_i), and any
// fairness or starvation counters beyond the policies above.
package warpsched
