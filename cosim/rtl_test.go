package cosim

import (
	"context"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/warpsched"
)

// xnode is any XML element of verilator --xml-only output.
type xnode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []xnode    `xml:",any"`
}

func (n *xnode) attr(k string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == k {
			return a.Value
		}
	}
	return ""
}

func (n *xnode) walk(f func(*xnode)) {
	f(n)
	for i := range n.Nodes {
		n.Nodes[i].walk(f)
	}
}

// svVar is a variable declared directly in the top module.
type svVar struct {
	Name  string
	Dir   string // "input", "output" or "" (a variable)
	Width int
}

// verilatorXML elaborates module with the given parameters and returns
// its module-level variables and the enum items of the design by
// qualified enum name.
func verilatorXML(t *testing.T, u Unit) (map[string]svVar, map[string]map[string]int) {
	t.Helper()
	vdir := verilogDir(t)
	out := filepath.Join(t.TempDir(), "design.xml")
	args := []string{"--xml-only", "-Wno-fatal", "--xml-output", out, "--top-module", u.Module()}
	for _, p := range u.Params() {
		args = append(args, fmt.Sprintf("-G%s=%d", p.Name, p.Value))
	}
	for _, f := range u.RTL() {
		args = append(args, filepath.Join(vdir, "rtl", f))
	}
	if msg, err := exec.Command("verilator", args...).CombinedOutput(); err != nil {
		t.Fatalf("verilator %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var root xnode
	if err := xml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	// Widths by dtype id.
	types := map[string]*xnode{}
	enums := map[string]map[string]int{}
	var top *xnode
	root.walk(func(n *xnode) {
		if id := n.attr("id"); id != "" && strings.HasSuffix(n.XMLName.Local, "dtype") {
			types[id] = n
		}
		if n.XMLName.Local == "enumdtype" {
			items := map[string]int{}
			for _, it := range n.Nodes {
				for _, c := range it.Nodes {
					if c.XMLName.Local == "const" {
						v := c.attr("name") // e.g. 32'h2
						if i := strings.Index(v, "'h"); i >= 0 {
							x, _ := strconv.ParseInt(v[i+2:], 16, 64)
							items[it.attr("name")] = int(x)
						}
					}
				}
			}
			enums[n.attr("name")] = items
		}
		if n.XMLName.Local == "module" && n.attr("topModule") == "1" {
			top = n
		}
	})
	if top == nil {
		t.Fatal("no top module in the XML")
	}
	var width func(id string, depth int) int
	width = func(id string, depth int) int {
		n := types[id]
		if n == nil || depth > 20 {
			t.Fatalf("unknown dtype %s", id)
		}
		switch n.XMLName.Local {
		case "basicdtype":
			l, r := n.attr("left"), n.attr("right")
			if l == "" {
				return 1
			}
			li, _ := strconv.Atoi(l)
			ri, _ := strconv.Atoi(r)
			if li < ri {
				li, ri = ri, li
			}
			return li - ri + 1
		case "refdtype", "enumdtype":
			return width(n.attr("sub_dtype_id"), depth+1)
		case "packarraydtype", "unpackarraydtype":
			// A range child gives the element count.
			count := 1
			for _, c := range n.Nodes {
				if c.XMLName.Local == "range" && len(c.Nodes) == 2 {
					a, _ := strconv.ParseInt(strings.TrimPrefix(c.Nodes[0].attr("name"), "32'h"), 16, 64)
					b, _ := strconv.ParseInt(strings.TrimPrefix(c.Nodes[1].attr("name"), "32'h"), 16, 64)
					if a < b {
						a, b = b, a
					}
					count = int(a - b + 1)
				}
			}
			return count * width(n.attr("sub_dtype_id"), depth+1)
		}
		t.Fatalf("dtype %s: unsupported %s", id, n.XMLName.Local)
		return 0
	}
	vars := map[string]svVar{}
	for i := range top.Nodes {
		n := &top.Nodes[i]
		if n.XMLName.Local != "var" || n.attr("param") == "true" || n.attr("localparam") == "true" {
			continue
		}
		vars[n.attr("name")] = svVar{Name: n.attr("name"), Dir: n.attr("dir"), Width: width(n.attr("dtype_id"), 0)}
	}
	return vars, enums
}

// portSets are the parameter sets the port check covers: the standard
// sets and some odd sizes (one warp, a non-power of two, more than 64).
func portSets(t *testing.T) []Unit {
	var us []Unit
	for _, info := range Units() {
		sets, err := info.Sets()
		if err != nil {
			t.Fatal(err)
		}
		us = append(us, sets...)
	}
	for _, p := range []warpsched.Params{
		{NumWarps: 1, Policy: warpsched.PolicyLRR, TwoLevelActive: 1},
		{NumWarps: 12, Policy: warpsched.PolicyTwoLevel, TwoLevelActive: 3},
		{NumWarps: 70, Policy: warpsched.PolicyGTO, TwoLevelActive: 8},
	} {
		u, err := WarpSched(p)
		if err != nil {
			t.Fatal(err)
		}
		us = append(us, u)
	}
	return us
}

// TestPortsMatchGoTags elaborates every unit with Verilator and fails
// when the Go tags and the SystemVerilog disagree: every Go input and
// output must be a port of the same direction and width, every Go
// register a module-level variable of the same width, and every port
// (but the clock and reset) and every *_q variable of the module must be
// in the Go table.
func TestPortsMatchGoTags(t *testing.T) {
	for _, u := range portSets(t) {
		t.Run(u.Module()+" "+ParamString(u.Params()), func(t *testing.T) {
			vars, _ := verilatorXML(t, u)
			tab := u.Table()
			want := map[rtl.Dir]string{rtl.DirIn: "input", rtl.DirOut: "output", rtl.DirReg: ""}
			for _, s := range tab {
				v, ok := vars[s.Name]
				switch {
				case !ok:
					t.Errorf("Go signal %s (%s, %d bits) is not in the RTL", s.Name, s.Dir, s.Width)
				case v.Dir != want[s.Dir]:
					t.Errorf("%s: Go direction %s, RTL %q", s.Name, s.Dir, v.Dir)
				case v.Width != s.Width:
					t.Errorf("%s: Go width %d, RTL %d", s.Name, s.Width, v.Width)
				}
			}
			for name, v := range vars {
				if name == "clk_i" || name == "rst_ni" {
					continue
				}
				if _, ok := tab.Find(name); !ok && (v.Dir != "" || strings.HasSuffix(name, "_q")) {
					kind := v.Dir + " port"
					if v.Dir == "" {
						kind = "register"
					}
					t.Errorf("RTL %s %s (%d bits) has no Go twin", kind, name, v.Width)
				}
			}
			if v := vars["clk_i"]; v.Dir != "input" || v.Width != 1 {
				t.Errorf("clk_i: %+v", v)
			}
			if v := vars["rst_ni"]; v.Dir != "input" || v.Width != 1 {
				t.Errorf("rst_ni: %+v", v)
			}
		})
	}
}

// TestPolicyEncoding checks warpsched's policy values against
// smsim_pkg::sched_policy_e as Verilator elaborates it.
func TestPolicyEncoding(t *testing.T) {
	u, err := WarpSched(warpsched.Params{NumWarps: 4, Policy: warpsched.PolicyGTO})
	if err != nil {
		t.Fatal(err)
	}
	_, enums := verilatorXML(t, u)
	items := enums["smsim_pkg::sched_policy_e"]
	names := map[warpsched.Policy]string{warpsched.PolicyLRR: "SchedPolicyLrr", warpsched.PolicyGTO: "SchedPolicyGto", warpsched.PolicyTwoLevel: "SchedPolicyTwoLevel"}
	if len(items) != len(names) {
		t.Fatalf("sched_policy_e has %v", items)
	}
	for p, n := range names {
		if v, ok := items[n]; !ok || v != int(p) {
			t.Errorf("%s: Go %d, smsim_pkg::%s = %d (%v)", p, int(p), n, v, ok)
		}
	}
}

// TestLint runs `make -C verilog lint`: verilator --lint-only -Wall on
// every unit at every standard parameter set must be clean.
func TestLint(t *testing.T) {
	vdir := verilogDir(t)
	cmd := exec.CommandContext(context.Background(), "make", "-C", vdir, "--no-print-directory", "lint")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make lint: %v\n%s", err, out)
	}
}
