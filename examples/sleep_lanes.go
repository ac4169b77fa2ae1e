package examples

import "fmt"

// SleepLanesT is the nanosleep delay t (ns) that thread i of the
// sleep_lanes example asks for: 5 ms in warp 0 (above the 1 ms cap),
// 2000 + 997*lane in warp 1 except lane 13 (300 ns, the warp's smallest),
// 0 in warp 2.
func SleepLanesT(i int) uint32 {
	lane := uint32(i % 32)
	switch i / 32 {
	case 0:
		return 5_000_000
	case 1:
		if lane == 13 {
			return 300
		}
		return 2000 + 997*lane
	}
	return 0
}

func exSleepLanes() *Example {
	const entry = "_Z11sleep_lanesPKjPyS1_Pj"
	const n = 96
	ts := make([]uint32, n)
	for i := range ts {
		ts[i] = SleepLanesT(i)
	}
	e := &Example{
		Name: "sleep_lanes", Entry: entry,
		Grid: Dim3{1, 1, 1}, Block: Dim3{n, 1, 1},
		Buffers: buffers(entry, 0, bufSpec{"ts", n, ts}, bufSpec{"dclk", 2 * n, nil},
			bufSpec{"dgt", 2 * n, nil}, bufSpec{"out", n, nil}),
		Features: []string{"nanosleep", "sreg"},
		Notes:    "nanosleep.u32 with a different t per lane (5 ms cap, smallest lane, 0), timed by %clock64 and %globaltimer",
	}
	e.Loose = []string{param(entry, 1), param(entry, 2)}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out := m[param(entry, 3)]
		for _, t := range e.Threads() {
			i := uint32(t.Global)
			out[i] = SleepLanesT(t.Global) ^ i
		}
		return m
	}
	// The distances depend on the clock; what holds on any machine: every
	// lane of a warp reads the same ones (the warp wakes as a whole), and
	// the warps sleep no less in the order of their smallest t (5 ms
	// capped to 1 ms, 300 ns, 0). The exact distances are checked in
	// package pipeline against the configuration.
	e.Check = func(env Env, got map[string][]uint32) error {
		for k, p := range []string{param(entry, 1), param(entry, 2)} {
			name := [...]string{"dclk", "dgt"}[k]
			buf := got[p]
			var first [n / 32]uint64
			for i := 0; i < n; i++ {
				v := get64(buf, 2*i)
				if i%32 == 0 {
					first[i/32] = v
				} else if v != first[i/32] {
					return fmt.Errorf("%s of thread %d: %d, lane 0 of its warp read %d: the warp did not wake together", name, i, v, first[i/32])
				}
			}
			if first[0] < first[1] || first[1] < first[2] {
				return fmt.Errorf("%s per warp %v: want warp 0 (1 ms cap) >= warp 1 (300 ns) >= warp 2 (0)", name, first)
			}
		}
		return nil
	}
	return e
}
