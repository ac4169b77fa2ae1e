package memsys

import (
	"math/rand"
	"testing"
)

// Random warp requests against brute-force definitions: the coalescer's
// sectors are the distinct 32-byte blocks of the active lanes; the bank
// model's wavefronts, per phase, are the largest number of distinct words
// any bank group holds.
func TestRandomAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	sizes := []int{1, 2, 4, 8, 16}
	for it := 0; it < 3000; it++ {
		size := sizes[rng.Intn(len(sizes))]
		mask := rng.Uint32()
		if it%7 == 0 {
			mask = ^uint32(0)
		}
		span := uint64(1) << uint(4+rng.Intn(10)) // addresses packed or spread
		var r WarpReq
		r.Op, r.Size, r.Mask = OpLoad, size, mask
		var sh [WarpSize]uint32
		for l := range r.Addr {
			a := uint64(rng.Int63n(int64(span))) &^ uint64(size-1)
			r.Addr[l] = 0x10000 + a
			sh[l] = uint32(a)
		}
		c, err := Coalesce(&r)
		if err != nil {
			t.Fatal(err)
		}
		sectors, lines := map[uint64]bool{}, map[uint64]bool{}
		for l := 0; l < WarpSize; l++ {
			if mask&(1<<l) != 0 {
				sectors[r.Addr[l]/SectorBytes] = true
				lines[r.Addr[l]/LineBytes] = true
			}
		}
		if c.Sectors != len(sectors) || c.N != len(lines) {
			t.Fatalf("it %d: %d sectors %d lines, want %d %d", it, c.Sectors, c.N, len(sectors), len(lines))
		}

		w, err := SharedWavefronts(h100Banks, &sh, size, mask)
		if err != nil {
			t.Fatal(err)
		}
		unit := max(size, 4)
		groups := 128 / unit
		per := 128 / max(size, 4)
		per = min(per, WarpSize)
		want := 0
		for base := 0; base < WarpSize; base += per {
			words := make([]map[uint32]bool, groups)
			any := false
			for l := base; l < base+per; l++ {
				if mask&(1<<l) == 0 {
					continue
				}
				any = true
				wd := sh[l] / uint32(unit)
				g := wd % uint32(groups)
				if words[g] == nil {
					words[g] = map[uint32]bool{}
				}
				words[g][wd] = true
			}
			m := 0
			for _, ws := range words {
				m = max(m, len(ws))
			}
			if any {
				want += m
			}
		}
		if w.N != want {
			t.Fatalf("it %d size %d mask %#x: %d wavefronts, want %d", it, size, mask, w.N, want)
		}
	}
}
