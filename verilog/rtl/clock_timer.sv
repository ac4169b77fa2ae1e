// clock_timer: the SM's cycle counter, global timer and nanosleep timers.
//
// RTL twin of the Go unit clocktimer.ClockTimer (package clocktimer,
// docs/clock-timer.md); the two are cosimulated cycle by cycle (package
// cosim), every output and every *_q register compared every cycle. Ports
// and registers carry the names of the Go struct tags. Behaviour, per
// cycle:
//
//   * cycle_q counts up by one (from ClockStart at reset), wrapping at 2^64.
//   * gtimer_q advances by 1000/MHz ns; the remainder 1000%MHz accumulates
//     in gtimer_frac_q (always < MHz), carrying one ns when it reaches MHz.
//   * sleep_cnt_q[w] counts down to 0; a nanosleep on port p for warp w
//     (< NumWarps) loads floor(min(ns, 1e6) * MHz / 1000), a later port
//     overriding an earlier one for the same warp.
//   * The outputs are functions of the registers only: %clock, %clock_hi,
//     %clock64, %globaltimer (gtimer_q rounded down to a multiple of
//     ResolutionNs) and its halves, and sleeping_o (count nonzero).
//
// The 64-bit values (clock.start, timer.resolution_ns, timer.start_ns) are
// split into 32-bit halves (*Lo, *Hi), so that they stay `int unsigned`
// parameters that `verilator -G` and Yosys `chparam` set from decimal
// numbers.
module clock_timer #(
  parameter int unsigned NumWarps       = 8,
  parameter int unsigned NumPorts       = 2,
  parameter int unsigned MHz            = 1755,
  parameter int unsigned ClockStartLo   = 0,
  parameter int unsigned ClockStartHi   = 0,
  parameter int unsigned ResolutionNsLo = 32,
  parameter int unsigned ResolutionNsHi = 0,
  parameter int unsigned TimerStartNsLo = 0,
  parameter int unsigned TimerStartNsHi = 0,
  // Derived widths (the Go model's width names); do not override.
  parameter int unsigned WarpIdxWidth   = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int unsigned SleepWarpWidth = WarpIdxWidth * NumPorts,
  parameter int unsigned SleepNsWidth   = 32 * NumPorts,
  parameter int unsigned SleepCntWidth  = 32 * NumWarps
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  input  logic [NumPorts-1:0]       sleep_valid_i,
  input  logic [SleepWarpWidth-1:0] sleep_warp_i,
  input  logic [SleepNsWidth-1:0]   sleep_ns_i,

  output logic [31:0]               clock_o,
  output logic [31:0]               clock_hi_o,
  output logic [63:0]               clock64_o,
  output logic [63:0]               globaltimer_o,
  output logic [31:0]               globaltimer_lo_o,
  output logic [31:0]               globaltimer_hi_o,
  output logic [NumWarps-1:0]       sleeping_o
);

  localparam logic [63:0] ClockStart   = (64'(ClockStartHi) << 32) | 64'(ClockStartLo);
  localparam logic [63:0] ResolutionNs = (64'(ResolutionNsHi) << 32) | 64'(ResolutionNsLo);
  localparam logic [63:0] TimerStartNs = (64'(TimerStartNsHi) << 32) | 64'(TimerStartNsLo);
  // Whole and fractional ns per cycle (the fraction in 1/MHz ns).
  localparam int unsigned NsQuotI      = 1000 / MHz;
  localparam int unsigned NsRemI       = 1000 % MHz;
  localparam logic [63:0] NsQuot       = 64'(NsQuotI);
  localparam logic [31:0] NsRem        = NsRemI;
  localparam logic [31:0] MHzW         = 32'(MHz);
  // The longest sleep (1 ms) is smsim_pkg::MaxSleepNs, generated from
  // clocktimer.MaxSleepNs.

  // Registers.
  logic [63:0]              cycle_q,       cycle_d;
  logic [63:0]              gtimer_q,      gtimer_d;
  logic [31:0]              gtimer_frac_q, gtimer_frac_d;
  logic [SleepCntWidth-1:0] sleep_cnt_q,   sleep_cnt_d;

  // The cycle counter and the global timer.
  always_comb begin
    logic [31:0] acc;
    cycle_d  = cycle_q + 64'd1;
    gtimer_d = gtimer_q + NsQuot;
    acc      = gtimer_frac_q + NsRem;
    if (acc >= MHzW) begin
      acc      = acc - MHzW;
      gtimer_d = gtimer_d + 64'd1;
    end
    gtimer_frac_d = acc;
  end

  // A sleep duration in whole cycles, rounded down:
  // floor(min(ns, 1e6) * MHz / 1000) <= 1e8 fits 32 bits. No divider: x =
  // n * MHz < 2^37, and for x < 2^37, floor(x / 1000) = floor(x * DivMagic /
  // 2^47) with DivMagic = ceil(2^47 / 1000) (the error of DivMagic, below
  // 1000 = 2^47/DivMagic's 2^10 headroom, stays under 1/1000 of one).
  // MHz * DivMagic is one constant, so it is a single constant multiply.
  localparam logic [37:0] DivMagic  = 38'd140737488356;
  localparam logic [74:0] SleepMul  = 75'(MHz) * 75'(DivMagic);
  function automatic logic [31:0] sleep_cycles(logic [31:0] ns);
    logic [31:0] n;
    n            = (ns > smsim_pkg::MaxSleepNs) ? smsim_pkg::MaxSleepNs : ns;
    sleep_cycles = 32'((75'(n) * SleepMul) >> 47);
  endfunction

  logic [SleepNsWidth-1:0] req_cycles;  // per port: its sleep in cycles
  for (genvar p = 0; p < NumPorts; p++) begin : g_req
    assign req_cycles[32*p +: 32] = sleep_cycles(sleep_ns_i[32*p +: 32]);
  end

  // The sleep counters: count down, then the requests in port order (a
  // later port wins). A warp index >= NumWarps matches no slot.
  always_comb begin
    sleep_cnt_d = sleep_cnt_q;
    for (int w = 0; w < NumWarps; w++) begin
      if (sleep_cnt_q[32*w +: 32] != 32'd0) begin
        sleep_cnt_d[32*w +: 32] = sleep_cnt_q[32*w +: 32] - 32'd1;
      end
      for (int p = 0; p < NumPorts; p++) begin
        if (sleep_valid_i[p] &&
            sleep_warp_i[WarpIdxWidth*p +: WarpIdxWidth] == WarpIdxWidth'(w)) begin
          sleep_cnt_d[32*w +: 32] = req_cycles[32*p +: 32];
        end
      end
    end
  end

  // Outputs: functions of the registers only.
  logic [63:0] gtimer_round;
  if ((ResolutionNs & (ResolutionNs - 64'd1)) == 64'd0) begin : g_res_pow2
    assign gtimer_round = gtimer_q & ~(ResolutionNs - 64'd1);
  end else begin : g_res_any
    assign gtimer_round = gtimer_q - (gtimer_q % ResolutionNs);
  end

  assign clock_o          = cycle_q[31:0];
  assign clock_hi_o       = cycle_q[63:32];
  assign clock64_o        = cycle_q;
  assign globaltimer_o    = gtimer_round;
  assign globaltimer_lo_o = gtimer_round[31:0];
  assign globaltimer_hi_o = gtimer_round[63:32];

  for (genvar w = 0; w < NumWarps; w++) begin : g_sleeping
    assign sleeping_o[w] = |sleep_cnt_q[32*w +: 32];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycle_q       <= ClockStart;
      gtimer_q      <= TimerStartNs;
      gtimer_frac_q <= '0;
      sleep_cnt_q   <= '0;
    end else begin
      cycle_q       <= cycle_d;
      gtimer_q      <= gtimer_d;
      gtimer_frac_q <= gtimer_frac_d;
      sleep_cnt_q   <= sleep_cnt_d;
    end
  end

endmodule
