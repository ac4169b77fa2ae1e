package cosim

import "math/rand/v2"

// phases is what the constrained-random stimuli share: their random
// stream and the cycles left in the current phase. Every 1..n cycles a
// stimulus enters a new phase and draws new densities (from "nothing
// happens" to "everything at once"), so that both sparse and saturated
// cases occur.
type phases struct {
	r    *rand.Rand
	left int // cycles left in the phase
}

func newPhases(seed, stream uint64) phases {
	return phases{r: rand.New(rand.NewPCG(seed, stream))}
}

// step counts one cycle of the phase. When the phase is over it draws the
// next one's length, 1..n cycles, and then calls draw for its densities.
func (g *phases) step(n int, draw func()) {
	if g.left == 0 {
		g.left = 1 + g.r.IntN(n)
		draw()
	}
	g.left--
}

// pick returns one of levels, each as likely.
func (g *phases) pick(levels ...int) int { return levels[g.r.IntN(len(levels))] }

// weighted is one choice of a table that draw picks from.
type weighted[T any] struct {
	w int // its share: w in the sum of the table's weights
	v T
}

// draw picks one of tab's choices with a single r.IntN of the sum of the
// weights.
func draw[T any](r *rand.Rand, tab []weighted[T]) T {
	sum := 0
	for _, c := range tab {
		sum += c.w
	}
	x := r.IntN(sum)
	for _, c := range tab[:len(tab)-1] {
		if x < c.w {
			return c.v
		}
		x -= c.w
	}
	return tab[len(tab)-1].v
}

// warpAccess draws a warp memory request's access size, one of the sizes
// the LSU sends (1, 2, 4, 8, 16; 4 and 8 the most often) or, with
// probability bad/64, one of odd, and its lane mask: all lanes, random,
// one lane, or sparse, each as likely.
func (g *phases) warpAccess(bad int, odd ...int) (size int, mask uint32) {
	r := g.r
	size = g.pick(1, 2, 4, 4, 4, 8, 8, 16)
	if r.IntN(64) < bad {
		size = g.pick(odd...)
	}
	switch r.IntN(4) {
	case 0:
		mask = ^uint32(0)
	case 1:
		mask = r.Uint32()
	case 2:
		mask = 1 << uint(r.IntN(32))
	default:
		mask = r.Uint32() & r.Uint32()
	}
	return size, mask
}
