// sm_fpu_main.cpp: the bench of the behavioural FPU (docs/sm-rtl.md, "The
// behavioural FPU"). It drives the Verilated sm_fpu, one vector per line
// of stdin,
//
//   op ty ty2 mods a b c          (hexadecimal, no prefix)
//
// and prints its outputs, one line per vector,
//
//   d p q supported               (hexadecimal d; 0 or 1)
//
// cosim/fpu_test.go compares them with package alu. A malformed line is
// an error (exit status 2).
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "Vsm_fpu.h"
#include "verilated.h"

int main(int argc, char** argv) {
  VerilatedContext ctx;
  ctx.commandArgs(argc, argv);
  Vsm_fpu top{&ctx};
  char line[512];
  unsigned long n = 0;
  while (std::fgets(line, sizeof line, stdin)) {
    n++;
    if (line[0] == '\n' || line[0] == '#') continue;
    unsigned op, ty, ty2, mods;
    uint64_t a, b, c;
    if (std::sscanf(line, "%x %x %x %x %" SCNx64 " %" SCNx64 " %" SCNx64, &op, &ty, &ty2, &mods, &a, &b,
                    &c) != 7) {
      std::fprintf(stderr, "sm_fpu: line %lu: want op ty ty2 mods a b c in hex: %s", n, line);
      return 2;
    }
    top.op_i = op;
    top.ty_i = ty;
    top.ty2_i = ty2;
    top.mods_i = mods;
    top.a_i = a;
    top.b_i = b;
    top.c_i = c;
    top.eval();
    std::printf("%" PRIx64 " %u %u %u\n", static_cast<uint64_t>(top.d_o), unsigned(top.p_o),
                unsigned(top.q_o), unsigned(top.supported_o));
  }
  top.final();
  return std::fflush(stdout) == 0 ? 0 : 1;
}
