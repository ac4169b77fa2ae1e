// sm_callstack: the call state of the SM's warp slots, twin of the Go
// warp's depth, fp and stack (pipeline/warp.go) as CALL and RET change
// them (pipeline/flow.go execFlow): per warp slot and lane the call depth,
// the frame pointer (the FP operand: local memory is addressed relative
// to it) and a return stack of Depth entries (the return PC and the
// caller's frame pointer). One port per scheduler: the warp slot it
// issues, the lanes that call or return.
//
// The Go model's stack holds 65,536 entries (maxCallDepth); this one holds
// Depth (sm_top's RetDepth, docs/sm-rtl.md section 6). A call by a lane
// whose stack is full raises overflow_o and changes nothing (the bench
// stops with an error: the lockstep cannot go on).
module sm_callstack #(
  parameter int unsigned NumWarps   = 8,
  parameter int unsigned NumSched   = 2,
  parameter int unsigned Depth      = 16,
  // Derived; do not override.
  parameter int unsigned WarpSlotWidth = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int unsigned DepthWidth    = $clog2(Depth + 1),
  parameter int unsigned EntryWidth    = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  logic [NumWarps-1:0]      clr_i,     // the warp launches: depth and fp 0 (warp.reset)
  // Per scheduler: the warp slot it issues, the lanes that call (push
  // (ret_pc_i, fp), fp += adv_i) and the lanes that return (pop (pc, fp);
  // only lanes of depth > 0).
  input  logic                     valid_i  [NumSched],
  input  logic [WarpSlotWidth-1:0] warp_i   [NumSched],
  input  logic [31:0]              call_i   [NumSched],
  input  logic [31:0]              ret_pc_i [NumSched],  // the PC after the CALL
  input  logic [31:0]              adv_i    [NumSched],  // the frame advance in bytes
  input  logic [31:0]              ret_i    [NumSched],

  output logic [DepthWidth-1:0]    depth_o  [NumWarps][32],
  output logic [31:0]              fp_o     [NumSched][32],  // warp_i's lanes' frame pointers
  output logic [31:0]              top_pc_o [NumSched][32],  // the PC a RET returns to (depth > 0)
  output logic                     overflow_o                // a lane of call_i has a full stack
);

  logic [DepthWidth-1:0] depth_q  [NumWarps][32];
  logic [31:0]           fp_q     [NumWarps][32];
  logic [31:0]           pc_mem_q [NumWarps][32][Depth];
  logic [31:0]           fp_mem_q [NumWarps][32][Depth];
  logic [31:0]           full     [NumSched];
  logic [31:0]           top_fp   [NumSched][32];  // the frame pointer a RET restores

  always_comb begin
    for (int s = 0; s < NumSched; s++) begin
      for (int l = 0; l < 32; l++) begin
        logic [DepthWidth-1:0] d;
        d              = depth_q[warp_i[s]][l];
        full[s][l]     = d == DepthWidth'(Depth);
        fp_o[s][l]     = fp_q[warp_i[s]][l];
        top_pc_o[s][l] = '0;
        top_fp[s][l]   = '0;
        if (d != '0) begin
          top_pc_o[s][l] = pc_mem_q[warp_i[s]][l][EntryWidth'(d - DepthWidth'(1))];
          top_fp[s][l]   = fp_mem_q[warp_i[s]][l][EntryWidth'(d - DepthWidth'(1))];
        end
      end
    end
  end
  // A separate block: call_i depends on top_pc_o (through sm_top's flow).
  always_comb begin
    overflow_o = 1'b0;
    for (int s = 0; s < NumSched; s++) begin
      if (valid_i[s] && (call_i[s] & full[s]) != 32'd0) overflow_o = 1'b1;
    end
  end
  assign depth_o = depth_q;

  // Depth and frame pointer: a process per warp slot (constant indices
  // keep the delayed assignments out of loops), its scheduler's port.
  for (genvar w = 0; w < NumWarps; w++) begin : g_warp
    localparam int unsigned Sched = w % NumSched;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int l = 0; l < 32; l++) begin
          depth_q[w][l] <= '0;
          fp_q[w][l]    <= '0;
        end
      end else if (clr_i[w]) begin
        for (int l = 0; l < 32; l++) begin
          depth_q[w][l] <= '0;
          fp_q[w][l]    <= '0;
        end
      end else if (valid_i[Sched] && 32'(warp_i[Sched]) == w) begin
        for (int l = 0; l < 32; l++) begin
          if (call_i[Sched][l] && !full[Sched][l]) begin
            depth_q[w][l] <= depth_q[w][l] + DepthWidth'(1);
            fp_q[w][l]    <= fp_q[w][l] + adv_i[Sched];
          end else if (ret_i[Sched][l] && depth_q[w][l] != '0) begin
            depth_q[w][l] <= depth_q[w][l] - DepthWidth'(1);
            fp_q[w][l]    <= top_fp[Sched][l];
          end
        end
      end
    end
  end

  // The stack entries: a call writes the entry at the lane's depth. Not
  // reset: an entry is read only below the depth, after its call wrote it.
  always_ff @(posedge clk_i) begin
    for (int s = 0; s < NumSched; s++) begin
      for (int l = 0; l < 32; l++) begin
        if (valid_i[s] && !clr_i[warp_i[s]] && call_i[s][l] && !full[s][l]) begin
          pc_mem_q[warp_i[s]][l][EntryWidth'(depth_q[warp_i[s]][l])] <= ret_pc_i[s];
          fp_mem_q[warp_i[s]][l][EntryWidth'(depth_q[warp_i[s]][l])] <= fp_q[warp_i[s]][l];
        end
      end
    end
  end

endmodule
