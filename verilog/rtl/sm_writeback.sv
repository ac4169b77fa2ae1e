// sm_writeback: one sub-partition's writeback stage, sm_top.u_writeback_N,
// twin of pipeline/writeback.go. The Go model keeps a 1024-cycle ring of
// per-cycle slots plus a heap; the RTL keeps a shift register of Depth
// slots, slot k holding what the stage shows k cycles from now (the
// lockstep refuses latencies of Depth or more). An instruction issued in
// this cycle with latency lat (1 <= lat < Depth) is pushed into the slot
// it will show in; the last one pushed into a slot is the one it shows,
// and wb_count_o saturates at 15. wb_warp_o and wb_pc_o hold when nothing
// writes back.
module sm_writeback #(
  parameter int unsigned Depth        = 16,
  parameter int unsigned WarpSlotWidth = 3
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  logic                     push_i,
  input  logic [4:0]               push_lat_i,
  input  logic [WarpSlotWidth-1:0] push_warp_i,
  input  logic [31:0]              push_pc_i,

  output logic                     wb_valid_o,
  output logic [WarpSlotWidth-1:0] wb_warp_o,
  output logic [31:0]              wb_pc_o,
  output logic [3:0]               wb_count_o
);
  // Slot k: {count, warp, pc} due k cycles from now (count 0: empty).
  logic [3:0]               cnt_q  [Depth];
  logic [3:0]               cnt_d  [Depth];
  logic [WarpSlotWidth-1:0] warp_q [Depth];
  logic [WarpSlotWidth-1:0] warp_d [Depth];
  logic [31:0]              pc_q   [Depth];
  logic [31:0]              pc_d   [Depth];
  logic [WarpSlotWidth-1:0] out_warp_q, out_warp_d;
  logic [31:0]              out_pc_q, out_pc_d;

  // Shift by one cycle, then push into the slot due lat cycles after this
  // one (k = lat-1 after the shift).
  always_comb begin
    for (int k = 0; k < Depth; k++) begin
      if (k + 1 < Depth) begin
        cnt_d[k]  = cnt_q[k+1];
        warp_d[k] = warp_q[k+1];
        pc_d[k]   = pc_q[k+1];
      end else begin
        cnt_d[k]  = '0;
        warp_d[k] = '0;
        pc_d[k]   = '0;
      end
      if (push_i && 32'(push_lat_i) == k + 1) begin
        if (cnt_d[k] != 4'd15) cnt_d[k] = cnt_d[k] + 4'd1;
        warp_d[k] = push_warp_i;
        pc_d[k]   = push_pc_i;
      end
    end
    out_warp_d = out_warp_q;
    out_pc_d   = out_pc_q;
    if (cnt_q[0] != 4'd0) begin
      out_warp_d = warp_q[0];
      out_pc_d   = pc_q[0];
    end
  end

  assign wb_valid_o = cnt_q[0] != 4'd0;
  assign wb_count_o = cnt_q[0];
  assign wb_warp_o  = wb_valid_o ? warp_q[0] : out_warp_q;
  assign wb_pc_o    = wb_valid_o ? pc_q[0] : out_pc_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int k = 0; k < Depth; k++) begin
        cnt_q[k]  <= '0;
        warp_q[k] <= '0;
        pc_q[k]   <= '0;
      end
      out_warp_q <= '0;
      out_pc_q   <= '0;
    end else begin
      for (int k = 0; k < Depth; k++) begin
        cnt_q[k]  <= cnt_d[k];
        warp_q[k] <= warp_d[k];
        pc_q[k]   <= pc_d[k];
      end
      out_warp_q <= out_warp_d;
      out_pc_q   <= out_pc_d;
    end
  end

endmodule
