// Command gentable writes the files generated from the Go signal tables
// of the cosimulated units (cosim.GeneratedFiles) into verilog/dv/gen:
// the C++ harness's port and register marshalling per unit, the Verilator
// configuration exposing the registers, and the units and parameter sets
// for verilog/Makefile. Run it through `go generate ./cosim`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/smsim/smsim/cosim"
)

func main() {
	out := flag.String("out", "../verilog/dv/gen", "output directory")
	flag.Parse()
	if err := cosim.WriteGenerated(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gentable:", err)
		os.Exit(1)
	}
}
