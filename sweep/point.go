package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/smsim/smsim/config"
)

// hashVersion changes when the meaning of a stored result changes.
const hashVersion = "smsim-sweep 1"

// Point is one run of a study.
type Point struct {
	Workload string            // the workload's name
	Values   map[string]string // axis key -> value
	Args     []string          // `smsim run` arguments (without the program name)
	Hash     string            // hex SHA-256 of the effective configuration and workload
}

// Value returns an axis value or, for "workload", the workload's name.
func (p *Point) Value(key string) string {
	if key == AxisWorkload {
		return p.Workload
	}
	return p.Values[key]
}

// Points expands the spec: for each workload, the cross product of the axes
// (the last axis varying fastest), less excluded points.
func (s *Spec) Points() ([]Point, error) {
	var out []Point
	for _, w := range s.Workloads {
		kernel, err := os.ReadFile(w.Kernel)
		if err != nil {
			return nil, fmt.Errorf("workload %s: %v", w.Name, err)
		}
		ksum := sha256.Sum256(kernel)
		idx := make([]int, len(s.Axes))
		for {
			vals := make(map[string]string, len(s.Axes))
			for i, a := range s.Axes {
				vals[a.Key] = a.Values[idx[i]]
			}
			p := Point{Workload: w.Name, Values: vals}
			if !s.excluded(&p) {
				if err := s.finish(&p, w, ksum[:]); err != nil {
					return nil, err
				}
				out = append(out, p)
			}
			// Advance the odometer.
			i := len(idx) - 1
			for ; i >= 0; i-- {
				idx[i]++
				if idx[i] < len(s.Axes[i].Values) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				break
			}
		}
	}
	return out, nil
}

func (s *Spec) excluded(p *Point) bool {
	for _, rule := range s.Exclude {
		match := len(rule) > 0
		for k, vals := range rule {
			if !slices.Contains(vals, p.Value(k)) {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// finish builds the point's arguments and hash.
func (s *Spec) finish(p *Point, w Workload, kernelSum []byte) error {
	preset := s.Preset
	if v, ok := p.Values[AxisPreset]; ok {
		preset = v
	}
	cfg, err := config.Preset(preset)
	if err != nil {
		return err
	}
	args := append([]string{"run", w.Kernel}, w.Args...)
	args = append(args, "--json", "--preset", preset)
	set := append([]KV(nil), s.Set...)
	for _, a := range s.Axes {
		switch a.Key {
		case AxisPreset:
		case AxisSeed:
			set = append(set, KV{"run.seed", p.Values[a.Key]})
			args = append(args, "--seed", p.Values[a.Key])
		default:
			set = append(set, KV{a.Key, p.Values[a.Key]})
		}
	}
	for _, kv := range set {
		if err := cfg.Set(kv.Key + "=" + kv.Value); err != nil {
			return fmt.Errorf("%s=%s: %v", kv.Key, kv.Value, err)
		}
		if kv.Key != "run.seed" || p.Values[AxisSeed] == "" {
			args = append(args, "--set", kv.Key+"="+kv.Value)
		}
	}
	var dump bytes.Buffer
	if err := cfg.Dump(&dump); err != nil {
		return err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\nconfig:\n%s\nkernel: %x\n", hashVersion, dump.Bytes(), kernelSum)
	wa, _ := json.Marshal(w.Args)
	fmt.Fprintf(h, "args: %s\n", wa)
	p.Args = args
	p.Hash = hex.EncodeToString(h.Sum(nil))
	return nil
}
