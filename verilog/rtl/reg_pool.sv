// reg_pool: the per-CTA register pool behind setmaxnreg.
//
// RTL twin of the Go unit regpool.Pool (package regpool, docs/reg-pool.md);
// the two are cosimulated cycle by cycle (package cosim), every output and
// every *_q register compared every cycle. Ports and registers carry the
// names of the Go struct tags. Within a cycle the events are applied in the
// Go model's order, as one priority chain: CTA exits, CTA launches, warp
// exits (port 0 first), barrier releases, arrivals (each seeing the earlier
// ports' effect), one grant (round-robin over CTAs after grant_rr_q, lowest
// fitting warpgroup within a CTA; registers a .dec releases this cycle are
// not yet grantable), then blocked-cycle counters, high-water marks and the
// deadlock outputs. The statistics outputs show the registers (Q).
//
// Per-CTA registers are flat vectors (CTA c's free count is
// cta_free_q[32*c +: 32]); per-warpgroup registers hold 8 warpgroups per
// CTA (warpgroup g of CTA c's count is wg_nreg_q[9*(8*c+g) +: 9]).
// Written in the Verilator 5.006 / Yosys 0.23 subset (see verilog/README.md).
module reg_pool #(
  parameter int unsigned NumCTAs          = 2,
  parameter int unsigned NumPorts         = 2,
  parameter int unsigned AllocGranularity = 8,
  parameter int unsigned MaxThreadsPerCTA = 256,
  parameter int unsigned MaxRegsPerThread = 256,
  parameter int unsigned Regfile          = 65536,
  parameter int unsigned RegAllocUnit     = 256,
  // Derived widths (the Go model's width names); do not override.
  parameter int unsigned CtaIdxW          = (NumCTAs > 1) ? $clog2(NumCTAs) : 1,
  parameter int unsigned NumRel           = 2 * NumPorts + 1,
  parameter int unsigned NumUB            = 2 * NumPorts
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  input  logic [10:0]                 kern_threads_i,
  input  logic [8:0]                  kern_nreg_i,
  input  logic                        kern_nreg_valid_i,
  input  logic [NumCTAs-1:0]          cta_launch_i,
  input  logic [NumCTAs-1:0]          cta_exit_i,

  input  logic [NumPorts-1:0]         exit_valid_i,
  input  logic [NumPorts*CtaIdxW-1:0] exit_cta_i,
  input  logic [NumPorts*5-1:0]       exit_warp_i,

  input  logic [NumPorts-1:0]         sync_valid_i,
  input  logic [NumPorts*CtaIdxW-1:0] sync_cta_i,
  input  logic [NumPorts*32-1:0]      sync_warps_i,

  input  logic [NumPorts-1:0]         arrive_valid_i,
  input  logic [NumPorts*CtaIdxW-1:0] arrive_cta_i,
  input  logic [NumPorts*5-1:0]       arrive_warp_i,
  input  logic [NumPorts*32-1:0]      arrive_pc_i,
  input  logic [NumPorts-1:0]         arrive_inc_i,
  input  logic [NumPorts*9-1:0]       arrive_count_i,
  input  logic [NumPorts-1:0]         arrive_full_warp_i,

  input  logic [CtaIdxW-1:0]          stat_cta_i,
  input  logic [4:0]                  stat_warp_i,

  output logic [NumRel-1:0]           rel_valid_o,
  output logic [NumRel*CtaIdxW-1:0]   rel_cta_o,
  output logic [NumRel*32-1:0]        rel_warps_o,
  output logic [NumRel*9-1:0]         rel_old_o,
  output logic [NumRel*9-1:0]         rel_new_o,
  output logic [NumRel-1:0]           rel_noeffect_o,

  output logic [NumUB-1:0]            ub_valid_o,
  output logic [NumUB*CtaIdxW-1:0]    ub_cta_o,
  output logic [NumUB*5-1:0]          ub_warp_o,
  output logic [NumUB*5-1:0]          ub_kind_o,

  output logic                        err_valid_o,
  output logic [3:0]                  err_code_o,
  output logic [CtaIdxW-1:0]          err_cta_o,
  output logic [4:0]                  err_warp_o,

  output logic                        inc_blocked_o,
  output logic                        inc_unsatisfiable_o,
  output logic [CtaIdxW-1:0]          inc_unsat_cta_o,
  output logic [31:0]                 inc_unsat_warps_o,
  output logic [31:0]                 inc_unsat_need_o,
  output logic [31:0]                 inc_unsat_free_o,
  output logic [31:0]                 inc_unsat_max_o,

  output logic [31:0]                 rf_used_o,
  output logic                        stat_valid_o,
  output logic [31:0]                 stat_alloc_o,
  output logic [31:0]                 stat_free_o,
  output logic [31:0]                 stat_used_o,
  output logic [31:0]                 stat_high_water_o,
  output logic [8:0]                  stat_nreg_o,
  output logic [63:0]                 stat_blocked_cycles_o
);

  // NG (warpgroups per CTA), setmaxnreg's MinCount and MaxCount, the error
  // codes and UB kinds come from smsim_pkg, generated from package regpool.

  // Registers.
  logic [NumCTAs-1:0]       cta_valid_q,       cta_valid_d;
  logic [NumCTAs-1:0]       cta_effect_q,      cta_effect_d;
  logic [NumCTAs-1:0]       cta_blk_any_q,     cta_blk_any_d;
  logic [31:0]              rf_used_q,         rf_used_d;
  logic [CtaIdxW-1:0]       grant_rr_q,        grant_rr_d;
  logic [NumCTAs*6-1:0]     cta_nwarps_q,      cta_nwarps_d;
  logic [NumCTAs*9-1:0]     cta_launch_nreg_q, cta_launch_nreg_d;
  logic [NumCTAs*32-1:0]    cta_free_q,        cta_free_d;
  logic [NumCTAs*32-1:0]    cta_high_water_q,  cta_high_water_d;
  logic [NumCTAs*32-1:0]    cta_exited_q,      cta_exited_d;
  logic [NumCTAs*32-1:0]    cta_wait_q,        cta_wait_d;
  logic [NumCTAs*8-1:0]     cta_blk_q,         cta_blk_d;
  logic [NumCTAs*8-1:0]     cta_unsync_q,      cta_unsync_d;
  logic [NumCTAs*8-1:0]     wg_inc_q,          wg_inc_d;
  logic [NumCTAs*smsim_pkg::NG*9-1:0]  wg_nreg_q,         wg_nreg_d;
  logic [NumCTAs*smsim_pkg::NG*32-1:0] wg_pc_q,           wg_pc_d;
  logic [NumCTAs*smsim_pkg::NG*9-1:0]  wg_count_q,        wg_count_d;
  logic [NumCTAs*smsim_pkg::NG*64-1:0] wg_blk_cycles_q,   wg_blk_cycles_d;

  // Warps of warpgroup g of a CTA with nw warps (bit i: warp i).
  function automatic logic [31:0] members(logic [5:0] nw, logic [2:0] g);
    logic [31:0] m;
    for (int i = 0; i < 32; i++) begin
      m[i] = (i / 4 == 32'(g)) && (i < 32'(nw));
    end
    members = m;
  endfunction

  // The first nw warps.
  function automatic logic [31:0] all_warps(logic [5:0] nw);
    logic [31:0] m;
    for (int i = 0; i < 32; i++) begin
      m[i] = i < 32'(nw);
    end
    all_warps = m;
  endfunction

  // Warpgroups of a CTA with nw warps.
  function automatic logic [3:0] groups(logic [5:0] nw);
    groups = 4'((32'(nw) + 32'd3) / 32'd4);
  endfunction

  function automatic logic [5:0] popcount(logic [31:0] m);
    logic [5:0] n;
    n = '0;
    for (int i = 0; i < 32; i++) begin
      n = n + {5'd0, m[i]};
    end
    popcount = n;
  endfunction

  // Index of the lowest set bit of x, modulo 32 (0 when x is zero, as Go's
  // TrailingZeros32 truncated to 5 bits).
  function automatic logic [4:0] lowest(logic [31:0] x);
    logic [4:0] r;
    r = '0;
    for (int i = 31; i >= 0; i--) begin
      if (x[i]) begin
        r = 5'(i);
      end
    end
    lowest = r;
  endfunction

  // Index of the highest set bit of x (x non-zero).
  function automatic logic [4:0] highest(logic [31:0] x);
    logic [4:0] r;
    r = '0;
    for (int i = 0; i < 32; i++) begin
      if (x[i]) begin
        r = 5'(i);
      end
    end
    highest = r;
  endfunction

  // A CTA's register-file footprint: warps x roundup(nreg x 32, RegAllocUnit).
  function automatic logic [31:0] footprint(logic [5:0] nw, logic [9:0] nreg);
    logic [31:0] per;
    per = ((32'(nreg) * 32'd32 + RegAllocUnit - 32'd1) / RegAllocUnit) * RegAllocUnit;
    footprint = 32'(nw) * per;
  endfunction

  // Registers a CTA's warps own above the launch count.
  function automatic logic [31:0] used(logic [5:0] nw, logic [8:0] l, logic [smsim_pkg::NG*9-1:0] nregs);
    logic [31:0] n;
    logic [8:0]  r;
    n = '0;
    for (int g = 0; g < smsim_pkg::NG; g++) begin
      r = nregs[9*g +: 9];
      if (g < 32'(groups(nw)) && r > l) begin
        n = n + (32'(r) - 32'(l)) * 32'd32 * 32'(popcount(members(nw, 3'(g))));
      end
    end
    used = n;
  endfunction

  // Registers blocked warpgroup g (count cnt, current r) waits for.
  function automatic logic [31:0] need(logic [5:0] nw, logic [2:0] g, logic [8:0] cnt, logic [8:0] r);
    logic [15:0] diff;
    diff = 16'(cnt) - 16'(r);
    need = 32'(diff) * 32'd32 * 32'(popcount(members(nw, g)));
  endfunction

  logic err_taken;

  task automatic fail(input logic [3:0] code, input logic [CtaIdxW-1:0] c, input logic [4:0] w);
    if (!err_taken) begin
      err_taken   = 1'b1;
      err_valid_o = 1'b1;
      err_code_o  = code;
      err_cta_o   = c;
      err_warp_o  = w;
    end
  endtask

  task automatic release_rec(input int unsigned i, input logic [CtaIdxW-1:0] c, input logic [31:0] warps,
                             input logic [8:0] old, input logic [8:0] nw, input logic noeff);
    rel_valid_o[i]                  = 1'b1;
    rel_cta_o[CtaIdxW*i +: CtaIdxW] = c;
    rel_warps_o[32*i +: 32]         = warps;
    rel_old_o[9*i +: 9]             = old;
    rel_new_o[9*i +: 9]             = nw;
    rel_noeffect_o[i]               = noeff;
  endtask

  task automatic ub_rec(input int unsigned i, input logic [CtaIdxW-1:0] c, input logic [4:0] w,
                        input logic [4:0] kind);
    ub_valid_o[i]                  = 1'b1;
    ub_cta_o[CtaIdxW*i +: CtaIdxW] = c;
    ub_warp_o[5*i +: 5]            = w;
    ub_kind_o[5*i +: 5]            = kind;
  endtask

  // Clears CTA c's per-CTA and per-warpgroup registers.
  task automatic zero_cta(input int unsigned c);
    cta_nwarps_d[6*c +: 6]           = '0;
    cta_launch_nreg_d[9*c +: 9]      = '0;
    cta_free_d[32*c +: 32]           = '0;
    cta_high_water_d[32*c +: 32]     = '0;
    cta_exited_d[32*c +: 32]         = '0;
    cta_wait_d[32*c +: 32]           = '0;
    cta_blk_d[8*c +: 8]              = '0;
    cta_unsync_d[8*c +: 8]           = '0;
    wg_inc_d[8*c +: 8]               = '0;
    wg_nreg_d[smsim_pkg::NG*9*c +: smsim_pkg::NG*9]        = '0;
    wg_pc_d[smsim_pkg::NG*32*c +: smsim_pkg::NG*32]        = '0;
    wg_count_d[smsim_pkg::NG*9*c +: smsim_pkg::NG*9]       = '0;
    wg_blk_cycles_d[smsim_pkg::NG*64*c +: smsim_pkg::NG*64] = '0;
  endtask

  // Whether c names a live CTA slot.
  function automatic logic cta_live(logic [NumCTAs-1:0] valid, logic [CtaIdxW-1:0] c);
    logic v;
    v = 1'b0;
    for (int unsigned k = 0; k < NumCTAs; k++) begin
      if (32'(c) == k) begin
        v = valid[k];
      end
    end
    cta_live = v;
  endfunction

  // Per-port scratch: registers a .dec released this cycle (the port's
  // CTA is arrive_cta_i's).
  logic [NumPorts-1:0]         dec_valid;
  logic [NumPorts*32-1:0]      dec_regs;

  always_comb begin : p_next
    logic [5:0]          nw;
    logic [31:0]         fp;
    logic [31:0]         threads;
    logic [31:0]         l;
    logic [4:0]          w;
    logic [2:0]          g;
    logic [31:0]         bit_w;
    logic [31:0]         m;
    logic [31:0]         others;
    logic [31:0]         waiting;
    logic [31:0]         warps;
    logic [7:0]          clr;
    logic [31:0]         live;
    logic                held;
    logic                inc;
    logic [8:0]          cnt;
    logic [8:0]          cur;
    logic [31:0]         pc;
    logic [4:0]          kind;
    logic                mismatch;
    logic [31:0]         r;
    logic [31:0]         avail;
    logic                granted;
    int unsigned         sel;
    int unsigned         start;
    logic [63:0]         most;
    logic [31:0]         first;
    logic [31:0]         uwarps;
    int unsigned         wi;
    // One CTA's registers while steps 3-5 work on them.
    logic [31:0]         exited;
    logic [31:0]         wait_m;
    logic [7:0]          blk;
    logic [7:0]          unsync;
    logic [7:0]          incs;
    logic [smsim_pkg::NG*9-1:0]     nregs;
    logic [smsim_pkg::NG*32-1:0]    pcs;
    logic [smsim_pkg::NG*9-1:0]     counts;
    logic [31:0]         free;
    logic                blk_any;
    // Steps 3-5's protocol errors by port (0: none); step 6's candidates.
    logic [NumPorts*4-1:0] f_exit;
    logic [NumPorts*4-1:0] f_sync;
    logic [NumPorts*4-1:0] f_arrive;
    logic [NumCTAs-1:0]    fit;
    logic [NumCTAs*3-1:0]  fit_g;

    nw = '0; fp = '0; threads = '0; l = '0; w = '0; g = '0; bit_w = '0; m = '0;
    others = '0; waiting = '0; warps = '0; clr = '0; live = '0; held = 1'b0; inc = 1'b0;
    cnt = '0; cur = '0; pc = '0; kind = '0; mismatch = 1'b0; r = '0; avail = '0;
    granted = 1'b0; sel = 0; start = 0; most = '0; first = '0; uwarps = '0; wi = 0;
    exited = '0; wait_m = '0; blk = '0; unsync = '0; incs = '0; nregs = '0; pcs = '0;
    counts = '0; free = '0; blk_any = 1'b0; f_exit = '0; f_sync = '0; f_arrive = '0;
    fit = '0; fit_g = '0;

    cta_valid_d       = cta_valid_q;
    cta_effect_d      = cta_effect_q;
    cta_blk_any_d     = cta_blk_any_q;
    rf_used_d         = rf_used_q;
    grant_rr_d        = grant_rr_q;
    cta_nwarps_d      = cta_nwarps_q;
    cta_launch_nreg_d = cta_launch_nreg_q;
    cta_free_d        = cta_free_q;
    cta_high_water_d  = cta_high_water_q;
    cta_exited_d      = cta_exited_q;
    cta_wait_d        = cta_wait_q;
    cta_blk_d         = cta_blk_q;
    cta_unsync_d      = cta_unsync_q;
    wg_inc_d          = wg_inc_q;
    wg_nreg_d         = wg_nreg_q;
    wg_pc_d           = wg_pc_q;
    wg_count_d        = wg_count_q;
    wg_blk_cycles_d   = wg_blk_cycles_q;

    rel_valid_o         = '0;
    rel_cta_o           = '0;
    rel_warps_o         = '0;
    rel_old_o           = '0;
    rel_new_o           = '0;
    rel_noeffect_o      = '0;
    ub_valid_o          = '0;
    ub_cta_o            = '0;
    ub_warp_o           = '0;
    ub_kind_o           = '0;
    err_valid_o         = 1'b0;
    err_code_o          = '0;
    err_cta_o           = '0;
    err_warp_o          = '0;
    err_taken           = 1'b0;
    inc_blocked_o       = 1'b0;
    inc_unsatisfiable_o = 1'b0;
    inc_unsat_cta_o     = '0;
    inc_unsat_warps_o   = '0;
    inc_unsat_need_o    = '0;
    inc_unsat_free_o    = '0;
    inc_unsat_max_o     = '0;
    dec_valid           = '0;
    dec_regs            = '0;

    // 1. CTA exits.
    for (int unsigned k = 0; k < NumCTAs; k++) begin
      if (cta_exit_i[k]) begin
        if (!cta_valid_d[k]) begin
          fail(smsim_pkg::ErrCTAExitIdle, CtaIdxW'(k), 5'd0);
        end else begin
          nw = cta_nwarps_d[6*k +: 6];
          if (cta_exited_d[32*k +: 32] != all_warps(nw) || cta_wait_d[32*k +: 32] != '0 ||
              cta_blk_d[8*k +: 8] != '0) begin
            fail(smsim_pkg::ErrCTAExitLive, CtaIdxW'(k), lowest(~cta_exited_d[32*k +: 32]));
          end
          fp = footprint(nw, {1'b0, cta_launch_nreg_d[9*k +: 9]});
          rf_used_d = rf_used_d - ((rf_used_d < fp) ? rf_used_d : fp);
          zero_cta(k);
          cta_valid_d[k]   = 1'b0;
          cta_effect_d[k]  = 1'b0;
          cta_blk_any_d[k] = 1'b0;
        end
      end
    end

    // 2. CTA launches.
    for (int unsigned k = 0; k < NumCTAs; k++) begin
      if (cta_launch_i[k]) begin
        threads = 32'(kern_threads_i);
        l = ((32'(kern_nreg_i) + AllocGranularity - 1) / AllocGranularity) * AllocGranularity;
        nw = 6'((threads + 32'd31) / 32'd32);
        fp = footprint(nw, l[9:0]);
        if (cta_valid_d[k]) begin
          fail(smsim_pkg::ErrLaunchBusy, CtaIdxW'(k), 5'd0);
        end else if (threads < 32'd1 || threads > MaxThreadsPerCTA || l > MaxRegsPerThread) begin
          fail(smsim_pkg::ErrLaunchShape, CtaIdxW'(k), 5'd0);
        end else if (64'(rf_used_d) + 64'(fp) > 64'(Regfile)) begin
          fail(smsim_pkg::ErrLaunchRegfile, CtaIdxW'(k), 5'd0);
        end else begin
          zero_cta(k);
          cta_valid_d[k]   = 1'b1;
          cta_effect_d[k]  = kern_nreg_valid_i;
          cta_blk_any_d[k] = 1'b0;
          cta_nwarps_d[6*k +: 6]      = nw;
          cta_launch_nreg_d[9*k +: 9] = l[8:0];
          for (int unsigned j = 0; j < smsim_pkg::NG; j++) begin
            if (j < 32'(groups(nw))) begin
              wg_nreg_d[9*(smsim_pkg::NG*k + j) +: 9] = l[8:0];
            end
          end
          rf_used_d = rf_used_d + fp;
        end
      end
    end

    // 3.-5. Warp exits, barrier releases and arrivals. An event touches
    //    its own CTA's registers only, so the events are applied CTA by
    //    CTA, each CTA's in the chain's order (exits, then releases, then
    //    arrivals, port 0 first), on copies of the CTA's registers taken
    //    and put back at constant offsets: no register vector is indexed
    //    by a port's CTA number (Yosys would build a shifter of the whole
    //    vector for each such write). The protocol errors of these steps
    //    are noted per port and the first one in chain order is reported
    //    after them. The grant's candidates (step 6) are found here too.
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (exit_valid_i[p] && !cta_live(cta_valid_d, exit_cta_i[CtaIdxW*p +: CtaIdxW])) begin
        f_exit[4*p +: 4] = smsim_pkg::ErrNoCTA;
      end
      if (sync_valid_i[p] && !cta_live(cta_valid_d, sync_cta_i[CtaIdxW*p +: CtaIdxW])) begin
        f_sync[4*p +: 4] = smsim_pkg::ErrNoCTA;
      end
      if (arrive_valid_i[p] && !cta_live(cta_valid_d, arrive_cta_i[CtaIdxW*p +: CtaIdxW])) begin
        f_arrive[4*p +: 4] = smsim_pkg::ErrNoCTA;
      end
    end

    for (int unsigned k = 0; k < NumCTAs; k++) begin
      nw      = cta_nwarps_d[6*k +: 6];
      exited  = cta_exited_d[32*k +: 32];
      wait_m  = cta_wait_d[32*k +: 32];
      blk     = cta_blk_d[8*k +: 8];
      unsync  = cta_unsync_d[8*k +: 8];
      incs    = wg_inc_d[8*k +: 8];
      nregs   = wg_nreg_d[smsim_pkg::NG*9*k +: smsim_pkg::NG*9];
      pcs     = wg_pc_d[smsim_pkg::NG*32*k +: smsim_pkg::NG*32];
      counts  = wg_count_d[smsim_pkg::NG*9*k +: smsim_pkg::NG*9];
      free    = cta_free_d[32*k +: 32];
      blk_any = cta_blk_any_d[k];

      // 3. Warp exits.
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (exit_valid_i[p] && cta_valid_d[k] && 32'(exit_cta_i[CtaIdxW*p +: CtaIdxW]) == k) begin
          w     = exit_warp_i[5*p +: 5];
          wi    = 32'(w);
          bit_w = 32'd1 << wi;
          g     = w[4:2];
          if (wi >= 32'(nw)) begin
            f_exit[4*p +: 4] = smsim_pkg::ErrBadWarp;
          end else if ((exited & bit_w) != '0) begin
            f_exit[4*p +: 4] = smsim_pkg::ErrExited;
          end else begin
            m    = members(nw, g);
            held = (wait_m & bit_w) != '0 || blk[g];
            if (held) begin
              f_exit[4*p +: 4] = smsim_pkg::ErrBusy;
            end
            exited = exited | bit_w;
            others = m & ~exited;
            cur    = nregs[9*32'(g) +: 9];
            if (blk[g]) begin
              blk[g] = 1'b0;
              if (blk == '0) begin
                blk_any = 1'b0;
              end
              if (others != '0) begin
                release_rec(NumPorts + p, CtaIdxW'(k), others, cur, cur, 1'b0);
              end
            end else if ((wait_m & m) != '0) begin
              waiting = wait_m & m & ~bit_w;
              wait_m  = wait_m & ~m;
              if (!held) begin
                ub_rec(NumPorts + p, CtaIdxW'(k), w, smsim_pkg::UBNotAllWarps);
              end
              if (waiting != '0) begin
                release_rec(NumPorts + p, CtaIdxW'(k), waiting, cur, cur, 1'b0);
              end
            end
          end
        end
      end

      // 4. Barrier releases.
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (sync_valid_i[p] && cta_valid_d[k] && 32'(sync_cta_i[CtaIdxW*p +: CtaIdxW]) == k) begin
          warps = sync_warps_i[32*p +: 32];
          if ((warps & ~all_warps(nw)) != '0) begin
            f_sync[4*p +: 4] = smsim_pkg::ErrBadWarp;
          end
          clr = '0;
          for (int unsigned j = 0; j < smsim_pkg::NG; j++) begin
            live = members(nw, 3'(j)) & ~exited;
            if (j < 32'(groups(nw)) && live != '0 && (warps & live) == live) begin
              clr[j] = 1'b1;
            end
          end
          unsync = unsync & ~clr;
        end
      end

      // 5. Arrivals.
      for (int unsigned p = 0; p < NumPorts; p++) begin
        if (arrive_valid_i[p] && cta_valid_d[k] && 32'(arrive_cta_i[CtaIdxW*p +: CtaIdxW]) == k) begin
          w     = arrive_warp_i[5*p +: 5];
          wi    = 32'(w);
          cnt   = arrive_count_i[9*p +: 9];
          pc    = arrive_pc_i[32*p +: 32];
          inc   = arrive_inc_i[p];
          bit_w = 32'd1 << wi;
          g     = w[4:2];
          if (wi >= 32'(nw)) begin
            f_arrive[4*p +: 4] = smsim_pkg::ErrBadWarp;
          end else if ((exited & bit_w) != '0) begin
            f_arrive[4*p +: 4] = smsim_pkg::ErrExited;
          end else if ((wait_m & bit_w) != '0 || blk[g]) begin
            f_arrive[4*p +: 4] = smsim_pkg::ErrBusy;
          end else if (32'(cnt) < smsim_pkg::MinCount || 32'(cnt) > smsim_pkg::MaxCount || cnt[2:0] != 3'd0) begin
            f_arrive[4*p +: 4] = smsim_pkg::ErrBadCount;
          end else begin
            m        = members(nw, g);
            cur      = nregs[9*32'(g) +: 9];
            kind     = {!arrive_full_warp_i[p], inc && cnt < cur, !inc && cnt > cur, unsync[g], 1'b0};
            waiting  = wait_m & m;
            mismatch = waiting != '0 && (pcs[32*32'(g) +: 32] != pc || counts[9*32'(g) +: 9] != cnt ||
                       incs[g] != inc);
            if ((exited & m) != '0 || mismatch) begin
              ub_rec(p, CtaIdxW'(k), w, kind | smsim_pkg::UBNotAllWarps);
              wait_m = wait_m & ~m;
              release_rec(p, CtaIdxW'(k), waiting | bit_w, cur, cur, 1'b0);
            end else begin
              if (kind != '0) begin
                ub_rec(p, CtaIdxW'(k), w, kind);
              end
              if (waiting == '0) begin
                pcs[32*32'(g) +: 32]  = pc;
                counts[9*32'(g) +: 9] = cnt;
                incs[g]               = inc;
              end
              wait_m = wait_m | bit_w;
              if ((wait_m & m) == m) begin
                // The last warp of the warpgroup: the setmaxnreg completes.
                wait_m = wait_m & ~m;
                cnt    = counts[9*32'(g) +: 9];
                inc    = incs[g];
                if (!cta_effect_d[k]) begin
                  unsync[g] = 1'b1;
                  release_rec(p, CtaIdxW'(k), m, cur, cur, 1'b1);
                end else if (inc && cnt > cur) begin
                  blk[g]  = 1'b1;
                  blk_any = 1'b1;
                end else begin
                  if (!inc && cnt < cur) begin
                    r = (32'(cur) - 32'(cnt)) * 32'd32 * 32'(popcount(m));
                    free                 = free + r;
                    nregs[9*32'(g) +: 9] = cnt;
                    dec_valid[p]         = 1'b1;
                    dec_regs[32*p +: 32] = r;
                  end
                  unsync[g] = 1'b1;
                  release_rec(p, CtaIdxW'(k), m, cur, nregs[9*32'(g) +: 9], 1'b0);
                end
              end
            end
          end
        end
      end

      // Step 6's candidate in this CTA: the lowest blocked warpgroup whose
      // need fits the free registers, less what a .dec released this
      // cycle.
      if (blk_any) begin
        avail = free;
        for (int unsigned p = 0; p < NumPorts; p++) begin
          if (dec_valid[p] && 32'(arrive_cta_i[CtaIdxW*p +: CtaIdxW]) == k) begin
            avail = avail - dec_regs[32*p +: 32];
          end
        end
        for (int unsigned j = 0; j < smsim_pkg::NG; j++) begin
          if (!fit[k] && blk[j] && need(nw, 3'(j), counts[9*j +: 9], nregs[9*j +: 9]) <= avail) begin
            fit[k]            = 1'b1;
            fit_g[3*k +: 3]   = 3'(j);
          end
        end
      end

      cta_exited_d[32*k +: 32]    = exited;
      cta_wait_d[32*k +: 32]      = wait_m;
      cta_blk_d[8*k +: 8]         = blk;
      cta_unsync_d[8*k +: 8]      = unsync;
      wg_inc_d[8*k +: 8]          = incs;
      wg_nreg_d[smsim_pkg::NG*9*k +: smsim_pkg::NG*9]   = nregs;
      wg_pc_d[smsim_pkg::NG*32*k +: smsim_pkg::NG*32]   = pcs;
      wg_count_d[smsim_pkg::NG*9*k +: smsim_pkg::NG*9]  = counts;
      cta_free_d[32*k +: 32]      = free;
      cta_blk_any_d[k]            = blk_any;
    end

    // The first protocol error of steps 3-5, in chain order.
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (f_exit[4*p +: 4] != '0) begin
        fail(f_exit[4*p +: 4], exit_cta_i[CtaIdxW*p +: CtaIdxW], exit_warp_i[5*p +: 5]);
      end
    end
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (f_sync[4*p +: 4] == smsim_pkg::ErrNoCTA) begin
        fail(smsim_pkg::ErrNoCTA, sync_cta_i[CtaIdxW*p +: CtaIdxW], 5'd0);
      end else if (f_sync[4*p +: 4] != '0) begin
        fail(f_sync[4*p +: 4], sync_cta_i[CtaIdxW*p +: CtaIdxW], highest(sync_warps_i[32*p +: 32]));
      end
    end
    for (int unsigned p = 0; p < NumPorts; p++) begin
      if (f_arrive[4*p +: 4] != '0) begin
        fail(f_arrive[4*p +: 4], arrive_cta_i[CtaIdxW*p +: CtaIdxW], arrive_warp_i[5*p +: 5]);
      end
    end

    // 6. One grant: the first CTA with a candidate, round-robin after
    //    grant_rr_q (the CTAs from grant_rr_q + 1 up, then from 0).
    start = 32'(grant_rr_q) + 1;
    if (start >= NumCTAs) begin
      start = 0;
    end
    granted = 1'b0;
    for (int unsigned pass = 0; pass < 2; pass++) begin
      for (int unsigned k = 0; k < NumCTAs; k++) begin
        if (!granted && fit[k] && ((pass == 0) ? (k >= start) : (k < start))) begin
          granted = 1'b1;
          sel     = k;
        end
      end
    end

    for (int unsigned k = 0; k < NumCTAs; k++) begin
      nw = cta_nwarps_d[6*k +: 6];
      for (int unsigned j = 0; j < smsim_pkg::NG; j++) begin
        if (granted && sel == k && 32'(fit_g[3*k +: 3]) == j) begin
          cur = wg_nreg_d[9*(smsim_pkg::NG*k + j) +: 9];
          cnt = wg_count_d[9*(smsim_pkg::NG*k + j) +: 9];
          m   = members(nw, 3'(j));
          cta_free_d[32*k +: 32] = cta_free_d[32*k +: 32] - need(nw, 3'(j), cnt, cur);
          wg_nreg_d[9*(smsim_pkg::NG*k + j) +: 9] = cnt;
          cta_blk_d[8*k + j] = 1'b0;
          if (cta_blk_d[8*k +: 8] == '0) begin
            cta_blk_any_d[k] = 1'b0;
          end
          cta_unsync_d[8*k + j] = 1'b1;
          grant_rr_d = CtaIdxW'(k);
          r = used(nw, cta_launch_nreg_d[9*k +: 9], wg_nreg_d[smsim_pkg::NG*9*k +: smsim_pkg::NG*9]);
          if (r > cta_high_water_d[32*k +: 32]) begin
            cta_high_water_d[32*k +: 32] = r;
          end
          release_rec(2 * NumPorts, CtaIdxW'(k), m, cur, cnt, 1'b0);
        end
      end

      // 7. Blocked-cycle counters and the deadlock outputs.
      if (cta_blk_any_d[k]) begin
        inc_blocked_o = 1'b1;
        most = 64'(cta_free_d[32*k +: 32]);
        for (int unsigned j = 0; j < smsim_pkg::NG; j++) begin
          m   = members(nw, 3'(j));
          cur = wg_nreg_d[9*(smsim_pkg::NG*k + j) +: 9];
          if (j < 32'(groups(nw)) && !cta_blk_d[8*k + j] && (cta_exited_d[32*k +: 32] & m) == '0 &&
              32'(cur) > smsim_pkg::MinCount) begin
            most = most + (64'(cur) - 64'(smsim_pkg::MinCount)) * 64'd32 * 64'(popcount(m));
          end
        end
        uwarps = '0;
        first  = '0;
        for (int unsigned j = 0; j < smsim_pkg::NG; j++) begin
          if (cta_blk_d[8*k + j]) begin
            wg_blk_cycles_d[64*(smsim_pkg::NG*k + j) +: 64] = wg_blk_cycles_d[64*(smsim_pkg::NG*k + j) +: 64] + 64'd1;
            r = need(nw, 3'(j), wg_count_d[9*(smsim_pkg::NG*k + j) +: 9], wg_nreg_d[9*(smsim_pkg::NG*k + j) +: 9]);
            if (64'(r) > most) begin
              if (uwarps == '0) begin
                first = r;
              end
              uwarps = uwarps | members(nw, 3'(j));
            end
          end
        end
        if (uwarps != '0 && !inc_unsatisfiable_o) begin
          inc_unsatisfiable_o = 1'b1;
          inc_unsat_cta_o     = CtaIdxW'(k);
          inc_unsat_warps_o   = uwarps;
          inc_unsat_need_o    = first;
          inc_unsat_free_o    = cta_free_d[32*k +: 32];
          inc_unsat_max_o     = (most > 64'hffff_ffff) ? 32'hffff_ffff : most[31:0];
        end
      end
    end
  end

  // Statistics, from the registers (the slot and warpgroup selected by
  // constant-offset reads, as in p_next).
  always_comb begin : p_stats
    logic [5:0]  snw;
    logic [8:0]  snreg;
    snw                   = '0;
    snreg                 = '0;
    rf_used_o             = rf_used_q;
    stat_valid_o          = 1'b0;
    stat_alloc_o          = '0;
    stat_free_o           = '0;
    stat_used_o           = '0;
    stat_high_water_o     = '0;
    stat_nreg_o           = '0;
    stat_blocked_cycles_o = '0;
    for (int unsigned k = 0; k < NumCTAs; k++) begin
      if (32'(stat_cta_i) == k && cta_valid_q[k]) begin
        snw               = cta_nwarps_q[6*k +: 6];
        snreg             = cta_launch_nreg_q[9*k +: 9];
        stat_valid_o      = 1'b1;
        stat_alloc_o      = 32'(snw) * 32'd32 * 32'(snreg);
        stat_free_o       = cta_free_q[32*k +: 32];
        stat_used_o       = used(snw, snreg, wg_nreg_q[smsim_pkg::NG*9*k +: smsim_pkg::NG*9]);
        stat_high_water_o = cta_high_water_q[32*k +: 32];
        for (int unsigned j = 0; j < smsim_pkg::NG; j++) begin
          if (32'(stat_warp_i[4:2]) == j && 32'(stat_warp_i) < 32'(snw)) begin
            stat_nreg_o           = wg_nreg_q[9*(smsim_pkg::NG*k + j) +: 9];
            stat_blocked_cycles_o = wg_blk_cycles_q[64*(smsim_pkg::NG*k + j) +: 64];
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cta_valid_q       <= '0;
      cta_effect_q      <= '0;
      cta_blk_any_q     <= '0;
      rf_used_q         <= '0;
      grant_rr_q        <= CtaIdxW'(NumCTAs - 1);
      cta_nwarps_q      <= '0;
      cta_launch_nreg_q <= '0;
      cta_free_q        <= '0;
      cta_high_water_q  <= '0;
      cta_exited_q      <= '0;
      cta_wait_q        <= '0;
      cta_blk_q         <= '0;
      cta_unsync_q      <= '0;
      wg_inc_q          <= '0;
      wg_nreg_q         <= '0;
      wg_pc_q           <= '0;
      wg_count_q        <= '0;
      wg_blk_cycles_q   <= '0;
    end else begin
      cta_valid_q       <= cta_valid_d;
      cta_effect_q      <= cta_effect_d;
      cta_blk_any_q     <= cta_blk_any_d;
      rf_used_q         <= rf_used_d;
      grant_rr_q        <= grant_rr_d;
      cta_nwarps_q      <= cta_nwarps_d;
      cta_launch_nreg_q <= cta_launch_nreg_d;
      cta_free_q        <= cta_free_d;
      cta_high_water_q  <= cta_high_water_d;
      cta_exited_q      <= cta_exited_d;
      cta_wait_q        <= cta_wait_d;
      cta_blk_q         <= cta_blk_d;
      cta_unsync_q      <= cta_unsync_d;
      wg_inc_q          <= wg_inc_d;
      wg_nreg_q         <= wg_nreg_d;
      wg_pc_q           <= wg_pc_d;
      wg_count_q        <= wg_count_d;
      wg_blk_cycles_q   <= wg_blk_cycles_d;
    end
  end

endmodule
