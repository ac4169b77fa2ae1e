package pipeline

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// sregCtx is what the expected value of a special register depends on.
type sregCtx struct {
	tid, ntid, ctaid, nctaid [3]uint32
	lane, slot               uint32
	cycle                    uint64 // issue cycle of the read (timed registers)
	insts                    uint64 // warp instructions issued in the cycles before the read's
}

type sregItem struct {
	name string // PTX spelling, or "S2R:NAME" for SASS-only registers
	kind byte   // 'w' 32-bit, 'd' 64-bit, 'p' predicate
	want func(x sregCtx) uint64
	off  int    // byte offset in the thread's record
	line string // the reading instruction's text
}

func TestSpecialRegisters(t *testing.T) {
	cfg := smallConfig()
	cfg.SM.ID, cfg.SM.Count = 3, 8
	cfg.Grid.ID = 0x1_0000_0007
	for i := range cfg.Env.Regs {
		cfg.Env.Regs[i] = 0x100 + uint32(i)
	}
	cfg.Graph.Exec = 0xabcdef0123
	cfg.Clock.Start = 1<<32 - 50 // %clock wraps during the run
	cfg.Timer.StartNs, cfg.Timer.ResolutionNs = 1000, 32
	cfg.Clock.MHz = 700
	cfg.PM.Counter = [8]string{"cycles", "instructions", "event:3", "off", "off", "off", "off", "events:0x9"}

	dim := func(base string, k int) string { return base + "." + "xyz"[k:k+1] }
	var items []sregItem
	add := func(name string, kind byte, want func(x sregCtx) uint64) {
		items = append(items, sregItem{name: name, kind: kind, want: want})
	}
	for k := 0; k < 3; k++ {
		k := k
		add(dim("%tid", k), 'w', func(x sregCtx) uint64 { return uint64(x.tid[k]) })
		add(dim("%ntid", k), 'w', func(x sregCtx) uint64 { return uint64(x.ntid[k]) })
		add(dim("%ctaid", k), 'w', func(x sregCtx) uint64 { return uint64(x.ctaid[k]) })
		add(dim("%nctaid", k), 'w', func(x sregCtx) uint64 { return uint64(x.nctaid[k]) })
		cl := [3]uint32{2, 1, 1}
		add(dim("%clusterid", k), 'w', func(x sregCtx) uint64 { return uint64(x.ctaid[k] / cl[k]) })
		add(dim("%nclusterid", k), 'w', func(x sregCtx) uint64 { return uint64(x.nctaid[k] / cl[k]) })
		add(dim("%cluster_ctaid", k), 'w', func(x sregCtx) uint64 { return uint64(x.ctaid[k] % cl[k]) })
		add(dim("%cluster_nctaid", k), 'w', func(x sregCtx) uint64 { return uint64(cl[k]) })
	}
	add("%cluster_ctarank", 'w', func(x sregCtx) uint64 { return uint64(x.ctaid[0] % 2) })
	add("%cluster_nctarank", 'w', func(x sregCtx) uint64 { return 2 })
	add("%is_explicit_cluster", 'p', func(x sregCtx) uint64 { return 1 })
	add("%laneid", 'w', func(x sregCtx) uint64 { return uint64(x.lane) })
	add("%warpid", 'w', func(x sregCtx) uint64 { return uint64(x.slot) })
	add("%nwarpid", 'w', func(x sregCtx) uint64 { return 8 })
	add("%smid", 'w', func(x sregCtx) uint64 { return 3 })
	add("%nsmid", 'w', func(x sregCtx) uint64 { return 8 })
	add("%gridid", 'd', func(x sregCtx) uint64 { return 0x1_0000_0007 })
	add("%lanemask_eq", 'w', func(x sregCtx) uint64 { return 1 << x.lane })
	add("%lanemask_le", 'w', func(x sregCtx) uint64 { return uint64(uint32(2<<x.lane - 1)) })
	add("%lanemask_lt", 'w', func(x sregCtx) uint64 { return 1<<x.lane - 1 })
	add("%lanemask_ge", 'w', func(x sregCtx) uint64 { return uint64(^uint32(1<<x.lane - 1)) })
	add("%lanemask_gt", 'w', func(x sregCtx) uint64 { return uint64(^uint32(2<<x.lane - 1)) })
	start := cfg.Clock.Start
	add("%clock", 'w', func(x sregCtx) uint64 { return uint64(uint32(start + x.cycle)) })
	add("%clock_hi", 'w', func(x sregCtx) uint64 { return (start + x.cycle) >> 32 })
	add("%clock64", 'd', func(x sregCtx) uint64 { return start + x.cycle })
	gt := func(c uint64) uint64 { ns := 1000 + c*1000/700; return ns / 32 * 32 }
	add("%globaltimer", 'd', func(x sregCtx) uint64 { return gt(x.cycle) })
	add("%globaltimer_lo", 'w', func(x sregCtx) uint64 { return uint64(uint32(gt(x.cycle))) })
	add("%globaltimer_hi", 'w', func(x sregCtx) uint64 { return gt(x.cycle) >> 32 })
	// 40 static + 100 dynamic bytes -> 256 with the 128-byte unit; the
	// user region is 48 (static, 16-aligned) + 100 -> 256 as well.
	add("%total_smem_size", 'w', func(x sregCtx) uint64 { return 256 })
	add("%dynamic_smem_size", 'w', func(x sregCtx) uint64 { return 100 })
	add("%aggr_smem_size", 'w', func(x sregCtx) uint64 { return 256 + 1024 })
	add("%reserved_smem_offset_begin", 'w', func(x sregCtx) uint64 { return 256 })
	add("%reserved_smem_offset_end", 'w', func(x sregCtx) uint64 { return 256 + 1024 })
	add("%reserved_smem_offset_cap", 'w', func(x sregCtx) uint64 { return 1024 })
	add("%reserved_smem_offset_0", 'w', func(x sregCtx) uint64 { return 256 })
	add("%reserved_smem_offset_1", 'w', func(x sregCtx) uint64 { return 256 + 512 })
	add("%current_graph_exec", 'd', func(x sregCtx) uint64 { return 0xabcdef0123 })
	for _, k := range []int{0, 5, 31} {
		k := k
		add(fmt.Sprintf("%%envreg%d", k), 'w', func(x sregCtx) uint64 { return 0x100 + uint64(k) })
	}
	add("%pm0", 'w', func(x sregCtx) uint64 { return uint64(uint32(x.cycle)) })
	add("%pm1", 'w', func(x sregCtx) uint64 { return uint64(uint32(x.insts)) })
	add("%pm2", 'w', func(x sregCtx) uint64 { return 2 * 8 }) // pmevent 3 twice per warp, before the reads (bar.sync)
	add("%pm3", 'w', func(x sregCtx) uint64 { return 0 })
	add("%pm7", 'w', func(x sregCtx) uint64 { return 2*8 + 1*8 }) // events 0 and 3
	add("%pm0_64", 'd', func(x sregCtx) uint64 { return x.cycle })
	add("%pm1_64", 'd', func(x sregCtx) uint64 { return x.insts })
	add("S2R:SR_GLOBAL_ESR", 'w', func(x sregCtx) uint64 { return 0 })
	add("S2R:SR_WARP_ESR", 'w', func(x sregCtx) uint64 { return 0 })
	add("%tid.w", 'w', func(x sregCtx) uint64 { return 0 })

	var body strings.Builder
	off := 0
	for i := range items {
		it := &items[i]
		if it.kind == 'd' {
			off = (off + 7) &^ 7
		}
		it.off = off
		switch it.kind {
		case 'w':
			if n, ok := strings.CutPrefix(it.name, "S2R:"); ok {
				it.line = fmt.Sprintf("S2R %%r20, %s;", n)
			} else {
				it.line = fmt.Sprintf("mov.u32 %%r20, %s;", it.name)
			}
			fmt.Fprintf(&body, "\t%s\n\tst.global.u32 [%%rd3+%d], %%r20;\n", it.line, off)
			off += 4
		case 'd':
			it.line = fmt.Sprintf("mov.u64 %%rd5, %s;", it.name)
			fmt.Fprintf(&body, "\t%s\n\tst.global.u64 [%%rd3+%d], %%rd5;\n", it.line, off)
			off += 8
		case 'p':
			it.line = fmt.Sprintf("mov.pred %%p1, %s;", it.name)
			fmt.Fprintf(&body, "\t%s\n\tselp.u32 %%r20, 1, 0, %%p1;\n\tst.global.u32 [%%rd3+%d], %%r20;\n", it.line, off)
			off += 4
		}
	}
	rec := (off + 7) &^ 7
	src := fmt.Sprintf(`.visible .entry k(.param .u64 out)
{
	.reg .b32 %%r<24>;
	.reg .b64 %%rd<8>;
	.reg .pred %%p<2>;
	.shared .align 4 .b8 stat[40];
	.extern .shared .align 4 .b8 dyn[];
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r1, %%tid.x;
	mov.u32 %%r2, %%tid.y;
	mov.u32 %%r3, %%tid.z;
	mov.u32 %%r4, %%ntid.x;
	mov.u32 %%r5, %%ntid.y;
	mov.u32 %%r6, %%ntid.z;
	mad.lo.u32 %%r7, %%r3, %%r5, %%r2;
	mad.lo.u32 %%r7, %%r7, %%r4, %%r1;
	mov.u32 %%r8, %%ctaid.x;
	mov.u32 %%r9, %%ctaid.y;
	mov.u32 %%r10, %%ctaid.z;
	mov.u32 %%r11, %%nctaid.x;
	mov.u32 %%r12, %%nctaid.y;
	mad.lo.u32 %%r13, %%r10, %%r12, %%r9;
	mad.lo.u32 %%r13, %%r13, %%r11, %%r8;
	mul.lo.u32 %%r14, %%r4, %%r5;
	mul.lo.u32 %%r14, %%r14, %%r6;
	mad.lo.u32 %%r15, %%r13, %%r14, %%r7;
	mul.wide.u32 %%rd2, %%r15, %d;
	add.s64 %%rd3, %%rd1, %%rd2;
	st.shared.u32 [stat], %%r7;
	st.shared.u32 [dyn+96], %%r7;
	pmevent 3;
	pmevent.mask 0x9;
	bar.sync 0;
%s	ret;
}
`, rec, body.String())
	const nthreads = 4 * 64
	l := Launch{Grid: [3]uint32{2, 2, 1}, Block: [3]uint32{8, 4, 2}, Cluster: [3]uint32{2, 1, 1}, DynamicSmem: 100, Buffers: outBuf(nthreads * rec / 4)}
	sm := newPTX(t, cfg, src, l)
	type key struct {
		slot int
		pc   uint32
	}
	cycles := map[key]uint64{}
	var issued []uint64 // issue cycle of every warp instruction, in order
	sm.OnIssue(func(ii *IssueInfo) {
		cycles[key{ii.Warp, ii.PC}] = ii.Cycle
		issued = append(issued, ii.Cycle)
	})
	// perf_mon's counters are registered: a read in cycle c sees the
	// instructions of cycles 0..c-1, not those issued with it.
	before := func(c uint64) uint64 {
		return uint64(sort.Search(len(issued), func(i int) bool { return issued[i] >= c }))
	}
	rep, err := sm.Run()
	if err != nil || rep.Status != StatusCompleted {
		t.Fatalf("%v %s %+v", err, rep.Status, rep.Errors)
	}
	pcs := make([]uint32, len(items))
	for i, it := range items {
		pcs[i] = pcOfText(t, sm, it.line)
	}
	raw := rep.Buffers["out"]
	bad := 0
	for cta := 0; cta < 4; cta++ {
		ctaid := [3]uint32{uint32(cta % 2), uint32(cta / 2), 0}
		for tl := 0; tl < 64; tl++ {
			slot, ok := sm.WarpSlot(cta, tl/32)
			if !ok {
				t.Fatalf("no slot for cta %d warp %d", cta, tl/32)
			}
			x := sregCtx{
				tid:   [3]uint32{uint32(tl % 8), uint32(tl / 8 % 4), uint32(tl / 32)},
				ntid:  [3]uint32{8, 4, 2},
				ctaid: ctaid, nctaid: [3]uint32{2, 2, 1},
				lane: uint32(tl % 32), slot: slot,
			}
			g := cta*64 + tl
			w := raw[g*rec/4 : (g+1)*rec/4]
			for i, it := range items {
				x.cycle = cycles[key{int(slot), pcs[i]}]
				x.insts = before(x.cycle)
				var got uint64
				if it.kind == 'd' {
					got = uint64(w[it.off/4]) | uint64(w[it.off/4+1])<<32
				} else {
					got = uint64(w[it.off/4])
				}
				if want := it.want(x); got != want && bad < 20 {
					bad++
					t.Errorf("cta %d thread %d: %s = %#x, want %#x", cta, tl, it.name, got, want)
				}
			}
		}
	}
	if rep.Events[3] != 16 || rep.Events[0] != 8 || rep.Events[1] != 0 {
		t.Errorf("pm_events %v", rep.Events)
	}
}
