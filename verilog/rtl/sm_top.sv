// sm_top: the SM, twin of pipeline.SM (docs/sm-rtl.md), for the subset of
// steps 2 and 3: a grid of CTAs (1-, 2- or 3-D), launched into free warp
// slots as they retire, the integer operations of sm_alu, special
// registers, ld.param, ld/st.global, shared and local memory, bar.sync,
// bra and brx.idx (divergent), direct and indirect calls with a frame
// pointer and a return stack per lane (sm_callstack), ret (divergent; at
// depth 0 an exit) and exit, regrouping the lanes of the maximum call
// depth at the minimum PC, activemask, vote, shfl and redux (across the
// lanes), traps through trap_unit (PTX trap and brkpt, BPT.TRAP/DRAIN/
// PAUSE/PAUSE_QUIET/INT, IDE, RTT, the ESRs, the trap handler on a bank of
// its own with the user context kept aside), nanosleep and the clock
// registers through clock_timer, under lrr, gto and two_level. The Go
// model is the reference; its timing is kept by the same timestamps the
// Go warp keeps, compared with a cycle counter (docs/sm-rtl.md, "Timing
// is the Go model's").
//
// Per cycle, as SM.Step: (1) the warps' readiness (issue.go refresh and
// classify: the fetch and branch timers, the scoreboard of the group's
// instruction, one instruction per cycle per warp), (2) the issue stages
// (evalIssue: each scheduler's warp_sched, in an order rotating each cycle,
// the memory-port chain giving the first GlobalPorts port users their
// ports), (3) the execute stage at the clock edge (tick, issue: operands,
// lanes, memory port, special registers, flow, scoreboard, writeback push,
// fetchNext), (4) the trap unit's pulses (trap.go trapTick: leave, then
// enter the handler), retirement of drained warps and the launch of the
// next CTAs into the freed slots (cta.go retire, launchCTAs; held while
// the SM is trapped).
//
// Instance paths differ from the Go scopes in one way: per-scheduler
// stages sit in the generate block g_sched[N] (g_sched[N].u_warp_sched
// for the Go model's u_warp_sched_N, g_sched[N].u_writeback for
// u_writeback_N); warp slots are g_warp[N] as in Go.
module sm_top #(
  parameter int unsigned NumWarps    = 8,
  parameter int unsigned NumSched    = 2,
  parameter int unsigned MaxRegs     = 16,   // registers per thread held
  parameter int unsigned MaxPreds    = 8,    // predicates per thread held
  parameter int unsigned LatAlu      = 2,
  parameter int unsigned LatMul      = 2,
  parameter int unsigned LatDiv      = 4,
  parameter int unsigned LatSReg     = 1,
  parameter int unsigned LatParam    = 1,
  parameter int unsigned LatGlobal   = 8,
  parameter int unsigned LatLocal    = 8,
  parameter int unsigned LatBranch   = 1,
  parameter int unsigned LatFetch    = 1,
  parameter int unsigned LatShared   = 4,
  parameter int unsigned LatBarrier  = 1,
  parameter int unsigned GlobalPorts = 1,
  parameter int unsigned SmemBytes   = 16384,  // shared memory (sm.smem_bytes)
  parameter int unsigned LocalBytes  = 1024,   // local memory per thread (sm.local_bytes)
  parameter int unsigned WbDepth     = 16,
  parameter int unsigned Policy      = smsim_pkg::SchedPolicyLrr,  // a sched_policy_e value
  parameter int unsigned TwoLevelActive = 2,  // two_level's active set (sched.two_level_active)
  parameter int unsigned SmId        = 0,    // %smid (sm.id)
  parameter int unsigned NSmId       = 1,    // %nsmid (sm.count)
  parameter int unsigned MaxCtas     = 4,    // resident CTAs (sm.max_ctas)
  parameter int unsigned RetDepth    = 16,   // return-stack entries per thread (Go: 65,536)
  // clock_timer (clock.mhz, timer.resolution_ns, timer.start_ns; the
  // 64-bit values in 32-bit halves).
  parameter int unsigned MHz            = 1755,
  parameter int unsigned ResolutionNsLo = 32,
  parameter int unsigned ResolutionNsHi = 0,
  parameter int unsigned TimerStartNsLo = 0,
  parameter int unsigned TimerStartNsHi = 0,
  // Derived; do not override.
  parameter int unsigned WarpSlotWidth = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int unsigned SchedWarps    = NumWarps / NumSched,
  parameter int unsigned LocalWidth    = (SchedWarps > 1) ? $clog2(SchedWarps) : 1,
  // CTA slots: a resident CTA has at least one warp.
  parameter int unsigned CtaSlots      = (MaxCtas < NumWarps) ? MaxCtas : NumWarps,
  parameter int unsigned CtaSlotWidth  = (CtaSlots > 1) ? $clog2(CtaSlots) : 1,
  parameter int unsigned DepthWidth    = $clog2(RetDepth + 1)
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  // Launch (the grid): held for one cycle before cycle 0. The SM
  // launches CTAs into free warp slots, up to max_ctas_i at once, as the
  // Go SM does (cta.go launchCTAs).
  input  logic                     launch_i,
  input  logic [31:0]              entry_pc_i,
  input  logic [31:0]              ntid_i   [3],  // the block (x, y, z)
  input  logic [31:0]              nctaid_i [3],  // the grid (x, y, z)
  input  logic [31:0]              nthreads_i,    // threads of a CTA
  input  logic [31:0]              nwarps_i,      // its warps
  input  logic [31:0]              nctas_i,       // CTAs of the grid
  input  logic [31:0]              max_ctas_i,    // CTAs resident at once
  input  logic [31:0]              smem_size_i,   // a CTA's shared memory (zeroed at its launch)
  input  logic [31:0]              smem_stride_i, // CTA slot k's shared memory lies at k * stride
  input  logic [31:0]              dyn_smem_i,    // %dynamic_smem_size
  input  logic [31:0]              ncluster_i [3], // the cluster shape (%cluster_nctaid)
  input  logic                     explicit_cluster_i,
  // The trap handler (trap.handler), held like the launch: whether there
  // is one (it selects the trap unit with a handler, u_trap_unit, or the
  // one without, u_trap_unit_nh: HasHandler is a parameter of trap_unit,
  // and one bench build serves both) and its entry PC.
  input  logic                     has_handler_i,
  input  logic [31:0]              handler_pc_i,

  // The host's side of the trap unit (docs/trap-unit.md, "Host
  // protocol"): the bench's host agent drives a command per cycle and
  // reads the unit's outputs (trap_* are trap_unit's ports of the names
  // after the prefix: sm_trapped_o, warp_in_handler_o, ...).
  input  logic [2:0]               host_cmd_i,
  input  logic [15:0]              host_arg_i,
  output logic                     trap_sm_trapped_o,
  output logic [NumWarps-1:0]      trap_warp_in_handler_o,
  output logic [NumWarps-1:0]      trap_warp_paused_o,
  output logic                     trap_all_paused_o,
  output logic                     trap_irq_o,
  output logic [3:0]               trap_irq_cause_o,
  output logic [31:0]              trap_irq_count_o,
  output logic [15:0]              trap_global_esr_o,
  output logic [15:0]              trap_warp_esr_o   [NumWarps],
  output logic [31:0]              trap_resume_pc_o  [NumWarps],
  output logic                     trap_host_ack_o,
  output logic [2:0]               trap_host_err_o,

  // Fetch port: each warp slot's group PC and the instruction word there.
  output logic [31:0]              fetch_pc_o   [NumWarps],
  input  logic [127:0]             fetch_inst_i [NumWarps],

  // Constant-table port: per scheduler, slots A, B, C.
  output logic [9:0]               const_idx_o  [NumSched][3],
  input  logic [63:0]              const_val_i  [NumSched][3],

  // Branch-table port (brx.idx): per scheduler and lane, the entry of
  // the image's branch tables (BrTables) at Imm + the lane's index.
  output logic [31:0]              brt_idx_o [NumSched][32],
  input  logic [31:0]              brt_val_i [NumSched][32],

  // Memory port, per scheduler (docs/sm-rtl.md section 3): a request in
  // the cycle the instruction issues, load data in the same cycle.
  output logic                     mem_req_valid_o [NumSched],
  output logic                     mem_req_we_o    [NumSched],
  output logic [2:0]               mem_req_space_o [NumSched],
  output logic [3:0]               mem_req_size_o  [NumSched],
  output logic [31:0]              mem_req_mask_o  [NumSched],
  output logic [63:0]              mem_req_addr_o  [NumSched][32],
  output logic [63:0]              mem_req_wdata_o [NumSched][32],
  input  logic [63:0]              mem_rsp_rdata_i [NumSched][32],

  // The load/store stages (LSUOutputs), per scheduler: the request made
  // in the last cycle, registered (the Go hook sees it a cycle later);
  // the fields hold, and a lane's address holds, when not requested.
  output logic                     lsu_valid_o [NumSched],
  output logic [1:0]               lsu_op_o    [NumSched],
  output logic [2:0]               lsu_space_o [NumSched],
  output logic [WarpSlotWidth-1:0] lsu_warp_o  [NumSched],
  output logic [31:0]              lsu_mask_o  [NumSched],
  output logic [6:0]               lsu_size_o  [NumSched],
  output logic [31:0]              lsu_tag_o   [NumSched],
  output logic [63:0]              lsu_addr_o  [NumSched][32],

  // The issue stages (IssueOutputs), per scheduler.
  output logic                     issue_valid_o [NumSched],
  output logic [WarpSlotWidth-1:0] issue_warp_o  [NumSched],
  output logic [31:0]              issue_pc_o    [NumSched],
  output logic [7:0]               issue_op_o    [NumSched],
  output logic [31:0]              issue_mask_o  [NumSched],
  output logic [31:0]              issue_exec_o  [NumSched],

  // The writeback stages (WritebackOutputs), per scheduler.
  output logic                     wb_valid_o [NumSched],
  output logic [WarpSlotWidth-1:0] wb_warp_o  [NumSched],
  output logic [31:0]              wb_pc_o    [NumSched],
  output logic [3:0]               wb_count_o [NumSched],

  // The warp slots (WarpRegs).
  output logic                     warp_valid_o       [NumWarps],
  output logic [31:0]              warp_pc_o          [NumWarps],
  output logic [31:0]              warp_active_mask_o [NumWarps],

  output logic [31:0]              cycle_o,
  output logic                     done_o,
  // A call by a lane whose return stack (RetDepth entries) is full: the
  // RTL cannot follow the Go model further (the bench stops).
  output logic                     call_overflow_o,
  output logic [2:0]               status_o
);
  import sm_isa_pkg::*;

  localparam int unsigned RegIdxWidth  = (MaxRegs > 1) ? $clog2(MaxRegs) : 1;
  localparam int unsigned PredIdxWidth = (MaxPreds > 1) ? $clog2(MaxPreds) : 1;
  // Two banks of registers and predicates per thread: the user's (0) and
  // the trap handler's (1), selected per warp by hb_q (pipeline/trap.go:
  // the handler runs on a bank of its own). Register r of bank b is
  // entry {b, r}.
  localparam logic [63:0] SleepRes =
      ((64'(ResolutionNsHi) << 32) | 64'(ResolutionNsLo)) == 64'd0 ? 64'd1 :
      ((64'(ResolutionNsHi) << 32) | 64'(ResolutionNsLo));
  localparam int unsigned RegBank  = 1 << RegIdxWidth;
  localparam int unsigned PredBank = 1 << PredIdxWidth;

`define SM_RIX(b, r) {(b), RegIdxWidth'(r)}
`define SM_PIX(b, p) {(b), PredIdxWidth'(p)}
  localparam logic [3:0] CatLd = 4'd1, CatSt = 4'd2, CatS2r = 4'd3,
                         CatBra = 4'd4, CatRet = 4'd5, CatExit = 4'd6, CatBar = 4'd8,
                         CatCall = 4'd9, CatBrx = 4'd10, CatWarp = 4'd11,
                         CatTrap = 4'd12, CatTu = 4'd13, CatSleep = 4'd14;
  localparam logic [3:0] LatAluC = 4'd0, LatMulC = 4'd1, LatSRegC = 4'd2, LatParamC = 4'd3,
                         LatGlobalC = 4'd4, LatNoneC = 4'd5, LatSharedC = 4'd6, LatDivC = 4'd7,
                         LatLocalC = 4'd8;
  localparam logic [31:0] Never = 32'hffff_ffff;  // a timer that only a release ends
  localparam logic [1:0] DNone = 2'd0, DReg32 = 2'd1, DReg64 = 2'd2, DPred = 2'd3;
  localparam logic [2:0] StatusRunning = 3'd0, StatusCompleted = 3'd1;

  function automatic logic [31:0] lat_of(logic [3:0] cls);
    unique case (cls)
      LatAluC:    lat_of = 32'(LatAlu);
      LatMulC:    lat_of = 32'(LatMul);
      LatSRegC:   lat_of = 32'(LatSReg);
      LatParamC:  lat_of = 32'(LatParam);
      LatGlobalC: lat_of = 32'(LatGlobal);
      LatSharedC: lat_of = 32'(LatShared);
      LatDivC:    lat_of = 32'(LatDiv);
      LatLocalC:  lat_of = 32'(LatLocal);
      default:    lat_of = 32'd0;
    endcase
  endfunction

  function automatic logic [31:0] max32(logic [31:0] x, logic [31:0] y);
    max32 = (x > y) ? x : y;
  endfunction

  // ---------------------------------------------------------------------
  // Registers.
  logic [31:0] cycle_q;
  logic        started_q;
  logic [NumWarps-1:0] launched_q;   // launched at the last edge (warp_launch_i)

  // g_warp[N]: the warp context (WarpRegs and the Go warp's timers).
  logic        valid_q        [NumWarps];
  logic        done_q         [NumWarps];  // every thread exited (draining)
  logic [31:0] pc_q           [NumWarps];  // the active group's PC
  logic [31:0] active_mask_q  [NumWarps];  // the active group's lanes
  logic [31:0] lane_valid_q   [NumWarps];
  logic [31:0] exited_q       [NumWarps];
  logic [31:0] lane_pc_q      [NumWarps][32];
  logic [31:0] fetch_until_q  [NumWarps];
  logic [31:0] branch_until_q [NumWarps];
  logic [31:0] last_issue_q   [NumWarps];
  logic        issued_q       [NumWarps];  // issued at least once (warp.insts != 0)
  logic [31:0] mem_busy_q     [NumWarps];
  // The barrier (barrier.go, bar 0): the lanes blocked at it, and the
  // Go warp's blockUntil while it waits there (bar_wait_q: every live
  // lane blocked, the timer at Never until the release).
  logic [31:0] blocked_q      [NumWarps];
  logic        bar_wait_q     [NumWarps];
  logic [31:0] block_until_q  [NumWarps];
  // The block is a BPT.DRAIN's (blockState drain, not a long wait).
  logic        drain_q        [NumWarps];
  // The scoreboard (warp.rdy, warp.prdy) and the register file.
  logic [31:0] rdy_q  [NumWarps][2*RegBank];
  logic        rlong_q [NumWarps][2*RegBank];  // the pending write is a global load's (sbLong)
  logic [31:0] prdy_q [NumWarps][2*PredBank];
  logic [31:0] rf_q   [NumWarps][2*RegBank][32];
  logic [31:0] pr_q   [NumWarps][2*PredBank];
  // The trap handler (pipeline/trap.go enterHandler, leaveHandler): per
  // warp slot, the bank in use (1: the warp runs the handler), and the
  // user context kept aside meanwhile: the lanes' PCs, the lanes blocked
  // at the barrier and the barrier timer (Never: waiting), and the trap's
  // group (the lanes sent to the saved PC when the warp leaves).
  logic        hb_q           [NumWarps];
  logic [31:0] ulane_pc_q     [NumWarps][32];
  logic [31:0] ublocked_q     [NumWarps];
  logic [31:0] ublock_until_q [NumWarps];
  logic [31:0] group_q        [NumWarps];
  logic        udrain_q       [NumWarps];
  logic        has_handler_q;
  logic [31:0] handler_pc_q;
  // trap_unit (the instance has_handler_q selects): its outputs and its
  // warp inputs.
  logic                   tu_sm_trapped, tu_all_paused, tu_irq, tu_host_ack;
  logic [NumWarps-1:0]    tu_enter, tu_resume, tu_paused, tu_in_handler, tu_live;
  logic [3:0]             tu_irq_cause;
  logic [31:0]            tu_irq_count;
  logic [15:0]            tu_global_esr;
  logic [2:0]             tu_host_err;
  logic [15:0]            tu_warp_esr  [NumWarps];
  logic [31:0]            tu_resume_pc [NumWarps];
  logic [32*NumWarps-1:0] tu_pc;
  // clock_timer's outputs (registered): the clock registers and the
  // warps in nanosleep.
  logic [31:0]            ct_clock, ct_clock_hi, ct_gtimer_lo, ct_gtimer_hi;
  logic [63:0]            ct_clock64, ct_gtimer;
  logic [NumWarps-1:0]    ct_sleeping;

  // IssueOutputs hold their data when nothing issues (a pipeline
  // register's data): the issued values, or the last ones.
  logic [WarpSlotWidth-1:0] issue_warp_hold_q [NumSched];
  logic [31:0]              issue_pc_hold_q   [NumSched];
  logic [31:0]              issue_mask_hold_q [NumSched];
  logic [31:0]              issue_exec_hold_q [NumSched];
  // The launch, held from launch_i; the next CTA of the grid.
  logic [31:0]              nthreads_q, nwarps_q, nctas_q, max_ctas_q, entry_q;
  logic [31:0]              ntid_q   [3];
  logic [31:0]              nctaid_q [3];
  logic [31:0]              ncluster_q [3];
  logic [31:0]              dyn_smem_q;
  logic                     explicit_cluster_q;
  logic [31:0]              next_cta_q;
  // Per warp slot: its CTA slot and its warp index in the CTA; per CTA
  // slot: the CTA's linear index.
  logic [CtaSlotWidth-1:0]  cta_q    [NumWarps];
  logic [5:0]               in_cta_q [NumWarps];
  logic [31:0]              cta_lin_q [CtaSlots];
  // The call state (u_callstack): per warp slot and lane the call depth;
  // per scheduler, of the warp slot it issues, the lanes' frame pointers
  // and the return PCs at their stacks' tops.
  logic [DepthWidth-1:0]    depth_w   [NumWarps][32];
  logic [31:0]              fp_cs     [NumSched][32];
  logic [31:0]              top_pc_cs [NumSched][32];

  // ---------------------------------------------------------------------
  // (1) Readiness of each warp's group instruction (warp.refresh).
  logic [NumWarps-1:0] eligible;   // may issue this cycle
  logic [NumWarps-1:0] port_inst;  // its instruction needs a memory port
  logic [NumWarps-1:0] long_wait;  // two_level's warp_long_wait_i

  for (genvar w = 0; w < NumWarps; w++) begin : g_warp
    logic [7:0]  op;
    logic [4:0]  ty, ty2;
    logic        guard_on, guard_neg;
    logic [5:0]  guard;
    logic [15:0] mods;
    logic [31:0] imm;
    logic [2:0]  src_used, src_wide, src_pred;
    logic [5:0]  src_kind;
    logic [29:0] src_val;
    logic [1:0]  d1_kind, d2_kind;
    logic [7:0]  d1, d2;
    logic [3:0]  cat;
    logic [3:0]  lat;
    logic        ctrl, uses_port, supported;
    logic [31:0] sb_until, ready_at;
    logic        sb_long;

    sm_decode u_decode (
      .inst_i      (fetch_inst_i[w]),
      .op_o        (op),
      .ty_o        (ty),
      .ty2_o       (ty2),
      .guard_on_o  (guard_on),
      .guard_neg_o (guard_neg),
      .guard_o     (guard),
      .mods_o      (mods),
      .imm_o       (imm),
      .src_used_o  (src_used),
      .src_kind_o  (src_kind),
      .src_val_o   (src_val),
      .src_wide_o  (src_wide),
      .src_pred_o  (src_pred),
      .d1_kind_o   (d1_kind),
      .d1_o        (d1),
      .d2_kind_o   (d2_kind),
      .d2_o        (d2),
      .cat_o       (cat),
      .lat_o       (lat),
      .ctrl_o      (ctrl),
      .uses_port_o (uses_port),
      .supported_o (supported)
    );

    // waitOn over the sources and destinations (issue.go refresh), in the
    // Go decoder's order (register sources, register destinations, the
    // guard and predicate sources, predicate destinations): the first
    // register holding the latest time gives the wait its class (sb_long:
    // a long scoreboard wait, which two_level swaps out).
    always_comb begin
      logic [7:0] r;
      sb_until = '0;
      sb_long  = 1'b0;
      r        = '0;
      for (int i = 0; i < 3; i++) begin
        if (src_used[i] && src_kind[2*i +: 2] == KindReg) begin
          r = src_val[10*i +: 8];
          if (rdy_q[w][`SM_RIX(hb_q[w], r)] > sb_until) begin
            sb_until = rdy_q[w][`SM_RIX(hb_q[w], r)];
            sb_long  = rlong_q[w][`SM_RIX(hb_q[w], r)];
          end
          if (src_wide[i] && rdy_q[w][`SM_RIX(hb_q[w], r + 8'd1)] > sb_until) begin
            sb_until = rdy_q[w][`SM_RIX(hb_q[w], r + 8'd1)];
            sb_long  = rlong_q[w][`SM_RIX(hb_q[w], r + 8'd1)];
          end
        end
      end
      // shfl.sync's member mask in a register (ModShflMaskReg): a
      // register source after the slots.
      if (op == OpSHFL && (mods & ModShflMaskReg) != 16'd0 &&
          rdy_q[w][`SM_RIX(hb_q[w], imm[7:0])] > sb_until) begin
        sb_until = rdy_q[w][`SM_RIX(hb_q[w], imm[7:0])];
        sb_long  = rlong_q[w][`SM_RIX(hb_q[w], imm[7:0])];
      end
      if (d1_kind == DReg32 || d1_kind == DReg64) begin
        if (rdy_q[w][`SM_RIX(hb_q[w], d1)] > sb_until) begin
          sb_until = rdy_q[w][`SM_RIX(hb_q[w], d1)];
          sb_long  = rlong_q[w][`SM_RIX(hb_q[w], d1)];
        end
        if (d1_kind == DReg64 && rdy_q[w][`SM_RIX(hb_q[w], d1 + 8'd1)] > sb_until) begin
          sb_until = rdy_q[w][`SM_RIX(hb_q[w], d1 + 8'd1)];
          sb_long  = rlong_q[w][`SM_RIX(hb_q[w], d1 + 8'd1)];
        end
      end
      // Predicates are written by ALU operations only (no long class).
      if (guard_on && prdy_q[w][`SM_PIX(hb_q[w], guard)] > sb_until) begin
        sb_until = prdy_q[w][`SM_PIX(hb_q[w], guard)];
        sb_long  = 1'b0;
      end
      for (int i = 0; i < 3; i++) begin
        if (src_used[i] && src_kind[2*i +: 2] == KindSpecial && src_val[10*i+8 +: 2] == SpecialPred &&
            prdy_q[w][`SM_PIX(hb_q[w], src_val[10*i +: 6])] > sb_until) begin
          sb_until = prdy_q[w][`SM_PIX(hb_q[w], src_val[10*i +: 6])];
          sb_long  = 1'b0;
        end
      end
      if (d1_kind == DPred && prdy_q[w][`SM_PIX(hb_q[w], d1)] > sb_until) begin
        sb_until = prdy_q[w][`SM_PIX(hb_q[w], d1)];
        sb_long  = 1'b0;
      end
      if (d2_kind == DPred && prdy_q[w][`SM_PIX(hb_q[w], d2)] > sb_until) begin
        sb_until = prdy_q[w][`SM_PIX(hb_q[w], d2)];
        sb_long  = 1'b0;
      end
    end

    assign ready_at = max32(max32(max32(issued_q[w] ? last_issue_q[w] + 32'd1 : 32'd0, sb_until),
                                  max32(branch_until_q[w], fetch_until_q[w])),
                            block_until_q[w]);
    // A paused warp (warp_paused_o) issues nothing (issue.go refresh).
    assign eligible[w]  = valid_q[w] && !done_q[w] && !tu_paused[w] && !ct_sleeping[w] && started_q &&
                          cycle_q >= ready_at;
    assign port_inst[w] = uses_port;
    // classify (issue.go): a warp that cannot issue is in a long wait
    // when stateAt says barrier (blockUntil first) or long scoreboard; a
    // paused one is paused or trapped, not a long wait; a sleeping one
    // (sleeping_o, warpState's first question) is.
    assign long_wait[w] = valid_q[w] && !done_q[w] && !eligible[w] && (ct_sleeping[w] || !tu_paused[w] &&
                          ((cycle_q < block_until_q[w]) ? !drain_q[w] :
                           (cycle_q < branch_until_q[w] || cycle_q < fetch_until_q[w]) ? 1'b0 :
                           (cycle_q < sb_until) && sb_long));
    assign fetch_pc_o[w] = pc_q[w];

    assign warp_valid_o[w]       = valid_q[w];
    assign warp_pc_o[w]          = pc_q[w];
    assign warp_active_mask_o[w] = active_mask_q[w];

    logic unused_decode;
    assign unused_decode = ^{op, ty, ty2, guard_neg, mods, imm, src_pred, cat, lat,
                             ctrl, supported, guard[5:PredIdxWidth], d1[7:PredIdxWidth],
                             d2[7:PredIdxWidth]};
  end

  // ---------------------------------------------------------------------
  // (2) The issue stages: one warp_sched per scheduler, the port chain.
  logic                     iv       [NumSched];  // scheduler s issues
  logic [LocalWidth-1:0]    iw_local [NumSched];
  logic [WarpSlotWidth-1:0] islot    [NumSched];  // the warp slot it issues
  logic [NumSched-1:0]      port_used;   // it issues a port user
  logic [NumSched-1:0]      port_avail;  // the chain leaves it a port
  logic [31:0]              first;                // cycle % NumSched

  assign first = cycle_q % 32'(NumSched);

  // The memory-port chain (evalIssue): in the cycle's order from first,
  // a scheduler sees its port-needing warps while fewer than GlobalPorts
  // schedulers before it issued one.
  always_comb begin
    for (int s = 0; s < NumSched; s++) begin
      int n;
      n = 0;
      for (int t = 0; t < NumSched; t++) begin
        if (((t + NumSched - int'(first)) % NumSched) < ((s + NumSched - int'(first)) % NumSched) &&
            port_used[t]) begin
          n = n + 1;
        end
      end
      port_avail[s] = n < int'(GlobalPorts);
    end
  end

  // ---------------------------------------------------------------------
  // (3) The execute stage, per scheduler: what the issued instruction
  // does at the clock edge.
  logic        x_we        [NumSched][32];   // lane writes d1
  logic [63:0] x_res       [NumSched][32];   // d1's value per lane
  logic [31:0] x_p         [NumSched];       // predicate results per lane
  logic [31:0] x_q         [NumSched];
  logic [31:0] x_emask     [NumSched];
  logic [31:0] x_exits     [NumSched];
  logic [31:0] x_block     [NumSched];       // lanes arriving at the barrier (bar.sync)
  logic        x_bar       [NumSched];       // a BAR issued
  logic        x_long      [NumSched];       // its destinations' class is sbLong (a global load)
  logic [31:0] x_lane_pc   [NumSched][32];   // the lanes' next PCs
  logic [31:0] x_gpc       [NumSched];       // the next group
  logic [31:0] x_gmask     [NumSched];
  logic [1:0]  x_d1_kind   [NumSched];
  logic [7:0]  x_d1        [NumSched];
  logic [1:0]  x_d2_kind   [NumSched];
  logic [7:0]  x_d2        [NumSched];
  logic [31:0] x_lat       [NumSched];       // 0: no result (latNone)
  logic        x_ctrl      [NumSched];
  logic        x_mem       [NumSched];       // a load or store (busyUntil, lanes or none)
  logic [DepthWidth-1:0] x_depth [NumSched][32];  // the lanes' next call depths
  logic [31:0] x_call      [NumSched];       // lanes that call (push)
  logic [31:0] x_ret       [NumSched];       // lanes that return (pop)
  logic [31:0] x_adv       [NumSched];       // a call's frame advance in bytes
  logic        x_rtt       [NumSched];       // an RTT executed (the group stays at it)
  logic        x_ev        [NumSched];       // an event for trap_unit
  logic [3:0]  x_ev_kind   [NumSched];
  logic [3:0]  x_ev_arg    [NumSched];
  logic        x_drain     [NumSched];       // a BPT.DRAIN executed
  logic [31:0] x_drain_t   [NumSched];       // when the warp's issued instructions complete
  logic        x_sleep     [NumSched];       // a nanosleep executed (clock_timer's port)
  logic [31:0] x_sleep_ns  [NumSched];

  logic [63:0] smem_rdata [NumSched][32];   // sm_smem's load data
  logic [63:0] lmem_rdata [NumSched][32];   // local memory's

  for (genvar s = 0; s < NumSched; s++) begin : g_sched
    logic [SchedWarps-1:0] w_valid, w_ready, w_launch, w_long;
    logic                  sched_valid;
    logic [LocalWidth-1:0] sched_warp;

    for (genvar k = 0; k < SchedWarps; k++) begin : g_local
      localparam int unsigned Slot = k * NumSched + s;
      assign w_valid[k]  = valid_q[Slot] && !done_q[Slot];
      assign w_ready[k]  = eligible[Slot] && (!port_inst[Slot] || port_avail[s]);
      assign w_launch[k] = launched_q[Slot];
      assign w_long[k]   = long_wait[Slot];
    end

    warp_sched #(
      .NumWarps       (SchedWarps),
      .Policy         (Policy),
      .TwoLevelActive (TwoLevelActive)
    ) u_warp_sched (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .warp_valid_i     (w_valid),
      .warp_ready_i     (w_ready),
      .warp_long_wait_i (w_long),
      .warp_launch_i    (w_launch),
      .stall_i          (1'b0),
      .issue_valid_o    (sched_valid),
      .issue_warp_o     (sched_warp)
    );

    assign iv[s]       = sched_valid;
    assign iw_local[s] = sched_warp;
    assign islot[s]    = WarpSlotWidth'(32'(sched_warp) * NumSched + s);
    assign port_used[s] = sched_valid && port_inst[islot[s]];

    // The issued instruction, decoded again for the execute stage.
    logic [7:0]  op;
    logic [4:0]  ty, ty2;
    logic        guard_on, guard_neg;
    logic [5:0]  guard;
    logic [15:0] mods;
    logic [31:0] imm;
    logic [2:0]  src_used, src_wide, src_pred;
    logic [5:0]  src_kind;
    logic [29:0] src_val;
    logic [1:0]  d1_kind, d2_kind;
    logic [7:0]  d1, d2;
    logic [3:0]  cat;
    logic [3:0]  lat;
    logic        ctrl, uses_port, supported;

    sm_decode u_decode (
      .inst_i      (fetch_inst_i[islot[s]]),
      .op_o        (op),
      .ty_o        (ty),
      .ty2_o       (ty2),
      .guard_on_o  (guard_on),
      .guard_neg_o (guard_neg),
      .guard_o     (guard),
      .mods_o      (mods),
      .imm_o       (imm),
      .src_used_o  (src_used),
      .src_kind_o  (src_kind),
      .src_val_o   (src_val),
      .src_wide_o  (src_wide),
      .src_pred_o  (src_pred),
      .d1_kind_o   (d1_kind),
      .d1_o        (d1),
      .d2_kind_o   (d2_kind),
      .d2_o        (d2),
      .cat_o       (cat),
      .lat_o       (lat),
      .ctrl_o      (ctrl),
      .uses_port_o (uses_port),
      .supported_o (supported)
    );

    logic [WarpSlotWidth-1:0] w;
    logic [31:0] pc, mask, gmask_guard, emask;
    logic [63:0] opnd [3][32];   // the sources, per slot and lane
    logic [63:0] imm64;

    assign w     = islot[s];
    assign pc    = pc_q[w];
    assign mask  = active_mask_q[w];
    assign imm64 = {{32{imm[31]}}, imm};
    assign gmask_guard = guard_on ? (pr_q[w][`SM_PIX(hb_q[w], guard)] ^ {32{guard_neg}}) : 32'hffff_ffff;
    assign emask = iv[s] ? (mask & gmask_guard) : 32'd0;

    for (genvar i = 0; i < 3; i++) begin : g_const
      assign const_idx_o[s][i] = src_val[10*i +: 10];
    end

    // gather: the source slots of every lane (exec.go gather/value).
    always_comb begin
      for (int i = 0; i < 3; i++) begin
        logic [1:0]  kind;
        logic [9:0]  v;
        logic [63:0] tm;   // typeMask of the slot's type
        kind = src_kind[2*i +: 2];
        v    = src_val[10*i +: 10];
        tm   = src_pred[i] ? 64'd1 : (src_wide[i] ? 64'hffff_ffff_ffff_ffff : 64'h0000_0000_ffff_ffff);
        for (int l = 0; l < 32; l++) begin
          unique case (kind)
            KindReg: opnd[i][l] = src_wide[i]
                ? {rf_q[w][`SM_RIX(hb_q[w], v[7:0] + 8'd1)][l], rf_q[w][`SM_RIX(hb_q[w], v[7:0])][l]}
                : {32'd0, rf_q[w][`SM_RIX(hb_q[w], v[7:0])][l]};
            KindImm:   opnd[i][l] = imm64 & tm;
            KindConst: opnd[i][l] = const_val_i[s][i] & tm;
            default: begin
            unique case (v[9:8])
              SpecialPred: opnd[i][l] = {63'd0, pr_q[w][`SM_PIX(hb_q[w], v[5:0])][l] ^ v[6]};
              SpecialFP:   opnd[i][l] = {32'd0, fp_cs[s][l]};  // the lane's frame pointer
              default:     opnd[i][l] = 64'd0;
            endcase
          end
          endcase
        end
      end
    end

    // The lanes.
    logic [63:0] alu_d [32];
    logic [31:0] alu_p, alu_q;
    for (genvar l = 0; l < 32; l++) begin : g_lane
      sm_alu u_alu (
        .op_i   (op),
        .ty_i   (ty),
        .ty2_i  (ty2),
        .mods_i (mods),
        .a_i    (opnd[0][l]),
        .b_i    (opnd[1][l]),
        .c_i    (opnd[2][l]),
        .d_o    (alu_d[l]),
        .p_o    (alu_p[l]),
        .q_o    (alu_q[l])
      );
    end

    // The warp operations (exec.go, exec_warp.go, warpops.go): activemask
    // gives the group's mask; vote and redux take the member mask from the
    // first executing lane and cover the executing lanes in it (all of
    // them when none is); shfl reads the source of lane j, or its own when
    // j is out of range (the predicate says which).
    logic [31:0] wo_res [32];
    logic [31:0] wo_p, wo_q;
    always_comb begin
      logic [31:0] member, part, pm, acc, v, b, cc, clamp, seg, maxl, minl, j;
      logic        ok, vb, first_lane;
      logic [4:0]  l0;
      l0 = '0;
      for (int l = 31; l >= 0; l--) begin
        if (emask[l]) l0 = 5'(l);
      end
      member = opnd[1][l0][31:0];
      part   = emask & member;
      if (part == 32'd0) part = emask;
      pm = '0;
      for (int l = 0; l < 32; l++) pm[l] = opnd[0][l][0];
      pm = pm & part;
      unique case (mods[1:0])
        VoteAll: vb = pm == part;
        VoteAny: vb = pm != 32'd0;
        VoteUni: vb = pm == 32'd0 || pm == part;
        default: vb = 1'b0;
      endcase
      // reduxOf: the reduction over the lanes of part, from the first.
      acc        = '0;
      first_lane = 1'b1;
      for (int l = 0; l < 32; l++) begin
        if (part[l]) begin
          v = opnd[0][l][31:0];
          if (first_lane) begin
            acc = v;
          end else begin
            unique case (3'(mods & ModReduxMask))
              ReduxAdd: acc = acc + v;
              ReduxMin: if ((ty == TyS32) ? ($signed(v) < $signed(acc)) : (v < acc)) acc = v;
              ReduxMax: if ((ty == TyS32) ? ($signed(v) > $signed(acc)) : (v > acc)) acc = v;
              ReduxAnd: acc = acc & v;
              ReduxOr:  acc = acc | v;
              default:  acc = acc ^ v;
            endcase
          end
          first_lane = 1'b0;
        end
      end
      for (int l = 0; l < 32; l++) begin
        // execShfl: the source lane j and whether it is in range.
        b     = opnd[1][l][31:0] & 32'h1f; // PTX: the lane operand is b[4:0]
        cc    = opnd[2][l][31:0];
        clamp = cc & 32'h1f;
        seg   = (cc >> 8) & 32'h1f;
        maxl  = (32'(l) & seg) | (clamp & ~seg);
        minl  = 32'(l) & seg;
        unique case (mods[1:0])
          ShflUp: begin
            j  = 32'(l) - b;
            ok = $signed(j) >= $signed(maxl);
          end
          ShflDown: begin
            j  = 32'(l) + b;
            ok = j <= maxl;
          end
          ShflBfly: begin
            j  = 32'(l) ^ b;
            ok = j <= maxl;
          end
          default: begin
            j  = minl | (b & ~seg);
            ok = j <= maxl;
          end
        endcase
        if (!ok || j > 32'd31) j = 32'(l);
        wo_p[l] = 1'b0;
        wo_q[l] = 1'b0;
        unique case (op)
          OpACTIVEMASK: wo_res[l] = mask;
          OpVOTE: begin
            wo_res[l] = (mods[1:0] == VoteBallot) ? pm : {31'd0, vb};
            wo_p[l]   = vb;
          end
          OpREDUX: wo_res[l] = acc;
          default: begin
            wo_res[l] = opnd[0][j[4:0]][31:0];
            wo_q[l]   = ok;
          end
        endcase
      end
    end

    // Load data: shared and local memory inside the SM (sm_smem), the
    // other spaces from the memory port.
    logic [63:0] ld_data [32];
    always_comb begin
      for (int l = 0; l < 32; l++) begin
        unique case (mem_req_space_o[s])
          SpaceShared: ld_data[l] = smem_rdata[s][l];
          SpaceLocal:  ld_data[l] = lmem_rdata[s][l];
          default:     ld_data[l] = mem_rsp_rdata_i[s][l];
        endcase
      end
    end

    // The load/store unit's request (exec_mem.go): address A + Imm per
    // lane, the value B for a store.
    assign mem_req_valid_o[s] = iv[s] && (cat == CatLd || cat == CatSt) && emask != 32'd0;
    assign mem_req_we_o[s]    = cat == CatSt;
    assign mem_req_space_o[s] = 3'(mods & ModSpaceMask);
    assign mem_req_size_o[s]  = (ty == TyB64 || ty == TyU64 || ty == TyS64) ? 4'd8 : 4'd4;
    assign mem_req_mask_o[s]  = emask;
    for (genvar l = 0; l < 32; l++) begin : g_mem
      assign mem_req_addr_o[s][l]  = opnd[0][l] + imm64;
      assign mem_req_wdata_o[s][l] = opnd[1][l];
      assign brt_idx_o[s][l]       = imm + opnd[0][l][31:0];
    end

    // Results, special registers (sreg.go), flow (flow.go) and the new
    // group (simt.go regroup).
    always_comb begin
      logic [31:0] tid, minpc, runnable;
      logic [DepthWidth-1:0] maxd;
      logic [63:0] lin;
      logic [31:0] cid [3];
      logic [31:0] sr;
      logic [15:0] cg;
      logic [1:0]  ck;
      logic        found;
      x_exits[s] = '0;
      x_call[s]  = '0;
      x_ret[s]   = '0;
      lin = {32'd0, cta_lin_q[cta_q[w]]};
      cid[0] = 32'(lin % {32'd0, nctaid_q[0]});
      cid[1] = 32'(lin / {32'd0, nctaid_q[0]} % {32'd0, nctaid_q[1]});
      cid[2] = 32'(lin / ({32'd0, nctaid_q[0]} * {32'd0, nctaid_q[1]}));
      sr     = '0;
      cg     = '0;
      ck     = '0;
      for (int l = 0; l < 32; l++) begin
        tid = 32'(in_cta_q[w]) * 32'd32 + 32'(l);  // the thread's linear index in the CTA
        x_we[s][l]  = emask[l] && (d1_kind == DReg32 || d1_kind == DReg64);
        unique case (cat)
          // ModLdExt: a signed type sign-extends into the pair (ext64).
          CatLd:  x_res[s][l] = (mem_req_size_o[s] == 4'd8) ? ld_data[l] :
                                ((mods & ModLdExt) != 16'd0 && ty == TyS32)
                                ? {{32{ld_data[l][31]}}, ld_data[l][31:0]} : {32'd0, ld_data[l][31:0]};
          CatS2r: begin
            // sregValue (sreg.go): the thread's and the CTA's indices
            // from their linear indices.
            unique case (imm[15:0])
              SrTidX:    x_res[s][l] = {32'd0, tid % ntid_q[0]};
              SrTidY:    x_res[s][l] = {32'd0, tid / ntid_q[0] % ntid_q[1]};
              SrTidZ:    x_res[s][l] = {32'd0, tid / (ntid_q[0] * ntid_q[1])};
              SrNTidX:   x_res[s][l] = {32'd0, ntid_q[0]};
              SrNTidY:   x_res[s][l] = {32'd0, ntid_q[1]};
              SrNTidZ:   x_res[s][l] = {32'd0, ntid_q[2]};
              SrLaneId:  x_res[s][l] = 64'(l);
              SrWarpId:  x_res[s][l] = 64'(w);
              SrNWarpId: x_res[s][l] = 64'(NumWarps);
              SrCtaIdX:  x_res[s][l] = lin % {32'd0, nctaid_q[0]};
              SrCtaIdY:  x_res[s][l] = lin / {32'd0, nctaid_q[0]} % {32'd0, nctaid_q[1]};
              SrCtaIdZ:  x_res[s][l] = lin / ({32'd0, nctaid_q[0]} * {32'd0, nctaid_q[1]});
              SrNCtaIdX: x_res[s][l] = {32'd0, nctaid_q[0]};
              SrNCtaIdY: x_res[s][l] = {32'd0, nctaid_q[1]};
              SrNCtaIdZ: x_res[s][l] = {32'd0, nctaid_q[2]};
              SrSmId:    x_res[s][l] = 64'(SmId);
              SrNSmId:   x_res[s][l] = 64'(NSmId);
              SrIsExplicitCluster: x_res[s][l] = {63'd0, explicit_cluster_q};
              SrClusterCtaRank: x_res[s][l] = {32'd0, cid[0] % ncluster_q[0] + ncluster_q[0] *
                  (cid[1] % ncluster_q[1] + ncluster_q[1] * (cid[2] % ncluster_q[2]))};
              SrClusterNCtaRank: x_res[s][l] = {32'd0, ncluster_q[0] * ncluster_q[1] * ncluster_q[2]};
              SrLanemaskEq: x_res[s][l] = {32'd0, 32'd1 << l};
              SrLanemaskLe: x_res[s][l] = {32'd0, 32'(64'd2 << l) - 32'd1};
              SrLanemaskLt: x_res[s][l] = {32'd0, (32'd1 << l) - 32'd1};
              SrLanemaskGe: x_res[s][l] = {32'd0, ~((32'd1 << l) - 32'd1)};
              SrLanemaskGt: x_res[s][l] = {32'd0, ~(32'(64'd2 << l) - 32'd1)};
              SrTotalSmemSize:   x_res[s][l] = {32'd0, smem_size_q};
              SrAggrSmemSize:    x_res[s][l] = {32'd0, smem_stride_q};
              SrDynamicSmemSize: x_res[s][l] = {32'd0, dyn_smem_q};
              // trap_unit's registers (sreg.go): warp_esr_o of the warp,
              // s2r_global_esr_o (BPT_INT reads 0).
              SrWarpEsr:   x_res[s][l] = {48'd0, tu_warp_esr[w]};
              // clock_timer's registers (the cycle counter from the
              // launch, the global timer).
              SrClock:         x_res[s][l] = {32'd0, ct_clock};
              SrClockHi:       x_res[s][l] = {32'd0, ct_clock_hi};
              SrClock64:       x_res[s][l] = ct_clock64;
              SrGlobalTimer:   x_res[s][l] = ct_gtimer;
              SrGlobalTimerLo: x_res[s][l] = {32'd0, ct_gtimer_lo};
              SrGlobalTimerHi: x_res[s][l] = {32'd0, ct_gtimer_hi};
              SrGlobalEsr: x_res[s][l] = {48'd0, tu_global_esr & ~smsim_pkg::GlobalEsrBptInt};
              default: begin
                // The cluster registers (.x/.y/.z in order), from the
                // CTA's index and the cluster shape.
                if (imm[15:0] >= SrClusterIdX && imm[15:0] <= SrClusterNCtaIdZ) begin
                  cg = (imm[15:0] - SrClusterIdX) / 16'd3;
                  ck = 2'((imm[15:0] - SrClusterIdX) % 16'd3);
                  unique case (cg)
                    16'd0:   sr = cid[ck] / ncluster_q[ck];       // %clusterid
                    16'd1:   sr = nctaid_q[ck] / ncluster_q[ck];  // %nclusterid
                    16'd2:   sr = cid[ck] % ncluster_q[ck];       // %cluster_ctaid
                    default: sr = ncluster_q[ck];                 // %cluster_nctaid
                  endcase
                end
                x_res[s][l] = {32'd0, sr};
              end
            endcase
          end
          CatWarp: x_res[s][l] = {32'd0, wo_res[l]};
          default: x_res[s][l] = alu_d[l];
        endcase
        // Next PC and call depth of the group's lanes (execFlow).
        x_lane_pc[s][l] = lane_pc_q[w][l];
        // The handler runs at depth 0 (enterHandler); the callstack
        // keeps the user's depths meanwhile (no calls in the handler).
        x_depth[s][l]   = hb_q[w] ? '0 : depth_w[w][l];
        if (mask[l]) begin
          // RTT does not fall through: the resume pulse at this edge
          // sends the warp to the saved PC (exec.go catTrapUnit).
          x_lane_pc[s][l] = x_rtt[s] ? pc : pc + 32'd1;
          if (emask[l]) begin
            unique case (cat)
              CatBra: x_lane_pc[s][l] = imm;
              CatBrx: x_lane_pc[s][l] = brt_val_i[s][l];
              CatCall: begin
                // The callee's entry: Imm, or the function address in A.
                x_lane_pc[s][l] = ((mods & ModCallInd) != 16'd0)
                    ? 32'(opnd[0][l] - FuncAddrBase) : imm;
                x_call[s][l]    = 1'b1;
                if (depth_w[w][l] != DepthWidth'(RetDepth)) x_depth[s][l] = depth_w[w][l] + DepthWidth'(1);
              end
              CatRet: begin
                if (depth_w[w][l] == '0) begin
                  // ret at depth 0 ends the thread.
                  x_lane_pc[s][l] = lane_pc_q[w][l];
                  x_exits[s][l]   = 1'b1;
                end else begin
                  x_lane_pc[s][l] = top_pc_cs[s][l];
                  x_ret[s][l]     = 1'b1;
                  x_depth[s][l]   = depth_w[w][l] - DepthWidth'(1);
                end
              end
              CatExit: begin
                x_lane_pc[s][l] = lane_pc_q[w][l];
                x_exits[s][l]   = 1'b1;
              end
              default: ;
            endcase
          end
        end
      end
      // A predicate destination: the ALU's, or a special register's
      // value other than 0 (writeDest).
      x_p[s] = alu_p;
      x_q[s] = alu_q;
      if (cat == CatS2r) begin
        for (int l = 0; l < 32; l++) x_p[s][l] = x_res[s][l] != 64'd0;
      end
      if (cat == CatWarp) begin
        x_p[s] = wo_p;
        x_q[s] = wo_q;
      end
      // regroup (simt.go): the runnable lanes of the maximum call depth
      // at the minimum PC among them.
      runnable = lane_valid_q[w] & ~(exited_q[w] | x_exits[s]) & ~(blocked_q[w] | x_block[s]);
      found    = 1'b0;
      minpc    = '0;
      maxd     = '0;
      for (int l = 0; l < 32; l++) begin
        if (runnable[l] && (!found || x_depth[s][l] > maxd ||
                            (x_depth[s][l] == maxd && x_lane_pc[s][l] < minpc))) begin
          minpc = x_lane_pc[s][l];
          maxd  = x_depth[s][l];
          found = 1'b1;
        end
      end
      x_gpc[s]   = found ? minpc : pc;
      x_gmask[s] = '0;
      for (int l = 0; l < 32; l++) begin
        x_gmask[s][l] = runnable[l] && x_depth[s][l] == maxd && x_lane_pc[s][l] == minpc;
      end
    end

    assign x_emask[s]   = emask;
    assign x_adv[s]     = ({16'd0, mods} >> ModFrameShift) * 32'd8;
    assign x_d1_kind[s] = d1_kind;
    assign x_d1[s]      = d1;
    assign x_d2_kind[s] = d2_kind;
    assign x_d2[s]      = d2;
    assign x_lat[s]     = lat_of(lat);
    assign x_ctrl[s]    = ctrl;
    assign x_mem[s]     = iv[s] && (cat == CatLd || cat == CatSt);
    // execBar: the guard-true lanes arrive and block (a guard-false
    // warp just advances).
    assign x_bar[s]     = iv[s] && cat == CatBar && emask != 32'd0;
    assign x_long[s]    = cat == CatLd && (mem_req_space_o[s] == SpaceGlobal || mem_req_space_o[s] == SpaceLocal);
    assign x_block[s]   = x_bar[s] ? emask : 32'd0;
    // nanosleep (units.go requestSleep): one duration for the warp, the
    // smallest t of the executing lanes, down to a multiple of the timer's
    // resolution (clocktimer.SleepDuration, sleep.mode exact), at most
    // 1 ms; the warp sleeps from the next cycle.
    assign x_sleep[s] = iv[s] && cat == CatSleep && emask != 32'd0;
    always_comb begin
      logic [63:0] t;
      t = 64'hffff_ffff;
      for (int l = 0; l < 32; l++) begin
        if (emask[l] && {32'd0, opnd[0][l][31:0]} < t) t = {32'd0, opnd[0][l][31:0]};
      end
      t = t - t % SleepRes;
      x_sleep_ns[s] = (t > 64'(smsim_pkg::MaxSleepNs)) ? smsim_pkg::MaxSleepNs : t[31:0];
    end

    // trap_unit's event of the issued instruction (trap.go trapEvent,
    // execTrapUnit, execTrapInst): a BPT, RTT, PTX trap or brkpt with a
    // lane whose guard is true; ev_pc_next_i is its PC + 1.
    assign x_rtt[s]     = iv[s] && op == OpRTT && emask != 32'd0;
    assign x_ev[s]      = iv[s] && (cat == CatTrap || cat == CatTu) && emask != 32'd0 && !x_drain[s];
    // BPT.DRAIN (trap.go execTrapUnit, drainUntil): no event; the warp
    // waits until every pending register and predicate write of its bank
    // is done.
    assign x_drain[s]   = iv[s] && op == OpBPT && (mods & 16'hf) == BptDrain && emask != 32'd0;
    always_comb begin
      x_drain_t[s] = '0;
      for (int r = 0; r < RegBank; r++)
        x_drain_t[s] = max32(x_drain_t[s], rdy_q[w][`SM_RIX(hb_q[w], r)]);
      for (int p = 0; p < PredBank; p++)
        x_drain_t[s] = max32(x_drain_t[s], prdy_q[w][`SM_PIX(hb_q[w], p)]);
    end
    always_comb begin
      x_ev_kind[s] = smsim_pkg::EvNone;
      x_ev_arg[s]  = '0;
      unique case (op)
        OpTRAP:  x_ev_kind[s] = smsim_pkg::EvPtxTrap;
        OpBRKPT: x_ev_kind[s] = smsim_pkg::EvPtxBrkpt;
        OpRTT:   x_ev_kind[s] = smsim_pkg::EvRtt;
        OpIDE:   x_ev_kind[s] = ((mods & ModIdeEnable) != 16'd0) ? smsim_pkg::EvIdeEnable
                                                                 : smsim_pkg::EvIdeDisable;
        OpBPT: begin
          // The BPT modes are the event kinds (trapunit.EventFromInst);
          // a reason above 7 is 0 (illegal).
          x_ev_kind[s] = 4'(mods);
          if ((mods & 16'hf) == BptTrap && imm <= 32'd7) x_ev_arg[s] = 4'(imm);
        end
        default: ;
      endcase
    end

    // IssueOutputs.
    assign issue_valid_o[s] = iv[s];
    assign issue_warp_o[s]  = iv[s] ? w : issue_warp_hold_q[s];
    assign issue_pc_o[s]    = iv[s] ? pc : issue_pc_hold_q[s];
    assign issue_op_o[s]    = iv[s] ? op : 8'hff;  // OpIdle
    assign issue_mask_o[s]  = iv[s] ? mask : issue_mask_hold_q[s];
    assign issue_exec_o[s]  = iv[s] ? emask : issue_exec_hold_q[s];

    // The writeback stage.
    sm_writeback #(
      .Depth         (WbDepth),
      .WarpSlotWidth (WarpSlotWidth)
    ) u_writeback (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .push_i      (iv[s] && lat != LatNoneC && (d1_kind != DNone || d2_kind != DNone)),
      .push_lat_i  (5'(lat_of(lat))),
      .push_warp_i (w),
      .push_pc_i   (pc),
      .wb_valid_o  (wb_valid_o[s]),
      .wb_warp_o   (wb_warp_o[s]),
      .wb_pc_o     (wb_pc_o[s]),
      .wb_count_o  (wb_count_o[s])
    );

    logic unused_exec;
    assign unused_exec = ^{uses_port, supported, iw_local[s], d1_kind, src_used, guard[5:PredIdxWidth]};
  end

  // ---------------------------------------------------------------------
  // clock_timer (units.go): a nanosleep port per scheduler. It counts
  // from the launch (held in reset before it): %clock is the SM's cycle.
  logic [NumSched-1:0]               sl_valid;
  logic [WarpSlotWidth*NumSched-1:0] sl_warp;
  logic [32*NumSched-1:0]            sl_ns;
  logic                              ct_rst_n;
  always_comb begin
    for (int s = 0; s < NumSched; s++) begin
      sl_valid[s]                               = x_sleep[s];
      sl_warp[WarpSlotWidth*s +: WarpSlotWidth] = islot[s];
      sl_ns[32*s +: 32]                         = x_sleep_ns[s];
    end
  end
  assign ct_rst_n = rst_ni && started_q;

  clock_timer #(
    .NumWarps       (NumWarps),
    .NumPorts       (NumSched),
    .MHz            (MHz),
    .ClockStartLo   (0),
    .ClockStartHi   (0),
    .ResolutionNsLo (ResolutionNsLo),
    .ResolutionNsHi (ResolutionNsHi),
    .TimerStartNsLo (TimerStartNsLo),
    .TimerStartNsHi (TimerStartNsHi)
  ) u_clock_timer (
    .clk_i            (clk_i),
    .rst_ni           (ct_rst_n),
    .sleep_valid_i    (sl_valid),
    .sleep_warp_i     (sl_warp),
    .sleep_ns_i       (sl_ns),
    .clock_o          (ct_clock),
    .clock_hi_o       (ct_clock_hi),
    .clock64_o        (ct_clock64),
    .globaltimer_o    (ct_gtimer),
    .globaltimer_lo_o (ct_gtimer_lo),
    .globaltimer_hi_o (ct_gtimer_hi),
    .sleeping_o       (ct_sleeping)
  );

  // ---------------------------------------------------------------------
  // The trap unit (pipeline/trap.go, docs/trap-unit.md "Integration
  // contract"): the cycle's events on a port each, in the cycle's
  // scheduler order from first (trapEvent: the next free port).
  localparam int unsigned EvPorts = NumSched;
  logic [EvPorts-1:0]               ev_valid;
  logic [WarpSlotWidth*EvPorts-1:0] ev_warp;
  logic [4*EvPorts-1:0]             ev_kind, ev_arg;
  logic [32*EvPorts-1:0]            ev_pc_next;
  always_comb begin
    ev_valid   = '0;
    ev_warp    = '0;
    ev_kind    = '0;
    ev_arg     = '0;
    ev_pc_next = '0;
    for (int s = 0; s < NumSched; s++) begin
      int n;
      n = 0;
      for (int t = 0; t < NumSched; t++) begin
        if (((t + NumSched - int'(first)) % NumSched) < ((s + NumSched - int'(first)) % NumSched) &&
            x_ev[t]) begin
          n = n + 1;
        end
      end
      if (x_ev[s]) begin
        ev_valid[n]                               = 1'b1;
        ev_warp[WarpSlotWidth*n +: WarpSlotWidth] = islot[s];
        ev_kind[4*n +: 4]                         = x_ev_kind[s];
        ev_arg[4*n +: 4]                          = x_ev_arg[s];
        ev_pc_next[32*n +: 32]                    = pc_q[islot[s]] + 32'd1;
      end
    end
  end

  // Two instances, one with a trap handler and one without (HasHandler
  // is a parameter and the bench's build serves every launch of its
  // configuration); has_handler_q selects one. Both see the same inputs.
  logic                   th_sm_trapped, th_all_paused, th_irq, th_host_ack, th_rtu;
  logic [NumWarps-1:0]    th_enter, th_resume, th_paused, th_in_handler;
  logic [3:0]             th_irq_cause;
  logic [31:0]            th_irq_count;
  logic [15:0]            th_global_esr, th_s2r_esr;
  logic [2:0]             th_host_err;
  logic [16*NumWarps-1:0] th_warp_esr;
  logic [32*NumWarps-1:0] th_resume_pc;
  logic                   tn_sm_trapped, tn_all_paused, tn_irq, tn_host_ack, tn_rtu;
  logic [NumWarps-1:0]    tn_enter, tn_resume, tn_paused, tn_in_handler;
  logic [3:0]             tn_irq_cause;
  logic [31:0]            tn_irq_count;
  logic [15:0]            tn_global_esr, tn_s2r_esr;
  logic [2:0]             tn_host_err;
  logic [16*NumWarps-1:0] tn_warp_esr;
  logic [32*NumWarps-1:0] tn_resume_pc;

  trap_unit #(
    .NumWarps   (NumWarps),
    .NumPorts   (EvPorts),
    .HasHandler (1)
  ) u_trap_unit (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .warp_live_i       (tu_live),
    .warp_launch_i     (launched_q),
    .warp_pc_i         (tu_pc),
    .ev_valid_i        (ev_valid),
    .ev_warp_i         (ev_warp),
    .ev_kind_i         (ev_kind),
    .ev_arg_i          (ev_arg),
    .ev_pc_next_i      (ev_pc_next),
    .host_cmd_i        (host_cmd_i),
    .host_arg_i        (host_arg_i),
    .sm_trapped_o      (th_sm_trapped),
    .enter_handler_o   (th_enter),
    .resume_o          (th_resume),
    .return_to_user_o  (th_rtu),
    .resume_pc_o       (th_resume_pc),
    .warp_paused_o     (th_paused),
    .warp_in_handler_o (th_in_handler),
    .all_paused_o      (th_all_paused),
    .irq_o             (th_irq),
    .irq_cause_o       (th_irq_cause),
    .irq_count_o       (th_irq_count),
    .global_esr_o      (th_global_esr),
    .s2r_global_esr_o  (th_s2r_esr),
    .warp_esr_o        (th_warp_esr),
    .host_ack_o        (th_host_ack),
    .host_err_o        (th_host_err)
  );

  trap_unit #(
    .NumWarps   (NumWarps),
    .NumPorts   (EvPorts),
    .HasHandler (0)
  ) u_trap_unit_nh (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .warp_live_i       (tu_live),
    .warp_launch_i     (launched_q),
    .warp_pc_i         (tu_pc),
    .ev_valid_i        (ev_valid),
    .ev_warp_i         (ev_warp),
    .ev_kind_i         (ev_kind),
    .ev_arg_i          (ev_arg),
    .ev_pc_next_i      (ev_pc_next),
    .host_cmd_i        (host_cmd_i),
    .host_arg_i        (host_arg_i),
    .sm_trapped_o      (tn_sm_trapped),
    .enter_handler_o   (tn_enter),
    .resume_o          (tn_resume),
    .return_to_user_o  (tn_rtu),
    .resume_pc_o       (tn_resume_pc),
    .warp_paused_o     (tn_paused),
    .warp_in_handler_o (tn_in_handler),
    .all_paused_o      (tn_all_paused),
    .irq_o             (tn_irq),
    .irq_cause_o       (tn_irq_cause),
    .irq_count_o       (tn_irq_count),
    .global_esr_o      (tn_global_esr),
    .s2r_global_esr_o  (tn_s2r_esr),
    .warp_esr_o        (tn_warp_esr),
    .host_ack_o        (tn_host_ack),
    .host_err_o        (tn_host_err)
  );

  assign tu_sm_trapped = has_handler_q ? th_sm_trapped : tn_sm_trapped;
  assign tu_all_paused = has_handler_q ? th_all_paused : tn_all_paused;
  assign tu_irq        = has_handler_q ? th_irq : tn_irq;
  assign tu_host_ack   = has_handler_q ? th_host_ack : tn_host_ack;
  assign tu_enter      = has_handler_q ? th_enter : tn_enter;
  assign tu_resume     = has_handler_q ? th_resume : tn_resume;
  assign tu_paused     = has_handler_q ? th_paused : tn_paused;
  assign tu_in_handler = has_handler_q ? th_in_handler : tn_in_handler;
  assign tu_irq_cause  = has_handler_q ? th_irq_cause : tn_irq_cause;
  assign tu_irq_count  = has_handler_q ? th_irq_count : tn_irq_count;
  assign tu_global_esr = has_handler_q ? th_global_esr : tn_global_esr;
  assign tu_host_err   = has_handler_q ? th_host_err : tn_host_err;
  for (genvar w = 0; w < NumWarps; w++) begin : g_tu
    assign tu_warp_esr[w]  = has_handler_q ? th_warp_esr[16*w +: 16] : tn_warp_esr[16*w +: 16];
    assign tu_resume_pc[w] = has_handler_q ? th_resume_pc[32*w +: 32] : tn_resume_pc[32*w +: 32];
  end

  assign trap_sm_trapped_o      = tu_sm_trapped;
  assign trap_warp_in_handler_o = tu_in_handler;
  assign trap_warp_paused_o     = tu_paused;
  assign trap_all_paused_o      = tu_all_paused;
  assign trap_irq_o             = tu_irq;
  assign trap_irq_cause_o       = tu_irq_cause;
  assign trap_irq_count_o       = tu_irq_count;
  assign trap_global_esr_o      = tu_global_esr;
  assign trap_warp_esr_o        = tu_warp_esr;
  assign trap_resume_pc_o       = tu_resume_pc;
  assign trap_host_ack_o        = tu_host_ack;
  assign trap_host_err_o        = tu_host_err;

  logic unused_trap;
  assign unused_trap = ^{th_rtu, tn_rtu, th_s2r_esr, tn_s2r_esr};

  // ---------------------------------------------------------------------
  // Shared memory: the schedulers' shared-space requests at physical
  // addresses (the CTA slot's base added), the launches' clears.
  logic                smem_valid [NumSched];
  logic [63:0]         smem_addr  [NumSched][32];
  logic [CtaSlots-1:0] smem_clr;
  logic [31:0]         smem_size_q, smem_stride_q;

  always_comb begin
    for (int s = 0; s < NumSched; s++) begin
      smem_valid[s] = mem_req_valid_o[s] && mem_req_space_o[s] == SpaceShared;
      for (int l = 0; l < 32; l++)
        smem_addr[s][l] = 64'(cta_q[islot[s]]) * 64'(smem_stride_q) + mem_req_addr_o[s][l];
    end
  end

  sm_smem #(
    .NumSched (NumSched),
    .CtaSlots (CtaSlots),
    .Bytes    (SmemBytes)
  ) u_smem (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .first_i     (first),
    .req_valid_i (smem_valid),
    .req_we_i    (mem_req_we_o),
    .req_size_i  (mem_req_size_o),
    .req_mask_i  (mem_req_mask_o),
    .req_addr_i  (smem_addr),
    .req_wdata_i (mem_req_wdata_o),
    .rsp_rdata_o (smem_rdata),
    .clr_i       (smem_clr),
    .stride_i    (smem_stride_q),
    .size_i      (smem_size_q)
  );

  // Local memory: LocalBytes per thread, thread (slot, lane) at
  // (slot * 32 + lane) * LocalBytes, zeroed when its warp launches (the
  // Go warp's reset). Without calls the frame pointer is 0, so an
  // address is the offset in the thread's memory.
  localparam int unsigned LocalLaneBytes = (LocalBytes > 0) ? LocalBytes : 1;
  logic        lmem_valid [NumSched];
  logic [63:0] lmem_addr  [NumSched][32];

  always_comb begin
    for (int s = 0; s < NumSched; s++) begin
      lmem_valid[s] = mem_req_valid_o[s] && mem_req_space_o[s] == SpaceLocal;
      for (int l = 0; l < 32; l++)
        lmem_addr[s][l] = (64'(islot[s]) * 64'd32 + 64'(l)) * 64'(LocalLaneBytes) +
                          mem_req_addr_o[s][l] % 64'(LocalLaneBytes);
    end
  end

  sm_smem #(
    .NumSched (NumSched),
    .CtaSlots (NumWarps),
    .Bytes    (NumWarps * 32 * LocalLaneBytes)
  ) u_lmem (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .first_i     (first),
    .req_valid_i (lmem_valid),
    .req_we_i    (mem_req_we_o),
    .req_size_i  (mem_req_size_o),
    .req_mask_i  (mem_req_mask_o),
    .req_addr_i  (lmem_addr),
    .req_wdata_i (mem_req_wdata_o),
    .rsp_rdata_o (lmem_rdata),
    .clr_i       (launch_w),
    .stride_i    (32'(32 * LocalLaneBytes)),
    .size_i      (32'(32 * LocalLaneBytes))
  );

  // ---------------------------------------------------------------------
  // Next state of the warp slots (tick, issue, fetchNext, warpDone,
  // retire), the barrier (arrive, checkBarrier, threadsExited) and the
  // CTA launches (launchCTAs).
  logic        valid_d        [NumWarps];
  logic        done_d         [NumWarps];
  logic [31:0] pc_d           [NumWarps];
  logic [31:0] active_mask_d  [NumWarps];
  logic [31:0] lane_valid_d   [NumWarps];
  logic [31:0] exited_d       [NumWarps];
  logic [31:0] lane_pc_d      [NumWarps][32];
  logic [31:0] fetch_until_d  [NumWarps];
  logic [31:0] branch_until_d [NumWarps];
  logic [31:0] last_issue_d   [NumWarps];
  logic        issued_d       [NumWarps];
  logic [31:0] mem_busy_d     [NumWarps];
  logic [CtaSlotWidth-1:0] cta_d    [NumWarps];
  logic [5:0]              in_cta_d [NumWarps];
  logic [31:0]             cta_lin_d [CtaSlots];
  logic [31:0]             next_cta_d;
  logic [NumWarps-1:0]     launch_w;   // warp slots launched at this edge
  logic [31:0] blocked_d     [NumWarps];
  logic        bar_wait_d    [NumWarps];
  logic [31:0] block_until_d [NumWarps];
  // The next state after this cycle's issue, barrier and fetchNext,
  // before the trap unit's pulses, retirement and launches (*_d).
  logic        valid_a        [NumWarps];
  logic        done_a         [NumWarps];
  logic [31:0] pc_a           [NumWarps];
  logic [31:0] active_mask_a  [NumWarps];
  logic [31:0] lane_valid_a   [NumWarps];
  logic [31:0] exited_a       [NumWarps];
  logic [31:0] lane_pc_a      [NumWarps][32];
  logic [31:0] fetch_until_a  [NumWarps];
  logic [31:0] branch_until_a [NumWarps];
  logic [31:0] last_issue_a   [NumWarps];
  logic        issued_a       [NumWarps];
  logic [31:0] mem_busy_a     [NumWarps];
  logic [CtaSlotWidth-1:0] cta_a    [NumWarps];
  logic [5:0]              in_cta_a [NumWarps];
  logic [31:0]             cta_lin_a [CtaSlots];
  logic [31:0] blocked_a     [NumWarps];
  logic        bar_wait_a    [NumWarps];
  logic [31:0] block_until_a [NumWarps];
  logic [31:0] ublocked_a    [NumWarps];
  logic        drain_a       [NumWarps];
  logic        drain_d       [NumWarps];
  logic        udrain_d      [NumWarps];
  logic [10:0] bar_cnt_a [CtaSlots];
  logic [10:0] live_a    [CtaSlots];
  // The trap handler's context, next.
  logic        hb_d           [NumWarps];
  logic [31:0] ulane_pc_d     [NumWarps][32];
  logic [31:0] ublocked_d     [NumWarps];
  logic [31:0] ublock_until_d [NumWarps];
  logic [31:0] group_d        [NumWarps];
  logic [NumWarps-1:0] hclr;   // clear the handler's bank (an entry)
  // Per CTA slot: the threads arrived at the barrier in its current
  // phase, and the CTA's live threads (cta.liveThreads).
  logic [10:0] bar_cnt_q [CtaSlots];
  logic [10:0] bar_cnt_d [CtaSlots];
  logic [10:0] live_q    [CtaSlots];
  logic [10:0] live_d    [CtaSlots];
  logic [CtaSlots-1:0] release_k;   // the CTA's barrier releases this cycle
  // fetchNext sees the issuing warp's group after its instruction and,
  // for a BAR, after the release its arrival completes.
  logic [NumWarps-1:0] fn_issue, fn_ctrl, fn_bar, fn_pre, fn_rtt;
  // The Go model checks the barrier after each event in the cycle's
  // scheduler order: a BAR completes it when the arrivals and exits of
  // the schedulers up to its own reach the CTA's live threads (then its
  // fetchNext sees the released group; an earlier arrival's does not).
  logic [NumSched-1:0] bar_completes;
  always_comb begin
    for (int s = 0; s < NumSched; s++) begin
      logic [10:0] cnt, live;
      logic [CtaSlotWidth-1:0] k;
      k    = cta_q[islot[s]];
      cnt  = bar_cnt_q[k];
      live = live_q[k];
      for (int t = 0; t < NumSched; t++) begin
        if (iv[t] && cta_q[islot[t]] == k &&
            ((t + NumSched - int'(first)) % NumSched) <= ((s + NumSched - int'(first)) % NumSched)) begin
          cnt  = cnt + 11'($countones(x_block[t]));
          live = live - 11'($countones(x_exits[t]));
        end
      end
      bar_completes[s] = x_bar[s] && cnt >= live;
    end
  end

  // The launch in effect: the inputs at launch_i, then their copies.
  logic        first_launch;
  logic [31:0] l_entry, l_nthreads, l_nwarps, l_nctas, l_max_ctas;
  assign first_launch = launch_i && !started_q;
  assign l_entry      = first_launch ? entry_pc_i : entry_q;
  assign l_nthreads   = first_launch ? nthreads_i : nthreads_q;
  assign l_nwarps     = first_launch ? nwarps_i : nwarps_q;
  assign l_nctas      = first_launch ? nctas_i : nctas_q;
  assign l_max_ctas   = first_launch ? max_ctas_i : max_ctas_q;

  logic [31:0]              nth;   // threads of the warp being launched
  logic [WarpSlotWidth-1:0] xw;    // the warp an issue updates
  logic                     seq;   // fetchNext: its group moved on by one
  logic [31:0]              lcyc;  // the cycle a launch at this edge starts
  logic [CtaSlots-1:0]      cta_busy, cta_taken;
  logic [31:0]              n_res, n_new, lw, lc;
  logic [CtaSlotWidth-1:0]  cur_k;
  logic [31:0]              rg_runnable, rg_minpc, gpc, gmask;  // regroup, fetchNext
  logic                     rg_found;
  logic [DepthWidth-1:0]    rg_maxd;
  logic [DepthWidth-1:0]    lane_depth_n [NumWarps][32];  // the call depths after the edge

  always_comb begin
    xw        = '0;
    seq       = 1'b0;
    rg_runnable = '0;
    rg_minpc    = '0;
    rg_found    = 1'b0;
    rg_maxd     = '0;
    gpc         = '0;
    gmask       = '0;
    release_k  = '0;
    fn_issue   = '0;
    fn_ctrl    = '0;
    fn_bar     = '0;
    fn_pre     = '0;
    fn_rtt     = '0;
    for (int k = 0; k < CtaSlots; k++) begin
      cta_lin_a[k] = cta_lin_q[k];
      bar_cnt_a[k] = bar_cnt_q[k];
      live_a[k]    = live_q[k];
    end
    for (int w = 0; w < NumWarps; w++) begin
      valid_a[w]        = valid_q[w];
      done_a[w]         = done_q[w];
      pc_a[w]           = pc_q[w];
      active_mask_a[w]  = active_mask_q[w];
      lane_valid_a[w]   = lane_valid_q[w];
      exited_a[w]       = exited_q[w];
      lane_pc_a[w]      = lane_pc_q[w];
      fetch_until_a[w]  = fetch_until_q[w];
      branch_until_a[w] = branch_until_q[w];
      last_issue_a[w]   = last_issue_q[w];
      issued_a[w]       = issued_q[w];
      mem_busy_a[w]     = mem_busy_q[w];
      cta_a[w]          = cta_q[w];
      in_cta_a[w]       = in_cta_q[w];
      blocked_a[w]      = blocked_q[w];
      bar_wait_a[w]     = bar_wait_q[w];
      block_until_a[w]  = block_until_q[w];
      drain_a[w]        = drain_q[w];
      ublocked_a[w]     = ublocked_q[w];
      lane_depth_n[w]   = depth_w[w];
    end
    for (int s = 0; s < NumSched; s++) begin
      if (iv[s]) begin
        xw = islot[s];
        lane_depth_n[xw] = x_depth[s];
        issued_a[xw]     = 1'b1;
        last_issue_a[xw] = cycle_q;
        lane_pc_a[xw]    = x_lane_pc[s];
        exited_a[xw]     = exited_q[xw] | x_exits[s];
        pc_a[xw]         = x_gpc[s];
        active_mask_a[xw] = x_gmask[s];
        if (x_mem[s]) mem_busy_a[xw] = max32(mem_busy_q[xw], cycle_q + x_lat[s]);
        if (x_drain[s] && x_drain_t[s] > cycle_q + 32'd1) begin
          block_until_a[xw] = max32(block_until_a[xw], x_drain_t[s]);
          drain_a[xw]       = 1'b1;
        end
        fn_issue[xw] = 1'b1;
        fn_ctrl[xw]  = x_ctrl[s];
        fn_rtt[xw]   = x_rtt[s];
        fn_bar[xw]   = x_bar[s] && bar_completes[s];
        // arrive: the lanes block; a warp with every live lane blocked
        // waits for the release.
        blocked_a[xw] = blocked_q[xw] | x_block[s];
        if (x_bar[s]) begin
          bar_cnt_a[cta_q[xw]] = bar_cnt_a[cta_q[xw]] + 11'($countones(x_block[s]));
          if (x_gmask[s] == 32'd0) begin
            bar_wait_a[xw]    = 1'b1;
            drain_a[xw]       = 1'b0;
            block_until_a[xw] = Never;
          end
        end
        live_a[cta_q[xw]] = live_a[cta_q[xw]] - 11'($countones(x_exits[s]));
        // warpDone.
        if ((lane_valid_q[xw] & ~exited_a[xw]) == 32'd0) done_a[xw] = 1'b1;
      end
    end
    // checkBarrier: the barrier releases when the CTA's live threads have
    // all arrived (arrivals and exits of this cycle counted); the waiting
    // lanes resume, the waiting warps LatBarrier cycles on.
    for (int k = 0; k < CtaSlots; k++) begin
      if (bar_cnt_a[k] != 11'd0 && bar_cnt_a[k] >= live_a[k]) begin
        release_k[k] = 1'b1;
        bar_cnt_a[k] = '0;
      end
    end
    for (int w = 0; w < NumWarps; w++) begin
      // A warp running the trap handler keeps its blocked lanes aside
      // (enterHandler): the release clears them there (barLanes).
      if (valid_a[w] && release_k[cta_a[w]] && hb_q[w]) ublocked_a[w] = '0;
      if (valid_a[w] && release_k[cta_a[w]] && (blocked_a[w] != 32'd0 || bar_wait_a[w])) begin
        blocked_a[w] = '0;
        if (bar_wait_a[w]) begin
          bar_wait_a[w]    = 1'b0;
          block_until_a[w] = cycle_q + 32'(LatBarrier);
        end
        // regroup: the maximum call depth, the minimum PC.
        rg_runnable = lane_valid_a[w] & ~exited_a[w];
        rg_found    = 1'b0;
        rg_minpc    = '0;
        rg_maxd     = '0;
        for (int l = 0; l < 32; l++) begin
          if (rg_runnable[l] && (!rg_found || lane_depth_n[w][l] > rg_maxd ||
                                 (lane_depth_n[w][l] == rg_maxd && lane_pc_a[w][l] < rg_minpc))) begin
            rg_minpc = lane_pc_a[w][l];
            rg_maxd  = lane_depth_n[w][l];
            rg_found = 1'b1;
          end
        end
        if (rg_found) begin
          pc_a[w] = rg_minpc;
          for (int l = 0; l < 32; l++)
            active_mask_a[w][l] = rg_runnable[l] && lane_depth_n[w][l] == rg_maxd &&
                                  lane_pc_a[w][l] == rg_minpc;
        end
        fn_pre[w] = !fn_bar[w];  // fn_bar: its BAR completed the barrier
      end
    end
    // fetchNext.
    for (int w = 0; w < NumWarps; w++) begin
      gpc   = pc_a[w];
      gmask = active_mask_a[w];
      if (fn_issue[w]) begin
        if (fn_pre[w]) begin
          // The release came after this warp's own instruction (a
          // release by exits, or a partly blocked warp's other
          // instruction): fetchNext saw the group before it.
          for (int s = 0; s < NumSched; s++) begin
            if (iv[s] && 32'(islot[s]) == w) begin
              gpc   = x_gpc[s];
              gmask = x_gmask[s];
            end
          end
        end
        seq = gpc == pc_q[w] + 32'd1 || fn_rtt[w];  // RTT: the resume refetches
        if (fn_ctrl[w]) begin
          branch_until_a[w] = cycle_q + 32'(LatBranch);
          if (!seq) fetch_until_a[w] = cycle_q + 32'(LatBranch) + 32'(LatFetch);
        end else if (!seq && gmask != 32'd0) begin
          fetch_until_a[w] = cycle_q + 32'd1 + 32'(LatFetch);
        end
      end
    end
  end

  // trap_unit's warp inputs (trapInputs): the warps live after this
  // cycle's issue and their groups' PCs.
  always_comb begin
    for (int w = 0; w < NumWarps; w++) begin
      tu_live[w]        = valid_a[w] && !done_a[w];
      tu_pc[32*w +: 32] = pc_a[w];
    end
  end

  // The trap unit's pulses (trapTick), retirement and the CTA launches:
  // the next state from the issue's (*_a).
  always_comb begin
    logic [31:0] live_l, runnable, minpc, emine;
    logic [DepthWidth-1:0] maxd;
    logic        found, nh_take, hold;
    live_l   = '0;
    runnable = '0;
    minpc    = '0;
    emine    = '0;
    maxd     = '0;
    found    = 1'b0;
    nth       = '0;
    lcyc      = started_q ? cycle_q + 32'd1 : 32'd0;
    cta_busy  = '0;
    cta_taken = '0;
    n_res     = '0;
    n_new     = '0;
    lw        = '0;
    lc        = '0;
    cur_k     = '0;
    launch_w  = '0;
    next_cta_d = first_launch ? 32'd0 : next_cta_q;
    for (int k = 0; k < CtaSlots; k++) begin
      cta_lin_d[k] = cta_lin_a[k];
      bar_cnt_d[k] = bar_cnt_a[k];
      live_d[k]    = live_a[k];
    end
    for (int w = 0; w < NumWarps; w++) begin
      valid_d[w]        = valid_a[w];
      done_d[w]         = done_a[w];
      pc_d[w]           = pc_a[w];
      active_mask_d[w]  = active_mask_a[w];
      lane_valid_d[w]   = lane_valid_a[w];
      exited_d[w]       = exited_a[w];
      lane_pc_d[w]      = lane_pc_a[w];
      fetch_until_d[w]  = fetch_until_a[w];
      branch_until_d[w] = branch_until_a[w];
      last_issue_d[w]   = last_issue_a[w];
      issued_d[w]       = issued_a[w];
      mem_busy_d[w]     = mem_busy_a[w];
      cta_d[w]          = cta_a[w];
      in_cta_d[w]       = in_cta_a[w];
      blocked_d[w]      = blocked_a[w];
      bar_wait_d[w]     = bar_wait_a[w];
      block_until_d[w]  = block_until_a[w];
      drain_d[w]        = drain_a[w];
      udrain_d[w]       = udrain_q[w];
      hb_d[w]           = hb_q[w];
      ulane_pc_d[w]     = ulane_pc_q[w];
      ublocked_d[w]     = ublocked_a[w];
      ublock_until_d[w] = ublock_until_q[w];
      group_d[w]        = group_q[w];
      hclr[w]           = 1'b0;
    end
    // leaveHandler (resume_o): the user context comes back, the trap's
    // group goes to the saved PC, the lanes regroup (the maximum call
    // depth, the minimum PC; lanes blocked at a barrier that did not
    // release meanwhile wait again).
    for (int w = 0; w < NumWarps; w++) begin
      if (tu_resume[w] && valid_a[w] && !done_a[w]) begin
        live_l = lane_valid_a[w] & ~exited_a[w];
        if (hb_q[w]) begin
          hb_d[w]          = 1'b0;
          lane_pc_d[w]     = ulane_pc_q[w];
          blocked_d[w]     = ublocked_a[w] & live_l;
          block_until_d[w] = (ublock_until_q[w] == Never) ? '0 : ublock_until_q[w];
          drain_d[w]       = udrain_q[w] && ublock_until_q[w] != Never;
          bar_wait_d[w]    = 1'b0;
        end
        for (int l = 0; l < 32; l++) begin
          if (group_q[w][l] && live_l[l]) lane_pc_d[w][l] = tu_resume_pc[w];
        end
        group_d[w] = '0;
        runnable   = live_l & ~blocked_d[w];
        found      = 1'b0;
        minpc      = '0;
        maxd       = '0;
        for (int l = 0; l < 32; l++) begin
          if (runnable[l] && (!found || depth_w[w][l] > maxd ||
                              (depth_w[w][l] == maxd && lane_pc_d[w][l] < minpc))) begin
            minpc = lane_pc_d[w][l];
            maxd  = depth_w[w][l];
            found = 1'b1;
          end
        end
        if (found) pc_d[w] = minpc;
        for (int l = 0; l < 32; l++)
          active_mask_d[w][l] = runnable[l] && depth_w[w][l] == maxd && lane_pc_d[w][l] == minpc;
        if (active_mask_d[w] == 32'd0 && blocked_d[w] != 32'd0 && block_until_d[w] != Never) begin
          bar_wait_d[w]    = 1'b1;
          drain_d[w]       = 1'b0;
          block_until_d[w] = Never;
        end
        fetch_until_d[w] = max32(fetch_until_d[w], cycle_q + 32'd1 + 32'(LatFetch));
      end
    end
    // enterHandler (enter_handler_o): the user context goes aside, the
    // handler's bank is cleared, every live lane starts the handler
    // (converged, barrier waits included). The trap's group: the lanes of
    // the trapping instruction's group, or the warp's group after this
    // cycle's issue for a warp taken in by another's trap (trapGroup). A
    // warp that leaves the handler and takes a held trap (IDE) in the
    // same cycle enters afresh from the context it got back.
    for (int w = 0; w < NumWarps; w++) begin
      if (tu_enter[w] && valid_a[w] && !done_a[w]) begin
        live_l = lane_valid_a[w] & ~exited_a[w];
        emine  = active_mask_d[w];
        for (int s = 0; s < NumSched; s++) begin
          if (x_ev[s] && 32'(islot[s]) == w) emine = active_mask_q[w];
        end
        if (!hb_d[w]) begin
          ulane_pc_d[w]     = lane_pc_d[w];
          ublocked_d[w]     = blocked_d[w];
          ublock_until_d[w] = block_until_d[w];
          udrain_d[w]       = drain_d[w];
          drain_d[w]        = 1'b0;
          group_d[w]        = emine;
          blocked_d[w]      = '0;
          bar_wait_d[w]     = 1'b0;
          block_until_d[w]  = '0;
          hb_d[w]           = 1'b1;
          hclr[w]           = 1'b1;
        end
        for (int l = 0; l < 32; l++) begin
          if (live_l[l]) lane_pc_d[w][l] = handler_pc_q;
        end
        pc_d[w]          = handler_pc_q;
        active_mask_d[w] = live_l;
        fetch_until_d[w] = max32(fetch_until_d[w], cycle_q + 32'd1 + 32'(LatFetch));
      end
    end
    // sm_trapped_q after this edge holds the launches (launchCTAs): a
    // live warp stays in the handler or enters it (without a handler,
    // every live warp enters when a trap is taken).
    nh_take = 1'b0;
    for (int s = 0; s < NumSched; s++) begin
      if (x_ev[s] && (x_ev_kind[s] == smsim_pkg::EvPtxTrap || x_ev_kind[s] == smsim_pkg::EvPtxBrkpt ||
                      x_ev_kind[s] == smsim_pkg::EvBptTrap)) nh_take = !has_handler_q;
    end
    hold = |(tu_live & ~launched_q & ((tu_in_handler & ~tu_resume) | tu_enter | {NumWarps{nh_take}}));
    // retire: a drained warp leaves at the edge into the cycle its memory
    // accesses complete; its CTA stays resident while a warp remains.
    for (int w = 0; w < NumWarps; w++) begin
      if (valid_d[w] && done_d[w] && mem_busy_d[w] <= cycle_q + 32'd1) begin
        valid_d[w]       = 1'b0;
        done_d[w]        = 1'b0;
        pc_d[w]          = '0;
        active_mask_d[w] = '0;
      end
      if (valid_d[w]) cta_busy[cta_d[w]] = 1'b1;
    end
    // launchCTAs: while CTAs remain and fewer than max_ctas are resident,
    // the next CTA's warps take the lowest free warp slots (max_ctas
    // leaves a free slot for each), the CTA the lowest free CTA slot.
    if ((started_q || launch_i) && !hold) begin
      for (int k = 0; k < CtaSlots; k++) n_res = n_res + 32'(cta_busy[k]);
      if (l_max_ctas > n_res) n_new = l_max_ctas - n_res;
      if (l_nctas - next_cta_d < n_new) n_new = l_nctas - next_cta_d;
      for (int w = 0; w < NumWarps; w++) begin
        if (lc < n_new && !valid_d[w]) begin
          if (lw == 32'd0) begin
            for (int k = CtaSlots - 1; k >= 0; k--) begin
              if (!cta_busy[k] && !cta_taken[k]) cur_k = CtaSlotWidth'(k);
            end
            cta_taken[cur_k] = 1'b1;
            cta_lin_d[cur_k] = next_cta_d + lc;
            live_d[cur_k]    = 11'(l_nthreads);
            bar_cnt_d[cur_k] = '0;
          end
          nth = l_nthreads - lw * 32'd32;
          launch_w[w]       = 1'b1;
          valid_d[w]        = 1'b1;
          done_d[w]         = 1'b0;
          cta_d[w]          = cur_k;
          in_cta_d[w]       = 6'(lw);
          lane_valid_d[w]   = (nth >= 32'd32) ? 32'hffff_ffff : ((32'd1 << nth) - 32'd1);
          exited_d[w]       = '0;
          for (int l = 0; l < 32; l++) lane_pc_d[w][l] = l_entry;
          pc_d[w]           = l_entry;
          active_mask_d[w]  = lane_valid_d[w];
          fetch_until_d[w]  = lcyc + 32'(LatFetch);
          branch_until_d[w] = '0;
          last_issue_d[w]   = '0;
          issued_d[w]       = 1'b0;
          mem_busy_d[w]     = '0;
          blocked_d[w]      = '0;
          bar_wait_d[w]     = 1'b0;
          block_until_d[w]  = '0;
          drain_d[w]        = 1'b0;
          lw = lw + 32'd1;
          if (lw == l_nwarps) begin
            lw = '0;
            lc = lc + 32'd1;
          end
        end
      end
      next_cta_d = next_cta_d + n_new;
    end
  end
  assign smem_clr = cta_taken;

  // ---------------------------------------------------------------------
  // The call state (flow.go CALL and RET): each scheduler's port drives
  // the warp slot it issues; a launch clears a slot's.
  logic [31:0] cs_ret_pc [NumSched];
  always_comb begin
    for (int s = 0; s < NumSched; s++) cs_ret_pc[s] = pc_q[islot[s]] + 32'd1;
  end

  sm_callstack #(
    .NumWarps (NumWarps),
    .NumSched (NumSched),
    .Depth    (RetDepth)
  ) u_callstack (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .clr_i      (launch_w),
    .valid_i    (iv),
    .warp_i     (islot),
    .call_i     (x_call),
    .ret_pc_i   (cs_ret_pc),
    .adv_i      (x_adv),
    .ret_i      (x_ret),
    .depth_o    (depth_w),
    .fp_o       (fp_cs),
    .top_pc_o   (top_pc_cs),
    .overflow_o (call_overflow_o)
  );

  // ---------------------------------------------------------------------
  // Registers: q <= d; the register file, the scoreboard and the predicate
  // file through per-scheduler write ports.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q    <= '0;
      started_q  <= 1'b0;
      launched_q <= '0;
      nthreads_q <= '0;
      nwarps_q   <= '0;
      nctas_q    <= '0;
      max_ctas_q <= '0;
      entry_q    <= '0;
      next_cta_q <= '0;
      dyn_smem_q         <= '0;
      explicit_cluster_q <= 1'b0;
      has_handler_q      <= 1'b0;
      handler_pc_q       <= '0;
      for (int i = 0; i < 3; i++) begin
        ntid_q[i]     <= '0;
        nctaid_q[i]   <= '0;
        ncluster_q[i] <= '0;
      end
      smem_size_q   <= '0;
      smem_stride_q <= '0;
      for (int k = 0; k < CtaSlots; k++) begin
        cta_lin_q[k] <= '0;
        bar_cnt_q[k] <= '0;
        live_q[k]    <= '0;
      end
      for (int s = 0; s < NumSched; s++) begin
        issue_warp_hold_q[s] <= '0;
        issue_pc_hold_q[s]   <= '0;
        issue_mask_hold_q[s] <= '0;
        issue_exec_hold_q[s] <= '0;
      end
    end else begin
      started_q  <= started_q || launch_i;
      cycle_q    <= started_q ? cycle_q + 32'd1 : cycle_q;
      launched_q <= launch_w;
      next_cta_q <= next_cta_d;
      if (first_launch) begin
        nthreads_q <= nthreads_i;
        nwarps_q   <= nwarps_i;
        nctas_q    <= nctas_i;
        max_ctas_q <= max_ctas_i;
        entry_q    <= entry_pc_i;
        smem_size_q   <= smem_size_i;
        smem_stride_q <= smem_stride_i;
        dyn_smem_q         <= dyn_smem_i;
        explicit_cluster_q <= explicit_cluster_i;
        has_handler_q      <= has_handler_i;
        handler_pc_q       <= handler_pc_i;
        for (int i = 0; i < 3; i++) begin
          ntid_q[i]     <= ntid_i[i];
          nctaid_q[i]   <= nctaid_i[i];
          ncluster_q[i] <= ncluster_i[i];
        end
      end
      for (int k = 0; k < CtaSlots; k++) begin
        cta_lin_q[k] <= cta_lin_d[k];
        bar_cnt_q[k] <= bar_cnt_d[k];
        live_q[k]    <= live_d[k];
      end
      for (int s = 0; s < NumSched; s++) begin
        if (iv[s]) begin
          issue_warp_hold_q[s] <= islot[s];
          issue_pc_hold_q[s]   <= pc_q[islot[s]];
          issue_mask_hold_q[s] <= active_mask_q[islot[s]];
          issue_exec_hold_q[s] <= x_emask[s];
        end
      end
    end
  end

  // The warp slots' registers, a process per slot (constant indices keep
  // the delayed assignments out of loops at any sm.max_warps).
  for (genvar w = 0; w < NumWarps; w++) begin : g_wreg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        blocked_q[w]      <= '0;
        bar_wait_q[w]     <= 1'b0;
        block_until_q[w]  <= '0;
        valid_q[w]        <= 1'b0;
        done_q[w]         <= 1'b0;
        pc_q[w]           <= '0;
        active_mask_q[w]  <= '0;
        lane_valid_q[w]   <= '0;
        exited_q[w]       <= '0;
        fetch_until_q[w]  <= '0;
        branch_until_q[w] <= '0;
        last_issue_q[w]   <= '0;
        issued_q[w]       <= 1'b0;
        mem_busy_q[w]     <= '0;
        cta_q[w]          <= '0;
        in_cta_q[w]       <= '0;
        hb_q[w]           <= 1'b0;
        drain_q[w]        <= 1'b0;
        udrain_q[w]       <= 1'b0;
        ublocked_q[w]     <= '0;
        ublock_until_q[w] <= '0;
        group_q[w]        <= '0;
        for (int l = 0; l < 32; l++) begin
          lane_pc_q[w][l]  <= '0;
          ulane_pc_q[w][l] <= '0;
        end
      end else begin
        blocked_q[w]      <= blocked_d[w];
        bar_wait_q[w]     <= bar_wait_d[w];
        block_until_q[w]  <= block_until_d[w];
        valid_q[w]        <= valid_d[w];
        done_q[w]         <= done_d[w];
        pc_q[w]           <= pc_d[w];
        active_mask_q[w]  <= active_mask_d[w];
        lane_valid_q[w]   <= lane_valid_d[w];
        exited_q[w]       <= exited_d[w];
        fetch_until_q[w]  <= fetch_until_d[w];
        branch_until_q[w] <= branch_until_d[w];
        last_issue_q[w]   <= last_issue_d[w];
        issued_q[w]       <= issued_d[w];
        mem_busy_q[w]     <= mem_busy_d[w];
        cta_q[w]          <= cta_d[w];
        in_cta_q[w]       <= in_cta_d[w];
        hb_q[w]           <= hb_d[w];
        drain_q[w]        <= drain_d[w];
        udrain_q[w]       <= udrain_d[w];
        ublocked_q[w]     <= ublocked_d[w];
        ublock_until_q[w] <= ublock_until_d[w];
        group_q[w]        <= group_d[w];
        for (int l = 0; l < 32; l++) begin
          lane_pc_q[w][l]  <= lane_pc_d[w][l];
          ulane_pc_q[w][l] <= ulane_pc_d[w][l];
        end
      end
    end
  end

  // Write ports: the predicates (writeDest, lanes of emask) and the
  // scoreboard (the destinations are available lat cycles on), which a
  // launch clears (the Go warp's reset); an entry into the trap handler
  // clears the handler's bank (enterHandler: a fresh bank), after the
  // cycle's own write, which goes to the user's bank.
  for (genvar w = 0; w < NumWarps; w++) begin : g_wport
    always_ff @(posedge clk_i) begin
      if (launch_w[w]) begin
        for (int r = 0; r < 2 * RegBank; r++) begin
          rdy_q[w][r]   <= '0;
          rlong_q[w][r] <= 1'b0;
        end
        for (int p = 0; p < 2 * PredBank; p++) begin
          prdy_q[w][p] <= '0;
          pr_q[w][p]   <= '0;
        end
      end else begin
        for (int s = 0; s < NumSched; s++) begin
          if (iv[s] && 32'(islot[s]) == w) begin
            if (x_lat[s] != 32'd0) begin
              unique case (x_d1_kind[s])
                DReg32: begin
                  rdy_q[w][`SM_RIX(hb_q[w], x_d1[s])]   <= cycle_q + x_lat[s];
                  rlong_q[w][`SM_RIX(hb_q[w], x_d1[s])] <= x_long[s];
                end
                DReg64: begin
                  rdy_q[w][`SM_RIX(hb_q[w], x_d1[s])]          <= cycle_q + x_lat[s];
                  rdy_q[w][`SM_RIX(hb_q[w], x_d1[s] + 8'd1)]   <= cycle_q + x_lat[s];
                  rlong_q[w][`SM_RIX(hb_q[w], x_d1[s])]        <= x_long[s];
                  rlong_q[w][`SM_RIX(hb_q[w], x_d1[s] + 8'd1)] <= x_long[s];
                end
                DPred:  prdy_q[w][`SM_PIX(hb_q[w], x_d1[s])] <= cycle_q + x_lat[s];
                default: ;
              endcase
              if (x_d2_kind[s] == DPred) prdy_q[w][`SM_PIX(hb_q[w], x_d2[s])] <= cycle_q + x_lat[s];
            end
            if (x_d1_kind[s] == DPred)
              pr_q[w][`SM_PIX(hb_q[w], x_d1[s])] <=
                (pr_q[w][`SM_PIX(hb_q[w], x_d1[s])] & ~x_emask[s]) | (x_p[s] & x_emask[s]);
            if (x_d2_kind[s] == DPred)
              pr_q[w][`SM_PIX(hb_q[w], x_d2[s])] <=
                (pr_q[w][`SM_PIX(hb_q[w], x_d2[s])] & ~x_emask[s]) | (x_q[s] & x_emask[s]);
          end
        end
        if (hclr[w]) begin
          for (int r = RegBank; r < 2 * RegBank; r++) begin
            rdy_q[w][r]   <= '0;
            rlong_q[w][r] <= 1'b0;
          end
          for (int p = PredBank; p < 2 * PredBank; p++) begin
            prdy_q[w][p] <= '0;
            pr_q[w][p]   <= '0;
          end
        end
      end
    end
  end

  // The register file: one write port per scheduler, lanes of emask. It
  // is not cleared at launch (a kernel reading a register it never wrote
  // is undefined in PTX; the Go model's read zero).
  always_ff @(posedge clk_i) begin
    for (int s = 0; s < NumSched; s++) begin
      for (int l = 0; l < 32; l++) begin
        if (iv[s] && x_we[s][l]) begin
          rf_q[islot[s]][`SM_RIX(hb_q[islot[s]], x_d1[s])][l] <= x_res[s][l][31:0];
          if (x_d1_kind[s] == DReg64)
            rf_q[islot[s]][`SM_RIX(hb_q[islot[s]], x_d1[s] + 8'd1)][l] <= x_res[s][l][63:32];
        end
      end
    end
  end

  // ---------------------------------------------------------------------
  // The load/store stages' observation registers (lsu.go request): tags
  // count requests from 1, in the cycle's scheduler order from first.
  logic                     lsu_valid_q [NumSched];
  logic [1:0]               lsu_op_q    [NumSched];
  logic [2:0]               lsu_space_q [NumSched];
  logic [WarpSlotWidth-1:0] lsu_warp_q  [NumSched];
  logic [31:0]              lsu_mask_q  [NumSched];
  logic [6:0]               lsu_size_q  [NumSched];
  logic [31:0]              lsu_tag_q   [NumSched];
  logic [63:0]              lsu_addr_q  [NumSched][32];
  logic [31:0]              tag_q, tag_d;
  logic [31:0]              req_tag     [NumSched];

  always_comb begin
    tag_d = tag_q;
    for (int s = 0; s < NumSched; s++) begin
      logic [31:0] n;
      n = '0;
      for (int t = 0; t < NumSched; t++) begin
        if (((t + NumSched - int'(first)) % NumSched) < ((s + NumSched - int'(first)) % NumSched) &&
            mem_req_valid_o[t]) begin
          n = n + 32'd1;
        end
      end
      req_tag[s] = tag_q + n + 32'd1;
      if (mem_req_valid_o[s]) tag_d = tag_d + 32'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tag_q <= '0;
      for (int s = 0; s < NumSched; s++) begin
        lsu_valid_q[s] <= 1'b0;
        lsu_op_q[s]    <= '0;
        lsu_space_q[s] <= '0;
        lsu_warp_q[s]  <= '0;
        lsu_mask_q[s]  <= '0;
        lsu_size_q[s]  <= '0;
        lsu_tag_q[s]   <= '0;
      end
    end else begin
      tag_q <= tag_d;
      for (int s = 0; s < NumSched; s++) begin
        lsu_valid_q[s] <= mem_req_valid_o[s];
        if (mem_req_valid_o[s]) begin
          lsu_op_q[s]    <= mem_req_we_o[s] ? 2'd1 : 2'd0;  // MemStore : MemLoad
          lsu_space_q[s] <= mem_req_space_o[s];
          lsu_warp_q[s]  <= islot[s];
          lsu_mask_q[s]  <= mem_req_mask_o[s];
          lsu_size_q[s]  <= 7'(mem_req_size_o[s]);
          lsu_tag_q[s]   <= req_tag[s];
        end
      end
    end
  end

  for (genvar s = 0; s < NumSched; s++) begin : g_lsu
    for (genvar l = 0; l < 32; l++) begin : g_addr
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          lsu_addr_q[s][l] <= '0;
        end else if (mem_req_valid_o[s] && mem_req_mask_o[s][l]) begin
          lsu_addr_q[s][l] <= mem_req_addr_o[s][l];
        end
      end
    end
  end

  assign lsu_valid_o = lsu_valid_q;
  assign lsu_op_o    = lsu_op_q;
  assign lsu_space_o = lsu_space_q;
  assign lsu_warp_o  = lsu_warp_q;
  assign lsu_mask_o  = lsu_mask_q;
  assign lsu_size_o  = lsu_size_q;
  assign lsu_tag_o   = lsu_tag_q;
  assign lsu_addr_o  = lsu_addr_q;

  // ---------------------------------------------------------------------
  // (4) The run ends when the grid's CTAs have all launched and retired.
  always_comb begin
    logic any;
    any = 1'b0;
    for (int w = 0; w < NumWarps; w++) any = any | valid_q[w];
    done_o = started_q && !any && next_cta_q >= nctas_q;
  end
  assign status_o = done_o ? StatusCompleted : StatusRunning;
  assign cycle_o  = cycle_q;

`undef SM_RIX
`undef SM_PIX

endmodule
