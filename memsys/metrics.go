package memsys

// Metrics accumulates the memory-system counters of issue 19 from the
// port's traffic, under their Nsight Compute names (Values). The port
// counts each warp request it takes (Port.Metrics); the cache and DRAM
// counters are the components' own, copied in when the metrics are read.
//
// A "request" here is what Nsight Compute calls one: one warp instruction
// at the L1 (l1tex__t_requests), not one line; the sectors are the
// coalescer's (l1tex__t_sectors).
type Metrics struct {
	// Global and local accesses by op: warp requests and sectors.
	GlobalLd, GlobalSt, GlobalAtom, GlobalRed ReqSectors
	LocalLd, LocalSt                          ReqSectors
	// Shared accesses by op: warp requests, wavefronts and bank-conflict
	// replays (wavefronts beyond the conflict-free minimum). Atomics and
	// reductions on shared memory count with the stores (they write).
	SharedLd, SharedSt SharedCount
	// Constant and parameter loads: warp requests and distinct addresses.
	ConstRequests, ConstAccesses uint64
	// The components' counters at the time of reading.
	L1    L1Stats
	L2    L2Stats
	DRAM  DRAMStats
	Const ConstStats
}

// ReqSectors counts warp requests and their sectors.
type ReqSectors struct{ Requests, Sectors uint64 }

// SharedCount counts shared-memory warp requests, their wavefronts and
// their bank conflicts.
type SharedCount struct{ Requests, Wavefronts, Conflicts uint64 }

// add counts one warp request the port took, with its facts.
func (m *Metrics) add(r *Request, f *Facts) {
	rs := func(c *ReqSectors) { c.Requests++; c.Sectors += uint64(f.Sectors) }
	switch r.Space {
	case SpaceGlobal:
		switch r.Op {
		case OpLoad:
			rs(&m.GlobalLd)
		case OpStore:
			rs(&m.GlobalSt)
		case OpAtomic:
			rs(&m.GlobalAtom)
		case OpRed:
			rs(&m.GlobalRed)
		}
	case SpaceLocal:
		if r.Op == OpLoad {
			rs(&m.LocalLd)
		} else {
			rs(&m.LocalSt)
		}
	case SpaceShared:
		c := &m.SharedSt
		if r.Op == OpLoad {
			c = &m.SharedLd
		}
		c.Requests++
		c.Wavefronts += uint64(f.Wavefronts)
		c.Conflicts += uint64(f.Conflicts)
	case SpaceConst, SpaceParam:
		m.ConstRequests++
		m.ConstAccesses += uint64(f.Accesses)
	}
}

// Metric is one named figure.
type Metric struct {
	// Name is Nsight Compute's metric name (with its .sum or .pct
	// suffix).
	Name  string
	Value float64
}

// Values returns the metrics under their Nsight Compute names, in a fixed
// order: the list first (l1tex requests and sectors of global
// loads and stores, the L1 sector hit rate, shared-memory bank conflicts
// of loads and stores, L2 read sectors and hit rate, DRAM bytes read and
// written), then the others Nsight Compute has under the same scheme.
func (m *Metrics) Values() []Metric {
	f := func(v uint64) float64 { return float64(v) }
	return []Metric{
		{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", f(m.GlobalLd.Requests)},
		{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", f(m.GlobalLd.Sectors)},
		{"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", f(m.GlobalSt.Requests)},
		{"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", f(m.GlobalSt.Sectors)},
		{"l1tex__t_sector_hit_rate.pct", m.L1.HitRate()},
		{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", f(m.SharedLd.Conflicts)},
		{"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", f(m.SharedSt.Conflicts)},
		{"lts__t_sectors_op_read.sum", f(m.L2.SectorsRead)},
		{"lts__t_sector_hit_rate.pct", m.L2.HitRate()},
		{"dram__bytes_read.sum", f(m.DRAM.BytesRead)},
		{"dram__bytes_write.sum", f(m.DRAM.BytesWritten)},
		{"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", f(m.GlobalAtom.Requests)},
		{"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", f(m.GlobalAtom.Sectors)},
		{"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", f(m.GlobalRed.Requests)},
		{"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", f(m.GlobalRed.Sectors)},
		{"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", f(m.LocalLd.Requests)},
		{"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", f(m.LocalLd.Sectors)},
		{"l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", f(m.LocalSt.Requests)},
		{"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", f(m.LocalSt.Sectors)},
		{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", f(m.SharedLd.Wavefronts)},
		{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", f(m.SharedSt.Wavefronts)},
		{"lts__t_sectors_op_write.sum", f(m.L2.SectorsWritten)},
		{"lts__t_sectors_op_atom.sum", f(m.L2.SectorsAtomic)},
	}
}
