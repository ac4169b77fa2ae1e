package examples

// Trap-handler launch parameters of the cta_continuation example.
const (
	// CTAContinuationHandler is the .func cta_continuation runs as its
	// trap handler.
	CTAContinuationHandler = "cta_continuation_handler"
	// CTAContinuationN is the number of continuation points per warp
	// (the kernel's n argument).
	CTAContinuationN = 3
)

// CTAContinuationLog is the handler's log word of one warp after n
// continuation points (words[2w+1]): log = log*31 + progress for each,
// the progress word being 1, 2, ..., n; syscall adds the system call's
// 1000000.
func CTAContinuationLog(n int, syscall bool) uint32 {
	var log uint32
	for k := 1; k <= n; k++ {
		log = log*31 + uint32(k)
	}
	if syscall {
		log += 1000000
	}
	return log
}

func exCTAContinuation() *Example {
	const entry = "_Z16cta_continuationPjS_j"
	const n = CTAContinuationN
	const warps = 4
	e := &Example{
		Name: "cta_continuation", Entry: entry,
		Grid: Dim3{2, 1, 1}, Block: Dim3{64, 1, 1},
		Buffers:     buffers(entry, 0, bufSpec{"out", 128, nil}, bufSpec{"words", 2 * warps, nil}),
		Args:        map[string]uint64{param(entry, 2): n},
		Features:    []string{"loop", "divergence", "sreg"},
		TrapHandler: CTAContinuationHandler,
		OnTrap:      "resume",
		Notes:       "BPT.TRAP 2 continuation points and a BPT.TRAP 3 system call served by a trap handler .func (S2R SR_WARP_ESR, BPT.PAUSE_QUIET, BPT.DRAIN, BPT.PAUSE, RTT) through per-warp words in global memory",
	}
	e.Expect = func(env Env) map[string][]uint32 {
		m := e.Initial()
		out, words := m[param(entry, 0)], m[param(entry, 1)]
		nn := uint32(e.Args[param(entry, 2)])
		for _, t := range e.Threads() {
			acc := uint32(t.Global) + 1
			for k := uint32(0); k < nn; k++ {
				acc = acc*3 + k
			}
			out[t.Global] = acc
		}
		for w := 0; w < warps; w++ {
			if nn > 0 {
				words[2*w] = nn
			}
			words[2*w+1] = CTAContinuationLog(int(nn), w == 1)
		}
		return m
	}
	return e
}
