// Command longrun writes the smsim run arguments of the long benchmark run
// (the examples package's 48-warp integer loop, with enough iterations for
// at least 10 M cycles) into a file, one shell word per argument.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/smsim/smsim/examples"
)

func main() {
	out := flag.String("o", "", "file to write the arguments to")
	iters := flag.Uint64("iters", 70000, "loop iterations per thread (70000: about 10 M cycles on the h100 preset)")
	flag.Parse()
	e := examples.Benchmark()
	if *out == "" {
		log.Fatal("longrun: -o FILE is required")
	}
	ptx := filepath.Join(filepath.Dir(*out), e.Name+".ptx")
	if err := os.WriteFile(ptx, e.PTX, 0o644); err != nil {
		log.Fatal(err)
	}
	args := []string{ptx, "--grid", dim(e.Grid), "--block", dim(e.Block), "--set", "run.max_cycles=0", "--set", "run.watchdog_cycles=0"}
	for _, b := range e.Buffers {
		args = append(args, "--buf", fmt.Sprintf("%s=%d", b.Param, 4*b.Words))
	}
	for k, v := range e.Args {
		if k == examples.BenchIters {
			v = *iters
		}
		args = append(args, "--arg", fmt.Sprintf("%s=%d", k, v))
	}
	if err := os.WriteFile(*out, []byte(strings.Join(args, " ")), 0o644); err != nil {
		log.Fatal(err)
	}
}

func dim(d examples.Dim3) string {
	return fmt.Sprintf("%d,%d,%d", max(d[0], 1), max(d[1], 1), max(d[2], 1))
}
