// Package cosim cosimulates a Go unit (package rtl's two-phase Unit) with
// its Verilog twin, Verilated, cycle by cycle: both get the same inputs,
// and every output and every *_q register is compared every cycle.
//
// # The pieces
//
//   - A Unit is one RTL unit at one parameter set together with its Go
//     model, seen as wire records. Bind makes one from a Spec (the Go
//     unit's constructor, its signal table, the Verilog parameters and a
//     seeded constrained-random input generator); WarpSched is warp_sched's.
//     Units lists the units cosim knows.
//   - The wire format (Layout) comes from the Go signal table: each signal
//     little-endian in the bytes Verilator stores it in (StorageBytes),
//     inputs in one record, outputs then registers in another. The Go side
//     moves the fields of the unit's own Inputs, Outputs and State to and
//     from records by reflection on the `sv` tags: an array field (nested
//     arrays row-major) is the Verilog's flat vector, element i at bits
//     [ew*i, ew*i+ew), ew the Go element's width or the narrower one of
//     the field's elem tag (rtl.Places, shared with the waveform tracer),
//     and any width (beyond rtl.MaxBits too). A unit
//     with a QRef method (QRefer) has its registers read in place, not
//     copied, every cycle. The C++ side uses a header generated from the
//     same table (GeneratedFiles, written by `go generate ./cosim` into
//     verilog/dv/gen), so the two cannot drift, and HELLO checks the
//     names, directions and sizes at run time.
//   - The harness (verilog/dv/harness.cpp) is a thin C++ shim around the
//     Verilated unit serving the protocol of docs/cosim-protocol.md on a
//     Unix-domain socket in a private directory (or on 127.0.0.1 with
//     TCP). It compares nothing. Build makes it with make -C verilog (one
//     binary per parameter set, cached); Start runs it and connects
//     (Session).
//   - Run (or RunSession on a started harness) runs the lockstep: input
//     records in batches (one STEP message carries thousands of cycles),
//     the Go model meanwhile, and a byte comparison of the output records.
//     At the first difference it returns a *Mismatch: the cycle, the
//     signal by its Verilog name, both values, the inputs of the last 16
//     cycles, and waveforms: the Go VCD (package vcd), Verilator's VCD, a
//     VCD with both side by side and a GTKWave save file showing each Go
//     signal above its RTL twin with the marker on the mismatch. Without
//     Options.VCDDir the mismatch is replayed from reset with tracing on
//     over its last cycles, so long runs cost nothing in tracing.
//   - Failures of the RTL side are *HarnessError values naming the cause
//     (crash, hang, closed connection, exit, protocol version, parameter
//     or layout mismatch, build failure) with the tail of the harness's
//     stderr. The harness runs in its own process group and is always
//     waited for; canceling the context stops a run between or inside
//     batches and leaves the VCDs complete.
//   - RunSM cosimulates the whole SM (docs/sm-rtl.md): the Verilated bench
//     (verilog/dv/sm_tb.sv around sm_top, BuildSM) runs the kernel by
//     itself and streams a binary record per cycle on a pipe (only the
//     changed fields, smrec.go), and the Go SM steps one cycle per record
//     beside it; the first difference is an SMMismatch with its
//     waveforms, written by a traced replay (BuildSMTrace, package trace
//     for the Go side). docs/cosim-protocol.md ("The SM bridge") is the
//     contract.
//   - Recorder, SchedRecording and UnitRecording carry the inputs of
//     warp_sched and of the other units recorded from a full-SM run
//     (package kernelrec) for replay, each as a Stream of input records
//     kept run-length encoded (an SM asleep for a million cycles records
//     one record).
//
// # Adding a unit
//
// A new unit (trap_unit, reg_pool, clock_timer, ...) needs: its Go unit
// with `sv` tags on Inputs, Outputs and State and a Signals method (and
// QRef when State is large); its
// Verilog in verilog/rtl (ports and registers named as the tags, clk_i
// and rst_ni, async active-low reset); a constructor like WarpSched
// binding a Spec (Verilog parameters, RTL files, table, the element
// widths of arrays packed narrower than their Go elements, random
// stimulus);
// a UnitInfo in Units with its standard and area parameter sets; then
// `go generate ./cosim`. The Makefile, the harness, the port check
// (TestPortsMatchGoTags), lint, area and the CLI pick it up from there.
//
// # Not done here
//
// Multi-clock units, units with memories read through DPI, X propagation
// (Verilator is two-state; the harness never drives X), and comparison of
// internal signals other than the *_q registers of the Go State.
package cosim

//go:generate go run ./cmd/gentable -out ../verilog/dv/gen
