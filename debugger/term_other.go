//go:build !linux

package debugger

import "errors"

// isTerminal: line editing is offered on Linux only; elsewhere lines are
// read plainly.
func isTerminal(fd int) bool { return false }

func makeRaw(fd int) (func(), error) { return nil, errors.New("raw mode is not supported here") }
