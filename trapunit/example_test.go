package trapunit_test

import (
	"fmt"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
)

// A BPT.TRAP takes every live warp into the handler; RTT sends the
// trapping warp back to the instruction after the BPT.TRAP.
func Example() {
	u, err := trapunit.New(trapunit.Params{NumWarps: 4, NumPorts: 1, HasHandler: true})
	if err != nil {
		panic(err)
	}
	cycle := func(in trapunit.Inputs) trapunit.Outputs {
		o := u.Eval(in)
		u.Tick()
		return o
	}
	var in trapunit.Inputs
	in.WarpLive = rtl.BitsOf(0, 1)
	in.WarpPC[0], in.WarpPC[1] = 20, 30

	trap := in
	trap.SetEvent(0, trapunit.Event{Warp: 1, Kind: trapunit.EvBPTTrap, Arg: 2, PCNext: 31})
	o := cycle(trap)
	fmt.Println("enter handler:", o.EnterHandler)

	o = cycle(in)
	fmt.Printf("trapped: %v, warp 1 ESR: %s, global ESR: %#x\n", o.SMTrapped, o.WarpESR[1], o.GlobalESR)

	rtt := in
	rtt.SetEvent(0, trapunit.Event{Warp: 1, Kind: trapunit.EvRTT})
	o = cycle(rtt)
	fmt.Println("resume:", o.Resume, "at pc", o.ResumePC[1])
	// Output:
	// enter handler: {0,1}
	// trapped: true, warp 1 ESR: reason=2, global ESR: 0x4
	// resume: {1} at pc 31
}
