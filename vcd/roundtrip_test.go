package vcd

import (
	"bytes"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// model is the expected value of one variable, in the Reader's form.
type model struct {
	id    ID
	name  string
	width int
	kind  VarKind
	cur   Value
	hist  []Sample
}

func randBits(rng *rand.Rand, n int, fourState bool) string {
	b := make([]byte, n)
	for i := range b {
		c := byte('0' + rng.IntN(2))
		if fourState && rng.IntN(4) == 0 {
			c = "xzXZ"[rng.IntN(4)]
		}
		b[i] = c
	}
	return string(b)
}

func randString(rng *rand.Rand, nul bool) string {
	alphabet := "ab Z09\\\t\n$#\x7f\xff é"
	if nul {
		alphabet += "\x00"
	}
	n := rng.IntN(12)
	var s strings.Builder
	for i := 0; i < n; i++ {
		s.WriteByte(alphabet[rng.IntN(len(alphabet))])
	}
	return s.String()
}

func randReal(rng *rand.Rand) float64 {
	switch rng.IntN(8) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1 - 2*rng.IntN(2))
	case 2:
		return 0
	case 3:
		return math.Copysign(0, -1)
	case 4:
		return math.Float64frombits(rng.Uint64())
	}
	return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
}

// TestRoundTrip writes random values of every kind through the Writer and
// checks the strict Reader gives back exactly the changes made.
func TestRoundTrip(t *testing.T) {
	data, vars, end := writeRandom(t, 1, true)
	r := NewReader(bytes.NewReader(data))
	r.Strict = true
	d, err := r.ReadAll()
	require.NoError(t, err)
	assert.Equal(t, end, d.EndTime)
	for _, m := range vars {
		s := d.Signal(m.name)
		require.NotNil(t, s, m.name)
		require.Len(t, s.Changes, len(m.hist), m.name)
		for i := range m.hist {
			if !sameBits(m.hist[i].Value, s.Changes[i].Value) || m.hist[i].Time != s.Changes[i].Time {
				t.Fatalf("%s change %d: wrote %v, read %v", m.name, i, m.hist[i], s.Changes[i])
			}
		}
	}
}

// sameBits compares values exactly (reals by bit pattern).
func sameBits(a, b Value) bool {
	if a.Kind == RealValue {
		return math.Float64bits(a.Real) == math.Float64bits(b.Real)
	}
	return a == b
}

// writeRandom writes a file of random values of every kind across widths
// 1..128 and returns it with the expected changes of each variable and
// the last time. nul allows NUL bytes in strings.
func writeRandom(t *testing.T, seed uint64, nul bool) ([]byte, []*model, uint64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	var out bytes.Buffer
	w := NewWriter(&out)
	var vars []*model
	widths := []int{1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 65, 100, 127, 128}
	for i, width := range widths {
		for j, kind := range []VarKind{Wire, Reg, Integer} {
			require.NoError(t, w.Scope(ScopeModule, "m"+strconv.Itoa(i)))
			name := "v" + strconv.Itoa(j)
			id, err := w.Register(kind, width, name+"["+strconv.Itoa(width-1)+":0]")
			require.NoError(t, err)
			require.NoError(t, w.Upscope())
			vars = append(vars, &model{id: id, name: "m" + strconv.Itoa(i) + "." + name, width: width, kind: kind,
				cur: Value{Bits: strings.Repeat("x", width)}})
		}
	}
	require.NoError(t, w.Scope(ScopeBegin, "misc"))
	for i := 0; i < 3; i++ {
		id, err := w.Register(Real, 64, "r"+strconv.Itoa(i))
		require.NoError(t, err)
		vars = append(vars, &model{id: id, name: "misc.r" + strconv.Itoa(i), kind: Real, cur: Value{Kind: RealValue}})
		id, err = w.Register(String, 1, "s"+strconv.Itoa(i))
		require.NoError(t, err)
		vars = append(vars, &model{id: id, name: "misc.s" + strconv.Itoa(i), kind: String, cur: Value{Kind: StringValue}})
	}
	require.NoError(t, w.Upscope())

	set := func(m *model, tm uint64, timed bool) {
		var v Value
		switch m.kind {
		case Real:
			f := randReal(rng)
			require.NoError(t, w.SetReal(m.id, f))
			v = Value{Kind: RealValue, Real: f}
		case String:
			s := randString(rng, nul)
			require.NoError(t, w.SetString(m.id, s))
			v = Value{Kind: StringValue, Str: s}
		default:
			switch rng.IntN(6) {
			case 0:
				x := rng.Uint64()
				if m.width < 64 {
					x &= 1<<uint(m.width) - 1
				}
				require.NoError(t, w.SetUint(m.id, x))
				v.Bits = Extend(strconv.FormatUint(x, 2), m.width)
			case 1:
				b := randBits(rng, m.width, false)
				x, _ := new(big.Int).SetString(b, 2)
				require.NoError(t, w.SetBig(m.id, x))
				v.Bits = b
			case 2:
				require.NoError(t, w.SetX(m.id))
				v.Bits = strings.Repeat("x", m.width)
			case 3:
				require.NoError(t, w.SetZ(m.id))
				v.Bits = strings.Repeat("z", m.width)
			default:
				b := randBits(rng, 1+rng.IntN(m.width), true)
				require.NoError(t, w.SetBits(m.id, b))
				v.Bits = Extend(strings.ToLower(b), m.width)
			}
		}
		if !timed {
			m.cur = v
			return
		}
		if !sameBits(v, m.cur) {
			m.hist = append(m.hist, Sample{tm, v})
		}
		m.cur = v
	}
	// Initial values for half the variables.
	for _, m := range vars {
		if rng.IntN(2) == 0 {
			set(m, 0, false)
		}
	}
	tm := uint64(3)
	require.NoError(t, w.SetTime(tm))
	for _, m := range vars {
		m.hist = []Sample{{tm, m.cur}} // the $dumpvars section
	}
	for step := 0; step < 200; step++ {
		tm += 1 + uint64(rng.IntN(1000))
		require.NoError(t, w.SetTime(tm))
		for _, m := range vars {
			if rng.IntN(3) == 0 {
				set(m, tm, true)
			}
		}
	}
	require.NoError(t, w.Close())
	return out.Bytes(), vars, tm
}
