// sm_fpu: one lane of the SM's floating-point unit, twin of the
// floating-point lane functions of package alu (alu/float.go,
// alu/round.go, alu/cvt.go, alu/mufu.go, alu/lowprec.go) on f16, bf16,
// f16x2, bf16x2, f32 and f64: add sub mul mad fma div rcp sqrt min max
// neg abs copysign (rounding modes, .ftz, .sat, .relu), setp and testp,
// cvt between the scalar float types and the integer types, and the SFU
// approximations ex2 lg2 sin cos rsqrt tanh.
// Combinational, like sm_alu: the SM instantiates one per lane.
//
// The port carries the instruction's fields as the image encodes them
// (docs/isa.md; encodings in sm_isa_pkg): op_i, ty_i (the destination
// type), ty2_i (CVT's source type) and mods_i, and the operands a_i, b_i,
// c_i as raw bits of their types, zero-extended to 64 bits (c_i[0] is
// SETP's predicate operand). d_o is the result as raw bits of the
// destination type, zero-extended; p_o and q_o are SETP's predicates (q_o
// only with ModSetpDst2) and TESTP's (p_o); supported_o says the
// op/type/modifier combination is one this unit implements (all other
// outputs are zero when it is not).
//
// Behavioural floating point (docs/sm-rtl.md, "The behavioural FPU"):
//
//   `define SMSIM_BEHAVIOURAL_FPU   the unit is a DPI-C call into
//       dv/sm_fpu_dpi.c, an IEEE implementation on the C library's
//       arithmetic (fesetround, fma, sqrt, exp2, ...) independent of the
//       Go model. Simulation only: the Verilated benches define it.
//   otherwise (synthesis, `make -C verilog area`, lint of the SM without
//       the define) every output is tied to zero and supported_o to 0:
//       there is no floating-point hardware yet, and a DPI call is not
//       synthesizable. Synthesized area therefore excludes the FPU.
module sm_fpu (
  input  logic [7:0]  op_i,
  input  logic [4:0]  ty_i,
  input  logic [4:0]  ty2_i,
  input  logic [15:0] mods_i,
  input  logic [63:0] a_i,
  input  logic [63:0] b_i,
  input  logic [63:0] c_i,
  output logic [63:0] d_o,
  output logic        p_o,
  output logic        q_o,
  output logic        supported_o
);

`ifdef SMSIM_BEHAVIOURAL_FPU
  // sm_fpu_eval (dv/sm_fpu_dpi.c): flags_o bit 0 is p, bit 1 q, bit 2
  // supported.
  import "DPI-C" function void sm_fpu_eval(
    input  byte unsigned     op,
    input  byte unsigned     ty,
    input  byte unsigned     ty2,
    input  shortint unsigned mods,
    input  longint unsigned  a,
    input  longint unsigned  b,
    input  longint unsigned  c,
    output longint unsigned  d,
    output byte unsigned     flags
  );

  logic [63:0] d;
  logic [7:0]  flags;
  logic [4:0]  unused_flags;

  always_comb begin
    sm_fpu_eval(op_i, {3'd0, ty_i}, {3'd0, ty2_i}, mods_i, a_i, b_i, c_i, d, flags);
  end

  assign d_o          = d;
  assign p_o          = flags[0];
  assign q_o          = flags[1];
  assign supported_o  = flags[2];
  assign unused_flags = flags[7:3];
`else
  // Synthesis: no FPU hardware (see the header).
  logic unused_inputs;

  assign d_o           = '0;
  assign p_o           = 1'b0;
  assign q_o           = 1'b0;
  assign supported_o   = 1'b0;
  assign unused_inputs = ^{op_i, ty_i, ty2_i, mods_i, a_i, b_i, c_i};
`endif

endmodule
