// cta_continuation: CTA continuations and a system call through the SM
// trap handler (seed 002). Every warp yields n times with BPT.TRAP 2 (a
// continuation point); lane 8 of warp 1 then makes a system call with
// BPT.TRAP 3. The trap handler, cta_continuation_handler (launch it with
// trap.handler / --trap-handler cta_continuation_handler), reads the trap
// reason from SR_WARP_ESR. The kernel and the handler talk through
// per-warp words in global memory (the ABI of seed 002's software note):
// words[2w] is warp w's progress, written by the kernel before it traps;
// words[2w+1] the handler's log of what it saw. A continuation is logged
// and the warp pauses quietly (BPT.PAUSE_QUIET), like every warp merely
// taken into the handler by another's trap, so when all have paused the SM
// returns to user mode by itself; a system call pauses with BPT.PAUSE,
// which interrupts the host: with --on-trap=resume the host wakes the
// warps, which return with RTT and complete the kernel; with
// --on-trap=abort the launch ends "trapped". Launch: grid 2, block 64,
// n = 3.
#include "smsim_cuda.h"

// The ABI: where the per-warp words are (set by the kernel, read by the
// handler).
__device__ u32 *cont_words;

#define CONT_REASON 2
#define SYSCALL_REASON 3

extern "C" __device__ __noinline__ void cta_continuation_handler() {
  u32 esr;
  asm volatile("S2R %0, SR_WARP_ESR;" : "=r"(esr));
  u32 reason = esr & 7;
  u32 w = gtid() / 32;
  if (reason == CONT_REASON && laneid() == 0)
    cont_words[2 * w + 1] = cont_words[2 * w + 1] * 31 + cont_words[2 * w];
  if (reason == SYSCALL_REASON) {
    if (laneid() == 8)
      cont_words[2 * w + 1] += 1000000;
    asm volatile("BPT.DRAIN;");
    asm volatile("BPT.PAUSE;");
    asm volatile("RTT;");
  }
  asm volatile("BPT.PAUSE_QUIET;");
  asm volatile("RTT;");
}

__global__ void cta_continuation(u32 *out, u32 *words, u32 n) {
  u32 i = gtid();
  u32 w = i / 32;
  cont_words = words;
  u32 acc = i + 1;
  for (u32 k = 0; k < n; k++) {
    acc = acc * 3 + k;
    words[2 * w] = k + 1; // every lane: the warp traps converged
    asm volatile("BPT.TRAP 2;");
  }
  if (i == 40)
    asm volatile("BPT.TRAP 3;");
  out[i] = acc;
}
