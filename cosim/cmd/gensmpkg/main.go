// Command gensmpkg writes the SM RTL's ISA package (cosim.SMISAPackage)
// into verilog/rtl/sm_isa_pkg.sv. Run it through `go generate ./cosim`.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/smsim/smsim/cosim"
)

func main() {
	out := flag.String("out", "../verilog/"+cosim.SMISAPackagePath, "the SystemVerilog package to write")
	flag.Parse()
	if err := os.WriteFile(*out, cosim.SMISAPackage(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gensmpkg:", err)
		os.Exit(1)
	}
}
