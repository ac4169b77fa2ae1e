package trace_test

import (
	"bytes"
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/trace"
	"github.com/smsim/smsim/vcd"
)

// Trace one warp slot of a run and list what the dump declares.
func ExampleAttach() {
	cfg, _ := config.Preset("small")
	sm, err := exlaunch.NewByName("div_ifelse", cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	tr, err := trace.Attach(sm, &buf, trace.Options{Scopes: []string{"sm_top.g_warp[0]"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := sm.Run(); err != nil {
		fmt.Println(err)
		return
	}
	if err := tr.Close(); err != nil {
		fmt.Println(err)
		return
	}
	r := vcd.NewReader(&buf)
	r.Strict = true
	d, err := r.ReadAll()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range d.Header.Vars {
		fmt.Println(v.Name, v.Width, v.Kind)
	}
	// Output:
	// sm_top.clk_i 1 wire
	// sm_top.rst_ni 1 wire
	// sm_top.g_warp[0].valid_q 1 wire
	// sm_top.g_warp[0].pc_q 32 wire
	// sm_top.g_warp[0].active_mask_q 32 wire
	// sm_top.g_warp[0].state_q 5 wire
	// sm_top.g_warp[0].state_q_str 1 string
	// sm_top.g_warp[0].stall_reason_q 4 wire
	// sm_top.g_warp[0].stall_reason_q_str 1 string
	// sm_top.g_warp[0].esr_q 16 wire
	// sm_top.g_warp[0].nreg_q 9 wire
}
