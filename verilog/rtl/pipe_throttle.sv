// pipe_throttle: the execution pipes' throughput in the SM's issue stage.
//
// RTL twin of the Go unit pipethrottle.Unit (pipethrottle/throttle.go);
// the two are cosimulated cycle by cycle (package cosim), every output and
// every *_q register compared every cycle. Ports and registers carry the
// names of the Go struct tags. Behaviour, per cycle:
//
//   * Every scheduler k has a credit register per pipe p
//     (smsim_pkg::pipe_e). A warp instruction costs Cost = WarpLanes *
//     NumPorts credits; the pipe is ready (pipe_ready_o) when its credit
//     is at least Cost.
//   * Scheduler k's request (req_valid_i, req_pipe_i) is accepted
//     (accept_o) when its pipe is ready; the pipe's credit drops by Cost
//     and inst_executed_q[p] counts it. A pipe number outside pipe_e is
//     never accepted.
//   * Every pipe then earns its rate (RateFp32 .. RateCvt, results per
//     clock per SM: the config's pipe.*), up to Cost + Rate - 1, enough to
//     keep a rate that does not divide Cost exact over time and never
//     enough for two instructions in one cycle.
//   * Reset fills every credit to Cost (every pipe ready).
//
// Flat vectors: scheduler k's pipe is req_pipe_i[3*k +: 3], its ready
// pipes pipe_ready_o[NumPipes*k +: NumPipes], the credit of its pipe p
// credit_q[16*(NumPipes*k+p) +: 16], pipe p's count
// inst_executed_q[64*p +: 64].
// Package names are qualified (smsim_pkg::Name): Yosys 0.23, which
// `make area` runs, reads no wildcard import.
module pipe_throttle #(
  parameter int unsigned NumPorts  = 4,   // schedulers, 1..8
  parameter int unsigned RateFp32  = 128, // results per clock per SM, 1..1024
  parameter int unsigned RateInt32 = 64,
  parameter int unsigned RateImad  = 64,
  parameter int unsigned RateFp64  = 64,
  parameter int unsigned RateSfu   = 16,
  parameter int unsigned RateCvt   = 16,
  // Derived widths (the Go model's width names); do not override.
  parameter int unsigned Pipes     = smsim_pkg::NumPipes
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,

  input  logic [NumPorts-1:0]           req_valid_i,
  input  logic [3*NumPorts-1:0]         req_pipe_i,

  output logic [Pipes*NumPorts-1:0]     pipe_ready_o,
  output logic [NumPorts-1:0]           accept_o
);

  localparam int unsigned NumPipes = smsim_pkg::NumPipes;
  localparam int unsigned Cost     = smsim_pkg::WarpLanes * NumPorts;
  // Pipe p's rate, in smsim_pkg::pipe_e order.
  function automatic int unsigned rate(int unsigned p);
    rate = RateCvt;
    if (p == smsim_pkg::PipeFp32)  rate = RateFp32;
    if (p == smsim_pkg::PipeInt32) rate = RateInt32;
    if (p == smsim_pkg::PipeImad)  rate = RateImad;
    if (p == smsim_pkg::PipeFp64)  rate = RateFp64;
    if (p == smsim_pkg::PipeSfu)   rate = RateSfu;
  endfunction

  logic [16*Pipes*NumPorts-1:0] credit_q, credit_d;
  logic [64*Pipes-1:0]          inst_executed_q, inst_executed_d;

  always_comb begin
    credit_d        = credit_q;
    inst_executed_d = inst_executed_q;
    pipe_ready_o    = '0;
    accept_o        = '0;
    for (int k = 0; k < NumPorts; k++) begin
      for (int unsigned p = 0; p < NumPipes; p++) begin
        logic [16:0] c;
        c = {1'b0, credit_q[16*(NumPipes*k+p) +: 16]};
        pipe_ready_o[NumPipes*k+p] = c >= 17'(Cost);
        if (req_valid_i[k] && 32'(req_pipe_i[3*k +: 3]) == p && c >= 17'(Cost)) begin
          accept_o[k] = 1'b1;
          inst_executed_d[64*p +: 64] = inst_executed_d[64*p +: 64] + 64'd1;
          c = c - 17'(Cost);
        end
        c = c + 17'(rate(p));
        if (c > 17'(Cost + rate(p) - 1)) begin
          c = 17'(Cost + rate(p) - 1);
        end
        credit_d[16*(NumPipes*k+p) +: 16] = c[15:0];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < Pipes * NumPorts; i++) begin
        credit_q[16*i +: 16] <= 16'(Cost);
      end
      inst_executed_q <= '0;
    end else begin
      credit_q        <= credit_d;
      inst_executed_q <= inst_executed_d;
    end
  end

endmodule
