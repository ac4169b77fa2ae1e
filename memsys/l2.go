package memsys

import (
	"fmt"

	"github.com/smsim/smsim/rtl"
)

// MaxPartitions bounds L2Params.Partitions.
const MaxPartitions = 16

// L2Params are the L2 slice's parameters.
type L2Params struct {
	// SliceBytes is the capacity this SM's accesses can occupy
	// (l2.bytes / l2.capacity_sms), a multiple of LineBytes*Assoc.
	SliceBytes uint64
	// Assoc is the associativity (ways per set).
	Assoc int
	// Partitions is the number of L2 partitions (2 on H100); Home is the
	// one next to this SM. A line lives in Partition(addr).
	Partitions, Home int
	// LatNear and LatFar are the cycles from the start of a hit's service
	// to its response leaving the slice, for lines in the home partition
	// and in another.
	LatNear, LatFar int
	// BW is this SM's share of the L2 bandwidth; every request's sectors
	// pass through it.
	BW Rate
	// Queue is the number of requests that may wait for bandwidth (the
	// L1's miss port stalls while it is full).
	Queue int
	// AtomicLatency is the extra cycles of the read-modify-write of an
	// atomic at the L2; each further lane operation of the same request
	// adds one cycle.
	AtomicLatency int
	// DRAM is the memory behind the slice.
	DRAM DRAMParams
}

// Check reports a parameter outside its range.
func (p L2Params) Check() error {
	switch {
	case p.Assoc < 1:
		return fmt.Errorf("memsys: L2 Assoc %d < 1", p.Assoc)
	case p.SliceBytes < uint64(LineBytes*p.Assoc) || p.SliceBytes%uint64(LineBytes*p.Assoc) != 0:
		return fmt.Errorf("memsys: L2 SliceBytes %d is not a positive multiple of %d (line x assoc)", p.SliceBytes, LineBytes*p.Assoc)
	case p.Partitions < 1 || p.Partitions > MaxPartitions:
		return fmt.Errorf("memsys: L2 Partitions %d outside 1..%d", p.Partitions, MaxPartitions)
	case p.Home < 0 || p.Home >= p.Partitions:
		return fmt.Errorf("memsys: L2 Home %d outside 0..%d", p.Home, p.Partitions-1)
	case p.LatNear < 1 || p.LatFar < p.LatNear:
		return fmt.Errorf("memsys: L2 latencies near %d far %d: want 1 <= near <= far", p.LatNear, p.LatFar)
	case p.BW.Num == 0 || p.BW.Den == 0:
		return fmt.Errorf("memsys: L2 bandwidth is zero")
	case p.Queue < 1:
		return fmt.Errorf("memsys: L2 Queue %d < 1", p.Queue)
	case p.AtomicLatency < 0:
		return fmt.Errorf("memsys: L2 AtomicLatency %d < 0", p.AtomicLatency)
	}
	return p.DRAM.Check()
}

// Partition is the L2 partition holding the line of byte address a: a
// hash of the line index, so that consecutive lines spread over the
// partitions (the hardware's hash is not published; any even spread gives
// the same average).
func (p L2Params) Partition(a uint64) int {
	if p.Partitions <= 1 {
		return 0
	}
	h := a / LineBytes
	h ^= h >> 5
	h ^= h >> 11
	h ^= h >> 17
	return int(h % uint64(p.Partitions))
}

// Near reports whether a's line is in the home partition.
func (p L2Params) Near(a uint64) bool { return p.Partition(a) == p.Home }

// L2Stats are the slice's counters, under Nsight Compute's lts__ names
// where one exists.
type L2Stats struct {
	// SectorsRead, SectorsWritten, SectorsAtomic: lts__t_sectors_op_read,
	// _op_write, _op_atom (.sum).
	SectorsRead, SectorsWritten, SectorsAtomic uint64
	// SectorHits and SectorMisses over reads and atomics
	// (lts__t_sector_hit_rate.pct = hits / (hits+misses)).
	SectorHits, SectorMisses uint64
	// Requests by kind; WriteBacks of dirty lines to DRAM.
	Reads, Writes, Atomics, WriteBacks uint64
	// StallCycles counts cycles the queue head (a miss or an allocation)
	// waited for a DRAM slot.
	StallCycles uint64
}

// HitRate is lts__t_sector_hit_rate.pct.
func (s L2Stats) HitRate() float64 {
	if s.SectorHits+s.SectorMisses == 0 {
		return 0
	}
	return 100 * float64(s.SectorHits) / float64(s.SectorHits+s.SectorMisses)
}

type way struct {
	tag   uint64 // line address
	valid uint8  // sectors present
	dirty uint8  // sectors written since the fill
	used  bool
	lru   uint64 // cycle of the last access
}

// victim is the way of set s to fill: the first free one, or else the
// least recently used (the lowest on a tie).
func victim(s []way) int {
	v := 0
	for i := range s {
		if !s[i].used {
			return i
		}
		if s[i].lru < s[v].lru {
			v = i
		}
	}
	return v
}

type l2wait struct {
	r   Req
	due uint64 // earliest response cycle (the hit latency from service)
}

type l2miss struct {
	pending uint8 // sectors requested from DRAM
	waiters []l2wait
}

// L2 is this SM's slice of the L2: a sectored, set-associative, write-back
// cache with write-allocate without fetch, LRU replacement, a bandwidth
// share and a DRAM behind it. Atomics resolve here. A Go timing model (no
// RTL): Push and Pop during a cycle, Step at its end.
type L2 struct {
	p     L2Params
	nsets uint64
	sets  [][]way // allocated on first use
	bw    server
	q     fifo[Req]
	miss  map[uint64]*l2miss
	out   respQueue
	dram  *DRAM
	now   uint64
	stats L2Stats
}

// NewL2 checks p and returns an empty slice at cycle 0.
func NewL2(p L2Params) (*L2, error) { return rtl.Build(p, newL2) }

func newL2(p L2Params) *L2 {
	n := p.SliceBytes / uint64(LineBytes*p.Assoc)
	return &L2{p: p, nsets: n, sets: make([][]way, n), bw: newServer(p.BW), miss: map[uint64]*l2miss{}, dram: newDRAM(p.DRAM)}
}

// Params returns the parameters.
func (c *L2) Params() L2Params { return c.p }

// Ready reports whether a request may be pushed this cycle.
func (c *L2) Ready() bool { return c.q.len() < c.p.Queue }

// Push queues r at the current cycle.
func (c *L2) Push(r Req) { c.q.push(r) }

// Pop returns the response due this cycle, if any (one per cycle: the
// return path carries one line's sectors a cycle).
func (c *L2) Pop() (Resp, bool) {
	r, ok := c.out.due(c.now)
	if ok {
		c.out.pop()
	}
	return r, ok
}

func (c *L2) set(line uint64) []way {
	i := (line / LineBytes) % c.nsets
	if c.sets[i] == nil {
		c.sets[i] = make([]way, c.p.Assoc)
	}
	return c.sets[i]
}

// lookup returns the way holding line, or nil.
func (c *L2) lookup(line uint64) *way {
	s := c.set(line)
	for i := range s {
		if s[i].used && s[i].tag == line {
			return &s[i]
		}
	}
	return nil
}

// allocate returns a way for line, evicting the least recently used line
// (its dirty sectors are written back to DRAM).
func (c *L2) allocate(line uint64) *way {
	s := c.set(line)
	v := &s[victim(s)]
	if v.used && v.dirty != 0 {
		c.stats.WriteBacks++
		c.dram.Push(Req{Op: OpStore, Addr: v.tag, Sectors: v.dirty})
	}
	*v = way{tag: line, used: true, lru: c.now}
	return v
}

func (c *L2) latency(line uint64) uint64 {
	if c.p.Near(line) {
		return uint64(c.p.LatNear)
	}
	return uint64(c.p.LatFar)
}

func (c *L2) atomicExtra(r Req) uint64 {
	return uint64(c.p.AtomicLatency) + uint64(max(int(r.Lanes), 1)-1)
}

// Step ends the cycle: DRAM fills complete waiting misses, then queued
// requests are served in order as the bandwidth allows.
func (c *L2) Step() {
	// 1. Fills from DRAM.
	for {
		f, ok := c.dram.Pop()
		if !ok {
			break
		}
		w := c.lookup(f.Addr)
		if w == nil {
			w = c.allocate(f.Addr)
		}
		w.valid |= f.Sectors
		m := c.miss[f.Addr]
		if m == nil {
			continue
		}
		m.pending &^= f.Sectors
		keep := m.waiters[:0]
		for _, x := range m.waiters {
			if x.r.Sectors&m.pending != 0 {
				keep = append(keep, x)
				continue
			}
			at := max(x.due, c.now+1)
			if x.r.Op == OpAtomic {
				at += c.atomicExtra(x.r)
				w.dirty |= x.r.Sectors
			}
			c.out.push(at, Resp{ID: x.r.ID, Op: x.r.Op, Addr: x.r.Addr, Sectors: x.r.Sectors})
		}
		m.waiters = keep
		if m.pending == 0 {
			delete(c.miss, f.Addr)
		}
	}
	// 2. Service.
	c.bw.refill()
	for c.q.len() > 0 {
		r := *c.q.peek()
		w := c.lookup(r.Addr)
		var have uint8
		if w != nil {
			have = w.valid
		}
		m := c.miss[r.Addr]
		var inflight uint8
		if m != nil {
			inflight = m.pending
		}
		need := r.Sectors &^ have &^ inflight
		// A miss needs a DRAM slot, and so does an allocation (its victim
		// may be dirty): while the DRAM queue is full they wait, which
		// bounds the write-backs a store stream can queue.
		if (r.Op != OpStore && need != 0 || w == nil) && !c.dram.Ready() {
			c.stats.StallCycles++
			break
		}
		if !c.bw.take(Sectors(r.Sectors) * SectorBytes) {
			break
		}
		c.q.pop()
		c.serve(r, w, m, need)
	}
	c.dram.Step()
	c.now++
}

// serve performs one request that has its bandwidth.
func (c *L2) serve(r Req, w *way, m *l2miss, need uint8) {
	lat := c.latency(r.Addr)
	resp := Resp{ID: r.ID, Op: r.Op, Addr: r.Addr, Sectors: r.Sectors}
	n := uint64(Sectors(r.Sectors))
	switch r.Op {
	case OpStore:
		c.stats.Writes++
		c.stats.SectorsWritten += n
		if w == nil {
			w = c.allocate(r.Addr)
		}
		w.valid |= r.Sectors
		w.dirty |= r.Sectors
		w.lru = c.now
		c.out.push(c.now+lat, resp)
		return
	case OpAtomic:
		c.stats.Atomics++
		c.stats.SectorsAtomic += n
	default:
		c.stats.Reads++
		c.stats.SectorsRead += n
	}
	var have uint8
	if w != nil {
		have = w.valid
		w.lru = c.now
	}
	hits := uint64(Sectors(r.Sectors & have))
	c.stats.SectorHits += hits
	c.stats.SectorMisses += n - hits
	if r.Sectors&^have == 0 {
		at := c.now + lat
		if r.Op == OpAtomic {
			at += c.atomicExtra(r)
			w.dirty |= r.Sectors
		}
		c.out.push(at, resp)
		return
	}
	if w == nil {
		c.allocate(r.Addr)
	}
	if m == nil {
		m = &l2miss{}
		c.miss[r.Addr] = m
	}
	if need != 0 {
		m.pending |= need
		c.dram.Push(Req{ID: r.ID, Op: OpLoad, Addr: r.Addr, Sectors: need})
	}
	m.waiters = append(m.waiters, l2wait{r: r, due: c.now + lat})
}

// Idle reports whether nothing is queued, waiting or in flight.
func (c *L2) Idle() bool {
	return c.q.len() == 0 && len(c.miss) == 0 && c.out.len() == 0 && c.dram.Idle()
}

// Stats returns the slice's counters.
func (c *L2) Stats() L2Stats { return c.stats }

// DRAM returns the DRAM behind the slice (for its counters).
func (c *L2) DRAM() *DRAM { return c.dram }

// Now is the current cycle.
func (c *L2) Now() uint64 { return c.now }
