//go:build smmutants

package cosim

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
)

// The SM RTL's mutation table (issue 15 item 4, docs/sm-rtl.md section
// "Mutation"): each mutant changes one token of a stage module in a
// temporary copy of verilog/rtl; the lockstep must catch every one, on
// the lockstep's kernels and examples or on random programs, and name the
// signal and the cycle. It builds one Verilated SM per mutant (a minute
// or two each), so it is not part of make test: `make sm-mutants` runs it
// (go test -tags smmutants -run TestSMMutantTable ./cosim).

// smMutant is one single-token change of a stage module.
type smMutant struct {
	name, file, old, new, what string
}

// smMutants are the table's mutants: flipped comparisons, changed
// constants, wrong selects, off-by-ones in reconvergence, the call stack
// and the shared memory, a scoreboard entry released a cycle early.
var smMutants = []smMutant{
	{"issue-late", "sm_top.sv",
		"started_q &&\n                          cycle_q >= ready_at;", "started_q &&\n                          cycle_q > ready_at;",
		"flipped comparison: a warp becomes eligible a cycle after its ready time"},
	{"scoreboard-early", "sm_top.sv",
		"rdy_q[w][`SM_RIX(hb_q[w], x_d1[s])]   <= cycle_q + x_lat[s];", "rdy_q[w][`SM_RIX(hb_q[w], x_d1[s])]   <= cycle_q + x_lat[s] - 32'd1;",
		"a 32-bit scoreboard entry released a cycle early"},
	{"writeback-latency", "sm_writeback.sv",
		"32'(push_lat_i) == k + 1", "32'(push_lat_i) == k",
		"off by one: the writeback pipe delivers a cycle early"},
	{"port-chain", "sm_top.sv",
		"port_avail[s] = n < int'(GlobalPorts);", "port_avail[s] = n <= int'(GlobalPorts);",
		"flipped comparison: two schedulers take the one global memory port"},
	{"fetch-sequential", "sm_top.sv",
		"seq = gpc == pc_q[w] + 32'd1 ||", "seq = gpc == pc_q[w] + 32'd2 ||",
		"changed constant: every fetch counts as a taken branch (refetch delay)"},
	{"barrier-release", "sm_top.sv",
		"bar_cnt_a[k] != 11'd0 && bar_cnt_a[k] >= live_a[k]", "bar_cnt_a[k] != 11'd0 && bar_cnt_a[k] + 11'd1 >= live_a[k]",
		"off by one: the barrier releases one thread early"},
	{"reconverge-maxpc", "sm_top.sv",
		"(x_depth[s][l] == maxd && x_lane_pc[s][l] < minpc)", "(x_depth[s][l] == maxd && x_lane_pc[s][l] > minpc)",
		"reconvergence: the group runs the lanes at the maximum PC, not the minimum"},
	{"retire-early", "sm_top.sv",
		"done_d[w] && mem_busy_d[w] <= cycle_q + 32'd1", "done_d[w] && mem_busy_d[w] <= cycle_q + 32'd2",
		"off by one: a drained warp retires a cycle before its memory accesses complete"},
	{"launch-lanes", "sm_top.sv",
		"((32'd1 << nth) - 32'd1)", "((32'd1 << nth) - 32'd2)",
		"changed constant: a partial warp launches without lane 0"},
	{"rf-high-select", "sm_top.sv",
		"<= x_res[s][l][63:32];", "<= x_res[s][l][31:0];",
		"wrong select: a 64-bit result's high register takes the low word"},
	{"ret-pc", "sm_top.sv",
		"cs_ret_pc[s] = pc_q[islot[s]] + 32'd1;", "cs_ret_pc[s] = pc_q[islot[s]] + 32'd2;",
		"off by one: a call returns past the instruction after it"},
	{"lsu-tag", "sm_top.sv",
		"req_tag[s] = tag_q + n + 32'd1;", "req_tag[s] = tag_q + n;",
		"changed constant: memory request tags count from 0"},
	{"alu-setp-le", "sm_alu.sv",
		"$signed(sa) <= $signed(sb)", "$signed(sa) < $signed(sb)",
		"flipped comparison: setp.le on signed types is setp.lt"},
	{"alu-shf-clamp", "sm_alu.sv",
		"else if (n > 32'd32) n = 32'd32;", "else if (n > 32'd32) n = 32'd31;",
		"changed constant: a clamped funnel shift by more than 32 shifts by 31"},
	{"decode-guard-negate", "sm_decode.sv",
		"assign guard_neg_o = inst_i[17];", "assign guard_neg_o = inst_i[16];",
		"wrong select: the guard's negation bit read from the guard-enable bit"},
	{"callstack-top", "sm_callstack.sv",
		"top_pc_o[s][l] = pc_mem_q[warp_i[s]][l][EntryWidth'(d - DepthWidth'(1))];", "top_pc_o[s][l] = pc_mem_q[warp_i[s]][l][EntryWidth'(d - DepthWidth'(2))];",
		"off by one: a return reads the return stack's entry below its top"},
	{"smem-store-bytes", "sm_smem.sv",
		"if (b < int'(wr_size_q[s]))", "if (b <= int'(wr_size_q[s]))",
		"off by one: a shared or local store writes one byte too many"},
}

// smMutantRandomPrograms is how many random programs a mutant that the
// kernels do not catch by a signal meets.
const smMutantRandomPrograms = 200

// TestSMMutantTable builds each mutant and runs the lockstep at the small
// preset under lrr: the lockstep's kernels and the examples first, then
// random programs, until a mismatch names a signal and a cycle. A mutant
// that only changes a buffer's contents counts once a signal catches it
// too; the table prints which kernel caught each mutant, where and when.
func TestSMMutantTable(t *testing.T) {
	cases := append(smCases(t), smExamples(t)...)
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	missed := 0
	for _, m := range smMutants {
		h := mutantRTL(t, "sm-"+m.name, m.file, m.old, m.new)
		row, ok := catchSMMutant(t, m, h, cases, cfg)
		rows = append(rows, row)
		if !ok {
			missed++
			t.Errorf("mutant %s (%s) was not caught by a signal", m.name, m.what)
		}
		t.Log(row)
	}
	t.Logf("the SM RTL's mutation table (%d mutants, %d caught):\n| mutant | file | change | caught by | cycle | signal | Go | RTL |\n|---|---|---|---|---|---|---|---|\n%s",
		len(smMutants), len(smMutants)-missed, strings.Join(rows, "\n"))
}

// catchSMMutant runs the cases, then random programs, over one mutant's
// build; it returns the table row and whether a signal caught it.
func catchSMMutant(t *testing.T, m smMutant, h HarnessOptions, cases []SMOptions, cfg config.Config) (string, bool) {
	t.Helper()
	ctx := context.Background()
	bin, err := BuildSM(ctx, cfg, h)
	if err != nil {
		t.Fatalf("mutant %s: %v", m.name, err)
	}
	h.Binary = bin
	change := fmt.Sprintf("`%s` → `%s`", m.old, m.new)
	row := func(by string, mm *SMMismatch) string {
		return fmt.Sprintf("| %s | %s | %s (%s) | %s | %d | `%s` | %s | %s |",
			m.name, m.file, m.what, change, by, mm.Cycle, mm.Signal, mm.Go, mm.RTL)
	}
	var buffersOnly []string
	for _, o := range cases {
		o.Config.Sched.Policy = config.PolicyLRR
		o.Harness = h
		o.NoWaves = true
		res, err := RunSM(ctx, o)
		if err != nil {
			// The bench failing (a call deeper than its stack, a hang it
			// detects) is a catch too, but one without a signal.
			buffersOnly = append(buffersOnly, fmt.Sprintf("%s: %v", o.Launch.Entry, headLine(err.Error())))
			continue
		}
		if res.Mismatch != nil {
			return row(o.Launch.Entry, res.Mismatch), true
		}
		if len(res.BufferDiffs) > 0 {
			buffersOnly = append(buffersOnly, fmt.Sprintf("%s: %s", o.Launch.Entry, res.BufferDiffs[0]))
		}
	}
	rr, err := RunSMRandom(ctx, SMRandomOptions{Config: cfg, Seed: 0x6d75, N: smMutantRandomPrograms, Harness: h})
	if err != nil {
		t.Fatalf("mutant %s: random programs: %v", m.name, err)
	}
	if rr.Failed != nil && rr.Result != nil && rr.Result.Mismatch != nil {
		return row(fmt.Sprintf("random program %d", rr.Programs), rr.Result.Mismatch), true
	}
	return fmt.Sprintf("| %s | %s | %s (%s) | not by a signal (%d random programs); %s | | | | |",
		m.name, m.file, m.what, change, smMutantRandomPrograms, strings.Join(buffersOnly, "; ")), false
}

func headLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
