package pipeline_test

import (
	"fmt"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/pipeline"
)

// Example runs a one-warp kernel that writes each thread's lane id times
// a scalar argument into a buffer.
func Example() {
	src := `.version 7.8
.target sm_90
.address_size 64
.visible .entry scale(.param .u64 out, .param .u32 k)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [k];
	mov.u32 %r2, %laneid;
	mul.lo.u32 %r3, %r2, %r1;
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	ret;
}
`
	im, err := isa.AssembleSource("scale.ptx", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, _ := config.Preset("small")
	sm, err := pipeline.New(cfg, im, pipeline.Launch{
		Entry: "scale", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1},
		Args:    map[string]uint64{"k": 3},
		Buffers: []pipeline.Buffer{{Param: "out", Size: 32 * 4}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, _ := sm.Run()
	fmt.Println(rep.Status, rep.WarpInstructions, rep.Buffers["out"][:5])

	// A launch that cannot run names the culprit.
	_, err = pipeline.New(cfg, im, pipeline.Launch{Entry: "scale", Grid: [3]uint32{1, 1, 1}, Block: [3]uint32{32, 1, 1}})
	fmt.Println(err)
	// Output:
	// completed 8 [0 3 6 9 12]
	// parameter out (.u64) is neither bound nor given: it needs a buffer or an address in Args
}
