package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/diag"
)

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // the whole error text
	}{
		{"unknown key", "sched:\n  cnt: 2\n",
			`f.yaml:2:3: unknown config key "sched.cnt" (did you mean sched.count?)`},
		{"unknown section", "shced:\n  count: 2\n",
			`f.yaml:1:1: unknown config key "shced" (did you mean sched?)`},
		{"bad type", "sched:\n  count: two\n",
			`f.yaml:2:10: sched.count: "two" is not an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		{"out of range", "sched:\n  count: 16\n",
			`f.yaml:2:10: sched.count: 16 is out of range; want an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		{"bad enum", "sched: {policy: fifo}\n",
			`f.yaml:1:17: sched.policy: "fifo" is not one of lrr, gto, two_level`},
		{"bad bool", "regpool:\n  strict: sometimes\n",
			`f.yaml:2:11: regpool.strict: "sometimes" is not a boolean (want true or false)`},
		{"missing value", "sched:\n  count:\n",
			`f.yaml:2:9: sched.count: missing value; want an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		{"section is scalar", "sched: 3\n",
			`f.yaml:1:8: sched: want a mapping of policy, count, two_level_active; got the value "3"`},
		{"leaf is mapping", "sched:\n  count: {a: 1}\n",
			`f.yaml:2:10: sched.count: want a single value (an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)); got a mapping`},
		{"root is list", "- 1\n",
			`f.yaml:1:1: a config file is a mapping of sections (clock, timer, sched, sm, lat, mem, pipe, l1, smem, l2, dram, const_cache, grid, env, graph, trap, regpool, sleep, pm, run); got a list`},
		{"duplicate key", "sched:\n  count: 2\n  count: 4\n",
			`f.yaml:3:3: duplicate key sched.count (first at line 2)`},
		{"short list", "pm:\n  counter: [cycles]\n",
			`f.yaml:2:12: pm.counter: a list of 1 values, want 8 (a mapping {index: value} sets single elements)`},
		{"bad index", "env:\n  regs: {32: 1}\n",
			`f.yaml:2:10: env.regs: the value "32" is not an element index 0..31`},
		{"bad element", "env:\n  regs: {1: -1}\n",
			`f.yaml:2:13: env.regs.1: -1 is negative; want an integer in 0..4294967295 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		{"unknown preset", "preset: big\n",
			`f.yaml:1:9: preset: unknown preset "big" (presets: h100, small)`},
		{"warp size", "sm:\n  warp_size: 64\n",
			`f.yaml:2:14: sm.warp_size: is fixed at 32 and cannot be changed (got 64)`},
		{"second document", "sched: {count: 2}\n---\nsched: {count: 4}\n",
			`f.yaml:2:1: a config file holds one YAML document; found a second`},
		{"syntax", "sched:\n  count: 2\n bad\n",
			`f.yaml: yaml: line 2: did not find expected key`},
		{"several errors, sorted", "sched:\n  policy: x\n  cnt: 1\nlat: {alu: 0}\n",
			"f.yaml:2:11: sched.policy: \"x\" is not one of lrr, gto, two_level\n" +
				"f.yaml:3:3: unknown config key \"sched.cnt\" (did you mean sched.count?)\n" +
				"f.yaml:4:12: lat.alu: 0 is out of range; want an integer in 1..100000 (decimal, 0x hex, 0o octal, 0b binary, _ separators)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse("f.yaml", []byte(tc.src), config.Default())
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestLoadErrorFields(t *testing.T) {
	_, err := config.Parse("f.yaml", []byte("sched:\n  cnt: 2\n"), config.Default())
	var ce *config.Error
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, config.Error{Pos: diag.Pos{File: "f.yaml", Line: 2, Col: 3}, Key: "sched.cnt",
		Msg: `unknown config key "sched.cnt" (did you mean sched.count?)`}, *ce)
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sweep.yaml")
	src := `# a sweep point
preset: small
sched:
  count: 1        # one scheduler
  policy: gto
sm:
  smem_bytes: 32KiB
  max_smem_per_cta: 31KiB
env:
  regs: {5: 0x10, 31: 7}
pm:
  counter: {3: "stall:barrier"}
trap:
  handler: my_trap
timer:
  resolution_ns: 1us
`
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	got, err := config.Load(path, config.Default())
	require.NoError(t, err)

	want, _ := config.Preset("small")
	want.Sched.Count = 1
	want.Sched.Policy = config.PolicyGTO
	want.SM.SmemBytes = 32 << 10
	want.SM.MaxSmemPerCTA = 31 << 10
	want.Env.Regs[5] = 16
	want.Env.Regs[31] = 7
	want.PM.Counter[3] = "stall:barrier"
	want.Trap.Handler = "my_trap"
	want.Timer.ResolutionNs = 1000
	assert.Equal(t, want, got)
	assert.NoError(t, got.Validate())

	// Positions name the real file.
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("lat:\n  global: slow\n"), 0o644))
	_, err = config.Load(bad, config.Default())
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), bad+":2:11: lat.global: "), err.Error())

	_, err = config.Load(filepath.Join(dir, "missing.yaml"), config.Default())
	assert.Error(t, err)
}

func TestParseKeepsBase(t *testing.T) {
	small, _ := config.Preset("small")
	for _, src := range []string{"", "\n", "# only a comment\n", "~\n", "---\n", "sched:\n"} {
		got, err := config.Parse("f.yaml", []byte(src), small)
		require.NoError(t, err, "%q", src)
		assert.Equal(t, small, got, "%q", src)
	}
	// A file changes only what it names.
	got, err := config.Parse("f.yaml", []byte("lat: {global: 500}\n"), small)
	require.NoError(t, err)
	want := small
	want.Lat.Global = 500
	assert.Equal(t, want, got)
}

func TestParseAliases(t *testing.T) {
	src := "lat:\n  shared: &fast 3\n  param: *fast\n"
	got, err := config.Parse("f.yaml", []byte(src), config.Default())
	require.NoError(t, err)
	assert.Equal(t, 3, got.Lat.Param)
}
