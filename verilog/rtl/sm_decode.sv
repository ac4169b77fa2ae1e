// sm_decode: one instruction word of the binary image (docs/isa.md) to the
// fields the SM's stages use. Combinational; twin of pipeline/decode*.go
// for the subset of docs/sm-rtl.md (the Go side refuses kernels outside
// it before a run, so supported_o is for assertions and coverage).
module sm_decode (
  input  logic [127:0] inst_i,

  output logic [7:0]   op_o,
  output logic [4:0]   ty_o,         // operation type
  output logic [4:0]   ty2_o,        // CVT's source type; LD/ST: the base's width
  output logic         guard_on_o,
  output logic         guard_neg_o,
  output logic [5:0]   guard_o,
  output logic [15:0]  mods_o,
  output logic [31:0]  imm_o,
  // Source slots A, B, C: bit i is slot i.
  output logic [2:0]   src_used_o,   // read by the instruction (arity)
  output logic [5:0]   src_kind_o,   // 2 bits per slot (sm_isa_pkg::Kind*)
  output logic [29:0]  src_val_o,    // 10 bits per slot
  output logic [2:0]   src_wide_o,   // a 64-bit operand (a register pair)
  output logic [2:0]   src_pred_o,   // a predicate-typed operand
  // Destinations: kind 0 none, 1 reg32, 2 reg64 (pair), 3 predicate.
  output logic [1:0]   d1_kind_o,
  output logic [7:0]   d1_o,
  output logic [1:0]   d2_kind_o,
  output logic [7:0]   d2_o,
  output logic [3:0]   cat_o,        // CatAlu .. CatSleep below
  output logic [3:0]   lat_o,        // LatAlu .. LatLocal below
  output logic         ctrl_o,       // control flow (branch_resolving)
  output logic         uses_port_o,  // needs a global memory port
  output logic         supported_o
);
  import sm_isa_pkg::*;

  localparam logic [3:0] CatAlu = 4'd0, CatLd = 4'd1, CatSt = 4'd2, CatS2r = 4'd3,
                         CatBra = 4'd4, CatRet = 4'd5, CatExit = 4'd6, CatNop = 4'd7,
                         CatBar = 4'd8, CatCall = 4'd9, CatBrx = 4'd10,
                         CatWarp = 4'd11, CatTrap = 4'd12, CatTu = 4'd13,
                         CatSleep = 4'd14;
  localparam logic [3:0] LatAlu = 4'd0, LatMul = 4'd1, LatSReg = 4'd2, LatParam = 4'd3,
                         LatGlobal = 4'd4, LatNone = 4'd5, LatShared = 4'd6, LatDiv = 4'd7,
                         LatLocal = 4'd8;
  localparam logic [1:0] DNone = 2'd0, DReg32 = 2'd1, DReg64 = 2'd2, DPred = 2'd3;

  logic        wide_t, pred_t;
  logic [2:0]  space;

  assign op_o        = inst_i[7:0];
  assign ty_o        = {inst_i[92], inst_i[11:8]};
  assign ty2_o       = {inst_i[93], inst_i[15:12]};
  assign guard_on_o  = inst_i[16];
  assign guard_neg_o = inst_i[17];
  assign guard_o     = inst_i[23:18];
  assign mods_o      = inst_i[39:24];
  assign d1_o        = inst_i[47:40];
  assign imm_o       = inst_i[127:96];
  assign src_kind_o  = {inst_i[91:90], inst_i[79:78], inst_i[67:66]};
  assign src_val_o   = {inst_i[89:80], inst_i[77:68], inst_i[65:56]};
  assign wide_t      = ty_o == TyB64 || ty_o == TyU64 || ty_o == TyS64;
  assign pred_t      = ty_o == TyPred;
  assign space       = mods_o[2:0];

  logic unused_reserved;
  assign unused_reserved = ^inst_i[95:94];

  always_comb begin
    cat_o       = CatAlu;
    lat_o       = LatAlu;
    ctrl_o      = 1'b0;
    uses_port_o = 1'b0;
    src_used_o  = 3'b000;
    src_wide_o  = {3{wide_t}};
    src_pred_o  = {3{pred_t}};
    d1_kind_o   = pred_t ? DPred : (wide_t ? DReg64 : DReg32);
    d2_kind_o   = DNone;
    d2_o        = inst_i[55:48];
    supported_o = 1'b1;
    unique case (op_o)
      OpNOP: begin
        cat_o = CatNop; lat_o = LatNone; d1_kind_o = DNone;
      end
      OpMOV, OpNOT, OpNEG, OpABS, OpBREV: src_used_o = 3'b001;
      OpPOPC, OpCLZ: begin
        src_used_o = 3'b001;
        d1_kind_o  = DReg32;  // a u32 count of either width
      end
      OpDIV, OpREM: begin
        src_used_o = 3'b011;
        lat_o      = LatDiv;
      end
      OpMUL24: begin
        src_used_o = 3'b011;
        lat_o      = LatMul;
      end
      OpMAD24, OpSAD: begin
        src_used_o = 3'b111;
        lat_o      = LatMul;
      end
      OpBFE: begin
        // A of the type; position and length u32.
        src_used_o = 3'b111;
        src_wide_o = {2'b00, wide_t};
      end
      OpPRMT, OpSHF: begin
        src_used_o    = 3'b111;
        src_wide_o[2] = 1'b0;
      end
      OpCVT: begin
        // Integer to integer (cvtIntInt): A is of Type2.
        src_used_o    = 3'b001;
        src_wide_o[0] = ty2_o == TyB64 || ty2_o == TyU64 || ty2_o == TyS64;
      end
      OpADD, OpSUB, OpMIN, OpMAX, OpAND, OpOR, OpXOR: src_used_o = 3'b011;
      OpSHL, OpSHR: begin
        src_used_o = 3'b011;
        src_wide_o[1] = 1'b0;
      end
      OpMUL: begin
        src_used_o = 3'b011;
        lat_o      = LatMul;
        if ((mods_o & ModMulMask) == MulWide) d1_kind_o = DReg64;
      end
      OpMAD: begin
        src_used_o = 3'b111;
        lat_o      = LatMul;
        if ((mods_o & ModMulMask) == MulWide) begin
          // 32 x 32 + 64 -> 64.
          d1_kind_o     = DReg64;
          src_wide_o[2] = 1'b1;
        end
      end
      OpSETP: begin
        src_used_o    = (mods_o[6:5] != 2'd0) ? 3'b111 : 3'b011;
        src_wide_o[2] = 1'b0;
        src_pred_o[2] = 1'b1;
        d1_kind_o     = DPred;
        if ((mods_o & ModSetpDst2) != 16'd0) d2_kind_o = DPred;
      end
      OpSELP: begin
        src_used_o    = 3'b111;
        src_wide_o[2] = 1'b0;
        src_pred_o[2] = 1'b1;
      end
      OpS2R: begin
        cat_o = CatS2r; lat_o = LatSReg;
      end
      OpLD, OpST: begin
        cat_o          = (op_o == OpLD) ? CatLd : CatSt;
        lat_o          = (space == SpaceParam) ? LatParam :
                         (space == SpaceShared) ? LatShared :
                         (space == SpaceLocal) ? LatLocal : LatGlobal;
        uses_port_o    = space == SpaceGlobal || space == SpaceLocal;
        // A: the base (u32 or u64 by Type2); B: ST's value.
        src_used_o     = (op_o == OpLD) ? 3'b001 : 3'b011;
        src_wide_o[0]  = ty2_o != TyU32;
        src_pred_o[0]  = 1'b0;
        if (op_o == OpST) d1_kind_o = DNone;
        // ModLdExt: a 32-bit value into a register pair, extended by the type.
        if (op_o == OpLD && (mods_o & ModLdExt) != 16'd0) d1_kind_o = DReg64;
        supported_o    = space == SpaceGlobal || space == SpaceShared || space == SpaceLocal ||
                         (space == SpaceParam && op_o == OpLD);
      end
      OpBRA: begin
        cat_o = CatBra; lat_o = LatNone; ctrl_o = 1'b1; d1_kind_o = DNone;
      end
      OpRET: begin
        cat_o = CatRet; lat_o = LatNone; ctrl_o = 1'b1; d1_kind_o = DNone;
      end
      OpBRX: begin
        // brx.idx: A the u32 index into the branch table at Imm.
        cat_o = CatBrx; lat_o = LatNone; ctrl_o = 1'b1; d1_kind_o = DNone;
        src_used_o    = 3'b001;
        src_wide_o[0] = 1'b0;
        src_pred_o[0] = 1'b0;
      end
      OpCALL: begin
        // Direct: the target PC in Imm. Indirect (ModCallInd): A holds a
        // function address, of the type when it is 32 or 64 bits wide,
        // else u64.
        cat_o = CatCall; lat_o = LatNone; ctrl_o = 1'b1; d1_kind_o = DNone;
        src_used_o    = ((mods_o & ModCallInd) != 16'd0) ? 3'b001 : 3'b000;
        src_wide_o[0] = !(ty_o == TyB32 || ty_o == TyU32 || ty_o == TyS32 || ty_o == TyF32);
        src_pred_o[0] = 1'b0;
      end
      // The warp operations (warpops.go, exec_warp.go): results across
      // the lanes, computed in sm_top.
      OpACTIVEMASK: begin
        cat_o = CatWarp; d1_kind_o = DReg32;
      end
      OpVOTE: begin
        // A the predicate, B the member mask; ballot writes a b32.
        cat_o = CatWarp;
        src_used_o = 3'b011;
        src_wide_o = 3'b000;
        src_pred_o = 3'b001;
        d1_kind_o  = (mods_o[1:0] == VoteBallot) ? DReg32 : DPred;
      end
      OpSHFL: begin
        // A the value, B the lane or offset, C the clamp and segment
        // mask; ModShflPred: the in-range predicate into Dst2.
        cat_o = CatWarp; lat_o = LatShared;
        src_used_o = 3'b111;
        src_wide_o = 3'b000;
        src_pred_o = 3'b000;
        d1_kind_o  = DReg32;
        if ((mods_o & ModShflPred) != 16'd0) d2_kind_o = DPred;
      end
      OpREDUX: begin
        // A the value, B the member mask.
        cat_o = CatWarp; lat_o = LatShared;
        src_used_o = 3'b011;
        src_wide_o = 3'b000;
        src_pred_o = 3'b000;
        d1_kind_o  = DReg32;
      end
      OpEXIT: begin
        cat_o = CatExit; lat_o = LatNone; ctrl_o = 1'b1; d1_kind_o = DNone;
      end
      OpBAR: begin
        // bar.sync / barrier.sync with an immediate id: no register
        // sources, no destination (latBarrier writes nothing).
        cat_o = CatBar; lat_o = LatNone; d1_kind_o = DNone;
      end
      // PTX trap and brkpt (seed 000): events for trap_unit, no operands.
      OpTRAP, OpBRKPT: begin
        cat_o = CatTrap; lat_o = LatNone; d1_kind_o = DNone;
      end
      // BPT, IDE and RTT (seed 002): events for trap_unit; RTT is control
      // flow (trap_unit's resume pulse sends the warp back).
      OpBPT, OpIDE, OpRTT: begin
        cat_o = CatTu; lat_o = LatNone; d1_kind_o = DNone;
        ctrl_o = op_o == OpRTT;
      end
      // nanosleep t: A the u32 duration in ns, for clock_timer.
      OpNANOSLEEP: begin
        cat_o = CatSleep; lat_o = LatNone; d1_kind_o = DNone;
        src_used_o = 3'b001;
        src_wide_o = 3'b000;
        src_pred_o = 3'b000;
      end
      default: supported_o = 1'b0;
    endcase
  end

endmodule
