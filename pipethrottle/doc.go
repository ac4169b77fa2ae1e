// Package pipethrottle is the SM's execution-pipe throughput limiter
// (Verilog module pipe_throttle, instance sm_top.u_pipe_throttle), a
// two-phase unit (rtl.Unit) the issue stage instantiates once.
//
// Each scheduler (SM sub-partition) has its own copy of every pipe: FP32,
// INT32, IMAD, FP64, SFU (the special-function unit, MUFU) and CVT
// (conversions). A pipe's rate is configured per SM, in results (lanes)
// per clock as NVIDIA documents them for compute capability 9.0 (CUDA C++
// Programming Guide, "Arithmetic Instructions": FP32 128, INT32 64, IMAD
// 64, FP64 64, SFU 16, conversions 16); each scheduler's copy runs at
// rate / NumPorts lanes per clock, so a 32-lane warp instruction occupies
// it 32·NumPorts/rate cycles (FP32 1, INT32, IMAD and FP64 2, SFU and CVT
// 8 on the h100 preset). Rates that do not divide evenly are kept exactly
// over time by a credit counter.
//
// In a cycle, PipeReady tells the issue stage which pipes of each
// scheduler can take a warp instruction (a function of the registers
// alone, so the issue stage can mark warps before its scheduler picks); a
// request on req_valid_i/req_pipe_i is accepted when its pipe is ready,
// and then uses the pipe. A warp whose next instruction's pipe is not
// ready reports Nsight Compute's math_pipe_throttle stall.
//
// An SM that skips idle cycles asks ReadyIn when a busy pipe takes an
// instruction again and moves the unit with Advance(n), the same as n
// cycles without a request.
//
// Classify maps a PTX ALU instruction to its pipe. The unit counts the
// instructions each pipe accepted (smsp__inst_executed_pipe_*: Metrics).
//
// Not modelled: the pipes' latencies (those are the lat.* keys), the
// sharing of one physical unit by several of these pipes (IMAD issues on
// the FMA-heavy half of the FP32 pipe, and many conversions on the
// special-function unit, on real hardware), the register-file read ports,
// and the extra instructions the compiler emits for 64-bit integer
// arithmetic (one PTX instruction is one pass through its pipe).
package pipethrottle
