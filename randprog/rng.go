package randprog

// rng is splitmix64: a small generator whose sequence for a seed is fixed
// here (math/rand's may change between Go releases).
type rng struct{ s uint64 }

// newRNG starts the sequence of seed's attempt-th generation.
func newRNG(seed, attempt uint64) rng {
	r := rng{s: seed ^ 0x6a09e667f3bcc909}
	for i := uint64(0); i <= attempt; i++ {
		r.s ^= r.next()
	}
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn is a value in [0, n) (n > 0).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *rng) word() uint32 { return uint32(r.next() >> 32) }

// interesting32 is an immediate: often a boundary value, else random.
func (r *rng) interesting32() int32 {
	vals := []int32{0, 1, -1, 2, 31, 32, 0x7fffffff, -0x80000000, 0xffff, 0x10000, 7, -7}
	if r.intn(2) == 0 {
		return vals[r.intn(len(vals))]
	}
	if r.intn(2) == 0 {
		return int32(r.intn(256)) - 128
	}
	return int32(r.word())
}

// interesting64 is a 64-bit immediate.
func (r *rng) interesting64() int64 {
	vals := []int64{0, 1, -1, 63, 64, 0x7fffffffffffffff, -0x8000000000000000, 0xffffffff, 0x100000000}
	if r.intn(2) == 0 {
		return vals[r.intn(len(vals))]
	}
	return int64(r.next())
}

// Seed derives the seed of program i of a run from the run's seed (smsim
// cosim --sm --random N --seed S runs Seed(S, 0) .. Seed(S, N-1)).
func Seed(run uint64, i int) uint64 {
	r := rng{s: run}
	r.s += uint64(i) * 0x9e3779b97f4a7c15
	return r.next()
}
