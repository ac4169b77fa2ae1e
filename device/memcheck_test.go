package device

import (
	_ "embed"
	"fmt"
	"strings"
	"testing"

	"github.com/smsim/smsim/internal/clangtest"
	"github.com/smsim/smsim/pipeline"
)

//go:embed testdata/memcheck.ptx
var memcheckPTX []byte

// Memcheck on clang-16's code through the API: a misaligned ld.global.u32
// gives a misaligned record with its lane and address, an aligned one
// nothing; a shared read past a __shared__ array gives out_of_bounds
// naming it, one inside nothing.
func TestMemcheckClangKernels(t *testing.T) {
	d, m := openLoad(t, "memcheck.ptx", memcheckPTX)
	src, _ := d.Alloc("src", 256)
	out, _ := d.Alloc("out", 128)
	lc := LaunchConfig{Block: Dim3{20}}
	if rep, err := m.Launch("load_at", lc, src, 4, out); err != nil || len(rep.Sanitizer) != 0 {
		t.Fatalf("aligned: %v %+v", err, rep)
	}
	rep, err := m.Launch("load_at", lc, src, 2, out)
	if err == nil || len(rep.Sanitizer) == 0 {
		t.Fatalf("misaligned: %v %+v", err, rep)
	}
	s := rep.Sanitizer[0]
	if s.Kind != "misaligned" || s.Space != "global" || s.Lane != 0 || s.Address != uint64(src)+2 || s.Size != 4 || s.Line != ptxLine(t, "ld.global.u32") {
		t.Errorf("misaligned record %+v", s)
	}
	if rep, err := m.Launch("shared_shift", lc, out, 0); err != nil || len(rep.Sanitizer) != 0 {
		t.Fatalf("inside: %v %+v", err, rep)
	}
	rep, err = m.Launch("shared_shift", lc, out, 2)
	if err == nil || len(rep.Sanitizer) == 0 {
		t.Fatalf("past the array: %v %+v", err, rep)
	}
	s = rep.Sanitizer[0]
	var arr uint64 // where shared_shift's s lies
	for _, sym := range m.Image().Symbols {
		if sym.Name == "shared_shift::_ZZ12shared_shiftE1s" {
			arr = sym.Addr
		}
	}
	if s.Kind != "out_of_bounds" || s.Space != "shared" || s.Lane != 18 || s.Address != arr+80 || s.Allocation == nil || s.Allocation.End != arr+80 || s.Distance != 0 || s.Line != ptxLine(t, "ld.shared.u32 \t%r4") {
		t.Errorf("shared record %+v (allocation %+v)", s, s.Allocation)
	}
}

// ptxLine is "memcheck.ptx:N" of the first line of memcheck.ptx holding
// text.
func ptxLine(t *testing.T, text string) string { return ptxLineIn(t, "", text) }

// ptxLineIn is ptxLine from the .entry of kernel on ("": from the top).
func ptxLineIn(t *testing.T, kernel, text string) string { return ptxLineNth(t, kernel, text, 1) }

// ptxLineNth is ptxLineIn's nth line holding text.
func ptxLineNth(t *testing.T, kernel, text string, nth int) string {
	t.Helper()
	in := kernel == ""
	for i, l := range strings.Split(string(memcheckPTX), "\n") {
		in = in || strings.Contains(l, ".entry "+kernel+"(")
		if in && strings.Contains(l, text) {
			if nth--; nth == 0 {
				return fmt.Sprintf("memcheck.ptx:%d", i+1)
			}
		}
	}
	t.Fatalf("memcheck.ptx has too few %q after .entry %s", text, kernel)
	return ""
}

// The optional checks on clang-16's code: --check init reports the read
// of a __shared__ entry no thread wrote (and nothing when every entry was
// written); --check sync reports a warp whose threads reach barrier 0 at
// two __syncthreads() in one phase, one inside a branch some take (and
// nothing when every thread takes it). Off, neither reports.
func TestOptionalChecksClangKernels(t *testing.T) {
	d, m := openLoad(t, "memcheck.ptx", memcheckPTX)
	out, _ := d.Alloc("out", 256)
	lc := LaunchConfig{Block: Dim3{64}}
	for _, c := range []struct {
		kernel string
		arg    int
		checks pipeline.Checks
		kind   string
		warp   int
		lane   int
		line   string
		nth    int // the line's occurrence in the kernel (0: the first)
	}{
		{kernel: "shared_partial", arg: 64, checks: pipeline.Checks{Init: true}},
		{kernel: "shared_partial", arg: 32},
		{kernel: "shared_partial", arg: 32, checks: pipeline.Checks{Init: true}, kind: "uninitialized_read", warp: 1, lane: 0, line: "ld.shared.u32 \t%r3"},
		{kernel: "split_barrier", arg: 64, checks: pipeline.Checks{Sync: true}},
		{kernel: "split_barrier", arg: 16},
		{kernel: "split_barrier", arg: 16, checks: pipeline.Checks{Sync: true}, kind: "barrier_divergence", warp: 0, lane: 16, line: "bar.sync \t0", nth: 2},
	} {
		d.SetChecks(c.checks)
		rep, err := m.Launch(c.kernel, lc, out, c.arg)
		if err != nil {
			t.Fatalf("%s(%d): %v", c.kernel, c.arg, err)
		}
		if c.kind == "" {
			if len(rep.Sanitizer) != 0 {
				t.Errorf("%s(%d) %+v: %+v", c.kernel, c.arg, c.checks, rep.Sanitizer)
			}
			continue
		}
		if len(rep.Sanitizer) != 1 {
			t.Fatalf("%s(%d): %+v", c.kernel, c.arg, rep.Sanitizer)
		}
		s := rep.Sanitizer[0]
		line := ptxLineNth(t, c.kernel, c.line, max(c.nth, 1))
		if s.Kind != c.kind || s.WarpInCTA != c.warp || s.Lane != c.lane || s.Line != line || s.Detail == "" {
			t.Errorf("%s(%d): record %+v, want %s warp %d lane %d at %s", c.kernel, c.arg, s, c.kind, c.warp, c.lane, line)
		}
	}
}

// --check init on device memory: a kernel reading an allocation nobody
// wrote reports uninitialized_read naming it; after the host's fill, or
// where a kernel wrote under the check, nothing.
func TestInitCheckDeviceMemory(t *testing.T) {
	d, m := openLoad(t, "memcheck.ptx", memcheckPTX)
	a, _ := d.Alloc("a", 256)
	b, _ := d.Alloc("b", 256)
	out, _ := d.Alloc("out", 256)
	d.SetChecks(pipeline.Checks{Init: true})
	lc := LaunchConfig{Block: Dim3{32}}
	rep, err := m.Launch("load_at", lc, a, 0, out)
	if err != nil || len(rep.Sanitizer) != 1 {
		t.Fatalf("unwritten: %v %+v", err, rep.Sanitizer)
	}
	s := rep.Sanitizer[0]
	if s.Kind != "uninitialized_read" || s.Space != "global" || s.Address != uint64(a) || s.Size != 4 || s.Allocation == nil || s.Allocation.Name != "a" {
		t.Errorf("record %+v (allocation %+v)", s, s.Allocation)
	}
	if err := d.Fill(a, 0, 256); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]any{{a, 0, out}, {a, 0, b}, {b, 0, out}} { // the second writes b
		if rep, err := m.Launch("load_at", lc, args...); err != nil || len(rep.Sanitizer) != 0 {
			t.Fatalf("%v: %v %+v", args, err, rep.Sanitizer)
		}
	}
	// A freed and reallocated buffer is unwritten again.
	if err := d.Free(b); err != nil {
		t.Fatal(err)
	}
	b2, _ := d.Alloc("b2", 256)
	if rep, _ := m.Launch("load_at", lc, b2, 0, out); len(rep.Sanitizer) != 1 {
		t.Fatalf("reallocated: %+v", rep.Sanitizer)
	}
}

// --check race on clang-16's reduction: with its __syncthreads() removed
// a warp reads shared words another warp writes in the same step
// (shared_race, naming both accesses); with it, nothing; off, nothing.
// Both sums are right here (the model's warps happen to run in an order
// that works), which is what makes the check worth having.
func TestRaceCheckClangReduction(t *testing.T) {
	d, m := openLoad(t, "memcheck.ptx", memcheckPTX)
	words := make([]uint32, 128)
	var sum uint32
	for i := range words {
		words[i] = uint32(3*i + 1)
		sum += words[i]
	}
	in, _ := AllocSlice(d, "in", words)
	out, _ := d.Alloc("out", 4)
	lc := LaunchConfig{Block: Dim3{128}}
	for _, c := range []struct {
		kernel string
		race   bool
		want   bool
	}{
		{"reduce", true, false},
		{"reduce_racy", false, false},
		{"reduce_racy", true, true},
	} {
		d.SetChecks(pipeline.Checks{Race: c.race})
		rep, err := m.Launch(c.kernel, lc, in, out)
		if err != nil {
			t.Fatalf("%s: %v", c.kernel, err)
		}
		got, _ := ReadSlice[uint32](d, out, 1)
		if !c.want {
			if len(rep.Sanitizer) != 0 {
				t.Errorf("%s race=%v: %+v", c.kernel, c.race, rep.Sanitizer)
			}
			if c.kernel == "reduce" && got[0] != sum {
				t.Errorf("reduce: %d, want %d", got[0], sum)
			}
			continue
		}
		if len(rep.Sanitizer) == 0 {
			t.Fatalf("%s: no race reported", c.kernel)
		}
		s := rep.Sanitizer[0]
		if s.Kind != "shared_race" || s.Space != "shared" || s.Other == nil || s.Other.WarpInCTA == s.WarpInCTA ||
			!strings.HasPrefix(s.Line, "memcheck.ptx:") || !strings.HasPrefix(s.Other.Line, "memcheck.ptx:") || !strings.Contains(s.Detail, "no barrier") {
			t.Errorf("record %+v (other %+v)", s, s.Other)
		}
		for _, r := range rep.Sanitizer {
			if r.Kind != "shared_race" {
				t.Errorf("record %+v", r)
			}
		}
	}
}

// --check race on global memory: two warps writing the same word with no
// barrier between are a global_race; one warp alone, nothing.
func TestRaceCheckGlobal(t *testing.T) {
	d, m := openLoad(t, "memcheck.ptx", memcheckPTX)
	out, _ := d.Alloc("out", 4)
	d.SetChecks(pipeline.Checks{Race: true})
	lc := LaunchConfig{Block: Dim3{64}}
	if rep, err := m.Launch("last_writer", lc, out, 0); err != nil || len(rep.Sanitizer) != 0 {
		t.Fatalf("one warp: %v %+v", err, rep.Sanitizer)
	}
	rep, err := m.Launch("last_writer", lc, out, 1)
	if err != nil || len(rep.Sanitizer) != 1 {
		t.Fatalf("two warps: %v %+v", err, rep.Sanitizer)
	}
	s := rep.Sanitizer[0]
	line := ptxLineIn(t, "last_writer", "st.global.u32")
	if s.Kind != "global_race" || s.Space != "global" || s.Address != uint64(out) || s.Other == nil || s.Other.WarpInCTA == s.WarpInCTA ||
		s.Line != line || s.Other.Line != line || !strings.Contains(s.Detail, "write after write") {
		t.Errorf("record %+v (other %+v)", s, s.Other)
	}
}

// --check race on data read through the read-only path: a store before
// or after an ld.global.nc of the same bytes is an nc_modified record
// naming both; reads alone, and the same kernel without the check,
// nothing.
func TestRaceCheckNonCoherent(t *testing.T) {
	d, m := openLoad(t, "memcheck.ptx", memcheckPTX)
	data, _ := d.Alloc("data", 4)
	out, _ := d.Alloc("out", 4*64)
	lc := LaunchConfig{Block: Dim3{64}}
	if rep, err := m.Launch("nc_reader", lc, data, out, 1); err != nil || len(rep.Sanitizer) != 0 {
		t.Fatalf("without the check: %v %+v", err, rep.Sanitizer)
	}
	d.SetChecks(pipeline.Checks{Race: true})
	if rep, err := m.Launch("nc_reader", lc, data, out, 0); err != nil || len(rep.Sanitizer) != 0 {
		t.Fatalf("reads only: %v %+v", err, rep.Sanitizer)
	}
	ld := ptxLineIn(t, "nc_reader", "ld.global.nc.u32")
	st1 := ptxLineIn(t, "nc_reader", "st.global.u32")
	st2 := ptxLineNth(t, "nc_reader", "st.global.u32", 3)
	for _, c := range []struct {
		mode            int
		line, other     string
		detail          string
		warp, otherWarp int
	}{
		// The first warp to read reports (-1: either warp).
		{1, ld, st1, "ld.global.nc reads bytes this kernel wrote (warp 0 of CTA (0,0,0) at " + st1 + ")", -1, 0},
		{2, st2, ld, "a store or atomic writes bytes that ld.global.nc read (warp ", 0, -1},
	} {
		rep, err := m.Launch("nc_reader", lc, data, out, c.mode)
		if err != nil || len(rep.Sanitizer) != 1 {
			t.Fatalf("mode %d: %v %+v", c.mode, err, rep.Sanitizer)
		}
		s := rep.Sanitizer[0]
		if s.Kind != "nc_modified" || s.Space != "global" || s.Address != uint64(data) || s.Size != 4 || s.Line != c.line ||
			s.Other == nil || s.Other.Line != c.other || c.warp >= 0 && s.WarpInCTA != c.warp || c.otherWarp >= 0 && s.Other.WarpInCTA != c.otherWarp ||
			!strings.Contains(s.Detail, c.detail) {
			t.Errorf("mode %d: record %+v (other %+v), want at %s against %s", c.mode, s, s.Other, c.line, c.other)
		}
	}
}

// testdata/memcheck.ptx is exactly clang-16's output for memcheck.cu.
func TestMemcheckPTXIsClangOutput(t *testing.T) {
	clangtest.CheckPTX(t, "testdata/memcheck.cu", memcheckPTX)
}
