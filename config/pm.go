package config

import (
	"fmt"
	"strconv"
	"strings"
)

// PMKind is what a performance-monitor counter counts.
type PMKind uint8

// The counter kinds.
const (
	PMOff          PMKind = iota // always reads 0
	PMCycles                     // SM cycles
	PMInstructions               // warp instructions issued by the SM
	PMEvents                     // pmevent triggers: +1 per triggered event in Mask
	PMStall                      // warp-cycles spent in stall state State
)

// PMCounter is the parsed form of a pm.counter.N string.
type PMCounter struct {
	Kind  PMKind
	Mask  uint16 // PMEvents: the pmevent events counted (bit K = event K)
	State string // PMStall: one of StallStates
}

// StallStates returns the warp stall states a "stall:STATE" counter may
// name. "any" counts a warp-cycle in any of the others. The scheduler maps
// its warp states onto these names.
func StallStates() []string {
	return []string{
		"any",          // any of the states below
		"fetch",        // waiting for its next instruction
		"scoreboard",   // waiting for a source register (data dependency)
		"memory",       // memory pipeline full (mem.global_ports), membar, cp.async waits
		"barrier",      // waiting at bar.sync, suspended in mbarrier.try_wait
		"sleep",        // in nanosleep
		"regpool",      // blocked in setmaxnreg.inc for pool registers
		"drain",        // in BPT.DRAIN
		"paused",       // stopped by BPT.PAUSE / BPT.PAUSE_QUIET
		"trapped",      // in the trap handler or stopped by a trap
		"not_selected", // ready, another warp issued
	}
}

// ParsePMCounter parses a counter specification:
//
//	off | cycles | instructions | event:K | events:MASK | stall:STATE
//
// K is a pmevent event number 0..15; MASK a nonzero 16-bit mask of events
// (decimal or 0x hex), as pmevent.mask takes; STATE one of StallStates.
func ParsePMCounter(s string) (PMCounter, error) {
	switch s {
	case "off":
		return PMCounter{Kind: PMOff}, nil
	case "cycles":
		return PMCounter{Kind: PMCycles}, nil
	case "instructions":
		return PMCounter{Kind: PMInstructions}, nil
	}
	kind, arg, ok := strings.Cut(s, ":")
	switch {
	case ok && kind == "event":
		k, err := strconv.ParseUint(arg, 10, 8)
		if err != nil || k > 15 {
			return PMCounter{}, fmt.Errorf("%q: pmevent event number must be 0..15", s)
		}
		return PMCounter{Kind: PMEvents, Mask: 1 << k}, nil
	case ok && kind == "events":
		m, good := parseUint(arg, "")
		if !good || m == 0 || m > 0xffff {
			return PMCounter{}, fmt.Errorf("%q: event mask must be a nonzero 16-bit number", s)
		}
		return PMCounter{Kind: PMEvents, Mask: uint16(m)}, nil
	case ok && kind == "stall":
		for _, st := range StallStates() {
			if arg == st {
				return PMCounter{Kind: PMStall, State: st}, nil
			}
		}
		return PMCounter{}, fmt.Errorf("%q: unknown stall state (states: %s)", s, strings.Join(StallStates(), ", "))
	}
	return PMCounter{}, fmt.Errorf("%q is not a counter; want %s", s, checkHelp["pmcounter"])
}

// String returns the canonical specification of p.
func (p PMCounter) String() string {
	switch p.Kind {
	case PMOff:
		return "off"
	case PMCycles:
		return "cycles"
	case PMInstructions:
		return "instructions"
	case PMEvents:
		if p.Mask != 0 && p.Mask&(p.Mask-1) == 0 {
			for k := 0; k < 16; k++ {
				if p.Mask == 1<<k {
					return "event:" + strconv.Itoa(k)
				}
			}
		}
		return fmt.Sprintf("events:0x%04x", p.Mask)
	case PMStall:
		return "stall:" + p.State
	}
	return fmt.Sprintf("PMKind(%d)", p.Kind)
}

// PMCounters parses pm.counter.0..7.
func (c Config) PMCounters() ([8]PMCounter, error) {
	var out [8]PMCounter
	for i, s := range c.PM.Counter {
		p, err := ParsePMCounter(s)
		if err != nil {
			return out, &Error{Key: fmt.Sprintf("pm.counter.%d", i), Msg: fmt.Sprintf("pm.counter.%d: %v", i, err)}
		}
		out[i] = p
	}
	return out, nil
}
