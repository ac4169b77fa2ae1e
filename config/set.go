package config

import (
	"bytes"
	"fmt"
	"github.com/smsim/smsim/diag"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is one configuration error (package diag, the module's one
// positioned-error type). Its text is "file:line:col: message" for an
// error found in a file, else "message"; the message names the key, and
// Key holds it.
type Error = diag.Error

// ErrorList is a list of errors, sorted by position by Err.
type ErrorList = diag.ErrorList

// Keys returns every settable dotted key (the leaves: array elements
// appear as key.N), sorted segment by segment with numeric segments in
// numeric order. The slice is a fresh copy.
func Keys() []string { return append([]string(nil), schema.leaves...) }

// KeyInfo describes one key, for documentation and shell completion.
type KeyInfo struct {
	Key     string // dotted key
	Type    string // bool, string, enum, intN, uintN; "section" or "list" for groups
	Unit    string // unit of the value ("" when none)
	Doc     string // one line
	Accepts string // what Set accepts
}

// Info describes a key: a leaf, a list (env.regs) or a section (sched).
func Info(key string) (KeyInfo, error) {
	f, err := lookup(key)
	if err != nil {
		return KeyInfo{}, err
	}
	ki := KeyInfo{Key: f.key, Unit: f.unit, Doc: f.doc}
	switch f.kind {
	case kindSection:
		ki.Type = "section"
		ki.Accepts = "a YAML mapping of " + childNames(f)
	case kindArray:
		ki.Type = "list"
		ki.Accepts = fmt.Sprintf("a YAML list of %d values, or set %s.N (N 0..%d)", len(f.children), f.key, len(f.children)-1)
	default:
		ki.Type = f.typeName()
		ki.Accepts = f.accepts()
	}
	return ki, nil
}

// Set applies one "key=value" override, as given to --set. The key is a
// dotted key from Keys. The value is parsed by the key's type: integers in
// Go syntax (decimal, 0x.., 0o.., 0b.., with _ separators; byte sizes may end
// in KiB/MiB/GiB and nanosecond keys in ns/us/ms/s), booleans as
// true/false (also yes/no, on/off, 1/0), enums by name. A list or a section
// takes a YAML flow value: "env.regs=[1, 2, ...]" (all elements),
// "sched={count: 2, policy: gto}". Set checks the key's own range; rules
// between keys are checked by Validate. On error c is unchanged.
func (c *Config) Set(kv string) error {
	key, val, ok := strings.Cut(kv, "=")
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	if !ok || key == "" {
		return &Error{Msg: fmt.Sprintf("bad override %q: want key=value", kv)}
	}
	f, err := lookup(key)
	if err != nil {
		return err
	}
	next := *c
	root := reflect.ValueOf(&next).Elem()
	if f.kind == kindLeaf {
		if msg := f.parse(val, f.value(root)); msg != "" {
			return &Error{Key: f.key, Msg: f.key + ": " + msg}
		}
		*c = next
		return nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(val), &doc); err != nil || len(doc.Content) == 0 {
		return &Error{Key: f.key, Msg: fmt.Sprintf("%s: %q is not a YAML value; want %s", f.key, val, mustInfo(f).Accepts)}
	}
	d := decoder{}
	d.decode(f, doc.Content[0], root)
	if len(d.errs) > 0 {
		return d.errs[0]
	}
	*c = next
	return nil
}

// Get returns the value of a key in the text form Set accepts. A list or
// a section is returned as YAML flow ("[0, 0, ...]", "{policy: gto, ...}").
func (c Config) Get(key string) (string, error) {
	f, err := lookup(key)
	if err != nil {
		return "", err
	}
	root := reflect.ValueOf(&c).Elem()
	if f.kind == kindLeaf {
		return formatValue(f.value(root)), nil
	}
	n := buildNode(f, root, false)
	setFlow(n)
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return strings.TrimSpace(b.String()), nil
}

func setFlow(n *yaml.Node) {
	n.Style = yaml.FlowStyle
	for _, ch := range n.Content {
		setFlow(ch)
	}
}

func mustInfo(f *field) KeyInfo {
	ki, _ := Info(f.key)
	return ki
}

func childNames(f *field) string {
	names := make([]string, len(f.children))
	for i, ch := range f.children {
		names[i] = ch.name
	}
	return strings.Join(names, ", ")
}

// lookup finds a key or explains why it does not exist.
func lookup(key string) (*field, error) {
	if f := schema.byKey[key]; f != nil {
		return f, nil
	}
	return nil, unknownKey(key)
}

func unknownKey(key string) *Error {
	msg := fmt.Sprintf("unknown config key %q", key)
	var parent *field
	if i := strings.LastIndexByte(key, '.'); i > 0 {
		parent = schema.byKey[key[:i]]
	}
	switch {
	case key == "preset":
		msg += " (a preset is chosen by a top-level \"preset:\" in a file, or by the command's preset option)"
	case parent != nil && parent.kind == kindArray:
		msg += fmt.Sprintf(" (%s has elements 0..%d)", parent.key, len(parent.children)-1)
	default:
		if s := suggest(key); s != "" {
			msg += " (did you mean " + s + "?)"
		} else if parent != nil && parent.kind == kindSection {
			msg += fmt.Sprintf(" (%s has: %s)", parent.key, childNames(parent))
		}
	}
	return &Error{Key: key, Msg: msg}
}

// suggest returns the known key closest to key, or "" when none is close.
func suggest(key string) string {
	best, bestD := "", len(key)/3+2
	for _, k := range schema.all {
		if d := editDistance(key, k, bestD); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" {
		return best
	}
	// A key given without its section ("count") or in the wrong section.
	last := key[strings.LastIndexByte(key, '.')+1:]
	var found []string
	for _, k := range schema.leaves {
		if strings.HasSuffix(k, "."+last) {
			found = append(found, k)
		}
	}
	if len(found) > 0 && len(found) <= 3 {
		return strings.Join(found, " or ")
	}
	return ""
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
