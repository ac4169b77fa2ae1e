package memsys_test

import (
	"reflect"
	"testing"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/unitcfg"
)

// constAccess sends one constant warp request to an idle hierarchy and
// returns its latency.
func constAccess(t *testing.T, h *memsys.Hier, req memsys.WarpReq) uint64 {
	t.Helper()
	t0 := h.Now()
	o := h.Eval(memsys.PortIn{ConstValid: true, ConstID: 5, Const: req, ConstRespReady: true})
	if !o.ConstReady {
		t.Fatal("constant cache not ready")
	}
	h.Tick()
	for i := 0; i < 100000; i++ {
		o := h.Eval(memsys.PortIn{ConstRespReady: true})
		h.Tick()
		if o.ConstRespValid {
			if o.ConstResp.ID != 5 {
				t.Fatalf("response %+v", o.ConstResp)
			}
			return h.Now() - 1 - t0
		}
	}
	t.Fatal("no response")
	return 0
}

// Constant loads: a miss goes to the L2; a hit costs lat.param; a warp
// reading n distinct addresses is served in n lookups.
func TestHierConstCache(t *testing.T) {
	cfg := config.Default()
	r := newRig(t, cfg)
	uniform := memsys.WarpReq{Op: memsys.OpLoad, Space: memsys.SpaceConst, Size: 4, Mask: ^uint32(0)}
	for l := range uniform.Addr {
		uniform.Addr[l] = 0x100
	}
	miss := constAccess(t, r.h, uniform)
	if miss < uint64(cfg.L2.LatencyNear)-10 {
		t.Fatalf("constant miss %d cycles", miss)
	}
	if hit := constAccess(t, r.h, uniform); hit != uint64(cfg.Lat.Param) {
		t.Fatalf("constant hit %d cycles, want lat.param=%d", hit, cfg.Lat.Param)
	}
	div := uniform
	for l := range div.Addr {
		div.Addr[l] = 0x100 + uint64(l%4)*4 // 4 distinct words of one line
	}
	if hit := constAccess(t, r.h, div); hit != uint64(cfg.Lat.Param)+3 {
		t.Fatalf("4 distinct addresses: %d cycles, want lat.param+3", hit)
	}
	if st := r.h.Const().Stats(); st.Requests != 3 || st.Accesses != 6 || st.Hits != 5 || st.Misses != 1 {
		t.Fatalf("%+v", st)
	}
	if !r.h.Idle() {
		t.Fatal("not idle")
	}
}

// Atomics resolve at the L2: a hit costs the L2 latency plus
// l2.atomic_latency plus one cycle per further lane of the line, and the
// L1 keeps no copy.
func TestHierAtomics(t *testing.T) {
	cfg := config.Default()
	r := newRig(t, cfg)
	p, err := unitcfg.MemSys(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a := uint64(0x10000)
	for !p.L2.Near(a) {
		a += memsys.LineBytes
	}
	ld := oneLane(a)
	r.access(ld) // bring the line into L1 and L2
	atom := memsys.WarpReq{Op: memsys.OpAtomic, Space: memsys.SpaceGlobal, Size: 4, Mask: 0xf}
	for l := 0; l < 4; l++ {
		atom.Addr[l] = a + uint64(4*l)
	}
	got := r.access(atom)
	want := uint64(cfg.L2.LatencyNear + cfg.L2.AtomicLatency + 3)
	if got != want {
		t.Fatalf("atomic hit %d cycles, want %d", got, want)
	}
	if r.h.L1().Present(a) != 0 {
		t.Fatal("the L1 kept the line an atomic wrote")
	}
	if st := r.h.L2().Stats(); st.Atomics != 1 || st.SectorsAtomic != 1 {
		t.Fatalf("%+v", st)
	}
}

// The port keeps the two-phase protocol: Eval changes nothing and gives the
// same outputs however often it is called.
func TestHierEvalPure(t *testing.T) {
	small, err := config.Preset("small")
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t, small)
	r.access(oneLane(0x4000))
	in := memsys.PortIn{ReqValid: true, Req: memsys.Req{ID: 9, Op: memsys.OpLoad, Addr: 0x4000, Sectors: 1}, RespReady: true}
	var outs []memsys.PortOut
	for c := 0; c < 10; c++ {
		o1 := r.h.Eval(in)
		o2 := r.h.Eval(in)
		if !reflect.DeepEqual(o1, o2) || !reflect.DeepEqual(o1, r.h.Out()) {
			t.Fatalf("cycle %d: %+v / %+v", c, o1, o2)
		}
		outs = append(outs, o1)
		r.h.Tick()
		in = memsys.PortIn{RespReady: true}
	}
	hits := 0
	for _, o := range outs {
		if o.RespValid && o.Resp.ID == 9 {
			hits++
		}
	}
	if hits != 1 {
		t.Fatalf("%d responses for one request", hits)
	}
}

// Skipping the cycles NextEvent allows gives the same responses at the same
// cycles, and the same counters, as stepping every cycle.
func TestHierAdvance(t *testing.T) {
	cfg := config.Default()
	skipped := uint64(0)
	run := func(skip bool) ([]uint64, memsys.L1Stats, memsys.L2Stats, memsys.DRAMStats) {
		r := newRig(t, cfg)
		var at []uint64
		addrs := []uint64{0x1000, 0x1000, 0x20000, 0x1000, 0x7f000, 0x20000}
		for _, a := range addrs {
			req := oneLane(a)
			for {
				taken, _, ok := r.cycle(&req, 1)
				if ok {
					at = append(at, r.h.Now())
				}
				if taken {
					break
				}
			}
			for i := 0; i < 1000; i++ {
				if skip && !r.co.Q().Busy {
					if n, ok := r.h.NextEvent(); ok && n > 1 {
						r.h.Advance(n - 1)
						skipped += n - 1
						r.cyc += n - 1
						i += int(n - 1)
					}
				}
				if _, _, ok := r.cycle(nil, 0); ok {
					at = append(at, r.h.Now())
				}
			}
		}
		return at, r.h.L1().Stats(), r.h.L2().Stats(), r.h.L2().DRAM().Stats()
	}
	a1, l1a, l2a, da := run(false)
	a2, l1b, l2b, db := run(true)
	if !reflect.DeepEqual(a1, a2) || l1a != l1b || l2a != l2b || da != db {
		t.Fatalf("stepped %v\nskipped %v\n%+v\n%+v\n%+v\n%+v", a1, a2, l2a, l2b, da, db)
	}
	if len(a1) != 6 || skipped < 1000 {
		t.Fatalf("%d responses, %d cycles skipped", len(a1), skipped)
	}
	if _, ok := newRig(t, cfg).h.NextEvent(); ok {
		t.Fatal("an empty hierarchy has an event")
	}
}
