// The sampler: a dump worker's view of the instances, turning captured frames into VCD value changes.

package trace

import (
	"unsafe"

	"github.com/smsim/smsim/clocktimer"
	"github.com/smsim/smsim/perfmon"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/regpool"
	"github.com/smsim/smsim/trapunit"
	"github.com/smsim/smsim/vcd"
	"github.com/smsim/smsim/warpsched"
)

// sampler turns frames into value changes: it compares each signal with
// the value it last wrote and writes the changes, to the Writer (the
// first and final cycles, on the caller's goroutine) or to a Chunk (a
// worker's run of frames).
type sampler struct {
	t       *Tracer     // read only: stall codes, companions
	w       *vcd.Writer // the output, when ch is nil
	ch      *vcd.Chunk
	mute    bool // update the values last written, write nothing
	started bool // the $dumpvars section is written: write changes only

	top   tinst[pipeline.TopPorts]
	topV  pipeline.TopPorts // sm_top's ports as last set (the falling edge keeps done_o, status_o)
	warps []tinst[pipeline.WarpRegs]
	issue []tinst[pipeline.IssueOutputs]
	lsu   []tinst[pipeline.LSUOutputs]
	wb    []tinst[pipeline.WritebackOutputs]
	sIn   []tinst[warpsched.Inputs]
	sOut  []tinst[warpsched.Outputs]
	sQ    []tinst[warpsched.State]
	ctOut tinst[clocktimer.Outputs]
	ctQ   tinst[clocktimer.State]
	pmOut tinst[perfmon.Outputs]
	trOut tinst[trapunit.Outputs]
	ctIn  tinst[clocktimer.Inputs]
	pmIn  tinst[perfmon.Inputs]
	trIn  tinst[trapunit.Inputs]
	rpIn  tinst[regpool.Inputs]
	trQ   tinst[trapunit.State]
	pool  tinst[regPoolObs]
	ctas  []tinst[pipeline.BarrierCTA]
	bars  [][pipeline.NumBarriers]tinst[pipeline.BarrierRegs]

	warpSeen []warpKey
	ctaLin   []int64 // CTA slot -> linear CTA id last dumped, -1 when free
	ctaSeen  []pipeline.CTAInfo

	// What was last written of the fops (frame.data): the words of
	// frame.data, the fops' packed values and the vectors' memory.
	prev []uint64
	vals []uint64
	raw  []byte
}

// flat gives the sampler its own memory of the fops' values.
func (s *sampler) flat() {
	s.prev = make([]uint64, s.t.lay.words)
	s.vals = make([]uint64, s.t.nvals)
	s.raw = make([]byte, s.t.nraw)
}

// clone returns a sampler for a worker: the same variables, its own
// memory of the values written (set by priming it with a frame).
func (s *sampler) clone() *sampler {
	c := *s
	c.w, c.ch, c.mute, c.started = nil, nil, false, true
	a := &arena{}
	c.top = s.top.clone(a)
	c.warps = cloneAll(s.warps, a)
	// The issue and writeback stages and the units are read through the
	// fops (frame.data) into the sampler's own vals and raw (flat): their
	// instances are only layouts, shared.
	c.ctas = make([]tinst[pipeline.BarrierCTA], len(s.ctas))
	c.bars = make([][pipeline.NumBarriers]tinst[pipeline.BarrierRegs], len(s.bars))
	for k := range s.bars {
		c.ctas[k] = s.ctas[k].clone(a)
		for b := range s.bars[k] {
			c.bars[k][b] = s.bars[k][b].clone(a)
		}
	}
	c.warpSeen = make([]warpKey, len(s.warpSeen))
	c.ctaLin = make([]int64, len(s.ctaLin))
	for k := range c.ctaLin {
		c.ctaLin[k] = -1
	}
	c.ctaSeen = make([]pipeline.CTAInfo, len(s.ctaSeen))
	c.flat()
	return &c
}

func (s *sampler) setTime(ts uint64) {
	switch {
	case s.mute:
	case s.ch != nil:
		s.ch.SetTime(ts)
	default:
		s.w.SetTime(ts)
	}
}

// uint writes a value change (and the name of an enum's value to its
// string companion).
func (s *sampler) uint(id vcd.ID, v uint64) {
	if s.mute {
		return
	}
	var c *companion
	if int(id) < len(s.t.comp) && s.t.comp[id].named != nil {
		c = &s.t.comp[id]
	}
	s.value(id, c, v)
}

// value writes value v of variable id, or of the enum c and its string
// companion.
func (s *sampler) value(id vcd.ID, c *companion, v uint64) {
	switch {
	case s.ch != nil && c != nil:
		s.ch.SetNamed(c.named, v)
	case s.ch != nil:
		s.ch.SetUint(id, v)
	case c != nil:
		s.w.SetNamed(c.named, v)
	default:
		s.w.SetUint(id, v)
	}
}

// words writes the change of a variable wider than 64 bits.
func (s *sampler) words(id vcd.ID, w []uint64) {
	switch {
	case s.mute:
	case s.ch != nil:
		s.ch.SetWords(id, w)
	default:
		s.w.SetWords(id, w)
	}
}

// sample writes the fields of v that changed since the last sample (all
// of them before the $dumpvars section: the writer keeps the last value
// set). The struct's memory is compared word by word first, so an
// unchanged struct costs a load and compare per word.
func (x *tinst[T]) sample(s *sampler, v *T) {
	if !x.any {
		return
	}
	p := x.bt.ptr(v)
	if !s.started {
		for k := range x.wd {
			x.prev[k] = loadWord(unsafe.Add(p, x.wd[k].off), x.wd[k].n)
		}
		for i := range x.b.fields {
			x.field(s, p, i, true)
		}
		return
	}
	done := -1 // the last field sampled
	for k := range x.wd {
		d := &x.wd[k]
		w := loadWord(unsafe.Add(p, d.off), d.n)
		if w == x.prev[k] {
			continue
		}
		x.prev[k] = w
		for i := max(d.f0, done+1); i <= d.f1; i++ {
			x.field(s, p, i, false)
		}
		done = max(done, d.f1)
	}
}

// field writes field i of the struct at p if it changed (or if all).
func (x *inst) field(s *sampler, p unsafe.Pointer, i int, all bool) {
	id := x.ids[i]
	if id < 0 {
		return
	}
	f := &x.b.fields[i]
	fp := unsafe.Add(p, f.off)
	w := x.cur[f.word : f.word+f.nw]
	if f.stride == 0 && !f.bits {
		// A scalar: compare its value.
		v := load(fp, f.leaf) & mask(f.ew)
		if !all && v == w[0] {
			return
		}
		w[0] = v
		s.uint(id, v)
		return
	}
	// A vector: compare its memory first, whatever its width.
	raw := x.raw[f.raw : f.raw+int(f.size)]
	mem := f.bytesAt(fp)
	if !all && string(mem) == string(raw) {
		return
	}
	copy(raw, mem)
	f.pack(fp, w)
	if f.nw == 1 {
		s.uint(id, w[0])
	} else {
		s.words(id, w)
	}
}

// put writes field i of a scalar-only instance whose value changed.
func (x *inst) put(s *sampler, i int, v uint64) {
	if id := x.ids[i]; id >= 0 {
		x.cur[x.b.fields[i].word] = v
		s.uint(id, v)
	}
}

// first dumps the first cycle of the window: every value, then the
// $dumpvars section at its time.
func (s *sampler) first(f *frame) {
	s.topV = f.top
	s.top.sample(s, &s.topV)
	s.warpSlots(f, false)
	s.body(f, false)
	s.ctaSlots(f)
	s.endCycle(f, false)
	s.setTime(f.cycle * TicksPerCycle)
	s.started = true
}

// process dumps frame f: the end of the cycle before (the issue stage's
// guard masks, trap_unit's outputs), its falling clock edge, and cycle
// f.cycle. With force, every warp slot is compared field by field (a
// sampler primed with a frame does not know the slots' last values).
func (s *sampler) process(f *frame, force bool) {
	s.endCycle(f, force)
	s.fallingEdge(f.prev)
	s.setTime(f.cycle * TicksPerCycle)
	s.topV = f.top
	s.top.sample(s, &s.topV)
	s.warpSlots(f, force)
	s.body(f, force)
	s.ctaSlots(f)
}

// prime makes the sampler's memory of the values written that of the
// end of frame f, writing nothing.
func (s *sampler) prime(f *frame) {
	s.mute = true
	s.process(f, true)
	s.mute = false
}

// endCycle writes what is known only once a cycle's instructions have
// executed: the issue stage's guard masks, trap_unit's outputs.
func (s *sampler) endCycle(f *frame, force bool) {
	s.segment(f, &s.t.lay.end, force)
}

// fallingEdge writes the falling clock edge of cycle c (where reset, low
// in the first cycle, is released).
func (s *sampler) fallingEdge(c uint64) {
	s.setTime(c*TicksPerCycle + TicksPerCycle/2)
	s.topV.Clk, s.topV.RstN = false, true
	s.top.sample(s, &s.topV)
}

// body writes the writeback stages and the units.
func (s *sampler) body(f *frame, force bool) {
	s.segment(f, &s.t.lay.body, force)
}

// segment writes the fops of g that changed: the words of frame.data
// are compared with those last seen first, so an unchanged unit costs a
// compare per word. With force (or before the $dumpvars section) it
// writes every fop of g.
func (s *sampler) segment(f *frame, g *segment, force bool) {
	data, prev := f.data, s.prev
	ops := s.t.fops
	if force || !s.started {
		copy(prev[g.w0:g.w1], data[g.w0:g.w1])
		for i := g.o0; i < g.o1; i++ {
			s.op(&ops[i], f, true)
		}
		return
	}
	wops := s.t.wordOps
	done := int32(-1) // the last fop written
	data, prev = data[g.w0:g.w1], prev[g.w0:g.w1]
	for k0 := 0; k0 < len(data); k0 += 4 {
		// Four words at a time: most of a frame is what it was.
		if k0+4 <= len(data) {
			d, q := data[k0:k0+4], prev[k0:k0+4]
			if (d[0]^q[0])|(d[1]^q[1])|(d[2]^q[2])|(d[3]^q[3]) == 0 {
				continue
			}
		}
		for k := k0; k < min(k0+4, len(data)); k++ {
			w := data[k]
			if w == prev[k] {
				continue
			}
			prev[k] = w
			r := wops[g.w0+k]
			for i := max(r.f0, done+1); i <= r.f1; i++ {
				s.op(&ops[i], f, false)
			}
			done = max(done, r.f1)
		}
	}
}

// op writes fop o of frame f if its value changed (or if all).
func (s *sampler) op(o *fop, f *frame, all bool) {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(f.bytes)), o.off)
	fd := o.f
	if !o.vec {
		v := load(p, o.leaf) & o.mask
		w := &s.vals[o.word]
		if !all && v == *w {
			return
		}
		*w = v
		s.put(o, v)
		return
	}
	raw := s.raw[o.raw : o.raw+int(fd.size)]
	mem := unsafe.Slice((*byte)(p), fd.size)
	if !all && string(mem) == string(raw) {
		return
	}
	copy(raw, mem)
	w := s.vals[o.word : o.word+fd.nw]
	fd.pack(p, w)
	if fd.nw == 1 {
		s.put(o, w[0])
	} else {
		s.words(o.id, w)
	}
}

// put writes the value change of a fop of width <= 64 (and the name of an
// enum's value to its string companion).
func (s *sampler) put(o *fop, v uint64) {
	if !s.mute {
		s.value(o.id, o.comp, v)
	}
}

func (s *sampler) warpSlots(f *frame, force bool) {
	states, pcs, masks, nregs := f.states, f.pcs, f.masks, f.nregs
	esr := f.esr
	seen := s.warpSeen
	stall := s.t.stall
	for i := range s.warps {
		e := esr[i]
		if states[i] == seen[i].state && pcs[i] == seen[i].pc && masks[i] == seen[i].mask && nregs[i] == seen[i].nreg && e == seen[i].esr && s.started && !force {
			continue
		}
		x := &s.warps[i]
		if !x.any {
			continue
		}
		k := warpKey{state: states[i], pc: pcs[i], mask: masks[i], nreg: nregs[i], esr: e}
		if s.started && !force && x.fast {
			// The common case, without the generic loop: write the
			// fields that changed.
			old := seen[i]
			seen[i] = k
			if k.state != old.state {
				if (k.state == pipeline.StateIdle) != (old.state == pipeline.StateIdle) {
					x.put(s, wValid, b2u(k.state != pipeline.StateIdle))
				}
				x.put(s, wState, uint64(k.state))
				if sc, so := stallCode(stall, k.state), stallCode(stall, old.state); sc != so {
					x.put(s, wStall, uint64(sc))
				}
			}
			if k.pc != old.pc {
				x.put(s, wPC, uint64(k.pc))
			}
			if k.mask != old.mask {
				x.put(s, wMask, uint64(k.mask))
			}
			if k.esr != old.esr {
				x.put(s, wESR, uint64(k.esr))
			}
			if k.nreg != old.nreg {
				x.put(s, wNReg, uint64(k.nreg))
			}
			continue
		}
		seen[i] = k
		o := pipeline.WarpRegs{
			Valid:       k.state != pipeline.StateIdle,
			PC:          k.pc,
			ActiveMask:  k.mask,
			State:       uint8(k.state),
			StallReason: stallCode(stall, k.state),
			ESR:         k.esr,
			NReg:        k.nreg,
		}
		x.sample(s, &o)
	}
}

// ctaSlots dumps the CTA slots (the barrier state): slots whose CTA left
// in slot order, then the resident CTAs, new or changed, in the SM's
// order.
func (s *sampler) ctaSlots(f *frame) {
	if len(s.ctas) == 0 {
		return
	}
	for k, l := range s.ctaLin {
		if l >= 0 && l != f.ctaLin[k] {
			s.ctaLin[k] = -1
			s.dumpCTA(k, nil)
		}
	}
	for _, k := range f.ctaOrder {
		if s.ctaLin[k] != f.ctaLin[k] {
			s.ctaLin[k] = f.ctaLin[k]
		} else if s.started && s.ctaSeen[k] == f.ctaInfo[k] {
			continue
		}
		s.dumpCTA(k, &f.ctaInfo[k])
	}
	if !s.started {
		for k, l := range s.ctaLin {
			if l < 0 {
				s.dumpCTA(k, nil)
			}
		}
	}
}

func (s *sampler) dumpCTA(k int, c *pipeline.CTAInfo) {
	var o pipeline.BarrierCTA
	var info pipeline.CTAInfo
	if c != nil {
		info = *c
		o = pipeline.BarrierCTA{Valid: true, Linear: uint32(c.Linear)}
	}
	s.ctaSeen[k] = info
	s.ctas[k].sample(s, &o)
	for b := range s.bars[k] {
		x := &info.Bars[b]
		bo := x.Regs()
		s.bars[k][b].sample(s, &bo)
	}
}

// warpLayoutOK checks that the binder laid pipeline.WarpRegs out as the w*
// constants say (one word per field, in order).
func warpLayoutOK(b *binder) bool {
	want := []string{wValid: "valid_q", wPC: "pc_q", wMask: "active_mask_q", wState: "state_q", wStall: "stall_reason_q", wESR: "esr_q", wNReg: "nreg_q"}
	if len(b.fields) != wFields {
		return false
	}
	for i, f := range b.fields {
		if f.sig.Name != want[i] || f.nw != 1 || f.stride != 0 || f.bits {
			return false
		}
	}
	return true
}
