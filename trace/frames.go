package trace

import (
	"runtime"
	"sync"

	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/vcd"
)

// frame is what the dump of one cycle needs, captured on the SM's
// goroutine: the end of the cycle before (issue stage, trap_unit
// outputs) and the cycle's signals. The units' signals are kept compact:
// the memory under their dumped fields, one run after the other in data
// (layout), so that a frame is a few cache lines, not the units' whole
// structs.
type frame struct {
	cycle, prev uint64 // the cycle, and the one captured before it

	issue []issueObs // the issue stage, dumped first (with trap_unit's outputs in data)

	top    topObs
	states []pipeline.WarpState
	pcs    []uint32
	masks  []uint32
	nregs  []uint16
	esr    []uint16 // the warps' ESRs (trap_unit's warp_esr_q)
	wb     []wbObs
	data   []byte // the units' dumped fields (layout)

	ctaLin   []int64            // CTA slot -> linear CTA id, -1 when free
	ctaInfo  []pipeline.CTAInfo // by slot (valid for the slots in ctaOrder)
	ctaOrder []int              // the resident CTAs' slots, in the SM's order
}

// layout places each unit instance's dumped fields in frame.data.
type layout struct {
	sIn, sOut, sQ                       []int
	ctOut, ctQ, pmOut, trOut, trQ, pool int
	size                                int
}

func (t *Tracer) layout() layout {
	s := t.s
	var l layout
	add := func(x *inst) int {
		o := l.size
		for _, r := range x.runs {
			l.size += int(r.n)
		}
		return o
	}
	for k := range s.sIn {
		l.sIn = append(l.sIn, add(&s.sIn[k].inst))
		l.sOut = append(l.sOut, add(&s.sOut[k].inst))
		l.sQ = append(l.sQ, add(&s.sQ[k].inst))
	}
	l.ctOut, l.ctQ, l.pmOut = add(&s.ctOut.inst), add(&s.ctQ.inst), add(&s.pmOut.inst)
	l.trOut, l.trQ, l.pool = add(&s.trOut.inst), add(&s.trQ.inst), add(&s.pool.inst)
	return l
}

func (t *Tracer) newFrame() *frame {
	nw, ns, nc := len(t.s.warps), len(t.s.issue), len(t.s.ctas)
	return &frame{
		issue:    make([]issueObs, ns),
		states:   make([]pipeline.WarpState, nw),
		pcs:      make([]uint32, nw),
		masks:    make([]uint32, nw),
		nregs:    make([]uint16, nw),
		esr:      make([]uint16, nw),
		wb:       make([]wbObs, ns),
		data:     make([]byte, t.lay.size),
		ctaLin:   make([]int64, nc),
		ctaInfo:  make([]pipeline.CTAInfo, nc),
		ctaOrder: make([]int, 0, nc),
	}
}

// copyFrame copies src into dst (what the samplers read of it).
func (t *Tracer) copyFrame(dst, src *frame) {
	dst.cycle, dst.prev = src.cycle, src.prev
	copy(dst.issue, src.issue)
	dst.top = src.top
	copy(dst.states, src.states)
	copy(dst.pcs, src.pcs)
	copy(dst.masks, src.masks)
	copy(dst.nregs, src.nregs)
	copy(dst.esr, src.esr)
	copy(dst.wb, src.wb)
	copy(dst.data, src.data)
	copy(dst.ctaLin, src.ctaLin)
	copy(dst.ctaInfo, src.ctaInfo)
	dst.ctaOrder = append(dst.ctaOrder[:0], src.ctaOrder...)
}

// block is a run of frames a worker dumps into one chunk: frames[0] is
// the last frame of the block before, which primes the worker's sampler.
type block struct {
	frames []*frame
	n      int // frames filled, frames[0] included
	ch     *vcd.Chunk
	done   chan struct{}
}

// Blocks hold blockFrames frames; each worker has about two blocks in
// flight.
const blockFrames = 64

// frames runs the workers: the SM's goroutine fills blocks of frames
// (next, commit), workers dump them into chunks, and a writer goroutine
// appends the chunks to the Writer in order. Nothing runs until start
// (after the first cycle's $dumpvars section); stop waits for everything
// dispatched to be written.
type frames struct {
	t       *Tracer
	workers int
	blocks  []*block
	cur     *block
	spare   *frame
	work    chan *block
	order   chan *block
	free    chan *block
	wg      sync.WaitGroup
	sink    chan struct{}
	err     error // the writer goroutine's first error (read after sink closes)
	running bool
}

// newFrames prepares workers workers (0: one per CPU the Go runtime may
// use, at most 4).
func newFrames(t *Tracer, workers int) *frames {
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	p := &frames{t: t, workers: workers}
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

// start starts the goroutines; the frame filled (the first cycle, dumped
// by the caller) primes the first block.
func (p *frames) start() error {
	t := p.t
	nb := 2*p.workers + 2
	p.work = make(chan *block, nb)
	p.order = make(chan *block, nb)
	p.free = make(chan *block, nb)
	p.sink = make(chan struct{})
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
		b.ch, b.done = ch, make(chan struct{}, 1)
		p.blocks = append(p.blocks, b)
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
	go p.writer()
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
	p.work <- b
	p.order <- b
	nb := <-p.free
	p.t.copyFrame(nb.frames[0], b.frames[b.n-1])
	nb.n = 1
	p.cur = nb
}

func (p *frames) worker(s *sampler) {
	defer p.wg.Done()
	for b := range p.work {
		b.ch.Reset()
		s.ch = b.ch
		s.prime(b.frames[0])
		for _, f := range b.frames[1:b.n] {
			s.process(f, false)
		}
		s.ch = nil
		b.done <- struct{}{}
	}
}

func (p *frames) writer() {
	defer close(p.sink)
	for b := range p.order {
		<-b.done
		if p.err == nil {
			p.err = p.t.w.WriteChunk(b.ch)
		}
		p.free <- b
	}
}

// stop dispatches the frames filled, waits until they are written and
// stops the goroutines. It returns the last frame captured and the first
// error of the chunks.
func (p *frames) stop() (*frame, error) {
	b := p.cur
	last := b.frames[b.n-1]
	if !p.running {
		return last, nil
	}
	p.running = false
	if b.n > 1 {
		p.work <- b
		p.order <- b
	}
	close(p.work)
	close(p.order)
	p.wg.Wait()
	<-p.sink
	return last, p.err
}

// scratch is a frame for the final cycle, apart from the blocks.
func (p *frames) scratch() *frame {
	if p.spare == nil {
		p.spare = p.t.newFrame()
	}
	return p.spare
}
