package pipeline

import (
	"encoding/binary"
	"fmt"

	"github.com/smsim/smsim/isa"
)

// pageBits is log2 of the global-memory page: pages are allocated on the
// first store, so a large sm.global_bytes costs nothing until it is used.
const pageBits = 16

// globalMem is the flat global memory [0, size). Unwritten pages read as
// zero.
type globalMem struct {
	size  uint64
	pages [][]byte
	zero  []byte
}

func newGlobalMem(size uint64) *globalMem {
	n := (size + 1<<pageBits - 1) >> pageBits
	return &globalMem{size: size, pages: make([][]byte, n), zero: make([]byte, 1<<pageBits)}
}

// page returns the page holding addr (allocating it when write).
func (g *globalMem) page(addr uint64, write bool) []byte {
	p := g.pages[addr>>pageBits]
	if p == nil {
		if !write {
			return g.zero
		}
		p = make([]byte, 1<<pageBits)
		g.pages[addr>>pageBits] = p
	}
	return p
}

// read copies len(b) bytes at addr (any alignment, inside [0, size)).
func (g *globalMem) read(addr uint64, b []byte) {
	for len(b) > 0 {
		p := g.page(addr, false)
		off := int(addr & (1<<pageBits - 1))
		n := copy(b, p[off:])
		b = b[n:]
		addr += uint64(n)
	}
}

// write copies b to addr.
func (g *globalMem) write(addr uint64, b []byte) {
	for len(b) > 0 {
		p := g.page(addr, true)
		off := int(addr & (1<<pageBits - 1))
		n := copy(p[off:], b)
		b = b[n:]
		addr += uint64(n)
	}
}

// Memory is a global memory that outlives one launch: a host program's
// device memory, given to each of its launches in Launch.Memory. Like the
// memory of a single launch it is [0, Size()) with pages allocated on the
// first write; unwritten bytes read as zero. It also knows which bytes
// were ever written, by the host or by a kernel under --check init
// (Forget makes bytes unwritten again: a fresh allocation).
type Memory struct {
	g    *globalMem
	init [][]uint64 // per page: a bit per byte written, nil for none
}

// NewMemory returns a zeroed memory of size bytes (sm.global_bytes of the
// configuration its launches run with).
func NewMemory(size uint64) *Memory {
	g := newGlobalMem(size)
	return &Memory{g: g, init: make([][]uint64, len(g.pages))}
}

// Size is the memory's size in bytes.
func (m *Memory) Size() uint64 { return m.g.size }

// inside reports whether [addr, addr+n) lies in the memory.
func (m *Memory) inside(addr uint64, n int) bool {
	end := addr + uint64(n)
	return end >= addr && end <= m.g.size
}

// Read copies the len(b) bytes at addr into b.
func (m *Memory) Read(addr uint64, b []byte) error {
	if !m.inside(addr, len(b)) {
		return fmt.Errorf("%d bytes at %#x lie outside the %d-byte memory", len(b), addr, m.g.size)
	}
	m.g.read(addr, b)
	return nil
}

// Write copies b to addr; the bytes count as written.
func (m *Memory) Write(addr uint64, b []byte) error {
	if !m.inside(addr, len(b)) {
		return fmt.Errorf("%d bytes at %#x lie outside the %d-byte memory", len(b), addr, m.g.size)
	}
	m.g.write(addr, b)
	m.mark(addr, addr+uint64(len(b)), true)
	return nil
}

// Forget makes the n bytes at addr unwritten (their contents stay).
func (m *Memory) Forget(addr uint64, n int) error {
	if !m.inside(addr, n) {
		return fmt.Errorf("%d bytes at %#x lie outside the %d-byte memory", n, addr, m.g.size)
	}
	m.mark(addr, addr+uint64(n), false)
	return nil
}

// mark sets or clears the written bits of [addr, end), page by page and
// 64 bytes per word where it can.
func (m *Memory) mark(addr, end uint64, v bool) {
	const pageMask = 1<<pageBits - 1
	for addr < end {
		pageEnd := min(end, (addr|pageMask)+1)
		p := m.init[addr>>pageBits]
		if p == nil {
			if !v {
				addr = pageEnd // the page has no written byte
				continue
			}
			p = make([]uint64, 1<<pageBits/64)
			m.init[addr>>pageBits] = p
		}
		for lo, hi := addr&pageMask, (pageEnd-1)&pageMask+1; lo < hi; {
			w, bit := lo>>6, lo&63
			n := min(64-bit, hi-lo)
			mask := ^uint64(0) >> (64 - n) << bit
			if v {
				p[w] |= mask
			} else {
				p[w] &^= mask
			}
			lo += n
		}
		addr = pageEnd
	}
}

// written reports whether every byte of [addr, end) was written.
func (m *Memory) written(addr, end uint64) bool {
	for b := addr; b < end; b++ {
		p := m.init[b>>pageBits]
		off := b & (1<<pageBits - 1)
		if p == nil || p[off>>6]&(1<<(off&63)) == 0 {
			return false
		}
	}
	return true
}

// loadLE reads an aligned n-byte little-endian value (n <= 8 never
// crosses a page when aligned).
func loadLE(b []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	case 8:
		return binary.LittleEndian.Uint64(b)
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func storeLE(b []byte, n int, v uint64) {
	switch n {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case 8:
		binary.LittleEndian.PutUint64(b, v)
	default:
		for i := 0; i < n; i++ {
			b[i] = byte(v >> (8 * i))
		}
	}
}

// fault describes a failed instruction.
type fault struct {
	kind    string // error kind in the report
	msg     string
	addr    uint64
	hasA    bool // addr is meaningful
	lane    int
	hasLane bool             // lane is meaningful
	san     *SanitizerReport // a sanitizer finding (sanitize.go), nil for none
}

func (f *fault) Error() string { return f.msg }

func memFault(lane int, addr uint64, format string, args ...any) *fault {
	return &fault{kind: "memory_fault", msg: fmt.Sprintf(format, args...), addr: addr, hasA: true, lane: lane, hasLane: true}
}

// Memory access descriptor: where one lane's element lives.
type memRef struct {
	buf   []byte // the bytes of the element (len n), nil for global
	gaddr uint64 // global address when buf == nil
	space int    // effective space
}

// locate resolves an n-byte access of lane at addr in space (generic
// addresses are mapped through the windows). write allocates backing store
// (global pages, local memory). It checks the range and the alignment.
func (sm *SM) locate(w *warp, lane int, space int, addr uint64, n int, write bool) (memRef, *fault) {
	if n > 1 && addr%uint64(n) != 0 {
		f := memFault(lane, addr, "misaligned %d-byte %s access at %#x", n, isa.SpaceName(space), addr)
		f.san = &SanitizerReport{Kind: "misaligned", Space: isa.SpaceName(space), Lane: lane, Address: addr, Size: n}
		return memRef{}, f
	}
	orig := addr
	if space == isa.SpaceGeneric {
		switch {
		case addr >= isa.SharedWindow && addr-isa.SharedWindow < isa.WindowSize:
			space, addr = isa.SpaceShared, addr-isa.SharedWindow
		case addr >= isa.LocalWindow && addr-isa.LocalWindow < isa.WindowSize:
			space, addr = isa.SpaceLocal, addr-isa.LocalWindow
		default:
			space = isa.SpaceGlobal
		}
	}
	end := addr + uint64(n)
	switch space {
	case isa.SpaceGlobal:
		if addr < isa.GlobalDataBase {
			return memRef{}, memFault(lane, orig, "global address %#x is in the unmapped page below %#x (null pointer?)", orig, uint64(isa.GlobalDataBase))
		}
		if end > sm.global.size || end < addr {
			return memRef{}, memFault(lane, orig, "global address %#x is outside the %d-byte global memory (sm.global_bytes)", orig, sm.global.size)
		}
		if f := sm.checkGlobal(lane, orig, addr, end); f != nil {
			return memRef{}, f
		}
		if sm.mc.chk.init && sm.launch.Memory != nil {
			sm.initGlobal(w, lane, orig, addr, end, write)
		}
		if sm.mc.chk.race {
			sm.raceGlobal(w, lane, orig, addr, end, write)
			sm.ncGlobal(w, lane, orig, addr, end, write)
		}
		return memRef{gaddr: addr, space: space}, nil
	case isa.SpaceShared:
		sh := w.cta.shared
		if end > uint64(len(sh)) || end < addr {
			if addr < uint64(len(sh))+uint64(sm.reservedSmem) && sm.reservedSmem > 0 {
				return memRef{}, memFault(lane, orig, "shared address %#x is in the reserved shared-memory region [%#x, %#x)", addr, len(sh), len(sh)+sm.reservedSmem)
			}
			return memRef{}, memFault(lane, orig, "shared address %#x is outside the CTA's %d bytes of shared memory", addr, len(sh))
		}
		if f := checkAllocs(sm.mc.shared, space, lane, orig, addr, end); f != nil {
			return memRef{}, f
		}
		if sm.mc.chk.init {
			sm.initShared(w, lane, orig, addr, end, write)
		}
		if sm.mc.chk.race {
			sm.raceShared(w, lane, orig, addr, end, write)
		}
		return memRef{buf: sh[addr:end:end], space: space}, nil
	case isa.SpaceLocal:
		lim := uint64(sm.cfg.SM.LocalBytes)
		if end > lim || end < addr {
			return memRef{}, memFault(lane, orig, "local address %#x is outside the thread's %d bytes of local memory (sm.local_bytes)", addr, lim)
		}
		if f := sm.checkLocal(w, lane, orig, addr, end); f != nil {
			return memRef{}, f
		}
		buf := w.localMem(lane, int(end))
		return memRef{buf: buf[addr:end:end], space: space}, nil
	case isa.SpaceParam:
		if write {
			return memRef{}, memFault(lane, orig, "store to the read-only kernel parameter space at %#x", addr)
		}
		if end > uint64(len(sm.param)) || end < addr {
			return memRef{}, memFault(lane, orig, "param address %#x is outside the %d-byte parameter buffer", addr, len(sm.param))
		}
		if f := checkAllocs(sm.mc.param, space, lane, orig, addr, end); f != nil {
			return memRef{}, f
		}
		return memRef{buf: sm.param[addr:end:end], space: space}, nil
	case isa.SpaceConst:
		if write {
			return memRef{}, memFault(lane, orig, "store to the read-only .const bank at %#x", addr)
		}
		cb := sm.constBank
		if end > uint64(len(cb)) || end < addr {
			return memRef{}, memFault(lane, orig, "const address %#x is outside the %d-byte .const bank", addr, len(cb))
		}
		if f := checkAllocs(sm.mc.konst, space, lane, orig, addr, end); f != nil {
			return memRef{}, f
		}
		return memRef{buf: cb[addr:end:end], space: space}, nil
	}
	return memRef{}, memFault(lane, orig, "undefined state space %d", space)
}

func (sm *SM) load(r memRef, n int) uint64 {
	if r.buf != nil {
		return loadLE(r.buf, n)
	}
	p := sm.global.page(r.gaddr, false)
	off := int(r.gaddr & (1<<pageBits - 1))
	return loadLE(p[off:], n)
}

func (sm *SM) store(r memRef, n int, v uint64) {
	if r.buf != nil {
		storeLE(r.buf, n, v)
		return
	}
	p := sm.global.page(r.gaddr, true)
	off := int(r.gaddr & (1<<pageBits - 1))
	storeLE(p[off:], n, v)
}

// localMem returns lane's local memory grown to at least n bytes (in
// 256-byte steps, at most sm.local_bytes); new bytes are zero.
func (w *warp) localMem(lane, n int) []byte {
	b := w.lmem[lane]
	if n <= len(b) {
		return b
	}
	lim := w.sm.cfg.SM.LocalBytes
	m := (n + 255) &^ 255
	if m > lim {
		m = lim
	}
	if m <= cap(b) {
		b = b[:m]
	} else {
		nb := make([]byte, m, max(m, 2*cap(b)))
		copy(nb, b)
		b = nb
	}
	w.lmem[lane] = b
	return b
}
