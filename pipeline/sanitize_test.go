package pipeline

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
)

// checkGlobal's verdicts and its nearest allocation, on two allocations
// a [0x10000, 0x10008) and b [0x10100, 0x10200).
func TestCheckGlobal(t *testing.T) {
	sm := &SM{allocs: []Allocation{{"a", 0x10000, 0x10008}, {"b", 0x10100, 0x10200}}}
	for _, c := range []struct {
		name      string
		addr      uint64
		n         int
		ok        bool
		alloc     string
		distance  int64
		msgSuffix string
	}{
		{"inside a", 0x10004, 4, true, "", 0, ""},
		{"inside b, last word", 0x101fc, 4, true, "", 0, ""},
		{"just past a", 0x10008, 4, false, "a", 0, "0 bytes past the end of a (8 bytes at 0x10000)"},
		{"crossing the end of a", 0x10004, 8, false, "a", 4, "crosses the end of a (8 bytes at 0x10000) by 4 bytes"},
		{"nearer b", 0x100f8, 4, false, "b", -8, "8 bytes before b (256 bytes at 0x10100)"},
		{"past b", 0x10300, 4, false, "b", 0x100, "256 bytes past the end of b (256 bytes at 0x10100)"},
		{"before everything", 0xfff0, 4, false, "a", -16, "16 bytes before a (8 bytes at 0x10000)"},
	} {
		f := sm.checkGlobal(3, c.addr, c.addr, c.addr+uint64(c.n))
		if c.ok {
			if f != nil {
				t.Errorf("%s: %v", c.name, f)
			}
			continue
		}
		if f == nil || f.san == nil || f.kind != "out_of_bounds" {
			t.Fatalf("%s: %+v, want an out_of_bounds fault", c.name, f)
		}
		r := f.san
		if r.Allocation == nil || r.Allocation.Name != c.alloc || r.Distance != c.distance || r.Lane != 3 || r.Size != c.n || r.Address != c.addr {
			t.Errorf("%s: report %+v (allocation %+v), want %s distance %d", c.name, r, r.Allocation, c.alloc, c.distance)
		}
		if want := c.msgSuffix; len(f.msg) < len(want) || f.msg[len(f.msg)-len(want):] != want {
			t.Errorf("%s: message %q, want it to end in %q", c.name, f.msg, want)
		}
	}
	empty := &SM{}
	if f := empty.checkGlobal(0, 0x10000, 0x10000, 0x10004); f == nil || f.san.Allocation != nil {
		t.Errorf("no allocation at all: %+v", f)
	}
}

// A misaligned ld.global.u32 gives a "misaligned" sanitizer record with
// its lane, address, size, PC and line; an aligned one gives none.
func TestMisalignedRecord(t *testing.T) {
	for _, off := range []int{2, 4} {
		src := kernel(`
	setp.eq.u32 %p1, %r2, 7;
	@%p1 add.s64 %rd3, %rd3, ` + itoa(off) + `;
	ld.global.u32 %r4, [%rd3];
	ret;`)
		_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(64)})
		if off == 4 {
			wantCompleted(t, rep)
			if len(rep.Sanitizer) != 0 {
				t.Errorf("aligned: %+v", rep.Sanitizer)
			}
			continue
		}
		if rep.Status != StatusFault || len(rep.Sanitizer) != 1 {
			t.Fatalf("status %s, sanitizer %+v", rep.Status, rep.Sanitizer)
		}
		s := rep.Sanitizer[0]
		addr, _ := sm0BufferAddr(t, src)
		if s.Kind != "misaligned" || s.Lane != 7 || s.Size != 4 || s.Address != addr+7*4+2 || s.Line == "" {
			t.Errorf("record %+v, want misaligned lane 7 size 4 at %#x", s, addr+7*4+2)
		}
	}
}

// sm0BufferAddr is the address "out" gets in a launch of src.
func sm0BufferAddr(t *testing.T, src string) (uint64, bool) {
	sm := newPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(64)})
	return sm.BufferAddr("out")
}

// spacesPTX declares a variable with padding after it in each of shared,
// const, param and local (the frame of k), and runs one access chosen by
// the test (ACCESS) in lane 5 only.
const spacesPTX = `
.const .align 4 .b8 c1[4];
.const .align 8 .b8 c2[8];
.shared .align 4 .b8 s1[12];
.shared .align 16 .b8 s2[16];
.func (.reg .b32 r) f()
{
	.local .align 4 .b8 fbuf[8];
	st.local.u32 [fbuf], 1;
	ld.local.u32 r, [fbuf];
	ret;
}
.visible .entry k(.param .u32 n, .param .u64 out)
{
	.local .align 4 .b8 buf[16];
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.reg .pred %p<2>;
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 5;
	@%p1 bra DONE;
	call (%r3), f;
	ACCESS
DONE:
	ret;
}
`

// Memcheck covers shared, const, param and local accesses: one between
// or past the variables, or past the live stack (local memory is checked
// by frames, not by variable), is out_of_bounds with the space, the lane
// and the nearest allocation; one inside is silent.
func TestMemcheckSpaces(t *testing.T) {
	for _, c := range []struct {
		access, space, alloc string
		addr                 uint64
		size                 int
		distance             int64
	}{
		{access: "st.shared.u32 [s1+8], %r1;"},
		{access: "st.shared.u32 [s2+12], %r1;"},
		{access: "st.shared.u32 [s1+12], %r1;", space: "shared", alloc: "s1", addr: 12, size: 4},
		{access: "st.shared.u32 [s2+16], %r1;", space: "shared", alloc: "s2", addr: 32, size: 4},
		{access: "st.shared.u64 [s1+8], %rd1;", space: "shared", alloc: "s1", addr: 8, size: 8, distance: 4},
		{access: "ld.const.u32 %r2, [c2+4];"},
		{access: "ld.const.u32 %r2, [c1+4];", space: "const", alloc: "c1", addr: 4, size: 4},
		{access: "ld.param.u32 %r2, [n];"},
		{access: "ld.param.u64 %rd2, [out];"},
		{access: "ld.param.u32 %r2, [n+4];", space: "param", alloc: "n", addr: 4, size: 4},
		{access: "ld.param.u64 %rd2, [n];", space: "param", alloc: "n", addr: 0, size: 8, distance: 4},
		{access: "st.local.u32 [buf+12], %r1;"},
		// The live stack ends with k's frame (buf, then the call's
		// areas); distance -1 stands for 64 minus the frame.
		{access: "ld.local.u32 %r2, [64];", space: "local", alloc: "stack", addr: 64, size: 4, distance: -1},
	} {
		src := strings.Replace(spacesPTX, "ACCESS", c.access, 1)
		if c.distance == -1 {
			im := assemble(t, "test.ptx", []byte(ptxHeader+src))
			for _, f := range im.Funcs {
				if f.Name == "k" {
					c.distance = 64 - int64(f.Frame)
				}
			}
			if c.distance < 0 {
				t.Fatalf("k's frame is beyond 64 bytes")
			}
		}
		_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Args: map[string]uint64{"n": 1, "out": 0}})
		if c.space == "" {
			if rep.Status != StatusCompleted || len(rep.Sanitizer) != 0 {
				t.Errorf("%s: status %s, sanitizer %+v, errors %+v", c.access, rep.Status, rep.Sanitizer, rep.Errors)
			}
			continue
		}
		if rep.Status != StatusFault || len(rep.Sanitizer) != 1 || len(rep.Errors) == 0 || rep.Errors[0].Kind != "out_of_bounds" {
			t.Errorf("%s: status %s, sanitizer %+v, errors %+v", c.access, rep.Status, rep.Sanitizer, rep.Errors)
			continue
		}
		s := rep.Sanitizer[0]
		if s.Kind != "out_of_bounds" || s.Space != c.space || s.Lane != 5 || s.Address != c.addr || s.Size != c.size ||
			s.Allocation == nil || s.Allocation.Name != c.alloc || s.Distance != c.distance || !strings.HasPrefix(s.Line, "test.ptx:") {
			t.Errorf("%s: record %+v (allocation %+v)", c.access, s, s.Allocation)
		}
	}
}

// The live stack follows calls: a callee may read its caller's frame
// (below its own FP) through a generic pointer, and the caller may use
// its whole frame after the return.
func TestMemcheckStackFollowsCalls(t *testing.T) {
	src := `
.func (.reg .b32 r) f(.reg .b64 p)
{
	ld.u32 r, [p];
	ret;
}
.visible .entry k(.param .u64 out)
{
	.local .align 4 .b8 buf[16];
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	mov.u64 %rd1, buf;
	cvta.local.u64 %rd2, %rd1;
	st.local.u32 [buf+8], 7;
	add.s64 %rd2, %rd2, 8;
	call (%r1), f, (%rd2);
	st.local.u32 [buf+12], %r1;
	ret;
}
`
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Args: map[string]uint64{"out": 0}})
	if rep.Status != StatusCompleted || len(rep.Sanitizer) != 0 {
		t.Fatalf("status %s, sanitizer %+v, errors %+v", rep.Status, rep.Sanitizer, rep.Errors)
	}
}

// --check sync: warps giving the same barrier different thread counts in
// one phase are barrier_divergence; the same counts, or the check off,
// say nothing. (Had warp 1 arrived first with 32, its own threads would
// have completed the barrier: no common phase, nothing to report.)
func TestCheckSyncCounts(t *testing.T) {
	for _, c := range []struct {
		count  string
		checks Checks
		want   bool
	}{
		{"64", Checks{Sync: true}, false},
		{"32", Checks{Sync: true}, true},
		{"32", Checks{}, false},
	} {
		src := kernel(`
	setp.lt.u32 %p1, %r1, 32;
	@%p1 bra W0;
	nanosleep.u32 2000; // warp 0 arrives first, opening the phase
	bar.sync 1, ` + c.count + `; // warp 1
	bra.uni DONE;
W0:
	bar.sync 1, 64;
DONE:
	ret;`)
		_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64), Checks: c.checks})
		wantCompleted(t, rep)
		if !c.want {
			if len(rep.Sanitizer) != 0 {
				t.Errorf("count %s %+v: %+v", c.count, c.checks, rep.Sanitizer)
			}
			continue
		}
		if len(rep.Sanitizer) != 1 {
			t.Fatalf("count %s: %+v", c.count, rep.Sanitizer)
		}
		s := rep.Sanitizer[0]
		if s.Kind != "barrier_divergence" || s.WarpInCTA != 1 || s.Line != fmt.Sprintf("test.ptx:%d", lineOfText(t, src, "// warp 1")) ||
			!strings.Contains(s.Detail, "thread count 32; warp 0 of the CTA gave 64") {
			t.Errorf("record %+v", s)
		}
	}
}

func TestParseChecks(t *testing.T) {
	if c, err := ParseChecks("init, sync,race"); err != nil || c != (Checks{Init: true, Sync: true, Race: true}) {
		t.Errorf("init, sync,race: %+v %v", c, err)
	}
	if c, err := ParseChecks(""); err != nil || c != (Checks{}) {
		t.Errorf("empty: %+v %v", c, err)
	}
	for s, want := range map[string]string{"bogus": `unknown check "bogus" (checks: init, race, sync)`, "init,x": `unknown check "x"`} {
		if _, err := ParseChecks(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// With --check sync the model's .uni report joins the sanitizer list
// under its own kind; without, it stays in errors only.
func TestSyncListsUniformViolation(t *testing.T) {
	src := kernel(`
	setp.lt.u32 %p1, %r2, 10;
	@%p1 bra.uni SKIP; // not uniform
	mov.u32 %r4, 2;
SKIP:
	ret;`)
	for _, on := range []bool{false, true} {
		sm, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32), Checks: Checks{Sync: on}})
		if len(rep.Errors) != 1 || rep.Errors[0].Kind != "uniform_violation" {
			t.Fatalf("errors %+v", rep.Errors)
		}
		if !on {
			if len(rep.Sanitizer) != 0 {
				t.Errorf("off: %+v", rep.Sanitizer)
			}
			continue
		}
		if len(rep.Sanitizer) != 1 {
			t.Fatalf("sanitizer %+v", rep.Sanitizer)
		}
		s := rep.Sanitizer[0]
		if s.Kind != "uniform_violation" || s.PC != pcOfText(t, sm, "// not uniform") || s.Line != rep.Errors[0].Line || s.Detail != rep.Errors[0].Message {
			t.Errorf("record %+v", s)
		}
	}
}

// The optional checks observe and never change the run: random programs
// (TestRandomPrograms's) give the same report with every check on, but
// for the sanitizer's records, and never panic.
func TestChecksArePassive(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	run := func(data []byte, c Checks) *Report {
		cfg := smallConfig()
		cfg.Run.MaxCycles = 3000
		sm, err := New(cfg, randomImage(data), Launch{Entry: "k", Grid: [3]uint32{2, 1, 1}, Block: [3]uint32{40, 1, 1}, Buffers: []Buffer{{Param: "p", Size: 256}}, Checks: c})
		if err != nil {
			return nil
		}
		return runSM(t, sm)
	}
	for i := 0; i < 200; i++ {
		data := make([]byte, 16*(1+r.Intn(40)))
		r.Read(data)
		for j := 0; j < len(data); j += 16 {
			data[j] %= 62
			binary.LittleEndian.PutUint32(data[j+8:], binary.LittleEndian.Uint32(data[j+8:])&0x0fffffff)
		}
		off := run(data, Checks{})
		on := run(data, Checks{Init: true, Race: true, Sync: true})
		if off == nil || on == nil {
			continue
		}
		on.Sanitizer, on.SanitizerDropped, off.Sanitizer, off.SanitizerDropped = nil, 0, nil, 0
		a, _ := json.Marshal(off)
		b, _ := json.Marshal(on)
		if string(a) != string(b) {
			t.Fatalf("program %d: the checks changed the run\noff %s\n on %s", i, a, b)
		}
	}
}

// The same on every example kernel: the checks change nothing but the
// sanitizer's records.
func TestChecksArePassiveOnExamples(t *testing.T) {
	for _, e := range examples.All() {
		run := func(c Checks) *Report {
			cfg := config.Default()
			if e.TrapHandler != "" {
				cfg.Trap.Handler = e.TrapHandler
			}
			l := launchOf(e)
			l.Checks = c
			sm, err := New(cfg, assemble(t, e.Name+".ptx", e.PTX), l)
			if err != nil {
				t.Fatal(err)
			}
			if err := sm.SetHostPolicy(e.OnTrap, ""); err != nil {
				t.Fatal(err)
			}
			rep := runSM(t, sm)
			rep.Sanitizer, rep.SanitizerDropped = nil, 0
			return rep
		}
		a, _ := json.Marshal(run(Checks{}))
		b, _ := json.Marshal(run(Checks{Init: true, Race: true, Sync: true}))
		if string(a) != string(b) {
			t.Errorf("%s: the checks changed the run", e.Name)
		}
	}
}

// --check sync: the halves of each warp wait at two different barriers
// (32 threads each, so both complete): each barrier is reached by a warp
// whose other live lanes never arrive there.
func TestCheckSyncLanesElsewhere(t *testing.T) {
	src := kernel(`
	setp.lt.u32 %p1, %r2, 16;
	@%p1 bra A;
	bar.sync 2, 32; // upper halves
	bra.uni DONE;
A:
	bar.sync 1, 32; // lower halves
DONE:
	ret;`)
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{64, 1, 1}, Buffers: outBuf(64), Checks: Checks{Sync: true}})
	wantCompleted(t, rep)
	if len(rep.Sanitizer) != 2 {
		t.Fatalf("sanitizer %+v", rep.Sanitizer)
	}
	for _, s := range rep.Sanitizer {
		upper := s.Line == fmt.Sprintf("test.ptx:%d", lineOfText(t, src, "// upper halves"))
		lower := s.Line == fmt.Sprintf("test.ptx:%d", lineOfText(t, src, "// lower halves"))
		if s.Kind != "barrier_divergence" || s.WarpInCTA != 0 || !upper && !lower || upper && s.Lane != 0 || lower && s.Lane != 16 ||
			!strings.Contains(s.Detail, "never arrived there") {
			t.Errorf("record %+v", s)
		}
	}
}
