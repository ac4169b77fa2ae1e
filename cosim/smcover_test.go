package cosim

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
)

// TestParseCoverage reads verilator_coverage's format: points of one
// declaration in two instances count once, hit when either instance hit
// them; line and branch points are line coverage, toggle points toggle
// coverage; a never-hit line point is listed with its lines; file names
// under the source directory are shown relative to it; the header and
// other pages are skipped.
func TestParseCoverage(t *testing.T) {
	pt := func(page, file, line, col, comment, hier, lines string, n int) string {
		kv := []string{"f\x02" + file, "l\x02" + line, "n\x02" + col, "page\x02" + page, "o\x02" + comment, "h\x02" + hier}
		if lines != "" {
			kv = append(kv, "S\x02"+lines)
		}
		return "C '\x01" + strings.Join(kv, "\x01") + "' " + strconv.Itoa(n) + "\n"
	}
	dat := "# SystemC::Coverage-3\n" +
		pt("v_line/sm_alu", "/v/rtl/sm_alu.sv", "10", "3", "block", "TOP.a.u0", "10-12", 0) +
		pt("v_line/sm_alu", "/v/rtl/sm_alu.sv", "10", "3", "block", "TOP.a.u1", "10-12", 4) +
		pt("v_branch/sm_alu", "/v/rtl/sm_alu.sv", "20", "5", "if", "TOP.a.u0", "20", 0) +
		pt("v_branch/sm_alu", "/v/rtl/sm_alu.sv", "20", "5", "else", "TOP.a.u0", "21", 2) +
		pt("v_toggle/sm_alu", "/v/rtl/sm_alu.sv", "5", "9", "d_o[0]", "TOP.a.u0", "", 1) +
		pt("v_toggle/sm_alu", "/v/rtl/sm_alu.sv", "5", "9", "d_o[1]", "TOP.a.u0", "", 0) +
		pt("v_user/sm_alu", "/v/rtl/sm_alu.sv", "7", "1", "cover", "TOP.a.u0", "", 0) +
		pt("v_line/sm_tb", "dv/sm_tb.sv", "3", "1", "block", "TOP", "3", 1)
	files, err := parseCoverage(strings.NewReader(dat), "/v")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].File != "dv/sm_tb.sv" || files[1].File != "rtl/sm_alu.sv" {
		t.Fatalf("files: %+v", files)
	}
	alu := files[1]
	if alu.Line != (CoverageStat{Points: 3, Hit: 2}) || alu.Toggle != (CoverageStat{Points: 2, Hit: 1}) {
		t.Errorf("sm_alu: line %+v toggle %+v", alu.Line, alu.Toggle)
	}
	if len(alu.Uncovered) != 1 || alu.Uncovered[0].Line != 20 || alu.Uncovered[0].Kind != "if" || alu.Uncovered[0].Covered != "20" {
		t.Errorf("uncovered: %+v", alu.Uncovered)
	}
	if _, err := parseCoverage(strings.NewReader("C '\x01f\x02x.sv\x01page\x02v_line/m' many\n"), "/v"); err == nil {
		t.Error("a malformed count was accepted")
	}
}

// TestSMCoverage runs the coverage bench (make sm-cov) on two kernels at a
// reduced SM (two warp slots, one scheduler: the build takes a fraction
// of the small preset's), merges the counts and checks the report: every
// stage module has line and toggle points, some hit, some not (the two
// kernels do not run calls), the summary and the annotated sources are
// written, the runs' part files are merged away, and a second run adds to
// the counts of the first.
func TestSMCoverage(t *testing.T) {
	cfg, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SM.MaxWarps, cfg.Sched.Count, cfg.Sched.TwoLevelActive = 2, 1, 1
	cfg.SM.MaxCTAs, cfg.SM.MaxThreadsPerCTA = 2, 64
	cases := smCases(t)
	dir := filepath.Join(t.TempDir(), "cov")
	cov, err := NewSMCoverage(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var hits []int
	for _, o := range []SMOptions{cases[0], cases[5]} { // sm_affine, sm_intops (two warps each)
		o.Config = cfg
		o.Coverage = cov.Part()
		o.NoWaves = true
		res, err := RunSM(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if !res.OK() {
			t.Fatalf("%s: %v %v", o.Launch.Entry, res.Mismatch, res.BufferDiffs)
		}
		rep, err := cov.Report(ctx, o.Harness)
		if err != nil {
			t.Fatal(err)
		}
		byFile := map[string]CoverageOfFile{}
		hit := 0
		for _, f := range rep.Files {
			byFile[filepath.Base(f.File)] = f
			hit += f.Line.Hit
		}
		hits = append(hits, hit)
		for _, m := range []string{"sm_top.sv", "sm_decode.sv", "sm_alu.sv", "sm_writeback.sv", "sm_callstack.sv", "sm_smem.sv", "warp_sched.sv"} {
			f, ok := byFile[m]
			if !ok || f.Line.Points == 0 || f.Line.Hit == 0 || f.Toggle.Points == 0 || f.Toggle.Hit == 0 {
				t.Errorf("%s: %+v", m, f)
			}
		}
		if _, ok := byFile["sm_tb.sv"]; ok {
			t.Error("the bench is counted (sm.vlt leaves it out)")
		}
		top := byFile["sm_top.sv"]
		if top.Line.Hit == top.Line.Points || len(top.Uncovered) == 0 || top.Uncovered[0].Source == "" {
			t.Errorf("sm_top: %+v, uncovered %v", top.Line, top.Uncovered)
		}
		sum, err := os.ReadFile(rep.Summary)
		if err != nil || !strings.Contains(string(sum), "| "+top.File+" | ") || !strings.Contains(string(sum), "line points never hit") {
			t.Errorf("summary: %v\n%s", err, sum)
		}
		if _, err := os.Stat(filepath.Join(rep.Annotated, "sm_top.sv")); err != nil {
			ents, _ := os.ReadDir(rep.Annotated)
			t.Errorf("annotated sources: %v (%d entries)", err, len(ents))
		}
		parts, _ := filepath.Glob(filepath.Join(dir, "part-*.dat"))
		if len(parts) != 0 {
			t.Errorf("parts left after the merge: %v", parts)
		}
		t.Logf("%s:\n%s", o.Launch.Entry, rep.Table())
	}
	if hits[1] <= hits[0] {
		t.Errorf("the second kernel's runs did not add to the merged counts: %v", hits)
	}
}
