// sm_main: the C++ shim around the Verilated SM test bench (sm_tb.sv):
// it clocks the bench until $finish. Everything else (loading, the
// per-cycle records, the memory dump) is in the bench; the comparison is
// on the Go side (cosim/sm*.go, docs/sm-rtl.md).
#include <memory>

#include "Vsm_tb.h"
#include "verilated.h"

int main(int argc, char** argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto tb = std::make_unique<Vsm_tb>(ctx.get());
  // An asynchronous reset needs an edge of rst_ni: 1, 0, 1.
  tb->clk_i = 0;
  tb->rst_ni = 1;
  tb->eval();
  tb->rst_ni = 0;
  tb->eval();
  tb->rst_ni = 1;
  tb->eval();
  while (!ctx->gotFinish()) {
    tb->clk_i = 1;
    tb->eval();
    tb->clk_i = 0;
    tb->eval();
  }
  tb->final();
  return 0;
}
