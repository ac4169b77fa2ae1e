package trace

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/vcd"
)

// frame is what the dump of one cycle needs, captured on the SM's
// goroutine: the end of the cycle before (issue stage, trap_unit
// outputs) and the cycle's signals. The struct-valued signals (issue
// stage, writeback, the units) are kept compact: the memory under their
// dumped fields, one run after the other in data (layout), so that a
// frame is a few cache lines, not the units' whole structs, and a worker
// finds what changed by comparing words.
type frame struct {
	cycle, prev uint64 // the cycle, and the one captured before it

	top    pipeline.TopPorts
	states []pipeline.WarpState
	pcs    []uint32
	masks  []uint32
	nregs  []uint16
	esr    []uint16 // the warps' ESRs (trap_unit's warp_esr_q)
	data   []uint64 // the struct-valued signals (layout)
	bytes  []byte   // data's memory as bytes

	ctaLin   []int64            // CTA slot -> linear CTA id, -1 when free
	ctaInfo  []pipeline.CTAInfo // by slot (valid for the slots in ctaOrder)
	ctaOrder []int              // the resident CTAs' slots, in the SM's order
}

// layout places each instance's dumped fields in frame.data (byte
// offsets, each instance starting on a word), in the order they are
// dumped: segment end (the end of the cycle before: issue stage,
// trap_unit's outputs, the inputs the SM drove into trap_unit,
// clock_timer, perf_mon and reg_pool), then segment body (writeback, the
// units).
type layout struct {
	issue, lsu, wb, sIn, sOut, sQ       []int
	ctOut, ctQ, pmOut, trOut, trQ, pool int
	ctIn, pmIn, trIn, rpIn              int
	words                               int
	end, body                           segment
}

// segment is a range of frame.data's words and the fops that read them.
type segment struct{ w0, w1, o0, o1 int }

// fop is one dumped field read from frame.data: where its bytes are and
// how it is written.
type fop struct {
	f    *bfield // the field's layout: kind, width, elements
	off  uintptr // its bytes in frame.data
	id   vcd.ID
	comp *companion // an enum's string companion, or nil
	word int        // its packed value in sampler.vals
	raw  int        // vectors: its bytes last seen in sampler.raw
	vec  bool       // compared by its bytes, packed into words
	leaf int        // scalars: the kind of load
	mask uint64     // scalars: the bits of the value
}

// wordOps is the range of fops [f0, f1] that overlap a word of
// frame.data (f1 < f0: none).
type wordOps struct{ f0, f1 int32 }

// layout lays out frame.data and compiles its fops.
func (t *Tracer) layout() {
	s := t.s
	l := &t.lay
	size := 0
	add := func(x *inst) int {
		if !x.any {
			return size
		}
		o := size
		pos := uintptr(0)
		for i := range x.b.fields {
			f := &x.b.fields[i]
			if x.ids[i] < 0 {
				continue
			}
			// A scalar, or a one-word rtl.Bits (compared as a scalar), or
			// a vector compared by its bytes and packed.
			op := fop{f: f, id: x.ids[i], word: t.nvals, raw: -1, leaf: f.leaf, mask: mask(f.ew), off: uintptr(o)}
			switch {
			case f.bits && f.nw == 1:
				op.leaf, op.mask = lU64, mask(f.sig.Width)
			case f.bits || f.stride != 0:
				op.vec = true
			}
			if int(op.id) < len(t.comp) && t.comp[op.id].named != nil {
				op.comp = &t.comp[op.id]
			}
			// The field's bytes lie in one run (runs are the struct's
			// words under the dumped fields, contiguous ones merged).
			p := uintptr(0)
			for _, r := range x.runs {
				if f.size > 0 && r.off <= f.off && f.off < r.off+r.n {
					op.off = uintptr(o) + p + f.off - r.off
				}
				p += r.n
			}
			if op.vec {
				op.raw = t.nraw
				t.nraw += int(f.size)
			}
			t.nvals += f.nw
			t.fops = append(t.fops, op)
		}
		for _, r := range x.runs {
			pos += r.n
		}
		size += int(pos+7) &^ 7
		return o
	}
	begin := func() segment { return segment{w0: size / 8, o0: len(t.fops)} }
	end := func(g *segment) { g.w1, g.o1 = size/8, len(t.fops) }
	l.end = begin()
	for k := range s.issue {
		l.issue = append(l.issue, add(&s.issue[k].inst))
	}
	for k := range s.lsu {
		l.lsu = append(l.lsu, add(&s.lsu[k].inst))
	}
	l.trOut = add(&s.trOut.inst)
	l.ctIn, l.pmIn = add(&s.ctIn.inst), add(&s.pmIn.inst)
	l.trIn, l.rpIn = add(&s.trIn.inst), add(&s.rpIn.inst)
	end(&l.end)
	l.body = begin()
	for k := range s.wb {
		l.wb = append(l.wb, add(&s.wb[k].inst))
	}
	for k := range s.sIn {
		l.sIn = append(l.sIn, add(&s.sIn[k].inst))
		l.sOut = append(l.sOut, add(&s.sOut[k].inst))
		l.sQ = append(l.sQ, add(&s.sQ[k].inst))
	}
	l.ctOut, l.ctQ, l.pmOut = add(&s.ctOut.inst), add(&s.ctQ.inst), add(&s.pmOut.inst)
	l.trQ, l.pool = add(&s.trQ.inst), add(&s.pool.inst)
	end(&l.body)
	l.words = size / 8
	t.wordOps = make([]wordOps, l.words)
	for k := range t.wordOps {
		t.wordOps[k] = wordOps{0, -1}
	}
	for i, op := range t.fops {
		if op.f.size == 0 {
			continue
		}
		for k := op.off / 8; k <= (op.off+op.f.size-1)/8; k++ {
			w := &t.wordOps[k]
			if w.f1 < w.f0 {
				w.f0 = int32(i)
			}
			w.f1 = int32(i)
		}
	}
}

func (t *Tracer) newFrame() *frame {
	nw, nc := len(t.s.warps), len(t.s.ctas)
	data := make([]uint64, max(t.lay.words, 1))
	return &frame{
		states:   make([]pipeline.WarpState, nw),
		pcs:      make([]uint32, nw),
		masks:    make([]uint32, nw),
		nregs:    make([]uint16, nw),
		esr:      make([]uint16, nw),
		data:     data[:t.lay.words],
		bytes:    unsafe.Slice((*byte)(unsafe.Pointer(&data[0])), 8*t.lay.words),
		ctaLin:   make([]int64, nc),
		ctaInfo:  make([]pipeline.CTAInfo, nc),
		ctaOrder: make([]int, 0, nc),
	}
}

// copyFrame copies src into dst (what the samplers read of it).
func (t *Tracer) copyFrame(dst, src *frame) {
	dst.cycle, dst.prev = src.cycle, src.prev
	dst.top = src.top
	copy(dst.states, src.states)
	copy(dst.pcs, src.pcs)
	copy(dst.masks, src.masks)
	copy(dst.nregs, src.nregs)
	copy(dst.esr, src.esr)
	copy(dst.data, src.data)
	copy(dst.ctaLin, src.ctaLin)
	copy(dst.ctaInfo, src.ctaInfo)
	dst.ctaOrder = append(dst.ctaOrder[:0], src.ctaOrder...)
}

// block is a run of frames a worker dumps into one chunk: frames[0] is
// the last frame of the block before, which primes the worker's sampler.
type block struct {
	frames []*frame
	n      int    // frames filled, frames[0] included
	seq    uint64 // dispatch order: chunks are written in it
	ch     *vcd.Chunk
}

// blockFrames is the number of frames of a block, and inFlight the
// blocks of each worker that may be filled or waiting to be dumped.
const (
	blockFrames = 64
	inFlight    = 4
)

// frames runs the workers: the SM's goroutine fills blocks of frames
// (next, commit), workers dump them into chunks and append the chunks to
// the Writer in dispatch order, each waiting for its turn. There is no
// other goroutine: with one worker, the SM's goroutine and the worker
// each keep a core busy on a two-core machine. Nothing runs until start
// (after the first cycle's $dumpvars section); stop waits for everything
// dispatched to be written.
type frames struct {
	t       *Tracer
	workers int
	cur     *block
	spare   *frame
	work    chan *block
	free    chan *block
	wg      sync.WaitGroup
	seq     uint64 // of the next block dispatched

	mu      sync.Mutex
	turn    *sync.Cond
	written uint64 // blocks written (seq of the next to write)
	err     error  // the first error of the chunks (under mu)
	running bool
}

// newFrames prepares workers workers (0: one per CPU the Go runtime may
// use besides the SM's goroutine, at least 1 and at most 4).
func newFrames(t *Tracer, workers int) *frames {
	if workers <= 0 {
		workers = min(max(runtime.GOMAXPROCS(0)-1, 1), 4)
	}
	p := &frames{t: t, workers: workers}
	p.turn = sync.NewCond(&p.mu)
	p.cur = &block{frames: []*frame{t.newFrame()}}
	return p
}

// next is the frame to fill for the cycle being captured.
func (p *frames) next() *frame {
	b := p.cur
	if b.n == len(b.frames) {
		b.frames = append(b.frames, p.t.newFrame())
	}
	return b.frames[b.n]
}

// start starts the workers; the frame filled (the first cycle, dumped by
// the caller) primes the first block.
func (p *frames) start() error {
	t := p.t
	nb := inFlight * p.workers
	p.work = make(chan *block, nb)
	p.free = make(chan *block, nb)
	for i := 0; i < nb; i++ {
		ch, err := t.w.NewChunk()
		if err != nil {
			return err
		}
		b := p.cur
		if i > 0 {
			b = &block{}
		}
		for len(b.frames) < blockFrames {
			b.frames = append(b.frames, t.newFrame())
		}
		b.ch = ch
		if i > 0 {
			p.free <- b
		}
	}
	p.cur.n = 1
	for i := 0; i < p.workers; i++ {
		s := t.s.clone()
		p.wg.Add(1)
		go p.worker(s)
	}
	p.running = true
	return nil
}

// commit ends the frame next returned; a full block goes to the workers.
func (p *frames) commit() {
	b := p.cur
	b.n++
	if b.n == len(b.frames) {
		p.dispatch()
	}
}

func (p *frames) dispatch() {
	b := p.cur
	b.seq = p.seq
	p.seq++
	p.work <- b
	nb := <-p.free
	p.t.copyFrame(nb.frames[0], b.frames[b.n-1])
	nb.n = 1
	p.cur = nb
}

func (p *frames) worker(s *sampler) {
	defer p.wg.Done()
	next := uint64(0) // the block after the last one dumped
	for b := range p.work {
		b.ch.Reset()
		s.ch = b.ch
		if b.seq != next || next == 0 {
			// frames[0] is the last frame of the block before: a
			// worker that did not just dump it learns its values.
			s.prime(b.frames[0])
		}
		next = b.seq + 1
		for _, f := range b.frames[1:b.n] {
			s.process(f, false)
		}
		s.ch = nil
		p.mu.Lock()
		for p.written != b.seq {
			p.turn.Wait()
		}
		if p.err == nil {
			p.err = p.t.w.WriteChunk(b.ch)
		}
		p.written++
		p.turn.Broadcast()
		p.mu.Unlock()
		p.free <- b
	}
}

// stop dispatches the frames filled, waits until they are written and
// stops the workers. It returns the last frame captured and the first
// error of the chunks.
func (p *frames) stop() (*frame, error) {
	b := p.cur
	last := b.frames[b.n-1]
	if !p.running {
		return last, nil
	}
	p.running = false
	if b.n > 1 {
		b.seq = p.seq
		p.seq++
		p.work <- b
	}
	close(p.work)
	p.wg.Wait()
	return last, p.err
}

// scratch is a frame for the final cycle, apart from the blocks.
func (p *frames) scratch() *frame {
	if p.spare == nil {
		p.spare = p.t.newFrame()
	}
	return p.spare
}
