package pipeline

import (
	"errors"
	"strings"
	"testing"

	"github.com/smsim/smsim/config"
)

const launchKernels = `.visible .entry k(.param .u64 out, .param .u32 n, .param .s8 c, .param .f32 f)
{
	ret;
}
.visible .entry kreq(.param .u64 out) .reqntid 64, 1, 1
{
	ret;
}
.visible .entry kmax() .maxntid 32, 2, 1
{
	ret;
}
.visible .entry kcl() .reqnctapercluster 2, 1, 1
{
	ret;
}
.visible .entry kframe()
{
	.local .align 4 .b8 big[2048];
	st.local.u32 [big], 1;
	ret;
}
`

func TestLaunchValidation(t *testing.T) {
	good := func() Launch {
		return Launch{Entry: "k", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1},
			Args: map[string]uint64{"n": 5, "c": 0xff, "f": 0x3f800000}, Buffers: []Buffer{{Param: "out", Size: 64}}}
	}
	im := assemble(t, "launch.ptx", []byte(ptxHeader+launchKernels))
	if _, err := New(smallConfig(), im, good()); err != nil {
		t.Fatalf("good launch rejected: %v", err)
	}
	cases := []struct {
		name  string
		edit  func(l *Launch, c *config.Config)
		field string
		says  []string // substrings of the message (the culprit)
	}{
		{"unknown entry", func(l *Launch, c *config.Config) { l.Entry = "nope" }, "entry", []string{`"nope"`, "k, kreq, kmax"}},
		{"grid zero", func(l *Launch, c *config.Config) { l.Grid[1] = 0 }, "grid", []string{"grid.y is 0"}},
		{"grid x too big", func(l *Launch, c *config.Config) { l.Grid[0] = 1 << 31 }, "grid", []string{"grid.x", "2^31-1"}},
		{"grid z too big", func(l *Launch, c *config.Config) { l.Grid[2] = 65536 }, "grid", []string{"grid.z", "65535"}},
		{"block zero", func(l *Launch, c *config.Config) { l.Block[2] = 0 }, "block", []string{"block.z is 0"}},
		{"block x", func(l *Launch, c *config.Config) { l.Block[0] = 1025 }, "block", []string{"block.x", "1024"}},
		{"block z", func(l *Launch, c *config.Config) { l.Block = [3]uint32{1, 1, 65} }, "block", []string{"block.z", "64"}},
		{"block threads", func(l *Launch, c *config.Config) { l.Block = [3]uint32{32, 16, 1} }, "block", []string{"512 threads", "sm.max_threads_per_cta=256"}},
		{"cluster divides", func(l *Launch, c *config.Config) { l.Grid[0] = 3; l.Cluster = [3]uint32{2, 1, 1} }, "cluster", []string{"cluster.x = 2", "grid.x = 3"}},
		{"cluster zero", func(l *Launch, c *config.Config) { l.Cluster = [3]uint32{2, 0, 1} }, "cluster", []string{"cluster.y is 0"}},
		{"unknown arg", func(l *Launch, c *config.Config) { l.Args["m"] = 1 }, "args", []string{`"m"`, "out, n, c, f"}},
		{"unknown buffer", func(l *Launch, c *config.Config) { l.Buffers = append(l.Buffers, Buffer{Param: "zz", Size: 4}) }, "buffers", []string{`"zz"`}},
		{"missing param", func(l *Launch, c *config.Config) { delete(l.Args, "f") }, "args", []string{"parameter f", "neither bound nor given"}},
		{"missing buffer", func(l *Launch, c *config.Config) { l.Buffers = nil }, "args", []string{"parameter out", "buffer"}},
		{"buffer on scalar", func(l *Launch, c *config.Config) {
			delete(l.Args, "n")
			l.Buffers = append(l.Buffers, Buffer{Param: "n", Size: 4})
		}, "buffers", []string{"parameter n", "not a pointer"}},
		{"twice", func(l *Launch, c *config.Config) { l.Args["out"] = 0x10000 }, "args", []string{"parameter out", "also bound"}},
		{"u32 too big", func(l *Launch, c *config.Config) { l.Args["n"] = 1 << 32 }, "args", []string{"0x100000000", "parameter n"}},
		{"s8 too big", func(l *Launch, c *config.Config) { l.Args["c"] = 0x100 }, "args", []string{"parameter c"}},
		{"init too long", func(l *Launch, c *config.Config) { l.Buffers[0].Init = make([]byte, 65) }, "buffers", []string{"out", "65 bytes"}},
		{"buffer too big", func(l *Launch, c *config.Config) { l.Buffers[0].Size = 2 << 20 }, "buffers", []string{"out", "sm.global_bytes"}},
		{"dynamic smem", func(l *Launch, c *config.Config) { l.DynamicSmem = 20000 }, "dynamic_smem", []string{"20000 dynamic", "sm.max_smem_per_cta"}},
		{"regs", func(l *Launch, c *config.Config) { l.MaxNReg = 300 }, "regs", []string{"300", "sm.max_regs_per_thread"}},
		{"regfile", func(l *Launch, c *config.Config) { l.MaxNReg = 200; l.Block[0] = 256 }, "regs", []string{"register file", "sm.regfile"}},
		{"reqntid", func(l *Launch, c *config.Config) {
			l.Entry = "kreq"
			l.Args = nil
		}, "block", []string{".reqntid 64,1,1", "32,1,1"}},
		{"maxntid", func(l *Launch, c *config.Config) {
			l.Entry, l.Args, l.Buffers, l.Block = "kmax", nil, nil, [3]uint32{96, 1, 1}
		}, "block", []string{".maxntid 32,2,1", "96"}},
		{"reqnctapercluster", func(l *Launch, c *config.Config) {
			l.Entry, l.Args, l.Buffers, l.Grid, l.Cluster = "kcl", nil, nil, [3]uint32{4, 1, 1}, [3]uint32{4, 1, 1}
		}, "cluster", []string{".reqnctapercluster 2,1,1", "4,1,1"}},
		{"frame", func(l *Launch, c *config.Config) {
			l.Entry, l.Args, l.Buffers = "kframe", nil, nil
			c.SM.LocalBytes = 1024
		}, "local", []string{"kframe", "sm.local_bytes"}},
		{"config", func(l *Launch, c *config.Config) { c.Sched.Count = 3 }, "config", []string{"sched.count"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l, c := good(), smallConfig()
			l.Args = map[string]uint64{"n": 5, "c": 0xff, "f": 0x3f800000}
			tc.edit(&l, &c)
			_, err := New(c, im, l)
			var le *LaunchError
			if !errors.As(err, &le) {
				t.Fatalf("got %v, want a *LaunchError", err)
			}
			if le.Field != tc.field {
				t.Errorf("field %q, want %q (%s)", le.Field, tc.field, le.Msg)
			}
			for _, s := range tc.says {
				if !strings.Contains(le.Msg, s) {
					t.Errorf("message %q does not mention %q", le.Msg, s)
				}
			}
		})
	}
}

func TestLaunchClusterFromKernel(t *testing.T) {
	im := assemble(t, "launch.ptx", []byte(ptxHeader+launchKernels))
	sm, err := New(smallConfig(), im, Launch{Entry: "kcl", Grid: [3]uint32{4, 1, 1}, Block: [3]uint32{32, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if sm.cluster != [3]uint32{2, 1, 1} || !sm.explicitCluster {
		t.Errorf("cluster %v explicit %v", sm.cluster, sm.explicitCluster)
	}
	if _, err := New(smallConfig(), im, Launch{Entry: "kcl", Grid: [3]uint32{3, 1, 1}, Block: [3]uint32{32, 1, 1}}); !IsLaunchError(err) {
		t.Errorf("a grid the required cluster does not divide: %v", err)
	}
}

func TestLaunchWaves(t *testing.T) {
	// 12 CTAs of 4 warps on an SM holding 2 at a time (8 warp slots):
	// they run in waves, each CTA in freed slots.
	src := kernel(`
	mov.u32 %r3, %ctaid.x;
	mov.u32 %r4, %ntid.x;
	mad.lo.u32 %r5, %r3, %r4, %r1;
	mul.wide.u32 %rd4, %r5, 4;
	add.s64 %rd5, %rd1, %rd4;
	mov.u32 %r6, %warpid;
	shl.b32 %r7, %r3, 8;
	or.b32 %r7, %r7, %r6;
	st.global.u32 [%rd5], %r7;
	ret;`)
	sm, rep := runPTX(t, smallConfig(), src, Launch{Grid: [3]uint32{12, 1, 1}, Block: [3]uint32{128, 1, 1}, Buffers: outBuf(12 * 128)})
	if rep.Status != StatusCompleted || rep.CTAsLaunched != 12 || rep.CTAsCompleted != 12 {
		t.Fatalf("status %s launched %d", rep.Status, rep.CTAsLaunched)
	}
	out := rep.Buffers["out"]
	for cta := 0; cta < 12; cta++ {
		for tl := 0; tl < 128; tl++ {
			slot, ok := sm.WarpSlot(cta, tl/32)
			if v := out[cta*128+tl]; !ok || v != uint32(cta)<<8|slot || slot >= 8 {
				t.Fatalf("cta %d thread %d: %#x (slot %d)", cta, tl, v, slot)
			}
		}
	}
	if len(rep.Warps) != 48 {
		t.Errorf("%d warp records", len(rep.Warps))
	}
	checkInvariants(t, sm, rep)
}
