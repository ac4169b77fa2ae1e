package regpool

import (
	"strconv"
	"testing"
)

// testParams is a 4-CTA, 4-port pool with the H100 register file.
func testParams() Params {
	return Params{NumCTAs: 4, NumPorts: 4, AllocGranularity: 8, MaxThreadsPerCTA: 1024, MaxRegsPerThread: 256, Regfile: 65536, RegAllocUnit: 256}
}

// harness drives a Pool cycle by cycle and checks the two-phase discipline
// on every cycle.
type harness struct {
	t    *testing.T
	u    *Pool
	cyc  int    // the cycle the next step evaluates
	kern Inputs // launch shape driven every cycle
	outs []Outputs
}

func newHarness(t *testing.T, threads, nreg int, valid bool) *harness {
	t.Helper()
	return newHarnessWith(t, testParams(), threads, nreg, valid)
}

// newHarnessWith is newHarness for a pool with parameters p.
func newHarnessWith(t *testing.T, p Params, threads, nreg int, valid bool) *harness {
	t.Helper()
	u, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, u: u}
	h.kern.KernThreads, h.kern.KernNReg, h.kern.KernNRegValid = uint16(threads), uint16(nreg), valid
	return h
}

// ev is one event of a cycle; it takes the next free port of its kind.
type ev func(in *Inputs, ports *[3]int)

func arriveEv(c, w int, pc uint32, inc bool, cnt int, full bool) ev {
	return func(in *Inputs, ports *[3]int) {
		i := ports[0]
		ports[0]++
		in.ArriveValid[i], in.ArriveCTA[i], in.ArriveWarp[i] = true, uint16(c), uint8(w)
		in.ArrivePC[i], in.ArriveInc[i], in.ArriveCount[i], in.ArriveFullWarp[i] = pc, inc, uint16(cnt), full
	}
}

func arrive(c, w int, pc uint32, inc bool, cnt int) ev { return arriveEv(c, w, pc, inc, cnt, true) }

// group is the arrival of every warp of warpgroup g (4 warps).
func group(c, g int, pc uint32, inc bool, cnt int) []ev {
	var evs []ev
	for w := g * 4; w < g*4+4; w++ {
		evs = append(evs, arrive(c, w, pc, inc, cnt))
	}
	return evs
}

func exitEv(c, w int) ev {
	return func(in *Inputs, ports *[3]int) {
		i := ports[1]
		ports[1]++
		in.ExitValid[i], in.ExitCTA[i], in.ExitWarp[i] = true, uint16(c), uint8(w)
	}
}

func syncEv(c int, warps uint32) ev {
	return func(in *Inputs, ports *[3]int) {
		i := ports[2]
		ports[2]++
		in.SyncValid[i], in.SyncCTA[i], in.SyncWarps[i] = true, uint16(c), warps
	}
}

func launchEv(c int) ev {
	return func(in *Inputs, _ *[3]int) { in.CTALaunch.Set(c) }
}

func ctaExitEv(c int) ev {
	return func(in *Inputs, _ *[3]int) { in.CTAExit.Set(c) }
}

func (h *harness) inputs(evs ...ev) Inputs {
	in := h.kern
	var ports [3]int
	for _, e := range evs {
		e(&in, &ports)
	}
	return in
}

// step runs one cycle with the events: Eval (twice, checking it is pure
// and leaves Q alone), then Tick (checking Q = D).
func (h *harness) step(evs ...ev) Outputs {
	h.t.Helper()
	in := h.inputs(evs...)
	q0 := h.u.Q()
	o := h.u.Eval(in)
	d := h.u.D()
	if h.u.Q() != q0 {
		h.t.Fatalf("cycle %d: Eval changed Q", h.cyc)
	}
	if o2 := h.u.Eval(in); o2 != o || h.u.D() != d {
		h.t.Fatalf("cycle %d: Eval is not idempotent", h.cyc)
	}
	h.u.Tick()
	if h.u.Q() != d {
		h.t.Fatalf("cycle %d: Q != D after Tick", h.cyc)
	}
	h.checkInvariant()
	h.cyc++
	h.outs = append(h.outs, o)
	return o
}

// steps runs n idle cycles and returns the last outputs.
func (h *harness) steps(n int) Outputs {
	h.t.Helper()
	var o Outputs
	for i := 0; i < n; i++ {
		o = h.step()
	}
	return o
}

// checkInvariant: for every resident CTA, the registers its warps own
// plus the pool's free registers equal its allocation.
func (h *harness) checkInvariant() {
	h.t.Helper()
	if err := invariant(h.u); err != "" {
		h.t.Fatalf("cycle %d: %s", h.cyc, err)
	}
}

func invariant(u *Pool) string {
	q := &u.q
	var rf uint32
	for c := 0; c < u.p.NumCTAs; c++ {
		if !q.Valid.Has(c) {
			continue
		}
		nw := int(q.NWarps[c])
		sum := uint64(q.Free[c])
		for w := 0; w < nw; w++ {
			nreg, _, ok := u.WarpStats(c, w)
			if !ok {
				return "WarpStats failed"
			}
			sum += uint64(nreg) * WarpSize
		}
		if st := u.CTAStats(c); sum != uint64(st.Alloc) || st.Alloc != uint32(nw*WarpSize*st.LaunchReg) {
			return "CTA " + strconv.Itoa(c) + ": warps + free = " + strconv.Itoa(int(sum)) + ", allocation " + strconv.Itoa(int(st.Alloc))
		}
		if st := u.CTAStats(c); st.Used > st.HighWater || st.Used+st.Free > st.Alloc {
			return "CTA " + strconv.Itoa(c) + ": used above high-water or pool"
		}
		rf += u.footprint(nw, int(q.LaunchNReg[c]))
	}
	if rf != q.RFUsed {
		return "rf_used_q " + strconv.Itoa(int(q.RFUsed)) + " != " + strconv.Itoa(int(rf))
	}
	return ""
}

// rel returns the valid release records of o.
func rels(o Outputs) []int {
	var r []int
	for i, v := range o.RelValid {
		if v {
			r = append(r, i)
		}
	}
	return r
}

// wantRel asserts that o holds exactly one release record, at index i, for
// the given warps and counts.
func (h *harness) wantRel(o Outputs, i, cta int, warps uint32, old, new int) {
	h.t.Helper()
	if r := rels(o); len(r) != 1 || r[0] != i {
		h.t.Fatalf("cycle %d: release records %v, want only %d", h.cyc-1, r, i)
	}
	if int(o.RelCTA[i]) != cta || o.RelWarps[i] != warps || int(o.RelOld[i]) != old || int(o.RelNew[i]) != new {
		h.t.Fatalf("cycle %d: release cta %d warps %#x %d->%d, want cta %d warps %#x %d->%d",
			h.cyc-1, o.RelCTA[i], o.RelWarps[i], o.RelOld[i], o.RelNew[i], cta, warps, old, new)
	}
}

func (h *harness) wantNoRel(o Outputs) {
	h.t.Helper()
	if r := rels(o); len(r) != 0 {
		h.t.Fatalf("cycle %d: unexpected release records %v", h.cyc-1, r)
	}
}

// ubs returns the UB reports of o as "cta.warp:KIND" strings.
func ubs(o Outputs) []string {
	var r []string
	for i, v := range o.UBValid {
		if v {
			r = append(r, strconv.Itoa(int(o.UBCTA[i]))+"."+strconv.Itoa(int(o.UBWarp[i]))+":"+o.UBKind[i].String())
		}
	}
	return r
}

func (h *harness) wantUB(o Outputs, want ...string) {
	h.t.Helper()
	got := ubs(o)
	if len(got) != len(want) {
		h.t.Fatalf("cycle %d: UB %v, want %v", h.cyc-1, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			h.t.Fatalf("cycle %d: UB %v, want %v", h.cyc-1, got, want)
		}
	}
}

func (h *harness) wantNoErr(o Outputs) {
	h.t.Helper()
	if o.ErrValid {
		h.t.Fatalf("cycle %d: protocol error %s (cta %d warp %d)", h.cyc-1, o.ErrCode, o.ErrCTA, o.ErrWarp)
	}
}

func (h *harness) wantNReg(c int, want ...int) {
	h.t.Helper()
	for w, n := range want {
		got, _, ok := h.u.WarpStats(c, w)
		if !ok || got != n {
			h.t.Fatalf("cycle %d: CTA %d warp %d count %d (ok %v), want %d", h.cyc, c, w, got, ok, n)
		}
	}
}

func rep(n, v int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = v
	}
	return r
}

func cat(xs ...[]int) []int {
	var r []int
	for _, x := range xs {
		r = append(r, x...)
	}
	return r
}
