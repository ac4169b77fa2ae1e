// Package sharedtest finds the project's shared material (the PTX corpus
// written by others, the seed specification) for tests. It sits in
// ../shared beside the checkout: CI clones the repository with it there; a
// user's clone has none.
//
// Dir is for a test that needs the material: outside CI it skips with one
// line naming the missing directory; with CI set it fails, so CI always
// runs such tests.
package sharedtest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Root returns the module root (the directory holding go.mod) above the
// working directory.
func Root() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no go.mod above " + wd)
		}
	}
}

// Find returns ../shared/<sub> beside the checkout and whether it is
// there (a directory).
func Find(sub string) (string, bool) {
	root, err := Root()
	if err != nil {
		return "", false
	}
	p := filepath.Join(filepath.Dir(root), "shared", filepath.FromSlash(sub))
	st, err := os.Stat(p)
	return p, err == nil && st.IsDir()
}

// InCI reports whether the CI environment variable is set.
func InCI() bool { return os.Getenv("CI") != "" }

// Dir returns ../shared/<sub>. When it is missing, the test skips with one
// line naming the directory, or fails when CI is set.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	p, ok := Find(sub)
	if ok {
		return p
	}
	if InCI() {
		t.Fatalf("%s is missing (CI runs beside ../shared)", p)
	}
	t.Skipf("skipped: %s is missing (a clone without ../shared beside it)", p)
	return ""
}

// Optional returns ../shared/<sub> and true when it is there. A test that
// also works without it (a fuzz target's seeds, a round trip over the
// examples plus the corpus) goes on when it is missing, except in CI,
// where a missing directory fails the test.
func Optional(t testing.TB, sub string) (string, bool) {
	t.Helper()
	p, ok := Find(sub)
	if !ok && InCI() {
		t.Fatalf("%s is missing (CI runs beside ../shared)", p)
	}
	return p, ok
}
