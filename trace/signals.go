package trace

import (
	"fmt"
	"reflect"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// The observation scopes of the SM top. The signal tables of sm_top's
// own scopes (its ports, the warp slots, the issue and writeback stages,
// the barrier unit) are package pipeline's (pipeline.TopTable), those of
// the units their packages'. A field with an enum tag also gets a GTKWave
// string companion named <name>_str holding the value's name.

// Scopes of the traced instances (pipeline's). N, K and B are a warp
// slot, a scheduler (sub-partition), a CTA slot and a barrier id.
const (
	ScopeTop       = pipeline.ScopeTop
	ScopeWarp      = pipeline.ScopeWarp      // pipeline.WarpRegs
	ScopeIssue     = pipeline.ScopeIssue     // pipeline.IssueOutputs, one per scheduler
	ScopeWriteback = pipeline.ScopeWriteback // pipeline.WritebackOutputs, one per scheduler
	ScopeLSU       = pipeline.ScopeLSU       // pipeline.LSUOutputs, one per scheduler
	ScopeSched     = pipeline.ScopeSched     // warpsched's own table (SM.Signals)
	ScopeTrap      = pipeline.ScopeTrap      // trapunit's own table
	ScopeRegPool   = pipeline.ScopeRegPool   // regPoolObs
	ScopeBarrier   = pipeline.ScopeBarrier   // pipeline.BarrierCTA
	ScopeBar       = pipeline.ScopeBar       // pipeline.BarrierRegs
	StrSuffix      = "_str"                  // suffix of an enum's string companion
	clockTimerPath = "sm_top.u_clock_timer"  // clocktimer.Scope
	perfMonPath    = "sm_top.u_perf_mon"     // perfmon.Scope
)

// regPoolObs is the register pool's per-CTA free count and high-water
// mark, under the names of sm_top.u_reg_pool's registers (package
// regpool). The unit's full state is too large to copy every cycle, so the
// tracer reads these two through Pool.CTAStats (0 for a free CTA slot).
type regPoolObs struct {
	Free      [pipeline.MaxCTASlots]uint32 `sv:"cta_free_q" width:"32*CTAs"`
	HighWater [pipeline.MaxCTASlots]uint32 `sv:"cta_high_water_q" width:"32*CTAs"`
}

// enumValues are the value names of the enum tags.
func enumValues() map[string][]string {
	ops := make([]string, 256)
	for o := range ops {
		if isa.Opcode(o).Valid() {
			ops[o] = isa.Opcode(o).String()
		}
	}
	ops[pipeline.OpIdle] = "-"
	stall := append([]string{"none"}, config.StallStates()[1:]...)
	return map[string][]string{
		"status":     pipeline.StatusNames(),
		"warp_state": pipeline.StateNames(),
		"stall":      stall,
		"opcode":     ops,
		"mem_op":     pipeline.MemOpNames(),
		"mem_space":  pipeline.SpaceNames(),
	}
}

// enumsOf returns the enum value names of T's enum-tagged signals.
func enumsOf[T any](values map[string][]string) map[string][]string {
	return enumTags(reflect.TypeFor[T](), values)
}

func scopef(format string, args ...any) string { return fmt.Sprintf(format, args...) }
