// sreg_all: every special register of the PTX ISA (seed 003), read by every
// thread of a 3-D grid of 3-D blocks. Launch: grid (2,2,2), block (8,4,2)
// (64 threads, 2 warps per CTA), 200 bytes of dynamic shared memory, no
// explicit cluster (so the cluster registers describe the implicit 1x1x1
// cluster of each CTA).
//
//   ids[thread*NIDS + k]  launch geometry and machine ids (Expect knows
//                         all of these given Env)
//   env[cta*32 + k]       %envreg0..31, written by thread 0 of each CTA
//   timers[thread*NT + k] %clock, %clock_hi, %clock64, %globaltimer*, in
//                         program order (checked by relations only)
//   pm[thread*16 + k]     %pm0..7 and the low words of %pm0_64..7_64
//                         (undefined by the ISA; not checked)
// "thread" is the global linear thread index: linear CTA id (x fastest)
// times 64 plus the linear thread id within the CTA (x fastest).
#include "smsim_cuda.h"

#define NIDS 52
#define NT 12

__global__ void sreg_all(u32 *ids, u32 *env, u32 *timers, u32 *pm) {
  __shared__ u32 stat[32];
  extern __shared__ u32 dyn[];
  u32 tl = tid_x() + ntid_x() * (tid_y() + ntid_y() * tid_z());
  u32 cl = ctaid_x() + nctaid_x() * (ctaid_y() + nctaid_y() * ctaid_z());
  u32 g = cl * (ntid_x() * ntid_y() * ntid_z()) + tl;
  u32 *o = ids + g * NIDS;

  // Touch the static and the dynamic shared arrays so both are allocated.
  if (tl < 32)
    stat[tl] = tl;
  dyn[tl] = tl * 3;
  __syncthreads();

  o[0] = tid_x();
  o[1] = tid_y();
  o[2] = tid_z();
  o[3] = SREG(tid_w);
  o[4] = ntid_x();
  o[5] = ntid_y();
  o[6] = ntid_z();
  o[7] = SREG(ntid_w);
  o[8] = ctaid_x();
  o[9] = ctaid_y();
  o[10] = ctaid_z();
  o[11] = SREG(ctaid_w);
  o[12] = nctaid_x();
  o[13] = nctaid_y();
  o[14] = nctaid_z();
  o[15] = SREG(nctaid_w);
  o[16] = laneid();
  o[17] = SREG(warpid);
  o[18] = SREG(nwarpid);
  o[19] = SREG(smid);
  o[20] = SREG(nsmid);
  o[21] = SREG(gridid); // clang-16: a legacy 32-bit "mov.u32 %r, %gridid"
  u64 gid = SREG_ASM64("gridid");
  o[22] = (u32)gid;
  o[23] = (u32)(gid >> 32);
  o[24] = SREG(lanemask_eq);
  o[25] = SREG(lanemask_le);
  o[26] = SREG(lanemask_lt);
  o[27] = SREG(lanemask_ge);
  o[28] = SREG(lanemask_gt);
  u32 expl;
  asm volatile("{\n\t.reg .pred %%p;\n\tmov.pred %%p, %%is_explicit_cluster;\n\t"
               "selp.u32 %0, 1, 0, %%p;\n\t}"
               : "=r"(expl));
  o[29] = expl;
  o[30] = SREG_ASM32("clusterid.x");
  o[31] = SREG_ASM32("clusterid.y");
  o[32] = SREG_ASM32("clusterid.z");
  o[33] = SREG_ASM32("nclusterid.x");
  o[34] = SREG_ASM32("nclusterid.y");
  o[35] = SREG_ASM32("nclusterid.z");
  o[36] = SREG_ASM32("cluster_ctaid.x");
  o[37] = SREG_ASM32("cluster_ctaid.y");
  o[38] = SREG_ASM32("cluster_ctaid.z");
  o[39] = SREG_ASM32("cluster_nctaid.x");
  o[40] = SREG_ASM32("cluster_nctaid.y");
  o[41] = SREG_ASM32("cluster_nctaid.z");
  o[42] = SREG_ASM32("cluster_ctarank");
  o[43] = SREG_ASM32("cluster_nctarank");
  o[44] = SREG_ASM32("total_smem_size");
  o[45] = SREG_ASM32("dynamic_smem_size");
  o[46] = SREG_ASM32("aggr_smem_size");
  o[47] = SREG_ASM32("reserved_smem_offset_begin");
  o[48] = SREG_ASM32("reserved_smem_offset_end");
  o[49] = SREG_ASM32("reserved_smem_offset_cap");
  o[50] = SREG_ASM32("reserved_smem_offset_0") ^ SREG_ASM32("reserved_smem_offset_1");
  u64 graph = SREG_ASM64("current_graph_exec");
  o[51] = (u32)graph ^ (u32)(graph >> 32) ^ stat[tl % 32] ^ (dyn[tl] - tl * 3);

  if (tl == 0) {
    u32 *e = env + cl * 32;
#define ENV(k) e[k] = SREG_ASM32("envreg" #k)
    ENV(0); ENV(1); ENV(2); ENV(3); ENV(4); ENV(5); ENV(6); ENV(7);
    ENV(8); ENV(9); ENV(10); ENV(11); ENV(12); ENV(13); ENV(14); ENV(15);
    ENV(16); ENV(17); ENV(18); ENV(19); ENV(20); ENV(21); ENV(22); ENV(23);
    ENV(24); ENV(25); ENV(26); ENV(27); ENV(28); ENV(29); ENV(30); ENV(31);
#undef ENV
  }

  // Timers, in this program order:
  //  0 clock  1 clock_hi  2,3 clock64 lo,hi  4 clock (builtin)
  //  5,6 clock64 (builtin) lo,hi  7,8 globaltimer lo,hi
  //  9 globaltimer_lo  10 globaltimer_hi  11 clock
  u32 *t = timers + g * NT;
  u32 c0 = SREG_ASM32("clock");
  u32 chi = SREG_ASM32("clock_hi");
  u64 c64 = SREG_ASM64("clock64");
  u32 c1 = SREG(clock);
  u64 c64b = SREG(clock64);
  u64 gt = SREG_ASM64("globaltimer");
  u32 gtlo = SREG_ASM32("globaltimer_lo");
  u32 gthi = SREG_ASM32("globaltimer_hi");
  u32 c2 = SREG_ASM32("clock");
  t[0] = c0;
  t[1] = chi;
  t[2] = (u32)c64;
  t[3] = (u32)(c64 >> 32);
  t[4] = c1;
  t[5] = (u32)c64b;
  t[6] = (u32)(c64b >> 32);
  t[7] = (u32)gt;
  t[8] = (u32)(gt >> 32);
  t[9] = gtlo;
  t[10] = gthi;
  t[11] = c2;

  u32 *p = pm + g * 16;
  p[0] = SREG(pm0);
  p[1] = SREG(pm1);
  p[2] = SREG(pm2);
  p[3] = SREG(pm3);
  p[4] = SREG_ASM32("pm4");
  p[5] = SREG_ASM32("pm5");
  p[6] = SREG_ASM32("pm6");
  p[7] = SREG_ASM32("pm7");
  p[8] = (u32)SREG_ASM64("pm0_64");
  p[9] = (u32)SREG_ASM64("pm1_64");
  p[10] = (u32)SREG_ASM64("pm2_64");
  p[11] = (u32)SREG_ASM64("pm3_64");
  p[12] = (u32)SREG_ASM64("pm4_64");
  p[13] = (u32)SREG_ASM64("pm5_64");
  p[14] = (u32)SREG_ASM64("pm6_64");
  p[15] = (u32)SREG_ASM64("pm7_64");
}
