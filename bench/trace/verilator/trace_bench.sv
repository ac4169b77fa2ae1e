// trace_bench: a synthetic design shaped like the SM tracer's dump, for
// measuring Verilator's VCD writer (bench/trace/run.sh). 64 "warp" lanes
// each hold a PC, a lane mask, a 4-bit state, a stall code, an ESR and a
// register count; four "schedulers" hold ready vectors and pointers; a
// cycle counter and a 512-bit counter vector stand for the timers and
// performance counters. Each lane's xorshift generator decides, every
// cycle, whether its state changes (about a third of the time, as the
// warp states of the benchmark kernel do) and, less often, its PC and
// mask: about the same number of signals and value changes per cycle as
// the Go tracer writes for examples.Benchmark().
module trace_bench #(
  parameter int unsigned NumLanes  = 64,
  parameter int unsigned NumScheds = 4
) (
  input  logic clk_i,
  input  logic rst_ni
);

  logic [63:0]  cycle_q;
  logic [511:0] pm_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q <= '0;
      pm_q    <= '0;
    end else begin
      cycle_q      <= cycle_q + 64'd1;
      pm_q[63:0]   <= pm_q[63:0] + 64'd1;
      pm_q[127:64] <= pm_q[127:64] + 64'd3;
    end
  end

  for (genvar i = 0; i < NumLanes; i++) begin : g_lane
    // The generator is not part of the dump.
    /* verilator tracing_off */
    logic [31:0] rng_q;
    logic [31:0] rng_d;
    /* verilator tracing_on */
    logic [31:0] pc_q;
    logic [31:0] mask_q;
    logic [3:0]  state_q;
    logic [3:0]  stall_q;
    logic [15:0] esr_q;
    logic [8:0]  nreg_q;
    logic        valid_q;
    logic        issue_q;      // pulses with a PC change
    logic [31:0] wb_pc_q;      // follows pc_q, a few cycles late
    logic [7:0]  cta_q;        // constant, as most of the dump is
    logic [3:0]  flags_q;
    logic [15:0] id_q;

    always_comb begin
      rng_d = rng_q ^ (rng_q << 13);
      rng_d = rng_d ^ (rng_d >> 17);
      rng_d = rng_d ^ (rng_d << 5);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rng_q   <= 32'h9e3779b9 ^ i;
        pc_q    <= '0;
        mask_q  <= '1;
        state_q <= '0;
        stall_q <= '0;
        esr_q   <= '0;
        nreg_q  <= 9'd32;
        valid_q <= 1'b1;
        issue_q <= 1'b0;
        wb_pc_q <= '0;
        cta_q   <= 8'(i / 24);
        flags_q <= '0;
        id_q    <= 16'(i);
      end else begin
        rng_q   <= rng_d;
        issue_q <= rng_d[4:2] == 3'd0;
        if (rng_d[5:2] == 4'd1) wb_pc_q <= pc_q;
        if (rng_d[1:0] == 2'd0 || rng_d[2:0] == 3'd1) begin  // 3/8 of the cycles
          state_q <= rng_d[7:4];
          stall_q <= rng_d[11:8];
        end
        if (rng_d[4:2] == 3'd0) begin                        // 1/8
          pc_q <= pc_q + 32'd1;
        end
        if (rng_d[9:2] == 8'd0) begin                        // rare
          mask_q <= rng_d;
        end
      end
    end
  end

  for (genvar s = 0; s < NumScheds; s++) begin : g_sched
    logic [15:0] ready_q;
    logic [3:0]  last_q;
    logic        valid_q;
    /* verilator tracing_off */
    logic [31:0] rng_q;
    /* verilator tracing_on */

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rng_q   <= 32'h12345678 + s;
        ready_q <= '0;
        last_q  <= '0;
        valid_q <= 1'b0;
      end else begin
        rng_q   <= rng_q ^ (rng_q << 7) ^ (rng_q >> 9);
        ready_q <= rng_q[15:0] & rng_q[31:16];
        valid_q <= rng_q[3];
        if (rng_q[3]) last_q <= rng_q[7:4];
      end
    end
  end

endmodule
