package pipeline

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// runKernelFile assembles testdata/isa16/name.ptx (compiled by clang-16
// from name.cu beside it), runs entry name under l and returns the report.
func runKernelFile(t *testing.T, name string, l Launch) *Report {
	t.Helper()
	path := filepath.Join("testdata", "isa16", name+".ptx")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	im := assemble(t, path, src)
	if l.Entry == "" {
		l.Entry = name
	}
	rep := runSM(t, newSM(t, smallConfig(), im, l))
	wantCompleted(t, rep)
	return rep
}

// words32 is the little-endian bytes of ws (a buffer's Init).
func words32(ws []uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

// ulpDist is the distance in units in the last place between two f32
// values of the same sign (bit patterns ordered as integers); a large
// number when the signs differ (zeros of either sign are equal).
func ulpDist(a, b uint32) uint64 {
	key := func(x uint32) int64 {
		if x&0x8000_0000 != 0 {
			return -int64(x & 0x7fff_ffff)
		}
		return int64(x)
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// f32 and f64 reinterpret bits.
func f32(w uint32) float64 { return float64(math.Float32frombits(w)) }
