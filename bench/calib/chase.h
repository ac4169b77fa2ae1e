// chase.h: the timed part of a pointer chase (chase.cu in global memory,
// smem.cu's smem_chase in shared memory). CHASE_TIMED(STEP) uses p before
// reading the clock (issue is in order, so the clock is read once the
// load that made p has answered), times `steps` steps of STEP (p = *p,
// one load; rounded up to 4), uses p again (the last timed load has
// answered) and writes out[0] = cycles, out[1] = steps, out[2] = the low
// word of the final address.
#ifndef CHASE_H
#define CHASE_H

#define CHASE_TIMED(STEP)                                                      \
  asm volatile("add.u64 %0, %0, 0;" : "+l"(p));                                \
  u64 t0 = __nvvm_read_ptx_sreg_clock64();                                     \
  for (u32 i = 0; i < steps; i += 4) {                                         \
    STEP STEP STEP STEP                                                        \
  }                                                                            \
  asm volatile("add.u64 %0, %0, 0;" : "+l"(p));                                \
  u64 t1 = __nvvm_read_ptx_sreg_clock64();                                     \
  out[0] = (u32)(t1 - t0);                                                     \
  out[1] = (steps + 3) & ~3u;                                                  \
  out[2] = (u32)p;

#endif
