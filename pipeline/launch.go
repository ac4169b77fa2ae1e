package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
)

// Launch describes one kernel launch.
type Launch struct {
	Entry string // the .entry to run
	// Grid, Block and Cluster are the launch shape (x, y, z). Every Grid
	// and Block component must be at least 1. A zero Cluster means no
	// explicit cluster (each CTA is its own 1x1x1 cluster, unless the
	// kernel declares .reqnctapercluster).
	Grid, Block, Cluster [3]uint32
	DynamicSmem          uint32            // bytes of dynamic shared memory per CTA
	Args                 map[string]uint64 // scalar parameters by PTX name (little-endian, low bytes)
	Buffers              []Buffer          // global buffers bound to pointer parameters
	// MaxNReg is the per-thread register budget the launch gives the
	// kernel (ptxas -maxrregcount); 0 means the kernel's own count. It
	// must cover the kernel's registers; setmaxnreg starts from it.
	MaxNReg uint32
	// Vars fills module variables by name before the launch: a .const
	// variable (__constant__) or a .global one, with at most its size of
	// bytes (the rest keeps its initializer).
	Vars map[string][]byte
	// Memory, when set, is the global memory the launch runs over instead
	// of a fresh one: a host program's device memory, kept from launch to
	// launch (package device). Its size must be sm.global_bytes. The
	// image's .global data is then not loaded (the host loaded it once),
	// Buffers must be empty (pointer parameters take addresses in Args),
	// and Allocations lists the regions the kernel may access besides the
	// image's .global variables (memcheck).
	Memory      *Memory
	Allocations []Allocation
	// Checks turns on the sanitizer's optional checks (sancheck.go);
	// memcheck is always on.
	Checks Checks
}

// Buffer is a global buffer bound to a pointer parameter: Size bytes,
// zeroed, then filled with Init. Its address goes into the parameter.
type Buffer struct {
	Param string
	Size  int
	Init  []byte
	// Alias, when set, binds Param to the buffer of the parameter Alias
	// (another Buffer of the launch, not itself an alias) at Offset bytes
	// into it, instead of a buffer of its own: the same buffer passed
	// twice (Offset 0) or a pointer into the middle of one. Size and Init
	// stay zero; the report lists only the buffer itself.
	Alias  string
	Offset int
}

// LaunchError is a launch that cannot run: Field names what is wrong
// ("entry", "grid", "block", "cluster", "args", "buffers", "vars",
// "dynamic_smem", "regs", "local", "config", "image"), Msg says why and
// names the culprit.
type LaunchError struct {
	Field string
	Msg   string
	Err   error // the underlying error, if any (config validation)
}

func (e *LaunchError) Error() string { return e.Msg }

// Unwrap returns the underlying error.
func (e *LaunchError) Unwrap() error { return e.Err }

func lerr(field, format string, args ...any) *LaunchError {
	return &LaunchError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// boundBuf is a buffer placed in global memory.
type boundBuf struct {
	param string
	addr  uint64
	size  int
	init  []byte
	alias bool // bound into another parameter's buffer (Buffer.Alias)
}

func alignUp64(v, a uint64) uint64 { return (v + a - 1) / a * a }

// validateShape checks the grid, block and cluster against seed 003's limits
// and the kernel's directives; it returns the effective cluster shape and
// whether the cluster is explicit.
func (sm *SM) validateShape(k *isa.Kernel, l *Launch) (cluster [3]uint32, explicit bool, err error) {
	names := [3]string{"x", "y", "z"}
	for i, v := range l.Block {
		if v == 0 {
			return cluster, false, lerr("block", "block.%s is 0; every block dimension must be at least 1", names[i])
		}
	}
	lim := [3]uint32{1024, 1024, 64}
	for i, v := range l.Block {
		if v > lim[i] {
			return cluster, false, lerr("block", "block.%s = %d exceeds the %%ntid.%s limit %d", names[i], v, names[i], lim[i])
		}
	}
	threads := uint64(l.Block[0]) * uint64(l.Block[1]) * uint64(l.Block[2])
	if threads > uint64(sm.cfg.SM.MaxThreadsPerCTA) {
		return cluster, false, lerr("block", "block %dx%dx%d has %d threads, more than sm.max_threads_per_cta=%d", l.Block[0], l.Block[1], l.Block[2], threads, sm.cfg.SM.MaxThreadsPerCTA)
	}
	for i, v := range l.Grid {
		if v == 0 {
			return cluster, false, lerr("grid", "grid.%s is 0; every grid dimension must be at least 1", names[i])
		}
	}
	if l.Grid[0] >= 1<<31 {
		return cluster, false, lerr("grid", "grid.x = %d exceeds the %%nctaid.x limit 2^31-1", l.Grid[0])
	}
	for i := 1; i < 3; i++ {
		if l.Grid[i] > 65535 {
			return cluster, false, lerr("grid", "grid.%s = %d exceeds the %%nctaid.%s limit 65535", names[i], l.Grid[i], names[i])
		}
	}
	if k.ReqNTid != [3]uint32{} && l.Block != k.ReqNTid {
		return cluster, false, lerr("block", "kernel %s requires .reqntid %d,%d,%d; the block is %d,%d,%d", k.Name, k.ReqNTid[0], k.ReqNTid[1], k.ReqNTid[2], l.Block[0], l.Block[1], l.Block[2])
	}
	if k.MaxNTid != [3]uint32{} {
		maxT := uint64(max(k.MaxNTid[0], 1)) * uint64(max(k.MaxNTid[1], 1)) * uint64(max(k.MaxNTid[2], 1))
		if threads > maxT {
			return cluster, false, lerr("block", "kernel %s declares .maxntid %d,%d,%d (%d threads); the block has %d", k.Name, k.MaxNTid[0], k.MaxNTid[1], k.MaxNTid[2], maxT, threads)
		}
	}
	cluster = l.Cluster
	explicit = cluster != [3]uint32{}
	if explicit {
		for i, v := range cluster {
			if v == 0 {
				return cluster, false, lerr("cluster", "cluster.%s is 0; give every cluster dimension (or none for no cluster)", names[i])
			}
		}
	}
	if k.ReqNCtaPerCluster != [3]uint32{} {
		if explicit && cluster != k.ReqNCtaPerCluster {
			r := k.ReqNCtaPerCluster
			return cluster, false, lerr("cluster", "kernel %s requires .reqnctapercluster %d,%d,%d; the launch's cluster is %d,%d,%d", k.Name, r[0], r[1], r[2], cluster[0], cluster[1], cluster[2])
		}
		cluster, explicit = k.ReqNCtaPerCluster, true
		for i := range cluster {
			cluster[i] = max(cluster[i], 1)
		}
	}
	if k.ExplicitCluster {
		explicit = true
	}
	if cluster == [3]uint32{} {
		cluster = [3]uint32{1, 1, 1}
	}
	for i := range cluster {
		if l.Grid[i]%cluster[i] != 0 {
			return cluster, false, lerr("cluster", "cluster.%s = %d does not divide grid.%s = %d", names[i], cluster[i], names[i], l.Grid[i])
		}
	}
	if k.MaxClusterRank != 0 {
		if n := cluster[0] * cluster[1] * cluster[2]; n > k.MaxClusterRank {
			return cluster, false, lerr("cluster", "the cluster has %d CTAs, more than kernel %s's .maxclusterrank %d", n, k.Name, k.MaxClusterRank)
		}
	}
	return cluster, explicit, nil
}

// buildParams lays out the global memory (data, then the buffers) and the
// parameter buffer.
func (sm *SM) buildParams(k *isa.Kernel, l *Launch) error {
	byName := map[string]*isa.KParam{}
	for i := range k.Params {
		byName[k.Params[i].Name] = &k.Params[i]
	}
	known := func() string {
		var n []string
		for _, p := range k.Params {
			n = append(n, p.Name)
		}
		if len(n) == 0 {
			return "the kernel has no parameters"
		}
		return "parameters: " + strings.Join(n, ", ")
	}
	bound := map[string]string{}
	if m := l.Memory; m != nil {
		if m.g.size != sm.cfg.SM.GlobalBytes {
			return lerr("config", "the launch's memory has %d bytes; sm.global_bytes is %d", m.g.size, sm.cfg.SM.GlobalBytes)
		}
		if len(l.Buffers) > 0 {
			return lerr("buffers", "a launch on a host's memory takes its pointers as addresses in Args, not Buffers (%d given)", len(l.Buffers))
		}
		sm.global = m.g
	}
	// Buffers.
	next := alignUp64(isa.GlobalDataBase+uint64(len(sm.im.Data)), 256)
	byParam := map[string]boundBuf{}
	for i, b := range l.Buffers {
		p, ok := byName[b.Param]
		if !ok {
			return lerr("buffers", "buffer %d binds unknown parameter %q (%s)", i, b.Param, known())
		}
		if prev, dup := bound[b.Param]; dup {
			return lerr("buffers", "parameter %s is bound twice (%s and buffer %d)", b.Param, prev, i)
		}
		if !p.Ptr || p.Size != 8 {
			return lerr("buffers", "parameter %s is a .%s of %d bytes, not a pointer: it cannot take a buffer", b.Param, p.Type, p.Size)
		}
		if b.Alias != "" {
			continue // bound below, once every buffer has its address
		}
		if b.Size < 0 {
			return lerr("buffers", "buffer for %s has a negative size %d", b.Param, b.Size)
		}
		if len(b.Init) > b.Size {
			return lerr("buffers", "buffer for %s: %d bytes of Init for a %d-byte buffer", b.Param, len(b.Init), b.Size)
		}
		bound[b.Param] = fmt.Sprintf("buffer %d", i)
		addr := next
		end := addr + uint64(b.Size)
		if end > sm.cfg.SM.GlobalBytes || end < addr {
			return lerr("buffers", "buffer for %s (%d bytes at %#x) does not fit the %d bytes of global memory (sm.global_bytes)", b.Param, b.Size, addr, sm.cfg.SM.GlobalBytes)
		}
		sm.bufs = append(sm.bufs, boundBuf{param: b.Param, addr: addr, size: b.Size, init: b.Init})
		byParam[b.Param] = sm.bufs[len(sm.bufs)-1]
		next = alignUp64(end, 256)
		storeLE(sm.param[p.Offset:p.Offset+8], 8, addr)
	}
	// Aliases: a parameter bound into another one's buffer.
	for i, b := range l.Buffers {
		if b.Alias == "" {
			continue
		}
		t, ok := byParam[b.Alias]
		switch {
		case !ok:
			return lerr("buffers", "buffer %d binds %s into the buffer of %q, which is no buffer of the launch", i, b.Param, b.Alias)
		case b.Size != 0 || len(b.Init) > 0:
			return lerr("buffers", "buffer %d binds %s into %s's buffer: it has no size or contents of its own", i, b.Param, b.Alias)
		case b.Offset < 0 || b.Offset > t.size:
			return lerr("buffers", "buffer %d binds %s at offset %d into %s's buffer of %d bytes", i, b.Param, b.Offset, b.Alias, t.size)
		}
		bound[b.Param] = fmt.Sprintf("buffer %d", i)
		addr := t.addr + uint64(b.Offset)
		sm.bufs = append(sm.bufs, boundBuf{param: b.Param, addr: addr, size: t.size - b.Offset, alias: true})
		p := byName[b.Param]
		storeLE(sm.param[p.Offset:p.Offset+8], 8, addr)
	}
	// Scalars, in name order for stable messages.
	names := make([]string, 0, len(l.Args))
	for n := range l.Args {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := l.Args[n]
		p, ok := byName[n]
		if !ok {
			return lerr("args", "unknown parameter %q (%s)", n, known())
		}
		if prev, dup := bound[n]; dup {
			return lerr("args", "parameter %s is given a value and also bound to %s", n, prev)
		}
		if p.Size > 8 || p.Size == 0 {
			return lerr("args", "parameter %s is a %d-byte aggregate; only scalars up to 8 bytes can be given", n, p.Size)
		}
		if p.Size < 8 {
			bitsN := 8 * p.Size
			// A negative value fits when it fits the signed range of
			// the parameter's width, whatever its type says: clang gives
			// an int parameter .u32 (a .param has no signedness).
			fits := v < uint64(1)<<bitsN
			if !fits {
				s := int64(v)
				fits = s < 0 && s >= -(int64(1)<<(bitsN-1))
			}
			if !fits {
				return lerr("args", "value %#x does not fit parameter %s (.%s, %d bytes)", v, n, p.Type, p.Size)
			}
		}
		bound[n] = "a value"
		storeLE(sm.param[p.Offset:p.Offset+p.Size], int(p.Size), v)
	}
	for _, p := range k.Params {
		if _, ok := bound[p.Name]; !ok {
			what := "a value in Args"
			if p.Ptr {
				what = "a buffer or an address in Args"
			}
			return lerr("args", "parameter %s (.%s) is neither bound nor given: it needs %s", p.Name, p.Type, what)
		}
	}
	// Global memory contents.
	sm.constBank = sm.im.ConstBank
	if len(sm.im.Data) > 0 && l.Memory == nil {
		if isa.GlobalDataBase+uint64(len(sm.im.Data)) > sm.cfg.SM.GlobalBytes {
			return lerr("image", "the image's %d bytes of .global data do not fit sm.global_bytes=%d", len(sm.im.Data), sm.cfg.SM.GlobalBytes)
		}
		sm.global.write(isa.GlobalDataBase, sm.im.Data)
	}
	for _, b := range sm.bufs {
		if len(b.init) > 0 {
			sm.global.write(b.addr, b.init)
		}
	}
	return sm.fillVars(l.Vars)
}

// fillVars writes Launch.Vars into the module's .const and .global
// variables (the .const bank is copied first: the image stays as it is).
func (sm *SM) fillVars(vars map[string][]byte) error {
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	copied := false
	for _, n := range names {
		data := vars[n]
		var sym *isa.Symbol
		for i := range sm.im.Symbols {
			if sm.im.Symbols[i].Name == n {
				sym = &sm.im.Symbols[i]
			}
		}
		switch {
		case sym == nil:
			return lerr("vars", "the module has no variable %q", n)
		case uint64(len(data)) > sym.Size:
			return lerr("vars", "%d bytes for %s, a variable of %d bytes", len(data), n, sym.Size)
		}
		end := sym.Addr + uint64(len(data))
		switch int(sym.Space) {
		case isa.SpaceConst:
			if end > uint64(len(sm.im.ConstBank)) {
				return lerr("vars", "%s at %#x+%d lies outside the %d-byte .const bank", n, sym.Addr, len(data), len(sm.im.ConstBank))
			}
			if !copied {
				sm.constBank, copied = append([]byte(nil), sm.im.ConstBank...), true
			}
			copy(sm.constBank[sym.Addr:], data)
		case isa.SpaceGlobal:
			if end > sm.cfg.SM.GlobalBytes || end < sym.Addr {
				return lerr("vars", "%s at %#x+%d lies outside global memory (sm.global_bytes)", n, sym.Addr, len(data))
			}
			sm.global.write(sym.Addr, data)
		default:
			return lerr("vars", "%s is a .%s variable; only .const and .global ones can be filled", n, isa.SpaceName(int(sym.Space)))
		}
	}
	return nil
}
