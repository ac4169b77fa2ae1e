// sm_alu: one lane of the execute stage's integer unit, twin of the lane
// functions of package alu (alu/int.go, alu/bits.go, alu/funnel.go,
// alu/intext.go, alu/alu.go) for the subset of docs/sm-rtl.md: mov, add,
// sub, mul (lo, hi, wide), mad (lo, hi, wide), mul24 and mad24 (lo, hi),
// sad, div, rem, neg, abs, min, max, and, or, xor, not, shl, shr, shf,
// popc, clz, brev, bfe, prmt, cvt (integer to integer), setp (integer
// comparisons, boolean combination), selp, and the predicate forms of
// mov/and/or/xor/not. Operands arrive
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

  // The operand sign-extended from the type's width whatever its
  // signedness (NEG, ABS: alu sext).
  logic [63:0] xa;
  assign xa = wide_t ? a_i : {{32{a_i[31]}}, a_i[31:0]};

  // DIV and REM (evalInt): division by zero and MIN / -1 as the Go model
  // defines them.
  logic [63:0] div_q, rem_r;
  always_comb begin
    div_q = '0;
    rem_r = '0;
    if (signed_t) begin
      if (sb == 64'd0) begin
        div_q = m;
        rem_r = a_i & m;
      end else if (sb == 64'hffff_ffff_ffff_ffff) begin
        div_q = (64'd0 - sa) & m;
        rem_r = '0;
      end else begin
        div_q = 64'($signed(sa) / $signed(sb)) & m;
        rem_r = 64'($signed(sa) % $signed(sb)) & m;
      end
    end else begin
      if ((b_i & m) == 64'd0) begin
        div_q = m;
        rem_r = a_i & m;
      end else begin
        div_q = (a_i & m) / (b_i & m);
        rem_r = (a_i & m) % (b_i & m);
      end
    end
  end

  // CLZ, BREV (evalBits): the leading zeros of the 64-bit operand by
  // halving steps (w - bits.Len64 is that less 32 for 32-bit types), the
  // bits reversed by the streaming operator.
  logic [6:0]  lz;
  logic [63:0] rev;
  always_comb begin
    logic [63:0] x;
    x  = a_i & m;
    lz = '0;
    if (x == 64'd0) begin
      lz = 7'd64;
    end else begin
      if (x[63:32] == 32'd0) begin lz = lz + 7'd32; x = x << 32; end
      if (x[63:48] == 16'd0) begin lz = lz + 7'd16; x = x << 16; end
      if (x[63:56] == 8'd0)  begin lz = lz + 7'd8;  x = x << 8;  end
      if (x[63:60] == 4'd0)  begin lz = lz + 7'd4;  x = x << 4;  end
      if (x[63:62] == 2'd0)  begin lz = lz + 7'd2;  x = x << 2;  end
      if (x[63] == 1'b0)     lz = lz + 7'd1;
    end
  end
  assign rev = {<<{a_i}};

  // BFE (alu bfe): len = c & 0xff bits of a from pos = b & 0xff, extended
  // from the last extracted bit for signed types.
  logic [63:0] bfe_d;
  logic [8:0]  top;      // the sign bit's position
  always_comb begin
    logic [63:0] am, field;
    logic [8:0]  pos, ln, msb, k;
    logic        sbit;
    am    = a_i & m;
    pos   = {1'b0, b_i[7:0]};
    ln    = {1'b0, c_i[7:0]};
    msb   = wide_t ? 9'd63 : 9'd31;
    top   = (pos + ln - 9'd1 > msb) ? msb : pos + ln - 9'd1;
    sbit  = signed_t && ln != 9'd0 && am[top[5:0]];
    k     = (pos <= msb) ? ((ln < msb - pos + 9'd1) ? ln : msb - pos + 9'd1) : 9'd0;
    field = '0;
    if (k != 9'd0) field = (am >> pos) & ((k >= 9'd64) ? 64'hffff_ffff_ffff_ffff : ((64'd1 << k) - 64'd1));
    if (sbit && k < 9'd64) field = field | (64'hffff_ffff_ffff_ffff << k);
    bfe_d = field & m;
  end

  // PRMT (alu prmt): four bytes of {b, a} by the selector c and the mode.
  logic [31:0] prmt_d;
  always_comb begin
    logic [63:0] src;
    logic [3:0]  sel;
    logic [2:0]  n;
    logic [7:0]  v;
    src    = {b_i[31:0], a_i[31:0]};
    n      = {1'b0, c_i[1:0]};
    prmt_d = '0;
    sel    = '0;
    v      = '0;
    for (int i = 0; i < 4; i++) begin
      unique case (3'(mods_i))
        PrmtDefault: sel = c_i[4*i +: 4];
        PrmtF4E:     sel = {1'b0, 3'(n + 3'(i))};
        PrmtB4E:     sel = {1'b0, 3'(n + 3'd0 - 3'(i))};
        PrmtRC8:     sel = {1'b0, n};
        PrmtECL:     sel = {1'b0, (3'(i) > n) ? 3'(i) : n};
        PrmtECR:     sel = {1'b0, (3'(i) < n) ? 3'(i) : n};
        PrmtRC16:    sel = {2'b00, n[0], 1'(i)};
        default:     sel = '0;
      endcase
      v = src[8*sel[2:0] +: 8];
      if (sel[3]) v = {8{v[7]}};
      prmt_d[8*i +: 8] = v;
    end
  end

  // SHF (evalShf): the funnel {b, a} shifted by c, clamped or wrapped.
  logic [31:0] shf_d;
  always_comb begin
    logic [31:0] n;
    logic [63:0] v;
    n = c_i[31:0];
    if ((mods_i & ModShfWrap) != 16'd0) n = n & 32'd31;
    else if (n > 32'd32) n = 32'd32;
    v = {b_i[31:0], a_i[31:0]};
    shf_d = ((mods_i & ModShfLeft) != 16'd0) ? 32'((v << n) >> 32) : 32'(v >> n);
  end

  // SAD (evalSad): |a - b| + c.
  logic [63:0] sad_d;
  always_comb begin
    logic [63:0] x, y;
    x = signed_t ? sa : (a_i & m);
    y = signed_t ? sb : (b_i & m);
    if (signed_t ? ($signed(x) > $signed(y)) : (x > y)) sad_d = (x - y + c_i) & m;
    else                                                  sad_d = (y - x + c_i) & m;
  end

  // MUL24 and MAD24 (evalMul24): the 48-bit product of the low 24 bits,
  // its low or middle 32 bits.
  logic [31:0] m24_d;
  logic [63:0] p24;      // the product (48 bits)
  always_comb begin
    logic [31:0] t24;
    if (ty_i == TyS32) p24 = 64'($signed({{40{a_i[23]}}, a_i[23:0]}) * $signed({{40{b_i[23]}}, b_i[23:0]}));
    else               p24 = {40'd0, a_i[23:0]} * {40'd0, b_i[23:0]};
    t24 = ((mods_i & ModMulMask) == MulHi) ? p24[47:16] : p24[31:0];
    m24_d = (op_i == OpMAD24) ? t24 + c_i[31:0] : t24;
  end

  logic unused_ext;
  assign unused_ext = ^{top[8:6], p24[63:48]};

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
        OpMAD: begin
          if ((mods_i & ModMulMask) == MulHi) begin
            d_o = ((wide_t ? mul_full[127:64] : {32'd0, mul_full[63:32]}) + c_i) & m;
          end else if ((mods_i & ModMulMask) == MulWide) begin
            d_o = (signed_t ? 64'($signed(sa[31:0]) * $signed(sb[31:0]))
                            : {32'd0, a_i[31:0]} * {32'd0, b_i[31:0]}) + c_i;
          end else begin
            d_o = (mul_lo + c_i) & m;
          end
        end
        OpMUL24, OpMAD24: d_o = {32'd0, m24_d};
        OpSAD:  d_o = sad_d;
        OpDIV:  d_o = div_q;
        OpREM:  d_o = rem_r;
        OpNEG:  d_o = (64'd0 - a_i) & m;
        OpABS:  d_o = xa[63] ? (64'd0 - xa) & m : a_i & m;
        OpPOPC: d_o = 64'($countones(a_i & m));
        OpCLZ:  d_o = wide_t ? 64'(lz) : 64'(lz) - 64'd32;
        OpBREV: d_o = wide_t ? rev : {32'd0, rev[63:32]};
        OpBFE:  d_o = bfe_d;
        OpPRMT: d_o = {32'd0, prmt_d};
        OpSHF:  d_o = {32'd0, shf_d};
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
