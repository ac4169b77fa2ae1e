package memsys

import (
	"fmt"

	"github.com/smsim/smsim/rtl"
)

// L1Params are the L1 data cache's parameters.
type L1Params struct {
	// SizeBytes is the data capacity: the unified L1/shared storage less
	// the shared-memory carveout (l1.unified_bytes - l1.smem_carveout_bytes),
	// a positive multiple of LineBytes*Assoc.
	SizeBytes int
	// Assoc is the associativity.
	Assoc int
	// MSHRs is the number of miss-status holding registers: lines with
	// sectors outstanding at the L2.
	MSHRs int
	// MSHRTargets is the number of requests one MSHR can hold (the first
	// miss and the requests merged into it).
	MSHRTargets int
	// HitLatency is the cycles from the L1 taking a request to a hit's
	// response on its output (>= 1).
	HitLatency int
	// InQueue is the depth of the request queue in front of the tag
	// stage; MissQueue the depth of the queue of requests toward the L2.
	InQueue, MissQueue int
}

// Check reports a parameter outside its range.
func (p L1Params) Check() error {
	switch {
	case p.Assoc < 1:
		return fmt.Errorf("memsys: L1 Assoc %d < 1", p.Assoc)
	case p.SizeBytes < LineBytes*p.Assoc || p.SizeBytes%(LineBytes*p.Assoc) != 0:
		return fmt.Errorf("memsys: L1 SizeBytes %d is not a positive multiple of %d (line x assoc)", p.SizeBytes, LineBytes*p.Assoc)
	case p.MSHRs < 1:
		return fmt.Errorf("memsys: L1 MSHRs %d < 1", p.MSHRs)
	case p.MSHRTargets < 1:
		return fmt.Errorf("memsys: L1 MSHRTargets %d < 1", p.MSHRTargets)
	case p.HitLatency < 1:
		return fmt.Errorf("memsys: L1 HitLatency %d < 1", p.HitLatency)
	case p.InQueue < 1 || p.MissQueue < 1:
		return fmt.Errorf("memsys: L1 queues %d, %d: want at least 1", p.InQueue, p.MissQueue)
	}
	return nil
}

// L1Stats are the L1's counters, under Nsight Compute's l1tex__ names
// where one exists.
type L1Stats struct {
	// Requests and sectors by kind: l1tex__t_requests_pipe_lsu_mem_global
	// _op_ld/_op_st and l1tex__t_sectors_... (.sum). A request here is a
	// line request; the warp-instruction count is the coalescer's.
	LoadRequests, LoadSectors   uint64
	StoreRequests, StoreSectors uint64
	AtomicRequests              uint64
	// SectorHits and SectorMisses of loads (l1tex__t_sector_hit_rate.pct).
	SectorHits, SectorMisses uint64
	// Merged counts load requests that found their line's MSHR and sent
	// nothing new to the L2 for some sectors; MissRequests the requests
	// sent to the L2 for loads.
	Merged, MissRequests uint64
	// StallMSHR, StallTargets and StallMissQueue count cycles the tag stage
	// waited for a free MSHR, a free target slot, or room toward the L2.
	StallMSHR, StallTargets, StallMissQueue uint64
}

// HitRate is l1tex__t_sector_hit_rate.pct.
func (s L1Stats) HitRate() float64 {
	if s.SectorHits+s.SectorMisses == 0 {
		return 0
	}
	return 100 * float64(s.SectorHits) / float64(s.SectorHits+s.SectorMisses)
}

type target struct {
	id      uint32
	sectors uint8
}

type mshr struct {
	valid   bool
	addr    uint64
	pending uint8 // sectors requested from the L2, not yet filled
	targets []target
}

// L1 is the L1 data cache: sectored (128-byte lines of four 32-byte
// sectors, filled sector by sector), set-associative with LRU replacement,
// with MSHRs that merge misses to the same line. Global stores write
// through to the L2 and do not allocate (a store updates the sectors it
// finds; a line it misses is not brought in); local stores write through
// and allocate, their sectors valid (Req.Local); atomics go to the L2 and
// invalidate the sectors they touch. A Go timing model (no RTL): Push and
// Fill during a cycle, Step at its end; the tag stage handles one request
// per cycle.
type L1 struct {
	p      L1Params
	nsets  int
	ways   []way            // nsets*Assoc
	where  map[uint64]int32 // line -> index in ways, for the lines present
	mshr   []mshr
	mshrOf map[uint64]int32 // line -> index in mshr, for the valid ones
	free   []int32          // free MSHR indices, lowest on top
	in     fifo[Req]
	l2Port
	stats L1Stats
}

// l2Port is a cache's side toward the SM's responses and the L2: the
// responses due to the SM, the requests waiting for the L2, and the
// current cycle.
type l2Port struct {
	toL2 fifo[Req]
	out  respQueue
	now  uint64
}

// Resp returns the response due this cycle, if any, without taking it.
func (c *l2Port) Resp() (Resp, bool) { return c.out.due(c.now) }

// PopResp takes the response Resp returned.
func (c *l2Port) PopResp() { c.out.pop() }

// L2Req returns the request at the head of the queue toward the L2.
func (c *l2Port) L2Req() (Req, bool) {
	if c.toL2.len() == 0 {
		return Req{}, false
	}
	return *c.toL2.peek(), true
}

// PopL2Req removes the head of the queue toward the L2 (the L2 took it).
func (c *l2Port) PopL2Req() { c.toL2.pop() }

// NewL1 checks p and returns an empty cache at cycle 0.
func NewL1(p L1Params) (*L1, error) { return rtl.Build(p, newL1) }

func newL1(p L1Params) *L1 {
	n := p.SizeBytes / (LineBytes * p.Assoc)
	c := &L1{
		p: p, nsets: n, ways: make([]way, n*p.Assoc), where: map[uint64]int32{},
		mshr: make([]mshr, p.MSHRs), mshrOf: map[uint64]int32{},
	}
	for i := range c.mshr {
		c.mshr[i].targets = make([]target, 0, p.MSHRTargets)
	}
	for i := p.MSHRs - 1; i >= 0; i-- {
		c.free = append(c.free, int32(i))
	}
	return c
}

// Params returns the parameters.
func (c *L1) Params() L1Params { return c.p }

// Ready reports whether a request may be pushed this cycle.
func (c *L1) Ready() bool { return c.in.len() < c.p.InQueue }

// Push queues a line request (from the coalescer) at the current cycle.
func (c *L1) Push(r Req) { c.in.push(r) }

// Fill takes a response from the L2: a load's sectors fill the line (if
// it is still allocated) and answer the requests waiting in its MSHR; a
// store's or atomic's response passes through to the SM.
func (c *L1) Fill(r Resp) {
	if r.Op != OpLoad {
		c.out.push(c.now+1, r)
		return
	}
	if w := c.lookup(r.Addr); w != nil {
		w.valid |= r.Sectors
	}
	if i, ok := c.mshrOf[r.Addr]; ok {
		m := &c.mshr[i]
		m.pending &^= r.Sectors
		keep := m.targets[:0]
		for _, t := range m.targets {
			if t.sectors&m.pending != 0 {
				keep = append(keep, t)
				continue
			}
			c.out.push(c.now+1, Resp{ID: t.id, Op: OpLoad, Addr: m.addr, Sectors: t.sectors})
		}
		m.targets = keep
		if m.pending == 0 {
			m.valid = false
			delete(c.mshrOf, r.Addr)
			c.free = append(c.free, i)
		}
	}
}

func (c *L1) set(line uint64) []way {
	i := int((line / LineBytes) % uint64(c.nsets))
	return c.ways[i*c.p.Assoc : (i+1)*c.p.Assoc]
}

func (c *L1) lookup(line uint64) *way {
	if i, ok := c.where[line]; ok {
		return &c.ways[i]
	}
	return nil
}

// allocate puts line in the first free way of its set, or in place of the
// least recently used one (the lowest way on a tie).
func (c *L1) allocate(line uint64) *way {
	s := c.set(line)
	v := victim(s)
	w := &s[v]
	if w.used {
		delete(c.where, w.tag)
	}
	*w = way{tag: line, used: true, lru: c.now}
	set := int((line / LineBytes) % uint64(c.nsets))
	c.where[line] = int32(set*c.p.Assoc + v)
	return w
}

// findMSHR returns the MSHR of line, or else a free one (nil if none).
func (c *L1) findMSHR(line uint64) (m, free *mshr) {
	if i, ok := c.mshrOf[line]; ok {
		return &c.mshr[i], nil
	}
	if n := len(c.free); n > 0 {
		return nil, &c.mshr[c.free[n-1]]
	}
	return nil, nil
}

// Step ends the cycle: the tag stage handles the request at the head of
// the queue (if it can: a miss needs an MSHR or a target slot and room
// toward the L2; otherwise it waits and the queue behind it too).
func (c *L1) Step() {
	if c.in.len() > 0 && c.access(*c.in.peek()) {
		c.in.pop()
	}
	c.now++
}

// access performs r in the tag stage; false means it must wait.
func (c *L1) access(r Req) bool {
	w := c.lookup(r.Addr)
	switch r.Op {
	case OpStore:
		if c.toL2.len() >= c.p.MissQueue {
			c.stats.StallMissQueue++
			return false
		}
		c.stats.StoreRequests++
		c.stats.StoreSectors += uint64(Sectors(r.Sectors))
		switch {
		case r.Local:
			// Local memory (stack, spills): the line is allocated and the
			// written sectors become valid, so the load after the store
			// hits; the store still goes on to the L2 (timed as write
			// through: the L2 sees every local store).
			if w == nil {
				if m, _ := c.findMSHR(r.Addr); m != nil {
					break // a fill is on its way: the line is there when it lands
				}
				w = c.allocate(r.Addr)
			}
			w.valid |= r.Sectors
			w.lru = c.now
		case w != nil:
			w.lru = c.now // the sectors present are updated; none is added
		}
		c.toL2.push(r)
		return true
	case OpAtomic:
		if c.toL2.len() >= c.p.MissQueue {
			c.stats.StallMissQueue++
			return false
		}
		c.stats.AtomicRequests++
		if w != nil {
			w.valid &^= r.Sectors
		}
		c.toL2.push(r)
		return true
	}
	bypass := r.Cache == CacheGlobal || r.Cache == CacheVolatile
	if r.Cache == CacheVolatile && w != nil {
		w.valid &^= r.Sectors // fetched again from the L2
	}
	var have uint8
	if w != nil && !bypass {
		have = w.valid
	}
	if r.Sectors&^have == 0 {
		c.countLoad(r, have)
		c.touch(w, r.Cache)
		c.out.push(c.now+uint64(c.p.HitLatency), Resp{ID: r.ID, Op: OpLoad, Addr: r.Addr, Sectors: r.Sectors})
		return true
	}
	m, free := c.findMSHR(r.Addr)
	if m != nil {
		if len(m.targets) >= c.p.MSHRTargets {
			c.stats.StallTargets++
			return false
		}
		need := r.Sectors &^ have &^ m.pending
		if need != 0 && c.toL2.len() >= c.p.MissQueue {
			c.stats.StallMissQueue++
			return false
		}
		c.countLoad(r, have)
		if need != 0 {
			m.pending |= need
			c.sendLoad(r.Addr, need)
		}
		if need != r.Sectors&^have {
			c.stats.Merged++
		}
		m.targets = append(m.targets, target{id: r.ID, sectors: r.Sectors})
		return true
	}
	if free == nil {
		c.stats.StallMSHR++
		return false
	}
	if c.toL2.len() >= c.p.MissQueue {
		c.stats.StallMissQueue++
		return false
	}
	c.countLoad(r, have)
	need := r.Sectors &^ have
	switch {
	case w != nil && !bypass:
		c.touch(w, r.Cache)
	case w == nil && !bypass && r.Cache != CacheNoAllocate:
		w = c.allocate(r.Addr)
		if r.Cache == CacheStream {
			w.lru = 0 // first in line for eviction
		}
	}
	*free = mshr{valid: true, addr: r.Addr, pending: need, targets: append(free.targets[:0], target{id: r.ID, sectors: r.Sectors})}
	c.mshrOf[r.Addr] = c.free[len(c.free)-1]
	c.free = c.free[:len(c.free)-1]
	c.sendLoad(r.Addr, need)
	return true
}

// touch updates w's place in the eviction order for a load hitting it
// with cache operator op.
func (c *L1) touch(w *way, op CacheOp) {
	if w != nil && op != CacheStream && op != CacheUnchanged {
		w.lru = c.now
	}
}

func (c *L1) countLoad(r Req, have uint8) {
	n := uint64(Sectors(r.Sectors))
	h := uint64(Sectors(r.Sectors & have))
	c.stats.LoadRequests++
	c.stats.LoadSectors += n
	c.stats.SectorHits += h
	c.stats.SectorMisses += n - h
}

func (c *L1) sendLoad(line uint64, sectors uint8) {
	c.stats.MissRequests++
	c.toL2.push(Req{Op: OpLoad, Addr: line, Sectors: sectors})
}

// Present returns the valid sectors of line in the cache (0: absent).
func (c *L1) Present(line uint64) uint8 {
	if w := c.lookup(LineAddr(line)); w != nil {
		return w.valid
	}
	return 0
}

// OutstandingMSHRs is the number of MSHRs in use.
func (c *L1) OutstandingMSHRs() int { return len(c.mshrOf) }

// Idle reports whether nothing is queued or outstanding.
func (c *L1) Idle() bool {
	return c.in.len() == 0 && c.toL2.len() == 0 && c.out.len() == 0 && c.OutstandingMSHRs() == 0
}

// Stats returns the counters.
func (c *L1) Stats() L1Stats { return c.stats }

// Now is the current cycle.
func (c *L1) Now() uint64 { return c.now }
