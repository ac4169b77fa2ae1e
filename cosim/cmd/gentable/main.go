// Command gentable writes the files generated from the Go signal tables
// of the cosimulated units (cosim.GeneratedFiles) into verilog/dv/gen:
// the C++ harness's port and register marshalling per unit, the Verilator
// configuration exposing the registers, and the units and parameter sets
// for verilog/Makefile; and the SystemVerilog package of shared encodings
// (cosim.SVPackage) into verilog/rtl/smsim_pkg.sv. Run it through
// `go generate ./cosim`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/smsim/smsim/cosim"
)

func main() {
	out := flag.String("out", "../verilog/dv/gen", "output directory")
	pkg := flag.String("pkg", "../verilog/"+cosim.SVPackagePath, "the SystemVerilog package to write")
	flag.Parse()
	if err := cosim.WriteGenerated(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
	text, err := cosim.SVPackage()
	if err == nil {
		err = os.WriteFile(*pkg, text, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
}
