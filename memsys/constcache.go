package memsys

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/rtl"
)

// ConstParams are the constant cache's parameters.
type ConstParams struct {
	// SizeBytes, LineBytes and Assoc are the geometry: SizeBytes a
	// positive multiple of LineBytes*Assoc; LineBytes a power of two in
	// 32..128 (a constant line is fetched as the L2 sectors it covers).
	SizeBytes, LineBytes, Assoc int
	// HitLatency is the cycles from an access's lookup to its data.
	HitLatency int
	// MSHRs is the number of lines that may be outstanding at the L2.
	MSHRs int
	// Queue is the number of warp requests that may wait.
	Queue int
}

// Check reports a parameter outside its range.
func (p ConstParams) Check() error {
	switch {
	case p.LineBytes < SectorBytes || p.LineBytes > LineBytes || p.LineBytes&(p.LineBytes-1) != 0:
		return fmt.Errorf("memsys: constant LineBytes %d is not a power of two in %d..%d", p.LineBytes, SectorBytes, LineBytes)
	case p.Assoc < 1:
		return fmt.Errorf("memsys: constant Assoc %d < 1", p.Assoc)
	case p.SizeBytes < p.LineBytes*p.Assoc || p.SizeBytes%(p.LineBytes*p.Assoc) != 0:
		return fmt.Errorf("memsys: constant SizeBytes %d is not a positive multiple of %d (line x assoc)", p.SizeBytes, p.LineBytes*p.Assoc)
	case p.HitLatency < 1:
		return fmt.Errorf("memsys: constant HitLatency %d < 1", p.HitLatency)
	case p.MSHRs < 1 || p.Queue < 1:
		return fmt.Errorf("memsys: constant MSHRs %d, Queue %d: want at least 1", p.MSHRs, p.Queue)
	}
	return nil
}

// ConstStats are the constant cache's counters.
type ConstStats struct {
	// Requests are warp requests; Accesses the distinct addresses they
	// were split into (one lookup each, one per cycle).
	Requests, Accesses uint64
	Hits, Misses       uint64
}

type constReq struct {
	id    uint32
	addrs [WarpSize]uint64 // distinct addresses, in lane order
	n     int
	next  int    // next address to look up
	due   uint64 // latest data time of the hits so far
	wait  int    // misses outstanding
}

type constMiss struct {
	line uint64
	reqs []*constReq
}

// ConstCache is the constant cache that constant-bank and kernel-parameter
// loads go through. A warp request is split into one access per distinct
// address ("a request is split into as many separate requests as there are
// different memory addresses in the initial request", CUDA C++ Programming
// Guide, constant memory), looked up one per cycle; misses fetch the line
// from the L2. The warp request is answered once all its accesses have
// their data. A Go timing model, like the L1.
type ConstCache struct {
	p     ConstParams
	nsets int
	ways  []way
	q     fifo[*constReq]
	miss  []constMiss
	wait  []*constReq // fully looked-up requests waiting for misses
	l2Port
	stats ConstStats
}

// NewConstCache checks p and returns an empty cache at cycle 0.
func NewConstCache(p ConstParams) (*ConstCache, error) { return rtl.Build(p, newConstCache) }

func newConstCache(p ConstParams) *ConstCache {
	n := p.SizeBytes / (p.LineBytes * p.Assoc)
	return &ConstCache{p: p, nsets: n, ways: make([]way, n*p.Assoc)}
}

// Ready reports whether a warp request may be pushed this cycle.
func (c *ConstCache) Ready() bool { return c.q.len() < c.p.Queue }

// Push queues a warp request (the addresses of its active lanes) with the
// requester's tag id.
func (c *ConstCache) Push(id uint32, r *WarpReq) {
	cr := &constReq{id: id}
	for m := r.Mask; m != 0; m &= m - 1 {
		a := r.Addr[bits.TrailingZeros32(m)]
		dup := false
		for i := 0; i < cr.n; i++ {
			if cr.addrs[i] == a {
				dup = true
				break
			}
		}
		if !dup {
			cr.addrs[cr.n] = a
			cr.n++
		}
	}
	c.stats.Requests++
	c.q.push(cr)
}

func (c *ConstCache) lineOf(a uint64) uint64 { return a &^ uint64(c.p.LineBytes-1) }

func (c *ConstCache) set(line uint64) []way {
	i := int((line / uint64(c.p.LineBytes)) % uint64(c.nsets))
	return c.ways[i*c.p.Assoc : (i+1)*c.p.Assoc]
}

// Fill takes the L2's response to a line fetch (matched by address and
// sectors) and answers the warp requests it completes.
func (c *ConstCache) Fill(r Resp) {
	for i := range c.miss {
		m := &c.miss[i]
		if LineAddr(m.line) != r.Addr || constSectors(m.line, c.p.LineBytes)&^r.Sectors != 0 {
			continue
		}
		s := c.set(m.line)
		v := &s[victim(s)]
		*v = way{tag: m.line, used: true, valid: 1, lru: c.now}
		for _, cr := range m.reqs {
			cr.wait--
			cr.due = max(cr.due, c.now+1)
		}
		c.miss = append(c.miss[:i], c.miss[i+1:]...)
		break
	}
	keep := c.wait[:0]
	for _, cr := range c.wait {
		if cr.wait == 0 {
			c.out.push(cr.due, Resp{ID: cr.id, Op: OpLoad})
			continue
		}
		keep = append(keep, cr)
	}
	c.wait = keep
}

// constSectors is the sector mask of the L2 line covering constant line l.
func constSectors(l uint64, lineBytes int) uint8 {
	n := max(lineBytes/SectorBytes, 1)
	return uint8((1<<uint(n) - 1) << SectorOf(l))
}

// Step ends the cycle: one access of the head warp request is looked up.
func (c *ConstCache) Step() {
	if c.q.len() > 0 {
		cr := *c.q.peek()
		if c.lookup(cr) {
			cr.next++
			if cr.next == cr.n {
				c.q.pop()
				if cr.wait == 0 {
					c.out.push(max(cr.due, c.now+1), Resp{ID: cr.id, Op: OpLoad})
				} else {
					c.wait = append(c.wait, cr)
				}
			}
		}
	}
	c.now++
}

// lookup performs cr's next access; false means it must wait (no MSHR).
func (c *ConstCache) lookup(cr *constReq) bool {
	line := c.lineOf(cr.addrs[cr.next])
	s := c.set(line)
	for i := range s {
		if s[i].used && s[i].tag == line {
			s[i].lru = c.now
			c.stats.Accesses++
			c.stats.Hits++
			cr.due = max(cr.due, c.now+uint64(c.p.HitLatency))
			return true
		}
	}
	for i := range c.miss {
		if c.miss[i].line == line {
			c.miss[i].reqs = append(c.miss[i].reqs, cr)
			cr.wait++
			c.stats.Accesses++
			c.stats.Misses++
			return true
		}
	}
	if len(c.miss) >= c.p.MSHRs {
		return false
	}
	c.miss = append(c.miss, constMiss{line: line, reqs: []*constReq{cr}})
	cr.wait++
	cr.due = max(cr.due, c.now+uint64(c.p.HitLatency))
	c.stats.Accesses++
	c.stats.Misses++
	c.toL2.push(Req{ID: constTag, Op: OpLoad, Addr: LineAddr(line), Sectors: constSectors(line, c.p.LineBytes)})
	return true
}

// Idle reports whether nothing is queued or outstanding.
func (c *ConstCache) Idle() bool {
	return c.q.len() == 0 && len(c.miss) == 0 && len(c.wait) == 0 && c.toL2.len() == 0 && c.out.len() == 0
}

// Stats returns the counters.
func (c *ConstCache) Stats() ConstStats { return c.stats }
