// Package memsys is the memory system of the SM model, as standalone
// components: the parts inside the SM's load/store unit, which will get
// RTL, and the timing models behind the SM's memory port, which stay in
// Go. docs/memory.md has the ports, the cycle behaviour, the configuration
// keys, the calibration figures and their sources.
//
// Inside the SM (two-phase units, rtl.Unit, sv-tagged ports):
//
//   - Coalescer (sm_top.u_lsu.u_coalescer): a warp request (op, space,
//     per-lane addresses, access size, active mask) becomes 32-byte
//     sectors of 128-byte lines (Coalesce), sent to the L1 one line per
//     cycle;
//   - Banks (sm_top.u_lsu.u_smem_banks): shared memory's 32 banks of 4
//     bytes; an n-way conflict is served in n wavefronts, one per cycle;
//     the same word read by several lanes is broadcast; 8- and 16-byte
//     accesses go by half- and quarter-warp phases (SharedWavefronts).
//
// Behind the memory port (Go timing models; Hier wires them):
//
//   - L1: the L1 data cache, sectored, set-associative, LRU, with merging
//     MSHRs and a hit latency; global stores write through without
//     allocating; atomics pass to the L2;
//   - ConstCache: the constant cache of constant-bank and parameter loads,
//     one access per distinct address;
//   - L2: this SM's slice of the L2, near and far partitions, a bandwidth
//     share, write-back with write-allocate without fetch; atomics resolve
//     here;
//   - DRAM: latency plus this SM's share of the HBM bandwidth, with a
//     queue.
//
// The load/store stage's interface (Go wiring):
//
//   - Port: one warp memory instruction per cycle in (Request: op, space,
//     per-lane addresses, size, mask, tag), its Facts out at once (path,
//     lines and sectors, wavefronts and bank-conflict replays, distinct
//     constant addresses, and which throttle stall applies when it is not
//     taken: lg_throttle or mio_throttle), and a Response with the tag and
//     the completion cycle when the whole instruction is done. Eval/Tick
//     for a cycle-stepped caller, NextEvent/Advance for one that skips idle
//     cycles;
//   - Metrics: the port's traffic and the caches' counters under Nsight
//     Compute's names.
//
// All timing is in SM cycles; bandwidths are exact fractions (Rate), so
// runs are deterministic. The package holds no data (the SM's flat memory
// keeps the values): it decides when an access completes, not what it
// reads.
//
// Not modelled: TLBs, the L1's data banks and its 128 B/cycle return
// path beyond one response per cycle, texture and surface paths, local
// memory's write-back policy in the L1 (local is treated as global), L2
// residency control, ECC, DRAM pages, banks and refresh (the DRAM is a
// latency and a bandwidth), the other SMs' traffic (shares are static),
// and coherence between the L1 and other SMs' stores.
package memsys
