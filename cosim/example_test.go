package cosim_test

import (
	"fmt"

	"github.com/smsim/smsim/cosim"
	"github.com/smsim/smsim/warpsched"
)

// The wire layout of warp_sched with 16 warps: each signal in the bytes
// Verilator stores it in, inputs in one record, outputs and registers in
// the other.
func ExampleNewLayout() {
	u, err := cosim.WarpSched(warpsched.Params{NumWarps: 16, Policy: warpsched.PolicyGTO, TwoLevelActive: 8})
	if err != nil {
		panic(err)
	}
	l := u.Layout()
	fmt.Println(cosim.ParamString(u.Params()), "set", cosim.ParamHash(u.Module(), u.Params()))
	fmt.Printf("input record %d bytes, output record %d bytes\n", l.InBytes, l.OutBytes)
	for _, f := range l.Out {
		fmt.Printf("%-16s %-3s %3d bits at %2d, %2d bytes\n", f.Name, f.Dir, f.Width, f.Offset, f.Size)
	}
	// Output:
	// NumWarps=16 Policy=1 TwoLevelActive=8 set b686da19cdb7
	// input record 9 bytes, output record 75 bytes
	// issue_valid_o    out   1 bits at  0,  1 bytes
	// issue_warp_o     out   4 bits at  1,  1 bytes
	// last_q           reg   4 bits at  2,  1 bytes
	// greedy_q         reg   4 bits at  3,  1 bytes
	// greedy_valid_q   reg   1 bits at  4,  1 bytes
	// active_q         reg  16 bits at  5,  2 bytes
	// next_age_q       reg  32 bits at  7,  4 bytes
	// warp_age_q       reg 512 bits at 11, 64 bytes
}
