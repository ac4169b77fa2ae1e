package pipeline

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
)

const ptxHeader = ".version 7.8\n.target sm_90\n.address_size 64\n"

// smallConfig is the small preset with the watchdog off and a modest
// cycle limit.
func smallConfig() config.Config {
	c, _ := config.Preset("small")
	c.Run.WatchdogCycles = 0
	c.Run.MaxCycles = 200_000
	return c
}

// newPTX assembles an inline kernel body (the header is added) and builds
// an SM for it.
func newPTX(t testing.TB, cfg config.Config, src string, l Launch) *SM {
	t.Helper()
	im := assemble(t, "test.ptx", []byte(ptxHeader+src))
	if l.Entry == "" {
		l.Entry = "k"
	}
	return newSM(t, cfg, im, l)
}

// newSM builds an SM for im under l, whose zero grid and block
// dimensions are taken as 1.
func newSM(t testing.TB, cfg config.Config, im *isa.Image, l Launch) *SM {
	t.Helper()
	for i := range l.Grid {
		l.Grid[i] = max(l.Grid[i], 1)
		l.Block[i] = max(l.Block[i], 1)
	}
	sm, err := New(cfg, im, l)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return sm
}

// runSM runs sm to its end; an error of Run fails t.
func runSM(t testing.TB, sm *SM) *Report {
	t.Helper()
	rep, err := sm.Run()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func runPTX(t testing.TB, cfg config.Config, src string, l Launch) (*SM, *Report) {
	t.Helper()
	sm := newPTX(t, cfg, src, l)
	return sm, runSM(t, sm)
}

// lineOfText returns the 1-based line of the full source (header
// included) that contains text.
func lineOfText(t testing.TB, src, text string) int {
	t.Helper()
	for i, l := range strings.Split(ptxHeader+src, "\n") {
		if strings.Contains(l, text) {
			return i + 1
		}
	}
	t.Fatalf("%q not in the source", text)
	return 0
}

// pcOfText returns the pc of the first instruction whose source line
// contains text.
func pcOfText(t testing.TB, sm *SM, text string) uint32 {
	t.Helper()
	for pc := range sm.im.Code {
		if _, s := sm.im.Where(uint32(pc)); strings.Contains(s, text) {
			return uint32(pc)
		}
	}
	t.Fatalf("no instruction from %q", text)
	return 0
}

// issueLog records every issued instruction.
type issueLog []IssueInfo

func (l *issueLog) hook(sm *SM) { sm.OnIssue(func(i *IssueInfo) { *l = append(*l, *i) }) }

// at returns the issues of pc.
func (l issueLog) at(pc uint32) []IssueInfo {
	var out []IssueInfo
	for _, i := range l {
		if i.PC == pc {
			out = append(out, i)
		}
	}
	return out
}

func outBuf(words int) []Buffer { return []Buffer{{Param: "out", Size: 4 * words}} }

// threadsLaunch is one CTA of n threads in x with an out buffer of n words.
func threadsLaunch(n int) Launch {
	return Launch{Block: [3]uint32{uint32(n), 1, 1}, Buffers: outBuf(n)}
}

// runLogged builds and runs an SM for src, recording every issue.
func runLogged(t testing.TB, cfg config.Config, src string, l Launch) (*SM, *Report, issueLog) {
	t.Helper()
	sm := newPTX(t, cfg, src, l)
	var log issueLog
	log.hook(sm)
	return sm, runSM(t, sm), log
}

func wantCompleted(t testing.TB, rep *Report) {
	t.Helper()
	wantStatus(t, rep, StatusCompleted)
}

// wantStatus fails t unless the run ended with status want.
func wantStatus(t testing.TB, rep *Report, want string) {
	t.Helper()
	if rep.Status != want {
		t.Fatalf("status %s, errors %+v", rep.Status, rep.Errors)
	}
}

// runOut runs src in one CTA of threads threads under smallConfig with an
// out buffer of words words, requires it to complete and returns the out
// buffer.
func runOut(t testing.TB, src string, threads, words int) []uint32 {
	t.Helper()
	_, rep := runPTX(t, smallConfig(), src, Launch{Block: [3]uint32{uint32(threads), 1, 1}, Buffers: outBuf(words)})
	wantCompleted(t, rep)
	return rep.Buffers["out"]
}

func wantNoErrors(t testing.TB, rep *Report) {
	t.Helper()
	wantCompleted(t, rep)
	if len(rep.Errors) != 0 {
		t.Fatalf("errors %+v", rep.Errors)
	}
}

// wantOut checks that the run completed and that every word out[i] of the
// out buffer is want(i).
func wantOut(t testing.TB, rep *Report, want func(i int) uint32) {
	t.Helper()
	wantCompleted(t, rep)
	for i, v := range rep.Buffers["out"] {
		if w := want(i); v != w {
			t.Errorf("out[%d] = %d, want %d", i, v, w)
		}
	}
}

// patternBytes returns n bytes whose first filled are byte(i*mul + add),
// a source pattern in which neighbouring words differ, and the rest zero.
func patternBytes(n, filled, mul, add int) []byte {
	b := make([]byte, n)
	for i := range b[:filled] {
		b[i] = byte(i*mul + add)
	}
	return b
}

// initLaunch is one CTA of threads threads in x with an out buffer that
// holds init.
func initLaunch(threads int, init []byte) Launch {
	return Launch{Block: [3]uint32{uint32(threads), 1, 1}, Buffers: []Buffer{{Param: "out", Size: len(init), Init: init}}}
}

// firstCycle returns the cycle at which the instruction from the source
// line containing text first issued.
func (l issueLog) firstCycle(t testing.TB, sm *SM, text string) uint64 {
	t.Helper()
	at := l.at(pcOfText(t, sm, text))
	if len(at) == 0 {
		t.Fatalf("%q never issued", text)
	}
	return at[0].Cycle
}

// wordAt returns the little-endian 32-bit word i of b.
func wordAt(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
