package randprog

import (
	"fmt"
	"strings"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/pipeline"
)

// Config is base with what the program needs: its trap handler.
func (p *Program) Config(base config.Config) config.Config {
	base.Trap.Handler = p.TrapHandler
	return base
}

// RunGo runs the program on the Go model under base (Config applied)
// with the sanitizer's init, race and sync checks, and returns the
// report; the error says what went wrong when the run did not complete
// cleanly (a status other than completed, an error entry or a sanitizer
// finding): a generator or model bug, as every program is valid.
func (p *Program) RunGo(base config.Config) (*pipeline.Report, error) {
	l := p.Launch
	l.Checks = pipeline.Checks{Init: true, Race: true, Sync: true}
	sm, err := pipeline.New(p.Config(base), p.Image, l)
	if err != nil {
		return nil, fmt.Errorf("randprog: seed %#x: launch: %v", p.Seed, err)
	}
	rep, err := sm.Run()
	if err != nil {
		return nil, err
	}
	var probs []string
	if rep.Status != pipeline.StatusCompleted {
		probs = append(probs, "status "+rep.Status)
	}
	for _, e := range rep.Errors {
		probs = append(probs, fmt.Sprintf("%s at %s: %s", e.Kind, e.Line, e.Message))
	}
	for _, s := range rep.Sanitizer {
		probs = append(probs, fmt.Sprintf("%s at %s: %s", s.Kind, s.Line, s.Detail))
	}
	if len(probs) > 0 {
		return rep, fmt.Errorf("randprog: seed %#x: %s", p.Seed, strings.Join(probs, "; "))
	}
	return rep, nil
}
