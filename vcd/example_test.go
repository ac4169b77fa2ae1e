package vcd_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/smsim/smsim/vcd"
)

// A two-signal counter dumped for three clock edges.
func ExampleWriter() {
	w := vcd.NewWriter(os.Stdout)
	w.Timescale = "1ns"
	w.Scope(vcd.ScopeModule, "top")
	clk, _ := w.Register(vcd.Wire, 1, "clk")
	cnt, _ := w.Register(vcd.Reg, 8, "count[7:0]")
	w.Upscope()
	w.SetUint(clk, 0)
	w.SetUint(cnt, 0)
	for t := uint64(0); t < 3; t++ {
		w.SetTime(t*10 + 5)
		w.SetUint(clk, 1)
		w.SetUint(cnt, t+1)
		w.SetTime(t*10 + 10)
		w.SetUint(clk, 0)
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// $timescale 1ns $end
	// $scope module top $end
	// $var wire 1 ! clk $end
	// $var reg 8 " count [7:0] $end
	// $upscope $end
	// $enddefinitions $end
	// #5
	// $dumpvars
	// 0!
	// b0 "
	// $end
	// 1!
	// b1 "
	// #10
	// 0!
	// #15
	// 1!
	// b10 "
	// #20
	// 0!
	// #25
	// 1!
	// b11 "
	// #30
	// 0!
}

// Four-state values, reals and strings; errors are sticky.
func ExampleWriter_SetBits() {
	var b strings.Builder
	w := vcd.NewWriter(&b)
	bus, _ := w.Register(vcd.Wire, 8, "bus")
	temp, _ := w.Register(vcd.Real, 64, "temp")
	op, _ := w.Register(vcd.String, 1, "op")
	w.SetTime(0)
	w.SetBits(bus, "zz01")   // left-extended with z: zzzzzz01
	w.SetReal(temp, 36.6)    // r36.6
	w.SetString(op, "ld r1") // the space is escaped
	w.SetTime(1)
	w.SetX(bus)
	err := w.SetTime(1) // not increasing: an error, remembered
	fmt.Println(err)
	fmt.Println(w.Close() == err)
	fmt.Print(b.String()[strings.Index(b.String(), "#0"):])
	// Output:
	// vcd: time is not strictly increasing: SetTime(1) after time 1
	// true
	// #0
	// $dumpvars
	// bx !
	// r0 "
	// s #
	// $end
	// bz01 !
	// r36.6 "
	// sld\x20r1 #
	// #1
	// bx !
}

func ExampleReader() {
	const dump = `$timescale 1ns $end
$scope module sm_top $end
$scope module u_warp_sched $end
$var reg 4 ! pc_q [3:0] $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
b0 !
#10
b101 !
`
	r := vcd.NewReader(strings.NewReader(dump))
	r.Strict = true
	h, err := r.Header()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Timescale, h.Vars[0].Name, h.Vars[0].Width)
	err = r.Each(func(c vcd.Change) error {
		fmt.Println(c.Time, c.ID, c.Bits)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1ns sm_top.u_warp_sched.pc_q 4
	// 0 ! 0000
	// 10 ! 0101
}

func ExampleDiff() {
	a := "$scope module top $end\n$var wire 4 ! q $end\n$upscope $end\n$enddefinitions $end\n#0\nb0 !\n#10\nb1 !\n#20\nb10 !\n"
	b := strings.Replace(a, "#10\nb1 !", "#10\nb11 !", 1)
	res, err := vcd.Diff(strings.NewReader(a), strings.NewReader(b), vcd.DiffOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Equal, res.Count, res.First)
	// Output:
	// false 1 #10 top.q: a=0001 b=0011
}
