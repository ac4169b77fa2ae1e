package memsys

import "fmt"

// Rate is a bandwidth in bytes per cycle, held exactly as Num/Den (no
// floating point, so runs are bit-for-bit reproducible).
type Rate struct {
	Num, Den uint64
}

// RateShare is one SM's share of a device-wide bandwidth: gbs GB/s split
// over sms SMs at mhz MHz, gbs*1e9 / (sms * mhz*1e6) bytes per cycle.
func RateShare(gbs, sms, mhz int) (Rate, error) {
	if gbs < 1 || sms < 1 || mhz < 1 {
		return Rate{}, fmt.Errorf("memsys: bandwidth %d GB/s over %d SMs at %d MHz: all must be positive", gbs, sms, mhz)
	}
	return Rate{Num: uint64(gbs) * 1000, Den: uint64(sms) * uint64(mhz)}, nil
}

// BytesPerCycle is the rate as a float, for reports.
func (r Rate) BytesPerCycle() float64 {
	if r.Den == 0 {
		return 0
	}
	return float64(r.Num) / float64(r.Den)
}

// server is a bandwidth limiter: a credit counter refilled by Num each
// cycle, where a transfer of b bytes costs b*Den. Credit saved while idle is
// capped at one full line (or one cycle's refill, if larger), so a burst
// after an idle stretch cannot exceed the rate by more than one line.
type server struct {
	r      Rate
	credit uint64
	cap    uint64
}

func newServer(r Rate) server {
	c := max(uint64(LineBytes)*r.Den, r.Num)
	return server{r: r, credit: c, cap: c}
}

// refill adds one cycle's credit.
func (s *server) refill() { s.credit = min(s.credit+s.r.Num, s.cap+s.r.Num) }

// refillN adds n cycles' credit, as n calls of refill would.
func (s *server) refillN(n uint64) {
	if n == 0 {
		return
	}
	if add := n * s.r.Num; n != 0 && add/n == s.r.Num && s.credit+add >= s.credit {
		s.credit = min(s.credit+add, s.cap+s.r.Num)
	} else {
		s.credit = s.cap + s.r.Num
	}
}

// take spends the credit for b bytes if there is enough.
func (s *server) take(b int) bool {
	c := uint64(b) * s.r.Den
	if s.credit < c {
		return false
	}
	s.credit -= c
	return true
}

// fifo is a first-in first-out queue.
type fifo[T any] struct {
	buf  []T
	head int
}

func (f *fifo[T]) len() int { return len(f.buf) - f.head }

func (f *fifo[T]) push(v T) { f.buf = append(f.buf, v) }

func (f *fifo[T]) peek() *T { return &f.buf[f.head] }

func (f *fifo[T]) pop() T {
	v := f.buf[f.head]
	var zero T
	f.buf[f.head] = zero
	f.head++
	if f.head > 64 && f.head*2 > len(f.buf) {
		n := copy(f.buf, f.buf[f.head:])
		f.buf = f.buf[:n]
		f.head = 0
	}
	return v
}

// timed is a response due at a cycle.
type timed struct {
	at  uint64
	seq uint64
	r   Resp
}

// respQueue holds responses by due cycle (ties in order of insertion): a
// binary heap.
type respQueue struct {
	h   []timed
	seq uint64
}

func (q *respQueue) len() int { return len(q.h) }

func (q *respQueue) less(i, j int) bool {
	if q.h[i].at != q.h[j].at {
		return q.h[i].at < q.h[j].at
	}
	return q.h[i].seq < q.h[j].seq
}

func (q *respQueue) push(at uint64, r Resp) {
	q.h = append(q.h, timed{at: at, seq: q.seq, r: r})
	q.seq++
	for i := len(q.h) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

// due returns the earliest response if it is due at now.
func (q *respQueue) due(now uint64) (Resp, bool) {
	if len(q.h) == 0 || q.h[0].at > now {
		return Resp{}, false
	}
	return q.h[0].r, true
}

func (q *respQueue) pop() Resp {
	r := q.h[0].r
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && q.less(l, m) {
			m = l
		}
		if l+1 < n && q.less(l+1, m) {
			m = l + 1
		}
		if m == i {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return r
}
