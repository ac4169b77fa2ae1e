package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// Seed 002: the trap "will leave the PC pointing to the instruction
// immediately following the BPT.TRAP". A handler whose last instruction
// is RTT must go back there, whatever follows the handler in the module:
// here a function that uses far more registers than the kernel (once the
// simulator looked at that function's first instruction after RTT, with
// the kernel's register bank, and crashed with an index out of range).
func TestRTTLastInstructionBeforeABiggerFunction(t *testing.T) {
	var big strings.Builder
	big.WriteString(".func (.reg .u32 rv) big (.reg .u32 a)\n{\n\t.reg .b32 %b<200>;\n\tmov.u32 %b0, a;\n")
	for i := 1; i < 200; i++ {
		fmt.Fprintf(&big, "\tadd.u32 %%b%d, %%b%d, %d;\n", i, i-1, i)
	}
	big.WriteString("\tmov.u32 rv, %b199;\n\tret;\n}\n")
	src := `.visible .func handler()
{
	RTT;
}
` + big.String() + kernel(`
	mov.u32 %r5, 7;
	BPT.TRAP 1;
	add.u32 %r5, %r5, 1;
	st.global.u32 [%rd3], %r5;
	ret;`)
	_, rep := runPTX(t, trapCfg(), src, Launch{Block: [3]uint32{32, 1, 1}, Buffers: outBuf(32)})
	wantCompleted(t, rep)
	for l, v := range rep.Buffers["out"] {
		if v != 8 {
			t.Fatalf("out[%d] = %d, want 8 (the warp resumes after BPT.TRAP)", l, v)
		}
	}
}
