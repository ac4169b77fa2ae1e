// Package isa is smsim's front end: a parser for PTX as compilers emit it
// (nvcc, clang/LLVM NVPTX) plus the SASS trap-handler instructions (BPT.*,
// IDE.*, S2R, RTT); an assembler that lowers a module to the machine's
// fixed-width 128-bit encoding (docs/isa.md), allocating physical registers;
// the binary image both the Go model and the RTL execute; and a
// disassembler whose output assembles back to identical bytes.
//
// It does not model timing or execute anything: see package pipeline.
package isa
