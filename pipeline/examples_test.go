package pipeline

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/isa"
)

// launchOf converts an example's launch (internal/exlaunch.Launch, which
// this package's own tests cannot import: it imports pipeline).
func launchOf(e *examples.Example) Launch {
	l := Launch{Entry: e.Entry, DynamicSmem: uint32(e.DynamicSmem), Args: e.Args, MaxNReg: uint32(e.MaxNReg)}
	l.Grid, l.Block, l.Cluster = e.LaunchShape()
	for _, b := range e.Buffers {
		l.Buffers = append(l.Buffers, Buffer{Param: b.Param, Size: 4 * b.Words, Init: b.InitBytes()})
	}
	return l
}

// envOf fills the examples environment from the SM that ran the launch.
func envOf(sm *SM) examples.Env {
	cfg := sm.Config()
	env := examples.Env{
		SMID: uint32(cfg.SM.ID), NSMID: uint32(cfg.SM.Count), NWarpID: uint32(cfg.SM.MaxWarps),
		GridID: cfg.Grid.ID, EnvReg: cfg.Env.Regs, SmemAllocUnit: cfg.SM.SmemAllocUnit,
		CurrentGraphExec: cfg.Graph.Exec,
	}
	env.WarpID = func(cta, w int) uint32 {
		s, _ := sm.WarpSlot(cta, w)
		return s
	}
	r := sm.ReservedSmem()
	env.ReservedSmemBegin, env.ReservedSmemEnd, env.ReservedSmemCap = r.Begin, r.End, r.Cap
	env.ReservedSmemOffset = r.Offset
	return env
}

func assemble(t testing.TB, name string, src []byte) *isa.Image {
	t.Helper()
	im, err := isa.AssembleSource(name, src)
	if err != nil {
		t.Fatalf("assemble %s: %v", name, err)
	}
	return im
}

func runExample(t testing.TB, e *examples.Example, cfg config.Config) (*SM, *Report) {
	t.Helper()
	im := assemble(t, e.Name+".ptx", e.PTX)
	if e.TrapHandler != "" {
		cfg.Trap.Handler = e.TrapHandler
	}
	sm, err := New(cfg, im, launchOf(e))
	if err != nil {
		t.Fatalf("%s: New: %v", e.Name, err)
	}
	if err := sm.SetHostPolicy(e.OnTrap, ""); err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	rep, err := sm.Run()
	if err != nil {
		t.Fatalf("%s: Run: %v", e.Name, err)
	}
	return sm, rep
}

// TestExamples runs every example at both presets, and with the memory
// system behind the load/store port (mem.model hier) and the execution
// pipes' throughput (pipe.throttle), which change only the timing, and
// checks its outcome, its buffers against the example's own reference and
// the report's accounting.
func TestExamples(t *testing.T) {
	for _, e := range examples.All() {
		for _, setup := range []string{"h100", "small", "h100+hier", "h100+pipes", "small+hier+pipes"} {
			parts := strings.Split(setup, "+")
			t.Run(e.Name+"/"+setup, func(t *testing.T) {
				cfg, _ := config.Preset(parts[0])
				preset := parts[0]
				for _, p := range parts[1:] {
					switch p {
					case "hier":
						cfg.Mem.Model = config.MemHier
					case "pipes":
						cfg.Pipe.Throttle = true
					}
				}
				if e.Name == "nanosleep" || e.Name == "sreg_all" {
					cfg.Env.Regs[3] = 0xfeed0003
					cfg.Graph.Exec = 0x1234_5678_9abc
					cfg.Clock.Start = 1<<32 - 1000 // exercise %clock wrap-around
				}
				if preset == "small" && (e.Name == "bench_intloop" || e.Name == "setmaxnreg") {
					// 768-thread CTAs and 136-register warps do not fit the small SM.
					_, err := New(cfg, assemble(t, e.Name+".ptx", e.PTX), launchOf(e))
					if !IsLaunchError(err) {
						t.Fatalf("New on the small SM: %v, want a launch error", err)
					}
					return
				}
				sm, rep := runExample(t, e, cfg)
				want := StatusCompleted
				switch e.Outcome {
				case examples.Trapped, examples.Breakpoint:
					want = StatusTrapped
				}
				if rep.Status != want {
					t.Fatalf("status %s, want %s; errors %+v", rep.Status, want, rep.Errors)
				}
				if e.Outcome == examples.Breakpoint && (len(rep.Errors) == 0 || rep.Errors[len(rep.Errors)-1].Kind != "breakpoint") {
					t.Errorf("breakpoint not reported: %+v", rep.Errors)
				}
				for _, er := range rep.Errors {
					if er.Kind != "trap" && er.Kind != "breakpoint" {
						t.Errorf("unexpected error %+v", er)
					}
				}
				if err := e.Verify(envOf(sm), rep.Buffers); err != nil {
					t.Error(err)
				}
				checkInvariants(t, sm, rep)
			})
		}
	}
}

// checkInvariants checks the report's accounting.
func checkInvariants(t testing.TB, sm *SM, rep *Report) {
	t.Helper()
	var sum uint64
	for _, v := range rep.Stalls {
		sum += v
	}
	if want := rep.Cycles * uint64(sm.cfg.SM.MaxWarps); sum != want {
		t.Errorf("stall warp-cycles sum to %d, want cycles x max_warps = %d", sum, want)
	}
	if rep.Stalls["selected"] != rep.WarpInstructions {
		t.Errorf("selected %d != warp instructions %d", rep.Stalls["selected"], rep.WarpInstructions)
	}
	var insts uint64
	for _, w := range rep.Warps {
		insts += w.Instructions
		if !strings.Contains(w.Line, ":") {
			t.Errorf("warp line %q", w.Line)
		}
	}
	if rep.WarpsOmitted == 0 && insts != rep.WarpInstructions {
		t.Errorf("per-warp instructions sum to %d, want %d", insts, rep.WarpInstructions)
	}
}
