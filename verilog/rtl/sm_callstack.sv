// sm_callstack: one warp slot's call state, twin of the Go warp's depth,
// fp and stack (pipeline/warp.go) as CALL and RET change them
// (pipeline/flow.go execFlow): per lane the call depth, the frame pointer
// (the FP operand: local memory is addressed relative to it) and a return
// stack of Depth entries (the return PC and the caller's frame pointer).
//
// The Go model's stack holds 65,536 entries (maxCallDepth); this one holds
// Depth (sm_top's RetDepth, docs/sm-rtl.md section 6). A call by a lane
// whose stack is full raises overflow_o and changes nothing (the bench
// stops with an error: the lockstep cannot go on).
module sm_callstack #(
  parameter int unsigned Depth      = 16,
  // Derived; do not override.
  parameter int unsigned DepthWidth = $clog2(Depth + 1),
  parameter int unsigned EntryWidth = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  input  logic                  clr_i,     // the warp launches: depth and fp 0 (warp.reset)
  input  logic [31:0]           call_i,    // lanes that call: push (ret_pc_i, fp), fp += adv_i
  input  logic [31:0]           ret_pc_i,  // the PC after the CALL
  input  logic [31:0]           adv_i,     // the frame advance in bytes
  input  logic [31:0]           ret_i,     // lanes that return: pop (pc, fp); only lanes of depth > 0

  output logic [DepthWidth-1:0] depth_o  [32],
  output logic [31:0]           fp_o     [32],
  output logic [31:0]           top_pc_o [32],  // the PC a RET returns to (depth > 0)
  output logic                  overflow_o      // a lane of call_i has a full stack
);

  logic [DepthWidth-1:0] depth_q [32];
  logic [31:0]           fp_q    [32];
  logic [31:0]           pc_mem_q [32][Depth];
  logic [31:0]           fp_mem_q [32][Depth];
  logic [31:0]           full;
  logic [31:0]           top_fp [32];   // the frame pointer a RET restores

  always_comb begin
    for (int l = 0; l < 32; l++) begin
      full[l]     = depth_q[l] == DepthWidth'(Depth);
      depth_o[l]  = depth_q[l];
      fp_o[l]     = fp_q[l];
      top_pc_o[l] = '0;
      top_fp[l] = '0;
      if (depth_q[l] != '0) begin
        top_pc_o[l] = pc_mem_q[l][EntryWidth'(depth_q[l] - DepthWidth'(1))];
        top_fp[l] = fp_mem_q[l][EntryWidth'(depth_q[l] - DepthWidth'(1))];
      end
    end
  end
  assign overflow_o = (call_i & full) != 32'd0;

  // Depth and frame pointer, per lane.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int l = 0; l < 32; l++) begin
        depth_q[l] <= '0;
        fp_q[l]    <= '0;
      end
    end else if (clr_i) begin
      for (int l = 0; l < 32; l++) begin
        depth_q[l] <= '0;
        fp_q[l]    <= '0;
      end
    end else begin
      for (int l = 0; l < 32; l++) begin
        if (call_i[l] && !full[l]) begin
          depth_q[l] <= depth_q[l] + DepthWidth'(1);
          fp_q[l]    <= fp_q[l] + adv_i;
        end else if (ret_i[l] && depth_q[l] != '0) begin
          depth_q[l] <= depth_q[l] - DepthWidth'(1);
          fp_q[l]    <= top_fp[l];
        end
      end
    end
  end

  // The stack entries: a call writes the entry at the lane's depth. Not
  // reset: an entry is read only below the depth, after its call wrote it.
  for (genvar l = 0; l < 32; l++) begin : g_lane
    always_ff @(posedge clk_i) begin
      if (!clr_i && call_i[l] && !full[l]) begin
        pc_mem_q[l][EntryWidth'(depth_q[l])] <= ret_pc_i;
        fp_mem_q[l][EntryWidth'(depth_q[l])] <= fp_q[l];
      end
    end
  end

endmodule
