// stream: bandwidth. Every thread of the grid walks the arrays with a
// grid-stride loop of 16-byte accesses (uint4), `passes` times.
//
// stream_read: sums n words of a (the sum per thread goes to out); bytes
// moved = 4 n passes. stream_copy: b[i] = a[i]; bytes moved = 8 n passes
// (read and write). The figure is bytes / cycles of the whole run (the
// report's cycles). A working set of a few MiB read once is DRAM
// bandwidth; a working set between the L1 and the L2 read several times
// is L2 bandwidth.
#include "../../examples/smsim_cuda.h"

// A 4-word vector, so each access is one ld/st.global.v4.u32 (a struct of
// four u32 has 4-byte alignment and clang splits it into four scalar
// accesses 16 bytes apart, or a copy into two 8-byte ones: each warp
// request then touches 16 sectors for 128 or 256 bytes).
typedef u32 u4 __attribute__((ext_vector_type(4)));

extern "C" __global__ void stream_read(const u4 *a, u32 *out, u32 n4, u32 passes) {
  u32 t = gtid(), nt = ntid_x() * nctaid_x();
  u32 s = 0;
  for (u32 p = 0; p < passes; p++)
    for (u32 i = t; i < n4; i += nt) {
      u4 v = a[i];
      s += v.x ^ v.y ^ v.z ^ v.w;
    }
  out[t] = s;
}

extern "C" __global__ void stream_copy(const u4 *a, u4 *b, u32 n4, u32 passes) {
  u32 t = gtid(), nt = ntid_x() * nctaid_x();
  for (u32 p = 0; p < passes; p++)
    for (u32 i = t; i < n4; i += nt)
      b[i] = a[i];
}
