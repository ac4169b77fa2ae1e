// Cosim harness: one Verilated unit behind a socket.
//
// A thin shim: it clocks the Verilated model on the inputs it is sent and
// sends back every output and every register, cycle by cycle, in batches.
// It compares nothing; the comparison lives on the Go side (package
// cosim). The protocol is described in docs/cosim-protocol.md.
//
// The unit is chosen at compile time: SMSIM_PORTS_H names the generated
// header (verilog/dv/gen/<unit>_ports.h) listing the unit's ports and
// registers; SMSIM_PARAM_HASH and SMSIM_PARAMS name the parameter set the
// model was Verilated with.
//
// Usage:
//   harness [--socket PATH | --tcp] [--inject KIND@CYCLE]
//   harness --replay FILE [--repeat N]
//
// By default the harness listens on a Unix-domain socket in a fresh
// private (0700) directory under $TMPDIR; --socket PATH listens at PATH
// (its directory should be private); --tcp listens on 127.0.0.1 on an
// ephemeral port. It prints one line on stdout,
//   smsim-harness <version> <unit> listen <unix:PATH|tcp:127.0.0.1:PORT> token <HEX>
// accepts one connection and serves it. --inject makes it fail on purpose
// when it reaches a cycle (tests): crash (abort), hang (stop answering),
// close (close the connection, keep running), exit (exit 0).
// --replay runs the input records of FILE through the model without a
// socket and prints the simulation speed (the Verilated unit alone).

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#include "verilated_vcd_c.h"

#include SMSIM_PORTS_H

// The marshalling of the unit, made from the generated list SMSIM_SIGNALS:
// the same for every unit, so it is written here once.
#define SMSIM_CAT_(a, b) a##b
#define SMSIM_CAT(a, b) SMSIM_CAT_(a, b)
#define SMSIM_STR_(a) #a
#define SMSIM_STR(a) SMSIM_STR_(a)
// The Verilated member of register name: t.rootp-><unit>__DOT__<name>.
#define SMSIM_REG_MEMBER(t, name) t.rootp->SMSIM_CAT(SMSIM_CAT(SMSIM_UNIT, __DOT__), name)

namespace smsim_gen {

using Top = SMSIM_CAT(V, SMSIM_UNIT);

constexpr const char* kUnit = SMSIM_STR(SMSIM_UNIT);
constexpr uint64_t kLayoutHash = SMSIM_LAYOUT_HASH;

#define SMSIM_SKIP(name)
#define SMSIM_CALL_IN(name) f(#name, kIn, t.name);
#define SMSIM_CALL_OUT(name) f(#name, kOut, t.name);
#define SMSIM_CALL_REG(name) f(#name, kReg, SMSIM_REG_MEMBER(t, name));

// Calls f(name, dir, member) for each input port.
template <class F>
inline void inputs(Top& t, F&& f) {
  SMSIM_SIGNALS(SMSIM_CALL_IN, SMSIM_SKIP, SMSIM_SKIP)
}

// Calls f(name, dir, member) for each output port, then each register.
template <class F>
inline void outputs(Top& t, F&& f) {
  SMSIM_SIGNALS(SMSIM_SKIP, SMSIM_CALL_OUT, SMSIM_CALL_REG)
}

}  // namespace smsim_gen

#ifndef SMSIM_PARAM_HASH
#error "SMSIM_PARAM_HASH must name the parameter set"
#endif
#ifndef SMSIM_PARAMS
#error "SMSIM_PARAMS must list the parameters"
#endif

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the wire format is the little-endian layout of Verilator's storage");

namespace {

constexpr uint32_t kProtocolVersion = 1;
constexpr uint32_t kMaxFrame = 1u << 30;
constexpr int kAcceptTimeoutMs = 60000;

// Message types.
enum : uint8_t {
  kHello = 0x01,
  kReset = 0x02,
  kStep = 0x03,
  kTrace = 0x04,
  kQuit = 0x05,
  kHelloOk = 0x81,
  kOk = 0x82,
  kStepOk = 0x83,
  kError = 0xff,
};

volatile sig_atomic_t g_stop = 0;
void on_stop(int) { g_stop = 1; }

void die(const char* what) {
  fprintf(stderr, "harness: %s: %s\n", what, strerror(errno));
  exit(1);
}

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// Little-endian message building.
struct Buf {
  std::vector<uint8_t> b;
  void u8(uint8_t v) { b.push_back(v); }
  void u16(uint16_t v) { raw(&v, 2); }
  void u32(uint32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void str(const std::string& s) {
    u16(uint16_t(s.size()));
    raw(s.data(), s.size());
  }
  void raw(const void* p, size_t n) {
    const uint8_t* c = static_cast<const uint8_t*>(p);
    b.insert(b.end(), c, c + n);
  }
};

// Reads little-endian fields from a payload; ok turns false on overrun.
struct Reader {
  const uint8_t* p;
  size_t n;
  bool ok = true;
  bool take(void* dst, size_t k) {
    if (!ok || k > n) return ok = false;
    memcpy(dst, p, k);
    p += k;
    n -= k;
    return true;
  }
  uint8_t u8() { uint8_t v = 0; take(&v, 1); return v; }
  uint16_t u16() { uint16_t v = 0; take(&v, 2); return v; }
  uint32_t u32() { uint32_t v = 0; take(&v, 4); return v; }
  std::string str() {
    uint16_t k = u16();
    if (!ok || k > n) { ok = false; return ""; }
    std::string s(reinterpret_cast<const char*>(p), k);
    p += k;
    n -= k;
    return s;
  }
};

enum class Inject { kNone, kCrash, kHang, kClose, kExit };

class Harness {
 public:
  Harness() : ctx_(new VerilatedContext), top_(new smsim_gen::Top(ctx_.get(), "TOP")) {
    ctx_->traceEverOn(true);
    top_->trace(&vcd_, 99);
    // VCD times in ns: cycle c at 10*c (docs/cosim-protocol.md).
    vcd_.set_time_unit("1ns");
    vcd_.set_time_resolution("1ns");
    smsim_gen::inputs(*top_, [&](const char* name, uint8_t dir, auto& m) {
      sigs_.push_back({name, dir, uint32_t(sizeof m)});
      in_bytes_ += sizeof m;
    });
    smsim_gen::outputs(*top_, [&](const char* name, uint8_t dir, auto& m) {
      sigs_.push_back({name, dir, uint32_t(sizeof m)});
      out_bytes_ += sizeof m;
    });
    Reset();
  }

  ~Harness() {
    CloseTrace();
    top_->final();
  }

  size_t in_bytes() const { return in_bytes_; }
  size_t out_bytes() const { return out_bytes_; }

  void set_inject(Inject k, uint64_t cycle) {
    inject_ = k;
    inject_cycle_ = cycle;
  }

  // Reset: the inputs at zero, rst_ni low and a rising clock edge. The
  // clock stays high and rst_ni low until the first cycle of the next
  // STEP releases the reset without an edge, so that cycle sees the reset
  // values (as the Go model does after Reset).
  void Reset() {
    // Cycle c dumps at tbase_ + 10*c: 0 unless this reset happens in the
    // middle of a VCD file, whose times must keep increasing.
    tbase_ = (vcd_.isOpen() && dumped_) ? last_time_ + 5 : 0;
    cycle_ = 0;
    smsim_gen::inputs(*top_, [&](const char*, uint8_t, auto& m) { memset(&m, 0, sizeof m); });
    top_->rst_ni = 0;
    top_->clk_i = 0;
    top_->eval();
    top_->clk_i = 1;
    top_->eval();
    release_ = true;
  }

  // Runs n cycles on n input records, writing n output records. Per
  // cycle c, around the clock:
  //   RisingEdge   the registers take D (on the first cycle after a
  //                reset: rst_ni is released instead);
  //   Drive        the cycle's inputs, evaluated;
  //   Sample       the outputs and the registers (Q during cycle c);
  //                VCD dump at tbase + 10*c;
  //   FallingEdge  clk_i low; VCD dump at tbase + 10*c + 5.
  // fd is the connection (an injected "close" fault closes it).
  void Step(const uint8_t* in, uint32_t n, uint8_t* out, int fd) {
    for (uint32_t i = 0; i < n; i++) {
      if (inject_ != Inject::kNone && cycle_ == inject_cycle_) Fault(fd);
      RisingEdge();
      in = Drive(in);
      out = Sample(out);
      FallingEdge();
      cycle_++;
    }
  }

  // A new VCD file: its times start again from tbase_ = 0.
  bool OpenTrace(const std::string& path) {
    CloseTrace();
    tbase_ = 0;
    dumped_ = false;
    vcd_.open(path.c_str());
    return vcd_.isOpen();
  }

  void CloseTrace() {
    if (vcd_.isOpen()) vcd_.close();
  }

  void Hello(Buf& r) const {
    r.u32(kProtocolVersion);
    r.str(smsim_gen::kUnit);
    r.str(SMSIM_PARAM_HASH);
    r.str(SMSIM_PARAMS);
    r.u64(smsim_gen::kLayoutHash);
    r.u32(uint32_t(in_bytes_));
    r.u32(uint32_t(out_bytes_));
    r.u16(uint16_t(sigs_.size()));
    for (const Sig& s : sigs_) {
      r.str(s.name);
      r.u8(s.dir);
      r.u32(s.size);
    }
  }

 private:
  void RisingEdge() {
    if (release_) {
      top_->rst_ni = 1;  // the clock is already high: no edge
      release_ = false;
      return;
    }
    top_->clk_i = 1;
    top_->eval();
  }

  const uint8_t* Drive(const uint8_t* in) {
    smsim_gen::inputs(*top_, [&](const char*, uint8_t, auto& m) {
      memcpy(&m, in, sizeof m);
      in += sizeof m;
    });
    top_->eval();
    return in;
  }

  uint8_t* Sample(uint8_t* out) {
    smsim_gen::outputs(*top_, [&](const char*, uint8_t, auto& m) {
      memcpy(out, &m, sizeof m);
      out += sizeof m;
    });
    if (vcd_.isOpen()) vcd_.dump(tbase_ + 10 * cycle_);
    return out;
  }

  void FallingEdge() {
    top_->clk_i = 0;
    top_->eval();
    if (vcd_.isOpen()) {
      last_time_ = tbase_ + 10 * cycle_ + 5;
      vcd_.dump(last_time_);
      dumped_ = true;
    }
  }

  struct Sig {
    std::string name;
    uint8_t dir;
    uint32_t size;
  };

  [[noreturn]] void Fault(int fd) {
    fprintf(stderr, "harness: injected fault at cycle %llu\n", (unsigned long long)cycle_);
    fflush(stderr);
    switch (inject_) {
      case Inject::kCrash:
        abort();
      case Inject::kClose:
        CloseTrace();
        shutdown(fd, SHUT_RDWR);
        close(fd);
        for (;;) pause();
      case Inject::kExit:
        CloseTrace();
        _exit(0);
      default:
        for (;;) pause();
    }
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<smsim_gen::Top> top_;
  VerilatedVcdC vcd_;
  std::vector<Sig> sigs_;
  size_t in_bytes_ = 0, out_bytes_ = 0;
  uint64_t cycle_ = 0, tbase_ = 0, last_time_ = 0;
  bool dumped_ = false, release_ = false;
  Inject inject_ = Inject::kNone;
  uint64_t inject_cycle_ = 0;
};

// Moves n bytes at c through op (read or write), retrying after a signal
// unless the harness is stopping; false at end of file or on an error.
template <class Byte, class Op>
bool transfer_full(int fd, Byte* c, size_t n, Op op) {
  while (n > 0) {
    ssize_t k = op(fd, c, n);
    if (k < 0 && errno == EINTR && !g_stop) continue;
    if (k <= 0) return false;
    c += k;
    n -= size_t(k);
  }
  return true;
}

bool read_full(int fd, void* p, size_t n) { return transfer_full(fd, static_cast<uint8_t*>(p), n, ::read); }

bool write_full(int fd, const void* p, size_t n) {
  return transfer_full(fd, static_cast<const uint8_t*>(p), n, ::write);
}

// A reply: 4-byte length, type, payload.
bool send(int fd, uint8_t type, const Buf& payload) {
  Buf m;
  m.u32(uint32_t(payload.b.size() + 1));
  m.u8(type);
  return write_full(fd, m.b.data(), m.b.size()) &&
         (payload.b.empty() || write_full(fd, payload.b.data(), payload.b.size()));
}

int send_error(int fd, const std::string& msg) {
  fprintf(stderr, "harness: %s\n", msg.c_str());
  Buf e;
  e.str(msg);
  send(fd, kError, e);
  return 3;
}

// Serves one connection; returns the exit status.
int serve(Harness& h, int fd, const std::string& token) {
  bool hello = false;
  std::vector<uint8_t> msg, reply;
  for (;;) {
    uint8_t hdr[5];
    if (!read_full(fd, hdr, 5)) {
      if (g_stop) fprintf(stderr, "harness: stopped by a signal\n");
      return g_stop ? 1 : 0;  // the client went away: leave the VCD complete
    }
    uint32_t len;
    memcpy(&len, hdr, 4);
    uint8_t type = hdr[4];
    if (len < 1 || len > kMaxFrame) return send_error(fd, "bad frame length " + std::to_string(len));
    msg.resize(len - 1);
    if (!msg.empty() && !read_full(fd, msg.data(), msg.size())) return 0;
    Reader r{msg.data(), msg.size()};
    if (!hello && type != kHello) return send_error(fd, "expected HELLO first");
    switch (type) {
      case kHello: {
        uint32_t v = r.u32();
        std::string tok = r.str();
        if (!r.ok) return send_error(fd, "malformed HELLO");
        if (v != kProtocolVersion) {
          return send_error(fd, "protocol version " + std::to_string(v) +
                                    " not supported (harness speaks " +
                                    std::to_string(kProtocolVersion) + ")");
        }
        if (tok != token) return send_error(fd, "bad token in HELLO");
        hello = true;
        Buf b;
        h.Hello(b);
        if (!send(fd, kHelloOk, b)) return 1;
        break;
      }
      case kReset:
        h.Reset();
        if (!send(fd, kOk, Buf{})) return 1;
        break;
      case kStep: {
        uint32_t n = r.u32();
        if (!r.ok || uint64_t(n) * h.in_bytes() != r.n) {
          return send_error(fd, "STEP: payload does not hold the announced records");
        }
        uint64_t out_len = uint64_t(n) * h.out_bytes();
        if (out_len + 4 > kMaxFrame) return send_error(fd, "STEP: batch too large");
        reply.resize(9 + out_len);
        uint32_t rlen = uint32_t(out_len + 5);
        memcpy(reply.data(), &rlen, 4);
        reply[4] = kStepOk;
        memcpy(reply.data() + 5, &n, 4);
        h.Step(r.p, n, reply.data() + 9, fd);
        if (!write_full(fd, reply.data(), reply.size())) return 1;
        break;
      }
      case kTrace: {
        uint8_t on = r.u8();
        std::string path = r.str();
        if (!r.ok) return send_error(fd, "malformed TRACE");
        if (on) {
          if (!h.OpenTrace(path)) return send_error(fd, "TRACE: cannot open " + path);
        } else {
          h.CloseTrace();
        }
        if (!send(fd, kOk, Buf{})) return 1;
        break;
      }
      case kQuit:
        h.CloseTrace();
        send(fd, kOk, Buf{});
        return 0;
      default:
        return send_error(fd, "unknown message type " + std::to_string(type));
    }
  }
}

std::string random_token() {
  uint8_t b[16];
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || !read_full(fd, b, sizeof b)) die("/dev/urandom");
  close(fd);
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (uint8_t c : b) {
    s += hex[c >> 4];
    s += hex[c & 15];
  }
  return s;
}

int replay(const char* file, long repeat) {
  Harness h;
  FILE* f = fopen(file, "rb");
  if (!f) die(file);
  std::vector<uint8_t> in;
  uint8_t chunk[65536];
  size_t k;
  while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) in.insert(in.end(), chunk, chunk + k);
  fclose(f);
  if (in.size() % h.in_bytes() != 0) {
    fprintf(stderr, "harness: %s does not hold whole input records of %zu bytes\n", file, h.in_bytes());
    return 2;
  }
  uint32_t n = uint32_t(in.size() / h.in_bytes());
  std::vector<uint8_t> out(size_t(n) * h.out_bytes());
  uint64_t t0 = now_ns();
  for (long i = 0; i < repeat; i++) {
    h.Reset();
    h.Step(in.data(), n, out.data(), -1);
  }
  uint64_t dt = now_ns() - t0;
  uint64_t cycles = uint64_t(n) * uint64_t(repeat);
  printf("cycles %llu ns %llu cycles_per_s %.0f\n", (unsigned long long)cycles, (unsigned long long)dt,
         dt ? double(cycles) * 1e9 / double(dt) : 0.0);
  return 0;
}

void usage() {
  fprintf(stderr,
          "usage: harness [--socket PATH | --tcp] [--inject crash|hang|close|exit@CYCLE]\n"
          "       harness --replay FILE [--repeat N]\n");
  exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::string sock_path, replay_file;
  bool tcp = false;
  long repeat = 1;
  Inject inject = Inject::kNone;
  uint64_t inject_cycle = 0;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--socket" && i + 1 < argc) {
      sock_path = argv[++i];
    } else if (a == "--tcp") {
      tcp = true;
    } else if (a == "--replay" && i + 1 < argc) {
      replay_file = argv[++i];
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = strtol(argv[++i], nullptr, 10);
      if (repeat < 1) usage();
    } else if (a == "--inject" && i + 1 < argc) {
      std::string v = argv[++i];
      size_t at = v.find('@');
      if (at == std::string::npos) usage();
      std::string kind = v.substr(0, at);
      inject_cycle = strtoull(v.c_str() + at + 1, nullptr, 10);
      if (kind == "crash") inject = Inject::kCrash;
      else if (kind == "hang") inject = Inject::kHang;
      else if (kind == "close") inject = Inject::kClose;
      else if (kind == "exit") inject = Inject::kExit;
      else usage();
    } else {
      usage();
    }
  }
  if (!replay_file.empty()) return replay(replay_file.c_str(), repeat);

  struct sigaction sa {};
  sa.sa_handler = on_stop;  // no SA_RESTART: a blocked read returns EINTR
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);

  Harness h;
  h.set_inject(inject, inject_cycle);
  std::string token = random_token();

  int lfd;
  std::string where, own_dir;
  if (tcp) {
    lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lfd < 0) die("socket");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (bind(lfd, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0) die("bind 127.0.0.1");
    socklen_t al = sizeof a;
    if (getsockname(lfd, reinterpret_cast<sockaddr*>(&a), &al) < 0) die("getsockname");
    where = "tcp:127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  } else {
    if (sock_path.empty()) {
      const char* tmp = getenv("TMPDIR");
      std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/smsim-cosim-XXXXXX";
      std::vector<char> t(tmpl.begin(), tmpl.end());
      t.push_back(0);
      if (!mkdtemp(t.data())) die("mkdtemp");  // mode 0700
      own_dir = t.data();
      sock_path = own_dir + "/harness.sock";
    }
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    if (sock_path.size() >= sizeof a.sun_path) {
      fprintf(stderr, "harness: socket path too long: %s\n", sock_path.c_str());
      return 2;
    }
    memcpy(a.sun_path, sock_path.c_str(), sock_path.size() + 1);
    lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lfd < 0) die("socket");
    if (bind(lfd, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0) die("bind");
    chmod(sock_path.c_str(), 0600);
    where = "unix:" + sock_path;
  }
  if (listen(lfd, 1) < 0) die("listen");
  printf("smsim-harness %u %s listen %s token %s\n", kProtocolVersion, smsim_gen::kUnit, where.c_str(),
         token.c_str());
  fflush(stdout);

  pollfd p{lfd, POLLIN, 0};
  int pr;
  do {
    pr = poll(&p, 1, kAcceptTimeoutMs);
  } while (pr < 0 && errno == EINTR && !g_stop);
  int fd = pr > 0 ? accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC) : -1;
  close(lfd);
  if (!tcp) unlink(sock_path.c_str());
  if (!own_dir.empty()) rmdir(own_dir.c_str());
  if (fd < 0) {
    if (g_stop) {
      fprintf(stderr, "harness: stopped by a signal\n");
    } else {
      fprintf(stderr, "harness: no connection within %d s\n", kAcceptTimeoutMs / 1000);
    }
    return 1;
  }
  if (tcp) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  int rc = serve(h, fd, token);
  h.CloseTrace();
  close(fd);
  return rc;
}
