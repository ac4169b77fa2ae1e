package trace_test

import (
	"testing"

	"github.com/smsim/smsim/trace"
)

// FuzzParseWindow: ParseWindow never panics, and what it accepts is a
// non-empty window.
func FuzzParseWindow(f *testing.F) {
	for _, s := range []string{"10:20", ":5", "7:", "0x10:0x20", "", ":", "5:5", "a:b", "18446744073709551615:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start, end, err := trace.ParseWindow(s)
		if err == nil && end != 0 && end <= start {
			t.Fatalf("ParseWindow(%q) = %d:%d", s, start, end)
		}
		if err == nil {
			if err := (trace.Options{Start: start, End: end}).Check(); err != nil {
				t.Fatalf("ParseWindow(%q) accepted a window Options rejects: %v", s, err)
			}
		}
	})
}
