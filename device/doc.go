// Package device is the host side of the SM model: a Go API for programs
// that, like a CUDA host program, load modules, manage device memory and
// launch kernels one after another, doing host work in between.
//
// A Device is one SM model over one global memory. Open it on a
// configuration; Load a module (PTX text, an smsim disassembly or an
// image); Alloc, Free, Write, Read, Fill and Copy device memory, where a
// Ptr is a device address and Ptr.Add gives a pointer into the middle of
// an allocation; set a module's __constant__ and .global variables by
// name (Module.SetVar); and Launch a kernel by name with typed arguments
// (a Ptr, Go integers, float32, float64), positionally as in
// kernel<<<grid, block>>>(args...). Memory persists from launch to launch,
// so the output of one kernel is the input of the next.
//
// Each launch builds a fresh SM (pipeline.New) on the device's memory
// (pipeline.Launch.Memory) and runs it to its end. Its result is the
// *pipeline.Report that `smsim run --json` prints, with the same buffers:
// every pointer argument that points at the start of an allocation is
// listed under its parameter name with the allocation's final contents.
// Memcheck sees every live allocation, so a kernel that strays outside
// them faults with an out_of_bounds sanitizer record naming the nearest
// one (by its Alloc name). A launch that does not complete returns its
// report together with a *RunError; the device stays usable.
//
// The host side checks what it touches: a Write, Read, Fill or Copy must
// lie inside one live allocation (or a module's .global variables), and
// a Free must name the start of one; anything else is an error, never a
// silent access.
//
// What it does not model: streams, events, asynchronous copies and
// concurrent kernels (launches run one at a time, to completion), unified
// memory, several SMs, and relocation: every module's .global variables
// live at isa.GlobalDataBase, so at most one loaded module may have any.
// The time the host spends between launches is not counted; each report
// has the cycles of its own launch and Device.Cycles their sum.
//
// The launch plan files of `smsim run PLAN.yaml` (package plan) run on
// this API.
package device
