package config_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
)

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		kv   string
		key  string // key to Get after a successful Set ("" = the kv's key)
		want string // Get's result, or the error text when err is set
		err  bool
	}{
		// int
		{kv: "sched.count=2", want: "2"},
		{kv: " sched.count = 2 ", key: "sched.count", want: "2"},
		{kv: "sched.count=0x4", want: "4"},
		{kv: "sched.count=0b11", want: "3"},
		{kv: "sched.count=0o7", want: "7"},
		{kv: "sm.max_warps=010", want: "10"}, // leading zero: decimal, not octal
		{kv: "run.max_cycles=1_000_000", want: "1000000"},
		{kv: "sched.count=9", err: true, want: "sched.count: 9 is out of range; want an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)"},
		{kv: "sched.count=0", err: true, want: "sched.count: 0 is out of range; want an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)"},
		{kv: "sched.count=-1", err: true, want: "sched.count: -1 is out of range; want an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)"},
		{kv: "sched.count=two", err: true, want: `sched.count: "two" is not an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		{kv: "sched.count=2.5", err: true, want: `sched.count: "2.5" is not an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		{kv: "sched.count=", err: true, want: `sched.count: "" is not an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		{kv: "sched.count=99999999999999999999999", err: true, want: `sched.count: "99999999999999999999999" is not an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		// uint64 and uint32, hex
		{kv: "clock.start=0xffffffff_00000000", want: "18446744069414584320"},
		{kv: "grid.id=18446744073709551615", want: "18446744073709551615"},
		{kv: "clock.start=-1", err: true, want: "clock.start: -1 is negative; want an integer in 0..18446744073709551615 (decimal, 0x hex, 0o octal, 0b binary, _ separators)"},
		{kv: "env.regs.5=0x10", want: "16"},
		{kv: "env.regs.0=0xffffffff", want: "4294967295"},
		{kv: "env.regs.0=0x1_0000_0000", err: true, want: "env.regs.0: 0x1_0000_0000 is out of range; want an integer in 0..4294967295 (decimal, 0x hex, 0o octal, 0b binary, _ separators)"},
		// unit suffixes
		{kv: "sm.smem_bytes=228KiB", want: "233472"},
		{kv: "sm.global_bytes=1GiB", want: "1073741824"},
		{kv: "sm.global_bytes=16 MiB", want: "16777216"},
		{kv: "timer.resolution_ns=1us", want: "1000"},
		{kv: "timer.resolution_ns=32ns", want: "32"},
		{kv: "timer.start_ns=2s", want: "2000000000"},
		{kv: "timer.resolution_ns=0", err: true, want: "timer.resolution_ns: 0 is out of range; want an integer in 1..1000000000 (decimal, 0x hex, 0o octal, 0b binary, _ separators, suffix ns/us/ms/s)"},
		{kv: "sched.count=2KiB", err: true, want: `sched.count: "2KiB" is not an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)`},
		// bool
		{kv: "regpool.strict=false", want: "false"},
		{kv: "regpool.strict=TRUE", want: "true"},
		{kv: "regpool.strict=off", want: "false"},
		{kv: "regpool.strict=1", want: "true"},
		{kv: "regpool.strict=maybe", err: true, want: `regpool.strict: "maybe" is not a boolean (want true or false)`},
		// enums
		{kv: "sched.policy=two_level", want: "two_level"},
		{kv: "sched.policy=LRR", want: "lrr"},
		{kv: "sleep.mode=uniform", want: "uniform"},
		{kv: "sched.policy=rr", err: true, want: `sched.policy: "rr" is not one of lrr, gto, two_level`},
		{kv: "sleep.mode=", err: true, want: `sleep.mode: "" is not one of exact, uniform`},
		// fixed
		{kv: "sm.warp_size=32", want: "32"},
		{kv: "sm.warp_size=64", err: true, want: "sm.warp_size: is fixed at 32 and cannot be changed (got 64)"},
		// checked strings
		{kv: "trap.handler=my_trap", want: "my_trap"},
		{kv: "trap.handler=", want: ""},
		{kv: "trap.handler=9lives", err: true, want: `trap.handler: "9lives" is not a PTX identifier`},
		{kv: "pm.counter.3=stall:barrier", want: "stall:barrier"},
		{kv: "pm.counter.2=events:0xff", want: "events:0xff"},
		{kv: "pm.counter.2=event:16", err: true, want: `pm.counter.2: "event:16": pmevent event number must be 0..15`},
		{kv: "pm.counter.3=stall:nap", err: true, want: `pm.counter.3: "stall:nap": unknown stall state (states: any, fetch, scoreboard, memory, barrier, sleep, regpool, drain, paused, trapped, not_selected)`},
		// lists and sections as YAML flow values
		{kv: "env.regs=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]", key: "env.regs.31", want: "32"},
		{kv: "env.regs={3: 0x30}", key: "env.regs.3", want: "48"},
		{kv: "sched={count: 2, policy: lrr}", key: "sched", want: "{policy: lrr, count: 2, two_level_active: 8}"},
		{kv: "env.regs=[1, 2, 3]", err: true, want: "env.regs: a list of 3 values, want 32 (a mapping {index: value} sets single elements)"},
		{kv: "sched={cnt: 2}", err: true, want: `unknown config key "sched.cnt" (did you mean sched.count?)`},
		{kv: "sched={count: [1]}", err: true, want: "sched.count: want a single value (an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)); got a list"},
		// unknown keys and malformed overrides
		{kv: "sched.cnt=2", err: true, want: `unknown config key "sched.cnt" (did you mean sched.count?)`},
		{kv: "lat.globl=300", err: true, want: `unknown config key "lat.globl" (did you mean lat.global?)`},
		{kv: "count=2", err: true, want: `unknown config key "count" (did you mean sched.count or sm.count?)`},
		{kv: "env.regs.32=1", err: true, want: `unknown config key "env.regs.32" (env.regs has elements 0..31)`},
		{kv: "sched.zzzzzzzzzz=1", err: true, want: `unknown config key "sched.zzzzzzzzzz" (sched has: policy, count, two_level_active)`},
		{kv: "bogus=1", err: true, want: `unknown config key "bogus"`},
		{kv: "preset=small", err: true, want: `unknown config key "preset" (a preset is chosen by a top-level "preset:" in a file, or by the command's preset option)`},
		{kv: "sched.count", err: true, want: `bad override "sched.count": want key=value`},
		{kv: "=2", err: true, want: `bad override "=2": want key=value`},
	} {
		t.Run(tc.kv, func(t *testing.T) {
			c := config.Default()
			before := c
			err := c.Set(tc.kv)
			if tc.err {
				require.Error(t, err)
				assert.Equal(t, tc.want, err.Error())
				assert.Equal(t, before, c, "a failed Set leaves the config unchanged")
				return
			}
			require.NoError(t, err)
			key := tc.key
			if key == "" {
				key = tc.kv[:indexByte(tc.kv, '=')]
			}
			got, err := c.Get(key)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

func TestSetErrorType(t *testing.T) {
	c := config.Default()
	err := c.Set("sched.count=9")
	var ce *config.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "sched.count", ce.Key)
	assert.Zero(t, ce.Line, "--set errors have no file position")
}
