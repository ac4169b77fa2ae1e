// perf_mon: the SM's performance monitor (%pm0..%pm7 and the pmevent
// event counts).
//
// RTL twin of the Go unit perfmon.PerfMon (package perfmon); the two are
// cosimulated cycle by cycle (package cosim), every output and every *_q
// register compared every cycle. Ports and registers carry the names of
// the Go struct tags. Behaviour, per cycle:
//
//   * ev[k], the triggers of event k this cycle, counts the ports p with
//     event_valid_i[p] and bit k of event_mask_i[p]; event_count_q[k]
//     adds ev[k].
//   * Counter N (parameter CounterN, see below) adds: off 0, cycles 1,
//     instructions issue_count_i, events the sum of ev[k] over the events
//     k of its mask, stall stall_count_i[its state].
//   * The outputs are the registers (pm_o = pm_q, event_count_o =
//     event_count_q). Every count wraps at 2^64.
//
// A counter's configuration (config.PMCounter) is one int parameter:
// bits [3:0] the kind (config.PMKind: 0 off, 1 cycles, 2 instructions,
// 3 events, 4 stall), bits [19:4] the event mask (events) or the
// stall_count_i index (stall); cosim.PerfMonCounterCode builds it.
// Flat vectors: counter N is pm_q[64*N +: 64], event k
// event_count_q[64*k +: 64], port p's mask event_mask_i[16*p +: 16],
// stall state i stall_count_i[16*i +: 16].
module perf_mon #(
  parameter int unsigned NumPorts        = 4,
  parameter int unsigned Counter0        = 1,  // cycles
  parameter int unsigned Counter1        = 2,  // instructions
  parameter int unsigned Counter2        = 0,
  parameter int unsigned Counter3        = 0,
  parameter int unsigned Counter4        = 0,
  parameter int unsigned Counter5        = 0,
  parameter int unsigned Counter6        = 0,
  parameter int unsigned Counter7        = 0,
  // Derived widths (the Go model's width names); do not override.
  parameter int unsigned EventMaskWidth  = 16 * NumPorts,
  parameter int unsigned IssueCountWidth = $clog2(NumPorts + 1),
  parameter int unsigned StallCountWidth = 16 * 11,
  parameter int unsigned PmWidth         = 64 * 8,
  parameter int unsigned EventCountWidth = 64 * 16
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,

  input  logic [NumPorts-1:0]        event_valid_i,
  input  logic [EventMaskWidth-1:0]  event_mask_i,
  input  logic [IssueCountWidth-1:0] issue_count_i,
  input  logic [StallCountWidth-1:0] stall_count_i,

  output logic [PmWidth-1:0]         pm_o,
  output logic [EventCountWidth-1:0] event_count_o
);

  // NumEvents, NumCounters and the counter kinds come from smsim_pkg,
  // generated from packages perfmon and config.

  // Triggers of one event in one cycle (0..NumPorts).
  localparam int unsigned EvWidth = $clog2(NumPorts + 1);
  // Triggers of up to 16 events in one cycle.
  localparam int unsigned EvSumWidth = EvWidth + 4;

  // Registers.
  logic [PmWidth-1:0]         pm_q,          pm_d;
  logic [EventCountWidth-1:0] event_count_q, event_count_d;

  // This cycle's triggers per event.
  logic [EvWidth*smsim_pkg::NumEvents-1:0] ev;
  for (genvar k = 0; k < smsim_pkg::NumEvents; k++) begin : g_ev
    always_comb begin
      logic [EvWidth-1:0] n;
      n = '0;
      for (int p = 0; p < NumPorts; p++) begin
        if (event_valid_i[p] && event_mask_i[16*p + k]) begin
          n = n + EvWidth'(1);
        end
      end
      ev[EvWidth*k +: EvWidth] = n;
    end
    assign event_count_d[64*k +: 64] = event_count_q[64*k +: 64] +
                                       64'(ev[EvWidth*k +: EvWidth]);
  end

  localparam logic [32*smsim_pkg::NumCounters-1:0] Cfg = (256'(Counter7) << 224) | (256'(Counter6) << 192) |
                                              (256'(Counter5) << 160) | (256'(Counter4) << 128) |
                                              (256'(Counter3) << 96)  | (256'(Counter2) << 64) |
                                              (256'(Counter1) << 32)  | 256'(Counter0);

  for (genvar i = 0; i < smsim_pkg::NumCounters; i++) begin : g_pm
    localparam logic [3:0]  Kind = Cfg[32*i +: 4];
    localparam logic [15:0] Arg  = Cfg[32*i + 4 +: 16];
    logic [63:0] inc;
    if (Kind == 4'(smsim_pkg::PmCycles)) begin : g_cycles
      assign inc = 64'd1;
    end else if (Kind == 4'(smsim_pkg::PmInstructions)) begin : g_instructions
      assign inc = 64'(issue_count_i);
    end else if (Kind == 4'(smsim_pkg::PmEvents)) begin : g_events
      always_comb begin
        logic [EvSumWidth-1:0] n;
        n = '0;
        for (int k = 0; k < smsim_pkg::NumEvents; k++) begin
          if (Arg[k]) begin
            n = n + EvSumWidth'(ev[EvWidth*k +: EvWidth]);
          end
        end
        inc = 64'(n);
      end
    end else if (Kind == 4'(smsim_pkg::PmStall)) begin : g_stall
      assign inc = 64'(stall_count_i[16*Arg +: 16]);
    end else begin : g_off  // off: reads 0
      assign inc = 64'd0;
    end
    assign pm_d[64*i +: 64] = pm_q[64*i +: 64] + inc;
  end

  // Inputs a parameter set may leave unused.
  logic unused_inputs;
  assign unused_inputs = ^{issue_count_i, stall_count_i};

  assign pm_o          = pm_q;
  assign event_count_o = event_count_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pm_q          <= '0;
      event_count_q <= '0;
    end else begin
      pm_q          <= pm_d;
      event_count_q <= event_count_d;
    end
  end

endmodule
