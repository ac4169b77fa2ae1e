package config_test

import (
	"fmt"

	"github.com/smsim/smsim/config"
)

func ExampleConfig_Set() {
	cfg := config.Default()
	for _, kv := range []string{
		"sched.count=2",
		"sched.policy=two_level",
		"sm.smem_bytes=100KiB",
		"env.regs.5=0x10",
		"sched.cnt=2",
	} {
		if err := cfg.Set(kv); err != nil {
			fmt.Println("error:", err)
		}
	}
	for _, k := range []string{"sched.count", "sched.policy", "sm.smem_bytes", "env.regs.5"} {
		v, _ := cfg.Get(k)
		fmt.Printf("%s = %s\n", k, v)
	}
	fmt.Println(cfg.Validate())
	// Output:
	// error: unknown config key "sched.cnt" (did you mean sched.count?)
	// sched.count = 2
	// sched.policy = two_level
	// sm.smem_bytes = 102400
	// env.regs.5 = 16
	// sm.max_smem_per_cta: 232448 plus sm.reserved_smem_bytes=1024 exceeds sm.smem_bytes=102400
}

func ExampleParse() {
	src := []byte("preset: small\nsched:\n  count: 1\n")
	cfg, err := config.Parse("point.yaml", src, config.Default())
	fmt.Println(cfg.Sched.Count, cfg.SM.MaxWarps, err)

	_, err = config.Parse("point.yaml", []byte("sched:\n  count: many\n"), config.Default())
	fmt.Println(err)
	// Output:
	// 1 8 <nil>
	// point.yaml:2:10: sched.count: "many" is not an integer in 1..8 (decimal, 0x hex, 0o octal, 0b binary, _ separators)
}
