// Package testptx holds small PTX kernels that the tests of several
// packages (cmd/smsim, device) run.
package testptx

// StoreTid is a kernel k(out) in which every thread stores its %tid.x
// at out[%tid.x] (u32 words).
const StoreTid = `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd1, %r1, 4;
	add.s64 %rd2, %rd2, %rd1;
	st.global.u32 [%rd2], %r1;
	ret;
}
`
