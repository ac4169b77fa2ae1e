package device

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/examples"
	"github.com/smsim/smsim/internal/testptx"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

func open(t *testing.T) *Device {
	t.Helper()
	d, err := Open(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// openLoad opens a device and loads the module src under name.
func openLoad(t *testing.T, name string, src []byte) (*Device, *Module) {
	t.Helper()
	d := open(t)
	m, err := d.Load(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return d, m
}

func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
}

// Allocations are 256-byte aligned, first fit from isa.GlobalDataBase; a
// freed hole is reused and comes back zeroed.
func TestAllocFree(t *testing.T) {
	d := open(t)
	a, _ := d.Alloc("a", 10)
	b, _ := d.Alloc("b", 300)
	c, _ := d.Alloc("", 4)
	base := Ptr(isa.GlobalDataBase)
	if a != base || b != base+256 || c != base+768 {
		t.Fatalf("addresses %v %v %v", a, b, c)
	}
	if _, name, _ := d.Size(c); name != "alloc3" {
		t.Fatalf("default name %q", name)
	}
	if err := d.Write(b, bytes.Repeat([]byte{7}, 300)); err != nil {
		t.Fatal(err)
	}
	if err := d.Free(b); err != nil {
		t.Fatal(err)
	}
	wantErr(t, d.Free(b), "no live allocation starts there")
	wantErr(t, d.Free(a.Add(4)), "4 bytes into allocation a")
	e, _ := d.Alloc("e", 200) // fits the hole b left
	if e != base+256 {
		t.Fatalf("e at %v, want the freed hole at %v", e, base+256)
	}
	got := make([]byte, 200)
	if err := d.Read(e, got); err != nil || !bytes.Equal(got, make([]byte, 200)) {
		t.Fatalf("a reused hole reads %v, %v; want zeros", got[:8], err)
	}
	_, err := d.Alloc("big", 1<<40)
	wantErr(t, err, "more than the")
	_, err = d.Alloc("none", 0)
	wantErr(t, err, "at least 1 byte")
}

// Host accesses must lie inside one live allocation.
func TestHostChecks(t *testing.T) {
	d := open(t)
	a, _ := d.Alloc("a", 16)
	wantErr(t, d.Write(a.Add(12), make([]byte, 8)), "crosses the end of a (16 bytes at 0x10000) by 4 bytes")
	wantErr(t, d.Read(a.Add(100), make([]byte, 4)), "in no live allocation")
	wantErr(t, d.Fill(0, 0, 4), "in no live allocation")
	wantErr(t, d.Copy(a, a.Add(8), 16), "copy from")
	wantErr(t, d.Fill(a, 0, -1), "negative size")
	if err := WriteSlice(d, a, []float32{1.5, -2}); err != nil {
		t.Fatal(err)
	}
	if err := d.Copy(a.Add(8), a, 8); err != nil {
		t.Fatal(err)
	}
	f, err := ReadSlice[float32](d, a, 4)
	if err != nil || f[2] != 1.5 || f[3] != -2 {
		t.Fatalf("ReadSlice: %v %v", f, err)
	}
	if err := d.Fill(a, 0xff, 16); err != nil {
		t.Fatal(err)
	}
	i, _ := ReadSlice[int32](d, a, 4)
	if i[3] != -1 {
		t.Fatalf("after fill 0xff: %v", i)
	}
}

const typedPTX = `
.version 7.8
.target sm_90
.address_size 64
.visible .entry typed(.param .f32 a, .param .f64 b, .param .u32 c, .param .b32 d, .param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .f32 %f<2>;
	.reg .f64 %fd<2>;
	.reg .b64 %rd<2>;
	ld.param.f32 %f1, [a];
	ld.param.f64 %fd1, [b];
	ld.param.u32 %r1, [c];
	ld.param.b32 %r2, [d];
	ld.param.u64 %rd1, [out];
	st.global.f32 [%rd1], %f1;
	st.global.f64 [%rd1+8], %fd1;
	st.global.u32 [%rd1+16], %r1;
	st.global.u32 [%rd1+20], %r2;
	ret;
}
`

// Typed arguments reach the kernel as the right bits: float32 and float64
// as IEEE-754, a negative int as its two's complement in a .u32 (clang's
// type for int); a pointer may point into the middle of an allocation.
func TestTypedArgs(t *testing.T) {
	d, m := openLoad(t, "typed.ptx", []byte(typedPTX))
	buf, _ := d.Alloc("buf", 64)
	lc := LaunchConfig{Block: Dim3{1}}
	rep, err := m.Launch("typed", lc, float32(1.5), 2.0, -3, uint32(0x10), buf.Add(32))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 24)
	if err := d.Read(buf.Add(32), got); err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 24)
	binary.LittleEndian.PutUint32(want[0:], math.Float32bits(1.5))
	binary.LittleEndian.PutUint64(want[8:], math.Float64bits(2.0))
	binary.LittleEndian.PutUint32(want[16:], 0xfffffffd)
	binary.LittleEndian.PutUint32(want[20:], 0x10)
	if !bytes.Equal(got, want) {
		t.Fatalf("kernel wrote % x\nwant         % x", got, want)
	}
	if len(rep.Buffers) != 0 {
		t.Fatalf("a pointer into the middle of an allocation lists no buffer: %v", rep.Buffers)
	}
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{float32(1), 2.0, 1, 1}, "4 arguments for 5 parameters"},
		{[]any{1, 2.0, 1, 1, buf}, "an integer (int) for a .f32 parameter"},
		{[]any{float32(1), float32(2), 1, 1, buf}, "a float32 for a .f64 parameter"},
		{[]any{float32(1), 2.0, float32(1), 1, buf}, "a float32 for a .u32 parameter"},
		{[]any{float32(1), 2.0, 1 << 40, 1, buf}, "does not fit a .u32 parameter"},
		{[]any{float32(1), 2.0, -1 << 31, 1, buf}, ""},
		{[]any{float32(1), 2.0, -1<<31 - 1, 1, buf}, "does not fit"},
		{[]any{float32(1), 2.0, 1, "x", buf}, "Go type string"},
		{[]any{float32(1), 2.0, buf, 1, buf}, "a pointer for a .u32 parameter"},
	} {
		_, err := m.Launch("typed", lc, c.args...)
		if c.want == "" {
			if err != nil {
				t.Fatalf("%v: %v", c.args, err)
			}
			continue
		}
		wantErr(t, err, c.want)
	}
	_, err = m.Launch("nope", lc)
	wantErr(t, err, `no kernel "nope" (kernels: typed)`)
}

const varsPTX = `
.version 7.8
.target sm_90
.address_size 64
.const .align 4 .b8 coef[8] = {1, 0, 0, 0, 2, 0, 0, 0};
.global .align 4 .u32 total;
.global .align 4 .u32 table[4];
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [out];
	ld.const.u32 %r1, [coef];
	ld.const.u32 %r2, [coef+4];
	ld.global.u32 %r3, [table+8];
	add.u32 %r4, %r1, %r2;
	add.u32 %r4, %r4, %r3;
	ld.global.u32 %r5, [total];
	add.u32 %r5, %r5, %r4;
	st.global.u32 [total], %r5;
	st.global.u32 [%rd1], %r4;
	ret;
}
`

// __constant__ and .global variables are set by name and keep their
// values from launch to launch; so does every byte of device memory.
func TestVarsPersist(t *testing.T) {
	d := open(t)
	_, err := d.Alloc("early", 4)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Load("vars.ptx", []byte(varsPTX))
	wantErr(t, err, "load the module before allocating")
	d = open(t)
	m, err := d.Load("vars.ptx", []byte(varsPTX))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Load("again.ptx", []byte(varsPTX))
	wantErr(t, err, "where those of module vars.ptx are")
	out, _ := d.Alloc("out", 4)
	lc := LaunchConfig{Block: Dim3{1}}
	run := func() uint32 {
		t.Helper()
		if _, err := m.Launch("k", lc, out); err != nil {
			t.Fatal(err)
		}
		v, _ := ReadSlice[uint32](d, out, 1)
		return v[0]
	}
	if got := run(); got != 3 {
		t.Fatalf("initializers: %d, want 1+2+0", got)
	}
	if err := m.SetVar("coef", []byte{10}); err != nil {
		t.Fatal(err)
	}
	tab, err := m.VarPtr("table")
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteSlice(d, tab.Add(8), []uint32{100}); err != nil {
		t.Fatal(err)
	}
	if got := run(); got != 112 {
		t.Fatalf("after SetVar and a write through VarPtr: %d, want 10+2+100", got)
	}
	if got := run(); got != 112 {
		t.Fatalf("second launch: %d", got)
	}
	total, err := m.Var("total")
	if err != nil || binary.LittleEndian.Uint32(total) != 3+112+112 {
		t.Fatalf("total accumulated over launches: %v %v", total, err)
	}
	c, _ := m.Var("coef")
	if !bytes.Equal(c, []byte{10, 0, 0, 0, 2, 0, 0, 0}) {
		t.Fatalf("coef %v", c)
	}
	if !bytes.Equal(m.Image().ConstBank[:1], []byte{1}) {
		t.Fatal("SetVar changed the image")
	}
	wantErr(t, m.SetVar("coef", make([]byte, 9)), "9 bytes for a variable of 8 bytes")
	wantErr(t, m.SetVar("nope", nil), `no __constant__ or .global variable "nope"`)
	_, err = m.VarPtr("coef")
	wantErr(t, err, "no global address")
	wantErr(t, d.Free(tab), "not an allocation")
}

// Memcheck sees the device's allocations: a kernel writing past one
// faults with out_of_bounds naming it; the run error carries the report.
func TestMemcheckNamesAllocation(t *testing.T) {
	d, m := openLoad(t, "oob.ptx", []byte(testptx.StoreTid))
	small, _ := d.Alloc("small", 8)
	rep, err := m.Launch("k", LaunchConfig{Block: Dim3{4}}, small)
	var re *RunError
	if !errors.As(err, &re) || rep == nil || re.Report != rep {
		t.Fatalf("want a *RunError with the report, got %v", err)
	}
	if len(rep.Sanitizer) == 0 {
		t.Fatal("no sanitizer record")
	}
	s := rep.Sanitizer[0]
	if s.Kind != "out_of_bounds" || s.Allocation == nil || s.Allocation.Name != "small" || s.Lane != 2 || s.Distance != 0 {
		t.Fatalf("record %+v", s)
	}
	wantErr(t, err, "kernel k ended fault")
	// The device stays usable.
	big, _ := d.Alloc("big", 16)
	if _, err := m.Launch("k", LaunchConfig{Block: Dim3{4}}, big); err != nil {
		t.Fatal(err)
	}
}

// A launch on the device gives the report smsim run gives for the same
// launch, byte for byte in JSON: every example kernel whose buffers are
// allocated in the same order.
func TestReportMatchesSingleLaunch(t *testing.T) {
	for _, e := range examples.All() {
		if e.TrapHandler != "" || e.OnTrap != "" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			im, err := isa.AssembleSource(e.Name+".ptx", e.PTX)
			if err != nil {
				t.Fatal(err)
			}
			l := pipeline.Launch{Entry: e.Entry, Args: e.Args, MaxNReg: uint32(e.MaxNReg), DynamicSmem: uint32(e.DynamicSmem)}
			lc := LaunchConfig{MaxNReg: uint32(e.MaxNReg), DynamicSmem: uint32(e.DynamicSmem)}
			for i := range 3 {
				lc.Grid[i], lc.Block[i], lc.Cluster[i] = uint32(e.Grid[i]), uint32(e.Block[i]), uint32(e.Cluster[i])
			}
			l.Grid, l.Block = lc.Grid.norm(), lc.Block.norm()
			if lc.Cluster != (Dim3{}) {
				l.Cluster = lc.Cluster.norm()
			}
			d := open(t)
			m, err := d.LoadImage(e.Name+".ptx", im)
			if err != nil {
				t.Fatal(err)
			}
			ptrs := map[string]Ptr{}
			for _, b := range e.Buffers {
				init := make([]byte, 4*b.Words)
				for i, w := range b.Init {
					binary.LittleEndian.PutUint32(init[4*i:], w)
				}
				l.Buffers = append(l.Buffers, pipeline.Buffer{Param: b.Param, Size: len(init), Init: init})
				p, err := d.Alloc(b.Param, len(init))
				if err != nil {
					t.Fatal(err)
				}
				if err := d.Write(p, init); err != nil {
					t.Fatal(err)
				}
				ptrs[b.Param] = p
			}
			k, _ := im.Kernel(e.Entry)
			var args []any
			for _, p := range k.Params {
				switch v, ok := e.Args[p.Name]; {
				case !ok:
					args = append(args, ptrs[p.Name])
				case p.Type == isa.F32:
					args = append(args, math.Float32frombits(uint32(v)))
				case p.Type == isa.F64:
					args = append(args, math.Float64frombits(v))
				default:
					args = append(args, v)
				}
			}
			sm, err := pipeline.New(config.Default(), im, l)
			if err != nil {
				t.Fatal(err)
			}
			want, err := sm.Run()
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Launch(e.Entry, lc, args...)
			if err != nil && got == nil {
				t.Fatal(err)
			}
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			if !bytes.Equal(gj, wj) {
				t.Fatalf("device report differs from the single launch's\n got %s\nwant %s", gj, wj)
			}
		})
	}
}
