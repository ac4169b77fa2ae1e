// sm_main: the C++ shim around the Verilated SM test bench (sm_tb.sv). It
// clocks the bench until $finish and writes the bench's per-cycle records
// (the DPI-C functions sm_rec_*, called from sm_tb.sv) as the binary
// record stream on the file descriptor +records_fd= names (docs/sm-rtl.md
// section 4; without it, records are off). Loading and the memory dump
// are in the bench; the comparison is on the Go side (cosim/sm*.go).
//
// Built with SMSIM_SM_TRACE (make sm-trace, a bench Verilated with
// --trace), it also writes a VCD of the cycles [+trace_from=, +trace_to=]
// to +trace=: cycle c's rising edge at time 10c, its falling edge at
// 10c+5, in units of 100 ps, as the Go tracer (package trace) writes.
// Built with SMSIM_SM_COVERAGE (make sm-cov, a bench Verilated with line
// and toggle coverage), it writes the coverage counts to +cov= at the end.
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "Vsm_tb.h"
#include "Vsm_tb__Dpi.h"
#include "verilated.h"
#ifdef SMSIM_SM_TRACE
#include "verilated_vcd_c.h"
#endif
#ifdef SMSIM_SM_COVERAGE
#include "verilated_cov.h"
#endif

namespace {

// The record stream (docs/sm-rtl.md section 4), little-endian base-128
// varints (uvarint, as Go's encoding/binary):
//   header  "SMR2" uvarint(nsched) uvarint(nwarps) uvarint(nfields)
//   cycle   'C' uvarint(cycle) uvarint(k) k * (uvarint(index) uvarint(value))
//           the k fields whose value differs from the previous cycle's
//           (before the first cycle every field is 0), indexes increasing
//   end     'D' uvarint(cycle) uvarint(status)
class RecStream {
 public:
  int fd = -1;

  bool open(uint32_t nsched, uint32_t nwarps, uint32_t nfields) {
    if (fd < 0) return false;
    nfields_ = nfields;
    prev_.assign(nfields, 0);
    cur_.assign(nfields, 0);
    put_bytes("SMR2", 4);
    put_uvarint(nsched);
    put_uvarint(nwarps);
    put_uvarint(nfields);
    return true;
  }

  void cycle(uint32_t c) {
    cycle_ = c;
    n_ = 0;
  }

  void field(uint64_t v) {
    if (n_ < nfields_) cur_[n_] = v;
    n_++;
  }

  void end() {
    if (fd < 0) return;
    if (n_ != nfields_) {
      std::fprintf(stderr, "sm_main: cycle %" PRIu32 ": the bench sent %" PRIu32 " record fields, RecFields is %" PRIu32 "\n",
                   cycle_, n_, nfields_);
      std::exit(3);
    }
    changed_.clear();
    for (uint32_t i = 0; i < nfields_; i++) {
      if (cur_[i] != prev_[i]) {
        changed_.push_back(i);
        prev_[i] = cur_[i];
      }
    }
    put_byte('C');
    put_uvarint(cycle_);
    put_uvarint(changed_.size());
    for (uint32_t i : changed_) {
      put_uvarint(i);
      put_uvarint(cur_[i]);
    }
    if (buf_.size() >= kFlushAt) flush();
  }

  void done(uint32_t c, uint32_t status) {
    if (fd < 0) return;
    put_byte('D');
    put_uvarint(c);
    put_uvarint(status);
    flush();
  }

  void flush() {
    size_t off = 0;
    while (fd >= 0 && off < buf_.size()) {
      ssize_t k = ::write(fd, buf_.data() + off, buf_.size() - off);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) {
        std::fprintf(stderr, "sm_main: writing records: %s\n", std::strerror(errno));
        fd = -1;  // the reader went away: run on without records
        break;
      }
      off += size_t(k);
    }
    buf_.clear();
  }

 private:
  static constexpr size_t kFlushAt = 60 * 1024;  // under a pipe's 64 KiB

  void put_byte(unsigned char b) { buf_.push_back(b); }
  void put_bytes(const char* p, size_t n) { buf_.insert(buf_.end(), p, p + n); }
  void put_uvarint(uint64_t v) {
    while (v >= 0x80) {
      buf_.push_back(static_cast<unsigned char>(v) | 0x80);
      v >>= 7;
    }
    buf_.push_back(static_cast<unsigned char>(v));
  }

  uint32_t nfields_ = 0;
  uint32_t n_ = 0;
  uint32_t cycle_ = 0;
  std::vector<uint64_t> prev_, cur_;
  std::vector<uint32_t> changed_;
  std::vector<unsigned char> buf_;
};

RecStream g_rec;

// plusarg returns the value of +name=VALUE in argv, or "".
std::string plusarg(int argc, char** argv, const char* name) {
  std::string key = std::string("+") + name + "=";
  for (int i = 1; i < argc; i++) {
    if (std::strncmp(argv[i], key.c_str(), key.size()) == 0) return argv[i] + key.size();
  }
  return "";
}

// number parses a decimal plusarg value, def when absent or malformed.
uint64_t number(const std::string& s, uint64_t def) {
  if (s.empty()) return def;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno != 0 || end == s.c_str() || *end != '\0') return def;
  return v;
}

}  // namespace

// The DPI-C functions sm_tb.sv imports.
svBit sm_rec_open(unsigned int nsched, unsigned int nwarps, unsigned int nfields) {
  return g_rec.open(nsched, nwarps, nfields) ? 1 : 0;
}
void sm_rec_cycle(unsigned int cyc) { g_rec.cycle(cyc); }
void sm_rec_field(unsigned long long v) { g_rec.field(v); }
void sm_rec_end() { g_rec.end(); }
void sm_rec_done(unsigned int cyc, unsigned int status) { g_rec.done(cyc, status); }

int main(int argc, char** argv) {
  std::string fd = plusarg(argc, argv, "records_fd");
  if (!fd.empty()) {
    uint64_t n = number(fd, ~uint64_t(0));
    if (n > 1024 || ::fcntl(int(n), F_GETFD) == -1) {
      std::fprintf(stderr, "sm_main: +records_fd=%s: not an open file descriptor\n", fd.c_str());
      return 2;
    }
    g_rec.fd = int(n);
  }
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
#ifdef SMSIM_SM_TRACE
  std::string trace = plusarg(argc, argv, "trace");
  uint64_t from = number(plusarg(argc, argv, "trace_from"), 0);
  uint64_t to = number(plusarg(argc, argv, "trace_to"), ~uint64_t(0));
  if (!trace.empty()) ctx->traceEverOn(true);
#endif
  auto tb = std::make_unique<Vsm_tb>(ctx.get());
#ifdef SMSIM_SM_TRACE
  VerilatedVcdC vcd;
  if (!trace.empty()) {
    tb->trace(&vcd, 99);
    vcd.set_time_unit("100ps");
    vcd.set_time_resolution("100ps");
  }
#endif
  // An asynchronous reset needs an edge of rst_ni: 1, 0, 1.
  tb->clk_i = 0;
  tb->rst_ni = 1;
  tb->eval();
  tb->rst_ni = 0;
  tb->eval();
  tb->rst_ni = 1;
  tb->eval();
  // The k-th rising edge after the reset (k = 0: the launch) starts cycle k.
  for (uint64_t k = 0; !ctx->gotFinish(); k++) {
    tb->clk_i = 1;
    tb->eval();
#ifdef SMSIM_SM_TRACE
    if (!trace.empty() && k >= from && k <= to) {
      if (!vcd.isOpen()) {
        vcd.open(trace.c_str());
        if (!vcd.isOpen()) {
          std::fprintf(stderr, "sm_main: +trace=%s: cannot open\n", trace.c_str());
          return 2;
        }
      }
      vcd.dump(10 * k);
    }
#endif
    tb->clk_i = 0;
    tb->eval();
#ifdef SMSIM_SM_TRACE
    if (vcd.isOpen()) {
      vcd.dump(10 * k + 5);
      if (k >= to) vcd.close();
    }
#endif
  }
  tb->final();
#ifdef SMSIM_SM_TRACE
  if (vcd.isOpen()) vcd.close();
#endif
#ifdef SMSIM_SM_COVERAGE
  // The coverage bench (make sm-cov) writes its counts to +cov= at the
  // end of a run (verilator_coverage merges and annotates them).
  std::string cov = plusarg(argc, argv, "cov");
  if (!cov.empty()) ctx->coveragep()->write(cov.c_str());
#endif
  g_rec.flush();
  return 0;
}
