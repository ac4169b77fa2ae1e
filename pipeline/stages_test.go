package pipeline_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// wbWant is what a writeback stage must show in one cycle, derived from
// the issued instructions (IssueInfo.Done).
type wbWant struct {
	count   int
	warp    int
	pc      uint32
	lastSeq int
}

// TestIssueAndWritebackStages checks the issue, load/store and writeback
// stages' outputs of every example against what the OnIssue hook reports
// of each issued instruction. In its cycle, u_issue_N shows its warp, PC,
// opcode, active group and guard lanes, and a stage whose scheduler issued
// nothing drops issue_valid_o. A load, store or atomic with a lane
// executing makes one numbered request on u_lsu_N, whose global addresses
// lie in a bound buffer or a module variable. In the cycle its
// destinations become available (IssueInfo.Done), u_writeback_N counts
// it, and shows it when it was issued last among that cycle's writebacks.
func TestIssueAndWritebackStages(t *testing.T) {
	for _, preset := range []string{"h100", "small"} {
		cfg, err := config.Preset(preset)
		require.NoError(t, err)
		// Flat memory timing: an instruction's writeback cycle is known
		// at issue (IssueInfo.Done); with mem.model hier a load's is the
		// port's answer, later.
		cfg.Mem.Model = config.MemFlat
		for _, e := range examples.All() {
			sm, err := newExampleSM(e, cfg)
			if pipeline.IsLaunchError(err) && preset == "small" {
				continue // the example does not fit the small SM
			}
			require.NoError(t, err, e.Name)
			want := map[uint64][]wbWant{}
			seq := 0
			cycles, checked := 0, 0
			sm.OnCycle(func(ci *pipeline.CycleInfo) {
				cycles++
				for s, o := range sm.IssueOut() {
					if o.Valid != (ci.Issued[s] >= 0) {
						t.Fatalf("%s/%s cycle %d: issue_valid_o[%d] = %v, scheduler issued slot %d", preset, e.Name, ci.Cycle, s, o.Valid, ci.Issued[s])
					}
					if !o.Valid && o.Op != pipeline.OpIdle {
						t.Fatalf("%s/%s cycle %d: idle issue stage %d shows op %d", preset, e.Name, ci.Cycle, s, o.Op)
					}
				}
				ws := want[ci.Cycle]
				delete(want, ci.Cycle)
				for s, o := range sm.WritebackOut() {
					var w wbWant
					if s < len(ws) {
						w = ws[s]
					}
					if o.Valid != (w.count > 0) || int(o.Count) != min(w.count, 15) {
						t.Fatalf("%s/%s cycle %d: writeback %d shows valid %v count %d, want %d", preset, e.Name, ci.Cycle, s, o.Valid, o.Count, w.count)
					}
					if w.count > 0 {
						checked++
						if int(o.Warp) != w.warp || o.PC != w.pc {
							t.Fatalf("%s/%s cycle %d: writeback %d shows warp %d pc %d, want warp %d pc %d", preset, e.Name, ci.Cycle, s, o.Warp, o.PC, w.warp, w.pc)
						}
					}
				}
			})
			type span struct{ lo, hi uint64 }
			var bufs []span
			for _, b := range e.Buffers {
				a, ok := sm.BufferAddr(b.Param)
				require.True(t, ok, b.Param)
				bufs = append(bufs, span{a, a + uint64(b.Words)*4})
			}
			for _, y := range sm.Image().Symbols {
				if int(y.Space) == isa.SpaceGlobal {
					bufs = append(bufs, span{y.Addr, y.Addr + y.Size}) // the module's .global variables
				}
			}
			var tag uint32
			globals := 0
			sm.OnIssue(func(ii *pipeline.IssueInfo) {
				// The load/store stage's request: made by the loads,
				// stores and atomics with a lane executing, each numbered;
				// global accesses fall inside the bound buffers.
				r := sm.LSUOut()[ii.Sched]
				mem := ii.Inst.Op == isa.OpLD || ii.Inst.Op == isa.OpST || ii.Inst.Op == isa.OpATOM
				if r.ReqValid != (mem && ii.Exec != 0) {
					t.Fatalf("%s/%s cycle %d: %s issued with lanes %#x; mem_req_valid_o = %v", preset, e.Name, ii.Cycle, ii.Inst.Op, ii.Exec, r.ReqValid)
				}
				if r.ReqValid {
					tag++
					if int(r.ReqWarp) != ii.Warp || r.ReqMask != ii.Exec || r.ReqTag != tag || int(r.ReqSpace) != int(ii.Inst.Mods&isa.ModSpaceMask) || r.ReqSize == 0 {
						t.Fatalf("%s/%s cycle %d: request %+v for warp %d lanes %#x, request %d", preset, e.Name, ii.Cycle, r, ii.Warp, ii.Exec, tag)
					}
					if r.ReqSpace == isa.SpaceGlobal {
						for l := 0; l < 32; l++ {
							if r.ReqMask>>uint(l)&1 == 0 {
								continue
							}
							a, in := r.ReqAddr[l], false
							for _, b := range bufs {
								in = in || a >= b.lo && a+uint64(r.ReqSize) <= b.hi
							}
							if !in {
								t.Fatalf("%s/%s cycle %d: lane %d's global access at %#x is outside every buffer", preset, e.Name, ii.Cycle, l, a)
							}
							globals++
						}
					}
				}
				o := sm.IssueOut()[ii.Sched]
				got := [...]uint64{uint64(o.Warp), uint64(o.PC), uint64(o.Op), uint64(o.Mask), uint64(o.Exec)}
				exp := [...]uint64{uint64(ii.Warp), uint64(ii.PC), uint64(ii.Inst.Op), uint64(ii.Mask), uint64(ii.Exec)}
				if !o.Valid || got != exp {
					t.Fatalf("%s/%s cycle %d: u_issue_%d shows %v (valid %v), the instruction issued is %v", preset, e.Name, ii.Cycle, ii.Sched, got, o.Valid, exp)
				}
				if ii.Done > ii.Cycle {
					seq++
					ws := want[ii.Done]
					for len(ws) <= ii.Sched {
						ws = append(ws, wbWant{})
					}
					w := &ws[ii.Sched]
					w.count++
					if seq > w.lastSeq {
						w.warp, w.pc, w.lastSeq = ii.Warp, ii.PC, seq
					}
					want[ii.Done] = ws
				}
			})
			rep, err := sm.Run()
			require.NoError(t, err)
			require.NotEmpty(t, rep.Status)
			require.Positive(t, cycles, e.Name)
			require.Positive(t, checked, "%s: no writeback was checked", e.Name)
			if len(e.Buffers) > 0 && e.Name != "bfs" {
				require.Positive(t, tag, "%s: no memory request", e.Name)
			}
			if e.Name == "float_saxpy" {
				require.Positive(t, globals, "%s: no global address checked", e.Name)
			}
		}
	}
}

// TestHierMetrics: with the memory system behind the port, the report's
// Nsight-named request counts are the global loads and stores that
// issued with a lane executing (counted here from OnIssue); with flat
// latencies the report has no metrics.
func TestHierMetrics(t *testing.T) {
	for _, name := range []string{"float_saxpy", "smem_reduce", "atomics"} {
		e, ok := examples.ByName(name)
		require.True(t, ok, name)
		for _, m := range []config.MemModel{config.MemFlat, config.MemHier} {
			cfg, err := config.Preset("h100")
			require.NoError(t, err)
			cfg.Mem.Model = m
			cfg.Pipe.Throttle = false // the pipes' metrics are not the subject here
			sm, err := newExampleSM(e, cfg)
			require.NoError(t, err, name)
			var ld, st float64
			sm.OnIssue(func(ii *pipeline.IssueInfo) {
				global := int(ii.Inst.Mods&isa.ModSpaceMask) == isa.SpaceGlobal
				if ii.Exec == 0 || !global {
					return
				}
				switch ii.Inst.Op {
				case isa.OpLD:
					ld++
				case isa.OpST:
					st++
				}
			})
			rep, err := sm.Run()
			require.NoError(t, err, name)
			if m == config.MemFlat {
				require.Nil(t, rep.Metrics, name)
				continue
			}
			require.Equal(t, ld, rep.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], name)
			require.Equal(t, st, rep.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"], name)
			require.GreaterOrEqual(t, rep.Metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], ld, name)
			if name == "smem_reduce" {
				// Sixteen warps reducing through shared memory: the port takes
				// one request a cycle, the others wait in mio_throttle.
				require.Positive(t, rep.Stalls["mio_throttle"], name)
			}
		}
	}
}
