package config

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/smsim/smsim/diag"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Load reads the YAML file at path and applies it over base (see Parse).
func Load(path string, base Config) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return Parse(path, data, base)
}

// Parse applies a YAML document over base and returns the result; name is
// the file name used in error positions.
//
// The document is a mapping of sections to mappings of keys, exactly as
// Dump writes it; any subset of keys may be given. A list (env.regs,
// pm.counter) is either a sequence of all its elements or a mapping from
// element index to value ({5: 0x10}) that changes only those elements. A
// top-level "preset: NAME" replaces base with that preset before the rest
// of the file applies.
//
// Parsing is strict: an unknown key, a duplicate key, a value of the wrong
// type or outside the key's own range is an error naming the key and its
// "file:line:col". All such errors are returned together, as an ErrorList.
// Rules between keys are not checked: call Validate once every override
// (files, then --set) is applied.
func Parse(name string, data []byte, base Config) (Config, error) {
	doc, err := readYAML(name, data)
	if err != nil {
		return Config{}, err
	}
	if doc == nil || len(doc.Content) == 0 {
		return base, nil // an empty file changes nothing
	}
	root := resolve(doc.Content[0])
	if isNull(root) {
		return base, nil
	}
	d := decoder{file: name, positions: true}
	if root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if k := root.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "preset" {
				v := resolve(root.Content[i+1])
				if v.Kind != yaml.ScalarNode {
					d.errorAt(v, "preset", "preset: want a preset name ("+strings.Join(Presets(), ", ")+")")
					return Config{}, d.errs.Err()
				}
				p, err := Preset(v.Value)
				if err != nil {
					d.errorAt(v, "preset", "preset: "+err.Error())
					return Config{}, d.errs.Err()
				}
				base = p
			}
		}
	}
	cfg := base
	d.decode(schema.root, root, reflect.ValueOf(&cfg).Elem())
	if err := d.errs.Err(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// decoder applies YAML nodes to a Config through the schema, collecting errors.
type decoder struct {
	file      string
	positions bool // report file:line:col (false for --set values)
	errs      ErrorList
}

func (d *decoder) errorAt(n *yaml.Node, key, msg string) {
	e := &Error{Key: key, Msg: msg}
	if d.positions {
		e.File, e.Line, e.Col = d.file, n.Line, n.Column
		if e.File == "" {
			e.File = "<input>"
		}
	}
	d.errs = append(d.errs, e)
}

// resolve follows aliases (bounded, so that no input can loop).
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; i < 100 && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "an alias"
}

// decode applies node n to the part of root that f describes.
func (d *decoder) decode(f *field, n *yaml.Node, root reflect.Value) {
	n = resolve(n)
	switch f.kind {
	case kindSection:
		d.section(f, n, root)
	case kindArray:
		d.array(f, n, root)
	default:
		d.leaf(f, n, root)
	}
}

func (d *decoder) section(f *field, n *yaml.Node, root reflect.Value) {
	if isNull(n) {
		return // "sched:" with nothing under it changes nothing
	}
	if n.Kind != yaml.MappingNode {
		what := "a mapping of " + childNames(f)
		if f.key == "" {
			d.errorAt(n, "", fmt.Sprintf("a config file is a mapping of sections (%s); got %s", childNames(f), kindName(n)))
		} else {
			d.errorAt(n, f.key, fmt.Sprintf("%s: want %s; got %s", f.key, what, kindName(n)))
		}
		return
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.errorAt(k, f.key, fmt.Sprintf("a key must be a plain name; got %s", kindName(k)))
			continue
		}
		key := joinKey(f.key, k.Value)
		if prev := seen[k.Value]; prev != nil {
			d.errorAt(k, key, fmt.Sprintf("duplicate key %s (first at line %d)", key, prev.Line))
			continue
		}
		seen[k.Value] = k
		if f.key == "" && k.Value == "preset" {
			continue // applied by Parse before everything else
		}
		ch := child(f, k.Value)
		if ch == nil {
			e := unknownKey(key)
			d.errorAt(k, key, e.Msg)
			continue
		}
		d.decode(ch, v, root)
	}
}

func child(f *field, name string) *field {
	for _, ch := range f.children {
		if ch.name == name {
			return ch
		}
	}
	return nil
}

func (d *decoder) array(f *field, n *yaml.Node, root reflect.Value) {
	switch n.Kind {
	case yaml.SequenceNode:
		if len(n.Content) != len(f.children) {
			d.errorAt(n, f.key, fmt.Sprintf("%s: a list of %d values, want %d (a mapping {index: value} sets single elements)", f.key, len(n.Content), len(f.children)))
			return
		}
		for i, e := range n.Content {
			d.decode(f.children[i], e, root)
		}
	case yaml.MappingNode:
		seen := map[int]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolve(n.Content[i]), n.Content[i+1]
			idx, err := strconv.Atoi(k.Value)
			if k.Kind != yaml.ScalarNode || err != nil || idx < 0 || idx >= len(f.children) {
				d.errorAt(k, f.key, fmt.Sprintf("%s: %s is not an element index 0..%d", f.key, kindName(k), len(f.children)-1))
				continue
			}
			if prev := seen[idx]; prev != nil {
				d.errorAt(k, f.children[idx].key, fmt.Sprintf("duplicate key %s (first at line %d)", f.children[idx].key, prev.Line))
				continue
			}
			seen[idx] = k
			d.decode(f.children[idx], v, root)
		}
	default:
		if isNull(n) {
			return
		}
		d.errorAt(n, f.key, fmt.Sprintf("%s: want a list of %d values or a mapping {index: value}; got %s", f.key, len(f.children), kindName(n)))
	}
}

func (d *decoder) leaf(f *field, n *yaml.Node, root reflect.Value) {
	if n.Kind != yaml.ScalarNode {
		d.errorAt(n, f.key, fmt.Sprintf("%s: want a single value (%s); got %s", f.key, f.accepts(), kindName(n)))
		return
	}
	s := n.Value
	if isNull(n) {
		if f.typ.Kind() != reflect.String {
			d.errorAt(n, f.key, fmt.Sprintf("%s: missing value; want %s", f.key, f.accepts()))
			return
		}
		s = ""
	}
	if msg := f.parse(s, f.value(root)); msg != "" {
		d.errorAt(n, f.key, f.key+": "+msg)
	}
}

// readYAML parses the single YAML document of a file; nil for an empty file.
func readYAML(name string, data []byte) (doc *yaml.Node, err error) {
	defer func() {
		// The YAML library is not meant to panic on any input; should it,
		// report the input as invalid rather than crash the caller.
		if r := recover(); r != nil {
			doc, err = nil, &Error{Pos: diag.Pos{File: name}, Msg: fmt.Sprintf("%s: invalid YAML (%v)", name, r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first yaml.Node
	if err := dec.Decode(&first); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, &Error{Pos: diag.Pos{File: name}, Msg: fmt.Sprintf("%s: %v", name, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, &Error{Pos: diag.Pos{File: name}, Msg: fmt.Sprintf("%s: %v", name, err)}
		}
		return nil, &Error{Pos: diag.Pos{File: name, Line: extra.Line, Col: extra.Column}, Msg: "a config file holds one YAML document; found a second"}
	}
	return &first, nil
}
