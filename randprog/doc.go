// Package randprog generates constrained-random PTX kernels in the
// riscv-dv style (issue 15): from a seed and a feature set it writes one
// kernel in the shape clang-16 emits (examples/*.ptx) together with its
// launch (grid, block, buffers with their initial data, arguments), for
// `smsim cosim --sm --random N --seed S` and the Go model's self-checks.
//
// Every program is valid and terminating by construction:
//
//   - every register is written before it is read: the program's
//     variables are initialized in the prologue, temporaries are written
//     and read in the same straight-line snippet, and a branch writes
//     only variables that already hold a value;
//   - loops count a dedicated register down from a per-lane trip count
//     of 1..8 (at most two nested), calls only go to functions defined
//     earlier (no recursion), brx.idx indices and call-table indices are
//     masked into their table;
//   - every address is inside a buffer: reads of `in` anywhere (masked
//     index), reads and writes of the thread's own slots of `scratch` and
//     of its own slot of shared memory; reads of another thread's shared
//     slot only between two bar.sync of uniform code, after every thread
//     wrote its slot in the prologue;
//   - bar.sync only in uniform code (not under a divergent branch, in a
//     loop or in a function); partial exit anywhere in the kernel;
//     nanosleep times and divisors bounded; BPT.TRAP reasons 2..7 served
//     by a handler that logs them and returns (RTT);
//   - a warp operation's member mask is the lanes running it (activemask),
//     and a shuffle runs only where every lane of a full warp runs, so
//     its source lanes are members.
//
// At the end every thread that did not exit writes each of its variables
// to the `out` buffer, so comparing the final buffers covers the
// computation. Features selects the instruction families; the SM RTL's
// preset is derived in package cosim (SMRandomFeatures) by asking
// CheckSM about each family and operation, so it widens by itself as the
// RTL's subset grows.
//
// Generation is deterministic: the same seed, features and limits give
// the same text and launch (the random source is a local splitmix64, not
// math/rand, so a seed means the same program across Go releases).
package randprog
