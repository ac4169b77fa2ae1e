package cosim

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/smsim/smsim/pipeline"
)

// The SM bench's record stream (docs/sm-rtl.md section 4): sm_tb.sv hands
// each cycle's values to verilog/dv/sm_main.cpp (DPI-C), which writes
// them on a pipe as uvarints (encoding/binary), only the fields that
// changed since the previous cycle:
//
//	header  "SMR2" uvarint(nsched) uvarint(nwarps) uvarint(nfields)
//	cycle   'C' uvarint(cycle) uvarint(k) k * (uvarint(index) uvarint(value))
//	end     'D' uvarint(cycle) uvarint(status)
//
// A cycle's fields, in index order: per scheduler the issue stage (valid
// warp pc op mask exec), per scheduler the writeback stage (valid warp pc
// count), per warp slot (pc mask), per scheduler the load/store stage
// (valid op space warp mask size tag addr[0..31]), the trap unit
// (sm_trapped in_handler paused global_esr irq_count), per warp slot its
// trap registers (warp_esr resume_pc). Every field is 0 before the first
// cycle. The end's status is the bench's outcome of the launch
// (smStatusCompleted: done_o; smStatusTrapped: its host agent stopped the
// run; 0: neither, +max_cycles).

// smRecMagic opens the stream.
const smRecMagic = "SMR2"

// Fields per group of a cycle record (smFromFields reads them in this
// order; sm_tb.sv sends them in the same order).
const (
	smRecIssue = 6
	smRecWB    = 4
	smRecWarp  = 2
	smRecLSU   = 7 + 32
	smRecTrap  = 5
	// smRecTrapWarp: per warp slot, the trap unit's warp_esr_o and
	// resume_pc_o.
	smRecTrapWarp = 2
)

// The end record's status (sm_tb.sv).
const (
	smStatusCompleted = 1
	smStatusTrapped   = 2
)

// smRecFields is the number of fields of a cycle record.
func smRecFields(ns, nw int) int {
	return ns*(smRecIssue+smRecWB+smRecLSU) + nw*smRecWarp + smRecTrap + nw*smRecTrapWarp
}

// smRecReader decodes the record stream.
type smRecReader struct {
	r    *bufio.Reader
	vals []uint64 // the current values, by field index
	ns   int
	nw   int
	// status is the end record's status (after next returned 'D').
	status uint64
}

func newSMRecReader(r io.Reader) *smRecReader {
	return &smRecReader{r: bufio.NewReaderSize(r, 1<<16)}
}

// errSMRecTruncated is a stream that ends inside a record.
var errSMRecTruncated = errors.New("the record stream ends inside a record")

func (d *smRecReader) uvarint(what string) (uint64, error) {
	v, err := binary.ReadUvarint(d.r)
	if err == io.EOF {
		return 0, errSMRecTruncated
	}
	if err != nil {
		return 0, fmt.Errorf("record stream: %s: %w", what, err)
	}
	return v, nil
}

// header reads the stream's header and checks it against the Go SM's
// ns schedulers and nw warp slots.
func (d *smRecReader) header(ns, nw int) error {
	var magic [len(smRecMagic)]byte
	if _, err := io.ReadFull(d.r, magic[:]); err != nil {
		if err == io.EOF {
			return io.EOF
		}
		return errSMRecTruncated
	}
	if string(magic[:]) != smRecMagic {
		return fmt.Errorf("record stream: bad magic %q (want %q: a bench of this smsim version)", magic[:], smRecMagic)
	}
	var h [3]uint64
	for i, what := range []string{"schedulers", "warp slots", "fields"} {
		v, err := d.uvarint(what)
		if err != nil {
			return err
		}
		h[i] = v
	}
	want := smRecFields(ns, nw)
	if h[0] != uint64(ns) || h[1] != uint64(nw) || h[2] != uint64(want) {
		return fmt.Errorf("record stream: the bench has %d schedulers, %d warp slots and %d fields per cycle, the Go SM %d, %d and %d (a stale bench, or sm_tb.sv and cosim/smrec.go disagree on the record's fields)",
			h[0], h[1], h[2], ns, nw, want)
	}
	d.ns, d.nw, d.vals = ns, nw, make([]uint64, want)
	return nil
}

// next reads one record: its kind ('C' or 'D') and cycle; a C record's
// changes are applied to d.vals. It returns io.EOF when the stream ends
// between records.
func (d *smRecReader) next() (kind byte, cycle uint64, err error) {
	kind, err = d.r.ReadByte()
	if err != nil {
		if err == io.EOF {
			return 0, 0, io.EOF
		}
		return 0, 0, err
	}
	if kind != 'C' && kind != 'D' {
		return 0, 0, fmt.Errorf("record stream: bad record kind %#02x", kind)
	}
	if cycle, err = d.uvarint("cycle"); err != nil {
		return 0, 0, err
	}
	if kind == 'D' {
		if d.status, err = d.uvarint("status"); err != nil {
			return 0, 0, err
		}
		return kind, cycle, nil
	}
	k, err := d.uvarint("count")
	if err != nil {
		return 0, 0, err
	}
	if k > uint64(len(d.vals)) {
		return 0, 0, fmt.Errorf("record stream: cycle %d: %d changes of %d fields", cycle, k, len(d.vals))
	}
	for ; k > 0; k-- {
		i, err := d.uvarint("field index")
		if err != nil {
			return 0, 0, err
		}
		v, err := d.uvarint("field value")
		if err != nil {
			return 0, 0, err
		}
		if i >= uint64(len(d.vals)) {
			return 0, 0, fmt.Errorf("record stream: cycle %d: field %d of %d", cycle, i, len(d.vals))
		}
		d.vals[i] = v
	}
	return kind, cycle, nil
}

// fill sets rt from the current values (rt's slices are resized to the
// stream's counts).
func (d *smRecReader) fill(rt *smCycle) {
	ns, nw, v := d.ns, d.nw, d.vals
	rt.issue = resize(rt.issue, ns)
	rt.wb = resize(rt.wb, ns)
	rt.pcs = resize(rt.pcs, nw)
	rt.masks = resize(rt.masks, nw)
	rt.lsu = resize(rt.lsu, ns)
	i := 0
	for s := range rt.issue {
		rt.issue[s] = pipeline.IssueOutputs{Valid: v[i] != 0, Warp: uint16(v[i+1]), PC: uint32(v[i+2]), Op: uint8(v[i+3]), Mask: uint32(v[i+4]), Exec: uint32(v[i+5])}
		i += smRecIssue
	}
	for s := range rt.wb {
		rt.wb[s] = pipeline.WritebackOutputs{Valid: v[i] != 0, Warp: uint16(v[i+1]), PC: uint32(v[i+2]), Count: uint8(v[i+3])}
		i += smRecWB
	}
	for w := range rt.pcs {
		rt.pcs[w], rt.masks[w] = uint32(v[i]), uint32(v[i+1])
		i += smRecWarp
	}
	for s := range rt.lsu {
		o := &rt.lsu[s]
		o.ReqValid, o.ReqOp, o.ReqSpace, o.ReqWarp = v[i] != 0, uint8(v[i+1]), uint8(v[i+2]), uint16(v[i+3])
		o.ReqMask, o.ReqSize, o.ReqTag = uint32(v[i+4]), uint8(v[i+5]), uint32(v[i+6])
		copy(o.ReqAddr[:], v[i+7:i+smRecLSU])
		i += smRecLSU
	}
	t := &rt.trap
	t.trapped, t.inHandler, t.paused = v[i] != 0, v[i+1], v[i+2]
	t.globalESR, t.irqCount = uint16(v[i+3]), uint32(v[i+4])
	i += smRecTrap
	t.esr = resize(t.esr, nw)
	t.resumePC = resize(t.resumePC, nw)
	for w := 0; w < nw; w++ {
		t.esr[w], t.resumePC[w] = uint16(v[i]), uint32(v[i+1])
		i += smRecTrapWarp
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
