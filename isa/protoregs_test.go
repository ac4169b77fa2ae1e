package isa

import "testing"

// TestProtoCallRegs: a kernel whose only call is an indirect call through
// a .callprototype gets the registers and predicates of every compatible
// function, as it may reach any of them (found by randprog: the callee
// wrote a predicate the kernel's count did not hold).
func TestProtoCallRegs(t *testing.T) {
	src := `.version 7.8
.target sm_90
.address_size 64
.visible .func (.param .b32 func_retval0) f(.param .b32 f_param_0)
{
	.reg .pred %p<3>;
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [f_param_0];
	setp.eq.s32 %p1, %r1, 3;
	setp.eq.s32 %p2, %r1, 5;
	and.pred %p1, %p1, %p2;
	selp.b32 %r2, 1, 2, %p1;
	st.param.b32 [func_retval0+0], %r2;
	ret;
}
.visible .global .align 8 .u64 tab[1] = {f};
.visible .entry k(.param .u64 k_param_0)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	ld.global.u64 %rd1, [tab];
	mov.u32 %r1, %tid.x;
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
	call (retval0), %rd1, (param0), prototype_0;
	ld.param.b32 %r2, [retval0+0];
	}
	ld.param.u64 %rd2, [k_param_0];
	st.global.u32 [%rd2], %r2;
	ret;
}
`
	im, err := AssembleSource("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	k, _ := im.Kernel("k")
	var f FuncInfo
	for _, fn := range im.Funcs {
		if fn.Name == "f" {
			f = fn
		}
	}
	if f.Preds == 0 || k.Preds < f.Preds || k.Regs < f.Regs {
		t.Fatalf("kernel: %d registers, %d predicates; callee f: %d, %d", k.Regs, k.Preds, f.Regs, f.Preds)
	}
}
