package pipeline_test

import (
	"fmt"
	"hash/maphash"
	"testing"
	"unsafe" // observations hash registers as raw memory: fast enough to compare every cycle

	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/pipeline"
)

// observation is what an OnCycle hook can see in one cycle, hashed per
// part: the CycleInfo (unit inputs included) and the registers and
// outputs of every clocked unit the SM exposes.
type observation [9]uint64

var observationParts = [9]string{"cycle and warps", "warp_sched inputs and outputs", "CTAs", "unit inputs", "warp_sched registers", "clock_timer", "perf_mon", "trap_unit and reg_pool", "issue, writeback and load/store stages"}

func observe(sm *pipeline.SM, ci *pipeline.CycleInfo) observation {
	var o observation
	var h maphash.Hash
	h.SetSeed(observeSeed)
	part := func(i int, bs ...[]byte) {
		h.Reset()
		for _, b := range bs {
			h.Write(b)
		}
		o[i] = h.Sum64()
	}
	part(0, raw(&ci.Cycle), rawSlice(ci.States), rawSlice(ci.Issued), rawSlice(ci.PCs), rawSlice(ci.Masks), rawSlice(ci.NRegs))
	part(1, rawSlice(ci.SchedIn), rawSlice(ci.SchedOut))
	part(2, rawSlice(ci.CTAs))
	if ci.Units != nil {
		part(3, raw(ci.Units))
	}
	var qs [][]byte
	for _, u := range sm.Schedulers() {
		qs = append(qs, raw(u.QRef()))
	}
	part(4, qs...)
	ct := sm.ClockTimer()
	co := ct.Out()
	part(5, raw(ct.QRef()), raw(&co))
	po := sm.PerfMon().Out()
	part(6, raw(&po))
	part(7, raw(sm.TrapStateRef()), raw(sm.RegPool().QRef()))
	part(8, rawSlice(sm.IssueOut()), rawSlice(sm.WritebackOut()), rawSlice(sm.LSUOut()))
	return o
}

var observeSeed = maphash.MakeSeed()

// raw is the memory of *p (plain values with no pointers: Go zeroes
// padding, and every copy copies it).
func raw[T any](p *T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), unsafe.Sizeof(*p))
}

func rawSlice[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), uintptr(len(s))*unsafe.Sizeof(s[0]))
}

// TestSkippedCyclesObserved: observing a run does not switch idle-cycle
// skipping off, and an observer cannot tell: Run, which skips idle
// stretches in one step, shows every cycle to an OnCycle hook exactly as
// stepping cycle by cycle does (warp states, scheduler and unit inputs and
// outputs, every unit's registers), and ends with the same report; with
// the memory system behind the load/store port too (mem.model hier), whose
// next event bounds the stretches skipped.
func TestSkippedCyclesObserved(t *testing.T) {
	type setup struct {
		pol config.SchedPolicy
		mem config.MemModel
	}
	for _, su := range []setup{{config.PolicyTwoLevel, config.MemFlat}, {config.PolicyLRR, config.MemFlat}, {config.PolicyGTO, config.MemHier}} {
		cfg, err := config.Preset("h100")
		require.NoError(t, err)
		cfg.Sched.Policy, cfg.Mem.Model = su.pol, su.mem
		for _, e := range examples.All() {
			key := fmt.Sprintf("%s/%s/%s", su.pol, su.mem, e.Name)
			observed := func(run func(sm *pipeline.SM)) ([]observation, []byte) {
				sm, err := newExampleSM(e, cfg)
				require.NoError(t, err, key)
				var seen []observation
				sm.OnCycle(func(ci *pipeline.CycleInfo) {
					require.Equal(t, uint64(len(seen)), ci.Cycle, "%s: cycles shown out of order", key)
					seen = append(seen, observe(sm, ci))
				})
				run(sm)
				return seen, reportJSON(t, sm.Report())
			}
			probe, err := newExampleSM(e, cfg)
			require.NoError(t, err, key)
			rep, err := probe.Run()
			require.NoError(t, err, key)
			if rep.Cycles > 100_000 {
				continue // sleep_lanes: millions of cycles of the same thing
			}
			skipped, skippedRep := observed(func(sm *pipeline.SM) {
				_, err := sm.Run()
				require.NoError(t, err)
			})
			stepped, steppedRep := observed(func(sm *pipeline.SM) {
				for sm.Step() {
				}
			})
			require.Equal(t, string(reportJSON(t, rep)), string(skippedRep), "%s: the observed run's report differs", key)
			require.Equal(t, string(steppedRep), string(skippedRep), "%s: reports differ", key)
			require.Equal(t, len(stepped), len(skipped), "%s: cycles shown", key)
			for c := range stepped {
				for i := range stepped[c] {
					if stepped[c][i] != skipped[c][i] {
						t.Fatalf("%s: cycle %d looks different to an observer when it is skipped: %s", key, c, observationParts[i])
					}
				}
			}
		}
	}
}
