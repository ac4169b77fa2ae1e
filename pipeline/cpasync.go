// Decoding and executing cp.async: the copy, commit_group, wait_group
// and wait_all.

package pipeline

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

func (dc *decoder) decodeCpAsync(d *dinst) *decodeErr {
	in := &d.in
	d.cat, d.lat = catCPASYNC, latNone
	kind := int(in.Mods&isa.ModCpAsyncKindMask) >> isa.ModCpAsyncKindSh
	if kind != isa.CpAsyncCopy {
		if in.Mods&^isa.ModCpAsyncKindMask != 0 {
			return illegal("CPASYNC modifiers %#x", in.Mods)
		}
		return nil
	}
	if in.Mods&isa.ModCpAsyncSizeMask == 3 || in.Mods&isa.ModCpAsyncCG != 0 && in.Mods&isa.ModCpAsyncSizeMask != 2 {
		return illegal("CPASYNC size code %d", in.Mods&isa.ModCpAsyncSizeMask)
	}
	d.space, d.usesPort = isa.SpaceShared, true
	var err *decodeErr
	switch {
	case in.A.IsZero(), in.A.IsFP():
		d.a, _ = dc.src(d, in.A, isa.U64)
	default:
		bt := isa.U64
		if in.Type2 == isa.U32 {
			bt = isa.U32
		}
		if d.a, err = dc.src(d, in.A, bt); err != nil {
			return err
		}
	}
	if d.b, err = dc.src(d, in.B, isa.U64); err != nil {
		return err
	}
	if in.Mods&isa.ModCpAsyncSrcSize != 0 {
		d.c, err = dc.src(d, in.C, isa.U32)
	}
	return err
}

// asyncState is a warp's cp.async groups and its mbarrier.try_wait
// suspension (mbarrier.go). A warp has none until its first cp.async or
// suspending try_wait, so warps that use neither pay nothing.
type asyncState struct {
	// Per thread (PTX groups are per thread): when its copies since its
	// last commit_group complete (0: none), and when each of its
	// committed groups completes, oldest first. Groups complete in the
	// order they were committed (every copy takes the global latency),
	// so completed groups at the front can be dropped.
	open   [32]uint64
	groups [32][]uint64
	wait   mbarWait
}

// asyncOf returns w's asynchronous state, allocating it on first use.
func (w *warp) asyncOf() *asyncState {
	if w.async == nil {
		w.async = &asyncState{}
	}
	return w.async
}

// reset clears the state for a new CTA (a nil state stays nil).
func (a *asyncState) reset() {
	if a == nil {
		return
	}
	a.open = [32]uint64{}
	for i := range a.groups {
		a.groups[i] = a.groups[i][:0]
	}
	a.wait = mbarWait{}
}

// execCpAsync runs a cp.async instruction for the lanes of emask and
// returns the cycle until which the warp waits (0: no wait).
//
// A copy reads the global source and writes the shared destination at
// issue (src-size bytes, the rest of the cp-size zero-filled); its
// completion is the global latency later. PTX orders the copy with
// nothing until the thread waits for its group, so reading the
// destination earlier is a race whose outcome may be either value; the
// model's is the new one. Groups are per thread (PTX ISA 9.7.9.25.3):
// commit_group closes the group of each executing thread's copies since
// its last one; wait_group N waits until all of each executing thread's
// groups but its newest N have completed, wait_all until every copy of
// those threads has. The warp waits for the slowest of its executing
// threads (state cp_async).
func (sm *SM) execCpAsync(w *warp, d *dinst, emask uint32) (uint64, *fault) {
	c := sm.cycle
	if emask == 0 { // guarded off: no copy, no group, no wait
		return 0, nil
	}
	a := w.asyncOf()
	var until uint64
	switch int(d.in.Mods&isa.ModCpAsyncKindMask) >> isa.ModCpAsyncKindSh {
	case isa.CpAsyncCommit:
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			g := a.groups[l]
			k := 0
			for k < len(g) && g[k] <= c {
				k++
			}
			a.groups[l] = append(g[:copy(g, g[k:])], a.open[l])
			a.open[l] = 0
		}
		return 0, nil
	case isa.CpAsyncWaitGroup:
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			g := a.groups[l]
			old := len(g) - int(min(d.in.Imm, uint32(len(g))))
			for _, t := range g[:old] {
				until = max(until, t)
			}
			a.groups[l] = g[:copy(g, g[old:])]
		}
		return until, nil
	case isa.CpAsyncWaitAll:
		for m := emask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			until = max(until, a.open[l])
			for _, t := range a.groups[l] {
				until = max(until, t)
			}
			a.groups[l], a.open[l] = a.groups[l][:0], 0
		}
		return until, nil
	}
	n := 4 << (d.in.Mods & isa.ModCpAsyncSizeMask)
	off := uint64(int64(int32(d.in.Imm)))
	type copyOp struct {
		dst, src memRef
		size     int
	}
	var ops [32]copyOp
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		size := n
		if d.in.Mods&isa.ModCpAsyncSrcSize != 0 {
			size = int(min(uint32(w.value(&d.c, l)), uint32(n)))
		}
		dst, f := sm.locate(w, l, isa.SpaceShared, w.value(&d.a, l)+off, n, true)
		if f != nil {
			f.msg = fmt.Sprintf("cp.async destination: %s", f.msg)
			return 0, f
		}
		ops[l] = copyOp{dst: dst, size: size}
		if size > 0 {
			// The source is aligned to the cp-size and read for src-size
			// bytes (its first and last byte checked against the
			// allocations).
			sa := w.value(&d.b, l)
			if sa%uint64(n) != 0 {
				_, f := sm.locate(w, l, isa.SpaceGlobal, sa, n, false)
				f.msg = fmt.Sprintf("cp.async source: %s", f.msg)
				return 0, f
			}
			src, f := sm.locate(w, l, isa.SpaceGlobal, sa, 1, false)
			if f == nil {
				_, f = sm.locate(w, l, isa.SpaceGlobal, sa+uint64(size-1), 1, false)
			}
			if f != nil {
				f.msg = fmt.Sprintf("cp.async source: %s", f.msg)
				return 0, f
			}
			ops[l].src = src
		}
	}
	for m := emask; m != 0; m &= m - 1 {
		op := &ops[bits.TrailingZeros32(m)]
		for k := 0; k < n; k += 4 {
			var v uint64
			for j := 0; j < 4 && k+j < op.size; j++ {
				v |= sm.load(memRef{gaddr: op.src.gaddr + uint64(k+j), space: isa.SpaceGlobal}, 1) << (8 * uint(j))
			}
			sm.store(memRef{buf: op.dst.buf[k : k+4 : k+4], space: isa.SpaceShared}, 4, v)
		}
	}
	done := c + latOf(sm.cfg.Lat, latGlobal)
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a.open[l] = max(a.open[l], done)
	}
	w.memBusy = max(w.memBusy, done)
	return 0, nil
}
