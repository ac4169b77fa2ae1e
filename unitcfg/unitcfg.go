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
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/pipethrottle"
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

// Banks is the parameters of the shared-memory bank model.
func Banks(cfg config.Config) memsys.BankParams {
	return memsys.BankParams{Banks: cfg.Smem.Banks, BankBytes: cfg.Smem.BankBytes}
}

// MemSys is the parameters of the memory system behind the SM's port
// (package memsys): the L1 (its data part: l1.unified_bytes less the
// carveout), the constant cache, the L2 slice and the DRAM. The configured
// latencies are load-to-use figures; memsys.Figures.Derive turns them into
// the components' own. Bandwidths are this SM's share: the GPU's figure
// over sm.count at clock.mhz. Errors name the key to change.
func MemSys(cfg config.Config) (memsys.HierParams, error) {
	var p memsys.HierParams
	l1, l2 := cfg.L1, cfg.L2
	hit, near, far, dram, err := memsys.Figures{
		L1Hit: l1.HitLatency, L2Near: l2.LatencyNear, L2Far: l2.LatencyFar, DRAM: cfg.DRAM.Latency,
	}.Derive()
	if err != nil {
		return p, fmt.Errorf("l1.hit_latency, l2.latency_near, l2.latency_far, dram.latency: %v", err)
	}
	data := l1.UnifiedBytes - l1.SmemCarveoutBytes
	if l1.Sets < 1 || data < memsys.LineBytes*l1.Sets || data%(memsys.LineBytes*l1.Sets) != 0 {
		return p, fmt.Errorf("l1.smem_carveout_bytes: leaves %d bytes of L1, not a positive multiple of l1.sets=%d lines", data, l1.Sets)
	}
	p.L1 = memsys.L1Params{
		SizeBytes:   data,
		Assoc:       data / (memsys.LineBytes * l1.Sets),
		MSHRs:       l1.MSHRs,
		MSHRTargets: l1.MSHRTargets,
		HitLatency:  hit,
		InQueue:     l1.InQueue,
		MissQueue:   l1.MissQueue,
	}
	p.Const = memsys.ConstParams{
		SizeBytes:  cfg.Const.Bytes,
		LineBytes:  cfg.Const.LineBytes,
		Assoc:      cfg.Const.Assoc,
		HitLatency: cfg.Lat.Param,
		MSHRs:      cfg.Const.MSHRs,
		Queue:      cfg.Const.Queue,
	}
	l2bw, err := memsys.RateShare(l2.BandwidthGBs, cfg.SM.Count, cfg.Clock.MHz)
	if err != nil {
		return p, fmt.Errorf("l2.bandwidth_gbs: %v", err)
	}
	dbw, err := memsys.RateShare(cfg.DRAM.BandwidthGBs, cfg.SM.Count, cfg.Clock.MHz)
	if err != nil {
		return p, fmt.Errorf("dram.bandwidth_gbs: %v", err)
	}
	if l2.CapacitySMs < 1 || l2.Assoc < 1 {
		return p, fmt.Errorf("l2.capacity_sms, l2.assoc: %d, %d: want at least 1", l2.CapacitySMs, l2.Assoc)
	}
	set := uint64(memsys.LineBytes * l2.Assoc)
	slice := l2.Bytes / uint64(l2.CapacitySMs) / set * set
	if slice == 0 {
		return p, fmt.Errorf("l2.capacity_sms: the slice of l2.bytes=%d is less than one set of l2.assoc=%d lines", l2.Bytes, l2.Assoc)
	}
	home := 0
	if l2.Partitions > 0 {
		home = cfg.SM.ID % l2.Partitions
	}
	p.L2 = memsys.L2Params{
		SliceBytes:    slice,
		Assoc:         l2.Assoc,
		Partitions:    l2.Partitions,
		Home:          home,
		LatNear:       near,
		LatFar:        far,
		BW:            l2bw,
		Queue:         l2.Queue,
		AtomicLatency: l2.AtomicLatency,
		DRAM:          memsys.DRAMParams{Latency: dram, BW: dbw, Queue: cfg.DRAM.Queue},
	}
	if err := p.L1.Check(); err != nil {
		return p, fmt.Errorf("l1: %v", err)
	}
	if err := p.Const.Check(); err != nil {
		return p, fmt.Errorf("const_cache: %v", err)
	}
	if err := p.L2.Check(); err != nil {
		return p, fmt.Errorf("l2, dram: %v", err)
	}
	return p, nil
}

// Port is the parameters of the load/store unit's memory port (package
// memsys): the hierarchy of MemSys, the bank geometry, the shared-memory
// latency lat.shared and mem.inflight requests in flight.
func Port(cfg config.Config) (memsys.PortParams, error) {
	h, err := MemSys(cfg)
	if err != nil {
		return memsys.PortParams{}, err
	}
	p := memsys.PortParams{Hier: h, Banks: Banks(cfg), SharedLatency: cfg.Lat.Shared, Inflight: cfg.Mem.Inflight}
	if err := p.Check(); err != nil {
		return p, fmt.Errorf("smem, lat.shared, mem.inflight: %v", err)
	}
	return p, nil
}

// PipeThrottle is the parameters of the SM's pipe_throttle: one copy of
// every pipe per scheduler, at the pipe.* rates per SM.
func PipeThrottle(cfg config.Config) pipethrottle.Params {
	p := pipethrottle.Params{NumPorts: cfg.Sched.Count}
	pc := cfg.Pipe
	p.Rate[pipethrottle.FP32] = pc.FP32
	p.Rate[pipethrottle.INT32] = pc.INT32
	p.Rate[pipethrottle.IMAD] = pc.IMAD
	p.Rate[pipethrottle.FP64] = pc.FP64
	p.Rate[pipethrottle.SFU] = pc.SFU
	p.Rate[pipethrottle.CVT] = pc.CVT
	return p
}
