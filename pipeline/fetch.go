// The fetch stage: per warp, the instruction buffer holding the active
// group's next instruction, refilled after a jump.

package pipeline

// fetchNext updates w's fetch timing after its instruction d at pc
// executed in the current cycle: control flow resolves in lat.branch, and
// a jump (the group's PC is not pc+1) refetches, lat.fetch cycles after
// the branch resolves (or after this cycle for a non-control instruction
// whose group changed). The redirect of RTT is trap_unit's, at the clock
// edge (rtt): the buffer does not refetch for it.
func (sm *SM) fetchNext(w *warp, d *dinst, pc uint32, rtt bool) {
	c := sm.cycle
	seq := w.gpc == pc+1 || rtt
	if d.ctrl {
		w.branchUntil = c + sm.lat[latBranch]
		if !seq {
			w.fetchUntil = w.branchUntil + uint64(max(sm.cfg.Lat.Fetch, 1))
		}
	} else if !seq && w.gmask != 0 {
		w.fetchUntil = c + 1 + uint64(max(sm.cfg.Lat.Fetch, 1))
	}
}
