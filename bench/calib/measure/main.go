// Command measure runs the calibration suite of bench/calib and prints one
// line per measurement: where the model's figure comes from, the
// measurement, the model's figure, the published figure, the band and
// PASS or FAIL (docs/calibration.md).
//
// Sources:
//
//   - sm: the microbenchmark kernel (bench/calib/*.ptx) run by `smsim run`
//     on the whole SM model, timed with %clock64 or the report's cycles;
//   - memsys: the same access pattern driven straight into memsys.Port
//     (the load/store stage's port), cycle by cycle: the unit alone;
//   - pipe: the per-pipe chain's request pattern driven into the
//     pipethrottle unit alone.
//
// The h100 preset runs the SM with the memory system (mem.model hier) and
// the pipe throttle (pipe.throttle): every line is within its band. With
// --set mem.model=flat,pipe.throttle=false the sm lines show the flat
// latencies and unlimited pipes, and most fail.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/memsys"
	"github.com/smsim/smsim/pipethrottle"
	"github.com/smsim/smsim/unitcfg"
)

type band int

const (
	lat   band = iota // ±20%
	bw                // ±25%
	exact             // equal
	info              // no published figure: printed, not judged
)

func (b band) String() string {
	switch b {
	case lat:
		return "±20%"
	case bw:
		return "±25%"
	case info:
		return "-"
	}
	return "exact"
}

func (b band) ok(got, want float64) bool {
	switch b {
	case lat:
		return math.Abs(got-want) <= 0.20*want
	case bw:
		return math.Abs(got-want) <= 0.25*want
	}
	return got == want
}

type line struct {
	src, name  string
	model, pub float64
	b          band
	note       string
}

var (
	smsim  = flag.String("smsim", "bin/smsim", "the smsim binary (sm lines)")
	dir    = flag.String("dir", "bench/calib", "the directory of the .ptx files")
	preset = flag.String("preset", "h100", "configuration preset")
	only   = flag.String("only", "", "run only sources in this comma-separated list (sm, memsys, pipe)")
	strict = flag.Bool("strict", false, "exit 1 when a line fails")
	sets   = flag.String("set", "", "comma-separated KEY=VALUE settings for the sm runs (smsim run --set), e.g. mem.model=flat")
)

var lines []line

func add(src, name string, model, pub float64, b band, note string) {
	lines = append(lines, line{src: src, name: name, model: model, pub: pub, b: b, note: note})
}

func want(src string) bool {
	if *only == "" {
		return true
	}
	for _, s := range strings.Split(*only, ",") {
		if s == src {
			return true
		}
	}
	return false
}

func main() {
	flag.Parse()
	cfg, err := config.Preset(*preset)
	if err != nil {
		fail(err)
	}
	tmp, err := os.MkdirTemp("", "calib")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	if want("memsys") {
		memsysLines(cfg)
	}
	if want("pipe") {
		pipeLines(cfg)
	}
	if want("sm") {
		smLines(cfg, tmp)
	}
	fmt.Printf("%-7s %-46s %10s %10s %6s  %s\n", "source", "measurement", "model", "published", "band", "result")
	pass, failed := 0, 0
	for _, l := range lines {
		res, pub := "PASS", fmt.Sprintf("%10.2f", l.pub)
		switch {
		case l.b == info:
			res, pub = "INFO", fmt.Sprintf("%10s", "-")
		case !l.b.ok(l.model, l.pub):
			res = "FAIL"
			failed++
		default:
			pass++
		}
		fmt.Printf("%-7s %-46s %10.2f %s %6s  %s", l.src, l.name, l.model, pub, l.b, res)
		if l.note != "" {
			fmt.Printf("  %s", l.note)
		}
		fmt.Println()
	}
	fmt.Printf("%d PASS, %d FAIL (preset %s; sm: smsim run on the SM model; memsys: memsys.Port alone; pipe: pipethrottle alone)\n", pass, failed, *preset)
	if *preset != "h100" {
		fmt.Println("the published figures are the H100's (pipe rates scaled per scheduler): only the h100 preset is calibrated to them")
	}
	if *strict && failed > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "measure:", err)
	os.Exit(2)
}

// Published figures (docs/calibration.md has the sources).
const (
	pubL1     = 32.1
	pubL2Near = 264
	pubL2Far  = 502
	pubDRAM   = 655
	pubSmem   = 29.0
	pubSmemBW = 128
	pubL2BW   = 27.5
)

func pubDRAMBW() float64 { return 3350e9 / 132 / 1755e6 }

var pubPipe = [pipethrottle.NumPipes]float64{128, 64, 64, 64, 16, 16}

// ---- memsys ------------------------------------------------------------

type port struct {
	p    *memsys.Port
	resp []memsys.Response
}

func newPort(cfg config.Config) *port {
	pp, err := unitcfg.Port(cfg)
	if err != nil {
		fail(err)
	}
	p, err := memsys.NewPort(pp)
	if err != nil {
		fail(err)
	}
	return &port{p: p}
}

func (p *port) cycle(r *memsys.Request) *memsys.PortOutputs {
	o := p.p.Step(r)
	if o.Err != nil {
		fail(o.Err)
	}
	p.resp = append(p.resp, o.Responses()...)
	return o
}

// do performs r alone: it returns its latency and facts.
func (p *port) do(r memsys.Request) (uint64, memsys.Facts) {
	var f memsys.Facts
	for {
		o := p.cycle(&r)
		if o.Ready {
			f = o.Facts
			break
		}
	}
	for len(p.resp) == 0 {
		p.cycle(nil)
	}
	x := p.resp[0]
	p.resp = p.resp[:0]
	return x.Cycle - x.Issued, f
}

func oneLane(op memsys.Op, sp memsys.Space, size int, a uint64) memsys.Request {
	r := memsys.Request{Op: op, Space: sp, Size: size, Mask: 1}
	r.Addr[0] = a
	return r
}

// chase returns the mean latency of the last of passes passes over lines,
// one dependent 8-byte load at a time (the chase kernel's pattern).
func (p *port) chase(lines []uint64, passes int) float64 {
	var sum uint64
	for k := 0; k < passes; k++ {
		sum = 0
		for _, a := range lines {
			l, _ := p.do(oneLane(memsys.OpLoad, memsys.SpaceGlobal, 8, a))
			sum += l
		}
	}
	return float64(sum) / float64(len(lines))
}

// chainLines returns n line addresses from base on that keep accepts, in a
// fixed shuffled order (the chase's chain).
func chainLines(base uint64, n int, keep func(uint64) bool) []uint64 {
	var out []uint64
	for a := base; len(out) < n; a += memsys.LineBytes {
		if keep == nil || keep(a) {
			out = append(out, a)
		}
	}
	rand.New(rand.NewSource(1)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func warpReq(op memsys.Op, sp memsys.Space, size int, base uint64, strideBytes int) memsys.Request {
	r := memsys.Request{Op: op, Space: sp, Size: size, Mask: ^uint32(0)}
	for l := range r.Addr {
		r.Addr[l] = base + uint64(l*strideBytes)
	}
	return r
}

// stream issues warp requests of 16-byte lanes (the stream kernel's uint4
// accesses: 4 lines each) over span lines from base on, wrapping, as fast
// as the port takes them, for cycles cycles.
func (p *port) stream(base uint64, span, cycles int) {
	i := 0
	for c := 0; c < cycles; c++ {
		r := warpReq(memsys.OpLoad, memsys.SpaceGlobal, 16, base+uint64((4*i)%span)*memsys.LineBytes, 16)
		if o := p.cycle(&r); o.Ready {
			i++
		}
		p.resp = p.resp[:0]
	}
}

func memsysLines(cfg config.Config) {
	const src = "memsys"
	hp, err := unitcfg.MemSys(cfg)
	if err != nil {
		fail(err)
	}
	near := hp.L2.Near
	far := func(a uint64) bool { return !near(a) }
	l1Lines := hp.L1.SizeBytes / memsys.LineBytes

	p := newPort(cfg)
	add(src, "L1 hit latency, chase (cycles)", p.chase(chainLines(1<<30, 64, nil), 2), pubL1, lat, "64 lines, second pass")
	p = newPort(cfg)
	add(src, "L2 hit latency, near partition (cycles)", p.chase(chainLines(2<<30, 2*l1Lines, near), 2), pubL2Near, lat, "2x the L1's lines")
	if hp.L2.Partitions > 1 {
		p = newPort(cfg)
		add(src, "L2 hit latency, far partition (cycles)", p.chase(chainLines(3<<30, 2*l1Lines, far), 2), pubL2Far, lat, "2x the L1's lines")
	}
	p = newPort(cfg)
	add(src, "DRAM latency, cold chase (cycles)", p.chase(chainLines(4<<30, 4096, nil), 1), pubDRAM, lat, "4096 lines never touched")

	p = newPort(cfg)
	sh, _ := p.do(oneLane(memsys.OpLoad, memsys.SpaceShared, 4, 0))
	add(src, "shared-memory load latency (cycles)", float64(sh), pubSmem, lat, "")
	for _, n := range []int{0, 1, 2, 4, 8, 16, 32} {
		r := warpReq(memsys.OpLoad, memsys.SpaceShared, 4, 0, 4*n)
		l, f := p.do(r)
		name := fmt.Sprintf("shared %d-way conflict: wavefronts", n)
		pub := float64(n)
		if n == 0 {
			name, pub = "shared broadcast: wavefronts", 1
		}
		add(src, name, float64(f.Wavefronts), pub, exact, fmt.Sprintf("%d replays, %d cycles", f.Conflicts, l))
	}
	for i, s := range []int{1, 2, 4, 8} {
		_, f := p.do(warpReq(memsys.OpLoad, memsys.SpaceGlobal, 4, 5<<30, 4*s))
		add(src, fmt.Sprintf("4-byte loads, stride %d words: sectors", s), float64(f.Sectors), float64(int(4)<<i), exact, fmt.Sprintf("%d lines", f.Lines))
	}

	// Shared-memory bandwidth: conflict-free 4-byte warp loads, one offered
	// every cycle.
	p = newPort(cfg)
	const window = 20000
	taken := 0
	for c := 0; c < window; c++ {
		r := warpReq(memsys.OpLoad, memsys.SpaceShared, 4, uint64(c%8)*128, 4)
		if o := p.cycle(&r); o.Ready {
			taken++
		}
		p.resp = p.resp[:0]
	}
	add(src, "shared-memory bandwidth (B/clk/SM)", float64(taken*128)/window, pubSmemBW, bw, "")

	// DRAM: a cold stream; L2: a stream over twice the L1, filled first.
	p = newPort(cfg)
	p.stream(6<<30, 1<<24, 20000)
	d0 := p.p.Metrics().DRAM
	p.stream(7<<30, 1<<24, 200000)
	d1 := p.p.Metrics().DRAM
	add(src, "DRAM read bandwidth, stream (B/clk/SM)", float64(d1.BytesRead-d0.BytesRead)/200000, pubDRAMBW(), bw,
		fmt.Sprintf("%d cycles in the DRAM queue", d1.QueueCycles-d0.QueueCycles))
	p = newPort(cfg)
	span := 2 * l1Lines
	p.stream(8<<30, span, 300000)
	s0 := p.p.Metrics().L2
	p.stream(8<<30, span, 200000)
	s1 := p.p.Metrics().L2
	add(src, "L2 read bandwidth, stream (B/clk/SM)", float64((s1.SectorsRead-s0.SectorsRead)*memsys.SectorBytes)/200000, pubL2BW, bw,
		fmt.Sprintf("%d-line working set, %d L2 sector misses", span, s1.SectorMisses-s0.SectorMisses))
}

// ---- pipethrottle ------------------------------------------------------

func pipeLines(cfg config.Config) {
	u, err := pipethrottle.New(unitcfg.PipeThrottle(cfg))
	if err != nil {
		fail(err)
	}
	for q := pipethrottle.Pipe(0); q < pipethrottle.NumPipes; q++ {
		u.Reset()
		var in pipethrottle.Inputs
		for k := 0; k < cfg.Sched.Count; k++ {
			in.ReqValid[k], in.ReqPipe[k] = true, uint8(q)
		}
		const n = 8000
		acc := 0
		for c := 0; c < n; c++ {
			o := u.Eval(in)
			for k := range o.Accept {
				if o.Accept[k] {
					acc++
				}
			}
			u.Tick()
		}
		add("pipe", fmt.Sprintf("%s pipe throughput (results/clk/SM)", q), float64(acc*32)/n, scaled(cfg, pubPipe[q]), bw, "")
	}
}

// scaled is a published per-SM rate for the preset: the h100 figure, or
// for another preset the same per scheduler.
func scaled(cfg config.Config, h100 float64) float64 { return h100 * float64(cfg.Sched.Count) / 4 }

// ---- sm ----------------------------------------------------------------

type report struct {
	Status  string              `json:"status"`
	Cycles  uint64              `json:"cycles"`
	Buffers map[string][]uint32 `json:"buffers"`
	Metrics map[string]float64  `json:"metrics"`
}

// run runs smsim on a kernel and returns the report and the words of its
// output buffer (the PTX parameter name).
func run(ptx, entry, outParam string, args ...string) ([]uint32, report) {
	a := append([]string{"run", filepath.Join(*dir, ptx), "--entry", entry, "--preset", *preset, "--json",
		"--set", "run.max_cycles=0", "--set", "run.watchdog_cycles=0"}, args...)
	if *sets != "" {
		for _, kv := range strings.Split(*sets, ",") {
			a = append(a, "--set", kv)
		}
	}
	cmd := exec.Command(*smsim, a...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var r report
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil || r.Status != "completed" {
		fail(fmt.Errorf("%s %s: %v %v: %s%s", *smsim, strings.Join(a, " "), err, jerr, errb.String(), out.String()))
	}
	w, ok := r.Buffers[entry+"_param_"+outParam]
	if !ok {
		fail(fmt.Errorf("%s: no buffer %s_param_%s in the report", entry, entry, outParam))
	}
	return w, r
}

// chainFile writes the chase's chain over lines (byte offsets from the
// buffer's start, in chase order, each line's first word holding the
// address, base + offset, of the next line) and returns its size. The
// chase starts at the buffer's first word: when offset 0 is not a line of
// the chain, that word points at the chain's first line (one step outside
// the chain, taken in the warm pass, or the first step of a cold one).
func chainFile(path string, offs []uint64, base uint64) int {
	size := 0
	for _, o := range offs {
		size = max(size, int(o)+memsys.LineBytes)
	}
	b := make([]byte, size)
	if len(offs) > 0 {
		binary.LittleEndian.PutUint64(b, base+offs[0])
	}
	for i, o := range offs {
		binary.LittleEndian.PutUint64(b[o:], base+offs[(i+1)%len(offs)])
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		fail(err)
	}
	return size
}

// warpsSpan is the cycles from the first warp's start to the last warp's
// end of a kernel that writes each warp's start and end %clock64 low
// words to out[2w] and out[2w+1] (pipes.cu, smem.cu: smem_bw).
func warpsSpan(out []uint32, warps int) uint32 {
	first, last := out[0], out[1]
	for k := 1; k < warps; k++ {
		if int32(out[2*k]-first) < 0 {
			first = out[2*k]
		}
		if int32(out[2*k+1]-last) > 0 {
			last = out[2*k+1]
		}
	}
	return last - first
}

func smLines(cfg config.Config, tmp string) {
	const src = "sm"
	hp, err := unitcfg.MemSys(cfg)
	if err != nil {
		fail(err)
	}
	l1Lines := hp.L1.SizeBytes / memsys.LineBytes
	u := strconv.Itoa

	// Chases. The buffer's address comes from a first run (the allocation
	// is deterministic); lines of one partition are picked by address.
	chaseEntry := func(entry, name string, n, warm int, keep func(uint64) bool, pub float64, note string) {
		probe := filepath.Join(tmp, "probe.bin")
		var offs []uint64
		span := uint64(8*n) * memsys.LineBytes // room to pick n lines of one partition
		for o := uint64(0); o < span; o += memsys.LineBytes {
			offs = append(offs, o)
		}
		size := chainFile(probe, offs, 0)
		w, _ := run("chase.ptx", "chase", "1", "--buf", "0=@"+probe, "--buf", "1=64", "--arg", "2=0", "--arg", "3=0")
		base := uint64(w[3]) | uint64(w[4])<<32
		offs = offs[:0]
		for o := uint64(0); len(offs) < n; o += memsys.LineBytes {
			if keep == nil || keep(base+o) {
				offs = append(offs, o)
			}
		}
		rand.New(rand.NewSource(1)).Shuffle(len(offs), func(i, j int) { offs[i], offs[j] = offs[j], offs[i] })
		file := filepath.Join(tmp, "chain.bin")
		if s := chainFile(file, offs, base); s < size {
			// same buffer size as the probe, so the same address
			b, _ := os.ReadFile(file)
			os.WriteFile(file, append(b, make([]byte, size-s)...), 0o644)
		} else if s > size {
			fail(fmt.Errorf("chain of %d bytes beyond the probe's %d", s, size))
		}
		w, _ = run("chase.ptx", entry, "1", "--buf", "0=@"+file, "--buf", "1=64", "--arg", "2="+u(n), "--arg", "3="+u(warm))
		if b := uint64(w[3]) | uint64(w[4])<<32; b != base {
			fail(fmt.Errorf("the chain buffer moved from %#x to %#x", base, b))
		}
		add(src, name, float64(w[0])/float64(w[1]), pub, lat, note)
	}
	chase := func(name string, n, warm int, keep func(uint64) bool, pub float64, note string) {
		chaseEntry("chase", name, n, warm, keep, pub, note)
	}
	near := hp.L2.Near
	chase("L1 hit latency, chase (cycles)", 64, 1, nil, pubL1, "one load a step")
	chase("L2 hit latency, near partition (cycles)", 2*l1Lines, 1, near, pubL2Near, "one load a step")
	if hp.L2.Partitions > 1 {
		chase("L2 hit latency, far partition (cycles)", 2*l1Lines, 1, func(a uint64) bool { return !near(a) }, pubL2Far, "one load a step")
	}
	// The L2 latency as the microbenchmark papers often take it: ld.cg
	// (cached in the L2 only) over a chain that would fit the L1.
	chaseEntry("chase_cg", "L2 hit latency, near, ld.global.cg (cycles)", 64, 1, near, pubL2Near, "64 lines, the L1 bypassed")
	chase("DRAM latency, cold chase (cycles)", min(4096, int(cfg.SM.GlobalBytes/(16*memsys.LineBytes))), 0, nil, pubDRAM, "one load a step")

	const steps = 512
	w, _ := run("smem.ptx", "smem_chase", "0", "--buf", "0=64", "--arg", "1="+u(steps))
	add(src, "shared-memory load latency (cycles)", float64(w[0])/float64(w[1]), pubSmem, lat, "one load a step")
	var base float64
	for _, n := range []int{1, 2, 4, 8, 16, 32, 0} {
		w, _ := run("smem.ptx", "smem_conflict", "0", "--block", "32", "--buf", "0=256", "--arg", "1="+u(steps), "--arg", "2="+u(n))
		c := float64(w[0]) / float64(w[1])
		if n == 1 {
			base = c
			continue
		}
		name := fmt.Sprintf("shared %d-way conflict: extra cycles/load", n)
		pub := float64(n - 1)
		if n == 0 {
			name, pub = "shared broadcast: extra cycles/load", 0
		}
		// The per-load figures are averages over the loop (its fixed
		// start-up spread over the loads): their difference is an integer
		// number of replay cycles up to that rounding.
		add(src, name, math.Round(c-base), pub, exact, fmt.Sprintf("%.2f cycles/load, conflict-free %.2f", c, base))
	}
	// Bandwidth: up to 32 warps, each 8 independent conflict-free 16-byte
	// loads a step (512 bytes, 4 wavefronts a warp request).
	{
		const iters = 32
		n := min(1024, cfg.SM.MaxThreadsPerCTA, cfg.SM.MaxWarps*32)
		w, _ := run("smem.ptx", "smem_bw", "0", "--block", u(n), "--buf", "0="+u(4*(64+n)), "--arg", "1="+u(iters))
		add(src, "shared-memory bandwidth (B/clk/SM)", float64(n*iters*8*16)/float64(warpsSpan(w, n/32)), pubSmemBW, bw,
			fmt.Sprintf("%d threads x %d steps x 8 ld.shared.v4", n, iters))
	}

	for _, s := range []int{1, 2, 4, 8} {
		const reps = 64
		w, r := run("strided.ptx", "strided", "1", "--block", "32", "--buf", "0="+u(reps*32*s*4), "--buf", "1=256", "--arg", "2="+u(s), "--arg", "3="+u(reps))
		if r.Metrics == nil {
			// mem.model flat: no memory metrics, only the time
			add(src, fmt.Sprintf("4-byte loads, stride %d words: cycles/load", s), float64(w[0])/float64(w[1]), 0, info, "mem.model flat: no sector counts")
			continue
		}
		// The kernel's only global loads are the strided ones (reps warp
		// requests); the report's sector count is theirs.
		req, sec := r.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], r.Metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
		add(src, fmt.Sprintf("4-byte loads, stride %d words: sectors/request", s), sec/req, float64(4*s), exact,
			fmt.Sprintf("%.0f requests; %.1f cycles/load", req, float64(w[0])/float64(w[1])))
	}

	const threads, iters = 512, 128
	for q := pipethrottle.Pipe(0); q < pipethrottle.NumPipes; q++ {
		n := min(threads, cfg.SM.MaxThreadsPerCTA, cfg.SM.Regfile/128) // up to 80 registers a thread (fp64)
		w, _ := run("pipes.ptx", "pipe_"+q.String(), "0", "--block", u(n), "--buf", "0="+u(4*(64+n)), "--arg", "1="+u(iters))
		add(src, fmt.Sprintf("%s pipe throughput (results/clk/SM)", q), float64(n*iters*64)/float64(warpsSpan(w, n/32)), scaled(cfg, pubPipe[q]), bw,
			fmt.Sprintf("%d threads x 32 chains x 2", n))
	}

	// Streams: 2 CTAs of 1024 threads (h100: 64 warps); small: what fits.
	cta := min(cfg.SM.MaxThreadsPerCTA, 1024)
	grid := max(1, min(2, cfg.SM.MaxWarps*32/cta))
	nt := cta * grid
	dramBytes := min(4<<20, int(cfg.SM.GlobalBytes/4))
	_, r := run("stream.ptx", "stream_read", "1", "--grid", u(grid), "--block", u(cta), "--buf", "0="+u(dramBytes), "--buf", "1="+u(4*nt), "--arg", "2="+u(dramBytes/16), "--arg", "3=1")
	add(src, "DRAM read bandwidth, stream (B/clk/SM)", float64(dramBytes)/float64(r.Cycles), pubDRAMBW(), bw, fmt.Sprintf("%d KiB read once, report cycles", dramBytes>>10))
	l2Bytes := 2 * hp.L1.SizeBytes
	_, r = run("stream.ptx", "stream_read", "1", "--grid", u(grid), "--block", u(cta), "--buf", "0="+u(l2Bytes), "--buf", "1="+u(4*nt), "--arg", "2="+u(l2Bytes/16), "--arg", "3=8")
	add(src, "L2 read bandwidth, stream (B/clk/SM)", float64(8*l2Bytes)/float64(r.Cycles), pubL2BW, bw, fmt.Sprintf("%d KiB read 8 times (first pass cold)", l2Bytes>>10))
	// The copy's stores write through the L1 into the L2, which holds them
	// (write-back) until a line is evicted. On the GPU, 132 SMs streaming
	// share the L2, so a copy's dirty lines go back to DRAM and share its
	// bandwidth with the reads. l2.capacity_sms = sm.count gives this SM
	// that share of the L2 (397 KiB on h100); with the whole L2 (1) the 4
	// MiB copy would fit, its writes would never reach DRAM, and the line
	// would measure the reads at DRAM rate plus the writes at L2 rate.
	_, r = run("stream.ptx", "stream_copy", "1", "--grid", u(grid), "--block", u(cta), "--buf", "0="+u(dramBytes/2), "--buf", "1="+u(dramBytes/2), "--arg", "2="+u(dramBytes/32), "--arg", "3=1",
		"--set", "l2.capacity_sms="+u(cfg.SM.Count))
	add(src, "DRAM copy bandwidth, stream (B/clk/SM)", float64(dramBytes)/float64(r.Cycles), pubDRAMBW(), bw,
		fmt.Sprintf("read + write bytes, l2.capacity_sms=%d: %.1f B/clk of DRAM traffic", cfg.SM.Count, (r.Metrics["dram__bytes_read.sum"]+r.Metrics["dram__bytes_write.sum"])/float64(r.Cycles)))
}
