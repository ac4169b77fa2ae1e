// sm_smem: a memory inside the SM with the flat model's timing (a load
// reads at issue, a store is seen from the next cycle on), twin of the
// CTAs' shared []byte and the threads' local memory in pipeline (cta.go,
// exec_mem.go). sm_top holds two: shared memory (region k: CTA slot k at
// k * stride_i) and local memory (region k: warp slot k's threads).
// Per scheduler one request per cycle (the lanes of req_mask_i, 4 or 8
// bytes each, naturally aligned, little-endian, at physical byte
// addresses: the region's base added).
//
// The Go SM runs a cycle's instructions one after the other in the
// schedulers' rotating order from first_i: a load sees the stores of the
// schedulers before it in that order (forwarded here, per aligned 8-byte
// word); of two stores to one byte the later scheduler's, within one
// store the higher lane's, is kept. A region set in clr_i has its first
// size_i bytes zeroed (a CTA's launch clears its shared memory, a warp's
// launch its threads' local memory).
//
// The edge captures the cycle's stores and clears in pending registers
// (wr_*_q, clr_q); the falling edge applies them to the byte array mem_q
// (a behavioural memory's blocking writes: Verilator has no delayed
// assignment to an array inside a loop; lint.vlt). Nothing samples a
// load's data at the falling edge, and by the next rising edge mem_q
// holds every earlier cycle's stores, so no value read depends on the
// order in which an edge's processes run.
module sm_smem #(
  parameter int unsigned NumSched = 2,
  parameter int unsigned CtaSlots = 4,   // regions that clr_i clears
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

  // The last rising edge's stores and clears, applied at the falling edge.
  logic                wr_valid_q [NumSched];
  logic [3:0]          wr_size_q  [NumSched];
  logic [31:0]         wr_mask_q  [NumSched];
  logic [63:0]         wr_addr_q  [NumSched][32];
  logic [63:0]         wr_data_q  [NumSched][32];
  logic [31:0]         wr_first_q;
  logic [CtaSlots-1:0] clr_q;

  function automatic int unsigned pos_of(int unsigned s, logic [31:0] first);
    pos_of = (s + NumSched - int'(first)) % NumSched;
  endfunction

  // A lane's bytes within its aligned 8-byte word.
  function automatic logic [7:0] byte_en(logic [2:0] off, logic [3:0] size);
    byte_en = (size == 4'd8) ? 8'hff : (8'h0f << off);
  endfunction

  logic store_now [NumSched];
  always_comb begin
    for (int s = 0; s < NumSched; s++) store_now[s] = req_valid_i[s] && req_we_i[s];
  end

  // Loads: the aligned word from mem_q, the earlier schedulers' stores of
  // this cycle merged in their order, then the lane's bytes.
  always_comb begin
    logic [63:0] wa, word, wd;
    logic [7:0]  be;
    logic        fwd;
    wa   = '0;
    word = '0;
    wd   = '0;
    be   = '0;
    fwd  = 1'b0;
    for (int s = 0; s < NumSched; s++) begin
      fwd = 1'b0;
      for (int t = 0; t < NumSched; t++) begin
        if (pos_of(t, first_i) < pos_of(s, first_i) && store_now[t]) fwd = 1'b1;
      end
      for (int l = 0; l < 32; l++) begin
        rsp_rdata_o[s][l] = '0;
        if (req_valid_i[s] && !req_we_i[s] && req_mask_i[s][l]) begin
          wa = req_addr_i[s][l] & ~64'd7;
          for (int b = 0; b < 8; b++) word[8*b +: 8] = mem_q[IdxWidth'((wa + 64'(b)) % 64'(Bytes))];
          if (fwd) begin
            for (int j = 0; j < NumSched; j++) begin
              for (int t = 0; t < NumSched; t++) begin
                if (pos_of(t, first_i) == j && j < pos_of(s, first_i) && store_now[t]) begin
                  for (int k = 0; k < 32; k++) begin
                    if (req_mask_i[t][k] && (req_addr_i[t][k] & ~64'd7) == wa) begin
                      be = byte_en(req_addr_i[t][k][2:0], req_size_i[t]);
                      wd = req_wdata_i[t][k] << (8 * req_addr_i[t][k][2:0]);
                      for (int b = 0; b < 8; b++) if (be[b]) word[8*b +: 8] = wd[8*b +: 8];
                    end
                  end
                end
              end
            end
          end
          rsp_rdata_o[s][l] = word >> (8 * req_addr_i[s][l][2:0]);
          if (req_size_i[s] != 4'd8) rsp_rdata_o[s][l][63:32] = '0;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wr_first_q <= '0;
      clr_q      <= '0;
      for (int s = 0; s < NumSched; s++) begin
        wr_valid_q[s] <= 1'b0;
        wr_size_q[s]  <= '0;
        wr_mask_q[s]  <= '0;
      end
    end else begin
      wr_first_q <= first_i;
      clr_q      <= clr_i;
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

  // The falling edge: the pending clears, then the pending stores in
  // their order.
  always @(negedge clk_i) begin
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

endmodule
