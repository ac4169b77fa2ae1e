package trace

import (
	"math/bits"

	"github.com/smsim/smsim/vcd"
)

// The tracer works in two stages. The sampler runs in the SM's hooks, on
// the SM's goroutine: it compares each signal with the value it last wrote
// and records the changes (and time steps) in batches. The encoder, on a
// goroutine of its own, replays the batches into the vcd.Writer, which
// formats and writes the text. The Writer sees exactly the calls a
// single-goroutine tracer would make, in the same order, so the output is
// the same byte for byte; on a machine with a spare core the formatting
// runs beside the simulation instead of after each cycle.

// record kinds
const (
	recTime = iota
	recUint
	recBits   // v: offset into words; the width is the variable's
	recString // v: index into strs
)

// record is one time step or value change: 16 bytes.
type record struct {
	v    uint64
	id   int32
	kind uint32
}

// batch is a run of records with the wide values and strings they refer
// to.
type batch struct {
	recs  []record
	words []uint64
	strs  []string
}

// Batches are small enough to stay in cache between the two goroutines.
const (
	batchRecords = 1 << 11
	numBatches   = 8
)

func (b *batch) reset() {
	b.recs, b.words, b.strs = b.recs[:0], b.words[:0], b.strs[:0]
}

// encoder owns the vcd.Writer once started.
type encoder struct {
	w       *vcd.Writer
	comp    []companion // by variable: the string companion of an enum
	width   []int32     // by variable: its width (wide variables)
	cur     *batch
	full    chan *batch
	free    chan *batch
	done    chan struct{}
	started bool
	scratch []byte
}

// companion is an enum variable's string companion and its value names.
type companion struct {
	id    vcd.ID
	names []string
}

// enum declares sid as the string companion of id: every value written to
// id also writes its name to sid.
func (e *encoder) enum(id, sid vcd.ID, names []string) {
	for len(e.comp) <= int(id) {
		e.comp = append(e.comp, companion{id: -1})
	}
	e.comp[id] = companion{sid, names}
}

func newEncoder(w *vcd.Writer) *encoder {
	e := &encoder{w: w, full: make(chan *batch, numBatches), free: make(chan *batch, numBatches), done: make(chan struct{})}
	for i := 0; i < numBatches; i++ {
		e.free <- &batch{recs: make([]record, 0, batchRecords)}
	}
	e.cur = <-e.free
	return e
}

// start runs the encoding goroutine. Before it, batches are replayed on
// the caller's goroutine when full.
func (e *encoder) start() {
	e.started = true
	go func() {
		defer close(e.done)
		for b := range e.full {
			e.replay(b)
			b.reset()
			e.free <- b
		}
	}()
}

// flushBatch hands the current batch to the encoder.
func (e *encoder) flushBatch() {
	if len(e.cur.recs) == 0 {
		return
	}
	if !e.started {
		e.replay(e.cur)
		e.cur.reset()
		return
	}
	e.full <- e.cur
	e.cur = <-e.free
}

func (e *encoder) add(r record) {
	b := e.cur
	b.recs = append(b.recs, r)
	if len(b.recs) == batchRecords {
		e.flushBatch()
	}
}

func (e *encoder) time(t uint64)            { e.add(record{kind: recTime, v: t}) }
func (e *encoder) uint(id vcd.ID, v uint64) { e.add(record{kind: recUint, id: int32(id), v: v}) }

func (e *encoder) str(id vcd.ID, s string) {
	e.cur.strs = append(e.cur.strs, s)
	e.add(record{kind: recString, id: int32(id), v: uint64(len(e.cur.strs) - 1)})
}

// wide declares the width of a variable written with bits.
func (e *encoder) wide(id vcd.ID, width int) {
	for len(e.width) <= int(id) {
		e.width = append(e.width, 0)
	}
	e.width[id] = int32(width)
}

func (e *encoder) bits(id vcd.ID, w []uint64) {
	off := len(e.cur.words)
	e.cur.words = append(e.cur.words, w...)
	e.add(record{kind: recBits, id: int32(id), v: uint64(off)})
}

// close replays what is left, stops the goroutine and closes the Writer.
func (e *encoder) close() error {
	e.flushBatch()
	if e.started {
		close(e.full)
		<-e.done
		e.started = false
	}
	return e.w.Close()
}

func (e *encoder) replay(b *batch) {
	w := e.w
	for i := range b.recs {
		r := &b.recs[i]
		switch r.kind {
		case recTime:
			w.SetTime(r.v)
		case recUint:
			w.SetUint(vcd.ID(r.id), r.v)
			if int(r.id) < len(e.comp) {
				if c := &e.comp[r.id]; c.names != nil {
					w.SetString(c.id, enumName(c.names, r.v))
				}
			}
		case recString:
			w.SetString(vcd.ID(r.id), b.strs[r.v])
		case recBits:
			width := int(e.width[r.id])
			e.scratch = appendBits(e.scratch[:0], b.words[r.v:r.v+uint64(width+63)/64], width)
			w.SetBitsBytes(vcd.ID(r.id), e.scratch)
		}
	}
}

// appendBits renders the packed value w as bits, most significant first,
// from its highest set bit (VCD left-extends with 0); "0" for zero.
func appendBits(dst []byte, w []uint64, width int) []byte {
	top := -1
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] != 0 {
			top = i*64 + 63 - bits.LeadingZeros64(w[i])
			break
		}
	}
	if top < 0 {
		return append(dst, '0')
	}
	i := min(top, width-1)
	// The bits above the highest whole byte, one at a time, then eight
	// at a time from a table (wide vectors such as pm_o change every
	// cycle).
	for ; i >= 0 && i&7 != 7; i-- {
		dst = append(dst, '0'+byte(w[i>>6]>>uint(i&63)&1))
	}
	for ; i >= 7; i -= 8 {
		lo := i - 7
		dst = append(dst, bitBytes[byte(w[lo>>6]>>uint(lo&63))][:]...)
	}
	return dst
}

// bitBytes[b] is b as eight '0'/'1' characters, most significant first.
var bitBytes = func() (t [256][8]byte) {
	for b := range t {
		for k := 0; k < 8; k++ {
			t[b][k] = '0' + byte(b>>uint(7-k)&1)
		}
	}
	return t
}()
