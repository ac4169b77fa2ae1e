package isa

import dg "github.com/smsim/smsim/diag"

// Pos is a position in a source file (package diag, the module's one
// positioned-error type).
type Pos = dg.Pos

// Error is a positioned front-end error: "file:line:col: message".
type Error = dg.Error

// ErrorList is a list of positioned errors, sorted by position by Err.
type ErrorList = dg.ErrorList
