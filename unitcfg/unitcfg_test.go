package unitcfg_test

import (
	"go/build"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/perfmon"
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
	for _, pkg := range []string{"warpsched", "trapunit", "regpool", "clocktimer", "perfmon", "rtl"} {
		p, err := build.Import("github.com/smsim/smsim/"+pkg, ".", 0)
		require.NoError(t, err, pkg)
		assert.False(t, slices.Contains(p.Imports, "github.com/smsim/smsim/config"), "%s imports config", pkg)
	}
}
