// pmevent: performance-monitor events: pmevent with an index, pmevent.mask,
// a guard-predicated "@p pmevent" (inline PTX, so the predicate stays a
// predicate instead of a branch), and events under lane divergence. The
// events have no architectural effect; the kernel's stores are checked.
// Launch: grid 1, block 64.
#include "smsim_cuda.h"

__global__ void pmevent(u32 *out) {
  u32 i = gtid();
  u32 lane = laneid();
  asm volatile("pmevent 3;");
  asm volatile("pmevent.mask 0x11;");
  // predicated: lanes with bit 2 set
  asm volatile("{\n\t.reg .pred %%q;\n\tsetp.ne.u32 %%q, %0, 0;\n\t"
               "@%%q pmevent 7;\n\t@!%%q pmevent.mask 0xff00;\n\t}" ::"r"(lane & 4));
  u32 v = i;
  if (lane < 10) {
    asm volatile("pmevent 15;");
    v += 100;
  } else {
    asm volatile("pmevent.mask 0x8001;");
    v ^= 0xf0;
  }
  asm volatile("pmevent 0;");
  out[i] = v;
}
