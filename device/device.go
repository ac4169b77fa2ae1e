package device

import (
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
	"github.com/smsim/smsim/trapunit"
)

// allocAlign is the alignment of every allocation (cudaMalloc gives at
// least 256 bytes; the CLI places bound buffers the same way, so the same
// allocations in the same order get the same addresses).
const allocAlign = 256

// Ptr is a device address in global memory. Add offsets it, so
// p.Add(4*n) is &p[n] of a 32-bit array.
type Ptr uint64

// Add returns p offset by n bytes.
func (p Ptr) Add(n int64) Ptr { return Ptr(uint64(p) + uint64(n)) }

// String prints the address in hex.
func (p Ptr) String() string { return fmt.Sprintf("%#x", uint64(p)) }

// Device is one SM model over one device memory.
type Device struct {
	cfg     config.Config
	mem     *pipeline.Memory
	regions []region // live allocations and module data, by address
	seq     int      // allocations made, for default names
	modules []*Module
	onTrap  string
	onBreak string
	observe func(*pipeline.SM) error
	checks  pipeline.Checks
	cycles  uint64
	nlaunch int
}

// region is a live range of device memory: an allocation, or a module's
// .global data (module != nil, not freeable).
type region struct {
	name       string
	begin, end uint64
	module     *Module
}

// Open returns a device with the configuration cfg (validated) and a
// zeroed memory of sm.global_bytes.
func Open(cfg config.Config) (*Device, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("invalid configuration: %w", err)
	}
	return &Device{cfg: cfg, mem: pipeline.NewMemory(cfg.SM.GlobalBytes)}, nil
}

// Config returns the device's configuration.
func (d *Device) Config() config.Config { return d.cfg }

// SetHostPolicy sets what the host does on a trap and on a breakpoint in
// the following launches: "abort" (the default) or "resume", as smsim
// run's --on-trap and --on-break.
func (d *Device) SetHostPolicy(onTrap, onBreak string) error {
	for _, p := range [...]struct{ flag, v string }{{"on-trap", onTrap}, {"on-break", onBreak}} {
		if p.v == "" {
			continue
		}
		if _, err := trapunit.ParsePolicy(p.v); err != nil {
			return fmt.Errorf("%s %q: want abort or resume", p.flag, p.v)
		}
	}
	d.onTrap, d.onBreak = onTrap, onBreak
	return nil
}

// SetChecks turns the sanitizer's optional checks on or off for the
// following launches (pipeline.Checks: init, sync); memcheck is always
// on.
func (d *Device) SetChecks(c pipeline.Checks) { d.checks = c }

// OnLaunch registers f, called with each launch's SM after it is built
// and before it runs (to attach hooks or a waveform tracer); an error
// from f cancels the launch. nil removes it.
func (d *Device) OnLaunch(f func(*pipeline.SM) error) { d.observe = f }

// Cycles is the sum of the cycles of every launch so far.
func (d *Device) Cycles() uint64 { return d.cycles }

// Launches is the number of launches that ran so far.
func (d *Device) Launches() int { return d.nlaunch }

// Alloc reserves size bytes (at least 1) of zeroed device memory, aligned
// to 256 bytes, and returns its address. Under --check init the bytes
// count as unwritten until the host or a kernel writes them. name labels it in sanitizer
// reports and messages ("" gives "allocN"). The lowest free address that
// fits is taken.
func (d *Device) Alloc(name string, size int) (Ptr, error) {
	d.seq++
	if name == "" {
		name = fmt.Sprintf("alloc%d", d.seq)
	}
	if size < 1 {
		return 0, fmt.Errorf("alloc %s: size %d; an allocation has at least 1 byte", name, size)
	}
	if uint64(size) > d.mem.Size() {
		return 0, fmt.Errorf("alloc %s: %d bytes are more than the %d bytes of device memory (sm.global_bytes)", name, size, d.mem.Size())
	}
	addr := uint64(isa.GlobalDataBase)
	i := 0
	for ; i < len(d.regions); i++ {
		r := d.regions[i]
		if r.begin >= addr+uint64(size) {
			break
		}
		addr = max(addr, alignUp(r.end, allocAlign))
	}
	end := addr + uint64(size)
	if end > d.mem.Size() {
		return 0, fmt.Errorf("alloc %s: %d bytes do not fit the %d bytes of device memory (sm.global_bytes) beside the %d live allocations", name, size, d.mem.Size(), len(d.regions))
	}
	d.regions = append(d.regions, region{})
	copy(d.regions[i+1:], d.regions[i:])
	d.regions[i] = region{name: name, begin: addr, end: end}
	// Memory freed and allocated again is zeroed, as a fresh one, and
	// unwritten (--check init), as cudaMalloc's.
	if err := d.fill(addr, 0, size); err != nil {
		return 0, err
	}
	if err := d.mem.Forget(addr, size); err != nil {
		return 0, err
	}
	return Ptr(addr), nil
}

// Free releases the allocation that starts at p.
func (d *Device) Free(p Ptr) error {
	for i, r := range d.regions {
		if r.begin == uint64(p) && r.module == nil {
			d.regions = append(d.regions[:i], d.regions[i+1:]...)
			return nil
		}
	}
	if r, ok := d.regionAt(uint64(p), 1); ok {
		if r.module != nil {
			return fmt.Errorf("free %v: the .global variables of module %s are not an allocation", p, r.module.name)
		}
		return fmt.Errorf("free %v: the address is %d bytes into allocation %s; free takes its start %#x", p, uint64(p)-r.begin, r.name, r.begin)
	}
	return fmt.Errorf("free %v: no live allocation starts there", p)
}

// regionAt returns the live region holding [addr, addr+n).
func (d *Device) regionAt(addr uint64, n int) (region, bool) {
	i := sort.Search(len(d.regions), func(i int) bool { return d.regions[i].begin > addr }) - 1
	if i < 0 {
		return region{}, false
	}
	r := d.regions[i]
	end := addr + uint64(n)
	if addr >= r.end || end > r.end || end < addr {
		return r, false
	}
	return r, true
}

// check reports an error unless [p, p+n) lies in one live region.
func (d *Device) check(op string, p Ptr, n int) error {
	if n < 0 {
		return fmt.Errorf("%s %v: negative size %d", op, p, n)
	}
	r, ok := d.regionAt(uint64(p), max(n, 1))
	if ok {
		return nil
	}
	if r.name != "" && uint64(p) >= r.begin && uint64(p) < r.end {
		return fmt.Errorf("%s of %d bytes at %v crosses the end of %s (%d bytes at %#x) by %d bytes", op, n, p, r.name, r.end-r.begin, r.begin, uint64(p)+uint64(n)-r.end)
	}
	return fmt.Errorf("%s of %d bytes at %v: the address is in no live allocation", op, n, p)
}

// Write copies b to device memory at dst (cudaMemcpy host to device).
func (d *Device) Write(dst Ptr, b []byte) error {
	if err := d.check("write", dst, len(b)); err != nil {
		return err
	}
	return d.mem.Write(uint64(dst), b)
}

// Read copies len(b) bytes of device memory at src into b (cudaMemcpy
// device to host).
func (d *Device) Read(src Ptr, b []byte) error {
	if err := d.check("read", src, len(b)); err != nil {
		return err
	}
	return d.mem.Read(uint64(src), b)
}

// Fill sets n bytes at dst to v (cudaMemset).
func (d *Device) Fill(dst Ptr, v byte, n int) error {
	if err := d.check("fill", dst, n); err != nil {
		return err
	}
	return d.fill(uint64(dst), v, n)
}

func (d *Device) fill(addr uint64, v byte, n int) error {
	chunk := make([]byte, min(n, 1<<16))
	for i := range chunk {
		chunk[i] = v
	}
	for n > 0 {
		k := min(n, len(chunk))
		if err := d.mem.Write(addr, chunk[:k]); err != nil {
			return err
		}
		addr += uint64(k)
		n -= k
	}
	return nil
}

// Copy copies n bytes from src to dst in device memory (cudaMemcpy device
// to device; the ranges may overlap).
func (d *Device) Copy(dst, src Ptr, n int) error {
	if err := d.check("copy from", src, n); err != nil {
		return err
	}
	if err := d.check("copy to", dst, n); err != nil {
		return err
	}
	b := make([]byte, n)
	if err := d.mem.Read(uint64(src), b); err != nil {
		return err
	}
	return d.mem.Write(uint64(dst), b)
}

// Size returns the size of the allocation starting at p and its name.
func (d *Device) Size(p Ptr) (int, string, error) {
	for _, r := range d.regions {
		if r.begin == uint64(p) {
			return int(r.end - r.begin), r.name, nil
		}
	}
	return 0, "", fmt.Errorf("size %v: no live allocation starts there", p)
}

// Scalar is an element type of a typed copy: its values are stored
// little-endian, a float as its IEEE-754 bits.
type Scalar interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// WriteSlice copies the elements of v to device memory at dst.
func WriteSlice[T Scalar](d *Device, dst Ptr, v []T) error {
	b, err := binary.Append(nil, binary.LittleEndian, v)
	if err != nil {
		return err
	}
	return d.Write(dst, b)
}

// ReadSlice reads n elements of device memory at src.
func ReadSlice[T Scalar](d *Device, src Ptr, n int) ([]T, error) {
	if n < 0 {
		return nil, fmt.Errorf("read %v: negative count %d", src, n)
	}
	out := make([]T, n)
	b := make([]byte, n*binary.Size(out[:min(n, 1)]))
	if n == 0 {
		return out, nil
	}
	if err := d.Read(src, b); err != nil {
		return nil, err
	}
	if _, err := binary.Decode(b, binary.LittleEndian, out); err != nil {
		return nil, err
	}
	return out, nil
}

// AllocSlice allocates room for v, copies it in and returns the address.
func AllocSlice[T Scalar](d *Device, name string, v []T) (Ptr, error) {
	b, err := binary.Append(nil, binary.LittleEndian, v)
	if err != nil {
		return 0, err
	}
	p, err := d.Alloc(name, len(b))
	if err != nil {
		return 0, err
	}
	return p, d.mem.Write(uint64(p), b)
}

func alignUp(v, a uint64) uint64 { return (v + a - 1) / a * a }
