package cosim

import (
	"bytes"
	"encoding/binary"
	"io"
	"strings"
	"testing"

	"github.com/smsim/smsim/pipeline"
)

// smRecEncode writes a record stream as sm_main.cpp does: the header,
// then one C record per frame (only the fields that changed), then D.
func smRecEncode(ns, nw int, frames [][]uint64, done uint64) []byte {
	var b []byte
	u := func(v uint64) { b = binary.AppendUvarint(b, v) }
	b = append(b, smRecMagic...)
	u(uint64(ns))
	u(uint64(nw))
	u(uint64(smRecFields(ns, nw)))
	prev := make([]uint64, smRecFields(ns, nw))
	for c, f := range frames {
		var idx []int
		for i, v := range f {
			if v != prev[i] {
				idx = append(idx, i)
				prev[i] = v
			}
		}
		b = append(b, 'C')
		u(uint64(c))
		u(uint64(len(idx)))
		for _, i := range idx {
			u(uint64(i))
			u(f[i])
		}
	}
	b = append(b, 'D')
	u(done)
	u(smStatusCompleted)
	return b
}

// TestSMRecRoundTrip: the decoder rebuilds every cycle's values from the
// changed fields, in the documented order.
func TestSMRecRoundTrip(t *testing.T) {
	const ns, nw = 2, 3
	n := smRecFields(ns, nw)
	frames := make([][]uint64, 5)
	for c := range frames {
		f := make([]uint64, n)
		for i := range f {
			if (i+c)%3 == 0 {
				f[i] = uint64(i*1000+c) << (i % 40)
			}
		}
		frames[c] = f
	}
	d := newSMRecReader(bytes.NewReader(smRecEncode(ns, nw, frames, 5)))
	if err := d.header(ns, nw); err != nil {
		t.Fatal(err)
	}
	rt := &smCycle{}
	for c, f := range frames {
		kind, cyc, err := d.next()
		if err != nil || kind != 'C' || cyc != uint64(c) {
			t.Fatalf("record %d: %c %d %v", c, kind, cyc, err)
		}
		d.fill(rt)
		if got, want := rt.issue[1].PC, uint32(f[smRecIssue+2]); got != want {
			t.Errorf("cycle %d: issue[1].pc %#x, want %#x", c, got, want)
		}
		wb := 2 * smRecIssue
		if got, want := rt.wb[1].Count, uint8(f[wb+smRecWB+3]); got != want {
			t.Errorf("cycle %d: wb[1].count %d, want %d", c, got, want)
		}
		w := wb + 2*smRecWB
		if got, want := rt.masks[2], uint32(f[w+2*smRecWarp+1]); got != want {
			t.Errorf("cycle %d: masks[2] %#x, want %#x", c, got, want)
		}
		l := w + nw*smRecWarp
		if got, want := rt.lsu[1].ReqAddr[31], f[l+smRecLSU+7+31]; got != want {
			t.Errorf("cycle %d: lsu[1].addr[31] %#x, want %#x", c, got, want)
		}
		if got, want := rt.lsu[0].ReqTag, uint32(f[l+6]); got != want {
			t.Errorf("cycle %d: lsu[0].tag %d, want %d", c, got, want)
		}
	}
	if kind, cyc, err := d.next(); err != nil || kind != 'D' || cyc != 5 || d.status != smStatusCompleted {
		t.Fatalf("end: %c %d status %d %v", kind, cyc, d.status, err)
	}
	if _, _, err := d.next(); err != io.EOF {
		t.Fatalf("after D: %v", err)
	}
}

// TestSMRecBadStreams: malformed streams are errors that say what is
// wrong, never a panic.
func TestSMRecBadStreams(t *testing.T) {
	good := smRecEncode(2, 8, [][]uint64{make([]uint64, smRecFields(2, 8))}, 1)
	hdr := len(smRecEncode(2, 8, nil, 0)) - 3 // without the D record
	cases := []struct {
		name string
		b    []byte
		ns   int
		want string
	}{
		{"magic", append([]byte("SMR1"), good[4:]...), 2, "bad magic"},
		{"counts", good, 4, "the bench has 2 schedulers, 8 warp slots"},
		{"truncated header", good[:5], 2, "ends inside a record"},
		{"kind", append(append([]byte(nil), good[:hdr]...), 'X'), 2, "bad record kind"},
		{"truncated record", append(append([]byte(nil), good[:hdr]...), 'C', 0, 3, 1), 2, "ends inside a record"},
		{"index", append(append([]byte(nil), good[:hdr]...), 'C', 0, 1, 0xc8, 0x01, 1), 2, "field 200 of 135"},
		{"count", append(append([]byte(nil), good[:hdr]...), 'C', 0, 0xc8, 0x01, 0), 2, "200 changes of 135 fields"},
		{"status", append(append([]byte(nil), good[:hdr]...), 'D', 1), 2, "ends inside a record"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newSMRecReader(bytes.NewReader(c.b))
			err := d.header(c.ns, 8)
			for err == nil {
				_, _, err = d.next()
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// FuzzSMRecords: any bytes after a good header decode without a panic.
func FuzzSMRecords(f *testing.F) {
	f.Add(smRecEncode(2, 8, [][]uint64{make([]uint64, smRecFields(2, 8))}, 1)[len(smRecEncode(2, 8, nil, 0))-3:])
	f.Add([]byte{'C', 0, 1, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := newSMRecReader(bytes.NewReader(append(smRecEncode(2, 8, nil, 0)[:len(smRecEncode(2, 8, nil, 0))-3], b...)))
		if err := d.header(2, 8); err != nil {
			t.Fatal(err)
		}
		rt := &smCycle{}
		for i := 0; i < 1000; i++ {
			kind, _, err := d.next()
			if err != nil {
				return
			}
			if kind == 'C' {
				d.fill(rt)
			}
		}
	})
}

// TestSMCompareTrap: the trap unit's fields of a cycle are compared and
// a difference is named by the Go unit's scope (sm_top.u_trap_unit).
func TestSMCompareTrap(t *testing.T) {
	mk := func() *smCycle {
		return &smCycle{
			issue: make([]pipeline.IssueOutputs, 2), wb: make([]pipeline.WritebackOutputs, 2),
			pcs: make([]uint32, 4), masks: make([]uint32, 4), lsu: make([]pipeline.LSUOutputs, 2),
			trap: smTrapCycle{inHandler: 0x5, globalESR: 0x24, irqCount: 3, esr: []uint16{0, 5, 0, 5}, resumePC: []uint32{0, 17, 0, 9}},
		}
	}
	g := mk()
	if sig, _, _ := compareSMCycle(g, mk()); sig != "" {
		t.Fatalf("equal cycles differ at %s", sig)
	}
	cases := []struct {
		change func(c *smCycle)
		sig    string
	}{
		{func(c *smCycle) { c.trap.trapped = true }, "sm_top.u_trap_unit.sm_trapped_o"},
		{func(c *smCycle) { c.trap.inHandler = 0x4 }, "sm_top.u_trap_unit.warp_in_handler_o"},
		{func(c *smCycle) { c.trap.paused = 0x1 }, "sm_top.u_trap_unit.warp_paused_o"},
		{func(c *smCycle) { c.trap.globalESR = 0x20 }, "sm_top.u_trap_unit.global_esr_o"},
		{func(c *smCycle) { c.trap.irqCount = 4 }, "sm_top.u_trap_unit.irq_count_o"},
		{func(c *smCycle) { c.trap.esr[3] = 0x4 }, "sm_top.u_trap_unit.warp_esr_o[3]"},
		{func(c *smCycle) { c.trap.resumePC[1] = 18 }, "sm_top.u_trap_unit.resume_pc_o[1]"},
	}
	for _, c := range cases {
		r := mk()
		c.change(r)
		if sig, _, _ := compareSMCycle(g, r); sig != c.sig {
			t.Errorf("got %q, want %q", sig, c.sig)
		}
	}
	if smStatusCode(pipeline.StatusTrapped) != smStatusTrapped || smStatusCode(pipeline.StatusCompleted) != smStatusCompleted || smStatusCode(pipeline.StatusFault) != 0 {
		t.Error("smStatusCode")
	}
}
