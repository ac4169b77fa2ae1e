// sm_tb: the SM lockstep's test bench (docs/sm-rtl.md sections 2-4), not
// synthesizable. It loads the image and the memories the Go side wrote
// ($readmemh: +code= +consts= +param= +global= +brtables=; global holds
// the image's .global data and the bound buffers), launches the grid
// (+entry= +nthreads= +nwarps= per CTA, +ntid_x/y/z= the block,
// +nctaid_x/y/z= the grid, +nctas= its CTAs, +max_ctas= resident at
// once, +smem_size= +smem_stride= a CTA's shared memory and the distance
// between two CTA slots' shared memory; +has_handler=1 +handler_pc= the
// trap handler), serves the fetch, constant,
// branch-table and memory ports from behavioural memories with the flat model's timing (read and
// written at issue), and hands one record per cycle to sm_main.cpp, which
// writes the binary record stream (docs/sm-rtl.md section 4) for the Go
// side; the Go side steps the Go SM beside it and compares. A record is
// RecFields values in this order (DPI-C sm_rec_field, one call each):
//
//   per scheduler  I: valid warp pc op mask exec
//   per scheduler  W: valid warp pc count
//   per warp slot  P: pc mask
//   per scheduler  L: valid op space warp mask size tag addr[0..31]
//   trap unit      T: sm_trapped in_handler paused global_esr irq_count
//   per warp slot  E: warp_esr resume_pc
//
// It is also the CPU (the host agent of trapunit.Host with the default
// policies, abort on a trap and on a breakpoint): each cycle it reads the
// trap unit's outputs and drives a host command the next cycle, and when
// the SM is trapped with every live warp paused (all_paused_o) it stops
// the run, as the Go host's Stop does (status trapped).
//
// At the end (done_o, the host's stop, or +max_cycles=) it ends the
// stream (sm_rec_done, with the status: 1 completed, 2 trapped, 0
// neither), prints "sm_tb: done at cycle N", writes global memory
// [+dump_lo, +dump_hi) to +dump= and finishes. A call past the SM's return stack
// (call_overflow_o) stops the bench with an error (no end record).
module sm_tb #(
  parameter int unsigned NumWarps    = 8,
  parameter int unsigned NumSched    = 2,
  parameter int unsigned MaxRegs     = 16,
  parameter int unsigned MaxPreds    = 8,
  parameter int unsigned LatAlu      = 2,
  parameter int unsigned LatMul      = 2,
  parameter int unsigned LatDiv      = 4,
  parameter int unsigned LatSReg     = 1,
  parameter int unsigned LatParam    = 1,
  parameter int unsigned LatGlobal   = 8,
  parameter int unsigned LatBranch   = 1,
  parameter int unsigned LatFetch    = 1,
  parameter int unsigned LatShared   = 4,
  parameter int unsigned LatBarrier  = 1,
  parameter int unsigned SmemBytes   = 16384,
  parameter int unsigned LatLocal    = 8,
  parameter int unsigned LocalBytes  = 1024,
  parameter int unsigned GlobalPorts = 1,
  parameter int unsigned Policy      = smsim_pkg::SchedPolicyLrr,
  parameter int unsigned MaxCtas     = 4,
  parameter int unsigned TwoLevelActive = 2,
  parameter int unsigned SmId        = 0,
  parameter int unsigned NSmId       = 1,
  parameter int unsigned GlobalBytes = 1048576,
  parameter int unsigned CodeWords   = 4096,
  parameter int unsigned ParamBytes  = 4096,
  parameter int unsigned ConstWords  = 1024,
  parameter int unsigned BrtWords    = 1024,
  parameter int unsigned RetDepth    = 16,
  parameter int unsigned MHz            = 1755,
  parameter int unsigned ResolutionNsLo = 32,
  parameter int unsigned ResolutionNsHi = 0,
  parameter int unsigned TimerStartNsLo = 0,
  parameter int unsigned TimerStartNsHi = 0,
  parameter int unsigned WarpSlotWidth = (NumWarps > 1) ? $clog2(NumWarps) : 1
) (
  input logic clk_i,
  input logic rst_ni
);
  logic [127:0] code   [CodeWords];
  logic [63:0]  consts [ConstWords];
  logic [31:0]  brt    [BrtWords];
  logic [7:0]   pmem   [ParamBytes];
  logic [7:0]   gmem   [GlobalBytes];

  logic [31:0] entry, nthreads, nwarps, nctas, max_ctas, smem_size, smem_stride, dyn_smem;
  logic [31:0] explicit_cluster, has_handler, handler_pc;
  logic [31:0] ncluster [3];
  logic [31:0] ntid [3];
  logic [31:0] nctaid [3];
  longint unsigned max_cycles, dump_lo, dump_hi;
  string code_f, consts_f, param_f, global_f, dump_f, brt_f;

  initial begin
    for (int i = 0; i < CodeWords; i++) code[i] = '0;
    for (int i = 0; i < ConstWords; i++) consts[i] = '0;
    for (int i = 0; i < BrtWords; i++) brt[i] = '0;
    for (int i = 0; i < ParamBytes; i++) pmem[i] = '0;
    for (int i = 0; i < GlobalBytes; i++) gmem[i] = '0;
    if ($value$plusargs("code=%s", code_f)) $readmemh(code_f, code);
    if ($value$plusargs("consts=%s", consts_f)) $readmemh(consts_f, consts);
    if ($value$plusargs("brtables=%s", brt_f)) $readmemh(brt_f, brt);
    if ($value$plusargs("param=%s", param_f)) $readmemh(param_f, pmem);
    if ($value$plusargs("global=%s", global_f)) $readmemh(global_f, gmem);
    if (!$value$plusargs("entry=%d", entry)) entry = 0;
    if (!$value$plusargs("nthreads=%d", nthreads)) nthreads = 32;
    if (!$value$plusargs("nwarps=%d", nwarps)) nwarps = 1;
    if (!$value$plusargs("ntid_x=%d", ntid[0])) ntid[0] = nthreads;
    if (!$value$plusargs("ntid_y=%d", ntid[1])) ntid[1] = 1;
    if (!$value$plusargs("ntid_z=%d", ntid[2])) ntid[2] = 1;
    if (!$value$plusargs("nctaid_x=%d", nctaid[0])) nctaid[0] = 1;
    if (!$value$plusargs("nctaid_y=%d", nctaid[1])) nctaid[1] = 1;
    if (!$value$plusargs("nctaid_z=%d", nctaid[2])) nctaid[2] = 1;
    if (!$value$plusargs("nctas=%d", nctas)) nctas = 1;
    if (!$value$plusargs("max_ctas=%d", max_ctas)) max_ctas = 1;
    if (!$value$plusargs("smem_size=%d", smem_size)) smem_size = 0;
    if (!$value$plusargs("smem_stride=%d", smem_stride)) smem_stride = 0;
    if (!$value$plusargs("dyn_smem=%d", dyn_smem)) dyn_smem = 0;
    if (!$value$plusargs("explicit_cluster=%d", explicit_cluster)) explicit_cluster = 0;
    if (!$value$plusargs("ncluster_x=%d", ncluster[0])) ncluster[0] = 1;
    if (!$value$plusargs("ncluster_y=%d", ncluster[1])) ncluster[1] = 1;
    if (!$value$plusargs("ncluster_z=%d", ncluster[2])) ncluster[2] = 1;
    if (!$value$plusargs("has_handler=%d", has_handler)) has_handler = 0;
    if (!$value$plusargs("handler_pc=%d", handler_pc)) handler_pc = 0;
    if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 1000000;
    if (!$value$plusargs("dump_lo=%d", dump_lo)) dump_lo = 0;
    if (!$value$plusargs("dump_hi=%d", dump_hi)) dump_hi = 0;
    if (!$value$plusargs("dump=%s", dump_f)) dump_f = "";
  end

  // The launch: one cycle after reset, before cycle 0.
  logic launch_q, launched_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      launch_q   <= 1'b1;
      launched_q <= 1'b0;
    end else begin
      launch_q   <= 1'b0;
      launched_q <= launched_q || launch_q;
    end
  end

  logic [31:0]              fetch_pc   [NumWarps];
  logic [127:0]             fetch_inst [NumWarps];
  logic [9:0]               const_idx  [NumSched][3];
  logic [63:0]              const_val  [NumSched][3];
  logic [31:0]              brt_idx    [NumSched][32];
  logic [31:0]              brt_val    [NumSched][32];
  logic                     call_overflow;
  logic                     req_valid  [NumSched];
  logic                     req_we     [NumSched];
  logic [2:0]               req_space  [NumSched];
  logic [3:0]               req_size   [NumSched];
  logic [31:0]              req_mask   [NumSched];
  logic [63:0]              req_addr   [NumSched][32];
  logic [63:0]              req_wdata  [NumSched][32];
  logic [63:0]              rsp_rdata  [NumSched][32];
  logic                     lsu_valid [NumSched];
  logic [1:0]               lsu_op    [NumSched];
  logic [2:0]               lsu_space [NumSched];
  logic [WarpSlotWidth-1:0] lsu_warp  [NumSched];
  logic [31:0]              lsu_mask  [NumSched];
  logic [6:0]               lsu_size  [NumSched];
  logic [31:0]              lsu_tag   [NumSched];
  logic [63:0]              lsu_addr  [NumSched][32];
  logic                     issue_valid [NumSched];
  logic [WarpSlotWidth-1:0] issue_warp  [NumSched];
  logic [31:0]              issue_pc    [NumSched];
  logic [7:0]               issue_op    [NumSched];
  logic [31:0]              issue_mask  [NumSched];
  logic [31:0]              issue_exec  [NumSched];
  logic                     wb_valid [NumSched];
  logic [WarpSlotWidth-1:0] wb_warp  [NumSched];
  logic [31:0]              wb_pc    [NumSched];
  logic [3:0]               wb_count [NumSched];
  logic                     warp_valid [NumWarps];
  logic [31:0]              warp_pc    [NumWarps];
  logic [31:0]              warp_mask  [NumWarps];
  logic [31:0]              cycle;
  logic                     done;
  logic [2:0]               status;
  logic [2:0]               host_cmd;
  logic [15:0]              host_arg;
  logic                     host_stop, host_acked;
  logic                     t_trapped, t_all_paused, t_irq, t_host_ack;
  logic [NumWarps-1:0]      t_in_handler, t_paused;
  logic [3:0]               t_irq_cause;
  logic [31:0]              t_irq_count;
  logic [15:0]              t_global_esr;
  logic [2:0]               t_host_err;
  logic [15:0]              t_warp_esr  [NumWarps];
  logic [31:0]              t_resume_pc [NumWarps];

  sm_top #(
    .NumWarps (NumWarps), .NumSched (NumSched), .MaxRegs (MaxRegs), .MaxPreds (MaxPreds),
    .LatAlu (LatAlu), .LatMul (LatMul), .LatDiv (LatDiv), .LatSReg (LatSReg), .LatParam (LatParam),
    .LatGlobal (LatGlobal), .LatBranch (LatBranch), .LatFetch (LatFetch),
    .LatShared (LatShared), .LatBarrier (LatBarrier), .SmemBytes (SmemBytes),
    .LatLocal (LatLocal), .LocalBytes (LocalBytes),
    .GlobalPorts (GlobalPorts), .Policy (Policy), .MaxCtas (MaxCtas),
    .TwoLevelActive (TwoLevelActive), .SmId (SmId), .NSmId (NSmId), .RetDepth (RetDepth),
    .MHz (MHz), .ResolutionNsLo (ResolutionNsLo), .ResolutionNsHi (ResolutionNsHi),
    .TimerStartNsLo (TimerStartNsLo), .TimerStartNsHi (TimerStartNsHi)
  ) u_sm_top (
    .clk_i (clk_i), .rst_ni (rst_ni),
    .launch_i (launch_q), .entry_pc_i (entry), .ntid_i (ntid), .nctaid_i (nctaid),
    .nthreads_i (nthreads), .nwarps_i (nwarps), .nctas_i (nctas), .max_ctas_i (max_ctas),
    .smem_size_i (smem_size), .smem_stride_i (smem_stride), .dyn_smem_i (dyn_smem),
    .ncluster_i (ncluster), .explicit_cluster_i (explicit_cluster[0]),
    .has_handler_i (has_handler[0]), .handler_pc_i (handler_pc),
    .host_cmd_i (host_cmd), .host_arg_i (host_arg),
    .trap_sm_trapped_o (t_trapped), .trap_warp_in_handler_o (t_in_handler),
    .trap_warp_paused_o (t_paused), .trap_all_paused_o (t_all_paused), .trap_irq_o (t_irq),
    .trap_irq_cause_o (t_irq_cause), .trap_irq_count_o (t_irq_count),
    .trap_global_esr_o (t_global_esr), .trap_warp_esr_o (t_warp_esr),
    .trap_resume_pc_o (t_resume_pc), .trap_host_ack_o (t_host_ack), .trap_host_err_o (t_host_err),
    .fetch_pc_o (fetch_pc), .fetch_inst_i (fetch_inst),
    .const_idx_o (const_idx), .const_val_i (const_val),
    .brt_idx_o (brt_idx), .brt_val_i (brt_val),
    .mem_req_valid_o (req_valid), .mem_req_we_o (req_we), .mem_req_space_o (req_space),
    .mem_req_size_o (req_size), .mem_req_mask_o (req_mask), .mem_req_addr_o (req_addr),
    .mem_req_wdata_o (req_wdata), .mem_rsp_rdata_i (rsp_rdata),
    .lsu_valid_o (lsu_valid), .lsu_op_o (lsu_op), .lsu_space_o (lsu_space),
    .lsu_warp_o (lsu_warp), .lsu_mask_o (lsu_mask), .lsu_size_o (lsu_size),
    .lsu_tag_o (lsu_tag), .lsu_addr_o (lsu_addr),
    .issue_valid_o (issue_valid), .issue_warp_o (issue_warp), .issue_pc_o (issue_pc),
    .issue_op_o (issue_op), .issue_mask_o (issue_mask), .issue_exec_o (issue_exec),
    .wb_valid_o (wb_valid), .wb_warp_o (wb_warp), .wb_pc_o (wb_pc), .wb_count_o (wb_count),
    .warp_valid_o (warp_valid), .warp_pc_o (warp_pc), .warp_active_mask_o (warp_mask),
    .cycle_o (cycle), .done_o (done), .call_overflow_o (call_overflow), .status_o (status)
  );

  // Fetch, constant and branch-table ports.
  always_comb begin
    for (int w = 0; w < NumWarps; w++) fetch_inst[w] = code[fetch_pc[w] % CodeWords];
    for (int s = 0; s < NumSched; s++) begin
      for (int i = 0; i < 3; i++) const_val[s][i] = consts[const_idx[s][i] % ConstWords];
      for (int l = 0; l < 32; l++) brt_val[s][l] = brt[brt_idx[s][l] % BrtWords];
    end
  end

  // Memory port: param and global, little-endian, read at issue.
  always_comb begin
    for (int s = 0; s < NumSched; s++) begin
      for (int l = 0; l < 32; l++) begin
        rsp_rdata[s][l] = '0;
        for (int b = 0; b < 8; b++) begin
          if (b < int'(req_size[s])) begin
            if (req_space[s] == sm_isa_pkg::SpaceParam)
              rsp_rdata[s][l][8*b +: 8] = pmem[(req_addr[s][l] + 64'(b)) % ParamBytes];
            else
              rsp_rdata[s][l][8*b +: 8] = gmem[(req_addr[s][l] + 64'(b)) % GlobalBytes];
          end
        end
      end
    end
  end

  // Stores, at the edge, lane by lane (a later lane wins, as in Go).
  // Blocking writes of a behavioural memory: nothing else reads gmem at
  // the edge.
  always @(posedge clk_i) begin
    for (int s = 0; s < NumSched; s++) begin
      if (req_valid[s] && req_we[s] && req_space[s] == sm_isa_pkg::SpaceGlobal) begin
        for (int l = 0; l < 32; l++) begin
          if (req_mask[s][l]) begin
            for (int b = 0; b < 8; b++) begin
              if (b < int'(req_size[s]))
                gmem[(req_addr[s][l] + 64'(b)) % GlobalBytes] = req_wdata[s][l][8*b +: 8];
            end
          end
        end
      end
    end
  end

  // The host agent (trapunit.Host, policies abort/abort): from the
  // cycle's outputs, the next cycle's command. Every stop it sees
  // (all_paused_o) aborts the run; an interrupt is acknowledged once; a
  // BPT.INT bit outside a trap is cleared.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      host_cmd   <= smsim_pkg::HostNone;
      host_arg   <= '0;
      host_stop  <= 1'b0;
      host_acked <= 1'b0;
    end else if (launched_q) begin
      host_cmd <= smsim_pkg::HostNone;
      host_arg <= '0;
      if (t_all_paused) begin
        host_stop <= 1'b1;
      end else if (t_irq && !host_acked) begin
        host_acked <= 1'b1;
        host_cmd   <= smsim_pkg::HostAckIrq;
        host_arg   <= 16'(t_irq_cause);
      end else begin
        host_acked <= 1'b0;
        if ((t_global_esr & smsim_pkg::GlobalEsrBptInt) != 16'd0 && !t_trapped) begin
          host_cmd <= smsim_pkg::HostClearGlobalEsr;
          host_arg <= smsim_pkg::GlobalEsrBptInt;
        end
      end
    end
  end

  // The per-cycle record, sampled before the edge, through DPI-C into
  // sm_main.cpp (sm_rec_*), which keeps the stream's format. To add a
  // field: call sm_rec_field for it at its place in the order below,
  // raise RecFields, and read it at the same place on the Go side
  // (cosim/sm.go, smRecFields and smFromFields; docs/sm-rtl.md section 4).
  localparam int unsigned RecFields = NumSched * 6 + NumSched * 4 + NumWarps * 2 + NumSched * (7 + 32) +
                                      5 + NumWarps * 2;
  import "DPI-C" function bit sm_rec_open(input int unsigned nsched, input int unsigned nwarps,
                                          input int unsigned nfields);
  import "DPI-C" function void sm_rec_cycle(input int unsigned cyc);
  import "DPI-C" function void sm_rec_field(input longint unsigned v);
  import "DPI-C" function void sm_rec_end();
  import "DPI-C" function void sm_rec_done(input int unsigned cyc, input int unsigned status);

  bit rec_on;
  initial rec_on = sm_rec_open(NumSched, NumWarps, RecFields);

  always_ff @(posedge clk_i) begin
    if (launched_q && call_overflow) begin
      $display("sm_tb: error: at cycle %0d a call nests deeper than the SM RTL's return stack (RetDepth %0d entries per thread; docs/sm-rtl.md section 6)",
               cycle, RetDepth);
      $finish;
    end else if (launched_q) begin
      if (done || host_stop || 64'(cycle) >= max_cycles) begin
        sm_rec_done(cycle, done ? 1 : host_stop ? 2 : 0);
        $display("sm_tb: done at cycle %0d%s", cycle, done ? "" : host_stop ? " (trapped: the host aborts)" : "");
        if (dump_f != "" && dump_hi > dump_lo) $writememh(dump_f, gmem, dump_lo, dump_hi - 1);
        $finish;
      end else if (rec_on) begin
        sm_rec_cycle(cycle);
        for (int s = 0; s < NumSched; s++) begin
          sm_rec_field(64'(issue_valid[s]));
          sm_rec_field(64'(issue_warp[s]));
          sm_rec_field(64'(issue_pc[s]));
          sm_rec_field(64'(issue_op[s]));
          sm_rec_field(64'(issue_mask[s]));
          sm_rec_field(64'(issue_exec[s]));
        end
        for (int s = 0; s < NumSched; s++) begin
          sm_rec_field(64'(wb_valid[s]));
          sm_rec_field(64'(wb_warp[s]));
          sm_rec_field(64'(wb_pc[s]));
          sm_rec_field(64'(wb_count[s]));
        end
        for (int w = 0; w < NumWarps; w++) begin
          sm_rec_field(64'(warp_pc[w]));
          sm_rec_field(64'(warp_mask[w]));
        end
        for (int s = 0; s < NumSched; s++) begin
          sm_rec_field(64'(lsu_valid[s]));
          sm_rec_field(64'(lsu_op[s]));
          sm_rec_field(64'(lsu_space[s]));
          sm_rec_field(64'(lsu_warp[s]));
          sm_rec_field(64'(lsu_mask[s]));
          sm_rec_field(64'(lsu_size[s]));
          sm_rec_field(64'(lsu_tag[s]));
          for (int l = 0; l < 32; l++) sm_rec_field(lsu_addr[s][l]);
        end
        sm_rec_field(64'(t_trapped));
        sm_rec_field(64'(t_in_handler));
        sm_rec_field(64'(t_paused));
        sm_rec_field(64'(t_global_esr));
        sm_rec_field(64'(t_irq_count));
        for (int w = 0; w < NumWarps; w++) begin
          sm_rec_field(64'(t_warp_esr[w]));
          sm_rec_field(64'(t_resume_pc[w]));
        end
        sm_rec_end();
      end
    end
  end

  logic unused;
  assign unused = ^{status, t_host_ack, t_host_err};
endmodule
