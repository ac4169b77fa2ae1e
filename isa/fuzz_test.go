package isa

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/smsim/smsim/internal/sharedtest"
)

// FuzzParse checks that Parse never panics or hangs and that every error it
// returns is positioned. Seeds: the real-PTX corpus, the wrapped seed
// examples, the parser's table tests (testdata/fuzz/FuzzParse holds the
// interesting inputs found so far).
//
//	go test -run '^$' -fuzz=FuzzParse -fuzztime=60s ./isa
func FuzzParse(f *testing.F) {
	// Seeds: the shared corpus and the seed specification's examples
	// where they are beside the checkout.
	var files []string
	if dir, ok := sharedtest.Optional(f, "corpus/ptx"); ok {
		files, _ = filepath.Glob(filepath.Join(dir, "*.ptx"))
		if len(files) == 0 {
			f.Fatalf("no corpus files in %s", dir)
		}
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		// Big inputs make the fuzzer's minimization crawl (it re-parses the
		// input once per byte it tries to drop): seed at most 4 KiB of each
		// file, plus the start of its first .section (DWARF data).
		f.Add(seedPrefix(src, 4<<10))
		if i := bytes.Index(src, []byte(".section")); i > 4<<10 {
			f.Add(seedPrefix(src[i:], 2<<10))
		}
	}
	if _, ok := sharedtest.Optional(f, "seeds"); ok {
		for _, ex := range seedExamples(f) {
			f.Add([]byte(ex.Source))
		}
	}
	for _, tc := range moduleTests {
		f.Add([]byte(testHeader + tc.src))
	}
	for _, tc := range bodyTests {
		f.Add([]byte(testHeader + ".visible .entry k()\n{\n" + tc.src + "\n}\n"))
	}
	for _, tc := range errorTests {
		f.Add([]byte(testHeader + tc.src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("f.ptx", src)
		if m == nil {
			t.Fatal("Parse returned a nil module")
		}
		if err == nil {
			return
		}
		list, ok := err.(ErrorList)
		if !ok {
			t.Fatalf("error is %T, want ErrorList", err)
		}
		if len(list) == 0 || len(list) > maxErrors+1 {
			t.Fatalf("%d errors", len(list))
		}
		for _, e := range list {
			if e == nil || e.Pos.Line < 1 || e.Pos.Col < 1 || e.Msg == "" || e.Pos.File != "f.ptx" {
				t.Fatalf("malformed error %#v in\n%v", e, err)
			}
		}
	})
}

// seedPrefix cuts src after the last newline within its first n bytes.
func seedPrefix(src []byte, n int) []byte {
	if len(src) <= n {
		return src
	}
	if i := bytes.LastIndexByte(src[:n], '\n'); i > 0 {
		return src[:i+1]
	}
	return src[:n]
}
