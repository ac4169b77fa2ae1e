package config_test

import (
	"bytes"
	"testing"

	"github.com/smsim/smsim/config"
)

// FuzzLoad feeds arbitrary YAML to Parse: it must never panic, every error
// must have text, and whatever it accepts must survive Dump and Parse
// unchanged. Run it with
//
//	go test ./config -run '^$' -fuzz=FuzzLoad -fuzztime=30s -fuzzminimizetime=2s
//
// (the default minimisation budget of 60 s per new input stalls short runs,
// since the seeds are whole preset files).
func FuzzLoad(f *testing.F) {
	for _, name := range config.Presets() {
		b, err := config.PresetYAML(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"", "~", "- 1\n", "preset: small\nsched: {count: 2}\n",
		"sched:\n  cnt: 2\n", "env:\n  regs: {5: 0x10}\n", "pm:\n  counter: [a, b]\n",
		"a: &x {b: *x}\n", "sched: &s {count: 2}\nsm: *s\n", "lat: {global: 1e3}\n",
		"sm: {smem_bytes: 99999999999999999999KiB}\n", "timer: {resolution_ns: 5s}\n",
		"---\n---\n", "? [a]\n: 1\n", "<<: {sched: {count: 1}}\n", "clock:\n  mhz: !!binary AAAA\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := config.Parse("fuzz.yaml", data, config.Default())
		if err != nil {
			if err.Error() == "" {
				t.Fatal("error without text")
			}
			return
		}
		_ = cfg.Validate()
		var b bytes.Buffer
		if err := cfg.Dump(&b); err != nil {
			t.Fatal(err)
		}
		back, err := config.Parse("dump.yaml", b.Bytes(), config.Config{})
		if err != nil {
			t.Fatalf("Dump output does not load: %v\n%s", err, b.String())
		}
		if back != cfg {
			t.Fatalf("Dump/Parse changed the config:\n%s", b.String())
		}
	})
}
