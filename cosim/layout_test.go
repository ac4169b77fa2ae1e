package cosim

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
	"unsafe"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/unittest"
	"github.com/smsim/smsim/rtl"
	"github.com/smsim/smsim/warpsched"
)

func TestStorageBytes(t *testing.T) {
	cases := []struct{ w, b int }{{1, 1}, {8, 1}, {9, 2}, {16, 2}, {17, 4}, {32, 4}, {33, 8}, {64, 8}, {65, 12}, {96, 12}, {97, 16}, {512, 64}, {2240, 280}}
	for _, c := range cases {
		if got := StorageBytes(c.w); got != c.b {
			t.Errorf("StorageBytes(%d) = %d, want %d", c.w, got, c.b)
		}
	}
}

func TestWarpSchedLayout(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 16, 8)
	l := u.Layout()
	var got []string
	for _, f := range append(append([]Field(nil), l.In...), l.Out...) {
		got = append(got, fmt.Sprintf("%s:%d+%d", f.Name, f.Offset, f.Size))
	}
	want := []string{
		"warp_valid_i:0+2", "warp_ready_i:2+2", "warp_long_wait_i:4+2", "warp_launch_i:6+2", "stall_i:8+1",
		"issue_valid_o:0+1", "issue_warp_o:1+1", "last_q:2+1", "greedy_q:3+1", "greedy_valid_q:4+1",
		"active_q:5+2", "next_age_q:7+4", "warp_age_q:11+64",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("layout\n%v\nwant\n%v", got, want)
	}
	if l.InBytes != 9 || l.OutBytes != 75 {
		t.Fatalf("records %d/%d bytes", l.InBytes, l.OutBytes)
	}
	// The hash covers names and directions only: every parameter set of a
	// unit has the same.
	if u2 := warpSched(t, warpsched.PolicyLRR, 70, 3); u2.Layout().Hash() != l.Hash() {
		t.Error("layout hash depends on the parameters")
	}
}

// A struct with every kind of field the codec supports.
type allKinds struct {
	B   bool      `sv:"b_i"`
	U8  uint8     `sv:"u8_i" width:"5"`
	U16 uint16    `sv:"u16_i"`
	U32 uint32    `sv:"u32_i" width:"20"`
	U64 uint64    `sv:"u64_i" width:"40"`
	I16 int16     `sv:"i16_i" width:"12"`
	V   rtl.Bits  `sv:"v_i" width:"70"`
	A   [4]uint16 `sv:"a_i" width:"48"` // three elements on the wire
	BA  [5]bool   `sv:"ba_i"`
	X   int       // untagged: ignored
}

// A unit needs an output too.
type oneOut struct {
	O bool `sv:"o_o"`
}

func TestCodecRoundTrip(t *testing.T) {
	l, c := inputCodec[allKinds](t)
	r := rand.New(rand.NewPCG(1, 2))
	rec := make([]byte, l.InBytes)
	for i := 0; i < 1000; i++ {
		var v allKinds
		v.B = r.IntN(2) == 1
		v.U8 = uint8(r.Uint32()) & 31
		v.U16 = uint16(r.Uint32())
		v.U32 = r.Uint32() & (1<<20 - 1)
		v.U64 = r.Uint64() & (1<<40 - 1)
		v.I16 = int16(r.IntN(4096) - 2048)
		for k := 0; k < 70; k++ {
			v.V.Put(k, r.IntN(2) == 1)
		}
		for k := 0; k < 3; k++ {
			v.A[k] = uint16(r.Uint32())
		}
		for k := range v.BA {
			v.BA[k] = r.IntN(2) == 1
		}
		c.encode(unsafe.Pointer(&v), rec)
		var w allKinds
		c.decode(rec, unsafe.Pointer(&w))
		if w != v {
			t.Fatalf("round trip\n%+v\n%+v", v, w)
		}
		// Spot checks of the wire format.
		f, _, _ := l.Find("v_i")
		if f.Size != 12 || rec[f.Offset+8]&^0x3f != 0 || rec[f.Offset+9] != 0 {
			t.Fatalf("v_i: bits above the width are not zero: % x", rec[f.Offset:f.Offset+f.Size])
		}
		f, _, _ = l.Find("a_i")
		if binary.LittleEndian.Uint16(rec[f.Offset+2:]) != v.A[1] || binary.LittleEndian.Uint16(rec[f.Offset+6:]) != 0 {
			t.Fatalf("a_i: % x for %v", rec[f.Offset:f.Offset+f.Size], v.A)
		}
		f, _, _ = l.Find("i16_i")
		if got := binary.LittleEndian.Uint16(rec[f.Offset:]); got != uint16(v.I16)&0xfff {
			t.Fatalf("i16_i: %#x for %d", got, v.I16)
		}
	}
	// Values wider than their signal are cut to the width on the wire.
	v := allKinds{U8: 0xff, V: rtl.BitsOf(69, 70, 100)}
	c.encode(unsafe.Pointer(&v), rec)
	var w allKinds
	c.decode(rec, unsafe.Pointer(&w))
	if w.U8 != 31 || w.V != rtl.BitsOf(69) {
		t.Errorf("over-wide values: %d %v", w.U8, w.V)
	}
}

func TestCodecErrors(t *testing.T) {
	type floaty struct {
		F float64 `sv:"f_i" width:"64"`
	}
	type odd struct {
		A [4]uint16 `sv:"a_i" width:"20"`
	}
	for _, v := range []any{floaty{}, odd{}} {
		tab, err := rtl.Signals("t", nil, v, oneOut{})
		if _, isOdd := v.(odd); isOdd {
			// rtl.Signals refuses 20 bits of uint16 elements; a table
			// made by hand reaches the codec, which refuses it too.
			if err == nil {
				t.Fatal("odd: rtl.Signals accepted 20 bits of uint16s")
			}
			tab, err = rtl.Table{{Name: "a_i", Width: 20, Dir: rtl.DirIn, Scope: "t"}, {Name: "o_o", Width: 1, Dir: rtl.DirOut, Scope: "t"}}, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLayout("t", tab)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := newStructCodec(reflect.TypeOf(v), l.In); err == nil {
			t.Errorf("%T: no error", v)
		}
	}
	// A field with no place in the record.
	tab, _ := rtl.Signals("t", nil, allKinds{}, oneOut{})
	l, _ := NewLayout("t", append(tab[:3:3], tab[len(tab)-1]))
	if _, err := newStructCodec(reflect.TypeFor[allKinds](), l.In); err == nil {
		t.Error("a field without a place was accepted")
	}
	if _, err := NewLayout("t", rtl.Table{{Name: "x_o", Width: 1, Dir: rtl.DirOut}}); err == nil {
		t.Error("a layout without inputs was accepted")
	}
}

func TestBindErrors(t *testing.T) {
	p := warpsched.Params{NumWarps: 4, Policy: warpsched.PolicyLRR}
	s, _ := warpsched.New(p)
	good := Spec[warpsched.Inputs, warpsched.Outputs, warpsched.State]{
		Module: "warp_sched", RTL: []string{"warp_sched.sv"}, Table: s.Signals("warp_sched"),
		New:    func() (GoUnit[warpsched.Inputs, warpsched.Outputs, warpsched.State], error) { return warpsched.New(p) },
		Random: func(uint64) func(uint64, *warpsched.Inputs) { return func(uint64, *warpsched.Inputs) {} },
	}
	if _, err := Bind(good); err != nil {
		t.Fatal(err)
	}
	noNew := good
	noNew.New = nil
	short := good
	short.Table = short.Table[:len(short.Table)-1]
	for _, bad := range []Spec[warpsched.Inputs, warpsched.Outputs, warpsched.State]{noNew, short} {
		if _, err := Bind(bad); err == nil {
			t.Error("bad spec bound")
		}
	}
}

func TestFormatValue(t *testing.T) {
	cases := []struct {
		b     []byte
		width int
		want  string
	}{
		{[]byte{1}, 1, "0x1 (1)"},
		{[]byte{0xff}, 4, "0xf (15)"},
		{[]byte{0x34, 0x12}, 16, "0x1234 (4660)"},
		{[]byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}, 70, "0x00000003_00000002_00000001"},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, 66, "0x00000003_00000000_ffffffff"},
	}
	for _, c := range cases {
		if got := FormatValue(c.b, c.width); got != c.want {
			t.Errorf("FormatValue(% x, %d) = %q, want %q", c.b, c.width, got, c.want)
		}
	}
	if firstDiffBit([]byte{0, 0x10}, []byte{0, 0x30}) != 13 || firstDiffBit([]byte{1}, []byte{1}) != -1 {
		t.Error("firstDiffBit")
	}
}

// TestModelMatchesGoUnit: the bound model, through the codec, computes
// what the Go unit computes directly.
func TestModelMatchesGoUnit(t *testing.T) {
	for _, pol := range policies() {
		p := warpsched.Params{NumWarps: 70, Policy: pol, TwoLevelActive: 5}
		u, err := WarpSched(p)
		if err != nil {
			t.Fatal(err)
		}
		l := u.Layout()
		m, _ := u.NewModel()
		direct, _ := warpsched.New(p)
		st := u.NewRandom(4)
		in := make([]byte, l.InBytes)
		out := make([]byte, l.OutBytes)
		var din warpsched.Inputs
		dec, _ := newStructCodec(reflect.TypeFor[warpsched.Inputs](), l.In)
		for c := 0; c < 5000; c++ {
			st.Next(in)
			dec.decode(in, unsafe.Pointer(&din))
			o := direct.Eval(din)
			q := direct.Q()
			direct.Tick()
			m.Cycle(in, out)
			f, _, _ := l.Find("issue_warp_o")
			if out[0] != b2u(o.IssueValid) || wordAt(out[f.Offset:f.Offset+f.Size], 0) != uint64(o.IssueWarp) {
				t.Fatalf("%s cycle %d: outputs differ", pol, c)
			}
			f, _, _ = l.Find("warp_age_q")
			for w := 0; w < 70; w++ {
				if binary.LittleEndian.Uint32(out[f.Offset+4*w:]) != q.Age[w] {
					t.Fatalf("%s cycle %d: age of warp %d differs", pol, c, w)
				}
			}
			f, _, _ = l.Find("active_q")
			var a rtl.Bits
			for k := 0; k < f.Size; k++ {
				a[k/8] |= uint64(out[f.Offset+k]) << (8 * (k % 8))
			}
			if a != q.Active {
				t.Fatalf("%s cycle %d: active_q %v, want %v", pol, c, a, q.Active)
			}
		}
	}
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// TestStimulus: deterministic for a seed, different across seeds, no bit
// above the scheduler's size, and a mix of cases.
func TestStimulus(t *testing.T) {
	u := warpSched(t, warpsched.PolicyGTO, 12, 4)
	l := u.Layout()
	gen := func(seed uint64) []byte {
		s := u.NewRandom(seed)
		b := make([]byte, 20000*l.InBytes)
		for i := 0; i < 20000; i++ {
			if !s.Next(b[i*l.InBytes:]) {
				t.Fatal("random stimulus ended")
			}
		}
		return b
	}
	a := unittest.Repeatable(t, 1, gen)
	var stalls, launches, idle, full int
	for i := 0; i < 20000; i++ {
		rec := a[i*l.InBytes : (i+1)*l.InBytes]
		for _, f := range l.In {
			if wordAt(rec[f.Offset:f.Offset+f.Size], 0)>>uint(f.Width) != 0 {
				t.Fatalf("cycle %d: %s has bits above %d", i, f.Name, f.Width)
			}
		}
		valid := binary.LittleEndian.Uint16(rec[0:])
		ready := binary.LittleEndian.Uint16(rec[2:])
		if rec[8] != 0 {
			stalls++
		}
		if binary.LittleEndian.Uint16(rec[6:]) != 0 {
			launches++
		}
		if valid&ready == 0 {
			idle++
		}
		if valid == 0xfff && ready == 0xfff {
			full++
		}
	}
	if stalls == 0 || launches == 0 || idle == 0 || full == 0 {
		t.Errorf("stimulus lacks variety: stalls %d launches %d idle %d saturated %d", stalls, launches, idle, full)
	}
}

func TestRecords(t *testing.T) {
	if _, err := NewRecords(make([]byte, 10), 3); err == nil {
		t.Error("a partial record was accepted")
	}
	r, err := NewRecords([]byte{1, 2, 3, 4}, 2)
	if err != nil || r.Len() != 2 {
		t.Fatal(err)
	}
	rec := make([]byte, 2)
	if !r.Next(rec) || rec[0] != 1 || !r.Next(rec) || rec[1] != 4 || r.Next(rec) {
		t.Error("Next")
	}
}

// TestStream: a stream replays what was appended, cycle by cycle, and
// keeps a run of equal records once.
func TestStream(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := NewStream(3)
	var want [][]byte
	rec := []byte{0, 0, 0}
	for c := 0; c < 10_000; c++ {
		if r.IntN(50) == 0 {
			rec = []byte{byte(r.IntN(3)), byte(c), 7} // sometimes equal to the last
		}
		s.Append(rec)
		want = append(want, append([]byte(nil), rec...))
	}
	if s.Cycles() != 10_000 || len(s.runs) > 400 || len(s.data) != 3*len(s.runs) {
		t.Fatalf("%d cycles in %d runs", s.Cycles(), len(s.runs))
	}
	for pass := 0; pass < 2; pass++ {
		st := s.Stimulus()
		got := make([]byte, 3)
		for c, w := range want {
			if !st.Next(got) || !bytes.Equal(got, w) {
				t.Fatalf("pass %d, cycle %d: % x, want % x", pass, c, got, w)
			}
		}
		if st.Next(got) {
			t.Fatal("the stream does not end")
		}
	}
	if NewStream(4).Stimulus().Next(rec) {
		t.Error("an empty stream has a record")
	}
}

// TestSchedRecording: what RecordSched stores replays as the same inputs.
func TestSchedRecording(t *testing.T) {
	cfg := config.Default()
	k, err := NewSchedRecording(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ins := []warpsched.Inputs{
		{WarpValid: rtl.BitsOf(1, 2), WarpLaunch: rtl.BitsOf(1, 2)},
		{WarpValid: rtl.BitsOf(1, 2), WarpReady: rtl.BitsOf(2), Stall: true},
	}
	for c, in := range ins {
		for s := 0; s < cfg.Sched.Count; s++ {
			k.RecordSched(uint64(c), s, &in, warpsched.Outputs{})
		}
	}
	k.RecordSched(0, -1, &ins[0], warpsched.Outputs{}) // ignored
	if k.Cycles != 2 || len(k.Streams) != cfg.Sched.Count {
		t.Fatalf("%d cycles, %d streams", k.Cycles, len(k.Streams))
	}
	l := k.Unit.Layout()
	dec, _ := newStructCodec(reflect.TypeFor[warpsched.Inputs](), l.In)
	st := k.Stimulus(3)
	rec := make([]byte, l.InBytes)
	for c, want := range ins {
		if !st.Next(rec) {
			t.Fatalf("stream ended at %d", c)
		}
		var got warpsched.Inputs
		dec.decode(rec, unsafe.Pointer(&got))
		if got != want {
			t.Fatalf("cycle %d: %+v, want %+v", c, got, want)
		}
	}
	if st.Next(rec) || k.Stimulus(99).Next(rec) {
		t.Error("streams too long")
	}
}

// verilogDir is FindVerilogDir for tests.
func verilogDir(t testing.TB) string {
	t.Helper()
	vdir, err := FindVerilogDir()
	if err != nil {
		t.Fatal(err)
	}
	return vdir
}

// TestGeneratedUpToDate: verilog/dv/gen holds what the Go tables generate
// (run `go generate ./cosim` after changing a unit's signals).
func TestGeneratedUpToDate(t *testing.T) {
	files, err := GeneratedFiles()
	if err != nil {
		t.Fatal(err)
	}
	vdir := verilogDir(t)
	gen := filepath.Join(vdir, "dv", "gen")
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(gen, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (run go generate ./cosim): %v", name, err)
		}
	}
	ents, _ := os.ReadDir(gen)
	for _, e := range ents {
		if _, ok := files[e.Name()]; !ok {
			t.Errorf("%s in %s is not generated any more", e.Name(), gen)
		}
	}
}

// TestSVPackageUpToDate: verilog/rtl/smsim_pkg.sv is what the Go
// constants generate (run `go generate ./cosim` after changing one), and
// no RTL module keeps a localparam copy of one of its constants.
func TestSVPackageUpToDate(t *testing.T) {
	want, err := SVPackage()
	if err != nil {
		t.Fatal(err)
	}
	vdir := verilogDir(t)
	got, err := os.ReadFile(filepath.Join(vdir, SVPackagePath))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is stale (run go generate ./cosim): %v", SVPackagePath, err)
	}
	if !bytes.HasPrefix(got, []byte("// Code generated by")) || !bytes.Contains(got, []byte("DO NOT EDIT")) {
		t.Error("no do-not-edit header")
	}
	var names []string
	for _, s := range svSections() {
		for _, c := range s.items {
			names = append(names, c.name)
		}
	}
	mods, _ := filepath.Glob(filepath.Join(vdir, "rtl", "*.sv"))
	for _, m := range mods {
		if filepath.Base(m) == "smsim_pkg.sv" {
			continue
		}
		text, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			// An alias of the package's item (warp_sched's StampWidth =
			// smsim_pkg::StampWidth) is no copy; a value is.
			for _, m2 := range regexp.MustCompile(`localparam[^=;]*\b`+n+`\s*=\s*([^;]*);`).FindAllSubmatch(text, -1) {
				if !bytes.HasPrefix(m2[1], []byte("smsim_pkg::")) {
					t.Errorf("%s keeps its own localparam %s = %s (use smsim_pkg::%s)", filepath.Base(m), n, m2[1], n)
				}
			}
		}
	}
}

// helloMsg is a version-1 hello: unit, layout hash and parameters, the
// three numbers that follow them, and one 1-bit input signal.
func helloMsg(unit, hash, params string, n64 uint64, a, b uint32, signal string) []byte {
	var p []byte
	p = binary.LittleEndian.AppendUint32(p, 1)
	p = appendStr(p, unit)
	p = appendStr(p, hash)
	p = appendStr(p, params)
	p = binary.LittleEndian.AppendUint64(p, n64)
	p = binary.LittleEndian.AppendUint32(p, a)
	p = binary.LittleEndian.AppendUint32(p, b)
	p = binary.LittleEndian.AppendUint16(p, 1)
	p = appendStr(p, signal)
	p = append(p, 0)
	return binary.LittleEndian.AppendUint32(p, 1)
}

func FuzzParseHello(f *testing.F) {
	p := helloMsg("warp_sched", "0123456789ab", "NumWarps=16", 7, 9, 75, "stall_i")
	f.Add(p)
	f.Add([]byte{})
	f.Add([]byte{1, 0, 0, 0, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, ok := parseHello(b)
		if ok && len(h.Signals) > len(b) {
			t.Fatalf("%d signals from %d bytes", len(h.Signals), len(b))
		}
	})
}

func TestParseHello(t *testing.T) {
	p := helloMsg("u", "h", "P=1", 42, 3, 4, "x_i")
	h, ok := parseHello(p)
	want := Hello{Version: 1, Unit: "u", ParamHash: "h", Params: "P=1", LayoutHash: 42, InBytes: 3, OutBytes: 4, Signals: []HelloSignal{{"x_i", 0, 1}}}
	if !ok || !reflect.DeepEqual(h, want) {
		t.Fatalf("%+v %v", h, ok)
	}
	for n := 0; n < len(p); n++ {
		if _, ok := parseHello(p[:n]); ok {
			t.Fatalf("truncated at %d: accepted", n)
		}
	}
	if _, ok := parseHello(append(p, 0)); ok {
		t.Fatal("trailing byte accepted")
	}
}
