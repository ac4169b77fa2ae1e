package sweep

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/smsim/smsim/pipeline"
)

// Derived metrics: sums and maxima over the report's per-CTA lists.
var derived = map[string]func(rep map[string]any) (any, bool){
	"regpool.high_water":         func(r map[string]any) (any, bool) { return regpoolAgg(r, "high_water", false) },
	"regpool.inc_blocked_cycles": func(r map[string]any) (any, bool) { return regpoolAgg(r, "inc_blocked_cycles", true) },
}

// DerivedMetrics lists the metrics that are not report paths.
func DerivedMetrics() []string {
	var out []string
	for k := range derived {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// CheckMetric accepts a path into the JSON run report, as "cycles",
// "stalls.long_scoreboard", "warps.0.instructions" or
// "regpool.ctas.1.high_water", and the derived metrics.
func CheckMetric(m string) error {
	if _, ok := derived[m]; ok {
		return nil
	}
	if m == "" {
		return fmt.Errorf("empty metric")
	}
	t := reflect.TypeOf(pipeline.Report{})
	segs := strings.Split(m, ".")
	path := ""
	for i, seg := range segs {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct:
			f, ok := jsonField(t, seg)
			if !ok {
				return fmt.Errorf("unknown metric %q: %s has no key %q (keys: %s)", m, where(path), seg, strings.Join(jsonFields(t), ", "))
			}
			t = f
		case reflect.Map:
			if path == "metrics" {
				// Nsight Compute's names have dots: the rest of the path
				// is the key.
				key := strings.Join(segs[i:], ".")
				if !slices.Contains(pipeline.MetricNames(), key) {
					return fmt.Errorf("unknown metric %q: no metric %q (metrics: %s)", m, key, strings.Join(pipeline.MetricNames(), ", "))
				}
				return nil
			}
			if path == "stalls" && !slices.Contains(pipeline.StateNames(), seg) && seg != "idle" {
				return fmt.Errorf("unknown metric %q: no stall state %q (states: %s)", m, seg, strings.Join(pipeline.StateNames(), ", "))
			}
			t = t.Elem()
		case reflect.Slice, reflect.Array:
			if n, err := strconv.Atoi(seg); err != nil || n < 0 {
				return fmt.Errorf("unknown metric %q: %s is a list; %q is not an index", m, where(path), seg)
			}
			t = t.Elem()
		default:
			return fmt.Errorf("unknown metric %q: %s is a value, it has no key %q", m, where(path), seg)
		}
		path = strings.Join(segs[:i+1], ".")
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map, reflect.Slice, reflect.Array:
		return fmt.Errorf("unknown metric %q: it names a group, not a value; name one of its keys", m)
	}
	return nil
}

func where(path string) string {
	if path == "" {
		return "the report"
	}
	return path
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		return f.Name
	}
	return name
}

func jsonField(t reflect.Type, name string) (reflect.Type, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.IsExported() && jsonName(f) == name {
			return f.Type, true
		}
	}
	return nil, false
}

func jsonFields(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() && jsonName(f) != "" {
			out = append(out, jsonName(f))
		}
	}
	return out
}

// decodeReport parses a stored report; nil when there is none.
func decodeReport(data string) map[string]any {
	if data == "" {
		return nil
	}
	var rep map[string]any
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&rep); err != nil {
		return nil
	}
	return rep
}

// metricValue returns a metric of a report: a json.Number, string or bool;
// ok false when the report lacks it.
func metricValue(rep map[string]any, m string) (any, bool) {
	if rep == nil {
		return nil, false
	}
	if f, ok := derived[m]; ok {
		return f(rep)
	}
	var cur any = rep
	segs := strings.Split(m, ".")
	for i := 0; i < len(segs); i++ {
		seg := segs[i]
		switch v := cur.(type) {
		case map[string]any:
			x, ok := v[seg]
			if !ok {
				// A key with dots (metrics' Nsight names) takes the rest.
				if x, ok = v[strings.Join(segs[i:], ".")]; !ok {
					return nil, false
				}
				i = len(segs)
			}
			cur = x
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	switch cur.(type) {
	case json.Number, string, bool:
		return cur, true
	}
	return nil, false
}

// metricFloat returns a numeric metric.
func metricFloat(rep map[string]any, m string) (float64, bool) {
	v, ok := metricValue(rep, m)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func regpoolAgg(rep map[string]any, key string, perWarp bool) (any, bool) {
	rp, ok := rep["regpool"].(map[string]any)
	if !ok {
		return nil, false
	}
	ctas, _ := rp["ctas"].([]any)
	var best, sum int64
	for _, c := range ctas {
		cm, _ := c.(map[string]any)
		if perWarp {
			ws, _ := cm["warps"].([]any)
			for _, w := range ws {
				wm, _ := w.(map[string]any)
				if n, ok := wm[key].(json.Number); ok {
					v, _ := n.Int64()
					sum += v
				}
			}
			continue
		}
		if n, ok := cm[key].(json.Number); ok {
			if v, _ := n.Int64(); v > best {
				best = v
			}
		}
	}
	if perWarp {
		return json.Number(strconv.FormatInt(sum, 10)), true
	}
	return json.Number(strconv.FormatInt(best, 10)), true
}
