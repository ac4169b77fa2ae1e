// smem_banks: the shared-memory banks of the SM's load/store unit.
//
// RTL twin of the Go unit memsys.Banks (memsys/banks.go); the two are
// cosimulated cycle by cycle (package cosim), every output and every *_q
// register compared every cycle. Ports and registers carry the names of
// the Go struct tags. Behaviour, per cycle:
//
//   * A request (req_valid_i) is split into wavefronts, one pass through
//     the banks each (memsys.SharedWavefronts): successive BankBytes-byte
//     words go to successive banks; a lane's access of size bytes takes
//     max(size, BankBytes) bytes of bank groups; the warp is served in
//     phases of Banks*BankBytes/size lanes (at least 1, at most 32); in a
//     phase, lanes reading the same word share a wavefront (broadcast) and
//     n distinct words in one bank group take n wavefronts. Lane l's
//     wavefront is its phase's offset plus the rank of its word among the
//     distinct words of its bank group, by first occurrence in lane order
//     (the Go model's greedy assignment gives exactly that).
//   * req_wavefronts_o and req_conflicts_o (wavefronts beyond one per
//     phase with an active lane) describe the offered request;
//     req_err_o flags a size other than 1, 2, 4, 8, 16 or an active lane
//     whose address is not aligned to it (then both counts are 0).
//   * A request is taken (req_ready_o) when the banks are idle or the
//     last wavefront of the one they replay goes this cycle; a taken
//     request with at least one wavefront plays them from the next cycle
//     on, one a cycle (wf_*_o), so an n-way conflict holds the banks n
//     cycles.
//
// Flat vectors: lane l's address is req_addr_i[32*l +: 32], wavefront j's
// lanes wf_lanes_q[32*j +: 32].
module smem_banks #(
  parameter int unsigned Banks     = 32, // a power of two, 1..64
  parameter int unsigned BankBytes = 4   // 4 or 8
) (
  input  logic          clk_i,
  input  logic          rst_ni,

  input  logic          req_valid_i,
  input  logic [1:0]    req_op_i,
  input  logic [4:0]    req_size_i,
  input  logic [31:0]   req_mask_i,
  input  logic [1023:0] req_addr_i,
  input  logic [31:0]   req_id_i,

  output logic          req_ready_o,
  output logic          req_err_o,
  output logic [5:0]    req_wavefronts_o,
  output logic [5:0]    req_conflicts_o,
  output logic          wf_valid_o,
  output logic [31:0]   wf_lanes_o,
  output logic          wf_last_o,
  output logic [1:0]    wf_op_o,
  output logic [31:0]   wf_id_o
);

  localparam int unsigned WarpSize  = 32;
  localparam int unsigned LogBanks  = $clog2(Banks);
  localparam int unsigned LogBytes  = $clog2(BankBytes);

  // Registers (memsys.BankState).
  logic          busy_q, busy_d;
  logic [1:0]    op_q, op_d;
  logic [31:0]   id_q, id_d;
  logic [5:0]    n_wf_q, n_wf_d;
  logic [4:0]    idx_q, idx_d;
  logic [1023:0] wf_lanes_q, wf_lanes_d;

  // The offered request's wavefronts.
  logic [2:0]    lsize;      // log2 of the access size
  logic          size_ok;
  logic [2:0]    lunit;      // log2 of the bytes a lane holds in a bank group
  logic [2:0]    lper;       // log2 of the lanes of a phase
  logic [6:0]    lgroups;    // log2 of the bank groups
  logic [31:0]   word [WarpSize];
  logic [31:0]   gmask;      // bank group = word & gmask
  logic          misaligned;
  logic [WarpSize-1:0] first;
  logic [5:0]    kf [WarpSize]; // a first occurrence's rank in its group
  logic [5:0]    k  [WarpSize]; // a lane's wavefront within its phase
  logic [5:0]    nw [WarpSize]; // wavefronts of phase p
  logic [5:0]    off [WarpSize];// wavefronts before phase p
  logic [1023:0] lanes;
  logic [5:0]    n_wf;
  logic [5:0]    ideal;

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
    lunit = (lsize > 3'(LogBytes)) ? lsize : 3'(LogBytes);
    // groups = Banks*BankBytes/unit, at least 1
    if (7'(LogBanks) + 7'(LogBytes) > 7'(lunit)) begin
      lgroups = 7'(LogBanks) + 7'(LogBytes) - 7'(lunit);
    end else begin
      lgroups = 7'd0;
    end
    // lanes a phase = Banks*BankBytes/size, in 1..32
    if (7'(LogBanks) + 7'(LogBytes) <= 7'(lsize)) begin
      lper = 3'd0;
    end else if (7'(LogBanks) + 7'(LogBytes) - 7'(lsize) >= 7'd5) begin
      lper = 3'd5;
    end else begin
      lper = 3'(7'(LogBanks) + 7'(LogBytes) - 7'(lsize));
    end
    gmask = (lgroups >= 7'd32) ? 32'hffff_ffff : ((32'd1 << lgroups) - 32'd1);

    misaligned = 1'b0;
    for (int l = 0; l < WarpSize; l++) begin
      word[l] = req_addr_i[32*l +: 32] >> lunit;
      if (req_mask_i[l] && (req_addr_i[32*l +: 32] & ((32'd1 << lsize) - 32'd1)) != 32'd0) begin
        misaligned = 1'b1;
      end
    end

    // First occurrences of each word in its phase, and their ranks.
    for (int l = 0; l < WarpSize; l++) begin
      first[l] = req_mask_i[l];
      kf[l]    = 6'd0;
      for (int m = 0; m < l; m++) begin
        if (req_mask_i[m] && (m >> lper) == (l >> lper) && word[m] == word[l]) begin
          first[l] = 1'b0;
        end
      end
    end
    for (int l = 0; l < WarpSize; l++) begin
      for (int m = 0; m < l; m++) begin
        if (first[m] && (m >> lper) == (l >> lper) && (word[m] & gmask) == (word[l] & gmask)) begin
          kf[l] = kf[l] + 6'd1;
        end
      end
    end
    // Every lane takes the rank of its word's first occurrence.
    for (int l = 0; l < WarpSize; l++) begin
      k[l] = kf[l];
      for (int m = l - 1; m >= 0; m--) begin
        if (req_mask_i[m] && (m >> lper) == (l >> lper) && word[m] == word[l]) begin
          k[l] = kf[m];
        end
      end
    end

    // Wavefronts per phase, their offsets, the lanes of each wavefront.
    for (int p = 0; p < WarpSize; p++) begin
      nw[p] = 6'd0;
    end
    ideal = 6'd0;
    for (int l = 0; l < WarpSize; l++) begin
      if (req_mask_i[l] && k[l] + 6'd1 > nw[l >> lper]) begin
        nw[l >> lper] = k[l] + 6'd1;
      end
    end
    n_wf = 6'd0;
    for (int p = 0; p < WarpSize; p++) begin
      off[p] = n_wf;
      n_wf   = n_wf + nw[p];
      if (nw[p] != 6'd0) begin
        ideal = ideal + 6'd1;
      end
    end
    lanes = '0;
    for (int l = 0; l < WarpSize; l++) begin
      if (req_mask_i[l]) begin
        lanes[32*(32'(off[l >> lper]) + 32'(k[l])) + l] = 1'b1;
      end
    end
  end

  always_comb begin
    logic last_goes;
    busy_d     = busy_q;
    op_d       = op_q;
    id_d       = id_q;
    n_wf_d     = n_wf_q;
    idx_d      = idx_q;
    wf_lanes_d = wf_lanes_q;

    // 1. The wavefront of this cycle.
    wf_valid_o = busy_q;
    wf_lanes_o = busy_q ? wf_lanes_q[32*idx_q +: 32] : 32'd0;
    wf_op_o    = busy_q ? op_q : 2'd0;
    wf_id_o    = busy_q ? id_q : 32'd0;
    wf_last_o  = busy_q && ({1'b0, idx_q} + 6'd1 == n_wf_q);
    last_goes  = wf_last_o;
    if (busy_q) begin
      idx_d = idx_q + 5'd1;
      if (wf_last_o) begin
        busy_d = 1'b0;
        idx_d  = 5'd0;
      end
    end

    // 2. A new request.
    req_ready_o      = !busy_q || last_goes;
    req_err_o        = 1'b0;
    req_wavefronts_o = 6'd0;
    req_conflicts_o  = 6'd0;
    if (req_valid_i) begin
      req_err_o = !size_ok || misaligned;
      if (!req_err_o) begin
        req_wavefronts_o = n_wf;
        req_conflicts_o  = n_wf - ideal;
      end
      if (req_ready_o && !req_err_o && n_wf != 6'd0) begin
        busy_d     = 1'b1;
        op_d       = req_op_i;
        id_d       = req_id_i;
        n_wf_d     = n_wf;
        idx_d      = 5'd0;
        wf_lanes_d = lanes;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q     <= 1'b0;
      op_q       <= 2'd0;
      id_q       <= 32'd0;
      n_wf_q     <= 6'd0;
      idx_q      <= 5'd0;
      wf_lanes_q <= '0;
    end else begin
      busy_q     <= busy_d;
      op_q       <= op_d;
      id_q       <= id_d;
      n_wf_q     <= n_wf_d;
      idx_q      <= idx_d;
      wf_lanes_q <= wf_lanes_d;
    end
  end

endmodule
