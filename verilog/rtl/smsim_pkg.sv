// Shared types and encodings of the smsim RTL units.
//
// The encodings here are what the Go model's configuration strings map to
// when a unit is built for cosimulation (package cosim); a Go test parses
// this file and fails when the two disagree.
package smsim_pkg;

  // Warp-scheduling policy (config sched.policy), the Policy parameter of
  // warp_sched. An int parameter rather than the enum type, so that
  // `verilator -GPolicy=N` and Yosys `chparam -set Policy N` can set it.
  typedef enum int unsigned {
    SchedPolicyLrr      = 0,  // "lrr": loose round-robin
    SchedPolicyGto      = 1,  // "gto": greedy-then-oldest
    SchedPolicyTwoLevel = 2   // "two_level": active set, round-robin inside it
  } sched_policy_e;

  // Width of a warp launch stamp (warp_sched next_age_q, one warp_age_q
  // entry).
  localparam int unsigned StampWidth = 32;

endpackage
