package vcd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the Reader in both modes: it must
// never panic, must terminate, must report only *ParseError in strict mode
// and no error in non-strict mode, and whatever the strict Reader accepts
// must be read by the non-strict one as the same number of changes.
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.vcd"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(header + "#0\n$dumpvars\n1!\nb1x \"\nr1.5 #\nsa\\x20b $\n$end\n#5\n0!\n"))
	f.Add([]byte("$var wire 3 ! a [2:0] $end #0 b1 ! 1! #1 u! $comment x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		strictChanges := 0
		strictOK := true
		for _, strict := range []bool{true, false} {
			r := NewReader(bytes.NewReader(data))
			r.Strict = strict
			changes := 0 // counted, not kept: a wide variable's values can be large
			for i := 0; ; i++ {
				if i > len(data)+1 {
					t.Fatalf("more changes (%d) than input bytes (%d)", i, len(data))
				}
				_, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					if _, ok := err.(*ParseError); !ok {
						t.Fatalf("error is %T, not *ParseError: %v", err, err)
					}
					if strict {
						strictOK = false
					} else {
						t.Fatalf("non-strict error: %v", err)
					}
					break
				}
				changes++
			}
			if strict {
				strictChanges = changes
			} else if strictOK && changes != strictChanges {
				t.Fatalf("strict accepted %d changes, non-strict %d", strictChanges, changes)
			}
		}
	})
}
