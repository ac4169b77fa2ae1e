// sm_smem: the SM's shared memory, twin of the CTAs' shared []byte in
// pipeline (cta.go, exec_mem.go) with the flat model's timing: a load
// reads at issue, a store is seen from the next instruction on. CTA slot
// k's region lies at k * stride_i. Per scheduler one request per cycle
// (the lanes of req_mask_i, 4 or 8 bytes each, little-endian, at physical
// byte addresses: the CTA's base added).
//
// The Go SM runs a cycle's instructions one after the other in the
// schedulers' rotating order from first_i: a load sees the stores of the
// schedulers before it in that order (forwarded here); of two stores to
// one byte the later scheduler's, within one store the higher lane's, is
// kept. A CTA slot set in clr_i has its first size_i bytes zeroed (the
// launch of its CTA: launchCTA clears the CTA's shared memory).
//
// Two-phase form: the edge captures the cycle's stores and clears in
// pending registers (wr_*_q, clr_q), which the next edge applies to the
// byte array mem_q; loads read mem_q through the pending registers (clear,
// then stores in their order), so a value read never depends on the order
// in which the edge's processes run. Applying them in place is a
// behavioural memory's blocking write (Verilator has no delayed
// assignment to an array in a loop; lint.vlt).
module sm_smem #(
  parameter int unsigned NumSched = 2,
  parameter int unsigned CtaSlots = 4,
  parameter int unsigned Bytes    = 16384,
  // Derived; do not override.
  parameter int unsigned IdxWidth = (Bytes > 1) ? $clog2(Bytes) : 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  input  logic [31:0]         first_i,
  input  logic                req_valid_i [NumSched],
  input  logic                req_we_i    [NumSched],
  input  logic [3:0]          req_size_i  [NumSched],
  input  logic [31:0]         req_mask_i  [NumSched],
  input  logic [63:0]         req_addr_i  [NumSched][32],
  input  logic [63:0]         req_wdata_i [NumSched][32],
  output logic [63:0]         rsp_rdata_o [NumSched][32],

  input  logic [CtaSlots-1:0] clr_i,
  input  logic [31:0]         stride_i,
  input  logic [31:0]         size_i
);
  logic [7:0] mem_q [Bytes];

  // The last edge's stores and clears, not yet in mem_q.
  logic                wr_valid_q [NumSched];
  logic [3:0]          wr_size_q  [NumSched];
  logic [31:0]         wr_mask_q  [NumSched];
  logic [63:0]         wr_addr_q  [NumSched][32];
  logic [63:0]         wr_data_q  [NumSched][32];
  logic [31:0]         wr_first_q;
  logic [CtaSlots-1:0] clr_q;
  logic                wr_any_q;

  function automatic int unsigned pos_of(int unsigned s, logic [31:0] first);
    pos_of = (s + NumSched - int'(first)) % NumSched;
  endfunction

  // The byte at physical address a as the stores before position upto of
  // this cycle (cur) or of all of the last edge's (pending) left it.
  logic store_now [NumSched];
  always_comb begin
    for (int s = 0; s < NumSched; s++) store_now[s] = req_valid_i[s] && req_we_i[s];
  end

  always_comb begin
    logic [63:0] a;
    logic [7:0]  v;
    logic [2:0]  off;
    logic        fwd;
    a   = '0;
    v   = '0;
    off = '0;
    fwd = 1'b0;
    for (int s = 0; s < NumSched; s++) begin
      fwd = 1'b0;
      for (int t = 0; t < NumSched; t++) begin
        if (pos_of(t, first_i) < pos_of(s, first_i) && store_now[t]) fwd = 1'b1;
      end
      for (int l = 0; l < 32; l++) begin
        rsp_rdata_o[s][l] = '0;
        if (req_valid_i[s] && !req_we_i[s] && req_mask_i[s][l]) begin
          for (int b = 0; b < 8; b++) begin
            if (b < int'(req_size_i[s])) begin
              a = req_addr_i[s][l] + 64'(b);
              v = mem_q[IdxWidth'(a % 64'(Bytes))];
              if (wr_any_q) begin
                for (int k = 0; k < CtaSlots; k++) begin
                  if (clr_q[k] && a >= 64'(32'(k) * stride_i) && a < 64'(32'(k) * stride_i) + 64'(size_i))
                    v = '0;
                end
                for (int j = 0; j < NumSched; j++) begin
                  for (int t = 0; t < NumSched; t++) begin
                    if (pos_of(t, wr_first_q) == j && wr_valid_q[t]) begin
                      for (int k = 0; k < 32; k++) begin
                        if (wr_mask_q[t][k] && a >= wr_addr_q[t][k] &&
                            a < wr_addr_q[t][k] + 64'(wr_size_q[t])) begin
                          off = 3'(a - wr_addr_q[t][k]);
                          v   = wr_data_q[t][k][8*off +: 8];
                        end
                      end
                    end
                  end
                end
              end
              if (fwd) begin
                for (int j = 0; j < NumSched; j++) begin
                  for (int t = 0; t < NumSched; t++) begin
                    if (pos_of(t, first_i) == j && j < pos_of(s, first_i) && store_now[t]) begin
                      for (int k = 0; k < 32; k++) begin
                        if (req_mask_i[t][k] && a >= req_addr_i[t][k] &&
                            a < req_addr_i[t][k] + 64'(req_size_i[t])) begin
                          off = 3'(a - req_addr_i[t][k]);
                          v   = req_wdata_i[t][k][8*off +: 8];
                        end
                      end
                    end
                  end
                end
              end
              rsp_rdata_o[s][l][8*b +: 8] = v;
            end
          end
        end
      end
    end
  end

  // The pending registers.
  logic any_d;
  always_comb begin
    any_d = clr_i != '0;
    for (int s = 0; s < NumSched; s++) any_d = any_d || store_now[s];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_first_q <= '0;
      clr_q      <= '0;
      wr_any_q   <= 1'b0;
      for (int s = 0; s < NumSched; s++) begin
        wr_valid_q[s] <= 1'b0;
        wr_size_q[s]  <= '0;
        wr_mask_q[s]  <= '0;
      end
    end else begin
      wr_first_q <= first_i;
      clr_q      <= clr_i;
      wr_any_q   <= any_d;
      for (int s = 0; s < NumSched; s++) begin
        wr_valid_q[s] <= store_now[s];
        wr_size_q[s]  <= req_size_i[s];
        wr_mask_q[s]  <= req_mask_i[s];
      end
    end
  end

  for (genvar s = 0; s < NumSched; s++) begin : g_wr
    for (genvar l = 0; l < 32; l++) begin : g_lane
      always_ff @(posedge clk_i) begin
        wr_addr_q[s][l] <= req_addr_i[s][l];
        wr_data_q[s][l] <= req_wdata_i[s][l];
      end
    end
  end

  // Apply the pending clears, then the pending stores in their order.
  always @(posedge clk_i) begin
    if (wr_any_q) begin
      for (int k = 0; k < CtaSlots; k++) begin
        if (clr_q[k]) begin
          for (int unsigned i = k * stride_i; i < k * stride_i + size_i && i < Bytes; i++)
            mem_q[IdxWidth'(i)] = '0;
        end
      end
      for (int j = 0; j < NumSched; j++) begin
        for (int s = 0; s < NumSched; s++) begin
          if (pos_of(s, wr_first_q) == j && wr_valid_q[s]) begin
            for (int l = 0; l < 32; l++) begin
              if (wr_mask_q[s][l]) begin
                for (int b = 0; b < 8; b++) begin
                  if (b < int'(wr_size_q[s]))
                    mem_q[IdxWidth'((wr_addr_q[s][l] + 64'(b)) % 64'(Bytes))] = wr_data_q[s][l][8*b +: 8];
                end
              end
            end
          end
        end
      end
    end
  end

endmodule
