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
