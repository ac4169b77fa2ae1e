package trace

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/unitcfg"
	"github.com/smsim/smsim/warpsched"
)

// refPack is the slow, obviously right layout: every sv field through
// reflection, bit by bit, the vector's bit i from element i/ew.
func refPack(v reflect.Value, table rtl.Table, ew0 map[string]int) map[string][]byte {
	out := map[string][]byte{}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Tag.Get("sv")
		sig, ok := table.Find(name)
		if !ok {
			continue
		}
		f := v.Field(i)
		bitsOut := make([]byte, sig.Width) // bit i at index i
		var leaves []uint64
		var leafBits int
		var walk func(x reflect.Value)
		walk = func(x reflect.Value) {
			switch x.Kind() {
			case reflect.Array:
				if x.Type() == reflect.TypeOf(rtl.Bits{}) {
					for k := 0; k < x.Len(); k++ {
						w := x.Index(k).Uint()
						for b := 0; b < 64; b++ {
							leaves = append(leaves, w>>uint(b)&1)
						}
					}
					leafBits = 1
					return
				}
				for k := 0; k < x.Len(); k++ {
					walk(x.Index(k))
				}
			case reflect.Bool:
				b := uint64(0)
				if x.Bool() {
					b = 1
				}
				leaves, leafBits = append(leaves, b), 1
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				leaves, leafBits = append(leaves, uint64(x.Int())), int(x.Type().Size()*8)
			default:
				leaves, leafBits = append(leaves, x.Uint()), int(x.Type().Size()*8)
			}
		}
		walk(f)
		ew := leafBits
		if f.Kind() != reflect.Array {
			ew = sig.Width
		}
		if o, ok := ew0[name]; ok {
			ew = o
		}
		for b := 0; b < sig.Width; b++ {
			bitsOut[b] = byte(leaves[b/ew] >> uint(b%ew) & 1)
		}
		out[name] = bitsOut
	}
	return out
}

func randomize(r *rand.Rand, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			randomize(r, v.Field(i))
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			randomize(r, v.Index(i))
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.Uint64()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(r.Uint64())
	}
}

// checkBinder packs random values of T with the binder and compares every
// bit with refPack.
func checkBinder[T any](t *testing.T, table rtl.Table) {
	t.Helper()
	bt, err := bindType[T](table, nil)
	require.NoError(t, err)
	require.NotEmpty(t, bt.b.fields, "%s: no field bound", reflect.TypeFor[T]())
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 50; iter++ {
		var v T
		randomize(r, reflect.ValueOf(&v).Elem())
		words := make([]uint64, bt.b.words)
		bt.pack(&v, words)
		ref := refPack(reflect.ValueOf(v), table, nil)
		for _, f := range bt.b.fields {
			w := words[f.word : f.word+f.nw]
			want := ref[f.sig.Name]
			for b := 0; b < f.nw*64; b++ {
				got := byte(w[b/64] >> uint(b%64) & 1)
				exp := byte(0)
				if b < len(want) {
					exp = want[b]
				}
				if got != exp {
					t.Fatalf("%s.%s bit %d: got %d want %d", reflect.TypeFor[T](), f.sig.Name, b, got, exp)
				}
			}
		}
	}
}

func TestBinderMatchesReflection(t *testing.T) {
	cfg := config.Default()
	wp, err := unitcfg.WarpSched(cfg)
	require.NoError(t, err)
	ws, err := warpsched.New(wp)
	require.NoError(t, err)
	st := ws.Signals("u")
	checkBinder[warpsched.Inputs](t, st)
	checkBinder[warpsched.Outputs](t, st)
	checkBinder[warpsched.State](t, st)
	ct, err := clocktimer.New(unitcfg.ClockTimer(cfg))
	require.NoError(t, err)
	checkBinder[clocktimer.Outputs](t, ct.Signals())
	checkBinder[clocktimer.State](t, ct.Signals())
	pp, err := unitcfg.PerfMon(cfg)
	require.NoError(t, err)
	pm, err := perfmon.New(pp)
	require.NoError(t, err)
	checkBinder[perfmon.Outputs](t, pm.Signals())
	checkBinder[perfmon.State](t, pm.Signals())
	p := pipeline.TopParams{WarpStateWidth: 5, StallWidth: 4, WarpSlotWidth: 6, NumWarps: 64, CTAs: 32, ThreadCountWidth: 11, WarpsPerCTA: 24}
	checkBinder[pipeline.WarpRegs](t, pipeline.TopTable[pipeline.WarpRegs]("w", p))
	checkBinder[pipeline.IssueOutputs](t, pipeline.TopTable[pipeline.IssueOutputs]("i", p))
	checkBinder[pipeline.WritebackOutputs](t, pipeline.TopTable[pipeline.WritebackOutputs]("b", p))
	tu, err := trapunit.New(trapunit.Params{NumWarps: 64, NumPorts: 4})
	require.NoError(t, err)
	checkBinder[trapunit.Outputs](t, tu.Signals())
	checkBinder[trapunit.State](t, tu.Signals())
	checkBinder[regPoolObs](t, pipeline.TopTable[regPoolObs]("r", p))
	checkBinder[pipeline.BarrierRegs](t, pipeline.TopTable[pipeline.BarrierRegs]("b", p))
	checkBinder[pipeline.TopPorts](t, pipeline.TopTable[pipeline.TopPorts]("s", p))
}

func TestBinderErrors(t *testing.T) {
	type bad struct {
		A [4]uint16 `sv:"a_o" width:"24"` // 24 bits: 6-bit elements? ambiguous
		B float64   `sv:"b_o" width:"64"`
		C uint8     `sv:"c_o" width:"9"`
	}
	for _, name := range []string{"a_o", "b_o", "c_o"} {
		tab := rtl.Table{{Name: name, Width: map[string]int{"a_o": 24, "b_o": 64, "c_o": 9}[name], Dir: rtl.DirOut}}
		_, err := newBinder(reflect.TypeFor[bad](), tab, nil)
		assert.Error(t, err, name)
	}
	// With the element width given (the signal table's Elem, from an
	// elem tag), a_o lays out.
	tab := rtl.Table{{Name: "a_o", Width: 24, Dir: rtl.DirOut, Elem: 6}}
	b, err := newBinder(reflect.TypeFor[bad](), tab, nil)
	require.NoError(t, err)
	v := bad{A: [4]uint16{1, 2, 3, 0x3f}}
	w := make([]uint64, b.words)
	b.pack(ptrOf(&v), w)
	assert.Equal(t, uint64(1|2<<6|3<<12|0x3f<<18), w[0])
}
