package memsys

import (
	"fmt"

	"github.com/smsim/smsim/rtl"
)

// DRAMParams are the DRAM model's parameters.
type DRAMParams struct {
	// Latency is the cycles from the start of a read's transfer to its
	// data at the L2 (the device, the controller and the way back).
	Latency int
	// BW is this SM's share of the DRAM bandwidth (dram.bandwidth_gbs over
	// sm.count at clock.mhz).
	BW Rate
	// Queue is the number of requests that may wait for bandwidth; the L2
	// stalls its misses while it is full (write-backs always enter).
	Queue int
}

// Check reports a parameter outside its range.
func (p DRAMParams) Check() error {
	switch {
	case p.Latency < 1:
		return fmt.Errorf("memsys: DRAM Latency %d < 1", p.Latency)
	case p.BW.Num == 0 || p.BW.Den == 0:
		return fmt.Errorf("memsys: DRAM bandwidth is zero")
	case p.Queue < 1:
		return fmt.Errorf("memsys: DRAM Queue %d < 1", p.Queue)
	}
	return nil
}

// DRAMStats are the DRAM's counters.
type DRAMStats struct {
	// BytesRead and BytesWritten are Nsight Compute's dram__bytes_read.sum
	// and dram__bytes_write.sum (for this SM's share).
	BytesRead, BytesWritten uint64
	// Reads and Writes count requests; QueueCycles sums the cycles
	// requests waited for bandwidth; BusyCycles counts cycles with a
	// request waiting or transferring.
	Reads, Writes, QueueCycles, BusyCycles uint64
}

type dramReq struct {
	r  Req
	at uint64 // cycle it entered the queue
}

// DRAM is this SM's view of the HBM: a FIFO of requests served at the SM's
// bandwidth share, each read answered Latency cycles after its transfer
// starts. A Go timing model (no RTL): Push and Pop during a cycle, Step at
// its end.
type DRAM struct {
	p     DRAMParams
	bw    server
	q     fifo[dramReq]
	fly   fifo[timed] // reads in flight, due cycles non-decreasing
	now   uint64
	stats DRAMStats
}

// NewDRAM checks p and returns an idle DRAM at cycle 0.
func NewDRAM(p DRAMParams) (*DRAM, error) { return rtl.Build(p, newDRAM) }

func newDRAM(p DRAMParams) *DRAM { return &DRAM{p: p, bw: newServer(p.BW)} }

// Ready reports whether a read may be pushed this cycle.
func (d *DRAM) Ready() bool { return d.q.len() < d.p.Queue }

// Push queues r (a read of r.Sectors, or a write-back when r.Op is
// OpStore) at the current cycle.
func (d *DRAM) Push(r Req) { d.q.push(dramReq{r: r, at: d.now}) }

// Pop returns a read's response due this cycle, if any.
func (d *DRAM) Pop() (Resp, bool) {
	if d.fly.len() == 0 || d.fly.peek().at > d.now {
		return Resp{}, false
	}
	return d.fly.pop().r, true
}

// Step ends the cycle: requests start their transfer as the bandwidth
// allows, in order.
func (d *DRAM) Step() {
	d.bw.refill()
	if d.q.len() > 0 || d.fly.len() > 0 {
		d.stats.BusyCycles++
	}
	for d.q.len() > 0 {
		h := d.q.peek()
		b := Sectors(h.r.Sectors) * SectorBytes
		if !d.bw.take(b) {
			break
		}
		e := d.q.pop()
		d.stats.QueueCycles += d.now - e.at
		if e.r.Op == OpStore {
			d.stats.Writes++
			d.stats.BytesWritten += uint64(b)
			continue
		}
		d.stats.Reads++
		d.stats.BytesRead += uint64(b)
		d.fly.push(timed{at: d.now + uint64(d.p.Latency), r: Resp{ID: e.r.ID, Op: e.r.Op, Addr: e.r.Addr, Sectors: e.r.Sectors}})
	}
	d.now++
}

// Idle reports whether nothing is queued or in flight.
func (d *DRAM) Idle() bool { return d.q.len() == 0 && d.fly.len() == 0 }

// Queued is the number of requests waiting for bandwidth.
func (d *DRAM) Queued() int { return d.q.len() }

// Stats returns the counters.
func (d *DRAM) Stats() DRAMStats { return d.stats }

// Now is the current cycle.
func (d *DRAM) Now() uint64 { return d.now }
