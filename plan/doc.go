// Package plan reads and runs launch plans: YAML files that describe a
// whole application for people who do not write Go, run by
// `smsim run PLAN.yaml` (docs/host.md has the format with examples).
//
// A plan names its modules, its buffers (zeroed, a fill byte, a file's
// bytes or literal typed values), the __constant__ and .global variables
// to fill, a sequence of steps (launches with buffer, buffer+offset and
// typed scalar arguments; fills; repeats a number of times or until a
// condition on a buffer element holds, with a maximum) and the buffers to
// write to files at the end.
//
// Parse reads a plan and checks it by itself; Plan.Run checks it against
// its modules, then runs it on a new device (package device), one launch
// after another over one device memory. Every error of the plan is a
// yamlpos.ErrorList of "file:line:col: message"; a run that stops early
// is a *Failure with the result so far. Parse never panics (FuzzParsePlan).
//
// Not supported: sweeps over plans (package sweep refuses plan
// workloads), host code beyond fills and conditions, waveforms of a plan.
package plan
