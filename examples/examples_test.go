package examples

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/internal/clangtest"
)

func stems(t *testing.T, ext string) []string {
	t.Helper()
	m, err := filepath.Glob("*" + ext)
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, f := range m {
		s = append(s, strings.TrimSuffix(f, ext))
	}
	sort.Strings(s)
	return s
}

func TestFilesPaired(t *testing.T) {
	cu, ptx := stems(t, ".cu"), stems(t, ".ptx")
	if !reflect.DeepEqual(cu, ptx) {
		t.Fatalf(".cu files %v and .ptx files %v differ", cu, ptx)
	}
	var names []string
	for _, e := range All() {
		names = append(names, e.Name)
	}
	if !reflect.DeepEqual(cu, names) {
		t.Fatalf(".cu files %v, registered examples %v", cu, names)
	}
	if len(names) < 22 {
		t.Fatalf("only %d examples", len(names))
	}
}

// TestPTXIsClangOutput recompiles every .cu with clang-16 exactly as `make
// examples` does and requires the committed .ptx to be identical.
func TestPTXIsClangOutput(t *testing.T) {
	for _, name := range stems(t, ".cu") {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, err := os.ReadFile(name + ".ptx")
			if err != nil {
				t.Fatal(err)
			}
			clangtest.CheckPTX(t, name+".cu", want)
		})
	}
}

var (
	reCondBra   = regexp.MustCompile(`@!?%p\d+\s+bra`)
	reLabel     = regexp.MustCompile(`(?m)^(\$\w+):`)
	reBra       = regexp.MustCompile(`\bbra(?:\.uni)?\s+(\$\w+);`)
	reCall      = regexp.MustCompile(`(?m)^\s*(?:@!?%p\d+\s+)?call(?:\.uni)?\s`)
	reExit      = regexp.MustCompile(`(?m)^\s*(?:@!?%\w+\s+)?exit;`)
	reTrap      = regexp.MustCompile(`(?m)^\s*(?:@!?%\w+\s+)?trap;`)
	reBrkpt     = regexp.MustCompile(`(?m)^\s*(?:@!?%\w+\s+)?brkpt;`)
	reSharedUse = regexp.MustCompile(`\b(?:ld|st|atom)\.shared\.`)
	reLocalUse  = regexp.MustCompile(`\b(?:ld|st)\.local\.`)
	reSreg      = regexp.MustCompile(`%(?:laneid|warpid|nwarpid|smid|nsmid|gridid|lanemask_\w+|clock\w*|globaltimer\w*|pm\d\w*|envreg\d+|\w+_smem_\w+|current_graph_exec|is_explicit_cluster|\w*cluster\w*)\b`)
	reCluster   = regexp.MustCompile(`%(?:n?clusterid|cluster_n?ctaid|cluster_n?ctarank|is_explicit_cluster)\b`)
	reFloat     = regexp.MustCompile(`\b(?:add|sub|mul|fma\.rn|div\.rn|sqrt\.rn|min|max)\.f32\b`)
	reInt64     = regexp.MustCompile(`\b(?:mul\.wide\.[su]32|(?:mul\.lo|div|rem|shl|shr)\.[bsu]64)\b`)
	reBitops    = regexp.MustCompile(`\b(?:popc|clz|brev|bfe|prmt)\.`)
	reIndirect  = regexp.MustCompile(`(?m)^\s*call\s+(?:\(\w+\),\s*)?%rd\d+,`)
	reFunc      = regexp.MustCompile(`(?m)^\.(?:visible |weak )?\.func\s+(?:\([^)]*\)\s*)?(\w+)\s*\(`)
)

// functionBodies maps each .func defined in ptx to its body text.
func functionBodies(ptx string) map[string]string {
	bodies := map[string]string{}
	for _, m := range reFunc.FindAllStringSubmatchIndex(ptx, -1) {
		name := ptx[m[2]:m[3]]
		rest := ptx[m[1]:]
		// skip the parameter list, then a declaration ends with ';'
		close := strings.Index(rest, ")")
		if close < 0 {
			continue
		}
		rest = rest[close+1:]
		trim := strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(trim, "{") {
			continue // prototype only
		}
		depth := 0
		for i, c := range trim {
			if c == '{' {
				depth++
			} else if c == '}' {
				depth--
				if depth == 0 {
					bodies[name] = trim[:i+1]
					break
				}
			}
		}
	}
	return bodies
}

func hasBackwardBranch(ptx string) bool {
	lines := strings.Split(ptx, "\n")
	defined := map[string]bool{}
	for _, l := range lines {
		if m := reLabel.FindStringSubmatch(l); m != nil {
			defined[m[1]] = true
		}
		if m := reBra.FindStringSubmatch(l); m != nil && defined[m[1]] {
			return true
		}
	}
	return false
}

var featureChecks = map[string]func(ptx string) bool{
	"divergence": func(p string) bool {
		return reCondBra.MatchString(p) || strings.Contains(p, "brx.idx") || reIndirect.MatchString(p)
	},
	"loop": hasBackwardBranch,
	"call": func(p string) bool { return reCall.MatchString(p) },
	"recursion": func(p string) bool {
		for name, body := range functionBodies(p) {
			if regexp.MustCompile(`call(?:\.uni)?\s*(?:\([^)]*\),\s*)?` + regexp.QuoteMeta(name) + `\s*,`).MatchString(body) {
				return true
			}
		}
		return false
	},
	"indirect-call": func(p string) bool {
		return strings.Contains(p, ".callprototype") || strings.Contains(p, ".calltargets")
	},
	"brx.idx": func(p string) bool { return strings.Contains(p, "brx.idx") && strings.Contains(p, ".branchtargets") },
	"exit":    func(p string) bool { return reExit.MatchString(p) },
	"barrier": func(p string) bool { return strings.Contains(p, "bar.sync") || strings.Contains(p, "barrier.sync") },
	"shared":  func(p string) bool { return strings.Contains(p, ".shared ") && reSharedUse.MatchString(p) },
	"local": func(p string) bool {
		return strings.Contains(p, "__local_depot") && reLocalUse.MatchString(p)
	},
	"atomics":   func(p string) bool { return strings.Contains(p, "atom.") },
	"sreg":      func(p string) bool { return reSreg.MatchString(p) },
	"cluster":   func(p string) bool { return reCluster.MatchString(p) },
	"nanosleep": func(p string) bool { return strings.Contains(p, "nanosleep.u32") },
	"pmevent":   func(p string) bool { return strings.Contains(p, "pmevent") },
	"trap":      func(p string) bool { return reTrap.MatchString(p) },
	"brkpt":     func(p string) bool { return reBrkpt.MatchString(p) },
	"setmaxnreg": func(p string) bool {
		return regexp.MustCompile(`setmaxnreg\.(?:inc|dec)\.sync\.aligned\.u32`).MatchString(p)
	},
	"float":  func(p string) bool { return reFloat.MatchString(p) },
	"int64":  func(p string) bool { return reInt64.MatchString(p) },
	"bitops": func(p string) bool { return reBitops.MatchString(p) },
}

func TestFeatureTable(t *testing.T) {
	for f := range FeatureNames {
		if featureChecks[f] == nil {
			t.Errorf("feature %q has no check", f)
		}
	}
	for f := range featureChecks {
		if _, ok := FeatureNames[f]; !ok {
			t.Errorf("check for undocumented feature %q", f)
		}
	}
}

type entryParam struct{ typ, name string }

// entryParams parses the parameter list of .entry name.
func entryParams(t *testing.T, ptx, name string) []entryParam {
	t.Helper()
	i := strings.Index(ptx, ".entry "+name+"(")
	if i < 0 {
		t.Fatalf(".entry %s( not in the PTX", name)
	}
	rest := ptx[i:]
	rest = rest[strings.Index(rest, "(")+1:]
	rest = rest[:strings.Index(rest, ")")]
	var ps []entryParam
	for _, f := range strings.Split(rest, ",") {
		w := strings.Fields(f)
		if len(w) == 0 {
			continue
		}
		if len(w) != 3 || w[0] != ".param" {
			t.Fatalf("unexpected entry parameter %q", f)
		}
		ps = append(ps, entryParam{w[1], w[2]})
	}
	return ps
}

var reShared = regexp.MustCompile(`(?m)^\s*(\.extern\s+)?\.shared\s+(?:\.align\s+\d+\s+)?\.(\w+)\s+\w+(?:\[(\d*)\])?;`)

// staticShared sums the sizes of the non-extern .shared variables and
// reports whether an extern (dynamic) one is declared.
func staticShared(t *testing.T, ptx string) (int, bool) {
	total, dyn := 0, false
	for _, m := range reShared.FindAllStringSubmatch(ptx, -1) {
		if m[1] != "" {
			dyn = true
			continue
		}
		size := map[string]int{"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "b32": 4, "u32": 4, "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}[m[2]]
		if size == 0 {
			t.Fatalf("unknown .shared type in %q", m[0])
		}
		n := 1
		if m[3] != "" {
			var err error
			if n, err = strconv.Atoi(m[3]); err != nil {
				t.Fatal(err)
			}
		}
		total += size * n
	}
	return total, dyn
}

func otherEnv() Env {
	env := DefaultEnv()
	env.SMID, env.NSMID, env.NWarpID, env.GridID = 7, 132, 64, 0x123456789
	for i := range env.EnvReg {
		env.EnvReg[i] = uint32(i*i + 1)
	}
	env.WarpID = func(cta, w int) uint32 { return uint32(63 - (cta*5+w)%64) }
	env.ReservedSmemBegin, env.ReservedSmemEnd, env.ReservedSmemCap = 0, 1024, 1024
	env.ReservedSmemOffset = [2]uint32{16, 32}
	env.CurrentGraphExec = 0xabcdef0011
	return env
}

func TestExamples(t *testing.T) {
	names := map[string]bool{}
	for _, e := range All() {
		t.Run(e.Name, func(t *testing.T) {
			if names[e.Name] {
				t.Fatalf("duplicate name")
			}
			names[e.Name] = true
			if got, ok := ByName(e.Name); !ok || got != e {
				t.Fatalf("ByName(%q) = %v, %v", e.Name, got, ok)
			}
			ptx := string(e.PTX)
			if len(e.Source) == 0 || !bytes.Contains(e.Source, []byte(`#include "smsim_cuda.h"`)) {
				t.Errorf("Source does not include smsim_cuda.h")
			}
			if e.Notes == "" {
				t.Errorf("no Notes")
			}

			// Launch shape.
			if n := e.Block.Count(); n < 32 || n > 1024 {
				t.Errorf("block of %d threads", n)
			}
			if e.Cluster != (Dim3{}) {
				for k := 0; k < 3; k++ {
					if e.Grid.norm()[k]%e.Cluster.norm()[k] != 0 {
						t.Errorf("cluster %v does not divide grid %v", e.Cluster, e.Grid)
					}
				}
			}
			if e.MaxNReg != 0 && (e.MaxNReg%8 != 0 || e.MaxNReg*e.Block.Count() > 65536) {
				t.Errorf("MaxNReg %d", e.MaxNReg)
			}

			// Parameters: every buffer a .u64 pointer, every Arg a scalar,
			// every entry parameter covered once.
			ps := entryParams(t, ptx, e.Entry)
			covered := map[string]bool{}
			for _, b := range e.Buffers {
				if b.Words <= 0 || len(b.Init) > b.Words || b.Name == "" {
					t.Errorf("buffer %+v", b.Name)
				}
				covered[b.Param] = true
			}
			for k := range e.Args {
				if covered[k] {
					t.Errorf("%s is both a buffer and an arg", k)
				}
				covered[k] = true
			}
			if len(covered) != len(ps) {
				t.Errorf("%d buffers+args for %d entry parameters", len(covered), len(ps))
			}
			for _, p := range ps {
				_, isArg := e.Args[p.name]
				switch {
				case !covered[p.name]:
					t.Errorf("entry parameter %s has no buffer or arg", p.name)
				case !isArg && p.typ != ".u64":
					t.Errorf("buffer parameter %s is %s, not a pointer", p.name, p.typ)
				}
			}

			// Shared memory.
			st, dyn := staticShared(t, ptx)
			if st != e.StaticSmem {
				t.Errorf("StaticSmem = %d, the PTX declares %d bytes", e.StaticSmem, st)
			}
			if dyn != (e.DynamicSmem > 0) {
				t.Errorf("DynamicSmem = %d but extern .shared declared: %v", e.DynamicSmem, dyn)
			}

			// Features.
			if len(e.Features) == 0 {
				t.Errorf("no Features")
			}
			for _, f := range e.Features {
				check, ok := featureChecks[f]
				if !ok {
					t.Errorf("unknown feature %q", f)
				} else if !check(ptx) {
					t.Errorf("feature %q (%s) not visible in the PTX", f, FeatureNames[f])
				}
			}

			// Outcome.
			switch e.Outcome {
			case Completed, Trapped:
				if e.Resumed != nil {
					t.Errorf("Resumed set for outcome %s", e.Outcome)
				}
			case Breakpoint:
				if e.Resumed == nil {
					t.Errorf("no Resumed for a breakpoint example")
				}
			default:
				t.Errorf("outcome %q", e.Outcome)
			}
			for _, l := range e.Loose {
				if _, ok := e.Buffer(l); !ok {
					t.Errorf("Loose %s is not a buffer", l)
				}
			}

			// References: complete, deterministic, self-consistent.
			for _, env := range []Env{DefaultEnv(), otherEnv(), {}} {
				refs := []func(Env) map[string][]uint32{e.Expect}
				if e.Resumed != nil {
					refs = append(refs, e.Resumed)
				}
				for _, ref := range refs {
					got := ref(env)
					if len(got) != len(e.Buffers) {
						t.Errorf("reference returns %d buffers, want %d", len(got), len(e.Buffers))
					}
					for _, b := range e.Buffers {
						if len(got[b.Param]) != b.Words {
							t.Errorf("reference %s: %d words, want %d", b.Name, len(got[b.Param]), b.Words)
						}
					}
					if again := ref(env); !reflect.DeepEqual(got, again) {
						t.Errorf("reference not deterministic")
					}
				}
				if err := e.Verify(env, e.Expect(env)); err != nil {
					t.Errorf("Verify(Expect) fails: %v", err)
				}
				if e.Resumed != nil {
					if err := e.VerifyResumed(env, e.Resumed(env)); err != nil {
						t.Errorf("VerifyResumed(Resumed) fails: %v", err)
					}
				}
			}
			// Verify notices a wrong word in a checked buffer.
			for _, b := range e.Buffers {
				if e.isLoose(b.Param) {
					continue
				}
				got := e.Expect(DefaultEnv())
				got[b.Param][b.Words-1] ^= 0x100
				if e.Verify(DefaultEnv(), got) == nil {
					t.Errorf("Verify misses a flipped word in %s", b.Name)
				}
				break
			}
		})
	}
}

// TestReferencesMove checks that each example writes something: its
// reference differs from the initial contents in every non-input buffer
// except those a trap or breakpoint may leave untouched.
func TestReferencesMove(t *testing.T) {
	for _, e := range All() {
		init, want := e.Initial(), e.Expect(otherEnv())
		for _, b := range e.Buffers {
			if b.Init != nil && reflect.DeepEqual(init[b.Param], want[b.Param]) {
				continue // an input
			}
			if reflect.DeepEqual(init[b.Param], want[b.Param]) && !e.isLoose(b.Param) {
				t.Errorf("%s: buffer %s never written by the reference", e.Name, b.Name)
			}
		}
	}
}

func TestSregEnv(t *testing.T) {
	e, _ := ByName("sreg_all")
	env := otherEnv()
	ids := e.Expect(env)[param(e.Entry, 0)]
	th := e.Threads()
	for _, x := range th {
		o := ids[x.Global*sregNIDS:]
		if o[17] != env.WarpID(x.CTA, x.Warp) || o[19] != 7 || o[20] != 132 || o[22] != 0x23456789 || o[23] != 1 {
			t.Fatalf("thread %d: env not reflected: %v", x.Global, o[16:24])
		}
		if o[44] != 384 || o[45] != 200 || o[46] != 384+1024 {
			t.Fatalf("smem sizes %v", o[44:47])
		}
	}
	envb := e.Expect(env)[param(e.Entry, 1)]
	if envb[7*32+31] != 31*31+1 {
		t.Fatalf("envreg31 of CTA 7 = %d", envb[7*32+31])
	}
}

func TestBenchmark(t *testing.T) {
	b := Benchmark()
	if warps := b.Grid.Count() * b.WarpsPerCTA(); warps != 48 {
		t.Fatalf("benchmark has %d warps", warps)
	}
	c := b.WithArgs(map[string]uint64{BenchIters: 7})
	if b.Args[BenchIters] == 7 || c.Args[BenchIters] != 7 {
		t.Fatalf("WithArgs changed the shared example or did not apply")
	}
	if reflect.DeepEqual(b.Expect(Env{}), c.Expect(Env{})) {
		t.Fatalf("iteration count does not change the reference")
	}
	if d := Demo(); d == nil || d.Name != "demo_collatz" {
		t.Fatalf("Demo() = %v", d)
	}
}

func TestReadme(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range All() {
		if !bytes.Contains(readme, []byte("`"+e.Name+"`")) {
			t.Errorf("README.md does not list `%s`", e.Name)
		}
	}
}

func TestPrmtAndFma(t *testing.T) {
	if got := prmt(0x44332211, 0x88776655, 0x3210); got != 0x44332211 {
		t.Errorf("prmt identity = %#x", got)
	}
	if got := prmt(0x44332211, 0x88776655, 0x7654); got != 0x88776655 {
		t.Errorf("prmt b = %#x", got)
	}
	if got := prmt(0x44332211, 0x88776655, 0x8f00); got != 0x00ff1111 {
		t.Errorf("prmt sign = %#x", got)
	}
	// 1 + 2^-24 is not representable in float32; a*b+c rounds once.
	a := float32(1 + 1.0/(1<<12))
	if got := fma32(a, a, -1); got != float32(2.0/(1<<12)+1.0/(1<<24)) {
		t.Errorf("fma32 = %v", got)
	}
}
