// sm_alu: one lane of the execute stage's integer unit, twin of the lane
// functions of package alu (alu/int.go, alu/alu.go) for the subset of
// docs/sm-rtl.md: mov, add, sub, mul (lo, hi, wide), mad (lo), min, max, and,
// or, xor, not, shl, shr, cvt (integer to integer), setp (integer comparisons, boolean combination),
// selp, and the predicate forms of mov/and/or/xor/not. Operands arrive
// masked to their types (as pipeline.dinst operands are); the result d is
// masked to the destination's width, p and q are predicate results.
module sm_alu (
  input  logic [7:0]  op_i,
  input  logic [4:0]  ty_i,
  input  logic [4:0]  ty2_i,   // CVT's source type
  input  logic [15:0] mods_i,
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  input  logic [63:0] c_i,
  output logic [63:0] d_o,
  output logic        p_o,
  output logic        q_o
);
  import sm_isa_pkg::*;

  logic        wide_t, signed_t;
  logic [63:0] m;           // mask of the type's bits
  logic [63:0] sa, sb;      // sign-extended operands (signed types)
  logic [31:0] sh;          // shift amount (u32)
  logic        t;           // SETP's comparison
  logic        less;        // MIN/MAX: a < b
  logic [4:0]  cmp;
  logic [1:0]  bop;
  logic [63:0] mul_lo;
  logic [127:0] mul_full;  // the double-width product (mul.hi)
  logic [63:0] unused_bits;

  assign wide_t   = ty_i == TyB64 || ty_i == TyU64 || ty_i == TyS64;
  assign signed_t = ty_i == TyS32 || ty_i == TyS64;
  assign m        = wide_t ? 64'hffff_ffff_ffff_ffff : 64'h0000_0000_ffff_ffff;
  assign sa       = wide_t ? a_i : {{32{signed_t & a_i[31]}}, a_i[31:0]};
  assign sb       = wide_t ? b_i : {{32{signed_t & b_i[31]}}, b_i[31:0]};
  assign sh       = b_i[31:0];
  assign cmp      = 5'(mods_i & ModCmpMask);
  assign bop      = 2'(mods_i >> ModBoolShift);
  assign mul_lo   = a_i * b_i;
  assign mul_full = signed_t ? 128'($signed(sa) * $signed(sb))
                             : {64'd0, a_i & m} * {64'd0, b_i & m};
  assign unused_bits = (c_i & ~m) | {32'd0, mul_full[31:0]};

  // SETP: intCmp (alu/alu.go).
  always_comb begin
    unique case (cmp)
      CmpEQ:   t = (a_i & m) == (b_i & m);
      CmpNE:   t = (a_i & m) != (b_i & m);
      CmpLT:   t = signed_t ? $signed(sa) <  $signed(sb) : (a_i & m) <  (b_i & m);
      CmpLE:   t = signed_t ? $signed(sa) <= $signed(sb) : (a_i & m) <= (b_i & m);
      CmpGT:   t = signed_t ? $signed(sa) >  $signed(sb) : (a_i & m) >  (b_i & m);
      CmpGE:   t = signed_t ? $signed(sa) >= $signed(sb) : (a_i & m) >= (b_i & m);
      CmpLO:   t = (a_i & m) <  (b_i & m);
      CmpLS:   t = (a_i & m) <= (b_i & m);
      CmpHI:   t = (a_i & m) >  (b_i & m);
      CmpHS:   t = (a_i & m) >= (b_i & m);
      default: t = 1'b0;
    endcase
    less = signed_t ? $signed(sa) < $signed(sb) : (a_i & m) < (b_i & m);
  end

  // combine (alu/alu.go): SETP's boolean operation with C.
  function automatic logic combine(logic [1:0] op, logic x, logic c);
    unique case (op)
      BoolAnd: combine = x && c;
      BoolOr:  combine = x || c;
      BoolXor: combine = x != c;
      default: combine = x;
    endcase
  endfunction

  always_comb begin
    d_o = '0;
    p_o = 1'b0;
    q_o = 1'b0;
    if (ty_i == TyPred && op_i != OpSETP && op_i != OpSELP) begin
      // evalPredLogic / evalMov on predicates.
      unique case (op_i)
        OpAND:   p_o = a_i[0] && b_i[0];
        OpOR:    p_o = a_i[0] || b_i[0];
        OpXOR:   p_o = a_i[0] != b_i[0];
        OpNOT:   p_o = !a_i[0];
        default: p_o = a_i[0];  // MOV
      endcase
      d_o = {63'd0, p_o};
    end else begin
      unique case (op_i)
        OpMOV: d_o = a_i & m;
        // cvtIntInt without .sat: the source extended by its signedness
        // (a 32-bit source arrives zero-extended), then the destination's bits.
        OpCVT: d_o = ((ty2_i == TyS32) ? {{32{a_i[31]}}, a_i[31:0]} : a_i) & m;
        OpADD: d_o = (a_i + b_i) & m;
        OpSUB: d_o = (a_i - b_i) & m;
        OpMUL: begin
          if ((mods_i & ModMulMask) == MulHi) begin
            // mulHi: the high half of the double-width product.
            d_o = wide_t ? mul_full[127:64] : {32'd0, mul_full[63:32]};
          end else if ((mods_i & ModMulMask) == MulWide) begin
            // mulWide: 32 x 32 -> 64 (the subset has no 64-bit wide multiply).
            d_o = signed_t ? 64'($signed(sa[31:0]) * $signed(sb[31:0]))
                           : {32'd0, a_i[31:0]} * {32'd0, b_i[31:0]};
          end else begin
            d_o = mul_lo & m;
          end
        end
        OpMAD: d_o = (mul_lo + c_i) & m;
        OpMIN: d_o = less ? (a_i & m) : (b_i & m);
        OpMAX: d_o = less ? (b_i & m) : (a_i & m);
        OpAND: d_o = a_i & b_i & m;
        OpOR:  d_o = (a_i | b_i) & m;
        OpXOR: d_o = (a_i ^ b_i) & m;
        OpNOT: d_o = ~a_i & m;
        OpSHL: d_o = (sh >= (wide_t ? 32'd64 : 32'd32)) ? 64'd0 : ((a_i << sh) & m);
        OpSHR: begin
          if (signed_t) begin
            d_o = 64'($signed(sa) >>> ((sh > 32'd63) ? 32'd63 : sh)) & m;
          end else begin
            d_o = (sh >= (wide_t ? 32'd64 : 32'd32)) ? 64'd0 : ((a_i & m) >> sh);
          end
        end
        OpSETP: begin
          p_o = combine(bop, t, c_i[0]);
          q_o = combine(bop, !t, c_i[0]);
        end
        OpSELP: d_o = c_i[0] ? (a_i & m) : (b_i & m);
        default: d_o = '0;
      endcase
    end
  end

endmodule
