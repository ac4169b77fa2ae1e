// The example registry (constructors) and the helpers the references share.

package examples

// constructors builds each example; the references below mirror the .cu
// files line by line (u32 is uint32, int is int32, u64 is uint64).
var constructors = map[string]func() *Example{
	"div_ifelse":       exDivIfelse,
	"div_nested":       exDivNested,
	"loop_tripcount":   exLoopTripcount,
	"switch_dense":     exSwitchDense,
	"brx_idx":          exBrxIdx,
	"call_direct":      exCallDirect,
	"recursion":        exRecursion,
	"indirect_call":    exIndirectCall,
	"exit_partial":     exExitPartial,
	"smem_reduce":      exSmemReduce,
	"atomics":          exAtomics,
	"sreg_all":         exSregAll,
	"sreg_cluster":     exSregCluster,
	"nanosleep":        exNanosleep,
	"pmevent":          exPmevent,
	"sleep_lanes":      exSleepLanes,
	"trap_divergent":   exTrapDivergent,
	"cta_continuation": exCTAContinuation,
	"brkpt":            exBrkpt,
	"setmaxnreg":       exSetmaxnreg,
	"int64_math":       exInt64Math,
	"float_saxpy":      exFloatSaxpy,
	"int_bitops":       exIntBitops,
	"bench_intloop":    exBenchIntloop,
	"demo_collatz":     exDemoCollatz,
	"local_array":      exLocalArray,
}

// buffers makes the Buffers of an entry from (name, words, init) triples in
// parameter order starting at parameter first.
func buffers(entry string, first int, specs ...bufSpec) []Buffer {
	bs := make([]Buffer, len(specs))
	for i, s := range specs {
		bs[i] = Buffer{Param: param(entry, first+i), Name: s.name, Words: s.words, Init: s.init}
	}
	return bs
}

type bufSpec struct {
	name  string
	words int
	init  []uint32
}

func fill(n int, v uint32) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = v
	}
	return w
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
