package isa_test

import (
	"path/filepath"
	"testing"

	"github.com/smsim/smsim/isa"
)

// TestISA16Kernels: the clang-16 kernels of issue 16's instructions
// (pipeline/testdata/isa16, run and checked word by word by the pipeline
// tests) assemble and round-trip through the binary image and the
// disassembly.
func TestISA16Kernels(t *testing.T) {
	files := ptxFiles(t, filepath.Join("..", "pipeline", "testdata", "isa16"))
	if len(files) == 0 {
		t.Fatal("no kernels")
	}
	for _, f := range files {
		im, err := assembleFile(t, f)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		checkRoundTrip(t, f, im)
	}
}

// TestISA16Errors: issue 16's instructions in forms the ISA does not
// define, or the machine does not run, are refused at their position
// (an unsupported form says "unsupported:").
func TestISA16Errors(t *testing.T) {
	const regs = ".reg .f32 %f<4>;\n.reg .f16 %h<4>;\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
	cases := []struct{ name, body, want string }{
		{"lg2.f16", "lg2.approx.f16 %h1, %h2;", "t.ptx:11:1: lg2 has no .f16 form in PTX"},
		{"ex2.ftz.f16", "ex2.approx.ftz.f16 %h1, %h2;", "t.ptx:11:1: ex2.approx takes .ftz with .bf16/.bf16x2 and only with them"},
		{"tanh.ftz", "tanh.approx.ftz.f32 %f1, %f2;", "t.ptx:11:1: tanh.ftz is not PTX"},
		{"ex2 without approx", "ex2.ftz.f32 %f1, %f2;", "t.ptx:11:1: ex2 needs .approx"},
		{"sin.f64", "sin.approx.f64 %rd1, %rd2;", "t.ptx:11:1: sin needs .f32"},
		{"testp without property", "testp.f32 %p1, %f1;", "t.ptx:11:1: testp needs a property"},
		{"testp bad property", "testp.odd.f32 %p1, %f1;", "t.ptx:11:1: testp.odd is not PTX (testp takes one of .finite .infinite .number .notanumber .normal .subnormal)"},
		{"copysign.f16", "copysign.f16 %h1, %h2, %h3;", "t.ptx:11:1: copysign needs .f32 or .f64"},
		{"mul24.u64", "mul24.lo.u64 %rd1, %rd2, %rd3;", "t.ptx:11:1: mul24 needs .u32 or .s32"},
		{"mul24 no mode", "mul24.u32 %r1, %r2, %r3;", "t.ptx:11:1: mul24 needs .lo or .hi"},
		{"mad24.lo.sat", "mad24.lo.sat.s32 %r1, %r2, %r3, %r4;", "t.ptx:11:1: mad24.sat needs .hi.s32"},
		{"add.cc.u16", ".reg .u16 %s<3>;\nadd.cc.u16 %s1, %s2, %s0;", "t.ptx:12:1: add with a carry needs .u32, .s32, .u64 or .s64"},
		{"addc.sat", "addc.sat.s32 %r1, %r2, %r3;", "t.ptx:11:1: addc with a carry takes no .sat"},
		{"mad.wide.cc", "mad.wide.cc.u32 %rd1, %r2, %r3, %rd2;", "t.ptx:11:1: mad with a carry needs .lo or .hi"},
		{"dp4a one type", "dp4a.u32 %r1, %r2, %r3, %r4;", "t.ptx:11:1: dp4a needs two types"},
		{"dp2a no mode", "dp2a.u32.u32 %r1, %r2, %r3, %r4;", "t.ptx:11:1: dp2a needs .lo or .hi"},
		{"bmsk no mode", "bmsk.b32 %r1, %r2, %r3;", "t.ptx:11:1: bmsk needs .clamp or .wrap"},
		{"szext.b32", "szext.clamp.b32 %r1, %r2, %r3;", "t.ptx:11:1: szext needs .u32 or .s32"},
		{"lop3 register table", "lop3.b32 %r1, %r2, %r3, %r4, %r5;", "t.ptx:11:30: lop3 truth table must be an integer constant 0..255"},
		{"lop3.xor", "lop3.xor.b32 %r1|%p1, %r2, %r3, %r4, 0x80, %p2;", "t.ptx:11:1: lop3.xor is not PTX (lop3 takes .and or .or)"},
		{"redux without sync", "redux.add.u32 %r1, %r2, 0xffffffff;", "t.ptx:11:1: redux needs .sync"},
		{"redux.add.b32", "redux.sync.add.b32 %r1, %r2, 0xffffffff;", "t.ptx:11:1: redux.sync.add needs .u32 or .s32"},
		{"redux.and.u32", "redux.sync.and.u32 %r1, %r2, 0xffffffff;", "t.ptx:11:1: redux.sync.and needs .b32"},
		{"redux.f32", "redux.sync.min.f32 %f1, %f2, 0xffffffff;", "t.ptx:11:1: unsupported: redux.sync.min.f32"},
		{"match.any pred", "match.any.sync.b32 %r1|%p1, %r2, 0xffffffff;", "t.ptx:11:1: match.any has no predicate destination"},
		{"match no mode", "match.sync.b32 %r1, %r2, 0xffffffff;", "t.ptx:11:1: match needs .sync and .any or .all"},
		{"match.u16", ".reg .u16 %s<3>;\nmatch.any.sync.b16 %r1, %s1, 0xffffffff;", "t.ptx:12:1: match needs .b32 or .b64"},
		{"elect without p", "elect.sync %r1, 0xffffffff;", "t.ptx:11:1: elect.sync writes d|p"},
		{"ex2.bf16x2 without ftz", "ex2.approx.bf16x2 %r1, %r2;", "t.ptx:11:1: ex2.approx takes .ftz with .bf16/.bf16x2 and only with them"},
		{"sin.f16x2", "sin.approx.f16x2 %r1, %r2;", "t.ptx:11:1: sin has no .f16x2 form in PTX"},
		{"div.bf16", "div.rn.bf16 %h1, %h2, %h3;", "t.ptx:11:1: div.bf16 is not PTX"},
		{"add.rz.f16x2", "add.rz.f16x2 %r1, %r2, %r3;", "t.ptx:11:1: add.rz.f16x2 is not PTX (the half types round with .rn only)"},
		{"add.ftz.bf16", "add.ftz.bf16 %h1, %h2, %h3;", "t.ptx:11:1: add.ftz/.sat on .bf16 is not PTX"},
		{"add.relu", "add.relu.f16x2 %r1, %r2, %r3;", "t.ptx:11:1: add.relu.f16x2 is not PTX (.relu belongs to fma of the half types, cvt and max/min of .s32)"},
		{"mad.f16x2", "mad.rn.f16x2 %r1, %r2, %r3, %r4;", "t.ptx:11:1: mad.f16x2 is not PTX"},
		{"setp.f16x2 one p", "setp.lt.f16x2 %p1, %r1, %r2;", "t.ptx:11:1: setp.f16x2 writes p|q"},
		{"setp.e4m3x2", ".reg .b16 %s<3>;\nsetp.lt.e4m3x2 %p1|%p2, %s1, %s2;", "t.ptx:12:1: setp.e4m3x2 is not PTX: the fp8 types appear only in cvt"},
		{"add.e4m3x2", ".reg .b16 %s<3>;\nadd.rn.e4m3x2 %s1, %s1, %s2;", "t.ptx:12:1: add.e4m3x2 is not PTX: the fp8 types appear only in cvt"},
		{"cvt scalar e4m3 from f32", ".reg .b16 %s<3>;\ncvt.rn.satfinite.e4m3.f32 %s1, %f1;", "t.ptx:12:1: cvt.e4m3.f32 is not PTX: fp8 conversions take the pairs .e4m3x2/.e5m2x2"},
		{"cvt f32 from scalar e5m2", ".reg .b16 %s<3>;\ncvt.f32.e5m2 %f1, %s1;", "t.ptx:12:1: cvt.f32.e5m2 is not PTX: fp8 conversions take the pairs .e4m3x2/.e5m2x2"},
		{"cvt f16 from scalar e4m3", ".reg .b16 %s<3>;\ncvt.rn.f16.e4m3 %h1, %s1;", "t.ptx:12:1: cvt.f16.e4m3 is not PTX: fp8 conversions take the pairs .e4m3x2/.e5m2x2"},
		{"cvt e4m3x2 without satfinite", ".reg .b16 %s<3>;\ncvt.rn.e4m3x2.f32 %s1, %f1, %f2;", "t.ptx:12:1: cvt.e4m3x2.f32 needs .rn.satfinite"},
		{"cvt f16x2.f16", "cvt.rn.f16x2.f16 %r1, %h1;", "t.ptx:11:1: cvt.f16x2.f16 is not PTX (the x2 conversions: .f16x2/.bf16x2 from two .f32, fp8 pairs from two .f32 or an .f16x2, .f16x2 from an fp8 pair)"},
		{"cvt tf32 from f16", "cvt.rna.tf32.f16 %r1, %h1;", "t.ptx:11:1: cvt.tf32.f16 is not PTX (tf32 conversions are cvt.{rna,rn,rz}.tf32.f32)"},
		{"cvt tf32 rm", "cvt.rm.tf32.f32 %r1, %f1;", "t.ptx:11:1: cvt.tf32.f32 needs .rn, .rz or .rna"},
		{"add.rna", "add.rna.f32 %f1, %f2, %f3;", "t.ptx:11:1: unsupported: add.rna"},
		{"cvt relu to f32", "cvt.relu.f32.f16 %f1, %h1;", "t.ptx:11:1: cvt.f32.f16 with .relu or .satfinite is not PTX (only to f16, bf16 and tf32 from f32 and in the x2 forms)"},
		{"cvt.pack.sat.u32", "cvt.pack.sat.u32.s32.b32 %r1, %r2, %r3, %r4;", "t.ptx:11:1: cvt.pack.sat.u32.s32.b32 is not PTX (the types are .u2 .s2 .u4 .s4 .u8 .s8 .u16 .s16)"},
		{"cvt.pack without sat", "cvt.pack.u8.s32.b32 %r1, %r2, %r3, %r4;", "t.ptx:11:1: cvt.pack needs .sat"},
		{"mbarrier.init.b32", ".shared .b64 bar;\nmbarrier.init.shared.b32 [bar], 4;", "t.ptx:12:1: mbarrier.init needs .b64"},
		{"cp.async.bulk", ".shared .b8 sm[16];\ncp.async.bulk.shared::cluster.global [sm], [%rd1], 16;", "t.ptx:12:1: cp.async.bulk.shared::cluster.global is not a cp.async.bulk form"},
		{"cp.async.cg 8", ".shared .b8 sm[16];\ncp.async.cg.shared.global [sm], [%rd1], 8;", "t.ptx:12:41: cp.async cp-size must be 4, 8 or 16 (.cg: 16)"},
		{"cp.async.wait_group reg", "cp.async.wait_group %r1;", "t.ptx:11:21: cp.async.wait_group needs an integer constant"},
		{"min.NaN.f64", "min.NaN.f64 %rd1, %rd2, %rd3;", "t.ptx:11:1: min.NaN/.xorsign on .f64 is not PTX (only on .f32 and the half types)"},
		{"max.xorsign without abs", "max.xorsign.f32 %f1, %f2, %f3;", "t.ptx:11:1: max.xorsign needs .abs"},
		{"add.NaN", "add.NaN.f32 %f1, %f2, %f3;", "t.ptx:11:1: unsupported: add.NaN"},
		{"set.f16", "set.lt.f16.f32 %h1, %f1, %f2;", "t.ptx:11:1: unsupported: set.f16"},
		{"slct.u32", "slct.b32.u32 %r1, %r2, %r3, %r4;", "t.ptx:11:1: slct needs .dtype.s32 or .dtype.f32"},
		{"cnot.u32", "cnot.u32 %r1, %r2;", "t.ptx:11:1: cnot needs .b16, .b32 or .b64"},
		{"createpolicy.b32", "createpolicy.fractional.L2::evict_last.b32 %r1, 1.0;", "t.ptx:11:1: createpolicy needs .b64 and a destination"},
		{"prefetch register", "prefetch.global.L2 %rd1;", "t.ptx:11:20: prefetch needs an address"},
		{"atom.add.f16x2 without noftz", "atom.global.add.f16x2 %r1, [%rd1], %r2;", "t.ptx:11:1: atom.noftz is the form of .f16x2/.bf16x2 add (and only of it)"},
		{"atom.max.f16x2", "atom.global.max.noftz.f16x2 %r1, [%rd1], %r2;", "t.ptx:11:1: unsupported: atom.max on .f16x2"},
		{"atom.add.f16", "atom.global.add.noftz.f16 %h1, [%rd1], %h2;", "t.ptx:11:1: unsupported: atom.add on .f16"},
		{"isspacep.tex", "isspacep.tex %p1, %rd1;", "t.ptx:11:1: isspacep.tex is not PTX (the spaces are .const, .global, .local, .shared{::cta,::cluster}, .param{::entry})"},
		{"cp.async.bulk multicast", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%rd1], [%rd2], 16, [%rd3], %r1;", "t.ptx:11:1: unsupported: cp.async.bulk.multicast::cluster"},
		{"cp.async.bulk.tensor", "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd2], [%rd3];", "t.ptx:11:1: unsupported: cp.async.bulk.tensor"},
		{"cp.async.bulk shared to global with an mbarrier", "cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd3];", "is not a cp.async.bulk form"},
		{"cp.async.bulk.wait_all", "cp.async.bulk.wait_all;", "t.ptx:11:1: cp.async.bulk.wait_all is not PTX (bulk async-groups are waited for with cp.async.bulk.wait_group)"},
		{"cp.reduce.async.bulk", "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%rd2], 16;", "t.ptx:11:1: unsupported: cp.reduce"},
		{"mbarrier.arrive.expect_tx.noComplete", "mbarrier.arrive.expect_tx.noComplete.shared.b64 %rd1, [%rd2], 16;", "t.ptx:11:1: mbarrier.arrive.expect_tx.noComplete.shared.b64 is not PTX (the operations are init, inval, arrive, arrive_drop, expect_tx, complete_tx, test_wait, try_wait and pending_count; .noComplete goes with arrive or arrive_drop without .expect_tx, .parity with test_wait or try_wait)"},
		{"mbarrier.test_wait.expect_tx", "mbarrier.test_wait.expect_tx.shared.b64 %p1, [%rd2], %rd1;", "t.ptx:11:1: mbarrier.test_wait.expect_tx is not PTX (only arrive and arrive_drop take .expect_tx)"},
		{"mbarrier.expect_tx without count", "mbarrier.expect_tx.shared.b64 [%rd2];", "t.ptx:11:1: mbarrier takes 2 operands, got 1"},
		{"cp.async.bulk.cp_mask", "cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [%rd2], 16, %r1;", "t.ptx:11:1: unsupported: cp.async.bulk.cp_mask"},
		{"mapa", "mapa.shared::cluster.u32 %r1, %r2, 1;", "t.ptx:11:1: unsupported: mapa.shared::cluster.u32"},
		{"mbarrier.arrive_drop.noComplete", "mbarrier.arrive_drop.noComplete.shared.b64 %rd1, [%rd2], 1;", "t.ptx:11:1: unsupported: mbarrier.arrive_drop.noComplete.shared.b64"},
		{"mbarrier unknown operation", "mbarrier.frob.shared.b64 %rd1, [%rd2];", "t.ptx:11:1: mbarrier.frob.shared.b64 is not PTX (the operations are init, inval, arrive, arrive_drop, expect_tx, complete_tx, test_wait, try_wait and pending_count; .noComplete goes with arrive or arrive_drop without .expect_tx, .parity with test_wait or try_wait)"},
		{"mbarrier unknown modifier", "mbarrier.init.foo.shared.b64 [%rd2], 1;", "t.ptx:11:1: mbarrier.init.foo is not PTX"},
		{"sin.rn", "sin.approx.rn.f32 %f1, %f2;", "t.ptx:11:1: sin.rn is not PTX"},
		{"unknown instruction", "frob.u32 %r1, %r2;", "t.ptx:11:1: unknown instruction frob (not a PTX instruction)"},
		{"tex", "tex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];", "t.ptx:11:1: unsupported: tex.1d.v4.s32.s32"},
		{"vadd", "vadd.u32.u32.u32 %r1, %r2, %r3;", "t.ptx:11:1: unsupported: vadd.u32.u32.u32"},
		{"membar.release", "membar.release;", "t.ptx:11:1: membar.release is not PTX (membar takes .cta, .gl, .sys or .proxy.<kind>)"},
		{"fence.gl", "fence.gl;", "t.ptx:11:1: fence.gl is not PTX (fence takes .sc, .acq_rel, .release, .acquire, .cta, .cluster, .gpu, .sys, .proxy.<kind> or .mbarrier_init)"},
		{"fence.proxy.tensormap", "fence.proxy.tensormap::generic.release.gpu;", "t.ptx:11:1: unsupported: fence.tensormap::generic"},
		{"max.relu.s32", "max.relu.s32 %r1, %r2, %r3;", "t.ptx:11:1: unsupported: max.relu.s32"},
		{"redux.sync.add.f32", "redux.sync.add.f32 %f1, %f2, -1;", "t.ptx:11:1: redux.sync.add.f32 is not PTX (.f32 only with .min and .max)"},
		{"cvt.pack.sat.u4", "cvt.pack.sat.u4.s32.b32 %r1, %r2, %r3, %r4;", "t.ptx:11:1: unsupported: cvt.pack.sat.u4"},
		{"st.async", "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %r1, [%rd2];", "t.ptx:11:1: unsupported: st.async"},
		{"red.async", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%rd1], %r1, [%rd2];", "t.ptx:11:1: unsupported: red.async"},
		{"suld", "suld.b.1d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r5}];", "t.ptx:11:1: unsupported: suld.b.1d.v4.b32.trap"},
		{"wgmma", "wgmma.fence.sync.aligned;", "t.ptx:11:1: unsupported: wgmma.fence.sync.aligned"},
		{"ldmatrix", "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%rd1];", "t.ptx:11:1: unsupported: ldmatrix.sync.aligned.m8n8.x1.shared.b16"},
		{"getctarank", "getctarank.shared::cluster.u32 %r1, %rd1;", "t.ptx:11:1: unsupported: getctarank.shared::cluster.u32"},
		{"barrier.cluster", "barrier.cluster.arrive;", "t.ptx:11:1: unsupported: barrier.cluster"},
		{"alloca", "alloca.u64 %rd1, %rd2;", "t.ptx:11:1: unsupported: alloca.u64"},
		{"stacksave", "stacksave.u64 %rd1;", "t.ptx:11:1: unsupported: stacksave.u64"},
		{"multimem", "multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];", "t.ptx:11:1: unsupported: multimem.ld_reduce.relaxed.sys.global.add.u32"},
		{"float reg+imm", "add.f32 %f1, %f2+1, %f1;", "t.ptx:11:14: unsupported: register-plus-offset operand %f2+1 of type .f32"},
		{"setp.ftz.bf16", "setp.lt.ftz.bf16 %p1, %h1, %h2;", "t.ptx:11:1: setp.ftz.bf16 is not PTX (.ftz goes with .f16 and .f16x2)"},
		{"lop3.or without p", "lop3.or.b32 %r1, %r2, %r3, %r4, 0x80, %p2;", "t.ptx:11:1: lop3 writes d|p with .and/.or and d alone without"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantAsmError(t, kernelHead+".visible .entry k()\n{\n"+regs+c.body+"\nret;\n}\n", c.want)
		})
	}
}

// 32-bit addressing is legal PTX the model does not run; other sizes are
// not PTX. Both errors are at the directive.
func TestAddressSize(t *testing.T) {
	for size, want := range map[string]string{
		"32": "t.ptx:3:1: unsupported: .address_size 32 (only 64)",
		"16": "t.ptx:3:1: .address_size 16 is not PTX (32 or 64)",
	} {
		wantAsmError(t, ".version 8.0\n.target sm_90\n.address_size "+size+"\n.visible .entry k()\n{\nret;\n}\n", want)
	}
}

// A .pred parameter is a .reg parameter of a .func (issue 16, item 5);
// anywhere else it is refused at its position.
func TestPredParamPlaces(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"param space", ".func f(.param .pred p) { ret; }\n", "t.ptx:4:9: a .pred parameter must be a .reg parameter of a .func"},
		{"kernel", ".visible .entry k(.param .pred p) { ret; }\n", "t.ptx:4:19: a .pred parameter must be a .reg parameter of a .func"},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantAsmError(t, kernelHead+c.src, c.want)
		})
	}
	if _, err := isa.AssembleSource("t.ptx", []byte(kernelHead+".func (.reg .pred r) f(.reg .pred p) { mov.pred r, p; ret; }\n")); err != nil {
		t.Fatalf(".reg .pred parameters: %v", err)
	}
}
