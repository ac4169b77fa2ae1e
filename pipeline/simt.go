// The SIMT reconvergence unit: per lane a PC and a call depth; the active
// group is the runnable lanes of the deepest call level at the lowest PC
// among them (min-PC reconvergence). The lanes' PCs, depths and return
// stacks are the warp's (warp.go); control flow changes them (flow.go).

package pipeline

import "math/bits"

// live is the lanes holding a thread that has not exited.
func (w *warp) live() uint32 { return w.valid &^ w.exited }

// runnable is the live lanes not blocked at a barrier.
func (w *warp) runnable() uint32 { return w.valid &^ w.exited &^ w.blocked }

// regroup recomputes the active group: the runnable lanes of the maximum
// call depth at the minimum PC among them.
func (w *warp) regroup() {
	w.syncPC()
	live := w.runnable()
	if live == 0 {
		w.gmask = 0
		return
	}
	l0 := bits.TrailingZeros32(live)
	d, p, m := w.depth[l0], w.pc[l0], uint32(1)<<l0
	for rest := live & (live - 1); rest != 0; rest &= rest - 1 {
		l := bits.TrailingZeros32(rest)
		ld, lp := w.depth[l], w.pc[l]
		switch {
		case ld > d || (ld == d && lp < p):
			d, p, m = ld, lp, 1<<l
		case ld == d && lp == p:
			m |= 1 << l
		}
	}
	w.gpc, w.gmask, w.gdepth = p, m, d
}

// syncPC writes gpc into the pc of the active group's lanes when they
// are behind it (stalePC).
func (w *warp) syncPC() {
	if w.stalePC {
		for m := w.gmask; m != 0; m &= m - 1 {
			w.pc[bits.TrailingZeros32(m)] = w.gpc
		}
		w.stalePC = false
	}
}

// advance moves the group's lanes to the next instruction (non-control
// instructions).
func (w *warp) advance() {
	next := w.gpc + 1
	if w.gmask == w.runnable() {
		// Converged: the group stays the same, one instruction on (its
		// lanes' PCs follow when needed: syncPC).
		w.gpc, w.stalePC = next, true
		return
	}
	w.syncPC()
	for m := w.gmask; m != 0; m &= m - 1 {
		w.pc[bits.TrailingZeros32(m)] = next
	}
	w.regroup()
}
