package unitcfg_test

import (
	"go/build"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/unitcfg"
	"github.com/smsim/smsim/warpsched"
)

// Every preset maps to parameters every unit accepts, with the values of
// the configuration.
func TestPresets(t *testing.T) {
	for _, name := range config.Presets() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		wp, err := unitcfg.WarpSched(cfg)
		require.NoError(t, err, name)
		assert.Equal(t, cfg.SM.MaxWarps/cfg.Sched.Count, wp.NumWarps, name)
		assert.Equal(t, string(cfg.Sched.Policy), wp.Policy.String(), name)
		_, err = warpsched.New(wp)
		assert.NoError(t, err, name)
		_, err = trapunit.New(unitcfg.TrapUnit(cfg))
		assert.NoError(t, err, name)
		ct, err := clocktimer.New(unitcfg.ClockTimer(cfg))
		require.NoError(t, err, name)
		o := ct.Eval(clocktimer.Inputs{})
		assert.Equal(t, cfg.Clock.Start, o.Clock64, name)
		assert.Equal(t, cfg.Timer.StartNs-cfg.Timer.StartNs%cfg.Timer.ResolutionNs, o.GlobalTimer, name)
		rp := unitcfg.RegPool(cfg)
		assert.Equal(t, cfg.SM.MaxCTAs, rp.NumCTAs, name)
		assert.Equal(t, cfg.RegPool.AllocGranularity, rp.AllocGranularity, name)
		_, err = regpool.New(rp)
		assert.NoError(t, err, name)
		pp, err := unitcfg.PerfMon(cfg)
		require.NoError(t, err, name)
		_, err = perfmon.New(pp)
		assert.NoError(t, err, name)
		_, err = memsys.NewBanks(unitcfg.Banks(cfg))
		assert.NoError(t, err, name)
		mp, err := unitcfg.MemSys(cfg)
		require.NoError(t, err, name)
		assert.Equal(t, cfg.L1.UnifiedBytes-cfg.L1.SmemCarveoutBytes, mp.L1.SizeBytes, name)
		assert.Equal(t, cfg.L1.HitLatency-memsys.CoalescerCycles, mp.L1.HitLatency, name)
		assert.Equal(t, cfg.Lat.Param, mp.Const.HitLatency, name)
		_, err = memsys.NewHier(mp)
		assert.NoError(t, err, name)
		port, err := unitcfg.Port(cfg)
		require.NoError(t, err, name)
		assert.Equal(t, cfg.Lat.Shared, port.SharedLatency, name)
		assert.Equal(t, cfg.Mem.Inflight, port.Inflight, name)
		_, err = memsys.NewPort(port)
		assert.NoError(t, err, name)
		pt := unitcfg.PipeThrottle(cfg)
		assert.Equal(t, cfg.Sched.Count, pt.NumPorts, name)
		assert.Equal(t, [pipethrottle.NumPipes]int{cfg.Pipe.FP32, cfg.Pipe.INT32, cfg.Pipe.IMAD, cfg.Pipe.FP64, cfg.Pipe.SFU, cfg.Pipe.CVT}, pt.Rate, name)
		_, err = pipethrottle.New(pt)
		assert.NoError(t, err, name)
	}
}

// The h100 memory system: a 256 KiB L1 of 4 sets (512 ways), the whole
// 50 MiB L2 for this SM, and bandwidth shares of 3.35 TB/s and 6.37 TB/s
// over 132 SMs at 1755 MHz.
func TestMemSysH100(t *testing.T) {
	mp, err := unitcfg.MemSys(config.Default())
	require.NoError(t, err)
	assert.Equal(t, 512, mp.L1.Assoc)
	assert.Equal(t, uint64(50<<20), mp.L2.SliceBytes)
	assert.InDelta(t, 14.46, mp.L2.DRAM.BW.BytesPerCycle(), 0.01)
	assert.InDelta(t, 27.50, mp.L2.BW.BytesPerCycle(), 0.01)
	assert.Equal(t, 264-memsys.CoalescerCycles-memsys.L2PathCycles, mp.L2.LatNear)
	assert.Equal(t, 655-memsys.CoalescerCycles-memsys.DRAMPathCycles, mp.L2.DRAM.Latency)

	// The slice shrinks with l2.capacity_sms (rounded down to whole sets).
	cfg := config.Default()
	cfg.L2.CapacitySMs = 132
	mp, err = unitcfg.MemSys(cfg)
	require.NoError(t, err)
	assert.Equal(t, uint64(50<<20)/132/2048*2048, mp.L2.SliceBytes)

	// A configuration that skipped Validate gives an error naming keys,
	// not a panic.
	for _, edit := range []func(*config.Config){
		func(c *config.Config) { c.L1.HitLatency = 1 },
		func(c *config.Config) { c.L1.SmemCarveoutBytes = c.L1.UnifiedBytes },
		func(c *config.Config) { c.DRAM.BandwidthGBs = 0 },
		func(c *config.Config) { c.L2.CapacitySMs = 0 },
		func(c *config.Config) { c.Const.LineBytes = 3 },
	} {
		c := config.Default()
		edit(&c)
		_, err := unitcfg.MemSys(c)
		require.Error(t, err)
		assert.Regexp(t, `^(l1|l2|dram|const_cache)[.:, ]`, err.Error())
	}
}

func TestPolicies(t *testing.T) {
	for cp, wp := range map[config.SchedPolicy]warpsched.Policy{config.PolicyLRR: warpsched.PolicyLRR, config.PolicyGTO: warpsched.PolicyGTO, config.PolicyTwoLevel: warpsched.PolicyTwoLevel} {
		got, err := unitcfg.Policy(cp)
		assert.NoError(t, err)
		assert.Equal(t, wp, got)
		assert.Equal(t, string(cp), got.String())
	}
	_, err := unitcfg.Policy("fifo")
	assert.Error(t, err)
	assert.Equal(t, clocktimer.SleepUniform, unitcfg.SleepMode(config.SleepUniform))
	assert.Equal(t, clocktimer.SleepExact, unitcfg.SleepMode(config.SleepExact))
}

func TestCounters(t *testing.T) {
	for spec, want := range map[string]perfmon.Counter{
		"off":                {Kind: perfmon.Off},
		"cycles":             {Kind: perfmon.Cycles},
		"instructions":       {Kind: perfmon.Instructions},
		"event:3":            {Kind: perfmon.Events, Mask: 8},
		"events:0x8001":      {Kind: perfmon.Events, Mask: 0x8001},
		"stall:any":          {Kind: perfmon.Stall, Stall: 0},
		"stall:not_selected": {Kind: perfmon.Stall, Stall: 10},
	} {
		pc, err := config.ParsePMCounter(spec)
		require.NoError(t, err, spec)
		got, err := unitcfg.Counter(pc)
		assert.NoError(t, err, spec)
		assert.Equal(t, want, got, spec)
	}
	_, err := unitcfg.Counter(config.PMCounter{Kind: 9})
	assert.Error(t, err)
	_, err = unitcfg.Counter(config.PMCounter{Kind: config.PMStall, State: "nap"})
	assert.Error(t, err)
	cfg := config.Default()
	cfg.PM.Counter[3] = "bogus"
	_, err = unitcfg.PerfMon(cfg)
	assert.Error(t, err)
	// Every stall state has its stall_count_i index, in order.
	require.Len(t, config.StallStates(), perfmon.NumStallStates)
	for i, s := range config.StallStates() {
		k, ok := unitcfg.StallIndex(s)
		assert.True(t, ok, s)
		assert.Equal(t, i, k, s)
	}
	_, ok := unitcfg.StallIndex("nope")
	assert.False(t, ok)
}

// The units take Params and never import config: this package is the
// boundary.
func TestUnitsDoNotImportConfig(t *testing.T) {
	for _, pkg := range []string{"warpsched", "trapunit", "regpool", "clocktimer", "perfmon", "rtl", "memsys", "pipethrottle"} {
		p, err := build.Import("github.com/smsim/smsim/"+pkg, ".", 0)
		require.NoError(t, err, pkg)
		assert.False(t, slices.Contains(p.Imports, "github.com/smsim/smsim/config"), "%s imports config", pkg)
	}
}
