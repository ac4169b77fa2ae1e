// warp_sched: the warp scheduler of one SM sub-partition.
//
// RTL twin of the Go unit warpsched.Sched (package warpsched); the two are
// cosimulated cycle by cycle (package cosim), every output and every *_q
// register compared every cycle. Ports and registers carry the names of
// the Go struct tags. Behaviour, per cycle:
//
//   * Launch stamps: every warp with warp_launch_i set gets the next stamp
//     from next_age_q, in index order (also while stall_i is set).
//   * stall_i: no issue; last_q, greedy_q, greedy_valid_q and active_q
//     hold.
//   * Policy lrr: the first ready warp after last_q, wrapping around.
//   * Policy gto: greedy_q while it is ready, else the oldest ready warp
//     (smallest stamp, lowest index on a tie; the stamps include this
//     cycle's launches), which becomes the greedy warp.
//   * Policy two_level: the active set (active_q, at most TwoLevelActive
//     warps) drops the warps that are not valid; its long-waiting warps
//     are swapped, lowest index first, for the oldest ready pending warps
//     while there are any; vacancies are filled with the next oldest.
//     Only ready active warps issue, round-robin after last_q.
//
// A warp is ready when warp_valid_i and warp_ready_i are both set.
//
// Written in the subset of SystemVerilog that both Verilator 5.006 and
// Yosys 0.23 accept: flat vectors instead of packed arrays (warp i's stamp
// is warp_age_q[StampWidth*i +: StampWidth]), package items referenced as
// smsim_pkg::Name, width casts by number only.
module warp_sched #(
  parameter int unsigned NumWarps       = 16,
  parameter int unsigned Policy         = smsim_pkg::SchedPolicyGto,  // a sched_policy_e value
  parameter int unsigned TwoLevelActive = 8,
  // Derived widths (the Go model's width names); do not override.
  parameter int unsigned WarpIdxWidth   = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int unsigned AgeWidth       = smsim_pkg::StampWidth * NumWarps
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic [NumWarps-1:0]     warp_valid_i,
  input  logic [NumWarps-1:0]     warp_ready_i,
  input  logic [NumWarps-1:0]     warp_long_wait_i,
  input  logic [NumWarps-1:0]     warp_launch_i,
  input  logic                    stall_i,

  output logic                    issue_valid_o,
  output logic [WarpIdxWidth-1:0] issue_warp_o
);

  localparam int unsigned StampWidth = smsim_pkg::StampWidth;
  // Counts of warps (0..NumWarps).
  localparam int unsigned CntWidth   = $clog2(NumWarps + 1);

  // Registers.
  logic [WarpIdxWidth-1:0] last_q,         last_d;
  logic [WarpIdxWidth-1:0] greedy_q,       greedy_d;
  logic                    greedy_valid_q, greedy_valid_d;
  logic [NumWarps-1:0]     active_q,       active_d;
  logic [StampWidth-1:0]   next_age_q,     next_age_d;
  logic [AgeWidth-1:0]     warp_age_q,     warp_age_d;

  // The policy's choice.
  logic                    pick_valid;
  logic [WarpIdxWidth-1:0] pick_idx;
  logic [NumWarps-1:0]     active_next;  // two_level: the new active set

  logic [NumWarps-1:0]     ready;
  assign ready = warp_valid_i & warp_ready_i;

  // Lowest set bit of v: {found, index}.
  function automatic logic [WarpIdxWidth:0] first_set(logic [NumWarps-1:0] v);
    logic [WarpIdxWidth:0] r;
    r = '0;
    for (int i = NumWarps - 1; i >= 0; i--) begin
      if (v[i]) begin
        r = {1'b1, WarpIdxWidth'(i)};
      end
    end
    first_set = r;
  endfunction

  // Round-robin search: the first set bit of v after index last, wrapping
  // around: {found, index}.
  function automatic logic [WarpIdxWidth:0] next_cyclic(logic [NumWarps-1:0] v,
                                                        logic [WarpIdxWidth-1:0] last);
    logic [NumWarps-1:0]   above;
    logic [WarpIdxWidth:0] hi;
    for (int i = 0; i < NumWarps; i++) begin
      above[i] = v[i] && (WarpIdxWidth'(i) > last);
    end
    hi = first_set(above);
    next_cyclic = hi[WarpIdxWidth] ? hi : first_set(v);
  endfunction

  // Launch stamps, in index order.
  always_comb begin
    next_age_d = next_age_q;
    warp_age_d = warp_age_q;
    for (int i = 0; i < NumWarps; i++) begin
      if (warp_launch_i[i]) begin
        warp_age_d[StampWidth*i +: StampWidth] = next_age_d;
        next_age_d = next_age_d + StampWidth'(1);
      end
    end
  end

  // The age order over this cycle's stamps (gto, two_level): bit
  // NumWarps*i + j of older is set when warp j is older than warp i (a
  // smaller stamp, or the same stamp and a lower index), so the slice
  // older[NumWarps*i +: NumWarps] holds the warps older than warp i. One
  // comparator per pair.
  logic [NumWarps*NumWarps-1:0] older;
  if (Policy == smsim_pkg::SchedPolicyLrr) begin : g_no_age_order
    assign older = '0;
  end else begin : g_age_order
    always_comb begin
      older = '0;
      for (int i = 0; i < NumWarps; i++) begin
        for (int j = i + 1; j < NumWarps; j++) begin
          // i < j: i is older unless its stamp is larger.
          older[NumWarps*j + i] = warp_age_d[StampWidth*i +: StampWidth] <=
                                  warp_age_d[StampWidth*j +: StampWidth];
          older[NumWarps*i + j] = !older[NumWarps*j + i];
        end
      end
    end
  end

  if (Policy == smsim_pkg::SchedPolicyLrr) begin : g_lrr
    logic [WarpIdxWidth:0] hit;
    assign hit         = next_cyclic(ready, last_q);
    assign pick_valid  = hit[WarpIdxWidth];
    assign pick_idx    = hit[WarpIdxWidth-1:0];
    assign active_next = active_q;

    logic unused_inputs;
    assign unused_inputs = ^{warp_long_wait_i, older};

  end else if (Policy == smsim_pkg::SchedPolicyGto) begin : g_gto
    logic [NumWarps-1:0]   oldest;  // the ready warp no other ready warp is older than
    logic [WarpIdxWidth:0] hit;
    logic                  keep;    // the greedy warp is still ready
    for (genvar i = 0; i < NumWarps; i++) begin : g_oldest
      assign oldest[i] = ready[i] && !(|(ready & older[NumWarps*i +: NumWarps]));
    end
    assign hit         = first_set(oldest);
    assign keep        = greedy_valid_q && ready[greedy_q];
    assign pick_valid  = keep || hit[WarpIdxWidth];
    assign pick_idx    = keep ? greedy_q : hit[WarpIdxWidth-1:0];
    assign active_next = active_q;

    logic unused_inputs;
    assign unused_inputs = ^warp_long_wait_i;

  end else if (Policy == smsim_pkg::SchedPolicyTwoLevel) begin : g_two_level
    logic [NumWarps-1:0]   active;     // the set, less the warps no longer valid
    logic [NumWarps-1:0]   cand;       // ready pending warps not in a long wait
    logic [NumWarps-1:0]   long_wait;  // active warps in a long wait
    logic [NumWarps-1:0]   swap_out;   // long-waiting warps replaced this cycle
    logic [NumWarps-1:0]   promote;    // candidates entering the set
    logic [CntWidth-1:0]   n_cand, n_long, n_active, n_pick;
    logic [WarpIdxWidth:0] hit;

    assign active    = active_q & warp_valid_i;
    assign cand      = ready & ~active & ~warp_long_wait_i;
    assign long_wait = active & warp_long_wait_i;
    assign n_cand    = CntWidth'($countones(cand));
    assign n_long    = CntWidth'($countones(long_wait));
    assign n_active  = CntWidth'($countones(active));

    // The n_pick oldest candidates enter: one for each long-waiting warp
    // while candidates last, then one for each vacancy below
    // TwoLevelActive.
    always_comb begin : p_n_pick
      int unsigned want;
      want = 32'(n_long);
      if (TwoLevelActive > 32'(n_active)) begin
        want = want + TwoLevelActive - 32'(n_active);
      end
      n_pick = (want < 32'(n_cand)) ? CntWidth'(want) : n_cand;
    end

    // Candidate i enters when fewer than n_pick candidates are older.
    for (genvar i = 0; i < NumWarps; i++) begin : g_rank
      logic [CntWidth-1:0] rank;
      assign rank       = CntWidth'($countones(cand & older[NumWarps*i +: NumWarps]));
      assign promote[i] = cand[i] && (rank < n_pick);
    end

    // Long-waiting warp i leaves when fewer than n_cand long-waiting warps
    // have a lower index.
    always_comb begin : p_swap_out
      logic [CntWidth-1:0] n_lower;
      n_lower  = '0;
      swap_out = '0;
      for (int i = 0; i < NumWarps; i++) begin
        if (long_wait[i]) begin
          swap_out[i] = n_lower < n_cand;
          n_lower     = n_lower + CntWidth'(1);
        end
      end
    end

    assign active_next = (active & ~swap_out) | promote;
    assign hit         = next_cyclic(ready & active_next, last_q);
    assign pick_valid  = hit[WarpIdxWidth];
    assign pick_idx    = hit[WarpIdxWidth-1:0];

  end else begin : g_bad_policy
    $error("warp_sched: unknown Policy");
  end

  // Issue and the policy registers.
  always_comb begin
    last_d         = last_q;
    greedy_d       = greedy_q;
    greedy_valid_d = greedy_valid_q;
    active_d       = active_q;
    issue_valid_o  = 1'b0;
    issue_warp_o   = '0;
    if (!stall_i) begin
      active_d = active_next;
      if (pick_valid) begin
        issue_valid_o = 1'b1;
        issue_warp_o  = pick_idx;
        last_d        = pick_idx;
        if (Policy == smsim_pkg::SchedPolicyGto) begin
          greedy_d       = pick_idx;
          greedy_valid_d = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q         <= WarpIdxWidth'(NumWarps - 1);
      greedy_q       <= '0;
      greedy_valid_q <= 1'b0;
      active_q       <= '0;
      next_age_q     <= '0;
      warp_age_q     <= '0;
    end else begin
      last_q         <= last_d;
      greedy_q       <= greedy_d;
      greedy_valid_q <= greedy_valid_d;
      active_q       <= active_d;
      next_age_q     <= next_age_d;
      warp_age_q     <= warp_age_d;
    end
  end

endmodule
