// Command tracerun runs one of the examples package's kernels with the SM
// tracer attached and writes the VCD and the GTKWave save file beside it:
// what `smsim run --vcd` does, for kernels that need the examples
// package's buffers. scripts/screenshot.sh uses it.
//
//	go run ./trace/internal/tracerun -example trap_divergent -o out/trap.vcd [-preset small] [-scope P,...] [-window S:E] [-fst]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/smsim/smsim/config"
	"github.com/smsim/smsim/internal/exlaunch"
	"github.com/smsim/smsim/trace"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tracerun:", err)
		os.Exit(1)
	}
}

func run() error {
	name := flag.String("example", "div_ifelse", "example kernel (examples package)")
	out := flag.String("o", "trace.vcd", "VCD file; the .gtkw is written beside it")
	preset := flag.String("preset", "small", "configuration preset")
	scope := flag.String("scope", "", "comma-separated scope prefixes (--vcd-scope)")
	window := flag.String("window", "", "START:END cycles (--vcd-window)")
	fst := flag.Bool("fst", false, "also convert to FST with vcd2fst (--fst)")
	flag.Parse()
	cfg, err := config.Preset(*preset)
	if err != nil {
		return err
	}
	opt := trace.Options{Scopes: trace.ParseScopes(*scope), FST: *fst}
	if *window != "" {
		if opt.Start, opt.End, err = trace.ParseWindow(*window); err != nil {
			return err
		}
	}
	sm, err := exlaunch.NewByName(*name, cfg)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	tr, err := trace.Attach(sm, f, opt)
	if err != nil {
		f.Close()
		return err
	}
	rep, err := sm.Run()
	if err != nil {
		return err
	}
	if err := tr.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if *fst {
		if _, err := trace.ConvertFST(*out); err != nil {
			fmt.Fprintln(os.Stderr, "tracerun: warning:", err)
		}
	}
	if err := trace.WriteGTKW(trace.SavePath(*out), *out, opt); err != nil {
		return err
	}
	fmt.Printf("%s: %s after %d cycles; wrote %s and %s\n", *name, rep.Status, rep.Cycles, *out, trace.SavePath(*out))
	return nil
}
