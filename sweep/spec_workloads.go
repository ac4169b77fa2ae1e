package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// The workloads of a spec: kernels and their `smsim run` flags.

// controlled are run flags the sweep sets itself.
var controlled = []string{"--json", "--set", "--preset", "--seed", "--config", "--vcd", "--vcd-scope", "--vcd-window", "--fst"}

func (p *specParser) workloads(s *Spec, n ast.Node) {
	items, ok := p.List(n, "workloads", false)
	if !ok {
		return
	}
	if len(items) == 0 {
		p.Errorf(n, "workloads: empty (at least one kernel)")
	}
	names := map[string]int{}
	for m := range p.Mappings(items, "workloads") {
		it, what, es := m.Node, m.What, m.Entries
		var w Workload
		var kernelN, nameN ast.Node
		plan := false
		for _, e := range es {
			switch e.Key {
			case "kernel":
				kernelN = e.Val
				w.Kernel, _ = p.Scalar(e.Val, what+".kernel")
			case "name":
				nameN = e.Val
				w.Name, _ = p.Scalar(e.Val, what+".name")
			case "args":
				vals, ok := p.List(e.Val, what+".args", false)
				if !ok {
					continue
				}
				for _, a := range vals {
					v, ok := p.Scalar(a, what+".args")
					if !ok {
						continue
					}
					flag, _, _ := strings.Cut(v, "=")
					for _, c := range controlled {
						if flag == c || flag == c[1:] {
							p.Errorf(a, "%s.args: %s is set by the sweep (use axes or set)", what, flag)
						}
					}
					w.Args = append(w.Args, v)
				}
			case "plan":
				plan = true
				p.Errorf(e.KeyN, "%s.plan: plan-file workloads are not supported yet (smsim run PLAN.yaml runs a plan; a sweep takes single kernels)", what)
			default:
				p.Errorf(e.KeyN, "%s: unknown key %q (keys: kernel, name, args)", what, e.Key)
			}
		}
		if kernelN == nil {
			if plan {
				continue
			}
			p.Errorf(it, "%s.kernel: missing", what)
			continue
		}
		if w.Kernel == "" {
			continue
		}
		if !filepath.IsAbs(w.Kernel) {
			w.Kernel = filepath.Join(s.Dir, w.Kernel)
		}
		if st, err := os.Stat(w.Kernel); err != nil || st.IsDir() {
			p.Errorf(kernelN, "%s.kernel: no such file: %s", what, w.Kernel)
		}
		w.Args = absBufs(s.Dir, w.Args)
		if w.Name == "" {
			w.Name = strings.TrimSuffix(filepath.Base(w.Kernel), filepath.Ext(w.Kernel))
			if names[w.Name] > 0 {
				w.Name = fmt.Sprintf("%s#%d", w.Name, names[w.Name]+1)
			}
		} else if names[w.Name] > 0 {
			p.Errorf(nameN, "%s.name: %q is used by another workload", what, w.Name)
		}
		names[w.Name]++
		s.Workloads = append(s.Workloads, w)
	}
}

// absBufs makes --buf PARAM=@file paths relative to the spec's directory.
func absBufs(dir string, args []string) []string {
	out := append([]string(nil), args...)
	for i := range out {
		var v *string
		switch {
		case (out[i] == "--buf" || out[i] == "-buf") && i+1 < len(out):
			v = &out[i+1]
		case strings.HasPrefix(out[i], "--buf="):
			s := out[i][len("--buf="):]
			if nv := absBuf(dir, s); nv != s {
				out[i] = "--buf=" + nv
			}
			continue
		default:
			continue
		}
		*v = absBuf(dir, *v)
	}
	return out
}

func absBuf(dir, kv string) string {
	p, v, ok := strings.Cut(kv, "=@")
	if !ok || filepath.IsAbs(v) {
		return kv
	}
	return p + "=@" + filepath.Join(dir, v)
}
