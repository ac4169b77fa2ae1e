package clocktimer_test

import (
	"fmt"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/unitcfg"
)

// A warp executes nanosleep with different t per lane: one duration serves
// the warp, taken from the smallest t, so each lane stays within its own
// [0, 2t] and all wake together.
func ExampleSleepDuration() {
	c := config.Default() // clock.mhz 1755, timer.resolution_ns 32
	u, err := clocktimer.New(unitcfg.ClockTimer(c))
	if err != nil {
		fmt.Println(err)
		return
	}
	rng := clocktimer.NewRNG(c.Run.Seed)
	ts := []uint32{1000, 250, 5_000_000}
	ns := clocktimer.SleepDuration(unitcfg.SleepMode(c.Sleep.Mode), ts, c.Timer.ResolutionNs, rng)
	fmt.Println(ns, "ns,", u.SleepCycles(uint32(ns)), "cycles")

	// Drive the request on port 0 for warp 3, then watch sleeping_o.
	var in clocktimer.Inputs
	in.SleepValid[0], in.SleepWarp[0], in.SleepNs[0] = true, 3, uint32(ns)
	u.Eval(in)
	u.Tick()
	o := u.Eval(clocktimer.Inputs{})
	wake, _ := u.NextWake()
	fmt.Println("sleeping", o.Sleeping, "for", wake, "cycles")
	fmt.Println(clocktimer.SleepDuration(unitcfg.SleepMode(c.Sleep.Mode), []uint32{5_000_000}, 32, rng), "ns (the 1 ms cap)")
	// Output:
	// 224 ns, 393 cycles
	// sleeping {3} for 393 cycles
	// 1000000 ns (the 1 ms cap)
}

// The global timer follows the cycle count exactly and shows it in steps of
// timer.resolution_ns.
func ExampleClockTimer_Advance() {
	c := config.Default()
	c.Clock.Start = 1<<32 - 1
	u, err := clocktimer.New(unitcfg.ClockTimer(c))
	if err != nil {
		fmt.Println(err)
		return
	}
	u.Advance(clocktimer.Inputs{}, 1755) // 1 µs at 1755 MHz
	o := u.Eval(clocktimer.Inputs{})
	fmt.Printf("clock %d clock_hi %d globaltimer %d (exact %d)\n", o.Clock, o.ClockHi, o.GlobalTimer, u.Q().GTimer)
	// Output:
	// clock 1754 clock_hi 1 globaltimer 992 (exact 1000)
}
