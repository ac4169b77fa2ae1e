package trace_test

import (
	"bufio"
	"os"
	"path/filepath"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/trace"
	"github.com/smsim/smsim/trace/internal/exlaunch"
)

// TestZZRef writes every example's VCD (two presets, some options) to $REFDIR.
func TestZZRef(t *testing.T) {
	dir := os.Getenv("REFDIR")
	if dir == "" {
		return
	}
	opts := map[string]trace.Options{
		"all":   {},
		"win":   {Start: 37, End: 400},
		"scope": {Scopes: []string{"sm_top.g_warp[1]", "sm_top.u_perf_mon", "sm_top.u_warp_sched_1"}},
		"late":  {Start: 200},
	}
	for _, preset := range []string{"h100", "small"} {
		for _, e := range examples.All() {
			for on, o := range opts {
				cfg, _ := config.Preset(preset)
				sm, err := exlaunch.NewByName(e.Name, cfg)
				if err != nil {
					t.Logf("%s %s: %v", preset, e.Name, err)
					continue
				}
				f, _ := os.Create(filepath.Join(dir, preset+"-"+e.Name+"-"+on+".vcd"))
				bw := bufio.NewWriter(f)
				tr, err := trace.Attach(sm, bw, o)
				if err != nil {
					t.Fatal(err)
				}
				sm.Run()
				if err := tr.Close(); err != nil {
					t.Fatal(err)
				}
				bw.Flush()
				f.Close()
			}
		}
	}
}
