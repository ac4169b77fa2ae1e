// Package yamlpos reads a YAML document as a syntax tree (goccy/go-yaml)
// so that every message about it can name the file, line and column of
// the node it is about: "file:line:col: message", as a diag.Error. It
// collects every error instead of stopping at the first.
package yamlpos

import (
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/smsim/smsim/diag"
)

// Reader walks one document, collecting errors.
type Reader struct {
	File string
	Errs diag.ErrorList
}

// Parse parses data as one YAML document and returns its top node (nil
// with an error recorded when it is not one document).
func (r *Reader) Parse(data []byte) ast.Node {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		var se *yaml.SyntaxError
		if errors.As(err, &se) && se.Token != nil && se.Token.Position != nil {
			r.ErrAt(se.Token.Position.Line, se.Token.Position.Column, "%s", se.Message)
		} else {
			r.ErrAt(0, 0, "%s: %v", r.File, err)
		}
		return nil
	}
	if len(f.Docs) != 1 || f.Docs[0].Body == nil {
		r.ErrAt(1, 1, "want one YAML document with a mapping at the top")
		return nil
	}
	return f.Docs[0].Body
}

// Err returns the errors sorted by position (a diag.ErrorList), or nil.
func (r *Reader) Err() error { return r.Errs.Err() }

// ErrAt records a message at line:col.
func (r *Reader) ErrAt(line, col int, format string, args ...any) {
	r.Errs.Add(diag.Pos{File: r.File, Line: line, Col: col}, format, args...)
}

// Pos returns the line and column of n (a mapping: of its first key).
func Pos(n ast.Node) (line, col int) {
	switch m := n.(type) {
	case *ast.MappingNode:
		if len(m.Values) > 0 {
			n = m.Values[0].Key // a block mapping's own token is its first ':'
		}
	case *ast.MappingValueNode:
		n = m.Key
	}
	if n != nil {
		if t := n.GetToken(); t != nil && t.Position != nil {
			return t.Position.Line, t.Position.Column
		}
	}
	return 0, 0
}

// Errorf records a message at n.
func (r *Reader) Errorf(n ast.Node, format string, args ...any) {
	line, col := Pos(n)
	r.ErrAt(line, col, format, args...)
}

// At is "file:line:col" of n.
func (r *Reader) At(n ast.Node) string {
	line, col := Pos(n)
	return fmt.Sprintf("%s:%d:%d", r.File, line, col)
}

// Unwrap strips anchors, tags and comments.
func Unwrap(n ast.Node) ast.Node {
	for n != nil {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		case *ast.CommentGroupNode:
			return nil
		default:
			return n
		}
	}
	return n
}

// Entry is one key of a mapping.
type Entry struct {
	Key  string
	KeyN ast.Node
	Val  ast.Node
}

// Mapping returns the entries of a mapping node in order, reporting
// duplicate keys.
func (r *Reader) Mapping(n ast.Node, what string) ([]Entry, bool) {
	n = Unwrap(n)
	var vals []*ast.MappingValueNode
	switch v := n.(type) {
	case *ast.MappingNode:
		vals = v.Values
	case *ast.MappingValueNode:
		vals = []*ast.MappingValueNode{v}
	default:
		r.Errorf(n, "%s: want a mapping, have %s", what, Kind(n))
		return nil, false
	}
	seen := map[string]bool{}
	var out []Entry
	for _, mv := range vals {
		k, ok := r.Scalar(mv.Key, what+" key")
		if !ok {
			continue
		}
		if seen[k] {
			r.Errorf(mv.Key, "%s: key %q given twice", what, k)
			continue
		}
		seen[k] = true
		out = append(out, Entry{Key: k, KeyN: mv.Key, Val: mv.Value})
	}
	return out, true
}

// Kind names a node's kind for messages.
func Kind(n ast.Node) string {
	switch n.(type) {
	case nil:
		return "nothing"
	case *ast.NullNode:
		return "null"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.AliasNode:
		return "an alias"
	}
	return "a scalar"
}

// Scalar returns a scalar's text: a string unquoted, a number as written.
func (r *Reader) Scalar(n ast.Node, what string) (string, bool) {
	n = Unwrap(n)
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return v.GetToken().Value, true
	case *ast.LiteralNode:
		return strings.TrimRight(v.Value.Value, "\n"), true
	}
	r.Errorf(n, "%s: want a scalar, have %s", what, Kind(n))
	return "", false
}

// Item is one mapping of a list of mappings.
type Item struct {
	Index   int    // its position in the list
	What    string // its name in messages: what[Index]
	Node    ast.Node
	Entries []Entry
}

// Mappings yields the items of a list that are mappings, in order, and
// reports the others (what names the list).
func (r *Reader) Mappings(items []ast.Node, what string) iter.Seq[Item] {
	return func(yield func(Item) bool) {
		for i, it := range items {
			w := fmt.Sprintf("%s[%d]", what, i)
			es, ok := r.Mapping(it, w)
			if ok && !yield(Item{i, w, it, es}) {
				return
			}
		}
	}
}

// List returns a sequence's items; with one, a scalar is a list of one.
func (r *Reader) List(n ast.Node, what string, one bool) ([]ast.Node, bool) {
	n = Unwrap(n)
	if s, ok := n.(*ast.SequenceNode); ok {
		return s.Values, true
	}
	if one && Kind(n) == "a scalar" {
		return []ast.Node{n}, true
	}
	r.Errorf(n, "%s: want a list, have %s", what, Kind(n))
	return nil, false
}
