// Decoding and executing cp.async and cp.async.bulk: the copies,
// commit_group, wait_group and wait_all.

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
	bulk := in.Mods&isa.ModCpAsyncBulk != 0
	if kind != isa.CpAsyncCopy {
		if in.Mods&^(isa.ModCpAsyncKindMask|isa.ModCpAsyncBulk) != 0 || bulk && kind == isa.CpAsyncWaitAll {
			return illegal("CPASYNC modifiers %#x", in.Mods)
		}
		return nil
	}
	switch {
	case bulk:
		if in.Mods&^(isa.ModCpAsyncBulk|isa.ModCpAsyncDirMask|isa.ModCpAsyncSrc32) != 0 || in.Mods&isa.ModCpAsyncDirMask>>isa.ModCpAsyncDirSh > isa.CpAsyncSharedToGlobal {
			return illegal("CPASYNC.BULK modifiers %#x", in.Mods)
		}
	case in.Mods&(isa.ModCpAsyncDirMask|isa.ModCpAsyncSrc32) != 0,
		in.Mods&isa.ModCpAsyncSizeMask == 3 || in.Mods&isa.ModCpAsyncCG != 0 && in.Mods&isa.ModCpAsyncSizeMask != 2:
		return illegal("CPASYNC modifiers %#x", in.Mods)
	}
	d.space, d.usesPort = isa.SpaceShared, true
	if bulk && in.Mods&isa.ModCpAsyncDirMask>>isa.ModCpAsyncDirSh == isa.CpAsyncSharedToGlobal {
		d.space = isa.SpaceGlobal
	}
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
	bt := isa.U64
	if in.Mods&isa.ModCpAsyncSrc32 != 0 {
		bt = isa.U32
	}
	if d.b, err = dc.src(d, in.B, bt); err != nil {
		return err
	}
	if in.Mods&isa.ModCpAsyncSrcSize != 0 || bulk {
		d.c, err = dc.src(d, in.C, isa.U32)
	}
	return err
}

// asyncState is a warp's cp.async groups, its cp.async.bulk groups and
// its mbarrier.try_wait suspension (mbarrier.go). A warp has none until
// its first cp.async or suspending try_wait, so warps that use neither
// pay nothing.
type asyncState struct {
	cp, bulk groupSet
	wait     mbarWait
	// txPC is the complete_tx that follows the warp's last bulk copy into
	// shared memory and txAt when that copy completes (mbarrier.go:
	// pendingTx).
	txPC uint32
	txAt uint64
}

// groupSet is one kind of asynchronous groups of each thread of a warp
// (PTX groups are per thread): when the thread's operations since its last
// commit_group complete (0: none), and when each of its committed groups
// completes, oldest first. Groups complete in the order they were
// committed (every copy takes the global latency), so completed groups at
// the front can be dropped.
type groupSet struct {
	open   [32]uint64
	groups [32][]uint64
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
	a.cp.reset()
	a.bulk.reset()
	a.wait = mbarWait{}
	a.txPC, a.txAt = 0, 0
}

func (g *groupSet) reset() {
	g.open = [32]uint64{}
	for i := range g.groups {
		g.groups[i] = g.groups[i][:0]
	}
}

// add records an operation of the lanes of emask completing at done.
func (g *groupSet) add(emask uint32, done uint64) {
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		g.open[l] = max(g.open[l], done)
	}
}

// commit closes the open group of each lane of emask (at cycle c).
func (g *groupSet) commit(emask uint32, c uint64) {
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		q := g.groups[l]
		k := 0
		for k < len(q) && q[k] <= c {
			k++
		}
		g.groups[l] = append(q[:copy(q, q[k:])], g.open[l])
		g.open[l] = 0
	}
}

// wait returns when all groups of the lanes of emask but their newest
// keep have completed, and forgets those groups; with all, the open
// operations are waited for (and forgotten) too.
func (g *groupSet) wait(emask uint32, keep uint32, all bool) uint64 {
	var until uint64
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		q := g.groups[l]
		old := len(q) - int(min(keep, uint32(len(q))))
		for _, t := range q[:old] {
			until = max(until, t)
		}
		g.groups[l] = q[:copy(q, q[old:])]
		if all {
			until = max(until, g.open[l])
			g.open[l] = 0
		}
	}
	return until
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
// threads (state cp_async). The bulk forms (execBulkCopy) keep their own
// groups.
func (sm *SM) execCpAsync(w *warp, d *dinst, emask uint32) (uint64, *fault) {
	c := sm.cycle
	if emask == 0 { // guarded off: no copy, no group, no wait
		return 0, nil
	}
	a := w.asyncOf()
	g := &a.cp
	if d.in.Mods&isa.ModCpAsyncBulk != 0 {
		g = &a.bulk
	}
	switch int(d.in.Mods&isa.ModCpAsyncKindMask) >> isa.ModCpAsyncKindSh {
	case isa.CpAsyncCommit:
		g.commit(emask, c)
		return 0, nil
	case isa.CpAsyncWaitGroup:
		return g.wait(emask, d.in.Imm, false), nil
	case isa.CpAsyncWaitAll:
		return g.wait(emask, 0, true), nil
	}
	if g == &a.bulk {
		return 0, sm.execBulkCopy(w, d, emask)
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
	g.add(emask, done)
	w.busyUntil(done)
	return 0, nil
}

// bulkDirs are the destination and source spaces of each
// isa.CpAsync*To* direction.
var bulkDirs = [...][2]int{
	isa.CpAsyncGlobalToShared: {isa.SpaceShared, isa.SpaceGlobal},
	isa.CpAsyncSharedToShared: {isa.SpaceShared, isa.SpaceShared},
	isa.CpAsyncSharedToGlobal: {isa.SpaceGlobal, isa.SpaceShared},
}

// execBulkCopy runs a cp.async.bulk copy for the lanes of emask: each
// copies its size bytes (a positive multiple of 16; both addresses
// 16-byte aligned: PTX ISA 9.7.9.25.4.1) at issue, after checking every
// 16-byte piece of both ranges (a fault is precise). A shared-to-global
// copy completes with the thread's bulk async-group after the global
// latency; the others complete on their mbarrier, whose complete_tx is
// the next instruction: its bytes reach the barrier when the copy
// completes, the global latency after issue (lat.global) for a copy from
// global memory and the shared one (lat.shared) for a copy within shared
// memory (the complete_tx is deferred: pendingTx).
func (sm *SM) execBulkCopy(w *warp, d *dinst, emask uint32) *fault {
	dir := bulkDirs[d.in.Mods&isa.ModCpAsyncDirMask>>isa.ModCpAsyncDirSh]
	off := uint64(int64(int32(d.in.Imm)))
	type piece struct{ dst, src memRef }
	var ps []piece
	for m := emask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		size := uint32(w.value(&d.c, l))
		if size == 0 || size%16 != 0 {
			return &fault{kind: "misaligned", msg: fmt.Sprintf("cp.async.bulk: size %d is not a positive multiple of 16", size), lane: l, hasLane: true}
		}
		da, sa := w.value(&d.a, l)+off, w.value(&d.b, l)
		for k := uint64(0); k < uint64(size); k += 16 {
			dst, f := sm.locate(w, l, dir[0], da+k, 16, true)
			if f != nil {
				f.msg = fmt.Sprintf("cp.async.bulk destination: %s", f.msg)
				return f
			}
			src, f := sm.locate(w, l, dir[1], sa+k, 16, false)
			if f != nil {
				f.msg = fmt.Sprintf("cp.async.bulk source: %s", f.msg)
				return f
			}
			ps = append(ps, piece{dst, src})
		}
	}
	for _, p := range ps {
		for k := 0; k < 16; k += 4 {
			sm.store(subRef(p.dst, k), 4, sm.load(subRef(p.src, k), 4))
		}
	}
	lat := latGlobal
	if dir[0] == isa.SpaceShared && dir[1] == isa.SpaceShared {
		lat = latShared
	}
	done := sm.cycle + latOf(sm.cfg.Lat, lat)
	if dir[0] == isa.SpaceGlobal {
		w.async.bulk.add(emask, done)
	} else {
		w.async.txPC, w.async.txAt = w.gpc+1, done
	}
	w.busyUntil(done)
	return nil
}

// subRef is the 4 bytes at offset k of the located access r.
func subRef(r memRef, k int) memRef {
	if r.buf == nil {
		return memRef{gaddr: r.gaddr + uint64(k), space: r.space}
	}
	return memRef{buf: r.buf[k : k+4 : k+4], space: r.space}
}
