// Package diag is the one positioned-error type of the module's parsers:
// PTX (package isa), configuration files and --set overrides (config), and
// every file format read from users. An error reads
// "file:line:col: message" when it has a position, else "message"; a list
// of them is sorted by position. The CLI turns any of them into exit
// status 2.
package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file: 1-based line and column (column in
// bytes). The zero Pos means "no position".
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	f := p.File
	if f == "" {
		f = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d", f, p.Line, p.Col)
}

// Error is one positioned error.
type Error struct {
	Pos
	Key string // the dotted key concerned, in keyed formats ("" when none)
	Msg string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// Unsupported reports whether the error refuses a construct outside the
// supported subset (its message starts with "unsupported: ").
func (e *Error) Unsupported() bool { return strings.HasPrefix(e.Msg, "unsupported: ") }

// ErrorList is a list of errors; Err sorts it by position.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives errors.As and errors.Is access to each error.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Err returns nil for an empty list, else the list sorted by position
// (file, line, column; errors without a position keep their order, after
// none of the others).
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return l
}

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}
