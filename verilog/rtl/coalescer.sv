// coalescer: the coalescing stage of the SM's load/store unit.
//
// RTL twin of the Go unit memsys.Coalescer (memsys/coalesce.go); the two
// are cosimulated cycle by cycle (package cosim), every output and every
// *_q register compared every cycle. Ports and registers carry the names
// of the Go struct tags. Behaviour, per cycle:
//
//   * An offered warp request (req_valid_i) is turned into the 128-byte
//     lines and 32-byte sectors its active lanes touch (memsys.Coalesce,
//     the CUDA C++ Best Practices Guide's rule): lines numbered by the
//     first lane that touches each, a sector touched by several lanes
//     counted once. req_sectors_o and req_lines_o describe it; req_err_o
//     flags a size other than 1, 2, 4, 8, 16 or an active lane whose
//     address is not aligned to it (then both counts are 0).
//   * A request is taken (req_ready_o) when the stage is idle or the last
//     line of the one it sends leaves this cycle (out_valid_o, out_last_o
//     and out_ready_i); a taken request with at least one line sends them
//     from the next cycle on, one a cycle while the L1 takes them
//     (out_ready_i).
//
// Flat vectors: lane l's address is req_addr_i[64*l +: 64]; line j's
// address line_addr_q[64*j +: 64], its sectors line_sectors_q[4*j +: 4],
// its lanes line_lanes_q[32*j +: 32].
module coalescer (
  input  logic          clk_i,
  input  logic          rst_ni,

  input  logic          req_valid_i,
  input  logic [1:0]    req_op_i,
  input  logic [2:0]    req_space_i,
  input  logic [4:0]    req_size_i,
  input  logic [31:0]   req_mask_i,
  input  logic [2047:0] req_addr_i,
  input  logic [31:0]   req_id_i,
  input  logic          out_ready_i,

  output logic          req_ready_o,
  output logic          req_err_o,
  output logic [5:0]    req_sectors_o,
  output logic [5:0]    req_lines_o,
  output logic          out_valid_o,
  output logic [1:0]    out_op_o,
  output logic [2:0]    out_space_o,
  output logic [31:0]   out_id_o,
  output logic [63:0]   out_addr_o,
  output logic [3:0]    out_sectors_o,
  output logic [31:0]   out_lanes_o,
  output logic [4:0]    out_idx_o,
  output logic          out_last_o
);

  localparam int unsigned WarpSize = 32;

  // Registers (memsys.CoalescerState).
  logic          busy_q, busy_d;
  logic [1:0]    op_q, op_d;
  logic [2:0]    space_q, space_d;
  logic [31:0]   id_q, id_d;
  logic [5:0]    n_lines_q, n_lines_d;
  logic [4:0]    idx_q, idx_d;
  logic [2047:0] line_addr_q, line_addr_d;
  logic [127:0]  line_sectors_q, line_sectors_d;
  logic [1023:0] line_lanes_q, line_lanes_d;

  // The offered request's lines.
  logic [2:0]    lsize;     // log2 of the access size
  logic          size_ok;
  logic          misaligned;
  logic [63:0]   line [WarpSize];   // lane l's line address
  logic [1:0]    sector [WarpSize]; // lane l's sector in its line
  logic [WarpSize-1:0] first;       // lane l is the first to touch its line
  logic [5:0]    rank [WarpSize];   // a first lane's line index
  logic [5:0]    idx [WarpSize];    // lane l's line index
  logic [2047:0] addrs;
  logic [127:0]  sectors;
  logic [1023:0] lanes;
  logic [5:0]    n_lines;
  logic [5:0]    n_sectors;

  always_comb begin
    size_ok = 1'b1;
    unique case (req_size_i)
      5'd1:  lsize = 3'd0;
      5'd2:  lsize = 3'd1;
      5'd4:  lsize = 3'd2;
      5'd8:  lsize = 3'd3;
      5'd16: lsize = 3'd4;
      default: begin
        lsize   = 3'd0;
        size_ok = 1'b0;
      end
    endcase
    misaligned = 1'b0;
    for (int l = 0; l < WarpSize; l++) begin
      line[l]   = {req_addr_i[64*l+7 +: 57], 7'd0};
      sector[l] = req_addr_i[64*l+5 +: 2];
      if (req_mask_i[l] && (req_addr_i[64*l +: 64] & ((64'd1 << lsize) - 64'd1)) != 64'd0) begin
        misaligned = 1'b1;
      end
    end
    for (int l = 0; l < WarpSize; l++) begin
      first[l] = req_mask_i[l];
      rank[l]  = 6'd0;
      for (int m = 0; m < l; m++) begin
        if (req_mask_i[m] && line[m] == line[l]) begin
          first[l] = 1'b0;
        end
        if (first[m]) begin
          rank[l] = rank[l] + 6'd1;
        end
      end
    end
    for (int l = 0; l < WarpSize; l++) begin
      idx[l] = rank[l];
      for (int m = l - 1; m >= 0; m--) begin
        if (req_mask_i[m] && line[m] == line[l]) begin
          idx[l] = rank[m];
        end
      end
    end
    addrs   = '0;
    sectors = '0;
    lanes   = '0;
    n_lines = 6'd0;
    for (int l = 0; l < WarpSize; l++) begin
      if (req_mask_i[l]) begin
        addrs[64*idx[l] +: 64]            = line[l];
        sectors[4*idx[l] + 32'(sector[l])] = 1'b1;
        lanes[32*idx[l] + l]              = 1'b1;
      end
      if (first[l]) begin
        n_lines = n_lines + 6'd1;
      end
    end
    n_sectors = 6'd0;
    for (int j = 0; j < WarpSize; j++) begin
      n_sectors = n_sectors + 6'(sectors[4*j]) + 6'(sectors[4*j+1]) + 6'(sectors[4*j+2])
                + 6'(sectors[4*j+3]);
    end
  end

  always_comb begin
    logic last_goes;
    busy_d         = busy_q;
    op_d           = op_q;
    space_d        = space_q;
    id_d           = id_q;
    n_lines_d      = n_lines_q;
    idx_d          = idx_q;
    line_addr_d    = line_addr_q;
    line_sectors_d = line_sectors_q;
    line_lanes_d   = line_lanes_q;

    // 1. The line in flight.
    out_valid_o   = busy_q;
    out_op_o      = busy_q ? op_q : 2'd0;
    out_space_o   = busy_q ? space_q : 3'd0;
    out_id_o      = busy_q ? id_q : 32'd0;
    out_addr_o    = busy_q ? line_addr_q[64*idx_q +: 64] : 64'd0;
    out_sectors_o = busy_q ? line_sectors_q[4*idx_q +: 4] : 4'd0;
    out_lanes_o   = busy_q ? line_lanes_q[32*idx_q +: 32] : 32'd0;
    out_idx_o     = busy_q ? idx_q : 5'd0;
    out_last_o    = busy_q && ({1'b0, idx_q} + 6'd1 == n_lines_q);
    last_goes     = 1'b0;
    if (busy_q && out_ready_i) begin
      idx_d = idx_q + 5'd1;
      if (out_last_o) begin
        busy_d    = 1'b0;
        idx_d     = 5'd0;
        last_goes = 1'b1;
      end
    end

    // 2. A new warp request.
    req_ready_o   = !busy_q || last_goes;
    req_err_o     = 1'b0;
    req_sectors_o = 6'd0;
    req_lines_o   = 6'd0;
    if (req_valid_i) begin
      req_err_o = !size_ok || misaligned;
      if (!req_err_o) begin
        req_sectors_o = n_sectors;
        req_lines_o   = n_lines;
      end
      if (req_ready_o && !req_err_o && n_lines != 6'd0) begin
        busy_d         = 1'b1;
        op_d           = req_op_i;
        space_d        = req_space_i;
        id_d           = req_id_i;
        n_lines_d      = n_lines;
        idx_d          = 5'd0;
        line_addr_d    = addrs;
        line_sectors_d = sectors;
        line_lanes_d   = lanes;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q         <= 1'b0;
      op_q           <= 2'd0;
      space_q        <= 3'd0;
      id_q           <= 32'd0;
      n_lines_q      <= 6'd0;
      idx_q          <= 5'd0;
      line_addr_q    <= '0;
      line_sectors_q <= '0;
      line_lanes_q   <= '0;
    end else begin
      busy_q         <= busy_d;
      op_q           <= op_d;
      space_q        <= space_d;
      id_q           <= id_d;
      n_lines_q      <= n_lines_d;
      idx_q          <= idx_d;
      line_addr_q    <= line_addr_d;
      line_sectors_q <= line_sectors_d;
      line_lanes_q   <= line_lanes_d;
    end
  end

endmodule
