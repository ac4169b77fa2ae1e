package clocktimer

import (
	"math/bits"
	"math/rand/v2"
)

// sleepStream is the PCG stream (the second seed word) of the nanosleep
// generator, so that other users of run.seed draw different sequences.
const sleepStream = 0x6e616e6f736c6565 // "nanoslee"

// NewRNG returns the nanosleep generator for sleep.mode uniform, seeded
// with run.seed. The SM holds one and passes it to every SleepDuration
// call, in issue order, so equal seeds give identical runs.
func NewRNG(seed uint64) *rand.PCG { return rand.NewPCG(seed, sleepStream) }

// SleepMode is how a nanosleep's duration is chosen (sleep.mode).
type SleepMode uint8

// The sleep modes.
const (
	SleepExact   SleepMode = iota // t rounded down to the timer granularity
	SleepUniform                  // a seeded draw from [0, 2t]
)

// String is the mode's configuration name (sleep.mode).
func (m SleepMode) String() string {
	if m == SleepUniform {
		return "uniform"
	}
	return "exact"
}

// SleepDuration chooses the sleep duration in ns of one warp-level
// nanosleep from the t operands of the lanes that execute it (active and
// guard-true; ts must not be empty for a sleep to happen: no lanes, no
// sleep, 0).
//
// One duration serves the whole warp, so all its sleeping threads wake
// together, which seed 000 allows: "The implementation may reduce the
// sleep duration for individual threads within a warp such that all
// sleeping threads in the warp wake up together". The duration is derived
// from the smallest t of the lanes: each thread's sleep must lie in its own
// [0, 2t], and only a duration within [0, 2*min t] is inside every lane's
// interval (the largest t would exceed 2t for a lane with a small t). Every
// lane's sleep is thus reduced to the shortest request's, as permitted.
//
//   - exact (and any mode other than uniform): min t rounded down to a
//     multiple of resolutionNs (the step of %globaltimer; 0 counts as 1),
//     capped at MaxSleepNs.
//   - uniform: uniformly distributed in [0, 2*min t] (inclusive), drawn
//     from rng, capped at MaxSleepNs. With a nil rng it behaves as exact.
//
// The result is always in [0, 2*min t] and at most MaxSleepNs (1 ms, seed
// 000: "The sleep duration is approximated, but guaranteed to be in the
// interval [0, 2*t]. The maximum sleep duration is 1 millisecond.").
func SleepDuration(mode SleepMode, ts []uint32, resolutionNs uint64, rng *rand.PCG) uint64 {
	if len(ts) == 0 {
		return 0
	}
	t := uint64(ts[0])
	for _, v := range ts[1:] {
		t = min(t, uint64(v))
	}
	if mode == SleepUniform && rng != nil {
		return min(uniform(rng, 2*t+1), MaxSleepNs)
	}
	r := max(resolutionNs, 1)
	return min(t-t%r, MaxSleepNs)
}

// uniform draws from [0, n) without bias (n >= 1): Lemire's
// multiply-and-reject on 64-bit PCG outputs. It is written out rather than
// taken from rand.Rand so that the sequence cannot change with the Go
// release (PCG itself is a fixed algorithm).
func uniform(rng *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(rng.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(rng.Uint64(), n)
		}
	}
	return hi
}
