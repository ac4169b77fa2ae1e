// sreg_cluster: the cluster special registers under an explicit cluster
// launch. clang-16 has neither __cluster_dims__ nor builtins for these
// registers, so the cluster shape is a launch property (Example.Cluster) and
// the registers are read with inline asm, including whole-vector
// mov.v4.u32 reads. Launch: grid (4,2,1), block 32, cluster (2,2,1).
//
// out[thread*24 + k], thread = linear CTA id (x fastest) * 32 + lane.
#include "smsim_cuda.h"

#define V4(name, a, b, c, d)                                                   \
  asm volatile("mov.v4.u32 {%0, %1, %2, %3}, %%" name ";"                      \
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d))

__global__ void sreg_cluster(u32 *out) {
  u32 cl = ctaid_x() + nctaid_x() * (ctaid_y() + nctaid_y() * ctaid_z());
  u32 *o = out + (cl * ntid_x() + tid_x()) * 24;
  o[0] = SREG_ASM32("clusterid.x");
  o[1] = SREG_ASM32("clusterid.y");
  o[2] = SREG_ASM32("clusterid.z");
  o[3] = SREG_ASM32("nclusterid.x");
  o[4] = SREG_ASM32("nclusterid.y");
  o[5] = SREG_ASM32("nclusterid.z");
  o[6] = SREG_ASM32("cluster_ctaid.x");
  o[7] = SREG_ASM32("cluster_ctaid.y");
  o[8] = SREG_ASM32("cluster_ctaid.z");
  o[9] = SREG_ASM32("cluster_nctaid.x");
  o[10] = SREG_ASM32("cluster_nctaid.y");
  o[11] = SREG_ASM32("cluster_nctaid.z");
  o[12] = SREG_ASM32("cluster_ctarank");
  o[13] = SREG_ASM32("cluster_nctarank");
  u32 p;
  asm volatile("{\n\t.reg .pred %%p;\n\tmov.pred %%p, %%is_explicit_cluster;\n\t"
               "selp.u32 %0, 1, 0, %%p;\n\t}"
               : "=r"(p));
  o[14] = p;
  u32 a, b, c, d;
  V4("cluster_ctaid", a, b, c, d);
  o[15] = a;
  o[16] = b;
  o[17] = c;
  o[18] = d; // the unused fourth component reads 0
  V4("clusterid", a, b, c, d);
  o[19] = a + 10 * b + 100 * c + 1000 * d;
  V4("nclusterid", a, b, c, d);
  o[20] = a + 10 * b + 100 * c + 1000 * d;
  V4("cluster_nctaid", a, b, c, d);
  o[21] = a + 10 * b + 100 * c + 1000 * d;
  // A rank recomputed from the ids must match %cluster_ctarank.
  o[22] = o[6] + o[9] * (o[7] + o[10] * o[8]);
  o[23] = ctaid_x() - o[0] * o[9]; // == cluster_ctaid.x
}
