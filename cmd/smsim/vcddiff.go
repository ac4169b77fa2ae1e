package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/smsim/smsim/vcd"
)

func vcddiffCommand() *cli.Command {
	return &cli.Command{
		Name:      "vcddiff",
		Usage:     "compare two VCD files signal by signal (exit 1 when they differ)",
		ArgsUsage: "A.vcd B.vcd",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scope", Usage: "compare only signals under this scope (dotted path)"},
			&cli.StringSliceFlag{Name: "signal", Usage: "compare only this signal (full dotted name; repeatable)"},
			&cli.BoolFlag{Name: "missing", Usage: "signals present in only one file count as differences"},
			&cli.BoolFlag{Name: "strict", Usage: "parse both files in strict mode (reject every format defect)"},
			&cli.IntFlag{Name: "max", Value: 10, Usage: "differences to list"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return badInput(fmt.Errorf("vcddiff: expected two VCD files, got %d arguments", c.NArg()))
			}
			fa, err := os.Open(c.Args().Get(0))
			if err != nil {
				return badInput(err)
			}
			defer fa.Close()
			fb, err := os.Open(c.Args().Get(1))
			if err != nil {
				return badInput(err)
			}
			defer fb.Close()
			res, err := vcd.Diff(fa, fb, vcd.DiffOptions{Prefix: c.String("scope"), Signals: c.StringSlice("signal"), ReportMissing: c.Bool("missing"), Strict: c.Bool("strict"), MaxDiffs: c.Int("max")})
			if err != nil {
				return badInput(err)
			}
			w := c.App.Writer
			if res.Equal {
				fmt.Fprintf(w, "equal: %d signals compared\n", res.Compared)
				return nil
			}
			if res.First != nil {
				fmt.Fprintf(w, "first difference at time %d (%s): %s: A=%s B=%s\n", res.First.Time, res.Timescale, res.First.Signal, res.First.A, res.First.B)
			}
			fmt.Fprintf(w, "%d differences over %d signals compared\n", res.Count, res.Compared)
			for _, d := range res.Diffs {
				fmt.Fprintf(w, "  %s\n", d)
			}
			for _, s := range res.OnlyInA {
				fmt.Fprintf(w, "  only in A: %s\n", s)
			}
			for _, s := range res.OnlyInB {
				fmt.Fprintf(w, "  only in B: %s\n", s)
			}
			return abnormal(nil)
		},
	}
}
