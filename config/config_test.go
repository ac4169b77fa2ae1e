package config_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
)

var update = flag.Bool("update", false, "rewrite presets/*.yaml and testdata golden files")

func dump(t testing.TB, c config.Config) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, c.Dump(&b))
	return b.Bytes()
}

func TestPresetsValid(t *testing.T) {
	assert.Equal(t, []string{"h100", "small"}, config.Presets())
	for _, name := range config.Presets() {
		c, err := config.Preset(name)
		require.NoError(t, err, name)
		assert.NoError(t, c.Validate(), name)
	}
	h, _ := config.Preset("h100")
	assert.Equal(t, config.Default(), h)

	_, err := config.Preset("big")
	require.Error(t, err)
	assert.Equal(t, `unknown preset "big" (presets: h100, small)`, err.Error())

	s, _ := config.Preset("small")
	assert.Equal(t, 2, s.Sched.Count)
	assert.Equal(t, 8, s.SM.MaxWarps)
	assert.Equal(t, 4, s.SM.MaxCTAs)
	assert.Equal(t, 8192, s.SM.Regfile)
	assert.Equal(t, 16384, s.SM.SmemBytes)

	// The H100 figures the brief fixes.
	assert.Equal(t, 1755, h.Clock.MHz)
	assert.Equal(t, uint64(32), h.Timer.ResolutionNs)
	assert.Equal(t, 4, h.Sched.Count)
	assert.Equal(t, 64, h.SM.MaxWarps)
	assert.Equal(t, 233472, h.SM.SmemBytes)
	assert.Equal(t, uint64(1), h.Grid.ID)

	// The memory-system figures of issue 19.
	assert.Equal(t, 262144, h.L1.UnifiedBytes)
	assert.Equal(t, 32, h.L1.HitLatency)
	assert.Equal(t, 264, h.L2.LatencyNear)
	assert.Equal(t, 502, h.L2.LatencyFar)
	assert.Equal(t, uint64(50<<20), h.L2.Bytes)
	assert.Equal(t, 655, h.DRAM.Latency)
	assert.Equal(t, 3350, h.DRAM.BandwidthGBs)
	assert.Equal(t, 32, h.Smem.Banks)
	assert.Equal(t, 4, h.Smem.BankBytes)
	// The small preset's L1 and shared memory fit its unified storage.
	assert.Equal(t, s.SM.SmemBytes, s.L1.SmemCarveoutBytes)
}

// The shipped presets/*.yaml are Dump's output for the Go presets, and load
// back to them.
func TestPresetFiles(t *testing.T) {
	for _, name := range config.Presets() {
		c, _ := config.Preset(name)
		want := dump(t, c)
		path := filepath.Join("presets", name+".yaml")
		if *update {
			require.NoError(t, os.WriteFile(path, want, 0o644))
		}
		got, err := config.PresetYAML(name)
		require.NoError(t, err)
		onDisk, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(onDisk), "%s is stale: go test ./config -run TestPresetFiles -update", path)
		if !*update {
			assert.Equal(t, string(want), string(got), "embedded %s", path)
		}
		back, err := config.Load(path, config.Config{})
		require.NoError(t, err)
		assert.Equal(t, c, back)
	}
	_, err := config.PresetYAML("nope")
	assert.Error(t, err)
}

func TestDumpRoundTrip(t *testing.T) {
	odd := config.Default()
	for _, kv := range []string{
		"clock.start=0xffff_ffff_ffff_fff0", "timer.start_ns=12345",
		"sched.policy=two_level", "env.regs.0=0xdeadbeef", "env.regs.31=7",
		"graph.exec=0x8000000000000000", "trap.handler=$handler_0",
		"regpool.strict=false", "sleep.mode=uniform", "pm.counter.2=stall:not_selected",
		"pm.counter.7=events:0xffff", "pm.counter.6=off", "run.seed=0",
	} {
		require.NoError(t, odd.Set(kv), kv)
	}
	small, _ := config.Preset("small")
	for _, c := range []config.Config{config.Default(), small, odd} {
		text := dump(t, c)
		for _, base := range []config.Config{{}, config.Default(), small} {
			back, err := config.Parse("dump.yaml", text, base)
			require.NoError(t, err, "%s", text)
			assert.Equal(t, c, back)
		}
		assert.Equal(t, string(text), string(dump(t, c)), "Dump is deterministic")
	}
}

func TestKeys(t *testing.T) {
	keys := config.Keys()
	assert.Equal(t, keys, config.Keys(), "stable")
	keys[0] = "mutated"
	assert.NotEqual(t, "mutated", config.Keys()[0], "Keys returns a copy")
	keys = config.Keys()

	seen := map[string]bool{}
	c := config.Default()
	for _, k := range keys {
		assert.False(t, seen[k], "duplicate key %s", k)
		seen[k] = true
		v, err := c.Get(k)
		require.NoError(t, err, k)
		before := c
		require.NoError(t, c.Set(k+"="+v), "Set(Get(%s))", k)
		assert.Equal(t, before, c, "Set(%s=Get) changes nothing", k)
		info, err := config.Info(k)
		require.NoError(t, err)
		assert.NotEmpty(t, info.Doc, k)
		assert.NotEmpty(t, info.Accepts, k)
	}
	for _, k := range []string{"clock.mhz", "sched.count", "env.regs.0", "env.regs.31", "pm.counter.7", "run.seed", "sm.warp_size"} {
		assert.True(t, seen[k], "missing %s", k)
	}
	// Sorted, with numeric segments in numeric order.
	i2, i10 := indexOf(keys, "env.regs.2"), indexOf(keys, "env.regs.10")
	assert.Less(t, i2, i10)
	assert.True(t, sort.SliceIsSorted(keys[:indexOf(keys, "env.regs.0")], func(i, j int) bool { return keys[i] < keys[j] }))

	golden := filepath.Join("testdata", "keys.golden")
	text := strings.Join(keys, "\n") + "\n"
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(golden, []byte(text), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), text, "the key set changed; if intended: go test ./config -run TestKeys -update")
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func TestInfo(t *testing.T) {
	ki, err := config.Info("sched.count")
	require.NoError(t, err)
	assert.Equal(t, "int64", ki.Type)
	assert.Equal(t, "schedulers", ki.Unit)
	assert.Contains(t, ki.Accepts, "1..8")

	ki, err = config.Info("sched.policy")
	require.NoError(t, err)
	assert.Equal(t, "enum", ki.Type)
	assert.Equal(t, "one of lrr, gto, two_level", ki.Accepts)

	ki, err = config.Info("sm.smem_bytes")
	require.NoError(t, err)
	assert.Contains(t, ki.Accepts, "KiB/MiB/GiB")

	ki, err = config.Info("env.regs")
	require.NoError(t, err)
	assert.Equal(t, "list", ki.Type)

	ki, err = config.Info("sched")
	require.NoError(t, err)
	assert.Equal(t, "section", ki.Type)

	_, err = config.Info("sched.cnt")
	assert.EqualError(t, err, `unknown config key "sched.cnt" (did you mean sched.count?)`)
}

func TestGet(t *testing.T) {
	c := config.Default()
	for _, tc := range []struct{ key, want string }{
		{"clock.mhz", "1755"},
		{"sched.policy", "gto"},
		{"regpool.strict", "true"},
		{"trap.handler", ""},
		{"pm.counter.0", "cycles"},
		{"sched", "{policy: gto, count: 4, two_level_active: 8}"},
		{"pm.counter", "[cycles, instructions, 'event:0', 'event:1', 'event:2', 'event:3', 'event:4', 'event:5']"},
	} {
		got, err := c.Get(tc.key)
		require.NoError(t, err, tc.key)
		assert.Equal(t, tc.want, got, tc.key)
	}
	_, err := c.Get("nope")
	assert.Error(t, err)
}

func TestPMCounter(t *testing.T) {
	for _, tc := range []struct {
		in, canon string
		kind      config.PMKind
		mask      uint16
	}{
		{"off", "off", config.PMOff, 0},
		{"cycles", "cycles", config.PMCycles, 0},
		{"instructions", "instructions", config.PMInstructions, 0},
		{"event:0", "event:0", config.PMEvents, 1},
		{"event:15", "event:15", config.PMEvents, 0x8000},
		{"events:0x0003", "events:0x0003", config.PMEvents, 3},
		{"events:4", "event:2", config.PMEvents, 4},
		{"stall:barrier", "stall:barrier", config.PMStall, 0},
	} {
		p, err := config.ParsePMCounter(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.kind, p.Kind, tc.in)
		assert.Equal(t, tc.mask, p.Mask, tc.in)
		assert.Equal(t, tc.canon, p.String(), tc.in)
	}
	for _, bad := range []string{"", "event", "event:16", "event:-1", "events:0", "events:0x10000", "stall:", "stall:nap", "Cycles", "cycles:1"} {
		_, err := config.ParsePMCounter(bad)
		assert.Error(t, err, bad)
	}
	pms, err := config.Default().PMCounters()
	require.NoError(t, err)
	assert.Equal(t, config.PMCycles, pms[0].Kind)
	assert.Equal(t, config.PMInstructions, pms[1].Kind)
	assert.Equal(t, uint16(1<<5), pms[7].Mask)
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *config.Config)
		key  string // the key the error names
	}{
		{"warp size", func(c *config.Config) { c.SM.WarpSize = 64 }, "sm.warp_size"},
		{"sched count range", func(c *config.Config) { c.Sched.Count = 9 }, "sched.count"},
		{"uneven schedulers", func(c *config.Config) { c.Sched.Count = 3 }, "sched.count"},
		{"more schedulers than warps", func(c *config.Config) { c.SM.MaxWarps = 2 }, "sched.count"},
		{"policy", func(c *config.Config) { c.Sched.Policy = "rr" }, "sched.policy"},
		{"two-level set too big", func(c *config.Config) { c.Sched.TwoLevelActive = 17 }, "sched.two_level_active"},
		{"sm id", func(c *config.Config) { c.SM.ID = 132 }, "sm.id"},
		{"ctas", func(c *config.Config) { c.SM.MaxCTAs = 65 }, "sm.max_ctas"},
		{"threads per cta", func(c *config.Config) { c.SM.MaxWarps, c.SM.MaxCTAs, c.Sched.TwoLevelActive = 16, 16, 4 }, "sm.max_threads_per_cta"},
		{"regfile", func(c *config.Config) { c.SM.Regfile = 65536 + 128 }, "sm.regfile"},
		{"reg unit", func(c *config.Config) { c.SM.RegAllocUnit = 48; c.SM.Regfile = 48 * 1000 }, "sm.reg_alloc_unit"},
		{"granularity", func(c *config.Config) { c.RegPool.AllocGranularity = 3 }, "regpool.alloc_granularity"},
		{"granularity vs unit", func(c *config.Config) { c.RegPool.AllocGranularity = 4 }, "regpool.alloc_granularity"},
		{"warp regs", func(c *config.Config) { c.SM.Regfile = 4096 }, "sm.max_regs_per_thread"},
		{"smem unit", func(c *config.Config) { c.SM.SmemAllocUnit = 96 }, "sm.smem_alloc_unit"},
		{"smem multiple", func(c *config.Config) { c.SM.SmemBytes = 233472 + 64 }, "sm.smem_bytes"},
		{"smem per cta", func(c *config.Config) { c.SM.MaxSmemPerCTA = 233472 }, "sm.max_smem_per_cta"},
		{"pm", func(c *config.Config) { c.PM.Counter[4] = "bogus" }, "pm.counter.4"},
		{"handler", func(c *config.Config) { c.Trap.Handler = "1st" }, "trap.handler"},
		{"sleep", func(c *config.Config) { c.Sleep.Mode = "fast" }, "sleep.mode"},
		{"latency", func(c *config.Config) { c.Lat.Global = 0 }, "lat.global"},
		{"watchdog", func(c *config.Config) { c.Run.WatchdogCycles = 1000 }, "run.watchdog_cycles"},
		{"resolution", func(c *config.Config) { c.Timer.ResolutionNs = 0 }, "timer.resolution_ns"},
		{"carveout above the L1", func(c *config.Config) { c.L1.SmemCarveoutBytes = 300 << 10 }, "l1.smem_carveout_bytes"},
		{"carveout leaves no set", func(c *config.Config) { c.L1.SmemCarveoutBytes = 262144 - 256 }, "l1.smem_carveout_bytes"},
		{"L1 sets", func(c *config.Config) { c.L1.Sets = 3 }, "l1.smem_carveout_bytes"},
		{"carveouts not numbers", func(c *config.Config) { c.L1.SmemCarveouts = "0,8,lots" }, "l1.smem_carveouts"},
		{"carveouts falling", func(c *config.Config) { c.L1.SmemCarveouts = "0,16,8" }, "l1.smem_carveouts"},
		{"carveouts too big", func(c *config.Config) { c.L1.SmemCarveouts = "0,20000" }, "l1.smem_carveouts"},
		{"carveout leaves no L1", func(c *config.Config) { c.L1.SmemCarveouts = "0,256" }, "l1.smem_carveouts"},
		{"preference above the carveouts", func(c *config.Config) { c.L1.SmemCarveouts = "0,8"; c.L1.SmemCarveoutBytes = 16384 }, "l1.smem_carveout_bytes"},
		{"L1 line fixed", func(c *config.Config) { c.L1.LineBytes = 64 }, "l1.line_bytes"},
		{"L1 hit latency", func(c *config.Config) { c.L1.HitLatency = 1 }, "l1.hit_latency"},
		{"MSHRs", func(c *config.Config) { c.L1.MSHRs = 0 }, "l1.mshrs"},
		{"banks", func(c *config.Config) { c.Smem.Banks = 24 }, "smem.banks"},
		{"bank width", func(c *config.Config) { c.Smem.BankBytes = 6 }, "smem.bank_bytes"},
		{"L2 capacity share", func(c *config.Config) { c.L2.CapacitySMs = 133 }, "l2.capacity_sms"},
		{"L2 slice below a set", func(c *config.Config) { c.L2.Bytes = 2048; c.L2.CapacitySMs = 2 }, "l2.capacity_sms"},
		{"L2 near below L1", func(c *config.Config) { c.L2.LatencyNear = 30 }, "l2.latency_near"},
		{"L2 far below near", func(c *config.Config) { c.L2.LatencyFar = 200 }, "l2.latency_far"},
		{"L2 partitions", func(c *config.Config) { c.L2.Partitions = 0 }, "l2.partitions"},
		{"L2 bandwidth", func(c *config.Config) { c.L2.BandwidthGBs = 0 }, "l2.bandwidth_gbs"},
		{"DRAM below L2", func(c *config.Config) { c.DRAM.Latency = 264 }, "dram.latency"},
		{"DRAM bandwidth", func(c *config.Config) { c.DRAM.BandwidthGBs = 0 }, "dram.bandwidth_gbs"},
		{"DRAM queue", func(c *config.Config) { c.DRAM.Queue = 0 }, "dram.queue"},
		{"constant line", func(c *config.Config) { c.Const.LineBytes = 48 }, "const_cache.line_bytes"},
		{"constant size", func(c *config.Config) { c.Const.Bytes = 1000 }, "const_cache.bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := config.Default()
			tc.edit(&c)
			err := c.Validate()
			require.Error(t, err)
			var ce *config.Error
			require.True(t, errors.As(err, &ce))
			assert.Equal(t, tc.key, ce.Key, err.Error())
			assert.True(t, strings.HasPrefix(err.Error(), tc.key+": "), err.Error())
		})
	}
	c := config.Default()
	c.Run.WatchdogCycles = 0
	c.Run.MaxCycles = 0
	assert.NoError(t, c.Validate(), "0 disables the watchdog and the cycle limit")

	// Several problems are reported together.
	c = config.Default()
	c.Lat.ALU, c.Lat.FP = 0, 0
	err := c.Validate()
	require.Error(t, err)
	assert.Len(t, err.(config.ErrorList), 2)
}

// The driver's choice of carveout (config.L1.Carveout): the smallest listed
// size that holds both the preference and the resident CTAs' need.
func TestCarveout(t *testing.T) {
	l1 := config.Default().L1
	for _, tc := range []struct {
		pref, need, want int
		ok               bool
	}{
		{0, 0, 0, true},
		{0, 1, 8 << 10, true},
		{0, 64 << 10, 64 << 10, true},
		{0, 64<<10 + 1, 100 << 10, true},
		{40 << 10, 10 << 10, 64 << 10, true},
		{0, 228 << 10, 228 << 10, true},
		{0, 228<<10 + 1, 228 << 10, false},
	} {
		l1.SmemCarveoutBytes = tc.pref
		got, ok := l1.Carveout(tc.need)
		assert.Equal(t, tc.want, got, "preference %d, need %d", tc.pref, tc.need)
		assert.Equal(t, tc.ok, ok, "preference %d, need %d", tc.pref, tc.need)
	}
	l1.SmemCarveouts, l1.SmemCarveoutBytes = "", 16384
	got, ok := l1.Carveout(20000)
	assert.Equal(t, 16384, got)
	assert.False(t, ok)
	kibs, err := config.ParseKiBs(" 0, 8 ,16")
	assert.NoError(t, err)
	assert.Equal(t, []int{0, 8192, 16384}, kibs)
	for _, bad := range []string{",", "8,8", "-1", "1.5", "0,,8", "16385"} {
		_, err := config.ParseKiBs(bad)
		assert.Error(t, err, bad)
	}
}
