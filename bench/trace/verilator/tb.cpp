// Test bench of trace_bench: runs N cycles, with or without a VCD trace,
// and prints "cycles seconds bytes" (bench/trace/run.sh).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sys/stat.h>

#include "Vtrace_bench.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CYCLES [VCD]\n", argv[0]);
    return 2;
  }
  const unsigned long cycles = std::strtoul(argv[1], nullptr, 10);
  const char* vcd = argc > 2 ? argv[2] : nullptr;
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->traceEverOn(vcd != nullptr);
  auto top = std::make_unique<Vtrace_bench>(ctx.get());
  std::unique_ptr<VerilatedVcdC> tfp;
  if (vcd) {
    tfp = std::make_unique<VerilatedVcdC>();
    top->trace(tfp.get(), 99);
    tfp->open(vcd);
  }
  auto start = std::chrono::steady_clock::now();
  uint64_t t = 0;
  // Reset: a falling edge of rst_ni (the registers reset asynchronously).
  top->clk_i = 0;
  top->rst_ni = 1;
  top->eval();
  top->rst_ni = 0;
  top->eval();
  if (tfp) tfp->dump(t);
  t++;
  top->rst_ni = 1;
  for (unsigned long c = 0; c < cycles; c++) {
    top->clk_i = 1;
    top->eval();
    if (tfp) tfp->dump(t);
    t++;
    top->clk_i = 0;
    top->eval();
    if (tfp) tfp->dump(t);
    t++;
  }
  if (tfp) tfp->close();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  long long bytes = 0;
  struct stat st;
  if (vcd && stat(vcd, &st) == 0) bytes = st.st_size;
  std::printf("%lu %.6f %lld\n", cycles, secs, bytes);
  top->final();
  return 0;
}
