package pipeline

import (
	"math/rand/v2"
	"testing"
)

// Memory.mark and written agree with a byte-by-byte reference over random
// ranges (page and word edges included).
func TestMarkMatchesBytes(t *testing.T) {
	m := NewMemory(1 << 20)
	ref := make([]bool, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a := r.Uint64N(1 << 20)
		n := r.Uint64N(min(1<<18, 1<<20-a) + 1)
		v := r.IntN(3) > 0
		m.mark(a, a+n, v)
		for i := a; i < a+n; i++ {
			ref[i] = v
		}
		q := r.Uint64N(1 << 20)
		qn := r.Uint64N(min(300, 1<<20-q) + 1)
		want := true
		for i := q; i < q+qn; i++ {
			want = want && ref[i]
		}
		if got := m.written(q, q+qn); got != want {
			t.Fatalf("written(%#x, %d) = %v, want %v", q, qn, got, want)
		}
	}
}
