package pipeline

import (
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/trapunit"
)

// Helpers of the trap tests (trap_seed_test.go, trap_test.go).

// trapModule is a module whose kernel k(out) first publishes out in the
// .global hbuf (the trap handler's way to memory) and then runs body
// (kernel's %r1 = %tid.x, %r2 = %laneid, %rd3 = &out[tid]; %r30 =
// %tid.x / 32 and %p7 = (%r30 == 0) are set too), and whose trap handler
// .func handler runs hbody with %h1 = %tid.x, %h0 = %tid.x / 32 and %hd3 =
// &out[tid]; the handler's words are out[256 + tid] ([%hd3+1024]).
func trapModule(hbody, body string) string {
	return `.global .align 8 .u64 hbuf;

` + handlerFunc(true, hbody) + kernel(`	st.global.u64 [hbuf], %rd1;
	shr.u32 %r30, %r1, 5;
	setp.eq.u32 %p7, %r30, 0;
`+body)
}

// handlerFunc is the trap handler .func handler, which runs body with %h1
// = %tid.x, %h0 = %tid.x / 32 if withWarp and %hd3 = &out[tid] (out read
// from the .global hbuf).
func handlerFunc(withWarp bool, body string) string {
	warp := ""
	if withWarp {
		warp = "\tshr.u32 %h0, %h1, 5;\n"
	}
	return `.visible .func handler()
{
	.reg .b32 %h<32>;
	.reg .b64 %hd<16>;
	.reg .pred %hp<8>;
	ld.global.u64 %hd1, [hbuf];
	mov.u32 %h1, %tid.x;
` + warp + `	mul.wide.u32 %hd2, %h1, 4;
	add.s64 %hd3, %hd1, %hd2;
` + body + `
}
`
}

// warp0Handler is a handler body for trapModule: warp 0 runs first and
// returns (RTT); the other warps spin n iterations, run then and return.
func warp0Handler(first string, n int, then string) string {
	return `
	setp.ne.u32 %hp1, %h0, 0;
	@%hp1 bra SPIN;
	` + first + `
	RTT;
SPIN:
	mov.u32 %h3, 0;
LOOP:
	add.u32 %h3, %h3, 1;
	setp.lt.u32 %hp2, %h3, ` + itoa(n) + `;
	@%hp2 bra LOOP;
` + then + `	RTT;`
}

// esrHandler is a handler body for trapModule: each thread stores the
// warp ESR in its handler word, then pause (BPT.PAUSE or BPT.PAUSE_QUIET)
// and RTT.
func esrHandler(pause string) string {
	return `
	S2R %h2, SR_WARP_ESR;
	st.global.u32 [%hd3+1024], %h2;
	` + pause + `;
	RTT;`
}

// reason2Handler is a handler body for trapModule that runs body only
// for a trap whose reason (the warp ESR's low 3 bits) is 2, then RTT.
func reason2Handler(body string) string {
	return `
	S2R %h2, SR_WARP_ESR;
	and.b32 %h2, %h2, 7;
	setp.ne.u32 %hp1, %h2, 2;
	@%hp1 bra DONE;` + body + `
DONE:
	RTT;`
}

// trapCfg is smallConfig with the trap handler "handler".
func trapCfg() config.Config {
	c := smallConfig()
	c.Trap.Handler = "handler"
	return c
}

// trapRun is one launch of a trap test with its issue log.
type trapRun struct {
	t   *testing.T
	sm  *SM
	log issueLog
	rep *Report
}

// newTrapRun builds the SM for src with threads threads in one CTA (the
// out buffer has 1024 words) and logs its issues.
func newTrapRun(t *testing.T, cfg config.Config, src string, threads int) *trapRun {
	t.Helper()
	return newTrapGrid(t, cfg, src, 1, threads)
}

func newTrapGrid(t *testing.T, cfg config.Config, src string, ctas, threads int) *trapRun {
	t.Helper()
	r := &trapRun{t: t}
	r.sm = newPTX(t, cfg, src, Launch{Grid: [3]uint32{uint32(ctas), 1, 1}, Block: [3]uint32{uint32(threads), 1, 1}, Buffers: outBuf(1024)})
	r.log.hook(r.sm)
	return r
}

// run runs to the end and checks the report's accounting.
func (r *trapRun) run() *Report {
	r.t.Helper()
	rep, err := r.sm.Run()
	if err != nil {
		r.t.Fatal(err)
	}
	r.rep = rep
	checkInvariants(r.t, r.sm, rep)
	return rep
}

// out is out[i] of the final report.
func (r *trapRun) out(i int) uint32 { return r.rep.Buffers["out"][i] }

// hout is the handler's word of thread tid.
func (r *trapRun) hout(tid int) uint32 { return r.rep.Buffers["out"][256+tid] }

// pc is the pc of the first instruction whose source contains text.
func (r *trapRun) pc(text string) uint32 { r.t.Helper(); return pcOfText(r.t, r.sm, text) }

// handlerPC is the trap handler's entry.
func (r *trapRun) handlerPC() uint32 {
	for _, f := range r.sm.im.Funcs {
		if f.Name == "handler" {
			return f.PC
		}
	}
	r.t.Fatal("no handler")
	return 0
}

// inHandlerCode reports whether pc is in the handler's code.
func (r *trapRun) inHandlerCode(pc uint32) bool {
	for _, f := range r.sm.im.Funcs {
		if f.Name == "handler" {
			return pc >= f.PC && pc < f.End
		}
	}
	return false
}

// issues returns warp w's issues in order.
func (r *trapRun) issues(w int) []IssueInfo {
	var out []IssueInfo
	for _, i := range r.log {
		if i.Warp == w {
			out = append(out, i)
		}
	}
	return out
}

// issuesAt returns warp w's issues of pc.
func (r *trapRun) issuesAt(w int, pc uint32) []IssueInfo {
	var out []IssueInfo
	for _, i := range r.log {
		if i.Warp == w && i.PC == pc {
			out = append(out, i)
		}
	}
	return out
}

// firstAt is warp w's first issue of pc.
func (r *trapRun) firstAt(w int, pc uint32) IssueInfo {
	r.t.Helper()
	is := r.issuesAt(w, pc)
	if len(is) == 0 {
		r.t.Fatalf("warp %d never issued pc %d", w, pc)
	}
	return is[0]
}

// stepUntil steps until cond holds (at most limit cycles).
func (r *trapRun) stepUntil(what string, limit int, cond func() bool) {
	r.t.Helper()
	for i := 0; i < limit; i++ {
		if cond() {
			return
		}
		if !r.sm.Step() {
			r.t.Fatalf("the run ended (%s) before %s", r.sm.Status(), what)
		}
	}
	r.t.Fatalf("no %s within %d cycles", what, limit)
}

// allPaused: the SM is trapped and every live warp is paused.
func (r *trapRun) allPaused() bool { return r.sm.TrapOutputs().AllPaused }

// host drives a host command and expects want.
func (r *trapRun) host(cmd trapunit.HostCmd, arg uint16, want trapunit.HostErr) {
	r.t.Helper()
	got, err := r.sm.HostCommand(cmd, arg)
	if err != nil || got != want {
		r.t.Fatalf("host %s %d: %v %v, want %v", cmd, arg, got, err, want)
	}
}

// trapsOf filters records by kind.
func recordsOf(rs []TrapRecord, kind string) []TrapRecord {
	var out []TrapRecord
	for _, r := range rs {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// interruptsWith counts the interrupt records whose cause has c.
func interruptsWith(rep *Report, c string) int {
	n := 0
	for _, ir := range rep.Interrupts {
		for _, p := range splitBar(ir.Cause) {
			if p == c {
				n++
			}
		}
	}
	return n
}

func splitBar(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '|' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
