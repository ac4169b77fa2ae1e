package rtl

import (
	"math/bits"
	"strconv"
	"strings"
)

// MaxBits is the width of a Bits vector: one bit per warp slot of the
// largest SM the configuration allows (sm.max_warps <= 1024).
const MaxBits = 1024

// Bits is a fixed-width bit vector (logic [MaxBits-1:0]). It is a plain
// comparable value, so it can sit in a unit's State. Bit i is word i/64,
// bit i%64. Indices outside [0, MaxBits) read as 0 and are ignored on
// write.
type Bits [MaxBits / 64]uint64

// Set sets bit i.
func (b *Bits) Set(i int) {
	if uint(i) < MaxBits {
		b[i>>6] |= 1 << uint(i&63)
	}
}

// Clear clears bit i.
func (b *Bits) Clear(i int) {
	if uint(i) < MaxBits {
		b[i>>6] &^= 1 << uint(i&63)
	}
}

// Put sets bit i to v.
func (b *Bits) Put(i int, v bool) {
	if v {
		b.Set(i)
	} else {
		b.Clear(i)
	}
}

// Has reports bit i.
func (b *Bits) Has(i int) bool {
	return uint(i) < MaxBits && b[i>>6]&(1<<uint(i&63)) != 0
}

// Any reports whether some bit is set.
func (b *Bits) Any() bool {
	for _, w := range b {
		if w != 0 {
			return true
		}
	}
	return false
}

// Count is the number of set bits.
func (b *Bits) Count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// And returns b & o.
func (b Bits) And(o Bits) Bits {
	for i := range b {
		b[i] &= o[i]
	}
	return b
}

// AndNot returns b &^ o.
func (b Bits) AndNot(o Bits) Bits {
	for i := range b {
		b[i] &^= o[i]
	}
	return b
}

// Or returns b | o.
func (b Bits) Or(o Bits) Bits {
	for i := range b {
		b[i] |= o[i]
	}
	return b
}

// NextFrom returns the lowest set bit at index >= from and < n, or -1.
func (b *Bits) NextFrom(from, n int) int {
	if from < 0 {
		from = 0
	}
	if n > MaxBits {
		n = MaxBits
	}
	for from < n {
		wi := from >> 6
		w := b[wi] >> uint(from&63)
		if w != 0 {
			i := from + bits.TrailingZeros64(w)
			if i < n {
				return i
			}
			return -1
		}
		from = (wi + 1) << 6
	}
	return -1
}

// NextCyclic returns the first set bit among from, from+1, ..., n-1, 0,
// ..., from-1 (a round-robin search over n bits), or -1 when none is set.
func (b *Bits) NextCyclic(from, n int) int {
	if n <= 0 {
		return -1
	}
	if from < 0 || from >= n {
		from = 0
	}
	if i := b.NextFrom(from, n); i >= 0 {
		return i
	}
	return b.NextFrom(0, from)
}

// String renders the set bits as a list, e.g. "{0,3,17}".
func (b Bits) String() string {
	var sb strings.Builder
	sb.WriteByte('{')
	first := true
	for i := b.NextFrom(0, MaxBits); i >= 0; i = b.NextFrom(i+1, MaxBits) {
		if !first {
			sb.WriteByte(',')
		}
		first = false
		sb.WriteString(strconv.Itoa(i))
	}
	sb.WriteByte('}')
	return sb.String()
}

// BitsOf returns a vector with the given bits set.
func BitsOf(idx ...int) Bits {
	var b Bits
	for _, i := range idx {
		b.Set(i)
	}
	return b
}

// Words is the number of words of a Bits that hold bits [0, n).
func Words(n int) int { return min((n+63)>>6, MaxBits/64) }

// ClearWords clears the first k words (bits [0, 64k)), for a vector
// whose bits at and above 64k are known to be clear: cheaper than
// clearing all MaxBits when only a few are in use.
func (b *Bits) ClearWords(k int) {
	clear(b[:k])
}

// OrWords sets b to b | o in the first k words (o's bits above 64k must
// be clear).
func (b *Bits) OrWords(o *Bits, k int) {
	for i := range b[:k] {
		b[i] |= o[i]
	}
}

// AnyWords reports whether a bit is set in the first k words.
func (b *Bits) AnyWords(k int) bool {
	for _, w := range b[:k] {
		if w != 0 {
			return true
		}
	}
	return false
}
