// trap_unit: the SM's trap unit (BPT, IDE, RTT, warp errors, ESRs, the
// trap handler's entry and exit, the host's wake-up and resume).
//
// RTL twin of the Go unit trapunit.Unit (package trapunit, docs/trap-unit.md);
// the two are cosimulated cycle by cycle (package cosim), every output and
// every *_q register compared every cycle. Ports and registers carry the
// names of the Go struct tags. Next state, per cycle, in this order (each
// step sees the previous steps' results in *_d):
//
//   1. warps launched this cycle get fresh per-warp registers (ESR, saved
//      PC, interrupt mask); warps that are not live, or launched, lose
//      their trap state (in handler, paused, quiet);
//   2. if every live warp is paused quietly, they all leave the handler
//      (return to user mode);
//   3. the host command is checked and applied;
//   4. the events, port 0 first;
//   5. if a warp took a trap and the SM was not trapped before step 4,
//      every other live warp enters the handler too.
//
// The registered outputs are functions of the *_q registers only.
//
// Written in the subset of SystemVerilog that both Verilator 5.006 and
// Yosys 0.23 accept: flat vectors (warp w's ESR is warp_esr_q[16*w +: 16]),
// width casts by number only. The Go model's helpers (enter, redirect,
// leave, irq) are the TRAP_UNIT_* macros below, expanded where the model
// calls them, so the procedural order is the model's.
module trap_unit #(
  parameter int unsigned NumWarps      = 8,
  parameter int unsigned NumPorts      = 2,
  parameter int unsigned HasHandler    = 1,
  // Derived widths (the Go model's width names); do not override.
  parameter int unsigned WarpIdxWidth  = (NumWarps > 1) ? $clog2(NumWarps) : 1,
  parameter int unsigned PcArrayWidth  = 32 * NumWarps,
  parameter int unsigned EsrArrayWidth = 16 * NumWarps,
  parameter int unsigned EvWarpWidth   = WarpIdxWidth * NumPorts,
  parameter int unsigned EvKindWidth   = 4 * NumPorts,
  parameter int unsigned EvArgWidth    = 4 * NumPorts,
  parameter int unsigned EvPcWidth     = 32 * NumPorts
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,

  input  logic [NumWarps-1:0]      warp_live_i,
  input  logic [NumWarps-1:0]      warp_launch_i,
  input  logic [PcArrayWidth-1:0]  warp_pc_i,
  input  logic [NumPorts-1:0]      ev_valid_i,
  input  logic [EvWarpWidth-1:0]   ev_warp_i,
  input  logic [EvKindWidth-1:0]   ev_kind_i,
  input  logic [EvArgWidth-1:0]    ev_arg_i,
  input  logic [EvPcWidth-1:0]     ev_pc_next_i,
  input  logic [2:0]               host_cmd_i,
  input  logic [15:0]              host_arg_i,

  output logic                     sm_trapped_o,
  output logic [NumWarps-1:0]      enter_handler_o,
  output logic [NumWarps-1:0]      resume_o,
  output logic                     return_to_user_o,
  output logic [PcArrayWidth-1:0]  resume_pc_o,
  output logic [NumWarps-1:0]      warp_paused_o,
  output logic [NumWarps-1:0]      warp_in_handler_o,
  output logic                     all_paused_o,
  output logic                     irq_o,
  output logic [3:0]               irq_cause_o,
  output logic [31:0]              irq_count_o,
  output logic [15:0]              global_esr_o,
  output logic [15:0]              s2r_global_esr_o,
  output logic [EsrArrayWidth-1:0] warp_esr_o,
  output logic                     host_ack_o,
  output logic [2:0]               host_err_o
);

  // Encodings (event kinds, error codes, reasons, ESR bits, interrupt causes,
  // host commands and results) come from smsim_pkg, generated from package
  // trapunit.

  localparam logic HasHandlerBit = (HasHandler != 0);

  // Registers.
  logic                     sm_trapped_q,  sm_trapped_d;
  logic [NumWarps-1:0]      in_handler_q,  in_handler_d;
  logic [NumWarps-1:0]      paused_q,      paused_d;
  logic [NumWarps-1:0]      quiet_q,       quiet_d;
  logic [NumWarps-1:0]      int_mask_q,    int_mask_d;
  logic [PcArrayWidth-1:0]  saved_pc_q,    saved_pc_d;
  logic [EsrArrayWidth-1:0] warp_esr_q,    warp_esr_d;
  logic [15:0]              global_esr_q,  global_esr_d;
  logic [3:0]               irq_pending_q, irq_pending_d;
  logic [31:0]              irq_count_q,   irq_count_d;

  // Combinational scratch of the cycle (the Go model's `cycle`).
  logic [NumWarps-1:0]     live;
  logic [NumWarps-1:0]     gone;
  logic [NumWarps-1:0]     entered;      // warps that entered the handler this cycle
  logic [NumWarps-1:0]     enter_handler;
  logic [NumWarps-1:0]     resume;
  logic [NumWarps-1:0]     rest;
  logic                    trap_req;     // a warp took a trap this cycle
  logic                    was_trapped;     // the SM was trapped before the events
  logic                    return_to_user;
  logic                    all_paused;
  logic [2:0]              host_err;
  logic                    host_ack;
  logic [WarpIdxWidth-1:0] host_w;
  logic                    host_w_ok;    // host_arg_i names a warp slot
  logic [WarpIdxWidth-1:0] ev_w;
  logic [3:0]              ev_kind;
  logic [3:0]              ev_arg;
  logic [31:0]             ev_pc;
  logic [2:0]              pend;
  logic                    do_err;       // the event is a warp error with code err_code
  logic [3:0]              err_code;
  logic                    do_bpt;       // the event is BPT.TRAP bpt_r
  logic [2:0]              bpt_r;
  logic                    do_take;      // the event takes trap take_r (unmasked)
  logic [2:0]              take_r;
  logic                    do_leave;     // the event is an RTT in the handler

  // irq(cause): raise an interrupt.
`define TRAP_UNIT_IRQ(cause) \
  begin \
    irq_pending_d = irq_pending_d | (cause); \
    irq_count_d   = irq_count_d + 32'd1; \
  end

  // redirect(w): warp w, now in the handler, goes to the handler entry or,
  // without a handler, stops there.
`define TRAP_UNIT_REDIRECT(w) \
  begin \
    entered[w] = 1'b1; \
    if (HasHandlerBit) begin \
      enter_handler[w] = 1'b1; \
    end else begin \
      paused_d[w] = 1'b1; \
      quiet_d[w]  = 1'b0; \
    end \
  end

  // enter(w, pc): warp w enters the handler with saved PC pc; a warp that
  // left the handler earlier this cycle keeps the PC it was resuming at.
`define TRAP_UNIT_ENTER(w, pc) \
  begin \
    in_handler_d[w] = 1'b1; \
    if (resume[w]) begin \
      resume[w] = 1'b0; \
    end else begin \
      saved_pc_d[32*(w) +: 32] = (pc); \
    end \
    `TRAP_UNIT_REDIRECT(w) \
  end

  // leave(w): warp w leaves the handler (clearing its ESR's reason and
  // error), or takes its pending trap if that is no longer masked.
`define TRAP_UNIT_LEAVE(w) \
  begin \
    paused_d[w] = 1'b0; \
    quiet_d[w]  = 1'b0; \
    pend = warp_esr_d[16*(w) + 8 +: 3]; \
    if (pend != 3'd0 && !int_mask_d[w]) begin \
      warp_esr_d[16*(w) +: 16] = {13'd0, pend}; \
      `TRAP_UNIT_REDIRECT(w) \
      if (!HasHandlerBit) `TRAP_UNIT_IRQ(smsim_pkg::IrqTrap) \
    end else begin \
      warp_esr_d[16*(w) +: 16] = {5'd0, pend, 8'd0}; \
      in_handler_d[w] = 1'b0; \
      resume[w] = 1'b1; \
    end \
  end

  always_comb begin
    sm_trapped_d   = sm_trapped_q;
    in_handler_d   = in_handler_q;
    paused_d       = paused_q;
    quiet_d        = quiet_q;
    int_mask_d     = int_mask_q;
    saved_pc_d     = saved_pc_q;
    warp_esr_d     = warp_esr_q;
    global_esr_d   = global_esr_q;
    irq_pending_d  = irq_pending_q;
    irq_count_d    = irq_count_q;

    live           = warp_live_i;
    entered        = '0;
    enter_handler  = '0;
    resume         = '0;
    trap_req       = 1'b0;
    return_to_user = 1'b0;
    host_err       = smsim_pkg::HostOk;
    host_ack       = 1'b0;
    pend           = '0;

    // 1. Launches and exits.
    for (int w = 0; w < NumWarps; w++) begin
      if (warp_launch_i[w]) begin
        warp_esr_d[16*w +: 16] = '0;
        saved_pc_d[32*w +: 32] = '0;
        int_mask_d[w]          = 1'b0;
      end
    end
    gone         = ~live | warp_launch_i;
    in_handler_d = in_handler_d & ~gone;
    paused_d     = paused_d & ~gone;
    quiet_d      = quiet_d & ~gone;

    // 2. Return to user mode when every live warp paused quietly.
    if ((|live) && !(|(live & ~(paused_d & quiet_d)))) begin
      return_to_user = 1'b1;
      for (int w = 0; w < NumWarps; w++) begin
        if (live[w]) `TRAP_UNIT_LEAVE(w)
      end
    end
    all_paused = (|(in_handler_d & live)) && !(|(live & ~paused_d));

    // 3. The host command.
    host_w_ok = host_arg_i < 16'(NumWarps);
    host_w    = host_arg_i[WarpIdxWidth-1:0];
    if (host_cmd_i != smsim_pkg::HostNone) begin
      case (host_cmd_i)
        smsim_pkg::HostAckIrq: irq_pending_d = irq_pending_d & ~host_arg_i[3:0];
        smsim_pkg::HostClearGlobalEsr: global_esr_d = global_esr_d & ~host_arg_i;
        smsim_pkg::HostClearWarpEsr: begin
          if (!host_w_ok) begin
            host_err = smsim_pkg::HostErrBadWarp;
          end else begin
            warp_esr_d[16*host_w +: 16] = '0;
          end
        end
        smsim_pkg::HostWakeAll, smsim_pkg::HostWakeWarp, smsim_pkg::HostResume: begin
          if (host_cmd_i == smsim_pkg::HostWakeWarp && (!host_w_ok || !live[host_w])) begin
            host_err = smsim_pkg::HostErrBadWarp;
          end else if (host_cmd_i != smsim_pkg::HostResume && !HasHandlerBit) begin
            host_err = smsim_pkg::HostErrNoHandler;
          end else if (!(|(in_handler_d & live))) begin
            host_err = smsim_pkg::HostErrNotTrapped;
          end else if (|(live & ~paused_d)) begin
            host_err = smsim_pkg::HostErrNotStopped;
          end else if (host_cmd_i == smsim_pkg::HostWakeWarp) begin
            paused_d[host_w] = 1'b0;
            quiet_d[host_w]  = 1'b0;
          end else if (host_cmd_i == smsim_pkg::HostWakeAll) begin
            paused_d = paused_d & ~live;
            quiet_d  = quiet_d & ~live;
          end else begin
            for (int w = 0; w < NumWarps; w++) begin
              if (live[w]) `TRAP_UNIT_LEAVE(w)
            end
          end
        end
        default: host_err = smsim_pkg::HostErrBadCmd;
      endcase
      host_ack = (host_err == smsim_pkg::HostOk);
    end

    // 4. The events, port 0 first.
    was_trapped = |(in_handler_d & live);
    for (int p = 0; p < NumPorts; p++) begin
      ev_w     = ev_warp_i[WarpIdxWidth*p +: WarpIdxWidth];
      ev_kind  = ev_kind_i[4*p +: 4];
      ev_arg   = ev_arg_i[4*p +: 4];
      ev_pc    = ev_pc_next_i[32*p +: 32];
      do_err   = 1'b0;
      err_code = '0;
      do_bpt   = 1'b0;
      bpt_r    = '0;
      do_take  = 1'b0;
      take_r   = '0;
      do_leave = 1'b0;
      // Events of warps that are not live are dropped; a paused warp
      // issues nothing, and an instruction of a warp redirected this cycle
      // is squashed (its errors still count).
      if (ev_valid_i[p] && 32'(ev_w) < NumWarps && live[ev_w] &&
          (ev_kind == smsim_pkg::EvWarpError || !(paused_d[ev_w] || entered[ev_w]))) begin
        case (ev_kind)
          smsim_pkg::EvBptPause, smsim_pkg::EvBptPauseQuiet: begin
            if (!in_handler_d[ev_w]) begin
              do_err   = 1'b1;
              err_code = smsim_pkg::ErrIllegalInstrEncoding;
            end else begin
              paused_d[ev_w] = 1'b1;
              if (ev_kind == smsim_pkg::EvBptPauseQuiet) begin
                quiet_d[ev_w] = 1'b1;
              end else begin
                quiet_d[ev_w] = 1'b0;
                global_esr_d  = global_esr_d | smsim_pkg::GlobalEsrBptPause;
                `TRAP_UNIT_IRQ(smsim_pkg::IrqPause)
              end
            end
          end
          smsim_pkg::EvBptTrap: begin
            do_bpt = 1'b1;
            bpt_r  = ev_arg[2:0];
          end
          smsim_pkg::EvPtxBrkpt: begin
            do_bpt = 1'b1;
            bpt_r  = smsim_pkg::ReasonBreakpoint;
          end
          smsim_pkg::EvBptInt: begin
            global_esr_d = global_esr_d | smsim_pkg::GlobalEsrBptInt;
            `TRAP_UNIT_IRQ(smsim_pkg::IrqInt)
          end
          smsim_pkg::EvIdeEnable: begin
            int_mask_d[ev_w] = 1'b0;
            pend = warp_esr_d[16*ev_w + 8 +: 3];
            if (pend != 3'd0 && !in_handler_d[ev_w]) begin
              warp_esr_d[16*ev_w + 8 +: 3] = 3'd0;
              do_take = 1'b1;
              take_r  = pend;
            end
          end
          smsim_pkg::EvIdeDisable: int_mask_d[ev_w] = 1'b1;
          smsim_pkg::EvRtt: begin
            if (!in_handler_d[ev_w]) begin
              do_err   = 1'b1;
              err_code = smsim_pkg::ErrIllegalInstrEncoding;
            end else begin
              do_leave = 1'b1;
            end
          end
          smsim_pkg::EvWarpError: begin
            do_err   = 1'b1;
            err_code = (ev_arg == 4'd0) ? smsim_pkg::ErrUnknown : ev_arg;
          end
          smsim_pkg::EvPtxTrap: begin
            do_err   = 1'b1;
            err_code = smsim_pkg::ErrAssertTrap;
          end
          default: ;  // NONE, BPT_DRAIN, reserved kinds: nothing
        endcase

        // bptTrap: recorded in the global ESR, held under IDE.DIS
        // (reasons 1..6), else taken.
        if (do_bpt) begin
          if (bpt_r == 3'd0) begin
            do_err   = 1'b1;
            err_code = smsim_pkg::ErrIllegalInstrEncoding;
          end else begin
            global_esr_d[{1'b0, bpt_r}] = 1'b1;
            if (bpt_r != smsim_pkg::ReasonNonMaskable && int_mask_d[ev_w]) begin
              warp_esr_d[16*ev_w + 8 +: 3] = bpt_r;
            end else begin
              do_take = 1'b1;
              take_r  = bpt_r;
            end
          end
        end

        // takeTrap: an unmasked BPT.TRAP.
        if (do_take) begin
          warp_esr_d[16*ev_w +: 3] = take_r;
          if (in_handler_d[ev_w]) begin
            // nested(w, TRAP)
            if (!entered[ev_w]) begin
              paused_d[ev_w] = 1'b1;
              quiet_d[ev_w]  = 1'b0;
              `TRAP_UNIT_IRQ(smsim_pkg::IrqTrap)
            end
          end else begin
            `TRAP_UNIT_ENTER(ev_w, ev_pc)
            trap_req = 1'b1;
            if (!HasHandlerBit) `TRAP_UNIT_IRQ(smsim_pkg::IrqTrap)
          end
        end

        // warpError: the first error code is kept; always interrupts.
        if (do_err) begin
          if (warp_esr_d[16*ev_w + 4 +: 4] == 4'd0) begin
            warp_esr_d[16*ev_w + 4 +: 4] = err_code;
          end
          global_esr_d = global_esr_d | smsim_pkg::GlobalEsrError;
          `TRAP_UNIT_IRQ(smsim_pkg::IrqError)
          if (in_handler_d[ev_w]) begin
            // nested(w, 0)
            if (!entered[ev_w]) begin
              paused_d[ev_w] = 1'b1;
              quiet_d[ev_w]  = 1'b0;
            end
          end else begin
            `TRAP_UNIT_ENTER(ev_w, ev_pc)
            trap_req = 1'b1;
          end
        end

        if (do_leave) `TRAP_UNIT_LEAVE(ev_w)
      end
    end

    // 5. A trap that traps the SM takes every live warp into the handler.
    rest = live & ~in_handler_d;
    if (trap_req && !was_trapped) begin
      for (int w = 0; w < NumWarps; w++) begin
        if (rest[w]) `TRAP_UNIT_ENTER(w, warp_pc_i[32*w +: 32])
      end
    end
    sm_trapped_d = |(in_handler_d & live);
  end

`undef TRAP_UNIT_IRQ
`undef TRAP_UNIT_REDIRECT
`undef TRAP_UNIT_ENTER
`undef TRAP_UNIT_LEAVE

  // Outputs: the cycle's pulses, and the registers.
  assign enter_handler_o   = enter_handler;
  assign resume_o          = resume;
  assign return_to_user_o  = return_to_user;
  assign all_paused_o      = all_paused;
  assign host_ack_o        = host_ack;
  assign host_err_o        = host_err;

  assign sm_trapped_o      = sm_trapped_q;
  assign resume_pc_o       = saved_pc_q;
  assign warp_paused_o     = paused_q;
  assign warp_in_handler_o = in_handler_q;
  assign irq_cause_o       = irq_pending_q;
  assign irq_o             = |irq_pending_q;
  assign irq_count_o       = irq_count_q;
  assign global_esr_o      = global_esr_q;
  assign s2r_global_esr_o  = global_esr_q & ~smsim_pkg::GlobalEsrBptInt;
  assign warp_esr_o        = warp_esr_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sm_trapped_q  <= 1'b0;
      in_handler_q  <= '0;
      paused_q      <= '0;
      quiet_q       <= '0;
      int_mask_q    <= '0;
      saved_pc_q    <= '0;
      warp_esr_q    <= '0;
      global_esr_q  <= '0;
      irq_pending_q <= '0;
      irq_count_q   <= '0;
    end else begin
      sm_trapped_q  <= sm_trapped_d;
      in_handler_q  <= in_handler_d;
      paused_q      <= paused_d;
      quiet_q       <= quiet_d;
      int_mask_q    <= int_mask_d;
      saved_pc_q    <= saved_pc_d;
      warp_esr_q    <= warp_esr_d;
      global_esr_q  <= global_esr_d;
      irq_pending_q <= irq_pending_d;
      irq_count_q   <= irq_count_d;
    end
  end

endmodule
