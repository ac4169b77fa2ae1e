// Package config holds everything a run of the SM model is parameterised
// by: clock and timer, warp schedulers, the SM's resident limits and storage
// sizes, execution latencies, the memory system (l1, smem, l2, dram,
// const_cache: package memsys), the values of launch-time special registers
// (%gridid, %envreg0..31, %current_graph_exec, %smid, %nsmid), the trap
// handler, setmaxnreg's register pool, nanosleep, what %pm0..%pm7 count, and
// run control.
//
// A Config is a plain value with simple fields. It is built from a preset
// (Default, Preset: "h100", "small"), overridden by a YAML file (Load,
// Parse) and by "key=value" strings (Set, for --set), and checked by
// Validate:
//
//	cfg := config.Default()
//	cfg, err := config.Load("sweep.yaml", cfg) // may start with "preset: small"
//	err = cfg.Set("sched.count=2")
//	err = cfg.Validate()
//
// Keys are dotted paths of the yaml tags ("sched.count", "env.regs.5",
// "pm.counter.3"). The struct tags are the only place a key is described:
// Set, Get, Keys, Info, Dump and Validate all work by reflection over them,
// so adding a key is adding one tagged field. Errors name the key, and for
// files its "file:line:col"; an unknown key comes with the nearest known
// one. Dump writes every key with a comment, and its output loads back to
// the same Config; presets/h100.yaml and presets/small.yaml are Dump's
// output for the presets (a test keeps them in step; regenerate them with
// go test ./config -run TestPresetFiles -update).
//
// The package holds configuration only: no model state, no global mutable
// variables (the key table is computed once and never written). It does not
// decide how units use the values: it records their meaning and unit, and
// rejects values no unit could honour (a warp size other than 32, more
// schedulers than warps, a register file that is not a whole number of
// allocation units, a watchdog shorter than the longest nanosleep).
package config
