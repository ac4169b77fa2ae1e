package config

import (
	"io"
	"reflect"

	"gopkg.in/yaml.v3"
)

// dumpHeader opens every Dump.
const dumpHeader = `smsim configuration: every key, with its unit and meaning.
Load it with --config FILE; override single keys with --set key=value.`

// Dump writes c as YAML: every key, in declaration order, each preceded by
// a comment with its meaning and unit. Parse of the output gives back c,
// whatever the base, for any c whose keys each hold a value Set would
// accept (every Config that passes Validate).
func (c Config) Dump(w io.Writer) error {
	doc := &yaml.Node{
		Kind:        yaml.DocumentNode,
		HeadComment: dumpHeader,
		Content:     []*yaml.Node{buildNode(schema.root, reflect.ValueOf(&c).Elem(), true)},
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return enc.Close()
}

// buildNode returns the YAML node of the part of c (root) that f names.
func buildNode(f *field, root reflect.Value, comments bool) *yaml.Node {
	switch f.kind {
	case kindSection:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, ch := range f.children {
			k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: ch.name}
			if comments {
				k.HeadComment = comment(ch)
			}
			n.Content = append(n.Content, k, buildNode(ch, root, comments))
		}
		return n
	case kindArray:
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, ch := range f.children {
			n.Content = append(n.Content, buildNode(ch, root, comments))
		}
		return n
	}
	v := f.value(root)
	tag := "!!int"
	switch v.Kind() {
	case reflect.Bool:
		tag = "!!bool"
	case reflect.String:
		tag = "!!str"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: formatValue(v)}
}

func comment(f *field) string {
	s := f.doc
	if f.unit != "" {
		s += " [" + f.unit + "]"
	}
	return s
}
