package randprog

import (
	"fmt"
	"sort"
	"strings"
)

// Features selects what a generated kernel may contain: one switch per
// family, and the integer operations and special registers by name. The
// zero value gives the base program alone: the prologue (parameters,
// %tid.x/%ntid.x/%ctaid.x, the variables' initial values) and the
// epilogue (every variable stored to `out`), with plain moves between
// variables as its statements.
type Features struct {
	// Ops are the integer operations the statements use (OpNames lists
	// them; "add", "mul.wide", "div", ...).
	Ops []string
	// Compare: setp (every integer comparison, .and/.or/.xor with a
	// second predicate, two destinations), selp, predicated operations,
	// and/or/xor/not of predicates.
	Compare bool
	// Branch: nested divergent if and if/else (min-PC reconvergence).
	Branch bool
	// Loop: loops with a per-lane trip count of 1..8, at most two nested.
	Loop bool
	// Call: direct calls to .func with .param arguments and a return
	// value; the callees return divergently (`@p ret`).
	Call bool
	// IndirectCall: calls through a table of function pointers in
	// .global data (each lane its own target), .callprototype.
	IndirectCall bool
	// BrxIdx: brx.idx over a .branchtargets table, each lane its own
	// target.
	BrxIdx bool
	// Barrier: bar.sync in uniform code; with Shared, exchanges of
	// values between threads through shared memory.
	Barrier bool
	// Exit: partial exit (`@p exit`) anywhere in the kernel.
	Exit bool
	// Shared: a .shared array, each thread reading and writing its own
	// 8-byte slot (32- and 64-bit).
	Shared bool
	// Global: ld.global (also .nc) and st.global of 32 and 64 bits:
	// reads of `in` anywhere, reads and writes of the thread's own
	// `scratch` slots, register and immediate offsets.
	Global bool
	// GlobalNarrow: 8- and 16-bit ld.global/st.global (signed and
	// unsigned).
	GlobalNarrow bool
	// SRegs are the special registers read (SRegNames lists them).
	SRegs []string
	// Nanosleep: nanosleep.u32 of an immediate or a bounded register.
	Nanosleep bool
	// PMEvent: pmevent and pmevent.mask, some predicated.
	PMEvent bool
	// Warp: the warp operations with the active mask as the member mask
	// (activemask; vote.sync all/any/uni/ballot; redux.sync add, min, max,
	// and, or, xor), anywhere, also in divergent code; shfl.sync (up,
	// down, bfly, idx, with segments and the in-range predicate) where
	// every lane of a full warp runs it (uniform kernel code before any
	// exit, blocks of whole warps).
	Warp bool
	// Trap: BPT.TRAP 2..7 served by a trap handler .func that logs the
	// warp ESR's reason per thread and returns with RTT (the program's
	// TrapHandler must be configured as trap.handler).
	Trap bool
	// MultiCTA: grids of 2..Limits.MaxCTAs CTAs.
	MultiCTA bool
	// Block2D: blocks of 2..4 rows (the thread index from %tid.y,
	// %ntid.x and %tid.x).
	Block2D bool
}

// families are the boolean switches by name, in a fixed order.
var families = []struct {
	name string
	get  func(*Features) *bool
}{
	{"compare", func(f *Features) *bool { return &f.Compare }},
	{"branch", func(f *Features) *bool { return &f.Branch }},
	{"loop", func(f *Features) *bool { return &f.Loop }},
	{"call", func(f *Features) *bool { return &f.Call }},
	{"icall", func(f *Features) *bool { return &f.IndirectCall }},
	{"brx", func(f *Features) *bool { return &f.BrxIdx }},
	{"barrier", func(f *Features) *bool { return &f.Barrier }},
	{"exit", func(f *Features) *bool { return &f.Exit }},
	{"shared", func(f *Features) *bool { return &f.Shared }},
	{"global", func(f *Features) *bool { return &f.Global }},
	{"narrow", func(f *Features) *bool { return &f.GlobalNarrow }},
	{"nanosleep", func(f *Features) *bool { return &f.Nanosleep }},
	{"pmevent", func(f *Features) *bool { return &f.PMEvent }},
	{"warp", func(f *Features) *bool { return &f.Warp }},
	{"trap", func(f *Features) *bool { return &f.Trap }},
	{"multicta", func(f *Features) *bool { return &f.MultiCTA }},
	{"block2d", func(f *Features) *bool { return &f.Block2D }},
}

// Families lists the names of the boolean switches ("compare",
// "branch", ..., "block2d"), for Set and String.
func Families() []string {
	out := make([]string, len(families))
	for i, fam := range families {
		out[i] = fam.name
	}
	return out
}

// All is every family, every operation and every special register.
func All() Features {
	f := Features{Ops: OpNames(), SRegs: SRegNames()}
	for _, fam := range families {
		*fam.get(&f) = true
	}
	return f
}

// Set turns the family name on or off; "ops=a,b" and "sregs=a,b" set
// the lists ("ops=all", "sregs=all": every one).
func (f *Features) Set(name string, on bool) error {
	if k, v, ok := strings.Cut(name, "="); ok {
		var all, list []string
		switch k {
		case "ops":
			all = OpNames()
		case "sregs":
			all = SRegNames()
		default:
			return fmt.Errorf("unknown feature list %q (ops=..., sregs=...)", k)
		}
		if v == "all" {
			list = all
		} else if v != "" {
			for _, x := range strings.Split(v, ",") {
				if !contains(all, x) {
					return fmt.Errorf("unknown %s entry %q (known: %s)", k, x, strings.Join(all, ","))
				}
				list = append(list, x)
			}
		}
		if !on {
			list = nil
		}
		if k == "ops" {
			f.Ops = list
		} else {
			f.SRegs = list
		}
		return nil
	}
	for _, fam := range families {
		if fam.name == name {
			*fam.get(f) = on
			return nil
		}
	}
	return fmt.Errorf("unknown feature %q (families: %s; lists: ops=..., sregs=...)", name, strings.Join(Families(), ", "))
}

// Has reports whether the family name is on.
func (f Features) Has(name string) bool {
	for _, fam := range families {
		if fam.name == name {
			return *fam.get(&f)
		}
	}
	return false
}

// String is the features as Set reads them: the families that are on,
// then ops=... and sregs=... (sorted).
func (f Features) String() string {
	var parts []string
	for _, fam := range families {
		if *fam.get(&f) {
			parts = append(parts, fam.name)
		}
	}
	for _, l := range []struct {
		k string
		v []string
	}{{"ops", f.Ops}, {"sregs", f.SRegs}} {
		if len(l.v) > 0 {
			s := append([]string(nil), l.v...)
			sort.Strings(s)
			parts = append(parts, l.k+"="+strings.Join(s, ","))
		}
	}
	if len(parts) == 0 {
		return "base"
	}
	return strings.Join(parts, " ")
}

// ParseFeatures reads a String: space- or comma-separated family names,
// ops=a,b and sregs=a,b; "all" is All, "base" the zero value.
func ParseFeatures(s string) (Features, error) {
	var f Features
	for _, tok := range strings.Fields(s) {
		switch tok {
		case "all":
			f = All()
			continue
		case "base":
			continue
		}
		if strings.Contains(tok, "=") {
			if err := f.Set(tok, true); err != nil {
				return f, err
			}
			continue
		}
		for _, name := range strings.Split(tok, ",") {
			if name == "" {
				continue
			}
			if err := f.Set(name, true); err != nil {
				return f, err
			}
		}
	}
	return f, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
