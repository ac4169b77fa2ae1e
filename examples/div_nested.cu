// div_nested: three levels of nested divergence on lane bits, with work at
// every level so the reconvergence points matter. Launch: grid 1, block 96.
#include "smsim_cuda.h"

__global__ void div_nested(u32 *out, u32 *trace) {
  u32 i = gtid();
  u32 lane = laneid();
  u32 v = i;
  u32 t = 0;
  if (lane & 1) {
    v = v * 3 + 1;
    t = t * 4 + 1;
    if (lane & 2) {
      v ^= 0xff00;
      t = t * 4 + 1;
      if (lane & 4) {
        v = v * v;
        t = t * 4 + 1;
      } else {
        v = v + 0x10001;
        t = t * 4 + 2;
      }
      v += 5;
    } else {
      v = v >> 1;
      t = t * 4 + 2;
      if (lane >= 16) {
        v |= 0x80000000u;
        t = t * 4 + 1;
      }
    }
    v -= 3;
  } else {
    v = v * 7;
    t = t * 4 + 2;
    if (lane % 3 == 0) {
      v = ~v;
      t = t * 4 + 1;
      if (lane % 5 == 0) {
        v = v / 3;
        t = t * 4 + 1;
      } else {
        v = v % 1000;
        t = t * 4 + 2;
      }
    }
  }
  out[i] = v;
  trace[i] = t;
}
