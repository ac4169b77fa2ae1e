// Package unitcfg is the one boundary between the user's configuration
// (package config) and the clocked units: it maps a config.Config to each
// unit's Params, the Verilog module's parameters. The units themselves
// take Params and never import config, as a Verilog module takes its
// parameters and knows nothing of the tool that sets them.
package unitcfg

import (
	"fmt"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/warpsched"
)

// Policy is the warp_sched policy of a sched.policy value.
func Policy(p config.SchedPolicy) (warpsched.Policy, error) {
	switch p {
	case config.PolicyLRR:
		return warpsched.PolicyLRR, nil
	case config.PolicyGTO:
		return warpsched.PolicyGTO, nil
	case config.PolicyTwoLevel:
		return warpsched.PolicyTwoLevel, nil
	}
	return 0, fmt.Errorf("sched.policy: unknown policy %q", p)
}

// WarpSched is the parameters of each of the SM's warp schedulers: the
// warp slots are dealt round-robin to sched.count schedulers.
func WarpSched(cfg config.Config) (warpsched.Params, error) {
	pol, err := Policy(cfg.Sched.Policy)
	if err != nil {
		return warpsched.Params{}, err
	}
	n := 0
	if cfg.Sched.Count > 0 {
		n = cfg.SM.MaxWarps / cfg.Sched.Count
	}
	return warpsched.Params{NumWarps: n, Policy: pol, TwoLevelActive: cfg.Sched.TwoLevelActive}, nil
}

// TrapUnit is the parameters of the SM's trap unit.
func TrapUnit(cfg config.Config) trapunit.Params {
	return trapunit.Params{NumWarps: cfg.SM.MaxWarps, NumPorts: cfg.Sched.Count, HasHandler: cfg.Trap.Handler != ""}
}

// ClockTimer is the parameters of the SM's clock_timer.
func ClockTimer(cfg config.Config) clocktimer.Params {
	return clocktimer.Params{
		NumWarps:     cfg.SM.MaxWarps,
		NumPorts:     cfg.Sched.Count,
		MHz:          cfg.Clock.MHz,
		ClockStart:   cfg.Clock.Start,
		ResolutionNs: cfg.Timer.ResolutionNs,
		TimerStartNs: cfg.Timer.StartNs,
	}
}

// SleepMode is clock_timer's nanosleep mode for sleep.mode.
func SleepMode(m config.SleepMode) clocktimer.SleepMode {
	if m == config.SleepUniform {
		return clocktimer.SleepUniform
	}
	return clocktimer.SleepExact
}

// RegPool is the parameters of the SM's reg_pool.
func RegPool(cfg config.Config) regpool.Params {
	return regpool.Params{
		NumCTAs:          cfg.SM.MaxCTAs,
		NumPorts:         cfg.Sched.Count,
		AllocGranularity: cfg.RegPool.AllocGranularity,
		MaxThreadsPerCTA: cfg.SM.MaxThreadsPerCTA,
		MaxRegsPerThread: cfg.SM.MaxRegsPerThread,
		Regfile:          cfg.SM.Regfile,
		RegAllocUnit:     cfg.SM.RegAllocUnit,
	}
}

// StallIndex is the stall_count_i index of perf_mon for a stall state
// named by config.StallStates ("any" is 0).
func StallIndex(state string) (int, bool) {
	for i, s := range config.StallStates() {
		if s == state && i < perfmon.NumStallStates {
			return i, true
		}
	}
	return 0, false
}

// Counter is perf_mon's counter for a parsed pm.counter.N.
func Counter(c config.PMCounter) (perfmon.Counter, error) {
	switch c.Kind {
	case config.PMOff:
		return perfmon.Counter{Kind: perfmon.Off}, nil
	case config.PMCycles:
		return perfmon.Counter{Kind: perfmon.Cycles}, nil
	case config.PMInstructions:
		return perfmon.Counter{Kind: perfmon.Instructions}, nil
	case config.PMEvents:
		return perfmon.Counter{Kind: perfmon.Events, Mask: c.Mask}, nil
	case config.PMStall:
		k, ok := StallIndex(c.State)
		if !ok {
			return perfmon.Counter{}, fmt.Errorf("unknown stall state %q", c.State)
		}
		return perfmon.Counter{Kind: perfmon.Stall, Stall: k}, nil
	}
	return perfmon.Counter{}, fmt.Errorf("unknown counter kind %d", c.Kind)
}

// PerfMon is the parameters of the SM's perf_mon.
func PerfMon(cfg config.Config) (perfmon.Params, error) {
	pcs, err := cfg.PMCounters()
	if err != nil {
		return perfmon.Params{}, err
	}
	p := perfmon.Params{NumPorts: cfg.Sched.Count}
	for i, c := range pcs {
		if p.Counters[i], err = Counter(c); err != nil {
			return perfmon.Params{}, fmt.Errorf("pm.counter.%d: %v", i, err)
		}
	}
	return p, nil
}
